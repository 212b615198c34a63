//! The A/B harness shared by the benches that measure what a switch costs on the hot path
//! through the fake Discord (`metrics`: the Prometheus recorder and its scrapes; `outbox`: the
//! durable outbox): the same games, the rounds played alternately with the switch off and on,
//! and figures that stay meaningful on a noisy shared machine.
//!
//! Include with `#[path = "e2e/ab.rs"] mod ab;` beside `mod play;` and `mod procs;`.
//!
//! The method:
//! - **Pairs of adjacent rounds.** The rounds go off, on, on, off, off, on, ...: each pair of
//!   adjacent rounds holds one of each, and the order inside the pairs alternates, so neither
//!   side always plays first (after the other's warm caches, or in a drifting load). Each pair
//!   gives one on/off ratio from two rounds a few seconds apart; a change in the machine's other
//!   work between pairs, which swings single rounds by ±30% here, falls on both sides of a pair.
//! - **The median of the paired ratios** is the figure, with the spread of those ratios
//!   (quartiles) and a distribution-free 95% confidence interval of the median (from the order
//!   statistics: it needs no assumption on the noise's shape).
//! - **CPU time of the bot per move.** The bot runs on a runtime of its own whose threads are
//!   named [`BOT_THREAD`]; their CPU time (with SQLite's worker threads, which serve the bot's
//!   pool) is read from `/proc/self/task/*/stat` around each round. The fake Discord and the
//!   50 players, which run on the main runtime, are left out: they do the same work either way
//!   and would only dilute the difference. This is the measure least swayed by the machine.
//! - **The p99 of all rounds pooled** per side, beside the median of paired p99 ratios: a
//!   round's p99 is its 8th slowest move of 800, noisy on its own.
//! - A **warm-up round**, not counted, before the first pair.
//! - The verdict is stated from the interval: within 3% when it lies inside [0.97, 1.03],
//!   beyond when it lies outside, and otherwise "not resolved": the noise is larger than the
//!   target and no claim is made.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::play::{Game, Router, Sample, ms, play_all, quantile};
use crate::support::fake_discord::FakeDiscord;

/// The name of the bot runtime's threads (at most 15 bytes: Linux keeps 15 of a thread's name).
pub(crate) const BOT_THREAD: &str = "gomoku-bot";
/// SQLite's connection threads, as `sqlx` names them (`sqlx-sqlite-worker-N`, cut to 15).
const SQLITE_THREAD: &str = "sqlx-sqlite-wor";
/// The target: the two sides within 3% of each other.
const TARGET: f64 = 0.03;

/// A runtime of its own for the bot, so that its threads' CPU time can be told from the fake
/// Discord's and the players'. Its blocking threads are kept for an hour: a thread that ended
/// would take its CPU time out of the sums.
pub(crate) fn bot_runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .thread_name(BOT_THREAD)
        .thread_keep_alive(Duration::from_secs(3600))
        .enable_all()
        .build()
        .expect("the bot's runtime")
}

/// What the benches' bots are made of: the service on a SQLite file at `database` (the
/// default durability), the board pictures warmed up, and the framework for `guild`. Call it
/// on the bot's runtime ([`bot_runtime`]).
pub(crate) async fn service_and_framework(
    database: &std::path::Path,
    guild: u64,
) -> (
    Arc<gomoku_bot::service::Service>,
    poise::Framework<gomoku_bot::discord::Data, gomoku_bot::discord::Error>,
) {
    use gomoku_bot::service::{Service, ServiceConfig, SystemClock};
    let service = Arc::new(
        Service::open(
            &gomoku_bot::store::StoreOptions::for_file(database),
            ServiceConfig::default(),
            Arc::new(SystemClock),
        )
        .await
        .expect("open the database"),
    );
    gomoku_bot::render::warm_up();
    let framework = gomoku_bot::discord::framework(
        Arc::clone(&service),
        Arc::new(gomoku_bot::i18n::I18n::load()),
        gomoku_bot::discord::Registration::Guild(guild),
    );
    (service, framework)
}

/// CPU time (user and system, in clock ticks of 10 ms) of each of the bot's threads.
fn bot_threads_cpu() -> BTreeMap<u32, u64> {
    let mut ticks = BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return ticks;
    };
    for task in tasks.flatten() {
        let Some(tid) = task
            .file_name()
            .to_str()
            .and_then(|t| t.parse::<u32>().ok())
        else {
            continue;
        };
        let path = task.path();
        let comm = std::fs::read_to_string(path.join("comm")).unwrap_or_default();
        let comm = comm.trim_end();
        if !comm.starts_with(BOT_THREAD) && !comm.starts_with(SQLITE_THREAD) {
            continue;
        }
        let stat = std::fs::read_to_string(path.join("stat")).unwrap_or_default();
        if let Some(close) = stat.rfind(')') {
            let fields: Vec<&str> = stat[close + 2..].split(' ').collect();
            // utime and stime are fields 14 and 15 of stat; index 0 here is field 3.
            let used: u64 = [11, 12]
                .iter()
                .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
                .sum();
            ticks.insert(tid, used);
        }
    }
    ticks
}

/// The bot's CPU time between two readings: the threads seen at both ends, plus the whole of
/// the threads born since (a thread that ended in between is missed: the bot runtime keeps its
/// threads, SQLite's live as long as their connection).
fn cpu_between(before: &BTreeMap<u32, u64>, after: &BTreeMap<u32, u64>) -> Duration {
    let ticks: u64 = after
        .iter()
        .map(|(tid, &now)| now.saturating_sub(before.get(tid).copied().unwrap_or(0)))
        .sum();
    Duration::from_millis(10 * ticks)
}

/// CPU time the whole process has used so far (user and system, all threads).
fn process_cpu() -> Duration {
    crate::procs::process_cpu(std::process::id())
}

pub(crate) use crate::procs::load_average;

/// Whether the switch is on in round `round` (from 0): off, on, on, off, off, on, ...
pub(crate) fn is_on(round: usize) -> bool {
    (round + round / 2) % 2 == 1
}

/// One round's figures.
pub(crate) struct Round {
    pub(crate) on: bool,
    pub(crate) moves: usize,
    pub(crate) per_second: f64,
    pub(crate) median: Duration,
    pub(crate) p99: Duration,
    /// The latencies of the round's moves, sorted.
    latencies: Vec<Duration>,
    /// CPU time of the bot's threads per move.
    pub(crate) bot_cpu_per_move: Duration,
    /// CPU time of the whole process (bot, fake and players) per move.
    pub(crate) process_cpu_per_move: Duration,
}

impl Round {
    fn of(on: bool, samples: &[Sample], wall: Duration, bot_cpu: Duration, cpu: Duration) -> Self {
        let mut latencies: Vec<Duration> = samples.iter().map(|s| s.latency).collect();
        latencies.sort_unstable();
        let moves = samples.len().max(1) as u32;
        Round {
            on,
            moves: samples.len(),
            per_second: samples.len() as f64 / wall.as_secs_f64(),
            median: quantile(&latencies, 0.5),
            p99: quantile(&latencies, 0.99),
            latencies,
            bot_cpu_per_move: bot_cpu / moves,
            process_cpu_per_move: cpu / moves,
        }
    }
}

/// Plays a warm-up round (not counted) and then `rounds` rounds of `plies` moves per game,
/// `set(on)` called before each; returns the counted rounds.
pub(crate) async fn play_rounds(
    fake: &Arc<FakeDiscord>,
    router: &Arc<Mutex<Router>>,
    games: &[(usize, &Game)],
    plies: usize,
    rounds: usize,
    mut set: impl FnMut(bool),
) -> Vec<Round> {
    set(false);
    play_all(fake, router, games, 0..plies).await;
    let mut results = Vec::new();
    for round in 0..rounds {
        let on = is_on(round);
        set(on);
        let first = (round + 1) * plies;
        let (bot_before, cpu_before) = (bot_threads_cpu(), process_cpu());
        let (samples, wall) = play_all(fake, router, games, first..first + plies).await;
        let bot_cpu = cpu_between(&bot_before, &bot_threads_cpu());
        results.push(Round::of(
            on,
            &samples,
            wall,
            bot_cpu,
            process_cpu() - cpu_before,
        ));
    }
    results
}

/// The median of some values.
pub(crate) fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    quantile_of_sorted(&values, 0.5)
}

/// The `q` quantile of sorted values, interpolated between ranks.
fn quantile_of_sorted(sorted: &[f64], q: f64) -> f64 {
    match sorted.len() {
        0 => f64::NAN,
        n => {
            let at = q * (n - 1) as f64;
            let (low, high) = (at.floor() as usize, at.ceil() as usize);
            sorted[low] + (sorted[high] - sorted[low]) * (at - low as f64)
        }
    }
}

/// A distribution-free 95% confidence interval of the median of `sorted` (n values): the
/// k-th smallest and k-th largest, k the largest rank with P(Binomial(n, 1/2) < k) ≤ 2.5%.
/// `None` below 6 values, where no such rank exists.
fn median_interval(sorted: &[f64]) -> Option<(f64, f64)> {
    let n = sorted.len();
    // P(X = i) for X ~ Binomial(n, 1/2), summed from i = 0.
    let mut below = 0.0;
    let mut k = 0;
    for i in 0..n {
        let p = (0..i).fold(0.5f64.powi(n as i32), |p, j| {
            p * (n - j) as f64 / (j + 1) as f64
        });
        if below + p > 0.025 {
            break;
        }
        below += p;
        k = i + 1;
    }
    (k >= 1).then(|| (sorted[k - 1], sorted[n - k]))
}

/// The paired on/off ratios of a figure, sorted: one per pair of adjacent rounds.
fn paired(results: &[Round], f: &dyn Fn(&Round) -> f64) -> Vec<f64> {
    let mut ratios: Vec<f64> = results
        .chunks_exact(2)
        .map(|pair| {
            let on = pair.iter().find(|r| r.on).map(f).unwrap_or(f64::NAN);
            let off = pair.iter().find(|r| !r.on).map(f).unwrap_or(f64::NAN);
            on / off
        })
        .collect();
    ratios.sort_by(f64::total_cmp);
    ratios
}

/// What the interval says of the target.
fn verdict(interval: Option<(f64, f64)>) -> &'static str {
    match interval {
        Some((low, high)) if low >= 1.0 - TARGET && high <= 1.0 + TARGET => "within 3%",
        Some((low, high)) if low > 1.0 + TARGET || high < 1.0 - TARGET => "beyond 3%",
        _ => "not resolved",
    }
}

/// A figure of a round, by name.
type Figure<'a> = (&'a str, &'a dyn Fn(&Round) -> f64);

/// Prints the rounds, the medians per side and the paired ratios with their spread.
pub(crate) fn report(switch: &str, results: &[Round]) {
    println!();
    println!(
        "{:<7} {:<8} {:>6} {:>9} {:>10} {:>8} {:>10} {:>12}",
        "round", switch, "moves", "moves/s", "median ms", "p99 ms", "bot CPU ms", "all CPU ms"
    );
    for (i, r) in results.iter().enumerate() {
        println!(
            "{:<7} {:<8} {:>6} {:>9.1} {:>10} {:>8} {:>10.3} {:>12.3}",
            i + 1,
            if r.on { "on" } else { "off" },
            r.moves,
            r.per_second,
            ms(r.median),
            ms(r.p99),
            r.bot_cpu_per_move.as_secs_f64() * 1000.0,
            r.process_cpu_per_move.as_secs_f64() * 1000.0
        );
    }
    let rate = |r: &Round| r.per_second;
    let p50 = |r: &Round| r.median.as_secs_f64() * 1000.0;
    let p99 = |r: &Round| r.p99.as_secs_f64() * 1000.0;
    let bot_cpu = |r: &Round| r.bot_cpu_per_move.as_secs_f64() * 1000.0;
    let all_cpu = |r: &Round| r.process_cpu_per_move.as_secs_f64() * 1000.0;
    let figures: [Figure<'_>; 5] = [
        ("moves/s", &rate),
        ("median latency", &p50),
        ("p99 latency", &p99),
        ("bot CPU per move", &bot_cpu),
        ("process CPU per move", &all_cpu),
    ];
    let side = |on: bool, f: &dyn Fn(&Round) -> f64| {
        median(results.iter().filter(|r| r.on == on).map(f).collect())
    };
    println!();
    println!(
        "{:<22} {:>10} {:>10} {:>9}",
        "median of the rounds", "off", "on", "on/off"
    );
    for (name, f) in figures {
        let (off, on) = (side(false, f), side(true, f));
        println!("{name:<22} {off:>10.3} {on:>10.3} {:>9.3}", on / off);
    }
    let pooled = |on: bool| {
        let mut all: Vec<Duration> = results
            .iter()
            .filter(|r| r.on == on)
            .flat_map(|r| r.latencies.iter().copied())
            .collect();
        all.sort_unstable();
        quantile(&all, 0.99).as_secs_f64() * 1000.0
    };
    let (off99, on99) = (pooled(false), pooled(true));
    println!(
        "{:<22} {off99:>10.3} {on99:>10.3} {:>9.3}",
        "p99, rounds pooled",
        on99 / off99
    );
    let pairs = results.len() / 2;
    println!();
    println!(
        "paired on/off ratios ({pairs} pairs of adjacent rounds): median, quartiles, 95% \
         interval of the median, verdict against the 3% target"
    );
    println!(
        "{:<22} {:>8} {:>8} {:>8} {:>17} {:>14}",
        "", "median", "Q1", "Q3", "95% interval", "verdict"
    );
    for (name, f) in figures {
        let ratios = paired(results, f);
        let interval = median_interval(&ratios);
        println!(
            "{name:<22} {:>8.3} {:>8.3} {:>8.3} {:>17} {:>14}",
            quantile_of_sorted(&ratios, 0.5),
            quantile_of_sorted(&ratios, 0.25),
            quantile_of_sorted(&ratios, 0.75),
            interval.map_or_else(
                || "too few pairs".to_owned(),
                |(low, high)| format!("{low:.3}..{high:.3}")
            ),
            verdict(interval)
        );
    }
}
