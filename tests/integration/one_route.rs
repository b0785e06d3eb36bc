//! One route for a question: `tally ask` and the web API answer through the same service, so the
//! same question with the same settings over the same indexes gives the same answer.

use std::process::Command;

use serde_json::Value;

use crate::support::{data_dir, json_of, page_text, scratch_dir, workspace_root, Server};

/// A Stresstest question (../shared/data/coqex/stresstest_v1) and a value question the default
/// corpus answers ("The Rose Bowl … has a capacity of 92,542").
const COUNT_QUESTION: &str = "how many songs did paul mccartney write for the beatles";
const VALUE_QUESTION: &str = "capacity of the Rose Bowl";

/// The answer without what differs between two computations of it: the stages' times.
fn without_timings(mut answer: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(fields) => {
                fields.remove("timings");
                fields.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut answer);
    answer
}

/// The count answer in an answer stream's `answer` event.
fn stream_answer(stream: &str) -> Value {
    let data = stream
        .split("event: answer")
        .nth(1)
        .and_then(|rest| rest.lines().find_map(|l| l.strip_prefix("data: ")))
        .unwrap_or_else(|| panic!("no answer event in {stream}"));
    let event: Value = serde_json::from_str(data).unwrap();
    find_count_answer(&event).unwrap_or_else(|| panic!("no count answer in {event}"))
}

/// The first object holding a count answer (`cnp_rep` and `settings`) inside `value`.
fn find_count_answer(value: &Value) -> Option<Value> {
    match value {
        Value::Object(fields)
            if fields.contains_key("cnp_rep") && fields.contains_key("settings") =>
        {
            Some(value.clone())
        }
        Value::Object(fields) => fields.values().find_map(find_count_answer),
        Value::Array(items) => items.iter().find_map(find_count_answer),
        _ => None,
    }
}

async fn api(server: &Server, path: &str) -> Value {
    let response = reqwest::get(server.url(path)).await.unwrap();
    assert!(
        response.status().is_success(),
        "{path}: {}",
        response.status()
    );
    response.json().await.unwrap()
}

#[tokio::test]
async fn tally_ask_and_the_api_give_the_same_answer() {
    let dir = scratch_dir("one-route");
    let pg = dir.join("pg").display().to_string();
    let server = Server::start(&dir, "server", &["--pg-dir", &pg], &[]).await;
    server.wait_until_answering().await;
    let query = |q: &str| q.replace(' ', "+");
    // Settings other than the defaults, so that the test shows they travel the same way
    // (`min_relevance` was the command line's alone before issue 59).
    let settings = "threshold=0.3&theta=0.4&strategy=median&min_relevance=0.5";
    let count = api(
        &server,
        &format!("/api/count?q={}&{settings}", query(COUNT_QUESTION)),
    )
    .await;
    let value = api(&server, &format!("/api/value?q={}", query(VALUE_QUESTION))).await;
    // The page's answer stream and the page itself, with the same settings as the form sends
    // them: the same answer (the stream's `answer` event carries it whole), the same settings
    // said on the page.
    let stream = page_text(server.url(&format!(
        "/api/answer/stream?q={}&mode=count&{settings}",
        query(COUNT_QUESTION)
    )))
    .await;
    let streamed = stream_answer(&stream);
    let page = page_text(server.url(&format!(
        "/?q={}&mode=count&{settings}",
        query(COUNT_QUESTION)
    )))
    .await;
    assert!(
        page.contains(
            "Settings changed: threshold 0.3, strategy median, theta 0.4, min_relevance 0.5."
        ),
        "the page says the settings used"
    );
    assert!(
        page.contains(r#"name="min_relevance""#),
        "the form offers min_relevance"
    );
    // The CLI opens the server's indexes once the server has let them go.
    assert!(server.stop().success());

    // `tally COMMAND ARGS --json` over the server's indexes.
    let tally = |command: &str, args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_tally"))
            .arg(command)
            .args(args)
            .arg("--json")
            .arg("--index")
            .arg(dir.join("server-index"))
            .arg("--search-index")
            .arg(dir.join("server-sentences"))
            .current_dir(workspace_root())
            .env("TALLY_DATA", data_dir())
            .env_remove("TALLY_INDEX")
            .output()
            .expect("the tally binary runs");
        json_of(&out)
    };
    let ask = |args: &[&str]| tally("ask", args);
    let asked = ask(&[
        COUNT_QUESTION,
        "--mode",
        "count",
        "--threshold",
        "0.3",
        "--theta",
        "0.4",
        "--strategy",
        "median",
        "--min-relevance",
        "0.5",
    ]);
    assert_eq!(count["kind"], "count");
    assert!(count["answer"]["count"].as_f64().is_some(), "{count}");
    assert_eq!(count["answer"]["settings"]["strategy"], "median");
    let mut stored = count.as_object().unwrap().clone();
    for id in ["question_id", "answer_id", "not_stored"] {
        stored.remove(id);
    }
    assert_eq!(count["answer"]["settings"]["min_relevance"], 0.5);
    // Doubt and scope in the same fields for the API and the CLI (issue 87), compared whole
    // below: the built-in corpus answered, with the count's probability and its bound.
    assert_eq!(count["scope"]["evidence"], "built-in", "{count}");
    assert!(
        count["answer"]["certainty"]["probability"].is_number(),
        "{count}"
    );
    assert_eq!(
        count["answer"]["certainty"]["reading"], count["answer"]["count"],
        "{count}"
    );
    assert_eq!(
        without_timings(asked),
        without_timings(Value::Object(stored))
    );
    assert_eq!(
        without_timings(streamed),
        without_timings(count["answer"].clone()),
        "the stream's answer is the API's"
    );

    let asked = ask(&[VALUE_QUESTION]);
    assert_eq!(asked["kind"], "value");
    // `tally value` answers through the same service (issue 86).
    let valued = tally("value", &[VALUE_QUESTION]);
    assert_eq!(valued, value, "tally value gives the API's answer");
    assert_eq!(value["value"], 92542.0, "{value}");
    assert_eq!(
        without_timings(asked["answer"].clone()),
        without_timings(value)
    );
}
