//! The Qsearch unit collection (`kg-unit-collection.json`, Apache-2.0) in Tally's terms: each
//! collection unit's names and symbols, its Tally dimension and its factor to that dimension's
//! base unit.
//!
//! [`derive`] turns the collection into `text/data/collection_units.json`, which is committed
//! so that Tally needs no copy of the collection to run; `tests/unit_table.rs` checks that the
//! file is what the collection gives (and rewrites it with `TALLY_UPDATE_UNITS=1`). The table
//! merges it under Tally's own ([`super::UnitTable::builtin`]): Tally's table decides every
//! surface it already has, and supplies what the collection lacks.
//!
//! Surfaces that running text uses as ordinary words ("men", "Last", "PC", "score") are left out
//! by a measurement, not a list: [`WordUse`] counts how often each word of a text follows a number.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::UnitError;

/// The collection's SI units that are the base of a Tally dimension (or a fixed multiple of
/// it: the collection converts a few units to the gram or the litre), with that dimension and
/// the base unit's factor.
pub const SI_BASES: &[(&str, &str, f64)] = &[
    ("<Metre>", "length", 1.0),
    ("<Centimetre>", "length", 1e-2),
    ("<Millimetre>", "length", 1e-3),
    ("<Kilogram>", "mass", 1.0),
    ("<Gram>", "mass", 1e-3),
    ("<Second>", "time", 1.0),
    ("<Metre_per_second>", "speed", 1.0),
    ("<Metre_per_second_squared>", "acceleration", 1.0),
    ("<Watt>", "power", 1.0),
    ("<Joule>", "energy", 1.0),
    ("<Byte>", "data", 1.0),
    ("<Square_metre>", "area", 1.0),
    ("<Cubic_metre>", "volume", 1.0),
    ("<Litre>", "volume", 1e-3),
    ("<millilitre_wd:Q2332346>", "volume", 1e-6),
    ("<Kelvin>", "temperature", 1.0),
    ("<1>", "ratio", 1.0),
    ("<Hertz>", "frequency", 1.0),
    ("<Pascal_(unit)>", "pressure", 1.0),
    ("<Newton_(unit)>", "force", 1.0),
    ("<Newton-metre>", "torque", 1.0),
    ("<Volt>", "voltage", 1.0),
    ("<Ampere>", "current", 1.0),
    ("<Coulomb>", "charge", 1.0),
    ("<ampere_second_wd:Q65665809>", "charge", 1.0),
    ("<Ohm>", "resistance", 1.0),
    ("<Farad>", "capacitance", 1.0),
    ("<Radian>", "angle", 1.0),
    ("<Kilogram_per_cubic_metre>", "density", 1.0),
    ("<Cubic_metre_per_second>", "flow", 1.0),
    ("<Lumen_(unit)>", "luminous_flux", 1.0),
    ("<Lux>", "illuminance", 1.0),
    ("<Candela>", "luminous_intensity", 1.0),
    ("<Mole_(unit)>", "amount", 1.0),
    ("<Becquerel>", "radioactivity", 1.0),
    ("<Sievert>", "dose", 1.0),
    ("<Gray_(unit)>", "absorbed_dose", 1.0),
    ("<Tesla_(unit)>", "magnetic_flux_density", 1.0),
];

/// Regional qualifiers that writers put before the name ("US fluid ounce", "UK gallon").
const REGIONAL: &[&str] = &["US", "UK", "US survey"];

/// One entry of the collection file.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CollectionEntry {
    /// The unit's entity name ("<fluid_ounce_(US)>"); see [`EntityName`].
    pub entity: String,
    /// The unit's Wikidata id ("Q1234").
    #[serde(default)]
    pub wd_entry: String,
    /// The quantities the unit measures, as the collection names them.
    #[serde(default)]
    pub measured_concepts: Vec<String>,
    /// The unit's symbols.
    #[serde(default)]
    pub symbols: Vec<String>,
    /// Whether the unit is a currency.
    #[serde(default)]
    pub is_currency: bool,
    /// The SI unit it converts to ("<Metre>"); see [`SI_BASES`].
    #[serde(default)]
    pub si_unit: Option<String>,
    /// The factor from this unit to `si_unit`.
    #[serde(default, rename = "conversionToSI")]
    pub conversion_to_si: Option<f64>,
}

/// Reads the collection file's text.
pub fn read_entries(text: &str) -> Result<Vec<CollectionEntry>, UnitError> {
    Ok(serde_json::from_str(text)?)
}

/// A collection entity's name, split from the qualifier Wikipedia adds to tell senses apart:
/// "<fluid_ounce_(US)>" → "fluid ounce" + "US", "<Pascal_(unit)>" → "pascal",
/// "<cubic_kilometre_wd:Q4243638>" → "cubic kilometre".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EntityName {
    /// The name without its qualifier ("fluid ounce").
    pub base: String,
    /// The sense ("US", "typography", "mean"); "(unit)" says nothing and is dropped.
    pub qualifier: Option<String>,
}

/// An entity's words as one name, qualifier and all: "<fluid_ounce_(US)>" → "fluid ounce (US)",
/// "<cubic_kilometre_wd:Q4243638>" → "cubic kilometre".
pub fn entity_words(entity: &str) -> String {
    let inner = entity.trim_start_matches('<').trim_end_matches('>');
    common_noun(inner.split("_wd:").next().unwrap_or(inner))
}

impl EntityName {
    /// Splits a collection entity ("<fluid_ounce_(US)>") into name and qualifier.
    pub fn parse(entity: &str) -> Self {
        let inner = entity.trim_start_matches('<').trim_end_matches('>');
        let inner = inner.split("_wd:").next().unwrap_or(inner);
        // The qualifier may sit inside the name: "<barrel_(US)_for_petroleum>".
        let split = inner.split_once("_(").and_then(|(before, rest)| {
            let (qualifier, after) = rest.split_once(')')?;
            Some((format!("{before}{after}"), qualifier.replace('_', " ")))
        });
        match split {
            Some((base, qualifier)) => EntityName {
                base: common_noun(&base),
                qualifier: Some(qualifier).filter(|q| q != "unit"),
            },
            None => EntityName {
                base: common_noun(inner),
                qualifier: None,
            },
        }
    }

    /// The name with its qualifier, as the collection gives it: "fluid ounce (US)".
    pub fn full(&self) -> String {
        match &self.qualifier {
            Some(q) => format!("{} ({q})", self.base),
            None => self.base.clone(),
        }
    }

    /// The name as writers qualify it, where the qualifier is a region: "US fluid ounce".
    pub fn regional(&self) -> Option<String> {
        let q = self.qualifier.as_deref()?;
        REGIONAL.contains(&q).then(|| format!("{q} {}", self.base))
    }
}

/// "cubic_kilometre" → "cubic kilometre", "Metre" → "metre"; a name with capitals after its
/// first word keeps them ("United States dollar"), as does a symbol-like word ("MWh").
fn common_noun(words: &str) -> String {
    let words: Vec<&str> = words.split('_').filter(|w| !w.is_empty()).collect();
    let rest_lower = words[1.min(words.len())..]
        .iter()
        .all(|w| w.chars().next().is_some_and(char::is_lowercase));
    let first_is_word = words
        .first()
        .and_then(|w| w.chars().nth(1))
        .is_some_and(char::is_lowercase);
    let name = words.join(" ");
    if rest_lower && first_is_word {
        let mut chars = name.chars();
        return chars
            .next()
            .map(|c| c.to_lowercase().chain(chars).collect())
            .unwrap_or_default();
    }
    name
}

/// The plural of a unit name: the word before "per" (or the last word) takes it ("kilometres
/// per hour", "square miles", "feet", "pennies"); words ending in s, x or z stay ("hertz",
/// "lux", "siemens"), and a name ending in a qualifier has none ("fluid ounce (US)").
pub fn plural(name: &str) -> String {
    if name.ends_with(')') {
        return name.to_string();
    }
    let (head, tail) = match name.split_once(" per ") {
        Some((head, tail)) => (head, Some(tail)),
        None => (name, None),
    };
    let (before, last) = match head.rsplit_once(' ') {
        Some((before, last)) => (Some(before), last),
        None => (None, head),
    };
    let last = match last {
        "foot" => "feet".to_string(),
        w if w.ends_with("ch") || w.ends_with("sh") => format!("{w}es"),
        w if w.ends_with('s') || w.ends_with('x') || w.ends_with('z') => w.to_string(),
        w if w.ends_with('y') && !w.ends_with("ey") && !w.ends_with("ay") && !w.ends_with("oy") => {
            format!("{}ies", &w[..w.len() - 1])
        }
        w => format!("{w}s"),
    };
    let head = match before {
        Some(before) => format!("{before} {last}"),
        None => last,
    };
    match tail {
        Some(tail) => format!("{head} per {tail}"),
        None => head,
    }
}

/// How running text uses each word: how often it occurs, and how often right after a number
/// ("12 km", "3.5kWh"). A word mostly used elsewhere is a word of the language, not a unit.
#[derive(Debug, Default)]
pub struct WordUse {
    exact: HashMap<String, Use>,
    folded: HashMap<String, Use>,
}

#[derive(Debug, Default, Clone, Copy)]
struct Use {
    after_number: u32,
    total: u32,
}

impl Use {
    fn add(&mut self, other: Use) {
        self.after_number += other.after_number;
        self.total += other.total;
    }
}

/// Occurrences needed before a word's use is trusted; below it, a surface is kept.
const MIN_USES: u32 = 3;

impl WordUse {
    /// Counts every run of letters in `texts`.
    pub fn count<'a>(texts: impl IntoIterator<Item = &'a str>) -> Self {
        let mut counts = WordUse::default();
        for text in texts {
            let mut start: Option<usize> = None;
            for (at, c) in text
                .char_indices()
                .chain(std::iter::once((text.len(), ' ')))
            {
                match (start, c.is_alphabetic()) {
                    (None, true) => start = Some(at),
                    (Some(from), false) => {
                        counts.record(&text[from..at], after_number(&text[..from]));
                        start = None;
                    }
                    _ => {}
                }
            }
        }
        counts
    }

    fn record(&mut self, word: &str, after_number: bool) {
        let one = Use {
            after_number: u32::from(after_number),
            total: 1,
        };
        self.exact.entry(word.to_string()).or_default().add(one);
        self.folded.entry(word.to_lowercase()).or_default().add(one);
    }

    /// Whether `surface` (one word) is used mostly not after a number: as written when
    /// `case_sensitive` (symbols), in any case otherwise (names, counted with their plural).
    pub fn is_word(&self, surface: &str, case_sensitive: bool) -> bool {
        let mut uses = Use::default();
        if case_sensitive {
            uses.add(self.exact.get(surface).copied().unwrap_or_default());
        } else {
            let lower = surface.to_lowercase();
            let plural = plural(&lower);
            uses.add(self.folded.get(&lower).copied().unwrap_or_default());
            if plural != lower {
                uses.add(self.folded.get(&plural).copied().unwrap_or_default());
            }
        }
        uses.total >= MIN_USES && 2 * uses.after_number < uses.total
    }
}

/// Whether `before` ends with a digit, at most one space before the word.
fn after_number(before: &str) -> bool {
    let trimmed = before.strip_suffix(' ').unwrap_or(before);
    trimmed.ends_with(|c: char| c.is_ascii_digit())
}

/// One collection unit in Tally's terms, as `collection_units.json` holds it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DerivedUnit {
    /// The unit's id, from its full name ("fluid_ounce_us").
    pub id: String,
    /// The Tally dimension ("length", "currency").
    pub dim: String,
    /// To the dimension's base unit.
    pub factor: f64,
    /// Currencies only: the collection's Wikidata id, so that no two currencies convert.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    /// Symbols, with their regional forms.
    pub symbols: Vec<String>,
    /// Currencies only: signs read only right before an amount ("CF 7.9"), because after a
    /// number the same letters are mostly a word.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub signs_before: Vec<String>,
    /// Singular names; the table adds their plurals.
    pub names: Vec<String>,
}

/// The collection in Tally's terms, with the surfaces left out and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DerivedUnits {
    /// Where the file comes from and how to regenerate it.
    pub about: String,
    /// The units, in collection order.
    pub units: Vec<DerivedUnit>,
    /// Each surface left out, with its unit and why ("PC (petacoulomb): a word in running text").
    pub left_out: Vec<String>,
}

const ABOUT: &str = "Units of the Qsearch unit collection (kg-unit-collection.json, Apache-2.0) \
     in Tally's dimensions, derived by text/src/units/collection.rs; regenerate with \
     TALLY_UPDATE_UNITS=1 cargo test -p tally-text --test unit_table";

/// The collection's units in Tally's dimensions, with the surfaces a reader can write: each
/// name and its regional form ("US gallon"), each symbol and its regional form; symbols with
/// subscript markup ("q_P"), ASCII punctuation ('"' for the arcsecond, '#' for the pound) and
/// surfaces `words` shows to be words are left out.
pub fn derive(entries: &[CollectionEntry], words: &WordUse) -> DerivedUnits {
    let mut units: Vec<DerivedUnit> = Vec::new();
    let mut left_out = Vec::new();
    for entry in entries {
        let Some((dim, factor, currency)) = dimension_of(entry) else {
            continue;
        };
        let name = EntityName::parse(&entry.entity);
        // The unit named "1" (a pure number) has no name to write.
        if !name.base.chars().any(char::is_alphabetic) {
            continue;
        }
        let mut names: Vec<String> = Vec::new();
        let name_forms = [Some(name.full()), name.regional(), Some(name.base.clone())];
        for surface in unique(name_forms.into_iter().flatten()) {
            match left_out_because(&surface, false, words) {
                Some(why) => left_out.push(format!("{surface} ({}): {}", name.full(), why.says())),
                None => names.push(surface),
            }
        }
        let mut symbols: Vec<String> = Vec::new();
        let mut signs_before = Vec::new();
        let symbol_forms = entry.symbols.iter().flat_map(|s| symbol_forms(s.trim()));
        for symbol in unique(symbol_forms.filter(|s| !s.is_empty())) {
            match left_out_because(&symbol, true, words) {
                None => symbols.push(symbol),
                // A currency's sign before an amount is the currency ("CF 7.9"), whatever the
                // same letters are after a number.
                Some(LeftOut::Word) if currency => signs_before.push(symbol),
                Some(why) => left_out.push(format!("{symbol} ({}): {}", name.full(), why.says())),
            }
        }
        let mut id = snake_case(&name.full());
        if units.iter().any(|u| u.id == id) {
            id = format!("{id}_{}", entry.wd_entry.to_lowercase());
        }
        units.push(DerivedUnit {
            currency: currency.then(|| entry.wd_entry.clone()),
            id,
            dim: dim.to_string(),
            factor,
            symbols,
            signs_before,
            names,
        });
    }
    DerivedUnits {
        about: ABOUT.to_string(),
        units,
        left_out,
    }
}

/// The surfaces in their first order, each once (the collection repeats some, and a name
/// without a qualifier is its own base), so that each is judged and reported once.
fn unique(surfaces: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen = Vec::new();
    for surface in surfaces {
        if !seen.contains(&surface) {
            seen.push(surface);
        }
    }
    seen
}

/// Why a surface is not read as its unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LeftOut {
    Subscript,
    Punctuation,
    OneLetter,
    Word,
}

impl LeftOut {
    fn says(self) -> &'static str {
        match self {
            LeftOut::Subscript => "subscript markup",
            LeftOut::Punctuation => "ASCII punctuation",
            LeftOut::OneLetter => "one letter",
            LeftOut::Word => "a word in running text",
        }
    }
}

fn left_out_because(surface: &str, is_symbol: bool, words: &WordUse) -> Option<LeftOut> {
    let single_word = surface.chars().all(char::is_alphabetic);
    if is_symbol && surface.contains('_') {
        Some(LeftOut::Subscript)
    } else if is_symbol && surface.chars().all(|c| c.is_ascii_punctuation()) {
        // '"', '#': quotation marks and the number sign are punctuation in text.
        Some(LeftOut::Punctuation)
    } else if is_symbol && single_word && surface.chars().count() == 1 {
        Some(LeftOut::OneLetter)
    } else if single_word && words.is_word(surface, is_symbol) {
        Some(LeftOut::Word)
    } else {
        None
    }
}

/// A symbol as listed and, with a regional qualifier, as writers put it: "fl oz (US)" and
/// "US fl oz".
fn symbol_forms(symbol: &str) -> Vec<String> {
    std::iter::once(symbol.to_string())
        .chain(regional_symbol(symbol))
        .collect()
}

/// A symbol with a regional qualifier as writers put it: "fl oz (US)" → "US fl oz".
pub fn regional_symbol(symbol: &str) -> Option<String> {
    let (bare, region) = symbol.strip_suffix(')')?.rsplit_once(" (")?;
    REGIONAL
        .contains(&region)
        .then(|| format!("{region} {bare}"))
}

/// The Tally dimension and factor of an entry (currencies: factor 1, and `true`).
fn dimension_of(entry: &CollectionEntry) -> Option<(&'static str, f64, bool)> {
    if entry.is_currency {
        return Some(("currency", 1.0, true));
    }
    let si = entry.si_unit.as_deref()?;
    let factor = entry.conversion_to_si?;
    let &(_, dim, base) = SI_BASES.iter().find(|(s, _, _)| *s == si)?;
    (factor.is_finite() && factor > 0.0).then_some((dim, factor * base, false))
}

/// "fluid ounce (US)" → "fluid_ounce_us".
fn snake_case(name: &str) -> String {
    let mut id = String::new();
    for c in name.chars() {
        if c.is_alphanumeric() {
            id.extend(c.to_lowercase());
        } else if !id.ends_with('_') && !id.is_empty() {
            id.push('_');
        }
    }
    id.trim_end_matches('_').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_names_split_their_qualifiers() {
        let name = EntityName::parse("<fluid_ounce_(US)>");
        assert_eq!(name.base, "fluid ounce");
        assert_eq!(name.full(), "fluid ounce (US)");
        assert_eq!(name.regional().as_deref(), Some("US fluid ounce"));
        assert_eq!(EntityName::parse("<Pascal_(unit)>").full(), "pascal");
        assert_eq!(
            EntityName::parse("<cubic_kilometre_wd:Q4243638>").full(),
            "cubic kilometre"
        );
        assert_eq!(
            EntityName::parse("<United_States_dollar>").full(),
            "United States dollar"
        );
        assert_eq!(EntityName::parse("<MWh>").full(), "MWh");
        let barrel = EntityName::parse("<barrel_(US)_for_petroleum_wd:Q89187604>");
        assert_eq!(barrel.full(), "barrel for petroleum (US)");
        assert_eq!(
            barrel.regional().as_deref(),
            Some("US barrel for petroleum")
        );
        assert_eq!(EntityName::parse("<point_(typography)>").regional(), None);
    }

    #[test]
    fn plurals_follow_english() {
        assert_eq!(plural("kilometre"), "kilometres");
        assert_eq!(plural("foot"), "feet");
        assert_eq!(plural("inch"), "inches");
        assert_eq!(plural("hertz"), "hertz");
        assert_eq!(plural("kilometre per hour"), "kilometres per hour");
        assert_eq!(plural("square mile"), "square miles");
        assert_eq!(plural("penny"), "pennies");
        assert_eq!(plural("day"), "days");
        assert_eq!(plural("fluid ounce (US)"), "fluid ounce (US)");
    }

    #[test]
    fn words_used_mostly_away_from_numbers_are_words() {
        let text = "The men said 12 km. Three men came, men and women, 5 km and 7km. \
                    Some PC makers, a PC, PCs 4 PC.";
        let words = WordUse::count([text]);
        assert!(words.is_word("men", false));
        assert!(!words.is_word("km", true));
        assert!(
            words.is_word("PC", true),
            "2 of 3 uses are not after a number"
        );
        // Too rare to judge: kept.
        assert!(!words.is_word("furlong", false));
    }

    #[test]
    fn derived_units_keep_their_surfaces_and_leave_out_words() {
        let entries = read_entries(
            r#"[{"entity": "<fluid_ounce_(US)>", "wdEntry": "Q1", "measuredConcepts": [],
                 "symbols": ["fl oz (US)", "q_P"], "isCurrency": false,
                 "siUnit": "<Cubic_metre>", "conversionToSI": 2.957e-5},
                {"entity": "<Score_(unit)>", "wdEntry": "Q2", "measuredConcepts": [],
                 "symbols": ["s"], "isCurrency": false, "siUnit": "<1>", "conversionToSI": 20},
                {"entity": "<Livre_tournois>", "wdEntry": "Q3", "measuredConcepts": [],
                 "symbols": ["₶"], "isCurrency": true},
                {"entity": "<Candela_per_square_metre>", "wdEntry": "Q4", "measuredConcepts": [],
                 "symbols": ["nit"], "isCurrency": false, "siUnit": "<Nit>", "conversionToSI": 1}]"#,
        )
        .unwrap();
        let words = WordUse::count(["the score was settled, a score of people, what a score"]);
        let derived = derive(&entries, &words);
        assert_eq!(
            derived.units.len(),
            3,
            "the unit of an unknown dimension is left"
        );
        let ounce = &derived.units[0];
        assert_eq!(ounce.id, "fluid_ounce_us");
        assert_eq!(ounce.dim, "volume");
        assert_eq!(
            ounce.names,
            ["fluid ounce (US)", "US fluid ounce", "fluid ounce"]
        );
        assert_eq!(ounce.symbols, ["fl oz (US)", "US fl oz"]);
        let score = &derived.units[1];
        assert!(score.names.is_empty() && score.symbols.is_empty());
        assert_eq!(derived.units[2].currency.as_deref(), Some("Q3"));
        assert_eq!(derived.units[2].dim, "currency");
        assert!(derived.left_out.iter().any(|l| l.starts_with("q_P")));
        assert!(derived
            .left_out
            .iter()
            .any(|l| l == "score (score): a word in running text"));
    }
}
