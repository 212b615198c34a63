//! `gomoku-bot arena` from the core crate alone: the same flags and the same report, so long
//! matches run from a release build that takes minutes rather than the whole bot's half hour:
//!
//! ```text
//! cargo build --release -p gomoku-core --example arena
//! target/release/examples/arena --rules gomoku --a level=5 --b level=4 --games 40
//! ```

use std::process::ExitCode;

use gomoku_core::engine::arena::ArenaArgs;

fn main() -> ExitCode {
    let report = ArenaArgs::from_flags(std::env::args().skip(1)).and_then(|a| a.run());
    match report {
        Ok(text) => {
            println!("{text}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
