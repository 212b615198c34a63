//! The actions of the record language, and why one is refused.

use std::fmt;

use thiserror::Error;

use super::renju::ForbiddenShape;
use crate::rules::point::{Point, PointError};
use crate::rules::ruleset::Opening;

/// One thing a player does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Put a stone on a point (in play or during swap placement).
    Place(Point),
    /// The choosing seat takes this colour (swap, swap2).
    Take(u8),
    /// Swap2's third option: place two more stones and hand the choice back.
    PlaceTwo,
    /// Three or four players without teams: the colour to move leaves the game (it ran out of
    /// time). Its stones stay on the board and it is skipped in turn order from now on. Not
    /// offered by [`Game::legal_actions`]; refused when it would leave a single colour in play
    /// (the game is then over, which the caller records as it sees fit).
    Retire(u8),
}

impl Action {
    /// Parses a record token: a point (`K10`), `take:1`, `take:2` or `place`.
    ///
    /// # Errors
    /// [`PointError`] for text that is neither a choice nor a point of the board.
    pub fn parse(token: &str, size: u8) -> Result<Action, PointError> {
        let t = token.trim();
        if t.eq_ignore_ascii_case("place") {
            return Ok(Action::PlaceTwo);
        }
        if let Some(rest) = t
            .get(..7)
            .filter(|p| p.eq_ignore_ascii_case("retire:"))
            .map(|_| &t[7..])
        {
            return match rest {
                "1" => Ok(Action::Retire(1)),
                "2" => Ok(Action::Retire(2)),
                "3" => Ok(Action::Retire(3)),
                "4" => Ok(Action::Retire(4)),
                _ => Err(PointError::Malformed(token.to_string())),
            };
        }
        if let Some(rest) = t
            .get(..5)
            .filter(|p| p.eq_ignore_ascii_case("take:"))
            .map(|_| &t[5..])
        {
            return match rest {
                "1" => Ok(Action::Take(1)),
                "2" => Ok(Action::Take(2)),
                _ => Err(PointError::Malformed(token.to_string())),
            };
        }
        Point::parse(t, size).map(Action::Place)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place(p) => write!(f, "{p}"),
            Action::Take(c) => write!(f, "take:{c}"),
            Action::PlaceTwo => f.write_str("place"),
            Action::Retire(c) => write!(f, "retire:{c}"),
        }
    }
}

/// Why an action was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The point already holds a stone.
    #[error("{0} is already occupied")]
    Occupied(Point),
    /// The opening rule forbids this point now.
    #[error("{point} breaks the {opening} opening: {why}")]
    OpeningRule {
        /// The point tried.
        point: Point,
        /// The opening in force.
        opening: Opening,
        /// What the rule requires.
        why: &'static str,
    },
    /// The point would complete a bracketed group of the mover's own stones.
    #[error("{0} is forbidden: it would put your stones into a capture")]
    ForbiddenSelfCapture(Point),
    /// Renju: black may not play this point.
    #[error("{point} is forbidden for black: it would make {shape}")]
    ForbiddenRenju {
        /// The point tried.
        point: Point,
        /// The forbidden shape it would make.
        shape: ForbiddenShape,
    },
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The point lies outside this game's board.
    #[error("{0} is outside the board")]
    OffBoard(Point),
    /// A colour choice names a colour that cannot be chosen.
    #[error("colour {0} cannot be chosen (expected take:1 or take:2)")]
    NoSuchColour(u8),
    /// A colour choice was given when a stone was due, or the reverse.
    #[error("{0}")]
    WrongPhase(&'static str),
}

/// Why a record token was refused: it did not parse, or the game refused it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not a token of the record language, or not on the board.
    #[error(transparent)]
    Point(#[from] PointError),
    /// Parsed, but refused by the game.
    #[error(transparent)]
    Play(#[from] PlayError),
}

impl MoveError {
    /// The stable error code of the `replay` contract.
    pub fn code(&self) -> &'static str {
        match self {
            MoveError::Point(PointError::Malformed(_)) => "malformed",
            MoveError::Point(PointError::OutOfBounds { .. }) => "out_of_bounds",
            MoveError::Play(p) => p.code(),
        }
    }

    /// A finer reason for some codes (see [`PlayError::detail`]).
    pub fn detail(&self) -> Option<&'static str> {
        match self {
            MoveError::Play(p) => p.detail(),
            MoveError::Point(_) => None,
        }
    }
}

impl PlayError {
    /// The stable error code of the `replay` contract.
    pub fn code(&self) -> &'static str {
        match self {
            PlayError::Occupied(_) => "occupied",
            PlayError::OpeningRule { .. } => "opening_rule",
            PlayError::ForbiddenSelfCapture(_) => "forbidden_self_capture",
            PlayError::ForbiddenRenju { .. } => "forbidden_renju",
            PlayError::GameOver => "game_over",
            PlayError::OffBoard(_) => "out_of_bounds",
            PlayError::NoSuchColour(_) => "malformed",
            PlayError::WrongPhase(_) => "wrong_phase",
        }
    }

    /// A finer reason for some codes: the forbidden shape of `forbidden_renju`.
    pub fn detail(&self) -> Option<&'static str> {
        match self {
            PlayError::ForbiddenRenju { shape, .. } => Some(shape.name()),
            _ => None,
        }
    }
}
