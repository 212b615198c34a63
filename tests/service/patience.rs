//! Lock waits against Discord's 3-second window: inside an interaction
//! (`store::interactive`) a write gives up waiting for another process's lock after 2.5 s,
//! with nothing changed; background work waits the full `busy_timeout` (5 s). Another
//! session holds a lock for [`HOLD`], between the two: an interaction's move is refused as
//! busy, a background move waits for the lock and commits. No clock is read: what the tests
//! check is which of the two happened.

use std::sync::Arc;
use std::time::Duration;

use gomoku_bot::service::{GameId, ManualClock, Service, ServiceError, StorageErrorKind};
use gomoku_bot::store::{INTERACTION_WAIT, interactive};
use sqlx::Connection as _;

use crate::common::*;

/// How long the other session holds its lock: longer than an interaction waits (2.5 s) and
/// shorter than background work waits (5 s), with a second or more on either side.
const HOLD: Duration = Duration::from_secs(4);

/// Another session takes a lock that a move in `game` needs (SQLite: the write lock;
/// PostgreSQL: the game's row), and releases it after [`HOLD`]. Returns once the lock is held.
async fn hold_lock(db: &TestDb, game: GameId) -> tokio::task::JoinHandle<()> {
    let mut other = db.hold_move_lock(Some(game.0)).await;
    tokio::spawn(async move {
        tokio::time::sleep(HOLD).await;
        sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
        other.close().await.unwrap();
    })
}

fn is_busy(e: &ServiceError) -> bool {
    matches!(e, ServiceError::Storage(s) if s.kind == StorageErrorKind::Busy)
}

async fn log_of(svc: &Service, game: GameId) -> Vec<String> {
    let stored = svc.store().load_game(game).await.unwrap().unwrap();
    stored.actions.iter().map(|m| m.token.clone()).collect()
}

async fn an_interaction_gives_up_on_a_held_lock_in_time_and_changes_nothing(db: TestDb) {
    assert!(INTERACTION_WAIT + Duration::from_secs(1) <= HOLD);
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, first, second) = start_two(svc, "gomoku").await;
    svc.play_token(&first, Some(game.id), "H8", Some(0))
        .await
        .unwrap();

    let holder = hold_lock(&env.db, game.id).await;
    let Err(refused) = interactive(svc.play_token(&second, Some(game.id), "J9", Some(1))).await
    else {
        panic!("the interaction's move waited for a lock held past its wait, and committed");
    };
    assert!(is_busy(&refused), "{refused:?}");
    holder.await.unwrap();
    // Nothing was written, and the same move made again goes through.
    assert_eq!(log_of(svc, game.id).await, ["H8"]);
    assert_eq!(svc.game(game.guild, game.id).await.unwrap().ply, 1);
    interactive(svc.play_token(&second, Some(game.id), "J9", Some(1)))
        .await
        .expect("the move again, with the lock released");

    // Background work waits for the same lock held as long, and commits.
    let holder = hold_lock(&env.db, game.id).await;
    svc.play_token(&first, Some(game.id), "K10", Some(2))
        .await
        .expect("a background move waits the full busy_timeout");
    holder.await.unwrap();
    assert_eq!(log_of(svc, game.id).await, ["H8", "J9", "K10"]);
}

async fn a_move_queued_behind_a_commit_waiting_for_a_lock_is_withdrawn_in_time(db: TestDb) {
    let svc = Arc::new(open_service(&db, config(), Arc::new(ManualClock::new(T0))).await);
    // Five games: the first and the fifth share a lane of the group commit on PostgreSQL (four
    // lanes, by game number); SQLite has one.
    let mut games = Vec::new();
    for k in 0..5u64 {
        games.push(start_pair(&svc, user(100 + k, "A"), user(200 + k, "B"), "gomoku").await);
    }
    let (stuck, stuck_first, _) = &games[0];
    let (queued, queued_first, _) = &games[4];
    assert_eq!((queued.id.0 - stuck.id.0) % 4, 0, "one lane");

    // A background move in the first game waits for the lock (up to 5 s) holding the lane;
    // the interaction's move in the fifth game waits behind it in the lane's queue.
    let holder = hold_lock(&db, stuck.id).await;
    let background = {
        let (svc, actor, id) = (svc.clone(), stuck_first.clone(), stuck.id);
        tokio::spawn(async move { svc.play_token(&actor, Some(id), "H8", Some(0)).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let Err(refused) =
        interactive(svc.play_token(queued_first, Some(queued.id), "H8", Some(0))).await
    else {
        panic!("the queued move waited for the commit ahead, and committed");
    };
    assert!(is_busy(&refused), "{refused:?}");
    assert!(
        !background.is_finished(),
        "refused while the commit ahead still waited for the lock, not after it"
    );
    holder.await.unwrap();
    background
        .await
        .unwrap()
        .expect("the background move committed once the lock was released");
    assert_eq!(log_of(&svc, stuck.id).await, ["H8"]);
    assert_eq!(log_of(&svc, queued.id).await, Vec::<String>::new());
    interactive(svc.play_token(queued_first, Some(queued.id), "H8", Some(0)))
        .await
        .expect("the withdrawn move made again");
}

both_stores!(
    multi_thread 2:
    an_interaction_gives_up_on_a_held_lock_in_time_and_changes_nothing,
    a_move_queued_behind_a_commit_waiting_for_a_lock_is_withdrawn_in_time,
);
