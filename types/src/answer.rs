//! An answer of either kind, as the engine returns it, the API serves it and the pages render
//! it. Tagged with its `type` (`count`, `value` or `search`); the API serves the body alone, untagged (see
//! [`AnswerBody::serialize_untagged`]).

use serde::{Deserialize, Serialize};

use crate::count::CountAnswer;
use crate::search::SearchResults;
use crate::value::ValueAnswer;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum AnswerBody {
    Count(Box<CountAnswer>),
    Value(Box<ValueAnswer>),
    Search(Box<SearchResults>),
}

impl AnswerBody {
    /// The answer itself, without its tag (for `#[serde(serialize_with)]`).
    pub fn serialize_untagged<S: serde::Serializer>(
        body: &AnswerBody,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match body {
            AnswerBody::Count(answer) => answer.serialize(serializer),
            AnswerBody::Value(answer) => answer.serialize(serializer),
            AnswerBody::Search(results) => results.serialize(serializer),
        }
    }
}
