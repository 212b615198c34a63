//! The clocks' SQL: reminders claimed once per turn, and vacation time spent per year.
//!
//! Like the deadline sweep's lease, every write here is a conditional `UPDATE` (or a guarded
//! upsert), so two sweepers running at once, in one process or in two, never both remind a
//! player of the same turn nor both spend the same hour of vacation.

use sqlx::Row as _;

use super::rows::{small, time_from};
use super::{GameId, StorageError, Store, Timestamp, UserId};
use crate::store::TimeControl;

/// The conditional update that marks the turn after `ply` of `game` as reminded: it changes
/// a row only while the game is active, still at `ply`, and not yet reminded of that turn, so
/// of several claimers exactly one sees a row changed. Shared by the claim alone and by the
/// claim that owes its message through the outbox in the same transaction.
pub(super) fn claim_reminder_query<'q>(
    game: GameId,
    ply: u32,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>> {
    sqlx::query(
        "UPDATE games SET reminded_ply = $1 WHERE game_id = $2 AND ply = $3 \
         AND status = 'active' AND (reminded_ply IS NULL OR reminded_ply <> $4)",
    )
    .bind(i64::from(ply))
    .bind(game.0)
    .bind(i64::from(ply))
    .bind(i64::from(ply))
}

/// An active game with a clock whose player to act has not been reminded of this turn yet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReminderCandidate {
    /// The game.
    pub game: GameId,
    /// Actions so far (the turn is the one after this ply).
    pub ply: u32,
    /// The seat to act.
    pub seat: u8,
    /// The game's time control.
    pub time: TimeControl,
    /// When the turn began (the last action, or the start of the game).
    pub turn_started: Timestamp,
    /// When the turn runs out.
    pub deadline: Timestamp,
}

impl Store {
    /// Active games whose deadline lies in `(now, horizon]` and whose player to act has not
    /// been reminded of this turn.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn reminder_candidates(
        &self,
        now: Timestamp,
        horizon: Timestamp,
    ) -> Result<Vec<ReminderCandidate>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT game_id, ply, to_act_seat, days_per_move, minutes_per_move, updated_at, \
             deadline FROM games WHERE status = 'active' AND deadline > $1 AND deadline <= $2 \
             AND to_act_seat IS NOT NULL AND (reminded_ply IS NULL OR reminded_ply <> ply) \
             AND {} ORDER BY deadline",
            super::HUMAN_TO_ACT
        ))
        .bind(now.0)
        .bind(horizon.0)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| {
                let ply: i64 = r.try_get("ply")?;
                Ok(ReminderCandidate {
                    game: GameId(r.try_get("game_id")?),
                    ply: u32::try_from(ply)
                        .map_err(|_| StorageError::corrupt(format!("ply {ply}")))?,
                    seat: small(r.try_get("to_act_seat")?, "seat")?,
                    time: time_from(r)?,
                    turn_started: Timestamp(r.try_get("updated_at")?),
                    deadline: Timestamp(r.try_get("deadline")?),
                })
            })
            .collect()
    }

    /// Marks the turn after `ply` as reminded. `true` for the one caller that marked it;
    /// `false` when it was already marked, or the game moved on or ended.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn claim_reminder(&self, game: GameId, ply: u32) -> Result<bool, StorageError> {
        let done = claim_reminder_query(game, ply)
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Hours of vacation a player has spent in a year.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn vacation_hours_used(&self, user: UserId, year: i32) -> Result<u32, StorageError> {
        let row =
            sqlx::query("SELECT hours_used FROM vacation_usage WHERE user_id = $1 AND year = $2")
                .bind(user.to_db())
                .bind(i64::from(year))
                .fetch_optional(&self.reader)
                .await?;
        match row {
            None => Ok(0),
            Some(r) => {
                let h: i64 = r.try_get(0)?;
                u32::try_from(h).map_err(|_| StorageError::corrupt(format!("hours_used {h}")))
            }
        }
    }

    /// Spends `hours` of `user`'s vacation in `year` to move the deadline of `game` (still at
    /// `ply`, still active) to `deadline`, in one transaction; the sweep's lease is released,
    /// and the turn counts as reminded (the vacation notice replaces a late reminder).
    /// `false`, with nothing written, when the game moved on or ended, or the spending would
    /// take the year's total past `allowance` hours. `notice`: the seat whose vacation starts
    /// to run on this turn, when its notice is owed through the outbox (in this transaction).
    ///
    /// # Errors
    /// [`StorageError`].
    #[allow(clippy::too_many_arguments)]
    pub async fn spend_vacation(
        &self,
        game: GameId,
        ply: u32,
        user: UserId,
        year: i32,
        hours: u32,
        allowance: u32,
        deadline: Timestamp,
        now: Timestamp,
        notice: Option<u8>,
    ) -> Result<bool, StorageError> {
        if hours == 0 || hours > allowance {
            return Ok(false);
        }
        let mut tx = self.begin_write().await?;
        let spent = sqlx::query(
            "INSERT INTO vacation_usage (user_id, year, hours_used, updated_at) \
             VALUES ($1, $2, $3, $4) ON CONFLICT (user_id, year) DO UPDATE \
             SET hours_used = vacation_usage.hours_used + excluded.hours_used, \
             updated_at = excluded.updated_at \
             WHERE vacation_usage.hours_used + excluded.hours_used <= $5",
        )
        .bind(user.to_db())
        .bind(i64::from(year))
        .bind(i64::from(hours))
        .bind(now.0)
        .bind(i64::from(allowance))
        .execute(&mut *tx)
        .await?;
        if spent.rows_affected() != 1 {
            return Ok(false);
        }
        let moved = sqlx::query(
            "UPDATE games SET deadline = $1, sweep_lease = NULL, reminded_ply = ply \
             WHERE game_id = $2 AND ply = $3 AND status = 'active'",
        )
        .bind(deadline.0)
        .bind(game.0)
        .bind(i64::from(ply))
        .execute(&mut *tx)
        .await?;
        if moved.rows_affected() != 1 {
            return Ok(false);
        }
        if let Some(seat) = notice {
            let used: i64 = sqlx::query_scalar(
                "SELECT hours_used FROM vacation_usage WHERE user_id = $1 AND year = $2",
            )
            .bind(user.to_db())
            .bind(i64::from(year))
            .fetch_one(&mut *tx)
            .await?;
            let left = u32::try_from(i64::from(allowance) - used).unwrap_or(0);
            super::outbox_notices::owe_vacation_notice(
                &mut tx,
                &self.appends.boot,
                game,
                ply,
                seat,
                left,
                now,
            )
            .await?;
        }
        // The deadline moved: other processes drop their copy of the game (PostgreSQL).
        let change = super::Change::Games(vec![game]);
        super::notify::notify_in(&mut tx, self.notices.as_deref(), &change).await?;
        tx.commit().await?;
        Ok(true)
    }
}
