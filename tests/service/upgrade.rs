//! A SQLite database of the release before the latest migrations, with rows in every table,
//! is brought up to date when the bot starts, without losing or changing a row.

use std::borrow::Cow;
use std::str::FromStr;
use std::sync::Arc;

use gomoku_bot::rules::Action;
use gomoku_bot::service::{
    Actor, GameId, GameStatus, GuildId, ManualClock, Notify, Service, UserId, UserInfo,
};
use gomoku_bot::store::{Family, Store, StoreOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};

use crate::common::{T0, config};

/// The last migration of the previous release: the fixture is written for the schema it
/// leaves. Every migration after it is what the upgrade applies.
const PREVIOUS_RELEASE: i64 = 20261202140000;

pub(crate) async fn connect(url: &str) -> SqlitePool {
    let options = SqliteConnectOptions::from_str(url)
        .expect("url")
        .create_if_missing(true)
        .foreign_keys(true);
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .expect("connect")
}

/// The tables of the database (but sqlx's own), by name.
async fn tables(pool: &SqlitePool) -> Vec<String> {
    sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
         AND name <> '_sqlx_migrations' ORDER BY name",
    )
    .fetch_all(pool)
    .await
    .expect("tables")
}

/// The columns of a table, in order.
async fn columns(pool: &SqlitePool, table: &str) -> Vec<String> {
    sqlx::query_scalar(&format!(
        "SELECT name FROM pragma_table_info('{table}') ORDER BY cid"
    ))
    .fetch_all(pool)
    .await
    .expect("columns")
}

/// Every row of `table`, with exactly `columns`, each value as SQLite quotes it (so that
/// types count: `1` is not `'1'` nor `1.0`), in a stable order.
async fn rows(pool: &SqlitePool, table: &str, columns: &[String]) -> Vec<String> {
    let row = columns
        .iter()
        .map(|c| format!("quote(\"{c}\")"))
        .collect::<Vec<_>>()
        .join(" || '|' || ");
    sqlx::query_scalar(&format!("SELECT {row} AS r FROM \"{table}\" ORDER BY r"))
        .fetch_all(pool)
        .await
        .expect("rows")
}

/// A SQLite database at `url` with the previous release's schema and the fixture's rows
/// (one or more in every table of that schema); the pool is left open on it.
pub(crate) async fn previous_release(url: &str) -> SqlitePool {
    let pool = connect(url).await;
    let mut previous = sqlx::migrate!("./migrations/sqlite");
    let upgrades = previous
        .migrations
        .iter()
        .filter(|m| m.version > PREVIOUS_RELEASE)
        .count();
    assert!(
        upgrades >= 1,
        "the upgrade applies at least the latest migration"
    );
    previous.migrations = Cow::Owned(
        previous
            .migrations
            .iter()
            .filter(|m| m.version <= PREVIOUS_RELEASE)
            .cloned()
            .collect(),
    );
    previous
        .run(&pool)
        .await
        .expect("the previous release's schema");
    sqlx::raw_sql(include_str!("../fixtures/previous_release.sql"))
        .execute(&pool)
        .await
        .expect("the previous release's rows");
    pool
}

#[tokio::test]
async fn the_previous_releases_database_upgrades_at_start_keeping_every_row() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("previous.db");
    let url = format!("sqlite://{}", path.display());

    // The previous release's schema, and its rows.
    let pool = previous_release(&url).await;
    let old_tables = tables(&pool).await;
    let mut before = Vec::new();
    for table in &old_tables {
        let cols = columns(&pool, table).await;
        let found = rows(&pool, table, &cols).await;
        assert!(!found.is_empty(), "the fixture has rows in `{table}`");
        before.push((table.clone(), cols, found));
    }
    pool.close().await;

    // The bot starts on it: the schema is brought up to date.
    let store = Store::open(&StoreOptions::for_file(&path))
        .await
        .expect("open and upgrade");
    store.check_integrity().await.expect("integrity");
    store.close().await;
    let pool = connect(&url).await;
    let applied: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM _sqlx_migrations WHERE success")
        .fetch_one(&pool)
        .await
        .expect("migrations");
    assert_eq!(
        applied,
        i64::try_from(sqlx::migrate!("./migrations/sqlite").migrations.len()).expect("a few")
    );
    let now_tables = tables(&pool).await;
    for (table, cols, old) in &before {
        assert!(now_tables.contains(table), "`{table}` is still there");
        let now_cols = columns(&pool, table).await;
        for c in cols {
            assert!(now_cols.contains(c), "`{table}.{c}` is still there");
        }
        assert_eq!(
            &rows(&pool, table, cols).await,
            old,
            "`{table}` keeps every row as it was"
        );
    }
    let dangling = sqlx::query("PRAGMA foreign_key_check")
        .fetch_all(&pool)
        .await
        .expect("foreign key check");
    assert!(dangling.is_empty(), "every reference still points at a row");
    pool.close().await;

    // And the bot works on what it kept.
    let clock = Arc::new(ManualClock::new(T0));
    let svc = Service::open(&StoreOptions::for_file(&path), config(), clock)
        .await
        .expect("service");
    let guild = GuildId(10);
    let finished = svc.game(guild, GameId(1)).await.expect("the finished game");
    assert!(matches!(finished.status, GameStatus::Finished(_)));
    assert_eq!(finished.ply, 2);
    let active = svc.game(guild, GameId(2)).await.expect("the active game");
    assert_eq!((active.status, active.ply), (GameStatus::Active, 1));
    let ann = Actor::new(10, 100, UserInfo::new(11, "Ann"));
    let played = svc
        .play(
            &ann,
            Some(GameId(2)),
            Action::parse("J9", 15).unwrap(),
            Some(1),
        )
        .await
        .expect("the game goes on");
    assert_eq!(played.view.ply, 2);
    let (server, global) = svc.store().ratings_of(guild, UserId(11)).await.unwrap();
    for ratings in [server, global] {
        assert_eq!(ratings.len(), 1);
        assert_eq!(ratings[0].family, Family::Pente);
        assert_eq!((ratings[0].rating, ratings[0].games), (1400.5, 1));
    }
    let prefs = svc.preferences(UserId(11)).await.unwrap();
    assert_eq!(prefs.language.as_deref(), Some("es"));
    assert_eq!(prefs.notify, Notify::DirectMessage);
    assert!(!prefs.show_coordinates);
    assert!(
        prefs.show_forbidden,
        "a column added later takes its default"
    );
    let settings = svc.guild_settings(guild).await.unwrap();
    assert_eq!(settings.locale.as_deref(), Some("fi"));
    svc.close().await;
}
