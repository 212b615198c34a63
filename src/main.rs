//! The `gomoku-bot` binary: command-line tools (and, later, the bot).

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use gomoku_bot::cli;

#[derive(Parser)]
#[command(
    name = "gomoku-bot",
    version,
    about = "Gomoku and Pente: rules tools and the Discord bot"
)]
struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replays a move list and prints the resulting position as one JSON object.
    Replay {
        /// The preset: gomoku, gomoku-standard, pente or keryo.
        #[arg(long)]
        rules: String,
        /// An option as key=value (repeatable), e.g. --set size=13.
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
        /// The moves, separated by spaces: "K10 L10 take:1".
        #[arg(long, default_value = "")]
        moves: String,
    },
    /// Prints a rule set in words.
    Rules {
        /// The preset (default: pente).
        preset: Option<String>,
        /// An option as key=value (repeatable).
        #[arg(long = "set", value_name = "KEY=VALUE")]
        set: Vec<String>,
    },
}

fn usage_error(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("error: {message}");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let args = Args::parse();
    match args.command {
        Command::Replay { rules, set, moves } => {
            let rules = match cli::rule_set(&rules, &set) {
                Ok(r) => r,
                Err(e) => return usage_error(e),
            };
            let (game, error) = cli::play_tokens(rules, &moves);
            let refused = error.is_some();
            let out = cli::replay_output(&game, error);
            let json = serde_json::to_string(&out).expect("plain data serializes");
            let mut stdout = std::io::stdout().lock();
            if writeln!(stdout, "{json}").is_err() {
                return ExitCode::from(1);
            }
            if refused {
                ExitCode::from(3)
            } else {
                ExitCode::SUCCESS
            }
        }
        Command::Rules { preset, set } => {
            match cli::rule_set(preset.as_deref().unwrap_or("pente"), &set) {
                Ok(r) => {
                    println!("{}", r.describe());
                    println!("\nAs options: {}", r.to_spec());
                    ExitCode::SUCCESS
                }
                Err(e) => usage_error(e),
            }
        }
    }
}
