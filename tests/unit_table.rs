//! Cross-checks Tally's own unit table against the Qsearch unit collection
//! (`../shared/data/quantities/kg-unit-collection.json`, Apache-2.0): every Tally unit that also
//! appears there (same symbol, written exactly, and the collection converts it to the SI unit that
//! is the base of the Tally unit's dimension) must have the same conversion factor to 1e-6
//! relative. Prints how much of the collection the table covers.

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;

use tally_text::units::collection::{self, WordUse, SI_BASES};
use tally_text::UnitTable;

/// Symbols where Tally deliberately differs from the collection, and why.
const DELIBERATE: &[(&str, &str)] = &[
    (
        "hp",
        "the collection's `hp` is metric horsepower (735.5 W); Tally reads `hp` as mechanical \
         horsepower (745.7 W), as US and UK car specifications use it, and `PS`/`CV` as metric",
    ),
    (
        "ly",
        "the collection rounds to 9.4608e15 m; Tally uses the IAU value 9460730472580800 m",
    ),
    (
        "keV",
        "the collection rounds to 1.6022e-16 J; Tally uses the exact 1.602176634e-16 J",
    ),
    (
        "ch",
        "the collection's chain is the US survey chain; Tally's is the international 20.1168 m",
    ),
    (
        "rd",
        "the collection's rod is the US survey rod; Tally's is the international 5.0292 m",
    ),
    (
        "fc",
        "the collection rounds to 10.764 lx; Tally uses 1 lm/ft² = 10.7639104 lx",
    ),
    (
        "TR",
        "the collection rounds to 3517 W; Tally uses 12000 BTU/h = 3516.853 W",
    ),
    (
        "RT",
        "the collection rounds to 3517 W; Tally uses 12000 BTU/h = 3516.853 W",
    ),
];

/// The collection's SI units by name, each with its Tally dimension and factor.
fn si_bases() -> HashMap<&'static str, (&'static str, f64)> {
    SI_BASES
        .iter()
        .map(|&(si, dim, f)| (si, (dim, f)))
        .collect()
}

fn data_dir() -> PathBuf {
    std::env::var_os("TALLY_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"))
}

/// The Qsearch unit collection's entries.
fn collection() -> Vec<serde_json::Value> {
    let path = data_dir().join("quantities/kg-unit-collection.json");
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// The collection's units whose SI unit is the base of a Tally dimension: each with that
/// dimension and its factor to the base.
fn in_tally_dimensions<'c>(
    collection: &'c [serde_json::Value],
    bases: &'c HashMap<&'static str, (&'static str, f64)>,
) -> impl Iterator<Item = (&'c serde_json::Value, &'c str, f64)> {
    collection.iter().filter_map(|entry| {
        let si = entry["siUnit"].as_str()?;
        let factor = entry["conversionToSI"].as_f64()?;
        let &(dimension, base) = bases.get(si)?;
        Some((entry, dimension, factor * base))
    })
}

#[test]
fn conversion_factors_agree_with_the_qsearch_unit_collection() {
    let collection = collection();
    let bases = si_bases();
    let deliberate: HashSet<&str> = DELIBERATE.iter().map(|(s, _)| *s).collect();
    // Tally's own units: the collection's joined ones carry the collection's factors, and its
    // surfaces lent to Tally's units match within 0.1% (`units::SAME_FACTOR`).
    let table = UnitTable::own();

    // symbol -> [(dimension, factor, entity)] from the collection.
    let mut by_symbol: HashMap<&str, Vec<(&str, f64, &str)>> = HashMap::new();
    for (entry, dimension, factor) in in_tally_dimensions(&collection, &bases) {
        for symbol in entry["symbols"].as_array().into_iter().flatten() {
            if let Some(symbol) = symbol.as_str() {
                by_symbol.entry(symbol).or_default().push((
                    dimension,
                    factor,
                    entry["entity"].as_str().unwrap_or("?"),
                ));
            }
        }
    }

    let mut checked = 0;
    let mut disagreements = Vec::new();
    let mut covered_entities: HashSet<&str> = HashSet::new();
    let mut deliberate_seen: HashSet<&str> = HashSet::new();
    for unit in table.units() {
        if unit.offset != 0.0 {
            continue; // the collection lists temperature scales as differences, not points
        }
        for symbol in &unit.symbols {
            let Some(entries) = by_symbol.get(symbol.as_str()) else {
                continue;
            };
            let same_dimension: Vec<_> = entries
                .iter()
                .filter(|(d, _, _)| *d == unit.dimension)
                .collect();
            if same_dimension.is_empty() {
                continue;
            }
            checked += 1;
            let agreeing: Vec<_> = same_dimension
                .iter()
                .filter(|(_, f, _)| ((unit.factor - f) / f).abs() <= 1e-6)
                .collect();
            covered_entities.extend(agreeing.iter().map(|(_, _, e)| *e));
            if agreeing.is_empty() && deliberate.contains(symbol.as_str()) {
                deliberate_seen.insert(symbol.as_str());
            } else if agreeing.is_empty() {
                disagreements.push(format!(
                    "{} `{symbol}`: Tally {} vs collection {:?}",
                    unit.id, unit.factor, same_dimension
                ));
            }
        }
    }

    let convertible = collection
        .iter()
        .filter(|e| e["siUnit"].as_str().is_some_and(|s| bases.contains_key(s)))
        .count();
    let currencies = collection
        .iter()
        .filter(|e| e["isCurrency"] == true)
        .count();
    let table_currencies: HashSet<&str> = table
        .units()
        .iter()
        .filter_map(|u| u.currency.as_deref())
        .collect();
    println!(
        "unit table: {} units; checked {checked} shared symbols against the collection",
        table.len()
    );
    println!(
        "coverage: {} of {} collection units in Tally's dimensions ({:.1}%) matched with equal \
         factors; collection has {} units in all, {currencies} currencies (Tally: {})",
        covered_entities.len(),
        convertible,
        100.0 * covered_entities.len() as f64 / convertible as f64,
        collection.len(),
        table_currencies.len()
    );
    for (symbol, why) in DELIBERATE {
        println!("deliberate difference `{symbol}`: {why}");
    }
    assert!(checked >= 50, "only {checked} symbols were comparable");
    assert!(
        disagreements.is_empty(),
        "factors disagree:\n{}",
        disagreements.join("\n")
    );
    // The list of deliberate differences must not outlive them.
    assert_eq!(
        deliberate_seen, deliberate,
        "deliberate differences that no longer differ"
    );
}

/// The collection's name of a unit: `<Pascal_(unit)>` → "Pascal", `<parts_per_trillion_wd:Q…>`
/// → "parts per trillion".
fn collection_name(entity: &str) -> String {
    let name = entity.trim_matches(['<', '>']);
    let name = name.split("_wd:").next().unwrap_or(name);
    let name = match name.find("_(") {
        Some(at) => &name[..at],
        None => name,
    };
    name.replace('_', " ")
}

/// How often `form` follows a number in `text` ("12 km", "3.5kWh"), as a whole word.
fn uses_after_a_number(text: &str, form: &str, case_sensitive: bool) -> usize {
    let (haystack, needle) = if case_sensitive {
        (std::borrow::Cow::Borrowed(text), form.to_string())
    } else {
        (
            std::borrow::Cow::Owned(text.to_lowercase()),
            form.to_lowercase(),
        )
    };
    haystack
        .match_indices(&needle)
        .filter(|(at, _)| {
            let before = haystack[..*at].trim_end_matches(' ');
            let spaces = haystack[..*at].len() - before.len();
            let after = haystack[at + needle.len()..].chars().next();
            spaces <= 1
                && before.ends_with(|c: char| c.is_ascii_digit())
                && !after.is_some_and(char::is_alphanumeric)
        })
        .count()
}

/// Names and symbols of the collection that mean something else after a number in running text
/// ("at" the technical atmosphere, "as" the attosecond, "pm"/"am" clock times, "rd" in "3rd",
/// "ca" circa, "bd" bedrooms, "Rd" road, "Square" and "league" words, "1" the dimensionless
/// unit, "men"/"Log"/"Li"/"Rutherford" old measures that are words or names): not uses of the
/// unit.
const FALSE_FRIENDS: &[&str] = &[
    "at",
    "as",
    "pm",
    "am",
    "men",
    "As",
    "Log",
    "Last",
    "Bolt",
    "TV",
    "ET",
    "Ms",
    "Wa",
    "rd",
    "ca",
    "cA",
    "bd",
    "Rd",
    "da",
    "Li",
    "Square",
    "league",
    "1",
    "score",
    "stadium",
    "Rutherford",
];

/// Coverage by names and symbols, and a check that every unit of the collection that the shared
/// corpora use after numbers is in the table.
#[test]
fn units_the_shared_corpora_use_are_in_the_table() {
    let collection = collection();
    let bases = si_bases();
    let table = UnitTable::builtin();

    let mut corpora = String::new();
    for file in [
        "quantities/newsquant_dev.json",
        "qsearch/qsearch_text_dev.jsonl",
        "coqex/natural_questions_dev/natural_questions_dev_bing_v1.json",
        "coqex/count_lcquad_v2/count_lcquadv2_bing_v1.json",
        "coqex/stresstest_v1/stresstest_bing_v1.json",
    ] {
        let path = data_dir().join(file);
        corpora.push_str(
            &std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display())),
        );
    }

    let (mut convertible, mut covered) = (0, 0);
    let mut missing_in_use: Vec<(usize, String)> = Vec::new();
    for (entry, dimension, factor) in in_tally_dimensions(&collection, &bases) {
        convertible += 1;
        let name = collection_name(entry["entity"].as_str().unwrap_or(""));
        let symbols: Vec<&str> = entry["symbols"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|s| s.as_str())
            .collect();
        let is_covered = std::iter::once(name.as_str())
            .chain(symbols.iter().copied())
            .any(|form| {
                table.lookup(form).iter().any(|u| {
                    // Loose on purpose: the survey foot and the 365-day year are the foot and
                    // the year a reader means; exact factors are checked by the test above.
                    u.dimension == dimension
                        && (u.offset != 0.0 || ((u.factor - factor) / factor).abs() <= 1e-3)
                })
            });
        if is_covered {
            covered += 1;
            continue;
        }
        let uses: usize = symbols
            .iter()
            .filter(|s| s.chars().count() >= 2 && !FALSE_FRIENDS.contains(s))
            .map(|s| uses_after_a_number(&corpora, s, true))
            .sum::<usize>()
            + if FALSE_FRIENDS.contains(&name.as_str()) {
                0
            } else {
                uses_after_a_number(&corpora, &name, false)
            };
        if uses > 0 {
            missing_in_use.push((uses, format!("{name} {symbols:?}")));
        }
    }
    missing_in_use.sort_by(|a, b| b.cmp(a));
    println!(
        "coverage by name or symbol: {covered} of {convertible} collection units in Tally's \
         dimensions ({:.1}%)",
        100.0 * covered as f64 / convertible as f64
    );
    for (uses, unit) in &missing_in_use {
        println!("not in the table, used {uses}× after a number in the shared corpora: {unit}");
    }
    let common: Vec<_> = missing_in_use.iter().filter(|(n, _)| *n >= 3).collect();
    assert!(
        common.is_empty(),
        "units in common use missing from the table: {common:?}"
    );
}

/// The shared corpora whose running text tells words from units ([`WordUse`]): the CoQEx
/// snippets and the Qsearch sentences (not the extraction gold, whose held-out half is only
/// scored).
const RUNNING_TEXT: &[&str] = &[
    "qsearch/qsearch_text_dev.jsonl",
    "coqex/natural_questions_dev/natural_questions_dev_bing_v1.json",
    "coqex/count_lcquad_v2/count_lcquadv2_bing_v1.json",
    "coqex/stresstest_v1/stresstest_bing_v1.json",
];

/// `text/data/collection_units.json` is what [`collection::derive`] makes of the collection;
/// `TALLY_UPDATE_UNITS=1` rewrites it.
#[test]
fn the_collections_units_are_derived_from_the_collection() {
    let read = |file: &str| {
        let path = data_dir().join(file);
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
    };
    let entries = collection::read_entries(&read("quantities/kg-unit-collection.json")).unwrap();
    let texts: Vec<String> = RUNNING_TEXT.iter().map(|f| read(f)).collect();
    let words = WordUse::count(texts.iter().map(String::as_str));
    let derived = collection::derive(&entries, &words);
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/collection_units.json");
    let written = serde_json::to_string_pretty(&derived).unwrap() + "\n";
    if std::env::var_os("TALLY_UPDATE_UNITS").is_some() {
        std::fs::write(&path, &written).unwrap();
    }
    // Compared as text: the file is exactly what is written here.
    let committed = std::fs::read_to_string(&path).unwrap();
    assert!(
        committed == written,
        "{} is not what the collection gives: rerun with TALLY_UPDATE_UNITS=1",
        path.display()
    );
    println!(
        "{} collection units in Tally's dimensions; {} surfaces left out",
        derived.units.len(),
        derived.left_out.len()
    );
}
