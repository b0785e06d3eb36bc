//! An error written with its causes. Each error type says only what failed and keeps its cause
//! as its `source()` (issue 102), so where an error is logged or printed whole, the chain is
//! written out here, once: "the quantity search failed: stored sentence 4 is unreadable: EOF".

use std::error::Error;
use std::fmt;

/// `error` and each of its causes, joined by ": ". A cause whose text the chain already ends
/// with is left out: some libraries' errors (sqlx's, tantivy's) print their source themselves.
pub struct Causes<'a>(pub &'a (dyn Error + 'static));

impl fmt::Display for Causes<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut written = self.0.to_string();
        let mut source = self.0.source();
        while let Some(cause) = source {
            let text = cause.to_string();
            if !written.ends_with(&text) {
                written.push_str(": ");
                written.push_str(&text);
            }
            source = cause.source();
        }
        f.write_str(&written)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Outer(std::io::Error);

    impl fmt::Display for Outer {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "the index failed")
        }
    }

    impl Error for Outer {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    #[derive(Debug)]
    struct PrintsItsCause(std::io::Error);

    impl fmt::Display for PrintsItsCause {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "error returned from database: {}", self.0)
        }
    }

    impl Error for PrintsItsCause {
        fn source(&self) -> Option<&(dyn Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn each_cause_is_written_once_after_the_error() {
        let error = Outer(std::io::Error::other("disk full"));
        assert_eq!(Causes(&error).to_string(), "the index failed: disk full");
        // An error that prints its own cause (as sqlx's do): the cause is not written twice.
        let error = PrintsItsCause(std::io::Error::other("disk full"));
        assert_eq!(
            Causes(&error).to_string(),
            "error returned from database: disk full"
        );
    }
}
