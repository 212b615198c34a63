//! gomoku-bot: play Gomoku and Pente on Discord.
//!
//! Layers, each knowing only the ones below it (DESIGN.md section 1):
//! `rules` (pure game logic) and the command-line tools built on it; `store` (the database)
//! and `service` (challenges, lobbies, games) above them.

pub mod cli;
// The rules core and the engine are the `gomoku-core` crate (optimised in test builds, see
// crates/gomoku-core/Cargo.toml); re-exported so that every path stays `crate::rules::…`.
pub use gomoku_core::{engine, rules};
pub mod config;
pub mod discord;
pub mod i18n;
pub mod ops;
pub mod render;
pub mod service;
pub mod store;
pub mod tournament;
