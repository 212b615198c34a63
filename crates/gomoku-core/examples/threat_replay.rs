//! Replays game records and shows, ply by ply, where the side to move had a threat win (VCF,
//! then VCT) by the engine's own threat search: the place to look in a lost game is the first
//! position where the winner had one, and the loser's move just before it.
//!
//! ```text
//! cargo run --release -p gomoku-core --example threat_replay -- --rules gomoku [--level 6] [--nodes 2000000] < records
//! ```
//!
//! Each input line is a record as the arena's `--records` prints it (`game 3 (A is seat 2): H8
//! J9 …`) or just the moves. For each game it prints the winner, then each ply from which the
//! side to move (`B` black, `W` white) has a threat win within the node cap, with its first
//! move; at a ply where the loser is to move and the winner had no threat win before the
//! loser's move, the engine's choice there under the same cap and whether it still loses to
//! threats.

use std::io::BufRead;
use std::time::{Duration, Instant};

use gomoku_core::engine::{Engine, Level, Limits};
use gomoku_core::rules::{Game, RuleSet, Status};

/// Says what is wrong with the command line and exits with status 2.
fn refuse(why: &str) -> ! {
    eprintln!("threat_replay: {why}");
    std::process::exit(2);
}

fn main() {
    let mut rules = "gomoku".to_string();
    let mut level = Level::MAX;
    let mut nodes = 2_000_000u64;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let v = args.next().unwrap_or_default();
        match a.as_str() {
            "--rules" => rules = v,
            "--level" => {
                level =
                    v.parse().ok().and_then(Level::new).unwrap_or_else(|| {
                        refuse(&format!("--level `{v}`: give a level from 1 to 6"))
                    })
            }
            "--nodes" => {
                nodes = v
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .unwrap_or_else(|| refuse(&format!("--nodes `{v}`: give a positive count")))
            }
            _ => refuse(&format!("unknown flag {a}")),
        }
    }
    let rules =
        RuleSet::from_spec(&rules).unwrap_or_else(|e| refuse(&format!("--rules `{rules}`: {e}")));
    let limits = Limits {
        time: Duration::from_secs(600),
        nodes,
    };
    for line in std::io::stdin().lock().lines().map_while(Result::ok) {
        let moves = match line.split_once("): ") {
            Some((_, m)) => m.to_string(),
            None => line.clone(),
        };
        let tokens: Vec<&str> = moves.split_whitespace().collect();
        if tokens.is_empty() {
            continue;
        }
        println!("== {}", line.split(':').next().unwrap_or(""));
        let mut game = Game::new(rules);
        let mut prefixes = vec![game.clone()];
        for t in &tokens {
            if game.apply_token(t).is_err() {
                println!("illegal move {t}");
                break;
            }
            prefixes.push(game.clone());
        }
        let winner = match game.status() {
            Status::Won { winners, .. } => (1..=2u8).find(|&c| winners.contains(c)),
            _ => None,
        };
        println!("winner: {winner:?}, {} plies", tokens.len());
        let mut had_win_before = false;
        for (k, g) in prefixes.iter().enumerate() {
            if g.is_over() {
                break;
            }
            let mover = if k % 2 == 0 { 'B' } else { 'W' };
            let mut e = Engine::seeded(level, 1);
            let t0 = Instant::now();
            let w = e.threat_win(g, limits);
            let took = t0.elapsed();
            let played = tokens.get(k).copied().unwrap_or("-");
            if let Some(w) = w {
                println!(
                    "ply {k:>3} {mover} to move: threat win {w} ({} nodes, {:.2} s), played {played}",
                    e.last_info().nodes,
                    took.as_secs_f64()
                );
            }
            let winner_to_move = winner.is_some_and(|c| usize::from(c) % 2 == (k + 1) % 2);
            if winner_to_move && w.is_some() {
                had_win_before = true;
            }
            if !winner_to_move && !had_win_before && winner.is_some() {
                // The loser to move: would the engine (under the cap) have chosen a move after
                // which the winner has no threat win?
                let next_win = prefixes
                    .get(k + 1)
                    .filter(|n| !n.is_over())
                    .and_then(|n| Engine::seeded(level, 1).threat_win(n, limits));
                if next_win.is_some() {
                    let choice = e.choose_with(g, limits);
                    let refuted = choice.and_then(|c| {
                        let mut n = g.clone();
                        n.apply(c).ok()?;
                        Engine::seeded(level, 1).threat_win(&n, limits)
                    });
                    println!(
                        "ply {k:>3} {mover} to move: played {played}, after it the winner wins by threats; \
                         engine under the cap plays {} (depth {}), refuted by {:?}",
                        choice.map(|c| c.to_string()).unwrap_or_default(),
                        e.last_info().depth,
                        refuted.map(|r| r.to_string())
                    );
                }
            }
        }
    }
}
