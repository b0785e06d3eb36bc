//! Answer slots shared fairly between client addresses. A fixed number of answers are computed
//! at once; a question that finds none free waits in a bounded queue, and when a slot frees it
//! goes to the waiting question whose address has the fewest answers computing (the earliest
//! among equals), not simply to the oldest. So one address's costly questions cannot keep
//! another address's plain question waiting behind all of them (issue 57: six costly questions
//! from one address made another's plain question take 107.7 s).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// The slots and the questions waiting for one.
pub struct Slots {
    inner: Mutex<Inner>,
    max_waiting: usize,
}

struct Inner {
    free: usize,
    /// Answers computing, by client address (`None`: no address known, one group).
    running: HashMap<Option<IpAddr>, usize>,
    waiting: Vec<Waiter>,
    next_seq: u64,
}

struct Waiter {
    client: Option<IpAddr>,
    seq: u64,
    hand_over: oneshot::Sender<Slot>,
}

/// One computing answer's slot; given back (to the fairest waiter) when dropped.
pub struct Slot {
    slots: Arc<Slots>,
    client: Option<IpAddr>,
}

/// No slot, and the queue is full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full;

impl Slots {
    /// `concurrent` slots, and up to `max_waiting` questions waiting for one.
    pub fn new(concurrent: usize, max_waiting: usize) -> Arc<Self> {
        Arc::new(Slots {
            inner: Mutex::new(Inner {
                free: concurrent.max(1),
                running: HashMap::new(),
                waiting: Vec::new(),
                next_seq: 0,
            }),
            max_waiting,
        })
    }

    /// A slot for `client`'s question: at once, after waiting its turn, or [`Full`].
    pub async fn take(self: &Arc<Self>, client: Option<IpAddr>) -> Result<Slot, Full> {
        let handed = {
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            // Waiters whose askers left hold no place.
            inner.waiting.retain(|w| !w.hand_over.is_closed());
            if inner.free > 0 && inner.waiting.is_empty() {
                inner.free -= 1;
                *inner.running.entry(client).or_insert(0) += 1;
                return Ok(Slot {
                    slots: Arc::clone(self),
                    client,
                });
            }
            if inner.waiting.len() >= self.max_waiting {
                return Err(Full);
            }
            let (hand_over, handed) = oneshot::channel();
            let seq = inner.next_seq;
            inner.next_seq += 1;
            inner.waiting.push(Waiter {
                client,
                seq,
                hand_over,
            });
            handed
        };
        // The sender is only dropped with the queue's entry, which is handed a slot first.
        handed.await.map_err(|_| Full)
    }

    /// Answers computing now for `client`.
    #[cfg(test)]
    fn running(&self, client: Option<IpAddr>) -> usize {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.running.get(&client).copied().unwrap_or(0)
    }

    /// Gives `client`'s slot to the fairest waiter, or back to the free ones.
    fn give_back(self: &Arc<Self>, client: Option<IpAddr>) {
        let next = {
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(count) = inner.running.get_mut(&client) {
                *count -= 1;
                if *count == 0 {
                    inner.running.remove(&client);
                }
            }
            inner.waiting.retain(|w| !w.hand_over.is_closed());
            let fairest = inner
                .waiting
                .iter()
                .enumerate()
                .min_by_key(|(_, w)| (inner.running.get(&w.client).copied().unwrap_or(0), w.seq))
                .map(|(i, _)| i);
            match fairest {
                Some(i) => {
                    let waiter = inner.waiting.remove(i);
                    *inner.running.entry(waiter.client).or_insert(0) += 1;
                    Some(waiter)
                }
                None => {
                    inner.free += 1;
                    None
                }
            }
        };
        // Handed over outside the lock: a waiter that left meanwhile gives it back at once (its
        // slot is dropped here, which calls this again).
        if let Some(waiter) = next {
            let slot = Slot {
                slots: Arc::clone(self),
                client: waiter.client,
            };
            let _ = waiter.hand_over.send(slot);
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.give_back(self.client);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn address(last: u8) -> Option<IpAddr> {
        Some(IpAddr::from([192, 0, 2, last]))
    }

    #[tokio::test]
    async fn a_freed_slot_goes_to_the_address_with_the_fewest_answers_computing() {
        let slots = Slots::new(2, 10);
        let (costly, plain) = (address(1), address(2));
        let first = slots.take(costly).await.unwrap();
        let second = slots.take(costly).await.unwrap();
        // The costly address queues two more, then the plain one asks.
        let (order, mut served) = tokio::sync::mpsc::unbounded_channel();
        let mut waiting = Vec::new();
        for (who, name) in [(costly, "costly 3"), (costly, "costly 4"), (plain, "plain")] {
            let slots = Arc::clone(&slots);
            let order = order.clone();
            waiting.push(tokio::spawn(async move {
                let slot = slots.take(who).await.unwrap();
                order.send(name).unwrap();
                tokio::time::sleep(Duration::from_millis(50)).await;
                drop(slot);
            }));
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        drop(first);
        // The plain question, though last in line, has no answer computing: it goes first.
        assert_eq!(served.recv().await, Some("plain"));
        assert_eq!(slots.running(plain), 1);
        drop(second);
        assert_eq!(served.recv().await, Some("costly 3"));
        assert_eq!(served.recv().await, Some("costly 4"));
        for task in waiting {
            task.await.unwrap();
        }
        assert_eq!(slots.running(costly), 0);
        // Everything given back: both slots free at once.
        let _a = slots.take(None).await.unwrap();
        let _b = slots.take(None).await.unwrap();
    }

    #[tokio::test]
    async fn a_full_queue_refuses_and_a_waiter_who_left_holds_no_place() {
        let slots = Slots::new(1, 1);
        let held = slots.take(address(1)).await.unwrap();
        let left = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move { slots.take(address(2)).await.map(|_| ()) }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(slots.take(address(3)).await.err(), Some(Full));
        left.abort();
        let _ = left.await;
        // Its place is free again; the slot, once given back, is taken at once.
        let waiting = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move { slots.take(address(3)).await.is_ok() }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(held);
        assert!(waiting.await.unwrap());
        assert!(slots.take(None).await.is_ok());
    }
}
