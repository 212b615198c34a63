//! Fuzzing every parser that takes outside input (issue 16), with proptest on the stable
//! toolchain: button custom ids, move tokens and the move autocompletion (the `at` option),
//! the other slash-command option values (a tournament's name, the time options, the
//! computer's level), the SGF, PGN and PSQ importers, `config.toml`, and the interaction
//! JSON as serenity's shard deserializes it, then our parsing of it.
//!
//! Inputs are generated two ways: mutations of valid inputs (ids the bot itself writes,
//! records of random legal games, the example configuration, interactions built by the fake
//! Discord), edited with each format's own dictionary; and, for ids, structure-aware
//! sequences of the right kind of fields. The properties: no panic (proptest catches and
//! shrinks one), and where a parse succeeds, what it read holds up (ids and tokens survive a
//! round trip, records replay and export, a configuration hides its token).
//!
//! The normal suite runs a few thousand inputs per target; the `#[ignore]` tests run
//! 1,000,000 per target (`FUZZ_CASES` overrides): `cargo test --release --test fuzz -- --ignored
//! --nocapture` prints the counts and times.

#[path = "../support/mod.rs"]
#[allow(unused_imports)]
mod support;

mod mutate;
mod targets;

use std::time::Instant;

use proptest::strategy::Strategy;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Inputs per target in the normal suite.
const SHORT: u32 = 3_000;
/// Inputs per target in the long (ignored) runs.
const LONG: u32 = 1_000_000;

fn long_cases() -> u32 {
    std::env::var("FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(LONG)
}

/// Runs `check` on `cases` inputs from `strategy`; panics with the (shrunk) failing input.
pub fn fuzz<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    check: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let mut runner = TestRunner::new(Config {
        cases,
        failure_persistence: None,
        max_shrink_iters: 20_000,
        ..Config::default()
    });
    let started = Instant::now();
    let result = runner.run(&strategy, check);
    println!(
        "fuzz {name}: {cases} inputs in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    if let Err(e) = result {
        panic!("fuzz {name}: {e}");
    }
}

/// What the long runs found, kept in the suite.
#[test]
fn found_by_the_long_runs() {
    targets::found_by_the_long_runs();
}

macro_rules! targets {
    ($($target:ident, $long:ident;)*) => {
        $(
            #[test]
            fn $target() {
                targets::$target(SHORT);
            }

            #[test]
            #[ignore = "long: 1,000,000 inputs"]
            fn $long() {
                targets::$target(long_cases());
            }
        )*
    };
}

targets! {
    custom_ids, custom_ids_long;
    move_tokens, move_tokens_long;
    move_autocompletion, move_autocompletion_long;
    option_values, option_values_long;
    sgf, sgf_long;
    pgn, pgn_long;
    psq, psq_long;
    config_toml, config_toml_long;
    interaction_json, interaction_json_long;
}
