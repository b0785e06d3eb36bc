//! The units a value may be shown in, and the unit a person names: the page's unit switch
//! (metres ↔ feet), a corrected or verified value's unit read from what a person wrote.

use tally_types::value::UnitChoice;

use super::{Unit, UnitTable};

/// Units a person may want a value of each dimension in, beside the answer's own: the page's
/// unit switch offers them (metres ↔ feet). Ids of the unit table.
pub const UNITS_SHOWN: &[(&str, &[&str])] = &[
    ("length", &["metre", "kilometre", "foot", "mile"]),
    ("mass", &["kilogram", "tonne", "pound"]),
    (
        "speed",
        &["kilometre_per_hour", "mile_per_hour", "metre_per_second"],
    ),
    ("temperature", &["celsius", "fahrenheit"]),
    (
        "area",
        &[
            "square_metre",
            "square_kilometre",
            "hectare",
            "acre",
            "square_mile",
        ],
    ),
    ("volume", &["litre", "cubic_metre", "us_gallon"]),
    ("time", &["second", "minute", "hour", "day", "year"]),
    ("power", &["watt", "kilowatt", "horsepower"]),
];

/// How a value in the unit `id` is written (its name, symbol, whether it is a currency), for a
/// value that did not come from an answer: a verified or corrected one.
pub fn unit_choice(id: &str) -> Option<UnitChoice> {
    let table = UnitTable::builtin();
    unit_choices(table, table.get(id)?).into_iter().next()
}

/// The unit a person names ("£", "GBP", "metres", "min"), as a unit-table id: its id, else the
/// first unit of that symbol or name.
pub fn unit_named(text: &str) -> Option<String> {
    let table = UnitTable::builtin();
    let text = text.trim();
    if text.is_empty() {
        return None;
    }
    if let Some(unit) = table.get(text) {
        return Some(unit.id.clone());
    }
    table.lookup(text).first().map(|unit| unit.id.clone())
}

/// The answer's unit and the others of its dimension it may be shown in.
pub fn unit_choices(table: &UnitTable, unit: &Unit) -> Vec<UnitChoice> {
    let others = UNITS_SHOWN
        .iter()
        .find(|(dimension, _)| *dimension == unit.dimension)
        .map_or(&[][..], |(_, ids)| *ids);
    std::iter::once(unit)
        .chain(
            others
                .iter()
                .filter(|id| **id != unit.id)
                .filter_map(|id| table.get(id)),
        )
        // A currency is shown in itself only: exchange rates change.
        .filter(|to| {
            unit.dimension == to.dimension && (unit.currency.is_none() || to.id == unit.id)
        })
        .map(|to| UnitChoice {
            unit: to.name().to_string(),
            unit_id: to.id.clone(),
            symbol: to.symbol().map(str::to_string),
            currency: to.currency.is_some(),
            // value in `to` = (value × f + o − o′) / f′
            scale: unit.factor / to.factor,
            offset: (unit.offset - to.offset) / to.factor,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_choices_convert_as_the_table_does() {
        let table = UnitTable::builtin();
        let celsius = unit_choices(table, table.get("celsius").unwrap());
        let fahrenheit = celsius.iter().find(|u| u.unit_id == "fahrenheit").unwrap();
        assert!((fahrenheit.convert(100.0) - 212.0).abs() < 1e-9);
        assert!((fahrenheit.convert(-40.0) + 40.0).abs() < 1e-9);
        let km = unit_choices(table, table.get("kilometre").unwrap());
        let ids: Vec<&str> = km.iter().map(|u| u.unit_id.as_str()).collect();
        assert_eq!(ids, ["kilometre", "metre", "foot", "mile"]);
        let mile = &km[3];
        assert!((mile.convert(1.609344) - 1.0).abs() < 1e-9);
        // A person's unit, read as the table's; and written as the page writes it.
        assert_eq!(unit_named("£").as_deref(), Some("gbp"));
        assert_eq!(unit_named("metres").as_deref(), Some("metre"));
        assert_eq!(unit_named("no such unit"), None);
        let pound = unit_choice("gbp").unwrap();
        assert!(
            pound.currency && pound.symbol.as_deref() == Some("£"),
            "{pound:?}"
        );
        // Every unit named in UNITS_SHOWN is in the table, of its dimension.
        for (dimension, ids) in UNITS_SHOWN {
            for id in *ids {
                let unit = table
                    .get(id)
                    .unwrap_or_else(|| panic!("{id} is not a unit"));
                assert_eq!(unit.dimension, *dimension, "{id}");
            }
        }
    }
}
