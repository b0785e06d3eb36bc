//! The admin token: it opens the study's results, every visitor's history and the corpus
//! pages. Compared in constant time; never logged.

/// What the corpus pages and their endpoints are called in refusals.
pub const CORPUS_PAGES: &str = "the corpus pages";

/// A request the admin token does not open; says why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Forbidden(pub String);

/// The configured admin token, if any (an empty one counts as none).
#[derive(Clone, Default)]
pub struct AdminToken(Option<String>);

impl AdminToken {
    pub fn new(token: Option<String>) -> Self {
        Self(token.filter(|t| !t.trim().is_empty()))
    }

    pub fn is_set(&self) -> bool {
        self.0.is_some()
    }

    /// Checks a request's token for `what` (a plural: "study results", "corpus pages").
    pub fn check(&self, given: Option<&str>, what: &str) -> Result<(), Forbidden> {
        let Some(expected) = &self.0 else {
            return Err(Forbidden(format!(
                "{what} are closed: the server has no admin token (set TALLY_ADMIN_TOKEN)"
            )));
        };
        match given {
            Some(given) if constant_time_eq(given.as_bytes(), expected.as_bytes()) => Ok(()),
            Some(given) if !given.is_empty() => Err(Forbidden("the admin token is wrong".into())),
            _ => Err(Forbidden(format!("{what} need the admin token"))),
        }
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_right_token_opens() {
        let open = AdminToken::new(Some("s3cret".into()));
        assert!(open.check(Some("s3cret"), "x").is_ok());
        assert!(open
            .check(Some("guess"), "x")
            .unwrap_err()
            .0
            .contains("wrong"));
        assert_eq!(
            open.check(None, "corpus pages").unwrap_err().0,
            "corpus pages need the admin token"
        );
        let closed = AdminToken::new(Some("  ".into()));
        assert!(!closed.is_set());
        assert!(closed
            .check(Some("  "), "x")
            .unwrap_err()
            .0
            .contains("TALLY_ADMIN_TOKEN"));
    }
}
