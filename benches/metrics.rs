//! The cost of the metrics on the hot path (issue 17): moves/s and move latency through the
//! fake Discord with the metrics on against off, in one process, the rounds interleaved.
//!
//! One bot (the real poise/serenity client of `gomoku_bot::discord` against the fake Discord
//! of `tests/support/fake_discord`, a SQLite file with the default durability) and 25 games of
//! two players started through `/challenge` and Accept. Then rounds: in each, all 50 players
//! move "as fast as the bot answers" (as in the `discord` bench) for `GOMOKU_BENCH_PLIES`
//! moves per game. The rounds go off, on, on, off, off, on, on, off, ... so that a drift (the
//! other work of the machine, the database growing, the games filling the board) falls on
//! both sides alike.
//!
//! - **On** is what `metrics.listen` turns on in `gomoku-bot run`: the Prometheus recorder
//!   records every metric, its upkeep runs every 5 s as the installed exporter's does, and
//!   `/metrics` is served by the bot's own listener and scraped once a second (a Prometheus
//!   scrapes every 15 s or so: this is the heavier case; each scrape also counts the open games
//!   in the database, as `BotProbe::refresh` does).
//! - **Off** is the process without metrics: the recorder hands out no-op handles, as the
//!   `metrics` facade does when no recorder is installed, and nothing scrapes.
//!
//! A process can install one global recorder only, so the bench installs one that forwards to
//! the Prometheus recorder while on and answers no-op handles while off: the off side pays one
//! more atomic load per metric than a process without any recorder, nothing else.
//!
//! The method (`benches/e2e/ab.rs`): the rounds alternate off and on in pairs of adjacent
//! rounds (the order inside a pair alternating), after a warm-up round; the figure for moves/s,
//! the latencies and the CPU time per move is the median of the paired on/off ratios, with
//! their quartiles and a distribution-free 95% interval of the median, and a verdict against
//! the 3% target that says "not resolved" when the noise is wider than the target. The bot
//! runs on a runtime of its own so that its threads' CPU time per move (the measure least
//! swayed by a shared machine) is told from the fake Discord's and the players'.
//!
//! Run: `cargo bench --bench metrics`. Environment: `GOMOKU_BENCH_PLIES` (default 10) moves per
//! game per round, `GOMOKU_BENCH_ROUNDS` (default 16, even) rounds counted,
//! `GOMOKU_BENCH_GAMES` (default 25) games at once: more games make longer rounds, so that
//! more scrapes fall inside them; a game has room for about 360 moves.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gomoku_bot::discord;
use gomoku_bot::discord::ops::BotProbe;
use gomoku_bot::ops::metrics as bot_metrics;
use gomoku_bot::ops::server::Listener;
use gomoku_bot::ops::shutdown::Drain;
use metrics::{Counter, Gauge, Histogram, Key, KeyName, Metadata, Recorder, SharedString, Unit};
use metrics_exporter_prometheus::{PrometheusHandle, PrometheusRecorder};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

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

/// How often the bench scrapes `/metrics` while on.
const SCRAPE_EVERY: Duration = Duration::from_secs(1);
/// How often the histograms' upkeep runs while on (the exporter's default).
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// Whether the metrics are on.
static ON: AtomicBool = AtomicBool::new(true);

/// The process's recorder: Prometheus while [`ON`], no-op handles while off.
struct Switch {
    prometheus: PrometheusRecorder,
}

impl Recorder for Switch {
    fn describe_counter(&self, key: KeyName, unit: Option<Unit>, description: SharedString) {
        self.prometheus.describe_counter(key, unit, description);
    }
    fn describe_gauge(&self, key: KeyName, unit: Option<Unit>, description: SharedString) {
        self.prometheus.describe_gauge(key, unit, description);
    }
    fn describe_histogram(&self, key: KeyName, unit: Option<Unit>, description: SharedString) {
        self.prometheus.describe_histogram(key, unit, description);
    }
    fn register_counter(&self, key: &Key, metadata: &Metadata<'_>) -> Counter {
        if ON.load(Ordering::Relaxed) {
            self.prometheus.register_counter(key, metadata)
        } else {
            Counter::noop()
        }
    }
    fn register_gauge(&self, key: &Key, metadata: &Metadata<'_>) -> Gauge {
        if ON.load(Ordering::Relaxed) {
            self.prometheus.register_gauge(key, metadata)
        } else {
            Gauge::noop()
        }
    }
    fn register_histogram(&self, key: &Key, metadata: &Metadata<'_>) -> Histogram {
        if ON.load(Ordering::Relaxed) {
            self.prometheus.register_histogram(key, metadata)
        } else {
            Histogram::noop()
        }
    }
}

/// Installs the switchable recorder; returns the Prometheus handle for the listener.
fn install() -> PrometheusHandle {
    let prometheus = bot_metrics::builder()
        .expect("the bot's histogram buckets")
        .build_recorder();
    let handle = prometheus.handle();
    metrics::set_global_recorder(Switch { prometheus }).expect("the only recorder");
    bot_metrics::describe();
    handle
}

/// While on: runs the histograms' upkeep every [`UPKEEP_EVERY`], as the installed exporter
/// does in the bot's process (this task runs on the bot's runtime).
async fn upkeep(handle: PrometheusHandle) {
    loop {
        tokio::time::sleep(UPKEEP_EVERY).await;
        if ON.load(Ordering::Relaxed) {
            handle.run_upkeep();
        }
    }
}

/// While on: scrapes `/metrics` every [`SCRAPE_EVERY`], as a Prometheus outside the bot would
/// (this task runs on the main runtime, the bot's listener answers on the bot's); counts the
/// scrapes and their time in microseconds.
async fn scraper(addr: SocketAddr, scrapes: Arc<AtomicUsize>, scrape_micros: Arc<AtomicUsize>) {
    loop {
        tokio::time::sleep(SCRAPE_EVERY).await;
        if !ON.load(Ordering::Relaxed) {
            continue;
        }
        let started = Instant::now();
        let mut stream = tokio::net::TcpStream::connect(addr)
            .await
            .expect("the metrics listener");
        stream
            .write_all(b"GET /metrics HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
            .await
            .expect("send the scrape");
        let mut answer = Vec::new();
        stream
            .read_to_end(&mut answer)
            .await
            .expect("read the scrape");
        assert!(
            answer.starts_with(b"HTTP/1.1 200"),
            "/metrics answered {}",
            String::from_utf8_lossy(&answer[..answer.len().min(200)])
        );
        scrapes.fetch_add(1, Ordering::Relaxed);
        scrape_micros.fetch_add(started.elapsed().as_micros() as usize, Ordering::Relaxed);
    }
}

async fn bench(
    bot_runtime: tokio::runtime::Handle,
    game_count: usize,
    plies: usize,
    rounds: usize,
) {
    let handle = install();
    let load_before = ab::load_average();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fake = Arc::new(
        FakeDiscord::start_with(FakeConfig {
            interaction_deadline: Some(Duration::from_secs(3)),
            ..FakeConfig::default()
        })
        .await,
    );
    // Everything of the bot's process starts on the bot's runtime, so that its threads' CPU
    // time is the bot's alone.
    let (http, guild) = (fake.http(), fake.guild_id().get());
    let database = dir.path().join("bot.db");
    let prometheus = handle.clone();
    // `_stop` keeps the listener serving to the end.
    let (bot, addr, _stop) = bot_runtime
        .spawn(async move {
            let (service, framework) = ab::service_and_framework(&database, guild).await;
            let drain = Drain::new();
            let client = discord::client_with_drain(http, framework, Arc::clone(&drain))
                .await
                .expect("build the client");
            let probe = BotProbe::new(
                Arc::clone(&service),
                Arc::clone(&client.shard_manager),
                1,
                Arc::clone(&drain),
            );
            let listener = Listener::bind("127.0.0.1:0").await.expect("a free port");
            let addr = listener.local_addr().expect("the bound address");
            let (stop, stopped) = tokio::sync::watch::channel(false);
            tokio::spawn(listener.serve(Some(prometheus.clone()), Arc::new(probe), stopped));
            tokio::spawn(upkeep(prometheus));
            (RunningBot::spawn(client), addr, stop)
        })
        .await
        .expect("the bot starts");
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;

    let users: Vec<TestUser> = (0..2 * game_count)
        .map(|i| fake.add_user(&format!("player{i:02}")))
        .collect();
    let mut games: Vec<Game> = Vec::new();
    for pair in users.chunks(2) {
        games.push(start_game(&fake, &pair[0], &pair[1]).await);
    }
    let numbered: Vec<(usize, &Game)> = games.iter().enumerate().collect();
    let router = Arc::new(Mutex::new(Router::default()));
    tokio::spawn(Router::run(Arc::clone(&router), fake.subscribe_requests()));
    let scrapes = Arc::new(AtomicUsize::new(0));
    let scrape_micros = Arc::new(AtomicUsize::new(0));
    tokio::spawn(scraper(
        addr,
        Arc::clone(&scrapes),
        Arc::clone(&scrape_micros),
    ));

    let results = ab::play_rounds(&fake, &router, &numbered, plies, rounds, |on| {
        ON.store(on, Ordering::Relaxed)
    })
    .await;
    ON.store(true, Ordering::Relaxed);
    let committed = handle
        .render()
        .lines()
        .find_map(|l| l.strip_prefix("gomoku_moves_committed_total "))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .unwrap_or(0.0);
    bot.shutdown().await;
    let violations = fake.violations();

    println!();
    println!(
        "gomoku-bot: the metrics' cost on the hot path; {game_count} games, {} players at once, \
         {plies} moves per game per round, a warm-up round and {rounds} rounds in pairs (off, on, \
         on, off, ...)",
        2 * game_count
    );
    println!(
        "machine: {} cores; load average {load_before} before, {} after",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        ab::load_average()
    );
    println!();
    ab::report("metrics", &results);
    let on_moves: usize = results.iter().filter(|r| r.on).map(|r| r.moves).sum();
    let scraped = scrapes.load(Ordering::Relaxed);
    println!(
        "while on: {scraped} scrapes of /metrics, {:.1} ms each on average; \
         gomoku_moves_committed_total {committed} (the moves of the rounds on: {on_moves}, of the \
         games' start: none)",
        scrape_micros.load(Ordering::Relaxed) as f64 / 1000.0 / scraped.max(1) as f64
    );
    if !violations.is_empty() {
        eprintln!("{} violation(s) of Discord's API:", violations.len());
        for v in violations.iter().take(20) {
            eprintln!("  {v}");
        }
        std::process::exit(1);
    }
    if committed != on_moves as f64 {
        eprintln!("the metrics counted {committed} moves where {on_moves} were played while on");
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
    let games = number("GOMOKU_BENCH_GAMES", 25).max(1);
    runtime.block_on(bench(bot_runtime.handle().clone(), games, plies, rounds));
    // The bot's runtime ends here, outside of any runtime's context.
    drop(bot_runtime);
}
