//! Pages that tell one honest story (issue 87), through the API: an upload of readable and
//! unreadable files stores what it can read and lists each refused file with its sentence; an
//! answer says what it was asked over, where its evidence comes from and how sure it is, in the
//! same fields for counts, values and aggregations.

use reqwest::multipart::Form;
use reqwest::StatusCode;
use serde_json::Value;

use crate::own_documents::{file, json, TOKEN};
use crate::support::{demo_server, Server};

pub(crate) const CLUB: &str = "# Brackley Rowing Club\n\n\
Brackley Rowing Club was founded in 1887 on the river Ouse. The club has 212 members and keeps \
14 boats in its boathouse.\n\n\
## Crews\n\n- Men's eight\n- Women's eight\n- Junior four\n- Veterans' four\n";
pub(crate) const TEAMS: &str = "Crew,Rowers,Kit cost (£)\n\
Men's eight,9,1250.50\nWomen's eight,9,980.25\nJunior four,5,410.10\nVeterans' four,5,390.00\n";

async fn ask(server: &Server, query: &str) -> Value {
    let (status, body) = json(
        reqwest::get(server.url(&format!("/api/count?{query}")))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    body
}

/// The certainty every answer with a reading carries: a probability and a bound in [0, 1], the
/// reading it rests on, and a headline that agrees with it.
fn assert_certainty_agrees(body: &Value) {
    let answer = &body["answer"];
    let certainty = &answer["certainty"];
    let probability = certainty["probability"].as_f64().expect("a probability");
    let bound = certainty["bound"].as_f64().expect("a bound");
    assert!(
        (0.0..=1.0).contains(&probability) && (0.0..1.0).contains(&bound),
        "{body}"
    );
    assert!(certainty["reading"].as_f64().is_some(), "{body}");
    match answer["count"].as_f64() {
        // Given as the answer: sure.
        Some(count) => {
            assert!(probability >= bound, "{body}");
            assert_eq!(certainty["reading"].as_f64(), Some(count), "{body}");
        }
        // Declined with a reading: below the bound, or resting on something unsure.
        None => assert!(answer["abstention"].as_str().is_some(), "{body}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mixed_upload_stores_what_it_reads_and_answers_say_their_scope_and_certainty() {
    let server = demo_server("pages", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let upload = |form: Form| {
        client
            .post(server.url("/api/admin/corpora"))
            .bearer_auth(TOKEN)
            .multipart(form)
            .send()
    };

    // Nothing readable: refused as a whole, each file with its sentence, nothing stored.
    let (status, body) = json(
        upload(
            Form::new()
                .text("corpus", "nothing")
                .part("file", file("blank.txt", " \n\n "))
                .part("file", file("broken.jsonl", "{\"title\": \"no text\"}\n")),
        )
        .await
        .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(error.starts_with("no file could be read: "), "{error}");
    assert!(
        error.contains("there is no text to index in blank.txt")
            && error.contains("broken.jsonl, line 1"),
        "{error}"
    );

    // A readable Markdown file and CSV file with an empty one: the two are stored, the third
    // listed with why.
    let response = upload(
        Form::new()
            .text("corpus", "brackley")
            .part("file", file("club.md", CLUB))
            .part("file", file("crews.csv", TEAMS))
            .part("file", file("empty.txt", " \n")),
    )
    .await
    .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    let job: Value = response.json().await.unwrap();
    let outcomes = job["outcomes"].as_array().expect("a line per file");
    let files: Vec<&str> = outcomes
        .iter()
        .map(|o| o["file"].as_str().unwrap())
        .collect();
    assert_eq!(files, ["club.md", "crews.csv", "empty.txt"], "{job}");
    for read in &outcomes[..2] {
        assert!(read["documents"].as_u64().unwrap() >= 1, "{job}");
        assert!(read.get("refused").is_none(), "{job}");
    }
    assert_eq!(outcomes[2]["documents"], 0, "{job}");
    assert_eq!(
        outcomes[2]["refused"], "there is no text to index in empty.txt",
        "{job}"
    );
    let events =
        crate::support::admin_page_text(server.url(&format!("{location}/events")), TOKEN).await;
    assert!(events.contains("event: done"), "{events}");
    // A job names its corpus, files and errors: its JSON and events need the token (issue 97).
    for path in [location.clone(), format!("{location}/events")] {
        let anonymous = reqwest::get(server.url(&path)).await.unwrap();
        assert_eq!(anonymous.status(), reqwest::StatusCode::FORBIDDEN, "{path}");
    }
    let (_, done) = json(
        reqwest::Client::new()
            .get(server.url(&location))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["outcomes"], job["outcomes"], "the job keeps its lines");

    // A count over the corpus says its scope, and how sure it is.
    let members = ask(
        &server,
        "q=how+many+members+does+brackley+rowing+club+have&corpus=brackley",
    )
    .await;
    assert_eq!(members["scope"]["corpus"], "brackley", "{members}");
    assert_eq!(members["scope"]["evidence"], "documents", "{members}");
    assert_certainty_agrees(&members);
    assert_eq!(
        members["answer"]["certainty"]["reading"], 212.0,
        "{members}"
    );

    // A sum over the crews' table names its operation and its unit, with the same certainty.
    let kit = ask(
        &server,
        "q=what+is+the+total+kit+cost+of+the+crews&corpus=brackley",
    )
    .await;
    let aggregation = &kit["answer"]["aggregation"];
    assert_eq!(aggregation["operation"], "sum", "{kit}");
    assert_eq!(aggregation["unit"], "£", "{kit}");
    assert!(
        (aggregation["value"].as_f64().unwrap() - 3030.85).abs() < 0.01,
        "{kit}"
    );
    assert_certainty_agrees(&kit);

    // Over every corpus the scope says so, and where the evidence came from.
    let everywhere = ask(&server, "q=how+many+members+does+brackley+rowing+club+have").await;
    assert_eq!(everywhere["scope"]["corpus"], Value::Null, "{everywhere}");
    assert!(everywhere["scope"]["evidence"].is_string(), "{everywhere}");

    // A misspelt question answered with nothing sure gets the corpus's spelling.
    let misspelt = ask(
        &server,
        "q=how+many+boats+does+brakley+rowing+club+keep&corpus=brackley",
    )
    .await;
    assert!(misspelt["answer"]["count"].is_null(), "{misspelt}");
    // "keep" is a word of the language though the corpus says "keeps": left as written.
    assert_eq!(
        misspelt["did_you_mean"], "how many boats does brackley rowing club keep",
        "{misspelt}"
    );
    assert!(server.stop().success());
}
