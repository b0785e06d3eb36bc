//! Which pipeline a question goes to: a count question ("how many …"), a value question ("how
//! tall is the Eiffel Tower"), a quantity-condition search ("stadiums with more than 80000
//! seats") or a plain text search. The web app shows the
//! choice and its reason, and lets people override it.

pub(crate) use tally_types::QuestionKind;

use crate::count::question::{analyse, QuestionAnalysis};
use crate::value::{parse_question, value_cue, MONEY_DIMENSION};
use tally_text::quantity::parse_query;

/// The chosen kind and a sentence saying why, with the question's analysis as a count
/// question (made once: the count pipeline reads it again).
#[derive(Debug, Clone, PartialEq)]
pub struct KindDecision {
    /// The chosen kind.
    pub kind: QuestionKind,
    /// A sentence saying why it was chosen.
    pub reason: String,
    /// The question's analysis as a count question.
    pub analysis: QuestionAnalysis,
}

impl KindDecision {
    /// The kind the person chose.
    pub fn chosen(question: &str, kind: QuestionKind) -> Self {
        KindDecision {
            kind,
            reason: "chosen by the person asking".into(),
            analysis: analyse(question),
        }
    }
}

/// Decides the kind of `question`. `stored_count_question` says whether the corpus holds a
/// snippet set for exactly this question (dataset count questions are often keyword queries,
/// "songs by lennon", without a count cue).
pub fn detect_kind(question: &str, stored_count_question: bool) -> KindDecision {
    let analysis = analyse(question);
    // "How much is the junior membership fee" asks for an amount of money, not how many fees.
    if let Some(cue) = money_asked(question) {
        return KindDecision {
            kind: QuestionKind::Value,
            reason: format!("it asks how much money (“{cue}”)"),
            analysis,
        };
    }
    if analysis.has_count_cue {
        return KindDecision {
            kind: QuestionKind::Count,
            reason: format!("it asks how many {}", analysis.answer_type),
            analysis,
        };
    }
    if stored_count_question {
        return KindDecision {
            kind: QuestionKind::Count,
            reason: "the corpus holds snippets gathered for this count question".into(),
            analysis,
        };
    }
    let parsed = parse_query(question);
    if let Some(first) = parsed.constraints.first() {
        let words = question.get(first.span.clone()).unwrap_or_default().trim();
        return KindDecision {
            kind: QuestionKind::Quantity,
            reason: format!("it sets a quantity condition (“{words}”)"),
            analysis,
        };
    }
    let value = parse_question(question);
    if let Some(cue) = value_cue(&value) {
        let what = value.dimension.as_deref().unwrap_or("value");
        return KindDecision {
            kind: QuestionKind::Value,
            reason: format!("it asks for one {what} (“{cue}”)"),
            analysis,
        };
    }
    let reason = match other_question(question) {
        Some(asks) => format!(
            "it asks {asks}, which Tally does not answer: Tally answers how many (“how many \
             moons does Jupiter have”), one value (“how tall is the Eiffel Tower”) and quantity \
             conditions (“phones with a battery above 4000 mAh”); the sentences below are a text \
             search for the question’s words"
        ),
        None => "it neither asks how many, nor for a value, nor sets a quantity condition".into(),
    };
    KindDecision {
        kind: QuestionKind::Search,
        reason,
        analysis,
    }
}

/// The money word of a "how much …" question that names one ("fee", "cost", "pay").
fn money_asked(question: &str) -> Option<String> {
    if !question.trim().to_lowercase().starts_with("how much ") {
        return None;
    }
    let value = parse_question(question);
    (value.dimension.as_deref() == Some(MONEY_DIMENSION))
        .then_some(value.dimension_cue)
        .flatten()
}

/// What a question that is not about a quantity asks for, by its first word: "when was … founded"
/// asks for a date, "who …" for a person.
fn other_question(question: &str) -> Option<&'static str> {
    let first = question
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .find(|w| !w.is_empty())?
        .to_lowercase();
    match first.as_str() {
        "when" => Some("when (a date)"),
        "who" | "whom" | "whose" => Some("who (a person)"),
        "where" => Some("where (a place)"),
        "why" => Some("why (a reason)"),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(q: &str) -> QuestionKind {
        detect_kind(q, false).kind
    }

    #[test]
    fn count_cues_quantity_conditions_and_plain_text() {
        assert_eq!(
            kind("How many languages are spoken in Indonesia?"),
            QuestionKind::Count
        );
        assert_eq!(kind("number of moons of Jupiter"), QuestionKind::Count);
        assert_eq!(
            kind("stadiums with a capacity of more than 80000"),
            QuestionKind::Quantity
        );
        assert_eq!(kind("phones under $300"), QuestionKind::Quantity);
        assert_eq!(kind("history of the Rose Bowl"), QuestionKind::Search);
        assert_eq!(kind("How tall is the Eiffel Tower?"), QuestionKind::Value);
        // "How much" with a money word asks for an amount, not a count (issue 73).
        let fee = detect_kind("how much is the junior membership fee", false);
        assert_eq!(fee.kind, QuestionKind::Value);
        assert_eq!(fee.reason, "it asks how much money (“fee”)");
        assert_eq!(
            kind("how much did the Burj Khalifa cost"),
            QuestionKind::Value
        );
        let rain = detect_kind("how much rain fell in March", false);
        assert!(!rain.reason.contains("money"), "{}", rain.reason);
        assert_eq!(kind("capacity of Wembley Stadium"), QuestionKind::Value);
        // A condition on a value is a search, not a value question.
        assert_eq!(
            kind("buildings with a height of more than 300 m"),
            QuestionKind::Quantity
        );
        let decision = detect_kind("how heavy is the Statue of Liberty", false);
        assert_eq!(decision.reason, "it asks for one mass (“heavy”)");
        assert_eq!(
            kind("how large is Yellowstone National Park"),
            QuestionKind::Value
        );
        assert_eq!(kind("How big is the Pacific Ocean?"), QuestionKind::Value);
        let decision = detect_kind("when was the Rose Bowl founded", false);
        assert_eq!(decision.kind, QuestionKind::Search);
        assert!(decision
            .reason
            .starts_with("it asks when (a date), which Tally does not answer"));
        assert!(decision.reason.contains("how many moons does Jupiter have"));
        let decision = detect_kind("electric cars with range above 400 km", false);
        assert!(decision.reason.contains("400 km"), "{}", decision.reason);
    }

    #[test]
    fn stored_keyword_queries_are_count_questions() {
        assert_eq!(kind("songs by lennon"), QuestionKind::Search);
        let decision = detect_kind("songs by lennon", true);
        assert_eq!(decision.kind, QuestionKind::Count);
    }

    #[test]
    fn names_round_trip() {
        for k in [
            QuestionKind::Count,
            QuestionKind::Value,
            QuestionKind::Quantity,
            QuestionKind::Search,
        ] {
            assert_eq!(QuestionKind::parse(k.name()), Some(k));
        }
        assert_eq!(QuestionKind::parse("auto"), None);
    }
}
