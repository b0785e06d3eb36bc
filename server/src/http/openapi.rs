//! The API's OpenAPI 3.1 document. The paths, parameters, request bodies and the error, stored
//! and feedback schemas are written by hand in `openapi.json`; the answers' schemas
//! (`CountAnswer`, `SearchResults`, `ValueAnswer` and every type inside them) are generated from the types in
//! `tally-types` that the engine returns and the API serializes, so the two cannot drift apart.

use std::sync::LazyLock;

use schemars::generate::SchemaSettings;
use serde_json::{Map, Value};
use tally_types::{CountAnswer, SearchResults, ValueAnswer};

/// Why the API description could not be built.
#[derive(Debug, thiserror::Error)]
pub enum DocumentError {
    #[error("the built-in API description is not JSON: {0}")]
    NotJson(#[from] serde_json::Error),
    #[error("the built-in API description has no components.schemas")]
    NoSchemas,
    #[error("`{0}` is both written by hand and generated")]
    Twice(String),
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
    Ok(document)
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
}
