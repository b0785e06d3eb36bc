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
    pub const fn name(self) -> &'static str {
        match self {
            QuestionKind::Count => "count",
            QuestionKind::Value => "value",
            QuestionKind::Quantity => "quantity",
            QuestionKind::Search => "search",
        }
    }

    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "count" => Some(QuestionKind::Count),
            "value" => Some(QuestionKind::Value),
            "quantity" => Some(QuestionKind::Quantity),
            "search" => Some(QuestionKind::Search),
            _ => None,
        }
    }
}
