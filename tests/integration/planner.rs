//! One planner over every corpus (issue 86): two uploaded files whose tables continue each
//! other, counted and added up over both from the home page (no corpus chosen); a question in
//! the present tense answered with the latest dated count and one for a year the document gives
//! none for declined; a condition on a column the tables lack declined; and `tally value`
//! giving `tally ask --mode value`'s answer over the own-documents collection.

use std::process::Command;

use reqwest::multipart::Form;
use reqwest::StatusCode;
use serde_json::Value;

use crate::own_documents::{file, json, upload_and_wait, TOKEN};
use crate::support::{demo_server, json_of, scratch_dir, workspace_root};

const FIRST_HALF: &str = "Sailing,Month,Cars,Passengers\n\
Dawn crossing,January,42,180\n\
Market run,February,61,240\n\
Evening boat,March,18,95\n";

const SECOND_HALF: &str = "Sailing,Month,Cars,Passengers\n\
Summer shuttle,July,88,410\n\
Island special,August,73,365\n";

const CLUB: &str = "# Fenwick Tennis Club\n\n\
The club was founded in 1962 on the old rectory meadow. In 2019 the club had 140 members; by \
2023 it had grown to 212 members, after the new courts opened.\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_home_page_plans_over_every_corpus_across_files_and_dates() {
    let server = demo_server("planner", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let form = Form::new()
        .text("corpus", "harbour")
        .part("file", file("sailings-spring.csv", FIRST_HALF))
        .part("file", file("sailings-summer.csv", SECOND_HALF))
        .part("file", file("fenwick.md", CLUB));
    upload_and_wait(&client, &server, form).await;
    // As the home page asks: no corpus chosen.
    let ask = |question: &str| {
        let url = server.url(&format!("/api/count?q={}", question.replace(' ', "+")));
        let client = client.clone();
        async move {
            let (status, body) = json(client.get(url).send().await.unwrap()).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            body["answer"].clone()
        }
    };

    // A count and a sum over both files' rows, naming both documents.
    let counted = ask("how many sailings carried more than 40 cars").await;
    assert_eq!(counted["count"], 4.0, "{counted}");
    let documents = counted["aggregation"]["document"]
        .as_str()
        .unwrap_or_default();
    assert!(
        documents.contains("sailings-spring.csv") && documents.contains("sailings-summer.csv"),
        "{counted}"
    );
    let summed = ask("how many passengers were carried in total").await;
    assert_eq!(summed["count"], 1290.0, "{summed}");

    // The present tense reads the latest dated count and says when it holds.
    let members = ask("how many members does the fenwick tennis club have").await;
    assert_eq!(members["count"], 212.0, "{members}");
    let how = members["read_from"]["how"].as_str().unwrap_or_default();
    assert!(how.contains("as of 2023"), "{members}");
    // A year the document gives no count for is declined, saying which years it gives.
    let unstated = ask("how many members did the fenwick tennis club have in 2021").await;
    assert!(unstated["count"].is_null(), "{unstated}");
    let why = unstated["abstention"].as_str().unwrap_or_default();
    assert!(why.contains("none for 2021"), "{unstated}");

    // A condition on a column the tables lack: declined with the columns there are.
    let lacking = ask("how many sailings carried more than 3 lorries").await;
    assert!(lacking["count"].is_null(), "{lacking}");
    let why = lacking["abstention"].as_str().unwrap_or_default();
    assert!(
        why.contains("Cars") && why.contains("Passengers"),
        "{lacking}"
    );
}

/// `tally value` and `tally ask --mode value` over the own-documents collection: one route, one
/// answer for each of its first value questions.
#[test]
fn tally_value_and_tally_ask_give_one_answer_over_the_collection() {
    let dir = scratch_dir("value-route");
    let collection = workspace_root().join("tests/fixtures/own-documents");
    let index = dir.join("snippets");
    let sentences = dir.join("sentences");
    let tally = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tally"))
            .args(args)
            .arg("--index")
            .arg(&index)
            .arg("--search-index")
            .arg(&sentences)
            .current_dir(workspace_root())
            .env_remove("TALLY_INDEX")
            .env_remove("TALLY_SEARCH_INDEX")
            .output()
            .expect("the tally binary runs")
    };
    let questions: Vec<Value> = std::fs::read_to_string(collection.join("values.jsonl"))
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(6)
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut files: Vec<String> = Vec::new();
    for q in &questions {
        let stem = q["document"].as_str().unwrap();
        let found = std::fs::read_dir(collection.join("documents"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_stem().and_then(|s| s.to_str()) == Some(stem))
            .unwrap();
        let found = found.display().to_string();
        if !files.contains(&found) {
            files.push(found);
        }
    }
    let mut ingest = vec!["ingest", "--corpus", "mine"];
    ingest.extend(files.iter().map(String::as_str));
    let out = tally(&ingest);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut answered = 0;
    for q in &questions {
        let question = q["question"].as_str().unwrap();
        let valued = json_of(&tally(&["value", question, "--json"]));
        let asked = json_of(&tally(&["ask", question, "--mode", "value", "--json"]));
        assert_eq!(valued, asked["answer"], "{question}");
        answered += usize::from(valued["value"].is_number());
    }
    assert!(answered >= 2, "{answered} of {} answered", questions.len());
}
