//! `gomoku-bot migrate-store`: a SQLite database with rows in every table (the previous
//! release's fixture, upgraded, then played on through the service) is copied into an empty
//! PostgreSQL schema by the real binary; every table is compared value by value, the bot
//! plays on the copy, and new ids come after the copied ones. A non-empty target, bad URLs
//! and a missing source are refused with one line and status 2, nothing written. And the
//! copier's list of tables is the schema's, so no future table can be skipped silently.

use std::collections::BTreeSet;
use std::process::{Command, Output};
use std::sync::Arc;

use gomoku_bot::service::{GameStatus, ManualClock, Service};
use gomoku_bot::store::{Store, StoreOptions, TABLES};
use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqlitePool;
use sqlx::{Connection as _, Row as _};

use crate::common::{T0, act, config, start_two};
use crate::test_db::TestDb;

/// Runs `gomoku-bot migrate-store --from from --to to`.
fn migrate_store(from: &str, to: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gomoku-bot"))
        .args(["migrate-store", "--from", from, "--to", to])
        .output()
        .expect("run the binary")
}

/// The error lines of a run, and its status.
fn refusal(out: &Output) -> (Option<i32>, Vec<String>) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    (
        out.status.code(),
        stderr.lines().map(str::to_string).collect(),
    )
}

/// Asserts a run was refused: status 2, one `error:` line containing `why`.
fn assert_refused(out: &Output, why: &str) {
    let (status, lines) = refusal(out);
    assert_eq!(status, Some(2), "{lines:?}");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(
        lines[0].starts_with("error: ") && lines[0].contains(why),
        "{lines:?}"
    );
    assert!(out.stdout.is_empty(), "nothing was reported as copied");
}

/// How a column's values compare across the stores.
#[derive(Clone, Copy, PartialEq)]
enum Compare {
    Text,
    Boolean,
    Real,
}

/// Every row of `table` in both databases, each value as text (booleans as `true`/`false`,
/// reals parsed), sorted.
async fn both_tables(
    sqlite: &SqlitePool,
    pg: &mut PgConnection,
    table: &str,
) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let columns: Vec<(String, String)> = sqlx::query_as(
        "SELECT column_name::text, data_type::text FROM information_schema.columns \
         WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
    )
    .bind(table)
    .fetch_all(&mut *pg)
    .await
    .expect("columns");
    assert!(!columns.is_empty(), "{table} exists on PostgreSQL");
    let kinds: Vec<Compare> = columns
        .iter()
        .map(|(_, t)| match t.as_str() {
            "boolean" => Compare::Boolean,
            "double precision" | "real" => Compare::Real,
            _ => Compare::Text,
        })
        .collect();
    let list = columns
        .iter()
        .map(|(c, _)| format!("CAST(\"{c}\" AS TEXT)"))
        .collect::<Vec<_>>()
        .join(", ");
    // Sorted here, not by the database: an ORDER BY would meet the text casts' names.
    let select = format!("SELECT {list} FROM {table}");
    let normal = |v: Option<String>, kind: Compare| -> String {
        match (v, kind) {
            (None, _) => "NULL".to_string(),
            (Some(v), Compare::Boolean) => match v.as_str() {
                "1" | "true" => "true".to_string(),
                "0" | "false" => "false".to_string(),
                other => panic!("{table}: boolean {other}"),
            },
            (Some(v), Compare::Real) => format!("{:?}", v.parse::<f64>().expect("a real")),
            (Some(v), Compare::Text) => v,
        }
    };
    let mut old: Vec<Vec<String>> = sqlx::query(&select)
        .fetch_all(sqlite)
        .await
        .expect("sqlite rows")
        .iter()
        .map(|r| {
            (0..kinds.len())
                .map(|i| normal(r.get(i), kinds[i]))
                .collect()
        })
        .collect();
    let mut new: Vec<Vec<String>> = sqlx::query(&select)
        .fetch_all(&mut *pg)
        .await
        .expect("postgres rows")
        .iter()
        .map(|r| {
            (0..kinds.len())
                .map(|i| normal(r.get(i), kinds[i]))
                .collect()
        })
        .collect();
    old.sort();
    new.sort();
    (old, new)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_database_is_copied_whole_and_the_bot_plays_on_the_copy() {
    let Some(target) = TestDb::postgres("migrate_store::copied_whole").await else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("old.db");
    let from = format!("sqlite://{}", path.display());

    // The previous release's rows, brought up to date, then played on through the service:
    // a rated game won on the board, one left in play, and what both owe Discord (outbox).
    crate::upgrade::previous_release(&from).await.close().await;
    let clock = Arc::new(ManualClock::new(T0));
    let svc = Service::open(&StoreOptions::new(from.clone()), config(), clock.clone())
        .await
        .expect("service on the old file");
    svc.set_outbox(true);
    let (won, mut first, mut second) = start_two(&svc, "gomoku size=15").await;
    // As the Discord front's actions do: each move owes its board to the outbox.
    first.owes_posts = true;
    second.owes_posts = true;
    for (k, (a, b)) in [("H8", "A1"), ("J8", "A2"), ("K8", "A3"), ("L8", "A4")]
        .into_iter()
        .enumerate()
    {
        let ply = u32::try_from(2 * k).unwrap();
        svc.play(&first, Some(won.id), act(a, 15), Some(ply))
            .await
            .unwrap();
        svc.play(&second, Some(won.id), act(b, 15), Some(ply + 1))
            .await
            .unwrap();
    }
    let last = svc
        .play(&first, Some(won.id), act("M8", 15), Some(8))
        .await
        .unwrap();
    assert!(matches!(last.view.status, GameStatus::Finished(_)));
    let (open, first, _) = start_two(&svc, "pente").await;
    svc.play(&first, Some(open.id), act("K10", 19), Some(0))
        .await
        .unwrap();
    // A game against the computer waiting for its move: its engine job is copied too.
    let computer = gomoku_bot::service::UserInfo {
        is_bot: true,
        ..crate::common::user(500, "Gomoku Bot")
    };
    let carol = crate::common::carol();
    let level = gomoku_bot::engine::Level::new(1).expect("a level");
    let versus = svc
        .challenge_engine(
            &crate::common::at(carol.clone()),
            &computer,
            level,
            crate::common::request(None, "gomoku"),
        )
        .await
        .unwrap();
    if versus.to_act().expect("in play").user == carol.id {
        svc.play(
            &crate::common::at(carol),
            Some(versus.id),
            act("H8", 15),
            None,
        )
        .await
        .unwrap();
    }
    svc.close().await;

    let sqlite = crate::upgrade::connect(&from).await;
    let mut source_rows = Vec::new();
    for t in TABLES {
        let n: i64 = sqlx::query_scalar(&format!("SELECT COUNT(*) FROM {}", t.name))
            .fetch_one(&sqlite)
            .await
            .unwrap();
        assert!(
            n > 0,
            "the source has no row in {}: give it one above (through the service), so that \
             the copy of every table is compared",
            t.name
        );
        source_rows.push((t.name, n));
    }

    let out = migrate_store(&from, &target.url);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stdout}\n{stderr}");
    for (table, n) in &source_rows {
        assert!(
            stdout.contains(&format!("copied {table}: {n} rows")),
            "{stdout}"
        );
    }
    assert!(stdout.contains("games' move logs replay"), "{stdout}");

    // Every table, value by value.
    let mut pg = PgConnection::connect(&target.url).await.expect("pg");
    for t in TABLES {
        let (old, new) = both_tables(&sqlite, &mut pg, t.name).await;
        assert_eq!(old, new, "table {}", t.name);
    }

    // The bot plays on the copy: the game in play goes on, and new rows get new ids.
    let svc = Service::open(&target.options(), config(), clock)
        .await
        .expect("service on the copy");
    let view = svc.game(open.guild, open.id).await.expect("the open game");
    assert_eq!((view.status, view.ply), (GameStatus::Active, 1));
    let second = crate::common::seat_actor(&view, 2);
    let played = svc
        .play(&second, Some(open.id), act("L11", 19), Some(1))
        .await
        .expect("the game goes on on PostgreSQL");
    assert_eq!(played.view.ply, 2);
    let (fresh, ..) = start_two(&svc, "gomoku").await;
    let max_game: i64 = sqlx::query_scalar("SELECT MAX(game_id) FROM games")
        .fetch_one(&sqlite)
        .await
        .unwrap();
    assert_eq!(fresh.id.0, max_game + 1);
    svc.close().await;

    // A second copy into the now non-empty target is refused, and changes nothing.
    let games_before: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(&mut pg)
        .await
        .unwrap();
    let again = migrate_store(&from, &target.url);
    assert_refused(&again, "is not empty");
    let games_after: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games")
        .fetch_one(&mut pg)
        .await
        .unwrap();
    assert_eq!(games_before, games_after);
    pg.close().await.ok();
    sqlite.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_source_with_a_table_the_copier_does_not_know_is_refused_before_writing() {
    let Some(target) = TestDb::postgres("migrate_store::unknown_table").await else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let from = format!("sqlite://{}", dir.path().join("old.db").display());
    Store::open(&StoreOptions::new(from.clone()))
        .await
        .unwrap()
        .close()
        .await;
    let pool = crate::upgrade::connect(&from).await;
    sqlx::query("CREATE TABLE added_later (x INTEGER)")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let out = migrate_store(&from, &target.url);
    assert_refused(&out, "does not know: added_later");
    let mut pg = PgConnection::connect(&target.url).await.expect("pg");
    let tables: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()",
    )
    .fetch_one(&mut pg)
    .await
    .unwrap();
    assert_eq!(tables, 0, "nothing was written to the target");
    pg.close().await.ok();
}

#[test]
fn bad_urls_and_a_missing_source_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("missing.db");
    let from = format!("sqlite://{}", missing.display());
    let pg = "postgres://root@127.0.0.1:1/test";
    assert_refused(
        &migrate_store("mysql://db/games", pg),
        "--from must be a SQLite database URL",
    );
    assert_refused(
        &migrate_store(&from, "sqlite://other.db"),
        "--to must be a PostgreSQL database URL",
    );
    // Port 1: nothing listens there.
    assert_refused(&migrate_store(&from, pg), "cannot be reached");
    let password = migrate_store(&from, "postgres://bot:hunter2@127.0.0.1:1/test");
    assert_refused(&password, "postgres://<redacted>@127.0.0.1:1/test");
    assert!(!String::from_utf8_lossy(&password.stderr).contains("hunter2"));
    assert!(!missing.exists(), "the missing source was not created");
}

#[tokio::test]
async fn a_missing_source_is_refused_and_not_created() {
    let Some(target) = TestDb::postgres("migrate_store::missing_source").await else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let missing = dir.path().join("missing.db");
    let out = migrate_store(&format!("sqlite://{}", missing.display()), &target.url);
    assert_refused(&out, "cannot be opened");
    assert!(!missing.exists(), "the missing source was not created");
}

/// The copier's list is the schema's tables: a migration that adds a table fails here until
/// `store::migrate::TABLES` lists it (and `migrate-store` copies it).
async fn the_copier_knows_every_table(db: TestDb) {
    let store = Store::open(&db.options()).await.expect("open");
    let schema: BTreeSet<String> = store.table_names().await.unwrap().into_iter().collect();
    let listed: BTreeSet<String> = TABLES.iter().map(|t| t.name.to_string()).collect();
    assert_eq!(
        schema, listed,
        "every table of the schema must be in gomoku_bot::store::TABLES (src/store/migrate.rs), \
         after the tables it refers to"
    );
    store.close().await;
}

both_stores!(the_copier_knows_every_table);
