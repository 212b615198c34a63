//! The rules of Gomoku and Pente: pure game logic, no IO, no async.
//!
//! A [`Game`] is a value made of a [`RuleSet`], the record of [`Action`]s, and the position
//! they lead to. Every refusal is a typed error and leaves the game unchanged.

mod game;
mod point;
pub mod record;
mod ruleset;

pub use game::{
    Action, Candidates, Colours, ForbiddenShape, Game, Line, MAX_CANDIDATES, MoveError, MoveReport,
    OfferProblem, Phase, PlayError, Removed, Status, Symmetry, TARAGUCHI_OFFERS, WinReason,
};
pub use point::{MAX_SIZE, Point, PointError, column_letter};
pub use ruleset::{
    Captures, Conflict, OPTION_KEYS, Opening, Preset, RuleSet, RulesError, SelfCapture,
};

#[cfg(test)]
mod proptests;
#[cfg(test)]
mod renju_tests;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tournament_tests;
