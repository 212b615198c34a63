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
//! The figure is the median over the blocks of four rounds (off, on, on, off) of each block's
//! on/off ratio, for moves/s, the p99 latency and the process's CPU time per move (the least
//! swayed by a shared machine). Run: `cargo bench --bench metrics`. Environment:
//! `GOMOKU_BENCH_PLIES` (default 10) moves per game per round, `GOMOKU_BENCH_ROUNDS` (default
//! 16, a multiple of 4) rounds, `GOMOKU_BENCH_GAMES` (default 25) games at once: more games make
//! longer rounds, so that more scrapes fall inside them; a game has room for about 360 moves.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gomoku_bot::discord::ops::BotProbe;
use gomoku_bot::discord::{self, Registration};
use gomoku_bot::i18n::I18n;
use gomoku_bot::ops::metrics as bot_metrics;
use gomoku_bot::ops::server::Listener;
use gomoku_bot::ops::shutdown::Drain;
use gomoku_bot::service::{Service, ServiceConfig, SystemClock};
use gomoku_bot::store::StoreOptions;
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

use play::{Game, Router, Sample, ms, play_all, quantile, start_game};
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

/// While on: scrapes `/metrics` every [`SCRAPE_EVERY`] and runs the upkeep every
/// [`UPKEEP_EVERY`]; counts the scrapes and their time in microseconds.
async fn scraper(
    addr: SocketAddr,
    handle: PrometheusHandle,
    scrapes: Arc<AtomicUsize>,
    scrape_micros: Arc<AtomicUsize>,
) {
    let mut last_upkeep = Instant::now();
    loop {
        tokio::time::sleep(SCRAPE_EVERY).await;
        if !ON.load(Ordering::Relaxed) {
            continue;
        }
        if last_upkeep.elapsed() >= UPKEEP_EVERY {
            handle.run_upkeep();
            last_upkeep = Instant::now();
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

async fn bench(game_count: usize, plies: usize, rounds: usize) {
    let handle = install();
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
    let drain = Drain::new();
    let client = discord::client_with_drain(fake.http(), framework, Arc::clone(&drain))
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
    let (_stop, stopped) = tokio::sync::watch::channel(false);
    tokio::spawn(listener.serve(Some(handle.clone()), Arc::new(probe), stopped));
    let bot = RunningBot::spawn(client);
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
        handle.clone(),
        Arc::clone(&scrapes),
        Arc::clone(&scrape_micros),
    ));

    let mut results = Vec::new();
    for round in 0..rounds {
        // off, on, on, off, off, on, on, off, ...
        let on = (round + 1) % 4 >= 2;
        ON.store(on, Ordering::Relaxed);
        let first = round * plies;
        let cpu_before = process_cpu();
        let (samples, wall) = play_all(&fake, &router, &numbered, first..first + plies).await;
        results.push(Round::of(on, &samples, wall, process_cpu() - cpu_before));
    }
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
         {plies} moves per game per round, {rounds} rounds interleaved (off, on, on, off, ...)",
        2 * game_count
    );
    println!(
        "machine: {} cores; load average {load_before} before, {} after",
        std::thread::available_parallelism().map_or(0, |n| n.get()),
        load_average()
    );
    println!();
    println!(
        "{:<7} {:<8} {:>6} {:>9} {:>10} {:>8} {:>12}",
        "round", "metrics", "moves", "moves/s", "median ms", "p99 ms", "CPU ms/move"
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
            if on { "metrics on" } else { "metrics off" },
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
        "target: under 3% apart; by blocks: moves/s {:+.1}%, p99 {:+.1}%, CPU per move {:+.1}%",
        100.0 * (block_ratio(&rate) - 1.0),
        100.0 * (block_ratio(&p99) - 1.0),
        100.0 * (block_ratio(&cpu) - 1.0)
    );
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
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let games = number("GOMOKU_BENCH_GAMES", 25).max(1);
    runtime.block_on(bench(games, plies, rounds));
}
