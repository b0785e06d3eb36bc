//! The pages as a person reads them, in a real browser: each says its scope and how sure it
//! is and fits a phone; a lay person follows every page from an upload to a verified answer.

use super::run_browser_script;
use crate::support::{require_built_site, workspace_root};

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
        // A value read from the scan shows the lines it was read from, loaded, on the screen.
        let crops = at["scan_crops"].as_array().unwrap();
        assert!(!crops.is_empty(), "{width}: {at}");
        for crop in crops {
            assert_eq!(crop["loaded"], true, "{width}: {crop}");
            assert!(
                crop["alt"].as_str().unwrap().contains("scanned page"),
                "{crop}"
            );
            assert!(
                crop["right"].as_i64().unwrap() <= width.parse::<i64>().unwrap(),
                "{crop}"
            );
        }
        assert_eq!(at["scan_sideways"], 0, "{width}: {at}");
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
