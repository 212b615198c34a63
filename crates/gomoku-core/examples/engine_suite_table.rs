//! A table of the engine on its tactical suite: for each position and level, the move, whether
//! the suite accepts it, how it was found, the nodes searched, the time taken and the nodes per
//! second; for each `vct` position, the time the threat search takes to prove its first win.
//!
//! ```text
//! cargo run --release -p gomoku-core --example engine_suite_table -- [--budget] [--levels 4,5,6] [--only vct,vct-defence] [FILE...]
//! ```
//!
//! By default each level runs under the suite's node cap (as `tests/engine_suite.rs` does, so
//! the verdicts are the test's); with `--budget` under its real time budget instead (level 5:
//! 2 s, level 6: 10 s), which measures how long each level takes to answer. FILE defaults to
//! `tests/fixtures/engine-suite.txt`. A summary per level ends the table.

#[path = "../../../tests/engine_suite/positions.rs"]
mod positions;

use std::time::{Duration, Instant};

use gomoku_core::engine::{Engine, Level, Limits, Style};
use positions::{Position, answer, capped, nodes_for, parse};

#[derive(Default)]
struct Total {
    positions: usize,
    solved: usize,
    nodes: u64,
    time: Duration,
}

fn main() {
    let mut budget = false;
    let mut levels: Vec<u8> = vec![4, 5, 6];
    let mut only: Option<Vec<String>> = None;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--budget" => budget = true,
            "--levels" => {
                levels = args
                    .next()
                    .unwrap_or_default()
                    .split(',')
                    .filter_map(|l| l.trim().parse().ok())
                    .filter(|&l| Level::new(l).is_some())
                    .collect();
            }
            "--only" => {
                only = Some(
                    args.next()
                        .unwrap_or_default()
                        .split(',')
                        .map(str::to_string)
                        .collect(),
                );
            }
            _ => files.push(a),
        }
    }
    if levels.is_empty() {
        eprintln!("error: --levels takes numbers from 1 to 6, e.g. 4,5,6");
        std::process::exit(2);
    }
    if files.is_empty() {
        files.push(
            concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/../../tests/fixtures/engine-suite.txt"
            )
            .to_string(),
        );
    }
    let mut totals: Vec<Total> = levels.iter().map(|_| Total::default()).collect();
    println!(
        "{:<20} {:>5} {:<12} {:<26} {:>3} {:>6} {:>4} {:<7} {:>8} {:>9} {:>7} {:>9}",
        "file",
        "line",
        "category",
        "rules",
        "lvl",
        "move",
        "ok",
        "source",
        "nodes",
        "ms",
        "knps",
        "proof ms"
    );
    for file in &files {
        let text = match std::fs::read_to_string(file) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("error: {file}: {e}");
                std::process::exit(2);
            }
        };
        // The file's name is enough in the table (the default path is long and absolute).
        let shown = std::path::Path::new(file)
            .file_name()
            .map_or_else(|| file.clone(), |n| n.to_string_lossy().into_owned());
        for p in parse(&text) {
            if only.as_ref().is_some_and(|o| !o.contains(&p.category)) {
                continue;
            }
            let proof = (p.category == "vct").then(|| proof_time(&p));
            for (k, &level) in levels.iter().enumerate() {
                let limits = if budget {
                    Limits::time(Level::new(level).expect("level").budget())
                } else {
                    capped(nodes_for(level))
                };
                let a = answer(&p, level, limits);
                let t = &mut totals[k];
                t.positions += 1;
                t.solved += usize::from(a.correct);
                t.nodes += a.info.nodes;
                t.time += a.elapsed;
                println!(
                    "{:<20} {:>5} {:<12} {:<26} {:>3} {:>6} {:>4} {:<7} {:>8} {:>9.1} {:>7.1} {:>9}",
                    shown,
                    p.line,
                    p.category,
                    p.spec,
                    level,
                    a.action.to_string(),
                    if a.correct { "yes" } else { "NO" },
                    format!("{:?}", a.info.source),
                    a.info.nodes,
                    a.elapsed.as_secs_f64() * 1e3,
                    knps(a.info.nodes, a.elapsed),
                    proof.map_or(String::new(), |d| format!("{:.1}", d.as_secs_f64() * 1e3)),
                );
            }
        }
    }
    println!();
    for (level, t) in levels.iter().zip(&totals) {
        println!(
            "level {level}: {}/{} solved, {} nodes in {:.2} s, {:.1} knps",
            t.solved,
            t.positions,
            t.nodes,
            t.time.as_secs_f64(),
            knps(t.nodes, t.time)
        );
    }
}

fn knps(nodes: u64, time: Duration) -> f64 {
    nodes as f64 / time.as_secs_f64().max(1e-9) / 1e3
}

/// The time the strongest level's threat search takes to prove a first win (up to 60 s).
fn proof_time(p: &Position) -> Duration {
    let mut e = Engine::with_style(Level::MAX, Style::for_level(Level::MAX), 1);
    let start = Instant::now();
    let _ = e.threat_win(&p.game, Limits::time(Duration::from_secs(60)));
    start.elapsed()
}
