//! The admin token: it opens the study's results, every visitor's history and the corpus
//! pages. Compared in constant time; never logged. A browser logs in once (`POST /admin/login`)
//! and then carries a login cookie ([`AdminToken::login_value`]): an expiry and a random nonce
//! signed with HMAC-SHA256 under a key made from the token and a server secret
//! (`TALLY_SESSION_SECRET`, random per process when unset). Without the secret no cookie can be
//! made for any guess of the token, offline or not; a cookie whose signature is wrong counts as
//! a wrong token.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use hmac::{Hmac, Mac};
use sha2::Sha256;

use crate::login_throttle::{Attempt, LoginThrottle, Refusal};

/// The environment variable holding the secret login cookies are signed with; servers behind
/// one balancer share it, so that a login on one holds on all (never a flag: flags show in
/// `ps`).
pub const SESSION_SECRET_ENV: &str = "TALLY_SESSION_SECRET";

/// How long a login lasts: a working day.
pub const LOGIN_LASTS: Duration = Duration::from_secs(8 * 3600);

/// The login cookie's format version, its first field.
const COOKIE_VERSION: &str = "v2";

/// What the corpus pages and their endpoints are called in refusals.
pub const CORPUS_PAGES: &str = "the corpus pages";

/// What the review page and its forms are called in refusals.
pub const REVIEW_PAGE: &str = "the review page";

/// A request the admin token does not open; says why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Forbidden {
    /// A login cookie that is not valid (forged, or signed with another key).
    #[error("the login is not valid; log in again")]
    LoginInvalid,
    /// The server has no admin token, so `what` are closed.
    #[error("{what} are closed: the server has no admin token (set TALLY_ADMIN_TOKEN)")]
    NoTokenSet {
        /// What the token opens (a plural: "study results").
        what: String,
    },
    /// A token that is not the admin token.
    #[error("the admin token is wrong")]
    WrongToken,
    /// No token given for `what`.
    #[error("{what} need the admin token")]
    NoTokenGiven {
        /// What the token opens (a plural: "study results").
        what: String,
    },
    /// The client gave too many wrong tokens lately; it may try again in this many seconds.
    #[error("too many wrong admin tokens from your address; try again in {0} s")]
    Throttled(u64),
    /// All clients together gave too many wrong tokens lately; closed for this many seconds.
    #[error("too many wrong admin tokens lately; admin access is closed for {0} s")]
    ThrottledEveryone(u64),
}

/// The configured admin token, if any (an empty one counts as none), the key login cookies are
/// signed with, and the wrong tokens given lately.
#[derive(Clone, Default)]
pub struct AdminToken {
    token: Option<String>,
    /// HMAC key of login cookies: from the token and the server secret (none without a token).
    login_key: Option<[u8; 32]>,
    throttle: LoginThrottle,
}

/// What a login cookie turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Login {
    /// Signed by this server's key and not expired: it stands for the token.
    Valid,
    /// Signed, but over: the person logs in again (not a guess).
    Expired,
    /// Not signed by this server's key: a guess, or a cookie of another secret or token.
    Forged,
}

impl AdminToken {
    /// The admin token `token`, with login cookies signed under `secret` (a random one when
    /// `None`: logins then hold on this process only).
    pub fn new(token: Option<String>, secret: Option<String>) -> Self {
        let token = token.filter(|t| !t.trim().is_empty());
        let secret = secret.filter(|s| !s.is_empty()).unwrap_or_else(random_hex);
        // The key is HMAC(secret, token): known to whoever knows both, and only to them.
        let login_key = token.as_ref().map(|token| {
            let mut mac =
                <Hmac<Sha256> as Mac>::new_from_slice(secret.as_bytes()).expect("any key length");
            mac.update(b"tally admin login key\n");
            mac.update(token.as_bytes());
            let mut key = [0u8; 32];
            key.copy_from_slice(&mac.finalize().into_bytes());
            key
        });
        Self {
            token,
            login_key,
            throttle: LoginThrottle::default(),
        }
    }

    /// Whether an admin token is configured (an empty one counts as none).
    pub fn is_set(&self) -> bool {
        self.token.is_some()
    }

    /// A new login cookie's value: `v2.<expiry>.<nonce>.<signature>` (hex and digits, so it
    /// needs no escaping and holds nothing of the token); `None` without a token.
    pub fn login_value(&self) -> Option<String> {
        self.login_value_at(now_unix())
    }

    fn login_value_at(&self, now: u64) -> Option<String> {
        let expires = now + LOGIN_LASTS.as_secs();
        let signed = format!("{COOKIE_VERSION}.{expires}.{}", random_hex());
        let signature = self.sign(&signed)?;
        Some(format!("{signed}.{signature}"))
    }

    fn sign(&self, signed: &str) -> Option<String> {
        let key = self.login_key.as_ref()?;
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).ok()?;
        mac.update(signed.as_bytes());
        Some(hex(&mac.finalize().into_bytes()))
    }

    /// The token the admin pages' forms carry for the login cookie `cookie` (issue 70): a form
    /// that the cookie alone admits must carry it too. A page of this server shows it to whoever
    /// holds the cookie; a page of another origin, which the browser sends the cookie from all
    /// the same, cannot read it. A new login makes a new one. `None` without a token.
    pub fn form_token(&self, cookie: &str) -> Option<String> {
        self.sign(&format!("form\n{cookie}"))
    }

    /// Whether `given` is the form token of the login cookie `cookie`.
    pub fn form_token_fits(&self, cookie: &str, given: &str) -> bool {
        self.form_token(cookie)
            .is_some_and(|expected| constant_time_eq(expected.as_bytes(), given.as_bytes()))
    }

    /// What a login cookie is worth now.
    pub fn login(&self, cookie: &str) -> Login {
        self.login_at(cookie, now_unix())
    }

    fn login_at(&self, cookie: &str, now: u64) -> Login {
        let Some((signed, signature)) = cookie.rsplit_once('.') else {
            return Login::Forged;
        };
        let Some(expected) = self.sign(signed) else {
            return Login::Forged;
        };
        if !constant_time_eq(signature.as_bytes(), expected.as_bytes()) {
            return Login::Forged;
        }
        let expires = signed.split('.').nth(1).and_then(|e| e.parse::<u64>().ok());
        match expires {
            Some(expires) if now < expires => Login::Valid,
            _ => Login::Expired,
        }
    }

    /// The token a login cookie stands for: the configured one when the cookie is valid,
    /// `None` when it is over (log in again); refused, and counted as a wrong token, when it was
    /// not signed by this server's key.
    pub fn token_of_login(&self, cookie: &str) -> Result<Option<&str>, Forbidden> {
        match self.login(cookie) {
            Login::Valid => Ok(self.token.as_deref()),
            Login::Expired => Ok(None),
            Login::Forged => Err(self.forged_login()),
        }
    }

    /// Counts a forged login cookie like a wrong token (inside a request's [`Attempt`]);
    /// refused when its client, or everyone, gave too many lately.
    fn forged_login(&self) -> Forbidden {
        if let Some(client) = Attempt::client() {
            if let Err(refusal) = self.throttle.admit(client) {
                return refusal.into();
            }
            self.throttle.wrong_token(client);
            Attempt::gave_wrong_token();
        }
        Forbidden::LoginInvalid
    }

    /// Checks a request's token for `what` (a plural: "study results", "corpus pages").
    /// Inside a request's [`Attempt`], a client that gave too many wrong tokens lately is
    /// refused whatever it gives, and a wrong token counts against it.
    pub fn check(&self, given: Option<&str>, what: &str) -> Result<(), Forbidden> {
        let Some(expected) = &self.token else {
            return Err(Forbidden::NoTokenSet {
                what: what.to_string(),
            });
        };
        let given = given.filter(|g| !g.is_empty());
        let client = Attempt::client();
        if let (Some(_), Some(client)) = (given, client) {
            self.throttle.admit(client)?;
        }
        match given {
            Some(given) if constant_time_eq(given.as_bytes(), expected.as_bytes()) => Ok(()),
            Some(_) => {
                if let Some(client) = client {
                    self.throttle.wrong_token(client);
                    Attempt::gave_wrong_token();
                }
                Err(Forbidden::WrongToken)
            }
            None => Err(Forbidden::NoTokenGiven {
                what: what.to_string(),
            }),
        }
    }
}

impl From<Refusal> for Forbidden {
    fn from(refusal: Refusal) -> Self {
        match refusal {
            Refusal::Address(seconds) => Forbidden::Throttled(seconds),
            Refusal::Everyone(seconds) => Forbidden::ThrottledEveryone(seconds),
        }
    }
}

fn now_unix() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// 244 random bits (two version-4 UUIDs), as hex.
fn random_hex() -> String {
    format!(
        "{}{}",
        uuid::Uuid::new_v4().simple(),
        uuid::Uuid::new_v4().simple()
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::Digest;

    #[test]
    fn a_login_cookie_stands_for_the_token_without_holding_it() {
        let open = AdminToken::new(Some("s3cret; x".into()), Some("server secret".into()));
        let cookie = open.login_value().unwrap();
        assert!(!cookie.contains("s3cret"));
        assert!(cookie
            .chars()
            .all(|c| c.is_ascii_hexdigit() || c == '.' || c == 'v'));
        assert_eq!(
            open.token_of_login(&cookie).ok().flatten(),
            Some("s3cret; x")
        );
        assert_eq!(open.token_of_login("s3cret; x").ok().flatten(), None);
        // Two logins, two cookies.
        assert_ne!(open.login_value().unwrap(), cookie);
        // Another token or another secret: another key, and the cookie is forged there.
        let other_token = AdminToken::new(Some("other".into()), Some("server secret".into()));
        assert_eq!(other_token.login(&cookie), Login::Forged);
        let other_secret = AdminToken::new(Some("s3cret; x".into()), Some("other secret".into()));
        assert_eq!(other_secret.login(&cookie), Login::Forged);
        // Servers sharing the secret share logins.
        let twin = AdminToken::new(Some("s3cret; x".into()), Some("server secret".into()));
        assert_eq!(twin.login(&cookie), Login::Valid);
        // Without a secret each process has its own.
        let lone = AdminToken::new(Some("s3cret; x".into()), None);
        let lone_twin = AdminToken::new(Some("s3cret; x".into()), None);
        assert_eq!(lone_twin.login(&lone.login_value().unwrap()), Login::Forged);
        assert_eq!(AdminToken::default().login_value(), None);
    }

    #[test]
    fn the_old_digest_cookie_and_tampered_cookies_are_forged_and_logins_expire() {
        let open = AdminToken::new(Some("s3cret".into()), Some("k".into()));
        // What the cookie used to be: sha256 of a fixed text and the token, computable offline.
        let old = hex(&Sha256::digest(b"tally admin login\ns3cret"));
        assert_eq!(open.login(&old), Login::Forged);
        let now = 1_800_000_000;
        let cookie = open.login_value_at(now).unwrap();
        assert_eq!(open.login_at(&cookie, now), Login::Valid);
        // A later expiry written in by hand breaks the signature.
        let (version_and_expiry, rest) = cookie.split_at(3 + 10);
        let stretched = format!(
            "{}9{rest}",
            &version_and_expiry[..version_and_expiry.len() - 1]
        );
        assert_eq!(open.login_at(&stretched, now), Login::Forged);
        let expired = now + LOGIN_LASTS.as_secs();
        assert_eq!(open.login_at(&cookie, expired), Login::Expired);
        for junk in ["", ".", "v2...", "v2.1.2.3", &"a".repeat(5000)] {
            assert_eq!(open.login(junk), Login::Forged, "{junk}");
        }
    }

    #[test]
    fn a_form_token_belongs_to_one_login_and_one_server() {
        let admin = AdminToken::new(Some("s3cret".into()), Some("secret".into()));
        let login = admin.login_value().unwrap();
        let form = admin.form_token(&login).unwrap();
        assert!(admin.form_token_fits(&login, &form));
        // Another login, another secret, or a guess does not fit.
        let other_login = admin.login_value().unwrap();
        assert!(!admin.form_token_fits(&other_login, &form));
        let elsewhere = AdminToken::new(Some("s3cret".into()), Some("other".into()));
        assert!(!elsewhere.form_token_fits(&login, &form));
        assert!(!admin.form_token_fits(&login, "") && !admin.form_token_fits(&login, &login));
        assert_eq!(AdminToken::new(None, None).form_token(&login), None);
    }

    #[test]
    fn only_the_right_token_opens() {
        let open = AdminToken::new(Some("s3cret".into()), None);
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
        let closed = AdminToken::new(Some("  ".into()), None);
        assert!(!closed.is_set());
        assert!(closed
            .check(Some("  "), "x")
            .unwrap_err()
            .to_string()
            .contains("TALLY_ADMIN_TOKEN"));
    }
}
