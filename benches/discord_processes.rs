//! Several bot processes through the fake Discord (issue 11, part 5): 50 players in 25 games
//! against two and against four `gomoku-bot run` processes, each holding a range of the
//! gateway's four shards, all on one PostgreSQL database.
//!
//! The same load as `benches/discord.rs` (26 games started through `/challenge` and Accept; a
//! baseline game alone; then 50 players moving at once "as fast as the bot answers"), but the
//! bots are the real binary as child processes, and the games are spread over four guilds,
//! one on each shard, so that every process answers its share. Each configuration gets a fresh
//! fake and a fresh PostgreSQL schema. Latency of a move: INTERACTION_CREATE sent by the fake
//! to the callback with the board arriving at the fake. CPU per move is split between the bot
//! processes, the PostgreSQL server and this process (the fake and the players), from /proc.
//! At the end of each configuration the move log must hold every acknowledged move once.
//!
//! Run (PostgreSQL is required; a release build on a quiet machine):
//! `GOMOKU_BENCH_DATABASE_URL=postgres://root@127.0.0.1:5432/test cargo bench --bench discord_processes`
//! Environment:
//! - `GOMOKU_BENCH_PLIES` (default 100; 4 without `--bench`): moves per game under load;
//! - `GOMOKU_BENCH_PROCESSES` (default `2,4`): the process counts to run, in order, each a
//!   divisor of 4 (`1` runs one process with all four shards, for a baseline under the same
//!   conditions).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sqlx::Connection as _;

// The harness allows its own dead code; the bench leaves some of its re-exports unused, and in
// a bench build the imports of its unit tests (whose #[test] functions are not built) as well.
#[path = "../tests/support/mod.rs"]
#[allow(unused_imports)]
mod support;

#[path = "e2e/play.rs"]
#[allow(dead_code)]
mod play;

#[path = "e2e/procs.rs"]
mod procs;

use play::{Game, Router, Summary, play_all, start_game_in};
use procs::{load_average, postgres_cpu, process_cpu};
use support::fake_discord::{FakeConfig, FakeDiscord, Req, TestUser};
use support::process::BotProcess;
use support::test_db::TestDb;

/// Games played at once under load (two players each).
const GAMES: usize = 25;
/// Moves of the uncontended baseline game.
const BASELINE_PLIES: usize = 60;
/// Gateway shards, one guild on each; every configuration splits them between its processes.
const SHARDS: u32 = 4;
/// The variable naming the PostgreSQL server.
const DATABASE_URL: &str = "GOMOKU_BENCH_DATABASE_URL";

/// What one configuration measured.
struct Outcome {
    processes: u32,
    baseline: Summary,
    load: Summary,
    /// CPU time during the load: the bot processes', the PostgreSQL server's, this process's.
    cpu: [Duration; 3],
    /// Moves in the database after the run, against the moves acknowledged.
    committed: i64,
    acknowledged: usize,
    violations: Vec<String>,
    setup: Duration,
}

/// The `--shards` arguments of process `k` of `processes` (each an equal range of [`SHARDS`]).
fn shard_args(k: u32, processes: u32) -> Vec<String> {
    let total = SHARDS.to_string();
    if processes == 1 {
        return vec!["--shard-total".into(), total];
    }
    let each = SHARDS / processes;
    let (first, last) = (k * each, (k + 1) * each - 1);
    let range = if first == last {
        first.to_string()
    } else {
        format!("{first}-{last}")
    };
    vec!["--shards".into(), range, "--shard-total".into(), total]
}

/// Starts `processes` bot processes on `db` and waits until every shard is connected and each
/// process has registered its commands.
fn spawn_bots(
    fake: &FakeDiscord,
    db: &TestDb,
    processes: u32,
    dirs: &[tempfile::TempDir],
) -> Vec<BotProcess> {
    let env = [("DATABASE_URL", db.url.as_str()), ("RUST_LOG", "warn")];
    (0..processes)
        .zip(dirs)
        .map(|(k, dir)| {
            let args = shard_args(k, processes);
            let args: Vec<&str> = args.iter().map(String::as_str).collect();
            BotProcess::spawn(
                fake,
                dir.path(),
                "shutdown_grace_seconds = 15\n",
                &env,
                &args,
            )
        })
        .collect()
}

/// Moves in the move log of the schema.
async fn moves_in(db: &TestDb) -> i64 {
    let mut conn = sqlx::PgConnection::connect(&db.url)
        .await
        .expect("connect to the bench's schema");
    let n = sqlx::query_scalar("SELECT COUNT(*) FROM moves")
        .fetch_one(&mut conn)
        .await
        .expect("count the moves");
    conn.close().await.ok();
    n
}

/// One configuration: `processes` bot processes, a fresh fake and a fresh schema on `server`.
async fn run(server: &str, processes: u32, plies: usize) -> Outcome {
    let db = TestDb::postgres_at(server).await;
    let fake = Arc::new(
        FakeDiscord::start_with(FakeConfig {
            shards: SHARDS,
            // Discord's own rule: an answer after 3 s is refused (and would fail the run).
            interaction_deadline: Some(Duration::from_secs(3)),
            // Serenity starts the shards of one process 5 s apart.
            wait_timeout: Duration::from_secs(120),
            ..FakeConfig::default()
        })
        .await,
    );
    let channels: Vec<_> = (0..SHARDS)
        .map(|s| fake.add_guild_on_shard(&format!("Shard {s}"), s, SHARDS).1)
        .collect();
    let dirs: Vec<tempfile::TempDir> = (0..processes)
        .map(|_| tempfile::tempdir().expect("a temporary directory"))
        .collect();
    let bots = spawn_bots(&fake, &db, processes, &dirs);
    for shard in 0..u64::from(SHARDS) {
        fake.wait_for_shard(shard).await;
    }
    for _ in 0..processes {
        fake.next_request(&Req::put("/applications/*/commands"))
            .await;
    }

    let users: Vec<TestUser> = (0..2 * (GAMES + 1))
        .map(|i| fake.add_user(&format!("player{i:02}")))
        .collect();
    let setup = Instant::now();
    let mut games: Vec<Game> = Vec::new();
    for (n, pair) in users.chunks(2).enumerate() {
        let channel = channels[n % channels.len()];
        games.push(start_game_in(&fake, Some(channel), &pair[0], &pair[1]).await);
    }
    let setup = setup.elapsed();
    let router = Arc::new(Mutex::new(Router::default()));
    tokio::spawn(Router::run(Arc::clone(&router), fake.subscribe_requests()));

    let (baseline_game, loaded_games) = games.split_last().expect("games");
    let (baseline, baseline_wall) =
        play_all(&fake, &router, &[(GAMES, baseline_game)], 0..BASELINE_PLIES).await;

    let pids: Vec<u32> = bots.iter().map(BotProcess::pid).collect();
    let bots_cpu = || pids.iter().map(|&p| process_cpu(p)).sum::<Duration>();
    let before = [bots_cpu(), postgres_cpu(), process_cpu(std::process::id())];
    let numbered: Vec<(usize, &Game)> = loaded_games.iter().enumerate().collect();
    let (loaded, loaded_wall) = play_all(&fake, &router, &numbered, 0..plies).await;
    let after = [bots_cpu(), postgres_cpu(), process_cpu(std::process::id())];

    let committed = moves_in(&db).await;
    drop(bots);
    Outcome {
        processes,
        baseline: Summary::of(&baseline, baseline_wall),
        load: Summary::of(&loaded, loaded_wall),
        cpu: [0, 1, 2].map(|i| after[i].saturating_sub(before[i])),
        committed,
        acknowledged: baseline.len() + loaded.len(),
        violations: fake.violations(),
        setup,
    }
}

fn report(outcomes: &[Outcome], load_before: &str) {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!();
    println!(
        "gomoku-bot on several processes: fake Discord ({SHARDS} gateway shards, a guild on each) \
         + `gomoku-bot run` child processes + PostgreSQL (a fresh schema per row)"
    );
    println!(
        "machine: {cores} cores; load average {load_before} before, {} after",
        load_average()
    );
    println!();
    println!("{}", Summary::header());
    for o in outcomes {
        let who = format!("{} × {} shard(s)", o.processes, SHARDS / o.processes);
        println!("{}", o.baseline.row(&format!("{who}: 1 game alone")));
        println!("{}", o.load.row(&format!("{who}: {GAMES} games at once")));
    }
    println!("(median is p50; \"inject\": the fake building and sending one interaction.)");
    println!();
    println!("CPU per move under load (ms): bot processes, PostgreSQL server, fake + players");
    for o in outcomes {
        let per_move = |t: Duration| t.as_secs_f64() * 1000.0 / o.load.moves.max(1) as f64;
        println!(
            "  {} processes: {:>6.2} {:>6.2} {:>6.2}   (set-up of 26 games: {:.1} s)",
            o.processes,
            per_move(o.cpu[0]),
            per_move(o.cpu[1]),
            per_move(o.cpu[2]),
            o.setup.as_secs_f64()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.iter().any(|a| a == "--list") {
        return;
    }
    let Some(server) = std::env::var(DATABASE_URL)
        .ok()
        .filter(|u| u.starts_with("postgres"))
    else {
        eprintln!(
            "discord_processes: refused: {DATABASE_URL} must name a PostgreSQL server \
             (postgres://user@host/database, for example postgres://root@127.0.0.1:5432/test): \
             several bot processes share one PostgreSQL database; SQLite is one process"
        );
        std::process::exit(2);
    };
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too: keep that short.
    let quick = !args.iter().any(|a| a == "--bench");
    let plies = std::env::var("GOMOKU_BENCH_PLIES")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(if quick { 4 } else { 100 });
    let counts: Vec<u32> = std::env::var("GOMOKU_BENCH_PROCESSES")
        .unwrap_or_else(|_| "2,4".to_owned())
        .split(',')
        .map(|n| match n.trim().parse::<u32>() {
            Ok(n) if n > 0 && SHARDS.is_multiple_of(n) => n,
            _ => {
                eprintln!(
                    "discord_processes: GOMOKU_BENCH_PROCESSES: `{n}` is not a divisor of {SHARDS}"
                );
                std::process::exit(2);
            }
        })
        .collect();
    let load_before = load_average();
    // The fake and the players: multi-threaded, one worker per core.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let mut outcomes = Vec::new();
    for processes in counts {
        outcomes.push(runtime.block_on(run(&server, processes, plies)));
    }
    report(&outcomes, &load_before);
    let mut failed = false;
    for o in &outcomes {
        if o.committed != o.acknowledged as i64 {
            eprintln!(
                "{} processes: {} moves in the database for {} acknowledged",
                o.processes, o.committed, o.acknowledged
            );
            failed = true;
        }
        if !o.violations.is_empty() {
            eprintln!(
                "{} processes: {} violation(s) of Discord's API:",
                o.processes,
                o.violations.len()
            );
            for v in o.violations.iter().take(20) {
                eprintln!("  {v}");
            }
            failed = true;
        }
    }
    if failed {
        std::process::exit(1);
    }
    println!("every acknowledged move is in the database once; every request fits Discord's API");
}
