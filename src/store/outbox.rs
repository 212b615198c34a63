//! The durable outbox (issue 16): the Discord messages a committed action owes, written in the
//! action's own transaction, then sent by the poster in order per game and marked done.
//!
//! A row names what is owed, not the message itself: the poster draws the board (or words the
//! notice) from the game when the row's turn comes, so a row is a few bytes and a commit never
//! waits for a picture. Each row carries a `nonce` made once, at insertion, that every attempt
//! sends with `enforce_nonce`: Discord returns the message already made for a nonce instead of
//! making a second, so a retry after a crash or a lost answer never posts twice.
//!
//! Rows are owned by the process that wrote them (its `boot`) while that process may still be
//! answering the interaction with the same board; rows of an earlier process (a crash, a
//! restart) are the poster's at once.

use rand::Rng as _;
use sqlx::Row as _;

use super::model::{GameId, Timestamp};
use super::{StorageError, Store, Tx};

/// What a committed action owes Discord.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Owed {
    /// Nothing goes through the outbox (the front posts what it owes itself).
    #[default]
    Nothing,
    /// The board after the action, in the game's place, and the ping of the player to act.
    /// `reply` is the interaction token whose own answer carries the board, when there is
    /// one: after a crash, the poster asks Discord whether that answer went out.
    Board {
        /// The interaction token answering with this board, if any.
        reply: Option<String>,
    },
    /// The loss on time of `seat` (or their leaving a 3-4 player game).
    Timeout,
}

impl Owed {
    /// The board, when a front that posts is behind the action; else nothing.
    pub fn board_for(posts: bool, reply: Option<String>) -> Owed {
        if posts {
            Owed::Board { reply }
        } else {
            Owed::Nothing
        }
    }
}

/// What an outbox row asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutboxKind {
    /// The board after `ply`.
    Board,
    /// The loss on time at `ply`.
    Timeout,
    /// The reminder of the turn after `ply`.
    Reminder,
    /// The start of a game (ply 0): its thread opened from the challenge message when the
    /// server wants threads, then its first board there, with the ping of the first player.
    Start,
    /// The notice that vacation started to run on the turn after `ply` (`detail`: the hours
    /// left).
    Vacation,
    /// The messages of the offers that the action at `ply` made stale, edited to say so.
    Offers,
    /// An expired challenge's message, edited to show it closed (`detail`: its id).
    Challenge,
    /// A tournament round's post: its games' starts, pairings and standings, or the final
    /// result (`detail`: `tournament:round`).
    Tournament,
}

impl OutboxKind {
    pub(super) fn name(self) -> &'static str {
        match self {
            OutboxKind::Board => "board",
            OutboxKind::Timeout => "timeout",
            OutboxKind::Reminder => "reminder",
            OutboxKind::Start => "start",
            OutboxKind::Vacation => "vacation",
            OutboxKind::Offers => "offers",
            OutboxKind::Challenge => "challenge",
            OutboxKind::Tournament => "tournament",
        }
    }

    fn parse(s: &str) -> Option<OutboxKind> {
        match s {
            "board" => Some(OutboxKind::Board),
            "timeout" => Some(OutboxKind::Timeout),
            "reminder" => Some(OutboxKind::Reminder),
            "start" => Some(OutboxKind::Start),
            "vacation" => Some(OutboxKind::Vacation),
            "offers" => Some(OutboxKind::Offers),
            "challenge" => Some(OutboxKind::Challenge),
            "tournament" => Some(OutboxKind::Tournament),
            _ => None,
        }
    }
}

/// A pending outbox row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutboxRow {
    /// Its id: the order rows are sent in, within a game.
    pub id: i64,
    /// The game.
    pub game: GameId,
    /// The ply it is about.
    pub ply: u32,
    /// What it asks for.
    pub kind: OutboxKind,
    /// The seat concerned (the one timed out or reminded).
    pub seat: Option<u8>,
    /// The nonce every attempt sends.
    pub nonce: String,
    /// Whether a process before this one wrote it.
    pub inherited: bool,
    /// The interaction token whose answer may carry the board.
    pub reply_token: Option<String>,
    /// A first line for the board, set by the front after the commit.
    pub lead: Option<String>,
    /// The language code the front chose for it.
    pub lang: Option<String>,
    /// Attempts so far.
    pub attempts: u32,
    /// The board's message, once it went out (0: the interaction's own answer carried it).
    pub message_id: Option<u64>,
    /// When it was written.
    pub created_at: Timestamp,
    /// What a kind needs beyond the game, ply and seat (see [`OutboxKind`]).
    pub detail: Option<String>,
}

/// How a row ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutboxEnd {
    /// Everything went out.
    Sent,
    /// Moot by its turn (a reminder of a turn already played).
    Stale,
    /// Refused for good (403, 404, a malformed request): given up.
    Failed,
}

impl OutboxEnd {
    fn name(self) -> &'static str {
        match self {
            OutboxEnd::Sent => "sent",
            OutboxEnd::Stale => "stale",
            OutboxEnd::Failed => "failed",
        }
    }
}

/// This process's mark on the rows it writes.
#[derive(Debug)]
pub(crate) struct Boot(pub(super) String);

impl Default for Boot {
    fn default() -> Self {
        Boot(format!("{:016x}", rand::rng().random::<u64>()))
    }
}

/// A fresh nonce: Discord takes up to 25 characters.
pub(super) fn nonce() -> String {
    format!("gm{:016x}", rand::rng().random::<u64>())
}

/// Writes one owed row inside the caller's transaction, with its `detail` (what some kinds
/// need, see [`OutboxKind`]).
#[allow(clippy::too_many_arguments)]
pub(crate) async fn owe(
    tx: &mut Tx,
    boot: &Boot,
    game: GameId,
    ply: u32,
    kind: OutboxKind,
    seat: Option<u8>,
    reply_token: Option<&str>,
    detail: Option<&str>,
    at: Timestamp,
) -> Result<(), StorageError> {
    sqlx::query(
        "INSERT INTO outbox (game_id, ply, kind, seat, nonce, boot, reply_token, detail, state, \
         attempts, not_before, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'pending', 0, $9, $9)",
    )
    .bind(game.0)
    .bind(i64::from(ply))
    .bind(kind.name())
    .bind(seat.map(i64::from))
    .bind(nonce())
    .bind(&boot.0)
    .bind(reply_token)
    .bind(detail)
    .bind(at.0)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes what `owed` asks for, after the action at `ply` by `seat`.
pub(crate) async fn owe_for_action(
    tx: &mut Tx,
    boot: &Boot,
    game: GameId,
    ply: u32,
    seat: u8,
    owed: &Owed,
    at: Timestamp,
) -> Result<(), StorageError> {
    match owed {
        Owed::Nothing => return Ok(()),
        Owed::Board { reply } => {
            owe(
                tx,
                boot,
                game,
                ply,
                OutboxKind::Board,
                None,
                reply.as_deref(),
                None,
                at,
            )
            .await?;
        }
        Owed::Timeout => {
            owe(
                tx,
                boot,
                game,
                ply,
                OutboxKind::Timeout,
                Some(seat),
                None,
                None,
                at,
            )
            .await?;
        }
    }
    // Offers shown in a message that this action made stale: their messages are edited,
    // after the board (whose front may still be closing an offer it accepted).
    super::outbox_notices::owe_stale_offers(tx, boot, game, ply, at).await
}

fn row_of(r: &super::Row, boot: &Boot) -> Result<OutboxRow, StorageError> {
    let kind: String = r.try_get("kind")?;
    let ply: i64 = r.try_get("ply")?;
    let seat: Option<i64> = r.try_get("seat")?;
    let attempts: i64 = r.try_get("attempts")?;
    let written_by: String = r.try_get("boot")?;
    let message: Option<i64> = r.try_get("message_id")?;
    Ok(OutboxRow {
        id: r.try_get("outbox_id")?,
        game: GameId(r.try_get("game_id")?),
        ply: u32::try_from(ply).map_err(|_| StorageError::corrupt(format!("outbox ply {ply}")))?,
        kind: OutboxKind::parse(&kind)
            .ok_or_else(|| StorageError::corrupt(format!("outbox kind `{kind}`")))?,
        seat: seat.map(|s| super::rows::small(s, "seat")).transpose()?,
        nonce: r.try_get("nonce")?,
        inherited: written_by != boot.0,
        reply_token: r.try_get("reply_token")?,
        lead: r.try_get("lead")?,
        lang: r.try_get("lang")?,
        attempts: u32::try_from(attempts).unwrap_or(u32::MAX),
        message_id: message.map(|m| m as u64),
        created_at: Timestamp(r.try_get("created_at")?),
        detail: r.try_get("detail")?,
    })
}

const COLUMNS: &str = "outbox_id, game_id, ply, kind, seat, nonce, boot, reply_token, lead, \
                       lang, attempts, message_id, created_at, detail";

impl Store {
    /// The first pending row of each game with pending rows (the only one that may go now:
    /// rows go in order per game), for up to `limit` games, oldest first, with whether it
    /// may be tried at `now` (its retry time has come).
    ///
    /// # Errors
    /// [`StorageError`].
    ///
    /// `scope` says which games' rows this process posts when several share the database;
    /// rows of other processes written after `left_before` are theirs still.
    pub async fn outbox_heads(
        &self,
        now: Timestamp,
        limit: u32,
        scope: super::OutboxScope,
        left_before: Timestamp,
    ) -> Result<Vec<(OutboxRow, bool)>, StorageError> {
        let only = scope.condition("$2", "$3");
        let text = format!(
            "SELECT {COLUMNS}, not_before FROM outbox o WHERE state = 'pending' AND outbox_id = \
             (SELECT MIN(outbox_id) FROM outbox p WHERE p.state = 'pending' AND p.game_id = o.game_id) \
             {}ORDER BY outbox_id LIMIT $1",
            only.as_deref()
                .map_or_else(String::new, |c| format!("AND {c} "))
        );
        let mut query = sqlx::query(&text).bind(i64::from(limit));
        // PostgreSQL refuses a parameter the statement does not use.
        match scope {
            super::OutboxScope::All => {}
            super::OutboxScope::Own => query = query.bind(&self.appends.boot.0),
            super::OutboxScope::Shards(_) => {
                query = query.bind(&self.appends.boot.0).bind(left_before.0);
            }
        }
        let rows = query.fetch_all(&self.reader).await?;
        rows.iter()
            .map(|r| {
                let not_before: i64 = r.try_get("not_before")?;
                Ok((row_of(r, &self.appends.boot)?, not_before <= now.0))
            })
            .collect()
    }

    /// Rows still pending (the gauge).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn outbox_pending(&self) -> Result<u64, StorageError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE state = 'pending'")
            .fetch_one(&self.reader)
            .await?;
        Ok(n.max(0) as u64)
    }

    /// The row owed for `kind` at `ply` of `game`, pending or not, with its state.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn outbox_row(
        &self,
        game: GameId,
        ply: u32,
        kind: OutboxKind,
    ) -> Result<Option<(OutboxRow, String)>, StorageError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS}, state FROM outbox WHERE game_id = $1 AND ply = $2 AND kind = $3 \
             ORDER BY outbox_id LIMIT 1"
        ))
        .bind(game.0)
        .bind(i64::from(ply))
        .bind(kind.name())
        .fetch_optional(&self.reader)
        .await?;
        row.map(|r| Ok((row_of(&r, &self.appends.boot)?, r.try_get("state")?)))
            .transpose()
    }

    /// The first pending row of a game, if any (rows go in order per game).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn outbox_first_pending(&self, game: GameId) -> Result<Option<i64>, StorageError> {
        Ok(sqlx::query_scalar(
            "SELECT MIN(outbox_id) FROM outbox WHERE state = 'pending' AND game_id = $1",
        )
        .bind(game.0)
        .fetch_one(&self.reader)
        .await?)
    }

    /// Records the board's message of a row (the rest of the row, a ping, may still be owed).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn outbox_posted(&self, id: i64, message: u64) -> Result<(), StorageError> {
        sqlx::query("UPDATE outbox SET message_id = $1, reply_token = NULL WHERE outbox_id = $2")
            .bind(message as i64)
            .bind(id)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Ends a row.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn outbox_done(
        &self,
        id: i64,
        end: OutboxEnd,
        error: Option<&str>,
        at: Timestamp,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "UPDATE outbox SET state = $1, error = $2, done_at = $3, reply_token = NULL \
             WHERE outbox_id = $4",
        )
        .bind(end.name())
        .bind(error)
        .bind(at.0)
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Ends rows sent together, in one statement (one commit for a whole round).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn outbox_sent_many(&self, ids: &[i64], at: Timestamp) -> Result<(), StorageError> {
        if ids.is_empty() {
            return Ok(());
        }
        let list = ids
            .iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        sqlx::query(&format!(
            "UPDATE outbox SET state = 'sent', done_at = $1, reply_token = NULL \
             WHERE outbox_id IN ({list})"
        ))
        .bind(at.0)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Deletes rows that ended before `before` (the table keeps a week of history).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn outbox_prune(&self, before: Timestamp) -> Result<u64, StorageError> {
        let done = sqlx::query("DELETE FROM outbox WHERE state <> 'pending' AND done_at < $1")
            .bind(before.0)
            .execute(&self.writer)
            .await?;
        Ok(done.rows_affected())
    }

    /// Puts a row off until `not_before` after a failed attempt.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn outbox_retry_at(
        &self,
        id: i64,
        not_before: Timestamp,
        error: &str,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "UPDATE outbox SET attempts = attempts + 1, not_before = $1, error = $2 \
             WHERE outbox_id = $3",
        )
        .bind(not_before.0)
        .bind(error)
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Claims the reminder of the turn after `ply` and owes its message, in one transaction.
    /// `true` for the one caller that claimed it.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn claim_reminder_owed(
        &self,
        game: GameId,
        ply: u32,
        seat: u8,
        at: Timestamp,
    ) -> Result<bool, StorageError> {
        let mut tx = self.begin_write().await?;
        let done = super::clocks::claim_reminder_query(game, ply)
            .execute(&mut *tx)
            .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        owe(
            &mut tx,
            &self.appends.boot,
            game,
            ply,
            OutboxKind::Reminder,
            Some(seat),
            None,
            None,
            at,
        )
        .await?;
        tx.commit().await?;
        Ok(true)
    }
}
