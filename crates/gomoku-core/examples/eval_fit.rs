//! Fits the evaluation's weights to another engine's judgement of the same positions.
//!
//! ```text
//! cargo build --release -p gomoku-core --example eval_fit
//! eval_fit FILE [scale] [lambda] [fix]
//! ```
//!
//! `FILE` holds one Gomoku position a line: its moves (`H8 J9 …`), a tab, and the value a
//! reference engine gave it for the side to move (`scale`, default 200, is the value it maps to
//! a win probability of 1/(1+e^-1): Rapfi's scaling factor). The quiet positions (no window one
//! stone short of a line) are split, one in five held out. The weights of the evaluation's
//! terms (`gomoku_core::engine::tuning`) are fitted to the reference's win probabilities: a
//! least-squares fit of the logits (`value / scale`, clipped to ±4), then Gauss-Newton steps on
//! the probabilities, every weight pulled towards today's (scaled) by `lambda` (default 0.05)
//! times its term's variance; `fix` holds the windows and the mover's threat bonuses. Printed:
//! the held-out errors of today's weights and of the fit, and both sets of weights in the
//! engine's units.

use std::process::ExitCode;

use gomoku_core::engine::tuning::{FEATURE_NAMES, FEATURES, eval_features};
use gomoku_core::rules::{Action, Game, RuleSet};

/// The engine's weights now (src/engine/search/eval.rs, patterns.rs, windows.rs), per term.
fn current() -> [f64; FEATURES] {
    let win = [1.0, 8.0, 60.0, 900.0];
    let shape = [3.0, 10.0, 12.0, 45.0, 50.0, 400.0];
    let combo = [0.0, 0.0, 300.0, 800.0, 1000.0];
    let mut w = [0.0; FEATURES];
    for n in 0..4 {
        w[n] = 1.1 * win[n];
        w[4 + n] = -win[n];
    }
    for s in 0..6 {
        w[8 + s] = shape[s] / 8.0;
        w[14 + s] = -shape[s] / 16.0;
    }
    for t in 0..5 {
        w[20 + t] = combo[t] / 8.0;
        w[25 + t] = -combo[t] / 16.0;
    }
    w[30] = 20.0 / 8.0;
    w[31] = -20.0 / 16.0;
    w[32] = 1500.0;
    w[33] = 800.0;
    w[34] = 200.0;
    w
}

/// Solves `a x = b` (symmetric positive definite after the ridge) by Gaussian elimination.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let p = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap_or(c);
        a.swap(c, p);
        b.swap(c, p);
        let d = a[c][c];
        if d.abs() < 1e-12 {
            continue;
        }
        let (pivot, bc) = (a[c].clone(), b[c]);
        for (r, (row, br)) in a.iter_mut().zip(b.iter_mut()).enumerate() {
            let k = row[c] / d;
            if r != c && k != 0.0 {
                for (x, p) in row[c..].iter_mut().zip(&pivot[c..]) {
                    *x -= k * p;
                }
                *br -= k * bc;
            }
        }
    }
    (0..n)
        .map(|i| {
            if a[i][i].abs() < 1e-12 {
                0.0
            } else {
                b[i] / a[i][i]
            }
        })
        .collect()
}

fn dot(w: &[f64], x: &[f64]) -> f64 {
    w.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// The best single factor `k` for `k * w · x ≈ y`, and the mean squared error then.
fn scaled(w: &[f64], xs: &[Vec<f64>], ys: &[f64]) -> (f64, f64) {
    let p: Vec<f64> = xs.iter().map(|x| dot(w, x)).collect();
    let k = p.iter().zip(ys).map(|(a, b)| a * b).sum::<f64>()
        / p.iter().map(|a| a * a).sum::<f64>().max(1e-12);
    let mse = p
        .iter()
        .zip(ys)
        .map(|(a, b)| (k * a - b).powi(2))
        .sum::<f64>()
        / ys.len().max(1) as f64;
    (k, mse)
}

fn run(file: &str, scale: f64, lambda: f64, fix_windows: bool) -> Result<(), String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
    let rules = RuleSet::from_spec("gomoku").map_err(|e| e.to_string())?;
    let (mut train, mut test) = ((Vec::new(), Vec::new()), (Vec::new(), Vec::new()));
    let mut skipped = 0;
    for (k, line) in text.lines().enumerate() {
        let Some((moves, value)) = line.split_once('\t') else {
            continue;
        };
        let Ok(value) = value.trim().parse::<f64>() else {
            return Err(format!("line {}: value {value:?}", k + 1));
        };
        let mut game = Game::new(rules);
        for m in moves.split_whitespace() {
            let a = Action::parse(m, 15).map_err(|e| format!("line {}: {m}: {e}", k + 1))?;
            game.apply(a)
                .map_err(|e| format!("line {}: {m}: {e}", k + 1))?;
        }
        let Some(f) = eval_features(&game) else {
            skipped += 1;
            continue;
        };
        let x: Vec<f64> = f.iter().map(|&v| f64::from(v)).collect();
        let y = (value / scale).clamp(-4.0, 4.0);
        let set = if k % 5 == 4 { &mut test } else { &mut train };
        set.0.push(x);
        set.1.push(y);
    }
    println!(
        "{} positions fitted, {} held out, {skipped} not quiet",
        train.1.len(),
        test.1.len()
    );
    let mut a = vec![vec![0.0; FEATURES]; FEATURES];
    let mut b = vec![0.0; FEATURES];
    for (x, &y) in train.0.iter().zip(&train.1) {
        for i in 0..FEATURES {
            b[i] += x[i] * y;
            for j in 0..FEATURES {
                a[i][j] += x[i] * x[j];
            }
        }
    }
    // The prior: today's weights, scaled to the reference's values. Many terms say nearly the
    // same thing (an open three on one axis, a point that makes a three), so without a pull
    // towards the prior the fit trades huge weights of opposite sign; the pull is measured
    // in each term's own spread (`lambda` times its variance, per position).
    let now = current();
    let (k_train, _) = scaled(&now, &train.0, &train.1);
    let prior: Vec<f64> = now.iter().map(|w| w * k_train).collect();
    let n = train.1.len().max(1) as f64;
    let pull: Vec<f64> = (0..FEATURES)
        .map(|i| {
            let m = train.0.iter().map(|x| x[i]).sum::<f64>() / n;
            let v = train.0.iter().map(|x| (x[i] - m).powi(2)).sum::<f64>() / n;
            if fix_windows && !(8..32).contains(&i) {
                // Held at today's weights: the windows (which the move ordering shares) and
                // the mover's threat bonuses (which the threat searches' verdicts assume).
                1e12
            } else {
                lambda * n * v.max(1e-3)
            }
        })
        .collect();
    for i in 0..FEATURES {
        a[i][i] += pull[i];
        b[i] += pull[i] * prior[i];
    }
    let mut fitted = solve(a, b);
    // Then in win-probability terms (a logistic curve on both values), by Gauss-Newton steps
    // from the linear fit: a decided position then weighs no more than a clear one.
    let sig = |z: f64| 1.0 / (1.0 + (-z).exp());
    for _ in 0..30 {
        let mut a = vec![vec![0.0; FEATURES]; FEATURES];
        let mut b = vec![0.0; FEATURES];
        for (x, &y) in train.0.iter().zip(&train.1) {
            let p = sig(dot(&fitted, x));
            let g = p * (1.0 - p);
            let r = sig(y) - p;
            for i in 0..FEATURES {
                b[i] += g * x[i] * r;
                for j in 0..FEATURES {
                    a[i][j] += g * g * x[i] * x[j];
                }
            }
        }
        for i in 0..FEATURES {
            // The same pull, in probability terms (a logit's slope is at most 1/4).
            let p = pull[i] / 16.0;
            a[i][i] += p;
            b[i] += p * (prior[i] - fitted[i]);
        }
        let step = solve(a, b);
        for (w, d) in fitted.iter_mut().zip(&step) {
            *w += d;
        }
    }
    let loss = |w: &[f64], xs: &[Vec<f64>], ys: &[f64]| {
        xs.iter()
            .zip(ys)
            .map(|(x, &y)| (sig(dot(w, x)) - sig(y)).powi(2))
            .sum::<f64>()
            / ys.len().max(1) as f64
    };
    let var = |ys: &[f64]| {
        let m = ys.iter().sum::<f64>() / ys.len().max(1) as f64;
        ys.iter().map(|y| (y - m).powi(2)).sum::<f64>() / ys.len().max(1) as f64
    };
    let (k_now, mse_now) = scaled(&now, &test.0, &test.1);
    let (_, mse_fit) = scaled(&fitted, &test.0, &test.1);
    println!(
        "held out, logits: variance {:.4}; now {mse_now:.4} (factor {k_now:.5}); fitted {mse_fit:.4}",
        var(&test.1)
    );
    let probs: Vec<f64> = test.1.iter().map(|&y| sig(y)).collect();
    let now_scaled: Vec<f64> = now.iter().map(|w| w * k_train).collect();
    println!(
        "held out, win probabilities: variance {:.4}; now {:.4}; fitted {:.4}",
        var(&probs),
        loss(&now_scaled, &test.0, &test.1),
        loss(&fitted, &test.0, &test.1)
    );
    // In the engine's units: the fit divided by the factor that best maps today's evaluation.
    println!("term            now   fitted(engine units)");
    for i in 0..FEATURES {
        println!(
            "{:12} {:8.2} {:10.2}",
            FEATURE_NAMES[i],
            now[i],
            fitted[i] / k_train
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(file) = args.first() else {
        eprintln!("usage: eval_fit FILE [scale] [lambda] [fix]");
        return ExitCode::from(2);
    };
    let scale = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(200.0);
    let lambda = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(0.05);
    let fix_windows = args.get(3).is_some_and(|s| s == "fix");
    match run(file, scale, lambda, fix_windows) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
