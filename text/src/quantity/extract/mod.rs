//! The extractor: text → [`Quantity`] list. See the module documentation of `quantity` for what
//! is and is not a quantity; the rules are spelled out next to the code that applies them.
//!
//! One [`Scan`] over the tokens of a text reads mentions of numbers ([`numbers`]), their units
//! ([`units`]), drops those that are not quantities ([`rejections`]), joins ranges and reads
//! changes ([`ranges`]), then resolves each mention into a quantity (here).

use std::cell::OnceCell;

use super::ambiguous_units::{choose, TextCues};
use super::lexicon::{self, PREFIX_CONDITIONS, SUFFIX_CONDITIONS};
use super::tokens::{tokenize, Kind, Token};
use super::{Change, NumberKind, PerUnit, Quantity, QuantityUnit, Value};
use crate::{Unit, UnitTable};

mod numbers;
mod ranges;
mod rejections;
mod units;

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
            // "6.5 L/100 km": a number inside the unit just read is part of it.
            if kept
                .last()
                .is_some_and(|previous: &Mention| mention.first < previous.end)
            {
                continue;
            }
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
///
/// An end with its own currency sign says its amount in full ("from £500 to £3 million" is 500 to
/// 3e6): it takes the other end's scale only when that makes the two ends agree within a factor of
/// ten ("$2 to $3 million").
fn scaled_like(a: &Mention, b: &Mention) -> f64 {
    if a.scale != 1.0 || b.scale == 1.0 {
        return a.value;
    }
    let own_sign = a.currency.is_some_and(|(from, _)| from < a.first);
    if own_sign {
        let scaled = a.value * b.scale;
        let ratio = (scaled / b.value).abs().max((b.value / scaled).abs());
        if !(ratio.is_finite() && ratio <= 10.0) {
            return a.value;
        }
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
pub fn singular(word: &str) -> String {
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
