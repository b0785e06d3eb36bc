//! How a configured web search stands, as the status panel and `/api/health` report it.

use serde::{Deserialize, Serialize};

/// How a configured web search stands: unused, working or failing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum WebSearchState {
    /// No search yet since the server started.
    Unused,
    /// The last search succeeded.
    Ok,
    /// The last search failed (its error is reported beside).
    Failing,
}

impl WebSearchState {
    /// Every value, in the order they are listed.
    pub const ALL: [WebSearchState; 3] = [
        WebSearchState::Unused,
        WebSearchState::Ok,
        WebSearchState::Failing,
    ];

    /// The state after the searches so far: whether there was one, and whether the last failed.
    pub fn after(searched: bool, last_failed: bool) -> Self {
        match (searched, last_failed) {
            (false, _) => WebSearchState::Unused,
            (true, false) => WebSearchState::Ok,
            (true, true) => WebSearchState::Failing,
        }
    }

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            WebSearchState::Unused => "unused",
            WebSearchState::Ok => "ok",
            WebSearchState::Failing => "failing",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// One web search result: the page and the text the search engine shows for it (kept with a
/// question's snippet set).
#[derive(Debug, Clone, PartialEq)]
pub struct WebResult {
    /// The page's address.
    pub url: String,
    /// The page's title.
    pub title: String,
    /// Plain text (tags and entities removed).
    pub text: String,
    /// The publication date as the engine gives it (ISO date, or relative: "2 days ago").
    pub published: Option<String>,
}
