//! Other processes' commits drop what a service holds in memory (PostgreSQL `LISTEN`/
//! `NOTIFY`): two or three services on one schema stand for processes. PostgreSQL only: on
//! SQLite there is one process, and nothing is sent.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use gomoku_bot::rules::{Action, Point};
use gomoku_bot::service::{GuildId, GuildSettings, ManualClock, Service, ServiceError};

use crate::common::*;

/// The longest a test waits for a notice to be acted on. Notices arrive in milliseconds; this
/// only bounds a failing test. Shorter than the settings memo's 10 s, so that a setting seen
/// within it came from the notice.
const WAIT: Duration = Duration::from_secs(5);

/// Waits until `done` holds, checking every 20 ms: whether it held within [`WAIT`].
async fn within_wait<F: Future<Output = bool>>(mut done: impl FnMut() -> F) -> bool {
    let until = tokio::time::Instant::now() + WAIT;
    loop {
        if done().await {
            return true;
        }
        if tokio::time::Instant::now() >= until {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn services(db: &TestDb, n: usize) -> Vec<Arc<Service>> {
    let clock = Arc::new(ManualClock::new(T0));
    let mut out = Vec::new();
    for _ in 0..n {
        out.push(Arc::new(open_service(db, config(), clock.clone()).await));
    }
    out
}

/// Two services on `db`: the first does not listen, the second does.
async fn services_one_listening(db: &TestDb) -> (Arc<Service>, Arc<Service>) {
    let mut svcs = services(db, 2).await;
    let b = svcs.pop().expect("two");
    b.follow_changes().await.expect("listen");
    (svcs.pop().expect("two"), b)
}

fn point(name: &str) -> Action {
    Action::Place(Point::parse(name, 15).expect("a point"))
}

#[tokio::test]
async fn a_move_through_one_process_drops_the_game_from_the_others_memory() {
    let Some(db) = TestDb::postgres("changes::a_move_through_one_process_drops_the_game").await
    else {
        return;
    };
    let svcs = services(&db, 3).await;
    let (a, b, late) = (&svcs[0], &svcs[1], &svcs[2]);
    b.follow_changes().await.expect("listen");
    // `late` never hears: it stands for a notice that has not arrived yet.
    let (game, first, second) = start_two(a, "gomoku").await;
    for svc in [b, late] {
        let seen = svc.game(GuildId(GUILD), game.id).await.expect("view");
        assert_eq!(seen.ply, 0);
        assert!(svc.holds_game(game.id));
    }
    a.play(&first, Some(game.id), point("H8"), Some(0))
        .await
        .expect("the first move");
    assert!(
        within_wait(|| async { !b.holds_game(game.id) }).await,
        "the listening service still holds game {} after {WAIT:?}",
        game.id
    );
    // Its next look is the stored position.
    assert_eq!(b.game(GuildId(GUILD), game.id).await.unwrap().ply, 1);
    // Without the notice the move log's key still guards: the first player, acting on the
    // position they saw (ply 0) in the process that did not hear, is refused, and nothing is
    // written.
    assert!(late.holds_game(game.id));
    let refused = late
        .play(&first, Some(game.id), point("J9"), Some(0))
        .await
        .expect_err("a move on a position another process moved past");
    assert!(
        matches!(
            refused,
            ServiceError::NotYourTurn | ServiceError::PositionChanged
        ),
        "{refused:?}"
    );
    // The process that heard plays on the stored position.
    b.play(&second, Some(game.id), point("H9"), Some(1))
        .await
        .expect("the second move, through the listening process");
    let stored = a.store().load_game(game.id).await.unwrap().unwrap();
    let log: Vec<&str> = stored.actions.iter().map(|m| m.token.as_str()).collect();
    assert_eq!(log, ["H8", "H9"]);
    // Its own commits do not make a process drop its own copy.
    assert!(b.holds_game(game.id));
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(b.holds_game(game.id), "dropped after its own move");
}

#[tokio::test]
async fn another_processs_guild_settings_are_seen_before_the_memo_expires() {
    let Some(db) = TestDb::postgres("changes::another_processs_guild_settings").await else {
        return;
    };
    let (a, b) = &services_one_listening(&db).await;
    let guild = GuildId(GUILD);
    assert_eq!(b.guild_settings(guild).await.unwrap().locale, None);
    a.set_guild_settings(
        guild,
        GuildSettings {
            locale: Some("fi".to_string()),
            ..GuildSettings::default()
        },
    )
    .await
    .unwrap();
    assert!(
        within_wait(|| async {
            b.guild_settings(guild).await.unwrap().locale.as_deref() == Some("fi")
        })
        .await,
        "the new setting was not seen within {WAIT:?}"
    );
}

#[tokio::test]
async fn a_listener_that_lost_the_server_drops_everything_once_back() {
    let Some(db) = TestDb::postgres("changes::a_listener_that_lost_the_server").await else {
        return;
    };
    let (a, b) = &services_one_listening(&db).await;
    let (game, _, _) = start_two(a, "gomoku").await;
    b.game(GuildId(GUILD), game.id).await.expect("view");
    assert!(b.holds_game(game.id));
    // The server ends the listener's connection: whatever was committed while it was away
    // (nothing here) was not heard, so everything goes.
    let mut raw = db.raw().await;
    let ended: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) AS ended \
         FROM pg_stat_activity WHERE query LIKE 'LISTEN%' AND datname = current_database() \
         AND application_name = current_setting('application_name')) AS listeners \
         WHERE ended",
    )
    .fetch_one(&mut raw)
    .await
    .expect("end the listener's connection");
    assert_eq!(ended, 1, "one listener");
    assert!(
        within_wait(|| async { !b.holds_game(game.id) }).await,
        "game {} still held after the listener lost the server",
        game.id
    );
}

/// A batch that also ends board rows the interactions' answers carried sends its notice in
/// the same statement (`store::outbox_answered`): the other processes still hear it.
#[tokio::test]
async fn a_batch_that_ends_answered_boards_still_tells_the_others() {
    let Some(db) = TestDb::postgres("changes::a_batch_that_ends_answered_boards").await else {
        return;
    };
    let (a, b) = services_one_listening(&db).await;
    let (game, mut first, mut second) = start_two(&a, "gomoku").await;
    first.owes_posts = true;
    second.owes_posts = true;
    a.play(&first, Some(game.id), point("H8"), Some(0))
        .await
        .expect("the first move");
    assert_eq!(b.game(GuildId(GUILD), game.id).await.unwrap().ply, 1);
    assert!(b.holds_game(game.id));
    a.outbox_answered(game.id, 1, 0);
    a.play(&second, Some(game.id), point("J9"), Some(1))
        .await
        .expect("the second move");
    assert_eq!(a.outbox_board(game.id, 1).await.unwrap(), None, "ended");
    assert!(
        within_wait(|| async { !b.holds_game(game.id) }).await,
        "the listening service still holds game {} after {WAIT:?}",
        game.id
    );
}
