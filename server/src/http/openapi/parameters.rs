//! The query parameters of the API's operations as the description lists them: each with its
//! range, names and default. The handlers read them through `QueryParams` (each given once) into
//! `Ask`; these types say what that reading accepts. The count settings' parameters are added
//! from `COUNT_SETTINGS` (see [`super::count_parameters`]).

use tally_types::choice::Choice;
use tally_types::{Mode, Ranker, SnippetSource, SortOrder};
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;
use utoipa::{IntoParams, PartialSchema, ToSchema};

/// Each query parameter that takes a choice described by the names of the type the handlers
/// read it into (its `Choice` names), so the description cannot list a name the server does not
/// accept: `Marker => Type` gives `Marker` the schema of `Type`'s names.
macro_rules! named_choices {
    ($($marker:ident => $choice:ty),+ $(,)?) => {$(
        #[doc = concat!("The names of `", stringify!($choice), "`, as a parameter's schema.")]
        pub(crate) struct $marker;

        impl PartialSchema for $marker {
            fn schema() -> RefOr<Schema> {
                let names = <$choice as Choice>::all().iter().map(|c| c.choice_name());
                names_schema(<$choice as Choice>::WHAT, names)
            }
        }

        impl ToSchema for $marker {}
    )+};
}

named_choices! {
    SnippetSourceNames => SnippetSource,
    ModeNames => Mode,
    RankerNames => Ranker,
    SortOrderNames => SortOrder,
}

/// The kinds `/api/search` answers: the [`Mode`]s that are a search.
pub(crate) struct SearchModeNames;

impl PartialSchema for SearchModeNames {
    fn schema() -> RefOr<Schema> {
        names_schema(
            "search mode",
            [Mode::Quantity, Mode::Search].map(Mode::name),
        )
    }
}

impl ToSchema for SearchModeNames {}

/// A string that is one of `names`.
fn names_schema<'a>(what: &str, names: impl IntoIterator<Item = &'a str>) -> RefOr<Schema> {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .description(Some(format!("A {what}, by its name.")))
        .enum_values(Some(names))
        .into()
}

/// The question every answering operation takes.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub(crate) struct QuestionQuery {
    /// The question: 1 to 500 characters, not only spaces.
    #[param(
        min_length = 1,
        max_length = 500,
        pattern = r"^[\s\S]*[^\s\x00-\x1f\x7f-\x9f][\s\S]*$"
    )]
    q: String,
}

/// The corpus a value question is asked of (`/api/value`).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub(crate) struct CorpusQuery {
    /// The corpus to answer from (`all` or absent: every corpus); an unknown corpus is a 400
    /// naming those there are.
    corpus: Option<String>,
}

/// Where a count question's snippets come from (`/api/count`, `/api/answer/stream`).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub(crate) struct SnippetQuery {
    /// Where a count question's snippets come from: `corpus` (the local snippet index) or `web`
    /// (fresh snippets from the web search the server is configured with, `--web-search`; stored
    /// as a snippet set that the answer names in `origin`, and reused for the same question
    /// within `--web-snippets-reuse-minutes`); `corpus` by default. `web` on a server without a
    /// web search is a 400. When the web search fails, the answer comes from the corpus and
    /// `origin.failure` says why.
    #[param(inline, value_type = Option<SnippetSourceNames>)]
    snippet_source: Option<SnippetSource>,
    /// A stored web snippet set (an answer's `origin.set_id`) to answer the same question from
    /// again, exactly as before, without searching; implies `snippet_source=web`. A set of another
    /// question, or none, is a 400.
    #[param(minimum = 1, maximum = 9223372036854775807_i64)]
    snippet_set: Option<i64>,
}

/// What `/api/search` answers.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub(crate) struct SearchModeQuery {
    /// `quantity` (the default) or `search` (text only).
    #[param(inline, value_type = Option<SearchModeNames>)]
    mode: Option<Mode>,
}

/// The kind a streamed question is asked as.
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub(crate) struct ModeQuery {
    /// `auto` (default: detected from the question), `count`, `value`, `quantity` or `search`.
    #[param(inline, value_type = Option<ModeNames>)]
    mode: Option<Mode>,
}

/// A quantity search's settings (`/api/search`, `/api/answer/stream`).
#[derive(IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub(crate) struct SearchSettingsQuery {
    /// The ranker (`learned` by default).
    #[param(inline, value_type = Option<RankerNames>)]
    ranker: Option<Ranker>,
    /// Weight α of the quantity score.
    #[param(minimum = 0, maximum = 100, default = 1.0)]
    alpha: Option<f64>,
    /// Results returned (capped at 1000).
    #[param(minimum = 1, default = 10)]
    k: Option<u32>,
    /// How results are ordered (`relevance` by default).
    #[param(inline, value_type = Option<SortOrderNames>)]
    sort: Option<SortOrder>,
}

/// The upload's form (`multipart/form-data`): the fields `POST /api/admin/corpora` reads.
#[derive(ToSchema)]
#[allow(dead_code)]
pub(crate) struct UploadForm {
    /// The corpus the documents go into: 1 to 40 lower-case letters, digits, `-` or `_` (not
    /// `all`).
    #[schema(pattern = r"^[a-z0-9_-]{1,40}$")]
    corpus: String,
    /// One or more files; each is read by its extension or, for a PDF, its first bytes.
    #[schema(value_type = Vec<String>, format = Binary)]
    file: Vec<Vec<u8>>,
    /// A format for every file (see `tally ingest --help`) instead of each file's own; the
    /// names are the readers' ([`super::build`] lists them).
    #[schema(nullable = false)]
    format: Option<String>,
    /// `add` (the default) or `replace`: replacing deletes the corpus's documents first.
    #[schema(nullable = false)]
    mode: Option<String>,
    /// The admin token, for a form that cannot send the header (before the files).
    #[schema(nullable = false)]
    token: Option<String>,
}
