//! The game service and its store, tested through the public API on real databases (no
//! mocks): each test runs on a SQLite file in a temporary directory and on a PostgreSQL
//! schema of its own (`TEST_DATABASE_URL`; skipped with a line when it is not set).

#[macro_use]
#[path = "../support/test_db.rs"]
mod test_db;

mod changes;
mod clocks;
mod common;
mod concurrency;
mod durability;
mod engine;
mod engine_jobs;
mod flows;
mod migrate_store;
mod migrations;
mod model;
mod outbox_answered;
mod outbox_kinds;
mod patience;
mod processes;
mod rating_locks;
mod ratings;
mod social;
mod tournaments;
mod upgrade;
