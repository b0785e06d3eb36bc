//! The error replies the operations share, each a component of the description: an `Error`
//! body (`{"error": "…"}`, the sentence [`crate::error::ApiError`] writes) under a description
//! of when it is sent.

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
