//! An answer of either kind, as the engine returns it, the API serves it (untagged: the body is
//! the count answer or the search results themselves) and the pages render it.

use serde::{Deserialize, Serialize};

use crate::count::CountAnswer;
use crate::search::SearchResults;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AnswerBody {
    Count(Box<CountAnswer>),
    Search(Box<SearchResults>),
}
