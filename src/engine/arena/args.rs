//! The `arena` command's settings as text, and the command itself: shared by `gomoku-bot
//! arena` (whose flags clap reads) and the core crate's `arena` example (which reads the same
//! flags itself), so a match can run from a release build of the core alone, in minutes
//! rather than the bot's half hour.

use std::time::Duration;

use super::{ArenaConfig, parse_side, record_line, run};
use crate::engine::data_lines::data_lines;
use crate::rules::{Game, Preset, RuleSet};

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
    /// A file of openings, one a line (moves as the records write them, `#` comments), used
    /// in turn by the game pairs instead of random stones; `None`: random stones.
    pub openings: Option<String>,
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
            openings: None,
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
                "--openings" => out.openings = Some(value),
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
        let openings = match &self.openings {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
                read_openings(&text, rules).map_err(|e| format!("{path}: {e}"))?
            }
            None => Vec::new(),
        };
        Ok(ArenaConfig {
            rules,
            a,
            b,
            games: self.games,
            threads: self.threads,
            budget_scale: self.budget_scale,
            seed: self.seed,
            opening_stones: self.opening_stones,
            openings,
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

/// The openings of an `--openings` file under `rules`: one a line, its moves separated by
/// spaces, blank lines and `#` comments skipped.
///
/// # Errors
/// A line saying which line and move the rules refuse (or that a game ends in its opening),
/// or that the file holds no opening.
pub fn read_openings(text: &str, rules: RuleSet) -> Result<Vec<Game>, String> {
    let mut openings = Vec::new();
    for (n, line) in data_lines(text) {
        let mut game = Game::new(rules);
        for token in line.split_whitespace() {
            game.apply_token(token)
                .map_err(|e| format!("line {n}: {token}: {e}"))?;
        }
        if game.is_over() {
            return Err(format!("line {n}: the game is over after its opening"));
        }
        openings.push(game);
    }
    if openings.is_empty() {
        return Err("no opening in the file".into());
    }
    Ok(openings)
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

    #[test]
    fn an_openings_file_gives_the_pairs_their_openings_in_turn() {
        let rules = RuleSet::from_spec("gomoku").expect("spec");
        let text = "# balanced\nH8 J9 G7\n\n  H8 H9   # two stones\n";
        let openings = read_openings(text, rules).expect("openings");
        let records: Vec<String> = openings
            .iter()
            .map(|g| {
                g.record()
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        assert_eq!(records, ["H8 J9 G7", "H8 H9"]);
        let mut c = flags("--rules gomoku --a 5 --b 4")
            .expect("flags")
            .config()
            .expect("config");
        c.openings = openings;
        let first = |pair| super::super::opening(&c, pair).record().len();
        assert_eq!([first(0), first(1), first(2), first(3)], [3, 2, 3, 2]);
    }

    #[test]
    fn a_bad_openings_file_is_refused_with_its_line() {
        let rules = RuleSet::from_spec("gomoku").expect("spec");
        let e = read_openings("H8 J9\nH8 H8\n", rules).expect_err("occupied");
        assert!(e.starts_with("line 2: H8"), "{e}");
        let e = read_openings("H8 Z99\n", rules).expect_err("off the board");
        assert!(e.starts_with("line 1: Z99"), "{e}");
        assert!(read_openings("# nothing\n\n", rules).is_err());
        let five = "A1 A15 B1 B15 C1 C15 D1 D15 E1";
        let e = read_openings(five, rules).expect_err("over");
        assert!(e.contains("over"), "{e}");
        let missing = flags("--rules gomoku --a 5 --b 4 --openings /nonexistent/openings.txt")
            .expect("flags");
        assert!(
            missing
                .config()
                .expect_err("no file")
                .starts_with("/nonexistent")
        );
    }

    #[test]
    fn the_balanced_openings_file_reads_as_openings_of_three_stones() {
        let text =
            include_str!("../../../crates/gomoku-core/examples/gomoku_balanced_openings.txt");
        let rules = RuleSet::from_spec("gomoku").expect("spec");
        let openings = read_openings(text, rules).expect("openings");
        assert_eq!(openings.len(), 24);
        assert!(
            openings
                .iter()
                .all(|g| g.record().len() == 3 && !g.is_over())
        );
        let more =
            include_str!("../../../crates/gomoku-core/examples/gomoku_balanced_openings_more.txt");
        let more = read_openings(more, rules).expect("openings");
        assert_eq!(more.len(), 211);
        assert!(more.iter().all(|g| g.record().len() == 3 && !g.is_over()));
        // None of them is one of the first file's.
        assert!(
            more.iter()
                .all(|g| openings.iter().all(|o| o.record() != g.record()))
        );
    }
}
