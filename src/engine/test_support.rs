//! What the engine's unit tests share: a game from its moves, a budget of nodes.

use std::time::Duration;

use super::{Limits, Style};
use crate::rules::{Game, RuleSet};

/// The game of rule set `spec` after `moves` (as players type them, separated by spaces).
/// Panics, naming the move, on a spec or a move the rules refuse: a test's position is wrong.
pub(crate) fn game(spec: &str, moves: &str) -> Game {
    let rules = RuleSet::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"));
    let mut g = Game::new(rules);
    for m in moves.split_whitespace() {
        g.apply_token(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    g
}

/// A freestyle Gomoku game (15×15) after `moves`.
pub(crate) fn gomoku(moves: &str) -> Game {
    game("gomoku", moves)
}

/// A budget of `nodes` nodes, with ten minutes of time so that the clock never decides
/// (the tests count nodes; the machines are shared and slow).
pub(crate) fn node_budget(nodes: u64) -> Limits {
    Limits {
        time: Duration::from_secs(600),
        nodes,
    }
}

/// Checks that `style` refuses each of `bad` for the setting `key`, and that a refusal changes
/// nothing.
pub(crate) fn refuses(style: &mut Style, key: &str, bad: &[&str]) {
    let before = *style;
    for b in bad {
        assert!(style.set(key, b).is_err(), "{key} = {b}");
    }
    assert_eq!(*style, before, "a refused value changes nothing");
}

/// Checks that no level's style has the setting `key` on (`on` reads it from a style).
pub(crate) fn off_at_every_level(key: &str, on: impl Fn(&Style) -> bool) {
    for l in 1..=super::Level::MAX.get() {
        let level = super::Level::new(l).expect("a level");
        assert!(!on(&Style::for_level(level)), "{key} at level {l}");
    }
}
