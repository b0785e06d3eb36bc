//! The error replies the operations share, each a component of the description: an `Error`
//! body (`{"error": "…"}`, the sentence [`crate::error::ApiError`] writes) under a description
//! of when it is sent.

use std::collections::BTreeMap;

use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{Content, Ref, RefOr, Response, ResponseBuilder};
use utoipa::ToSchema;

/// What an error reply holds.
#[derive(ToSchema)]
#[schema(as = Error)]
#[allow(dead_code)]
pub(crate) struct ErrorBody {
    /// What went wrong, for people.
    error: String,
}

/// An error reply: `description`, with an `Error` body.
fn error_reply(description: &str) -> ResponseBuilder {
    ResponseBuilder::new().description(description).content(
        "application/json",
        Content::new(Some(Ref::from_schema_name("Error"))),
    )
}

/// Declares an error reply named `$name`, sent when `$description`.
macro_rules! error_reply {
    ($name:ident, $description:literal) => {
        #[doc = $description]
        pub(crate) struct $name;

        impl<'r> utoipa::ToResponse<'r> for $name {
            fn response() -> (&'r str, RefOr<Response>) {
                (stringify!($name), error_reply($description).build().into())
            }
        }
    };
}

error_reply!(
    BadRequest,
    "A missing or malformed parameter or body; the sentence says which"
);
error_reply!(
    Unauthorized,
    "No admin token was sent (`Authorization: Bearer …`)"
);
error_reply!(
    Forbidden,
    "The admin token is missing or wrong, or the server has none"
);
error_reply!(NotFound, "No such row");
error_reply!(
    RequestTimeout,
    "The request body did not arrive within the server's body timeout"
);
error_reply!(
    PayloadTooLarge,
    "The body is larger than the route accepts (64 KiB; an upload 64 MiB)"
);
error_reply!(
    UnsupportedMediaType,
    "The body is not sent in the content type the route reads (JSON; an upload multipart)"
);
error_reply!(
    Unprocessable,
    "The body's parts do not fit together (the sentence says how)"
);
error_reply!(
    Unavailable,
    "Still loading, busy (with Retry-After), or the database is unavailable"
);
error_reply!(
    ServerError,
    "Answering or the database failed; the details are in the server's log"
);

/// The address asked more than the server's rate limit allows; `Retry-After` says when to ask
/// again.
pub(crate) struct TooManyRequests;

impl<'r> utoipa::ToResponse<'r> for TooManyRequests {
    fn response() -> (&'r str, RefOr<Response>) {
        let seconds = ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(1));
        let reply = error_reply("The address asked more than the server's rate limit allows")
            .header(
                "Retry-After",
                HeaderBuilder::new()
                    .schema(Some(seconds))
                    .description(Some("Seconds to wait before asking again"))
                    .build(),
            );
        ("TooManyRequests", reply.build().into())
    }
}

/// Declares `$name`, a set of error replies an operation lists in one word
/// (`responses((status = 200, …), $name)`), each a reference to its shared reply.
macro_rules! reply_set {
    ($name:ident, $doc:literal, [$(($status:literal, $reply:ident)),+ $(,)?]) => {
        #[doc = $doc]
        pub(crate) struct $name;

        impl utoipa::IntoResponses for $name {
            fn responses() -> BTreeMap<String, RefOr<Response>> {
                BTreeMap::from([$((
                    $status.to_string(),
                    Ref::from_response_name(stringify!($reply)).into(),
                )),+])
            }
        }
    };
}

reply_set!(
    AnsweringErrors,
    "What answering a question may meet: a bad question, the rate limit, a server loading or busy, a failure.",
    [(400, BadRequest), (429, TooManyRequests), (503, Unavailable), (500, ServerError)]
);
reply_set!(
    AdminErrors,
    "What an admin's request may meet: a bad request, no token or a wrong one, the wrong-token limit, the database.",
    [
        (400, BadRequest),
        (401, Unauthorized),
        (403, Forbidden),
        (429, TooManyRequests),
        (500, ServerError),
        (503, Unavailable),
    ]
);
reply_set!(
    CorpusErrors,
    "What a request about corpora and their jobs may meet: a bad request, no token (403), none such, a row that does not fit, the wrong-token limit, the database.",
    [
        (400, BadRequest),
        (403, Forbidden),
        (404, NotFound),
        (422, Unprocessable),
        (429, TooManyRequests),
        (500, ServerError),
        (503, Unavailable),
    ]
);
reply_set!(
    BodyErrors,
    "What a request with a body may meet: it came too slowly, is too large, is not in the type read, or its parts do not fit together.",
    [
        (408, RequestTimeout),
        (413, PayloadTooLarge),
        (415, UnsupportedMediaType),
        (422, Unprocessable),
    ]
);
