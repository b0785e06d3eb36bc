//! Where a count answer's snippets came from: the local snippet index, or a web search whose
//! results were stored as a snippet set (so that the answer can be shown again exactly).

use serde::{Deserialize, Serialize};

/// The corpus setting's value for "every corpus" (so no corpus may have this name).
pub const ALL_CORPORA: &str = "all";

/// Where a count question's snippets are taken from (the `snippet_source` setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum SnippetSource {
    /// The local snippet index: the data sets' snippets and ingested documents.
    #[default]
    Corpus,
    /// A web search engine configured on the server (SearXNG or the Brave Search API).
    Web,
}

impl SnippetSource {
    /// Every value, in the order they are listed.
    pub const ALL: [SnippetSource; 2] = [SnippetSource::Corpus, SnippetSource::Web];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            SnippetSource::Corpus => "corpus",
            SnippetSource::Web => "web",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<SnippetSource> {
        SnippetSource::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// How a count question's snippets were found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Retrieval {
    /// The snippet set stored with a data set's question (as in the CoQEx demo).
    Prefetched,
    /// BM25's top snippets from the corpus.
    Bm25,
    /// A web search.
    Web,
    /// Given with the question (an evaluation's or a caller's own snippets).
    Given,
    /// No snippets: the answer was computed over a table's records (issue 74).
    Records,
}

impl Retrieval {
    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            Retrieval::Prefetched => "prefetched",
            Retrieval::Bm25 => "bm25",
            Retrieval::Web => "web",
            Retrieval::Given => "given",
            Retrieval::Records => "records",
        }
    }

    /// How the snippets were found, as the answer page says it.
    pub const fn in_words(self) -> &'static str {
        match self {
            Retrieval::Prefetched => "the data set's snippets for this question",
            Retrieval::Bm25 => "found by a word search of the corpus",
            Retrieval::Web => "found by a web search",
            Retrieval::Given => "the snippets given with the question",
            Retrieval::Records => "computed over the rows of a table in the corpus",
        }
    }
}

/// The snippets an answer used: their source and, for web snippets, the stored set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct SnippetOrigin {
    /// The source the snippets finally came from.
    pub source: SnippetSource,
    /// The web search provider that was asked (`searxng`, `brave`), if the web was asked.
    pub provider: Option<String>,
    /// The stored snippet set (its id in PostgreSQL); `None` when it could not be stored.
    pub set_id: Option<i64>,
    /// When the web snippets were fetched (RFC 3339).
    pub fetched_at: Option<String>,
    /// The set was fetched for an earlier asking of the same question and reused.
    pub reused: bool,
    /// Why the web source failed (the snippets then come from the corpus).
    pub failure: Option<String>,
}

/// The page a web snippet was taken from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct SnippetLink {
    /// The page's address.
    pub url: String,
    /// The page's title.
    pub title: String,
    /// The publication date the search engine gives, as it gives it (may be relative: "2 days ago").
    pub published: Option<String>,
}
