//! The rules core and the computer opponent of gomoku-bot, built as a crate of their own
//! (`crates/gomoku-core`) so that test builds optimise them; the bot re-exports both modules
//! (`gomoku_bot::rules`, `gomoku_bot::engine`).
//!
//! Layers: `rules` (pure game logic) below `engine` (players that choose an action).

pub mod engine;
pub mod rules;
