//! An aggregation question matched to a table: which table (its rows are the things asked for,
//! or one of its columns is), which column each condition is on, which column is added up or
//! compared; or why the question is not an aggregation over these tables.

use tally_types::count::Operation;

use super::question::{words_of, AggregationQuestion, AskedCondition};
use tally_documents::sentence_store::keys::to_base;
use tally_documents::tables::{
    measure_of, AggregateQuery, Bound, ColumnKind, Filter, FilterTest, TableSchema, NUMBER,
};
use tally_text::quantity::Condition;

/// What a question comes to over a corpus's tables.
#[derive(Debug, Clone, PartialEq)]
pub enum Plan {
    /// It asks no aggregation of these tables: the other readings answer it.
    NotAggregation,
    /// Computed over one table.
    Query(AggregateQuery),
    /// It asks about a table's rows with a condition on something none of its columns holds.
    NoSuchColumn {
        /// The table's position among the schemas.
        table: usize,
        /// What the condition asked about.
        asked: String,
    },
}

/// How well a table's names meet the question.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
struct Fit {
    /// Question words the columns' names hold, for the columns chosen.
    columns: usize,
    /// Question words the rows' names hold (the first column's header, the table's headings).
    rows: usize,
}

/// Plans `question` over `tables`: the table that fits it best, or why none does.
pub fn plan(question: &AggregationQuestion, tables: &[TableSchema]) -> Plan {
    let mut best: Option<(Fit, Plan)> = None;
    for (t, table) in tables.iter().enumerate() {
        let Some((fit, plan)) = plan_table(question, t, table) else {
            continue;
        };
        // The question names a row of a table it is about: it asks for that row's cell.
        if plan == Plan::NotAggregation {
            return Plan::NotAggregation;
        }
        let better = match &best {
            None => true,
            // A table that answers beats one that cannot; then the better fit.
            Some((best_fit, best_plan)) => {
                let answers = matches!(plan, Plan::Query(_));
                let best_answers = matches!(best_plan, Plan::Query(_));
                (answers && !best_answers)
                    || (answers == best_answers
                        && (fit.columns + fit.rows, fit.columns)
                            > (best_fit.columns + best_fit.rows, best_fit.columns))
            }
        };
        if better {
            best = Some((fit, plan));
        }
    }
    best.map_or(Plan::NotAggregation, |(_, plan)| plan)
}

/// The question's words a name holds.
fn overlap(question: &[String], name: &str) -> usize {
    words_of(name)
        .iter()
        .filter(|w| question.contains(w))
        .count()
}

/// The question over one table; `None` when the table has nothing to do with it.
fn plan_table(
    question: &AggregationQuestion,
    t: usize,
    table: &TableSchema,
) -> Option<(Fit, Plan)> {
    let words = &question.words;
    table.columns.first()?;
    let rows = rows_fit(words, table);
    if names_a_row(words, table) {
        // About that row: no other table answers it either, when this one is the question's.
        return (overlap(words, &table.context) > 0 || rows > 0)
            .then_some((Fit { columns: 0, rows }, Plan::NotAggregation));
    }
    let mut columns = 0;
    let mut filters = Vec::new();
    for condition in &question.conditions {
        match filter_for(question, condition, table) {
            Some((filter, fit)) => {
                columns += fit;
                filters.push(filter);
            }
            None if rows > 0 => {
                return Some((
                    Fit { columns, rows },
                    Plan::NoSuchColumn {
                        table: t,
                        asked: condition.text().to_string(),
                    },
                ));
            }
            None => return None,
        }
    }
    let equalities = equality_filters(question, table);
    columns += equalities.len();
    filters.extend(equalities);
    if let Some((filter, fit)) = text_condition(question, table, &filters, rows) {
        columns += fit;
        filters.push(filter);
    }
    let value_column = match question.operation {
        Operation::Count => None,
        operation => match value_column(question, table, operation, &filters) {
            Some((column, fit)) => {
                columns += fit;
                Some(column)
            }
            // "how many stations in total have more than 4 platforms": the rows counted.
            None if question.asks_how_many && !filters.is_empty() => None,
            None => return None,
        },
    };
    let mut operation = match (question.operation, value_column) {
        (_, None) => Operation::Count,
        (operation, Some(_)) => operation,
    };
    // "how many passengers landed from 2021 to 2025" over a "Passengers" column: its numbers
    // added up over the rows taken, not the rows counted.
    let mut value_column = value_column;
    // Only under a condition: "how many members does the club have" over "Year | Members" is
    // no sum of the years.
    let counted = (!filters.is_empty())
        .then(|| counted_column(question, table))
        .flatten();
    if let (Operation::Count, Some(column)) = (operation, counted) {
        operation = Operation::Sum;
        value_column = Some(column);
        columns += 1;
    }
    if filters.is_empty() && operation == Operation::Count {
        return None;
    }
    let rows = rows_fit_apart(words, table, &filters, value_column);
    // A count's rows must be the things asked for; a sum's or a comparison's column must be
    // named (or its measure), else the table is not what the question is about.
    if rows == 0 && columns == 0 {
        return None;
    }
    if operation == Operation::Count && rows == 0 {
        return None;
    }
    let only_text = operation == Operation::Count
        && filters
            .iter()
            .all(|f| matches!(f.test, FilterTest::TextIs(_)));
    if only_text && rows < 2 {
        return None;
    }
    Some((
        Fit { columns, rows },
        Plan::Query(AggregateQuery {
            table: t,
            operation,
            value_column,
            filters,
        }),
    ))
}

/// The column of counts (numbers of no unit, not the rows' names) the noun "how many" counts
/// names whole.
fn counted_column(question: &AggregationQuestion, table: &TableSchema) -> Option<usize> {
    let counted = question.counted.as_ref()?;
    table
        .columns
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, c)| {
            matches!(&c.kind, ColumnKind::Number { measure, .. } if measure == NUMBER)
                && words_of(&c.name) == [counted.clone()]
        })
        .map(|(n, _)| n)
}

/// How well the question's `words` name the table's rows: its first column's header or the
/// heading right above it (twice), and its context (the title, "the price of a kettle" names
/// the kettle comparison). A table under the title alone has no heading: the title names the
/// document.
fn rows_fit(words: &[String], table: &TableSchema) -> usize {
    let first = table.columns.first().map_or("", |c| c.name.as_str());
    let heading = table
        .context
        .rsplit_once(tally_documents::corpus::structure::CONTEXT_SEPARATOR)
        .map_or("", |(_, heading)| heading);
    2 * overlap(words, first).max(overlap(words, heading))
        + usize::from(overlap(words, &table.context) > 0)
}

/// The rows' fit from the words the chosen columns and a text condition's value do not already
/// name ("prices" in a price list's file name does not make it the kettles' table; "MV Calla"
/// does not make a sailings table the crew's).
fn rows_fit_apart(
    words: &[String],
    table: &TableSchema,
    filters: &[Filter],
    value_column: Option<usize>,
) -> usize {
    let chosen: Vec<String> = filters
        .iter()
        .map(|f| f.column)
        .chain(value_column)
        .flat_map(|c| words_of(&table.columns[c].name))
        .chain(filters.iter().flat_map(|f| match &f.test {
            FilterTest::TextIs(value) => words_of(value),
            FilterTest::Within { .. } => Vec::new(),
        }))
        .collect();
    let rest: Vec<String> = words
        .iter()
        .filter(|w| !chosen.contains(w))
        .cloned()
        .collect();
    rows_fit(&rest, table)
}

/// Whether the question names one of the rows (a value of a column of names, each row's its
/// own): it asks about that row ("the total catch weight of Kiln Lane AC" is its cell), not
/// across the rows.
fn names_a_row(words: &[String], table: &TableSchema) -> bool {
    let context_words = words_of(&table.context);
    table
        .columns
        .iter()
        .filter(|c| c.kind == ColumnKind::Text && c.values.len() == table.rows)
        .flat_map(|c| &c.values)
        .any(|name| {
            let name_words = words_of(name);
            !name_words.is_empty()
                && name_words.iter().all(|w| words.contains(w))
                && !name_words.iter().all(|w| context_words.contains(w))
        })
}

/// A number after a column's name: "in zone 2".
fn equality_filters(question: &AggregationQuestion, table: &TableSchema) -> Vec<Filter> {
    let mut filters = Vec::new();
    for (word, value, text) in &question.equalities {
        let column = table.columns.iter().enumerate().skip(1).find(|(_, c)| {
            matches!(&c.kind, ColumnKind::Number { measure, .. } if measure == NUMBER)
                && words_of(&c.name).contains(word)
        });
        if let Some((n, c)) = column {
            let exactly = Some(Bound {
                value: *value,
                inclusive: true,
            });
            filters.push(Filter {
                column: n,
                test: FilterTest::Within {
                    low: exactly,
                    high: exactly,
                },
                described: format!("{} = {}", c.name, text),
            });
        }
    }
    filters
}

/// A text column's value the question names: "in the North region". Counting rows by a text
/// alone needs the rows to be the things asked for (their column or heading, not only the
/// document's title), and no column of numbers the question names: "how many tins of Cobble
/// White are in stock" is the "In stock" cell, not the rows of that colour.
fn text_condition(
    question: &AggregationQuestion,
    table: &TableSchema,
    filters: &[Filter],
    rows: usize,
) -> Option<(Filter, usize)> {
    let (filter, fit) = text_filter(question, table)?;
    let only_text = filters.is_empty() && question.operation == Operation::Count;
    let names_a_number = table.columns.iter().skip(1).any(|c| {
        matches!(c.kind, ColumnKind::Number { .. }) && overlap(&question.free_words, &c.name) > 0
    });
    (!only_text || (rows >= 2 && !names_a_number)).then_some((filter, fit))
}

/// The column a condition is on, with how many question words its name holds.
fn filter_for(
    question: &AggregationQuestion,
    condition: &AskedCondition,
    table: &TableSchema,
) -> Option<(Filter, usize)> {
    let words = &question.words;
    match condition {
        AskedCondition::Quantity {
            constraint, noun, ..
        } => {
            let (unit, value, high) = everyday_unit(constraint, table);
            let measure = measure_of(unit.as_ref());
            let low = to_base(value, unit.as_ref());
            let high = to_base(high, unit.as_ref());
            let numbers = || {
                table.columns.iter().enumerate().skip(1).filter(|(_, c)| {
                    matches!(&c.kind, ColumnKind::Number { measure: m, .. } if *m == measure)
                })
            };
            // The column the condition's noun names ("4 platforms": "Platforms"; "3 snow
            // days" is not "Rain days"), else one the question's other words name ("won
            // fewer than 8 matches": "Won"); a measure ("over £5") needs no name when one
            // column holds it.
            let named_by_noun = |(n, c): (usize, &tally_documents::tables::Column)| {
                let names = words_of(&c.name);
                let noun = noun.as_ref()?;
                noun.iter()
                    .all(|w| names.contains(w))
                    .then_some((n, noun.len() + 1))
            };
            let named_by_words = |(n, c): (usize, &tally_documents::tables::Column)| {
                let fit = overlap(&question.free_words, &c.name);
                (fit > 0).then_some((n, fit))
            };
            let by_noun = numbers()
                .filter_map(named_by_noun)
                .max_by_key(|(n, fit)| (*fit, std::cmp::Reverse(*n)));
            let by_words = || {
                numbers()
                    .filter_map(named_by_words)
                    .max_by_key(|(n, fit)| (*fit, std::cmp::Reverse(*n)))
            };
            let (column, fit) = match (by_noun, measure == NUMBER) {
                (Some(found), _) => found,
                (None, true) => by_words()?,
                (None, false) => by_words().or_else(|| {
                    // One column of the measure, or one in the very unit asked ("longer than
                    // 100 km": "Distance" in km, not "Climbing" in m).
                    let all: Vec<usize> = numbers().map(|(n, _)| n).collect();
                    let same_unit: Vec<usize> = all
                        .iter()
                        .copied()
                        .filter(|n| {
                            matches!(&table.columns[*n].kind, ColumnKind::Number { unit_id: Some(id), .. }
                                if unit.as_ref().and_then(|u| u.unit_id.as_ref()) == Some(id))
                        })
                        .collect();
                    match (all.as_slice(), same_unit.as_slice()) {
                        ([only], _) | (_, [only]) => Some((*only, 0)),
                        _ => None,
                    }
                })?,
            };
            let test = bounds(constraint.condition, low, high)?;
            Some((
                Filter {
                    column,
                    described: describe(
                        &table.columns[column].name,
                        constraint.condition,
                        value,
                        constraint.high.map(|_| high_value(constraint, value)),
                        unit.as_ref()
                            .and_then(tally_text::quantity::QuantityUnit::shown),
                    ),
                    test,
                },
                fit,
            ))
        }
        AskedCondition::Year {
            condition,
            low,
            high,
            ..
        } => {
            let (column, fit) = table
                .columns
                .iter()
                .enumerate()
                .filter(|(_, c)| c.kind == ColumnKind::Year)
                .map(|(n, c)| (n, overlap(words, &c.name)))
                .max_by_key(|(n, fit)| (*fit, std::cmp::Reverse(*n)))?;
            let test = bounds(*condition, *low, high.unwrap_or(*low))?;
            Some((
                Filter {
                    column,
                    described: describe(&table.columns[column].name, *condition, *low, *high, None),
                    test,
                },
                fit,
            ))
        }
    }
}

/// A text column's value the question names (all of its words), not in the first column (the
/// rows' names are what is counted, not a condition).
fn text_filter(question: &AggregationQuestion, table: &TableSchema) -> Option<(Filter, usize)> {
    let heading_words = words_of(&table.context);
    table
        .columns
        .iter()
        .enumerate()
        .skip(1)
        // A column of categories (its values repeat), not of names: a condition picks several
        // rows by their category; a name picks one row, whose cells the other readings read.
        .filter(|(_, c)| c.kind == ColumnKind::Text && c.values.len() < table.rows)
        .flat_map(|(n, c)| c.values.iter().map(move |v| (n, c, v)))
        .filter_map(|(n, c, value)| {
            let value_words = words_of(value);
            let by_words = !value_words.is_empty()
                && value_words.iter().all(|w| question.words.contains(w))
                && !value_words.iter().all(|w| heading_words.contains(w));
            // Written as it is: what tells `back\slash` from `back slash`, and the only way to
            // name a value of symbols (issue 97: `*` and `''` had no words, so no condition was
            // read and every row was counted).
            let literal = says_literally(&question.text, value);
            let has_symbols = value
                .chars()
                .any(|ch| !ch.is_alphanumeric() && !ch.is_whitespace());
            (by_words || (literal && has_symbols)).then(|| {
                let fit = value_words.len()
                    + overlap(&question.words, &c.name)
                    + if literal { 2 } else { 0 };
                (
                    Filter {
                        column: n,
                        test: FilterTest::TextIs(value.clone()),
                        described: format!("{} = {value}", c.name),
                    },
                    fit,
                )
            })
        })
        .max_by_key(|(_, fit)| *fit)
}

/// Whether `question` (lower case) holds `value` as it is written, not inside a longer word.
fn says_literally(question: &str, value: &str) -> bool {
    let value = value.trim().to_lowercase();
    if value.is_empty() {
        return false;
    }
    let is_word = |ch: Option<char>| ch.is_some_and(char::is_alphanumeric);
    // A value of symbols only (`*`, `-`, `''`) stands alone: between spaces, quotes or the ends.
    let symbols_only = !value.chars().any(char::is_alphanumeric);
    let apart = |ch: Option<char>| ch.is_none_or(|c| c.is_whitespace() || "`'\"“”‘’".contains(c));
    question.match_indices(&value).any(|(at, _)| {
        let before = question[..at].chars().next_back();
        let after = question[at + value.len()..].chars().next();
        if symbols_only && !(apart(before) && apart(after)) {
            return false;
        }
        let glued_before = is_word(before) && value.starts_with(char::is_alphanumeric);
        let glued_after = is_word(after) && value.ends_with(char::is_alphanumeric);
        !glued_before && !glued_after
    })
}

/// The column a sum, an average or a comparison is over: a column of numbers (or years, for
/// "the oldest") whose name the question says, or whose measure its superlative names.
fn value_column(
    question: &AggregationQuestion,
    table: &TableSchema,
    operation: Operation,
    filters: &[Filter],
) -> Option<(usize, usize)> {
    let filtered: Vec<usize> = filters.iter().map(|f| f.column).collect();
    let candidates: Vec<(usize, usize)> = table
        .columns
        .iter()
        .enumerate()
        .filter(|(_, c)| match &c.kind {
            ColumnKind::Number { .. } => true,
            ColumnKind::Year => operation.picks_a_row(),
            ColumnKind::Text => false,
        })
        .map(|(n, c)| {
            let hinted = match (question.measure_hint, &c.kind) {
                (Some("year"), ColumnKind::Year) => true,
                (Some("money"), ColumnKind::Number { measure, .. }) => {
                    measure.starts_with("money:")
                }
                (Some(hint), ColumnKind::Number { measure, .. }) => measure == hint,
                _ => false,
            };
            (
                n,
                overlap(&question.words, &c.name) * 2 + usize::from(hinted),
            )
        })
        .collect();
    if let Some(best) = candidates
        .iter()
        .filter(|(_, fit)| *fit > 0)
        .max_by_key(|(n, fit)| (*fit, std::cmp::Reverse(*n)))
    {
        return Some(*best);
    }
    // One column of numbers besides the conditions' and no other: it is the one meant.
    let others: Vec<&(usize, usize)> = candidates
        .iter()
        .filter(|(n, _)| !filtered.contains(n))
        .collect();
    match others.as_slice() {
        [only] if question.measure_hint.is_none() && operation.picks_a_row() => Some((only.0, 0)),
        _ => None,
    }
}

/// A constraint's unit as people mean it over this table: "15 degrees" is a temperature in
/// degrees Celsius when the table has a temperature column (and no angles).
fn everyday_unit(
    constraint: &tally_text::quantity::Constraint,
    table: &TableSchema,
) -> (Option<tally_text::quantity::QuantityUnit>, f64, f64) {
    let mut unit = constraint.unit.clone();
    let high = constraint.high.unwrap_or(constraint.value);
    let has = |wanted: &str| {
        table
            .columns
            .iter()
            .any(|c| matches!(&c.kind, ColumnKind::Number { measure, .. } if measure == wanted))
    };
    if let Some(u) = unit.as_mut() {
        if u.dimension.as_deref() == Some("angle")
            && u.unit_id.as_deref() == Some("degree_angle")
            && has("temperature")
            && !has("angle")
        {
            u.dimension = Some("temperature".into());
            u.unit_id = Some("celsius".into());
            u.surface = "°C".into();
        }
    }
    (unit, constraint.value, high)
}

/// The high end of a range constraint, as written.
fn high_value(constraint: &tally_text::quantity::Constraint, value: f64) -> f64 {
    constraint.high.unwrap_or(value)
}

/// A condition's bounds.
fn bounds(condition: Condition, low: f64, high: f64) -> Option<FilterTest> {
    let bound = |value, inclusive| Some(Bound { value, inclusive });
    let (low, high) = match condition {
        Condition::Greater => (bound(low, false), None),
        Condition::AtLeast => (bound(low, true), None),
        Condition::Less => (None, bound(low, false)),
        Condition::AtMost => (None, bound(low, true)),
        Condition::Range => (bound(low.min(high), true), bound(low.max(high), true)),
        _ => return None,
    };
    Some(FilterTest::Within { low, high })
}

/// A filter as a person checks it: "Platforms > 4", "Fare > £5", "Opened between 2015 and 2019".
fn describe(
    column: &str,
    condition: Condition,
    value: f64,
    high: Option<f64>,
    unit: Option<String>,
) -> String {
    let shown = |v: f64| tally_types::count::aggregation::with_unit(v, unit.as_deref());
    match (condition, high) {
        (Condition::Range, Some(h)) => {
            format!("{column} between {} and {}", shown(value), shown(h))
        }
        _ => format!("{column} {} {}", condition.symbol(), shown(value)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::read_question;
    use tally_documents::corpus::budget::ReadBudget;
    use tally_documents::corpus::documents::read;
    use tally_documents::corpus::format::Format;
    use tally_documents::tables::tables_of;

    fn schemas(csv: &str) -> Vec<TableSchema> {
        let document =
            &read(csv, Format::Csv, "t.csv", &ReadBudget::for_bytes(csv.len())).unwrap()[0];
        tables_of(&document.text, &document.source)
            .iter()
            .map(|t| t.schema())
            .collect()
    }

    fn planned(question: &str, tables: &[TableSchema]) -> Plan {
        plan(&read_question(question).unwrap(), tables)
    }

    const WEATHER: &str = "Month,Rainfall (mm),Rain days,Mean max temp (°C)\n\
                           January,92,14,7.1\nFebruary,70,11,8.0\nJuly,41,6,19.8\n";
    const RIDES: &str = "Ride,Distance,Climbing (m),Riders\n\
                         Loop,32 km,210,24\nSportive,128 km,1720,29\nCentury,161 km,1980,11\n";

    #[test]
    fn a_condition_goes_to_the_column_its_noun_names_whole() {
        let tables = schemas(WEATHER);
        let Plan::Query(query) = planned(
            "in how many months were there more than 10 rain days",
            &tables,
        ) else {
            panic!("rain days is a column");
        };
        assert_eq!(query.filters[0].column, 2);
        assert_eq!(query.filters[0].described, "Rain days > 10");
        // "snow days" is not "Rain days": declined, not read from the rain column.
        assert_eq!(
            planned(
                "in how many months were there more than 3 snow days",
                &tables
            ),
            Plan::NoSuchColumn {
                table: 0,
                asked: "more than 3 snow days".into()
            }
        );
    }

    #[test]
    fn everyday_degrees_are_a_temperature_and_units_pick_among_columns() {
        let Plan::Query(query) = planned(
            "in how many months was the mean maximum temperature above 15 degrees",
            &schemas(WEATHER),
        ) else {
            panic!("degrees read as a temperature");
        };
        assert_eq!(query.filters[0].column, 3);
        // Two columns of lengths: the one in the unit asked.
        let Plan::Query(query) = planned("how many rides were longer than 100 km", &schemas(RIDES))
        else {
            panic!("the distance column");
        };
        assert_eq!(query.filters[0].column, 1);
    }

    #[test]
    fn how_many_of_a_column_of_counts_adds_them_up_over_the_rows_taken() {
        let tables = schemas("Year,Passengers\n2020,1200\n2021,1850\n2022,2400\n2025,3300\n");
        let Plan::Query(query) = planned("how many passengers landed from 2021 to 2025", &tables)
        else {
            panic!("a range of years is a condition");
        };
        assert_eq!(query.operation, Operation::Sum);
        assert_eq!(query.value_column, Some(1));
        // Without a condition it is no aggregation: the text's stated count answers.
        assert_eq!(
            planned("how many passengers are there", &tables),
            Plan::NotAggregation
        );
    }

    #[test]
    fn a_question_about_no_table_is_not_an_aggregation() {
        assert_eq!(
            planned(
                "how many languages are spoken in switzerland",
                &schemas(RIDES)
            ),
            Plan::NotAggregation
        );
        assert_eq!(
            planned("how many rides are there", &schemas(RIDES)),
            Plan::NotAggregation
        );
    }

    #[test]
    fn a_value_of_symbols_is_a_condition_as_it_is_written() {
        // Issue 97: `back\slash`, `*` and `''` had no words of their own, or the words of
        // another value; every row was counted (10 at 0.91-0.99), the right answer being 1.
        let tables = schemas(
            "Club,Region,Members\nA,north,10\nB,north,12\nC,back\\slash,7\nD,back slash,9\n\
             E,*,4\nF,'',6\nG,south,3\nH,south,5\nI,north,8\nJ,south,2\n",
        );
        for (question, value) in [
            ("how many clubs are in `back\\slash`", "back\\slash"),
            ("how many clubs are in back slash", "back slash"),
            ("how many clubs are in `*`", "*"),
            ("how many clubs are in ''", "''"),
        ] {
            let Plan::Query(query) = planned(question, &tables) else {
                panic!("{question}: a condition on Region");
            };
            assert_eq!(query.filters.len(), 1, "{question}");
            assert_eq!(
                query.filters[0].test,
                FilterTest::TextIs(value.to_string()),
                "{question}"
            );
        }
    }
}
