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
    /// Renju openings: the deciding seat exchanges colours with the other seat.
    Swap,
    /// Renju openings: the deciding seat keeps its colour.
    Keep,
    /// Soosõrv-8: white declares how many fifth moves (1 to 8) black will offer.
    Declare(u8),
    /// Renju openings: black offers candidate fifth moves (10 in Taraguchi-10, the declared
    /// number in Soosõrv-8), no two symmetric to one another.
    Offer(Candidates),
    /// Renju openings: white chooses one of the offered fifth moves; it is played as black's
    /// fifth stone.
    Choose(Point),
}

/// The most candidate fifth moves any opening offers (Taraguchi-10).
pub const MAX_CANDIDATES: usize = 10;

/// Candidate fifth moves, in the order they were offered (a small copyable list).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Candidates {
    // Unused slots always hold the same filler, so the derived comparisons see the list only.
    points: [Point; MAX_CANDIDATES],
    len: u8,
}

impl Candidates {
    /// The candidates, if there are 1 to [`MAX_CANDIDATES`] of them.
    pub fn new(points: &[Point]) -> Option<Candidates> {
        if points.is_empty() || points.len() > MAX_CANDIDATES {
            return None;
        }
        let filler = Point::new(0, 0, 1).expect("A1 is on every board");
        let mut out = Candidates {
            points: [filler; MAX_CANDIDATES],
            len: points.len() as u8,
        };
        out.points[..points.len()].copy_from_slice(points);
        Some(out)
    }
    /// The points, in offer order.
    pub fn as_slice(&self) -> &[Point] {
        &self.points[..usize::from(self.len)]
    }
    /// How many there are.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }
    /// Always false: a list of candidates is never empty.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
    /// The 1-based number of a point in the list, as shown on pictures and buttons.
    pub fn number_of(&self, p: Point) -> Option<usize> {
        self.as_slice().iter().position(|&q| q == p).map(|k| k + 1)
    }
}

/// `prefix` case-insensitively at the start of `t`: the rest.
fn strip_prefix_ci<'a>(t: &'a str, prefix: &str) -> Option<&'a str> {
    t.get(..prefix.len())
        .filter(|p| p.eq_ignore_ascii_case(prefix))
        .map(|_| &t[prefix.len()..])
}

impl Action {
    /// Parses a record token: a point (`K10`), `take:1`, `take:2`, `place`, `retire:N`, and
    /// the Renju openings' `swap`, `keep`, `declare:N` (1-8), `offer:H8,J9,...` (1-10 points)
    /// and `choose:H8`.
    ///
    /// # Errors
    /// [`PointError`] for text that is neither a choice nor a point of the board.
    pub fn parse(token: &str, size: u8) -> Result<Action, PointError> {
        let t = token.trim();
        let malformed = || PointError::Malformed(token.to_string());
        if t.eq_ignore_ascii_case("place") {
            return Ok(Action::PlaceTwo);
        }
        if t.eq_ignore_ascii_case("swap") {
            return Ok(Action::Swap);
        }
        if t.eq_ignore_ascii_case("keep") {
            return Ok(Action::Keep);
        }
        if let Some(rest) = strip_prefix_ci(t, "declare:") {
            return match rest.trim().parse::<u8>() {
                Ok(n @ 1..=8) if !rest.trim().starts_with('+') => Ok(Action::Declare(n)),
                _ => Err(malformed()),
            };
        }
        if let Some(rest) = strip_prefix_ci(t, "choose:") {
            return Point::parse(rest, size).map(Action::Choose);
        }
        if let Some(rest) = strip_prefix_ci(t, "offer:") {
            let points = rest
                .split(',')
                .map(|p| Point::parse(p, size))
                .collect::<Result<Vec<Point>, PointError>>()?;
            return Candidates::new(&points)
                .map(Action::Offer)
                .ok_or_else(malformed);
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
            Action::Swap => f.write_str("swap"),
            Action::Keep => f.write_str("keep"),
            Action::Declare(n) => write!(f, "declare:{n}"),
            Action::Offer(c) => {
                f.write_str("offer:")?;
                for (k, p) in c.as_slice().iter().enumerate() {
                    if k > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
            Action::Choose(p) => write!(f, "choose:{p}"),
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
    /// Renju openings: a stone outside the area the opening allows for this move.
    #[error(
        "{point} is outside the opening area: move {move_number} goes within the central {side}x{side} square"
    )]
    OutsideArea {
        /// The point tried.
        point: Point,
        /// The number of the move (1 for the first stone).
        move_number: u8,
        /// The side of the allowed square (1 = the centre point only).
        side: u8,
    },
    /// Renju openings: an offer of fifth moves the rule does not accept.
    #[error("{0}")]
    BadOffer(OfferProblem),
    /// Renju openings: the chosen fifth move is not one of those offered.
    #[error("{0} was not offered")]
    NotOffered(Point),
}

/// What is wrong with an offer of fifth moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum OfferProblem {
    /// Not as many candidates as the opening (or the declaration) asks for.
    #[error("the offer must have exactly {expected} fifth moves, not {given}")]
    Count {
        /// The number required.
        expected: u8,
        /// The number given.
        given: u8,
    },
    /// The same point twice.
    #[error("{0} is offered twice")]
    Repeated(Point),
    /// Two candidates that a symmetry of the position maps onto each other.
    #[error("{0} and {1} are symmetric: they make the same position")]
    Symmetric(Point, Point),
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
            PlayError::OutsideArea { .. } | PlayError::BadOffer(_) | PlayError::NotOffered(_) => {
                "opening_rule"
            }
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
