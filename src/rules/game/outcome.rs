//! What a move leads to: winners, statuses, removed stones, winning rows.

use super::Action;
use crate::rules::point::Point;

/// A set of colours (1..=4), used for winners.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Colours(pub(super) u8);

impl Colours {
    /// No colour.
    pub const EMPTY: Colours = Colours(0);

    /// The set holding one colour.
    pub fn one(colour: u8) -> Colours {
        Colours(1 << colour)
    }
    /// Adds a colour.
    pub fn insert(&mut self, colour: u8) {
        self.0 |= 1 << colour;
    }
    /// Whether the colour is in the set.
    pub fn contains(self, colour: u8) -> bool {
        self.0 & (1 << colour) != 0
    }
    /// Whether no colour is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The colours in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (1..=4).filter(move |&c| self.contains(c))
    }
    /// How many colours are in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
}

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// A row of stones.
    Line,
    /// Enough captured stones.
    Captures,
}

impl WinReason {
    /// The name used in `replay` output.
    pub fn name(self) -> &'static str {
        match self {
            WinReason::Line => "line",
            WinReason::Captures => "captures",
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Not over.
    Ongoing,
    /// Over, won by these colours (several when the victory is shared).
    Won {
        /// The winning colours (a team's win lists both members).
        winners: Colours,
        /// What won (captures when any winner won by captures).
        reason: WinReason,
    },
    /// Over, the board is full (or the player to move has no legal point) and nobody won.
    Draw,
}

/// A stone that left the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Removed {
    /// Where it stood.
    pub point: Point,
    /// Its colour.
    pub colour: u8,
    /// Who scored it: `None` when it was disputed by several players or was a teammate's.
    pub credited_to: Option<u8>,
}

/// What an applied action did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// The action.
    pub action: Action,
    /// The colour of the stone placed, if a stone was placed.
    pub colour: Option<u8>,
    /// The stones removed by captures (the placed stone too, after a self-capture).
    pub removed: Vec<Removed>,
    /// The status after the action.
    pub status: Status,
    /// Whether the move made a winning row that now waits for the extra-time capture.
    pub extra_time: bool,
}

/// A row of stones of one colour, from `start` to `end` inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// One end.
    pub start: Point,
    /// The other end.
    pub end: Point,
    /// The colour of its stones.
    pub colour: u8,
}
