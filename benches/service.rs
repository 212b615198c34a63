//! Benchmarks of the game service on a database file on disk.
//!
//! - `service/move`: one move through the service with the game in the cache (validate,
//!   commit, build the reply without the image), one at a time.
//! - `service/1000-games`: 1,000 games played at once, 4 moves each; criterion reports the
//!   time per batch and the throughput in moves per second.
//! - Both run with the default `Durability::Full` (a sync per commit), then again with
//!   `Durability::Normal` for comparison.
//! - Before the benchmarks, the memory one active game costs in the cache is printed:
//!   Rust heap bytes (a counting allocator) and resident set size, before and after
//!   loading 1,000 games of 40 moves each.
//!
//! - `service/move-postgres`: the same single move on PostgreSQL, when
//!   `GOMOKU_BENCH_DATABASE_URL` names a server (a fresh schema of its own, dropped after);
//!   before the criterion runs, the median and p99 of 2,000 single moves are printed for
//!   each store side by side, from the same run.
//!
//! Run: `cargo bench --bench service` (with
//! `GOMOKU_BENCH_DATABASE_URL=postgres://root@127.0.0.1:5432/test` for PostgreSQL).

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{Criterion, Throughput};
use gomoku_bot::rules::{Action, Game, Point, RuleSet, Status};
use gomoku_bot::service::{
    Actor, ChallengeRequest, GameId, GuildId, Service, ServiceConfig, SystemClock, UserInfo,
};
use gomoku_bot::store::{Durability, StoreOptions};
use tempfile::TempDir;

// A PostgreSQL schema of the bench's own (the tests' helper).
#[path = "../tests/support/test_db.rs"]
mod test_db;

#[path = "e2e/heap.rs"]
mod heap;

#[global_allocator]
static ALLOC: heap::Counting = heap::Counting;

const GUILD: u64 = 1;
const CHANNEL: u64 = 2;

fn rules() -> RuleSet {
    RuleSet::from_spec("gomoku size=19").expect("valid")
}

/// A long sequence of moves that never ends the game, so a benchmark can keep playing.
fn quiet_sequence(max: usize) -> Vec<Point> {
    let mut game = Game::new(rules());
    let mut seq = Vec::new();
    'next: while seq.len() < max {
        let points: Vec<Point> = game.points().collect();
        for p in points {
            if game.stone_at(p).is_some() {
                continue;
            }
            let mut trial = game.clone();
            if let Ok(r) = trial.apply(Action::Place(p))
                && r.status == Status::Ongoing
            {
                game = trial;
                seq.push(p);
                continue 'next;
            }
        }
        break;
    }
    seq
}

struct Bench {
    _dir: TempDir,
    _schema: Option<test_db::TestDb>,
    svc: Arc<Service>,
    next_user: u64,
}

impl Bench {
    async fn new(durability: Durability) -> Bench {
        // A temporary directory on the machine's disk (not a RAM file system).
        let dir = tempfile::Builder::new()
            .prefix("gomoku-bench")
            .tempdir_in(std::env::temp_dir())
            .expect("temp dir");
        let options = StoreOptions {
            durability,
            ..StoreOptions::for_file(&dir.path().join("bench.db"))
        };
        let config = ServiceConfig {
            max_open_games_per_pair: u32::MAX,
            ..ServiceConfig::default()
        };
        let svc = Service::open(&options, config, Arc::new(SystemClock))
            .await
            .expect("open");
        Bench {
            _dir: dir,
            _schema: None,
            svc: Arc::new(svc),
            next_user: 1,
        }
    }

    /// A bench on a fresh schema of the PostgreSQL database at `server`.
    async fn postgres(server: &str) -> Bench {
        let schema = test_db::TestDb::postgres_at(server).await;
        let config = ServiceConfig {
            max_open_games_per_pair: u32::MAX,
            ..ServiceConfig::default()
        };
        let svc = Service::open(&schema.options(), config, Arc::new(SystemClock))
            .await
            .expect("open");
        Bench {
            _dir: tempfile::tempdir().expect("temp dir"),
            _schema: Some(schema),
            svc: Arc::new(svc),
            next_user: 1,
        }
    }

    /// A new two-player game: its id and the actors of seat 1 and seat 2.
    async fn new_game(&mut self) -> (GameId, [Actor; 2]) {
        let a = UserInfo::new(self.next_user, "Player A");
        let b = UserInfo::new(self.next_user + 1, "Player B");
        self.next_user += 2;
        let request = ChallengeRequest {
            opponent: Some(b.clone()),
            rules: Some(rules()),
            ..ChallengeRequest::default()
        };
        let actor_a = Actor::new(GUILD, CHANNEL, a);
        let actor_b = Actor::new(GUILD, CHANNEL, b);
        let c = self
            .svc
            .challenge(&actor_a, request)
            .await
            .expect("challenge");
        let view = self
            .svc
            .accept(&actor_b, c.id)
            .await
            .expect("accept")
            .game
            .expect("started");
        let seat1 = if view.seats[0].user == actor_a.user.id {
            [actor_a, actor_b]
        } else {
            [actor_b, actor_a]
        };
        (view.id, seat1)
    }
}

async fn play(svc: &Service, id: GameId, actors: &[Actor; 2], seq: &[Point], ply: usize) {
    let played = svc
        .play(
            &actors[ply % 2],
            Some(id),
            Action::Place(seq[ply]),
            Some(ply as u32),
        )
        .await
        .expect("move accepted");
    std::hint::black_box(played);
}

/// The PostgreSQL server to bench on, if any.
fn postgres_server() -> Option<String> {
    std::env::var("GOMOKU_BENCH_DATABASE_URL")
        .ok()
        .filter(|u| u.starts_with("postgres"))
}

/// Plays `moves` single moves one after the other and returns their latencies, sorted.
fn single_move_latencies(
    rt: &tokio::runtime::Runtime,
    bench: &mut Bench,
    moves: usize,
) -> Vec<Duration> {
    let seq = quiet_sequence(250);
    let mut current = rt.block_on(bench.new_game());
    let mut ply = 0;
    let mut latencies = Vec::with_capacity(moves);
    for _ in 0..moves {
        if ply == seq.len() {
            current = rt.block_on(bench.new_game());
            ply = 0;
        }
        let start = Instant::now();
        rt.block_on(play(&bench.svc, current.0, &current.1, &seq, ply));
        latencies.push(start.elapsed());
        ply += 1;
    }
    latencies.sort_unstable();
    latencies
}

/// Prints the median and p99 of 2,000 single moves on each store, from the same run.
fn report_latencies() {
    const MOVES: usize = 2000;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let quantile = |sorted: &[Duration], q: f64| {
        let rank = (q * sorted.len() as f64).ceil() as usize;
        sorted[rank.clamp(1, sorted.len()) - 1]
    };
    let mut stores = vec![(
        "SQLite, synchronous=FULL",
        rt.block_on(Bench::new(Durability::Full)),
    )];
    match postgres_server() {
        Some(server) => stores.push(("PostgreSQL", rt.block_on(Bench::postgres(&server)))),
        None => println!(
            "PostgreSQL skipped: set GOMOKU_BENCH_DATABASE_URL (e.g. postgres://root@127.0.0.1:5432/test)"
        ),
    }
    println!("one move through the service, {MOVES} moves one after the other:");
    for (name, mut bench) in stores {
        let l = single_move_latencies(&rt, &mut bench, MOVES);
        println!(
            "  {name:<26} median {:.3} ms, p99 {:.3} ms, max {:.3} ms",
            quantile(&l, 0.5).as_secs_f64() * 1000.0,
            quantile(&l, 0.99).as_secs_f64() * 1000.0,
            l[l.len() - 1].as_secs_f64() * 1000.0
        );
        rt.block_on(bench.svc.close());
    }
}

fn bench_single_moves(c: &mut Criterion, durability: Durability, name: &str) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let bench = rt.block_on(Bench::new(durability));
    bench_moves_on(c, &rt, bench, name);
}

fn bench_single_moves_postgres(c: &mut Criterion, server: &str) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let bench = rt.block_on(Bench::postgres(server));
    bench_moves_on(c, &rt, bench, "service/move-postgres");
}

fn bench_moves_on(c: &mut Criterion, rt: &tokio::runtime::Runtime, mut bench: Bench, name: &str) {
    let seq = quiet_sequence(250);
    let mut current = rt.block_on(bench.new_game());
    let mut ply = 0;
    // Warm the cache: the first move loads nothing (accepting cached the game already).
    c.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if ply == seq.len() {
                    current = rt.block_on(bench.new_game());
                    ply = 0;
                }
                let start = Instant::now();
                rt.block_on(play(&bench.svc, current.0, &current.1, &seq, ply));
                total += start.elapsed();
                ply += 1;
            }
            total
        });
    });
    rt.block_on(bench.svc.close());
}

fn bench_many_games(c: &mut Criterion, durability: Durability, name: &str, moves: usize) {
    const GAMES: usize = 1000;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let seq = Arc::new(quiet_sequence(moves));
    let mut bench = rt.block_on(Bench::new(durability));
    let mut group = c.benchmark_group("service");
    group.sample_size(10);
    group.throughput(Throughput::Elements((GAMES * moves) as u64));
    group.bench_function(name, |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let games: Vec<(GameId, [Actor; 2])> = rt.block_on(async {
                    let mut v = Vec::with_capacity(GAMES);
                    for _ in 0..GAMES {
                        v.push(bench.new_game().await);
                    }
                    v
                });
                let start = Instant::now();
                rt.block_on(async {
                    let tasks: Vec<_> = games
                        .into_iter()
                        .map(|(id, actors)| {
                            let svc = bench.svc.clone();
                            let seq = seq.clone();
                            tokio::spawn(async move {
                                for ply in 0..seq.len() {
                                    play(&svc, id, &actors, &seq, ply).await;
                                }
                            })
                        })
                        .collect();
                    for t in tasks {
                        t.await.expect("task");
                    }
                });
                total += start.elapsed();
            }
            total
        });
    });
    group.finish();
    rt.block_on(bench.svc.close());
}

fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Loads 1,000 games of 40 moves each into a fresh service's cache and prints what one
/// costs.
fn report_memory() {
    const GAMES: usize = 1000;
    const PLIES: usize = 40;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let seq = quiet_sequence(PLIES);
    let mut bench = rt.block_on(Bench::new(Durability::Full));
    let ids: Vec<GameId> = rt.block_on(async {
        let mut ids = Vec::new();
        for _ in 0..GAMES {
            let (id, actors) = bench.new_game().await;
            for ply in 0..PLIES {
                play(&bench.svc, id, &actors, &seq, ply).await;
            }
            ids.push(id);
        }
        ids
    });
    // A second service on the same file starts with an empty cache.
    let path = bench._dir.path().join("bench.db");
    let fresh = rt
        .block_on(Service::open(
            &StoreOptions::for_file(&path),
            ServiceConfig::default(),
            Arc::new(SystemClock),
        ))
        .expect("open");
    // Touch the pools once so their connections are not counted as game memory.
    rt.block_on(fresh.game(GuildId(GUILD), ids[0]))
        .expect("view");
    let heap_before = heap::heap_bytes();
    let rss_before = rss_bytes();
    for id in &ids {
        std::hint::black_box(rt.block_on(fresh.game(GuildId(GUILD), *id)).expect("view"));
    }
    let heap_after = heap::heap_bytes();
    let rss_after = rss_bytes();
    assert_eq!(fresh.cached_games(), GAMES);
    println!(
        "memory per active game ({GAMES} games of {PLIES} moves held in the cache): \
         {} bytes of Rust heap",
        (heap_after - heap_before) / GAMES as isize
    );
    if let (Some(a), Some(b)) = (rss_before, rss_after) {
        println!(
            "  resident set size grew by {} bytes per game (includes SQLite's page cache)",
            (b.saturating_sub(a)) / GAMES as u64
        );
    }
    rt.block_on(fresh.close());
    rt.block_on(bench.svc.close());
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    report_memory();
    report_latencies();
    bench_single_moves(&mut c, Durability::Full, "service/move");
    if let Some(server) = postgres_server() {
        bench_single_moves_postgres(&mut c, &server);
    }
    bench_many_games(&mut c, Durability::Full, "1000-games", 4);
    bench_single_moves(&mut c, Durability::Normal, "service/move-durability-normal");
    bench_many_games(
        &mut c,
        Durability::Normal,
        "1000-games-durability-normal",
        4,
    );
    c.final_summary();
}
