//! Instances a person can trust (issue 60): the names an answer shows are of the counted kind
//! and said of the question's subject, or the answer says it found none.

use reqwest::multipart::Form;
use reqwest::StatusCode;
use serde_json::Value;

use crate::own_documents::{file, upload_and_wait, TOKEN};
use crate::support::{demo_server, page_text};

const LANGUAGES: &str = "Languages of Switzerland\n\n\
Switzerland has four official languages: German, French, Italian and Romansh. German is the \
most widely spoken of them.\n";
const CANTONS: &str = "Switzerland at a glance\n\n\
Switzerland is a federal state of 26 cantons. Its largest cities are Zurich, Geneva, Basel and \
Lausanne, and Bern, Vaud and Ticino are among its best-known cantons.\n";
const BELGIUM: &str = "Languages of Belgium\n\n\
Belgium has three official languages: Dutch, French and German. Brussels is officially \
bilingual.\n";

/// The names an answer shows.
fn shown(answer: &Value) -> Vec<String> {
    answer["instances"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_languages_of_switzerland_are_shown_and_no_canton_city_or_belgian_language() {
    let server = demo_server("instances-switzerland", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let form = Form::new()
        .text("corpus", "swiss")
        .part("file", file("languages.txt", LANGUAGES))
        .part("file", file("cantons.txt", CANTONS))
        .part("file", file("belgium.txt", BELGIUM));
    upload_and_wait(&client, &server, form).await;

    let question = "how+many+official+languages+does+switzerland+have";
    let response = client
        .get(server.url(&format!("/api/count?q={question}&corpus=swiss")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    let answer = &body["answer"];
    assert_eq!(answer["count"], 4.0, "{answer}");
    let names = shown(answer);
    for language in ["German", "French", "Italian", "Romansh"] {
        assert!(
            names.iter().any(|n| n == language),
            "{language} in {names:?}"
        );
    }
    for other in [
        "Zurich", "Geneva", "Basel", "Lausanne", "Bern", "Vaud", "Ticino", "Dutch", "Brussels",
        "Belgium",
    ] {
        assert!(
            !names.iter().any(|n| n.contains(other)),
            "{other} in {names:?}"
        );
    }
    // The page shows the same names.
    let page = page_text(server.url(&format!("/?q={question}&corpus=swiss"))).await;
    let instances = page
        .split("id=\"instances-title\"")
        .nth(1)
        .and_then(|rest| rest.split("</section>").next())
        .unwrap_or_else(|| panic!("no instances on the page: {page}"));
    assert!(
        instances.contains("Romansh") && !instances.contains("Zurich"),
        "{instances}"
    );
}
