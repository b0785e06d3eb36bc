//! A whole-body deadline: a request's body must have arrived within a set time of its headers.
//! tower-http's body timeout bounds the gap between two pieces of a body only, so a body sent one
//! byte every few seconds held its connection for as long as its sender liked (issue 57: no 408
//! in 45 s, and 1,030 such connections from one address filled every slot).

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use http_body::{Body as HttpBody, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

/// The time an upload's body may take in all: 64 MB at about 220 KB/s.
pub(crate) const UPLOAD_BODY_DEADLINE: Duration = Duration::from_secs(300);

/// The deadline a body missed; reading it fails with this error (answered with 408).
#[derive(Debug, thiserror::Error)]
#[error("the request body did not arrive in time")]
pub(crate) struct BodyDeadlineMissed;

/// The request's body, failing once `deadline` has passed.
struct DeadlineBody {
    inner: Body,
    deadline: Pin<Box<Sleep>>,
}

impl HttpBody for DeadlineBody {
    type Data = Bytes;
    type Error = axum::BoxError;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if let Poll::Ready(frame) = Pin::new(&mut self.inner).poll_frame(cx) {
            return Poll::Ready(frame.map(|f| f.map_err(Into::into)));
        }
        match self.deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Some(Err(BodyDeadlineMissed.into()))),
            Poll::Pending => Poll::Pending,
        }
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

/// The whole-body deadline of a request to `path` whose other bodies get `body_deadline`.
fn deadline_for(path: &str, body_deadline: Duration) -> Duration {
    if path == "/api/admin/corpora" {
        UPLOAD_BODY_DEADLINE.max(body_deadline)
    } else {
        body_deadline
    }
}

/// Gives the request's body its deadline, counted from now (its headers have arrived).
pub(crate) async fn limit_body_time(
    body_deadline: Duration,
    request: Request,
    next: Next,
) -> Response {
    let deadline = Instant::now() + deadline_for(request.uri().path(), body_deadline);
    let request = request.map(|inner| {
        Body::new(DeadlineBody {
            inner,
            deadline: Box::pin(tokio::time::sleep_until(deadline)),
        })
    });
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::StreamExt;

    #[tokio::test]
    async fn a_body_that_trickles_fails_at_its_deadline_whatever_its_pace() {
        // One byte every 20 ms, for ever: each gap is short, the whole is not.
        let trickle = futures_util::stream::unfold((), |()| async {
            tokio::time::sleep(Duration::from_millis(20)).await;
            Some((Ok::<_, std::io::Error>(Bytes::from_static(b"x")), ()))
        });
        let body = Body::new(DeadlineBody {
            inner: Body::from_stream(trickle),
            deadline: Box::pin(tokio::time::sleep(Duration::from_millis(300))),
        });
        let started = std::time::Instant::now();
        let mut frames = body.into_data_stream();
        let mut bytes = 0;
        let error = loop {
            match frames.next().await {
                Some(Ok(chunk)) => bytes += chunk.len(),
                Some(Err(e)) => break e,
                None => panic!("the trickle never ends"),
            }
        };
        assert!(started.elapsed() < Duration::from_secs(2));
        assert!(bytes > 3, "the body was read until the deadline");
        assert!(
            error.to_string().contains("did not arrive in time"),
            "{error}"
        );
        // A body that arrives in time is read whole.
        let whole = Body::new(DeadlineBody {
            inner: Body::from("whole"),
            deadline: Box::pin(tokio::time::sleep(Duration::from_secs(5))),
        });
        let read = axum::body::to_bytes(whole, 100).await.unwrap();
        assert_eq!(&read[..], b"whole");
    }

    #[test]
    fn uploads_get_their_own_deadline() {
        let ten = Duration::from_secs(10);
        assert_eq!(deadline_for("/api/feedback", ten), ten);
        assert_eq!(
            deadline_for("/api/admin/corpora", ten),
            UPLOAD_BODY_DEADLINE
        );
    }
}
