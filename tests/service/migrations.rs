//! Schema upgrades keep what an older database holds.

use std::borrow::Cow;
use std::str::FromStr;

use gomoku_bot::store::{Store, StoreOptions};
use sqlx::Row;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};

/// The columns of `games` the upgrade must keep, as read back.
type GameRow = (
    i64,
    String,
    Option<String>,
    Option<i64>,
    Option<i64>,
    Option<i64>,
    i64,
);

/// A database at the first schema with one finished and one active game, as a bot of that
/// version would have left it.
async fn first_schema_database(url: &str) {
    let options = SqliteConnectOptions::from_str(url)
        .expect("url")
        .create_if_missing(true)
        .foreign_keys(true);
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(options)
        .await
        .expect("connect");
    let mut first = sqlx::migrate!("./migrations/sqlite");
    first.migrations = Cow::Owned(first.migrations[..1].to_vec());
    first.run(&pool).await.expect("first migration");
    sqlx::raw_sql(
        "INSERT INTO games (game_id, guild_id, channel_id, rules, players, days_per_move, rated, \
           status, ply, to_act_seat, result, winners, loser_seat, deadline, created_at, \
           updated_at, finished_at) VALUES \
         (1, 10, 100, 'pente', 2, 3, 1, 'finished', 2, NULL, 'resignation', 4, 1, NULL, 5, 6, 6), \
         (2, 10, 100, 'gomoku', 2, NULL, 0, 'active', 1, 2, NULL, NULL, NULL, 99, 7, 8, NULL); \
         INSERT INTO game_seats (game_id, seat, user_id) VALUES (1, 1, 11), (1, 2, 12), \
           (2, 1, 12), (2, 2, 11); \
         INSERT INTO moves (game_id, ply, seat, action, played_at) VALUES \
           (1, 1, 1, 'K10', 5), (1, 2, 1, 'resign', 6), (2, 1, 1, 'H8', 7);",
    )
    .execute(&pool)
    .await
    .expect("old rows");
    pool.close().await;
}

#[tokio::test]
async fn upgrading_keeps_games_seats_and_moves_and_allows_the_new_results() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("old.db");
    let url = format!("sqlite://{}", path.display());
    first_schema_database(&url).await;

    let store = Store::open(&StoreOptions::for_file(&path))
        .await
        .expect("open and migrate");
    store.check_integrity().await.expect("integrity");
    let pool = SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(
            SqliteConnectOptions::from_str(&url)
                .expect("url")
                .foreign_keys(true),
        )
        .await
        .expect("connect");
    let rows = sqlx::query(
        "SELECT game_id, status, result, winners, loser_seat, deadline, ply FROM games \
         ORDER BY game_id",
    )
    .fetch_all(&pool)
    .await
    .expect("games");
    let got: Vec<GameRow> = rows
        .iter()
        .map(|r| {
            (
                r.get(0),
                r.get(1),
                r.get(2),
                r.get(3),
                r.get(4),
                r.get(5),
                r.get(6),
            )
        })
        .collect();
    assert_eq!(
        got,
        vec![
            (
                1,
                "finished".into(),
                Some("resignation".into()),
                Some(4),
                Some(1),
                None,
                2
            ),
            (2, "active".into(), None, None, None, Some(99), 1),
        ]
    );
    let moves: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM moves")
        .fetch_one(&pool)
        .await
        .expect("moves");
    assert_eq!(moves, 3);
    let dangling = sqlx::query("PRAGMA foreign_key_check")
        .fetch_all(&pool)
        .await
        .expect("foreign key check");
    assert!(dangling.is_empty(), "references survive the rebuild");
    let indexes: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games' \
         AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(&pool)
    .await
    .expect("indexes");
    assert_eq!(indexes, ["games_by_channel", "games_by_deadline"]);

    for result in ["timeout", "draw"] {
        sqlx::query("UPDATE games SET status = 'finished', result = ? WHERE game_id = 2")
            .bind(result)
            .execute(&pool)
            .await
            .expect("a new result is accepted");
    }
    let refused = sqlx::query("UPDATE games SET result = 'abandoned' WHERE game_id = 2")
        .execute(&pool)
        .await;
    assert!(refused.is_err(), "the CHECK still guards results");
    // A seat for a game that does not exist is still refused: foreign keys are enforced.
    let orphan = sqlx::query("INSERT INTO game_seats (game_id, seat, user_id) VALUES (9, 1, 1)")
        .execute(&pool)
        .await;
    assert!(orphan.is_err(), "foreign keys still point at games");
    store.close().await;
}
