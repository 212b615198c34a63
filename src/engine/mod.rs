//! The computer opponent: players that choose an action for the seat to act.
//!
//! Everything here is synchronous and CPU-bound: callers in async code run it on a blocking
//! pool of their own (see the Discord front), never on the runtime's threads.

pub mod pbrain;
mod simple;

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use crate::rules::{Action, Game, RuleSet};

pub mod arena;
mod board;
mod openings;
mod patterns;
mod search;
mod tt;

pub use search::{Engine, Limits, SearchInfo, Source, Style, WIN};

pub use simple::SimplePlayer;

/// How strong the computer plays: 1 (a beginner who makes human mistakes) to 5 (the
/// strongest the engine can be within its budget).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(5);

    /// The level `n`, if it is one (1..=5).
    pub fn new(n: u8) -> Option<Level> {
        (1..=5).contains(&n).then_some(Level(n))
    }

    /// Its number, 1..=5.
    pub fn get(self) -> u8 {
        self.0
    }

    /// The most time this level thinks about one move (the strongest: 2 s on one core).
    pub fn budget(self) -> Duration {
        match self.0 {
            1 => Duration::from_millis(100),
            2 => Duration::from_millis(250),
            3 => Duration::from_millis(500),
            4 => Duration::from_millis(1_000),
            _ => Duration::from_millis(2_000),
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Why a text is not a level.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a level: use a whole number from 1 to 5")]
pub struct BadLevel(pub String);

impl FromStr for Level {
    type Err = BadLevel;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        s.trim()
            .parse::<u8>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| BadLevel(s.to_string()))
    }
}

/// A computer player: given a position, the action it takes for the seat to act.
pub trait Player: Send {
    /// Chooses a legal action for the seat to act in `game`, thinking at most `budget` (the
    /// player's own clock enforces it). `None` only when the game is over.
    fn choose(&mut self, game: &Game, budget: Duration) -> Option<Action>;

    /// Forgets what it learned about earlier positions (a new game starts).
    fn reset(&mut self) {}

    /// Positions the last [`Player::choose`] visited; 0 for a player that does not search.
    fn nodes(&self) -> u64 {
        0
    }
}

/// The player for `rules` at `level`: the search engine for two players, the simple player
/// (which knows nothing of levels) for 3-4.
pub fn player_for(rules: &RuleSet, level: Level) -> Box<dyn Player> {
    if rules.players > 2 {
        return Box::new(SimplePlayer::new());
    }
    Box::new(Engine::new(level))
}

#[cfg(test)]
mod renju_tests;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_from_one_to_five_only() {
        assert_eq!("3".parse::<Level>(), Ok(Level(3)));
        assert_eq!(" 5 ".parse::<Level>(), Ok(Level::MAX));
        for bad in ["0", "6", "-1", "x", ""] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
        assert!(Level::MAX.budget() <= Duration::from_secs(2));
    }
}
