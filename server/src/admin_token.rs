//! The admin token: it opens the study's results, every visitor's history and the corpus
//! pages. Compared in constant time; never logged. A browser logs in once (`POST /admin/login`)
//! and then carries a cookie holding a digest of the token ([`AdminToken::login_value`]), so the
//! token itself never travels in a URL.

use sha2::{Digest, Sha256};

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

    /// The login cookie's value for this token: a SHA-256 digest (hex), so that the cookie never
    /// holds the token and needs no escaping; `None` without a token.
    pub fn login_value(&self) -> Option<String> {
        let token = self.0.as_ref()?;
        let digest = Sha256::digest(format!("tally admin login\n{token}").as_bytes());
        Some(digest.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// The token a login cookie stands for: the configured one when `cookie` is its login value.
    pub fn token_of_login(&self, cookie: &str) -> Option<&str> {
        let expected = self.login_value()?;
        constant_time_eq(cookie.as_bytes(), expected.as_bytes())
            .then_some(self.0.as_deref())
            .flatten()
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
    fn a_login_cookie_stands_for_the_token_without_holding_it() {
        let open = AdminToken::new(Some("s3cret; x".into()));
        let cookie = open.login_value().unwrap();
        assert!(!cookie.contains("s3cret"));
        assert!(cookie.chars().all(|c| c.is_ascii_hexdigit()));
        assert_eq!(open.token_of_login(&cookie), Some("s3cret; x"));
        assert_eq!(open.token_of_login("s3cret; x"), None);
        // Another token, another cookie: a new token logs everyone out.
        let other = AdminToken::new(Some("other".into()));
        assert_eq!(other.token_of_login(&cookie), None);
        assert_eq!(AdminToken::default().login_value(), None);
    }

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
