//! The kinds of question Tally answers.

use serde::{Deserialize, Serialize};

/// The kind of a question, which says how it is answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum QuestionKind {
    /// How many: "how many moons does Jupiter have".
    Count,
    /// One value: "how tall is the Eiffel Tower".
    Value,
    /// A quantity search: sentences with a quantity that meets a condition ("phones with a
    /// battery above 4000 mAh").
    Quantity,
    /// A text search for the question's words (it asks for no count, value or quantity condition).
    Search,
}

impl QuestionKind {
    /// Every value, in the order they are listed.
    pub const ALL: [QuestionKind; 4] = [
        QuestionKind::Count,
        QuestionKind::Value,
        QuestionKind::Quantity,
        QuestionKind::Search,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            QuestionKind::Count => "count",
            QuestionKind::Value => "value",
            QuestionKind::Quantity => "quantity",
            QuestionKind::Search => "search",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.name() == name)
    }
}

/// How a question is to be answered: as the kind Tally detects from it (`auto`), or as the kind
/// the person chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The kind Tally detects from the question.
    #[default]
    Auto,
    /// Answered as a count question.
    Count,
    /// Answered as a value question.
    Value,
    /// Answered as a quantity search.
    Quantity,
    /// Answered as a search.
    Search,
}

impl Mode {
    /// Every value, in the order they are listed.
    pub const ALL: [Mode; 5] = [
        Mode::Auto,
        Mode::Count,
        Mode::Value,
        Mode::Quantity,
        Mode::Search,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::Count => QuestionKind::Count.name(),
            Mode::Value => QuestionKind::Value.name(),
            Mode::Quantity => QuestionKind::Quantity.name(),
            Mode::Search => QuestionKind::Search.name(),
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.name() == name)
    }

    /// The kind the person chose; `None` when Tally is to detect it.
    pub const fn chosen_kind(self) -> Option<QuestionKind> {
        match self {
            Mode::Auto => None,
            Mode::Count => Some(QuestionKind::Count),
            Mode::Value => Some(QuestionKind::Value),
            Mode::Quantity => Some(QuestionKind::Quantity),
            Mode::Search => Some(QuestionKind::Search),
        }
    }
}

impl From<QuestionKind> for Mode {
    fn from(kind: QuestionKind) -> Self {
        match kind {
            QuestionKind::Count => Mode::Count,
            QuestionKind::Value => Mode::Value,
            QuestionKind::Quantity => Mode::Quantity,
            QuestionKind::Search => Mode::Search,
        }
    }
}
