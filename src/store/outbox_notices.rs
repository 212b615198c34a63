//! More of what committed actions owe Discord (issue 16): the vacation notice, the edits of
//! offers an action made stale, and of expired challenges' messages. Each is written in the
//! transaction of the action that owes it, like the boards of [`super::outbox`].
//!
//! Rows about no game (a challenge's message, a tournament's round) queue on their own: their
//! `game_id` is minus the challenge's id (or minus 2^40 and the tournament's), so that a row
//! Discord holds up holds up nothing else.

use super::TournamentId;
use super::model::{ChallengeId, GameId, Timestamp};
use super::offers::{OFFER_COLUMNS, offer_from};
use super::outbox::{Boot, OutboxKind, owe};
use super::{Offer, StorageError, Store, Tx};

/// The outbox queue of a challenge's own rows (it started no game).
pub fn challenge_queue(id: ChallengeId) -> GameId {
    GameId(-id.0)
}

/// The challenge whose own queue `game` is, if it is one.
pub fn queue_challenge(game: GameId) -> Option<ChallengeId> {
    (game.0 < 0 && game.0 > -TOURNAMENT_QUEUES).then_some(ChallengeId(-game.0))
}

/// Where the queues of tournaments' own rows begin (minus this, minus the tournament's id).
pub(crate) const TOURNAMENT_QUEUES: i64 = 1 << 40;

/// The outbox queue of a tournament's own rows.
pub fn tournament_queue(id: TournamentId) -> GameId {
    GameId(-(TOURNAMENT_QUEUES + id.0))
}

/// Inside the transaction that starts `round` of a tournament (or, past the last, ends it):
/// owes the round's post.
pub(crate) async fn owe_tournament_round(
    tx: &mut Tx,
    boot: &Boot,
    id: TournamentId,
    round: u32,
    at: Timestamp,
) -> Result<(), StorageError> {
    owe(
        tx,
        boot,
        tournament_queue(id),
        round,
        OutboxKind::Tournament,
        None,
        None,
        Some(&format!("{}:{round}", id.0)),
        at,
    )
    .await
}

/// The tournament and round a `tournament` row is about.
pub fn row_tournament(row: &super::OutboxRow) -> Option<(TournamentId, u32)> {
    let (id, round) = row.detail.as_deref()?.split_once(':')?;
    Some((TournamentId(id.parse().ok()?), round.parse().ok()?))
}

/// Inside an action's transaction: when the action at `ply` makes offers of its game stale
/// (open, made at an earlier ply), owes the edit of their messages. An offer's message may be
/// recorded a moment after the offer (the front reads its answer back): the poster looks for
/// the messages when the row's turn comes, after this action's board.
pub(crate) async fn owe_stale_offers(
    tx: &mut Tx,
    boot: &Boot,
    game: GameId,
    ply: u32,
    at: Timestamp,
) -> Result<(), StorageError> {
    let stale: Option<i64> = sqlx::query_scalar(
        "SELECT offer_id FROM offers WHERE game_id = $1 AND status = 'open' AND ply < $2 \
         LIMIT 1",
    )
    .bind(game.0)
    .bind(i64::from(ply))
    .fetch_optional(&mut **tx)
    .await?;
    if stale.is_none() {
        return Ok(());
    }
    owe(
        tx,
        boot,
        game,
        ply,
        OutboxKind::Offers,
        None,
        None,
        None,
        at,
    )
    .await
}

/// Inside the transaction that spends a player's vacation on the turn after `ply`: owes the
/// notice that their vacation started, with the hours they have `left`.
pub(crate) async fn owe_vacation_notice(
    tx: &mut Tx,
    boot: &Boot,
    game: GameId,
    ply: u32,
    seat: u8,
    left: u32,
    at: Timestamp,
) -> Result<(), StorageError> {
    owe(
        tx,
        boot,
        game,
        ply,
        OutboxKind::Vacation,
        Some(seat),
        None,
        Some(&left.to_string()),
        at,
    )
    .await
}

/// Inside the transaction that closes challenge `id` as expired: owes the edit of its message.
pub(crate) async fn owe_challenge_edit(
    tx: &mut Tx,
    boot: &Boot,
    id: ChallengeId,
    at: Timestamp,
) -> Result<(), StorageError> {
    owe(
        tx,
        boot,
        challenge_queue(id),
        0,
        OutboxKind::Challenge,
        None,
        None,
        Some(&id.0.to_string()),
        at,
    )
    .await
}

impl Store {
    /// The offers of `game` made before `ply` that lapsed at or after `since` and are shown in
    /// a message: those whose messages the action at `ply` (made at `since`) owes edits of.
    /// Open ones among them are closed as expired first (each by its own conditional update).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn offers_lapsed_by(
        &self,
        game: GameId,
        ply: u32,
        since: Timestamp,
        now: Timestamp,
    ) -> Result<Vec<Offer>, StorageError> {
        if let Some(current) = self.game_ply(game).await? {
            self.expire_stale_offers(game, current, now).await?;
        }
        let rows = sqlx::query(&format!(
            "SELECT {OFFER_COLUMNS} FROM offers WHERE game_id = $1 AND status = 'expired' \
             AND ply < $2 AND closed_at >= $3 AND message_id IS NOT NULL ORDER BY offer_id"
        ))
        .bind(game.0)
        .bind(i64::from(ply))
        .bind(since.0)
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(offer_from).collect()
    }
}
