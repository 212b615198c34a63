//! Offers between the players of a game (take-backs and draws) and rematch links.
//!
//! An offer is tied to the ply its game was at when it was made: it stays answerable only
//! while the game is still there (see `migrations/20261129190100_social.sql`). Every change
//! of an offer's status is a conditional `UPDATE ... WHERE status = 'open'`, so of two
//! answers (in this process or another) exactly one wins.

use std::fmt;
use std::str::FromStr;

use sqlx::Row as _;

use super::challenges::insert_challenge_in;
use super::model::{ChallengeId, ChannelId, GameId, MessageId, Timestamp, UserId};
use super::rows::{pair, small};
use super::shown::Shown;
use super::{NewChallenge, Row, StorageError, Store, is_unique_violation};

/// An offer's number, put into button ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OfferId(pub i64);

/// Prints the bare number.
impl fmt::Display for OfferId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Reads `12` (as found in button ids).
impl FromStr for OfferId {
    type Err = std::num::ParseIntError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim().parse().map(OfferId)
    }
}

/// What is offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OfferKind {
    /// Take back the offering player's last action (and any replies since).
    Undo,
    /// End the game as a draw (two-player games).
    Draw,
}

impl OfferKind {
    pub(crate) fn name(self) -> &'static str {
        match self {
            OfferKind::Undo => "undo",
            OfferKind::Draw => "draw",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<OfferKind> {
        [OfferKind::Undo, OfferKind::Draw]
            .into_iter()
            .find(|k| k.name() == s)
    }
}

/// Where an offer stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OfferStatus {
    /// Waiting for an answer.
    Open,
    /// Accepted: the take-back or the draw happened.
    Accepted,
    /// Declined by an opponent.
    Declined,
    /// Withdrawn by the player who made it.
    Withdrawn,
    /// The game moved on before it was accepted.
    Expired,
}

impl OfferStatus {
    pub(crate) fn name(self) -> &'static str {
        match self {
            OfferStatus::Open => "open",
            OfferStatus::Accepted => "accepted",
            OfferStatus::Declined => "declined",
            OfferStatus::Withdrawn => "withdrawn",
            OfferStatus::Expired => "expired",
        }
    }

    pub(crate) fn parse(s: &str) -> Option<OfferStatus> {
        [
            OfferStatus::Open,
            OfferStatus::Accepted,
            OfferStatus::Declined,
            OfferStatus::Withdrawn,
            OfferStatus::Expired,
        ]
        .into_iter()
        .find(|k| k.name() == s)
    }
}

/// A take-back or draw offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Offer {
    /// Its number.
    pub id: OfferId,
    /// The game.
    pub game: GameId,
    /// What is offered.
    pub kind: OfferKind,
    /// The game's ply when it was made; it lapses once the game is past it.
    pub ply: u32,
    /// The seat that offers.
    pub seat: u8,
    /// Who offers.
    pub user: UserId,
    /// Where it stands.
    pub status: OfferStatus,
    /// The seats that accepted so far.
    pub approvals: Vec<u8>,
    /// The message that shows it, once posted.
    pub message: Option<(ChannelId, MessageId)>,
    /// When it was made.
    pub created_at: Timestamp,
}

/// The offers' table for the statements it shares with challenges and tournaments.
const OFFERS: Shown = Shown {
    table: "offers",
    key: "offer_id",
};

pub(super) const OFFER_COLUMNS: &str = "offer_id, game_id, kind, ply, seat, user_id, status, approvals, \
    message_channel_id, message_id, created_at";

pub(super) fn offer_from(row: &Row) -> Result<Offer, StorageError> {
    let kind: String = row.try_get("kind")?;
    let status: String = row.try_get("status")?;
    let ply: i64 = row.try_get("ply")?;
    let mask: i64 = row.try_get("approvals")?;
    Ok(Offer {
        id: OfferId(row.try_get("offer_id")?),
        game: GameId(row.try_get("game_id")?),
        kind: OfferKind::parse(&kind)
            .ok_or_else(|| StorageError::corrupt(format!("offer kind `{kind}`")))?,
        ply: u32::try_from(ply).map_err(|_| StorageError::corrupt(format!("offer ply {ply}")))?,
        seat: small(row.try_get("seat")?, "seat")?,
        user: UserId::from_db(row.try_get("user_id")?),
        status: OfferStatus::parse(&status)
            .ok_or_else(|| StorageError::corrupt(format!("offer status `{status}`")))?,
        approvals: (1..=4u8).filter(|s| mask & (1 << s) != 0).collect(),
        message: pair(
            row.try_get("message_channel_id")?,
            row.try_get("message_id")?,
        ),
        created_at: Timestamp(row.try_get("created_at")?),
    })
}

/// What became of an attempt to record an offer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OfferInsert {
    /// Recorded.
    Made(Offer),
    /// The same player already has this kind of offer open at this ply.
    Pending(Offer),
}

impl Store {
    /// Records an offer made at `ply`. Offers of the game still open from an earlier ply
    /// are closed as expired first, in the same transaction.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn insert_offer(
        &self,
        game: GameId,
        kind: OfferKind,
        ply: u32,
        seat: u8,
        user: UserId,
        now: Timestamp,
    ) -> Result<OfferInsert, StorageError> {
        let mut tx = self.begin_write().await?;
        sqlx::query(
            "UPDATE offers SET status = 'expired', closed_at = $1 \
             WHERE game_id = $2 AND status = 'open' AND ply <> $3",
        )
        .bind(now.0)
        .bind(game.0)
        .bind(i64::from(ply))
        .execute(&mut *tx)
        .await?;
        let inserted = sqlx::query(&format!(
            "INSERT INTO offers (game_id, kind, ply, seat, user_id, status, approvals, \
             created_at) VALUES ($1, $2, $3, $4, $5, 'open', 0, $6) RETURNING {OFFER_COLUMNS}"
        ))
        .bind(game.0)
        .bind(kind.name())
        .bind(i64::from(ply))
        .bind(i64::from(seat))
        .bind(user.to_db())
        .bind(now.0)
        .fetch_one(&mut *tx)
        .await;
        let row = match inserted {
            Err(e) if is_unique_violation(&e) => {
                // Nothing to write. The transaction is given up before reading the offer
                // in the way: on PostgreSQL a failed statement ends what a transaction can
                // do.
                tx.rollback().await?;
                let existing = sqlx::query(&format!(
                    "SELECT {OFFER_COLUMNS} FROM offers WHERE game_id = $1 AND kind = $2 \
                     AND seat = $3 AND status = 'open'"
                ))
                .bind(game.0)
                .bind(kind.name())
                .bind(i64::from(seat))
                .fetch_one(&self.writer)
                .await?;
                return Ok(OfferInsert::Pending(offer_from(&existing)?));
            }
            other => other?,
        };
        let offer = offer_from(&row)?;
        tx.commit().await?;
        Ok(OfferInsert::Made(offer))
    }

    /// An offer by number.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn offer(&self, id: OfferId) -> Result<Option<Offer>, StorageError> {
        sqlx::query(&format!(
            "SELECT {OFFER_COLUMNS} FROM offers WHERE offer_id = $1"
        ))
        .bind(id.0)
        .fetch_optional(&self.reader)
        .await?
        .as_ref()
        .map(offer_from)
        .transpose()
    }

    /// Records the message that shows an offer. `false` if there is no such offer.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn set_offer_message(
        &self,
        id: OfferId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<bool, StorageError> {
        self.set_shown_message(OFFERS, id.0, channel, message).await
    }

    /// Adds `seat` to an open offer's approvals; the approving seats afterwards, or `None`
    /// when the offer is no longer open.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn approve_offer(
        &self,
        id: OfferId,
        seat: u8,
    ) -> Result<Option<Vec<u8>>, StorageError> {
        let row = sqlx::query(
            "UPDATE offers SET approvals = approvals | $1 WHERE offer_id = $2 AND status = 'open' \
             RETURNING approvals",
        )
        .bind(1i64 << seat)
        .bind(id.0)
        .fetch_optional(&self.writer)
        .await?;
        row.map(|r| {
            let mask: i64 = r.try_get(0)?;
            Ok((1..=4u8).filter(|s| mask & (1 << s) != 0).collect())
        })
        .transpose()
    }

    /// Closes an open offer with `status`. `false` when it was not open any more.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn close_offer(
        &self,
        id: OfferId,
        status: OfferStatus,
        by: Option<UserId>,
        now: Timestamp,
    ) -> Result<bool, StorageError> {
        self.close_shown(OFFERS, id.0, status.name(), by, now).await
    }

    /// Closes as expired the open offers of a game made at another ply than `ply` (the
    /// game's current one), and returns them. Each is claimed by its own conditional
    /// update, so two callers never both report the same offer.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn expire_stale_offers(
        &self,
        game: GameId,
        ply: u32,
        now: Timestamp,
    ) -> Result<Vec<Offer>, StorageError> {
        let rows = sqlx::query(&format!(
            "SELECT {OFFER_COLUMNS} FROM offers WHERE game_id = $1 AND status = 'open' \
             AND ply <> $2 ORDER BY offer_id"
        ))
        .bind(game.0)
        .bind(i64::from(ply))
        .fetch_all(&self.reader)
        .await?;
        let mut out = Vec::new();
        for row in &rows {
            let mut offer = offer_from(row)?;
            if self
                .close_offer(offer.id, OfferStatus::Expired, None, now)
                .await?
            {
                offer.status = OfferStatus::Expired;
                out.push(offer);
            }
        }
        Ok(out)
    }

    /// Records a two-player challenge that is the rematch of `game`, in one transaction:
    /// the challenge as [`Store::insert_challenge`] writes it (so with the same time
    /// control, whichever it is), and the rematch link.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn insert_rematch(
        &self,
        new: &NewChallenge,
        game: GameId,
    ) -> Result<ChallengeId, StorageError> {
        let mut tx = self.begin_write().await?;
        let id = insert_challenge_in(&mut tx, new).await?;
        sqlx::query("INSERT INTO rematches (challenge_id, game_id) VALUES ($1, $2)")
            .bind(id.0)
            .bind(game.0)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The game a challenge is the rematch of, if it is one.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn rematch_of(&self, challenge: ChallengeId) -> Result<Option<GameId>, StorageError> {
        sqlx::query("SELECT game_id FROM rematches WHERE challenge_id = $1")
            .bind(challenge.0)
            .fetch_optional(&self.reader)
            .await?
            .map(|r| r.try_get(0).map(GameId))
            .transpose()
            .map_err(StorageError::from)
    }

    /// The rematch challenges of a game, oldest first.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn rematches_of_game(&self, game: GameId) -> Result<Vec<ChallengeId>, StorageError> {
        sqlx::query("SELECT challenge_id FROM rematches WHERE game_id = $1 ORDER BY challenge_id")
            .bind(game.0)
            .fetch_all(&self.reader)
            .await?
            .iter()
            .map(|r| r.try_get(0).map(ChallengeId))
            .collect::<Result<_, _>>()
            .map_err(StorageError::from)
    }
}
