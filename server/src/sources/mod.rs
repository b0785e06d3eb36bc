//! Where a count question's snippets come from besides the local index (which the answer
//! decision reads itself, `tally_answer::LocalIndex`): a web search ([`WebSource`]: SearXNG or
//! the Brave Search API), given to the decision as its `WebSnippets`. When the web search
//! fails, the local index answers instead and the answer says why.

mod web;

pub(crate) use web::{WebOnRuntime, WebSource};
