//! An answer of either kind, as the engine returns it, the API serves it and the pages render
//! it. Tagged with its `type` (`count`, `value` or `search`); the API serves the body alone, untagged (see
//! [`AnswerBody::serialize_untagged`]).

use serde::{Deserialize, Serialize};

use crate::count::{CountAnswer, SnippetOrigin};
use crate::kind::QuestionKind;
use crate::search::SearchResults;
use crate::value::ValueAnswer;

/// An answer's body, tagged with its kind (`count`, `value` or `search`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum AnswerBody {
    /// A count answer.
    Count(Box<CountAnswer>),
    /// A value answer.
    Value(Box<ValueAnswer>),
    /// Quantity or search results.
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

/// An answer's body as the API serves it: without its tag (`kind` says which it is).
#[cfg(feature = "json-schema")]
#[derive(schemars::JsonSchema)]
#[serde(untagged)]
#[allow(dead_code)]
enum UntaggedBody {
    Count(Box<CountAnswer>),
    Value(Box<ValueAnswer>),
    Search(Box<SearchResults>),
}

/// An answer with the kind that produced it: what every entry point gives (the page, the
/// answer stream, the JSON API and `tally ask`). On the wire its body is untagged under
/// `answer`; `kind` says how to read it.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Answer {
    /// The kind of question the answer is for; says how to read `answer`.
    pub kind: QuestionKind,
    /// Why that kind ("it asks how many languages"), or that the person chose it.
    pub kind_reason: String,
    /// Whether the person chose the kind (rather than Tally detecting it).
    pub chosen_by_user: bool,
    /// The answer itself, serialised without its tag.
    #[serde(serialize_with = "AnswerBody::serialize_untagged")]
    #[cfg_attr(feature = "json-schema", schemars(with = "UntaggedBody"))]
    pub answer: AnswerBody,
    /// What it was asked over and where its evidence comes from (`None` in answers stored
    /// before it existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<Scope>,
    /// The question with its misspelt words spelt as the corpus spells them, when the answer
    /// gives nothing sure and a word of the question is not in the corpus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub did_you_mean: Option<String>,
}

/// Where an answer's evidence comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum EvidenceSource {
    /// Documents uploaded to a corpus.
    Documents,
    /// The built-in corpus (the data sets' snippets and sentences).
    BuiltIn,
    /// Snippets taken from the web.
    Web,
    /// Both documents and the built-in corpus.
    Mixed,
}

impl EvidenceSource {
    /// The source in words ("the built-in corpus").
    pub fn in_words(self) -> &'static str {
        match self {
            EvidenceSource::Documents => "documents",
            EvidenceSource::BuiltIn => "the built-in corpus",
            EvidenceSource::Web => "the web",
            EvidenceSource::Mixed => "documents and the built-in corpus",
        }
    }
}

/// What an answer was asked over, as every entry point says it (issue 87): the page's scope
/// line, the API's `scope`, `tally ask`'s first line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct Scope {
    /// The corpus asked; `None`: every corpus.
    pub corpus: Option<String>,
    /// The web search provider, when the snippets were taken from the web.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub web: Option<String>,
    /// Where the evidence the answer rests on comes from (`None`: no evidence found).
    pub evidence: Option<EvidenceSource>,
}

impl Scope {
    /// What was asked over, in words: "the documents of “clubs”", "all corpora", "web
    /// snippets (searxng)".
    pub fn asked(&self) -> String {
        match (&self.web, &self.corpus) {
            (Some(provider), _) => format!("web snippets ({provider})"),
            (None, Some(corpus)) => format!("the documents of “{corpus}”"),
            (None, None) => "all corpora".to_string(),
        }
    }

    /// The scope line: "Asked over all corpora; the answer rests on the built-in corpus."
    pub fn sentence(&self) -> String {
        let rests = match (self.evidence, &self.corpus, &self.web) {
            (None, _, _) => String::new(),
            // Asked over one corpus of documents, the evidence is from it: said once.
            (Some(EvidenceSource::Documents), Some(_), None) => String::new(),
            (Some(EvidenceSource::Web), _, Some(_)) => String::new(),
            (Some(source), _, _) => format!("; the answer rests on {}", source.in_words()),
        };
        format!("Asked over {}{rests}.", self.asked())
    }
}

impl Answer {
    /// Where a count answer's snippets came from, when not simply the local corpus.
    pub fn snippet_origin(&self) -> Option<&SnippetOrigin> {
        match &self.answer {
            AnswerBody::Count(count) => count.origin.as_ref(),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Answer {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        struct Untagged {
            kind: QuestionKind,
            kind_reason: String,
            chosen_by_user: bool,
            answer: serde_json::Value,
            #[serde(default)]
            scope: Option<Scope>,
            #[serde(default)]
            did_you_mean: Option<String>,
        }
        let raw = Untagged::deserialize(deserializer)?;
        let body = |value| match raw.kind {
            QuestionKind::Count => serde_json::from_value(value).map(AnswerBody::Count),
            QuestionKind::Value => serde_json::from_value(value).map(AnswerBody::Value),
            QuestionKind::Quantity | QuestionKind::Search => {
                serde_json::from_value(value).map(AnswerBody::Search)
            }
        };
        let answer = body(raw.answer).map_err(serde::de::Error::custom)?;
        Ok(Answer {
            kind: raw.kind,
            kind_reason: raw.kind_reason,
            chosen_by_user: raw.chosen_by_user,
            answer,
            scope: raw.scope,
            did_you_mean: raw.did_you_mean,
        })
    }
}

/// An answer with where it was stored: the JSON API's reply, and what the page receives.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "json-schema", derive(schemars::JsonSchema))]
pub struct StoredAnswer {
    /// `None` when the database could not take it (the answer is still given).
    pub question_id: Option<i64>,
    /// The stored answer's id; `None` when it was not stored.
    pub answer_id: Option<i64>,
    /// Why it was not stored.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not_stored: Option<String>,
    /// The count or value the operator accepted for this question over the corpus asked,
    /// answered first; `answer` is then Tally's own reading, shown beside it. Asked over all
    /// corpora without one of its own, the newest accepted over one corpus (its `corpus` says
    /// which): said beside Tally's own answer, not in its place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verified: Option<crate::VerifiedAnswer>,
    /// The answer given.
    #[serde(flatten)]
    pub answer: Answer,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_answer_reads_back_by_its_kind() {
        let value: ValueAnswer = serde_json::from_value(serde_json::json!({
            "question": {"text": "how tall is it", "words": ["tall"], "dimension": null,
                         "dimension_cue": null, "unit": null, "year": null},
            "value": 3.0, "unit": "metre", "unit_id": "metre", "representative": null,
            "note": null, "observations": [], "units": []
        }))
        .unwrap();
        let stored = StoredAnswer {
            question_id: Some(1),
            answer_id: None,
            not_stored: None,
            verified: None,
            answer: Answer {
                kind: QuestionKind::Value,
                kind_reason: "it asks how tall".into(),
                chosen_by_user: false,
                answer: AnswerBody::Value(Box::new(value)),
                scope: Some(Scope {
                    corpus: Some("clubs".into()),
                    web: None,
                    evidence: Some(EvidenceSource::Documents),
                }),
                did_you_mean: None,
            },
        };
        let json = serde_json::to_value(&stored).unwrap();
        assert_eq!(json["kind"], "value");
        assert_eq!(json["answer"]["value"], 3.0);
        assert!(json["answer"].get("type").is_none(), "the body is untagged");
        assert_eq!(json["scope"]["evidence"], "documents");
        assert_eq!(
            serde_json::from_value::<StoredAnswer>(json).unwrap(),
            stored
        );
    }
}

#[cfg(test)]
mod scope_tests {
    use super::*;

    #[test]
    fn the_scope_line_says_what_was_asked_and_where_the_evidence_is() {
        let all = Scope {
            corpus: None,
            web: None,
            evidence: Some(EvidenceSource::BuiltIn),
        };
        assert_eq!(
            all.sentence(),
            "Asked over all corpora; the answer rests on the built-in corpus."
        );
        let clubs = Scope {
            corpus: Some("clubs".into()),
            evidence: Some(EvidenceSource::Documents),
            ..all.clone()
        };
        assert_eq!(clubs.sentence(), "Asked over the documents of “clubs”.");
        let nothing = Scope {
            evidence: None,
            ..clubs
        };
        assert_eq!(nothing.sentence(), "Asked over the documents of “clubs”.");
    }
}
