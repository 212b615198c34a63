//! The `arena` command's settings as text, and the command itself: shared by `gomoku-bot
//! arena` (whose flags clap reads) and the core crate's `arena` example (which reads the same
//! flags itself), so a match can run from a release build of the core alone, in minutes
//! rather than the bot's half hour.

use std::time::Duration;

use super::{ArenaConfig, parse_side, record_line, run};
use crate::rules::{Preset, RuleSet};

/// The arena command's settings as written on the command line.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaArgs {
    /// The preset: gomoku, gomoku-standard, pente, keryo or renju.
    pub rules: String,
    /// Options as key=value.
    pub set: Vec<String>,
    /// Side A (`level=N`, `level=N,key=value…`, or `pbrain=COMMAND`).
    pub a: String,
    /// Side B.
    pub b: String,
    /// An external side's time per move, in milliseconds.
    pub pbrain_turn_ms: u64,
    /// Games to play.
    pub games: usize,
    /// Games played at once.
    pub threads: usize,
    /// Multiplies every level's budget.
    pub budget_scale: f64,
    /// Seed of the openings and the engines' choices.
    pub seed: u64,
    /// Random stones near the centre before the engines take over.
    pub opening_stones: usize,
    /// Also print every game's moves.
    pub records: bool,
}

impl Default for ArenaArgs {
    /// The command's defaults (no sides: `a` and `b` must be given).
    fn default() -> ArenaArgs {
        ArenaArgs {
            rules: String::new(),
            set: Vec::new(),
            a: String::new(),
            b: String::new(),
            pbrain_turn_ms: 2000,
            games: 20,
            threads: 1,
            budget_scale: 1.0,
            seed: 1,
            opening_stones: 3,
            records: false,
        }
    }
}

impl ArenaArgs {
    /// Reads the command's flags (`--rules gomoku --a level=5 --b level=4 --games 40 …`, the
    /// same as `gomoku-bot arena`'s) from `args`, the program name left out.
    ///
    /// # Errors
    /// A line saying which flag or value is wrong.
    pub fn from_flags<I: IntoIterator<Item = String>>(args: I) -> Result<ArenaArgs, String> {
        let mut out = ArenaArgs::default();
        let mut it = args.into_iter();
        while let Some(flag) = it.next() {
            if flag == "--records" {
                out.records = true;
                continue;
            }
            let value = it.next().ok_or_else(|| format!("{flag} needs a value"))?;
            let bad = || format!("{flag}: `{value}` is not a valid value");
            match flag.as_str() {
                "--rules" => out.rules = value,
                "--set" => out.set.push(value),
                "--a" => out.a = value,
                "--b" => out.b = value,
                "--pbrain-turn-ms" => out.pbrain_turn_ms = value.parse().map_err(|_| bad())?,
                "--games" => out.games = value.parse().map_err(|_| bad())?,
                "--threads" => out.threads = value.parse().map_err(|_| bad())?,
                "--budget-scale" => out.budget_scale = value.parse().map_err(|_| bad())?,
                "--seed" => out.seed = value.parse().map_err(|_| bad())?,
                "--opening-stones" => out.opening_stones = value.parse().map_err(|_| bad())?,
                _ => return Err(format!("unknown flag {flag}")),
            }
        }
        if out.rules.is_empty() || out.a.is_empty() || out.b.is_empty() {
            return Err("--rules, --a and --b are required".into());
        }
        Ok(out)
    }

    /// The match these settings describe.
    ///
    /// # Errors
    /// A line saying what is wrong (rules, a side).
    pub fn config(&self) -> Result<ArenaConfig, String> {
        let preset: Preset = self.rules.parse().map_err(|e| format!("{e}"))?;
        let rules = RuleSet::with_options(preset, &self.set).map_err(|e| format!("{e}"))?;
        let turn = Duration::from_millis(self.pbrain_turn_ms);
        let a = parse_side(&self.a, turn).map_err(|e| e.to_string())?;
        let b = parse_side(&self.b, turn).map_err(|e| e.to_string())?;
        Ok(ArenaConfig {
            rules,
            a,
            b,
            games: self.games,
            threads: self.threads,
            budget_scale: self.budget_scale,
            seed: self.seed,
            opening_stones: self.opening_stones,
            progress_records: self.records,
        })
    }

    /// Plays the match and returns the report the command prints: the result, then every
    /// game's moves when `records` is set.
    ///
    /// # Errors
    /// A line saying what is wrong with the settings, before any game is played.
    pub fn run(&self) -> Result<String, String> {
        let result = run(&self.config()?).map_err(|e| e.to_string())?;
        let mut text = result.to_string();
        if self.records {
            for (k, a_seat, moves) in &result.records {
                text.push('\n');
                text.push_str(&record_line(*k, *a_seat, moves));
            }
        }
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(text: &str) -> Result<ArenaArgs, String> {
        ArenaArgs::from_flags(text.split_whitespace().map(str::to_string))
    }

    #[test]
    fn flags_read_as_the_command_reads_them() {
        let a = flags(
            "--rules gomoku --set size=9 --a level=5,guard=0 --b 4 --games 40 --threads 2 \
             --budget-scale 0.5 --seed 9 --opening-stones 2 --pbrain-turn-ms 100 --records",
        )
        .expect("flags");
        assert_eq!(a.set, vec!["size=9".to_string()]);
        assert_eq!(
            (a.games, a.threads, a.seed, a.opening_stones),
            (40, 2, 9, 2)
        );
        assert!(a.records && a.budget_scale == 0.5 && a.pbrain_turn_ms == 100);
        let c = a.config().expect("config");
        assert_eq!(c.rules.size, 9);
        assert!(matches!(c.a, super::super::Side::Tuned { .. }), "{:?}", c.a);
        let d = flags("--rules gomoku --a 5 --b 4").expect("defaults");
        assert_eq!(d.games, ArenaArgs::default().games);
        for bad in [
            "--rules gomoku --a 5",
            "--rules gomoku --a 5 --b 4 --games",
            "--rules gomoku --a 5 --b 4 --games x",
            "--rules gomoku --a 5 --b 4 --colour red",
        ] {
            assert!(flags(bad).is_err(), "{bad}");
        }
        assert!(
            flags("--rules chess --a 5 --b 4")
                .expect("flags")
                .config()
                .is_err()
        );
        assert!(
            flags("--rules gomoku --a 5,nonsense=1 --b 4")
                .expect("flags")
                .config()
                .is_err()
        );
    }
}
