//! Benchmarks of tournaments (issue 15):
//!
//! - `tournaments/swiss-pairing/200-players`: pairing round 5 of a 200-player Swiss whose
//!   first four rounds were played with seeded random results (the blossom matching on 200
//!   vertices, with every criterion).
//! - `tournaments/standings-picture/64-players/draw` and `.../encode`: the standings table
//!   of 64 players drawn in palette indices, then encoded as PNG; its size is printed.
//! - `tournaments/advance/100-games`: advancing a 200-player Swiss from a complete round 1
//!   to round 2 on a database file on disk: reading the tournament, pairing, and creating
//!   100 boards and games in one transaction (the default durability: one sync).
//!
//! Run: `cargo bench --bench tournaments`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::Criterion;
use gomoku_bot::render::{StandingsRow, StandingsTable, Theme, draw_standings};
use gomoku_bot::rules::RuleSet;
use gomoku_bot::service::{
    Actor, GuildId, ManualClock, Service, ServiceConfig, TimeControl, Timestamp, TournamentRequest,
    UserInfo,
};
use gomoku_bot::store::StoreOptions;
use gomoku_bot::tournament::swiss::{Entrant, pair_round};
use gomoku_bot::tournament::{Board, BoardResult, Format};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

const T0: Timestamp = Timestamp(1_700_000_000_000);
const GUILD: u64 = 1;

/// 200 entrants and four rounds of seeded random results.
fn swiss_history() -> (Vec<Entrant>, Vec<Board>) {
    let mut rng = StdRng::seed_from_u64(15);
    let entrants: Vec<Entrant> = (1..=200)
        .map(|k| Entrant {
            key: k,
            rating: 1200.0 + f64::from(rng.random_range(0..800u32)),
        })
        .collect();
    let mut history = Vec::new();
    for round in 1..=4 {
        let pairs = pair_round(&entrants, &history).expect("paired");
        for b in pairs.boards(round).iter_mut() {
            if b.result.is_none() {
                b.result = Some(match rng.random_range(0..10) {
                    0..=4 => BoardResult::FirstWon,
                    5..=8 => BoardResult::SecondWon,
                    _ => BoardResult::Draw,
                });
            }
            history.push(*b);
        }
    }
    (entrants, history)
}

fn table(rows: usize) -> StandingsTable {
    StandingsTable {
        title: "Autumn Swiss 2026".into(),
        subtitle: "After round 6 of 7".into(),
        headings: ["#", "Player", "Points", "Buchholz", "SB", "Games"]
            .map(String::from)
            .to_vec(),
        rows: (0..rows)
            .map(|i| StandingsRow {
                rank: (i + 1).to_string(),
                name: format!("Player number {i} «ÅÄÖ»"),
                cells: vec![
                    format!("{}½", 6 - i / 11),
                    format!("{}", 20 - i / 4),
                    format!("{}¼", 18 - i / 4),
                    "6".into(),
                ],
                winner: i == 0,
                withdrawn: i % 17 == 5,
            })
            .collect(),
    }
}

/// A 200-player Swiss on a fresh file whose round 1 (100 games) is complete: every game
/// resigned by seat 2. Returns the service and the tournament.
async fn complete_round_one(dir: &tempfile::TempDir, name: &str) -> (Service, i64) {
    let clock = Arc::new(ManualClock::new(T0));
    let options = StoreOptions::for_file(&dir.path().join(name));
    let svc = Service::open(&options, ServiceConfig::default(), clock)
        .await
        .expect("open");
    let creator = Actor::new(GUILD, 2, UserInfo::new(1, "p1"));
    let t = svc
        .create_tournament(
            &creator,
            TournamentRequest {
                name: "Bench Swiss".into(),
                format: Format::Swiss,
                rules: Some(RuleSet::from_spec("gomoku").expect("rules")),
                time: Some(TimeControl::DaysPerMove(3)),
                rated: false,
                max_players: Some(200),
                rounds: Some(5),
                games_per_pairing: None,
            },
        )
        .await
        .expect("created");
    for k in 1..=200 {
        let who = Actor::new(GUILD, 2, UserInfo::new(k, format!("p{k}")));
        svc.join_tournament(&who, t.row.id).await.expect("joined");
    }
    let t = svc
        .start_tournament(&creator, t.row.id, false)
        .await
        .expect("started");
    for b in t.round_boards(1) {
        let (Some(game), Some(second)) = (b.game, b.second) else {
            continue;
        };
        let who = Actor::new(GUILD, 2, UserInfo::new(second.0, format!("p{}", second.0)));
        svc.resign(&who, Some(game)).await.expect("resigned");
    }
    (svc, t.row.id.0)
}

fn main() {
    let (entrants, history) = swiss_history();
    let mut c = Criterion::default().configure_from_args();
    c.bench_function("tournaments/swiss-pairing/200-players", |b| {
        b.iter(|| pair_round(&entrants, &history).expect("paired"));
    });

    let t = table(64);
    let drawn = draw_standings(&t, Theme::Light);
    let png = drawn.encode();
    let (w, h) = drawn.dimensions();
    println!(
        "tournaments: standings picture of 64 players: {w}x{h} px, {} bytes ({:.1} KB)",
        png.len(),
        png.len() as f64 / 1024.0
    );
    c.bench_function("tournaments/standings-picture/64-players/draw", |b| {
        b.iter(|| draw_standings(&t, Theme::Light));
    });
    c.bench_function("tournaments/standings-picture/64-players/encode", |b| {
        b.iter(|| drawn.encode());
    });

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut group = c.benchmark_group("tournaments/advance");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    let mut n = 0;
    group.bench_function("100-games", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                n += 1;
                let (svc, id) = rt.block_on(complete_round_one(&dir, &format!("t{n}.db")));
                let id = gomoku_bot::service::TournamentId(id);
                let start = Instant::now();
                let rounds = rt.block_on(svc.advance_tournament(id)).expect("advanced");
                total += start.elapsed();
                assert_eq!(rounds, vec![2]);
                let t = rt
                    .block_on(svc.tournament(GuildId(GUILD), id))
                    .expect("read");
                assert_eq!(t.round_boards(2).len(), 100);
                rt.block_on(svc.close());
                let _ = std::fs::remove_file(dir.path().join(format!("t{n}.db")));
            }
            total
        });
    });
    group.finish();
    c.final_summary();
}
