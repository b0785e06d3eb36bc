//! A person's own documents: uploaded on the corpus pages (admin token) as text, HTML and JSONL,
//! indexed with progress as server-sent events, asked about, listed and deleted.

use reqwest::multipart::{Form, Part};
use reqwest::StatusCode;
use serde_json::Value;

use crate::support::{admin_page_text, demo_server, page_text, scratch_dir, Server};

pub(crate) const TOKEN: &str = "admin-7c1e";

const TEXT: &str = "The Hartwell Municipal Library opened in 1911.\n\n\
The library has 14 reading rooms on four floors, and holds 2.5 million books.\n\n\
Visitors can study in any of the 14 reading rooms until 10 pm.\n";
const HTML: &str = "<html><head><title>Hartwell Library guide</title></head><body>\
<h1>Rooms</h1><p>All 14 reading rooms of the Hartwell library were renovated in 2019.</p>\
<script>var tracking = 1;</script></body></html>";
pub(crate) const JSONL: &str = "{\"title\": \"Hartwell news\", \"text\": \"The Hartwell library now counts 14 reading rooms after the west wing reopened.\"}\n";

pub(crate) fn file(name: &str, text: &str) -> Part {
    Part::bytes(text.as_bytes().to_vec()).file_name(name.to_string())
}

pub(crate) fn upload_form(corpus: &str) -> Form {
    with_files(Form::new(), corpus)
}

/// The corpus name and three files, after whatever `form` holds already.
fn with_files(form: Form, corpus: &str) -> Form {
    form.text("corpus", corpus.to_string())
        .part("file", file("hartwell.txt", TEXT))
        .part("file", file("guide.html", HTML))
        .part("file", file("news.jsonl", JSONL))
}

/// Deletes an uploaded corpus through the admin API: its status and JSON body.
async fn delete_corpus(
    client: &reqwest::Client,
    server: &Server,
    name: &str,
) -> (StatusCode, Value) {
    json(
        client
            .delete(server.url(&format!("/api/admin/corpora/{name}")))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap(),
    )
    .await
}

/// Uploads `form` through the admin API and waits for its job's `done` event.
pub(crate) async fn upload_and_wait(client: &reqwest::Client, server: &Server, form: Form) {
    let response = client
        .post(server.url("/api/admin/corpora"))
        .bearer_auth(TOKEN)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    let events = admin_page_text(server.url(&format!("{location}/events")), TOKEN).await;
    assert!(events.contains("event: done"), "{events}");
}

/// The sources of an answer's snippets.
fn sources_of(answer: &Value) -> Vec<&str> {
    answer["snippets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["source"].as_str().unwrap())
        .collect()
}

/// The count an answer read: the count given, or, where the answer gates (issue 86) found it
/// unsure, the count its decline says the closest reading gives.
pub(crate) fn read_count(answer: &Value) -> Option<f64> {
    if let Some(count) = answer["count"].as_f64() {
        return Some(count);
    }
    let why = answer["abstention"].as_str()?;
    let rest = why.split("the closest reading gives ").nth(1)?;
    rest.split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()?
        .trim_end_matches('.')
        .parse()
        .ok()
}

pub(crate) async fn json(response: reqwest::Response) -> (StatusCode, Value) {
    (response.status(), response.json().await.unwrap())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn documents_are_uploaded_followed_asked_about_and_deleted() {
    let server = demo_server("own-documents", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let corpora_url = server.url("/api/admin/corpora");

    // Closed without the token.
    let (status, body) = json(client.get(&corpora_url).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    assert_eq!(body["error"], "the corpus pages need the admin token");
    let (status, _) = json(
        client
            .post(&corpora_url)
            .multipart(upload_form("hartwell"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // A token in the form opens only what comes after it: files sent before it are refused
    // unread, and a wrong token is refused before the files.
    for (form, expected) in [
        (
            upload_form("hartwell").text("token", TOKEN),
            "the corpus pages need the admin token",
        ),
        (
            with_files(Form::new().text("token", "guess"), "hartwell"),
            "the admin token is wrong",
        ),
    ] {
        // Refused before the files are read, the connection may close before the client has
        // sent them all: then the refusal is not read, but nothing was taken either.
        match client.post(&corpora_url).multipart(form).send().await {
            Ok(response) => {
                let (status, body) = json(response).await;
                assert_eq!(status, StatusCode::FORBIDDEN, "{body}");
                assert_eq!(body["error"], expected);
            }
            Err(e) => assert!(e.is_request(), "{e}"),
        }
    }

    // Bad uploads are refused with a sentence, before anything is indexed.
    for (form, expected) in [
        (
            upload_form("Hartwell Library"),
            "must be 1 to 40 lower-case",
        ),
        (upload_form("all"), "means every corpus"),
        (
            Form::new()
                .text("corpus", "x")
                .part("file", file("broken.jsonl", "{\"title\": \"no text\"}\n")),
            "broken.jsonl, line 1",
        ),
        (
            Form::new().text("corpus", "x").part(
                "file",
                Part::bytes(vec![0xff, 0xfe, 0x00]).file_name("scan.txt"),
            ),
            "scan.txt is not UTF-8 text",
        ),
        (Form::new().text("corpus", "x"), "choose at least one file"),
        (
            Form::new()
                .text("corpus", "x")
                .part("file", file("empty.txt", " \n\n ")),
            "there is no text to index in empty.txt",
        ),
        // Read off the runtime within a budget: nesting this deep would take minutes.
        (
            Form::new().text("corpus", "x").part(
                "file",
                file(
                    "nested.html",
                    &format!(
                        "{}deep{}",
                        "<div>".repeat(200_000),
                        "</div>".repeat(200_000)
                    ),
                ),
            ),
            "nested.html: reading it took longer than its size allows",
        ),
    ] {
        let (status, body) = json(
            client
                .post(&corpora_url)
                .bearer_auth(TOKEN)
                .multipart(form)
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(body["error"].as_str().unwrap().contains(expected), "{body}");
    }

    // An upload: 202 with the job, whose events end with `done`.
    let response = client
        .post(&corpora_url)
        .bearer_auth(TOKEN)
        .multipart(upload_form("hartwell"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let location = response.headers()["location"].to_str().unwrap().to_string();
    let job: Value = response.json().await.unwrap();
    assert_eq!(job["corpus"], "hartwell");
    assert_eq!(job["documents"], 3);
    assert_eq!(
        location,
        format!("/api/admin/jobs/{}", job["id"].as_str().unwrap())
    );
    let events = admin_page_text(server.url(&format!("{location}/events")), TOKEN).await;
    assert!(events.contains("event: done"), "{events}");
    let last = events
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("data: "))
        .unwrap();
    let done: Value = serde_json::from_str(last).unwrap();
    assert_eq!(done["state"], "done", "{done}");
    assert_eq!(done["documents_done"], 3);
    // Three paragraphs, the page's paragraph (its heading is its context), one JSONL line.
    assert_eq!(done["snippets"], 5, "{done}");
    assert!(done["sentences"].as_u64().unwrap() >= 5, "{done}");
    let (_, again) = json(
        client
            .get(server.url(&location))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(again, done);

    // Listed with its sizes next to the demo corpus.
    let (status, corpora) = json(
        client
            .get(&corpora_url)
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let names: Vec<&str> = corpora
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"demo") && names.contains(&"hartwell"),
        "{corpora}"
    );
    let hartwell = corpora
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "hartwell")
        .unwrap();
    assert_eq!(hartwell["snippets"], done["snippets"]);
    assert_eq!(hartwell["sentences"], done["sentences"]);

    // Asked about, with the corpus chosen: the answer comes from the uploaded documents.
    let question =
        "/api/count?q=how+many+reading+rooms+does+the+hartwell+library+have&corpus=hartwell";
    let (status, answer) = json(client.get(server.url(question)).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let answer = &answer["answer"];
    assert_eq!(answer["count"], 14.0, "{answer}");
    let sources = sources_of(answer);
    // The page's title names it; its first heading is the section the passage sits in.
    assert!(
        sources.contains(&"Hartwell Library guide › Rooms"),
        "{sources:?}"
    );
    assert!(sources.contains(&"Hartwell news"), "{sources:?}");
    let texts = answer["snippets"].to_string();
    assert!(!texts.contains("tracking"), "scripts are not text");
    // A value question reads the new sentences too.
    let (status, value) = json(
        client
            .get(server.url("/api/value?q=how+many+books+does+the+hartwell+library+hold"))
            .send()
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{value}");
    assert_eq!(value["value"], 2_500_000.0, "{value}");

    // The pages: the list with its forms, the job's page, the settings' corpus choice.
    let page = page_text(server.url(&format!("/admin?token={TOKEN}"))).await;
    assert!(
        page.contains(r#"data-corpus="hartwell""#),
        "listed on the page"
    );
    assert!(page.contains(r#"action="/admin/corpora/hartwell/delete""#));
    assert!(page.contains(r#"enctype="multipart/form-data""#));
    // Behind the token (issue 97): without it the page asks for the login.
    let job_path = format!("/admin/jobs/{}", job["id"].as_str().unwrap());
    let anonymous = page_text(server.url(&job_path)).await;
    assert!(anonymous.contains(r#"id="login-needed""#), "{anonymous}");
    assert!(!anonymous.contains("hartwell"), "{anonymous}");
    let job_page = client
        .get(server.url(&format!("{job_path}?token={TOKEN}")))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(job_page.contains(r#"data-state="done""#), "{job_page}");
    let home = page_text(server.url("/")).await;
    assert!(
        home.contains(r#"<option value="hartwell""#),
        "the settings offer the corpus"
    );
    assert!(
        !home.contains("setting-snippet-source"),
        "no web choice without a web search"
    );
    let spec: Value = client
        .get(server.url("/api/openapi.json"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let parameters = spec["paths"]["/api/count"]["get"]["parameters"].to_string();
    assert!(!parameters.contains("snippet_set") && parameters.contains(r#"["corpus"]"#));

    // The page's form: a browser is sent to the job's page, or back with the reason.
    let no_redirects = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    // As the page's form: the token field first, then the files.
    let from_page = |corpus: &str| {
        no_redirects
            .post(&corpora_url)
            .header("accept", "text/html")
            .multipart(with_files(Form::new().text("token", TOKEN), corpus))
            .send()
    };
    let response = from_page("hartwell-2").await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert!(response.headers()["location"]
        .to_str()
        .unwrap()
        .starts_with("/admin/jobs/"));
    let response = from_page("Bad Name").await.unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    let back = response.headers()["location"].to_str().unwrap().to_string();
    assert!(
        back.starts_with("/admin?token=") && back.contains("error="),
        "{back}"
    );
    let shown = page_text(server.url(&back)).await;
    assert!(shown.contains(r#"id="admin-error""#), "the page says why");

    // Deleted: gone from the list, and asking with it is a 400.
    let (status, deleted) = delete_corpus(&client, &server, "hartwell").await;
    assert_eq!(status, StatusCode::OK, "{deleted}");
    assert_eq!(deleted["snippets"], done["snippets"]);
    let (status, body) = json(client.get(server.url(question)).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(body["error"]
        .as_str()
        .unwrap()
        .contains("unknown corpus `hartwell`"));
    let (status, body) = delete_corpus(&client, &server, "hartwell").await;
    // Deleting a corpus that is not there is a 404, not a bad request.
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(body["error"], "there is no corpus `hartwell`");
    // The page's delete button needs the token too.
    let response = no_redirects
        .post(server.url("/admin/corpora/demo/delete"))
        .form(&[("token", "guess")])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
    let response = no_redirects
        .post(server.url("/admin/corpora/hartwell-2/delete"))
        .form(&[("token", TOKEN)])
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::SEE_OTHER);
    assert!(response.headers()["location"]
        .to_str()
        .unwrap()
        .contains("deleted=hartwell-2"));
}

/// Value questions read the observations written beside the sentences: a restarted server
/// answers them over an uploaded corpus from its index (nothing is described again at start),
/// and a deleted corpus takes its observations with it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_corpus_answers_value_questions_after_a_restart_until_deleted() {
    let dir = scratch_dir("own-documents-restart");
    let empty = dir.join("no-data");
    std::fs::create_dir_all(&empty).unwrap();
    let (pg, data) = (dir.join("pg"), empty);
    let args = [
        "--pg-dir",
        pg.to_str().unwrap(),
        "--data",
        data.to_str().unwrap(),
        "--admin-token",
        TOKEN,
    ];
    let client = reqwest::Client::new();
    let server = Server::start(&dir, "server", &args, &[]).await;
    server.wait_until_answering().await;
    upload_and_wait(&client, &server, upload_form("hartwell")).await;
    assert!(server.stop().success());

    let server = Server::start(&dir, "server", &args, &[]).await;
    server.wait_until_answering().await;
    let books = server.url("/api/value?q=how+many+books+does+the+hartwell+library+hold");
    let (status, value) = json(client.get(&books).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    assert_eq!(value["value"], 2_500_000.0, "{value}");
    let (status, _) = delete_corpus(&client, &server, "hartwell").await;
    assert_eq!(status, StatusCode::OK);
    let (status, value) = json(client.get(&books).send().await.unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    assert!(value["value"].is_null(), "{value}");
}

/// A person's own document, about something no other corpus knows: a fact it states once is
/// answered, a question about something no passage is about is declined with the passages
/// found still shown, and a question it does not answer is declined (issue 47).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uploaded_document_answers_what_it_states_once_and_declines_the_rest() {
    const LIGHTHOUSE: &str = "Calder Point Lighthouse\n\n\
The Calder Point Lighthouse stands on the northern cape of Ferrin Island. It was first lit in 1874.\n\n\
The tower has 212 steps and five windows facing the sea. Three keepers lived there until the light was automated in 1961.\n\n\
The keepers' cottage is now a small museum that shows 40 old lamps.\n";
    let server = demo_server("own-documents-once", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let form = Form::new()
        .text("corpus", "calder")
        .part("file", file("notes.txt", LIGHTHOUSE));
    upload_and_wait(&client, &server, form).await;

    let ask = |question: &str| {
        let url = server.url(&format!(
            "/api/count?q={}&corpus=calder",
            question.replace(' ', "+")
        ));
        let client = client.clone();
        async move {
            let (status, body) = json(client.get(url).send().await.unwrap()).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            body["answer"].clone()
        }
    };
    // Stated once, in digits and in words, each in a paragraph that says only "the tower" or
    // "the keepers": the document's title line names what they are about.
    for (question, count) in [
        (
            "how many steps does the Calder Point Lighthouse have",
            212.0,
        ),
        ("how many keepers lived at the Calder Point Lighthouse", 3.0),
    ] {
        let answer = ask(question).await;
        assert_eq!(answer["count"], count, "{question}: {answer}");
        let sources = sources_of(&answer);
        assert!(sources.contains(&"Calder Point Lighthouse"), "{sources:?}");
    }
    // Nothing in the document counts visitors: declined.
    let answer = ask("how many visitors does the Calder Point Lighthouse get each year").await;
    assert!(answer["count"].is_null(), "{answer}");
    assert!(answer["abstention"].is_string(), "{answer}");
    // The tower's steps, but of another tower: no passage is about the Eiffel Tower, so the
    // question is declined, saying so, with the passages found still listed.
    let answer = ask("how many steps does the Eiffel Tower have").await;
    assert!(answer["count"].is_null(), "{answer}");
    let reason = answer["abstention"].as_str().unwrap();
    assert!(reason.contains("is about eiffel tower"), "{reason}");
    assert!(
        !answer["snippets"].as_array().unwrap().is_empty(),
        "{answer}"
    );
}

/// The admin login: the token, posted once, becomes an HttpOnly, SameSite=Strict cookie that
/// holds a digest of it, never the token; the corpus pages and their endpoints, uploads, the
/// feedback rows and the study's results take the cookie, so no URL carries the token. A wrong
/// token gets no cookie; logging out forgets it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_admin_logs_in_once_and_no_url_carries_the_token() {
    let server = demo_server("admin-login", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let login = |token: &'static str, next: &'static str| {
        client
            .post(server.url("/admin/login"))
            .form(&[("token", token), ("next", next)])
            .send()
    };
    // Without a login the page is the login form (not an error); the endpoints stay closed.
    let first = client.get(server.url("/admin")).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    let first = first.text().await.unwrap();
    assert!(first.contains(r#"id="login-form""#) && first.contains(r#"id="login-needed""#));
    let wrong = login("guess", "/admin").await.unwrap();
    assert_eq!(wrong.status(), StatusCode::SEE_OTHER);
    let sets_login = |r: &reqwest::Response| {
        r.headers()
            .get_all("set-cookie")
            .iter()
            .any(|c| c.to_str().unwrap().starts_with("tally_admin="))
    };
    assert!(!sets_login(&wrong));
    // A wrong token goes to the login page, which still knows where to go back to.
    let back = wrong.headers()["location"].to_str().unwrap();
    assert!(back.starts_with("/login?next=%2Fadmin&error="), "{back}");
    let shown = page_text(server.url(back)).await;
    assert!(
        shown.contains(r#"id="login-error""#) && shown.contains(r#"value="/admin""#),
        "the login page says why and keeps the page that asked"
    );
    // A login goes back to any page of this site that asked, never to another site.
    for (next, lands) in [
        ("/admin/jobs/abc", "/admin/jobs/abc"),
        ("/?q=how+many", "/?q=how+many"),
        ("//evil.example/", "/admin"),
        ("https://evil.example/", "/admin"),
        ("/\\evil.example", "/admin"),
    ] {
        let right = client
            .post(server.url("/admin/login"))
            .form(&[("token", TOKEN), ("next", next)])
            .send()
            .await
            .unwrap();
        assert_eq!(right.headers()["location"], lands, "{next}");
    }

    let right = login(TOKEN, "/study/summary").await.unwrap();
    assert_eq!(right.status(), StatusCode::SEE_OTHER);
    assert_eq!(right.headers()["location"], "/study/summary");
    assert!(sets_login(&right));
    let set = right
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|c| c.to_str().unwrap().to_string())
        .find(|c| c.starts_with("tally_admin="))
        .unwrap();
    assert!(
        set.contains("HttpOnly") && set.contains("SameSite=Strict"),
        "{set}"
    );
    assert!(!set.contains(TOKEN), "{set}");
    let cookie = set.split(';').next().unwrap().to_string();
    assert!(cookie.starts_with("tally_admin="), "{cookie}");

    let get = |path: &str| {
        client
            .get(server.url(path))
            .header("cookie", &cookie)
            .send()
    };
    let corpora = get("/api/admin/corpora").await.unwrap();
    assert_eq!(corpora.status(), StatusCode::OK);
    assert!(corpora.text().await.unwrap().contains("\"demo\""));
    assert_eq!(get("/api/feedback").await.unwrap().status(), StatusCode::OK);
    assert_eq!(
        get("/study/export?format=json").await.unwrap().status(),
        StatusCode::OK
    );
    let page = get("/admin").await.unwrap().text().await.unwrap();
    assert!(
        page.contains(r#"data-corpus="demo""#),
        "the page lists the corpora"
    );
    let summary = get("/study/summary").await.unwrap().text().await.unwrap();
    assert!(
        summary.contains(r#"id="study-counts""#),
        "the study's results"
    );
    // Admitted by the cookie alone, an upload must carry the page's form token (issue 70).
    let refused = client
        .post(server.url("/api/admin/corpora"))
        .header("cookie", &cookie)
        .multipart(upload_form("logged-in"))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let form_token = crate::support::quoted_after(&page, "name=\"form_token\" value=\"")
        .expect("the page's forms carry a form token");
    let upload = client
        .post(server.url("/api/admin/corpora"))
        .header("cookie", &cookie)
        .multipart(with_files(
            Form::new().text("form_token", form_token),
            "logged-in",
        ))
        .send()
        .await
        .unwrap();
    assert_eq!(upload.status(), StatusCode::ACCEPTED);
    // Without the cookie, closed as before.
    let closed = client
        .get(server.url("/api/admin/corpora"))
        .send()
        .await
        .unwrap();
    assert_eq!(closed.status(), StatusCode::FORBIDDEN);

    let out = client
        .post(server.url("/admin/logout"))
        .header("cookie", &cookie)
        .send()
        .await
        .unwrap();
    let forget = out.headers()["set-cookie"].to_str().unwrap();
    assert!(
        forget.starts_with("tally_admin=;") && forget.contains("Max-Age=0"),
        "{forget}"
    );
    assert!(
        !server.log_text().contains(TOKEN),
        "the token is never logged"
    );
}

/// Documents read as a person reads them (issue 58): a table, a spec sheet in Markdown, meeting
/// minutes whose subject is named only in their heading, a dated history and an HTML infobox,
/// uploaded through the web API; answers read from a table cell, a spec line, a list, a
/// year-bound entry and a heading, a decline for what the documents do not say, and the page
/// shows each passage's context and how the count was read.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn structured_documents_answer_from_cells_lines_lists_years_and_headings() {
    const RESULTS: &str = "Brenmoor Spring Games — final results\n\n\
Team | Players | Gold | Silver | Bronze | Points\n\
Falcon | 64 | 8 | 5 | 3 | 301\n\
Harrier | 12 | 3 | 6 | 2 | 140\n\
Kestrel Blue | 30 | 1 | 1 | 9 | 95\n";
    const SPEC: &str = "# Orla S2 robot vacuum\n\nQuiet and small enough for any flat.\n\n\
## Specifications\n\n- Suction: 4,000 Pa\n- Battery: 3200 mAh\n- Side brushes: 2\n- Height: 8.5 cm\n";
    const MINUTES: &str = "Harbour Clinic — staff meeting, 3 March\n\n\
Present: Ann Hale (chair), Ben Ode (treasurer), Cy Dunn, Di Marsh\n\n\
LENA: We took on three new porters this week. They start on Monday.\n\n\
BEN: The new film printer has arrived. It cost £5,200.\n";
    const HISTORY: &str = "Pellow Bakery: our story\n\n\
2001 — Opened in Mill Lane with 3 shops and a van.\n\
2008 — The family now runs 7 shops across the county.\n\
2015 — Eleven shops, and a new bakehouse in Tarn.\n";
    const INFOBOX: &str = "<html><head><title>Carn Ruadh</title></head><body>\
<table><tr><td>Highest point</td><td>Carn Ruadh, 412 m</td></tr>\
<tr><td>Population (2021)</td><td>3,480</td></tr></table>\
<h2>Geography</h2><p>Sea cliffs on the west coast of Carn Ruadh rise up to 120 m.</p></body></html>";
    const REPORT: &str = "Pell County council — the year in review\n\n\
The Pell County council has 45 seats. In this year's election the Green Alliance won 17 seats, \
the Farmers' Party won 14 and the Civic League won 9.\n\n\
The Pelsham Green branch office opened in 2011. Staff: 7. It shares a building with the library.\n";
    let server = demo_server("own-documents-structure", &["--admin-token", TOKEN]).await;
    let client = reqwest::Client::new();
    let form = Form::new()
        .text("corpus", "structure")
        .part("file", file("results.txt", RESULTS))
        .part("file", file("orla.md", SPEC))
        .part("file", file("minutes.txt", MINUTES))
        .part("file", file("history.txt", HISTORY))
        .part("file", file("carn-ruadh.html", INFOBOX))
        .part("file", file("review.txt", REPORT));
    upload_and_wait(&client, &server, form).await;

    let ask = |kind: &'static str, question: &str| {
        // Count questions keep to the collection; value questions read every corpus.
        let corpus = if kind == "count" {
            "&corpus=structure"
        } else {
            ""
        };
        let url = server.url(&format!(
            "/api/{kind}?q={}{corpus}",
            question.replace(' ', "+")
        ));
        let client = client.clone();
        async move {
            let (status, body) = json(client.get(url).send().await.unwrap()).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            body
        }
    };
    // A table row is read as a passage of its own, each cell under its column's name.
    let falcon = ask("count", "how many gold medals did team falcon win").await["answer"].clone();
    assert!(
        falcon["snippets"]
            .to_string()
            .contains("Team: Falcon — Players: 64; Gold: 8; Silver: 5"),
        "{falcon}"
    );
    for (question, count, how) in [
        (
            "how many gold medals did team falcon win",
            8.0,
            "Gold, row Falcon",
        ),
        (
            "how many side brushes does the orla s2 have",
            2.0,
            "Side brushes",
        ),
        (
            "how many people were at the harbour clinic staff meeting",
            4.0,
            "list of 4",
        ),
        ("how many shops did pellow bakery have in 2008", 7.0, "2008"),
        // A labelled count inside running text, and the clause that says who won.
        (
            "how many staff work at the pelsham green branch office",
            7.0,
            "Staff",
        ),
        (
            "how many seats did the green alliance win in pell county",
            17.0,
            "Green Alliance won 17 seats",
        ),
    ] {
        let answer = ask("count", question).await["answer"].clone();
        assert_eq!(read_count(&answer), Some(count), "{question}: {answer}");
        let read = answer["read_from"]["how"].as_str().unwrap_or_default();
        assert!(read.contains(how), "{question}: {read}");
    }
    // The subject only in the minutes' heading: its passage is read in that context.
    let answer = ask(
        "count",
        "how many new porters did the harbour clinic take on",
    )
    .await["answer"]
        .clone();
    assert_eq!(read_count(&answer), Some(3.0), "{answer}");
    assert!(
        sources_of(&answer)
            .iter()
            .any(|s| s.starts_with("Harbour Clinic — staff meeting")),
        "{answer}"
    );
    // Nothing in the documents counts the clinic's ambulances: declined.
    let answer =
        ask("count", "how many ambulances does the harbour clinic have").await["answer"].clone();
    assert!(answer["count"].is_null(), "{answer}");
    // Values from a spec line (its label "Height" for "how tall"), an infobox row (not the
    // cliffs' height in the prose), and "It cost …" read with the sentence before it.
    let tall = ask("value", "how tall is the orla s2").await;
    assert_eq!(tall["representative"], "8.5 cm", "{tall}");
    let high = ask("value", "how high is carn ruadh").await;
    assert_eq!(high["representative"], "412 m", "{high}");
    let cost = ask(
        "value",
        "what did the new film printer at the harbour clinic cost",
    )
    .await;
    assert_eq!(cost["representative"], "£5,200", "{cost}");

    // The page: the passage's context as its source, and how the count was read.
    let page = page_text(
        server.url("/?q=how+many+gold+medals+did+team+falcon+win&mode=count&corpus=structure"),
    )
    .await;
    assert!(
        page.contains("Brenmoor Spring Games — final results"),
        "context shown"
    );
    assert!(
        page.contains("read from a table: Gold, row Falcon"),
        "how it was read"
    );
    assert!(page.contains(r#"id="read-from""#), "how it was read");
}
