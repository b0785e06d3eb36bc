//! Counting with conditions across records (issue 74): a CSV station list and a Markdown
//! release table uploaded through the web API; a count with a condition, a sum, a largest
//! (a name with its value) and a condition on a column the table lacks (declined with the
//! columns there are), each computed over the table's rows; the page shows the condition read
//! and the rows taken and left out.

use reqwest::multipart::Form;
use reqwest::StatusCode;

use crate::own_documents::{file, json, upload_and_wait, TOKEN};
use crate::support::{demo_server, page_text};

// A row's name and a region written as SQL: cells and conditions are bound parameters, never
// SQL text.
const STATIONS: &str = "Station,Opened,Platforms,Fare (£),Region\n\
Harbour Street,1887,7,4.50,North\n\
Mill Lane,1995,2,2.10,O'Neill Quay\n\
Quarry End,2003,5,3.00,North\n\
\"Sandy Gap'); DROP TABLE record_cells; --\",1921,3,6.20,O'Neill Quay\n\
Kestrel Bridge,2011,6,5.40,North\n";

const README: &str = "# marlo\n\nA small tool for tidy file names.\n\n## Releases\n\n\
| Version | Date | Authors | Bugs fixed |\n|---|---|---|---|\n\
| 4.0 | 2024-02-01 | 3 | 12 |\n| 4.1 | 2024-06-12 | 5 | 21 |\n| 4.2 | 2024-11-30 | 4 | 9 |\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn counts_sums_and_largest_are_computed_over_the_rows() {
    let server = demo_server("aggregations", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let form = Form::new()
        .text("corpus", "tables")
        .part("file", file("sandmere-stations.csv", STATIONS))
        .part("file", file("marlo.md", README));
    upload_and_wait(&client, &server, form).await;
    let ask = |question: &str| {
        let url = server.url(&format!(
            "/api/count?q={}&corpus=tables",
            question.replace(' ', "+").replace('£', "%C2%A3")
        ));
        let client = client.clone();
        async move {
            let (status, body) = json(client.get(url).send().await.unwrap()).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            body["answer"].clone()
        }
    };

    // A count with a condition on a column: the rows that meet it, and those left out.
    let platforms = ask("how many stations have more than 4 platforms").await;
    assert_eq!(platforms["count"], 3.0, "{platforms}");
    let aggregation = &platforms["aggregation"];
    assert_eq!(aggregation["operation"], "count", "{aggregation}");
    assert_eq!(
        aggregation["conditions"][0], "Platforms > 4",
        "{aggregation}"
    );
    let taken: Vec<bool> = aggregation["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["taken"].as_bool().unwrap())
        .collect();
    assert_eq!(taken, [true, false, true, false, true], "{aggregation}");

    // A year condition and a money condition.
    assert_eq!(
        ask("how many stations opened after 1990").await["count"],
        3.0
    );
    assert_eq!(
        ask("how many stations cost more than £5").await["count"],
        2.0
    );

    // A condition on a text column, its value written with a quote.
    let quay = ask("how many stations are in the o'neill quay region").await;
    assert_eq!(quay["count"], 2.0, "{quay}");
    assert_eq!(
        quay["aggregation"]["conditions"][0], "Region = O'Neill Quay",
        "{quay}"
    );

    // A sum across a Markdown table's rows.
    let bugs = ask("how many bugs were fixed across all releases").await;
    assert_eq!(bugs["count"], 42.0, "{bugs}");
    assert_eq!(bugs["aggregation"]["operation"], "sum", "{bugs}");

    // The largest: a name with its value.
    let most = ask("which station has the most platforms").await;
    assert_eq!(most["aggregation"]["name"], "Harbour Street", "{most}");
    assert_eq!(most["count"], 7.0, "{most}");

    // A condition on a column the table does not have: declined with the columns there are.
    let cafes = ask("how many stations have more than 2 cafes").await;
    assert!(cafes["count"].is_null(), "{cafes}");
    let why = cafes["abstention"].as_str().unwrap_or_default();
    assert!(
        why.contains("no column") && why.contains("“Platforms”"),
        "{why}"
    );

    // The page shows the condition read and the rows.
    let page = page_text(
        server.url("/?q=how+many+stations+have+more+than+4+platforms&mode=count&corpus=tables"),
    )
    .await;
    assert!(page.contains("Condition read: Platforms &gt; 4"), "{page}");
    assert!(
        page.contains("Counted the rows where Platforms &gt; 4 of the table in “sandmere-stations.csv”: 3 of 5 rows."),
        "{page}"
    );
    assert!(page.contains("Mill Lane"), "the rows left out are shown");
    // The cell written as SQL is a cell: the tables are all still there.
    assert_eq!(
        ask("how many stations opened after 1990").await["count"],
        3.0,
        "the record tables survive"
    );
}

/// The aggregations SQL computes over the database's record tables are the ones the engine
/// computes in code over the same documents: every question of the collection
/// (tests/fixtures/aggregations) the records answer, asked through the web API and in memory.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sql_and_code_agree_on_the_collection() {
    use tally_documents::corpus::budget::ReadBudget;
    use tally_documents::corpus::documents::read_file;
    use tally_documents::corpus::format::Format;
    use tally_documents::corpus::indexing::{self, Indexes};
    use tally_documents::snippet_index::SnippetIndex;
    use tally_documents::tables::MemoryRecords;
    use tally_engine::records::answer_over;

    let dir =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/aggregations");
    let mut paths: Vec<_> = std::fs::read_dir(dir.join("documents"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    paths.sort();
    let server = demo_server("aggregations-sql", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let mut form = Form::new().text("corpus", "collection");
    let mut read = Vec::new();
    for path in &paths {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let bytes = std::fs::read(path).unwrap();
        let format = Format::of_file(&name, &bytes).unwrap();
        read.extend(read_file(&bytes, format, &name, &ReadBudget::for_bytes(bytes.len())).unwrap());
        form = form.part("file", file(&name, std::str::from_utf8(&bytes).unwrap()));
    }
    upload_and_wait(&client, &server, form).await;
    let index = SnippetIndex::in_memory().unwrap();
    indexing::ingest(
        &Indexes {
            snippets: Some(&index),
            sentences: None,
        },
        "collection",
        &read,
        &mut |_| {},
    )
    .unwrap();
    let records = MemoryRecords::from_snippet_index(&index, "collection").unwrap();
    let settings = tally_types::count::CountSettings {
        corpus: Some("collection".into()),
        ..Default::default()
    };
    let questions = std::fs::read_to_string(dir.join("questions.jsonl")).unwrap();
    let mut compared = 0;
    for line in questions.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).unwrap();
        let question = case["question"].as_str().unwrap();
        let scope = ["collection".to_string()];
        let Some(in_memory) =
            answer_over(question, &settings, &records, &scope).unwrap_or_else(|e| match e {})
        else {
            continue;
        };
        let url = server.url("/api/count");
        let (status, body) = json(
            client
                .get(url)
                .query(&[("q", question), ("corpus", "collection")])
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::OK, "{question}: {body}");
        let over_sql = &body["answer"];
        let sql_count = over_sql["count"].as_f64();
        match (in_memory.count, sql_count) {
            (Some(a), Some(b)) => assert!(
                (a - b).abs() <= 1e-6 * a.abs().max(1.0),
                "{question}: {a} in code, {b} in SQL"
            ),
            (a, b) => assert_eq!(a, b, "{question}: {over_sql}"),
        }
        let code = in_memory.aggregation.as_ref();
        assert_eq!(
            code.and_then(|a| a.name.clone()),
            over_sql["aggregation"]["name"].as_str().map(str::to_string),
            "{question}"
        );
        assert_eq!(
            code.map(|a| a.rows_taken),
            over_sql["aggregation"]["rows_taken"]
                .as_u64()
                .map(|n| n as usize),
            "{question}"
        );
        compared += 1;
    }
    // Most of the collection's questions are the records'.
    assert!(compared >= 50, "only {compared} questions compared");
}
