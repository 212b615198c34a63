//! The engine's speed on fixed positions: nodes per second of one level under a node cap.
//!
//! ```text
//! cargo build --release -p gomoku-core --example engine_nps
//! engine_nps gen [positions] [rules]  # self-play positions (level 3, node capped), one per line
//!                                     # (rules other than gomoku: a first line `# rules SPEC`)
//! engine_nps run FILE [level[,key=value…]] [nodes] [ms] # each position searched (under `ms`
//!                                         # too, if given), with style settings as the arena's
//! ```
//!
//! The positions measured in the reports: `nps_positions.txt` beside this file (made by `gen 24`),
//! and `nps_positions_pente.txt` (made by `gen 24 pente`).
//! `run` prints one line per position and a total; the chosen moves and node counts are
//! deterministic (a seeded engine under a node cap), so a change meant only to be faster must
//! leave them as they were.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use gomoku_core::engine::arena::random_opening;
use gomoku_core::engine::{Engine, Level, Limits, Style};
use gomoku_core::rules::{Game, RuleSet};
use rand::SeedableRng;
use rand::rngs::StdRng;

fn capped(nodes: u64) -> Limits {
    Limits {
        time: Duration::from_secs(600),
        nodes,
    }
}

fn generate(n: usize, spec: &str) -> Result<(), String> {
    let rules = RuleSet::from_spec(spec).map_err(|e| format!("{spec}: {e}"))?;
    if spec != "gomoku" {
        println!("# rules {spec}");
    }
    let mut made = 0;
    let mut seed = 0u64;
    while made < n {
        seed += 1;
        let mut rng = StdRng::seed_from_u64(seed);
        let mut game = random_opening(rules, 3, 4, &mut rng);
        let mut engine = Engine::seeded(Level::new(3).expect("level"), seed);
        let stop_at = 8 + (seed as usize * 7) % 24;
        while !game.is_over() && game.stones_placed() < stop_at {
            let Some(a) = engine.choose_with(&game, capped(3_000)) else {
                break;
            };
            if game.apply(a).is_err() {
                break;
            }
        }
        if game.is_over() {
            continue;
        }
        let moves: Vec<String> = game.record().iter().map(|a| a.to_string()).collect();
        println!("{}", moves.join(" "));
        made += 1;
    }
    Ok(())
}

fn run(file: &str, side: &str, nodes: u64, ms: Option<u64>) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let spec = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("# rules "))
        .unwrap_or("gomoku")
        .trim();
    let rules = RuleSet::from_spec(spec).map_err(|e| format!("{spec}: {e}"))?;
    // `5` or `5,key=value,…` (style settings, as the arena's sides).
    let mut parts = side.split(',');
    let level: Level = parts
        .next()
        .unwrap_or_default()
        .parse()
        .map_err(|e| format!("{e}"))?;
    let mut style = Style::for_level(level);
    for kv in parts {
        let (k, v) = kv.split_once('=').ok_or("style settings are key=value")?;
        style.set(k, v)?;
    }
    let (mut total_nodes, mut total_time) = (0u64, Duration::ZERO);
    for (k, line) in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .enumerate()
    {
        let mut game = Game::new(rules);
        for m in line.split_whitespace() {
            game.apply_token(m)
                .map_err(|e| format!("line {}: {m}: {e}", k + 1))?;
        }
        let mut engine = Engine::with_style(level, style, 7);
        let start = Instant::now();
        let limits = match ms {
            Some(ms) => Limits {
                time: Duration::from_millis(ms),
                nodes,
            },
            None => capped(nodes),
        };
        let a = engine.choose_with(&game, limits);
        let t = start.elapsed();
        let info = engine.last_info();
        total_nodes += info.nodes;
        total_time += t;
        println!(
            "{:>3} {:>9} nodes {:>8.1} ms {:>7.0} n/s move {} depth {} score {} {:?}",
            k + 1,
            info.nodes,
            t.as_secs_f64() * 1e3,
            info.nodes as f64 / t.as_secs_f64().max(1e-9),
            a.map(|a| a.to_string()).unwrap_or_default(),
            info.depth,
            info.score,
            info.source
        );
    }
    println!(
        "total {} nodes in {:.2} s: {:.0} nodes/s",
        total_nodes,
        total_time.as_secs_f64(),
        total_nodes as f64 / total_time.as_secs_f64().max(1e-9)
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("gen") => generate(
            args.get(1).and_then(|n| n.parse().ok()).unwrap_or(24),
            args.get(2).map_or("gomoku", String::as_str),
        ),
        Some("run") if args.len() >= 2 => run(
            &args[1],
            args.get(2).map_or("5", String::as_str),
            args.get(3).and_then(|n| n.parse().ok()).unwrap_or(200_000),
            args.get(4).and_then(|n| n.parse().ok()),
        ),
        _ => Err(
            "usage: engine_nps gen [n] [rules] | engine_nps run FILE [level] [nodes] [ms]".into(),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
