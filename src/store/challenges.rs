//! Challenges, open challenges and lobbies: made, answered, joined, left, expired; a full
//! one starts its game in the same transaction.

use sqlx::Row as _;

use super::model::{
    Challenge, ChallengeId, ChallengeStatus, ChannelId, GameId, GuildId, MessageId, TimeControl,
    Timestamp, UserId, UserInfo,
};
use super::rows::{flag, pair, rules_from, time_from};
use super::shown::Shown;
use super::{
    Row, StorageError, StorageErrorKind, Store, Tx, is_unique_violation, upsert_member,
    upsert_members,
};
use crate::rules::RuleSet;

/// A challenge (or lobby) about to be made.
#[derive(Clone, Debug)]
pub struct NewChallenge {
    /// The guild.
    pub guild: GuildId,
    /// The channel it is made in.
    pub channel: ChannelId,
    /// Who makes it (their name is remembered).
    pub challenger: UserInfo,
    /// The member challenged, if any (their name is remembered).
    pub opponent: Option<UserInfo>,
    /// The rules.
    pub rules: RuleSet,
    /// The time control.
    pub time: TimeControl,
    /// Whether the game will be rated.
    pub rated: bool,
    /// When it is made.
    pub now: Timestamp,
    /// When it expires.
    pub expires_at: Timestamp,
}

/// What became of an attempt to take a seat in a challenge or lobby.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seated {
    /// Seated; the lobby still waits for players.
    Waiting,
    /// Seated, and that filled it: the game has started.
    Started(GameId),
    /// It is no longer open, has expired, or has no free seat (read it again to know which).
    NotOpen,
    /// This user is already in it.
    AlreadyJoined,
}

/// The challenges' table for the statements it shares with offers and tournaments.
const CHALLENGES: Shown = Shown {
    table: "challenges",
    key: "challenge_id",
};

const CHALLENGE_COLUMNS: &str = "challenge_id, guild_id, channel_id, message_channel_id, \
    message_id, challenger_id, opponent_id, rules, days_per_move, minutes_per_move, rated, status, \
    created_at, expires_at, game_id";

fn challenge_from(row: &Row, members: Vec<UserId>) -> Result<Challenge, StorageError> {
    let status: String = row.try_get("status")?;
    Ok(Challenge {
        id: ChallengeId(row.try_get("challenge_id")?),
        guild: GuildId::from_db(row.try_get("guild_id")?),
        channel: ChannelId::from_db(row.try_get("channel_id")?),
        message: pair(
            row.try_get("message_channel_id")?,
            row.try_get("message_id")?,
        ),
        challenger: UserId::from_db(row.try_get("challenger_id")?),
        opponent: row
            .try_get::<Option<i64>, _>("opponent_id")?
            .map(UserId::from_db),
        rules: rules_from(row.try_get("rules")?)?,
        time: time_from(row)?,
        rated: flag(row, "rated")?,
        status: ChallengeStatus::parse(&status)
            .ok_or_else(|| StorageError::corrupt(format!("challenge status `{status}`")))?,
        members,
        created_at: Timestamp(row.try_get("created_at")?),
        expires_at: Timestamp(row.try_get("expires_at")?),
        game: row.try_get::<Option<i64>, _>("game_id")?.map(GameId),
    })
}

/// A challenge's row and its members in joining order, read in `tx` (one snapshot, or under
/// the caller's claim of the row). `None` if there is no such challenge.
async fn challenge_in(tx: &mut Tx, id: ChallengeId) -> Result<Option<Challenge>, StorageError> {
    let row = sqlx::query(&format!(
        "SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE challenge_id = $1"
    ))
    .bind(id.0)
    .fetch_optional(&mut **tx)
    .await?;
    let Some(row) = row else { return Ok(None) };
    let members = sqlx::query(
        "SELECT user_id FROM challenge_members WHERE challenge_id = $1 \
         ORDER BY position, joined_at, user_id",
    )
    .bind(id.0)
    .fetch_all(&mut **tx)
    .await?
    .iter()
    .map(|r| r.try_get::<i64, _>(0).map(UserId::from_db))
    .collect::<Result<Vec<_>, _>>()?;
    challenge_from(&row, members).map(Some)
}

/// Writes a new open challenge in `tx`: its row (rules, time control, rating, expiry), the
/// challenger as its first member, and the names of the challenger and the opponent. The
/// one place a challenge's row is written, for plain challenges and rematches alike, so
/// that no column (such as one of the time control's) is written by one and not the other.
pub(super) async fn insert_challenge_in(
    tx: &mut Tx,
    new: &NewChallenge,
) -> Result<ChallengeId, StorageError> {
    let id: i64 = sqlx::query(
        "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, rules, \
         players, days_per_move, rated, status, seats_taken, created_at, expires_at, \
         minutes_per_move) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'open', 1, $9, $10, $11) RETURNING challenge_id",
    )
    .bind(new.guild.to_db())
    .bind(new.channel.to_db())
    .bind(new.challenger.id.to_db())
    .bind(new.opponent.as_ref().map(|o| o.id.to_db()))
    .bind(new.rules.to_spec())
    .bind(i64::from(new.rules.players))
    .bind(new.time.to_db())
    .bind(new.rated)
    .bind(new.now.0)
    .bind(new.expires_at.0)
    .bind(new.time.minutes_to_db())
    .fetch_one(&mut **tx)
    .await?
    .try_get(0)?;
    sqlx::query(
        "INSERT INTO challenge_members (challenge_id, user_id, position, joined_at) \
         VALUES ($1, $2, 1, $3)",
    )
    .bind(id)
    .bind(new.challenger.id.to_db())
    .bind(new.now.0)
    .execute(&mut **tx)
    .await?;
    let mut members = vec![&new.challenger];
    members.extend(&new.opponent);
    upsert_members(tx, new.guild, &members, new.now).await?;
    Ok(ChallengeId(id))
}

impl Store {
    /// Stores a new challenge (or lobby) with its challenger as the first member and the
    /// players' names, in one transaction, and returns it as stored.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn insert_challenge(&self, new: &NewChallenge) -> Result<Challenge, StorageError> {
        let mut tx = self.begin_write().await?;
        let ChallengeId(id) = insert_challenge_in(&mut tx, new).await?;
        tx.commit().await?;
        self.challenge(ChallengeId(id))
            .await?
            .ok_or_else(|| StorageError::corrupt(format!("challenge {id} vanished")))
    }

    /// A challenge by number.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn challenge(&self, id: ChallengeId) -> Result<Option<Challenge>, StorageError> {
        let mut tx = self.begin_read().await?;
        let Some(challenge) = challenge_in(&mut tx, id).await? else {
            return Ok(None);
        };
        tx.commit().await?;
        Ok(Some(challenge))
    }

    /// Records the message that shows a challenge. `false` if there is no such challenge.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn set_challenge_message(
        &self,
        id: ChallengeId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<bool, StorageError> {
        self.set_shown_message(CHALLENGES, id.0, channel, message)
            .await
    }

    /// Closes an open challenge as declined, cancelled or expired. `false` when it was not
    /// open (someone else closed or accepted it first).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn close_challenge(
        &self,
        id: ChallengeId,
        status: ChallengeStatus,
        by: Option<UserId>,
        now: Timestamp,
    ) -> Result<bool, StorageError> {
        self.close_shown(CHALLENGES, id.0, status.name(), by, now)
            .await
    }

    /// Marks every open challenge whose time has run out as expired, and returns them.
    /// Each row is claimed by its own conditional update, so two sweepers never both
    /// report the same challenge. With `owes_edit`, a challenge shown in a message owes the
    /// edit of that message through the outbox, in the transaction that closes it.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn expire_challenges(
        &self,
        now: Timestamp,
        owes_edit: bool,
    ) -> Result<Vec<ChallengeId>, StorageError> {
        let due = sqlx::query(
            "SELECT challenge_id FROM challenges WHERE status = 'open' AND expires_at <= $1 \
             ORDER BY challenge_id",
        )
        .bind(now.0)
        .fetch_all(&self.reader)
        .await?;
        let mut expired = Vec::new();
        for row in due {
            let id = ChallengeId(row.try_get(0)?);
            let mut tx = self.begin_write().await?;
            let claimed = sqlx::query(
                "UPDATE challenges SET status = 'expired', closed_at = $1 \
                 WHERE challenge_id = $2 AND status = 'open' AND expires_at <= $3 \
                 RETURNING message_id",
            )
            .bind(now.0)
            .bind(id.0)
            .bind(now.0)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(claimed) = claimed else {
                continue;
            };
            let message: Option<i64> = claimed.try_get(0)?;
            if owes_edit && message.is_some() {
                super::outbox_notices::owe_challenge_edit(&mut tx, &self.appends.boot, id, now)
                    .await?;
            }
            tx.commit().await?;
            expired.push(id);
        }
        Ok(expired)
    }

    /// Takes a seat in an open, unexpired challenge or lobby; when that fills it, starts the
    /// game with the members seated by `seat_order` (member k in joining order, the
    /// challenger first, gets seat `seat_order[k]`). For a two-player challenge to a named
    /// member, only that member gets a seat. With `owes_start`, a game started here owes its
    /// start (thread and first board) through the outbox, in the same transaction.
    ///
    /// # Errors
    /// [`StorageError`]; a `seat_order` that is not a permutation of the seats is
    /// [`StorageErrorKind::Other`] (a caller's bug, refused before anything is written).
    pub async fn take_seat(
        &self,
        id: ChallengeId,
        user: &UserInfo,
        now: Timestamp,
        seat_order: &[u8],
        owes_start: bool,
    ) -> Result<Seated, StorageError> {
        let mut tx = self.begin_write().await?;
        let claimed = sqlx::query(
            "UPDATE challenges SET seats_taken = seats_taken + 1 \
             WHERE challenge_id = $1 AND status = 'open' AND expires_at > $2 \
             AND seats_taken < players AND (opponent_id IS NULL OR opponent_id = $3) \
             RETURNING seats_taken, players, guild_id",
        )
        .bind(id.0)
        .bind(now.0)
        .bind(user.id.to_db())
        .fetch_optional(&mut *tx)
        .await?;
        let Some(claimed) = claimed else {
            return Ok(Seated::NotOpen);
        };
        let taken: i64 = claimed.try_get(0)?;
        let players: i64 = claimed.try_get(1)?;
        let guild = GuildId::from_db(claimed.try_get(2)?);
        let joined = sqlx::query(
            "INSERT INTO challenge_members (challenge_id, user_id, position, joined_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(id.0)
        .bind(user.id.to_db())
        .bind(taken)
        .bind(now.0)
        .execute(&mut *tx)
        .await;
        match joined {
            Err(e) if is_unique_violation(&e) => return Ok(Seated::AlreadyJoined),
            other => {
                other?;
            }
        }
        upsert_member(&mut tx, guild, user, now).await?;
        if taken < players {
            tx.commit().await?;
            return Ok(Seated::Waiting);
        }
        let game = self
            .start_game(&mut tx, id, user.id, now, seat_order)
            .await?;
        if owes_start {
            super::outbox::owe(
                &mut tx,
                &self.appends.boot,
                game,
                0,
                super::outbox::OutboxKind::Start,
                None,
                None,
                None,
                now,
            )
            .await?;
        }
        tx.commit().await?;
        Ok(Seated::Started(game))
    }

    /// Inside `take_seat`'s transaction: closes the full challenge and creates its game.
    pub(crate) async fn start_game(
        &self,
        tx: &mut Tx,
        id: ChallengeId,
        closer: UserId,
        now: Timestamp,
        seat_order: &[u8],
    ) -> Result<GameId, StorageError> {
        // `take_seat` claimed the row in this transaction; were it missing, this fails as
        // reading a row that must be there does (`RowNotFound`).
        let challenge = challenge_in(tx, id)
            .await?
            .ok_or(sqlx::Error::RowNotFound)?;
        let players = usize::from(challenge.rules.players);
        let mut sorted = seat_order.to_vec();
        sorted.sort_unstable();
        if challenge.members.len() != players
            || sorted != (1..=challenge.rules.players).collect::<Vec<u8>>()
        {
            return Err(StorageError {
                kind: StorageErrorKind::Other,
                detail: format!(
                    "cannot seat {} members by {seat_order:?} for {players} players",
                    challenge.members.len()
                ),
            });
        }
        sqlx::query(
            "UPDATE challenges SET status = 'accepted', closed_at = $1, closed_by = $2 \
             WHERE challenge_id = $3",
        )
        .bind(now.0)
        .bind(closer.to_db())
        .bind(id.0)
        .execute(&mut **tx)
        .await?;
        let game: i64 = sqlx::query(
            "INSERT INTO games (guild_id, channel_id, challenge_id, rules, players, \
             days_per_move, rated, status, ply, to_act_seat, deadline, created_at, updated_at, \
             minutes_per_move) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'active', 0, 1, $8, $9, $10, $11) RETURNING game_id",
        )
        .bind(challenge.guild.to_db())
        .bind(challenge.channel.to_db())
        .bind(id.0)
        .bind(challenge.rules.to_spec())
        .bind(i64::from(challenge.rules.players))
        .bind(challenge.time.to_db())
        .bind(challenge.rated)
        .bind(challenge.time.deadline_after(now).map(|t| t.0))
        .bind(now.0)
        .bind(now.0)
        .bind(challenge.time.minutes_to_db())
        .fetch_one(&mut **tx)
        .await?
        .try_get(0)?;
        for (user, seat) in challenge.members.iter().zip(seat_order) {
            sqlx::query("INSERT INTO game_seats (game_id, seat, user_id) VALUES ($1, $2, $3)")
                .bind(game)
                .bind(i64::from(*seat))
                .bind(user.to_db())
                .execute(&mut **tx)
                .await?;
        }
        sqlx::query("UPDATE challenges SET game_id = $1 WHERE challenge_id = $2")
            .bind(game)
            .bind(id.0)
            .execute(&mut **tx)
            .await?;
        Ok(GameId(game))
    }

    /// Leaves an open lobby. `false` when the user was not in it or it is not open.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn leave_lobby(&self, id: ChallengeId, user: UserId) -> Result<bool, StorageError> {
        let mut tx = self.begin_write().await?;
        // The challenge's row first: the claim locks it, so a joiner filling the lobby at
        // this instant (on PostgreSQL, another writer beside this one) either sees the seat
        // given back or has already started the game, and then nobody leaves.
        let claimed = sqlx::query(
            "UPDATE challenges SET seats_taken = seats_taken - 1 \
             WHERE challenge_id = $1 AND status = 'open' AND EXISTS (SELECT 1 \
             FROM challenge_members m WHERE m.challenge_id = $1 AND m.user_id = $2)",
        )
        .bind(id.0)
        .bind(user.to_db())
        .execute(&mut *tx)
        .await?;
        if claimed.rows_affected() == 0 {
            return Ok(false);
        }
        sqlx::query("DELETE FROM challenge_members WHERE challenge_id = $1 AND user_id = $2")
            .bind(id.0)
            .bind(user.to_db())
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Active games between two members in a guild, plus open challenges between them.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn open_games_between(
        &self,
        guild: GuildId,
        a: UserId,
        b: UserId,
        now: Timestamp,
    ) -> Result<u32, StorageError> {
        let games: i64 = sqlx::query(
            "SELECT COUNT(*) FROM games g \
             JOIN game_seats sa ON sa.game_id = g.game_id AND sa.user_id = $1 \
             JOIN game_seats sb ON sb.game_id = g.game_id AND sb.user_id = $2 \
             WHERE g.guild_id = $3 AND g.status = 'active'",
        )
        .bind(a.to_db())
        .bind(b.to_db())
        .bind(guild.to_db())
        .fetch_one(&self.reader)
        .await?
        .try_get(0)?;
        let challenges: i64 = sqlx::query(
            "SELECT COUNT(*) FROM challenges WHERE guild_id = $1 AND status = 'open' \
             AND expires_at > $2 AND ((challenger_id = $3 AND opponent_id = $4) \
             OR (challenger_id = $5 AND opponent_id = $6))",
        )
        .bind(guild.to_db())
        .bind(now.0)
        .bind(a.to_db())
        .bind(b.to_db())
        .bind(b.to_db())
        .bind(a.to_db())
        .fetch_one(&self.reader)
        .await?
        .try_get(0)?;
        Ok(u32::try_from(games + challenges).unwrap_or(u32::MAX))
    }
}
