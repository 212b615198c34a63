//! The engine's tactical suite (`tests/fixtures/engine-suite.txt`): every position is built and
//! checked with the rules core, and each level must solve its share of it.
//!
//! Levels run under node caps rather than their time budgets, so the outcome does not depend on
//! the machine's speed or load (the real budgets are measured by the arena, see the README).
//!
//! The threat-search positions (`vct`, `vct-defence`) were made by
//! `examples/engine_suite_gen.rs`; here each is checked again: a `vct` position has no
//! continuous-four win and levels 4-6 prove their answer with the threat search itself; in a
//! `vct-defence` position the opponent wins by threats if the mover passes (plays the point
//! farthest from the stones), and does not after the answer levels 4-6 choose.

use std::collections::BTreeMap;
use std::time::Duration;

use gomoku_bot::engine::{Engine, Level, Limits, Source, Style};
use gomoku_bot::rules::{Action, Game, Point, RuleSet, Status, WinReason};

/// One suite position.
struct Position {
    line: usize,
    category: String,
    game: Game,
    expected: Vec<Action>,
}

fn load() -> Vec<Position> {
    let text = include_str!("fixtures/engine-suite.txt");
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
            game,
            expected,
        });
    }
    out
}

#[test]
fn the_suite_is_large_varied_and_every_answer_does_what_its_category_says() {
    let suite = load();
    assert!(suite.len() >= 50, "{} positions", suite.len());
    let mut per_category: BTreeMap<&str, usize> = BTreeMap::new();
    let mut presets = std::collections::BTreeSet::new();
    for p in &suite {
        *per_category.entry(p.category.as_str()).or_default() += 1;
        presets.insert(p.game.rules().preset.name());
        let mover = p.game.to_move();
        for &a in &p.expected {
            let mut g = p.game.clone();
            let report = g.apply(a).expect("legal");
            let won_alone = matches!(report.status, Status::Won { winners, .. }
                if winners.contains(mover) && winners.len() == 1);
            match p.category.as_str() {
                "win1" => assert!(won_alone, "line {}: {a} does not win", p.line),
                "capture-win" => assert!(
                    matches!(
                        report.status,
                        Status::Won {
                            reason: WinReason::Captures,
                            ..
                        }
                    ) && won_alone,
                    "line {}: {a} does not win by captures",
                    p.line
                ),
                "extra-time" => {
                    let pending = p.game.threatened_line().expect("a pending row");
                    assert_ne!(pending.colour, mover, "line {}", p.line);
                    assert_eq!(report.status, Status::Ongoing, "line {}: {a}", p.line);
                    assert!(g.threatened_line().is_none(), "line {}: {a}", p.line);
                    assert!(!report.removed.is_empty(), "line {}: {a} captures", p.line);
                }
                "block" | "block-three" | "capture-defence" | "vcf" | "vct" | "vct-defence" => {
                    assert_eq!(report.status, Status::Ongoing, "line {}: {a}", p.line)
                }
                other => panic!("line {}: unknown category {other}", p.line),
            }
        }
    }
    for c in [
        "win1",
        "block",
        "block-three",
        "capture-win",
        "capture-defence",
        "extra-time",
        "vcf",
    ] {
        assert!(
            per_category.get(c).copied().unwrap_or(0) >= 4,
            "{c}: {per_category:?}"
        );
    }
    assert_eq!(presets.len(), 4, "every preset is represented");
}

/// The empty point farthest from every stone: a move that changes nothing near the fight, so
/// the opponent's threats can be read as if the mover had passed.
fn far_point(game: &Game) -> Option<Point> {
    let stones = game.stones();
    game.points()
        .filter(|&p| game.stone_at(p).is_none() && game.is_legal(Action::Place(p)))
        .max_by_key(|&p| {
            let d = stones.iter().map(|s| p.distance(s.0)).min().unwrap_or(0);
            (d, std::cmp::Reverse((p.col(), p.row())))
        })
}

/// The threat searches at level 4's depths under a node cap: (VCF wins, VCT wins) for the
/// side to move.
fn threat_wins(game: &Game, nodes: u64) -> (Vec<Action>, Vec<Action>) {
    let style = Style::for_level(Level::new(4).expect("level"));
    let mut e = Engine::with_style(Level::MAX, style, 1);
    let limits = Limits {
        time: Duration::from_secs(600),
        nodes,
    };
    (e.vcf_wins(game, limits), e.vct_wins(game, limits))
}

#[test]
fn threat_positions_are_what_their_category_says() {
    for p in load() {
        match p.category.as_str() {
            "vct" => {
                let (vcf, _) = threat_wins(&p.game, 30_000);
                assert!(vcf.is_empty(), "line {}: a VCF wins already", p.line);
            }
            "vct-defence" => {
                let mut passed = p.game.clone();
                let far = far_point(&p.game).expect("an empty point");
                passed.apply(Action::Place(far)).expect("legal");
                let (vcf, vct) = threat_wins(&passed, 40_000);
                assert!(
                    !vcf.is_empty() || !vct.is_empty(),
                    "line {}: after a pass ({far}) the opponent has no threat win",
                    p.line
                );
                assert!(
                    !p.expected.contains(&Action::Place(far)),
                    "line {}: passing is no defence",
                    p.line
                );
            }
            _ => {}
        }
    }
}

/// Node caps standing in for each level's budget in tests (a small share of what the
/// levels search in their real budgets, see the README).
fn nodes_for(level: u8) -> u64 {
    match level {
        1 => 2_000,
        2 => 4_000,
        3 => 10_000,
        4 => 20_000,
        5 => 40_000,
        _ => 80_000,
    }
}

/// Whether a category needs threat search beyond continuous fours (levels 4-6 only).
fn threat_category(category: &str) -> bool {
    matches!(category, "vct" | "vct-defence")
}

/// Share of the suite each level must solve: levels 1-3 over the positions without threat
/// search, levels 4-6 all of them.
fn required_share(level: u8) -> f64 {
    match level {
        1 => 0.85,
        2 => 0.90,
        3 => 0.95,
        _ => 1.0,
    }
}

fn solve_rate(level: u8, suite: &[Position]) -> (f64, Vec<String>) {
    let mut solved = 0;
    let mut counted = 0;
    let mut missed = Vec::new();
    for p in suite {
        if level <= 3 && threat_category(&p.category) {
            continue;
        }
        counted += 1;
        let mut engine = Engine::seeded(Level::new(level).expect("level"), p.line as u64);
        let limits = Limits {
            time: Duration::from_secs(600),
            nodes: nodes_for(level),
        };
        let a = engine.choose_with(&p.game, limits).expect("a move");
        assert!(p.game.is_legal(a), "line {}: illegal {a}", p.line);
        let proved = match p.category.as_str() {
            // The win must come from the threat search, not from a lucky guess.
            "vct" => matches!(engine.last_info().source, Source::Vct | Source::Vcf),
            _ => true,
        };
        if p.expected.contains(&a) && proved {
            solved += 1;
        } else {
            missed.push(format!(
                "line {} ({}): {a} ({:?})",
                p.line,
                p.category,
                engine.last_info().source
            ));
        }
    }
    (solved as f64 / counted as f64, missed)
}

fn level_solves_its_share(level: u8) {
    let suite = load();
    let (rate, missed) = solve_rate(level, &suite);
    println!(
        "level {level}: {:.0}% solved, missed {missed:?}",
        rate * 100.0
    );
    assert!(
        rate + 1e-9 >= required_share(level),
        "level {level} solved {:.0}%, needs {:.0}%; missed {missed:?}",
        rate * 100.0,
        required_share(level) * 100.0
    );
}

#[test]
fn level_1_solves_its_share_of_the_suite() {
    level_solves_its_share(1);
}

#[test]
fn level_2_solves_its_share_of_the_suite() {
    level_solves_its_share(2);
}

#[test]
fn level_3_solves_its_share_of_the_suite() {
    level_solves_its_share(3);
}

#[test]
fn level_4_solves_the_whole_suite() {
    level_solves_its_share(4);
}

#[test]
fn level_5_solves_the_whole_suite() {
    level_solves_its_share(5);
}

#[test]
fn level_6_solves_the_whole_suite() {
    level_solves_its_share(6);
}
