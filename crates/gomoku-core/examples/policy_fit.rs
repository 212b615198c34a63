//! Fits corrections to the main search's move ordering from another engine's moves.
//!
//! ```text
//! cargo build --release -p gomoku-core --example policy_fit
//! policy_fit GAMES [skip] [lambda] [epochs] [OUT]
//! ```
//!
//! `GAMES` holds one freestyle Gomoku game a line (its moves, `H8 J9 …`, as the arena's
//! records write them; `#` comments). Every position after the first `skip` moves (default 3,
//! the opening) where the ordering decides (`gomoku_core::engine::tuning::policy_points`) is
//! an example whose answer is the move the game went on with; one game in five is held out.
//! A line that starts `black:` or `white:` gives only that side's moves as answers (a match
//! against the engine to learn from, whose moves alone are worth copying).
//! The model: the probability of a candidate is the softmax of its score, `c × ordering score
//! + mine[set] + theirs[set] + a × windows gained + b × windows taken`, where `set` is the set
//! of four line shapes a stone there makes for the mover (`mine`) or for the other side
//! (`theirs`). Fitted by full-batch Adam on the log-likelihood, the tables pulled towards 0 by
//! `lambda` (default 0.001). Printed: top-1/3/5 and the mean log-likelihood of the held-out
//! moves for today's ordering (with its best `c`) and for the fit; then the corrections in the
//! ordering score's units (each divided by `c`), largest first, and with `OUT` the same
//! written as `src/engine/ordering.txt` reads them.

mod common;

use std::process::ExitCode;

use common::{Adam, command, number};
use gomoku_core::engine::tuning::{FAR, PolicyPoint, SHAPE_SETS, policy_points, shape_sets};
use gomoku_core::rules::{Action, Game, RuleSet};

/// One example: the candidates and which of them was played.
struct Example {
    points: Vec<PolicyPoint>,
    answer: usize,
}

/// Parameters: `c`, `a`, `b`, then `mine`, then `theirs`, then by distance to the last stone
/// and to the one before it (1..=FAR each).
const PARAMS: usize = 3 + 2 * SHAPE_SETS + 2 * FAR as usize;
/// Where the distance parameters start.
const NEAR: usize = 3 + 2 * SHAPE_SETS;

/// The distance parameters of a point.
fn near(p: &PolicyPoint) -> [usize; 2] {
    [
        NEAR + usize::from(p.near[0].max(1)) - 1,
        NEAR + FAR as usize + usize::from(p.near[1].max(1)) - 1,
    ]
}

fn scores(w: &[f64], e: &Example, out: &mut Vec<f64>) {
    out.clear();
    out.extend(e.points.iter().map(|p| {
        w[0] * f64::from(p.score) / 1000.0
            + w[1] * f64::from(p.gain_mine) / 100.0
            + w[2] * f64::from(p.gain_theirs) / 100.0
            + w[3 + usize::from(p.mine)]
            + w[3 + SHAPE_SETS + usize::from(p.theirs)]
            + near(p).iter().map(|&k| w[k]).sum::<f64>()
    }));
}

/// Log-likelihood, top-1/3/5 hits of `examples` under `w`, and (with `grad`) its gradient.
fn measure(w: &[f64], examples: &[Example], mut grad: Option<&mut [f64]>) -> (f64, [usize; 3]) {
    let mut ll = 0.0;
    let mut hits = [0usize; 3];
    let mut s = Vec::new();
    for e in examples {
        scores(w, e, &mut s);
        let max = s.iter().copied().fold(f64::MIN, f64::max);
        let z: f64 = s.iter().map(|x| (x - max).exp()).sum();
        ll += s[e.answer] - max - z.ln();
        // Rank: the candidates scoring strictly above the answer, and half the ties.
        let above = s.iter().filter(|&&x| x > s[e.answer]).count();
        let ties = s.iter().filter(|&&x| x == s[e.answer]).count() - 1;
        let rank = above + ties / 2;
        for (k, n) in [1, 3, 5].iter().enumerate() {
            if rank < *n {
                hits[k] += 1;
            }
        }
        if let Some(g) = grad.as_deref_mut() {
            for (j, p) in e.points.iter().enumerate() {
                let prob = (s[j] - max).exp() / z;
                let d = f64::from(u8::from(j == e.answer)) - prob;
                g[0] += d * f64::from(p.score) / 1000.0;
                g[1] += d * f64::from(p.gain_mine) / 100.0;
                g[2] += d * f64::from(p.gain_theirs) / 100.0;
                g[3 + usize::from(p.mine)] += d;
                g[3 + SHAPE_SETS + usize::from(p.theirs)] += d;
                for k in near(p) {
                    g[k] += d;
                }
            }
        }
    }
    (ll / examples.len().max(1) as f64, hits)
}

/// Maximises the mean log-likelihood less `lambda` × the tables' squares, over the parameters
/// `free` allows, by Adam.
fn fit(
    w: &mut [f64],
    examples: &[Example],
    lambda: f64,
    epochs: usize,
    free: impl Fn(usize) -> bool,
) {
    let mut adam = Adam::new(PARAMS, 0.05);
    let n = examples.len().max(1) as f64;
    for _ in 0..epochs {
        let mut g = vec![0.0; PARAMS];
        measure(w, examples, Some(&mut g));
        // The loss: the mean log-likelihood's opposite, plus the pull on the tables.
        for (k, gk) in g.iter_mut().enumerate() {
            *gk = -*gk / n + if k >= 3 { 2.0 * lambda * w[k] } else { 0.0 };
        }
        adam.descend(w, &g, &free);
    }
}

fn report(name: &str, w: &[f64], examples: &[Example]) {
    let (ll, hits) = measure(w, examples, None);
    let n = examples.len().max(1) as f64;
    println!(
        "{name}: top-1 {:.1}%, top-3 {:.1}%, top-5 {:.1}%, log-likelihood {ll:.3} ({} positions)",
        100.0 * hits[0] as f64 / n,
        100.0 * hits[1] as f64 / n,
        100.0 * hits[2] as f64 / n,
        examples.len()
    );
}

/// A game line's seat prefix: `black:` or `white:` keeps only that side's moves as answers
/// (the parity of their plies), as when one side of a match is the engine to learn from.
fn seat(line: &str) -> (Option<usize>, &str) {
    if let Some(rest) = line.strip_prefix("black:") {
        (Some(0), rest)
    } else if let Some(rest) = line.strip_prefix("white:") {
        (Some(1), rest)
    } else {
        (None, line)
    }
}

fn read(file: &str, skip: usize) -> Result<(Vec<Example>, Vec<Example>), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let rules = RuleSet::from_spec("gomoku").map_err(|e| e.to_string())?;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let mut games = 0;
    for (k, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        games += 1;
        let (only, line) = seat(line);
        let mut game = Game::new(rules);
        for (ply, m) in line.split_whitespace().enumerate() {
            let a = Action::parse(m, 15).map_err(|e| format!("line {}: {m}: {e}", k + 1))?;
            if ply >= skip
                && only.is_none_or(|s| ply % 2 == s)
                && let (Some(points), Action::Place(p)) = (policy_points(&game), a)
                && let Some(answer) = points.iter().position(|c| c.point == p)
            {
                let e = Example { points, answer };
                if games % 5 == 0 {
                    held.push(e);
                } else {
                    train.push(e);
                }
            }
            game.apply(a)
                .map_err(|e| format!("line {}: {m}: {e}", k + 1))?;
        }
    }
    Ok((train, held))
}

fn run(args: &[String]) -> Result<(), String> {
    let file = args
        .first()
        .ok_or("usage: policy_fit GAMES [skip] [lambda] [epochs] [OUT]")?;
    let num = |k: usize, d: f64| number(args, k, d);
    let skip = num(1, 3.0)? as usize;
    let lambda = num(2, 0.001)?;
    let epochs = num(3, 300.0)? as usize;
    let (train, held) = read(file, skip)?;
    println!(
        "{} training positions, {} held out",
        train.len(),
        held.len()
    );
    // Today's ordering, at its best temperature.
    let mut w = vec![0.0; PARAMS];
    w[0] = 1.0;
    fit(&mut w, &train, 0.0, 200, |k| k == 0);
    report("today's ordering", &w, &held);
    report("today's ordering (training positions)", &w, &train);
    fit(&mut w, &train, lambda, epochs, |_| true);
    report("fitted", &w, &held);
    report("fitted (training positions)", &w, &train);
    println!(
        "c {:.4}, windows gained {:.4}, taken {:.4} (per 100)",
        w[0], w[1], w[2]
    );
    // In the ordering score's units.
    let unit = 1000.0 / w[0];
    let dist = |from: usize| -> Vec<String> {
        (0..usize::from(FAR))
            .map(|d| format!("{:.0}", w[from + d] * unit))
            .collect()
    };
    println!(
        "by distance 1..{FAR} from the last stone: {}; from the mover's last: {}",
        dist(NEAR).join(" "),
        dist(NEAR + usize::from(FAR)).join(" ")
    );
    let sets = shape_sets();
    let mut rows: Vec<(f64, String)> = Vec::new();
    for (s, shapes) in sets.iter().enumerate() {
        for (side, off) in [("mine", 3), ("theirs", 3 + SHAPE_SETS)] {
            let x = w[off + s] * unit;
            rows.push((x.abs(), format!("{side} {shapes:?} {x:.0}")));
        }
    }
    rows.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (_, r) in rows.iter().take(40) {
        println!("{r}");
    }
    if let Some(out) = args.get(4) {
        let mut text = format!(
            "# Written by `policy_fit {}` ({} training positions; held out: top-1/3/5 \
             and log-likelihood as printed).\ngain {:.0} {:.0}\n",
            args.join(" "),
            train.len(),
            w[1] * unit,
            w[2] * unit
        );
        text += &format!(
            "last {}\nown {}\n",
            dist(NEAR).join(" "),
            dist(NEAR + usize::from(FAR)).join(" ")
        );
        for (s, shapes) in sets.iter().enumerate() {
            for (side, off) in [("mine", 3), ("theirs", 3 + SHAPE_SETS)] {
                let x = (w[off + s] * unit).round();
                if x != 0.0 {
                    let [a, b, c, d] = shapes;
                    text += &format!("{side} {a} {b} {c} {d} {x:.0}\n");
                }
            }
        }
        std::fs::write(out, text).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    command("policy_fit", run)
}
