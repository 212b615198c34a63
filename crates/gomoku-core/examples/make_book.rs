//! Makes the engine's opening book (`src/engine/book.txt`) by searching every position the
//! book covers (`book::book_positions`, and the swap openings of `book::swap_openings` as
//! they will be played after the colour choice) with level 6's settings under a node cap.
//!
//! ```text
//! cargo build --release -p gomoku-core --example make_book
//! make_book [--nodes N] [--seed S] [--variant V]...
//!   V: pente-pro, pente-long-pro, keryo-pro, keryo-long-pro, gomoku-swap,
//!      gomoku-standard-swap, renju-swap
//! ```
//!
//! Prints the book's lines on standard output (progress on standard error); without
//! `--variant`, all seven. Each position gets a fresh engine seeded with `S` and the cap `N`
//! (default 2,500,000 nodes, about 10 s at level 5's speed), so the output depends on the
//! engine, `N` and `S` alone, not on the machine or on the order of the positions. Colour 2's
//! second moves are searched after the position with the book's answer to the centre stone,
//! which they follow.

mod common;

use std::process::ExitCode;

use common::command;
use std::time::{Duration, Instant};

use gomoku_core::engine::book::{book_positions, swap_openings};
use gomoku_core::engine::{Engine, Level, Limits, Style};
use gomoku_core::rules::{Action, Game, Opening, Phase, Point, Preset, RuleSet};

const VARIANTS: [(Preset, Opening); 7] = [
    (Preset::Pente, Opening::Pro),
    (Preset::Pente, Opening::LongPro),
    (Preset::Keryo, Opening::Pro),
    (Preset::Keryo, Opening::LongPro),
    (Preset::Gomoku, Opening::Swap2),
    (Preset::GomokuStandard, Opening::Swap2),
    (Preset::Renju, Opening::Swap2),
];

/// A variant's name on the command line.
fn name(preset: Preset, opening: Opening) -> String {
    match opening {
        Opening::Swap2 => format!("{}-swap", preset.name()),
        _ => format!("{}-{}", preset.name(), opening.name()),
    }
}

/// Searches one position and prints its book line; the chosen stone. A swap opening (its
/// colour choice due) is searched as it will be played, and its line has no move.
fn search(game: &Game, nodes: u64, seed: u64) -> Result<Point, String> {
    let judged = matches!(game.phase(), Phase::Choosing { .. });
    let mut played = game.clone();
    if judged {
        played
            .apply(Action::Take(1))
            .map_err(|e| format!("no colour choice: {e}"))?;
    }
    let mut style = Style::for_level(Level::MAX);
    // The book must come from the search, not from itself.
    style.book = false;
    let mut engine = Engine::with_style(Level::MAX, style, seed);
    let limits = Limits {
        time: Duration::from_secs(3_600),
        nodes,
    };
    let started = Instant::now();
    let action = engine
        .choose_with(&played, limits)
        .ok_or("the engine found no move")?;
    let Action::Place(point) = action else {
        return Err(format!("the engine answered {action:?}, not a stone"));
    };
    let info = engine.last_info();
    let rules = game.rules();
    let opening = if judged { "swap" } else { rules.opening.name() };
    let stones: Vec<String> = game.record().iter().map(|a| a.to_string()).collect();
    let shown = if judged {
        "-".to_string()
    } else {
        point.to_string()
    };
    println!(
        "{} {opening} | {} | {shown} | score {} depth {} nodes {}",
        rules.preset.name(),
        stones.join(" "),
        info.score,
        info.depth,
        info.nodes,
    );
    eprintln!(
        "make_book: {} {opening} {} -> {shown} score {} ({} nodes, {:.1} s)",
        rules.preset.name(),
        stones.join(" "),
        info.score,
        info.nodes,
        started.elapsed().as_secs_f64()
    );
    Ok(point)
}

fn variant_book(preset: Preset, opening: Opening, nodes: u64, seed: u64) -> Result<(), String> {
    let rules = RuleSet {
        opening,
        ..RuleSet::preset(preset)
    };
    if opening == Opening::Swap2 {
        for game in swap_openings(&rules) {
            search(&game, nodes, seed)?;
        }
        return Ok(());
    }
    let first = book_positions(&rules, None);
    let mut reply = None;
    for game in &first {
        let point = search(game, nodes, seed)?;
        if game.record().len() == 1 {
            reply = Some(point);
        }
    }
    let done = first.len();
    for game in book_positions(&rules, reply).iter().skip(done) {
        search(game, nodes, seed)?;
    }
    Ok(())
}

fn run(args: &[String]) -> Result<(), String> {
    let mut nodes = 2_500_000u64;
    let mut seed = 1u64;
    let mut chosen = Vec::new();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--nodes" => nodes = value.parse().map_err(|_| format!("--nodes {value}"))?,
            "--seed" => seed = value.parse().map_err(|_| format!("--seed {value}"))?,
            "--variant" => {
                let v = VARIANTS
                    .into_iter()
                    .find(|&(p, o)| name(p, o) == *value)
                    .ok_or(format!("no variant {value}"))?;
                chosen.push(v);
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    if chosen.is_empty() {
        chosen = VARIANTS.to_vec();
    }
    for (preset, opening) in chosen {
        variant_book(preset, opening, nodes, seed)?;
    }
    Ok(())
}

fn main() -> ExitCode {
    command("make_book", run)
}
