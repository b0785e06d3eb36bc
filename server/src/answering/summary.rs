//! One line that says what an answer found, for lists and logs.

use super::*;

pub fn summary_of(answer: &AnswerBody) -> String {
    match answer {
        AnswerBody::Count(a) => match (a.count, &a.cnp_rep) {
            (Some(count), Some(rep)) => format!("{count} (“{}”)", rep.text),
            (Some(count), None) => count.to_string(),
            _ => "no count found".into(),
        },
        AnswerBody::Value(a) => match (a.value, &a.representative) {
            (Some(value), Some(rep)) => format!(
                "{} {} (“{rep}”)",
                tally_app::format::number(value),
                a.unit.as_deref().unwrap_or_default()
            ),
            (Some(value), None) => tally_app::format::number(value),
            _ => "no value found".into(),
        },
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
