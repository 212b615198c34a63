//! The tactical suite's positions and its checks, shared by the suite test
//! (`tests/engine_suite.rs`) and the measurement table (`crates/gomoku-core/examples/engine_suite_table.rs`), so
//! that what is measured is exactly what is tested.
//!
//! One position per line: `category | rule set | moves | accepted answers | how made`; blank
//! lines and lines starting with `#` are skipped. Every position is built by the rules core;
//! a line that does not build is a broken fixture and panics with its line number.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use gomoku_core::engine::{Engine, Level, Limits, SearchInfo, Source, Style};
use gomoku_core::rules::{Action, Game, Point, RuleSet, Status};

/// One suite position.
pub struct Position {
    /// Its line in the fixture file.
    pub line: usize,
    /// `win1`, `block`, …, `vct`, `vct-defence`.
    pub category: String,
    /// The rule set's spec, as written.
    pub spec: String,
    /// The position, built by the rules core.
    pub game: Game,
    /// The answers accepted.
    pub expected: Vec<Action>,
}

/// The positions of a fixture file's text.
pub fn parse(text: &str) -> Vec<Position> {
    let mut out = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = raw.split('|').map(str::trim).collect();
        assert_eq!(fields.len(), 5, "line {line}: five fields expected");
        let rules =
            RuleSet::from_spec(fields[1]).unwrap_or_else(|e| panic!("line {line}: rule set: {e}"));
        let mut game = Game::new(rules);
        for token in fields[2].split_whitespace() {
            game.apply_token(token)
                .unwrap_or_else(|e| panic!("line {line}: move {token} refused: {e}"));
        }
        assert_eq!(
            game.status(),
            Status::Ongoing,
            "line {line}: the game is over"
        );
        let expected: Vec<Action> = fields[3]
            .split_whitespace()
            .map(|t| {
                Action::parse(t, rules.size)
                    .unwrap_or_else(|e| panic!("line {line}: expected {t}: {e}"))
            })
            .collect();
        assert!(!expected.is_empty(), "line {line}: no expected answer");
        for &a in &expected {
            assert!(game.is_legal(a), "line {line}: expected {a} is not legal");
        }
        out.push(Position {
            line,
            category: fields[0].to_string(),
            spec: fields[1].to_string(),
            game,
            expected,
        });
    }
    out
}

/// The suite (`tests/fixtures/engine-suite.txt`).
pub fn suite() -> Vec<Position> {
    parse(include_str!("../fixtures/engine-suite.txt"))
}

/// Node caps standing in for each level's budget in tests (a small share of what the
/// levels search in their real budgets, see the README).
pub fn nodes_for(level: u8) -> u64 {
    match level {
        1 => 2_000,
        2 => 4_000,
        3 => 10_000,
        4 => 20_000,
        5 => 40_000,
        _ => 80_000,
    }
}

/// A node cap and no effective clock: the outcome does not depend on the machine.
pub fn capped(nodes: u64) -> Limits {
    Limits {
        time: Duration::from_secs(600),
        nodes,
    }
}

/// Whether a category needs threat search beyond continuous fours (levels 4-6 only).
pub fn threat_category(category: &str) -> bool {
    matches!(category, "vct" | "vct-defence")
}

/// One level's answer to one position.
pub struct Answer {
    /// The action chosen.
    pub action: Action,
    /// Whether it is accepted: one of the expected answers and, for a `vct` position, found
    /// by the threat search (a win proved, not a lucky guess).
    pub correct: bool,
    /// What the search did.
    pub info: SearchInfo,
    /// Wall-clock time of the decision.
    pub elapsed: Duration,
}

/// The answer of `level` (seeded by the position's line) to `p` within `limits`.
pub fn answer(p: &Position, level: u8, limits: Limits) -> Answer {
    let mut engine = Engine::seeded(Level::new(level).expect("level"), p.line as u64);
    let start = Instant::now();
    let action = engine.choose_with(&p.game, limits).expect("a move");
    let elapsed = start.elapsed();
    assert!(p.game.is_legal(action), "line {}: illegal {action}", p.line);
    let info = engine.last_info();
    let proved = match p.category.as_str() {
        "vct" => matches!(info.source, Source::Vct | Source::Vcf),
        _ => true,
    };
    Answer {
        action,
        correct: p.expected.contains(&action) && proved,
        info,
        elapsed,
    }
}

/// The empty point farthest from every stone: a move that changes nothing near the fight, so
/// the opponent's threats can be read as if the mover had passed.
pub fn far_point(game: &Game) -> Option<Point> {
    let stones = game.stones();
    game.points()
        .filter(|&p| game.stone_at(p).is_none() && game.is_legal(Action::Place(p)))
        .max_by_key(|&p| {
            let d = stones.iter().map(|s| p.distance(s.0)).min().unwrap_or(0);
            (d, std::cmp::Reverse((p.col(), p.row())))
        })
}

/// An engine searching threats at level 4's depths (the shallowest level that plays VCT).
pub fn level_4_threats() -> Engine {
    Engine::with_style(
        Level::MAX,
        Style::for_level(Level::new(4).expect("level")),
        1,
    )
}

/// The suite's threat check: whether the side to move wins by threats (continuous fours
/// first, then fours and open threes) at level 4's depths within 40,000 nodes. A defence
/// position must have one after a pass and none after any accepted answer.
pub fn wins_by_threats(game: &Game) -> bool {
    level_4_threats().threat_win(game, capped(40_000)).is_some()
}
