//! A lock another process holds, met by a member's move with the default waits (5 s
//! `busy_timeout`): the member is told "busy, nothing was changed" inside Discord's 3-second
//! window (the fake answers a later callback with 10062 Unknown interaction, as Discord does),
//! nothing is written, and the same move made once the lock is gone goes through. On both
//! stores: SQLite's write lock, and a PostgreSQL row lock on the game.

use std::time::Duration;

use gomoku_bot::service::ServiceConfig;
use sqlx::{AnyConnection, Row as _};

use crate::bot::{content, is_ephemeral, play, ready_with_a_game, start_bot_on};
use crate::support::fake_discord::{FakeConfig, FakeDiscord};
use crate::support::test_db::TestDb;

/// Discord's window for the first answer to an interaction.
const DISCORD_WINDOW: Duration = Duration::from_secs(3);

/// The moves committed, in order.
async fn moves(raw: &mut AnyConnection) -> Vec<String> {
    sqlx::query("SELECT action FROM moves ORDER BY game_id, ply")
        .fetch_all(&mut *raw)
        .await
        .expect("read the move log")
        .iter()
        .map(|r| r.get::<String, _>(0))
        .collect()
}

async fn a_lock_held_past_discords_window_is_told_within_it(db: TestDb) {
    let fake = FakeDiscord::start_with(FakeConfig {
        interaction_deadline: Some(DISCORD_WINDOW),
        ..FakeConfig::default()
    })
    .await;
    let bot = start_bot_on(&fake, &db.options(), ServiceConfig::default()).await;
    let (_, _, started) = ready_with_a_game(&fake).await;
    let [first, second] = started.order.clone();
    let (_, answer) = play(&fake, &first, started.thread, "H8").await;
    assert!(!is_ephemeral(&answer), "{}", content(&answer));
    let mut raw = db.raw().await;
    assert_eq!(moves(&mut raw).await, ["H8"]);

    // Another process holds a lock the move needs, for longer than the bot would wait in
    // background work (it is released only once the member has been answered).
    let mut other = db.hold_move_lock(None).await;
    let (_, busy) = play(&fake, &second, started.thread, "J9").await;
    assert!(
        (200..300).contains(&busy.status),
        "the answer came after Discord's window: {} {:?}",
        busy.status,
        busy.response
    );
    assert!(is_ephemeral(&busy), "{}", content(&busy));
    assert!(
        content(&busy).starts_with("The game database is busy; nothing was changed."),
        "{}",
        content(&busy)
    );
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    assert_eq!(moves(&mut raw).await, ["H8"], "nothing written");

    // The same move again goes through.
    let (_, again) = play(&fake, &second, started.thread, "J9").await;
    assert!(!is_ephemeral(&again), "{}", content(&again));
    assert_eq!(moves(&mut raw).await, ["H8", "J9"]);
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_write_lock_held_past_discords_window_is_told_within_it() {
    a_lock_held_past_discords_window_is_told_within_it(TestDb::sqlite()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_postgresql_row_lock_held_past_discords_window_is_told_within_it() {
    if let Some(db) = TestDb::postgres(module_path!()).await {
        a_lock_held_past_discords_window_is_told_within_it(db).await;
    }
}
