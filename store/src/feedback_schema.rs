//! The JSON Schema of feedback as submitted ([`NewFeedback`]), written from the rules
//! [`NewFeedback::validate`] checks: one shape per part and verdict it takes, with the fields
//! that part and verdict need, allow or forbid. The API description serves it, so a client (and
//! the contract test's generator) sees which fields go together before the server says so.

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};
use serde_json::{json, Map, Value};
use tally_types::feedback::MAX_CORRECTED_COUNT;
use tally_types::{CnpGroup, FeedbackPart, Verdict};

use crate::feedback::{NewFeedback, MAX_COMMENT_CHARS};

/// The longest `part_ref`, in characters.
const MAX_PART_REF_CHARS: usize = 200;

/// Text that is not only spaces or control characters.
const NOT_BLANK: &str = r"^[\s\S]*[^\s\x00-\x1f\x7f-\x9f][\s\S]*$";

impl JsonSchema for NewFeedback {
    fn schema_name() -> Cow<'static, str> {
        "NewFeedback".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let shapes: Vec<Value> = FeedbackPart::ALL
            .iter()
            .flat_map(|part| {
                part.verdicts()
                    .iter()
                    .map(move |verdict| shape(*part, *verdict))
            })
            .collect();
        json_schema!({
            "description": "Feedback as submitted. Which fields go together depends on the part \
                and the verdict: every part but general needs the answer_id (404 when there is no \
                such answer); cnp, instance, search_result and observation also part_ref; \
                corrected_value (a whole count of 0 or more; with corrected_unit, a value in \
                that unit) goes only with wrong; moved_to exactly with moved. The server checks \
                the same rules (422 with a sentence).",
            "oneOf": shapes,
        })
    }
}

/// The fields feedback on `part` with `verdict` takes.
fn shape(part: FeedbackPart, verdict: Verdict) -> Value {
    let mut properties = Map::new();
    let mut required = vec!["part", "verdict"];
    properties.insert("part".into(), json!({ "const": part.name() }));
    properties.insert("verdict".into(), json!({ "const": verdict.name() }));
    let id = json!({ "type": "integer", "format": "int64", "minimum": 1, "maximum": i64::MAX });
    if part == FeedbackPart::General {
        properties.insert(
            "answer_id".into(),
            json!({ "oneOf": [id, { "type": "null" }] }),
        );
    } else {
        required.push("answer_id");
        properties.insert("answer_id".into(), id);
    }
    let part_ref = json!({
        "type": "string", "minLength": 1, "maxLength": MAX_PART_REF_CHARS, "pattern": NOT_BLANK,
    });
    if part.needs_ref() {
        required.push("part_ref");
        properties.insert("part_ref".into(), part_ref);
    } else {
        properties.insert(
            "part_ref".into(),
            json!({ "oneOf": [part_ref, { "type": "null" }] }),
        );
    }
    if verdict == Verdict::Wrong {
        properties.insert(
            "corrected_value".into(),
            json!({ "type": ["integer", "null"], "minimum": 0, "maximum": MAX_CORRECTED_COUNT }),
        );
        // Units a client may name (any symbol, name or id of the unit table is taken; these
        // are the ones a generator may try).
        properties.insert(
            "corrected_unit".into(),
            json!({
                "description": "The unit of a corrected value: \"£\", \"m\", \"metres\", \"gbp\"",
                "type": ["string", "null"],
                "enum": ["£", "m", "metre", "gbp", null],
            }),
        );
    }
    if verdict == Verdict::Moved {
        required.push("moved_to");
        let groups: Vec<&str> = CnpGroup::ALL.iter().map(|g| g.name()).collect();
        properties.insert("moved_to".into(), json!({ "enum": groups }));
    }
    properties.insert(
        "comment".into(),
        json!({ "type": ["string", "null"], "maxLength": MAX_COMMENT_CHARS }),
    );
    properties.insert(
        "client_token".into(),
        json!({
            "description": "Chosen once per submission; re-sending it returns the stored row",
            "type": ["string", "null"],
            "format": "uuid",
        }),
    );
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": required,
        "properties": properties,
    })
}
