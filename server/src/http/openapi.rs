//! The API's OpenAPI 3.1 document. The paths, the other parameters, request bodies and the
//! error, stored and feedback schemas are written by hand in `openapi.json`; the answers' schemas
//! (`CountAnswer`, `SearchResults`, `ValueAnswer` and every type inside them) are generated from
//! the types in `tally-types` that the engine returns and the API serializes, and the count
//! settings' parameters from `COUNT_SETTINGS`, the table every entry point reads them with, so
//! neither can drift from what the server does.

use std::sync::LazyLock;

use schemars::generate::SchemaSettings;
use serde_json::{json, Map, Value};
use tally_types::count::{Control, CountSettings, COUNT_SETTINGS};
use tally_types::{CountAnswer, SearchResults, ValueAnswer};

/// The paths that take the count settings, and the parameter they follow.
const TAKING_COUNT_SETTINGS: [(&str, &str); 2] =
    [("/api/count", "q"), ("/api/answer/stream", "mode")];

/// Why the API description could not be built.
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    #[error("the built-in API description is not JSON: {0}")]
    NotJson(#[from] serde_json::Error),
    #[error("the built-in API description has no components.schemas")]
    NoSchemas,
    #[error("`{0}` is both written by hand and generated")]
    Twice(String),
    #[error("the built-in API description has no parameter `{1}` on {0}")]
    NoParameter(&'static str, &'static str),
}

/// The document, built once; `Err` says why the hand-written part could not be read.
pub fn document() -> Result<&'static Value, &'static DocumentError> {
    static DOCUMENT: LazyLock<Result<Value, DocumentError>> = LazyLock::new(build);
    DOCUMENT.as_ref()
}

fn build() -> Result<Value, DocumentError> {
    let mut document: Value = serde_json::from_str(include_str!("openapi.json"))?;
    let schemas = document["components"]["schemas"]
        .as_object_mut()
        .ok_or(DocumentError::NoSchemas)?;
    for (name, schema) in answer_schemas() {
        if schemas.insert(name.clone(), schema).is_some() {
            return Err(DocumentError::Twice(name));
        }
    }
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

/// Each count setting as a query parameter: its name, what it does, its range or names and
/// its default.
pub fn count_parameters() -> Vec<Value> {
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

/// The JSON Schemas of the answers as they are serialized, named by their types, with
/// references into `#/components/schemas`.
pub fn answer_schemas() -> Map<String, Value> {
    let mut generator = SchemaSettings::draft2020_12()
        .for_serialize()
        .with(|settings| {
            settings.definitions_path = "/components/schemas".into();
            settings.meta_schema = None;
        })
        .into_generator();
    generator.subschema_for::<CountAnswer>();
    generator.subschema_for::<SearchResults>();
    generator.subschema_for::<ValueAnswer>();
    generator.subschema_for::<tally_types::Scope>();
    generator.take_definitions(true)
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
