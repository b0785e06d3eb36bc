//! Reading numbers: digits (with separators, decimals, exponents, glued scales), number words, scale words and vague amounts.

use super::*;

impl<'t> Scan<'t> {
    pub(super) fn read_number(&self, i: usize) -> Reading {
        let reading = match self.toks[i].kind {
            Kind::Num => self.read_digits(i),
            Kind::Word => self.read_words(i),
            Kind::Sym => match lexicon::fraction_char(self.raw(i)) {
                Some(value) => number(Mention::new(i, i + 1, value, NumberKind::Fraction)),
                None => Reading::Nothing,
            },
        };
        self.fold_multiplier(reading)
    }

    /// A count followed by "fold" ("ten-fold", "3-fold", "4.5 fold") is a multiplier, as
    /// "threefold" is.
    fn fold_multiplier(&self, reading: Reading) -> Reading {
        let Reading::Number(mut mention) = reading else {
            return reading;
        };
        if mention.kind == NumberKind::Cardinal && mention.unit.is_none() {
            let mut k = mention.last;
            if self.low(k) == "-" {
                k += 1;
            }
            if self.low(k) == "fold" {
                mention.kind = NumberKind::Multiplier;
                mention.last = k + 1;
            }
        }
        Reading::Number(mention)
    }

    pub(super) fn read_digits(&self, i: usize) -> Reading {
        let raw = self.raw(i);
        if raw.matches('.').count() >= 2 {
            // "1.2.3", "12.05.2020": versions and dates.
            return Reading::Skip(i + 1);
        }
        if let Some(reading) = self.digit_form(i) {
            return reading;
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

        self.apply_sign(i, &mut value, &mut first, &mut plain_digits);

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
            && self.glued_num(last + 2)
        {
            let a: f64 = self.raw(last).parse().unwrap_or(f64::NAN);
            let b: f64 = self.raw(last + 2).parse().unwrap_or(f64::NAN);
            if a < b && [2.0, 3.0, 4.0, 8.0, 16.0].contains(&b) {
                value += a / b;
                last += 3;
                plain_digits = None;
            }
        }
        // "3 and a half dollars", "2 and three quarters miles"; not after a year ("between
        // 2013-2019 and one third were").
        let year_like = plain_digits == Some(4) && (1000.0..=2100.0).contains(&value);
        if plain_digits.is_some() && value.fract() == 0.0 && !year_like {
            if let Some((fraction, after)) = self.and_fraction(last) {
                value += fraction;
                last = after;
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

    /// A symbol `s` glued to the token before it.
    fn glued_sym(&self, k: usize, s: &str) -> bool {
        self.kind(k) == Some(Kind::Sym) && self.glued(k) && self.raw(k) == s
    }

    /// Digits glued to the token before them.
    fn glued_num(&self, k: usize) -> bool {
        self.kind(k) == Some(Kind::Num) && self.glued(k)
    }

    /// Digit forms read before the number itself: a plain fraction ("3/4"), or forms that are
    /// no quantity (times, dates, phone numbers), skipped.
    fn digit_form(&self, i: usize) -> Option<Reading> {
        // Times: "10:30", "1:36.6".
        if self.glued_sym(i + 1, ":") && self.glued_num(i + 2) {
            let mut end = i + 3;
            while self.glued_sym(end, ":") && self.glued_num(end + 1) {
                end += 2;
            }
            return Some(Reading::Skip(end));
        }
        // Slashes: "3/4" a fraction; "12/05/2020", "9/11", "24/7" not quantities.
        if self.glued_sym(i + 1, "/") && self.glued_num(i + 2) {
            if self.glued_sym(i + 3, "/") && self.glued_num(i + 4) {
                return Some(Reading::Skip(i + 5));
            }
            let a: f64 = self.raw(i).parse().unwrap_or(f64::NAN);
            let b: f64 = self.raw(i + 2).parse().unwrap_or(f64::NAN);
            let fraction_denominator = [2.0, 3.0, 4.0, 5.0, 8.0, 10.0, 16.0, 100.0].contains(&b);
            if fraction_denominator && a < b && !self.raw(i).contains(['.', ',']) {
                return Some(number(Mention::new(i, i + 3, a / b, NumberKind::Fraction)));
            }
            return Some(Reading::Skip(i + 3));
        }
        // ISO dates "2020-05-12".
        if self.raw(i).len() == 4
            && self.glued_sym(i + 1, "-")
            && self.glued_num(i + 2)
            && self.glued_sym(i + 3, "-")
            && self.glued_num(i + 4)
        {
            return Some(Reading::Skip(i + 5));
        }
        if let Some(end) = self.phone_number_end(i) {
            return Some(Reading::Skip(end));
        }

        None
    }

    /// A sign before the digits: "-5", "−3.2", "+4", "$-12.4m", "minus-3", "minus 3".
    fn apply_sign(
        &self,
        i: usize,
        value: &mut f64,
        first: &mut usize,
        plain_digits: &mut Option<usize>,
    ) {
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
                    *value = -*value;
                }
                *first = i - 1;
                *plain_digits = None;
            }
            // "minus-3 degrees".
            if sign == "-" && i >= 2 && self.glued(i - 1) && self.low(i - 2) == "minus" {
                *value = -*value;
                *first = i - 2;
                *plain_digits = None;
            }
        } else if i > 0 && self.low(i - 1) == "minus" && !self.glued(i) {
            // "minus 3 degrees".
            *value = -*value;
            *first = i - 1;
            *plain_digits = None;
        }
    }

    /// Scale suffixes glued to digits; "m"/"b" count as million/billion only after a currency
    /// ("$5m"), otherwise they are units ("5m" is five metres).
    pub(super) fn glued_scale(&self, word: &str, first: usize) -> Option<f64> {
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
    pub(super) fn currency_word_follows(&self, first: usize) -> bool {
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
    pub(super) fn scale_words(&self, mention: &mut Mention) {
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
            // "28,638 TN", "71,907 MN": a scale's abbreviation in capitals is a code or a unit
            // (teranewton, Tennessee) unless an amount of money is counted ("$5 BN", "USD 3 MN").
            let raw = self.raw(k);
            let capital_abbreviation =
                raw.len() <= 3 && raw.len() > 1 && raw.chars().all(|c| c.is_ascii_uppercase());
            if capital_abbreviation && self.currency_before(mention.first).is_none() {
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
    pub(super) fn exponent_after(&self, k: usize) -> Option<(i32, usize)> {
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

    pub(super) fn raw_if_sym(&self, k: usize) -> Option<&'t str> {
        (self.kind(k) == Some(Kind::Sym)).then(|| self.raw(k))
    }

    pub(super) fn raw_if_any(&self, k: usize) -> Option<&'t str> {
        (k < self.toks.len()).then(|| self.raw(k))
    }

    /// "5pm", "10.45pm", "11 a.m.", "5 PM".
    pub(super) fn is_clock(&self, k: usize) -> bool {
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
    pub(super) fn phone_number_end(&self, i: usize) -> Option<usize> {
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

    pub(super) fn read_words(&self, i: usize) -> Reading {
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
    pub(super) fn vague_amount(&self, i: usize) -> Option<Reading> {
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

    /// A fraction added to a whole number from token `at`: "and a half", "and a quarter", "and
    /// one-half", "and three quarters"; its value and the token after it.
    fn and_fraction(&self, at: usize) -> Option<(f64, usize)> {
        if self.low(at) != "and" {
            return None;
        }
        let count = self.low(at + 1);
        let numerator = match count {
            "a" | "an" => 1.0,
            _ => f64::from(lexicon::unit_word(count).filter(|n| (1..10).contains(n))?),
        };
        // "one-half": the fraction word after a hyphen.
        let hyphen = self.raw_if_sym(at + 2) == Some("-") && self.glued(at + 2);
        let word_at = if hyphen { at + 3 } else { at + 2 };
        let word = self.low(word_at);
        let denominator = lexicon::fraction_word(word)?;
        // "a half", "one third", "three quarters": the plural goes with a numerator above one.
        let plural = word.ends_with('s');
        // "under 50 and a third of them": a share of something else, not part of the number.
        let share = self.low(word_at + 1) == "of";
        (numerator < denominator && plural == (numerator > 1.0) && !share)
            .then_some((numerator / denominator, word_at + 1))
    }

    /// "seventeen", "two hundred and five", "twenty-five thousand", "two thirds",
    /// "one and a half", "ninety five".
    pub(super) fn number_words(&self, i: usize) -> Option<Mention> {
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
        // "one and a half", "six and a quarter".
        if kind == NumberKind::Cardinal {
            if let Some((fraction, after)) = self.and_fraction(end) {
                value += fraction;
                end = after;
            }
        }
        // "one point two", "two point four million": a decimal said in words, digit by digit.
        if kind == NumberKind::Cardinal && self.low(end) == "point" {
            let mut decimals = String::new();
            let mut k = end + 1;
            while let Some(digit) = lexicon::unit_word(self.low(k)).filter(|d| *d <= 9) {
                decimals.push(char::from(b'0' + digit as u8));
                k += 1;
            }
            if let (false, Ok(decimal)) = (
                decimals.is_empty(),
                format!("{}.{decimals}", value as u64).parse::<f64>(),
            ) {
                value = decimal;
                end = k;
            }
        }
        let mut mention = Mention::new(i, end, value, kind);
        self.scale_words(&mut mention);
        Some(mention)
    }

    // ----- currency and units -------------------------------------------------------------------
}
