//! One line that says what an answer found, for lists and logs.

use super::*;

/// The answer as its page shows it, in one line: a sum with its unit, a count read from a
/// document's structure without another passage's phrase, "not sure" where the page says so
/// (issue 87).
pub fn summary_of(answer: &AnswerBody) -> String {
    use tally_app::format::{measured, number};
    let with_unit =
        |value: f64, unit: &str| format!("{} {unit}", measured(value)).trim().to_string();
    let closest =
        |reading: f64, unit: &str| format!("not sure (closest: {})", with_unit(reading, unit));
    match answer {
        AnswerBody::Count(a) => match (a.count, &a.aggregation) {
            (Some(_), Some(aggregation)) => aggregation.headline(),
            (Some(count), None) => match (&a.cnp_rep, &a.read_from) {
                (Some(rep), None) => format!("{} (“{}”)", number(count), rep.text),
                _ => number(count),
            },
            (None, _) => match a.certainty.and_then(|c| c.reading) {
                Some(reading) => closest(reading, ""),
                None if a.abstention.is_some() => "no reliable answer".into(),
                None => "no count found".into(),
            },
        },
        // Written as the value's page writes it ("£38", "330 m"; issue 101).
        AnswerBody::Value(a) => {
            let shown = |value: f64| tally_app::views::value::in_own_unit(a, value);
            match (a.value, &a.not_sure, &a.representative) {
                (Some(value), Some(_), _) => format!("not sure (closest: {})", shown(value)),
                (Some(value), None, Some(rep)) => format!("{} (“{rep}”)", shown(value)),
                (Some(value), None, None) => shown(value),
                (None, _, _) => "no value found".into(),
            }
        }
        AnswerBody::Search(r) => match (r.entities.first(), r.hits.first()) {
            (Some(e), _) => format!("{} entities, first: {}", r.entities.len(), e.entity),
            (None, Some(hit)) => format!(
                "{} results, first: {}",
                r.hits.len(),
                shorten(&hit.text, 80)
            ),
            _ => "no results".into(),
        },
    }
}

pub(super) fn shorten(text: &str, chars: usize) -> String {
    if text.chars().count() <= chars {
        text.to_string()
    } else {
        format!("{}…", text.chars().take(chars).collect::<String>())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_types::count::{Aggregation, Operation};

    #[test]
    fn a_sum_is_summarised_with_its_unit_and_rounded() {
        let mut answer = tally_engine::records::no_such_column_answer(
            "what do the teams weigh in total",
            &Default::default(),
            &tally_documents::tables::TableSchema {
                document: "clubs.xlsx".into(),
                context: "Teams".into(),
                columns: Vec::new(),
                rows: 0,
            },
            "x",
        );
        answer.count = Some(1194.3999999999999);
        answer.aggregation = Some(Aggregation {
            operation: Operation::Sum,
            document: "clubs.xlsx".into(),
            table: "Teams".into(),
            header: vec![],
            column: Some("Weight".into()),
            conditions: vec![],
            value: 1194.3999999999999,
            unit: Some("lb".into()),
            name: None,
            rows_taken: 8,
            rows_total: 8,
            rows: vec![],
        });
        let line = summary_of(&AnswerBody::Count(Box::new(answer)));
        assert_eq!(line, "1194.4 lb in total");
    }
}
