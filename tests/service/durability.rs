//! Restarts, crashes, migrations and storage failures, on real database files.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use gomoku_bot::rules::{Action, Game, Point};
use gomoku_bot::service::{
    ChallengeStatus, GameId, GameStatus, GuildId, ManualClock, Service, ServiceConfig,
    ServiceError, StorageErrorKind, SystemClock, UserId,
};
use gomoku_bot::store::{Store, StoreOptions};
use rand::{Rng, SeedableRng};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{Connection, Row, SqliteConnection};

use crate::common::*;

async fn raw_connection(path: &std::path::Path) -> SqliteConnection {
    SqliteConnection::connect_with(&SqliteConnectOptions::new().filename(path))
        .await
        .expect("raw connection")
}

async fn games_challenges_and_lobbies_continue_after_a_restart(db: TestDb) {
    let mut env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "pente").await;
    for (who, token) in [(&first, "K10"), (&second, "L10"), (&first, "A1")] {
        env.svc
            .play(who, Some(game.id), Action::parse(token, 19).unwrap(), None)
            .await
            .unwrap();
    }
    let before = env.svc.game(GuildId(GUILD), game.id).await.unwrap();
    let pending = env
        .svc
        .challenge(&at(carol()), request(Some(dave()), "gomoku"))
        .await
        .unwrap();
    let lobby = env
        .svc
        .challenge(&at(alice()), request(None, "gomoku players=3"))
        .await
        .unwrap();
    env.svc.accept(&at(erin()), lobby.id).await.unwrap();

    env.restart().await;
    assert_eq!(
        env.svc.cached_games(),
        0,
        "a new service starts with nothing in memory"
    );
    let after = env.svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(
        after, before,
        "the position is rebuilt exactly from the log"
    );
    // The game goes on, with the same turn order and staleness checks.
    assert_eq!(
        env.svc
            .play(
                &first,
                Some(game.id),
                Action::parse("B2", 19).unwrap(),
                None
            )
            .await
            .unwrap_err(),
        ServiceError::NotYourTurn
    );
    let played = env
        .svc
        .play(
            &second,
            Some(game.id),
            Action::parse("M10", 19).unwrap(),
            Some(3),
        )
        .await
        .unwrap();
    assert_eq!(played.view.ply, 4);
    // The pending challenge and the half-full lobby too.
    let accepted = env.svc.accept(&at(dave()), pending.id).await.unwrap();
    assert!(accepted.game.is_some());
    let started = env.svc.accept(&at(bob()), lobby.id).await.unwrap();
    assert_eq!(
        started.challenge.members,
        vec![UserId(1), UserId(5), UserId(2)]
    );
    assert!(started.game.is_some());

    env.restart().await;
    let list = env
        .svc
        .active_games(GuildId(GUILD), UserId(1))
        .await
        .unwrap();
    assert_eq!(list.len(), 2);
    env.svc.store().check_integrity().await.unwrap();
}

/// How many migrations are recorded, and how many of them succeeded.
async fn migrations_applied(conn: &mut sqlx::AnyConnection) -> (i64, i64) {
    let all: i64 = sqlx::query("SELECT COUNT(*) FROM _sqlx_migrations")
        .fetch_one(&mut *conn)
        .await
        .unwrap()
        .get(0);
    let succeeded: i64 = sqlx::query("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
        .fetch_one(&mut *conn)
        .await
        .unwrap()
        .get(0);
    (all, succeeded)
}

async fn migrations_apply_to_an_empty_database_and_are_idempotent(db: TestDb) {
    if let Some(path) = db.path() {
        assert!(!path.exists());
    }
    let store = Store::open(&db.options()).await.unwrap();
    if let Some(path) = db.path() {
        assert!(path.exists(), "created if missing");
    }
    store.close().await;

    let mut conn = db.raw().await;
    let tables = if db.is_postgres() {
        "SELECT CAST(table_name AS TEXT) FROM information_schema.tables \
         WHERE table_schema = current_schema() ORDER BY table_name"
    } else {
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         ORDER BY name"
    };
    let tables: Vec<String> = sqlx::query(tables)
        .fetch_all(&mut conn)
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert_eq!(
        tables,
        [
            "_sqlx_migrations",
            "challenge_members",
            "challenges",
            "engine_jobs",
            "game_seats",
            "games",
            "guild_settings",
            "members",
            "moves",
            "offers",
            "outbox",
            "rating_changes",
            "ratings",
            "rematches",
            "reviews",
            "tournament_boards",
            "tournament_players",
            "tournaments",
            "user_preferences",
            "vacation_usage"
        ]
    );
    let applied = migrations_applied(&mut conn).await;
    let folder = if db.is_postgres() {
        "postgres"
    } else {
        "sqlite"
    };
    let files = std::fs::read_dir(format!(
        "{}/migrations/{folder}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("migrations directory")
    .filter(|e| {
        e.as_ref()
            .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "sql"))
    })
    .count();
    let files = i64::try_from(files).expect("a few files");
    assert_eq!(applied, (files, files));
    if !db.is_postgres() {
        let mode: String = sqlx::query("PRAGMA journal_mode")
            .fetch_one(&mut conn)
            .await
            .unwrap()
            .get(0);
        assert_eq!(mode, "wal");
    }
    conn.close().await.unwrap();

    // Opening again (a restart) applies nothing new and fails on nothing.
    for _ in 0..2 {
        let store = Store::open(&db.options()).await.unwrap();
        store.check_integrity().await.unwrap();
        store.close().await;
    }
    let mut conn = db.raw().await;
    assert_eq!(migrations_applied(&mut conn).await, applied);
}

async fn the_move_log_is_append_only_and_unique_per_ply(db: TestDb) {
    let env = Env::new(db).await;
    let (game, first, _) = start_two(&env.svc, "gomoku").await;
    env.svc
        .play(
            &first,
            Some(game.id),
            Action::parse("H8", 15).unwrap(),
            None,
        )
        .await
        .unwrap();
    let mut conn = env.db.raw().await;
    let update = sqlx::query("UPDATE moves SET action = 'A1' WHERE game_id = $1")
        .bind(game.id.0)
        .execute(&mut conn)
        .await;
    assert!(update.unwrap_err().to_string().contains("append-only"));
    let delete = sqlx::query("DELETE FROM moves WHERE game_id = $1")
        .bind(game.id.0)
        .execute(&mut conn)
        .await;
    assert!(delete.unwrap_err().to_string().contains("append-only"));
    let duplicate = sqlx::query(
        "INSERT INTO moves (game_id, ply, seat, action, played_at) VALUES ($1, 1, 2, 'A1', 0)",
    )
    .bind(game.id.0)
    .execute(&mut conn)
    .await;
    assert!(
        matches!(&duplicate, Err(sqlx::Error::Database(e)) if e.is_unique_violation()),
        "{duplicate:?}"
    );
}

async fn a_damaged_move_log_is_reported_as_corrupt_not_a_panic(db: TestDb) {
    let mut env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "gomoku").await;
    let (game2, _, _) = start_pair(&env.svc, carol(), dave(), "gomoku").await;
    env.svc
        .play(
            &first,
            Some(game.id),
            Action::parse("H8", 15).unwrap(),
            None,
        )
        .await
        .unwrap();
    let mut conn = env.db.raw().await;
    // Written behind the service's back: a token that is not a point of a 15x15 board,
    // with the row's snapshot bumped to match.
    sqlx::query(
        "INSERT INTO moves (game_id, ply, seat, action, played_at) VALUES ($1, 2, 2, 'Z99', 0)",
    )
    .bind(game.id.0)
    .execute(&mut conn)
    .await
    .unwrap();
    sqlx::query("UPDATE games SET ply = 2 WHERE game_id = $1")
        .bind(game.id.0)
        .execute(&mut conn)
        .await
        .unwrap();
    // A rule set that cannot be read.
    sqlx::query("UPDATE games SET rules = 'chess' WHERE game_id = $1")
        .bind(game2.id.0)
        .execute(&mut conn)
        .await
        .unwrap();
    // Damage is found when a game is loaded (a cached copy is trusted until its ply moves).
    env.restart().await;
    for id in [game.id, game2.id] {
        match env.svc.game(GuildId(GUILD), id).await {
            Err(ServiceError::Storage(e)) => assert_eq!(e.kind, StorageErrorKind::Corrupt),
            other => panic!("expected a corrupt-storage error, got {other:?}"),
        }
    }
    match env
        .svc
        .play(
            &second,
            Some(game.id),
            Action::parse("A1", 15).unwrap(),
            None,
        )
        .await
    {
        Err(ServiceError::Storage(e)) => assert_eq!(e.kind, StorageErrorKind::Corrupt),
        other => panic!("expected a corrupt-storage error, got {other:?}"),
    }
}

async fn a_locked_database_is_a_typed_error_and_the_move_can_be_made_afterwards(db: TestDb) {
    let clock = Arc::new(ManualClock::new(T0));
    let options = StoreOptions {
        busy_timeout: Duration::from_millis(100),
        ..db.options()
    };
    let svc = Service::open(&options, config(), clock).await.unwrap();
    let (game, first, second) = start_two(&svc, "gomoku").await;
    svc.play(
        &first,
        Some(game.id),
        Action::parse("H8", 15).unwrap(),
        None,
    )
    .await
    .unwrap();

    // Another process holds the write lock (SQLite), or a lock that keeps writers out of the
    // move log but lets readers in (PostgreSQL).
    let mut other = db.hold_move_log().await;
    let j8 = Action::parse("J8", 15).unwrap();
    match svc.play(&second, Some(game.id), j8, Some(1)).await {
        Err(ServiceError::Storage(e)) => assert_eq!(e.kind, StorageErrorKind::Busy),
        other => panic!("expected a busy database, got {other:?}"),
    }
    // Reads still work, and show the move did not happen.
    let view = svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(view.ply, 1);
    assert_eq!(view.to_act().map(|s| s.user), Some(second.user.id));
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();

    // The same move, at the same ply, now goes through.
    let played = svc.play(&second, Some(game.id), j8, Some(1)).await.unwrap();
    assert_eq!(played.view.ply, 2);
    svc.close().await;
}

/// SQLite only: a size limit is SQLite's `max_page_count`; a PostgreSQL server's full disk
/// cannot be made in a test without filling the machine's.
#[tokio::test]
async fn a_full_database_is_a_typed_error_that_loses_nothing_acknowledged() {
    let db = TestDb::sqlite();
    let path = db.file().to_path_buf();
    let clock = Arc::new(ManualClock::new(T0));
    // Learn how many pages the empty schema takes, then allow barely more.
    let store = Store::open(&StoreOptions::for_file(&path)).await.unwrap();
    store.close().await;
    let mut conn = raw_connection(&path).await;
    let pages: i64 = sqlx::query("PRAGMA page_count")
        .fetch_one(&mut conn)
        .await
        .unwrap()
        .get(0);
    conn.close().await.unwrap();
    let options = StoreOptions {
        pragmas: vec![("max_page_count".into(), (pages + 2).to_string())],
        ..StoreOptions::for_file(&path)
    };
    let svc = Service::open(&options, config(), clock.clone())
        .await
        .unwrap();
    let mut acknowledged = Vec::new();
    let failure = loop {
        let challenger = user(1000 + acknowledged.len() as u64, &"x".repeat(200));
        match svc
            .challenge(&at(challenger), request(None, "gomoku"))
            .await
        {
            Ok(c) => acknowledged.push(c.id),
            Err(e) => break e,
        }
        assert!(acknowledged.len() < 10_000, "the limit never bit");
    };
    match failure {
        ServiceError::Storage(e) => assert_eq!(e.kind, StorageErrorKind::Full, "{e}"),
        other => panic!("expected a full database, got {other:?}"),
    }
    assert!(!acknowledged.is_empty());
    svc.close().await;

    let svc = open_service(&db, config(), clock).await;
    for id in &acknowledged {
        let c = svc.challenge_info(GuildId(GUILD), *id).await.unwrap();
        assert_eq!(c.status, ChallengeStatus::Open);
    }
    svc.store().check_integrity().await.unwrap();
    // With room again, work goes on.
    svc.challenge(&at(alice()), request(None, "gomoku"))
        .await
        .unwrap();
}

// ----- the crash test -----------------------------------------------------------------------

const CRASH_DB: &str = "GOMOKU_CRASH_TEST_DB";

/// One committed action as the child reports it: `committed GAME PLY TOKEN`.
fn parse_report(line: &str) -> Option<(GameId, u32, String)> {
    let mut words = line.strip_prefix("committed ")?.split_whitespace();
    let game = GameId::from_str(words.next()?).ok()?;
    let ply = words.next()?.parse().ok()?;
    Some((game, ply, words.next()?.to_string()))
}

/// The child of the crash test: plays moves against the database named by
/// `GOMOKU_CRASH_TEST_DB` forever, printing each one after it is committed. Run only by
/// `a_killed_process_loses_no_committed_move`, which kills it.
#[tokio::test]
#[ignore = "the crash test's child process; it runs until killed"]
async fn crash_child() {
    let Ok(url) = std::env::var(CRASH_DB) else {
        return;
    };
    let svc = Service::open(
        &StoreOptions::new(url),
        // Challenges orphaned by a kill between challenge and accept must not fill the pair.
        ServiceConfig {
            max_open_games_per_pair: u32::MAX,
            ..config()
        },
        Arc::new(SystemClock),
    )
    .await
    .expect("child opens the database");
    let mut rng = rand::rngs::StdRng::from_os_rng();
    loop {
        let games = svc
            .active_games(GuildId(GUILD), UserId(1))
            .await
            .expect("list");
        let id = match games.first() {
            Some(g) => g.id,
            None => {
                let c = svc
                    .challenge(&at(alice()), request(Some(bob()), "gomoku size=19"))
                    .await
                    .expect("challenge");
                svc.accept(&at(bob()), c.id)
                    .await
                    .expect("accept")
                    .game
                    .expect("game")
                    .id
            }
        };
        let view = svc.game(GuildId(GUILD), id).await.expect("view");
        let actor = seat_actor(&view, view.to_act().expect("active").seat);
        let empty: Vec<Point> = view
            .game
            .points()
            .filter(|p| view.game.stone_at(*p).is_none())
            .collect();
        let point = empty[rng.random_range(0..empty.len())];
        let played = svc
            .play(&actor, Some(id), Action::Place(point), Some(view.ply))
            .await
            .expect("play");
        println!("committed {} {} {}", id, played.view.ply, point);
    }
}

/// Blocking waits below are on purpose: the child is another process, and this test's
/// runtime has nothing else to run meanwhile.
async fn a_killed_process_loses_no_committed_move(db: TestDb) {
    let exe = std::env::current_exe().unwrap();
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5eed);
    let mut reported: Vec<(GameId, u32, String)> = Vec::new();
    for round in 0..6 {
        let mut child = Command::new(&exe)
            .args([
                "durability::crash_child",
                "--exact",
                "--ignored",
                "--nocapture",
            ])
            .env(CRASH_DB, &db.url)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let reader = std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if let Some(r) = parse_report(&line)
                    && tx.send(r).is_err()
                {
                    break;
                }
            }
        });
        // Kill it after a random number of committed moves plus a random sliver of time,
        // so that the kill lands anywhere in the next action.
        let wait_for = rng.random_range(1..40);
        let mut seen = 0;
        while seen < wait_for {
            match rx.recv_timeout(Duration::from_secs(30)) {
                Ok(r) => {
                    reported.push(r);
                    seen += 1;
                }
                Err(e) => panic!("round {round}: the child stopped reporting: {e}"),
            }
        }
        std::thread::sleep(Duration::from_micros(rng.random_range(0..3000)));
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        reader.join().unwrap();
        reported.extend(rx.try_iter());

        // Every reported move is in the log, and the database is sound.
        {
            let store = Store::open(&db.options()).await.unwrap();
            store.check_integrity().await.unwrap();
            for (game, ply, token) in &reported {
                let stored = store.load_game(*game).await.unwrap().expect("game kept");
                let row = stored
                    .actions
                    .get(*ply as usize - 1)
                    .unwrap_or_else(|| panic!("round {round}: game {game} lost ply {ply}"));
                assert_eq!((row.ply, &row.token), (*ply, token));
                // And the log still replays.
                let size = stored.meta.rules.size;
                let record: Vec<Action> = stored
                    .actions
                    .iter()
                    .map(|a| Action::parse(&a.token, size).unwrap())
                    .collect();
                Game::from_record(stored.meta.rules, &record).unwrap();
                assert!(matches!(
                    stored.meta.status,
                    GameStatus::Active | GameStatus::Finished(_)
                ));
            }
            store.close().await;
        }
    }
    assert!(reported.len() >= 6);
}

both_stores!(
    games_challenges_and_lobbies_continue_after_a_restart,
    the_move_log_is_append_only_and_unique_per_ply,
    a_damaged_move_log_is_reported_as_corrupt_not_a_panic,
    a_locked_database_is_a_typed_error_and_the_move_can_be_made_afterwards,
    migrations_apply_to_an_empty_database_and_are_idempotent,
    a_killed_process_loses_no_committed_move,
);
