//! The positions a fit of the evaluation by siblings learns from: for each position of a file,
//! the positions after its best candidate moves by the main search's ordering.
//!
//! ```text
//! cargo build --release -p gomoku-core --example eval_children
//! eval_children FILE [K] > children.txt   # each line: the parent's index, a tab, the moves
//! ```
//!
//! `FILE` holds one freestyle Gomoku position a line (its moves). A parent where a side can
//! make a line on the next move gives nothing (those moves are forced, not chosen), and so does
//! a child with a four on the board (the fit reads quiet positions only). The children of one
//! parent are what the search compares at a node: an evaluation that ranks them as a stronger
//! engine does chooses as it does, whatever level it puts them at (`eval_sets_fit … groups`).

mod common;

use std::process::ExitCode;

use common::{command, number};
use gomoku_core::engine::tuning::{eval_sets, policy_points};
use gomoku_core::rules::{Action, Game, RuleSet};

fn run(args: &[String]) -> Result<(), String> {
    let file = args.first().ok_or("usage: eval_children FILE [K]")?;
    let k = number(args, 1, 8.0)? as usize;
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let rules = RuleSet::from_spec("gomoku").map_err(|e| e.to_string())?;
    for (n, line) in text.lines().enumerate() {
        let moves = line.split('#').next().unwrap_or_default().trim();
        if moves.is_empty() {
            continue;
        }
        let mut g = Game::new(rules);
        for m in moves.split_whitespace() {
            let a = Action::parse(m, 15).map_err(|e| format!("line {}: {m}: {e}", n + 1))?;
            g.apply(a)
                .map_err(|e| format!("line {}: {m}: {e}", n + 1))?;
        }
        let Some(mut points) = policy_points(&g) else {
            continue;
        };
        points.sort_by_key(|p| std::cmp::Reverse(p.score));
        for p in points.iter().take(k) {
            let mut child = g.clone();
            if child.apply(Action::Place(p.point)).is_err() || eval_sets(&child).is_none() {
                continue;
            }
            println!("{}\t{moves} {}", n, p.point);
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    command("eval_children", run)
}
