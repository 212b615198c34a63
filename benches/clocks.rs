//! Benchmarks of the deadline sweep the bot runs every minute, on a database file on disk.
//!
//! - `clocks/idle-sweep`: one [`Service::sweep_clocks`] over 10,000 active games with a
//!   deadline, none of them due (the steady state: two indexed queries).
//! - Before it, single timed runs (not criterion samples) of the sweeps that act: 1,000
//!   reminders due at once, then 1,000 losses on time at once (each a committed write).
//!
//! Run: `cargo bench --bench clocks`.

use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::Criterion;
use gomoku_bot::service::{
    Actor, ChallengeRequest, ClockEvent, ManualClock, Service, ServiceConfig, TimeControl,
    Timestamp, UserInfo,
};
use gomoku_bot::store::{Durability, StoreOptions};
use tempfile::TempDir;

const T0: Timestamp = Timestamp(1_700_000_000_000);
const DAY: Duration = Duration::from_secs(86_400);

/// A service on a fresh file with `games` two-player games of 3 days per move, all started at
/// `T0`, with the given durability.
async fn with_games(
    dir: &TempDir,
    name: &str,
    games: u64,
    durability: Durability,
) -> (Service, Arc<ManualClock>) {
    let clock = Arc::new(ManualClock::new(T0));
    let mut options = StoreOptions::for_file(&dir.path().join(name));
    options.durability = durability;
    let config = ServiceConfig {
        vacation_days_per_year: 0,
        ..ServiceConfig::default()
    };
    let svc = Service::open(&options, config, clock.clone())
        .await
        .expect("open");
    for i in 0..games {
        let a = UserInfo::new(2 * i + 1, format!("a{i}"));
        let b = UserInfo::new(2 * i + 2, format!("b{i}"));
        let request = ChallengeRequest {
            opponent: Some(b.clone()),
            rules: None,
            time: Some(TimeControl::DaysPerMove(3)),
            rated: false,
        };
        let c = svc
            .challenge(&Actor::new(1, 2, a), request)
            .await
            .expect("challenge");
        svc.accept(&Actor::new(1, 2, b), c.id)
            .await
            .expect("accept");
    }
    (svc, clock)
}

fn count(events: &[ClockEvent], timed_out: bool) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, ClockEvent::TimedOut { .. }) == timed_out)
        .count()
}

fn main() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let dir = tempfile::tempdir().expect("temp dir");

    // Single runs of the sweeps that act, with the default durability (a sync per commit).
    let (svc, clock) = rt.block_on(with_games(&dir, "act.db", 1_000, Durability::Full));
    clock.advance(2 * DAY);
    let start = Instant::now();
    let events = rt.block_on(svc.sweep_clocks()).expect("sweep");
    let reminders = start.elapsed();
    assert_eq!(count(&events, false), 1_000);
    clock.advance(DAY);
    let start = Instant::now();
    let events = rt.block_on(svc.sweep_clocks()).expect("sweep");
    let timeouts = start.elapsed();
    assert_eq!(count(&events, true), 1_000);
    println!(
        "clocks: 1,000 reminders due at once: {:.1} ms ({:.3} ms each); \
         1,000 losses on time: {:.1} ms ({:.3} ms each)",
        reminders.as_secs_f64() * 1e3,
        reminders.as_secs_f64(),
        timeouts.as_secs_f64() * 1e3,
        timeouts.as_secs_f64(),
    );
    rt.block_on(svc.close());

    let (svc, clock) = rt.block_on(with_games(&dir, "idle.db", 10_000, Durability::Normal));
    clock.advance(Duration::from_secs(3600));
    let mut c = Criterion::default().configure_from_args();
    c.bench_function("clocks/idle-sweep/10000-games", |b| {
        b.iter(|| {
            let events = rt.block_on(svc.sweep_clocks()).expect("sweep");
            assert!(events.is_empty());
        });
    });
    rt.block_on(svc.close());
    c.final_summary();
}
