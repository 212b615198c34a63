//! Helpers shared by integration tests. Include with `#[path = "../support/mod.rs"] mod support;`.

// Each test crate uses a different part of the support code.
#![allow(dead_code)]

pub mod fake_discord;
pub mod process;
pub mod test_db;
