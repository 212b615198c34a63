//! The cost of the durable outbox (issue 16) on the hot path: moves/s and move latency through
//! the fake Discord with the outbox on against off, in one process, the rounds interleaved.
//!
//! One bot (the real poise/serenity client of `gomoku_bot::discord` against the fake Discord
//! of `tests/support/fake_discord`, a SQLite file with the default durability) and 25 games of
//! two players started through `/challenge` and Accept. Then rounds: in each, all 50 players
//! move "as fast as the bot answers" for `GOMOKU_BENCH_PLIES` moves per game. The rounds go
//! off, on, on, off, ... (as in the `metrics` bench) so that a drift falls on both sides alike.
//!
//! - **On**: each move owes its board through the outbox: a row written in the move's
//!   transaction, the answer carrying the board, then the poster finishing the row (the
//!   ping owed, if any, and one commit marking the round's rows sent).
//! - **Off** (`Service::set_outbox(false)`): moves owe nothing, the front answers as before
//!   the outbox.
//!
//! The method is the `metrics` bench's (`benches/e2e/ab.rs`): pairs of adjacent rounds after a
//! warm-up round, the median of the paired on/off ratios with their spread and a 95% interval,
//! the bot on a runtime of its own for its CPU time per move. Run: `cargo bench --bench
//! outbox`; `GOMOKU_BENCH_PLIES` (default 10), `GOMOKU_BENCH_ROUNDS` (default 16, even).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use gomoku_bot::discord;

// The harness allows its own dead code; the bench leaves some of its re-exports unused, and in
// a bench build the imports of its unit tests (whose #[test] functions are not built) as well.
#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

#[path = "e2e/play.rs"]
#[allow(dead_code)]
mod play;

#[path = "e2e/ab.rs"]
mod ab;

// Only the CPU time and load average readers are used here.
#[path = "e2e/procs.rs"]
#[allow(dead_code)]
mod procs;

use play::{Game, Router, start_game};
use support::fake_discord::{FakeConfig, FakeDiscord, Req, RunningBot, TestUser};

/// Games played at once (two players each).
const GAMES: usize = 25;

async fn bench(bot_runtime: tokio::runtime::Handle, plies: usize, rounds: usize) {
    let load_before = ab::load_average();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fake = Arc::new(
        FakeDiscord::start_with(FakeConfig {
            interaction_deadline: Some(Duration::from_secs(3)),
            ..FakeConfig::default()
        })
        .await,
    );
    // The bot starts on the bot's runtime, so that its threads' CPU time is the bot's alone.
    let (http, guild) = (fake.http(), fake.guild_id().get());
    let database = dir.path().join("bot.db");
    let (service, bot) = bot_runtime
        .spawn(async move {
            let (service, framework) = ab::service_and_framework(&database, guild).await;
            let client = discord::client(http, framework)
                .await
                .expect("build the client");
            (service, RunningBot::spawn(client))
        })
        .await
        .expect("the bot starts");
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;

    let users: Vec<TestUser> = (0..2 * GAMES)
        .map(|i| fake.add_user(&format!("player{i:02}")))
        .collect();
    let mut games: Vec<Game> = Vec::new();
    for pair in users.chunks(2) {
        games.push(start_game(&fake, &pair[0], &pair[1]).await);
    }
    let numbered: Vec<(usize, &Game)> = games.iter().enumerate().collect();
    let router = Arc::new(Mutex::new(Router::default()));
    tokio::spawn(Router::run(Arc::clone(&router), fake.subscribe_requests()));
    let results = ab::play_rounds(&fake, &router, &numbered, plies, rounds, |on| {
        service.set_outbox(on)
    })
    .await;
    service.set_outbox(true);
    // Everything owed was sent: nothing waits in the outbox.
    let mut waiting = u64::MAX;
    for _ in 0..100 {
        waiting = service.outbox_pending().await.unwrap_or(u64::MAX);
        if waiting == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    bot.shutdown().await;
    let violations = fake.violations();

    println!();
    println!(
        "gomoku-bot: the outbox's cost on the hot path; {GAMES} games, 50 players at once, \
         {plies} moves per game per round, a warm-up round and {rounds} rounds in pairs (off, on, on, \
         off, ...)"
    );
    println!(
        "machine: {} cores; load average {load_before} before, {} after",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        ab::load_average()
    );
    println!();
    ab::report("outbox", &results);
    println!("outbox rows still pending at the end: {waiting}");
    if !violations.is_empty() {
        eprintln!("{} violation(s) of Discord's API:", violations.len());
        for v in violations.iter().take(20) {
            eprintln!("  {v}");
        }
        std::process::exit(1);
    }
    if waiting != 0 {
        eprintln!("{waiting} outbox rows were never sent");
        std::process::exit(1);
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too: keep that short.
    let quick = !std::env::args().any(|a| a == "--bench");
    let number = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|p| p.parse().ok())
            .unwrap_or(default)
    };
    let plies = number("GOMOKU_BENCH_PLIES", if quick { 2 } else { 10 });
    let rounds = number("GOMOKU_BENCH_ROUNDS", if quick { 4 } else { 16 });
    let rounds = rounds.max(2) / 2 * 2;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let bot_runtime = ab::bot_runtime();
    runtime.block_on(bench(bot_runtime.handle().clone(), plies, rounds));
    // The bot's runtime ends here, outside of any runtime's context.
    drop(bot_runtime);
}
