//! The engine's tactical suite (`tests/fixtures/engine-suite.txt`): every position is built and
//! checked with the rules core, and each level must solve its share of it.
//!
//! Levels run under node caps rather than their time budgets, so the outcome does not depend on
//! the machine's speed or load (the real budgets are measured by the arena, see the README).

use std::collections::BTreeMap;
use std::time::Duration;

use gomoku_bot::engine::{Engine, Level, Limits};
use gomoku_bot::rules::{Action, Game, RuleSet, Status, WinReason};

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
    assert!(suite.len() >= 40, "{} positions", suite.len());
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
                "block" | "block-three" | "capture-defence" | "vcf" => {
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

/// Node caps standing in for each level's budget in tests.
fn nodes_for(level: u8) -> u64 {
    match level {
        1 => 2_000,
        2 => 4_000,
        3 => 10_000,
        4 => 20_000,
        _ => 40_000,
    }
}

/// Share of the suite each level must solve.
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
    let mut missed = Vec::new();
    for p in suite {
        let mut engine = Engine::seeded(Level::new(level).expect("level"), p.line as u64);
        let limits = Limits {
            time: Duration::from_secs(600),
            nodes: nodes_for(level),
        };
        let a = engine.choose_with(&p.game, limits).expect("a move");
        assert!(p.game.is_legal(a), "line {}: illegal {a}", p.line);
        if p.expected.contains(&a) {
            solved += 1;
        } else {
            missed.push(format!("line {} ({}): {a}", p.line, p.category));
        }
    }
    (solved as f64 / suite.len() as f64, missed)
}

#[test]
fn each_level_solves_its_share_of_the_suite() {
    let suite = load();
    let mut rates = Vec::new();
    for level in 1..=5u8 {
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
        rates.push(rate);
    }
    assert!(
        rates[4] >= rates[0],
        "the strongest level solves at least what the weakest does"
    );
}
