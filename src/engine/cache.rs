//! Engines kept between the moves of a game, so the transposition table of one move serves
//! the next (the bot builds a player per move; the arena and `pbrain` keep theirs anyway).
//!
//! A process keeps the engines of its [`KEPT_GAMES`] most recently played games, keyed by the
//! caller's game id and the level. Each engine holds its own table (a few megabytes), which is
//! why the number is bounded rather than one per game in play. The table is keyed by the full
//! position (stones, side to move, captures), so an engine that sat out while another process
//! played some of the game's moves is still right, only colder.

use std::sync::Mutex;

use super::{Engine, Level, Player, SearchInfo, SimplePlayer};
use crate::rules::{Action, Game, RuleSet};

/// Games whose engines a process keeps between moves (least recently used dropped first).
pub const KEPT_GAMES: usize = 8;

/// Engines not thinking right now, the most recently used last.
static KEPT: Mutex<Vec<(u64, Level, Engine)>> = Mutex::new(Vec::new());

/// The player for move after move of game `game` (any id the caller uses for one game):
/// the engine kept from its last move when there is one, else a new one. Returned to the keep
/// when dropped. 3-4 player games get the simple player, as [`super::player_for`].
pub fn player_for_game(game: u64, rules: &RuleSet, level: Level) -> Box<dyn Player> {
    if rules.players > 2 {
        return Box::new(SimplePlayer::new());
    }
    Box::new(KeptEngine {
        game,
        level,
        engine: Some(take(game, level).unwrap_or_else(|| Engine::new(level))),
    })
}

/// Takes the kept engine of `game` at `level` out of the keep (so two moves of one game
/// thinking at once never share it).
fn take(game: u64, level: Level) -> Option<Engine> {
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    let k = kept.iter().position(|e| e.0 == game && e.1 == level)?;
    Some(kept.remove(k).2)
}

/// Puts an engine back as the most recently used, dropping the least recently used beyond
/// [`KEPT_GAMES`].
fn give_back(game: u64, level: Level, engine: Engine) {
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    kept.retain(|e| !(e.0 == game && e.1 == level));
    kept.push((game, level, engine));
    while kept.len() > KEPT_GAMES {
        kept.remove(0);
    }
}

/// An engine on loan from the keep.
struct KeptEngine {
    game: u64,
    level: Level,
    engine: Option<Engine>,
}

impl Player for KeptEngine {
    fn choose(&mut self, game: &Game, budget: std::time::Duration) -> Option<Action> {
        self.engine.as_mut()?.choose(game, budget)
    }

    fn reset(&mut self) {
        if let Some(e) = self.engine.as_mut() {
            e.reset();
        }
    }

    fn nodes(&self) -> u64 {
        self.engine.as_ref().map_or(0, |e| e.nodes())
    }

    fn last_info(&self) -> Option<SearchInfo> {
        self.engine.as_ref().map(|e| e.last_info())
    }
}

impl Drop for KeptEngine {
    fn drop(&mut self) {
        if let Some(e) = self.engine.take() {
            give_back(self.game, self.level, e);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// The keep is one per process: these tests take turns with it.
    static SERIAL: Mutex<()> = Mutex::new(());
    /// Ids far from any other test's.
    const BASE: u64 = 0xC0FF_EE00_0000;

    fn kept(game: u64) -> bool {
        KEPT.lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .any(|e| e.0 == game)
    }

    #[test]
    fn the_next_move_of_a_game_gets_the_engine_of_the_last() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let rules = RuleSet::from_spec("gomoku").expect("rules");
        let mut g = Game::new(rules);
        for t in ["H8", "J9", "H9", "H10", "J8"] {
            g.apply_token(t).expect("legal");
        }
        let level = Level::new(3).expect("level");
        let mut p = player_for_game(BASE + 1, &rules, level);
        let a = p.choose(&g, Duration::from_millis(100)).expect("a move");
        assert!(g.is_legal(a));
        let info = p.last_info().expect("an engine");
        assert!(info.nodes > 0);
        drop(p);
        assert!(kept(BASE + 1), "given back after the move");
        // The same engine (its table with it): what it did last is still there.
        let p = player_for_game(BASE + 1, &rules, level);
        assert!(!kept(BASE + 1), "on loan while it thinks");
        assert_eq!(p.last_info(), Some(info));
        drop(p);
        // Another level in the same game is another engine.
        let other = player_for_game(BASE + 1, &rules, Level::new(4).expect("level"));
        assert_eq!(other.last_info(), Some(SearchInfo::default()));
    }

    #[test]
    fn only_the_most_recent_games_are_kept() {
        let _turn = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let rules = RuleSet::from_spec("gomoku").expect("rules");
        let level = Level::new(1).expect("level");
        for k in 0..(KEPT_GAMES as u64 + 3) {
            drop(player_for_game(BASE + 100 + k, &rules, level));
        }
        let len = KEPT.lock().unwrap_or_else(|e| e.into_inner()).len();
        assert!(len <= KEPT_GAMES, "{len}");
        assert!(
            kept(BASE + 100 + KEPT_GAMES as u64 + 2),
            "the newest is kept"
        );
        assert!(!kept(BASE + 100), "the oldest is dropped");
        let three = RuleSet::from_spec("pente players=3").expect("rules");
        assert!(
            player_for_game(BASE + 200, &three, level)
                .last_info()
                .is_none()
        );
    }
}
