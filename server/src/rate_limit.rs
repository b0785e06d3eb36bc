//! A per-address limit on answering requests: a token bucket per client IP, refilled at the
//! configured rate. Off unless configured (`--rate-limit`), as a local user needs none.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Buckets idle this long are dropped, so the table does not grow with every address seen.
const IDLE: Duration = Duration::from_secs(600);

#[derive(Clone)]
pub struct RateLimiter {
    per_minute: u32,
    buckets: Arc<Mutex<HashMap<IpAddr, Bucket>>>,
}

struct Bucket {
    tokens: f64,
    updated: Instant,
}

impl RateLimiter {
    /// `per_minute` requests per address and minute, in bursts of up to that many; 0 turns the
    /// limit off.
    pub fn new(per_minute: u32) -> Self {
        RateLimiter {
            per_minute,
            buckets: Arc::new(Mutex::new(HashMap::new())),
        }
    }

    pub fn enabled(&self) -> bool {
        self.per_minute > 0
    }

    /// Takes one request's token for `client`; `Err(wait)` when none is left.
    pub fn check(&self, client: Option<IpAddr>) -> Result<(), Duration> {
        self.check_at(client, Instant::now())
    }

    fn check_at(&self, client: Option<IpAddr>, now: Instant) -> Result<(), Duration> {
        let (true, Some(client)) = (self.enabled(), client) else {
            return Ok(());
        };
        let capacity = f64::from(self.per_minute);
        let per_second = capacity / 60.0;
        let Ok(mut buckets) = self.buckets.lock() else {
            return Ok(());
        };
        if buckets.len() > 10_000 {
            buckets.retain(|_, b| now.duration_since(b.updated) < IDLE);
        }
        let bucket = buckets.entry(client).or_insert(Bucket {
            tokens: capacity,
            updated: now,
        });
        let elapsed = now.duration_since(bucket.updated).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * per_second).min(capacity);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / per_second))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_is_limited_and_refills_over_time() {
        let limiter = RateLimiter::new(3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let t0 = Instant::now();
        for _ in 0..3 {
            assert!(limiter.check_at(Some(a), t0).is_ok());
        }
        let wait = limiter.check_at(Some(a), t0).unwrap_err();
        assert!(wait > Duration::from_secs(19) && wait <= Duration::from_secs(20));
        // Other addresses have their own bucket.
        assert!(limiter.check_at(Some(b), t0).is_ok());
        // One token back after 20 s (3 per minute).
        assert!(limiter
            .check_at(Some(a), t0 + Duration::from_secs(21))
            .is_ok());
    }

    #[test]
    fn zero_turns_the_limit_off() {
        let limiter = RateLimiter::new(0);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..1000 {
            assert!(limiter.check(Some(a)).is_ok());
        }
    }
}
