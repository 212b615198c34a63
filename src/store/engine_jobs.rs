//! Engine jobs (issue 11): the moves the computer owes, as rows, so that nothing depends on a
//! process's memory and any number of processes can think.
//!
//! A job is written in the transaction of the action that makes the computer owe a move (the
//! game's start, every action appended to the move log: [`owe_engine_job`]) and deleted in the
//! transaction of the next action, the engine's own move included: a job never outlives the
//! position it is about. A process takes a job under a lease ([`Store::claim_engine_job`]:
//! `FOR UPDATE SKIP LOCKED` on PostgreSQL, the same conditional update under SQLite's write
//! lock), renews it while thinking, and a lease that lapses (a killed process) lets another
//! take the job. The move log's unique `(game_id, ply)` keeps two takers from both playing.

use std::sync::RwLock;
use std::time::Duration;

use sqlx::Row as _;

use super::model::{GameId, Timestamp, UserId, UserInfo};
use super::{Backend, HUMAN_TO_ACT, StorageError, Store, Tx};

/// A move the computer owes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineJob {
    /// The game.
    pub game: GameId,
    /// The ply the engine's move follows.
    pub ply: u32,
    /// The engine's level in the game.
    pub level: u8,
    /// How many times a process took it (this take included).
    pub attempts: u32,
}

/// The process that takes the jobs this process's actions make: they are written leased to
/// it, so that its own taker answers them with what it knows of the interaction (a follow-up
/// to the member's move) and no other process races it; if it never does (a crash), the
/// lease lapses and anyone takes the job. `None`: jobs are written for anyone.
#[derive(Debug, Default)]
pub(crate) struct JobHolder(RwLock<Option<(String, i64)>>);

impl JobHolder {
    fn get(&self) -> Option<(String, i64)> {
        self.0
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
    }
}

/// Makes the jobs of `game` match its row, inside an action's transaction: jobs about earlier
/// plies are done or moot (deleted), and a job is owed when the game is active, against the
/// computer, and the computer's seat is to act.
pub(crate) async fn owe_engine_job(
    tx: &mut Tx,
    game: GameId,
    now: Timestamp,
    holder: &JobHolder,
) -> Result<(), StorageError> {
    sqlx::query(
        "DELETE FROM engine_jobs WHERE game_id = $1 \
         AND ply < (SELECT ply FROM games WHERE game_id = $2)",
    )
    .bind(game.0)
    .bind(game.0)
    .execute(&mut **tx)
    .await?;
    let (holder, until) = match holder.get() {
        Some((h, lease)) => (Some(h), Some(now.0.saturating_add(lease))),
        None => (None, None),
    };
    sqlx::query(&format!(
        "INSERT INTO engine_jobs (game_id, ply, level, lease_holder, lease_until, created_at) \
         SELECT games.game_id, games.ply, games.engine_level, $1, $2, $3 FROM games \
         WHERE games.game_id = $4 AND games.status = 'active' \
         AND games.engine_level IS NOT NULL AND NOT ({HUMAN_TO_ACT}) \
         ON CONFLICT (game_id, ply) DO NOTHING"
    ))
    .bind(holder)
    .bind(until)
    .bind(now.0)
    .bind(game.0)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

fn job_of(r: &super::Row) -> Result<EngineJob, StorageError> {
    let ply: i64 = r.try_get("ply")?;
    let level: i64 = r.try_get("level")?;
    let attempts: i64 = r.try_get("attempts")?;
    Ok(EngineJob {
        game: GameId(r.try_get("game_id")?),
        ply: u32::try_from(ply)
            .map_err(|_| StorageError::corrupt(format!("engine job ply {ply}")))?,
        level: super::rows::small(level, "engine job level")?,
        attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
    })
}

impl Store {
    /// Takes the oldest job nobody holds (or whose lease lapsed) for `holder` until `until`.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn claim_engine_job(
        &self,
        holder: &str,
        now: Timestamp,
        until: Timestamp,
    ) -> Result<Option<EngineJob>, StorageError> {
        // PostgreSQL: concurrent takers skip the rows another is taking instead of waiting
        // for it (and then finding it gone). SQLite: the write lock makes the update alone.
        let lock = match self.backend {
            Backend::Postgres => " FOR UPDATE SKIP LOCKED",
            Backend::Sqlite => "",
        };
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(&format!(
            "SELECT game_id, ply FROM engine_jobs \
             WHERE lease_until IS NULL OR lease_until <= $1 \
             ORDER BY created_at, game_id LIMIT 1{lock}"
        ))
        .bind(now.0)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            tx.commit().await?;
            return Ok(None);
        };
        let (game, ply): (i64, i64) = (row.try_get(0)?, row.try_get(1)?);
        let taken = sqlx::query(
            "UPDATE engine_jobs SET lease_holder = $1, lease_until = $2, attempts = attempts + 1 \
             WHERE game_id = $3 AND ply = $4 AND (lease_until IS NULL OR lease_until <= $5) \
             RETURNING game_id, ply, level, attempts",
        )
        .bind(holder)
        .bind(until.0)
        .bind(game)
        .bind(ply)
        .bind(now.0)
        .fetch_optional(&mut *tx)
        .await?;
        let job = taken.as_ref().map(job_of).transpose()?;
        tx.commit().await?;
        Ok(job)
    }

    /// Writes the jobs this process's actions make leased to `holder` for `lease` (its own
    /// taker answers them), or, with `None`, for anyone.
    pub fn set_engine_job_holder(&self, holder: Option<(&str, Duration)>) {
        let value = holder.map(|(h, lease)| {
            (
                h.to_owned(),
                i64::try_from(lease.as_millis()).unwrap_or(i64::MAX),
            )
        });
        *self
            .appends
            .job_holder
            .0
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = value;
    }

    /// Takes the job at `ply` of `game` that this process's action wrote leased to `holder`
    /// (its lease starts again from `until`); `None` when it is not `holder`'s any more.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn claim_own_engine_job(
        &self,
        game: GameId,
        ply: u32,
        holder: &str,
        until: Timestamp,
    ) -> Result<Option<EngineJob>, StorageError> {
        let row = sqlx::query(
            "UPDATE engine_jobs SET lease_until = $1, attempts = attempts + 1 \
             WHERE game_id = $2 AND ply = $3 AND lease_holder = $4 \
             RETURNING game_id, ply, level, attempts",
        )
        .bind(until.0)
        .bind(game.0)
        .bind(i64::from(ply))
        .bind(holder)
        .fetch_optional(&self.writer)
        .await?;
        row.as_ref().map(job_of).transpose()
    }

    /// Extends `holder`'s lease on a job; `false` when it is no longer `holder`'s (taken by
    /// another after a lapse, done, or dropped).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn renew_engine_job(
        &self,
        job: &EngineJob,
        holder: &str,
        until: Timestamp,
    ) -> Result<bool, StorageError> {
        let done = sqlx::query(
            "UPDATE engine_jobs SET lease_until = $1 \
             WHERE game_id = $2 AND ply = $3 AND lease_holder = $4",
        )
        .bind(until.0)
        .bind(job.game.0)
        .bind(i64::from(job.ply))
        .bind(holder)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Hands a job back: anyone may take it at once.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn release_engine_job(
        &self,
        job: &EngineJob,
        holder: &str,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "UPDATE engine_jobs SET lease_holder = NULL, lease_until = NULL \
             WHERE game_id = $1 AND ply = $2 AND lease_holder = $3",
        )
        .bind(job.game.0)
        .bind(i64::from(job.ply))
        .bind(holder)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Hands back every job `holder` holds (a process stopping); returns how many.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn release_engine_jobs_of(&self, holder: &str) -> Result<u64, StorageError> {
        let done = sqlx::query(
            "UPDATE engine_jobs SET lease_holder = NULL, lease_until = NULL \
             WHERE lease_holder = $1",
        )
        .bind(holder)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected())
    }

    /// On SQLite, at start-up: hands back every job, whoever held it. SQLite is one process,
    /// so a holder other than this process is an earlier run of it that died, and its moves
    /// need not wait out its leases. On PostgreSQL other processes may be thinking: nothing.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn release_engine_jobs_of_the_dead(&self) -> Result<u64, StorageError> {
        if self.backend != Backend::Sqlite {
            return Ok(0);
        }
        let done = sqlx::query(
            "UPDATE engine_jobs SET lease_holder = NULL, lease_until = NULL \
             WHERE lease_holder IS NOT NULL",
        )
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected())
    }

    /// Deletes a job whose game moved on (or that cannot be played).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn drop_engine_job(&self, game: GameId, ply: u32) -> Result<(), StorageError> {
        sqlx::query("DELETE FROM engine_jobs WHERE game_id = $1 AND ply = $2")
            .bind(game.0)
            .bind(i64::from(ply))
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Jobs nobody holds now (never taken, handed back, or with a lapsed lease).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn engine_jobs_waiting(&self, now: Timestamp) -> Result<u64, StorageError> {
        let n: i64 = sqlx::query(
            "SELECT COUNT(*) FROM engine_jobs WHERE lease_until IS NULL OR lease_until <= $1",
        )
        .bind(now.0)
        .fetch_one(&self.reader)
        .await?
        .try_get(0)?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// The computer's seat in a game against it: the bot's user, as the game's guild knows
    /// it (a worker has no gateway to learn who the bot is).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn engine_player(&self, game: GameId) -> Result<Option<UserInfo>, StorageError> {
        let row = sqlx::query(
            "SELECT s.user_id, m.display_name FROM game_seats s \
             JOIN games g ON g.game_id = s.game_id \
             JOIN members m ON m.guild_id = g.guild_id AND m.user_id = s.user_id \
             WHERE s.game_id = $1 AND g.engine_level IS NOT NULL AND m.is_bot = TRUE \
             ORDER BY s.seat LIMIT 1",
        )
        .bind(game.0)
        .fetch_optional(&self.reader)
        .await?;
        row.map(|r| {
            Ok(UserInfo {
                id: UserId::from_db(r.try_get(0)?),
                name: r.try_get(1)?,
                is_bot: true,
            })
        })
        .transpose()
    }

    /// Every job, oldest first (tests and diagnostics).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn engine_jobs(&self) -> Result<Vec<EngineJob>, StorageError> {
        sqlx::query(
            "SELECT game_id, ply, level, attempts FROM engine_jobs ORDER BY created_at, game_id",
        )
        .fetch_all(&self.reader)
        .await?
        .iter()
        .map(job_of)
        .collect()
    }

    /// Writes the job of every game that waits for the computer and has none (a safety net
    /// at start-up; the actions' transactions write them as they happen).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn owe_missing_engine_jobs(&self, now: Timestamp) -> Result<u64, StorageError> {
        let mut tx = self.begin_write().await?;
        let done = sqlx::query(&format!(
            "INSERT INTO engine_jobs (game_id, ply, level, created_at) \
             SELECT games.game_id, games.ply, games.engine_level, $1 FROM games \
             WHERE games.status = 'active' AND games.engine_level IS NOT NULL \
             AND NOT ({HUMAN_TO_ACT}) \
             ON CONFLICT (game_id, ply) DO NOTHING"
        ))
        .bind(now.0)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(done.rows_affected())
    }
}
