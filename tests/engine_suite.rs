//! The engine's tactical suite (`tests/fixtures/engine-suite.txt`): every position is built and
//! checked with the rules core, and each level must solve its share of it.
//!
//! Levels run under node caps rather than their time budgets, so the outcome does not depend on
//! the machine's speed or load (the real budgets are measured by the arena, see the README).
//!
//! The threat-search positions (`vct`, `vct-defence`) were made by
//! `crates/gomoku-core/examples/engine_suite_gen.rs`; here each is checked again: a `vct` position has no
//! continuous-four win and levels 4-6 prove their answer with the threat search itself; in a
//! `vct-defence` position the opponent wins by threats if the mover passes (plays the point
//! farthest from the stones), and does not after any of the accepted answers, one of which
//! levels 4-6 must choose.
//!
//! The positions and the per-level check are shared with `crates/gomoku-core/examples/engine_suite_table.rs`
//! (`tests/engine_suite/positions.rs`), which prints nodes, times and verdicts per position.

#[path = "engine_suite/positions.rs"]
mod positions;

use std::collections::{BTreeMap, BTreeSet};

use gomoku_bot::rules::{Action, Preset, Status, WinReason};
use positions::{
    Position, answer, capped, far_point, level_4_threats, nodes_for, suite, threat_category,
    wins_by_threats,
};

#[test]
fn the_suite_is_large_varied_and_every_answer_does_what_its_category_says() {
    let suite = suite();
    assert!(suite.len() >= 100, "{} positions", suite.len());
    let mut per_category: BTreeMap<&str, usize> = BTreeMap::new();
    let mut presets = BTreeSet::new();
    // Threat positions per (category, preset): wins and defences in every game family.
    let mut threats: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for p in &suite {
        *per_category.entry(p.category.as_str()).or_default() += 1;
        presets.insert(p.game.rules().preset.name());
        if threat_category(&p.category) {
            *threats
                .entry((p.category.as_str(), p.game.rules().preset.name()))
                .or_default() += 1;
        }
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
        "vct",
        "vct-defence",
    ] {
        assert!(
            per_category.get(c).copied().unwrap_or(0) >= 4,
            "{c}: {per_category:?}"
        );
    }
    assert_eq!(
        presets.len(),
        Preset::ALL.len(),
        "every preset is represented: {presets:?}"
    );
    for category in ["vct", "vct-defence"] {
        for preset in [Preset::Gomoku, Preset::Pente, Preset::Keryo] {
            assert!(
                threats
                    .get(&(category, preset.name()))
                    .copied()
                    .unwrap_or(0)
                    >= 2,
                "{category} in {}: {threats:?}",
                preset.name()
            );
        }
    }
}

#[test]
fn threat_positions_are_what_their_category_says() {
    for p in suite() {
        match p.category.as_str() {
            "vct" => {
                // A win by threes, not one by continuous fours alone.
                let vcf = level_4_threats().vcf_wins(&p.game, capped(30_000));
                assert!(vcf.is_empty(), "line {}: a VCF wins already", p.line);
            }
            "vct-defence" => {
                let mut passed = p.game.clone();
                let far = far_point(&p.game).expect("an empty point");
                passed.apply(Action::Place(far)).expect("legal");
                assert!(
                    wins_by_threats(&passed),
                    "line {}: after a pass ({far}) the opponent has no threat win",
                    p.line
                );
                assert!(
                    !p.expected.contains(&Action::Place(far)),
                    "line {}: passing is no defence",
                    p.line
                );
                // Every accepted answer saves: the same search finds no threat win after it.
                for &a in &p.expected {
                    let mut saved = p.game.clone();
                    saved.apply(a).expect("legal");
                    assert!(
                        !wins_by_threats(&saved),
                        "line {}: after {a} the opponent still wins by threats",
                        p.line
                    );
                }
            }
            _ => {}
        }
    }
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
        let a = answer(p, level, capped(nodes_for(level)));
        if a.correct {
            solved += 1;
        } else {
            missed.push(format!(
                "line {} ({}): {} ({:?})",
                p.line, p.category, a.action, a.info.source
            ));
        }
    }
    (solved as f64 / counted as f64, missed)
}

fn level_solves_its_share(level: u8) {
    let suite = suite();
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
