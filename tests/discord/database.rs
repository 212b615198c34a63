//! Database faults (issue 16) through the fake Discord: another process holding the write
//! lock while members play (a private message in the member's language, nothing lost, the move
//! made again goes through), and files the bot must not touch: one that is not a database and
//! one written by a newer release stop the real binary at start with one line and status 2,
//! and their bytes are unchanged.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use gomoku_bot::discord::{self, Registration};
use gomoku_bot::i18n::I18n;
use gomoku_bot::service::{Service, ServiceConfig, SystemClock};
use gomoku_bot::store::{Store, StoreOptions};
use serenity::all::ChannelId;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{Connection, Row, SqliteConnection};

use crate::bot::{content, is_ephemeral, play, ready_with_a_game_speaking};
use crate::ops::{BotProcess, slow_start};
use crate::support::fake_discord::{FakeDiscord, RecordedRequest, RunningBot};

async fn raw_connection(path: &Path) -> SqliteConnection {
    SqliteConnection::connect_with(&SqliteConnectOptions::new().filename(path))
        .await
        .expect("raw connection")
}

/// The moves committed in the database at `path`, in order.
async fn committed_moves(path: &Path) -> Vec<String> {
    let mut conn = raw_connection(path).await;
    let rows = sqlx::query("SELECT action FROM moves ORDER BY game_id, ply")
        .fetch_all(&mut conn)
        .await
        .expect("read the move log");
    conn.close().await.unwrap();
    rows.iter().map(|r| r.get::<String, _>(0)).collect()
}

/// How many messages everyone sees in `thread` (the fake keeps the private answers too).
fn public(fake: &FakeDiscord, thread: ChannelId) -> usize {
    fake.messages_in(thread)
        .iter()
        .filter(|m| m["flags"].as_u64().unwrap_or(0) & 64 == 0)
        .count()
}

/// Checks that `answer` tells its member privately that the database is busy, in Spanish or
/// in English.
fn told_busy(answer: &RecordedRequest, in_spanish: bool) {
    assert!(is_ephemeral(answer), "{}", content(answer));
    let expected = if in_spanish {
        "La base de datos está ocupada; no se cambió nada."
    } else {
        "The game database is busy; nothing was changed."
    };
    assert!(content(answer).starts_with(expected), "{}", content(answer));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_another_process_holds_answers_members_privately_and_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bot.db");
    let fake = FakeDiscord::start().await;
    let options = StoreOptions {
        busy_timeout: Duration::from_millis(200),
        ..StoreOptions::for_file(&path)
    };
    let service = Service::open(&options, ServiceConfig::default(), Arc::new(SystemClock))
        .await
        .unwrap();
    let framework = discord::framework(
        Arc::new(service),
        Arc::new(I18n::load()),
        Registration::Guild(fake.guild_id().get()),
    );
    let bot = RunningBot::spawn(discord::client(fake.http(), framework).await.unwrap());
    let (alice, _, started) = ready_with_a_game_speaking(&fake, Some("es-ES")).await;
    let [first, second] = started.order.clone();
    let (_, answer) = play(&fake, &first, started.thread, "H8").await;
    assert!(!is_ephemeral(&answer), "{}", content(&answer));
    let public_before = public(&fake, started.thread);

    // Another process takes the write lock and keeps it past the bot's busy timeout.
    let mut other = raw_connection(&path).await;
    sqlx::query("BEGIN IMMEDIATE")
        .execute(&mut other)
        .await
        .unwrap();
    let (_, busy) = play(&fake, &second, started.thread, "J9").await;
    told_busy(&busy, second.user_id() == alice.user_id());
    // The first player cannot move in the second's place meanwhile either: the game is at ply 1.
    let (_, early) = play(&fake, &first, started.thread, "K10").await;
    assert!(is_ephemeral(&early), "{}", content(&early));
    assert_eq!(
        public(&fake, started.thread),
        public_before,
        "nothing public was posted for a move that did not happen"
    );
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    other.close().await.unwrap();

    // The same move again goes through, and the log holds exactly what was acknowledged.
    let (_, again) = play(&fake, &second, started.thread, "J9").await;
    assert!(!is_ephemeral(&again), "{}", content(&again));
    assert_eq!(committed_moves(&path).await, ["H8", "J9"]);
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

/// What the bot's PostgreSQL schema holds now: the moves committed (in order), the game's ply,
/// and the outbox rows owed for a ply past it (by a move that did not happen).
async fn postgres_state(raw: &mut sqlx::AnyConnection) -> (Vec<String>, i64, i64) {
    let moves = sqlx::query("SELECT action FROM moves ORDER BY game_id, ply")
        .fetch_all(&mut *raw)
        .await
        .expect("read the move log")
        .iter()
        .map(|r| r.get::<String, _>(0))
        .collect();
    let ply: i64 = sqlx::query_scalar("SELECT MAX(ply) FROM games")
        .fetch_one(&mut *raw)
        .await
        .expect("read the game");
    let owed: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM outbox WHERE game_id > 0 AND ply > (SELECT MAX(ply) FROM games)",
    )
    .fetch_one(&mut *raw)
    .await
    .expect("read the outbox");
    (moves, ply, owed)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_lock_held_past_the_wait_is_told_privately_and_one_released_in_time_is_waited_for()
 {
    let Some(db) = crate::support::test_db::TestDb::postgres(module_path!()).await else {
        return;
    };
    let fake = FakeDiscord::start().await;
    // A statement waits this long for another session's lock (`lock_timeout`), then the
    // member hears that the database is busy; the default is `busy_timeout`, 5 s.
    let options = StoreOptions {
        busy_timeout: Duration::from_millis(1000),
        ..db.options()
    };
    let bot = crate::bot::start_bot_on(&fake, &options, ServiceConfig::default()).await;
    let (alice, _, started) = ready_with_a_game_speaking(&fake, Some("es-ES")).await;
    let [first, second] = started.order.clone();
    let mut raw = db.raw().await;
    let (_, answer) = play(&fake, &first, started.thread, "H8").await;
    assert!(!is_ephemeral(&answer), "{}", content(&answer));
    let public_before = public(&fake, started.thread);
    let state_before = postgres_state(&mut raw).await;
    assert_eq!(state_before, (vec!["H8".to_owned()], 1, 0));

    // Another session locks the move log against readers and writers, and holds the lock past
    // the bot's wait.
    let mut other = db.raw().await;
    for statement in ["BEGIN", "LOCK TABLE moves IN ACCESS EXCLUSIVE MODE"] {
        sqlx::query(statement).execute(&mut other).await.unwrap();
    }
    let (_, busy) = play(&fake, &second, started.thread, "J9").await;
    told_busy(&busy, second.user_id() == alice.user_id());
    assert_eq!(
        public(&fake, started.thread),
        public_before,
        "nothing public for a move not made"
    );
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    // Nothing written half: the move log, the game's row and the outbox are as before.
    assert_eq!(postgres_state(&mut raw).await, state_before);

    // The same move while a lock is held for a moment only: the move waits for it, commits,
    // and is answered with the board.
    for statement in ["BEGIN", "LOCK TABLE moves IN ACCESS EXCLUSIVE MODE"] {
        sqlx::query(statement).execute(&mut other).await.unwrap();
    }
    let release = tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(150)).await;
        sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
        other
    });
    let (_, again) = play(&fake, &second, started.thread, "J9").await;
    assert!(!is_ephemeral(&again), "{}", content(&again));
    release.await.unwrap().close().await.unwrap();
    let (moves, ply, _) = postgres_state(&mut raw).await;
    assert_eq!(moves, ["H8", "J9"]);
    assert_eq!(ply, 2);
    fake.assert_all_requests_valid();
    bot.shutdown().await;
    raw.close().await.unwrap();
}

/// Starts the real binary on the database file in `dir`, expects it to stop at once with one
/// `error:` line naming the database and saying `why`, status 2, and the file's bytes
/// unchanged.
async fn refused_untouched(dir: &Path, why: &str) {
    let path = dir.join("bot.db");
    let before = std::fs::read(&path).unwrap();
    let fake = FakeDiscord::start_with(slow_start()).await;
    let mut bot = BotProcess::start(&fake, dir, "", &[]);
    let (error, output) = bot.refused_with_one_line("").await;
    assert!(
        error.starts_with("error: the database sqlite://") && error.contains(why),
        "{error}"
    );
    assert!(error.contains("left untouched"), "{error}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "the database file was changed"
    );
    assert_eq!(fake.identifies(), 0, "it never connected to Discord");
    for line in &output {
        assert!(!line.contains(fake.token()), "the token is in a log line");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_that_is_not_a_database_stops_the_bot_and_is_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    // Text where a database should be (a misplaced file), longer than SQLite's header.
    let text: String = (0..200)
        .map(|n| format!("line {n}: games were kept in a notebook\n"))
        .collect();
    std::fs::write(dir.path().join("bot.db"), text).unwrap();
    refused_untouched(dir.path(), "cannot be read (not a database").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_from_a_newer_release_stops_the_bot_and_is_left_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bot.db");
    // Today's schema, then a migration this binary does not know, as a later release would
    // record it.
    let store = Store::open(&StoreOptions::for_file(&path)).await.unwrap();
    store.close().await;
    let mut conn = raw_connection(&path).await;
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
         VALUES (99990101000000, 'from a newer release', TRUE, x'00', 0)",
    )
    .execute(&mut conn)
    .await
    .unwrap();
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(&mut conn)
        .await
        .unwrap();
    conn.close().await.unwrap();
    refused_untouched(dir.path(), "was written by a newer release").await;
}

/// Starts the real binary with `DATABASE_URL=url` and expects it to stop at once with one
/// `error:` line that names the database (its user and password hidden) and contains `why`,
/// status 2, without connecting to Discord or printing the token or a password.
async fn refused_at_start(url: &str, why: &str) {
    let shown = gomoku_bot::store::redact_url(url);
    let dir = tempfile::tempdir().unwrap();
    let fake = FakeDiscord::start_with(slow_start()).await;
    let mut bot = BotProcess::start(&fake, dir.path(), "", &[("DATABASE_URL", url)]);
    let (error, output) = bot.refused_with_one_line("").await;
    assert!(
        error.starts_with(&format!("error: the database {shown}")) && error.contains(why),
        "{error}"
    );
    assert_eq!(fake.identifies(), 0, "it never connected to Discord");
    for line in &output {
        assert!(!line.contains(fake.token()), "the token is in a log line");
        assert!(!line.contains("hunter2"), "the password is in a log line");
    }
    assert!(
        std::fs::read_dir(dir.path())
            .unwrap()
            .all(|e| e.unwrap().file_name() == "config.toml"),
        "no database file was created"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unsupported_scheme_stops_the_bot_with_one_line() {
    refused_at_start(
        "mysql://bot@127.0.0.1/games",
        "must start with sqlite:// or postgres://",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_server_that_is_down_stops_the_bot_with_one_line() {
    // Port 1 on this machine: nothing listens there, the connection is refused at once.
    refused_at_start(
        "postgres://bot:hunter2@127.0.0.1:1/games",
        "cannot be reached",
    )
    .await;
}

/// The server of `TEST_DATABASE_URL` with another user and database in its URL.
fn server_with(user: &str, database: &str) -> Option<String> {
    let server = std::env::var(crate::support::test_db::TEST_DATABASE_URL)
        .ok()
        .filter(|u| !u.is_empty())?;
    let rest = server.split_once("://")?.1;
    let host = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
    let host = host.split(['/', '?']).next()?;
    Some(format!("postgres://{user}@{host}/{database}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_the_server_refuses_stop_the_bot_with_one_line() {
    let Some(url) = server_with("gomoku_no_such_role:hunter2", "test") else {
        crate::support::test_db::postgres_skipped("database::refused_credentials");
        return;
    };
    refused_at_start(&url, "gomoku_no_such_role").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_database_that_does_not_exist_stops_the_bot_with_one_line() {
    let Some(url) = server_with("root", "gomoku_no_such_database") else {
        crate::support::test_db::postgres_skipped("database::missing_database");
        return;
    };
    refused_at_start(&url, "does not exist").await;
}

/// Everything a start could write: the migrations applied, and every table's row count.
async fn snapshot(raw: &mut sqlx::AnyConnection) -> Vec<String> {
    let mut seen: Vec<String> = sqlx::query(
        "SELECT CAST(version AS TEXT) || ':' || description FROM _sqlx_migrations \
         ORDER BY version",
    )
    .fetch_all(&mut *raw)
    .await
    .unwrap()
    .iter()
    .map(|r| r.get::<String, _>(0))
    .collect();
    for t in gomoku_bot::store::TABLES {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", t.name))
            .fetch_one(&mut *raw)
            .await
            .unwrap();
        seen.push(format!("{}={n}", t.name));
    }
    seen
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_database_from_a_newer_release_stops_the_bot_and_is_left_untouched() {
    use crate::support::test_db::TestDb;
    let Some(db) = TestDb::postgres("database::newer_postgres").await else {
        return;
    };
    let store = Store::open(&db.options()).await.unwrap();
    store.close().await;
    let mut raw = db.raw().await;
    sqlx::query(
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time)
         VALUES (99990101000000, 'from a newer release', TRUE, '\\x00', 0)",
    )
    .execute(&mut raw)
    .await
    .unwrap();
    let before = snapshot(&mut raw).await;
    refused_at_start(&db.url, "was written by a newer release").await;
    assert_eq!(snapshot(&mut raw).await, before, "nothing was written");
    raw.close().await.unwrap();
}
