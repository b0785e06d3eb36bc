//! The status page hydrates in a real browser: headless Chromium (Debian's), driven by
//! playwright-core, clicks "Check again", which only works with the WASM app running.
//! Needs the site built by `cargo leptos build` (the README's test command does it).

use std::process::Command;

use crate::support::{
    form_action, quoted_after, require_built_site, scratch_dir, two_demo_servers,
    unreachable_database_url, workspace_root, Server, TwoServers,
};

mod pages;

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
