//! Why the service refused or failed: one enum the front localises variant by variant.

use thiserror::Error;

use crate::rules::{PlayError, PointError};
use crate::store::{ChallengeStatus, GameId, StorageError};

/// Why an action was refused or failed. Nothing changed when one of these is returned.
///
/// The `Display` texts are for logs; users should see the front's localised messages.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum ServiceError {
    /// No game with that number in this guild.
    #[error("no such game")]
    NoSuchGame,
    /// No challenge with that number in this guild.
    #[error("no such challenge")]
    NoSuchChallenge,
    /// Another seat must act now.
    #[error("not your turn")]
    NotYourTurn,
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The rules refuse the action, with the rules core's precise reason.
    #[error("illegal: {0}")]
    Illegal(PlayError),
    /// The text is not a point of this board (nor `take:1`, `take:2`, `place`).
    #[error("bad point: {0}")]
    BadPoint(PointError),
    /// The position is no longer the one the player saw (a stale button, or another
    /// process moved first): look again.
    #[error("the position changed")]
    PositionChanged,
    /// The user does not play in this game.
    #[error("not a participant")]
    NotAParticipant,
    /// No game was named and the user has several active games in this channel.
    #[error("ambiguous: name one of {0:?}")]
    Ambiguous(Vec<GameId>),
    /// No game was named and the user has no active game in this channel.
    #[error("no active game here")]
    NoActiveGame,
    /// Challenging (or accepting a challenge from) yourself.
    #[error("cannot challenge yourself")]
    ChallengeSelf,
    /// A bot account cannot play.
    #[error("cannot challenge a bot")]
    ChallengeBot,
    /// The two members already have this many open games (and challenges) together.
    #[error("too many open games between these players (max {max})")]
    TooManyOpenGames {
        /// The configured maximum.
        max: u32,
    },
    /// The challenge or lobby ran out of time.
    #[error("the challenge expired")]
    ChallengeExpired,
    /// The challenge or lobby was already accepted, declined or cancelled.
    #[error("the challenge is {0:?}")]
    ChallengeClosed(ChallengeStatus),
    /// The challenge names someone else (or is open, and cannot be declined).
    #[error("this challenge is not for you")]
    NotChallenged,
    /// Only the challenger may cancel.
    #[error("not your challenge")]
    NotChallenger,
    /// The lobby has no free seat.
    #[error("the lobby is full")]
    LobbyFull,
    /// The user is already in this lobby.
    #[error("already joined")]
    AlreadyJoined,
    /// The user is not in this lobby.
    #[error("not in this lobby")]
    NotJoined,
    /// A lobby (3-4 players) is open to all: it cannot name an opponent.
    #[error("a lobby cannot name an opponent")]
    OpponentInLobby,
    /// Days per move other than those of [`crate::store::TimeControl::ALLOWED_DAYS`].
    #[error("bad time control: {0} days per move")]
    BadTimeControl(u16),
    /// A take-back, draw offer or rematch was refused.
    #[error(transparent)]
    Offer(crate::service::OfferError),
    /// Minutes per move other than those of [`crate::store::TimeControl::ALLOWED_MINUTES`].
    #[error("bad time control: {0} minutes per move")]
    BadMinutesPerMove(u16),
    /// A review was refused (the game is in progress, or has 3-4 players).
    #[error(transparent)]
    Review(crate::service::review::ReviewError),
    /// The database failed; nothing acknowledged is lost and this action did not happen.
    #[error(transparent)]
    Storage(#[from] StorageError),
}
