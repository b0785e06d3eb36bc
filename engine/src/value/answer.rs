//! One value from many observations: the top-ranked descriptions' values, converted to one unit
//! and consolidated as count answers are (confidence-weighted median by default), grouped by
//! whether they agree with the answer, with the year the question asks for preferred.

use serde::Serialize;
use tally_documents::DocumentsError;

use super::majority::{leading_groups, Group, Observed, Support};
use super::retrieve::{retrieve, Retrieved};
use super::subject_of;
use crate::count::consolidate::{consolidate, Scored};
use tally_documents::sentence_store::observations::{
    Observation, ObservationIndex, ScoredObservation,
};
use tally_text::offsets::char_offset;
use tally_text::units::choices::unit_choices;
use tally_text::{Unit, UnitTable};
use tally_types::value::ValueQuestion;
use tally_types::Strategy;
use tally_types::{Certainty, CertaintyMeasure};

/// How the answer's value is drawn from the usable observations.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub enum ValueRule {
    /// The confidence-weighted median of the first `consolidate` (CoQEx's consolidation, as
    /// count answers have it).
    Median,
    /// Of the first `consolidate`, the best-supported group of agreeing values
    /// (`leading_groups`); no answer when the best rival group has at least `contested` times
    /// its support (the sources disagree; `f64::INFINITY`: never).
    Majority {
        /// How many times the leading group's support a rival group needs to contest it.
        contested: f64,
    },
    /// Of the first `consolidate`, the group of agreeing values said by the most independent
    /// sentences (their weights break a tie); never contested.
    Agreement,
}

/// How many observations are ranked and how many are consolidated. Defaults are round numbers
/// chosen before any measurement, not tuned; the rule was chosen on the tuning half of the
/// Qsearch dev questions (`tally eval value` prints every rule's figures).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueSettings {
    /// How the answer is chosen from the observations.
    pub rule: ValueRule,
    /// How the median rule consolidates values.
    pub strategy: Strategy,
    /// Observations ranked and shown.
    pub top: usize,
    /// Of those, how many (of the answer's unit and year) are consolidated.
    pub consolidate: usize,
    /// Observations within this relative distance of the answer agree with it.
    pub agree_within: f64,
}

impl Default for ValueSettings {
    fn default() -> Self {
        ValueSettings {
            // Chosen on the Qsearch-derived tuning half and the everyday questions' tuning half
            // together (`tally eval value`: mean P/C 87.3 against the median's 86.7; the
            // uncontested weighted majority ties with it, and the tie goes to counting sentences).
            rule: ValueRule::Agreement,
            strategy: Strategy::WeightedMedian,
            top: 10,
            consolidate: 5,
            agree_within: 0.1,
        }
    }
}

pub(crate) use tally_types::value::{ObservationGroup, UnitChoice, ValueAnswer, ValueObservation};

/// Values a unit is offered for: a person's 2 m height is not offered as 0.001 mile, nor a
/// river's length in millions of feet.
const SENSIBLE: std::ops::RangeInclusive<f64> = 0.1..=1_000_000.0;

/// The answer's unit and the others of its dimension it may be shown in, for `value` (in the
/// answer's unit): the others only where the value reads well in them ([`SENSIBLE`]).
fn unit_choices_for(table: &UnitTable, unit: &Unit, value: f64) -> Vec<UnitChoice> {
    let mut choices = unit_choices(table, unit);
    let own = choices.first().map(|c| c.unit_id.clone());
    choices
        .retain(|c| Some(&c.unit_id) == own.as_ref() || SENSIBLE.contains(&c.convert(value).abs()));
    choices
}

/// The observed value in the unit of `target` (a table unit), or as is for counted nouns of
/// the same name.
fn in_unit(
    table: &UnitTable,
    value: f64,
    unit_id: Option<&str>,
    unit_name: Option<&str>,
    target: &Target,
) -> Option<f64> {
    match target {
        Target::Table(to) => {
            let from = table.get(unit_id?)?;
            table.convert(value, from, to).ok()
        }
        Target::Noun(name) => (unit_id.is_none() && unit_name == name.as_deref()).then_some(value),
    }
}

/// Four significant digits (whole numbers kept whole), as a person reads a measurement: notes
/// and `tally value` write values so.
pub fn significant(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return v.to_string();
    }
    let digits = 4 - (v.abs().log10().floor() as i32 + 1);
    let factor = 10f64.powi(digits.max(0));
    format!("{}", (v * factor).round() / factor)
}

/// The answer's unit: one of the table, or a counted noun (or none at all).
enum Target {
    Table(&'static Unit),
    Noun(Option<String>),
}

/// The answer's unit: the one asked for, else that of `lead` (the best usable observation).
fn target_unit(question: &ValueQuestion, table: &'static UnitTable, lead: &Observation) -> Target {
    if let Some(unit) = question.unit.as_deref().and_then(|id| table.get(id)) {
        return Target::Table(unit);
    }
    match lead.quantity.unit.as_ref() {
        Some(u) => match u.unit_id.as_deref().and_then(|id| table.get(id)) {
            Some(unit) if u.per.is_none() && u.dimension.as_deref() != Some("count") => {
                Target::Table(unit)
            }
            _ => Target::Noun(Some(u.name.clone())),
        },
        None => Target::Noun(None),
    }
}

/// The ranked observations as the answer shows them, and those the value is taken from.
struct Observations<'a> {
    shown: Vec<ValueObservation>,
    /// The usable observations' values in the target unit with their weights (at most
    /// `settings.consolidate`), for the median rule.
    scored: Vec<Scored>,
    /// The same, with their sentences, for the majority rule.
    pool: Vec<Observed<'a>>,
}

/// Each ranked observation in the target unit, weighted by its score over the best one's.
fn observe<'a>(
    ranked: &'a [ScoredObservation],
    table: &UnitTable,
    target: &Target,
    usable: &dyn Fn(&Observation) -> bool,
    settings: &ValueSettings,
    best_score: f64,
) -> Observations<'a> {
    let mut shown: Vec<ValueObservation> = Vec::with_capacity(ranked.len());
    let mut scored = Vec::new();
    let mut pool: Vec<Observed> = Vec::new();
    for r in ranked {
        let o = &r.observation;
        let q = &o.quantity;
        let middle = (q.value.low() + q.value.high()) / 2.0;
        let unit = q.unit.as_ref();
        let value = in_unit(
            table,
            middle,
            unit.and_then(|u| u.unit_id.as_deref()),
            unit.map(|u| u.name.as_str()),
            target,
        );
        let weight = if best_score > 0.0 {
            r.score / best_score
        } else {
            0.0
        };
        if let (Some(v), true) = (value, usable(o)) {
            if scored.len() < settings.consolidate {
                scored.push(Scored {
                    count: v,
                    confidence: weight,
                });
                pool.push(Observed {
                    value: v,
                    weight,
                    sentence: &o.text,
                });
            }
        }
        shown.push(ValueObservation {
            sentence_id: o.sentence_id.clone(),
            text: o.text.clone(),
            context: o.entity.clone(),
            start: char_offset(&o.text, q.span.start),
            end: char_offset(&o.text, q.span.end),
            surface: o.text.get(q.span.clone()).unwrap_or_default().to_string(),
            value,
            description: o.description.clone(),
            weight,
            group: ObservationGroup::Apart,
        });
    }
    Observations {
        shown,
        scored,
        pool,
    }
}

/// The note when the two leading groups of values are close in support.
fn disagreement(best: &Group, rival: &Group, unit: Option<&str>) -> String {
    let said = |g: &Group| {
        format!(
            "{}{} ({})",
            significant(g.value),
            unit.map(|u| format!(" {u}")).unwrap_or_default(),
            match g.sentences {
                1 => "1 sentence".to_string(),
                n => format!("{n} sentences"),
            }
        )
    };
    format!("the sources disagree: {} or {}", said(best), said(rival))
}

/// Marks each usable observation as agreeing with `value` or differing from it; the surface of
/// the one closest to `value` represents the answer.
fn group_around(
    observations: &mut [ValueObservation],
    ranked: &[ScoredObservation],
    usable: &dyn Fn(&Observation) -> bool,
    value: f64,
    agree_within: f64,
) -> Option<String> {
    let mut representative: Option<(f64, String)> = None;
    for (o, r) in observations.iter_mut().zip(ranked) {
        let Some(v) = o.value.filter(|_| usable(&r.observation)) else {
            continue;
        };
        let agrees = (v - value).abs() <= agree_within * value.abs().max(f64::EPSILON);
        o.group = if agrees {
            ObservationGroup::Agrees
        } else {
            ObservationGroup::Differs
        };
        let distance = (v - value).abs();
        if representative.as_ref().is_none_or(|(d, _)| distance < *d) {
            representative = Some((distance, o.surface.clone()));
        }
    }
    representative.map(|(_, surface)| surface)
}

/// Answers `question` from the observations of `index`.
pub fn answer(
    question: &ValueQuestion,
    index: &ObservationIndex,
    settings: &ValueSettings,
) -> Result<ValueAnswer, DocumentsError> {
    answer_in_corpus(question, index, settings, None)
}

/// Answers `question` from the observations of `index` that belong to `corpus` (`None`: every
/// corpus): a question about a person's own documents is answered from those documents only.
pub fn answer_in_corpus(
    question: &ValueQuestion,
    index: &ObservationIndex,
    settings: &ValueSettings,
    corpus: Option<&str>,
) -> Result<ValueAnswer, DocumentsError> {
    let table = UnitTable::builtin();
    let subject = subject_of(question);
    let Retrieved {
        matched,
        top: ranked,
    } = retrieve(question, index, settings.top, corpus)?;
    let abstain = |note: String| declined(question, note);
    if ranked.is_empty() && matched && !subject.is_empty() {
        return Ok(abstain(format!(
            "no sentence in the corpus gives this quantity for {}",
            subject.join(" ")
        )));
    }
    let Some(best) = ranked.first() else {
        let kind = question
            .dimension
            .as_ref()
            .map(|d| format!(" with a {d}"))
            .unwrap_or_default();
        return Ok(abstain(format!(
            "nothing in the corpus describes a quantity{kind} for these words"
        )));
    };
    let best_score = best.score;
    let of_year = |o: &Observation| question.year.is_none() || o.description.year == question.year;
    let note = match question.year {
        Some(y) if !ranked.iter().any(|r| of_year(&r.observation)) => Some(format!(
            "no observation is dated {y}; the answer is from other or undated ones"
        )),
        _ => None,
    };
    let usable = |o: &Observation| note.is_some() || of_year(o);
    // The answer's unit: the one asked for, else that of the best usable observation.
    let first_usable = ranked
        .iter()
        .find(|r| usable(&r.observation))
        .unwrap_or(best);
    let target = target_unit(question, table, &first_usable.observation);
    let Observations {
        shown: mut observations,
        scored,
        pool,
    } = observe(&ranked, table, &target, &usable, settings, best_score);
    let unit_name = match &target {
        Target::Table(u) => Some(u.name().to_string()),
        Target::Noun(name) => name.clone(),
    };
    let value = match settings.rule {
        ValueRule::Median => consolidate(&scored, settings.strategy),
        ValueRule::Agreement => leading_groups(&pool, settings.agree_within, Support::Sentences)
            .map(|(best, _)| best.value),
        ValueRule::Majority { contested } => {
            match leading_groups(&pool, settings.agree_within, Support::Weight) {
                Some((best, Some(rival))) if rival.support >= contested * best.support => {
                    let mut answer = abstain(disagreement(&best, &rival, unit_name.as_deref()));
                    answer.observations = observations;
                    answer.unit = unit_name;
                    return Ok(answer);
                }
                Some((best, _)) => Some(best.value),
                None => None,
            }
        }
    };
    let Some(value) = value else {
        return Ok(abstain("no observation converts to one unit".to_string()));
    };
    let representative = group_around(
        &mut observations,
        &ranked,
        &usable,
        value,
        settings.agree_within,
    );
    let mut answer = declined(question, String::new());
    answer.note = note;
    answer.representative = representative;
    answer.observations = observations;
    Ok(with_value(answer, value, &target, table))
}

/// A value answer that gives no value, saying why in its note.
fn declined(question: &ValueQuestion, note: String) -> ValueAnswer {
    ValueAnswer {
        question: question.clone(),
        value: None,
        unit: None,
        unit_id: None,
        representative: None,
        note: Some(note),
        observations: Vec::new(),
        units: Vec::new(),
        not_sure: None,
        certainty: None,
    }
}

/// `answer` giving `value` in the `target` unit, with the units it can be shown in, its
/// certainty (the observations' agreement) and whether it is shown as not sure.
fn with_value(
    mut answer: ValueAnswer,
    value: f64,
    target: &Target,
    table: &UnitTable,
) -> ValueAnswer {
    (answer.unit, answer.unit_id, answer.units) = match target {
        Target::Table(u) => (
            Some(u.name().to_string()),
            Some(u.id.clone()),
            unit_choices_for(table, u, value),
        ),
        Target::Noun(name) => (name.clone(), None, Vec::new()),
    };
    answer.value = Some(value);
    answer.certainty = answer.support().map(|probability| Certainty {
        probability,
        bound: SURE_FROM,
        measure: CertaintyMeasure::Agreement,
        reading: Some(value),
    });
    answer.not_sure = not_sure(&answer);
    answer
}

/// Support below which a value is shown as "not sure" rather than as the answer: chosen on the
/// own-documents collection's tuning half, the bound (in steps of 0.05) with the most right less
/// wrong answers, declines counting neither (`tally eval own-documents --value-supports FILE`;
/// 0.40: 27 against 4 with none, `docs/experiments.md`, issue 73).
pub(crate) const SURE_FROM: f64 = 0.4;

/// Why `answer` is not sure, when its support is below [`SURE_FROM`].
fn not_sure(answer: &ValueAnswer) -> Option<String> {
    let support = answer.support()?;
    let agreeing = answer
        .observations
        .iter()
        .filter(|o| o.group == ObservationGroup::Agrees)
        .count();
    let weighed = answer
        .observations
        .iter()
        .filter(|o| o.group != ObservationGroup::Apart)
        .count();
    let certainty = answer.certainty?;
    (support < SURE_FROM).then(|| {
        format!(
            "only {agreeing} of {weighed} observations agree with it: it is {}",
            certainty.sentence()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tally_documents::sentence_store::index::StoredSentence;
    use tally_text::quantity::extract_in_context;

    fn corpus(lines: &[(&str, &str)]) -> Vec<StoredSentence> {
        lines
            .iter()
            .enumerate()
            .map(|(i, (entity, text))| StoredSentence {
                id: format!("doc#{i}"),
                text: text.to_string(),
                source: "test".into(),
                entity: Some(entity.to_string()),
                quantities: extract_in_context(text),
            })
            .collect()
    }

    fn ask(sentences: &[StoredSentence], question: &str) -> ValueAnswer {
        let index = ObservationIndex::of_sentences(sentences).unwrap();
        answer(
            &super::super::parse_question(question),
            &index,
            &ValueSettings::default(),
        )
        .unwrap()
    }

    #[test]
    fn observations_in_several_units_consolidate_in_one() {
        let sentences = corpus(&[
            ("Eiffel Tower", "The Eiffel Tower is 330 metres tall."),
            (
                "Eiffel Tower",
                "At 1,083 feet tall, the Eiffel Tower dominated Paris.",
            ),
            (
                "Eiffel Tower",
                "The Eiffel Tower is 324 m tall without its antennas.",
            ),
            ("Eiffel Tower", "The Eiffel Tower weighs 10,100 tonnes."),
            ("Big Ben", "Big Ben's tower is 96 metres tall."),
        ]);
        let a = ask(&sentences, "How tall is the Eiffel Tower?");
        let v = a.value.expect("an answer");
        assert!((324.0..=331.0).contains(&v), "{a:?}");
        assert_eq!(a.unit.as_deref(), Some("metre"));
        // The weight is not a height; Big Ben is another thing and does not agree.
        assert!(a.observations.iter().all(|o| !o.surface.contains("tonnes")));
        let big_ben = a.observations.iter().find(|o| o.surface.contains("96"));
        assert!(big_ben.is_none_or(|o| o.group == ObservationGroup::Differs));
        // The unit asked for.
        let feet = ask(&sentences, "How tall is the Eiffel Tower in feet");
        assert!((1060.0..=1090.0).contains(&feet.value.unwrap()), "{feet:?}");
        assert_eq!(feet.unit.as_deref(), Some("foot"));
        // The unit switch: the answer's unit first, then others of its dimension.
        assert_eq!(a.units[0].unit_id, "metre");
        let in_feet = a.units.iter().find(|u| u.unit_id == "foot").unwrap();
        assert!((in_feet.convert(v) - v / 0.3048).abs() < 1e-6, "{a:?}");
        assert!(a.units.iter().all(|u| u.unit_id != "tonne"));
    }

    #[test]
    fn a_named_measure_must_be_said() {
        let sentences = corpus(&[
            ("Tesla", "The Model 3 costs buyers around $42,500."),
            ("Apple", "Deals include $550 off an Apple MacBook Pro."),
        ]);
        // The price of a Tesla is not its deliveries; a discount is not Apple's revenue.
        let a = ask(&sentences, "Tesla deliveries 2020");
        assert_eq!(a.value, None, "{a:?}");
        let a = ask(&sentences, "what was Apple's revenue in 2019");
        assert_eq!(a.value, None, "{a:?}");
        let sentences = corpus(&[("Tesla", "Tesla made about 499,550 deliveries in 2020.")]);
        let a = ask(&sentences, "Tesla deliveries 2020");
        assert_eq!(a.value, Some(499_550.0), "{a:?}");
    }

    #[test]
    fn the_majority_rule_answers_with_the_agreeing_group_or_says_the_sources_disagree() {
        let sentences = corpus(&[
            ("marathon", "A marathon stage is 16 miles long."),
            ("marathon", "A marathon is 26.2 miles long."),
            ("marathon", "The marathon is a long race of 26.2 miles."),
            (
                "marathon",
                "Runners of the marathon cover a long 26.2 miles.",
            ),
        ]);
        let question = super::super::parse_question("how long is a marathon");
        let index = ObservationIndex::of_sentences(&sentences).unwrap();
        let with = |rule| {
            let settings = ValueSettings {
                rule,
                ..ValueSettings::default()
            };
            answer(&question, &index, &settings).unwrap()
        };
        let a = with(ValueRule::Majority {
            contested: f64::INFINITY,
        });
        assert_eq!(a.unit.as_deref(), Some("mile"), "{a:?}");
        assert!((a.value.unwrap() - 26.2).abs() < 1e-9, "{a:?}");
        // A rival with a tenth of the support contests it: no value, both groups said.
        let a = with(ValueRule::Majority { contested: 0.1 });
        assert_eq!(a.value, None);
        let note = a.note.unwrap();
        assert_eq!(
            note,
            "the sources disagree: 26.2 mile (3 sentences) or 16 mile (1 sentence)"
        );
        assert_eq!(a.observations.len(), 4, "the evidence stays");
    }

    #[test]
    fn by_default_agreeing_sentences_beat_a_confident_outlier() {
        // The outlier is ranked first (it names the measure outright); three sentences agree.
        let sentences = corpus(&[
            (
                "Harbour Bridge",
                "The Harbour Bridge is 1,149 metres long, the guide says.",
            ),
            ("Harbour Bridge", "The Harbour Bridge spans 503 metres."),
            (
                "Harbour Bridge",
                "Its arch, the Harbour Bridge, is 503 m across.",
            ),
            (
                "Harbour Bridge",
                "Walkers cross the 503-metre Harbour Bridge.",
            ),
        ]);
        let question = super::super::parse_question("how long is the Harbour Bridge");
        let index = ObservationIndex::of_sentences(&sentences).unwrap();
        let a = answer(&question, &index, &ValueSettings::default()).unwrap();
        assert_eq!(a.unit.as_deref(), Some("metre"), "{a:?}");
        assert!((a.value.unwrap() - 503.0).abs() < 1e-9, "{a:?}");
    }

    #[test]
    fn units_are_offered_only_where_the_value_reads_well() {
        let table = UnitTable::builtin();
        let metre = table.get("metre").unwrap();
        let height: Vec<String> = unit_choices_for(table, metre, 2.01)
            .into_iter()
            .map(|c| c.unit_id)
            .collect();
        assert_eq!(height, ["metre", "foot"], "no 0.002 km, no 0.001 mile");
        let river: Vec<String> = unit_choices_for(table, metre, 2_850_000.0)
            .into_iter()
            .map(|c| c.unit_id)
            .collect();
        assert_eq!(river, ["metre", "kilometre", "mile"], "no 9 million feet");
    }

    #[test]
    fn the_year_asked_for_is_preferred_and_its_absence_said() {
        let sentences = corpus(&[
            ("Apple", "Apple's revenue was $265 billion in 2018."),
            ("Apple", "In 2019 Apple's revenue was $260 billion."),
        ]);
        let a = ask(&sentences, "What was Apple's revenue in 2019?");
        assert_eq!(a.value, Some(260e9), "{a:?}");
        assert_eq!(a.note, None);
        // Currencies never convert: their own unit only, written with its sign first.
        assert_eq!(a.units.len(), 1, "{:?}", a.units);
        assert!(a.units[0].currency && a.units[0].symbol.as_deref() == Some("$"));
        let a = ask(&sentences, "What was Apple's revenue in 2020?");
        assert!(a.value.is_some());
        assert!(a
            .note
            .as_deref()
            .unwrap()
            .contains("no observation is dated 2020"));
    }

    #[test]
    fn a_named_entity_keeps_other_entities_out() {
        let sentences = corpus(&[
            (
                "Eiffel Tower",
                "The tall Eiffel Tower is 330 metres tall, a tall tower.",
            ),
            ("Big Ben", "Big Ben is 96 metres tall."),
            ("Blackpool Tower", "Blackpool Tower is 158 metres tall."),
        ]);
        let a = ask(&sentences, "How tall is Big Ben?");
        assert_eq!(a.value, Some(96.0), "{a:?}");
        assert!(a
            .observations
            .iter()
            .all(|o| o.description.entity.as_deref() == Some("Big Ben")));
        // Without an entity of the corpus in the question, every sentence naming
        // its topic ("tower") is a candidate, and only those.
        let a = ask(&sentences, "How tall is the tower?");
        let mut entities: Vec<_> = a
            .observations
            .iter()
            .filter_map(|o| o.description.entity.as_deref())
            .collect();
        entities.sort_unstable();
        assert_eq!(entities, ["Blackpool Tower", "Eiffel Tower"], "{a:?}");
    }

    #[test]
    fn a_number_near_the_subject_about_something_else_is_no_answer() {
        // No entity metadata: the sentences only mention the stadium.
        let sentences: Vec<StoredSentence> = corpus(&[
            ("", "Queen played a 20-minute set at Wembley Stadium."),
            ("", "The Rose Bowl has a capacity of 92,542."),
        ])
        .into_iter()
        .map(|s| StoredSentence { entity: None, ..s })
        .collect();
        let a = ask(&sentences, "capacity of Wembley Stadium");
        assert_eq!(a.value, None, "{a:?}");
        assert!(a.note.unwrap().contains("wembley stadium"));
        let a = ask(&sentences, "capacity of the Rose Bowl");
        assert_eq!(a.value, Some(92542.0));
        // A well-matched height of something else is no answer either.
        let sentences = corpus(&[("", "It is 4,169m tall!")]);
        assert_eq!(ask(&sentences, "How tall is the Eiffel Tower?").value, None);
    }

    #[test]
    fn nothing_described_means_no_answer() {
        let sentences = corpus(&[("Danube", "The Danube is 2,850 km long.")]);
        let a = ask(&sentences, "How much did the Danube cost?");
        assert_eq!(a.value, None);
        assert!(a.note.unwrap().contains("nothing in the corpus"));
    }
}
