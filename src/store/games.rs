//! Games: their rows and seats, reading a game with its move log, listings, and the deadline
//! sweep's claim.

use sqlx::Row as _;

use super::model::{
    ChallengeId, ChannelId, GameId, GameResult, GameStatus, GuildId, MessageId, ResultReason,
    TimeControl, Timestamp, UserId, colours_from_mask,
};
use super::rows::{flag, pair, rules_from, small, time_from};
use super::{Row, StorageError, Store};
use crate::rules::RuleSet;

/// One seat of a stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatRow {
    /// The seat, from 1 (seat 1 acts first).
    pub seat: u8,
    /// Who sits there.
    pub user: UserId,
    /// Their last known display name in the game's guild.
    pub name: Option<String>,
    /// Whether they are a bot (in a game against the computer: the engine's seat).
    pub is_bot: bool,
}

/// A game's row: everything but the move log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameMeta {
    /// The game.
    pub id: GameId,
    /// Its guild.
    pub guild: GuildId,
    /// The channel the challenge was made in.
    pub channel: ChannelId,
    /// Its own thread, if it has one.
    pub thread: Option<ChannelId>,
    /// The last board message posted for it.
    pub board_message: Option<(ChannelId, MessageId)>,
    /// The challenge it came from.
    pub challenge: Option<ChallengeId>,
    /// Its rules.
    pub rules: RuleSet,
    /// Its time control.
    pub time: TimeControl,
    /// Whether it is rated.
    pub rated: bool,
    /// Whether one seat is the computer (a game started against the engine).
    pub against_computer: bool,
    /// Active or finished, with the result.
    pub status: GameStatus,
    /// Actions in the log.
    pub ply: u32,
    /// The seat to act (snapshot), `None` when finished.
    pub to_act: Option<u8>,
    /// When the seat to act runs out of time.
    pub deadline: Option<Timestamp>,
    /// When it started.
    pub created_at: Timestamp,
    /// When it last changed.
    pub updated_at: Timestamp,
}

/// One row of the move log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAction {
    /// 1 for the first action.
    pub ply: u32,
    /// The seat that acted.
    pub seat: u8,
    /// The record token (`K10`, `take:1`, `place`) or `resign`.
    pub token: String,
    /// When.
    pub at: Timestamp,
}

/// A game as stored: its row, its seats and its whole move log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredGame {
    /// The row.
    pub meta: GameMeta,
    /// The seats, seat 1 first.
    pub seats: Vec<SeatRow>,
    /// The move log, ply 1 first.
    pub actions: Vec<StoredAction>,
}

/// A game without its move log (for listings).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameListing {
    /// The row.
    pub meta: GameMeta,
    /// The seats, seat 1 first.
    pub seats: Vec<SeatRow>,
}

const GAME_COLUMNS: &str = "g.game_id, g.guild_id, g.channel_id, g.thread_id, \
    g.board_channel_id, g.board_message_id, g.challenge_id, g.rules, g.days_per_move, \
    g.minutes_per_move, g.rated, g.engine_level, \
    g.status, g.ply, g.to_act_seat, g.result, g.winners, g.loser_seat, g.deadline, \
    g.created_at, g.updated_at";

fn game_meta_from(row: &Row) -> Result<GameMeta, StorageError> {
    let status: String = row.try_get("status")?;
    let status = match status.as_str() {
        "active" => GameStatus::Active,
        "finished" => {
            let result: Option<String> = row.try_get("result")?;
            let winners = colours_from_mask(row.try_get::<Option<i64>, _>("winners")?.unwrap_or(0));
            let reason = match result.as_deref() {
                Some("line") => ResultReason::Line,
                Some("captures") => ResultReason::Captures,
                Some("board_full") => ResultReason::BoardFull,
                Some("resignation") => ResultReason::Resignation {
                    seat: small(
                        row.try_get::<Option<i64>, _>("loser_seat")?.unwrap_or(0),
                        "loser seat",
                    )?,
                },
                Some("timeout") => ResultReason::Timeout {
                    seat: small(
                        row.try_get::<Option<i64>, _>("loser_seat")?.unwrap_or(0),
                        "loser seat",
                    )?,
                },
                Some("draw") => ResultReason::DrawAgreed,
                other => {
                    return Err(StorageError::corrupt(format!("game result {other:?}")));
                }
            };
            GameStatus::Finished(GameResult { winners, reason })
        }
        other => return Err(StorageError::corrupt(format!("game status `{other}`"))),
    };
    let ply: i64 = row.try_get("ply")?;
    Ok(GameMeta {
        id: GameId(row.try_get("game_id")?),
        guild: GuildId::from_db(row.try_get("guild_id")?),
        channel: ChannelId::from_db(row.try_get("channel_id")?),
        thread: row
            .try_get::<Option<i64>, _>("thread_id")?
            .map(ChannelId::from_db),
        board_message: pair(
            row.try_get("board_channel_id")?,
            row.try_get("board_message_id")?,
        ),
        challenge: row
            .try_get::<Option<i64>, _>("challenge_id")?
            .map(ChallengeId),
        rules: rules_from(row.try_get("rules")?)?,
        time: time_from(row)?,
        rated: flag(row, "rated")?,
        against_computer: row.try_get::<Option<i64>, _>("engine_level")?.is_some(),
        status,
        ply: u32::try_from(ply).map_err(|_| StorageError::corrupt(format!("ply {ply}")))?,
        to_act: row
            .try_get::<Option<i64>, _>("to_act_seat")?
            .map(|s| small(s, "seat"))
            .transpose()?,
        deadline: row.try_get::<Option<i64>, _>("deadline")?.map(Timestamp),
        created_at: Timestamp(row.try_get("created_at")?),
        updated_at: Timestamp(row.try_get("updated_at")?),
    })
}

fn seat_from(row: &Row) -> Result<SeatRow, StorageError> {
    Ok(SeatRow {
        seat: small(row.try_get("seat")?, "seat")?,
        user: UserId::from_db(row.try_get("user_id")?),
        name: row.try_get("display_name")?,
        is_bot: super::rows::flag(row, "is_bot")?,
    })
}

/// The deadline a game shows: none on the computer's turn, which has no clock (the engine
/// answers at once; the deadline sweeps skip it too, see [`HUMAN_TO_ACT`]).
pub fn shown_deadline(meta: &GameMeta, seats: &[SeatRow]) -> Option<Timestamp> {
    let computer_to_act = meta.against_computer
        && meta
            .to_act
            .and_then(|seat| seats.iter().find(|s| s.seat == seat))
            .is_some_and(|s| s.is_bot);
    if computer_to_act { None } else { meta.deadline }
}

/// A condition on a `games` row: the seat to act is not the computer's. The engine answers at
/// once (and, after a restart, before anything else), so its turns have no clock: a deadline
/// that passed while the bot was down must not make the computer lose on time or be reminded.
pub(crate) const HUMAN_TO_ACT: &str = "NOT (games.engine_level IS NOT NULL AND EXISTS (\
     SELECT 1 FROM game_seats s JOIN members m ON m.user_id = s.user_id \
     AND m.guild_id = games.guild_id WHERE s.game_id = games.game_id \
     AND s.seat = games.to_act_seat AND m.is_bot = TRUE))";

impl Store {
    /// A game with its seats and whole move log, read in one snapshot.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn load_game(&self, id: GameId) -> Result<Option<StoredGame>, StorageError> {
        let mut tx = self.begin_read().await?;
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games g WHERE g.game_id = $1"
        ))
        .bind(id.0)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let meta = game_meta_from(&row)?;
        let seats = sqlx::query(
            "SELECT s.seat, s.user_id, m.display_name, COALESCE(m.is_bot, FALSE) AS is_bot \
             FROM game_seats s \
             LEFT JOIN members m ON m.guild_id = $1 AND m.user_id = s.user_id \
             WHERE s.game_id = $2 ORDER BY s.seat",
        )
        .bind(meta.guild.to_db())
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(seat_from)
        .collect::<Result<Vec<_>, _>>()?;
        let actions = sqlx::query(
            "SELECT ply, seat, action, played_at FROM moves WHERE game_id = $1 ORDER BY ply",
        )
        .bind(id.0)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(|r| {
            let ply: i64 = r.try_get("ply")?;
            Ok(StoredAction {
                ply: u32::try_from(ply).map_err(|_| StorageError::corrupt(format!("ply {ply}")))?,
                seat: small(r.try_get("seat")?, "seat")?,
                token: r.try_get("action")?,
                at: Timestamp(r.try_get("played_at")?),
            })
        })
        .collect::<Result<Vec<_>, StorageError>>()?;
        tx.commit().await?;
        Ok(Some(StoredGame {
            meta,
            seats,
            actions,
        }))
    }

    /// The number of actions in a game's log (from the row's snapshot).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn game_ply(&self, id: GameId) -> Result<Option<u32>, StorageError> {
        let row = sqlx::query("SELECT ply FROM games WHERE game_id = $1")
            .bind(id.0)
            .fetch_optional(&self.reader)
            .await?;
        row.map(|r| {
            let ply: i64 = r.try_get(0)?;
            u32::try_from(ply).map_err(|_| StorageError::corrupt(format!("ply {ply}")))
        })
        .transpose()
    }

    /// Records the game's own thread. `false` if there is no such game.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn set_game_thread(
        &self,
        id: GameId,
        thread: ChannelId,
    ) -> Result<bool, StorageError> {
        let update = sqlx::query("UPDATE games SET thread_id = $1 WHERE game_id = $2")
            .bind(thread.to_db())
            .bind(id.0);
        self.update_game_row(id, update).await
    }

    /// Records the last board message posted for a game. `false` if there is no such game.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn set_board_message(
        &self,
        id: GameId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<bool, StorageError> {
        let update = sqlx::query(
            "UPDATE games SET board_channel_id = $1, board_message_id = $2 WHERE game_id = $3",
        )
        .bind(channel.to_db())
        .bind(message.to_db())
        .bind(id.0);
        self.update_game_row(id, update).await
    }

    /// Runs `update`, a statement on game `id`'s row alone, and when it found the row tells
    /// the other processes on the database (PostgreSQL) that the game changed, so that they
    /// forget the copy they hold in memory. `false` if there is no such game.
    async fn update_game_row<'q>(
        &self,
        id: GameId,
        update: sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments<'q>>,
    ) -> Result<bool, StorageError> {
        let done = update.execute(&self.writer).await?;
        let found = done.rows_affected() == 1;
        if found {
            self.notify_now(&super::Change::Games(vec![id])).await;
        }
        Ok(found)
    }

    /// A member's active games in a guild, with their seats (no move logs).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn active_games_of(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> Result<Vec<GameListing>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}, s.seat, s.user_id, m.display_name, \
             COALESCE(m.is_bot, FALSE) AS is_bot \
             FROM game_seats me JOIN games g ON g.game_id = me.game_id \
             JOIN game_seats s ON s.game_id = g.game_id \
             LEFT JOIN members m ON m.guild_id = g.guild_id AND m.user_id = s.user_id \
             WHERE me.user_id = $1 AND g.guild_id = $2 AND g.status = 'active' \
             ORDER BY g.game_id, s.seat"
        ))
        .bind(user.to_db())
        .bind(guild.to_db())
        .fetch_all(&self.reader)
        .await?;
        let mut out: Vec<GameListing> = Vec::new();
        for row in &rows {
            let id = GameId(row.try_get("game_id")?);
            let seat = seat_from(row)?;
            match out.last_mut() {
                Some(last) if last.meta.id == id => last.seats.push(seat),
                _ => out.push(GameListing {
                    meta: game_meta_from(row)?,
                    seats: vec![seat],
                }),
            }
        }
        Ok(out)
    }

    /// Active games in a guild whose channel or thread is `channel`; only those where
    /// `player` sits, when given.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn active_games_in_channel(
        &self,
        guild: GuildId,
        channel: ChannelId,
        player: Option<UserId>,
    ) -> Result<Vec<GameId>, StorageError> {
        let rows =
            match player {
                Some(user) => {
                    sqlx::query(
                        "SELECT g.game_id FROM games g JOIN game_seats s ON s.game_id = g.game_id \
                     WHERE g.guild_id = $1 AND g.status = 'active' AND s.user_id = $2 \
                     AND (g.channel_id = $3 OR g.thread_id = $4) ORDER BY g.game_id",
                    )
                    .bind(guild.to_db())
                    .bind(user.to_db())
                    .bind(channel.to_db())
                    .bind(channel.to_db())
                    .fetch_all(&self.reader)
                    .await?
                }
                None => sqlx::query(
                    "SELECT g.game_id FROM games g WHERE g.guild_id = $1 AND g.status = 'active' \
                     AND (g.channel_id = $2 OR g.thread_id = $3) ORDER BY g.game_id",
                )
                .bind(guild.to_db())
                .bind(channel.to_db())
                .bind(channel.to_db())
                .fetch_all(&self.reader)
                .await?,
            };
        rows.iter()
            .map(|r| Ok(GameId(r.try_get(0)?)))
            .collect::<Result<_, StorageError>>()
    }

    /// Claims up to `limit` active games whose deadline has passed, for a sweep that will
    /// act on them: each row is leased until `lease_until` by a conditional update, so
    /// sweeps running at once in several processes never claim the same game. A move
    /// clears the lease (and moves the deadline). Returns the games and their deadlines.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn claim_overdue_games(
        &self,
        now: Timestamp,
        lease_until: Timestamp,
        limit: u32,
    ) -> Result<Vec<(GameId, Timestamp)>, StorageError> {
        let due = sqlx::query(&format!(
            "SELECT game_id, deadline FROM games WHERE status = 'active' AND deadline <= $1 \
             AND (sweep_lease IS NULL OR sweep_lease <= $2) AND {HUMAN_TO_ACT} \
             ORDER BY deadline LIMIT $3"
        ))
        .bind(now.0)
        .bind(now.0)
        .bind(i64::from(limit))
        .fetch_all(&self.reader)
        .await?;
        let mut claimed = Vec::new();
        for row in due {
            let id = GameId(row.try_get(0)?);
            let deadline = Timestamp(row.try_get(1)?);
            let done = sqlx::query(
                "UPDATE games SET sweep_lease = $1 WHERE game_id = $2 AND status = 'active' \
                 AND deadline <= $3 AND (sweep_lease IS NULL OR sweep_lease <= $4)",
            )
            .bind(lease_until.0)
            .bind(id.0)
            .bind(now.0)
            .bind(now.0)
            .execute(&self.writer)
            .await?;
            if done.rows_affected() == 1 {
                claimed.push((id, deadline));
            }
        }
        Ok(claimed)
    }
}
