//! The API's OpenAPI 3.1 document, generated: the operations, their parameters and replies
//! from each handler's `#[utoipa::path]` as the router registers it ([`super::api_router`]
//! builds both, so a route cannot be served undescribed); the bodies' schemas from the types the
//! handlers serialize and read (`schemars`, the types in `tally-types`, `tally-store` and here);
//! the count settings' parameters from `COUNT_SETTINGS`, the table every entry point reads them
//! with. Nothing is written by hand twice, so none of it can drift from what the server does.

mod operations;
mod parameters;
mod responses;

use std::sync::LazyLock;

use schemars::generate::SchemaSettings;
use schemars::JsonSchema;
use serde_json::{json, Map, Value};
use tally_documents::corpus::Format;
use tally_types::choice::Choice;
use tally_types::count::{Control, CountSettings, COUNT_SETTINGS};
use tally_types::documents::UploadMode;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

pub(crate) use operations::operations;
pub(crate) use parameters::{
    CorpusQuery, ModeQuery, QuestionQuery, SearchModeQuery, SearchSettingsQuery, SnippetQuery,
    UploadForm,
};
pub(crate) use responses::{
    AdminErrors, AnsweringErrors, BadRequest, BodyErrors, CorpusErrors, ErrorBody, Forbidden,
    NotFound, PayloadTooLarge, RequestTimeout, ServerError, TooManyRequests, Unauthorized,
    Unavailable, Unprocessable, UnsupportedMediaType,
};

/// The paths that take the count settings, and the parameter they follow.
const TAKING_COUNT_SETTINGS: [(&str, &str); 2] =
    [("/api/count", "q"), ("/api/answer/stream", "mode")];

/// The document's parts that are not an operation: its title, the admin token's scheme and the
/// shared error replies.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tally API",
        description = "Count questions and quantity-condition search answered from text, with \
            evidence. Every answer is stored; feedback refers to the stored answer's id. \
            Answering endpoints may be rate-limited per address (429 with a message).",
    ),
    components(
        schemas(responses::ErrorBody, parameters::UploadForm),
        responses(
            BadRequest, Unauthorized, Forbidden, NotFound, RequestTimeout, PayloadTooLarge,
            UnsupportedMediaType, Unprocessable, TooManyRequests, Unavailable, ServerError
        )
    ),
    modifiers(&AdminToken)
)]
pub(crate) struct ApiDoc;

/// The admin token as a bearer token.
struct AdminToken;

impl Modify for AdminToken {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "adminToken",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "The server's --admin-token: every visitor's questions (403 when it is \
                         wrong or the server has none)",
                    ))
                    .build(),
            ),
        );
    }
}

/// Why the API description could not be built.
#[derive(Debug, thiserror::Error)]
pub(crate) enum DocumentError {
    #[error("the API description could not be written as JSON")]
    NotJson(#[from] serde_json::Error),
    #[error("the API description has no components.schemas")]
    NoSchemas,
    #[error("`{0}` is generated twice, differently")]
    Twice(String),
    #[error("the API description has no parameter `{1}` on {0}")]
    NoParameter(&'static str, &'static str),
}

/// The document, built once; `Err` says why it could not be.
pub(crate) fn document() -> Result<&'static Value, &'static DocumentError> {
    static DOCUMENT: LazyLock<Result<Value, DocumentError>> = LazyLock::new(build);
    DOCUMENT.as_ref()
}

fn build() -> Result<Value, DocumentError> {
    let (_, described) = super::api_router();
    let mut document = serde_json::to_value(described)?;
    let schemas = document["components"]["schemas"]
        .as_object_mut()
        .ok_or(DocumentError::NoSchemas)?;
    for (name, schema) in body_schemas() {
        // The bodies' placeholders (a reference to the schema by its name) give way to the
        // schema itself.
        match schemas.get(&name) {
            Some(there) if *there != schema && !is_placeholder(there, &name) => {
                return Err(DocumentError::Twice(name))
            }
            _ => {
                schemas.insert(name, schema);
            }
        }
    }
    with_upload_choices(schemas)?;
    for (path, after) in TAKING_COUNT_SETTINGS {
        let parameters = document["paths"][path]["get"]["parameters"]
            .as_array_mut()
            .ok_or(DocumentError::NoParameter(path, after))?;
        let at = parameters
            .iter()
            .position(|p| p["name"] == after)
            .ok_or(DocumentError::NoParameter(path, after))?;
        for (i, parameter) in count_parameters().into_iter().enumerate() {
            if parameters.iter().any(|p| p["name"] == parameter["name"]) {
                return Err(DocumentError::Twice(parameter["name"].to_string()));
            }
            parameters.insert(at + 1 + i, parameter);
        }
    }
    Ok(document)
}

/// The upload form's choices, named by the tables the upload reads them with: the formats of
/// a person's documents, and the upload modes.
fn with_upload_choices(schemas: &mut Map<String, Value>) -> Result<(), DocumentError> {
    let form = schemas
        .get_mut("UploadForm")
        .and_then(|form| form.get_mut("properties"))
        .and_then(Value::as_object_mut)
        .ok_or(DocumentError::NoSchemas)?;
    let formats: Vec<&str> = Format::ALL
        .iter()
        .filter(|format| format.is_document())
        .map(|format| format.choice_name())
        .collect();
    let modes: Vec<&str> = UploadMode::ALL.iter().map(|mode| mode.name()).collect();
    for (field, names) in [("format", formats), ("mode", modes)] {
        if let Some(property) = form.get_mut(field) {
            property["enum"] = json!(names);
        }
    }
    Ok(())
}

/// Whether `schema` is the placeholder a [`generated_body!`] type registers: a reference to
/// `#/components/schemas/{name}`.
fn is_placeholder(schema: &Value, name: &str) -> bool {
    schema["$ref"] == format!("#/components/schemas/{name}")
}

/// Each count setting as a query parameter: its name, what it does, its range or names and
/// its default.
pub(crate) fn count_parameters() -> Vec<Value> {
    let defaults = CountSettings::default();
    COUNT_SETTINGS
        .iter()
        .map(|setting| {
            let default = (setting.write)(&defaults);
            let schema = match setting.control {
                Control::Number {
                    min,
                    max,
                    step: 1.0,
                } => json!({
                    "type": "integer", "minimum": min as u64, "maximum": max as u64,
                    "default": default.parse::<u64>().ok(),
                }),
                Control::Number { min, max, .. } => json!({
                    "type": "number", "minimum": min, "maximum": max,
                    "default": default.parse::<f64>().ok(),
                }),
                Control::Choice { all, .. } => {
                    json!({ "type": "string", "enum": all(), "default": default })
                }
                Control::Corpus => json!({ "type": "string", "minLength": 1, "default": default }),
            };
            json!({
                "name": setting.name,
                "in": "query",
                "description": format!("{}.", setting.help),
                "schema": schema,
            })
        })
        .collect()
}

/// A type whose JSON Schema `schemars` writes, as a body of an operation:
/// `Marker => Type` lets `#[utoipa::path]` name `Marker` where `Type` is sent or read; the
/// document refers to `#/components/schemas/{Type's name}`, which [`body_schemas`] fills, with
/// what is sent as it is serialized and what is read as it is deserialized.
macro_rules! generated_bodies {
    (sent { $($sent:ident => $sent_type:ty),+ $(,)? } read { $($read:ident => $read_type:ty),+ $(,)? }) => {
        $(generated_bodies!(@marker $sent, $sent_type);)+
        $(generated_bodies!(@marker $read, $read_type);)+

        /// The JSON Schemas of the bodies, named by their types, with references into
        /// `#/components/schemas`.
        pub(crate) fn body_schemas() -> Map<String, Value> {
            let mut sent = generator(SchemaSettings::draft2020_12().for_serialize());
            $(sent.subschema_for::<$sent_type>();)+
            let mut read = generator(SchemaSettings::draft2020_12().for_deserialize());
            $(read.subschema_for::<$read_type>();)+
            let mut schemas = sent.take_definitions(true);
            schemas.extend(read.take_definitions(true));
            schemas
        }
    };
    (@marker $marker:ident, $type:ty) => {
        #[doc = concat!("`", stringify!($type), "` as an operation's body.")]
        pub(crate) struct $marker;

        impl utoipa::PartialSchema for $marker {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::Ref::from_schema_name(<$type as JsonSchema>::schema_name()).into()
            }
        }

        impl utoipa::ToSchema for $marker {
            fn name() -> std::borrow::Cow<'static, str> {
                <$type as JsonSchema>::schema_name()
            }
        }
    };
}

fn generator(settings: SchemaSettings) -> schemars::SchemaGenerator {
    settings
        .with(|settings| {
            settings.definitions_path = "/components/schemas".into();
            settings.meta_schema = None;
        })
        .into_generator()
}

generated_bodies! {
    sent {
        StoredAnswerBody => tally_types::StoredAnswer,
        ValueAnswerBody => tally_types::ValueAnswer,
        FeedbackBody => tally_store::feedback::Feedback,
        FeedbackSummaryBody => tally_store::feedback::FeedbackSummary,
        RecentQuestionBody => tally_store::answers::RecentQuestion,
        StatusBody => tally_app::status::SystemStatus,
        QueuedQuestionBody => tally_types::feedback::QueuedQuestion,
        DecidedBody => tally_store::review::Decided,
        VerifiedBody => tally_types::feedback::VerifiedRecord,
        CorpusRowBody => tally_types::documents::CorpusRow,
        IngestJobBody => tally_types::documents::IngestJob,
    }
    read {
        NewFeedbackBody => tally_store::feedback::NewFeedback,
        NewDecisionBody => tally_store::review::NewDecision,
    }
}
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_schemas_come_from_the_types_and_reference_each_other() {
        let document = document().unwrap();
        let schemas = &document["components"]["schemas"];
        let count = &schemas["CountAnswer"];
        // Every field of the type is a required property (a renamed field renames it here).
        let required: Vec<&str> = count["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        for field in [
            "question",
            "count",
            "abstention",
            "cnp_rep",
            "groups",
            "settings",
        ] {
            assert!(required.contains(&field), "{field} in {required:?}");
        }
        assert_eq!(
            schemas["CountSpan"]["properties"]["start"]["description"],
            "Character offsets in the snippet text (what a browser highlights)."
        );
        // Every schema reference, generated or written by hand, names a schema of the document.
        let text = document.to_string();
        let prefix = "\"$ref\":\"#/components/schemas/";
        for reference in text.split(prefix).skip(1) {
            let name = reference.split('"').next().unwrap();
            assert!(schemas.get(name).is_some(), "dangling reference to {name}");
        }
        assert!(text.matches(prefix).count() > 20);
    }

    #[test]
    fn every_count_setting_is_a_parameter_of_the_paths_that_take_them() {
        let document = document().unwrap();
        for (path, _) in TAKING_COUNT_SETTINGS {
            let names: Vec<&str> = document["paths"][path]["get"]["parameters"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|p| p["name"].as_str())
                .collect();
            for setting in &COUNT_SETTINGS {
                assert!(names.contains(&setting.name), "{path}: {}", setting.name);
            }
        }
        let threshold = &count_parameters()[1];
        assert_eq!(threshold["name"], "threshold");
        assert_eq!(threshold["schema"]["default"], json!(0.2));
    }
}
