//! Board rows an interaction's own answer already carried, ended by the next group commit of
//! moves instead of by a round of the poster.
//!
//! After a move, the interaction's answer carries the board, so its outbox row owes nothing
//! more (when the player to act gets no direct message). Ending it through the poster cost a
//! round of its own per few moves: the heads' `SELECT`, the game's ply, the `UPDATE` that marks
//! it sent and the pending rows' `COUNT`. Here the front leaves such rows in memory, and the
//! next batch of moves (any lane's) marks them sent with one more statement in its own
//! transaction. A row no batch took within [`ANSWERED_WAIT`] (a quiet server) is taken back by
//! the poster, which ends it as it always did, with the note that the answer carried it.
//!
//! Nothing is lost: a row stays pending in the database until a commit marks it sent, and a
//! process that dies first leaves it to the next one's poster, which asks Discord whether the
//! interaction's answer went out (as for any row of an earlier process).

use std::collections::HashMap;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use sqlx::Row as _;

use super::model::{GameId, Timestamp};
use super::{Store, Tx};

/// How long a left row waits for a group commit before the poster ends it itself.
pub const ANSWERED_WAIT: Duration = Duration::from_secs(1);

/// Rows left longer than this are forgotten when another is left (a row whose poster and
/// batches are both gone): the database still holds them pending, for a later process.
const FORGET_AFTER: Duration = Duration::from_secs(600);

/// A row left for a batch: game, ply, the message that carried the board, when it was left.
pub(crate) type LeftRow = (GameId, u32, u64, Instant);

/// Where a board row stands with respect to the group commit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeftToCommit {
    /// The front did not leave it (or a batch has taken it and is committing it).
    No,
    /// Left, and still within [`ANSWERED_WAIT`]: the poster passes it by.
    Waiting,
    /// Left longer than [`ANSWERED_WAIT`]: taken back for the poster, with the message that
    /// carried the board (0: the interaction's own answer).
    TakenBack(u64),
}

/// The rows left for the next batch: `(game, ply)` to the message that carried the board and
/// when it was left.
#[derive(Debug, Default)]
pub(crate) struct AnsweredRows {
    rows: Mutex<HashMap<(GameId, u32), (u64, Instant)>>,
}

impl AnsweredRows {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<(GameId, u32), (u64, Instant)>> {
        self.rows.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes every left row, for a batch to mark.
    pub(super) fn take_all(&self) -> Vec<LeftRow> {
        self.lock()
            .drain()
            .map(|((game, ply), (message, at))| (game, ply, message, at))
            .collect()
    }

    /// Puts back rows a batch took and could not commit.
    pub(super) fn put_back(&self, rows: Vec<LeftRow>) {
        let mut left = self.lock();
        for (game, ply, message, at) in rows {
            left.entry((game, ply)).or_insert((message, at));
        }
    }
}

/// Marks the board rows of `rows` sent, inside a batch's transaction: only pending board rows
/// this process wrote (`boot`). Returns how many it ended.
pub(super) async fn mark_answered_in(
    tx: &mut Tx,
    boot: &super::outbox::Boot,
    rows: &[LeftRow],
    at: Timestamp,
) -> Result<u64, sqlx::Error> {
    if rows.is_empty() {
        return Ok(0);
    }
    // Numbers only (game ids and plies), written into the statement: one statement for any
    // number of rows on both databases (the `Any` driver binds no arrays).
    let pairs = rows
        .iter()
        .map(|(game, ply, _, _)| format!("({}, {ply})", game.0))
        .collect::<Vec<_>>()
        .join(", ");
    let done = sqlx::query(&format!(
        "UPDATE outbox SET state = 'sent', done_at = $1, reply_token = NULL \
         WHERE state = 'pending' AND kind = 'board' AND boot = $2 AND (game_id, ply) IN ({pairs})"
    ))
    .bind(at.0)
    .bind(&boot.0)
    .execute(&mut **tx)
    .await?;
    Ok(done.rows_affected())
}

/// PostgreSQL: [`mark_answered_in`] and the batch's notice (`payload` on `channel`, see
/// `notify`) in one statement, a round trip fewer per batch. Returns how many rows it ended.
///
/// The rows go in as two array literals bound as text, so that the statement's text is the
/// same for every batch: the server parses and plans it once per connection (a statement
/// with the numbers written in took about 0.3 ms of planning on every batch).
pub(super) async fn mark_answered_with_notice(
    tx: &mut Tx,
    boot: &super::outbox::Boot,
    rows: &[LeftRow],
    at: Timestamp,
    channel: &str,
    payload: &str,
) -> Result<u64, sqlx::Error> {
    let array = |part: &dyn Fn(&LeftRow) -> String| {
        format!(
            "{{{}}}",
            rows.iter().map(part).collect::<Vec<_>>().join(",")
        )
    };
    let games = array(&|r| r.0.0.to_string());
    let plies = array(&|r| r.1.to_string());
    // The notice is counted, not selected: the `Any` driver has no type for `void`.
    let row = sqlx::query(
        "WITH marked AS (UPDATE outbox SET state = 'sent', done_at = $1, reply_token = NULL \
         WHERE state = 'pending' AND kind = 'board' AND boot = $2 \
         AND (game_id, ply) IN (SELECT * FROM unnest(CAST(CAST($3 AS TEXT) AS BIGINT[]), \
         CAST(CAST($4 AS TEXT) AS BIGINT[]))) RETURNING 1) \
         SELECT (SELECT COUNT(*) FROM marked) AS marked, \
         (SELECT COUNT(*) FROM (SELECT pg_notify($5, $6)) AS sent) AS sent",
    )
    .bind(at.0)
    .bind(&boot.0)
    .bind(games)
    .bind(plies)
    .bind(channel)
    .bind(payload)
    .fetch_one(&mut **tx)
    .await?;
    let marked: i64 = row.try_get("marked")?;
    Ok(u64::try_from(marked).unwrap_or(0))
}

impl Store {
    /// Leaves the board row after `ply` of `game`, which the interaction's answer (message
    /// `message`, 0 for the answer itself) carried and which owes nothing more, to the next
    /// group commit of moves to mark sent.
    pub fn outbox_answered_later(&self, game: GameId, ply: u32, message: u64) {
        let now = Instant::now();
        let mut left = self.appends.answered.lock();
        left.retain(|_, (_, at)| now.duration_since(*at) < FORGET_AFTER);
        left.insert((game, ply), (message, now));
    }

    /// Whether the board row after `ply` of `game` was left to the group commit, and, once it
    /// has waited [`ANSWERED_WAIT`], takes it back for the poster.
    pub fn outbox_left_to_commit(&self, game: GameId, ply: u32) -> LeftToCommit {
        let mut left = self.appends.answered.lock();
        match left.get(&(game, ply)) {
            None => LeftToCommit::No,
            Some((_, at)) if at.elapsed() < ANSWERED_WAIT => LeftToCommit::Waiting,
            Some(&(message, _)) => {
                left.remove(&(game, ply));
                LeftToCommit::TakenBack(message)
            }
        }
    }
}
