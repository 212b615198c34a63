//! Fits an evaluation by sets of line shapes to another engine's judgement of positions.
//!
//! ```text
//! cargo build --release -p gomoku-core --example eval_sets_fit
//! eval_sets_fit FILE [lambda] [epochs] [OUT] [rate] [shared | masks [mask_lambda] [mask_min]]
//! ```
//!
//! `FILE` holds one freestyle Gomoku position a line: its moves, a tab, and the reference
//! engine's value for the side to move (Rapfi's units: a win probability of 1/(1+e^-v/200)).
//! Today the evaluation adds, over the empty points, each point's shape value (by the set of
//! four line shapes a stone there makes, see `src/engine/patterns.rs`) divided by 8 for the
//! side to move and by 16 for the other side. The fit gives each set a value of its own for
//! each role (`gomoku_core::engine::tuning::eval_sets`); the windows and the mover's threat
//! bonus stay. Our evaluation becomes a win probability through the scale that fits today's
//! evaluation best; the squared error of the probabilities is minimised by Adam, each value
//! pulled towards today's by `lambda` (default 0.0001). One position in five held out. With
//! `OUT`, the fitted values are written a set a line (`A B C D MOVER WAITING`, in sixteenths
//! of the evaluation's unit), as `src/engine/eval_sets.txt` holds them: the engine evaluates
//! with them when a style says `eval_fit=on` (on at levels 5 and 6 in freestyle; the fits
//! checked in and how they played are in `docs/engine-measurements.md`, December 5). With
//! `masks` as the sixth argument the fit also gives each situation of threats (which of a
//! three, a four, a double three, a four-three, an open four each side can make:
//! `EvalSets::mask`) a value of its own, pulled towards 0 by the seventh argument (default
//! `lambda`), written as `mask M VALUE` lines; a situation seen in fewer training positions
//! than the eighth argument (default 1) keeps 0. With `shared` instead it gives each set one
//! value for both roles (the mover's and the waiting side's tables alike) and a weight for
//! the waiting side's sum.

mod common;

use std::process::ExitCode;

use common::{Adam, command, number};
use gomoku_core::engine::tuning::{
    EvalSets, LINE_CODES, SHAPE_SETS, THREAT_MASKS, eval_sets, fitted_sets, shape_set_value,
    shape_sets,
};
use gomoku_core::rules::{Action, Game, RuleSet};

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Where the values of the situations of threats start in the fit's vector.
const MASK: usize = 2 * SHAPE_SETS;

/// Where the values of the line codes start: the mover's, then the other side's.
const LINE: usize = MASK + THREAT_MASKS;
/// A line code's value is its weight over this: a code occurs on hundreds of axes in a
/// position, so at the sets' scale one step of the descent would move the evaluation by
/// thousands.
const LINE_SCALE: f64 = 64.0;

/// Our evaluation under set values `w` (mover's, then the other side's, then the value of
/// each situation of threats, then each line code's for the mover and for the other side).
fn eval(w: &[f64], e: &EvalSets) -> f64 {
    let lines: f64 = (0..LINE_CODES)
        .map(|c| {
            f64::from(e.lines[0][c]) * w[LINE + c]
                - f64::from(e.lines[1][c]) * w[LINE + LINE_CODES + c]
        })
        .sum::<f64>()
        / LINE_SCALE;
    f64::from(e.fixed) + e.mine.iter().map(|&s| w[usize::from(s)]).sum::<f64>()
        - e.theirs
            .iter()
            .map(|&s| w[SHAPE_SETS + usize::from(s)])
            .sum::<f64>()
        + w[MASK + usize::from(e.mask)]
        + lines
}

/// Mean squared error of the win probabilities.
fn error(pos: &[(EvalSets, f64)], k: f64, value: impl Fn(&EvalSets) -> f64) -> f64 {
    let sum: f64 = pos
        .iter()
        .map(|(e, y)| (sigmoid(value(e) / k) - y).powi(2))
        .sum();
    sum / pos.len().max(1) as f64
}

fn run(args: &[String]) -> Result<(), String> {
    let file = args
        .first()
        .ok_or("usage: eval_sets_fit FILE [lambda] [epochs] [OUT]")?;
    let num = |k: usize, d: f64| number(args, k, d);
    let lambda = num(1, 0.0001)?;
    let epochs = num(2, 500.0)? as usize;
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let rules = RuleSet::from_spec("gomoku").map_err(|e| e.to_string())?;
    let (mut train, mut held) = (Vec::new(), Vec::new());
    let (mut train_groups, mut held_groups) = (Vec::new(), Vec::new());
    for (k, line) in text.lines().enumerate() {
        let mut cols = line.split('\t');
        let (Some(moves), Some(value)) = (cols.next(), cols.next()) else {
            continue;
        };
        let value: f64 = value
            .trim()
            .parse()
            .map_err(|_| format!("line {}: `{value}` is not a number", k + 1))?;
        // The parent a sibling belongs to (`groups`), else the line's own index.
        let group = match cols.next() {
            Some(g) => g
                .trim()
                .parse()
                .map_err(|_| format!("line {}: `{g}` is not a group", k + 1))?,
            None => k,
        };
        let mut g = Game::new(rules);
        for m in moves.split_whitespace() {
            let a = Action::parse(m, 15).map_err(|e| format!("line {}: {m}: {e}", k + 1))?;
            g.apply(a)
                .map_err(|e| format!("line {}: {m}: {e}", k + 1))?;
        }
        if let Some(e) = eval_sets(&g) {
            let y = sigmoid(value / 200.0);
            if group % 5 == 4 {
                held.push((e, y));
                held_groups.push(group);
            } else {
                train.push((e, y));
                train_groups.push(group);
            }
        }
    }
    println!(
        "{} training positions, {} held out",
        train.len(),
        held.len()
    );
    // Today's scale: the best of a range, on the training positions.
    let today = |e: &EvalSets| f64::from(e.today);
    let k = (1..=400)
        .map(|i| f64::from(i) * 10.0)
        .min_by(|a, b| error(&train, *a, today).total_cmp(&error(&train, *b, today)))
        .unwrap_or(1000.0);
    let var: f64 = {
        let mean = held.iter().map(|p| p.1).sum::<f64>() / held.len().max(1) as f64;
        held.iter().map(|p| (p.1 - mean).powi(2)).sum::<f64>() / held.len().max(1) as f64
    };
    println!(
        "scale {k}; held out: variance {var:.4}, today {:.4}",
        error(&held, k, today)
    );
    if args.get(5).is_some_and(|m| m == "shared") {
        return shared(args, &train, &held, k, lambda, epochs);
    }
    let groups = args
        .get(5)
        .is_some_and(|m| m.split(',').any(|x| x == "groups"));
    // Each parent's children share an offset the fit is free to choose: what is fitted is how
    // the siblings differ, which is all a search compares, not the level of the position.
    let (group_of, n_groups) = index_groups(&train_groups);
    let masks = args
        .get(5)
        .is_some_and(|m| m.split(',').any(|x| x == "masks"));
    let with_lines = args
        .get(5)
        .is_some_and(|m| m.split(',').any(|x| x == "lines"));
    // The situations of threats are few positions each: their own pull towards 0.
    let mask_lambda = num(6, lambda)?;
    // A situation seen in fewer training positions than this keeps 0: the search seeks out
    // the leaves a value is wrong for, and a value fitted to a handful of positions often is.
    let mask_min = num(7, 1.0)? as usize;
    let mut seen = vec![0usize; THREAT_MASKS];
    for (e, _) in &train {
        seen[usize::from(e.mask)] += 1;
    }
    let start: Vec<f64> = (0..LINE + 2 * LINE_CODES)
        .map(|i| {
            let v = f64::from(shape_set_value((i % SHAPE_SETS) as u16));
            match i {
                i if i < SHAPE_SETS => v / 8.0,
                i if i < MASK => v / 16.0,
                _ => 0.0,
            }
        })
        .collect();
    let mut start = start;
    if let Some(from) = args.get(8) {
        start_from(&mut start, from)?;
    }
    let offsets = start.len();
    if groups {
        start.resize(offsets + n_groups, 0.0);
    }
    let mut w = start.clone();
    let mut adam = Adam::new(w.len(), num(4, 1.0)?);
    let n = train.len().max(1) as f64;
    if groups {
        println!(
            "held out, pairs ordered as the labels (today): {}; (the start): {}",
            pair_order(&held, &held_groups, |e| f64::from(e.today)),
            pair_order(&held, &held_groups, |e| eval(&start, e))
        );
    }
    for _ in 0..epochs {
        let mut g = vec![0.0; w.len()];
        for (j, (e, y)) in train.iter().enumerate() {
            let off = if groups {
                w[offsets + group_of[j]]
            } else {
                0.0
            };
            let p = sigmoid((eval(&w, e) + off) / k);
            let d = 2.0 * (p - y) * p * (1.0 - p) / k;
            if groups {
                g[offsets + group_of[j]] += d;
            }
            for &s in &e.mine {
                g[usize::from(s)] += d;
            }
            for &s in &e.theirs {
                g[SHAPE_SETS + usize::from(s)] -= d;
            }
            if masks && seen[usize::from(e.mask)] >= mask_min {
                g[MASK + usize::from(e.mask)] += d;
            }
            if with_lines {
                for c in 0..LINE_CODES {
                    g[LINE + c] += d * f64::from(e.lines[0][c]) / LINE_SCALE;
                    g[LINE + LINE_CODES + c] -= d * f64::from(e.lines[1][c]) / LINE_SCALE;
                }
            }
        }
        for (i, gi) in g.iter_mut().enumerate() {
            let pull = if i >= offsets {
                0.0
            } else if !(MASK..LINE).contains(&i) {
                lambda
            } else {
                mask_lambda
            };
            *gi = *gi / n + 2.0 * pull * (w[i] - start[i]);
        }
        adam.descend(&mut w, &g, |_| true);
    }
    if groups {
        println!(
            "held out, pairs ordered as the labels (fitted): {}",
            pair_order(&held, &held_groups, |e| eval(&w, e))
        );
    }
    println!(
        "fitted: held out {:.4}, training {:.4} (today {:.4})",
        error(&held, k, |e| eval(&w, e)),
        error(&train, k, |e| eval(&w, e)),
        error(&train, k, today)
    );
    let sets = shape_sets();
    let mut rows: Vec<(f64, String)> = Vec::new();
    for (s, shapes) in sets.iter().enumerate() {
        let (a, b) = (w[s], w[SHAPE_SETS + s]);
        let (a0, b0) = (start[s], start[SHAPE_SETS + s]);
        rows.push((
            (a - a0).abs().max((b - b0).abs()),
            format!("{shapes:?} mover {a:.0} (today {a0:.0}), other {b:.0} (today {b0:.0})"),
        ));
    }
    print_largest(rows);
    let mut rows: Vec<(f64, String)> = Vec::new();
    for (m, v) in w[MASK..LINE].iter().enumerate().filter(|(_, v)| **v != 0.0) {
        rows.push((
            v.abs(),
            format!("mask {m:010b}: {v:.0} ({} positions)", seen[m]),
        ));
    }
    print_largest(rows);
    if with_lines {
        for c in 0..LINE_CODES {
            println!(
                "line {c} (shape {}, {} free): mover {:.1}, other {:.1}",
                c / 6,
                c % 6,
                w[LINE + c] / LINE_SCALE,
                w[LINE + LINE_CODES + c] / LINE_SCALE
            );
        }
    }
    if let Some(out) = args.get(3) {
        // In sixteenths: the engine adds them up before weighing each sum a sixteenth.
        let mut text = format!(
            "# Written by `eval_sets_fit {}` ({} training positions).\nmover 16\nwaiting 16\n",
            args.join(" "),
            train.len()
        );
        for (s, shapes) in sets.iter().enumerate() {
            let [a, b, c, d] = shapes;
            let (x, y) = ((w[s] * 16.0).round(), (w[SHAPE_SETS + s] * 16.0).round());
            text += &format!("{a} {b} {c} {d} {x:.0} {y:.0}\n");
        }
        for (m, v) in w[MASK..LINE].iter().enumerate() {
            if v.round() != 0.0 {
                text += &format!("mask {m} {v:.0}\n");
            }
        }
        if with_lines {
            // In sixteenths, as the sets.
            for c in 0..LINE_CODES {
                let (x, y) = (
                    w[LINE + c] * 16.0 / LINE_SCALE,
                    w[LINE + LINE_CODES + c] * 16.0 / LINE_SCALE,
                );
                text += &format!("line {c} {x:.0} {y:.0}\n");
            }
        }
        std::fs::write(out, text).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(())
}

/// Starts the fit from a fit written before (`OUT`'s format, values by role in sixteenths and
/// `mask M VALUE` lines) instead of the hand-made values: its values are also what the fit is
/// pulled towards, and what "today" compares against where the fit prints the order of pairs.
fn start_from(start: &mut [f64], file: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let fit = fitted_sets(&text).map_err(|e| format!("{file}: {e}"))?;
    start[..SHAPE_SETS].copy_from_slice(&fit.mover);
    start[SHAPE_SETS..MASK].copy_from_slice(&fit.waiting);
    for (v, &m) in start[MASK..LINE].iter_mut().zip(&fit.masks) {
        *v = f64::from(m);
    }
    Ok(())
}

/// Each position's group as an index from 0, and how many groups there are.
fn index_groups(groups: &[usize]) -> (Vec<usize>, usize) {
    let mut index = std::collections::HashMap::new();
    let of = groups
        .iter()
        .map(|g| {
            let n = index.len();
            *index.entry(*g).or_insert(n)
        })
        .collect();
    (of, index.len())
}

/// Of the pairs of siblings whose labels differ by more than 0.1 in win probability, how
/// many `value` orders as the labels do (as `agreed/pairs (percent)`); ties count a half.
fn pair_order(
    pos: &[(EvalSets, f64)],
    groups: &[usize],
    value: impl Fn(&EvalSets) -> f64,
) -> String {
    let mut by_group: std::collections::HashMap<usize, Vec<(f64, f64)>> = Default::default();
    for ((e, y), g) in pos.iter().zip(groups) {
        by_group.entry(*g).or_default().push((value(e), *y));
    }
    let (mut agreed, mut pairs) = (0.0, 0usize);
    for sibs in by_group.values() {
        for (i, a) in sibs.iter().enumerate() {
            for b in &sibs[i + 1..] {
                if (a.1 - b.1).abs() <= 0.1 {
                    continue;
                }
                pairs += 1;
                let same = (a.0 - b.0) * (a.1 - b.1);
                agreed += if same > 0.0 {
                    1.0
                } else if same == 0.0 {
                    0.5
                } else {
                    0.0
                };
            }
        }
    }
    format!(
        "{agreed}/{pairs} ({:.1}%)",
        100.0 * agreed / pairs.max(1) as f64
    )
}

/// Prints the 30 rows of the largest changes (each row: its change, its text).
fn print_largest(mut rows: Vec<(f64, String)>) {
    rows.sort_by(|x, y| y.0.total_cmp(&x.0));
    for (_, r) in rows.iter().take(30) {
        println!("{r}");
    }
}

/// The waiting side's weight is `w[SHAPE_SETS]` hundredths of a sixteenth.
const WAITING: usize = SHAPE_SETS;

/// Our evaluation under shared set values: `w[s]` is the value of set `s` for both sides (the
/// board's point values), weighed an eighth for the mover and `w[WAITING]` / 1600 for the
/// side waiting.
fn eval_shared(w: &[f64], e: &EvalSets) -> f64 {
    let mine: f64 = e.mine.iter().map(|&s| w[usize::from(s)]).sum();
    let theirs: f64 = e.theirs.iter().map(|&s| w[usize::from(s)]).sum();
    f64::from(e.fixed) + mine / 8.0 - theirs * w[WAITING] / 1600.0
}

/// The `shared` mode: one value per set, as the board keeps them (no extra sums), and one
/// weight for the waiting side's sum. `OUT` gets `waiting N` (in 256ths; the mover's is 32)
/// and a set a line, `A B C D VALUE`.
fn shared(
    args: &[String],
    train: &[(EvalSets, f64)],
    held: &[(EvalSets, f64)],
    k: f64,
    lambda: f64,
    epochs: usize,
) -> Result<(), String> {
    let mut start: Vec<f64> = (0..SHAPE_SETS)
        .map(|s| f64::from(shape_set_value(s as u16)))
        .collect();
    start.push(100.0);
    let mut w = start.clone();
    let mut adam = Adam::new(w.len(), number(args, 4, 1.0)?);
    let n = train.len().max(1) as f64;
    for _ in 0..epochs {
        let mut g = vec![0.0; w.len()];
        for (e, y) in train {
            let p = sigmoid(eval_shared(&w, e) / k);
            let d = 2.0 * (p - y) * p * (1.0 - p) / k;
            for &s in &e.mine {
                g[usize::from(s)] += d / 8.0;
            }
            let mut theirs = 0.0;
            for &s in &e.theirs {
                g[usize::from(s)] -= d * w[WAITING] / 1600.0;
                theirs += w[usize::from(s)];
            }
            g[WAITING] -= d * theirs / 1600.0;
        }
        for (i, gi) in g.iter_mut().enumerate() {
            // The pull towards today's values, in the values' own scale.
            let pull = if i == WAITING {
                0.0
            } else {
                2.0 * lambda * (w[i] - start[i])
            };
            *gi = *gi / n + pull;
        }
        adam.descend(&mut w, &g, |_| true);
    }
    let today = |e: &EvalSets| f64::from(e.today);
    println!(
        "shared: held out {:.4} (today {:.4}), training {:.4} (today {:.4}); waiting weight {:.3} of the mover's",
        error(held, k, |e| eval_shared(&w, e)),
        error(held, k, today),
        error(train, k, |e| eval_shared(&w, e)),
        error(train, k, today),
        w[WAITING] / 1600.0 * 8.0
    );
    let sets = shape_sets();
    let mut rows: Vec<(f64, String)> = Vec::new();
    for (s, shapes) in sets.iter().enumerate() {
        rows.push((
            (w[s] - start[s]).abs(),
            format!("{shapes:?} {:.0} (today {:.0})", w[s], start[s]),
        ));
    }
    print_largest(rows);
    if let Some(out) = args.get(3) {
        let mut text = format!(
            "# Written by `eval_sets_fit {}` ({} training positions).\nwaiting {:.0}\n",
            args.join(" "),
            train.len(),
            w[WAITING] * 256.0 / 1600.0
        );
        for (s, shapes) in sets.iter().enumerate() {
            let [a, b, c, d] = shapes;
            text += &format!("{a} {b} {c} {d} {:.0}\n", w[s].round());
        }
        std::fs::write(out, text).map_err(|e| format!("{out}: {e}"))?;
    }
    Ok(())
}

fn main() -> ExitCode {
    command("eval_sets_fit", run)
}
