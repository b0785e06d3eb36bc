//! A generated surface-form test for the extractor (issue 34): sentences built from the Qsearch
//! unit collection (`kg-unit-collection.json`: each unit's name, symbols, dimension, currency
//! flag) and templates of news and specification text, with known values and units. This is the
//! QFinder paper's unit permutation (every unit of the everyday dimensions, in each surface form
//! it has) and value permutation (values drawn at random in the ways people write them) with a
//! fixed seed.
//!
//! The sentences are split **by unit** into two fixed halves (a stable hash of the unit's name):
//! the tuning half may be looked at while writing rules; the held-out half is only scored, so its
//! figure says how the rules carry over to units nobody looked at. Templates and value forms were
//! written from general knowledge of how news and spec sheets write quantities, not from any gold
//! file. Scoring is the gold scorer's ([`super::eval`]): values match numerically, units through
//! Tally's unit table or by name.

use std::path::Path;

use super::eval::{evaluate, EvalError, ExtractionReport, GoldQuantity, GoldSentence, Half};
use tally_text::hash::stable_hash;
use tally_text::random::SplitMix64 as Random;
use tally_text::units::collection::{self, plural, EntityName};

/// The dimensions (the collection's measured concepts) that news and specification text use;
/// the collection's scientific ones (luminous flux, absorbed dose, catalytic activity …) are
/// left out. Each with the name the report prints.
const EVERYDAY_DIMENSIONS: &[(&str, &str)] = &[
    ("<Length>", "length"),
    ("<Currency>", "currency"),
    ("<Volume>", "volume"),
    ("<Mass>", "mass"),
    ("<Area>", "area"),
    ("<Energy>", "energy"),
    ("<duration_wd:Q2199864>", "duration"),
    ("<Speed>", "speed"),
    ("<Pressure>", "pressure"),
    ("<Electric_charge>", "electric charge"),
    ("<Power_(physics)>", "power"),
    ("<Force>", "force"),
    ("<Frequency>", "frequency"),
    ("<Electric_current_intensity>", "electric current"),
    ("<Voltage>", "voltage"),
    ("<Thermodynamic_temperature>", "temperature"),
    ("<information_wd:Q71699827>", "information"),
    ("<Dimensionless_quantity>", "dimensionless"),
];

/// Sentences with one quantity, `{q}` where it goes: news and specification text (no other
/// number, so that every extracted quantity but the one placed is an error).
pub(super) const TEMPLATES: &[&str] = &[
    "Officials put the figure at {q} on Monday.",
    "The report lists {q} for the second quarter.",
    "According to the data sheet, the rating is {q}.",
    "Analysts expect {q} by the end of the year.",
    "The measurement came to {q}, slightly above last year's.",
    "It was {q} in total, the agency said.",
    "Specifications: {q}, black finish, warranty included.",
    "A spokesman said {q} had been recorded at the site.",
    "The new version reaches {q}, the company said.",
    "In March the index stood at {q}.",
];

/// How a unit is written in a sentence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SurfaceKind {
    /// A symbol with a sign that is not a letter: "%", "$", "km²", "°C", "µm".
    Symbol,
    /// A symbol made of letters only: "km", "mph", "USD".
    Abbreviation,
    /// The unit's name, plural where the value asks for it: "kilometres", "euros".
    Name,
    /// A unit made of two ("per" in its name, "/" in its symbol): "kilometres per hour", "km/h".
    Compound,
}

impl SurfaceKind {
    /// Every surface kind, in report order.
    pub const ALL: [SurfaceKind; 4] = [
        SurfaceKind::Symbol,
        SurfaceKind::Abbreviation,
        SurfaceKind::Name,
        SurfaceKind::Compound,
    ];

    /// The kind's name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            SurfaceKind::Symbol => "symbol",
            SurfaceKind::Abbreviation => "abbreviation",
            SurfaceKind::Name => "name",
            SurfaceKind::Compound => "compound",
        }
    }

    /// The kind of a symbol.
    fn of_symbol(symbol: &str) -> Self {
        if symbol.contains('/') {
            SurfaceKind::Compound
        } else if symbol.chars().all(|c| c.is_ascii_alphabetic()) {
            SurfaceKind::Abbreviation
        } else {
            SurfaceKind::Symbol
        }
    }
}

/// One unit of the collection, as the generator uses it.
#[derive(Debug, Clone)]
pub struct CollectionUnit {
    /// Its name, from the collection's entity ("<cubic_kilometre_wd:Q4243638>" → "cubic
    /// kilometre", "<fluid_ounce_(US)>" → "fluid ounce" of the US).
    pub name: EntityName,
    /// The half its sentences belong to (by its name as the collection writes it).
    pub half: Half,
    /// The report's name of its dimension.
    pub dimension: &'static str,
    /// Its symbols.
    pub symbols: Vec<String>,
    /// Whether it is a currency.
    pub currency: bool,
}

/// The units of the everyday dimensions in a collection file.
pub fn read_collection(path: &Path) -> Result<Vec<CollectionUnit>, EvalError> {
    let shown = path.display().to_string();
    let text = std::fs::read_to_string(path).map_err(|source| EvalError::Read {
        path: shown.clone(),
        source,
    })?;
    let entries = collection::read_entries(&text).map_err(|e| EvalError::Format {
        path: shown,
        message: tally_types::error::Causes(&e).to_string(),
    })?;
    Ok(entries
        .into_iter()
        .filter_map(|u| {
            let concept = u.measured_concepts.first()?;
            let &(_, dimension) = EVERYDAY_DIMENSIONS.iter().find(|(c, _)| c == concept)?;
            let mut symbols: Vec<String> = Vec::new();
            // As a writer puts them: "fl oz (US)" as "US fl oz"; "q_P" is subscript markup,
            // not text.
            for s in u.symbols.iter().map(|s| written_symbol(s.trim())) {
                if !s.is_empty() && !s.contains('_') && !symbols.contains(&s) {
                    symbols.push(s);
                }
            }
            let name = EntityName::parse(&u.entity);
            // The collection's unit "1" (a pure number) has no name to write.
            if !name.base.chars().any(char::is_alphabetic) {
                return None;
            }
            Some(CollectionUnit {
                half: half_of_unit(&collection::entity_words(&u.entity)),
                name,
                dimension,
                symbols,
                currency: u.is_currency,
            })
        })
        .collect())
}

/// A symbol as writers put its regional qualifier: "fl oz (US)" → "US fl oz".
fn written_symbol(symbol: &str) -> String {
    collection::regional_symbol(symbol).unwrap_or_else(|| symbol.to_string())
}

/// One generated sentence with its gold quantity and what it tests.
#[derive(Debug, Clone)]
pub struct GeneratedSentence {
    /// The sentence with its gold quantity.
    pub gold: GoldSentence,
    /// The unit's name.
    pub unit: String,
    /// The report's name of the unit's dimension.
    pub dimension: &'static str,
    /// The surface kind the unit is written in.
    pub kind: SurfaceKind,
    /// The half the sentence belongs to.
    pub half: Half,
}

/// The half a unit's sentences belong to.
pub fn half_of_unit(name: &str) -> Half {
    if stable_hash(name).is_multiple_of(2) {
        Half::Tuning
    } else {
        Half::HeldOut
    }
}

/// A value as written, with the number it means.
pub(super) struct WrittenValue {
    pub(super) text: String,
    pub(super) value: f64,
}

/// A value in one of the forms people write: a small integer, a decimal, a number with
/// thousands separators, or a decimal with a scale word.
pub(super) fn written_value(random: &mut Random) -> WrittenValue {
    match random.below(4) {
        0 => {
            let n = 2 + random.below(98);
            WrittenValue {
                text: n.to_string(),
                value: n as f64,
            }
        }
        1 => {
            let tenths = 11 + random.below(989);
            WrittenValue {
                text: format!("{}.{}", tenths / 10, tenths % 10),
                value: tenths as f64 / 10.0,
            }
        }
        2 => {
            let n = 1_000 + random.below(98_000);
            WrittenValue {
                text: format!("{},{:03}", n / 1000, n % 1000),
                value: n as f64,
            }
        }
        _ => {
            let tenths = 11 + random.below(89);
            let (word, scale) = *random.pick(&[("million", 1e6), ("billion", 1e9)]);
            WrittenValue {
                text: format!("{}.{} {word}", tenths / 10, tenths % 10),
                value: tenths as f64 * scale / 10.0,
            }
        }
    }
}

/// The quantity as written with a unit's `surface` (a symbol, or the name when `None`).
fn written_quantity(
    unit: &CollectionUnit,
    surface: Option<&str>,
    value: &WrittenValue,
    random: &mut Random,
) -> String {
    match surface {
        // "US fluid ounces"; a qualifier that is not a region is not written ("points").
        None => {
            let name = unit
                .name
                .regional()
                .unwrap_or_else(|| unit.name.base.clone());
            format!("{} {}", value.text, plural(&name))
        }
        // Currency signs go before the number ("$12", "€3.5 million").
        Some(symbol) if unit.currency && !symbol.chars().all(char::is_alphabetic) => {
            format!("{symbol}{}", value.text)
        }
        // Currency codes go either side ("USD 12", "12 USD").
        Some(code) if unit.currency && random.below(2) == 0 => format!("{code} {}", value.text),
        Some(symbol) if symbol == "%" || symbol.starts_with('°') => {
            format!("{}{symbol}", value.text)
        }
        Some(symbol) => format!("{} {symbol}", value.text),
    }
}

/// Every unit in each of its surface forms (its name, and each symbol), with a random value and
/// template; `seed` fixes the draw.
pub fn generate(units: &[CollectionUnit], seed: u64) -> Vec<GeneratedSentence> {
    let mut random = Random::new(seed);
    let mut sentences = Vec::new();
    for unit in units {
        let surfaces = std::iter::once(None).chain(unit.symbols.iter().map(|s| Some(s.as_str())));
        for surface in surfaces {
            let kind = match surface {
                None if unit.name.base.contains(" per ") => SurfaceKind::Compound,
                None => SurfaceKind::Name,
                Some(symbol) => SurfaceKind::of_symbol(symbol),
            };
            let value = written_value(&mut random);
            let quantity = written_quantity(unit, surface, &value, &mut random);
            let template = random.pick(TEMPLATES);
            sentences.push(GeneratedSentence {
                gold: GoldSentence {
                    text: template.replace("{q}", &quantity),
                    quantities: vec![GoldQuantity {
                        value: format!("{}", value.value),
                        normalized_unit: unit.name.full(),
                        change: None,
                    }],
                    class: None,
                    half: None,
                },
                unit: unit.name.full(),
                dimension: unit.dimension,
                kind,
                half: unit.half,
            });
        }
    }
    sentences
}

/// The scores of one group of generated sentences.
#[derive(Debug, Clone, serde::Serialize)]
pub struct GroupScores {
    /// The group's name.
    pub group: String,
    /// The group's figures.
    pub report: ExtractionReport,
}

/// Scores for one half: all its sentences, then per dimension and per surface kind.
#[derive(Debug, Clone, serde::Serialize)]
pub struct HalfScores {
    /// The half's name.
    pub half: &'static str,
    /// Units of the half.
    pub units: usize,
    /// Figures on all its sentences.
    pub all: ExtractionReport,
    /// Figures per dimension.
    pub per_dimension: Vec<GroupScores>,
    /// Figures per surface kind.
    pub per_kind: Vec<GroupScores>,
}

/// How many different units a half's sentences are of.
pub(super) fn distinct_units<'a>(units: impl Iterator<Item = &'a str>) -> usize {
    units.collect::<std::collections::HashSet<_>>().len()
}

/// Runs the extractor over the generated sentences of `half` and scores them.
pub fn score_half(sentences: &[GeneratedSentence], half: Half) -> HalfScores {
    let own: Vec<&GeneratedSentence> = sentences.iter().filter(|s| s.half == half).collect();
    let gold = |keep: &dyn Fn(&GeneratedSentence) -> bool| -> Vec<GoldSentence> {
        own.iter()
            .filter(|s| keep(s))
            .map(|s| s.gold.clone())
            .collect()
    };
    let per_dimension = EVERYDAY_DIMENSIONS
        .iter()
        .map(|&(_, dimension)| GroupScores {
            group: dimension.to_string(),
            report: evaluate(&gold(&|s| s.dimension == dimension)),
        })
        .filter(|g| g.report.sentences > 0)
        .collect();
    let per_kind = SurfaceKind::ALL
        .iter()
        .map(|&kind| GroupScores {
            group: kind.name().to_string(),
            report: evaluate(&gold(&|s| s.kind == kind)),
        })
        .filter(|g| g.report.sentences > 0)
        .collect();
    HalfScores {
        half: half.name(),
        units: distinct_units(own.iter().map(|s| s.unit.as_str())),
        all: evaluate(&gold(&|_| true)),
        per_dimension,
        per_kind,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(name: &str, symbols: &[&str], currency: bool) -> CollectionUnit {
        CollectionUnit {
            name: EntityName::parse(name),
            half: half_of_unit(name),
            dimension: if currency { "currency" } else { "length" },
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
            currency,
        }
    }

    #[test]
    fn halves_stay_keyed_by_the_collections_names() {
        assert_eq!(
            collection::entity_words("<cubic_kilometre_wd:Q4243638>"),
            "cubic kilometre"
        );
        assert_eq!(
            collection::entity_words("<fluid_ounce_(US)>"),
            "fluid ounce (US)"
        );
        assert_eq!(collection::entity_words("<Pascal_(unit)>"), "Pascal (unit)");
        assert_eq!(written_symbol("fl oz (US)"), "US fl oz");
        assert_eq!(written_symbol("BTU (IT)"), "BTU (IT)");
    }

    #[test]
    fn every_surface_form_is_generated_with_its_gold_and_the_same_seed_gives_the_same_test() {
        let units = [
            unit("kilometre", &["km"], false),
            unit("euro", &["€", "EUR"], true),
            unit("kilometre per hour", &["km/h"], false),
        ];
        let first = generate(&units, 7);
        assert_eq!(first.len(), 2 + 3 + 2);
        let kinds: Vec<SurfaceKind> = first.iter().map(|s| s.kind).collect();
        assert_eq!(
            kinds,
            [
                SurfaceKind::Name,
                SurfaceKind::Abbreviation,
                SurfaceKind::Name,
                SurfaceKind::Symbol,
                SurfaceKind::Abbreviation,
                SurfaceKind::Compound,
                SurfaceKind::Compound,
            ]
        );
        let euro_sign = &first[3].gold.text;
        assert!(euro_sign.contains('€'), "{euro_sign}");
        let again = generate(&units, 7);
        let texts = |s: &[GeneratedSentence]| -> Vec<String> {
            s.iter().map(|g| g.gold.text.clone()).collect()
        };
        assert_eq!(texts(&first), texts(&again));
        assert_ne!(texts(&first), texts(&generate(&units, 8)));
    }

    #[test]
    fn a_units_sentences_are_all_in_one_half() {
        let units = [unit("metre", &["m"], false), unit("mile", &["mi"], false)];
        for s in generate(&units, 1) {
            assert_eq!(s.half, half_of_unit(&s.unit));
        }
    }

    #[test]
    fn the_collection_reads_into_both_halves() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/data/quantities/kg-unit-collection.json");
        let units = read_collection(&path).expect("the collection is in ../shared/data");
        assert!(units.len() > 500, "{} units", units.len());
        let sentences = generate(&units, 34);
        assert!(sentences.len() > 1000);
        for half in Half::ALL {
            assert!(sentences.iter().filter(|s| s.half == half).count() > 300);
        }
    }
}
