//! Typed records from the upload to the answer (issue 71): a CSV table, an HTML page (a fee
//! table, a committee list under its heading, a definition list) and a Markdown README (a
//! release table), uploaded through the web API; a cell found by its row and its column (not
//! the neighbouring column's), a list counted in code with its items as the answer's names, a
//! definition read under its term, rows counted from a table's first column, an attribute the
//! documents do not hold declined, and the page saying where the count came from.

use reqwest::multipart::Form;
use reqwest::StatusCode;

use crate::own_documents::{file, json, upload_and_wait, TOKEN};
use crate::support::{demo_server, page_text};

const FIGURES: &str = "Year,Bus routes,Night buses,Depots\n\
2017,38,4,2\n\
2018,41,6,3\n\
2019,44,9,3\n";

const CLUB: &str = "<html><head><title>Brackwell Rowing Club</title></head><body>\
<h1>Brackwell Rowing Club</h1><p>A friendly club on the river since 1921.</p>\
<h2>Fees</h2><table><tr><th>Membership</th><th>Annual fee</th><th>Locker</th></tr>\
<tr><td>Adult</td><td>£320</td><td>£40</td></tr>\
<tr><td>Junior</td><td>£95</td><td>£25</td></tr></table>\
<h2>Committee</h2><ul><li>Ann Hale (chair)</li><li>Ben Ode</li><li>Cy Dunn</li>\
<li>Di Marsh</li><li>Ed Lowe</li></ul>\
<h2>The club launch</h2><dl><dt>Seats</dt><dd>48</dd><dt>Length</dt><dd>14 m</dd></dl>\
</body></html>";

const README: &str = "# marlo\n\nA small tool for tidy file names.\n\n## Releases\n\n\
| Version | Date | Authors | Bugs fixed |\n|---|---|---|---|\n\
| 4.0 | 2024-02-01 | 3 | 12 |\n| 4.1 | 2024-06-12 | 5 | 21 |\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn records_answer_cells_lists_definitions_and_decline_what_is_not_there() {
    let server = demo_server("records", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let form = Form::new()
        .text("corpus", "records")
        .part("file", file("corrowby-transit.csv", FIGURES))
        .part("file", file("brackwell.html", CLUB))
        .part("file", file("marlo.md", README));
    upload_and_wait(&client, &server, form).await;
    let ask = |question: &str| {
        let url = server.url(&format!(
            "/api/count?q={}&corpus=records",
            question.replace(' ', "+")
        ));
        let client = client.clone();
        async move {
            let (status, body) = json(client.get(url).send().await.unwrap()).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            body["answer"].clone()
        }
    };

    // A cell by its row and its column, not the neighbouring column's.
    for (question, count, how) in [
        (
            "how many night buses did corrowby transit run in 2019",
            9.0,
            "Night buses, row 2019",
        ),
        (
            "how many bugs were fixed in marlo 4.1",
            21.0,
            "Bugs fixed, row 4.1",
        ),
        // A definition under its term.
        (
            "how many seats does the brackwell rowing club launch have",
            48.0,
            "Seats",
        ),
    ] {
        let answer = ask(question).await;
        assert_eq!(answer["count"], count, "{question}: {answer}");
        let read = answer["read_from"]["how"].as_str().unwrap_or_default();
        assert!(read.contains(how), "{question}: {read}");
    }

    // A list under its heading, counted in code, its items the answer's names.
    let committee = ask("how many people are on the brackwell rowing club committee").await;
    assert_eq!(committee["count"], 5.0, "{committee}");
    let names: Vec<&str> = committee["instances"]
        .as_array()
        .map(|names| names.iter().filter_map(|n| n["name"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        names,
        [
            "Ann Hale (chair)",
            "Ben Ode",
            "Cy Dunn",
            "Di Marsh",
            "Ed Lowe"
        ],
        "{committee}"
    );

    // A value from the cell of the row and the column named, not the adult fee or the locker.
    let fee_url =
        server.url("/api/value?q=how+much+is+the+junior+annual+fee+at+brackwell+rowing+club");
    let (status, fee) = json(client.get(fee_url).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{fee}");
    assert_eq!(fee["representative"], "£95", "{fee}");

    // An attribute the table does not have is declined, not read from another column.
    let trams = ask("how many trams did corrowby transit run in 2019").await;
    assert!(trams["count"].is_null(), "{trams}");

    // The page says where the count came from.
    let page = page_text(server.url(
        "/?q=how+many+night+buses+did+corrowby+transit+run+in+2019&mode=count&corpus=records",
    ))
    .await;
    assert!(
        page.contains("read from a table: Night buses, row 2019"),
        "how it was read"
    );
}
