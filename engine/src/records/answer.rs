//! A count answer made from an aggregation, or from why there is none: the one answer type every
//! entry point shows, with the table's rows as its evidence.

use tally_types::count::{
    Abstention, AggregatedRow, Aggregation, CnpGroups, CountAnswer, CountSettings, Retrieval,
};

use crate::count::question::analyse;
use tally_documents::tables::AggregateQuery;
use tally_documents::tables::Computed;
use tally_documents::tables::{in_column_unit, ColumnKind, Row, TableSchema};

/// The answer of an aggregation over `table`, whose shown `rows` (at most
/// [`Aggregation::SHOWN_ROWS`], in table order) the computation took or left out.
pub fn aggregation_answer(
    question: &str,
    settings: &CountSettings,
    table: &TableSchema,
    query: &AggregateQuery,
    computed: &Computed,
    rows: &[Row],
) -> CountAnswer {
    let value_kind = query.value_column.map(|c| &table.columns[c].kind);
    let in_unit = |v: f64| value_kind.map_or(v, |kind| in_column_unit(v, kind));
    let unit = match value_kind {
        Some(ColumnKind::Number { unit, .. }) => unit.clone(),
        _ => None,
    };
    let value = computed.value.map(in_unit);
    let name = computed.chosen_name.clone();
    let aggregation = Aggregation {
        operation: query.operation,
        document: table.document.clone(),
        table: table.context.clone(),
        header: table.columns.iter().map(|c| c.header.clone()).collect(),
        column: query.value_column.map(|c| table.columns[c].header.clone()),
        conditions: query.filters.iter().map(|f| f.described.clone()).collect(),
        value: value.unwrap_or(0.0),
        unit,
        name,
        rows_taken: computed.rows_taken,
        rows_total: table.rows,
        rows: rows
            .iter()
            .zip(&computed.taken)
            .take(Aggregation::SHOWN_ROWS)
            .map(|(row, taken)| AggregatedRow {
                cells: row.cells.iter().map(|c| c.text.clone()).collect(),
                place: row.place.clone(),
                taken: *taken,
            })
            .collect(),
    };
    let mut answer = empty_answer(question, settings);
    answer.count = value;
    answer.support = 1.0;
    answer.confidence = 1.0;
    if value.is_none() {
        answer.abstention = Some(format!(
            "{}: none of the rows that meet the condition has a value in “{}”.",
            Abstention::HEADLINE,
            aggregation.column.as_deref().unwrap_or_default()
        ));
    }
    answer.aggregation = Some(aggregation);
    answer
}

/// The answer to a question about a table's rows with a condition on something none of its
/// columns holds: declined, with the columns there are.
pub fn no_such_column_answer(
    question: &str,
    settings: &CountSettings,
    table: &TableSchema,
    asked: &str,
) -> CountAnswer {
    let reason = Abstention::NoSuchColumn {
        table: table.context.clone(),
        asked: asked.to_string(),
        columns: table.columns.iter().map(|c| c.header.clone()).collect(),
    };
    let mut answer = empty_answer(question, settings);
    answer.abstention = Some(reason.sentence());
    answer.abstention_reason = Some(reason);
    answer
}

/// An answer with nothing read from snippets yet.
pub fn empty_answer(question: &str, settings: &CountSettings) -> CountAnswer {
    CountAnswer {
        question: question.to_string(),
        analysis: analyse(question),
        count: None,
        support: 0.0,
        certainty: None,
        abstention: None,
        abstention_reason: None,
        read_from: None,
        aggregation: None,
        cnp_rep: None,
        confidence: 0.0,
        groups: CnpGroups::default(),
        instances: Vec::new(),
        snippets: Vec::new(),
        retrieval: Retrieval::Records,
        origin: None,
        threshold_used: 0.0,
        settings: settings.clone(),
        resolved: None,
        timings: Vec::new(),
    }
}
