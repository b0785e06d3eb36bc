//! A value question keeps to the corpus it is asked of, and `GET /api/value` answers it as the
//! page's value mode does (issue 98): the same value, certainty and doubt, through one route.

use reqwest::multipart::Form;
use reqwest::StatusCode;
use serde_json::Value;

use crate::own_documents::{file, json, upload_and_wait, TOKEN};
use crate::support::{demo_server, page_text};

const LIGHTHOUSE: &str = "Calder Point Lighthouse\n\n\
The Calder Point Lighthouse stands on the northern cape of Ferrin Island. It was first lit in 1874.\n\n\
The Calder Point Lighthouse is 38 metres tall, and its light is seen 22 miles out to sea.\n";

/// The first object of `value` that is a value answer (`observations` and `question`).
fn find_value_answer(value: &Value) -> Option<Value> {
    match value {
        Value::Object(fields)
            if fields.contains_key("observations") && fields.contains_key("question") =>
        {
            Some(value.clone())
        }
        Value::Object(fields) => fields.values().find_map(find_value_answer),
        Value::Array(items) => items.iter().find_map(find_value_answer),
        _ => None,
    }
}

/// The value answer of a stream's `answer` event.
fn streamed_value(stream: &str) -> Value {
    stream
        .split("event: answer")
        .nth(1)
        .and_then(|rest| rest.lines().find_map(|l| l.strip_prefix("data: ")))
        .and_then(|data| serde_json::from_str::<Value>(data).ok())
        .and_then(|event| find_value_answer(&event))
        .unwrap_or_else(|| panic!("no value answer in {stream}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_value_question_stays_in_the_corpus_chosen_through_every_entry_point() {
    let server = demo_server("value-scope", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let form = Form::new()
        .text("corpus", "calder")
        .part("file", file("notes.txt", LIGHTHOUSE));
    upload_and_wait(&client, &server, form).await;
    let api = |query: String| {
        let url = server.url(&format!("/api/value?{query}"));
        let client = client.clone();
        async move { json(client.get(url).send().await.unwrap()).await }
    };
    let eiffel = "q=how+tall+is+the+Eiffel+Tower";
    // From every corpus, the built-in one answers; asked of the lighthouse notes, nothing does.
    let (status, everywhere) = api(eiffel.to_string()).await;
    assert_eq!(status, StatusCode::OK, "{everywhere}");
    assert!(everywhere["value"].is_number(), "{everywhere}");
    let (status, in_calder) = api(format!("{eiffel}&corpus=calder")).await;
    assert_eq!(status, StatusCode::OK, "{in_calder}");
    assert!(in_calder["value"].is_null(), "{in_calder}");
    // The page's value mode keeps the corpus too.
    let stream = page_text(server.url(&format!(
        "/api/answer/stream?{eiffel}&mode=value&corpus=calder"
    )))
    .await;
    let streamed = streamed_value(&stream);
    assert!(streamed["value"].is_null(), "{streamed}");

    // What the notes say: the same answer and certainty from the API and the page.
    let tall = "q=how+tall+is+the+Calder+Point+Lighthouse";
    let (status, answered) = api(format!("{tall}&corpus=calder")).await;
    assert_eq!(status, StatusCode::OK, "{answered}");
    let stream = page_text(server.url(&format!(
        "/api/answer/stream?{tall}&mode=value&corpus=calder"
    )))
    .await;
    let streamed = streamed_value(&stream);
    for field in ["value", "unit", "certainty", "not_sure", "note"] {
        assert_eq!(
            answered[field], streamed[field],
            "{field}: {answered} vs {streamed}"
        );
    }
    assert!(
        answered["value"]
            .as_f64()
            .is_some_and(|v| (v - 38.0).abs() < 1e-6),
        "{answered}"
    );
    // An unknown corpus is refused with the corpora there are.
    let (status, refused) = api(format!("{tall}&corpus=nowhere")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    assert!(refused.to_string().contains("calder"), "{refused}");
}
