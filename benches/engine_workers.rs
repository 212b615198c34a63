//! Engine jobs (issue 11): the computer's moves per second with one worker against two, on
//! PostgreSQL, each move searched to a fixed node cap so the figure does not depend on the
//! clock's budgets.
//!
//! Set-up: `GOMOKU_BENCH_JOB_GAMES` (default 32) games against the computer at level 5, each
//! played a few moves in (members' moves and the engine's, at the cap) until the computer owes
//! a move in a middle-game position. A round times how long W workers take to drain every job:
//! each worker is what `gomoku-bot worker --engine-threads 1` is, without Discord: a service
//! of its own (its own connection pools, as a separate process has) on a thread of its own,
//! taking jobs under a lease (`FOR UPDATE SKIP LOCKED`), thinking `GOMOKU_BENCH_JOB_NODES`
//! (default 20000) nodes, committing the move with the job's ply. The games are then rolled
//! forward (each member answers) so the next round has the same number of fresh jobs.
//! `GOMOKU_BENCH_ROUNDS` (default 3) rounds of one worker and of two, alternately; the report
//! gives the median moves per second of each and their ratio, and checks that every job was
//! played exactly once.
//!
//! Needs PostgreSQL: `TEST_DATABASE_URL=postgres://root@127.0.0.1:5432/test nice -n 19 cargo
//! bench --bench engine_workers` (a schema of its own, dropped afterwards).

use std::sync::Arc;
use std::time::{Duration, Instant};

use gomoku_bot::engine::Level;
use gomoku_bot::rules::{Action, RuleSet};
use gomoku_bot::service::{
    Actor, ChallengeRequest, ChannelId, GameId, GuildId, JobTurn, Service, ServiceConfig,
    SystemClock, TimeControl, UserId, UserInfo,
};

#[path = "../tests/support/test_db.rs"]
mod test_db;

const LEASE: Duration = Duration::from_secs(60);

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn engine_user() -> UserInfo {
    UserInfo {
        id: UserId(900),
        name: "Gomoku Bot".into(),
        is_bot: true,
    }
}

fn member(n: u64) -> Actor {
    Actor {
        guild: GuildId(1),
        channel: ChannelId(10 + n),
        user: UserInfo {
            id: UserId(1000 + n),
            name: format!("m{n}"),
            is_bot: false,
        },
        reply: None,
        owes_posts: false,
    }
}

/// A member's reply: the engine at level 3 under a small node cap, so that games last (a
/// weak reply would lose within a few moves and leave no job).
fn reply_of(view: &gomoku_bot::service::GameView) -> Action {
    let mut player = gomoku_bot::engine::Engine::seeded(Level::new(3).expect("level"), 7);
    let limits = gomoku_bot::engine::Limits {
        time: Duration::from_secs(10),
        nodes: 2_000,
    };
    player
        .choose_with(&view.game, limits)
        .expect("a legal action")
}

/// Every member whose game waits for them answers once (a fresh job per game).
async fn members_answer(svc: &Service, games: &[(GameId, u64)]) {
    for &(game, n) in games {
        let view = svc.game(GuildId(1), game).await.expect("the game");
        if view.to_act().map(|s| s.user) == Some(member(n).user.id) {
            svc.play(&member(n), Some(game), reply_of(&view), Some(view.ply))
                .await
                .expect("the member answers");
        }
    }
}

/// One worker: takes jobs until none is left; returns how many moves it played.
async fn drain(svc: &Service, holder: &str, nodes: u64) -> u64 {
    let mut played = 0;
    while let Some(job) = svc.claim_engine_job(holder, LEASE).await.expect("claim") {
        let JobTurn::Play(turn, bot) = svc.engine_job_turn(&job).await.expect("turn") else {
            continue;
        };
        let thinking = turn.clone();
        let action = tokio::task::spawn_blocking(move || thinking.think_nodes(nodes))
            .await
            .expect("thought")
            .expect("an action");
        svc.play_engine_move(&turn, &bot, action)
            .await
            .expect("the engine's move commits once");
        played += 1;
    }
    played
}

/// W workers (services of their own, on threads of their own) drain the jobs; moves per
/// second and how many moves each played.
fn round(url: &str, workers: usize, nodes: u64) -> (f64, Vec<u64>) {
    let start = Arc::new(std::sync::Barrier::new(workers + 1));
    let mut handles = Vec::new();
    for w in 0..workers {
        let url = url.to_owned();
        let start = Arc::clone(&start);
        handles.push(std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .max_blocking_threads(1)
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async {
                let svc = Service::open(
                    &gomoku_bot::store::StoreOptions::new(url),
                    ServiceConfig::default(),
                    Arc::new(SystemClock),
                )
                .await
                .expect("open");
                start.wait();
                let began = Instant::now();
                let played = drain(&svc, &format!("bench-{w}"), nodes).await;
                let took = began.elapsed();
                svc.close().await;
                (played, took)
            })
        }));
    }
    start.wait();
    let began = Instant::now();
    let results: Vec<(u64, Duration)> = handles
        .into_iter()
        .map(|h| h.join().expect("worker"))
        .collect();
    let took = began.elapsed();
    let total: u64 = results.iter().map(|r| r.0).sum();
    (
        total as f64 / took.as_secs_f64(),
        results.iter().map(|r| r.0).collect(),
    )
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn main() {
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    let Some(db) = rt.block_on(test_db::TestDb::postgres("bench engine_workers")) else {
        println!("engine_workers: needs TEST_DATABASE_URL (PostgreSQL); skipped");
        return;
    };
    let games_n = env_number("GOMOKU_BENCH_JOB_GAMES", 32);
    let nodes = env_number("GOMOKU_BENCH_JOB_NODES", 20_000);
    let rounds = env_number("GOMOKU_BENCH_ROUNDS", 3);
    let svc = rt
        .block_on(Service::open(
            &db.options(),
            ServiceConfig {
                max_open_games_per_pair: 1000,
                ..ServiceConfig::default()
            },
            Arc::new(SystemClock),
        ))
        .expect("open");
    let level = Level::new(5).expect("level 5");
    let mut games = Vec::new();
    rt.block_on(async {
        for n in 0..games_n {
            let request = ChallengeRequest {
                opponent: None,
                rules: Some(RuleSet::from_spec("gomoku").expect("gomoku")),
                time: Some(TimeControl::default()),
                rated: false,
            };
            let view = svc
                .challenge_engine(&member(n), &engine_user(), level, request)
                .await
                .expect("a game against the computer");
            games.push((view.id, n));
        }
        // A few moves in: the positions the rounds think about are middle games.
        for _ in 0..3 {
            members_answer(&svc, &games).await;
            drain(&svc, "setup", nodes / 4).await;
        }
        members_answer(&svc, &games).await;
    });
    println!(
        "engine_workers: {games_n} games at level 5, {nodes} nodes a move, {rounds} rounds, \
         PostgreSQL"
    );
    let mut per = [Vec::new(), Vec::new()];
    for r in 0..rounds {
        for (i, workers) in [1usize, 2].into_iter().enumerate() {
            // A game the computer won has no job left: the round plays what there is.
            let waiting = rt.block_on(svc.engine_jobs()).expect("jobs").len() as u64;
            assert!(waiting >= games_n / 2, "{waiting} jobs of {games_n} games");
            let (rate, each) = round(&db.url, workers, nodes);
            assert_eq!(each.iter().sum::<u64>(), waiting, "every job played once");
            assert!(rt.block_on(svc.engine_jobs()).expect("jobs").is_empty());
            println!(
                "  round {r}: {workers} worker(s): {rate:.1} moves/s ({waiting} jobs, each \
                 worker played {each:?})"
            );
            per[i].push(rate);
            rt.block_on(members_answer(&svc, &games));
        }
    }
    let (one, two) = (median(per[0].clone()), median(per[1].clone()));
    println!(
        "engine_workers: median {one:.1} moves/s with one worker, {two:.1} with two \
         ({:.2}x)",
        two / one
    );
    rt.block_on(svc.close());
}
