//! Answering in the browser with progress: the answer comes from `/api/answer/stream` as
//! server-sent events, one per finished stage of the count pipeline and then the answer, so the
//! page lists the stages as they finish instead of showing a blank wait. (Server-rendered pages
//! stream the answer itself; this is for questions asked once the app has hydrated.)

use std::cell::RefCell;
use std::future::Future;
use std::rc::Rc;

use futures_channel::oneshot;
use leptos::prelude::*;
use send_wrapper::SendWrapper;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::{Event, EventSource, MessageEvent};

use tally_types::count::StageTiming;
use tally_types::stream::{StreamEvent, StreamFailure};

use crate::model::{Answered, Ask};

/// Answers `ask` through the event stream, appending each finished stage to `stages`.
pub fn answer_with_progress(
    ask: Ask,
    stages: RwSignal<Vec<StageTiming>>,
) -> impl Future<Output = Result<Answered, ServerFnError>> + Send {
    // Browser objects are not `Send`; the browser has one thread, so this wrapper is sound.
    SendWrapper::new(stream_answer(ask, stages))
}

/// How a stream ended without an answer event.
enum Unanswered {
    /// The server said why (a failure event, or an answer the page could not read).
    Said(ServerFnError),
    /// The connection failed or closed: the stream never started (the server refused the
    /// question with a 4xx, which an `EventSource` cannot read) or was cut off.
    Lost,
}

async fn stream_answer(
    ask: Ask,
    stages: RwSignal<Vec<StageTiming>>,
) -> Result<Answered, ServerFnError> {
    match stream_events(ask.clone(), stages).await {
        Ok(answered) => Ok(answered),
        Err(Unanswered::Said(why)) => Err(why),
        // Nothing came: asked again without progress, which gives the refusal's sentence (an
        // unknown corpus, a setting out of range) or the answer.
        Err(Unanswered::Lost) if stages.with_untracked(Vec::is_empty) => {
            crate::backend::answer_question(ask).await
        }
        Err(Unanswered::Lost) => Err(ServerFnError::new(
            "the connection to Tally was lost before the answer came; try again",
        )),
    }
}

async fn stream_events(
    ask: Ask,
    stages: RwSignal<Vec<StageTiming>>,
) -> Result<Answered, Unanswered> {
    stages.set(Vec::new());
    // `Ask::url` is `/?q=…`: the same query string asks the stream.
    let query = ask.url().trim_start_matches('/').to_string();
    let source =
        EventSource::new(&format!("/api/answer/stream{query}")).map_err(|_| Unanswered::Lost)?;
    let (done, outcome) = oneshot::channel::<Result<Answered, Unanswered>>();
    let done = Rc::new(RefCell::new(Some(done)));
    let finish = move |result: Result<Answered, Unanswered>| {
        if let Some(done) = done.borrow_mut().take() {
            let _ = done.send(result);
        }
    };

    let on_stage = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let stage = event
            .data()
            .as_string()
            .and_then(|text| serde_json::from_str::<StageTiming>(&text).ok());
        if let Some(stage) = stage {
            stages.update(|list| list.push(stage));
        }
    });
    let finish_answer = finish.clone();
    let on_answer = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        finish_answer(serde_json::from_str::<Answered>(&text).map_err(|e| {
            Unanswered::Said(ServerFnError::new(format!(
                "the answer could not be read: {e}"
            )))
        }));
    });
    let finish_failure = finish.clone();
    let on_failure = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        let why = serde_json::from_str::<StreamFailure>(&text)
            .map(|f| f.error)
            .unwrap_or(text);
        finish_failure(Err(Unanswered::Said(ServerFnError::new(why))));
    });
    // The connection failed or closed before an answer: no reconnecting.
    let on_error = Closure::<dyn FnMut(Event)>::new(move |_| finish(Err(Unanswered::Lost)));
    let listen = |event: StreamEvent, callback: &web_sys::js_sys::Function| {
        let _ = source.add_event_listener_with_callback(event.name(), callback);
    };
    listen(StreamEvent::Stage, on_stage.as_ref().unchecked_ref());
    listen(StreamEvent::Answer, on_answer.as_ref().unchecked_ref());
    listen(StreamEvent::Failure, on_failure.as_ref().unchecked_ref());
    source.set_onerror(Some(on_error.as_ref().unchecked_ref()));

    let result = outcome.await;
    source.close();
    // The callbacks live until here; the closed source calls none of them again.
    drop((on_stage, on_answer, on_failure, on_error));
    result.unwrap_or(Err(Unanswered::Lost))
}
