//! Feedback that teaches (issue 61): a visitor's correction waits in the operator's review
//! queue; once accepted it answers its question first, as verified, on every server of a
//! cluster, with Tally's own reading beside it; a later acceptance replaces it, the operator
//! withdraws it. A visitor cannot verify anything, and feedback is rate-limited per address.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{json, Value};

use crate::support::{page_text, scratch_dir, two_demo_servers, Server, TwoServers, ADMIN_TOKEN};

const QUESTION: &str = "how many moons does mars have";
/// Requests per address and minute, on each server: answers and feedback each.
const RATE_LIMIT: usize = 12;

async fn count(server: &Server, question: &str) -> Value {
    let response =
        reqwest::get(server.url(&format!("/api/count?q={}", question.replace(' ', "+"))))
            .await
            .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    response.json().await.unwrap()
}

/// `POST /api/feedback` as the visitor with cookie `visitor`.
async fn feedback_from(server: &Server, visitor: &str, body: &Value) -> (StatusCode, Value) {
    let response = reqwest::Client::new()
        .post(server.url("/api/feedback"))
        .header("cookie", format!("tally_visitor={visitor}"))
        .json(body)
        .send()
        .await
        .unwrap();
    (response.status(), response.json().await.unwrap())
}

/// `method path` with `token` as the bearer token (none: no Authorization header).
async fn as_operator(
    server: &Server,
    method: reqwest::Method,
    path: &str,
    token: Option<&str>,
    body: Option<Value>,
) -> (StatusCode, Value) {
    let mut request = reqwest::Client::new().request(method, server.url(path));
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    let status = response.status();
    let text = response.text().await.unwrap();
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::String(text)),
    )
}

/// The review queue as the operator reads it on `server`, and the entry of `question` in it
/// (by its text).
async fn queued(server: &Server, question: &str) -> (Value, Value) {
    let (status, queue) = as_operator(
        server,
        reqwest::Method::GET,
        "/api/admin/review",
        Some(ADMIN_TOKEN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{queue}");
    let entry = queue
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["question"] == question)
        .unwrap_or_else(|| panic!("“{question}” is queued by its text: {queue}"))
        .clone();
    (queue, entry)
}

fn correction(answer_id: i64, count: f64, comment: &str) -> Value {
    json!({"part": "answer", "answer_id": answer_id, "verdict": "wrong",
           "corrected_value": count, "comment": comment})
}

/// Asks `server` until its answer's verified count is `expected` (None: no verified answer);
/// how long that took.
async fn until_verified(server: &Server, expected: Option<f64>) -> (Duration, Value) {
    let started = Instant::now();
    loop {
        let answer = count(server, QUESTION).await;
        if answer["verified"]["count"].as_f64() == expected {
            return (started.elapsed(), answer);
        }
        assert!(
            started.elapsed() < Duration::from_secs(10),
            "verified count still not {expected:?}: {}",
            answer["verified"]
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reviewed_correction_answers_on_every_server_until_withdrawn() {
    let dir = scratch_dir("feedback-loop");
    let limit = RATE_LIMIT.to_string();
    let args = [
        "--rate-limit",
        &limit,
        "--feedback-limit",
        &limit,
        "--admin-token",
        ADMIN_TOKEN,
    ];
    let TwoServers {
        a,
        b,
        cluster: _cluster,
    } = two_demo_servers(&dir, &args).await;

    // Tally's own answer, on server a; nothing verified yet.
    let first = count(&a, QUESTION).await;
    assert!(first.get("verified").is_none(), "{}", first["verified"]);
    let answer_id = first["answer_id"].as_i64().expect("stored");
    let own = first["answer"]["count"].as_f64();
    let right = own.map_or(2.0, |c| c + 3.0);
    let wrong = right + 40.0;

    // Two visitors send the same correction, a third another one.
    let note = "The two moons are Phobos and Deimos";
    for visitor in [
        "7d1f6d4e-0c55-4a8f-9d0e-3c1b2a4f5e61",
        "0b3e9a2c-5d4f-4e1a-8c7b-6a5d4c3b2a19",
    ] {
        let (status, row) = feedback_from(&a, visitor, &correction(answer_id, right, note)).await;
        assert_eq!(status, StatusCode::CREATED, "{row}");
    }
    let (status, other) = feedback_from(
        &a,
        "5c2d8e1f-9a3b-4c7d-8e6f-1a2b3c4d5e6f",
        &correction(answer_id, wrong, "<b>many</b>"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{other}");
    let wrong_id = other["id"].as_i64().unwrap();

    // A visitor's feedback alone changes nothing, and a visitor cannot review.
    assert!(count(&b, QUESTION).await.get("verified").is_none());
    let post = reqwest::Method::POST;
    // The operator's note goes with the verified answer; the visitors' comment never does.
    let operator_note = "Phobos and Deimos, checked with NASA's fact sheet";
    let accept = json!({"decision": "accepted", "reviewer": "ana", "note": operator_note});
    for token in [None, Some("not-the-token")] {
        let path = format!("/api/admin/review/{wrong_id}");
        let (status, body) =
            as_operator(&a, post.clone(), &path, token, Some(accept.clone())).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
        let (status, body) =
            as_operator(&b, reqwest::Method::GET, "/api/admin/review", token, None).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{body}");
    }

    // The queue, on the other server: the question with both opinions, the agreeing visitors
    // counted, no visitor id anywhere.
    let (queue, queued) = queued(&b, QUESTION).await;
    assert!(!queue.to_string().contains("visitor\""), "{queue}");
    let opinions = queued["opinions"].as_array().unwrap();
    let agreed = opinions
        .iter()
        .find(|o| o["corrected_value"].as_f64() == Some(right))
        .expect("the correction is queued");
    assert_eq!(agreed["visitors"], 2, "{agreed}");
    assert_eq!(agreed["comments"][0], note);
    assert_eq!(agreed["tally_count"].as_f64(), own);
    let agreed_id = agreed["feedback_ids"][0].as_i64().unwrap();

    // Accepted on server a, verified on server b within 2 s, Tally's reading beside it.
    let path = format!("/api/admin/review/{agreed_id}");
    let (status, decided) = as_operator(
        &a,
        post.clone(),
        &path,
        Some(ADMIN_TOKEN),
        Some(accept.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{decided}");
    assert_eq!(
        decided["feedback_ids"].as_array().unwrap().len(),
        2,
        "both rows saying it"
    );
    assert_eq!(decided["verified"]["accepted_by"], "ana");
    let (took, verified) = until_verified(&b, Some(right)).await;
    assert!(
        took < Duration::from_secs(2),
        "verified on b after {took:?}"
    );
    assert_eq!(verified["verified"]["note"], operator_note);
    assert!(!verified.to_string().contains(note), "{verified}");
    assert_eq!(verified["verified"]["tally_count"].as_f64(), own);
    assert_eq!(
        verified["answer"]["count"].as_f64(),
        own,
        "Tally's own reading stays"
    );
    // Any wording that normalises the same.
    let reworded = count(&b, "How many moons does Mars have?").await;
    assert_eq!(reworded["verified"]["count"].as_f64(), Some(right));
    // The page says it, labelled, before Tally's reading.
    let page = page_text(b.url(&format!("/?q={}", QUESTION.replace(' ', "+")))).await;
    let label = page
        .find("Verified answer")
        .expect("the page labels the verified answer");
    assert!(
        page[label..].contains("Accepted by this site&#x27;s operator")
            || page[label..].contains("Accepted by this site's operator")
    );
    assert!(page.contains("Phobos and Deimos, checked with NASA"));
    assert!(!page.contains(note), "a visitor's comment is not published");
    assert!(label < page.find("id=\"count-value\"").expect("Tally's reading"));

    // Reviewing twice is refused; the other correction is rejected.
    let (status, again) = as_operator(
        &a,
        post.clone(),
        &path,
        Some(ADMIN_TOKEN),
        Some(accept.clone()),
    )
    .await;
    assert_eq!(status, StatusCode::CONFLICT, "{again}");
    // The review page lists the other correction; its Reject button decides it.
    let closed = page_text(b.url("/admin/review")).await;
    assert!(
        closed.contains("Log in with the admin token to review feedback"),
        "{closed}"
    );
    assert!(!closed.contains(QUESTION));
    let listed = format!("data-feedback=\"{wrong_id}\"");
    let page = page_text(b.url(&format!("/admin/review?token={ADMIN_TOKEN}"))).await;
    assert!(page.contains(QUESTION) && page.contains(&listed), "{page}");
    assert!(page.contains("Verified answers") && page.contains("Withdraw"));
    // A visitor's comment is text, never markup.
    assert!(
        page.contains("&lt;b&gt;many") && !page.contains("<b>many"),
        "{page}"
    );
    let no_redirect = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let page_form = |token: &'static str| {
        no_redirect
            .post(b.url(&format!("/admin/review/{wrong_id}")))
            .form(&[("decision", "rejected"), ("token", token)])
            .send()
    };
    let refused = page_form("not-the-token").await.unwrap();
    assert!(refused.status().is_client_error(), "{}", refused.status());
    let rejected = page_form(ADMIN_TOKEN).await.unwrap();
    assert_eq!(rejected.status(), StatusCode::SEE_OTHER);
    let back = rejected.headers()["location"].to_str().unwrap().to_string();
    assert!(
        back.starts_with("/admin/review?") && back.contains("done=rejected"),
        "{back}"
    );
    let page = page_text(b.url(&format!("/admin/review?token={ADMIN_TOKEN}"))).await;
    assert!(!page.contains(&listed), "decided: off the queue");
    assert_eq!(
        count(&a, QUESTION).await["verified"]["count"].as_f64(),
        Some(right)
    );

    // The export holds the accepted judgment only, with no visitor and no comment.
    let (status, export) = as_operator(
        &a,
        reqwest::Method::GET,
        "/api/admin/judgments",
        Some(ADMIN_TOKEN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let lines: Vec<Value> = export
        .as_str()
        .expect("JSON lines")
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{export}");
    assert!(lines
        .iter()
        .all(|l| l["corrected_value"].as_f64() == Some(right)));
    assert!(!export.to_string().contains(note) && !export.to_string().contains("visitor"));

    // A later accepted correction replaces it; the operator then withdraws it.
    let (status, later) = feedback_from(
        &b,
        "2e4f6a8c-1b3d-4e5f-8a7b-9c0d1e2f3a4b",
        &correction(answer_id, right + 1.0, "one more was found"),
    )
    .await;
    assert_eq!(status, StatusCode::CREATED, "{later}");
    let path = format!("/api/admin/review/{}", later["id"]);
    let (status, replaced) =
        as_operator(&b, post.clone(), &path, Some(ADMIN_TOKEN), Some(accept)).await;
    assert_eq!(status, StatusCode::OK, "{replaced}");
    let (_, now) = until_verified(&a, Some(right + 1.0)).await;
    let id = now["verified"]["id"].as_i64().unwrap();
    let (_, all) = as_operator(
        &a,
        reqwest::Method::GET,
        "/api/admin/verified",
        Some(ADMIN_TOKEN),
        None,
    )
    .await;
    let all = all.as_array().unwrap();
    assert_eq!(all.len(), 2, "{all:?}");
    assert_eq!(all[1]["withdrawn_by"], "ana", "the first one was replaced");
    let (status, body) = as_operator(
        &b,
        reqwest::Method::DELETE,
        &format!("/api/admin/verified/{id}"),
        None,
        None,
    )
    .await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "a visitor cannot withdraw: {body}"
    );
    let (status, withdrawn) = as_operator(
        &b,
        reqwest::Method::DELETE,
        &format!("/api/admin/verified/{id}"),
        Some(ADMIN_TOKEN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{withdrawn}");
    assert!(withdrawn["withdrawn_at"].is_string());
    let (took, plain) = until_verified(&a, None).await;
    assert!(took < Duration::from_secs(2));
    assert_eq!(plain["answer"]["count"].as_f64(), own);
    let (status, _) = as_operator(
        &b,
        reqwest::Method::DELETE,
        &format!("/api/admin/verified/{id}"),
        Some(ADMIN_TOKEN),
        None,
    )
    .await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    // Feedback from one address is limited like answering: 429 with a sentence.
    let general = json!({"part": "general", "verdict": "correct"});
    let mut refused = None;
    for _ in 0..=RATE_LIMIT {
        let (status, body) =
            feedback_from(&a, "9f8e7d6c-5b4a-4392-8170-6f5e4d3c2b1a", &general).await;
        if status == StatusCode::TOO_MANY_REQUESTS {
            refused = Some(body);
            break;
        }
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let refused = refused.expect("feedback past the limit is refused");
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("too much feedback"),
        "{refused}"
    );

    a.stop();
    b.stop();
}

/// The answer event of the page's stream for a value question: the stored answer with its ids.
async fn value_answer(server: &Server, question: &str) -> Value {
    let stream = page_text(server.url(&format!(
        "/api/answer/stream?q={}&mode=value",
        question.replace(' ', "+")
    )))
    .await;
    let data = stream
        .split("event: answer")
        .nth(1)
        .and_then(|rest| rest.lines().find_map(|l| l.strip_prefix("data: ")))
        .unwrap_or_else(|| panic!("no answer event in {stream}"));
    serde_json::from_str(data).unwrap()
}

/// A value answer is corrected with a value and its unit (issue 73); the queue shows the
/// question's text, Tally's value and the visitor's, with their units; accepted, the value is
/// verified on the other server, written as people write it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_value_correction_with_its_unit_is_verified_on_every_server() {
    const TOWER: &str = "how tall is the eiffel tower";
    let dir = scratch_dir("value-feedback");
    let TwoServers {
        a,
        b,
        cluster: _cluster,
    } = two_demo_servers(&dir, &["--admin-token", ADMIN_TOKEN]).await;

    let first = value_answer(&a, TOWER).await;
    assert_eq!(first["kind"], "value", "{first}");
    assert!(first.get("verified").is_none_or(Value::is_null), "{first}");
    let answer_id = first["answer_id"].as_i64().expect("stored");
    let own = first["answer"]["value"].as_f64().expect("a value");

    // A unit Tally does not know is refused with a sentence; "m" is read as metres.
    let visitor = "3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a98";
    let with_unit = |unit: &str| {
        json!({"part": "answer", "answer_id": answer_id, "verdict": "wrong",
               "corrected_value": 324.5, "corrected_unit": unit,
               "comment": "the official height without antennas"})
    };
    let (status, refused) = feedback_from(&a, visitor, &with_unit("furlongzz")).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{refused}");
    assert!(
        refused.to_string().contains("not a unit Tally knows"),
        "{refused}"
    );
    let (status, row) = feedback_from(&a, visitor, &with_unit("m")).await;
    assert_eq!(status, StatusCode::CREATED, "{row}");
    assert_eq!(row["corrected_unit"], "metre", "{row}");

    // The queue names the question by its text (not the answer's JSON), with both values.
    let (_, queued) = queued(&b, TOWER).await;
    let opinion = &queued["opinions"][0];
    assert_eq!(opinion["tally_count"].as_f64(), Some(own), "{opinion}");
    assert_eq!(opinion["tally_unit"]["unit_id"], "metre", "{opinion}");
    assert_eq!(opinion["corrected_unit"]["unit_id"], "metre", "{opinion}");
    let page = page_text(b.url(&format!("/admin/review?token={ADMIN_TOKEN}"))).await;
    assert!(
        !page.contains("{&quot;text&quot;"),
        "no raw JSON on the review page"
    );
    assert!(
        page.contains("wrong; the value is 324.5 m"),
        "the visitor's value"
    );
    assert!(
        page.contains(&format!("answer: Tally said {} m", own)),
        "Tally's value"
    );

    // Accepted on a, verified on b, written with its unit on the page.
    let id = opinion["feedback_ids"][0].as_i64().unwrap();
    let (status, decided) = as_operator(
        &a,
        reqwest::Method::POST,
        &format!("/api/admin/review/{id}"),
        Some(ADMIN_TOKEN),
        Some(json!({"decision": "accepted"})),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{decided}");
    let verified = value_answer(&b, TOWER).await;
    assert_eq!(
        verified["verified"]["count"].as_f64(),
        Some(324.5),
        "{verified}"
    );
    assert_eq!(
        verified["verified"]["unit"]["unit_id"], "metre",
        "{verified}"
    );
    let shown = page_text(b.url(&format!("/?q={}&mode=value", TOWER.replace(' ', "+")))).await;
    let at = shown
        .find(r#"id="verified-count""#)
        .expect("the page shows the verified value");
    assert!(
        shown[at..].contains(r#"class="count-value">324.5 m</p>"#),
        "the page writes the verified value with its unit: {}",
        &shown[at..(at + 80).min(shown.len())]
    );
    assert!(
        shown.contains("correcting Tally&#x27;s value")
            || shown.contains("correcting Tally's value")
    );
    assert!(a.stop().success());
    assert!(b.stop().success());
}
