//! Tally's own unit table (`text/data/units.json`, embedded at build time): canonical units with
//! their dimension, conversion to the dimension's base unit, and the surfaces (symbols, names)
//! text uses for them.
//!
//! Surface rules: symbols match exactly (case matters: `MB` megabyte, `Mb` megabit, `mW`
//! milliwatt, `MW` megawatt); names and the symbols listed as `symbols_ci` match in any case.
//! A surface may name several units (`C`: degree Celsius or coulomb; `pound`: mass or sterling);
//! [`UnitTable::lookup`] returns them all, most common first, and the extractor picks one from
//! context. Currencies never convert into each other.
//!
//! The Qsearch unit collection adds its units and surfaces under Tally's own ([`collection`]):
//! a collection unit that is one of Tally's (the same surface, or the same dimension and factor)
//! lends it the names and symbols Tally lacks; the others join as units of their own.

pub mod choices;
pub mod collection;

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use serde::Deserialize;

use collection::{DerivedUnit, DerivedUnits};

const BUILTIN: &str = include_str!("../../data/units.json");
/// The collection in Tally's terms ([`collection::derive`]).
const COLLECTION: &str = include_str!("../../data/collection_units.json");

/// Factors within this relative distance are one unit (the survey foot is the foot a reader
/// means; the collection rounds some factors).
const SAME_FACTOR: f64 = 1e-3;

/// Why a unit table could not be read, or a value not converted.
#[derive(Debug, thiserror::Error)]
pub enum UnitError {
    /// The table text is not valid JSON.
    #[error("unit table is not valid JSON")]
    Parse(#[from] serde_json::Error),
    /// A unit of an unknown dimension.
    #[error("unit table: unit {unit} has unknown dimension {dimension}")]
    UnknownDimension {
        /// The unit's id.
        unit: String,
        /// The dimension it names.
        dimension: String,
    },
    /// A unit whose factor is not a positive number, or whose offset is not finite.
    #[error("unit table: unit {unit} has a bad factor")]
    BadFactor {
        /// The unit's id.
        unit: String,
    },
    /// A unit with a prefix the table does not define.
    #[error("unit table: unit {unit} uses unknown prefix {prefix}")]
    UnknownPrefix {
        /// The unit's id.
        unit: String,
        /// The prefix it names.
        prefix: String,
    },
    /// Two units of one id.
    #[error("unit table: duplicate unit id {unit}")]
    DuplicateId {
        /// The id given twice.
        unit: String,
    },
    /// The units measure different dimensions, or are different currencies.
    #[error("cannot convert {from} ({from_dim}) to {to} ({to_dim})")]
    Incompatible {
        /// Id of the unit converted from.
        from: String,
        /// Dimension of the unit converted from.
        from_dim: String,
        /// Id of the unit converted to.
        to: String,
        /// Dimension of the unit converted to.
        to_dim: String,
    },
}

/// One unit, prefixed units included (`kilometre` is a unit of its own).
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    /// The unit's id ("metre", "kilometre").
    pub id: String,
    /// What the unit measures ("length", "currency").
    pub dimension: String,
    /// base = value × factor + offset.
    pub factor: f64,
    /// base = value × factor + offset; 0 except for temperatures.
    pub offset: f64,
    /// Currencies only: the ISO 4217 code, or for a currency without one the collection's
    /// Wikidata id (no two currencies convert).
    pub currency: Option<String>,
    /// Symbols, matched as written ("km").
    pub symbols: Vec<String>,
    /// Names, matched in any case; the first is the canonical name ("kilometre").
    pub names: Vec<String>,
}

impl Unit {
    /// The unit's canonical name ("kilometre", "dollar", "degree celsius").
    pub fn name(&self) -> &str {
        self.names.first().map(String::as_str).unwrap_or(&self.id)
    }

    /// How the unit is written after a number: its first symbol, where people use one (not for
    /// times, whose symbols "d" and "yr" read as abbreviations).
    pub fn symbol(&self) -> Option<&str> {
        if self.dimension == "time" {
            return None;
        }
        self.symbols.first().map(String::as_str)
    }

    /// The value in the dimension's base unit.
    pub fn to_base(&self, value: f64) -> f64 {
        value * self.factor + self.offset
    }

    /// A value given in the dimension's base unit, expressed in this unit.
    pub fn from_base(&self, base: f64) -> f64 {
        (base - self.offset) / self.factor
    }
}

/// The table with its surface index.
#[derive(Debug)]
pub struct UnitTable {
    units: Vec<Unit>,
    by_id: HashMap<String, usize>,
    exact: HashMap<String, Vec<usize>>,
    folded: HashMap<String, Vec<usize>>,
    /// Currency signs read only right before an amount ([`Self::lookup_sign_before`]).
    signs_before: HashMap<String, Vec<usize>>,
    dimensions: Vec<String>,
}

#[derive(Deserialize)]
struct RawTable {
    dimensions: HashMap<String, String>,
    prefixes: HashMap<String, (String, f64)>,
    units: Vec<RawUnit>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawUnit {
    id: String,
    dim: String,
    factor: f64,
    #[serde(default)]
    offset: f64,
    #[serde(default)]
    currency: Option<String>,
    #[serde(default)]
    symbols: Vec<String>,
    #[serde(default)]
    symbols_ci: Vec<String>,
    #[serde(default)]
    names: Vec<String>,
    #[serde(default)]
    prefixes: Vec<String>,
    #[serde(default)]
    prefixed_ci: bool,
    /// Short names of a prefixed unit, by prefix: "kilo" (and "kilos") for the kilogram.
    #[serde(default)]
    prefixed_names: HashMap<String, Vec<String>>,
    #[serde(default)]
    no_plural: bool,
}

impl UnitTable {
    /// The table shipped with Tally: its own units, then the collection's.
    pub fn builtin() -> &'static UnitTable {
        static TABLE: OnceLock<UnitTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            // The embedded tables are checked by the tests; failing here is a build defect.
            let mut table =
                UnitTable::from_json(BUILTIN).expect("the embedded unit table is valid");
            let derived: DerivedUnits =
                serde_json::from_str(COLLECTION).expect("the embedded collection units are valid");
            table.import(&derived.units);
            table
        })
    }

    /// Tally's own table alone, without the collection's units (to compare against).
    pub fn own() -> &'static UnitTable {
        static TABLE: OnceLock<UnitTable> = OnceLock::new();
        TABLE.get_or_init(|| {
            UnitTable::from_json(BUILTIN).expect("the embedded unit table is valid")
        })
    }

    /// Merges units of the collection under the table's own: a surface the table already has
    /// keeps its reading, and so does the same surface recased as writers recase any symbol
    /// (all capitals, all lower case, or a capital first: "KM", "Mg", "EV" stay kilometres,
    /// milligrams and electronvolts, not the convertible mark, the megagram and the exavolt),
    /// while a symbol with a capital inside keeps its SI meaning ("pA", "mJ"). A unit the
    /// table already has (see [`Self::same_unit`]) gains the other surfaces; any other unit
    /// joins (the collection's temperatures are all multiples of the kelvin, which start at
    /// absolute zero as Tally's temperature base does).
    pub fn import(&mut self, derived: &[DerivedUnit]) {
        let own_symbols: HashSet<String> = self.exact.keys().cloned().collect();
        let own_names: HashSet<String> = self.folded.keys().cloned().collect();
        let own_any_case: HashSet<String> = own_symbols
            .iter()
            .map(|s| s.to_lowercase())
            .chain(own_names.iter().cloned())
            .collect();
        let own_units = self.units.len();
        // A currency sign matches a currency of Tally's only where it names one on both sides.
        let mut sign_uses: HashMap<&str, usize> = HashMap::new();
        for unit in derived.iter().filter(|u| u.dim == "currency") {
            for symbol in &unit.symbols {
                *sign_uses.entry(symbol).or_default() += 1;
            }
        }
        for unit in derived {
            let (symbols, recased_away): (Vec<String>, Vec<String>) = unit
                .symbols
                .iter()
                .filter(|s| !own_symbols.contains(*s))
                .cloned()
                .partition(|s| !(recased(s) && own_any_case.contains(&s.to_lowercase())));
            // Before an amount a currency's sign is the currency, even where the same letters
            // after a number are a word or another unit recased ("KM 82", "CF 7.9").
            let signs: Vec<String> = if unit.dim == "currency" {
                unit.signs_before
                    .iter()
                    .filter(|s| !own_symbols.contains(*s))
                    .cloned()
                    .chain(recased_away)
                    .collect()
            } else {
                Vec::new()
            };
            let names: Vec<String> = with_plurals(&unit.names, false)
                .into_iter()
                .filter(|n| !own_names.contains(&n.to_lowercase()))
                .collect();
            let index = match self.same_unit(unit, own_units, &sign_uses) {
                Some(index) => {
                    self.lend(index, symbols, names);
                    index
                }
                // A unit with no surface left cannot be read and is not added.
                None if names.is_empty() && symbols.is_empty() && signs.is_empty() => continue,
                None => {
                    let mut id = unit.id.clone();
                    while self.by_id.contains_key(&id) {
                        id.push('_');
                    }
                    let index = self.units.len();
                    let added = self.add(
                        Unit {
                            id,
                            dimension: unit.dim.clone(),
                            factor: unit.factor,
                            offset: 0.0,
                            currency: unit.currency.clone(),
                            symbols,
                            names,
                        },
                        &[],
                    );
                    debug_assert!(added.is_ok(), "ids are made unique above");
                    index
                }
            };
            for sign in signs {
                push_unique(self.signs_before.entry(sign).or_default(), index);
            }
        }
    }

    /// Adds symbols and names to the unit at `index`, indexed as its own are.
    fn lend(&mut self, index: usize, symbols: Vec<String>, names: Vec<String>) {
        for symbol in symbols {
            push_unique(self.exact.entry(symbol.clone()).or_default(), index);
            push_unique(&mut self.units[index].symbols, symbol);
        }
        for name in names {
            push_unique(self.folded.entry(name.to_lowercase()).or_default(), index);
            push_unique(&mut self.units[index].names, name);
        }
    }

    /// The unit among the first `own_units` (Tally's own) that `unit` is: one its names or
    /// symbols already name in the same dimension (with a factor to match, but for
    /// temperatures), else for measures one with the same factor; a currency only by its name
    /// or a sign no other currency of either table uses.
    fn same_unit(
        &self,
        unit: &DerivedUnit,
        own_units: usize,
        sign_uses: &HashMap<&str, usize>,
    ) -> Option<usize> {
        let fits = |index: usize| {
            let own = &self.units[index];
            index < own_units
                && own.dimension == unit.dim
                && (unit.dim == "temperature"
                    || unit.dim == "currency"
                    || ((own.factor - unit.factor) / unit.factor).abs() <= SAME_FACTOR)
        };
        let by_name = unit.names.iter().find_map(|name| {
            let found = self.folded.get(&name.to_lowercase())?;
            found.iter().copied().find(|&i| fits(i))
        });
        if by_name.is_some() {
            return by_name;
        }
        let by_symbol = unit.symbols.iter().find_map(|symbol| {
            let found: Vec<usize> = self
                .exact
                .get(symbol)?
                .iter()
                .copied()
                .filter(|&i| fits(i))
                .collect();
            if unit.dim == "currency" {
                let unique = found.len() == 1 && sign_uses.get(symbol.as_str()) == Some(&1);
                return unique.then(|| found[0]);
            }
            found.first().copied()
        });
        if by_symbol.is_some() || matches!(unit.dim.as_str(), "currency" | "temperature") {
            return by_symbol;
        }
        (0..own_units).find(|&i| fits(i))
    }

    /// Reads a table in the format of `text/data/units.json`.
    pub fn from_json(text: &str) -> Result<Self, UnitError> {
        let raw: RawTable = serde_json::from_str(text)?;
        let mut table = UnitTable {
            units: Vec::new(),
            by_id: HashMap::new(),
            exact: HashMap::new(),
            folded: HashMap::new(),
            signs_before: HashMap::new(),
            dimensions: raw.dimensions.keys().cloned().collect(),
        };
        table.dimensions.sort();
        for unit in &raw.units {
            if !raw.dimensions.contains_key(&unit.dim) {
                return Err(UnitError::UnknownDimension {
                    unit: unit.id.clone(),
                    dimension: unit.dim.clone(),
                });
            }
            if !(unit.factor.is_finite() && unit.factor > 0.0 && unit.offset.is_finite()) {
                return Err(UnitError::BadFactor {
                    unit: unit.id.clone(),
                });
            }
            table.add(
                Unit {
                    id: unit.id.clone(),
                    dimension: unit.dim.clone(),
                    factor: unit.factor,
                    offset: unit.offset,
                    currency: unit.currency.clone(),
                    symbols: unit.symbols.clone(),
                    names: with_plurals(&unit.names, unit.no_plural),
                },
                &unit.symbols_ci,
            )?;
            for prefix in &unit.prefixes {
                let (prefix_name, scale) =
                    raw.prefixes
                        .get(prefix)
                        .ok_or_else(|| UnitError::UnknownPrefix {
                            unit: unit.id.clone(),
                            prefix: prefix.to_string(),
                        })?;
                let names: Vec<String> = unit
                    .names
                    .iter()
                    .map(|n| format!("{prefix_name}{n}"))
                    .chain(
                        unit.prefixed_names
                            .get(prefix)
                            .into_iter()
                            .flatten()
                            .cloned(),
                    )
                    .collect();
                let mut symbols: Vec<String> = unit
                    .symbols
                    .iter()
                    .map(|s| format!("{prefix}{s}"))
                    .collect();
                // "µ" (micro sign) and "μ" (Greek mu) both occur in text.
                if prefix == "μ" {
                    symbols.extend(unit.symbols.iter().map(|s| format!("µ{s}")));
                    // The ASCII stand-in "u" only where it does not spell a word ("us", "um").
                    symbols.extend(
                        unit.symbols
                            .iter()
                            .map(|s| format!("u{s}"))
                            .filter(|s| !matches!(s.as_str(), "us" | "um")),
                    );
                }
                let id = format!("{prefix_name}{}", unit.id);
                if table.by_id.contains_key(&id) {
                    continue;
                }
                let ci: Vec<String> = if unit.prefixed_ci {
                    symbols.clone()
                } else {
                    Vec::new()
                };
                table.add(
                    Unit {
                        id,
                        dimension: unit.dim.clone(),
                        factor: unit.factor * scale,
                        offset: 0.0,
                        currency: None,
                        symbols,
                        names: with_plurals(&names, unit.no_plural),
                    },
                    &ci,
                )?;
            }
        }
        Ok(table)
    }

    fn add(&mut self, unit: Unit, case_insensitive: &[String]) -> Result<(), UnitError> {
        if self.by_id.contains_key(&unit.id) {
            return Err(UnitError::DuplicateId {
                unit: unit.id.clone(),
            });
        }
        let index = self.units.len();
        for symbol in &unit.symbols {
            push_unique(self.exact.entry(symbol.clone()).or_default(), index);
        }
        for surface in unit.names.iter().chain(case_insensitive) {
            push_unique(
                self.folded.entry(surface.to_lowercase()).or_default(),
                index,
            );
        }
        self.by_id.insert(unit.id.clone(), index);
        self.units.push(unit);
        Ok(())
    }

    /// The number of units.
    pub fn len(&self) -> usize {
        self.units.len()
    }

    /// Whether the table has no units.
    pub fn is_empty(&self) -> bool {
        self.units.is_empty()
    }

    /// Every unit, in table order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// The dimension names, sorted.
    pub fn dimensions(&self) -> &[String] {
        &self.dimensions
    }

    /// The unit with the id `id`.
    pub fn get(&self, id: &str) -> Option<&Unit> {
        self.by_id.get(id).map(|&i| &self.units[i])
    }

    /// Every unit `surface` can name, most common first. A symbol written exactly as listed wins
    /// (`Mb` is a megabit); otherwise names and case-insensitive symbols are tried (`mb`).
    pub fn lookup(&self, surface: &str) -> Vec<&Unit> {
        let surface = surface.trim();
        let found = match self.exact.get(surface) {
            Some(exact) => exact,
            None => match self.folded.get(&surface.to_lowercase()) {
                Some(folded) => folded,
                None => return Vec::new(),
            },
        };
        found.iter().map(|&i| &self.units[i]).collect()
    }

    /// Currencies whose sign `surface` is read only right before an amount ("KM", "CF": after
    /// a number the same letters are mostly a word or another unit recased).
    pub fn lookup_sign_before(&self, surface: &str) -> Vec<&Unit> {
        self.signs_before
            .get(surface)
            .map(|found| found.iter().map(|&i| &self.units[i]).collect())
            .unwrap_or_default()
    }

    /// Units whose symbols are written exactly `surface` (case-sensitive; names do not count).
    pub fn lookup_symbol(&self, surface: &str) -> Vec<&Unit> {
        self.exact
            .get(surface)
            .map(|found| found.iter().map(|&i| &self.units[i]).collect())
            .unwrap_or_default()
    }

    /// Converts `value` between units given by their ids; `None` when either is unknown or
    /// they do not convert.
    pub fn convert_ids(&self, value: f64, from: &str, to: &str) -> Option<f64> {
        self.convert(value, self.get(from)?, self.get(to)?).ok()
    }

    /// Converts `value` from one unit to another of the same dimension. Currencies convert only
    /// to themselves.
    pub fn convert(&self, value: f64, from: &Unit, to: &Unit) -> Result<f64, UnitError> {
        let compatible = from.dimension == to.dimension && from.currency == to.currency;
        if !compatible {
            return Err(UnitError::Incompatible {
                from: from.id.clone(),
                from_dim: from.dimension.clone(),
                to: to.id.clone(),
                to_dim: to.dimension.clone(),
            });
        }
        Ok(to.from_base(from.to_base(value)))
    }
}

/// Whether a symbol's letters are cased the way writers recase any symbol: all capitals, all
/// lower case, or only the first a capital.
fn recased(symbol: &str) -> bool {
    let letters: Vec<char> = symbol.chars().filter(|c| c.is_alphabetic()).collect();
    let rest_lower = letters.iter().skip(1).all(|c| !c.is_uppercase());
    letters.iter().all(|c| c.is_uppercase()) || rest_lower
}

fn push_unique<T: PartialEq>(list: &mut Vec<T>, item: T) {
    if !list.contains(&item) {
        list.push(item);
    }
}

/// Names with their plurals added ("mile" → "miles", "inch" → "inches", "kilometre per hour"
/// → "kilometres per hour").
fn with_plurals(names: &[String], no_plural: bool) -> Vec<String> {
    let mut out = names.to_vec();
    if no_plural {
        return out;
    }
    for name in names {
        let plural = collection::plural(name);
        if !out.contains(&plural) {
            out.push(plural);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(surface: &str) -> Vec<String> {
        UnitTable::builtin()
            .lookup(surface)
            .into_iter()
            .map(|u| u.id.clone())
            .collect()
    }

    fn convert(value: f64, from: &str, to: &str) -> Result<f64, UnitError> {
        let table = UnitTable::builtin();
        table.convert(value, table.get(from).unwrap(), table.get(to).unwrap())
    }

    #[test]
    fn table_has_at_least_400_units_in_many_dimensions() {
        let table = UnitTable::builtin();
        assert!(table.len() >= 400, "{} units", table.len());
        for dim in [
            "length",
            "mass",
            "time",
            "speed",
            "power",
            "energy",
            "data",
            "area",
            "volume",
            "temperature",
            "currency",
            "count",
            "ratio",
        ] {
            assert!(table.units().iter().any(|u| u.dimension == dim), "{dim}");
        }
    }

    #[test]
    fn symbols_are_case_sensitive_names_are_not() {
        assert_eq!(ids("MB"), ["megabyte"]);
        assert_eq!(ids("Mb"), ["megabit"]);
        assert_eq!(ids("gb"), ["gigabyte"]);
        assert_eq!(ids("GHZ"), ["gigahertz"]);
        assert_eq!(ids("kb"), ["kilobyte_legacy", "kilobit"]);
        assert_eq!(ids("GMS"), ["gram"]);
        assert_eq!(ids("KGS"), ["kgs"], "the Kyrgyzstani som, not kilograms");
        assert_eq!(ids("mW"), ["milliwatt"]);
        assert_eq!(ids("MW"), ["megawatt"]);
        assert_eq!(ids("km"), ["kilometre"]);
        assert_eq!(ids("Kilometers"), ["kilometre"]);
        assert_eq!(ids("FEET"), ["foot"]);
        assert_eq!(ids("inches"), ["inch"]);
        assert_eq!(ids("KPH"), ["kilometre_per_hour"]);
        assert_eq!(ids("µs"), ["microsecond"]);
        assert_eq!(ids("μs"), ["microsecond"]);
    }

    #[test]
    fn the_collections_units_join_under_tallys_own() {
        // Joined as units of their own, by name and symbol, with plurals.
        assert_eq!(ids("picoampere"), ["picoampere"]);
        assert_eq!(ids("pA"), ["picoampere"]);
        assert_eq!(ids("cubic light years"), ["cubic_light_year"]);
        assert_eq!(ids("UK fluid ounces"), ["fluid_ounce_uk"]);
        // Lent to Tally's units: the same unit by a shared surface or factor.
        assert_eq!(ids("US fluid ounce"), ["us_fluid_ounce"]);
        assert_eq!(ids("United States dollar"), ["usd"]);
        assert_eq!(
            ids("aC"),
            ["attocoulomb", "abcoulomb"],
            "both of the collection's readings"
        );
        // Tally's readings stay, in any case writers use.
        assert!(ids("KM").is_empty(), "the extractor reads it as km");
        assert_eq!(ids("Mg"), ids("mg"));
        assert_eq!(ids("C"), ["celsius", "coulomb"]);
        // Left out: punctuation and words.
        assert!(ids("\"").is_empty());
        assert!(ids("#").is_empty());
        assert!(ids("score").is_empty());
        // A currency the table lacks converts to no other.
        let livre = UnitTable::builtin().lookup("livre tournois");
        assert_eq!(livre.len(), 1);
        let usd = UnitTable::builtin().get("usd").unwrap();
        assert!(UnitTable::builtin().convert(1.0, livre[0], usd).is_err());
    }

    #[test]
    fn ambiguous_surfaces_list_every_reading() {
        assert_eq!(ids("C"), ["celsius", "coulomb"]);
        assert_eq!(ids("pound"), ["pound", "gbp"]);
        assert_eq!(ids("$"), ["usd"]);
        assert!(ids("m").contains(&"metre".to_string()));
    }

    #[test]
    fn conversions_use_factors_and_offsets() {
        assert!(
            (convert(100.0, "kilometre_per_hour", "mile_per_hour").unwrap() - 62.137119).abs()
                < 1e-5
        );
        assert!((convert(212.0, "fahrenheit", "celsius").unwrap() - 100.0).abs() < 1e-9);
        assert!((convert(0.0, "celsius", "kelvin").unwrap() - 273.15).abs() < 1e-9);
        assert!((convert(-40.0, "celsius", "fahrenheit").unwrap() + 40.0).abs() < 1e-9);
        assert_eq!(convert(1.0, "gibibyte", "byte").unwrap(), 1_073_741_824.0);
        assert!((convert(1.0, "mile", "kilometre").unwrap() - 1.609344).abs() < 1e-12);
        assert_eq!(convert(1.0, "kilowatt_hour", "joule").unwrap(), 3_600_000.0);
    }

    #[test]
    fn currencies_and_dimensions_do_not_mix() {
        assert!(matches!(
            convert(10.0, "usd", "eur"),
            Err(UnitError::Incompatible { .. })
        ));
        assert!(matches!(
            convert(10.0, "metre", "second"),
            Err(UnitError::Incompatible { .. })
        ));
        assert_eq!(convert(10.0, "usd", "usd").unwrap(), 10.0);
    }

    #[test]
    fn bad_tables_are_rejected_with_reasons() {
        let unknown_dim = r#"{"dimensions": {}, "prefixes": {}, "units": [{"id": "x", "dim": "nope", "factor": 1}]}"#;
        assert!(matches!(
            UnitTable::from_json(unknown_dim),
            Err(UnitError::UnknownDimension { .. })
        ));
        let zero = r#"{"dimensions": {"l": "m"}, "prefixes": {}, "units": [{"id": "x", "dim": "l", "factor": 0}]}"#;
        assert!(matches!(
            UnitTable::from_json(zero),
            Err(UnitError::BadFactor { .. })
        ));
        let dup = r#"{"dimensions": {"l": "m"}, "prefixes": {}, "units": [{"id": "x", "dim": "l", "factor": 1}, {"id": "x", "dim": "l", "factor": 2}]}"#;
        assert!(matches!(
            UnitTable::from_json(dup),
            Err(UnitError::DuplicateId { .. })
        ));
        assert!(matches!(
            UnitTable::from_json("{"),
            Err(UnitError::Parse(_))
        ));
    }
}
