//! The outbox on the service's floor (issue 16): what the front learns after a commit (the
//! interaction's own answer carried the board; the first line and language of a board the
//! poster will post), handed to the poster in memory, and the rows and positions it sends.
//!
//! The rows themselves are written by the store in each action's transaction
//! ([`crate::store::Owed`]). A row written by this process waits for the front's note (or
//! [`HOLD`]) before the poster takes it: until then the interaction may still be answering
//! with that very board. Rows of an earlier process are the poster's at once.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use super::{GameId, GameStatus, GameView, Service, ServiceError, Timestamp};
use crate::store::{OutboxEnd, OutboxRow};

pub use crate::store::{GuildShards, OutboxKind, OutboxScope};

/// How long a row of this process waits for the front's note before the poster takes it
/// anyway (a handler that failed before noting it).
pub const HOLD: Duration = Duration::from_secs(30);

/// What the front says about a board row after the commit.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OutboxNote {
    /// The interaction's own answer carried the board: its message id (0 when unknown).
    pub answered: Option<u64>,
    /// The first line of a board the poster posts.
    pub lead: Option<String>,
    /// The language code of a board the poster posts.
    pub lang: Option<String>,
    /// The largest picture the board may carry (the interaction's upload limit), when known.
    pub picture_limit: Option<u32>,
    /// A game's start: the message its thread is opened from, `(channel, message)` (the
    /// message the Accept click came from; the challenge's recorded message may not be
    /// written yet when the last seat is taken at once).
    pub thread_from: Option<(u64, u64)>,
}

/// Notes waiting for the poster, and the poster's wake-up call.
#[derive(Debug)]
pub(super) struct Notes {
    notes: Mutex<HashMap<(GameId, u32), OutboxNote>>,
    wake: tokio::sync::Notify,
    /// Whether actions owe their posts through the outbox.
    on: std::sync::atomic::AtomicBool,
    /// Which rows this process's poster takes (several processes on one database).
    scope: Mutex<OutboxScope>,
    /// Whether a poster runs for this service: work no member's action starts (a
    /// tournament's round) owes its posts only then.
    poster: std::sync::atomic::AtomicBool,
    /// Set once the poster is asked to stop (a shutdown): it ends after its round.
    stopping: tokio::sync::watch::Sender<bool>,
    /// Held by the running poster, so that a stop can wait for the round under way.
    running: Arc<tokio::sync::Mutex<()>>,
}

impl Default for Notes {
    fn default() -> Self {
        Notes {
            notes: Mutex::default(),
            wake: tokio::sync::Notify::new(),
            on: std::sync::atomic::AtomicBool::new(true),
            scope: Mutex::new(OutboxScope::All),
            poster: std::sync::atomic::AtomicBool::new(false),
            stopping: tokio::sync::watch::Sender::new(false),
            running: Arc::default(),
        }
    }
}

impl Service {
    /// Hands a row of this process to the poster, with what the front knows about it
    /// (`kind` rows other than boards need no note: pass the default).
    pub fn outbox_release(&self, game: GameId, ply: u32, note: OutboxNote) {
        if !self.outbox_on() {
            return;
        }
        self.notes
            .notes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((game, ply), note);
        self.notes.wake.notify_one();
    }

    /// Which outbox rows this process posts, when several processes share the database:
    /// those of its gateway shards' guilds (a `run` process with a shard range), or only its
    /// own (a process without a gateway). Every row by default (one process).
    pub fn set_outbox_scope(&self, scope: OutboxScope) {
        *self
            .notes
            .scope
            .lock()
            .unwrap_or_else(PoisonError::into_inner) = scope;
    }

    /// [`Service::set_outbox_scope`]'s setting.
    pub fn outbox_scope(&self) -> OutboxScope {
        *self
            .notes
            .scope
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }

    /// Wakes the poster (new rows, or a row's retry time).
    pub fn outbox_wake(&self) {
        self.notes.wake.notify_one();
    }

    /// Resolves when [`Service::outbox_release`] or [`Service::outbox_wake`] was called since
    /// the last time.
    pub async fn outbox_woken(&self) {
        self.notes.wake.notified().await;
    }

    /// Takes the front's note on a board row, if it left one.
    pub fn outbox_take_note(&self, game: GameId, ply: u32) -> Option<OutboxNote> {
        self.notes
            .notes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&(game, ply))
    }

    /// Whether the front left a note on a row (without taking it).
    pub fn outbox_has_note(&self, game: GameId, ply: u32) -> bool {
        self.notes
            .notes
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .contains_key(&(game, ply))
    }

    /// The first pending row of each game (rows go in order per game), with whether its
    /// retry time has come.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn outbox_heads(&self, limit: u32) -> Result<Vec<(OutboxRow, bool)>, ServiceError> {
        let now = self.now();
        let hold = i64::try_from(HOLD.as_millis()).unwrap_or(i64::MAX);
        let left_before = Timestamp(now.0.saturating_sub(hold));
        Ok(self
            .store
            .outbox_heads(now, limit, self.outbox_scope(), left_before)
            .await?)
    }

    /// Rows still pending.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn outbox_pending(&self) -> Result<u64, ServiceError> {
        Ok(self.store.outbox_pending().await?)
    }

    /// Records the board's message of a row whose ping may still be owed.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn outbox_posted(&self, row: &OutboxRow, message: u64) -> Result<(), ServiceError> {
        Ok(self.store.outbox_posted(row.id, message).await?)
    }

    /// Ends a row.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn outbox_done(
        &self,
        row: &OutboxRow,
        end: OutboxEnd,
        error: Option<&str>,
    ) -> Result<(), ServiceError> {
        Ok(self
            .store
            .outbox_done(row.id, end, error, self.now())
            .await?)
    }

    /// Ends rows sent together (one commit).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn outbox_sent_many(&self, ids: &[i64]) -> Result<(), ServiceError> {
        Ok(self.store.outbox_sent_many(ids, self.now()).await?)
    }

    /// Forgets rows that ended more than a week ago.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn outbox_prune(&self) -> Result<u64, ServiceError> {
        let week = 7 * 24 * 3600 * 1000;
        Ok(self
            .store
            .outbox_prune(Timestamp(self.now().0.saturating_sub(week)))
            .await?)
    }

    /// Says that a poster sends this service's outbox rows (the front calls it as it starts
    /// one): from then on, work no member's action starts (a tournament's round) owes its
    /// posts through the outbox too.
    pub fn set_outbox_poster(&self) {
        self.notes
            .poster
            .store(true, std::sync::atomic::Ordering::Relaxed);
    }

    /// The poster's right to run: held for as long as it runs, `None` once
    /// [`Self::stop_outbox_poster`] was asked (the poster then ends at once).
    pub async fn outbox_poster_running(&self) -> Option<tokio::sync::OwnedMutexGuard<()>> {
        let guard = Arc::clone(&self.notes.running).lock_owned().await;
        (!self.outbox_poster_stopping()).then_some(guard)
    }

    /// Whether the poster was asked to stop.
    pub fn outbox_poster_stopping(&self) -> bool {
        *self.notes.stopping.borrow()
    }

    /// Resolves once the poster is asked to stop (at once if it was).
    pub async fn outbox_poster_stop_asked(&self) {
        let mut asked = self.notes.stopping.subscribe();
        // The sender lives in `self`: the wait cannot fail for want of one.
        let _ = asked.wait_for(|stop| *stop).await;
    }

    /// Asks the poster to stop and waits until the round it is in has ended, so that nothing
    /// of this service talks to Discord afterwards (a restart in the same process, as the
    /// tests do, then has the only poster). What is left stays owed for the next start.
    pub async fn stop_outbox_poster(&self) {
        self.notes.stopping.send_replace(true);
        self.notes.wake.notify_waiters();
        drop(Arc::clone(&self.notes.running).lock_owned().await);
    }

    /// Whether the posts of work no member's action starts are owed through the outbox: it is
    /// on, and a poster sends its rows.
    pub fn outbox_posted_by_poster(&self) -> bool {
        self.outbox_on() && self.notes.poster.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Whether actions owe their posts through the outbox (on unless a benchmark compares).
    pub fn outbox_on(&self) -> bool {
        self.notes.on.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Turns the outbox off or on for the actions that follow: off, actions owe nothing and
    /// the front posts as it did before the outbox (the benchmark's comparison).
    pub fn set_outbox(&self, on: bool) {
        self.notes
            .on
            .store(on, std::sync::atomic::Ordering::Relaxed);
    }

    /// Puts a row off for `after`.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn outbox_retry_after(
        &self,
        row: &OutboxRow,
        after: Duration,
        error: &str,
    ) -> Result<(), ServiceError> {
        let at = Timestamp(
            self.now()
                .0
                .saturating_add(i64::try_from(after.as_millis()).unwrap_or(i64::MAX)),
        );
        Ok(self.store.outbox_retry_at(row.id, at, error).await?)
    }

    /// The pending board row owed after `ply` of `game`, if any.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn outbox_board(
        &self,
        game: GameId,
        ply: u32,
    ) -> Result<Option<OutboxRow>, ServiceError> {
        Ok(self
            .store
            .outbox_row(game, ply, OutboxKind::Board)
            .await?
            .filter(|(_, state)| state == "pending")
            .map(|(row, _)| row))
    }

    /// Whether `row` is its game's first pending row (only that one may go now).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn outbox_is_first(&self, row: &OutboxRow) -> Result<bool, ServiceError> {
        Ok(self.store.outbox_first_pending(row.game).await? == Some(row.id))
    }

    /// Whether a row of this process has waited for the front's note longer than [`HOLD`].
    pub fn outbox_held_too_long(&self, row: &OutboxRow) -> bool {
        self.now().0 - row.created_at.0 > i64::try_from(HOLD.as_millis()).unwrap_or(i64::MAX)
    }

    /// The game as it was right after `ply`: the game itself when it is still there, else
    /// (it moved on) the game with the later stones taken back, still in play. `None` when the
    /// position cannot be rebuilt (a take-back since), and the row's board is moot. With it,
    /// whether `ply` is still the game's ply: the view was checked against the stored ply just
    /// now, so the caller needs no second read for that.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`], [`ServiceError::Storage`].
    pub async fn game_at(
        &self,
        game: GameId,
        ply: u32,
    ) -> Result<Option<(GameView, bool)>, ServiceError> {
        let mut view = self.view_of(game).await?;
        if view.ply <= ply {
            let current = view.ply == ply;
            return Ok(Some((view, current)));
        }
        let mut back = (view.ply - ply) as usize;
        // A game ended by a row outside the rules' record (resignation, loss on time, agreed
        // draw) has that row last: it takes nothing off the board.
        if view.ended_off_record() {
            back -= 1;
        }
        if back > view.game.record().len() {
            return Ok(None);
        }
        for _ in 0..back {
            if view.game.undo().is_none() {
                return Ok(None);
            }
        }
        view.ply = ply;
        view.status = GameStatus::Active;
        view.deadline = None;
        Ok(Some((view, false)))
    }
}
