//! Answer slots shared fairly between client addresses and between plain and costly questions.
//! A fixed number of answers are computed at once; a question that finds none free waits in a
//! bounded queue, and when a slot frees it goes to the waiting question whose address has the
//! fewest answers computing (a plain one before a costly one, then the earliest), not simply to
//! the oldest. Costly questions (more snippets than the default, or the reader's instances)
//! never hold the last slot: with two or more, one is always left to plain questions. So costly
//! questions, from one address or from many, cannot keep a plain question waiting behind all
//! of them (issue 57: six costly questions from one address made another's plain question take
//! 107.7 s).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

/// The slots and the questions waiting for one.
pub(super) struct Slots {
    inner: Mutex<Inner>,
    max_waiting: usize,
}

struct Inner {
    /// Slots in all.
    total: usize,
    free: usize,
    /// Costly answers computing.
    costly: usize,
    /// Answers computing, by client address (`None`: no address known, one group).
    running: HashMap<Option<IpAddr>, usize>,
    waiting: Vec<Waiter>,
    next_seq: u64,
}

struct Waiter {
    client: Option<IpAddr>,
    costly: bool,
    seq: u64,
    hand_over: oneshot::Sender<Slot>,
}

/// One computing answer's slot; given back (to the fairest waiter) when dropped.
pub(super) struct Slot {
    slots: Arc<Slots>,
    client: Option<IpAddr>,
    costly: bool,
}

/// No slot, and the queue is full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Full;

impl Slots {
    /// `concurrent` slots, and up to `max_waiting` questions waiting for one.
    pub(super) fn new(concurrent: usize, max_waiting: usize) -> Arc<Self> {
        Arc::new(Slots {
            inner: Mutex::new(Inner {
                total: concurrent.max(1),
                free: concurrent.max(1),
                costly: 0,
                running: HashMap::new(),
                waiting: Vec::new(),
                next_seq: 0,
            }),
            max_waiting,
        })
    }

    /// A slot for `client`'s question (`costly` or plain): at once, after waiting its turn, or
    /// [`Full`].
    pub(super) async fn take(
        self: &Arc<Self>,
        client: Option<IpAddr>,
        costly: bool,
    ) -> Result<Slot, Full> {
        let handed = {
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            // Waiters whose askers left hold no place.
            inner.waiting.retain(|w| !w.hand_over.is_closed());
            // A free slot with nobody it could go to waiting: every waiter is a costly question
            // kept from the slot left to plain ones.
            if inner.free > 0 && inner.may_run(costly) && !inner.someone_may_run() {
                return Ok(inner.start(self, client, costly));
            }
            if inner.waiting.len() >= self.max_waiting {
                return Err(Full);
            }
            let (hand_over, handed) = oneshot::channel();
            let seq = inner.next_seq;
            inner.next_seq += 1;
            inner.waiting.push(Waiter {
                client,
                costly,
                seq,
                hand_over,
            });
            handed
        };
        // The sender is only dropped with the queue's entry, which is handed a slot first.
        handed.await.map_err(|_| Full)
    }

    /// Answers computing now, whoever asked them.
    pub(super) fn computing(&self) -> usize {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.total - inner.free
    }

    /// Answers computing now for `client`.
    #[cfg(test)]
    fn running(&self, client: Option<IpAddr>) -> usize {
        let inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        inner.running.get(&client).copied().unwrap_or(0)
    }

    /// Gives back a slot of `client` (`costly` or plain): to the fairest waiter that may run, or
    /// to the free ones.
    fn give_back(self: &Arc<Self>, client: Option<IpAddr>, costly: bool) {
        let next = {
            let mut inner = self.inner.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(count) = inner.running.get_mut(&client) {
                *count -= 1;
                if *count == 0 {
                    inner.running.remove(&client);
                }
            }
            if costly {
                inner.costly -= 1;
            }
            inner.free += 1;
            inner.waiting.retain(|w| !w.hand_over.is_closed());
            let fairest = inner
                .waiting
                .iter()
                .enumerate()
                .filter(|(_, w)| inner.may_run(w.costly))
                .min_by_key(|(_, w)| {
                    let running = inner.running.get(&w.client).copied().unwrap_or(0);
                    (running, w.costly, w.seq)
                })
                .map(|(i, _)| i);
            fairest.map(|i| {
                let waiter = inner.waiting.remove(i);
                let slot = inner.start(self, waiter.client, waiter.costly);
                (waiter, slot)
            })
        };
        // Handed over outside the lock: a waiter that left meanwhile gives it back at once (its
        // slot is dropped here, which calls this again).
        if let Some((waiter, slot)) = next {
            let _ = waiter.hand_over.send(slot);
        }
    }
}

impl Inner {
    /// Whether a question (`costly` or plain) may take a free slot: a costly one never takes
    /// the last one left to plain questions.
    fn may_run(&self, costly: bool) -> bool {
        !costly || self.total < 2 || self.costly + 1 < self.total
    }

    /// Whether a waiter could take a free slot now.
    fn someone_may_run(&self) -> bool {
        self.waiting.iter().any(|w| self.may_run(w.costly))
    }

    /// Takes a free slot for `client`.
    fn start(&mut self, slots: &Arc<Slots>, client: Option<IpAddr>, costly: bool) -> Slot {
        self.free -= 1;
        if costly {
            self.costly += 1;
        }
        *self.running.entry(client).or_insert(0) += 1;
        Slot {
            slots: Arc::clone(slots),
            client,
            costly,
        }
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.slots.give_back(self.client, self.costly);
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
        let first = slots.take(costly, false).await.unwrap();
        let second = slots.take(costly, false).await.unwrap();
        // The costly address queues two more, then the plain one asks.
        let (order, mut served) = tokio::sync::mpsc::unbounded_channel();
        let mut waiting = Vec::new();
        for (who, name) in [(costly, "costly 3"), (costly, "costly 4"), (plain, "plain")] {
            let slots = Arc::clone(&slots);
            let order = order.clone();
            waiting.push(tokio::spawn(async move {
                let slot = slots.take(who, false).await.unwrap();
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
        let _a = slots.take(None, false).await.unwrap();
        let _b = slots.take(None, false).await.unwrap();
    }

    #[tokio::test]
    async fn costly_questions_never_hold_the_last_slot() {
        let slots = Slots::new(2, 10);
        let first = slots.take(address(1), true).await.unwrap();
        // A second costly question, from another address, waits though a slot is free ...
        let second = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move { slots.take(address(2), true).await.map(|_| ()) }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert!(!second.is_finished());
        // ... which a plain question takes at once.
        let plain = tokio::time::timeout(Duration::from_millis(100), slots.take(address(3), false))
            .await
            .expect("a plain question is not kept waiting")
            .unwrap();
        // The costly one goes once the first costly one is done.
        drop(first);
        tokio::time::timeout(Duration::from_secs(1), second)
            .await
            .expect("the waiting costly question runs")
            .unwrap()
            .unwrap();
        drop(plain);
        // Alone on a one-slot server a costly question runs.
        let lone = Slots::new(1, 1);
        assert!(lone.take(None, true).await.is_ok());
    }

    #[tokio::test]
    async fn a_full_queue_refuses_and_a_waiter_who_left_holds_no_place() {
        let slots = Slots::new(1, 1);
        let held = slots.take(address(1), false).await.unwrap();
        let left = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move { slots.take(address(2), false).await.map(|_| ()) }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        assert_eq!(slots.take(address(3), false).await.err(), Some(Full));
        left.abort();
        let _ = left.await;
        // Its place is free again; the slot, once given back, is taken at once.
        let waiting = tokio::spawn({
            let slots = Arc::clone(&slots);
            async move { slots.take(address(3), false).await.is_ok() }
        });
        tokio::time::sleep(Duration::from_millis(20)).await;
        drop(held);
        assert!(waiting.await.unwrap());
        assert!(slots.take(None, false).await.is_ok());
    }
}
