//! Several processes on one database (issue 11, part 2).
//!
//! A process whose cached copy of a game is stale never acts on it: the move log's unique
//! `(game, ply)` key refuses the append, the game is read again and the action checked again
//! (a player who saw the older position is told it changed).
//!
//! Deadline sweeps: several processes sweep one database
//! at once, the first is killed with SIGKILL in the middle of its sweep, and still every due
//! reminder is owed once and every loss on time is recorded once. The games the killed
//! process had claimed stay under its lease until the lease runs out; then a later sweep takes
//! them.
//!
//! The sweepers are child processes (this test binary, running the ignored `sweep_child`),
//! each with its own service and a clock fixed by the parent.

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use gomoku_bot::service::{
    Actor, ClockEvent, GameId, GuildId, ManualClock, Played, Service, ServiceConfig, ServiceError,
    TimeControl, Timestamp,
};
use gomoku_bot::store::StoreOptions;
use sqlx::Row as _;

use crate::common::*;

const SWEEP_DB: &str = "GOMOKU_SWEEP_TEST_DB";
const SWEEP_NOW: &str = "GOMOKU_SWEEP_TEST_NOW";
const DAY_MS: i64 = 86_400_000;
/// Games past their deadline (losses on time) and games whose reminder is due.
const OVERDUE: usize = 40;
const REMINDED: usize = 20;
/// Longer than the clock sweep's lease on a claimed game (five minutes).
const PAST_THE_LEASE_MS: i64 = 301_000;

fn no_vacation() -> ServiceConfig {
    ServiceConfig {
        vacation_days_per_year: 0,
        max_open_games_per_pair: u32::MAX,
        ..config()
    }
}

/// A sweeper: sweeps the database named by `GOMOKU_SWEEP_TEST_DB` at the time
/// `GOMOKU_SWEEP_TEST_NOW` (ms) again and again, printing `timeout GAME` and `reminder GAME`
/// for each event and `pass` after each sweep. Run only by the test below, which kills it.
#[tokio::test]
#[ignore = "the sweep test's child process; it runs until killed"]
async fn sweep_child() {
    let (Ok(url), Ok(now)) = (std::env::var(SWEEP_DB), std::env::var(SWEEP_NOW)) else {
        return;
    };
    let clock = Arc::new(ManualClock::new(Timestamp(now.parse().expect("ms"))));
    let svc = Service::open(&StoreOptions::new(url), no_vacation(), clock)
        .await
        .expect("the child opens the database");
    loop {
        for event in svc.sweep_clocks().await.expect("sweep") {
            match event {
                ClockEvent::TimedOut { game, .. } => println!("timeout {}", game.id.0),
                ClockEvent::Reminder { game, .. } => println!("reminder {}", game.id.0),
                other => println!("other {other:?}"),
            }
        }
        println!("pass");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// A sweeper child and the lines it printed.
struct Sweeper {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
}

impl Sweeper {
    fn start(db: &TestDb, now: Timestamp) -> Sweeper {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "processes::sweep_child",
                "--exact",
                "--ignored",
                "--nocapture",
            ])
            .env(SWEEP_DB, &db.url)
            .env(SWEEP_NOW, now.0.to_string())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let lines = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&lines);
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                kept.lock().unwrap().push(line);
            }
        });
        Sweeper { child, lines }
    }

    fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    fn passes(&self) -> usize {
        self.lines().iter().filter(|l| *l == "pass").count()
    }

    /// SIGKILL, then wait for it.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Sweeper {
    fn drop(&mut self) {
        self.kill();
    }
}

/// (finished games, losses on time in the log, reminder rows owed) now.
async fn progress(db: &TestDb) -> (i64, i64, i64) {
    let mut c = db.raw().await;
    let count = |q: &'static str| sqlx::query_scalar::<_, i64>(q);
    let finished = count("SELECT COUNT(*) FROM games WHERE status <> 'active'")
        .fetch_one(&mut c)
        .await
        .unwrap();
    let timeouts = count("SELECT COUNT(*) FROM moves WHERE action = 'timeout'")
        .fetch_one(&mut c)
        .await
        .unwrap();
    let reminders = count("SELECT COUNT(*) FROM outbox WHERE kind = 'reminder'")
        .fetch_one(&mut c)
        .await
        .unwrap();
    (finished, timeouts, reminders)
}

/// Waits until every sweeper has finished `passes` more sweeps than it had.
async fn wait_for_passes(sweepers: &[&Sweeper], passes: usize) {
    let before: Vec<usize> = sweepers.iter().map(|s| s.passes()).collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    while sweepers
        .iter()
        .zip(&before)
        .any(|(s, b)| s.passes() < b + passes)
    {
        assert!(Instant::now() < deadline, "the sweepers stopped sweeping");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Counts per game of a query's `(game_id, count)` rows.
async fn per_game(db: &TestDb, query: &'static str) -> BTreeMap<i64, i64> {
    let mut c = db.raw().await;
    sqlx::query(query)
        .fetch_all(&mut c)
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get::<i64, _>(0), r.get::<i64, _>(1)))
        .collect()
}

async fn sweeps_in_several_processes_with_one_killed_mid_sweep_act_once(db: TestDb) {
    let env = Env::with_config(db, no_vacation()).await;
    // Three days a move: a game begun at T0 is overdue after T0 + 3 days; one begun a day
    // later is due its reminder (2 days into the turn) but not overdue.
    let mut overdue = BTreeSet::new();
    let mut reminded = BTreeSet::new();
    for n in 0..OVERDUE + REMINDED {
        if n == OVERDUE {
            env.clock.set(Timestamp(T0.0 + DAY_MS));
        }
        let (a, b) = (
            user(1000 + 2 * n as u64, "a"),
            user(1001 + 2 * n as u64, "b"),
        );
        let mut r = request(Some(b.clone()), "gomoku");
        r.time = Some(TimeControl::DaysPerMove(3));
        let c = env.svc.challenge(&at(a), r).await.unwrap();
        let id = env.svc.accept(&at(b), c.id).await.unwrap().game.unwrap().id;
        if n < OVERDUE {
            overdue.insert(id.0);
        } else {
            reminded.insert(id.0);
        }
    }
    let sweep_at = Timestamp(T0.0 + 3 * DAY_MS + 3_600_000);

    // The first sweeper alone, killed as soon as its sweep has recorded a loss on time.
    let mut first = Sweeper::start(&env.db, sweep_at);
    let deadline = Instant::now() + Duration::from_secs(120);
    let at_kill = loop {
        let p = progress(&env.db).await;
        if p.1 > 0 {
            first.kill();
            break progress(&env.db).await;
        }
        assert!(Instant::now() < deadline, "the first sweeper did nothing");
        tokio::time::sleep(Duration::from_millis(2)).await;
    };
    println!(
        "killed the first sweeper with {} of {OVERDUE} losses on time recorded and {} \
         reminders owed",
        at_kill.1, at_kill.2
    );
    // Two more at the same time: they remind, and leave the games the dead one claimed to
    // its lease.
    let second = Sweeper::start(&env.db, sweep_at);
    let third = Sweeper::start(&env.db, sweep_at);
    wait_for_passes(&[&second, &third], 2).await;
    // Two more once the lease has run out: they take the rest.
    let later = Timestamp(sweep_at.0 + PAST_THE_LEASE_MS);
    let fourth = Sweeper::start(&env.db, later);
    let fifth = Sweeper::start(&env.db, later);
    wait_for_passes(&[&fourth, &fifth], 2).await;
    let survivors = [&second, &third, &fourth, &fifth];

    // Every overdue game lost on time once: one `timeout` row in its log, one message owed.
    let timeouts = per_game(
        &env.db,
        "SELECT game_id, COUNT(*) FROM moves WHERE action = 'timeout' GROUP BY game_id",
    )
    .await;
    assert_eq!(
        timeouts.keys().copied().collect::<BTreeSet<_>>(),
        overdue,
        "the games that lost on time"
    );
    assert!(timeouts.values().all(|n| *n == 1), "{timeouts:?}");
    let owed = per_game(
        &env.db,
        "SELECT game_id, COUNT(*) FROM outbox WHERE kind = 'timeout' GROUP BY game_id",
    )
    .await;
    assert_eq!(owed, timeouts, "one loss-on-time message owed per game");
    // Every due reminder owed once (the dead sweeper may have reminded an overdue game it had
    // not ended; that one is owed once too).
    let reminders = per_game(
        &env.db,
        "SELECT game_id, COUNT(*) FROM outbox WHERE kind = 'reminder' GROUP BY game_id",
    )
    .await;
    for id in &reminded {
        assert_eq!(reminders.get(id), Some(&1), "game {id}: {reminders:?}");
    }
    assert!(reminders.values().all(|n| *n == 1), "{reminders:?}");
    // And the living sweepers told of each event once between them.
    let mut told: BTreeMap<String, usize> = BTreeMap::new();
    for s in survivors {
        for line in s.lines() {
            if line.starts_with("timeout ") || line.starts_with("reminder ") {
                *told.entry(line).or_insert(0) += 1;
            }
        }
    }
    assert!(told.values().all(|n| *n == 1), "{told:?}");
    let told_timeouts = told.keys().filter(|l| l.starts_with("timeout ")).count();
    assert_eq!(
        told_timeouts as i64,
        OVERDUE as i64 - at_kill.1,
        "the survivors ended what the dead sweeper had not"
    );
}

/// `who` plays `point` in game `id` through `svc`, having seen ply `seen` (if named).
async fn play_at(
    svc: &Service,
    who: &Actor,
    id: GameId,
    point: &str,
    seen: Option<u32>,
) -> Result<Played, ServiceError> {
    svc.play(who, Some(id), act(point, 15), seen).await
}

async fn a_process_with_a_stale_copy_of_a_game_checks_again_and_never_plays_blind(db: TestDb) {
    let clock = Arc::new(ManualClock::new(T0));
    let a = open_service(&db, config(), clock.clone()).await;
    let b = open_service(&db, config(), clock).await;
    let (game, first, second) = start_two(&a, "gomoku size=15").await;
    let id = game.id;
    assert_eq!(
        play_at(&a, &first, id, "H8", Some(0))
            .await
            .unwrap()
            .view
            .ply,
        1
    );
    // Both processes hold the game at ply 1, the second player to move.
    assert_eq!(a.game(GuildId(GUILD), game.id).await.unwrap().ply, 1);
    assert_eq!(b.game(GuildId(GUILD), game.id).await.unwrap().ply, 1);
    // Two moves through B: the second player is to move again, at ply 3.
    assert_eq!(
        play_at(&b, &second, id, "J9", Some(1))
            .await
            .unwrap()
            .view
            .ply,
        2
    );
    assert_eq!(
        play_at(&b, &first, id, "K10", Some(2))
            .await
            .unwrap()
            .view
            .ply,
        3
    );
    // A's copy is stale at ply 1. The second player's move from the position they saw there
    // is still legal and still theirs at ply 3, yet it is not played on a position they
    // never saw: they are told it changed.
    let e = play_at(&a, &second, id, "L11", Some(1)).await.unwrap_err();
    assert!(matches!(e, ServiceError::PositionChanged), "{e:?}");
    // From the position they see now, it goes in.
    assert_eq!(
        play_at(&a, &second, id, "L11", Some(3))
            .await
            .unwrap()
            .view
            .ply,
        4
    );
    // B's copy is stale at ply 3: the first player, who saw ply 4, moves through B.
    assert_eq!(
        play_at(&b, &first, id, "M12", Some(4))
            .await
            .unwrap()
            .view
            .ply,
        5
    );
    // A point taken through the other process is refused as taken, not played twice.
    let e = play_at(&a, &second, id, "M12", None).await.unwrap_err();
    assert!(matches!(e, ServiceError::Illegal(_)), "{e:?}");
    let log = a.store().load_game(game.id).await.unwrap().unwrap().actions;
    let tokens: Vec<&str> = log.iter().map(|r| r.token.as_str()).collect();
    assert_eq!(tokens, ["H8", "J9", "K10", "L11", "M12"]);
    a.close().await;
    b.close().await;
}

both_stores!(a_process_with_a_stale_copy_of_a_game_checks_again_and_never_plays_blind);
both_stores!(multi_thread 2: sweeps_in_several_processes_with_one_killed_mid_sweep_act_once);
