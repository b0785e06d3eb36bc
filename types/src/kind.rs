//! The kinds of question Tally answers.

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum QuestionKind {
    Count,
    /// One value: "how tall is the Eiffel Tower".
    Value,
    Quantity,
    Search,
}

impl QuestionKind {
    pub const ALL: [QuestionKind; 4] = [
        QuestionKind::Count,
        QuestionKind::Value,
        QuestionKind::Quantity,
        QuestionKind::Search,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            QuestionKind::Count => "count",
            QuestionKind::Value => "value",
            QuestionKind::Quantity => "quantity",
            QuestionKind::Search => "search",
        }
    }

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
    #[default]
    Auto,
    Count,
    Value,
    Quantity,
    Search,
}

impl Mode {
    pub const ALL: [Mode; 5] = [
        Mode::Auto,
        Mode::Count,
        Mode::Value,
        Mode::Quantity,
        Mode::Search,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Mode::Auto => "auto",
            Mode::Count => QuestionKind::Count.name(),
            Mode::Value => QuestionKind::Value.name(),
            Mode::Quantity => QuestionKind::Quantity.name(),
            Mode::Search => QuestionKind::Search.name(),
        }
    }

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
