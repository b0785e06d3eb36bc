//! What feedback is about and what it says: the part of an answer judged, the verdict, and the
//! group a CNP is moved to. The page's buttons, the API's JSON and the stored rows use these
//! names (the migration's CHECK lists them once more, for the database).

use serde::{Deserialize, Serialize};

/// The largest corrected count accepted (10^15): every whole number up to it is exact in an f64
/// (up to 2^53), and no count a person corrects comes near it (1e300 was stored and shown as
/// 18,446,744,073,709,551,615).
pub const MAX_CORRECTED_COUNT: f64 = 1e15;

/// Which part of an answer feedback is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum FeedbackPart {
    /// The whole answer (a count or a value).
    Answer,
    /// One counted noun phrase and its group.
    Cnp,
    /// One instance of a count answer.
    Instance,
    /// One result of a quantity search or search.
    SearchResult,
    /// One observation of a value answer.
    Observation,
    /// The app in general, not one answer.
    General,
}

impl FeedbackPart {
    /// Every value, in the order they are listed.
    pub const ALL: [FeedbackPart; 6] = [
        FeedbackPart::Answer,
        FeedbackPart::Cnp,
        FeedbackPart::Instance,
        FeedbackPart::SearchResult,
        FeedbackPart::Observation,
        FeedbackPart::General,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            FeedbackPart::Answer => "answer",
            FeedbackPart::Cnp => "cnp",
            FeedbackPart::Instance => "instance",
            FeedbackPart::SearchResult => "search_result",
            FeedbackPart::Observation => "observation",
            FeedbackPart::General => "general",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The verdicts that apply to this part.
    pub const fn verdicts(self) -> &'static [Verdict] {
        match self {
            FeedbackPart::Answer | FeedbackPart::General => &[Verdict::Correct, Verdict::Wrong],
            FeedbackPart::Cnp => &[Verdict::Correct, Verdict::Wrong, Verdict::Moved],
            FeedbackPart::Instance | FeedbackPart::SearchResult | FeedbackPart::Observation => {
                &[Verdict::Relevant, Verdict::NotRelevant]
            }
        }
    }

    /// Whether feedback on this part names which one of the answer it is (`part_ref`).
    pub const fn needs_ref(self) -> bool {
        matches!(
            self,
            FeedbackPart::Cnp
                | FeedbackPart::Instance
                | FeedbackPart::SearchResult
                | FeedbackPart::Observation
        )
    }
}

/// What a person says about the part.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// The answer (or the app) is right.
    Correct,
    /// The answer (or the app) is wrong.
    Wrong,
    /// The instance, result or observation belongs in the answer.
    Relevant,
    /// The instance, result or observation does not belong in the answer.
    NotRelevant,
    /// The CNP belongs in another group (named by `moved_to`).
    Moved,
}

impl Verdict {
    /// Every value, in the order they are listed.
    pub const ALL: [Verdict; 5] = [
        Verdict::Correct,
        Verdict::Wrong,
        Verdict::Relevant,
        Verdict::NotRelevant,
        Verdict::Moved,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Correct => "correct",
            Verdict::Wrong => "wrong",
            Verdict::Relevant => "relevant",
            Verdict::NotRelevant => "not_relevant",
            Verdict::Moved => "moved",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }
}

/// The CNP group a CNP is moved to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum CnpGroup {
    /// Count phrases that count the same thing.
    Synonyms,
    /// Count phrases that count a part of it.
    Subgroups,
    /// Count phrases that count something else.
    Incomparables,
}

impl CnpGroup {
    /// Every value, in the order they are listed.
    pub const ALL: [CnpGroup; 3] = [
        CnpGroup::Synonyms,
        CnpGroup::Subgroups,
        CnpGroup::Incomparables,
    ];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            CnpGroup::Synonyms => "synonyms",
            CnpGroup::Subgroups => "subgroups",
            CnpGroup::Incomparables => "incomparables",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|g| g.name() == name)
    }
}

/// What the operator decided about a piece of feedback in the review queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// The judgment is right: a correction answers its question from now on (a verified
    /// answer), and every accepted judgment is training data for `tally train`.
    Accepted,
    /// The judgment is wrong: nothing comes of it.
    Rejected,
}

impl Decision {
    /// Every value, in the order they are listed.
    pub const ALL: [Decision; 2] = [Decision::Accepted, Decision::Rejected];

    /// The value's one name: the one it parses from, prints as and is serialised as.
    pub const fn name(self) -> &'static str {
        match self {
            Decision::Accepted => "accepted",
            Decision::Rejected => "rejected",
        }
    }

    /// The value a name stands for, or `None` for an unknown name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|d| d.name() == name)
    }
}

/// A count or value the operator accepted for a question (a visitor's correction, or Tally's own
/// answer confirmed): it answers the question first, on every server, beside Tally's own
/// reading, until a later acceptance replaces it or the operator withdraws it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct VerifiedAnswer {
    /// Its id, for withdrawing it (`DELETE /api/admin/verified/{id}`).
    pub id: i64,
    /// The count, or the value in `unit`.
    pub count: f64,
    /// A value's unit (none for a count), as the value page writes units.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<crate::value::UnitChoice>,
    /// When the operator accepted it (RFC 3339).
    pub accepted_at: String,
    /// The feedback accepted and the answer it judged: that answer's snippets are the evidence
    /// the person pointed at.
    pub feedback_id: i64,
    /// The id of the answer it judged.
    pub answer_id: i64,
    /// Tally's own count in the answer that was judged, when it gave one.
    pub tally_count: Option<f64>,
    /// What the operator wrote on accepting it (never a visitor's comment: it is shown to
    /// everyone who asks).
    pub note: Option<String>,
    /// The corpus the judged answer read ([`crate::count::ALL_CORPORA`]: every corpus); the
    /// verified answer holds for the question over this corpus only.
    pub corpus: String,
}

/// One thing people said about one part of a question's answers, not yet reviewed: the same
/// verdict (and correction, and group) on the same part, by one or more visitors. What the
/// review queue lists (`GET /api/admin/review`, the page `/admin/review`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Opinion {
    /// The part of the answer judged.
    pub part: FeedbackPart,
    /// Which part (an instance's name, a CNP, a search result's id).
    pub part_ref: Option<String>,
    /// What was said about it.
    pub verdict: Verdict,
    /// The corrected count or value, when one was given.
    pub corrected_value: Option<f64>,
    /// The unit of a corrected value (none for a count).
    #[serde(default)]
    pub corrected_unit: Option<crate::value::UnitChoice>,
    /// The group the CNP is moved to (for the verdict `moved`).
    pub moved_to: Option<CnpGroup>,
    /// Visitors who said it (feedback without a visitor cookie counts once per address); no
    /// visitor id leaves the database.
    pub visitors: i64,
    /// How many feedback rows say it.
    pub rows: i64,
    /// The first of the feedback rows saying it, oldest first (at most the page's bound):
    /// decide on any one of them.
    pub feedback_ids: Vec<i64>,
    /// The first of their comments (at most the page's bound), and how many there are.
    pub comments: Vec<String>,
    /// How many comments there are.
    pub comment_count: i64,
    /// The latest answer judged, and Tally's count (or value) in it.
    pub answer_id: i64,
    /// Tally's count (or value) in that answer.
    pub tally_count: Option<f64>,
    /// The unit of Tally's value (none for a count).
    #[serde(default)]
    pub tally_unit: Option<crate::value::UnitChoice>,
    /// For a corrected count: how many snippets of that answer state it (the evidence the
    /// operator checks first).
    pub stated_in_snippets: Option<i64>,
    /// When it was first said (RFC 3339).
    pub first_at: String,
    /// When it was last said (RFC 3339).
    pub last_at: String,
}

/// A question in the review queue: what people said about its answers, and its current
/// verified answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct QueuedQuestion {
    /// The question as asked.
    pub question: String,
    /// What people said about its answers.
    pub opinions: Vec<Opinion>,
    /// Its current verified answer, if any.
    pub verified: Option<VerifiedAnswer>,
}

/// A verified answer with its question and who accepted (and withdrew or replaced) it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct VerifiedRecord {
    /// The question as asked.
    pub question: String,
    /// The key the question is known by ([`crate::request::question_key`]).
    pub question_key: String,
    /// The verified answer.
    #[serde(flatten)]
    pub answer: VerifiedAnswer,
    /// Who accepted it.
    pub accepted_by: String,
    /// Who withdrew it (or replaced it with a later acceptance); `None` while it holds.
    pub withdrawn_by: Option<String>,
    /// When it was withdrawn or replaced (RFC 3339).
    pub withdrawn_at: Option<String>,
}

/// What the review page shows: one page of the queue and the verified answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
pub struct Review {
    /// The questions of this page of the queue.
    pub queue: Vec<QueuedQuestion>,
    /// The verified answers.
    pub verified: Vec<VerifiedRecord>,
    /// Which page of the queue (from 0), and whether another follows.
    pub page: u32,
    /// Whether another page of the queue follows.
    pub more: bool,
}
