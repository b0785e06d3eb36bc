//! The status page hydrates in a real browser: headless Chromium (Debian's), driven by
//! playwright-core, clicks "Check again", which only works with the WASM app running.
//! Needs the site built by `cargo leptos build` (the README's test command does it).

use std::process::Command;

use crate::support::{
    form_action, quoted_after, require_built_site, scratch_dir, two_demo_servers,
    unreachable_database_url, workspace_root, Server, TwoServers,
};

/// Runs a playwright-core script with node; fails with its output and the server's log, or
/// returns what it printed.
fn run_browser_script(server: &Server, script: &str, args: &[&str]) -> String {
    let output = Command::new("node")
        .current_dir(workspace_root())
        .arg(script)
        .args(args)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "browser test failed\nstdout:\n{stdout}\nstderr:\n{stderr}\nserver log:\n{}",
        server.log_text()
    );
    println!("{stdout}");
    stdout
}

#[tokio::test]
async fn status_page_hydrates_and_rechecks() {
    let root = workspace_root();
    require_built_site();
    let dir = scratch_dir("browser");
    let db_url = unreachable_database_url();
    let server = Server::start(
        &dir,
        "server",
        &["--admin-token", crate::support::ADMIN_TOKEN],
        &[("DATABASE_URL", &db_url)],
    )
    .await;
    let screenshot = root.join("target/browser/status.png");
    let _ = std::fs::remove_file(&screenshot);

    run_browser_script(
        &server,
        "tests/browser/hydration.mjs",
        &[&server.url("/status"), &screenshot.display().to_string()],
    );
    let png = std::fs::read(&screenshot).expect("screenshot saved");
    assert!(png.starts_with(b"\x89PNG"), "screenshot is a PNG");
    assert!(server.stop().success());
}

/// A person asks a dataset count question and a quantity search in the browser; the feedback
/// the page confirms is in the database, tied to the answer the page shows.
#[tokio::test]
async fn questions_answers_and_feedback_in_a_browser() {
    let root = workspace_root();
    require_built_site();
    let dir = scratch_dir("browser-answers");
    let pg = dir.join("pg").display().to_string();
    let server = Server::start(
        &dir,
        "server",
        &[
            "--pg-dir",
            &pg,
            "--admin-token",
            crate::support::ADMIN_TOKEN,
        ],
        &[],
    )
    .await;
    server.wait_until_answering().await;
    let shots = root.join("target/browser");

    let stdout = run_browser_script(
        &server,
        "tests/browser/answers.mjs",
        &[&server.base_url, &shots.display().to_string()],
    );
    let seen: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    // The answer shown is right by CoQEx's relaxed precision (gold 180).
    let count: f64 = seen["count"]
        .as_str()
        .unwrap()
        .replace(',', "")
        .parse()
        .unwrap();
    assert!(count.min(180.0) / count.max(180.0) >= 0.9 - 1e-12, "{seen}");
    // Opened by its URL, a new count question showed what it was doing before its answer came,
    // and the notice went once the answer was there; a value question without an answer said so.
    let first = seen["progress_first"].as_str().unwrap();
    assert!(
        first.contains("how many songs did billy joel write") && first.contains("count question"),
        "{first}"
    );
    assert_eq!(seen["progress_hidden_after"], true, "{seen}");
    assert_eq!(seen["no_answer"], "No value found in this corpus", "{seen}");
    // The progress list showed the pipeline's stages, in order, while the answer was computed.
    let stages: Vec<&str> = seen["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let order = [
        "retrieval",
        "analysis",
        "span scoring",
        "consolidation",
        "contextualization",
        "instances",
    ];
    assert!(stages.len() >= 2, "too few stages seen: {stages:?}");
    assert_eq!(stages, order[..stages.len()], "{stages:?}");
    // While a stage runs, the list says which ("… Reading the count phrases of every snippet").
    let under_way: Vec<&str> = seen["under_way"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s.as_str().unwrap())
        .collect();
    let doing: Vec<&str> = tally_types::count::Stage::ALL
        .iter()
        .map(|s| s.doing())
        .collect();
    assert!(!under_way.is_empty(), "no stage under way was shown");
    assert!(under_way.iter().all(|d| doing.contains(d)), "{under_way:?}");

    let feedback =
        crate::support::get_as_admin(&server, &format!("/api/feedback/{}", seen["feedback_id"]))
            .await;
    assert_eq!(feedback["answer_id"], seen["answer_id"], "{feedback}");
    assert_eq!(feedback["part"], "instance");
    assert_eq!(feedback["part_ref"], seen["instance"]);
    assert_eq!(feedback["verdict"], "relevant");

    // The value question was detected as one, shown in another unit by the unit switch (the
    // same value, converted as the unit table converts), and its observation feedback stored.
    let value = &seen["value"];
    assert!(
        value["kind_note"]
            .as_str()
            .unwrap()
            .contains("Answered as a value question"),
        "{value}"
    );
    // Shown values are rounded to three significant figures, and lengths under 10 feet to the
    // inch ("6 ft 7 in"), so the two sides agree within 1%.
    let number = |shown: &serde_json::Value| -> f64 {
        let text = shown.as_str().unwrap().replace(',', "");
        let words: Vec<&str> = text.split(' ').collect();
        let first: f64 = words[0].parse().unwrap();
        match words.as_slice() {
            [_, "ft", inches, "in"] => first + inches.parse::<f64>().unwrap() / 12.0,
            _ => first,
        }
    };
    let (from, to) = (
        value["from"].as_str().unwrap(),
        value["to"].as_str().unwrap(),
    );
    let expected = tally_text::UnitTable::builtin()
        .convert_ids(number(&value["shown"]), from, to)
        .unwrap();
    let switched = number(&value["switched"]);
    assert!(
        (switched - expected).abs() <= 1e-2 * expected.abs().max(1.0),
        "{value}: {expected}"
    );
    let feedback =
        crate::support::get_as_admin(&server, &format!("/api/feedback/{}", value["feedback_id"]))
            .await;
    assert_eq!(feedback["answer_id"], value["answer_id"], "{feedback}");
    assert_eq!(feedback["part"], "observation");
    for name in [
        "value.png",
        "count.png",
        "count-phone-dark.png",
        "search.png",
        "history-desktop.png",
        "history-phone.png",
    ] {
        let png = std::fs::read(shots.join(name)).expect("screenshot saved");
        assert!(png.starts_with(b"\x89PNG"), "{name} is a PNG");
    }
    assert!(server.stop().success());
}

/// An admin logs in on the corpus pages, uploads documents, watches them being indexed (the job's page
/// updates in place from its event stream), asks about them and deletes the corpus.
#[tokio::test]
async fn documents_are_uploaded_and_asked_about_in_a_browser() {
    let root = workspace_root();
    require_built_site();
    let token = "browser-admin-token";
    let server = crate::support::demo_server("browser-corpora", &["--admin-token", token]).await;
    let shots = root.join("target/browser");
    let stdout = run_browser_script(
        &server,
        "tests/browser/corpora.mjs",
        &[&server.base_url, &shots.display().to_string(), token],
    );
    let seen: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    // The page showed the job running and then done, its progress bar moving, without a reload.
    assert_eq!(seen["states"][0], "running", "{seen}");
    assert_eq!(
        seen["states"].as_array().unwrap().last().unwrap(),
        "done",
        "{seen}"
    );
    let progress: Vec<f64> = seen["progress"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    assert!(progress.len() >= 2, "{seen}");
    assert!(progress.windows(2).all(|w| w[0] < w[1]), "{seen}");
    assert_eq!(seen["count"], "14", "{seen}");
    assert_eq!(seen["corpus_listed"], true);
    assert_eq!(seen["deleted"], "Deleted corpus hartwell.");
    assert_eq!(seen["still_listed"], false);
    assert_eq!(seen["delete_hidden_first"], true, "{seen}");
    // Logged in with the page's form: the token was never in the address bar.
    assert_eq!(seen["token_in_url"], false, "{seen}");
    for name in ["corpus-job.png", "corpora.png"] {
        let png = std::fs::read(shots.join(name)).expect("screenshot saved");
        assert!(png.starts_with(b"\x89PNG"), "{name} is a PNG");
    }
    assert!(server.stop().success());
}

/// A participant completes a short study in the browser; the researcher's summary and CSV
/// export (downloaded in the browser) and the JSON export hold exactly those responses.
#[tokio::test]
async fn a_study_is_completed_summarised_and_exported() {
    let root = workspace_root();
    require_built_site();
    let dir = scratch_dir("browser-study");
    let pg = dir.join("pg").display().to_string();
    let study = root.join("tests/studies/short.json").display().to_string();
    let token = "test-admin-token";
    let server = Server::start(
        &dir,
        "server",
        &["--pg-dir", &pg, "--study", &study],
        &[("TALLY_ADMIN_TOKEN", token)],
    )
    .await;
    server.wait_until_answering().await;
    let shots = root.join("target/browser");

    let stdout = run_browser_script(
        &server,
        "tests/browser/study.mjs",
        &[&server.base_url, &shots.display().to_string(), token],
    );
    let seen: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    let choices = seen["choices"].as_array().unwrap();
    let kinds: Vec<&str> = choices
        .iter()
        .map(|c| c["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["judgement", "judgement", "preference", "preference"]
    );
    let code = seen["completion_code"].as_str().unwrap();
    assert!(code.starts_with("TALLY-"), "{code}");
    assert!(
        seen["counts"]
            .as_str()
            .unwrap()
            .starts_with("1 session started, 1 completed, 4 responses."),
        "{}",
        seen["counts"]
    );

    // The CSV downloaded in the browser: a header and the four responses, as chosen.
    let csv = seen["csv"].as_str().unwrap();
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().unwrap().clone();
    let column = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 4, "{csv}");
    for (row, choice) in rows.iter().zip(choices) {
        assert_eq!(
            &row[column("session_id")],
            seen["session"].as_str().unwrap()
        );
        assert_eq!(&row[column("choice")], choice["choice"].as_str().unwrap());
        assert_eq!(&row[column("task_kind")], choice["kind"].as_str().unwrap());
        let modes: Vec<&str> = choice["modes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        if choice["kind"] == "judgement" {
            assert_eq!(&row[column("mode")], modes[0]);
            // Agreement is the judged verdict against the gold count.
            let truth = &row[column("count_correct")] == "true";
            let said = choice["choice"] == "correct";
            assert_eq!(
                &row[column("agrees_with_gold")],
                (truth == said).to_string()
            );
        } else {
            assert_eq!(
                (&row[column("left")], &row[column("right")]),
                (modes[0], modes[1])
            );
        }
    }
    // McCartney's count is answered correctly (within CoQEx's relaxed precision of 180) whenever
    // it is judged.
    for row in &rows {
        if row[column("question")].contains("mccartney") && &row[column("task_kind")] == "judgement"
        {
            assert_eq!(&row[column("count_correct")], "true", "{csv}");
        }
    }

    // The summary's precision table adds up to the two judgements.
    let judged: usize = seen["judgement_rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r[1].as_str().unwrap().parse::<usize>().unwrap())
        .sum();
    assert_eq!(judged, 2, "{}", seen["judgement_rows"]);

    // JSON export with a bearer token; without the token, or with a wrong one, nothing.
    let client = reqwest::Client::new();
    let export: serde_json::Value = client
        .get(server.url("/study/export?format=json"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(export["study"], "test-short");
    assert_eq!(export["sessions_completed"], 1);
    assert_eq!(export["responses"].as_array().unwrap().len(), 4);
    for (url, status) in [
        ("/study/export?format=csv", 403),
        ("/study/export?format=csv&token=guess", 403),
        ("/study/export?format=xml&token=test-admin-token", 400),
    ] {
        let response = client.get(server.url(url)).send().await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{url}");
        let body: serde_json::Value = response.json().await.unwrap();
        assert!(body["error"].as_str().is_some(), "{url}: {body}");
    }
    // Without JavaScript: the invitation reads, and bad session links say what is wrong.
    let intro = client.get(server.url("/study")).send().await.unwrap();
    assert_eq!(intro.status(), 200);
    assert!(intro.text().await.unwrap().contains("A short test study"));
    for (path, status, says) in [
        ("/study/s/not-a-session", 400, "is not a study session id"),
        (
            "/study/s/00000000-0000-4000-8000-000000000000",
            404,
            "there is no study session",
        ),
    ] {
        let response = client.get(server.url(path)).send().await.unwrap();
        assert_eq!(response.status().as_u16(), status, "{path}");
        assert!(response.text().await.unwrap().contains(says), "{path}");
    }
    // A second participant without JavaScript: plain form posts, each answered with a redirect
    // to the next task, to the completion code.
    let no_js = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let post = |action: String, form: Vec<(&'static str, String)>| {
        let no_js = no_js.clone();
        let url = server.url(&action);
        async move {
            let response = no_js
                .post(url)
                .header("accept", "text/html")
                .form(&form)
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 302, "{action}");
            response.headers()["location"].to_str().unwrap().to_string()
        }
    };
    let intro = no_js
        .get(server.url("/study"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let start = form_action(&intro, "start_study").expect("start form");
    let session_url = post(start, vec![]).await;
    assert!(session_url.starts_with("/study/s/"), "{session_url}");
    let session = session_url.trim_start_matches("/study/s/").to_string();
    let mut answered = 0;
    let code = loop {
        let page = no_js
            .get(server.url(&session_url))
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        if let Some(code) = quoted_after(&page, "id=\"completion-code\" class=\"completion-code\">")
        {
            break code;
        }
        let action = form_action(&page, "answer_study_task").expect("answer form");
        let index = quoted_after(&page, "name=\"form[index]\" value=\"").unwrap();
        let shown = quoted_after(&page, "name=\"form[shown_at_ms]\" value=\"").unwrap();
        let choice = quoted_after(&page, "id=\"choice-").unwrap();
        if answered == 0 {
            // Only the current task takes an answer: one for a later task is refused, and
            // stores nothing (the loop below still answers all four).
            let ahead = no_js
                .post(server.url(&action))
                .form(&[
                    ("form[session]", session.clone()),
                    ("form[index]", "1".to_string()),
                    ("form[choice]", choice.clone()),
                ])
                .send()
                .await
                .unwrap();
            assert!(!ahead.status().is_success());
            let why = ahead.text().await.unwrap();
            assert!(why.contains("task 1 is not the current task"), "{why}");
        }
        let next = post(
            action,
            vec![
                ("form[session]", session.clone()),
                ("form[index]", index),
                ("form[shown_at_ms]", shown),
                ("form[choice]", choice),
            ],
        )
        .await;
        assert_eq!(next, session_url);
        answered += 1;
        assert!(answered <= 4, "more tasks than the study has");
    };
    assert_eq!(answered, 4);
    assert!(code.starts_with("TALLY-"), "{code}");
    let export: serde_json::Value = client
        .get(server.url("/study/export?format=json"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(export["sessions_completed"], 2);
    assert_eq!(export["responses"].as_array().unwrap().len(), 8);

    for name in [
        "study-judgement.png",
        "study-preference.png",
        "study-done.png",
        "study-summary.png",
    ] {
        let png = std::fs::read(shots.join(name)).expect("screenshot saved");
        assert!(png.starts_with(b"\x89PNG"), "{name} is a PNG");
    }
    assert!(server.stop().success());
}

/// axe-core's WCAG 2.1 A and AA rules find nothing on any kind of page (answers with and without
/// an answer included) at desktop and phone width in the light theme and at desktop width in the
/// dark one; every page is screenshotted in each view.
#[tokio::test]
async fn every_page_passes_axe_core() {
    require_built_site();
    let dir = scratch_dir("browser-axe");
    let pg = dir.join("pg").display().to_string();
    let token = crate::support::ADMIN_TOKEN;
    let server = Server::start(
        &dir,
        "server",
        &["--pg-dir", &pg, "--admin-token", token],
        &[],
    )
    .await;
    server.wait_until_answering().await;
    let shots = workspace_root().join("target/browser");
    let stdout = run_browser_script(
        &server,
        "tests/browser/accessibility.mjs",
        &[&server.base_url, token, &shots.display().to_string()],
    );
    let seen: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    let pages = seen["pages"].as_array().unwrap();
    // 12 pages × (1,280 px light, 390 px light, 1,280 px dark), each screenshotted.
    assert_eq!(pages.len(), 36, "{seen}");
    let shot_count = std::fs::read_dir(&shots)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with("page-"))
        .count();
    assert!(shot_count >= 36, "{shot_count} page screenshots");
    assert!(
        pages
            .iter()
            .all(|p| p["rules_passed"].as_u64().unwrap() > 10),
        "axe ran its rules on every page: {seen}"
    );
    assert!(server.stop().success());
}

/// A person's own documents from upload to a verified answer (issue 73): logged in from the
/// home page's header, a Markdown and a CSV file uploaded from the picker, the corpus shown above
/// the answer, the value answer corrected with a value and its unit, accepted in the review queue
/// reached from the header, and verified on a second server of the same database; at 390 px
/// nothing scrolls sideways and no labels overlap.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_uploads_asks_corrects_and_sees_it_verified_on_another_server() {
    let root = workspace_root();
    require_built_site();
    let dir = scratch_dir("browser-journey");
    let token = "journey-admin-token";
    let TwoServers {
        a,
        b,
        cluster: _cluster,
    } = two_demo_servers(&dir, &["--admin-token", token]).await;
    let shots = root.join("target/browser");
    let stdout = run_browser_script(
        &a,
        "tests/browser/journey.mjs",
        &[
            &a.base_url,
            &b.base_url,
            &shots.display().to_string(),
            token,
        ],
    );
    let seen: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    // Logged in from the home page and back on it, the header now leads to the admin pages.
    assert_eq!(seen["login_link"], true, "{seen}");
    assert_eq!(seen["back_home"], true, "{seen}");
    assert_eq!(
        seen["nav_after_login"],
        serde_json::json!(["Corpora", "Upload", "Review"])
    );
    assert_eq!(seen["login_link_after"], false, "{seen}");
    // The picker offers what the server reads.
    let accept = seen["accept"].as_str().unwrap();
    assert!(
        accept.contains(".md") && accept.contains(".csv"),
        "{accept}"
    );
    assert!(
        seen["job"]
            .as_str()
            .unwrap()
            .starts_with("Done: 2 of 2 documents"),
        "{seen}"
    );
    // The corpus is named on the home page and above the answer.
    for banner in ["banner_home", "banner_answer"] {
        assert!(
            seen[banner].as_str().unwrap().contains("ashcombe"),
            "{seen}"
        );
    }
    // A count read from the Facilities list says so, and quotes, plots and counts nothing else.
    assert_eq!(seen["list_count"], "4", "{seen}");
    assert!(seen["list_read_from"].as_str().is_some(), "{seen}");
    assert_eq!(
        seen["list_other_story"],
        serde_json::json!({"quote": false, "support": false, "plot": false}),
        "{seen}"
    );
    // "How much is … fee" is a value question, its money written as people write it.
    assert_eq!(seen["kind"], "value", "{seen}");
    assert_eq!(seen["unit_offered"], "£", "{seen}");
    assert!(
        seen["feedback"].as_str().unwrap().starts_with("Saved"),
        "{seen}"
    );
    // The queue shows the question's text, what Tally answered and what the visitor says.
    let row = seen["queued_row"].as_str().unwrap();
    assert!(row.contains("Tally said £"), "{row}");
    assert!(row.contains("wrong; the value is £95"), "{row}");
    assert_eq!(seen["review_raw_json"], false, "{seen}");
    assert!(
        seen["done"].as_str().unwrap().starts_with("accepted"),
        "{seen}"
    );
    // Verified on the other server.
    assert_eq!(seen["verified_b"], "£95", "{seen}");
    // On a phone: nothing sideways, no overlapping labels.
    assert_eq!(seen["phone_scroll"], 0, "{seen}");
    assert_eq!(seen["phone_overlaps"], serde_json::json!([]), "{seen}");
    assert!(a.stop().success());
    assert!(b.stop().success());
}

/// Pages that tell one honest story (issue 87), walked at 1,280 and 390 px: the home page
/// invites an upload and says what it asks; a mixed upload ends "Done" with a line per file,
/// the refused one with its sentence; the corpus page lists its documents; a count says its
/// scope and how sure it is; a sum names its operation and takes a value with its unit; a decline
/// says "Not sure" with its reading and does not suggest a web search the server lacks; the
/// history has the corpus and the answers as shown; nothing scrolls sideways at 390 px and the
/// plot's labels are 12 px or more, its log-scale caption true to its ticks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_pages_say_their_scope_and_doubt_and_fit_a_phone() {
    require_built_site();
    let token = "pages-admin-token";
    let server = crate::support::demo_server("browser-pages", &["--admin-token", token]).await;
    let shots = workspace_root().join("target/browser");
    let stdout = run_browser_script(
        &server,
        "tests/browser/pages.mjs",
        &[&server.base_url, &shots.display().to_string(), token],
    );
    let seen: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    assert_eq!(seen["invite"], "/admin", "{seen}");
    assert!(
        seen["home_banner"]
            .as_str()
            .unwrap()
            .starts_with("Asking all corpora"),
        "{seen}"
    );
    assert_eq!(seen["job_title"], "Done: documents ingested", "{seen}");
    assert!(
        seen["job_tab"].as_str().unwrap().starts_with("Done"),
        "{seen}"
    );
    assert_eq!(
        seen["job_files"],
        serde_json::json!([
            "club.md: read, 1 document",
            "crews.csv: read, 1 document",
            "empty.txt: refused — there is no text to index in empty.txt"
        ]),
        "{seen}"
    );
    assert_eq!(
        seen["corpus_documents"],
        serde_json::json!(["Brackley Rowing Club", "crews.csv"]),
        "{seen}"
    );
    for width in ["1280", "390"] {
        let at = &seen["widths"][width];
        assert_eq!(
            at["count_scope"], "Asked over the documents of “brackley”.",
            "{width}: {at}"
        );
        assert_eq!(at["count_headline"], "212", "{width}: {at}");
        let certainty = at["count_certainty"].as_str().unwrap();
        assert!(
            certainty.starts_with("Tally's estimate: ") && certainty.contains("% likely right"),
            "{width}: {certainty}"
        );
        assert_eq!(at["sum_operation"], "Sum", "{width}: {at}");
        assert_eq!(at["sum_headline"], "£3030.85 in total", "{width}: {at}");
        assert_eq!(
            at["sum_unit_field"],
            serde_json::json!(["£"]),
            "{width}: {at}"
        );
        assert!(at["sum_certainty"].as_str().is_some(), "{width}: {at}");
        // A decline with a reading is "Not sure", with its reason and the reading.
        assert_eq!(at["decline_headline"], "Not sure", "{width}: {at}");
        assert_eq!(at["decline_not_sure"], "true", "{width}: {at}");
        assert!(
            at["decline_reason"]
                .as_str()
                .unwrap()
                .contains("The closest evidence points to"),
            "{width}: {at}"
        );
        assert!(at["decline_try"].as_str().is_some(), "{width}: {at}");
        assert_eq!(at["decline_web"], false, "no web search here: {at}");
        // The log-scale plot: its caption says the ticks' step, labels readable, none overlapping.
        assert_eq!(at["plot"], true, "{width}: {at}");
        assert_eq!(
            at["plot_scale_note"], "Log scale: each tick is ten times the one before.",
            "{width}: {at}"
        );
        assert!(
            at["plot_smallest_label"].as_f64().unwrap() >= 12.0,
            "{width}: {at}"
        );
        assert_eq!(at["plot_overlaps"], 0, "{width}: {at}");
        // The history: the corpus asked over, and the answer as its page showed it.
        let history = at["history"].as_array().unwrap();
        let row = |question: &str| {
            history
                .iter()
                .find(|r| r["question"] == question)
                .unwrap_or_else(|| panic!("{question} in the history: {at}"))
        };
        let kit = row("what is the total kit cost of the crews");
        assert_eq!(kit["corpus"], "brackley", "{kit}");
        assert_eq!(kit["answer"], "£3030.85 in total", "{kit}");
        let declined = row("how many lighthouses does brackley rowing club own");
        assert!(
            declined["answer"]
                .as_str()
                .unwrap()
                .starts_with("not sure (closest: "),
            "{declined}"
        );
        assert_eq!(
            row("how many islands does indonesia have")["corpus"],
            "all corpora"
        );
        for page in [
            "count_sideways",
            "sum_sideways",
            "plot_sideways",
            "history_sideways",
            "admin_sideways",
        ] {
            assert_eq!(at[page], 0, "{width} {page}: {at}");
        }
    }
    // On a phone every other tick label of four or more is left out, so none overlap.
    assert!(
        seen["widths"]["390"]["plot_visible_ticks"]
            .as_u64()
            .unwrap()
            < seen["widths"]["1280"]["plot_visible_ticks"]
                .as_u64()
                .unwrap(),
        "{seen}"
    );
    assert!(server.stop().success());
}

/// Pages a lay person can follow (issue 101), walked at 1,280 and 390 px with a person's files,
/// a scan among them: each file's upload line says how it was read (OCR and how sure), a repeat
/// upload says nothing was new; the corpus is chosen by the question box and kept in every mode
/// and in the history; a verified answer comes first with Tally's own labelled as corrected,
/// and is said over all corpora too; every probability is said in one form; no column is too
/// narrow to read, "Delete…" is on a phone's screen; after the corpus is deleted the home page
/// says so and its verified answer is withdrawn. Axe finds nothing on the pages walked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lay_person_follows_every_page() {
    let root = workspace_root();
    require_built_site();
    let token = "walk-admin-token";
    let server = crate::support::demo_server("browser-walk", &["--admin-token", token]).await;
    let shots = root.join("target/browser");
    let scan = root.join("tests/fixtures/scans/brackenfold-village-shop.jpg");
    let minutes =
        root.join("tests/fixtures/own-documents/documents/52-wexcombe-allotments-minutes.txt");
    let stdout = run_browser_script(
        &server,
        "tests/browser/walk.mjs",
        &[
            &server.base_url,
            &shots.display().to_string(),
            token,
            &scan.display().to_string(),
            &minutes.display().to_string(),
        ],
    );
    let seen: serde_json::Value = serde_json::from_str(stdout.trim()).expect("one JSON line");
    let said = |key: &str| seen[key].as_str().unwrap_or_default().to_string();
    // One "Log out", in the header; the help says scans are read by OCR.
    assert_eq!(seen["logout_buttons"], 1, "{seen}");
    assert_eq!(seen["help_mentions_scans"], true, "{seen}");
    // Each file's line says how it was read: the scan by OCR, how sure, its one page.
    let lines: Vec<&str> = seen["file_lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l.as_str().unwrap())
        .collect();
    let scan_line = lines
        .iter()
        .find(|l| l.starts_with("brackenfold-village-shop.jpg"))
        .unwrap_or_else(|| panic!("{lines:?}"));
    let sure: f64 = scan_line
        .split("read by OCR, ")
        .nth(1)
        .and_then(|rest| rest.split('%').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{scan_line}"));
    assert!((50.0..=100.0).contains(&sure), "{scan_line}");
    assert!(scan_line.ends_with("% sure, 1 page"), "{scan_line}");
    assert!(lines.contains(&"fees.csv: read, 1 document"), "{lines:?}");
    assert!(
        said("job_state").starts_with("Done: 3 of 3 documents"),
        "{seen}"
    );
    // A repeat upload says nothing was new, its bar full.
    assert_eq!(
        said("repeat_state"),
        "Done: nothing new to index, every document was in the corpus already.",
        "{seen}"
    );
    assert_eq!(seen["repeat_bar_full"], true, "{seen}");
    // The corpus is chosen by the question box and kept in every mode.
    assert_eq!(seen["picker_in_settings"], false, "{seen}");
    assert_eq!(seen["picker_visible"], true, "{seen}");
    for key in ["value_scope", "count_mode_scope", "quantity_mode_scope"] {
        assert_eq!(seen[key], "walk", "{key}: {seen}");
    }
    // Tally's reading of the fee, given or "Not sure" as its gate decides.
    assert!(said("value_text").contains("£320"), "{seen}");
    assert!(
        said("feedback_saved").contains("a reviewer reads each correction"),
        "{seen}"
    );
    for width in ["1280", "390"] {
        let at = &seen["widths"][width];
        // The verified answer first; Tally's own below, labelled and smaller.
        assert_eq!(at["verified"], "£340", "{width}: {at}");
        assert_eq!(
            at["corrected_label"], "Tally's own answer, corrected by the reviewer above",
            "{width}: {at}"
        );
        assert_eq!(at["own_smaller"], true, "{width}: {at}");
        assert_eq!(at["verified_first"], true, "{width}: {at}");
        // Over all corpora the correction is said, with the corpus it holds for.
        let elsewhere = at["elsewhere"].as_str().unwrap_or_default();
        assert!(
            elsewhere.contains("£340") && elsewhere.contains("“walk”"),
            "{width}: {at}"
        );
        // A count under a condition, right, its table readable.
        assert_eq!(at["count"], "3", "{width}: {at}");
        for narrowest in at["rows_narrowest"].as_array().unwrap() {
            assert!(narrowest.as_i64().unwrap() >= 8, "{width}: {at}");
        }
        // Every probability said one way.
        for sentence in at["doubt"].as_array().unwrap() {
            let sentence = sentence.as_str().unwrap();
            if sentence.contains('%') && !sentence.starts_with("Accepted") {
                assert!(
                    sentence.contains("% likely right (Tally is sure from "),
                    "{width}: {sentence}"
                );
            }
        }
        assert!(!at["doubt"].as_array().unwrap().is_empty(), "{width}: {at}");
        assert_eq!(
            at["sources_repeating"],
            serde_json::json!([]),
            "{width}: {at}"
        );
        assert_eq!(at["passages_twice"], serde_json::json!([]), "{width}: {at}");
        // The history: every question under the corpus it was asked over; money as pages write it.
        let history = at["history"].as_array().unwrap();
        let rows = |kind: &str, corpus: &str| -> Vec<&serde_json::Value> {
            history
                .iter()
                .filter(|r| r["question"] == VALUE_Q && r["kind"] == kind && r["corpus"] == corpus)
                .collect()
        };
        // Asked in the value, count and quantity modes over the corpus, each listed under it.
        for kind in ["value", "count", "quantity"] {
            assert!(!rows(kind, "walk").is_empty(), "{kind}: {history:?}");
        }
        assert!(
            rows("value", "walk")
                .iter()
                .all(|r| r["answer"].as_str().unwrap().contains("£320")),
            "{history:?}"
        );
        assert_eq!(
            history
                .iter()
                .filter(|r| r["question"] == VALUE_Q && r["corpus"] == "all corpora")
                .count(),
            1,
            "{history:?}"
        );
        for narrowest in at["history_narrowest"].as_array().unwrap() {
            assert!(narrowest.as_i64().unwrap() >= 8, "{width}: {at}");
        }
        assert_eq!(at["sideways"], 0, "{width}: {at}");
        assert_eq!(at["admin_sideways"], 0, "{width}: {at}");
        assert_eq!(at["delete_on_screen"], true, "{width}: {at}");
        // The API page lists the operations the description has.
        let operations = at["api_operations"].as_array().unwrap();
        for listed in [
            "GET /api/count",
            "POST /api/admin/corpora",
            "GET /api/openapi.json",
        ] {
            assert!(operations.iter().any(|o| o == listed), "{listed}: {at}");
        }
        assert_eq!(at["api_sideways"], 0, "{width}: {at}");
    }
    // Deleted: the home page forgets the corpus with a sentence; a link to it says it is gone;
    // asking there says why there is no answer; its verified answer is withdrawn.
    assert!(
        said("home_after_delete").starts_with("The corpus “walk” you asked last is no longer here"),
        "{seen}"
    );
    assert!(
        !said("home_url_after_delete").contains("corpus=walk"),
        "{seen}"
    );
    assert!(
        said("link_after_delete").starts_with("There is no corpus walk here"),
        "{seen}"
    );
    assert!(
        said("asked_after_delete").contains("unknown corpus `walk`"),
        "{seen}"
    );
    assert!(seen["elsewhere_after_delete"].is_null(), "{seen}");
    assert!(server.stop().success());
}

/// The value question the walk corrects.
const VALUE_Q: &str = "how much is the adult membership fee";
