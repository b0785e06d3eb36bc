//! What the pages send and show, as plain serde types that compile for the browser too: the
//! answer with where it is stored (the answer itself is `tally-types`' [`AnswerBody`], the
//! engine's own type), feedback, history, examples, and the settings panel's choices. The
//! question with its settings is `tally-types`' [`tally_types::request`].

use serde::{Deserialize, Serialize};
use tally_types::StoredAnswer;
use tally_types::{FeedbackPart, Mode, Ranker, SortOrder, Verdict};

// The request vocabulary, for the pages' convenience (its home is `tally_types::request`).
pub use tally_types::request::{
    clean_text, encode, Ask, Settings, ALL_CORPORA, MAX_QUESTION_CHARS, QUESTION_PARAMETERS,
    SEARCH_PARAMETERS,
};

/// Cookie holding the person's theme (`light` or `dark`; absent: follow the system).
pub const THEME_COOKIE: &str = "tally_theme";
/// Cookie holding the settings of the person's last question that differ from the defaults, as
/// a URL query; the home page starts from them.
pub const SETTINGS_COOKIE: &str = "tally_settings";

/// The home page's parameter naming the corpus the person asked last that is no longer held
/// (deleted since): the server forgets it from the settings cookie and the page says so.
pub const GONE_CORPUS: &str = "corpus_gone";

/// Cookie set by the admin login form (`POST /admin/login`): a digest standing for the admin
/// token, so that the admin pages need no token in their URLs. HttpOnly, SameSite=Strict.
pub const ADMIN_COOKIE: &str = "tally_admin";

/// Where a login or logout goes back to: `next` when it is a path of this site (an absolute
/// path, not `//host` nor a scheme, no backslash or control character, which browsers may read
/// as another origin), else the corpus pages. Used by the server's login and the login form.
pub fn login_return(next: &str) -> &str {
    let local = next.starts_with('/')
        && !next.starts_with("//")
        && next.len() <= 2048
        && !next.chars().any(|c| c == '\\' || c.is_control());
    if local {
        next
    } else {
        "/admin"
    }
}

/// Cookie holding the visitor's anonymous random id: their history lists the questions asked
/// with it.
pub const VISITOR_COOKIE: &str = "tally_visitor";

/// Which pipeline answers: chosen from the question (`auto`) or by the person asking.
pub const MODES: [(Mode, &str); 5] = [
    (Mode::Auto, "Detect"),
    (Mode::Count, "Count question"),
    (Mode::Value, "Value question"),
    (Mode::Quantity, "Quantity condition"),
    (Mode::Search, "Plain search"),
];

/// The search panel's rankers, in the order shown (the default first).
pub const RANKERS: [Ranker; 6] = [
    Ranker::Learned,
    Ranker::Dense,
    Ranker::Qbm25,
    Ranker::Bm25Filter,
    Ranker::Bm25,
    Ranker::Entity,
];
/// The search panel's sort orders with their labels, in the order shown.
pub const SORTS: [(SortOrder, &str); 3] = [
    (SortOrder::Relevance, "Relevance"),
    (SortOrder::ValueAscending, "Value ↑"),
    (SortOrder::ValueDescending, "Value ↓"),
];

/// An answer as the page receives it: the JSON API's reply (the answer with where it is
/// stored) with the question as asked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Answered {
    /// The question as asked.
    pub ask: Ask,
    /// Random per answer: feedback tokens derive from it, so a re-sent form is stored once.
    pub feedback_key: String,
    /// The answer with where it is stored.
    #[serde(flatten)]
    pub stored: StoredAnswer,
}

// ---- feedback, history, examples ----

/// Feedback from a form on the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeedbackForm {
    /// The answer the feedback is on.
    pub answer_id: i64,
    /// The part of the answer judged.
    pub part: FeedbackPart,
    /// Which item of that part, when it has several.
    pub part_ref: Option<String>,
    /// The person's verdict.
    pub verdict: Verdict,
    /// The value as corrected, when given.
    pub corrected_value: Option<String>,
    /// The unit of a corrected value, as the person writes it ("£", "m", "minutes"); none for a
    /// count.
    #[serde(default)]
    pub corrected_unit: Option<String>,
    /// A [`tally_types::CnpGroup`]'s name; empty: none (the select's first option).
    pub moved_to: Option<String>,
    /// A free comment, when given.
    pub comment: Option<String>,
    /// The answer's feedback key; with part, part_ref and verdict it makes the idempotency token.
    pub key: String,
}

/// Stored feedback's id and whether it is new.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeedbackSaved {
    /// The feedback's id.
    pub id: i64,
    /// False when the same submission had been stored before.
    pub created: bool,
}

/// A stored question with a one-line summary of its latest answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HistoryItem {
    /// The question's id.
    pub question_id: i64,
    /// The question's text.
    pub text: String,
    /// The question's kind.
    pub kind: String,
    /// When it was asked.
    pub asked_at: String,
    /// A one-line summary of its latest answer, as its page shows it.
    pub summary: String,
    /// The corpus it was asked over; `None`: every corpus.
    #[serde(default)]
    pub corpus: Option<String>,
    /// How many feedback entries it has.
    pub feedback: i64,
    /// The page that shows it.
    pub url: String,
}

/// What the question box offers: questions to click, the corpora to choose from and the web
/// search, when the server has one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct AskOptions {
    /// Count questions to click.
    pub count: Vec<String>,
    /// Value questions to click.
    #[serde(default)]
    pub value: Vec<String>,
    /// Quantity questions to click.
    pub quantity: Vec<String>,
    /// The corpora of the snippet index, for the corpus setting.
    #[serde(default)]
    pub corpora: Vec<String>,
    /// The web search provider configured on the server (`searxng`, `brave`), if any: then the
    /// settings offer "Snippets: corpus / web".
    #[serde(default)]
    pub web_search: Option<String>,
}

/// One operation of the JSON API as its generated description gives it: what the API page
/// lists (issue 101: the header's "API" opened the raw description).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApiOperation {
    /// The HTTP method, in capitals ("GET").
    pub method: String,
    /// The path, with its `{parameters}` ("/api/admin/jobs/{id}").
    pub path: String,
    /// What it does, in one line.
    pub summary: String,
    /// What it does, in full.
    pub description: String,
    /// Its parameters, in the description's order.
    pub parameters: Vec<ApiParameter>,
}

/// One parameter of an [`ApiOperation`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ApiParameter {
    /// Its name.
    pub name: String,
    /// Where it goes: `query`, `path` or `header`.
    pub place: String,
    /// Whether a request must give it.
    pub required: bool,
    /// What it means.
    pub description: String,
}
