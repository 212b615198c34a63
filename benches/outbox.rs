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
//! The figure is the median over the blocks of four rounds (off, on, on, off) of each block's
//! on/off ratio, for moves/s, the p99 latency and the process's CPU time per move. Run:
//! `cargo bench --bench outbox`; `GOMOKU_BENCH_PLIES` (default 10), `GOMOKU_BENCH_ROUNDS`
//! (default 16, a multiple of 4).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use gomoku_bot::discord::{self, Registration};
use gomoku_bot::i18n::I18n;
use gomoku_bot::service::{Service, ServiceConfig, SystemClock};
use gomoku_bot::store::StoreOptions;

// The harness allows its own dead code; the bench leaves some of its re-exports unused, and in
// a bench build the imports of its unit tests (whose #[test] functions are not built) as well.
#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

#[path = "e2e/play.rs"]
#[allow(dead_code)]
mod play;

use play::{Game, Router, Sample, ms, play_all, quantile, start_game};
use support::fake_discord::{FakeConfig, FakeDiscord, Req, RunningBot, TestUser};

/// Games played at once (two players each).
const GAMES: usize = 25;

/// One round's figures.
struct Round {
    on: bool,
    moves: usize,
    per_second: f64,
    median: Duration,
    p99: Duration,
    /// CPU time of the whole process (bot, fake and players) per move: less swayed than the
    /// wall time by the other work of a shared machine.
    cpu_per_move: Duration,
}

impl Round {
    fn of(on: bool, samples: &[Sample], wall: Duration, cpu: Duration) -> Round {
        let mut latencies: Vec<Duration> = samples.iter().map(|s| s.latency).collect();
        latencies.sort_unstable();
        Round {
            on,
            moves: samples.len(),
            per_second: samples.len() as f64 / wall.as_secs_f64(),
            median: quantile(&latencies, 0.5),
            p99: quantile(&latencies, 0.99),
            cpu_per_move: cpu / samples.len().max(1) as u32,
        }
    }
}

/// CPU time the process has used so far (user and system, all threads), from
/// /proc/self/stat in ticks of 10 ms; zero where there is no /proc.
fn process_cpu() -> Duration {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let Some(close) = stat.rfind(')') else {
        return Duration::ZERO;
    };
    let fields: Vec<&str> = stat[close + 2..].split(' ').collect();
    // utime and stime are fields 14 and 15 of stat; 3 is the first after the name.
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    Duration::from_millis(10 * ticks)
}

/// The median of some values.
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if !n.is_multiple_of(2) => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}

async fn bench(plies: usize, rounds: usize) {
    let load_before = load_average();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fake = Arc::new(
        FakeDiscord::start_with(FakeConfig {
            interaction_deadline: Some(Duration::from_secs(3)),
            ..FakeConfig::default()
        })
        .await,
    );
    let service = Arc::new(
        Service::open(
            &StoreOptions::for_file(&dir.path().join("bot.db")),
            ServiceConfig::default(),
            Arc::new(SystemClock),
        )
        .await
        .expect("open the database"),
    );
    gomoku_bot::render::warm_up();
    let framework = discord::framework(
        Arc::clone(&service),
        Arc::new(I18n::load()),
        Registration::Guild(fake.guild_id().get()),
    );
    let client = discord::client(fake.http(), framework)
        .await
        .expect("build the client");
    let bot = RunningBot::spawn(client);
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
    let mut results = Vec::new();
    for round in 0..rounds {
        // off, on, on, off, off, on, on, off, ...
        let on = (round + 1) % 4 >= 2;
        service.set_outbox(on);
        let first = round * plies;
        let cpu_before = process_cpu();
        let (samples, wall) = play_all(&fake, &router, &numbered, first..first + plies).await;
        results.push(Round::of(on, &samples, wall, process_cpu() - cpu_before));
    }
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
         {plies} moves per game per round, {rounds} rounds interleaved (off, on, on, off, ...)"
    );
    println!(
        "machine: {} cores; load average {load_before} before, {} after",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_average()
    );
    println!();
    println!(
        "{:<7} {:<8} {:>6} {:>9} {:>10} {:>8} {:>12}",
        "round", "outbox", "moves", "moves/s", "median ms", "p99 ms", "CPU ms/move"
    );
    for (i, r) in results.iter().enumerate() {
        println!(
            "{:<7} {:<8} {:>6} {:>9.1} {:>10} {:>8} {:>12.2}",
            i + 1,
            if r.on { "on" } else { "off" },
            r.moves,
            r.per_second,
            ms(r.median),
            ms(r.p99),
            r.cpu_per_move.as_secs_f64() * 1000.0
        );
    }
    let side = |on: bool, f: &dyn Fn(&Round) -> f64| {
        median(results.iter().filter(|r| r.on == on).map(f).collect())
    };
    let rate = |r: &Round| r.per_second;
    let p50 = |r: &Round| r.median.as_secs_f64() * 1000.0;
    let p99 = |r: &Round| r.p99.as_secs_f64() * 1000.0;
    let cpu = |r: &Round| r.cpu_per_move.as_secs_f64() * 1000.0;
    println!();
    println!(
        "{:<34} {:>9} {:>10} {:>8} {:>12}",
        "median over the rounds", "moves/s", "median ms", "p99 ms", "CPU ms/move"
    );
    for on in [false, true] {
        println!(
            "{:<34} {:>9.1} {:>10.1} {:>8.1} {:>12.2}",
            if on { "outbox on" } else { "outbox off" },
            side(on, &rate),
            side(on, &p50),
            side(on, &p99),
            side(on, &cpu)
        );
    }
    let ratio = |f: &dyn Fn(&Round) -> f64| side(true, f) / side(false, f);
    println!(
        "{:<34} {:>9.3} {:>10.3} {:>8.3} {:>12.3}",
        "on / off (of the medians)",
        ratio(&rate),
        ratio(&p50),
        ratio(&p99),
        ratio(&cpu)
    );
    // The rounds drift (the boards fill, the database grows, the machine's other work comes
    // and goes): within each block of four (off, on, on, off) a linear drift falls on both
    // sides alike, so the block's on/off ratio is the estimate, and their median the figure.
    let blocks: Vec<&[Round]> = results.chunks_exact(4).collect();
    let block_ratio = |f: &dyn Fn(&Round) -> f64| {
        median(
            blocks
                .iter()
                .map(|b| {
                    let on: f64 = b.iter().filter(|r| r.on).map(f).sum();
                    let off: f64 = b.iter().filter(|r| !r.on).map(f).sum();
                    on / off
                })
                .collect(),
        )
    };
    println!(
        "{:<34} {:>9.3} {:>10.3} {:>8.3} {:>12.3}",
        format!("on / off (median of {} blocks)", blocks.len()),
        block_ratio(&rate),
        block_ratio(&p50),
        block_ratio(&p99),
        block_ratio(&cpu)
    );
    println!(
        "by blocks: moves/s {:+.1}%, p99 {:+.1}%, CPU per move {:+.1}%",
        100.0 * (block_ratio(&rate) - 1.0),
        100.0 * (block_ratio(&p99) - 1.0),
        100.0 * (block_ratio(&cpu) - 1.0)
    );
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
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(bench(plies, rounds));
}
