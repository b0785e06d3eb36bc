//! A document's tables as typed records: each table's header and rows, each cell read once into
//! a number in its dimension's base unit (metres, kilograms; money in its currency), a year, or
//! text, so that conditions and sums are computed in code (or SQL), never read from prose.

use serde::{Deserialize, Serialize};

use crate::corpus::structure::{cell_in_unit, passages_of, without_place, Record};
use crate::sentence_store::keys::to_base;
use tally_text::quantity::{extract, NumberKind, QuantityUnit, Value};

/// What a column's cells hold, read from the cells themselves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ColumnKind {
    /// Numbers of one measure: `measure` is a physical dimension ("length"), `money:GBP`, or
    /// `number` (counts, bare numbers, nouns: "7", "12 ships").
    Number {
        /// The measure: a physical dimension, `money:<currency>` or `number`.
        measure: String,
        /// The unit a person reads the values in ("£", "km"), from the header or the cells.
        unit: Option<String>,
        /// That unit in the unit table, to turn base values back into it ("kilometre").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        unit_id: Option<String>,
    },
    /// Years (a four-digit year or a date whose year is read).
    Year,
    /// Anything else.
    Text,
}

/// A column: its header as written, its name without the unit it states, and its kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Column {
    /// The header as written.
    pub header: String,
    /// The column's name without the unit it states.
    pub name: String,
    /// What its cells hold.
    pub kind: ColumnKind,
    /// The different texts of a text column (at most `MAX_TEXT_VALUES`), for conditions on it
    /// ("in the North region").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// How many different texts a text column keeps for conditions.
pub(crate) const MAX_TEXT_VALUES: usize = 64;

/// A cell: as written, and its number when its column is of numbers or years (a quantity in
/// its base unit, or the year).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Cell {
    /// The cell as written.
    pub text: String,
    /// Its number in base units, or its year; `None` in a text column.
    pub number: Option<f64>,
}

/// A table row and where in the file it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The row's cells, one per column.
    pub cells: Vec<Cell>,
    /// Where in the file the row is, when the file has such places.
    pub place: Option<String>,
}

/// A table of one document, typed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordTable {
    /// The document's source (its file name).
    pub document: String,
    /// The document's title and the headings above the table.
    pub context: String,
    /// The table's columns.
    pub columns: Vec<Column>,
    /// Its rows.
    pub rows: Vec<Row>,
}

impl RecordTable {
    /// The table without its rows: what a question is planned against.
    pub fn schema(&self) -> TableSchema {
        TableSchema {
            document: self.document.clone(),
            context: self.context.clone(),
            columns: self.columns.clone(),
            rows: self.rows.len(),
        }
    }
}

/// A table's description without its rows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableSchema {
    /// The document's source (its file name).
    pub document: String,
    /// The document's title and the headings above the table.
    pub context: String,
    /// The table's columns.
    pub columns: Vec<Column>,
    /// How many rows it has.
    pub rows: usize,
}

/// The tables of a stored document (its passages' table-row records, consecutive rows under
/// one header and one context making one table).
pub fn tables_of(text: &str, source: &str) -> Vec<RecordTable> {
    let passages = passages_of(text, source);
    tables_of_records(
        passages
            .iter()
            .filter_map(|p| Some((source, p.context.as_str(), p.record.as_deref()?))),
    )
}

/// The tables of a run of records, each with its document and its context (the title, the
/// headings and the place): consecutive rows of one document under one header and one context
/// make one table.
pub fn tables_of_records<'a>(
    records: impl IntoIterator<Item = (&'a str, &'a str, &'a Record)>,
) -> Vec<RecordTable> {
    type Rows = Vec<(Vec<String>, Option<String>)>;
    let mut tables: Vec<(String, String, Vec<String>, Rows)> = Vec::new();
    let mut last: Option<(&str, &str, &Record)> = None;
    for (document, full_context, record) in records {
        let Record::TableRow { header, cells } = record else {
            continue;
        };
        // A long row is stored in pieces, each with the whole record: keep it once.
        if last == Some((document, full_context, record)) {
            continue;
        }
        last = Some((document, full_context, record));
        let (context, place) = match full_context.split_once(PLACE) {
            Some((headings, place)) => (headings.to_string(), Some(place.to_string())),
            None => (without_place(full_context).to_string(), None),
        };
        let header: Vec<String> = header.to_vec();
        match tables.last_mut() {
            Some((d, c, h, rows)) if d == document && *c == context && *h == header => {
                rows.push((cells.clone(), place));
            }
            _ => tables.push((
                document.to_string(),
                context,
                header,
                vec![(cells.clone(), place)],
            )),
        }
    }
    tables
        .into_iter()
        .filter(|(_, _, header, rows)| !header.is_empty() && rows.len() >= 2)
        .map(|(document, context, header, rows)| typed(&document, context, header, rows))
        .collect()
}

use crate::corpus::structure::PLACE_SEPARATOR as PLACE;

/// A table with its columns' kinds read from their cells and each cell's number.
fn typed(
    source: &str,
    context: String,
    header: Vec<String>,
    rows: Vec<(Vec<String>, Option<String>)>,
) -> RecordTable {
    let width = header.len();
    let mut columns = Vec::with_capacity(width);
    let mut numbers: Vec<Vec<Option<f64>>> = vec![Vec::new(); rows.len()];
    for (c, column_header) in header.iter().enumerate() {
        let readings: Vec<Option<Reading>> = rows
            .iter()
            .map(|(cells, _)| {
                cells
                    .get(c)
                    .filter(|cell| !cell.trim().is_empty())
                    .map(|cell| read_cell(column_header, cell))
            })
            .collect();
        let kind = column_kind(column_header, &readings);
        for (r, reading) in readings.iter().enumerate() {
            numbers[r].push(
                reading
                    .as_ref()
                    .and_then(|reading| reading.number_as(&kind)),
            );
        }
        let values = if kind == ColumnKind::Text {
            let mut values: Vec<String> = Vec::new();
            for (cells, _) in &rows {
                let Some(text) = cells.get(c).map(|t| t.trim()) else {
                    continue;
                };
                if !text.is_empty()
                    && values.len() < MAX_TEXT_VALUES
                    && !values.iter().any(|v| v.eq_ignore_ascii_case(text))
                {
                    values.push(text.to_string());
                }
            }
            values
        } else {
            Vec::new()
        };
        let (name, _) = cell_in_unit(column_header, "");
        let name = strip_unit(&name);
        columns.push(Column {
            header: column_header.clone(),
            name,
            kind,
            values,
        });
    }
    let rows = rows
        .into_iter()
        .zip(numbers)
        .map(|((cells, place), numbers)| Row {
            cells: (0..width)
                .map(|c| Cell {
                    text: cells.get(c).cloned().unwrap_or_default(),
                    number: numbers.get(c).copied().flatten(),
                })
                .collect(),
            place,
        })
        .collect();
    RecordTable {
        document: source.to_string(),
        context,
        columns,
        rows,
    }
}

/// A header without the unit it states in brackets: "Length (km)" → "Length".
fn strip_unit(header: &str) -> String {
    match header
        .trim()
        .strip_suffix(')')
        .and_then(|h| h.rsplit_once('('))
    {
        Some((name, _)) if !name.trim().is_empty() => name.trim().to_string(),
        _ => header.trim().to_string(),
    }
}

/// What one cell reads as.
#[derive(Debug, Clone, PartialEq)]
enum Reading {
    Number {
        measure: String,
        base: f64,
        unit: Option<String>,
        unit_id: Option<String>,
    },
    Year(f64),
    Text,
}

impl Reading {
    fn number_as(&self, kind: &ColumnKind) -> Option<f64> {
        match (self, kind) {
            (Reading::Number { measure, base, .. }, ColumnKind::Number { measure: m, .. })
                if measure == m =>
            {
                Some(*base)
            }
            (Reading::Year(year), ColumnKind::Year) => Some(*year),
            // A year column's bare number, a number column's plain year.
            (Reading::Year(year), ColumnKind::Number { measure, .. }) if measure == NUMBER => {
                Some(*year)
            }
            _ => None,
        }
    }
}

/// A base value back in the column's unit (kilometres for a column of "12 km").
pub fn in_column_unit(value: f64, kind: &ColumnKind) -> f64 {
    let ColumnKind::Number {
        measure,
        unit_id: Some(id),
        ..
    } = kind
    else {
        return value;
    };
    if measure == NUMBER || measure.starts_with("money:") {
        return value;
    }
    tally_text::UnitTable::builtin()
        .get(id)
        .map_or(value, |unit| unit.from_base(value))
}

/// The measure of counts, bare numbers and nouns.
pub const NUMBER: &str = "number";

/// A cell read under its column: a year, a quantity (its unit from the cell or the header), or
/// text.
fn read_cell(header: &str, cell: &str) -> Reading {
    let cell = cell.trim();
    let (_, in_unit) = cell_in_unit(header, cell);
    let year = year_of(cell);
    // A plain year is read without the extractor (most date columns are).
    if let (Some(year), true) = (year, in_unit == cell) {
        return Reading::Year(year);
    }
    let quantities = extract(&in_unit);
    // Under a header that states a unit ("Climb (m)"), 1485 is metres, not a year; a bracket
    // that names no unit ("Founded (UK)") leaves a year a year.
    let header_unit = matches!(quantities.as_slice(),
        [q] if q.unit.as_ref().is_some_and(|u| u.dimension.is_some()));
    if let Some(year) = year.filter(|_| !header_unit) {
        return Reading::Year(year);
    }
    // One quantity that is most of the cell: "£4.50", "12 km", "3,400"; not "2 of 5 open".
    let [quantity] = quantities.as_slice() else {
        return Reading::Text;
    };
    let covered = quantity.span.len() * 10 >= in_unit.trim().len() * 6;
    let Value::Single(value) = quantity.value else {
        return Reading::Text;
    };
    if !covered || quantity.overflow || quantity.kind == NumberKind::Ordinal {
        return Reading::Text;
    }
    let unit = quantity.unit.as_ref();
    Reading::Number {
        measure: measure_of(unit),
        base: to_base(value, unit),
        unit: unit.and_then(QuantityUnit::shown),
        unit_id: unit.and_then(|u| u.unit_id.clone()),
    }
}

/// A quantity's measure: its physical dimension, money in its currency, or a plain number.
pub fn measure_of(unit: Option<&QuantityUnit>) -> String {
    // "£100 a year" is money: a column of annual fees says its period in its header.
    let Some(unit) = unit else {
        return NUMBER.to_string();
    };
    match (unit.dimension.as_deref(), unit.unit_id.as_deref()) {
        (Some("currency"), Some(id)) => format!("money:{id}"),
        (Some("count") | None, _) => NUMBER.to_string(),
        (Some(dimension), Some(_)) => dimension.to_string(),
        _ => NUMBER.to_string(),
    }
}

/// The year a cell holds: "1887", "2019-03-04", "4 March 2019", "March 2019".
pub fn year_of(cell: &str) -> Option<f64> {
    let cell = cell.trim();
    let is_year = |s: &str| {
        s.len() == 4
            && s.bytes().all(|b| b.is_ascii_digit())
            && (1000..=2200).contains(&s.parse::<u32>().unwrap_or(0))
    };
    if is_year(cell) {
        return cell.parse().ok();
    }
    // An ISO date.
    if let Some(year) = cell.get(..4).filter(|y| is_year(y)) {
        let rest = &cell[4..];
        if rest.len() == 6
            && rest.starts_with('-')
            && rest[1..].bytes().filter(|b| *b == b'-').count() == 1
        {
            return year.parse().ok();
        }
    }
    // A written date ending in its year: "4 March 2019", "March 2019".
    let words: Vec<&str> = cell.split_whitespace().collect();
    if (2..=3).contains(&words.len()) {
        let last = words[words.len() - 1];
        let month = words[words.len() - 2].trim_end_matches(',').to_lowercase();
        if is_year(last)
            && tally_text::calendar::MONTHS.iter().any(|m| {
                month.starts_with(&m[..3]) && m.starts_with(&month[..month.len().min(m.len())])
            })
        {
            return last.parse().ok();
        }
    }
    None
}

/// A column's kind: what most of its cells read as (a column named like a year, "Year",
/// "Opened", "Founded", of years, is a year column).
fn column_kind(header: &str, readings: &[Option<Reading>]) -> ColumnKind {
    let read: Vec<&Reading> = readings.iter().flatten().collect();
    if read.is_empty() {
        return ColumnKind::Text;
    }
    let half = read.len().div_ceil(2);
    let years = read
        .iter()
        .filter(|r| matches!(r, Reading::Year(_)))
        .count();
    if years >= half && years * 10 >= read.len() * 8 {
        return ColumnKind::Year;
    }
    // The measure most numbers share.
    let mut measures: Vec<(&str, usize, Option<&str>, Option<&str>)> = Vec::new();
    for reading in &read {
        if let Reading::Number {
            measure,
            unit,
            unit_id,
            ..
        } = reading
        {
            match measures.iter_mut().find(|(m, ..)| m == measure) {
                Some(entry) => entry.1 += 1,
                None => measures.push((measure, 1, unit.as_deref(), unit_id.as_deref())),
            }
        }
    }
    let numbers_of_years = years; // a count column whose values happen to look like years
    if let Some((measure, n, unit, unit_id)) = measures.iter().max_by_key(|(_, n, ..)| *n) {
        if (n + if *measure == NUMBER {
            numbers_of_years
        } else {
            0
        }) * 10
            >= read.len() * 8
        {
            let header_unit = header
                .trim()
                .strip_suffix(')')
                .and_then(|h| h.rsplit_once('('))
                .map(|(_, u)| u.trim().to_string());
            return ColumnKind::Number {
                measure: measure.to_string(),
                unit: unit.map(str::to_string).or(if *measure == NUMBER {
                    None
                } else {
                    header_unit
                }),
                unit_id: unit_id.map(str::to_string),
            };
        }
    }
    ColumnKind::Text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::budget::ReadBudget;
    use crate::corpus::documents::read;
    use crate::corpus::format::Format;

    fn stored(text: &str, format: Format) -> String {
        let budget = ReadBudget::for_bytes(text.len());
        read(text, format, "stations.csv", &budget).unwrap()[0]
            .text
            .clone()
    }

    #[test]
    fn a_csv_table_is_typed_cell_by_cell() {
        let csv = "Station,Opened,Platforms,Fare (£),Length (km),Region\n\
                   Harbour Street,1887,7,4.50,3.4,North\n\
                   Mill Lane,1995,2,£2.10,1.2,South\n\
                   Quarry End,2003-05-01,3,3.00,12,North\n";
        let tables = tables_of(&stored(csv, Format::Csv), "stations.csv");
        assert_eq!(tables.len(), 1);
        let table = &tables[0];
        let kinds: Vec<&ColumnKind> = table.columns.iter().map(|c| &c.kind).collect();
        assert_eq!(kinds[0], &ColumnKind::Text);
        assert_eq!(kinds[1], &ColumnKind::Year);
        assert!(matches!(kinds[2], ColumnKind::Number { measure, .. } if measure == NUMBER));
        assert!(matches!(kinds[3], ColumnKind::Number { measure, .. } if measure == "money:gbp"));
        assert!(matches!(kinds[4], ColumnKind::Number { measure, .. } if measure == "length"));
        assert_eq!(table.columns[3].name, "Fare");
        assert_eq!(table.rows[2].cells[1].number, Some(2003.0));
        assert_eq!(table.rows[1].cells[3].number, Some(2.1));
        // Lengths in metres.
        assert_eq!(table.rows[2].cells[4].number, Some(12_000.0));
        assert_eq!(table.columns[5].values, vec!["North", "South"]);
    }

    /// Issue 100: a climb of 1485 m under "Climb (m)" is a length, not the year 1485.
    #[test]
    fn a_number_under_a_header_unit_is_no_year() {
        let csv = "Route,Climb (m),Walked\nA,1485,2025-01-12\nB,120,2025-02-28\n";
        let tables = tables_of(&stored(csv, Format::Csv), "walks.csv");
        let kinds: Vec<&ColumnKind> = tables[0].columns.iter().map(|c| &c.kind).collect();
        assert!(matches!(kinds[1], ColumnKind::Number { measure, .. } if measure == "length"));
        assert_eq!(kinds[2], &ColumnKind::Year);
        assert_eq!(tables[0].rows[0].cells[1].number, Some(1485.0));
        let csv = "Club,Founded (UK)\nA,1887\nB,1902\n";
        let tables = tables_of(&stored(csv, Format::Csv), "clubs.csv");
        assert_eq!(tables[0].columns[1].kind, ColumnKind::Year);
    }

    #[test]
    fn years_are_read_from_dates() {
        assert_eq!(year_of("1887"), Some(1887.0));
        assert_eq!(year_of("2019-03-04"), Some(2019.0));
        assert_eq!(year_of("4 March 2019"), Some(2019.0));
        assert_eq!(year_of("Sept 2019"), Some(2019.0));
        assert_eq!(year_of("42"), None);
        assert_eq!(year_of("Room 2019"), None);
    }
}
