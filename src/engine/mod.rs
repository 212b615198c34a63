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
pub mod book;
mod cache;
mod data_lines;
mod fitted;
mod lines;
mod openings;
mod ordering;
mod patterns;
mod search;
mod tt;
pub mod tuning;
mod windows;

pub use search::{Engine, Limits, SearchInfo, Source, Style, WIN};

pub use cache::{KEPT_GAMES, player_for_game};
pub use simple::SimplePlayer;

/// How strong the computer plays: 1 (a beginner who makes human mistakes) to 5 (the
/// strongest the engine can be within 2 s), and 6, the correspondence level: level 5's
/// engine given up to 10 s a move (the service may set another budget, see `config.toml`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level (correspondence).
    pub const MAX: Level = Level(6);
    /// The strongest level that answers within 2 s.
    pub const LIVE_MAX: Level = Level(5);

    /// The level `n`, if it is one (1..=6).
    pub fn new(n: u8) -> Option<Level> {
        (1..=6).contains(&n).then_some(Level(n))
    }

    /// Its number, 1..=6.
    pub fn get(self) -> u8 {
        self.0
    }

    /// The most time this level thinks about one move by default (level 5: 2 s on one core;
    /// level 6: 10 s, which the bot's configuration may change).
    pub fn budget(self) -> Duration {
        match self.0 {
            1 => Duration::from_millis(100),
            2 => Duration::from_millis(250),
            3 => Duration::from_millis(500),
            4 => Duration::from_millis(1_000),
            5 => Duration::from_millis(2_000),
            _ => Duration::from_millis(10_000),
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
#[error("`{0}` is not a level: use a whole number from 1 to 6")]
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

    /// What the last search did, for a player that searches (the arena's statistics).
    fn last_info(&self) -> Option<SearchInfo> {
        None
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
pub(crate) mod test_support;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_from_one_to_six_only() {
        assert_eq!("3".parse::<Level>(), Ok(Level(3)));
        assert_eq!(" 5 ".parse::<Level>(), Ok(Level::LIVE_MAX));
        assert_eq!("6".parse::<Level>(), Ok(Level::MAX));
        for bad in ["0", "7", "-1", "x", ""] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
        assert!(Level::LIVE_MAX.budget() <= Duration::from_secs(2));
        assert_eq!(Level::MAX.budget(), Duration::from_secs(10));
        for n in 1..6 {
            let (a, b) = (Level(n), Level(n + 1));
            assert!(a.budget() < b.budget(), "level {n}");
        }
    }
}
