//! What the offline examples share (`policy_fit`, `eval_sets_fit`, `make_book`): the frame of
//! a command, and the Adam steps of the fits. Included by each with `mod common;` (a folder
//! without `main.rs` is no example of its own).

// Not every example uses every part.
#![allow(dead_code)]

use std::process::ExitCode;

/// Runs `run` on the command's arguments: its error, if any, goes to standard error after the
/// command's `name`, with a failing exit status.
pub fn command(name: &str, run: impl FnOnce(&[String]) -> Result<(), String>) -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{name}: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The optional numeric argument at `k`: `default` when it is absent, an error naming it when
/// it does not parse.
pub fn number(args: &[String], k: usize, default: f64) -> Result<f64, String> {
    args.get(k).map_or(Ok(default), |s| {
        s.parse().map_err(|_| format!("`{s}` is not a number"))
    })
}

/// Adam (Kingma and Ba), the usual first-order optimiser: each parameter's step is its
/// gradient's running mean over the running root mean square, so parameters of very different
/// scales move at the same `rate`.
pub struct Adam {
    m: Vec<f64>,
    v: Vec<f64>,
    t: i32,
    rate: f64,
}

impl Adam {
    /// An optimiser of `n` parameters moving them by about `rate` a step.
    pub fn new(n: usize, rate: f64) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
            rate,
        }
    }

    /// One step of the parameters `w` that `free` allows down `grad`, a loss's gradient.
    pub fn descend(&mut self, w: &mut [f64], grad: &[f64], free: impl Fn(usize) -> bool) {
        let (b1, b2) = (0.9, 0.999);
        self.t += 1;
        for (k, (x, &g)) in w.iter_mut().zip(grad).enumerate() {
            if !free(k) {
                continue;
            }
            self.m[k] = b1 * self.m[k] + (1.0 - b1) * g;
            self.v[k] = b2 * self.v[k] + (1.0 - b2) * g * g;
            let mh = self.m[k] / (1.0 - b1.powi(self.t));
            let vh = self.v[k] / (1.0 - b2.powi(self.t));
            *x -= self.rate * mh / (vh.sqrt() + 1e-8);
        }
    }
}
