//! A per-address limit on answering requests: `governor`'s keyed limiter (GCRA, the
//! continuous form of a token bucket), a burst of up to the limit per address refilled at the
//! configured rate. Off unless configured (`--rate-limit`), as a local user needs none.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DashMapStateStore;
use governor::Quota;

/// Addresses seen before the table is swept of those whose limit has refilled.
const SWEEP_ABOVE: usize = 10_000;

type Keyed<C> = governor::RateLimiter<
    IpAddr,
    DashMapStateStore<IpAddr>,
    C,
    NoOpMiddleware<<C as Clock>::Instant>,
>;

#[derive(Clone)]
pub struct RateLimiter<C: Clock + Clone = DefaultClock> {
    /// `None`: no limit.
    limiter: Option<Arc<Keyed<C>>>,
    clock: C,
}

impl RateLimiter {
    /// `per_minute` requests per address and minute, in bursts of up to that many; 0 turns the
    /// limit off.
    pub fn new(per_minute: u32) -> Self {
        Self::with_clock(per_minute, DefaultClock::default())
    }
}

impl<C: Clock + Clone> RateLimiter<C> {
    fn with_clock(per_minute: u32, clock: C) -> Self {
        let limiter = NonZeroU32::new(per_minute).map(|n| {
            Arc::new(Keyed::dashmap_with_clock(
                Quota::per_minute(n).allow_burst(n),
                clock.clone(),
            ))
        });
        RateLimiter { limiter, clock }
    }

    pub fn enabled(&self) -> bool {
        self.limiter.is_some()
    }

    /// Takes one request's place for `client`; `Err(wait)` when none is left.
    pub fn check(&self, client: Option<IpAddr>) -> Result<(), Duration> {
        let (Some(limiter), Some(client)) = (&self.limiter, client) else {
            return Ok(());
        };
        if limiter.len() > SWEEP_ABOVE {
            limiter.retain_recent();
        }
        limiter
            .check_key(&client)
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use governor::clock::FakeRelativeClock;

    #[test]
    fn a_burst_is_limited_and_refills_over_time() {
        let clock = FakeRelativeClock::default();
        let limiter = RateLimiter::with_clock(3, clock.clone());
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..3 {
            assert!(limiter.check(Some(a)).is_ok());
        }
        let wait = limiter.check(Some(a)).unwrap_err();
        assert!(wait > Duration::from_secs(19) && wait <= Duration::from_secs(20));
        // Other addresses have their own limit.
        assert!(limiter.check(Some(b)).is_ok());
        // One request back after 20 s (3 per minute).
        clock.advance(Duration::from_secs(21));
        assert!(limiter.check(Some(a)).is_ok());
    }

    #[test]
    fn zero_turns_the_limit_off() {
        let limiter = RateLimiter::new(0);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        assert!(!limiter.enabled());
        for _ in 0..1000 {
            assert!(limiter.check(Some(a)).is_ok());
        }
    }
}
