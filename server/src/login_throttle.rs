//! Guessing the admin token, slowed down: wrong tokens (and forged login cookies) are counted per
//! client address and over all addresses, each is answered only after a delay, and an address
//! that gave too many in a while is refused (even with the right token, which would otherwise
//! confirm a guess) until the while is over; when all addresses together gave too many, every
//! address is, so that guesses spread over many addresses are bounded too.
//!
//! The admin token is checked in many handlers, which know the token but not who sent it. The
//! HTTP layer runs each request inside [`Attempt::scope`], which names the client for the checks
//! made while the request is handled and learns whether one of them saw a wrong token.

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Wrong tokens one address may give per [`WINDOW`]; a person mistyping needs a few.
pub(crate) const MAX_WRONG: u32 = 10;
/// How long wrong tokens count against their address.
pub(crate) const WINDOW: Duration = Duration::from_secs(600);
/// Wrong tokens all addresses together may give per [`WINDOW`] (issue 57: 20,000 guesses from
/// 20,000 addresses were each answered).
pub(crate) const MAX_WRONG_EVERYWHERE: u32 = 200;
/// How long a wrong token's answer is held back.
pub(crate) const DELAY: Duration = Duration::from_secs(1);

/// Wrong admin tokens by client address and in all (shared by every clone).
#[derive(Clone, Default)]
pub(crate) struct LoginThrottle {
    wrong: Arc<Mutex<HashMap<IpAddr, Wrong>>>,
    everywhere: Arc<Mutex<Option<Wrong>>>,
}

/// Who is refused for the while, and for how many seconds more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The client's address gave too many wrong tokens.
    Address(u64),
    /// All addresses together did.
    Everyone(u64),
}

/// An address's wrong tokens in its current window.
struct Wrong {
    count: u32,
    since: Instant,
}

impl LoginThrottle {
    /// Refused when `client`, or all addresses together, gave too many wrong tokens lately:
    /// says how long until it may try again.
    pub(crate) fn admit(&self, client: IpAddr) -> Result<(), Refusal> {
        self.admit_at(client, Instant::now())
    }

    fn admit_at(&self, client: IpAddr, now: Instant) -> Result<(), Refusal> {
        let left = |w: &Wrong, max: u32| {
            (w.count >= max && now.duration_since(w.since) < WINDOW)
                .then(|| (WINDOW - now.duration_since(w.since)).as_secs().max(1))
        };
        if let Ok(everywhere) = self.everywhere.lock() {
            if let Some(seconds) = everywhere
                .as_ref()
                .and_then(|w| left(w, MAX_WRONG_EVERYWHERE))
            {
                return Err(Refusal::Everyone(seconds));
            }
        }
        let Ok(wrong) = self.wrong.lock() else {
            return Ok(());
        };
        match wrong.get(&client).and_then(|w| left(w, MAX_WRONG)) {
            Some(seconds) => Err(Refusal::Address(seconds)),
            None => Ok(()),
        }
    }

    /// Counts a wrong token from `client`.
    pub(crate) fn wrong_token(&self, client: IpAddr) {
        self.wrong_token_at(client, Instant::now());
    }

    fn wrong_token_at(&self, client: IpAddr, now: Instant) {
        if let Ok(mut everywhere) = self.everywhere.lock() {
            let entry = everywhere.get_or_insert(Wrong {
                count: 0,
                since: now,
            });
            entry.count_at(now);
        }
        let Ok(mut wrong) = self.wrong.lock() else {
            return;
        };
        // Windows that are over are forgotten, so the table holds only recent guessers.
        if wrong.len() > 10_000 {
            wrong.retain(|_, w| now.duration_since(w.since) < WINDOW);
        }
        wrong
            .entry(client)
            .or_insert(Wrong {
                count: 0,
                since: now,
            })
            .count_at(now);
    }
}

impl Wrong {
    /// Counts one more wrong token at `now`, in a new window when the last one is over.
    fn count_at(&mut self, now: Instant) {
        if now.duration_since(self.since) >= WINDOW {
            *self = Wrong {
                count: 0,
                since: now,
            };
        }
        self.count += 1;
    }
}

/// The request being handled: who sent it, and whether it gave a wrong admin token.
pub(crate) struct Attempt {
    pub client: IpAddr,
    wrong: AtomicBool,
}

tokio::task_local! {
    static ATTEMPT: Arc<Attempt>;
}

impl Attempt {
    /// Runs `handle` (a request's handling) as `client`'s attempt; says whether it gave a wrong
    /// admin token.
    pub(crate) async fn scope<F: Future>(client: IpAddr, handle: F) -> (F::Output, bool) {
        let attempt = Arc::new(Attempt {
            client,
            wrong: AtomicBool::new(false),
        });
        let output = ATTEMPT.scope(Arc::clone(&attempt), handle).await;
        (output, attempt.wrong.load(Ordering::Acquire))
    }

    /// The client of the request being handled, if this task handles one.
    pub(crate) fn client() -> Option<IpAddr> {
        ATTEMPT.try_with(|a| a.client).ok()
    }

    /// Marks the request being handled as one that gave a wrong token.
    pub(crate) fn gave_wrong_token() {
        let _ = ATTEMPT.try_with(|a| a.wrong.store(true, Ordering::Release));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_refused_after_too_many_wrong_tokens_for_the_window() {
        let throttle = LoginThrottle::default();
        let guesser: IpAddr = "192.0.2.7".parse().unwrap();
        let other: IpAddr = "192.0.2.8".parse().unwrap();
        let t0 = Instant::now();
        for _ in 0..MAX_WRONG {
            assert!(throttle.admit_at(guesser, t0).is_ok());
            throttle.wrong_token_at(guesser, t0);
        }
        let wait = throttle.admit_at(guesser, t0).unwrap_err();
        assert_eq!(wait, Refusal::Address(WINDOW.as_secs()));
        assert!(throttle.admit_at(other, t0).is_ok());
        let later = t0 + WINDOW;
        assert!(throttle.admit_at(guesser, later).is_ok());
        throttle.wrong_token_at(guesser, later);
        assert!(throttle.admit_at(guesser, later).is_ok());
    }

    #[test]
    fn guesses_spread_over_many_addresses_close_the_door_for_everyone_for_the_window() {
        let throttle = LoginThrottle::default();
        let t0 = Instant::now();
        // One wrong token each from as many addresses as the bound allows.
        let address = |i: u32| IpAddr::from([10, (i >> 16) as u8, (i >> 8) as u8, i as u8]);
        for i in 0..MAX_WRONG_EVERYWHERE {
            assert!(throttle.admit_at(address(i), t0).is_ok(), "{i}");
            throttle.wrong_token_at(address(i), t0);
        }
        let stranger: IpAddr = "192.0.2.200".parse().unwrap();
        assert_eq!(
            throttle.admit_at(stranger, t0),
            Err(Refusal::Everyone(WINDOW.as_secs()))
        );
        assert!(throttle.admit_at(stranger, t0 + WINDOW).is_ok());
    }

    #[tokio::test]
    async fn a_check_inside_an_attempt_marks_it() {
        let client: IpAddr = "192.0.2.9".parse().unwrap();
        let (seen, wrong) = Attempt::scope(client, async {
            let seen = Attempt::client();
            Attempt::gave_wrong_token();
            seen
        })
        .await;
        assert_eq!(seen, Some(client));
        assert!(wrong);
        let ((), wrong) = Attempt::scope(client, async {}).await;
        assert!(!wrong);
        assert_eq!(Attempt::client(), None);
    }
}
