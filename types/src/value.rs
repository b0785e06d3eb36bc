//! A value answer ("how tall is …", "capacity of …"): the question as read, one consolidated
//! value in one unit, and every observation with its sentence and description. One serde type
//! for the engine that builds it, the API that serves it and (later) the pages.

use serde::{Deserialize, Serialize};

/// A value question as Tally reads it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ValueQuestion {
    /// The question as asked.
    pub text: String,
    /// Content words, lower case, question words left out.
    pub words: Vec<String>,
    /// The dimension the answer must have ("how tall" → length), if the question implies one.
    pub dimension: Option<String>,
    /// The word that implied it, to show why.
    pub dimension_cue: Option<String>,
    /// The unit asked for ("… in feet"), by unit-table id.
    pub unit: Option<String>,
    /// The year asked about ("revenue in 2019").
    pub year: Option<i32>,
}

/// What a quantity measures, as words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Description {
    /// The entity the corpus files the sentence under.
    pub entity: Option<String>,
    /// Content words near the quantity, lower case.
    pub concept: Vec<String>,
    /// The year of the quantity's clause, when it has one.
    pub year: Option<i32>,
    /// The unit's name ("metre", "dollar per share", "person"), when it has one.
    pub unit: Option<String>,
    /// The unit as written ("m", "users"), which may say more than its name.
    pub unit_written: Option<String>,
    /// The dimension the unit measures ("length"), when it has a unit.
    pub dimension: Option<String>,
}

/// How an observation relates to the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum ObservationGroup {
    /// Within the agreement distance of the answer.
    Agrees,
    /// Of the answer's kind but a different value (another part, another thing, an error).
    Differs,
    /// Not comparable: another unit kind, or another year than the one asked for.
    Apart,
}

impl ObservationGroup {
    /// Every value, in the order they are listed.
    pub const ALL: [ObservationGroup; 3] = [
        ObservationGroup::Agrees,
        ObservationGroup::Differs,
        ObservationGroup::Apart,
    ];

    /// Its name as serialized.
    pub const fn name(self) -> &'static str {
        match self {
            ObservationGroup::Agrees => "agrees",
            ObservationGroup::Differs => "differs",
            ObservationGroup::Apart => "apart",
        }
    }
}

/// One quantity of the corpus offered as evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ValueObservation {
    /// The sentence's id.
    pub sentence_id: String,
    /// The sentence.
    pub text: String,
    /// Where the sentence is: in a person's document its title, section path and place ("Fares
    /// 2025 › page 2", "sheet 'Fees', row 7", "slide 3"); in a data set, the entity it is filed
    /// under.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<String>,
    /// Character offsets of the quantity in `text`.
    pub start: usize,
    /// End of the quantity (character offset, exclusive).
    pub end: usize,
    /// As written.
    pub surface: String,
    /// The value in the answer's unit, when it converts.
    pub value: Option<f64>,
    /// What the quantity measures.
    pub description: Description,
    /// Retrieval score relative to the best observation (1 for the best).
    pub weight: f64,
    /// How it relates to the answer.
    pub group: ObservationGroup,
}

/// The answer to a value question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct ValueAnswer {
    /// The question as Tally read it.
    pub question: ValueQuestion,
    /// `None` when Tally abstains.
    pub value: Option<f64>,
    /// The unit of `value` and of every observation's value (none for bare numbers).
    pub unit: Option<String>,
    /// Its unit-table id (none for counted nouns such as "seat").
    pub unit_id: Option<String>,
    /// The observation nearest the answer, as written.
    pub representative: Option<String>,
    /// Why there is no answer, or what the answer could not honour (the year asked for).
    pub note: Option<String>,
    /// Every quantity offered as evidence.
    pub observations: Vec<ValueObservation>,
    /// The units the answer may be shown in, its own first (empty for bare numbers, counted
    /// nouns and currencies): the page's unit switch converts with them, without the engine.
    #[serde(default)]
    pub units: Vec<UnitChoice>,
    /// Why Tally is not sure of `value`: its [`ValueAnswer::support`] is below the calibrated
    /// bound. The page, the API and the CLI then say "not sure" with this reason and the closest
    /// evidence, not the value as an answer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_sure: Option<String>,
    /// How sure Tally is of `value`: its probability of being right and the bound below which
    /// it is "not sure" (`None` without a value, or for answers stored before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certainty: Option<crate::Certainty>,
}

impl ValueAnswer {
    /// The share of the observations' weight, among those in the answer's unit, that agrees
    /// with the answer (within 10%); `None` without a value or such observations.
    pub fn support(&self) -> Option<f64> {
        self.value?;
        let weight = |group: ObservationGroup| -> f64 {
            self.observations
                .iter()
                .filter(|o| o.group == group)
                .map(|o| o.weight)
                .sum()
        };
        let agrees = weight(ObservationGroup::Agrees);
        let all = agrees + weight(ObservationGroup::Differs);
        (all > 0.0).then(|| agrees / all)
    }
}

/// A unit a value may be shown in: the value in this unit is `value × scale + offset`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct UnitChoice {
    /// Its name ("foot").
    pub unit: String,
    /// Its unit-table id.
    pub unit_id: String,
    /// How it is written after a number ("m", "km/h", "°C"); none where people write the name
    /// (times: "3 days", not "3 d").
    #[serde(default)]
    pub symbol: Option<String>,
    /// A currency: written with its symbol before the number and in cents ("£4.50", "$320").
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub currency: bool,
    /// What a value in the answer's unit is multiplied by to give it in this unit.
    pub scale: f64,
    /// What is then added (temperatures: °C to °F).
    pub offset: f64,
}

impl UnitChoice {
    /// `value` (in the answer's unit) in this unit.
    pub fn convert(&self, value: f64) -> f64 {
        value * self.scale + self.offset
    }
}
