//! Every example a person is offered answers right from the default corpus (issue 73): the home
//! page's lists, the "What to try" advice and the README's headline questions, asked through the
//! API of a server on the shared data sets (as the public demo runs), each against the fact it
//! asks for (general knowledge, written before the examples were chosen).

use reqwest::StatusCode;

use crate::support::{data_dir, scratch_dir, workspace_root, Server};

/// CoQEx's relaxed precision: right within 10%.
fn right(answer: f64, gold: f64) -> bool {
    answer.min(gold) / answer.max(gold) >= 0.9 - 1e-12
}

/// The right count of each count example.
const COUNTS: [(&str, f64); 3] = [
    ("how many languages are spoken in indonesia", 700.0),
    ("how many moons does mars have", 2.0),
    ("how many studio albums did the beatles release", 13.0),
];

/// The right value (in the unit named) of each value example.
const VALUES: [(&str, f64, &str); 3] = [
    ("how tall is the eiffel tower", 330.0, "metre"),
    (
        "how long is the main span of the golden gate bridge",
        1_280.0,
        "metre",
    ),
    ("how tall was the great pyramid of giza", 146.0, "metre"),
];

/// Quantity conditions: the first result must meet the condition.
const CONDITIONS: [&str; 3] = [
    "phones with a battery above 4000 mAh",
    "stadiums with a capacity of more than 85000",
    "electric cars with a range above 400 km",
];

async fn get_json(server: &Server, path: &str) -> serde_json::Value {
    let response = reqwest::get(server.url(path)).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    response.json().await.unwrap()
}

fn query(question: &str) -> String {
    tally_types::request::encode(question)
}

/// The examples as a person meets them: lower case, without the question mark.
fn plain(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ").trim_end_matches('?').to_lowercase()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_example_answers_right_from_the_default_corpus() {
    let dir = scratch_dir("examples");
    let pg = dir.join("pg").display().to_string();
    let data = data_dir().display().to_string();
    let server = Server::start(&dir, "server", &["--pg-dir", &pg, "--data", &data], &[]).await;
    server.wait_until_answering().await;

    // The lists on the home page are the ones asked below.
    let home = reqwest::get(server.url("/"))
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let offered: Vec<&str> = COUNTS
        .iter()
        .map(|(q, _)| *q)
        .chain(VALUES.iter().map(|(q, _, _)| *q))
        .chain(CONDITIONS)
        .collect();
    // (No example holds a character HTML escapes.)
    for question in &offered {
        assert!(home.contains(question), "the home page offers “{question}”");
    }
    // The README's headline examples and the advice on a page without an answer are among them.
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let headline = readme.split("\n\n").nth(1).unwrap_or_default().to_string();
    let quoted: Vec<String> = headline
        .split('(')
        .skip(1)
        .filter_map(|part| part.split('"').nth(1).map(plain))
        .collect();
    assert_eq!(quoted.len(), 3, "{headline}");
    let advice = std::fs::read_to_string(workspace_root().join("app/src/views/count.rs")).unwrap();
    let advice: Vec<String> = advice
        .split("What to try")
        .nth(1)
        .unwrap_or_default()
        .split('“')
        .skip(1)
        .filter_map(|part| part.split('”').next().map(plain))
        .take(2)
        .collect();
    assert_eq!(advice.len(), 2);
    for example in quoted.iter().chain(&advice) {
        assert!(
            offered.iter().any(|q| plain(q) == *example),
            "“{example}” is asked by this test"
        );
    }

    for (question, gold) in COUNTS {
        let body = get_json(&server, &format!("/api/count?q={}", query(question))).await;
        let count = body["answer"]["count"].as_f64();
        assert!(
            count.is_some_and(|c| right(c, gold)),
            "{question}: {count:?}, not {gold}\n{}",
            body["answer"]["explanation"]
        );
    }
    for (question, gold, unit) in VALUES {
        let body = get_json(&server, &format!("/api/value?q={}", query(question))).await;
        let value = body["value"].as_f64();
        assert!(
            value.is_some_and(|v| right(v, gold)),
            "{question}: {value:?}, not {gold}\n{body}"
        );
        assert_eq!(body["unit_id"], unit, "{question}: {body}");
    }
    for question in CONDITIONS {
        let body = get_json(&server, &format!("/api/search?q={}", query(question))).await;
        let first = &body["answer"]["hits"][0];
        let meets = first["meets"]
            .as_array()
            .map(|m| m.to_vec())
            .unwrap_or_default();
        assert!(
            !meets.is_empty() && meets.iter().all(|m| m == true),
            "{question}: the first result does not meet the condition: {first}"
        );
    }
    assert!(server.stop().success());
}
