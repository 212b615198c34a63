//! End-to-end tests of Discord behaviour: the real serenity/poise client against the fake
//! Discord of `tests/support/fake_discord`. One test crate for all of them, because each crate
//! links the whole bot.

#[path = "../support/mod.rs"]
mod support;

mod bot;
mod clocks;
mod compose;
mod crash_storm;
mod database;
mod engine;
mod faults;
mod fixtures;
mod harness;
mod names;
mod ops;
mod outbox;
mod outbox_notices;
mod patience;
mod picker;
mod ratings;
mod renju;
mod review;
mod scale;
mod scenarios;
mod shards;
mod smoke;
mod social;
mod tournaments;
mod workers;
