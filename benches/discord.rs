//! End-to-end speed of the bot under load (issue 5): the real bot (`gomoku_bot::discord`, poise
//! on the real serenity client) against the fake Discord of `tests/support/fake_discord`, on a
//! SQLite database file on disk with the default durability (`synchronous=FULL`).
//!
//! 1. 25 two-player games (50 players) start through `/challenge` and the Accept button.
//! 2. Baseline: one more game, its two players alone, moving one after the other.
//! 3. Load: all 50 players move at once "as fast as the bot answers": a player sends `/move`
//!    when it is their turn and the opponent moves once the bot's answer has arrived.
//!
//! Latency of a move: from the fake sending INTERACTION_CREATE ([`Sent::sent_at`]) to the
//! bot's interaction callback, which carries the board PNG, arriving at the fake
//! ([`RecordedRequest::at`]). The fake and the bot share the process (and its two cores), so
//! memory and CPU figures cover both; the summary estimates the fake's share.
//!
//! Run: `cargo bench --bench discord`. Environment:
//! - `GOMOKU_BENCH_PLIES` (default 100): moves per game under load (25 times that in all);
//! - `GOMOKU_BENCH_DURABILITY=normal`: `synchronous=NORMAL` instead of the default `FULL`, to
//!   see what the sync per commit costs;
//! - `GOMOKU_BENCH_DATABASE_URL=postgres://root@127.0.0.1:5432/test`: the bot runs on a fresh
//!   schema of that PostgreSQL database instead of a SQLite file (the PostgreSQL server's
//!   own CPU time is then reported beside the process's);
//! - `GOMOKU_BENCH_MARKS`: print the monotonic clock at the load's start and end, to cut a
//!   `perf record -k CLOCK_MONOTONIC` profile to the load phase.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gomoku_bot::discord::{self, Registration};
use gomoku_bot::i18n::I18n;
use gomoku_bot::service::{Service, ServiceConfig, SystemClock};
use gomoku_bot::store::{Durability, StoreOptions};

// The harness allows its own dead code; the bench leaves some of its re-exports unused, and in
// a bench build the imports of its unit tests (whose #[test] functions are not built) as well.
#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

#[path = "e2e/play.rs"]
mod play;
// The whole-process CPU reader is not used here (it reads its own threads one by one).
#[path = "e2e/procs.rs"]
#[allow(dead_code)]
mod procs;

use play::{Game, Router, Summary, ms, play_all, start_game};
use procs::{load_average, postgres_cpu};
use support::fake_discord::{FakeConfig, FakeDiscord, Req, RunningBot, TestUser};

#[path = "e2e/heap.rs"]
mod heap;

#[global_allocator]
static ALLOC: heap::Counting = heap::Counting;

/// Games played at once under load (two players each).
const GAMES: usize = 25;
/// Moves of the uncontended baseline game.
const BASELINE_PLIES: usize = 60;
/// Issue 5's targets.
const TARGET_MEDIAN: Duration = Duration::from_millis(15);
const TARGET_P99: Duration = Duration::from_millis(50);

fn mb(bytes: f64) -> String {
    format!("{:.1}", bytes / (1024.0 * 1024.0))
}

/// Resident set size now and at its peak, in bytes, from /proc/self/status.
fn rss() -> (f64, f64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| {
                rest.trim()
                    .trim_end_matches("kB")
                    .trim()
                    .parse::<f64>()
                    .ok()
            })
            .map_or(f64::NAN, |kb| kb * 1024.0)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

/// CPU time used so far by the process's threads, grouped by thread name (digits dropped),
/// from /proc/self/task/*/stat. Linux only; empty elsewhere.
fn cpu_by_thread() -> BTreeMap<String, Duration> {
    let mut out = BTreeMap::new();
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return out;
    };
    for task in tasks.flatten() {
        let Some((name, cpu)) = std::fs::read_to_string(task.path().join("stat"))
            .ok()
            .and_then(|stat| procs::parse_stat(&stat))
        else {
            continue;
        };
        let name: String = name.chars().filter(|c| !c.is_ascii_digit()).collect();
        *out.entry(name.trim_end_matches(['-', '_']).to_owned())
            .or_insert(Duration::ZERO) += cpu;
    }
    out
}

fn cpu_delta(
    before: &BTreeMap<String, Duration>,
    after: &BTreeMap<String, Duration>,
) -> Vec<(String, Duration)> {
    let mut delta: Vec<(String, Duration)> = after
        .iter()
        .map(|(name, t)| {
            let was = before.get(name).copied().unwrap_or_default();
            (name.clone(), t.saturating_sub(was))
        })
        .filter(|(_, t)| !t.is_zero())
        .collect();
    delta.sort_by_key(|(_, t)| std::cmp::Reverse(*t));
    delta
}

/// With `GOMOKU_BENCH_MARKS` set, prints the monotonic clock (`Instant`'s debug form is the
/// raw `CLOCK_MONOTONIC` on Linux) so that a profile taken with
/// `perf record -k CLOCK_MONOTONIC` can be cut to the load phase.
fn mark(what: &str) {
    if std::env::var_os("GOMOKU_BENCH_MARKS").is_some() {
        eprintln!("mark: {what} {:?}", Instant::now());
    }
}

fn heap() -> f64 {
    heap::heap_bytes() as f64
}

/// Memory at one point of the run.
struct Memory {
    label: &'static str,
    rss: f64,
    hwm: f64,
    heap: f64,
}

impl Memory {
    fn now(label: &'static str) -> Self {
        let (rss, hwm) = rss();
        Self {
            label,
            rss,
            hwm,
            heap: heap(),
        }
    }
}

/// The database the bot runs on: a SQLite file in `dir`, or with `GOMOKU_BENCH_DATABASE_URL`
/// set to a PostgreSQL URL, a fresh schema there (dropped at the end).
async fn database(dir: &Path) -> (StoreOptions, Option<support::test_db::TestDb>) {
    match std::env::var("GOMOKU_BENCH_DATABASE_URL") {
        Ok(server) if server.starts_with("postgres") => {
            let db = support::test_db::TestDb::postgres_at(&server).await;
            (db.options(), Some(db))
        }
        _ => (StoreOptions::for_file(&dir.join("bot.db")), None),
    }
}

/// Starts the bot; also returns the heap its picture caches took (built ahead, as in `run`).
async fn start_bot(
    fake: &FakeDiscord,
    options: StoreOptions,
    durability: Durability,
) -> (RunningBot, f64) {
    let options = StoreOptions {
        durability,
        ..options
    };
    let service = Service::open(&options, ServiceConfig::default(), Arc::new(SystemClock))
        .await
        .expect("open the database");
    // As `gomoku-bot run` does before connecting.
    let before = heap();
    gomoku_bot::render::warm_up();
    let caches = heap() - before;
    let framework = discord::framework(
        Arc::new(service),
        Arc::new(I18n::load()),
        Registration::Guild(fake.guild_id().get()),
    );
    let client = discord::client(fake.http(), framework)
        .await
        .expect("build the client");
    (RunningBot::spawn(client), caches)
}

async fn bench(plies: usize, durability: Durability) {
    let load_before = load_average();
    let mut memory = vec![Memory::now("start (runtime only)")];
    let dir = tempfile::tempdir().expect("a temporary directory");
    let fake = Arc::new(
        FakeDiscord::start_with(FakeConfig {
            // Discord's own rule: an answer after 3 s is refused (and would fail the run).
            interaction_deadline: Some(Duration::from_secs(3)),
            ..FakeConfig::default()
        })
        .await,
    );
    let (options, schema) = database(dir.path()).await;
    let recheck = options.clone();
    let store_name = if schema.is_some() {
        "PostgreSQL (a fresh schema)".to_owned()
    } else {
        format!(
            "SQLite file ({})",
            match durability {
                Durability::Full => "synchronous=FULL",
                Durability::Normal => "synchronous=NORMAL",
            }
        )
    };
    let (bot, picture_caches) = start_bot(&fake, options, durability).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    memory.push(Memory::now("bot connected, caches warm"));

    let users: Vec<TestUser> = (0..2 * (GAMES + 1))
        .map(|i| fake.add_user(&format!("player{i:02}")))
        .collect();
    let setup = Instant::now();
    let mut games = Vec::new();
    for pair in users.chunks(2) {
        games.push(start_game(&fake, &pair[0], &pair[1]).await);
    }
    let setup = setup.elapsed();
    memory.push(Memory::now("26 games started"));

    let router = Arc::new(Mutex::new(Router::default()));
    tokio::spawn(Router::run(Arc::clone(&router), fake.subscribe_requests()));

    // Baseline: one game alone, no other traffic.
    let (baseline_game, loaded_games) = games.split_last().expect("games");
    let (baseline, baseline_wall) =
        play_all(&fake, &router, &[(GAMES, baseline_game)], 0..BASELINE_PLIES).await;

    // Load: 25 games, 50 players at once.
    let cpu_before = cpu_by_thread();
    let postgres_before = postgres_cpu();
    let numbered: Vec<(usize, &Game)> = loaded_games.iter().enumerate().collect();
    mark("load start");
    let (loaded, loaded_wall) = play_all(&fake, &router, &numbered, 0..plies).await;
    mark("load end");
    let cpu = cpu_delta(&cpu_before, &cpu_by_thread());
    let postgres = postgres_cpu().saturating_sub(postgres_before);
    memory.push(Memory::now("after the load"));
    let load_after = load_average();

    let others = std::mem::take(&mut router.lock().expect("router lock").others);
    // The fake keeps every request (with its body, PNG bytes included) and every message it
    // created. A copy of that record takes as much heap as the record: copy it and measure.
    let before_copy = heap();
    let record = (
        fake.requests(),
        std::iter::once(fake.channel_id())
            .chain(games.iter().map(|g| g.thread))
            .map(|channel| fake.messages_in(channel))
            .collect::<Vec<_>>(),
    );
    let fake_record = heap() - before_copy;
    let recorded = (record.0.len(), record.1.iter().map(Vec::len).sum::<usize>());
    drop(record);
    bot.shutdown().await;
    let violations = fake.violations();
    // Every answered move is in the database once, in its place: read back by a service of
    // its own (as a restarted bot would), not from the running bot's memory.
    let check = std::time::Instant::now();
    let lost_or_doubled = check_every_move(&fake, &recheck, &games, plies).await;
    let check = check.elapsed();

    let base = Summary::of(&baseline, baseline_wall);
    let load = Summary::of(&loaded, loaded_wall);
    println!();
    println!("gomoku-bot end to end: fake Discord + real serenity/poise client + {store_name}");
    println!(
        "machine: {} cores; load average {load_before} before, {load_after} after",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    println!(
        "setup: 26 games started by /challenge + Accept in {:.2} s",
        setup.as_secs_f64()
    );
    println!();
    println!("{}", Summary::header());
    println!("{}", base.row("1 game, 2 players, alone"));
    println!("{}", load.row("25 games, 50 players at once"));
    println!(
        "{:<34} {:>6} {:>8} {:>8}",
        "target (issue 5)",
        "",
        ms(TARGET_MEDIAN),
        format!("p99 {}", ms(TARGET_P99))
    );
    let verdict = |ok: bool| if ok { "met" } else { "MISSED" };
    println!(
        "under load: median {} ({}), p99 {} ({}); {:.1} s of wall time",
        ms(load.median),
        verdict(load.median <= TARGET_MEDIAN),
        ms(load.p99),
        verdict(load.p99 <= TARGET_P99),
        loaded_wall.as_secs_f64()
    );
    println!(
        "(\"inject\": the fake building, checking and dispatching one INTERACTION_CREATE, median; \
         it runs on the same cores.)"
    );
    // With every player waiting for the answer before the next move, 25 moves are always in
    // flight, so the mean latency is 25 / throughput (Little's law): a latency target under
    // this load is a throughput target.
    let needed = GAMES as f64 / TARGET_MEDIAN.as_secs_f64();
    println!(
        "{GAMES} moves always in flight: mean latency = {GAMES} / throughput = {:.1} ms; a {} ms \
         median needs about {needed:.0} moves/s",
        1000.0 * GAMES as f64 / load.per_second,
        ms(TARGET_MEDIAN)
    );
    println!();
    let cpu_total: Duration = cpu.iter().map(|(_, t)| *t).sum();
    println!(
        "CPU during the load: {:.2} s = {:.2} ms per move ({:.0}% of the machine's cores)",
        cpu_total.as_secs_f64(),
        cpu_total.as_secs_f64() * 1000.0 / load.moves.max(1) as f64,
        100.0 * cpu_total.as_secs_f64()
            / (loaded_wall.as_secs_f64()
                * std::thread::available_parallelism().map_or(1.0, |n| n.get() as f64))
    );
    for (name, t) in &cpu {
        println!("  {name:<28} {:>7.2} s", t.as_secs_f64());
    }
    if schema.is_some() {
        println!(
            "  and the PostgreSQL server (all its processes, any client): {:.2} s = {:.2} ms per move",
            postgres.as_secs_f64(),
            postgres.as_secs_f64() * 1000.0 / load.moves.max(1) as f64
        );
    }
    let cores = std::thread::available_parallelism().map_or(1.0, |n| n.get() as f64);
    println!(
        "  {needed:.0} moves/s on {cores} cores leaves at most {:.2} ms of CPU per move (bot, fake and \
         client together)",
        1000.0 * cores / needed
    );
    println!();
    println!("memory (the bot and the fake share the process):");
    println!(
        "  {:<36} {:>9} {:>9} {:>10}",
        "", "VmRSS MB", "VmHWM MB", "Rust heap MB"
    );
    for m in &memory {
        println!(
            "  {:<36} {:>9} {:>9} {:>10}",
            m.label,
            mb(m.rss),
            mb(m.hwm),
            mb(m.heap)
        );
    }
    println!(
        "  of the heap at connection, {} MB are the board pictures' caches (backgrounds and \
         palettes of every size and theme)",
        mb(picture_caches)
    );
    let after = &memory[memory.len() - 1];
    println!(
        "  the fake's record ({} requests, {} messages) holds {} MB of that heap (measured by \
         copying it); without it: heap {} MB, RSS about {} MB",
        recorded.0,
        recorded.1,
        mb(fake_record),
        mb(after.heap - fake_record),
        mb(after.rss - fake_record)
    );
    let bands = gomoku_bot::render::png_cache_stats();
    println!(
        "  the PNG band cache (part of that heap): {} bands, {} MB; {} of {} bands found",
        bands.entries,
        mb(bands.bytes as f64),
        bands.hits,
        bands.hits + bands.misses
    );
    if !others.is_empty() {
        println!("requests other than interaction callbacks during the moves:");
        for (route, n) in &others {
            println!("  {n:>6} {route}");
        }
    }
    match &lost_or_doubled {
        Ok(moves) => println!(
            "every answered move is in the database exactly once, in its place ({moves} moves \
             of 26 games read back in {:.2} s)",
            check.as_secs_f64()
        ),
        Err(e) => {
            eprintln!("LOST OR DOUBLED MOVES: {e}");
            std::process::exit(1);
        }
    }
    if violations.is_empty() {
        println!("every request the bot sent fits Discord's API description");
    } else {
        eprintln!("{} violation(s) of Discord's API:", violations.len());
        for v in violations.iter().take(20) {
            eprintln!("  {v}");
        }
        std::process::exit(1);
    }
}

/// Reads every game back through a fresh service on the bot's database and checks that its
/// move log holds exactly the moves its players made and were answered for, in order: the
/// 60 of the baseline game, `plies` of each loaded one. The number of moves checked, or what
/// is wrong.
async fn check_every_move(
    fake: &FakeDiscord,
    options: &StoreOptions,
    games: &[Game],
    plies: usize,
) -> Result<usize, String> {
    let service = Service::open(options, ServiceConfig::default(), Arc::new(SystemClock))
        .await
        .map_err(|e| format!("reopening the database: {e}"))?;
    let guild = gomoku_bot::service::GuildId(fake.guild_id().get());
    let mut checked = 0;
    for (number, game) in games.iter().enumerate() {
        let made = if number == GAMES {
            BASELINE_PLIES
        } else {
            plies
        };
        let player = gomoku_bot::service::UserId(game.order[0].id);
        let listed = service
            .active_games(guild, player)
            .await
            .map_err(|e| format!("game {number}: {e}"))?;
        let [one] = listed.as_slice() else {
            return Err(format!(
                "game {number}: its first player has {} active games, not 1",
                listed.len()
            ));
        };
        let view = service
            .game(guild, one.id)
            .await
            .map_err(|e| format!("game {number}: {e}"))?;
        let order = play::playing_order(number);
        let expected: Vec<&str> = (0..made)
            .map(|ply| order[ply % 2][ply / 2].as_str())
            .collect();
        let stored: Vec<String> = view.game.record().iter().map(|a| a.to_string()).collect();
        if view.ply as usize != made || stored != expected {
            return Err(format!(
                "game {number} (#{}): {} moves stored at ply {}, {made} made; first difference \
                 at move {:?}",
                one.id.0,
                stored.len(),
                view.ply,
                stored.iter().zip(&expected).position(|(a, b)| a != b)
            ));
        }
        checked += made;
    }
    Ok(checked)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too: keep that short.
    let args: Vec<String> = std::env::args().collect();
    let quick = !args.iter().any(|a| a == "--bench");
    let plies = std::env::var("GOMOKU_BENCH_PLIES")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(if quick { 4 } else { 100 });
    let durability = match std::env::var("GOMOKU_BENCH_DURABILITY").as_deref() {
        Ok("normal") => Durability::Normal,
        _ => Durability::Full,
    };
    // The same runtime as `gomoku-bot run`: multi-threaded, one worker per core.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    runtime.block_on(bench(plies, durability));
}
