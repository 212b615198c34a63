//! Graceful shutdown: what is in flight, and whether new work is still taken.
//!
//! On the first SIGTERM or Ctrl-C the bot starts draining: interactions that arrive are
//! answered "restarting, try again in a moment" instead of being handled, those already being
//! handled run to their end (a move is answered only after its commit), and the bot waits for
//! them, within `shutdown_grace_seconds`, before it closes the gateway. A second signal exits
//! at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::Notify;

/// The bot's work in flight, and whether it still takes new work.
#[derive(Debug, Default)]
pub struct Drain {
    draining: AtomicBool,
    in_flight: AtomicUsize,
    idle: Notify,
}

/// One piece of work in flight; dropping it marks it done.
#[derive(Debug)]
pub struct Working {
    drain: Arc<Drain>,
}

impl Drop for Working {
    fn drop(&mut self) {
        if self.drain.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.drain.idle.notify_waiters();
        }
    }
}

impl Drain {
    /// A drain that takes work.
    pub fn new() -> Arc<Drain> {
        Arc::new(Drain::default())
    }

    /// Begins a piece of work, or `None` once draining (the caller answers "restarting").
    pub fn begin(self: &Arc<Self>) -> Option<Working> {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        // Checked after counting: `wait_idle` either sees this work or this work sees the flag.
        if self.draining.load(Ordering::Acquire) {
            if self.in_flight.fetch_sub(1, Ordering::AcqRel) == 1 {
                self.idle.notify_waiters();
            }
            return None;
        }
        Some(Working {
            drain: Arc::clone(self),
        })
    }

    /// Begins a piece of work that is done even while draining (answering "restarting"):
    /// the shutdown waits for it like for any other.
    pub fn begin_anyway(self: &Arc<Self>) -> Working {
        self.in_flight.fetch_add(1, Ordering::AcqRel);
        Working {
            drain: Arc::clone(self),
        }
    }

    /// Stops taking new work. Returns whether this call started the drain.
    pub fn start(&self) -> bool {
        let first = !self.draining.swap(true, Ordering::AcqRel);
        if first {
            crate::ops::metrics::shutting_down(true);
        }
        first
    }

    /// Whether new work is refused.
    pub fn is_draining(&self) -> bool {
        self.draining.load(Ordering::Acquire)
    }

    /// Work in flight now.
    pub fn in_flight(&self) -> usize {
        self.in_flight.load(Ordering::Acquire)
    }

    /// Waits until no work is in flight, at most `limit`. Returns whether it got there.
    pub async fn wait_idle(&self, limit: Duration) -> bool {
        let waited = tokio::time::timeout(limit, async {
            loop {
                let idle = self.idle.notified();
                tokio::pin!(idle);
                // Registered before the check, so that a notification in between is not lost.
                idle.as_mut().enable();
                if self.in_flight() == 0 {
                    return;
                }
                idle.await;
            }
        })
        .await;
        waited.is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_begun_before_the_drain_is_waited_for_and_new_work_is_refused() {
        let drain = Drain::new();
        let first = drain.begin().expect("taken before the drain");
        let second = drain.begin().expect("taken before the drain");
        assert_eq!(drain.in_flight(), 2);
        assert!(drain.start());
        assert!(!drain.start(), "only the first call starts it");
        assert!(drain.begin().is_none(), "refused while draining");
        assert_eq!(
            drain.in_flight(),
            2,
            "a refused begin leaves no count behind"
        );
        let answering = drain.begin_anyway();
        assert_eq!(
            drain.in_flight(),
            3,
            "answering \"restarting\" is waited for too"
        );
        drop(answering);
        assert!(!drain.wait_idle(Duration::from_millis(20)).await);
        let waiter = {
            let drain = Arc::clone(&drain);
            tokio::spawn(async move { drain.wait_idle(Duration::from_secs(10)).await })
        };
        drop(first);
        tokio::task::yield_now().await;
        assert!(!waiter.is_finished());
        drop(second);
        assert!(waiter.await.unwrap(), "idle once the last work ends");
    }

    #[tokio::test]
    async fn an_idle_drain_returns_at_once() {
        let drain = Drain::new();
        drain.start();
        assert!(drain.wait_idle(Duration::from_millis(1)).await);
    }
}
