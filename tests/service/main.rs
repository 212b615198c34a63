//! The game service and its SQLite store, tested through the public API on real database
//! files in temporary directories (no mocks).

mod clocks;
mod common;
mod concurrency;
mod durability;
mod engine;
mod flows;
mod migrations;
mod model;
mod ratings;
mod social;
mod tournaments;
