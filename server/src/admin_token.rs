//! The admin token: it opens the study's results, every visitor's history and the corpus
//! pages. Compared in constant time; never logged. A browser logs in once (`POST /admin/login`)
//! and then carries a cookie holding a digest of the token ([`AdminToken::login_value`]), so the
//! token itself never travels in a URL.

use sha2::{Digest, Sha256};

use crate::login_throttle::{Attempt, LoginThrottle};

/// What the corpus pages and their endpoints are called in refusals.
pub const CORPUS_PAGES: &str = "the corpus pages";

/// A request the admin token does not open; says why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Forbidden {
    /// No token, a wrong one, or none configured.
    #[error("{0}")]
    Refused(String),
    /// The client gave too many wrong tokens lately; it may try again in this many seconds.
    #[error("too many wrong admin tokens from your address; try again in {0} s")]
    Throttled(u64),
}

/// The configured admin token, if any (an empty one counts as none), and the wrong tokens
/// given lately by each address.
#[derive(Clone, Default)]
pub struct AdminToken {
    token: Option<String>,
    throttle: LoginThrottle,
}

impl AdminToken {
    pub fn new(token: Option<String>) -> Self {
        Self {
            token: token.filter(|t| !t.trim().is_empty()),
            throttle: LoginThrottle::default(),
        }
    }

    pub fn is_set(&self) -> bool {
        self.token.is_some()
    }

    /// The login cookie's value for this token: a SHA-256 digest (hex), so that the cookie never
    /// holds the token and needs no escaping; `None` without a token.
    pub fn login_value(&self) -> Option<String> {
        let token = self.token.as_ref()?;
        let digest = Sha256::digest(format!("tally admin login\n{token}").as_bytes());
        Some(digest.iter().map(|b| format!("{b:02x}")).collect())
    }

    /// The token a login cookie stands for: the configured one when `cookie` is its login value.
    pub fn token_of_login(&self, cookie: &str) -> Option<&str> {
        let expected = self.login_value()?;
        constant_time_eq(cookie.as_bytes(), expected.as_bytes())
            .then_some(self.token.as_deref())
            .flatten()
    }

    /// Checks a request's token for `what` (a plural: "study results", "corpus pages").
    /// Inside a request's [`Attempt`], a client that gave too many wrong tokens lately is
    /// refused whatever it gives, and a wrong token counts against it.
    pub fn check(&self, given: Option<&str>, what: &str) -> Result<(), Forbidden> {
        let Some(expected) = &self.token else {
            return Err(Forbidden::Refused(format!(
                "{what} are closed: the server has no admin token (set TALLY_ADMIN_TOKEN)"
            )));
        };
        let given = given.filter(|g| !g.is_empty());
        let client = Attempt::client();
        if let (Some(_), Some(client)) = (given, client) {
            self.throttle.admit(client).map_err(Forbidden::Throttled)?;
        }
        match given {
            Some(given) if constant_time_eq(given.as_bytes(), expected.as_bytes()) => Ok(()),
            Some(_) => {
                if let Some(client) = client {
                    self.throttle.wrong_token(client);
                    Attempt::gave_wrong_token();
                }
                Err(Forbidden::Refused("the admin token is wrong".into()))
            }
            None => Err(Forbidden::Refused(format!("{what} need the admin token"))),
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
            .to_string()
            .contains("wrong"));
        assert_eq!(
            open.check(None, "corpus pages").unwrap_err().to_string(),
            "corpus pages need the admin token"
        );
        let closed = AdminToken::new(Some("  ".into()));
        assert!(!closed.is_set());
        assert!(closed
            .check(Some("  "), "x")
            .unwrap_err()
            .to_string()
            .contains("TALLY_ADMIN_TOKEN"));
    }
}
