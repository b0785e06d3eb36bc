//! The extractor: text → [`Quantity`] list. See the module documentation of `quantity` for what
//! is and is not a quantity; the rules are spelled out next to the code that applies them.

use std::cell::OnceCell;

use super::ambiguous_units::{choose, TextCues};
use super::lexicon::{self, PREFIX_CONDITIONS, SUFFIX_CONDITIONS};
use super::tokens::{tokenize, Kind, Token};
use super::{Change, NumberKind, PerUnit, Quantity, QuantityUnit, Value};
use crate::{Unit, UnitTable};

/// Every quantity in `text`, in text order.
pub fn extract(text: &str) -> Vec<Quantity> {
    let mut tokens = Vec::with_capacity(text.len() / 4 + 1);
    tokenize(text, &mut tokens);
    Scan {
        text,
        lower: text.to_ascii_lowercase(),
        toks: tokens,
        table: UnitTable::builtin(),
        cues: OnceCell::new(),
    }
    .run()
}

/// A number found in the token stream, with what was learned about it so far.
#[derive(Debug, Clone)]
struct Mention {
    /// First token of the number (a sign included).
    first: usize,
    /// One past the last token of the number (scale words included).
    last: usize,
    value: f64,
    kind: NumberKind,
    /// The multiplier a scale word or suffix applied ("5 million": 1e6).
    scale: f64,
    /// Written in digits without sign, separators or decimals: the digit count.
    plain_digits: Option<usize>,
    has_comma: bool,
    in_words: bool,
    /// A currency symbol before the number: its first token and unit.
    currency: Option<(usize, &'static Unit)>,
    unit: Option<UnitReading>,
    /// One past the last token of the quantity (unit included).
    end: usize,
    change: Change,
    range_to: Option<f64>,
    /// Letters glued to the end of the digits that were not read as anything ("5G").
    glued_tail: bool,
}

/// A unit reading before disambiguation.
#[derive(Debug, Clone)]
struct UnitReading {
    surface: String,
    /// Table readings, most common first; empty for a plain noun.
    candidates: Vec<&'static Unit>,
    noun: Option<String>,
    /// Set when a noun is also a count unit of the table ("users" → person).
    noun_unit: Option<&'static Unit>,
    per: Option<PerUnit>,
}

/// How a mention relates to the one before it.
enum Join {
    /// "13 dollars and 45 cents": the second adds this much to the first.
    Compound(f64),
    /// "a 3-3 draw", "won 2-1": a match score, not a quantity.
    Score,
    Range,
    /// "eight or nine euros": the first takes the second's unit.
    ShareUnit,
    Apart,
}

fn number(mention: Mention) -> Reading {
    Reading::Number(Box::new(mention))
}

enum Reading {
    Number(Box<Mention>),
    /// Not a quantity (a date, a phone number …): continue after these tokens.
    Skip(usize),
    Nothing,
}

struct Scan<'t> {
    text: &'t str,
    /// `text` with ASCII letters lower-cased: same byte offsets.
    lower: String,
    toks: Vec<Token>,
    table: &'static UnitTable,
    cues: OnceCell<TextCues>,
}

impl<'t> Scan<'t> {
    fn run(self) -> Vec<Quantity> {
        let mut mentions = Vec::new();
        let mut i = 0;
        while i < self.toks.len() {
            match self.read_number(i) {
                Reading::Number(mention) => {
                    i = mention.last.max(i + 1);
                    mentions.push(*mention);
                }
                Reading::Skip(next) => i = next.max(i + 1),
                Reading::Nothing => i += 1,
            }
        }
        let mut kept: Vec<Mention> = Vec::with_capacity(mentions.len());
        let mut dropped_end = usize::MAX;
        for mut mention in mentions {
            self.read_unit(&mut mention);
            // "ISO 3888-2": the number after a dropped one and a hyphen goes with it.
            let continues_dropped = mention.first >= 2
                && dropped_end == mention.first - 1
                && self.raw_if_sym(mention.first - 1) == Some("-")
                && self.glued(mention.first);
            if continues_dropped || self.is_not_a_quantity(&mention) {
                dropped_end = mention.end.max(mention.last);
                continue;
            }
            mention.change = self.change_of(&mention);
            kept.push(mention);
        }
        self.join_ranges(&mut kept);
        for i in 1..kept.len() {
            if kept[i].change == Change::Equal && self.restates(&kept[i - 1], &kept[i]) {
                kept[i].change = kept[i - 1].change;
            }
        }
        self.resolve(kept)
    }

    // ----- token helpers -------------------------------------------------------------------

    fn raw(&self, i: usize) -> &'t str {
        let t = self.toks[i];
        &self.text[t.start..t.end]
    }

    /// The token lower-cased (ASCII), or "" past the end.
    fn low(&self, i: usize) -> &str {
        match self.toks.get(i) {
            Some(t) => &self.lower[t.start..t.end],
            None => "",
        }
    }

    fn kind(&self, i: usize) -> Option<Kind> {
        self.toks.get(i).map(|t| t.kind)
    }

    fn is_word(&self, i: usize) -> bool {
        self.kind(i) == Some(Kind::Word)
    }

    /// Token `i` exists and touches the token before it.
    fn glued(&self, i: usize) -> bool {
        self.toks.get(i).is_some_and(|t| !t.spaced)
    }

    fn word_before(&self, i: usize) -> &str {
        if i == 0 {
            ""
        } else {
            self.low(i - 1)
        }
    }

    fn is_capitalised(&self, i: usize) -> bool {
        self.is_word(i) && self.raw(i).chars().any(char::is_uppercase)
    }

    /// Tokens `from..to` are separated by at most one white-space character each.
    fn tight(&self, from: usize, to: usize) -> bool {
        (from + 1..to).all(|k| {
            let gap = &self.text[self.toks[k - 1].end..self.toks[k].start];
            gap.chars().count() <= 1
        })
    }

    fn cues(&self) -> &TextCues {
        self.cues.get_or_init(|| {
            let words = self
                .toks
                .iter()
                .filter(|t| t.kind == Kind::Word)
                .map(|t| &self.lower[t.start..t.end]);
            let mut cues = TextCues::from_words(words);
            cues.add_symbols(self.text);
            cues
        })
    }

    // ----- numbers ---------------------------------------------------------------------------

    fn read_number(&self, i: usize) -> Reading {
        match self.toks[i].kind {
            Kind::Num => self.read_digits(i),
            Kind::Word => self.read_words(i),
            Kind::Sym => match lexicon::fraction_char(self.raw(i)) {
                Some(value) => number(Mention::new(i, i + 1, value, NumberKind::Fraction)),
                None => Reading::Nothing,
            },
        }
    }

    fn read_digits(&self, i: usize) -> Reading {
        let raw = self.raw(i);
        if raw.matches('.').count() >= 2 {
            // "1.2.3", "12.05.2020": versions and dates.
            return Reading::Skip(i + 1);
        }
        let sym = |k: usize, s: &str| {
            self.kind(k) == Some(Kind::Sym) && self.glued(k) && self.raw(k) == s
        };
        let num = |k: usize| self.kind(k) == Some(Kind::Num) && self.glued(k);
        // Times: "10:30", "1:36.6".
        if sym(i + 1, ":") && num(i + 2) {
            let mut end = i + 3;
            while sym(end, ":") && num(end + 1) {
                end += 2;
            }
            return Reading::Skip(end);
        }
        // Slashes: "3/4" a fraction; "12/05/2020", "9/11", "24/7" not quantities.
        if sym(i + 1, "/") && num(i + 2) {
            if sym(i + 3, "/") && num(i + 4) {
                return Reading::Skip(i + 5);
            }
            let a: f64 = raw.parse().unwrap_or(f64::NAN);
            let b: f64 = self.raw(i + 2).parse().unwrap_or(f64::NAN);
            let fraction_denominator = [2.0, 3.0, 4.0, 5.0, 8.0, 10.0, 16.0, 100.0].contains(&b);
            if fraction_denominator && a < b && !raw.contains(['.', ',']) {
                return number(Mention::new(i, i + 3, a / b, NumberKind::Fraction));
            }
            return Reading::Skip(i + 3);
        }
        // ISO dates "2020-05-12".
        if raw.len() == 4 && sym(i + 1, "-") && num(i + 2) && sym(i + 3, "-") && num(i + 4) {
            return Reading::Skip(i + 5);
        }
        if let Some(end) = self.phone_number_end(i) {
            return Reading::Skip(end);
        }

        let mut first = i;
        let mut last = i + 1;
        let mut digits: String = raw.chars().filter(|&c| c != ',').collect();
        let has_comma = raw.contains(',');
        // Space-separated thousands: "6 000", "1 250 000".
        if !has_comma && !raw.contains('.') && raw.len() <= 3 {
            while self.kind(last) == Some(Kind::Num)
                && self.raw(last).len() == 3
                && !self.glued(last)
                && self.tight(last - 1, last + 1)
                && !self.glued(last + 1)
            {
                digits.push_str(self.raw(last));
                last += 1;
            }
        }
        let mut value: f64 = digits.parse().unwrap_or(f64::NAN);
        let mut plain_digits =
            (!has_comma && !digits.contains('.') && last == i + 1).then_some(digits.len());

        // Signs glued to the number at the start of a word: "-5", "−3.2", "+4".
        if i > 0 && self.glued(i) && self.kind(i - 1) == Some(Kind::Sym) {
            let sign = self.raw(i - 1);
            let after_number = i >= 2 && self.kind(i - 2) == Some(Kind::Num);
            let starts_word = !after_number
                && (i == 1
                    || self.toks[i - 1].spaced
                    || matches!(self.raw(i - 2), "(" | "[" | "~" | ":"));
            // "$-12.4m": a sign between a currency symbol and the digits.
            let after_currency_sign = !after_number
                && i >= 2
                && self.glued(i - 1)
                && matches!(self.raw(i - 2), "$" | "£" | "€" | "¥");
            if (starts_word || after_currency_sign) && matches!(sign, "-" | "−" | "+") {
                if sign != "+" {
                    value = -value;
                }
                first = i - 1;
                plain_digits = None;
            }
            // "minus-3 degrees".
            if sign == "-" && i >= 2 && self.glued(i - 1) && self.low(i - 2) == "minus" {
                value = -value;
                first = i - 2;
                plain_digits = None;
            }
        } else if i > 0 && self.low(i - 1) == "minus" && !self.glued(i) {
            // "minus 3 degrees".
            value = -value;
            first = i - 1;
            plain_digits = None;
        }

        // Scientific notation: "1.5e6", "2E-3", "3 × 10^8".
        if let Some((exponent, end)) = self.exponent_after(last) {
            value = scientific(&digits, value, exponent);
            last = end;
            plain_digits = None;
        }

        // Mixed fractions: "10 1/2 miles", "7 3/4 %".
        if plain_digits.is_some()
            && self.kind(last) == Some(Kind::Num)
            && !self.glued(last)
            && self.raw_if_sym(last + 1) == Some("/")
            && self.glued(last + 1)
            && num(last + 2)
        {
            let a: f64 = self.raw(last).parse().unwrap_or(f64::NAN);
            let b: f64 = self.raw(last + 2).parse().unwrap_or(f64::NAN);
            if a < b && [2.0, 3.0, 4.0, 8.0, 16.0].contains(&b) {
                value += a / b;
                last += 3;
                plain_digits = None;
            }
        }
        let mut mention = Mention::new(first, last, value, NumberKind::Cardinal);
        mention.has_comma = has_comma;

        // Vulgar fraction glued on: "2½".
        if self.kind(last) == Some(Kind::Sym) && self.glued(last) {
            if let Some(f) = lexicon::fraction_char(self.raw(last)) {
                mention.value += f.copysign(mention.value);
                mention.last += 1;
                plain_digits = None;
            }
        }

        // Letters glued to the digits: ordinal, decade, clock, scale — or a unit, read later.
        let tail = mention.last;
        if self.is_word(tail) && self.glued(tail) {
            let word = self.raw(tail);
            if lexicon::is_ordinal_suffix(word) {
                mention.kind = NumberKind::Ordinal;
                mention.last = tail + 1;
            } else if word == "s" && digits.ends_with('0') {
                return Reading::Skip(tail + 1); // "1990s", "90s"
            } else if self.is_clock(tail) {
                return Reading::Skip(tail + 1);
            } else if word == "G" && (2.0..=6.0).contains(&value) && plain_digits == Some(1) {
                // "5G", "4G": a network generation, not gauss.
                mention.last = tail + 1;
                mention.kind = NumberKind::Ordinal;
            } else if let Some(scale) = self.glued_scale(word, first) {
                mention.value = round_scaled(mention.value * scale);
                mention.scale = scale;
                mention.last = tail + 1;
                plain_digits = None;
            }
        }
        self.scale_words(&mut mention);
        if mention.scale != 1.0 {
            plain_digits = None;
        }
        mention.plain_digits = plain_digits;
        number(mention)
    }

    /// Scale suffixes glued to digits; "m"/"b" count as million/billion only after a currency
    /// ("$5m"), otherwise they are units ("5m" is five metres).
    fn glued_scale(&self, word: &str, first: usize) -> Option<f64> {
        if let Some(scale) = lexicon::glued_scale(word) {
            return Some(scale);
        }
        let after_currency =
            || self.currency_before(first).is_some() || self.currency_word_follows(first);
        // "2.5m barrels", "3m people": a plural word after the suffix makes it a scale (but
        // "the 100m hurdles" is a distance).
        let counted_follows = || {
            let mut k = first;
            while k < self.toks.len() && (k == first || self.glued(k)) {
                k += 1;
            }
            let w = self.low(k);
            self.is_word(k)
                && is_plural(w)
                && !matches!(
                    w,
                    "hurdles" | "relays" | "sprints" | "heats" | "finals" | "races"
                )
        };
        match word {
            "m" | "M" if after_currency() || counted_follows() => Some(1e6),
            "b" | "B" if after_currency() || counted_follows() => Some(1e9),
            _ => None,
        }
    }

    /// A currency word after the glued suffix of the number starting at `first`: "1.8M dollars".
    fn currency_word_follows(&self, first: usize) -> bool {
        let mut k = first;
        while k < self.toks.len() && (k == first || self.glued(k)) {
            k += 1;
        }
        self.is_word(k)
            && self
                .table
                .lookup(self.raw(k))
                .iter()
                .any(|u| u.dimension == "currency")
    }

    /// Scale words after a number: "1.2 million", "two hundred thousand", "5 dozen".
    fn scale_words(&self, mention: &mut Mention) {
        // "$5.5-million", "a 2-billion budget": a scale word joined by a hyphen.
        let k = mention.last;
        if self.raw_if_sym(k) == Some("-")
            && self.glued(k)
            && self.is_word(k + 1)
            && self.glued(k + 1)
        {
            if let Some(scale) = lexicon::scale_word(self.low(k + 1)) {
                mention.value = round_scaled(mention.value * scale);
                mention.scale *= scale;
                mention.last = k + 2;
            }
        }
        loop {
            let k = mention.last;
            if !self.is_word(k) {
                break;
            }
            let word = self.low(k);
            // "7 B users", "3 M subscribers".
            let letter_scale = match self.raw(k) {
                "B" => Some(1e9),
                "M" => Some(1e6),
                _ => None,
            };
            if let Some(scale) = letter_scale {
                if self.is_word(k + 1) && is_plural(self.low(k + 1)) {
                    mention.value = round_scaled(mention.value * scale);
                    mention.scale *= scale;
                    mention.last = k + 1;
                }
                break;
            }
            let scale = match word {
                "dozen" => 12.0,
                _ => match lexicon::scale_word(word) {
                    Some(s) => s,
                    None => break,
                },
            };
            mention.value = round_scaled(mention.value * scale);
            mention.scale *= scale;
            mention.last = k + 1;
        }
    }

    /// "e6", "E-3" glued, or "× 10^8" / "x10^8": the exponent and the end token.
    fn exponent_after(&self, k: usize) -> Option<(i32, usize)> {
        let glued_num = |j: usize| self.kind(j) == Some(Kind::Num) && self.glued(j);
        let signed = |j: usize| -> Option<(i32, usize)> {
            let (negative, at) = match self.raw_if_sym(j) {
                Some("-") | Some("−") if self.glued(j) => (true, j + 1),
                Some("+") if self.glued(j) => (false, j + 1),
                _ => (false, j),
            };
            if !glued_num(at) || self.raw(at).contains([',', '.']) {
                return None;
            }
            let e: i32 = self.raw(at).parse().ok()?;
            Some((if negative { -e } else { e }, at + 1))
        };
        if self.is_word(k) && self.glued(k) && matches!(self.raw(k), "e" | "E") {
            return signed(k + 1);
        }
        let times = matches!(self.raw_if_any(k), Some("×") | Some("x") | Some("*"));
        if times
            && self.kind(k + 1) == Some(Kind::Num)
            && self.raw(k + 1) == "10"
            && self.raw_if_sym(k + 2) == Some("^")
            && self.glued(k + 2)
        {
            return signed(k + 3);
        }
        None
    }

    fn raw_if_sym(&self, k: usize) -> Option<&'t str> {
        (self.kind(k) == Some(Kind::Sym)).then(|| self.raw(k))
    }

    fn raw_if_any(&self, k: usize) -> Option<&'t str> {
        (k < self.toks.len()).then(|| self.raw(k))
    }

    /// "5pm", "10.45pm", "11 a.m.", "5 PM".
    fn is_clock(&self, k: usize) -> bool {
        if !self.is_word(k) {
            return false;
        }
        match self.raw(k) {
            "am" | "pm" | "AM" | "PM" => {
                // "5 am" but not "5 am I": require a clock-like context for the spaced form.
                self.glued(k) || !self.is_word(k + 1) || self.low(k + 1) != "i"
            }
            "a" | "p" | "A" | "P" => {
                self.raw_if_sym(k + 1) == Some(".") && matches!(self.low(k + 2), "m")
            }
            _ => false,
        }
    }

    /// Phone numbers: "555-1234", "555-123-4567", "(555) 123-4567", "+44 20 7946 0958".
    fn phone_number_end(&self, i: usize) -> Option<usize> {
        let len = |k: usize| self.raw(k).len();
        let is_group = |k: usize| {
            self.kind(k) == Some(Kind::Num)
                && !self.raw(k).contains([',', '.'])
                && (2..=4).contains(&len(k))
        };
        let international = i > 0 && self.raw_if_sym(i - 1) == Some("+") && self.glued(i);
        let bracketed =
            i > 0 && self.raw_if_sym(i - 1) == Some("(") && self.raw_if_sym(i + 1) == Some(")");
        if bracketed
            && len(i) == 3
            && is_group(i + 2)
            && len(i + 2) == 3
            && self.raw_if_sym(i + 3) == Some("-")
            && is_group(i + 4)
            && len(i + 4) == 4
        {
            return Some(i + 5);
        }
        if international {
            // At least three spaced or dashed groups.
            let mut k = i + 1;
            let mut groups = 1;
            while k < self.toks.len() {
                let dash = self.raw_if_sym(k) == Some("-") && self.glued(k);
                let next = if dash { k + 1 } else { k };
                if is_group(next) && self.tight(next - 1, next + 1) {
                    groups += 1;
                    k = next + 1;
                } else {
                    break;
                }
            }
            return (groups >= 3).then_some(k);
        }
        if len(i) == 3 && is_group(i) {
            let dash = |k: usize| {
                matches!(self.raw_if_sym(k), Some("-") | Some("."))
                    && self.glued(k)
                    && self.glued(k + 1)
            };
            if dash(i + 1) && is_group(i + 2) {
                if len(i + 2) == 4 {
                    return Some(i + 3);
                }
                if len(i + 2) == 3 && dash(i + 3) && is_group(i + 4) && len(i + 4) == 4 {
                    return Some(i + 5);
                }
            }
        }
        None
    }

    fn read_words(&self, i: usize) -> Reading {
        let word = self.low(i);
        let next = self.low(i + 1);
        // "a dozen", "a hundred", "a million", "a third of", "a couple of".
        if matches!(word, "a" | "an") {
            let mut mention = if next == "dozen" {
                Mention::new(i, i + 2, 12.0, NumberKind::Cardinal)
            } else if let Some(scale) = lexicon::scale_word(next).filter(|s| *s >= 100.0) {
                let mut m = Mention::new(i, i + 2, scale, NumberKind::Cardinal);
                m.scale = scale;
                m
            } else if let Some(denominator) =
                lexicon::fraction_word(next).filter(|_| self.low(i + 2) == "of")
            {
                Mention::new(i, i + 2, 1.0 / denominator, NumberKind::Fraction)
            } else if next == "couple" && self.low(i + 2) == "of" {
                Mention::new(i, i + 2, 2.0, NumberKind::Cardinal)
            } else {
                return Reading::Nothing;
            };
            mention.in_words = true;
            self.scale_words(&mut mention);
            return number(mention);
        }
        if let Some(reading) = self.vague_amount(i) {
            return reading;
        }
        if word == "half" {
            let mut mention = if matches!(next, "a" | "an")
                && (self.low(i + 2) == "dozen" || lexicon::scale_word(self.low(i + 2)).is_some())
            {
                let mut m = Mention::new(i, i + 2, 0.5, NumberKind::Cardinal);
                self.scale_words(&mut m);
                m
            } else if next == "of" || self.condition_word_before(i) {
                Mention::new(i, i + 1, 0.5, NumberKind::Fraction)
            } else {
                return Reading::Nothing;
            };
            mention.in_words = true;
            return number(mention);
        }
        if let Some(n) = lexicon::multiplier_word(word) {
            let mut m = Mention::new(i, i + 1, n as f64, NumberKind::Multiplier);
            m.in_words = true;
            return number(m);
        }
        if let Some(n) = lexicon::ordinal_word(word) {
            let mut m = Mention::new(i, i + 1, n as f64, NumberKind::Ordinal);
            m.in_words = true;
            return number(m);
        }
        if lexicon::unit_word(word).is_none() && lexicon::tens_word(word).is_none() {
            return Reading::Nothing;
        }
        // A number word inside a name ("Formula One", "Big Ten") or a compound
        // ("production-four-door").
        if self.is_capitalised(i) && i > 0 && self.is_capitalised(i - 1) {
            return Reading::Nothing;
        }
        if i > 1
            && self.glued(i)
            && self.raw_if_sym(i - 1) == Some("-")
            && self.glued(i - 1)
            && self.is_word(i - 2)
        {
            return Reading::Nothing;
        }
        let Some(mut mention) = self.number_words(i) else {
            return Reading::Nothing;
        };
        // "one" as a pronoun: "each one", "the one that", "one of them", "get one".
        if mention.last == i + 1 && word == "one" {
            let after = self.low(i + 1);
            let determiner = matches!(
                self.low(i + 2),
                "the" | "his" | "her" | "its" | "their" | "our" | "my" | "your" | "those" | "these"
            );
            let noun_follows = (self.is_word(i + 1)
                && !lexicon::is_function_word(after)
                && !self.glued(i + 1))
                || (after == "-" && self.glued(i + 1) && self.is_word(i + 2) && self.glued(i + 2));
            let number_follows = matches!(after, "to" | "or" | "-" | "and")
                && (self.kind(i + 2) == Some(Kind::Num)
                    || lexicon::unit_word(self.low(i + 2)).is_some());
            if (lexicon::pronoun_one_cue(self.word_before(i)) && !noun_follows && !determiner)
                || (after == "of" && !determiner)
                || (after != "of" && !noun_follows && !number_follows)
            {
                return Reading::Nothing;
            }
        }
        mention.in_words = true;
        number(mention)
    }

    /// Vague amounts as order-of-magnitude ranges: "dozens of" 12–120, "thousands of"
    /// 1,000–10,000, "tens of millions of" 10–100 million.
    fn vague_amount(&self, i: usize) -> Option<Reading> {
        let magnitude = |w: &str| -> Option<f64> {
            match w {
                "dozens" => Some(12.0),
                "hundreds" => Some(1e2),
                "thousands" => Some(1e3),
                "millions" => Some(1e6),
                "billions" => Some(1e9),
                "trillions" => Some(1e12),
                _ => None,
            }
        };
        let word = self.low(i);
        let of_magnitude =
            magnitude(self.low(i + 2)).filter(|m| *m >= 1e3 && self.low(i + 1) == "of");
        let (low, last) = match (word, of_magnitude) {
            ("tens", Some(m)) => (10.0 * m, i + 3),
            ("hundreds", Some(m)) => (100.0 * m, i + 3),
            _ => (magnitude(word)?, i + 1),
        };
        if self.low(last) != "of" {
            return None;
        }
        // "of" belongs to the amount, so that the noun after it is the counted thing.
        let mut mention = Mention::new(i, last + 1, low, NumberKind::Cardinal);
        mention.range_to = Some(low * 10.0);
        mention.in_words = true;
        Some(number(mention))
    }

    /// "seventeen", "two hundred and five", "twenty-five thousand", "two thirds",
    /// "one and a half", "ninety five".
    fn number_words(&self, i: usize) -> Option<Mention> {
        let mut total = 0u64;
        let mut current = 0u64;
        let mut k = i;
        let mut last = i;
        // What may come next: a units word (after tens, hundred or scale), tens (after hundred or
        // scale), hundred/scale (after a number).
        let mut units_ok = true;
        let mut tens_ok = true;
        let mut saw_big = false;
        while k < self.toks.len() {
            if self.raw_if_sym(k) == Some("-") && self.glued(k) && self.glued(k + 1) && last == k {
                k += 1;
                continue;
            }
            if !self.is_word(k) {
                break;
            }
            let word = self.low(k);
            if let Some(n) = lexicon::unit_word(word).filter(|_| units_ok) {
                current += n as u64;
                units_ok = false;
                tens_ok = false;
            } else if let Some(n) = lexicon::tens_word(word).filter(|_| tens_ok) {
                current += n as u64;
                tens_ok = false;
                units_ok = true;
            } else if word == "hundred" && current > 0 && current < 100 {
                current *= 100;
                units_ok = true;
                tens_ok = true;
                saw_big = true;
            } else if let Some(scale) = lexicon::scale_word(word).filter(|s| *s >= 1e3) {
                if last == i && current == 0 {
                    break;
                }
                total += current.max(1) * scale as u64;
                current = 0;
                units_ok = true;
                tens_ok = true;
                saw_big = true;
            } else if word == "and"
                && saw_big
                && (lexicon::unit_word(self.low(k + 1)).is_some()
                    || lexicon::tens_word(self.low(k + 1)).is_some())
            {
                k += 1;
                continue;
            } else {
                break;
            }
            k += 1;
            last = k;
        }
        if last == i {
            return None;
        }
        let mut value = (total + current) as f64;
        let mut kind = NumberKind::Cardinal;
        let mut end = last;
        // "two thirds", "three quarters", "one-third".
        let hyphen = self.raw_if_sym(end) == Some("-") && self.glued(end) && self.glued(end + 1);
        let fraction_at = if hyphen { end + 1 } else { end };
        if value < 20.0 {
            if let Some(d) = lexicon::fraction_word(self.low(fraction_at)) {
                let plural_ok = value == 1.0 || self.low(fraction_at).ends_with('s');
                if plural_ok && self.low(fraction_at) != "second" {
                    value /= d;
                    kind = NumberKind::Fraction;
                    end = fraction_at + 1;
                }
            }
        }
        // "one and a half".
        if kind == NumberKind::Cardinal
            && self.low(end) == "and"
            && self.low(end + 1) == "a"
            && self.low(end + 2) == "half"
        {
            value += 0.5;
            end += 3;
        }
        let mut mention = Mention::new(i, end, value, kind);
        self.scale_words(&mut mention);
        Some(mention)
    }

    // ----- currency and units -------------------------------------------------------------------

    /// A currency symbol or code right before token `first` ("$", "US$", "US $", "EUR", "Rs.").
    fn currency_before(&self, first: usize) -> Option<(usize, &'static Unit)> {
        for k in (1..=3).rev() {
            if first < k {
                continue;
            }
            let from = first - k;
            if self.kind(from) == Some(Kind::Num) || !self.tight(from, first + 1) {
                continue;
            }
            let surface = &self.text[self.toks[from].start..self.toks[first - 1].end];
            let mut found = self.table.lookup_symbol(surface);
            if found.is_empty() {
                let squeezed: String = surface.split_whitespace().collect();
                found = self.table.lookup_symbol(&squeezed);
                // Lower-cased text: "c $", "hk $" (only next to a currency sign).
                let article = matches!(self.low(from), "a" | "an");
                if found.is_empty() && !article && squeezed.contains(['$', '£', '¥', '€']) {
                    found = self.table.lookup_symbol(&squeezed.to_uppercase());
                }
            }
            // "R15.20", "R3bn": the rand's one-letter sign, only glued to an amount of money.
            if found.is_empty()
                && surface == "R"
                && k == 1
                && self.glued(first)
                && self.money_like(first)
            {
                found = self.table.get("zar").into_iter().collect();
            }
            if let Some(unit) = found.into_iter().find(|u| u.dimension == "currency") {
                // A code written as a word must stand apart from other letters ("CHF5" is fine,
                // "ACHF" is not a token boundary issue because tokens are whole words).
                return Some((from, unit));
            }
        }
        None
    }

    /// Digits written the way amounts of money are: "15.20", "1,500", "3bn", "2 million".
    fn money_like(&self, first: usize) -> bool {
        let raw = self.raw(first);
        let cents = raw
            .split_once('.')
            .is_some_and(|(_, decimals)| decimals.len() == 2);
        let next = self.low(first + 1);
        cents
            || raw.contains(',')
            || self
                .raw_if_any(first + 1)
                .is_some_and(|w| lexicon::glued_scale(w).is_some())
            || lexicon::scale_word(next).is_some()
            || (self.glued(first + 1) && matches!(next, "m" | "b"))
    }

    fn read_unit(&self, mention: &mut Mention) {
        if mention.kind == NumberKind::Ordinal {
            return;
        }
        let start = mention.first;
        if let Some((from, unit)) = self.currency_before(start) {
            mention.currency = Some((from, unit));
            // "$58.24 per barrel", "$5 a month".
            let (per, end) = self.per_unit(mention.last, true);
            mention.unit = Some(UnitReading {
                surface: self.text[self.toks[from].start..self.toks[start - 1].end].to_string(),
                candidates: vec![unit],
                noun: None,
                noun_unit: None,
                per,
            });
            mention.end = end;
            return;
        }
        let e = mention.last;
        // "3-inch", "10-year-old": a hyphen between the number and its unit.
        let at = if self.raw_if_sym(e) == Some("-")
            && self.glued(e)
            && self.is_word(e + 1)
            && self.glued(e + 1)
        {
            e + 1
        } else {
            e
        };
        // "24703L202", "24703 m212", "24703 L-202": letters and digits of a code, not a unit.
        if self.is_word(at) {
            let digits_after = (self.kind(at + 1) == Some(Kind::Num) && self.glued(at + 1))
                || (self.raw_if_sym(at + 1) == Some("-")
                    && self.glued(at + 1)
                    && self.kind(at + 2) == Some(Kind::Num)
                    && self.glued(at + 2));
            if digits_after {
                mention.glued_tail = true;
                return;
            }
        }
        // "20 (kg)", "20 [kg]".
        if let Some(close) = match self.raw_if_sym(at) {
            Some("(") => Some(")"),
            Some("[") => Some("]"),
            Some("{") => Some("}"),
            Some("<") => Some(">"),
            _ => None,
        } {
            if let Some((reading, end)) = self.table_unit(at + 1) {
                if self.raw_if_sym(end) == Some(close) {
                    mention.unit = Some(reading);
                    mention.end = end + 1;
                    return;
                }
            }
        }
        if let Some((mut reading, end)) = self.table_unit(at) {
            let currency = reading.candidates.iter().any(|u| u.dimension == "currency");
            let (per, end) = self.per_unit(end, currency);
            reading.per = per;
            mention.unit = Some(reading);
            mention.end = end;
            return;
        }
        if self.is_word(e) && self.glued(e) {
            mention.glued_tail = true;
            return;
        }
        if self.is_word(e) && is_modifier(self.low(e)) && !self.glued(e) {
            if let Some((reading, end)) = self.table_unit(e + 1) {
                mention.unit = Some(reading);
                mention.end = end;
                return;
            }
        }
        if let Some((reading, end)) = self.noun_after(mention) {
            mention.unit = Some(reading);
            mention.end = end;
            return;
        }
        if self.is_age(mention) {
            if let Some(year) = self.table.get("year") {
                mention.unit = Some(UnitReading {
                    surface: String::new(),
                    candidates: vec![year],
                    noun: None,
                    noun_unit: None,
                    per: None,
                });
            }
        }
    }

    /// A bare whole number that is a person's age: "aged 52", "at the age of 52", "Ms Ortiz,
    /// 52, said", "Nick Hague 44 has", "who was 10".
    fn is_age(&self, m: &Mention) -> bool {
        let whole = m.value.fract() == 0.0 && (1.0..=120.0).contains(&m.value);
        if !whole || m.in_words || m.plain_digits.is_none() || m.first == 0 {
            return false;
        }
        let (p, next) = (m.first, m.last);
        let prev = self.low(p - 1);
        let before = |k: usize| if p > k { self.low(p - 1 - k) } else { "" };
        let clause_ends = |k: usize| {
            k >= self.toks.len() || matches!(self.low(k), "," | "." | ";" | ")" | "and" | "when")
        };
        let age_word = |w: &str| matches!(w, "aged" | "age");
        if age_word(prev) || (prev == "of" && before(1) == "age") {
            return true;
        }
        // The second end of "aged 25 to 40", "aged between 25 and 40".
        if matches!(prev, "to" | "and" | "-" | "–")
            && p >= 2
            && self.kind(p - 2) == Some(Kind::Num)
            && (age_word(before(2)) || (before(2) == "between" && age_word(before(3))))
        {
            return true;
        }
        // "who was 10,", "when she was 52."
        if matches!(prev, "was" | "is" | "turned" | "turns")
            && matches!(before(1), "who" | "he" | "she")
            && clause_ends(next)
        {
            return true;
        }
        let title_case = |k: usize| {
            self.is_word(k) && {
                let w = self.raw(k);
                w.starts_with(|c: char| c.is_uppercase())
                    && w.chars().skip(1).any(char::is_lowercase)
                    && !lexicon::month(w)
                    && !lexicon::is_weekday(&w.to_lowercase())
            }
        };
        // Apposition: "Ms Ortiz, 52, said", "Smith, 44."
        if prev == ","
            && p >= 2
            && title_case(p - 2)
            && clause_ends(next)
            && self.low(next) != "and"
        {
            return true;
        }
        // "Nick Hague 44 has spent": a name of two title-case words, then a verb or a comma.
        p >= 2
            && title_case(p - 1)
            && title_case(p - 2)
            && !self.glued(p)
            && m.value >= 15.0
            && matches!(
                self.low(next),
                "," | "has" | "had" | "is" | "was" | "said" | "says" | "told" | "who" | "will"
            )
    }

    /// The longest unit surface of the table starting at token `at` (up to four tokens).
    fn table_unit(&self, at: usize) -> Option<(UnitReading, usize)> {
        if at >= self.toks.len() || self.kind(at) == Some(Kind::Num) {
            return None;
        }
        for n in (1..=4).rev() {
            let end = at + n;
            if end > self.toks.len() || !self.tight(at, end) {
                continue;
            }
            // A unit ends at a word boundary: "5 mg" but not the "m" of "5 mgx".
            if self.glued(end)
                && self.kind(end) == Some(Kind::Word)
                && self.kind(end - 1) == Some(Kind::Word)
            {
                continue;
            }
            let surface = &self.text[self.toks[at].start..self.toks[end - 1].end];
            if n == 1 && self.blocked(at, surface) {
                continue;
            }
            let mut candidates: Vec<&'static Unit> = self
                .table
                .lookup(surface)
                .into_iter()
                .filter(|u| u.dimension != "count")
                .collect();
            if candidates.is_empty() {
                continue;
            }
            // "degrees" alone: an angle, or a temperature when the text is about temperature.
            let lower = surface.to_lowercase();
            if matches!(lower.as_str(), "degree" | "degrees" | "deg" | "°") {
                for id in ["celsius", "fahrenheit"] {
                    if let Some(t) = self.table.get(id) {
                        candidates.push(t);
                    }
                }
            }
            return Some((
                UnitReading {
                    surface: surface.to_string(),
                    candidates,
                    noun: None,
                    noun_unit: None,
                    per: None,
                },
                end,
            ));
        }
        None
    }

    /// Unit symbols that are also common words or letters, accepted only glued to the number
    /// ("5h", "40C") or, for capital letters, when no word follows ("40 C.").
    fn blocked(&self, at: usize, surface: &str) -> bool {
        match surface {
            "s" => true,
            // "in" is inches only in heights such as "6 ft 2 in".
            "in" => !(at >= 2 && matches!(self.low(at - 2), "ft" | "feet" | "foot" | "'" | "′")),
            "a" | "an" | "at" | "are" | "is" | "as" | "c" | "d" | "h" | "t" | "u" | "p" | "q"
            | "b" | "st" | "gr" | "pt" | "pc" | "mo" | "cd" | "Da" | "ha" | "hand" | "hands"
            | "chain" | "chains" | "rod" | "rods" | "gray" | "grain" | "grains" | "gross"
            | "league" | "leagues" | "slug" | "slugs" | "real" | "sol" | "mil" | "thou" | "erg"
            | "kip" | "lei" | "lev" | "leu" | "Br" | "Ft" | "K" | "TL" | "SR" | "LE" | "DA"
            | "DT" | "BD" | "KD" | "JD" | "QR" | "Tk" | "RM" | "Rp" | "Dh" | "sun" | "bit"
            | "bits" => self.toks[at].spaced || surface == "a" || surface == "are",
            "A" | "B" | "G" | "T" | "P" | "N" | "J" | "S" | "L" | "V" | "W" | "H" | "M" => {
                self.toks[at].spaced && self.is_word(at + 1)
            }
            _ => false,
        }
    }

    /// "per barrel", "a month", "/kg", "per share" after a unit (or a currency amount).
    fn per_unit(&self, at: usize, currency: bool) -> (Option<PerUnit>, usize) {
        let none = (None, at);
        let word = self.low(at);
        let slash = self.raw_if_sym(at) == Some("/");
        if !(matches!(word, "per" | "a" | "an" | "each") || slash) {
            return none;
        }
        let k = at + 1;
        if k >= self.toks.len() || self.kind(k) != Some(Kind::Word) {
            return none;
        }
        if let Some((reading, end)) = self.table_unit(k) {
            let unit = reading.candidates[0];
            // "a year earlier", "a month ago" say when, not how often.
            let when = matches!(
                self.low(end),
                "earlier" | "ago" | "later" | "before" | "after" | "on" | "from" | "since"
            );
            let time_like = unit.dimension == "time" && !when;
            // "$64 a tonne", "$3 a gallon": a price per unit.
            let price_per = currency && unit.dimension != "time";
            if word == "per" || slash || time_like || price_per {
                return (
                    Some(PerUnit {
                        name: unit.name().to_string(),
                        unit_id: Some(unit.id.clone()),
                    }),
                    end,
                );
            }
            return none;
        }
        // "25.3 points per game", "7 rebounds a game": a count per event or per person.
        let counted_per = !currency
            && (word == "per"
                || matches!(
                    self.low(k),
                    "game" | "match" | "season" | "night" | "person" | "head" | "share" | "capita"
                ));
        if (currency || counted_per) && (word == "per" || word == "a" || word == "an") {
            let noun = self.low(k);
            if !lexicon::is_function_word(noun) && noun.chars().all(char::is_alphabetic) {
                let name = singular(noun);
                let unit_id = self.table.lookup(&name).first().map(|u| u.id.clone());
                return (Some(PerUnit { name, unit_id }), k + 1);
            }
        }
        none
    }

    /// The noun a bare number counts: "73 songs", "three course meal", "one of the students".
    fn noun_after(&self, mention: &Mention) -> Option<(UnitReading, usize)> {
        let mut k = mention.last;
        if mention.in_words && self.low(k) == "of" {
            if matches!(
                self.low(k + 1),
                "the" | "his" | "her" | "its" | "their" | "our" | "my" | "your" | "those" | "these"
            ) {
                k += 2;
            } else {
                return None;
            }
        }
        // "the most spectacular catches", "eight more picks": markers that are not the noun.
        if (matches!(self.low(k), "most" | "least") && k > mention.last)
            || (matches!(self.low(k), "more" | "other") && self.is_word(k + 1))
        {
            k += 1;
        }
        // "three-point", "12-page": the word after the hyphen is the unit.
        let hyphenated = k == mention.last
            && self.raw_if_sym(k) == Some("-")
            && self.glued(k)
            && self.is_word(k + 1)
            && self.glued(k + 1);
        if hyphenated {
            k += 1;
        }
        let start = k;
        let mut words: Vec<String> = Vec::new();
        // The token after each word.
        let mut word_ends: Vec<usize> = Vec::new();
        let longest = if hyphenated { 1 } else { 3 };
        while k < self.toks.len() && words.len() < longest {
            if !self.is_word(k) || (self.glued(k) && k != start) {
                break;
            }
            let w = self.low(k);
            if lexicon::is_function_word(w)
                || lexicon::unit_word(w).is_some()
                || lexicon::tens_word(w).is_some()
                || lexicon::scale_word(w).is_some()
                || lexicon::month(self.raw(k))
                || lexicon::multiplier_word(w).is_some()
            {
                break;
            }
            // A comparative: "40k cheaper than".
            if self.low(k + 1) == "than" {
                break;
            }
            if w.ends_with("ly") || (w.ends_with("ed") && !words.is_empty()) {
                break;
            }
            let mut word = w.to_string();
            let mut next = k + 1;
            // Hyphenated compounds: "first-team".
            if self.raw_if_sym(next) == Some("-")
                && self.glued(next)
                && self.is_word(next + 1)
                && self.glued(next + 1)
            {
                word = format!("{word}-{}", self.low(next + 1));
                next += 2;
            }
            // "police officers": a collective noun used as a modifier.
            let modifier_of_plural = matches!(word.as_str(), "police" | "staff")
                && self.is_word(next)
                && is_plural(self.low(next));
            let plural = is_plural(&word) && !modifier_of_plural;
            words.push(word);
            word_ends.push(next);
            k = next;
            if plural {
                break;
            }
        }
        // Leading participles and modifiers are not the counted thing: "300 recorded songs",
        // "400 charging stations", "50 previous years", "eight more picks".
        while words.len() > 1 && is_modifier(&words[0]) {
            words.remove(0);
            word_ends.remove(0);
        }
        if words.is_empty() {
            return None;
        }
        // "a 12 page document", "a 3 cylinder engine": after a number above one, a singular noun
        // followed by another singular noun is a compound modifier, and the number counts it.
        if mention.value > 1.0 && words.len() >= 2 && !is_plural(&words[0]) && !is_plural(&words[1])
        {
            words.truncate(1);
            k = word_ends[0];
        }
        // A lone verb form: "5 killed", "3 remaining".
        if words.len() == 1 && (words[0].ends_with("ed") || words[0].ends_with("ing")) {
            return None;
        }
        let last = words.len() - 1;
        words[last] = singular(&words[last]);
        let head = &words[last];
        let noun_unit = self
            .table
            .lookup(head)
            .into_iter()
            .find(|u| u.dimension == "count");
        let surface = self.text[self.toks[start].start..self.toks[k - 1].end].to_string();
        // "78,000 times a minute", "5 visits per day".
        let (per, end) = self.per_unit(k, false);
        Some((
            UnitReading {
                surface,
                candidates: Vec::new(),
                noun: Some(words.join(" ")),
                noun_unit,
                per,
            },
            end,
        ))
    }

    // ----- what is not a quantity ----------------------------------------------------------------

    fn is_not_a_quantity(&self, m: &Mention) -> bool {
        if !m.value.is_nan() && m.kind == NumberKind::Ordinal {
            return false;
        }
        if m.value.is_nan() {
            return true;
        }
        if m.in_words {
            return false;
        }
        if m.glued_tail {
            return true; // "5G", "3D", "1080p"
        }
        let has_table_unit = m.unit.as_ref().is_some_and(|u| !u.candidates.is_empty());
        if m.currency.is_some() {
            return false;
        }
        let p = m.first; // token after the candidate's left context
        if p > 0 {
            let prev = p - 1;
            // Letters glued before the digits: "PS5", "S23", "cac40", "H1N1".
            if self.is_word(prev) && self.glued(p) {
                return true;
            }
            // "COVID-19", "F-150", "TA-35", "mid-2019".
            if self.raw_if_sym(prev) == Some("-")
                && self.glued(p)
                && prev > 0
                && self.glued(prev)
                && self.is_word(prev - 1)
            {
                return true;
            }
            // Ranks: "#1", "No. 1", "number 1".
            if self.raw_if_sym(prev) == Some("#") {
                return true;
            }
            if self.raw_if_sym(prev) == Some(".")
                && prev > 0
                && matches!(self.low(prev - 1), "no" | "nos")
            {
                return true;
            }
            // Dates: "March 29", "Oct. 31", "Mar 9 2018".
            let loose_month =
                matches!(self.low(prev), "may" | "march") && !has_table_unit && m.unit.is_none();
            let month_before = lexicon::month(self.raw(prev))
                || loose_month
                || (self.raw_if_sym(prev) == Some(".")
                    && prev > 0
                    && lexicon::month(self.raw(prev - 1)));
            if month_before && (m.value <= 31.0 || self.year_like(m)) && m.value.fract() == 0.0 {
                return true;
            }
            // Identifiers: "iPhone 11", "Windows 10", "Section 427", "S P 500".
            if self.is_capitalised(prev)
                && !has_table_unit
                && !m.has_comma
                && !self.is_ordinary_word(self.low(prev))
            {
                return true;
            }
            if matches!(
                self.low(prev),
                "number"
                    | "no"
                    | "room"
                    | "route"
                    | "page"
                    | "chapter"
                    | "version"
                    | "episode"
                    | "season"
                    | "level"
                    | "grade"
                    | "article"
                    | "section"
                    | "rule"
                    | "flight"
                    | "highway"
                    | "exit"
                    | "interstate"
                    | "channel"
                    | "platform"
                    | "gate"
                    | "terminal"
                    | "model"
                    | "bus"
                    | "category"
                    | "phase"
                    | "stage"
                    | "tier"
                    | "type"
                    | "size"
            ) && !has_table_unit
            {
                return true;
            }
        }
        // Clock times with a time zone: "0930 GMT", "1600 ET".
        if let Some(digits) = m.plain_digits {
            let zone = matches!(
                self.raw_if_any(m.last),
                Some(
                    "GMT"
                        | "UTC"
                        | "ET"
                        | "EST"
                        | "EDT"
                        | "BST"
                        | "CET"
                        | "CEST"
                        | "PT"
                        | "PST"
                        | "PDT"
                        | "JST"
                        | "HKT"
                        | "SGT"
                        | "IST"
                )
            ) || (self.low(m.last) == "local" && self.low(m.last + 1) == "time");
            let clock = (3..=4).contains(&digits) && m.value < 2400.0 && m.value % 100.0 < 60.0;
            if zone && clock {
                return true;
            }
        }
        // List markers: "(3)" alone in brackets.
        if p > 0
            && self.raw_if_sym(p - 1) == Some("(")
            && self.raw_if_sym(m.last) == Some(")")
            && m.unit.is_none()
            && m.plain_digits.is_some_and(|d| d <= 2)
        {
            return true;
        }
        // Street addresses: "123 Random Street".
        if let Some(unit) = &m.unit {
            let last_word = unit.surface.rsplit(' ').next().unwrap_or("");
            if unit.noun.is_some()
                && matches!(
                    last_word.to_lowercase().as_str(),
                    "street"
                        | "st"
                        | "avenue"
                        | "ave"
                        | "road"
                        | "rd"
                        | "boulevard"
                        | "blvd"
                        | "lane"
                        | "drive"
                        | "way"
                        | "place"
                )
            {
                return true;
            }
        }
        // "29 March", "5 May".
        if m.value <= 31.0
            && m.value.fract() == 0.0
            && self.is_word(m.last)
            && lexicon::month(self.raw(m.last))
        {
            return true;
        }
        if self.is_clock(m.last) || (self.low(m.last) == "o" && self.low(m.last + 2) == "clock") {
            return true;
        }
        if self.year_like(m) {
            return self.is_year(m);
        }
        false
    }

    /// Capitalised words that do not name things: sentence-initial "About", "Over", "Some".
    fn is_ordinary_word(&self, word: &str) -> bool {
        lexicon::is_function_word(word)
            || lexicon::unit_word(word).is_some()
            || lexicon::tens_word(word).is_some()
            || PREFIX_CONDITIONS
                .iter()
                .any(|(p, _)| p.len() == 1 && p[0] == word)
            || matches!(
                word,
                "only"
                    | "nearly"
                    | "almost"
                    | "about"
                    | "roughly"
                    | "just"
                    | "at"
                    | "by"
                    | "with"
                    | "some"
                    | "around"
                    | "approximately"
                    | "estimated"
                    | "total"
                    | "and"
                    | "or"
            )
    }

    fn year_like(&self, m: &Mention) -> bool {
        m.plain_digits == Some(4) && m.currency.is_none() && (1000.0..=2100.0).contains(&m.value)
    }

    /// A four-digit number that is a year unless a unit or plural noun follows or a quantity
    /// word comes before ("an average of 1500", "more than 2000 people").
    fn is_year(&self, m: &Mention) -> bool {
        let p = m.first;
        let prev = if p > 0 { self.low(p - 1) } else { "" };
        let prev_raw = if p > 0 { self.raw(p - 1) } else { "" };
        let before_prev = if p >= 2 { self.low(p - 2) } else { "" };
        if m.unit.as_ref().is_some_and(|u| !u.candidates.is_empty()) {
            return false; // "the 1000 hp barrier"
        }
        if lexicon::year_cue(prev)
            || lexicon::month(prev_raw)
            || matches!(prev, "," | "'" | "’" | "(" | "-" | "–" | "/")
            || (prev == "." && matches!(before_prev, "d" | "c"))
            || (prev == "of"
                && !matches!(
                    before_prev,
                    "average" | "total" | "sum" | "maximum" | "minimum" | "excess"
                ))
        {
            return true;
        }
        if let Some(unit) = &m.unit {
            if !unit.candidates.is_empty() {
                return false;
            }
            if let Some(noun) = &unit.noun {
                let last_word = unit.surface.split_whitespace().last().unwrap_or("");
                let capitalised = unit.surface.starts_with(|c: char| c.is_uppercase());
                if !capitalised && (is_plural(&last_word.to_lowercase()) || noun == "people") {
                    return false;
                }
            }
        }
        let quantity_word = PREFIX_CONDITIONS
            .iter()
            .any(|(pattern, _)| pattern.last() == Some(&prev))
            || matches!(
                prev,
                "of" | "than"
                    | "about"
                    | "total"
                    | "average"
                    | "nearly"
                    | "some"
                    | "hire"
                    | "employs"
            );
        !quantity_word
    }

    // ----- conditions -----------------------------------------------------------------------

    /// The condition in the few words before the quantity (longest phrase wins), else after it.
    fn change_of(&self, m: &Mention) -> Change {
        // "-0.4%", "+2.3%": a signed ratio is a movement.
        let signed = self.raw_if_sym(m.first).and_then(|sign| match sign {
            "+" => Some(Change::Up),
            "-" | "−" => Some(Change::Down),
            _ => None,
        });
        let ratio = m
            .unit
            .as_ref()
            .is_some_and(|u| u.candidates.first().is_some_and(|c| c.dimension == "ratio"));
        if let (Some(direction), true) = (signed, ratio) {
            return direction;
        }
        let first = m.currency.map_or(m.first, |(from, _)| from);
        let mut p = first;
        let mut skipped = 0;
        while p > 0 {
            let end = p - 1;
            let mut best: Option<(usize, Change)> = None;
            for (pattern, change) in PREFIX_CONDITIONS {
                if self.phrase_ends_at(pattern, end)
                    && best.is_none_or(|(len, _)| pattern.len() > len)
                {
                    best = Some((pattern.len(), *change));
                }
            }
            if let Some((len, change)) = best {
                let trigger_start = end + 1 - len;
                let bare_direction = len == 1 && matches!(change, Change::Up | Change::Down);
                // "gave up 517 yards", "signed up 40 users": a particle, not a movement.
                if bare_direction
                    && trigger_start > 0
                    && is_particle_verb(self.low(trigger_start - 1))
                {
                    return Change::Equal;
                }
                // "up from 2.4 million": the old value of a movement is just a value.
                if bare_direction && self.low(end + 1) == "from" {
                    return Change::Equal;
                }
                return change;
            }
            if skipped < 2 && self.is_word(end) && lexicon::is_filler(self.low(end)) {
                p -= 1;
                skipped += 1;
                continue;
            }
            break;
        }
        let after = m.end.max(m.last);
        if self.raw_if_sym(m.last) == Some("+") && self.glued(m.last) {
            return Change::AtLeast;
        }
        for (pattern, change) in SUFFIX_CONDITIONS {
            if self.phrase_starts_at(pattern, after) {
                return *change;
            }
        }
        Change::Equal
    }

    /// The quantity restates the previous one in other units: "100 km (60 miles)",
    /// "224 kW / 300 PS", "lost 190 points, or 0.6%". It shares its condition.
    fn restates(&self, previous: &Mention, m: &Mention) -> bool {
        let first = m.currency.map_or(m.first, |(from, _)| from);
        let gap_start = previous.end.max(previous.last);
        if first <= gap_start {
            return false;
        }
        let gap: Vec<&str> = (gap_start..first).map(|k| self.low(k)).collect();
        matches!(gap.as_slice(), ["("] | ["/"] | [",", "or"] | ["(", "or"])
    }

    fn phrase_ends_at(&self, pattern: &[&str], end: usize) -> bool {
        if end + 1 < pattern.len() {
            return false;
        }
        let start = end + 1 - pattern.len();
        pattern
            .iter()
            .enumerate()
            .all(|(j, w)| self.low(start + j) == *w)
    }

    fn phrase_starts_at(&self, pattern: &[&str], start: usize) -> bool {
        pattern
            .iter()
            .enumerate()
            .all(|(j, w)| self.low(start + j) == *w)
    }

    fn condition_word_before(&self, i: usize) -> bool {
        i > 0
            && PREFIX_CONDITIONS
                .iter()
                .any(|(pattern, _)| self.phrase_ends_at(pattern, i - 1))
    }

    // ----- ranges -----------------------------------------------------------------------------

    /// "between 50 and 60 km", "from 5 to 10 kg", "50-60 km", "1 to 1.5 degrees"; the unit of
    /// "eight or nine euros" shared by both numbers; "13 dollars and 45 cents" as one amount.
    /// One pass: each mention is compared with the last one kept.
    fn join_ranges(&self, mentions: &mut Vec<Mention>) {
        let mut kept: Vec<Mention> = Vec::with_capacity(mentions.len());
        // A range is complete once joined: "5 to 10 to 15" does not chain.
        let mut last_is_range = false;
        for b in mentions.drain(..) {
            let join = match kept.last() {
                Some(a) if !last_is_range => self.join_of(a, &b),
                _ => Join::Apart,
            };
            let Some(a) = kept.last_mut() else {
                kept.push(b);
                continue;
            };
            match join {
                Join::Score => {
                    kept.pop();
                }
                Join::Compound(smaller) => {
                    a.value += smaller;
                    a.end = b.end.max(b.last);
                }
                Join::Range => {
                    a.value = scaled_like(a, &b);
                    a.range_to = Some(b.value);
                    // "fell from $61 to $48.20": the range is the movement.
                    if let Some(direction) = self.movement_from(a) {
                        a.change = direction;
                    }
                    let b_has_per = b.unit.as_ref().is_some_and(|u| u.per.is_some());
                    let a_has_per = a.unit.as_ref().is_some_and(|u| u.per.is_some());
                    if a.unit.is_none()
                        || (b_has_per && !a_has_per)
                        || (a.currency.is_none()
                            && b.unit.as_ref().is_some_and(|u| !u.candidates.is_empty()))
                    {
                        a.unit = b.unit;
                        a.currency = a.currency.or(b.currency);
                    }
                    a.end = b.end.max(b.last);
                    last_is_range = true;
                }
                Join::ShareUnit => {
                    a.value = scaled_like(a, &b);
                    a.unit = b.unit.clone();
                    a.currency = b.currency;
                    kept.push(b);
                    last_is_range = false;
                }
                Join::Apart => {
                    kept.push(b);
                    last_is_range = false;
                }
            }
        }
        *mentions = kept;
    }

    /// "a 3-3 draw", "won 2-1", "ended 2-2 on aggregate": two small whole numbers joined by a
    /// dash, next to a word of a match result.
    fn is_score(&self, a: &Mention, b: &Mention, before_a: &str) -> bool {
        let small = |m: &Mention| {
            m.plain_digits.is_some_and(|d| d <= 2)
                && m.currency.is_none()
                && m.change == Change::Equal
        };
        if !small(a) || !small(b) || a.unit.is_some() {
            return false;
        }
        let result_noun = |w: &str| {
            matches!(
                w,
                "draw"
                    | "win"
                    | "victory"
                    | "defeat"
                    | "loss"
                    | "lead"
                    | "scoreline"
                    | "triumph"
                    | "thrashing"
                    | "aggregate"
                    | "home"
                    | "away"
                    | "result"
                    | "score"
            )
        };
        let noun_after = match &b.unit {
            None => false,
            Some(u) => u
                .noun
                .as_deref()
                .is_some_and(|n| n.split_whitespace().next().is_some_and(result_noun)),
        };
        let after = b.end.max(b.last);
        let words_after = noun_after
            || (b.unit.is_none()
                && (result_noun(self.low(after))
                    || (self.low(after) == "on" && self.low(after + 1) == "aggregate")));
        let verb_before = matches!(
            before_a,
            "won"
                | "win"
                | "wins"
                | "lost"
                | "lose"
                | "drew"
                | "draw"
                | "ended"
                | "finished"
                | "beat"
                | "beating"
                | "trailed"
                | "trailing"
                | "led"
                | "leading"
                | "winning"
                | "losing"
        );
        words_after || (verb_before && b.unit.is_none())
    }

    /// "rose from", "fell from" right before the first number: the direction of the movement.
    fn movement_from(&self, a: &Mention) -> Option<Change> {
        let a_first = a.currency.map_or(a.first, |(from, _)| from);
        if a_first < 2 || self.low(a_first - 1) != "from" {
            return None;
        }
        let verb_end = a_first - 2;
        PREFIX_CONDITIONS
            .iter()
            .filter(|(pattern, change)| {
                pattern.len() == 1
                    && matches!(change, Change::Up | Change::Down)
                    && self.phrase_ends_at(pattern, verb_end)
            })
            .map(|(_, change)| *change)
            .next()
            .filter(|_| verb_end == 0 || !is_particle_verb(self.low(verb_end - 1)))
    }

    fn join_of(&self, a: &Mention, b: &Mention) -> Join {
        let countable = |m: &Mention| matches!(m.kind, NumberKind::Cardinal | NumberKind::Fraction);
        if !countable(a) || !countable(b) {
            return Join::Apart;
        }
        let gap_start = a.end.max(a.last);
        let b_first = b.currency.map_or(b.first, |(from, _)| from);
        if let Some(smaller) = self.compound_amount(a, b, gap_start, b_first) {
            return Join::Compound(smaller);
        }
        if b_first <= gap_start || b_first - gap_start != 1 {
            return Join::Apart;
        }
        let connector = self.low(gap_start);
        let a_first = a.currency.map_or(a.first, |(from, _)| from);
        let before_a = self.word_before(a_first);
        let same_unit = match (&a.unit, &b.unit) {
            (None, _) => true,
            (Some(x), Some(y)) => {
                x.surface.to_lowercase() == y.surface.to_lowercase()
                    || (!x.candidates.is_empty()
                        && !y.candidates.is_empty()
                        && x.candidates[0].id == y.candidates[0].id)
            }
            (Some(_), None) => a.currency.is_some(),
        };
        let dash = matches!(connector, "-" | "–" | "—");
        if dash && self.is_score(a, b, before_a) {
            return Join::Score;
        }
        let is_range = match connector {
            "and" => before_a == "between",
            "to" => {
                before_a == "from"
                    || (same_unit
                        && !(a.unit.is_some() && matches!(a.change, Change::Up | Change::Down)))
            }
            _ => dash && same_unit,
        };
        if is_range {
            Join::Range
        } else if matches!(connector, "or" | "and") && a.unit.is_none() && b.unit.is_some() {
            Join::ShareUnit
        } else {
            Join::Apart
        }
    }

    /// "13 dollars and 45 cents", "6 ft 2 in": `b` in `a`'s unit, when `b` is a smaller unit of
    /// the same kind right after `a`.
    fn compound_amount(
        &self,
        a: &Mention,
        b: &Mention,
        gap_start: usize,
        b_first: usize,
    ) -> Option<f64> {
        if b_first < gap_start || a.range_to.is_some() || b.range_to.is_some() {
            return None;
        }
        let gap: Vec<&str> = (gap_start..b_first).map(|k| self.low(k)).collect();
        if !matches!(gap.as_slice(), [] | ["and"]) {
            return None;
        }
        let big = a.unit.as_ref()?.candidates.first()?;
        let small = b.unit.as_ref()?.candidates.first()?;
        // Money, lengths and weights; listed durations ("3 years, 2 months") stay separate.
        let same_kind = big.dimension == small.dimension
            && big.currency == small.currency
            && matches!(big.dimension.as_str(), "currency" | "length" | "mass");
        if !same_kind
            || small.factor >= big.factor
            || a.unit.as_ref()?.per.is_some()
            || b.value < 0.0
        {
            return None;
        }
        // Only smaller units that complete the larger one: feet+inches, dollars+cents.
        let part = small.to_base(b.value) - small.offset;
        let whole = big.factor;
        (part < whole).then(|| part / whole)
    }

    // ----- output ----------------------------------------------------------------------------

    fn resolve(&self, mentions: Vec<Mention>) -> Vec<Quantity> {
        let mut dimensions = std::collections::HashSet::new();
        for m in &mentions {
            if let Some(u) = &m.unit {
                if u.candidates.len() == 1 {
                    dimensions.insert(u.candidates[0].dimension.clone());
                }
            }
        }
        let needs_context = mentions
            .iter()
            .any(|m| m.unit.as_ref().is_some_and(|u| u.candidates.len() > 1));
        // Cue words and the dimensions of the whole text, built once and only when needed.
        let cues = needs_context.then(|| {
            let mut cues = self.cues().clone();
            cues.dimensions = dimensions;
            cues
        });
        let mut out = Vec::with_capacity(mentions.len());
        for m in mentions {
            let unit = m
                .unit
                .as_ref()
                .map(|reading| self.unit_of(reading, &m, cues.as_ref()));
            let first = m.currency.map_or(m.first, |(from, _)| from);
            let end = m.end.max(m.last);
            let value = match m.range_to {
                Some(to) => Value::Range { from: m.value, to },
                None => Value::Single(m.value),
            };
            out.push(Quantity {
                span: self.toks[first].start..self.toks[end - 1].end,
                value,
                unit,
                change: m.change,
                kind: m.kind,
                overflow: !value.is_finite(),
            });
        }
        out
    }

    fn unit_of(&self, reading: &UnitReading, m: &Mention, cues: Option<&TextCues>) -> QuantityUnit {
        let per_suffix = |name: &str| match &reading.per {
            Some(per) => format!("{name} per {}", per.name),
            None => name.to_string(),
        };
        if let Some(noun) = &reading.noun {
            return QuantityUnit {
                surface: reading.surface.clone(),
                name: per_suffix(noun),
                unit_id: reading.noun_unit.map(|u| u.id.clone()),
                dimension: reading.noun_unit.map(|u| u.dimension.clone()),
                per: reading.per.clone(),
            };
        }
        let unit = if reading.candidates.len() > 1 {
            match cues {
                Some(cues) => choose(&reading.candidates, m.scale >= 1e6, cues),
                None => reading.candidates[0],
            }
        } else {
            reading.candidates[0]
        };
        QuantityUnit {
            surface: reading.surface.clone(),
            name: per_suffix(unit.name()),
            unit_id: Some(unit.id.clone()),
            dimension: Some(unit.dimension.clone()),
            per: reading.per.clone(),
        }
    }
}

impl Mention {
    fn new(first: usize, last: usize, value: f64, kind: NumberKind) -> Self {
        Mention {
            first,
            last,
            value,
            kind,
            scale: 1.0,
            plain_digits: None,
            has_comma: false,
            in_words: false,
            currency: None,
            unit: None,
            end: last,
            change: Change::Equal,
            range_to: None,
            glued_tail: false,
        }
    }
}

/// Verbs whose particle "up"/"down" does not mean a movement of the number after it.
fn is_particle_verb(word: &str) -> bool {
    matches!(
        word,
        "gave"
            | "give"
            | "gives"
            | "giving"
            | "given"
            | "picked"
            | "pick"
            | "picks"
            | "put"
            | "puts"
            | "set"
            | "sets"
            | "signed"
            | "sign"
            | "made"
            | "make"
            | "makes"
            | "took"
            | "take"
            | "takes"
            | "broke"
            | "break"
            | "breaks"
            | "back"
            | "backs"
            | "sum"
            | "summed"
            | "end"
            | "ended"
            | "ends"
            | "line"
            | "lined"
            | "wrap"
            | "wrapped"
            | "wrote"
            | "write"
            | "count"
            | "counted"
            | "stepped"
            | "step"
            | "teamed"
            | "team"
            | "added"
            | "add"
    )
}

/// Words before a count noun that do not belong to it.
fn is_modifier(word: &str) -> bool {
    let ing_noun = matches!(
        word,
        "lightning"
            | "building"
            | "housing"
            | "clothing"
            | "morning"
            | "evening"
            | "wedding"
            | "meeting"
            | "training"
            | "funding"
            | "ceiling"
            | "painting"
            | "recording"
            | "spring"
            | "string"
            | "parking"
            | "shipping"
            | "banking"
            | "marketing"
            | "hearing"
            | "offering"
            | "opening"
            | "setting"
            | "ranking"
            | "rating"
            | "landing"
            | "seating"
            | "heating"
            | "engineering"
            | "accounting"
            | "advertising"
            | "manufacturing"
            | "mining"
            | "fishing"
            | "boxing"
            | "swimming"
            | "sailing"
            | "shooting"
            | "voting"
            | "polling"
            | "spending"
    );
    matches!(
        word,
        "more" | "previous" | "additional" | "extra" | "further" | "other"
    ) || (!ing_noun && word.len() > 5 && (word.ends_with("ed") || word.ends_with("ing")))
}

/// "16.4 million" is 16,400,000, not 16,399,999.999999998: drop the binary rounding noise that
/// scaling adds (13 significant digits are kept).
/// The value of `a`, the first end of a range or list, with `b`'s scale word when it belongs
/// to both ends: "2 to 3 billion" is 2e9–3e9, but "$700,000 to $2.4 million" is 7e5–2.4e6. The
/// scale goes to `a` when that brings the two ends closer (by ratio), as the ends of a range are.
fn scaled_like(a: &Mention, b: &Mention) -> f64 {
    if a.scale != 1.0 || b.scale == 1.0 {
        return a.value;
    }
    let distance = |x: f64| {
        (x.abs().max(f64::MIN_POSITIVE) / b.value.abs().max(f64::MIN_POSITIVE))
            .ln()
            .abs()
    };
    let scaled = round_scaled(a.value * b.scale);
    if distance(scaled) <= distance(a.value) {
        scaled
    } else {
        a.value
    }
}

fn round_scaled(value: f64) -> f64 {
    if !value.is_finite() {
        return value;
    }
    format!("{value:.12e}").parse().unwrap_or(value)
}

/// Mantissa digits × 10^exponent, parsed as one literal so that "1e999" is infinite rather than
/// a rounding artefact.
fn scientific(digits: &str, value: f64, exponent: i32) -> f64 {
    let literal = format!("{}e{exponent}", digits);
    let magnitude: f64 = literal.parse().unwrap_or(f64::NAN);
    magnitude.copysign(value)
}

/// Looks like an English plural: "songs", "countries", but not "boss", "virus", "analysis".
fn is_plural(word: &str) -> bool {
    matches!(
        word,
        "people"
            | "men"
            | "women"
            | "children"
            | "feet"
            | "teeth"
            | "mice"
            | "geese"
            | "police"
            | "staff"
            | "cattle"
    ) || (word.len() > 3
        && word.ends_with('s')
        && !word.ends_with("ss")
        && !word.ends_with("us")
        && !word.ends_with("is")
        && !word.ends_with("'s"))
}

/// A light English singular for the last word of a count noun ("countries" → "country").
pub(crate) fn singular(word: &str) -> String {
    let irregular = match word {
        "men" => Some("man"),
        "women" => Some("woman"),
        "children" => Some("child"),
        "feet" => Some("foot"),
        "teeth" => Some("tooth"),
        "mice" => Some("mouse"),
        "geese" => Some("goose"),
        "people" => Some("people"),
        "series" | "species" | "news" | "police" | "staff" | "cattle" => Some(word),
        _ => None,
    };
    if let Some(s) = irregular {
        return s.to_string();
    }
    if !is_plural(word) {
        return word.to_string();
    }
    if let Some(stem) = word.strip_suffix("ies") {
        if stem.len() > 1 {
            return format!("{stem}y");
        }
    }
    if word.len() > 6
        && word.ends_with("uses")
        && !word.ends_with("ouses")
        && !word.ends_with("auses")
    {
        return word[..word.len() - 2].to_string(); // "viruses", "bonuses"
    }
    for ending in ["sses", "shes", "ches", "xes", "zes"] {
        if word.ends_with(ending) {
            return word[..word.len() - 2].to_string();
        }
    }
    word[..word.len() - 1].to_string()
}
