//! How long a write waits for another process's lock: shorter while a member waits for an
//! answer than in background work.
//!
//! Discord shows an interaction as failed unless it is answered within 3 seconds. A write
//! that waits the whole `busy_timeout` (5 s by default) for a lock another process holds
//! answers too late: the member's command shows as failed, even though the bot does tell them
//! "busy, nothing was changed" a moment afterwards. So the front runs each interaction inside
//! [`interactive`], and each write transaction begun there gives up at
//! [`StoreOptions::interaction_wait`](super::StoreOptions::interaction_wait) (2.5 s): the
//! wait for a connection, for SQLite's write lock (`PRAGMA busy_timeout` around its
//! `BEGIN IMMEDIATE`), for PostgreSQL's row locks (`SET LOCAL lock_timeout`), and a move's
//! wait in its lane of the group commit. Background work (sweeps, the poster, the engine's
//! moves) keeps the full `busy_timeout`: nobody is waiting on it, and a longer wait fails less.
//!
//! Giving up never leaves anything half done: a transaction that gave up rolls back whole,
//! and a move withdrawn from its lane was never written.

use std::future::Future;
use std::time::Duration;

use sqlx::Executor as _;
use tokio::time::Instant;

use super::{Backend, Store, Tx};

tokio::task_local! {
    /// Set while an interaction is handled in this task.
    static INTERACTIVE: ();
}

/// The default [`StoreOptions::interaction_wait`](super::StoreOptions::interaction_wait):
/// half a second inside Discord's 3-second window, for the work around the wait.
pub const INTERACTION_WAIT: Duration = Duration::from_millis(2_500);

/// Runs `handling` (an interaction's) with the short wait for locks: see the module
/// documentation.
pub async fn interactive<F: Future>(handling: F) -> F::Output {
    INTERACTIVE.scope((), handling).await
}

/// Whether this task is handling an interaction.
pub(crate) fn is_interactive() -> bool {
    INTERACTIVE.try_with(|()| ()).is_ok()
}

/// The two waits of a store.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Waits {
    /// `busy_timeout`: background work's wait, and the connections' own setting.
    pub(crate) background: Duration,
    /// An interaction's (never longer than `background`).
    pub(crate) interactive: Duration,
}

impl Waits {
    pub(crate) fn new(background: Duration, interactive: Duration) -> Waits {
        Waits {
            background,
            interactive: interactive.min(background),
        }
    }
}

/// Milliseconds for a timeout setting: at least 1 (0 means "wait forever" to PostgreSQL and
/// "do not wait" to SQLite, neither meant here).
fn millis(wait: Duration) -> u128 {
    wait.as_millis().max(1)
}

impl Store {
    /// When a write begun now by this task must give up waiting: `None` for background work.
    pub(crate) fn give_up_at(&self) -> Option<Instant> {
        is_interactive().then(|| Instant::now() + self.waits.interactive)
    }

    /// Begins a write transaction that waits for locks until `give_up_at` at most (the
    /// store's `busy_timeout` when `None`).
    pub(super) async fn begin_write_until(
        &self,
        give_up_at: Option<Instant>,
    ) -> Result<Tx, sqlx::Error> {
        let Some(at) = give_up_at else {
            return match self.backend {
                // IMMEDIATE takes the write lock at once (waiting in the busy handler), so a
                // transaction that reads before it writes can never fail half-way on a
                // snapshot that another process has moved past. The busy handler's wait is
                // set each time: an interaction's transaction may have shortened it.
                Backend::Sqlite => {
                    let wait = millis(self.waits.background);
                    let begin = format!("PRAGMA busy_timeout = {wait}; BEGIN IMMEDIATE");
                    self.writer.begin_with(begin).await
                }
                Backend::Postgres => self.writer.begin().await,
            };
        };
        let conn = tokio::time::timeout_at(at, self.writer.acquire())
            .await
            .map_err(|_| sqlx::Error::PoolTimedOut)??;
        let wait = millis(at.saturating_duration_since(Instant::now()));
        let begin = match self.backend {
            Backend::Sqlite => format!("PRAGMA busy_timeout = {wait}; BEGIN IMMEDIATE"),
            Backend::Postgres => format!("BEGIN; SET LOCAL lock_timeout = {wait}"),
        };
        let mut tx = sqlx::Transaction::begin(conn, Some(begin.into())).await?;
        if self.backend == Backend::Sqlite {
            // Holding the write lock, the transaction waits for nothing more; the connection
            // goes back to the usual wait for the statements run on it alone.
            let usual = millis(self.waits.background);
            (&mut *tx)
                .execute(format!("PRAGMA busy_timeout = {usual}").as_str())
                .await?;
        }
        Ok(tx)
    }
}
