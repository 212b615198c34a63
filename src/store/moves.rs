//! The move log: appending an action with the game row's new snapshot, in a group commit.

use std::sync::{Mutex, PoisonError};

use crate::ops::metrics;

use super::engine_jobs::JobHolder;
use super::model::{
    GameId, GameResult, GuildId, ResultReason, Timestamp, UserInfo, colours_to_mask,
};
use super::notify::{self, Change};
use super::outbox::{Boot, OutboxKind, Owed, owe, owe_for_action};
use super::outbox_answered::{AnsweredRows, mark_answered_in};
use super::{
    AppendError, Backend, StorageError, StorageErrorKind, Store, Tx, is_unique_violation, ratings,
    upsert_member,
};

/// An action to append to the move log, with the game row's new snapshot.
#[derive(Clone, Debug)]
pub struct NewAction {
    /// The game.
    pub game: GameId,
    /// The new ply: the ply the player saw plus one.
    pub ply: u32,
    /// The seat acting.
    pub seat: u8,
    /// The record token or `resign`.
    pub token: String,
    /// When.
    pub at: Timestamp,
    /// The seat to act afterwards (`None` when the game ends).
    pub to_act: Option<u8>,
    /// The next deadline.
    pub deadline: Option<Timestamp>,
    /// The result, when this action ends the game.
    pub finished: Option<GameResult>,
    /// A display name to remember in the same transaction, if it changed.
    pub rename: Option<(GuildId, UserInfo)>,
    /// What the action owes Discord, written to the outbox in the same transaction.
    pub owed: Owed,
    /// Whether the game has a computer seat. Only then can it owe or hold engine jobs, so only
    /// then are they brought up to date in the transaction: two statements fewer on every
    /// other game's move, the commit path's busiest case.
    pub computer: bool,
}

/// A move waiting to be appended: the move, when its caller gives up waiting (an
/// interaction's, see `patience`), its number in the queue, and where its outcome goes.
type PendingAppend = (
    NewAction,
    Option<tokio::time::Instant>,
    u64,
    tokio::sync::oneshot::Sender<Result<(), AppendError>>,
);

/// Numbers the queued moves (so that a caller can find its own to withdraw it).
static QUEUED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The group commit of moves: callers queue their move in their game's lane, and whoever
/// gets the lane's turn commits every move queued there in one transaction.
pub(crate) struct Appends {
    /// One lane on SQLite (one writer). On PostgreSQL several: a game always maps to the same
    /// lane, so its moves stay in order, while other games' commits go on beside it on
    /// connections of their own, instead of waiting for one transaction at a time.
    lanes: Vec<Lane>,
    /// This process's mark on the outbox rows it writes.
    pub(crate) boot: Boot,
    /// Who takes the engine jobs this process's actions make, if this process thinks.
    pub(crate) job_holder: JobHolder,
    /// Board rows the interactions' answers carried, for the next batch to mark sent.
    pub(crate) answered: AnsweredRows,
}

/// One queue of moves and the turn to commit them.
#[derive(Default)]
struct Lane {
    queue: Mutex<Vec<PendingAppend>>,
    turn: tokio::sync::Mutex<()>,
}

impl Lane {
    /// Takes the move numbered `number` out of the queue: `false` if a commit took it.
    fn withdraw(&self, number: u64) -> bool {
        let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        let queued = queue.len();
        queue.retain(|pending| pending.2 != number);
        queue.len() < queued
    }
}

impl Default for Appends {
    fn default() -> Self {
        Appends::with_lanes(1)
    }
}

impl Appends {
    /// A group commit with `lanes` lanes (at least one).
    pub(crate) fn with_lanes(lanes: usize) -> Appends {
        Appends {
            lanes: (0..lanes.max(1)).map(|_| Lane::default()).collect(),
            boot: Boot::default(),
            job_holder: JobHolder::default(),
            answered: AnsweredRows::default(),
        }
    }

    /// The lane of `game`'s moves.
    fn lane(&self, game: GameId) -> &Lane {
        let n = i64::try_from(self.lanes.len()).unwrap_or(1);
        let at = usize::try_from(game.0.rem_euclid(n)).unwrap_or(0);
        &self.lanes[at]
    }
}

impl std::fmt::Debug for Appends {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Appends").finish_non_exhaustive()
    }
}

/// The same failure for each of `n` moves.
fn every_failed(n: usize, e: StorageError) -> Vec<Result<(), AppendError>> {
    (0..n)
        .map(|_| Err(AppendError::Storage(e.clone())))
        .collect()
}

/// The answer of a move given up before it was written: its caller waited as long as an
/// interaction may (`patience`).
fn gave_up() -> AppendError {
    AppendError::Storage(StorageError {
        kind: StorageErrorKind::Busy,
        detail: "the database did not take the move in time".into(),
    })
}

/// The answer of a move whose commit task died (a panic, or the runtime shutting down).
fn outcome_unknown() -> AppendError {
    AppendError::Storage(StorageError {
        kind: StorageErrorKind::Other,
        detail: "the commit was interrupted".into(),
    })
}

/// The game row's new values after an action: status, result, winners, loser's seat and
/// when it finished (all but the status `None` while the game goes on).
pub(super) struct Ending {
    pub status: &'static str,
    pub result: Option<&'static str>,
    pub winners: Option<i64>,
    pub loser: Option<i64>,
    pub finished_at: Option<i64>,
}

impl Ending {
    /// Binds the game row update's parameters `$1`-`$11` (new ply, seat to act, deadline,
    /// the ending's five columns, time, game, previous ply), which both stores' append
    /// statements share.
    pub(super) fn bind_game_update<'q>(
        &self,
        query: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
        action: &NewAction,
    ) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
        query
            .bind(i64::from(action.ply))
            .bind(action.to_act.map(i64::from))
            .bind(action.deadline.map(|t| t.0))
            .bind(self.status)
            .bind(self.result)
            .bind(self.winners)
            .bind(self.loser)
            .bind(self.finished_at)
            .bind(action.at.0)
            .bind(action.game.0)
            .bind(i64::from(action.ply) - 1)
    }

    fn of(action: &NewAction) -> Ending {
        match action.finished {
            None => Ending {
                status: "active",
                result: None,
                winners: None,
                loser: None,
                finished_at: None,
            },
            Some(r) => Ending {
                status: "finished",
                result: Some(r.reason.name()),
                winners: Some(colours_to_mask(r.winners)),
                loser: match r.reason {
                    ResultReason::Resignation { seat } | ResultReason::Timeout { seat } => {
                        Some(i64::from(seat))
                    }
                    _ => None,
                },
                finished_at: Some(action.at.0),
            },
        }
    }
}

/// The error for a log row found at the ply the game row had not reached: both rows change
/// in every append's transaction, so this is not a conflict but a fault.
pub(super) fn log_ahead_of_game(action: &NewAction) -> AppendError {
    AppendError::Storage(StorageError::corrupt(format!(
        "game {}: ply {} is in the move log but the game's row was at ply {}",
        action.game.0,
        action.ply,
        i64::from(action.ply) - 1
    )))
}

/// Appends one move inside a transaction: the game row's new snapshot, then the move log's
/// row. Refused as [`AppendError::Conflict`], with nothing written, when the game row is no
/// longer at the previous ply or the game ended.
///
/// The game row goes first because its conditional update refuses a conflict without an
/// error: a batch of moves then needs no savepoint around each move (a failed statement
/// would abort the whole transaction on PostgreSQL), see [`Store::append_all`].
///
/// On PostgreSQL the game row, the log row and the board's outbox row are written by one
/// statement (`moves_pg`): the same rows in the same order, in a round trip instead of four.
async fn append_in(
    tx: &mut Tx,
    backend: Backend,
    boot: &Boot,
    holder: &JobHolder,
    action: &NewAction,
) -> Result<(), AppendError> {
    let ending = Ending::of(action);
    // On PostgreSQL, whether offers went stale (the outbox's board row is written already).
    let mut stale_offers = None;
    match backend {
        Backend::Postgres => {
            stale_offers = Some(super::moves_pg::append_rows(tx, boot, action, &ending).await?);
        }
        Backend::Sqlite => append_rows(tx, action, &ending).await?,
    }
    if let Some((guild, user)) = &action.rename {
        upsert_member(tx, *guild, user, action.at)
            .await
            .map_err(StorageError::from)?;
    }
    // What the action owes Discord is owed in the same transaction (issue 16).
    match stale_offers {
        None => {
            owe_for_action(
                tx,
                boot,
                action.game,
                action.ply,
                action.seat,
                &action.owed,
                action.at,
            )
            .await?;
        }
        // The board's (or loss on time's) row is in; the edits of stale offers come after it.
        Some(true) => {
            owe(
                tx,
                boot,
                action.game,
                action.ply,
                OutboxKind::Offers,
                None,
                None,
                None,
                action.at,
            )
            .await?;
        }
        Some(false) => {}
    }
    // The move the computer owes after this action (and the end of the job this action
    // answered, when the engine played it) is in the same transaction (issue 11).
    if action.computer {
        super::engine_jobs::owe_engine_job(tx, action.game, action.at, holder).await?;
    }
    // Every way a game ends passes here: ratings change in the same transaction (and the
    // same savepoint, when moves are committed in a batch).
    if let Some(result) = action.finished {
        // Rated or not (and why) is read back later from `rating_changes`.
        let _rated =
            ratings::rate_finished_game(tx, action.game, result.winners, action.at).await?;
        // A tournament game's board gets its result in the same transaction.
        super::tournaments::record_board_result(tx, action.game, result).await?;
    }
    Ok(())
}

/// The game row's update, then the move log's row, as two statements (SQLite: in-process,
/// a statement costs no round trip).
async fn append_rows(tx: &mut Tx, action: &NewAction, e: &Ending) -> Result<(), AppendError> {
    let updated = e
        .bind_game_update(
            sqlx::query(
                "UPDATE games SET ply = $1, to_act_seat = $2, deadline = $3, sweep_lease = NULL, \
                 status = $4, result = $5, winners = $6, loser_seat = $7, finished_at = $8, \
                 updated_at = $9 WHERE game_id = $10 AND ply = $11 AND status = 'active'",
            ),
            action,
        )
        .execute(&mut **tx)
        .await
        .map_err(StorageError::from)?;
    if updated.rows_affected() != 1 {
        return Err(AppendError::Conflict);
    }
    let inserted = sqlx::query(
        "INSERT INTO moves (game_id, ply, seat, action, played_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(action.game.0)
    .bind(i64::from(action.ply))
    .bind(i64::from(action.seat))
    .bind(&action.token)
    .bind(action.at.0)
    .execute(&mut **tx)
    .await;
    match inserted {
        Err(e) if is_unique_violation(&e) => Err(log_ahead_of_game(action)),
        other => {
            other.map_err(StorageError::from)?;
            Ok(())
        }
    }
}

impl Store {
    /// Appends one action to the move log and updates the game's row, in one transaction.
    ///
    /// Moves that wait for the writer while a commit is under way are committed together
    /// in the next transaction (a group commit), each in its own savepoint: one sync of the
    /// disk for all, and each answered only once its commit is durable.
    ///
    /// # Errors
    /// [`AppendError::Conflict`] when that ply is taken or the game is no longer active at
    /// the previous ply (nothing is written); [`AppendError::Storage`] on failure.
    pub async fn append_action(&self, action: &NewAction) -> Result<(), AppendError> {
        // Group commit: each commit waits for a sync (`synchronous=FULL`), so moves that
        // arrive while one is under way are committed together by the next, one sync for
        // all, each still answered only once it is durable.
        let (reply, mut answer) = tokio::sync::oneshot::channel();
        let lane = self.appends.lane(action.game);
        let give_up_at = self.give_up_at();
        let number = QUEUED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        lane.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push((action.clone(), give_up_at, number, reply));
        let given_up = async {
            match give_up_at {
                Some(at) => tokio::time::sleep_until(at).await,
                None => std::future::pending().await,
            }
        };
        let turn = tokio::select! {
            biased;
            done = &mut answer => return done.unwrap_or_else(|_| Err(outcome_unknown())),
            turn = lane.turn.lock() => turn,
            () = given_up => {
                // Still queued (the lane is held by a commit waiting for a lock): withdrawn,
                // never written. Already taken by a commit: that commit answers.
                if lane.withdraw(number) {
                    return Err(gave_up());
                }
                return answer.await.unwrap_or_else(|_| Err(outcome_unknown()));
            }
        };
        // The commit before this turn may have taken our move.
        if let Ok(done) = answer.try_recv() {
            return done;
        }
        let batch = std::mem::take(&mut *lane.queue.lock().unwrap_or_else(PoisonError::into_inner));
        if !batch.is_empty() {
            // In a task of its own, so that the moves of others are committed and answered
            // even if this caller goes away.
            let _ = tokio::spawn(self.clone().commit_appends(batch)).await;
        }
        drop(turn);
        answer.await.unwrap_or_else(|_| Err(outcome_unknown()))
    }

    /// Appends a batch of moves in one transaction and answers each.
    async fn commit_appends(self, batch: Vec<PendingAppend>) {
        // Moves whose callers have stopped waiting are not written.
        let now = tokio::time::Instant::now();
        let (late, batch): (Vec<_>, Vec<_>) = batch
            .into_iter()
            .partition(|pending| pending.1.is_some_and(|at| at <= now));
        for (_, _, _, reply) in late {
            let _ = reply.send(Err(gave_up()));
        }
        if batch.is_empty() {
            return;
        }
        let give_up_at = batch.iter().filter_map(|pending| pending.1).min();
        let (actions, replies): (Vec<NewAction>, Vec<_>) = batch
            .into_iter()
            .map(|(action, _, _, reply)| (action, reply))
            .unzip();
        let results = self.append_all(&actions, give_up_at).await;
        let mut finished = Vec::new();
        let mut committed = 0;
        for ((reply, result), action) in replies.into_iter().zip(results).zip(&actions) {
            if result.is_ok() {
                committed += 1;
                if let Some(r) = action.finished {
                    finished.push((action.game, r.reason.name()));
                }
            }
            // A caller that went away no longer needs its answer.
            let _ = reply.send(result);
        }
        metrics::moves_committed(committed);
        if !finished.is_empty() {
            // Off the commit's path (the next group commit waits for this task).
            tokio::spawn(self.count_finished(finished));
        }
    }

    /// Counts finished games by family (read from their rows) and reason.
    async fn count_finished(self, games: Vec<(GameId, &'static str)>) {
        for (game, reason) in games {
            let family =
                sqlx::query_scalar::<_, String>("SELECT rules FROM games WHERE game_id = $1")
                    .bind(game.0)
                    .fetch_one(&self.reader)
                    .await
                    .ok()
                    .and_then(|spec| super::rows::rules_from(&spec).ok())
                    .map_or("unknown", |rules| ratings::Family::of(&rules).name());
            metrics::game_finished(family, reason);
        }
    }

    /// One transaction for all the moves. A refused move (another writer's ply, a game that
    /// ended) writes nothing and leaves the others in, with no savepoint: the game row's
    /// conditional update refuses it before anything is written (see [`append_in`]). Only when
    /// a move fails with an error, which on PostgreSQL aborts the whole transaction, does the
    /// batch start again with each move in a savepoint of its own, so that the others still
    /// go in. The savepoints cost two more round trips per move, which most batches never pay.
    /// Locks are waited for until `give_up_at` (the soonest of the batch's interactions), or
    /// the store's `busy_timeout`; a batch that gave up waiting is not tried again.
    async fn append_all(
        &self,
        actions: &[NewAction],
        give_up_at: Option<tokio::time::Instant>,
    ) -> Vec<Result<(), AppendError>> {
        let mut tx = match self.begin_batch(actions, give_up_at).await {
            Ok(tx) => tx,
            Err(failed) => return failed,
        };
        let mut results = Vec::with_capacity(actions.len());
        for action in actions {
            let result = self.append_one(&mut tx, action).await;
            if let Err(AppendError::Storage(e)) = &result {
                if actions.len() == 1 {
                    results.push(result);
                    break;
                }
                drop(tx);
                if e.kind == StorageErrorKind::Busy {
                    // A lock waited for in vain is most likely still held: trying the moves
                    // again would wait as long again.
                    return every_failed(actions.len(), e.clone());
                }
                return self.append_each_in_savepoints(actions, give_up_at).await;
            }
            results.push(result);
        }
        self.commit_results(tx, actions, results).await
    }

    /// One action of a batch, in the batch's transaction.
    async fn append_one(&self, tx: &mut Tx, action: &NewAction) -> Result<(), AppendError> {
        append_in(
            tx,
            self.backend,
            &self.appends.boot,
            &self.appends.job_holder,
            action,
        )
        .await
    }

    /// Begins a batch's transaction and locks the ratings of every game it may end, all in
    /// one order, so that two lanes' batches never deadlock on them (see the function).
    async fn begin_batch(
        &self,
        actions: &[NewAction],
        give_up_at: Option<tokio::time::Instant>,
    ) -> Result<Tx, Vec<Result<(), AppendError>>> {
        let mut tx = self
            .begin_write_until(give_up_at)
            .await
            .map_err(|e| every_failed(actions.len(), e.into()))?;
        let ending: Vec<GameId> = actions
            .iter()
            .filter(|a| a.finished.is_some())
            .map(|a| a.game)
            .collect();
        ratings::lock_ratings_of_endings(&mut tx, &ending)
            .await
            .map_err(|e| every_failed(actions.len(), e))?;
        Ok(tx)
    }

    /// [`Store::append_all`] with each move in a savepoint, so that a move that fails with an
    /// error leaves the others in.
    async fn append_each_in_savepoints(
        &self,
        actions: &[NewAction],
        give_up_at: Option<tokio::time::Instant>,
    ) -> Vec<Result<(), AppendError>> {
        let mut tx = match self.begin_batch(actions, give_up_at).await {
            Ok(tx) => tx,
            Err(failed) => return failed,
        };
        let mut results = Vec::with_capacity(actions.len());
        // A lock waited for in vain is most likely still held: the moves after the first
        // to give up are not tried (each would wait as long again), and answer the same.
        let mut busy: Option<AppendError> = None;
        for action in actions {
            if let Some(e) = &busy {
                results.push(Err(e.clone()));
                continue;
            }
            let result = match sqlx::query("SAVEPOINT append").execute(&mut *tx).await {
                Ok(_) => self.append_one(&mut tx, action).await,
                Err(e) => Err(StorageError::from(e).into()),
            };
            let undo = if result.is_ok() {
                Ok(())
            } else {
                sqlx::query("ROLLBACK TO append")
                    .execute(&mut *tx)
                    .await
                    .map(|_| ())
            };
            let released = match undo {
                Ok(()) => sqlx::query("RELEASE append").execute(&mut *tx).await,
                Err(e) => Err(e),
            };
            if let Err(e) = released {
                // The transaction is in doubt: give it up whole.
                return every_failed(actions.len(), e.into());
            }
            if let Err(AppendError::Storage(e)) = &result
                && e.kind == StorageErrorKind::Busy
            {
                busy = Some(AppendError::Storage(e.clone()));
            }
            results.push(result);
        }
        self.commit_results(tx, actions, results).await
    }

    /// Sends a batch's notice and marks the answered board rows sent: on PostgreSQL in one
    /// statement when there are rows to mark, else each on its own. How many rows it ended.
    async fn mark_and_notify(
        &self,
        tx: &mut Tx,
        answered: &[super::outbox_answered::LeftRow],
        at: Timestamp,
        moved: &Change,
    ) -> Result<u64, sqlx::Error> {
        let boot = &self.appends.boot;
        if let Some(notices) = self.notices.as_deref()
            && !answered.is_empty()
            && let Some((first, rest)) = notices.payloads(moved).split_first()
        {
            let marked = super::outbox_answered::mark_answered_with_notice(
                tx,
                boot,
                answered,
                at,
                notices.channel(),
                first,
            )
            .await?;
            for payload in rest {
                notify::notify_payload_in(tx, notices, payload).await?;
            }
            return Ok(marked);
        }
        notify::notify_in(tx, self.notices.as_deref(), moved).await?;
        mark_answered_in(tx, boot, answered, at).await
    }

    /// Commits what a batch wrote, unless every move was refused: the moves' results, or the
    /// commit's failure for each.
    async fn commit_results(
        &self,
        mut tx: Tx,
        actions: &[NewAction],
        results: Vec<Result<(), AppendError>>,
    ) -> Vec<Result<(), AppendError>> {
        if results.iter().all(Result::is_err) {
            // Nothing to keep; dropping the transaction rolls it back.
            return results;
        }
        // One notice for the batch tells other processes which games moved (PostgreSQL).
        let moved = Change::Games(
            actions
                .iter()
                .zip(&results)
                .filter(|(_, r)| r.is_ok())
                .map(|(a, _)| a.game)
                .collect(),
        );
        // The board rows that interactions' answers carried since the last batch end here,
        // one statement for all (see `outbox_answered`), on PostgreSQL the same statement as
        // the notice; put back if this commit fails.
        let answered = self.appends.answered.take_all();
        let at = actions.iter().map(|a| a.at).max().unwrap_or(Timestamp(0));
        let marked = self.mark_and_notify(&mut tx, &answered, at, &moved).await;
        let marked = match marked {
            Ok(n) => n,
            Err(e) => {
                self.appends.answered.put_back(answered);
                return every_failed(actions.len(), e.into());
            }
        };
        let committing = std::time::Instant::now();
        let committed = tx.commit().await;
        metrics::db_commit("moves", committing.elapsed());
        match committed {
            Ok(()) => {
                if marked > 0 {
                    metrics::outbox_sent_many("sent", marked);
                }
                results
            }
            Err(e) => {
                self.appends.answered.put_back(answered);
                every_failed(results.len(), e.into())
            }
        }
    }
}
