//! The generated compound and currency test (issue 50): sentences built from the unit
//! collection whose quantities are a unit per another unit ("40 litres of water per minute",
//! "€1.10 per litre", "NOK 30 a share") or an amount of money written the ways news text writes
//! it beyond a sign or a code (a country mark after the sign, "$NZ 3 million"; the currency named
//! after the amount, "3.2 million Swiss francs"; an amount with its conversion in brackets,
//! "NOK 30 (US$2.80)").
//!
//! As in the surface-form test ([`super::generated`]) the sentences are split **by unit** (the
//! numerator's, or the currency's) into a tuning half, whose misses may be read, and a held-out
//! half that is only scored. The forms and the denominators were written from general knowledge
//! of news and price text before any rule was tuned on them.

use super::eval::{evaluate, ExtractionReport, GoldQuantity, GoldSentence, Half};
use super::generated::{
    distinct_units, written_value, CollectionUnit, GroupScores, WrittenValue, TEMPLATES,
};
use tally_text::random::SplitMix64 as Random;
use tally_text::units::collection::plural;

/// How a generated quantity is written: the class it tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CompoundForm {
    /// "{v} {units} per {unit}": "200 tonnes per week".
    Per,
    /// "{v} {units} a {unit}": "200 tonnes a week", "£9.50 an hour".
    PerArticle,
    /// "{v} {units} each {unit}".
    PerEach,
    /// "{v} {units} of {material} per {unit}": "40 litres of water per minute".
    PerOfMaterial,
    /// A currency sign with a slash: "€40/tonne".
    Slash,
    /// A country mark after a dollar sign: "$NZ 3 million" (the collection writes "NZ$").
    CountryMark,
    /// The currency named after the amount: "3.2 million Swiss francs".
    NameAfter,
    /// An amount with its conversion in brackets: "NOK 30 (US$2.80)".
    Converted,
}

impl CompoundForm {
    /// Every form, in report order.
    pub const ALL: [CompoundForm; 8] = [
        CompoundForm::Per,
        CompoundForm::PerArticle,
        CompoundForm::PerEach,
        CompoundForm::PerOfMaterial,
        CompoundForm::Slash,
        CompoundForm::CountryMark,
        CompoundForm::NameAfter,
        CompoundForm::Converted,
    ];

    /// The form's name in reports.
    pub const fn name(self) -> &'static str {
        match self {
            CompoundForm::Per => "per",
            CompoundForm::PerArticle => "a / an",
            CompoundForm::PerEach => "each",
            CompoundForm::PerOfMaterial => "of material per",
            CompoundForm::Slash => "slash",
            CompoundForm::CountryMark => "country mark",
            CompoundForm::NameAfter => "name after",
            CompoundForm::Converted => "converted",
        }
    }

    /// The class of the form: a compound unit or a currency amount.
    pub const fn class(self) -> &'static str {
        match self {
            CompoundForm::Per
            | CompoundForm::PerArticle
            | CompoundForm::PerEach
            | CompoundForm::PerOfMaterial
            | CompoundForm::Slash => "compound",
            CompoundForm::CountryMark | CompoundForm::NameAfter | CompoundForm::Converted => {
                "currency"
            }
        }
    }
}

/// Time units a rate is given per, as (singular name, article).
const PER_TIME: &[(&str, &str)] = &[
    ("second", "a"),
    ("minute", "a"),
    ("hour", "an"),
    ("day", "a"),
    ("week", "a"),
    ("month", "a"),
    ("year", "a"),
];

/// What a price is given per, besides time.
const PER_GOOD: &[(&str, &str)] = &[
    ("litre", "a"),
    ("kilogram", "a"),
    ("tonne", "a"),
    ("barrel", "a"),
    ("share", "a"),
    ("square metre", "a"),
    ("gallon", "a"),
    ("ounce", "an"),
    ("person", "a"),
];

/// What flows or is produced: "40 litres of water per minute".
const MATERIALS: &[&str] = &["water", "oil", "grain", "gas", "steel", "coal", "waste"];

/// The dimensions whose units are given per another unit in everyday text.
const RATE_DIMENSIONS: &[&str] = &["mass", "volume", "length", "energy", "information", "area"];

/// Dollar signs with a country mark, as the collection writes them ("NZ$") and as news text may
/// put the mark after the sign ("$NZ").
fn country_mark(symbol: &str) -> Option<&str> {
    let mark = symbol.strip_suffix('$')?;
    (!mark.is_empty() && mark.len() <= 3 && mark.chars().all(|c| c.is_ascii_uppercase()))
        .then_some(mark)
}

/// The amounts a conversion in brackets is given in, with the gold unit name.
const CONVERSIONS: &[(&str, &str)] = &[
    ("US$", "United States dollar"),
    ("$", "United States dollar"),
    ("€", "euro"),
    ("£", "pound sterling"),
];

/// One generated sentence with its gold and what it tests.
#[derive(Debug, Clone)]
pub struct CompoundSentence {
    /// The sentence with its gold quantity.
    pub gold: GoldSentence,
    /// The unit's name.
    pub unit: String,
    /// The form the quantity is written in.
    pub form: CompoundForm,
    /// The half the sentence belongs to.
    pub half: Half,
}

fn gold(value: f64, unit: String) -> GoldQuantity {
    GoldQuantity {
        value: format!("{value}"),
        normalized_unit: unit,
        change: None,
    }
}

/// The currency's code (an all-letter symbol such as "NOK") or else its first sign.
fn currency_surface(unit: &CollectionUnit) -> Option<&str> {
    unit.symbols
        .iter()
        .find(|s| s.len() == 3 && s.chars().all(|c| c.is_ascii_uppercase()))
        .or_else(|| unit.symbols.first())
        .map(String::as_str)
}

/// An amount of money written with `surface`: signs before the number, codes before it with a
/// space.
fn money(surface: &str, value: &WrittenValue) -> String {
    if surface.chars().all(char::is_alphabetic) {
        format!("{surface} {}", value.text)
    } else {
        format!("{surface}{}", value.text)
    }
}

/// A quantity as written in a generated sentence, with its form and gold.
struct Written {
    form: CompoundForm,
    text: String,
    gold: Vec<GoldQuantity>,
}

/// Every unit of the rate dimensions once per a random denominator, and every currency in each
/// of its money forms; `seed` fixes the draw.
pub fn generate(units: &[CollectionUnit], seed: u64) -> Vec<CompoundSentence> {
    let mut random = Random::new(seed);
    let mut sentences = Vec::new();
    for unit in units {
        let template = *random.pick(TEMPLATES);
        let value = written_value(&mut random);
        let written = if unit.currency {
            let Some(surface) = currency_surface(unit) else {
                continue;
            };
            money_forms(unit, surface, value, &mut random)
        } else if RATE_DIMENSIONS.contains(&unit.dimension) && !unit.name.base.contains(" per ") {
            vec![rate_form(unit, value, &mut random)]
        } else {
            Vec::new()
        };
        for w in written {
            sentences.push(CompoundSentence {
                gold: GoldSentence {
                    text: template.replace("{q}", &w.text),
                    quantities: w.gold,
                    class: Some(w.form.class().to_string()),
                    half: None,
                },
                unit: unit.name.full(),
                form: w.form,
                half: unit.half,
            });
        }
    }
    sentences
}

/// A currency's amounts: a price per a time or a good, the currency named after the amount,
/// a conversion in brackets, and a country mark after the dollar sign where it has one.
fn money_forms(
    unit: &CollectionUnit,
    surface: &str,
    value: WrittenValue,
    random: &mut Random,
) -> Vec<Written> {
    let name = unit.name.full();
    let denominators = if random.below(2) == 0 {
        PER_TIME
    } else {
        PER_GOOD
    };
    let &(per, article) = random.pick(denominators);
    let amount = money(surface, &value);
    let (form, text) = match random.below(3) {
        1 => (
            CompoundForm::PerArticle,
            format!("{amount} {article} {per}"),
        ),
        2 if !surface.chars().all(char::is_alphabetic) => {
            (CompoundForm::Slash, format!("{amount}/{per}"))
        }
        _ => (CompoundForm::Per, format!("{amount} per {per}")),
    };
    let mut written = vec![Written {
        form,
        text,
        gold: vec![gold(value.value, format!("{name} per {per}"))],
    }];

    let value = written_value(random);
    written.push(Written {
        form: CompoundForm::NameAfter,
        text: format!("{} {}", value.text, plural(&unit.name.base)),
        gold: vec![gold(value.value, name.clone())],
    });

    let value = written_value(random);
    let converted = written_value(random);
    let &(sign, converted_unit) = random.pick(CONVERSIONS);
    written.push(Written {
        form: CompoundForm::Converted,
        text: format!("{} ({sign}{})", money(surface, &value), converted.text),
        gold: vec![
            gold(value.value, name.clone()),
            gold(converted.value, converted_unit.to_string()),
        ],
    });

    for mark in unit.symbols.iter().filter_map(|s| country_mark(s)) {
        let value = written_value(random);
        written.push(Written {
            form: CompoundForm::CountryMark,
            text: format!("${mark} {}", value.text),
            gold: vec![gold(value.value, name.clone())],
        });
    }
    written
}

/// A unit per a time, written one of four ways.
fn rate_form(unit: &CollectionUnit, value: WrittenValue, random: &mut Random) -> Written {
    let &(per, article) = random.pick(PER_TIME);
    let units = plural(&unit.name.base);
    let v = &value.text;
    let (form, text) = match random.below(4) {
        0 => (CompoundForm::Per, format!("{v} {units} per {per}")),
        1 => (
            CompoundForm::PerArticle,
            format!("{v} {units} {article} {per}"),
        ),
        2 => (CompoundForm::PerEach, format!("{v} {units} each {per}")),
        _ => {
            let material = random.pick(MATERIALS);
            (
                CompoundForm::PerOfMaterial,
                format!("{v} {units} of {material} per {per}"),
            )
        }
    };
    Written {
        form,
        text,
        gold: vec![gold(value.value, format!("{} per {per}", unit.name.full()))],
    }
}

/// The scores of one half: all its sentences, then per class and per form.
#[derive(Debug, Clone, serde::Serialize)]
pub struct CompoundScores {
    /// The half's name.
    pub half: &'static str,
    /// Units of the half.
    pub units: usize,
    /// Figures on all its sentences.
    pub all: ExtractionReport,
    /// "compound" and "currency".
    pub per_class: Vec<GroupScores>,
    /// Figures per form.
    pub per_form: Vec<GroupScores>,
}

/// Runs the extractor over the generated sentences of `half` and scores them.
pub fn score_half(sentences: &[CompoundSentence], half: Half) -> CompoundScores {
    let own: Vec<&CompoundSentence> = sentences.iter().filter(|s| s.half == half).collect();
    let group = |name: &str, keep: &dyn Fn(&CompoundSentence) -> bool| GroupScores {
        group: name.to_string(),
        report: evaluate(
            &own.iter()
                .filter(|s| keep(s))
                .map(|s| s.gold.clone())
                .collect::<Vec<_>>(),
        ),
    };
    let per_class = ["compound", "currency"]
        .into_iter()
        .map(|class| group(class, &|s| s.form.class() == class))
        .collect();
    let per_form = CompoundForm::ALL
        .into_iter()
        .map(|form| group(form.name(), &|s| s.form == form))
        .filter(|g| g.report.sentences > 0)
        .collect();
    CompoundScores {
        half: half.name(),
        units: distinct_units(own.iter().map(|s| s.unit.as_str())),
        all: group("all", &|_| true).report,
        per_class,
        per_form,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantity::generated::half_of_unit;
    use tally_text::units::collection::EntityName;

    fn unit(name: &str, symbols: &[&str], dimension: &'static str) -> CollectionUnit {
        CollectionUnit {
            name: EntityName::parse(name),
            half: half_of_unit(name),
            dimension,
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
            currency: dimension == "currency",
        }
    }

    #[test]
    fn rates_and_money_forms_are_generated_with_their_gold() {
        let units = [
            unit("litre", &["l"], "volume"),
            unit("New_Zealand_dollar", &["NZ$", "NZD"], "currency"),
            unit("kilometre_per_hour", &["km/h"], "speed"),
        ];
        let sentences = generate(&units, 50);
        // One rate for the litre; for the dollar a price, a name after, a conversion and the
        // country mark; nothing for a unit that is already a rate.
        assert_eq!(sentences.len(), 1 + 4);
        let litre = &sentences[0];
        assert!(litre.gold.quantities[0]
            .normalized_unit
            .starts_with("litre per "));
        let mark = sentences
            .iter()
            .find(|s| s.form == CompoundForm::CountryMark)
            .expect("a country mark");
        assert!(mark.gold.text.contains("$NZ "), "{}", mark.gold.text);
        let converted = sentences
            .iter()
            .find(|s| s.form == CompoundForm::Converted)
            .expect("a conversion");
        assert_eq!(converted.gold.quantities.len(), 2);
        assert!(
            converted.gold.text.contains("NZD "),
            "{}",
            converted.gold.text
        );
        let texts = |s: &[CompoundSentence]| -> Vec<String> {
            s.iter().map(|g| g.gold.text.clone()).collect()
        };
        assert_eq!(texts(&sentences), texts(&generate(&units, 50)));
    }
}
