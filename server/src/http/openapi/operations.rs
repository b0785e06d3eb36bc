//! The API's operations as the API page lists them (issue 101): read from the generated
//! document ([`super::document`]), so the page says what the description says.

use serde_json::Value;
use tally_app::model::{ApiOperation, ApiParameter};

/// The methods an OpenAPI path item may hold, in the order the page lists them.
const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];

/// Every operation of the document, by path and then method; none when it cannot be built.
pub(crate) fn operations() -> Vec<ApiOperation> {
    let Ok(document) = super::document() else {
        return Vec::new();
    };
    let Some(paths) = document["paths"].as_object() else {
        return Vec::new();
    };
    let text = |value: &Value| value.as_str().unwrap_or_default().trim().to_string();
    let mut operations = Vec::new();
    for (path, item) in paths {
        for method in METHODS {
            let Some(operation) = item.get(method) else {
                continue;
            };
            let parameters = operation["parameters"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|p| ApiParameter {
                    name: text(&p["name"]),
                    place: text(&p["in"]),
                    required: p["required"].as_bool().unwrap_or(false),
                    description: text(&p["description"]),
                })
                .collect();
            operations.push(ApiOperation {
                method: method.to_uppercase(),
                path: path.clone(),
                summary: text(&operation["summary"]),
                description: text(&operation["description"]),
                parameters,
            });
        }
    }
    operations
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_route_of_the_api_is_listed_with_its_summary() {
        let listed = operations();
        let upload = listed
            .iter()
            .find(|o| o.method == "POST" && o.path == "/api/admin/corpora")
            .expect("the upload is listed");
        assert_eq!(upload.summary, "Upload documents into a corpus");
        let count = listed
            .iter()
            .find(|o| o.method == "GET" && o.path == "/api/count")
            .expect("counting is listed");
        assert!(
            count.parameters.iter().any(|p| p.name == "q" && p.required),
            "{count:?}"
        );
        assert!(listed.iter().all(|o| !o.summary.is_empty()), "{listed:?}");
    }
}
