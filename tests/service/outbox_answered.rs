//! Board rows the interaction's answer carried, left to the next group commit of moves
//! (`store::outbox_answered`), on both stores: the next commit of any game ends them, so the
//! poster never sees them again; until then the poster passes them by; a row no commit took
//! in time goes back to the poster with the note that the answer carried it; and a process
//! never ends another process's rows this way.

use std::time::Duration;

use gomoku_bot::service::{ANSWERED_WAIT, Actor, GameView, LeftToCommit, OutboxKind, Service};

use crate::common::*;

/// Alice and Bob start a Gomoku game, both owing posts (their answers carry the boards), and
/// Alice plays H8: the game, both actors and the ply of the board her move owes.
async fn after_a_first_move(svc: &Service) -> (GameView, Actor, Actor, u32) {
    let (game, mut first, mut second) = start_two(svc, "gomoku").await;
    first.owes_posts = true;
    second.owes_posts = true;
    let ply = svc
        .play(&first, Some(game.id), act("H8", 15), None)
        .await
        .unwrap()
        .view
        .ply;
    (game, first, second, ply)
}

async fn an_answered_board_is_ended_by_the_next_commit_and_never_reaches_the_poster(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, _, second, ply) = after_a_first_move(svc).await;
    svc.outbox_answered(game.id, ply, 0);
    let rows = heads(svc).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!((rows[0].kind, rows[0].ply), (OutboxKind::Board, ply));
    // Still pending in the database, but the poster passes it by: a commit ends it.
    assert_eq!(svc.outbox_left_to_commit(&rows[0]), LeftToCommit::Waiting);

    // The next move's commit ends it: the poster finds the new board only.
    svc.play(&second, Some(game.id), act("J9", 15), None)
        .await
        .unwrap();
    assert_eq!(svc.outbox_board(game.id, ply).await.unwrap(), None, "ended");
    let rows = heads(svc).await;
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!((rows[0].kind, rows[0].ply), (OutboxKind::Board, ply + 1));
    assert_eq!(svc.outbox_left_to_commit(&rows[0]), LeftToCommit::No);

    // Any game's commit ends it (a move in another game, on whatever lane).
    svc.outbox_answered(game.id, ply + 1, 0);
    let (other, carol_seat, _) = start_pair(svc, carol(), dave(), "gomoku").await;
    svc.play(&carol_seat, Some(other.id), act("H8", 15), None)
        .await
        .unwrap();
    assert_eq!(svc.outbox_board(game.id, ply + 1).await.unwrap(), None);
    assert!(heads(svc).await.is_empty(), "{:?}", heads(svc).await);
    assert_eq!(svc.outbox_pending().await.unwrap(), 0);
}

async fn a_row_no_commit_took_in_time_goes_back_to_the_poster_as_answered(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, _, second, _) = after_a_first_move(svc).await;
    svc.outbox_answered(game.id, 1, 42);
    let rows = heads(svc).await;
    assert_eq!(svc.outbox_left_to_commit(&rows[0]), LeftToCommit::Waiting);
    tokio::time::sleep(ANSWERED_WAIT + Duration::from_millis(50)).await;
    // Taken back once: the poster ends it (as an answered board, posting nothing).
    assert_eq!(
        svc.outbox_left_to_commit(&rows[0]),
        LeftToCommit::TakenBack(42)
    );
    assert_eq!(svc.outbox_left_to_commit(&rows[0]), LeftToCommit::No);
    // The next commit leaves it alone then: the poster's own end is the only one.
    svc.play(&second, Some(game.id), act("J9", 15), None)
        .await
        .unwrap();
    assert_eq!(
        svc.outbox_board(game.id, 1).await.unwrap().map(|r| r.id),
        Some(rows[0].id),
        "still the poster's"
    );
}

async fn a_commit_never_ends_another_process_rows(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, ..) = after_a_first_move(svc).await;
    // Another process (a bot of other shards) cannot end this process's row: the row may
    // still be its writer's to answer, and the other process has no say in that.
    let other = open_service(&env.db, config(), env.clock.clone()).await;
    other.outbox_answered(game.id, 1, 0);
    let (g2, carol_seat, _) = start_pair(&other, carol(), dave(), "gomoku").await;
    other
        .play(&carol_seat, Some(g2.id), act("H8", 15), None)
        .await
        .unwrap();
    let row = svc.outbox_board(game.id, 1).await.unwrap();
    assert!(row.is_some(), "the writer's row is still pending");
    // Nor is an inherited row ever left waiting for a commit.
    assert_eq!(other.outbox_left_to_commit(&row.unwrap()), LeftToCommit::No);
    other.close().await;
}

async fn nothing_is_left_when_the_outbox_is_off(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, _, second, _) = after_a_first_move(svc).await;
    svc.set_outbox(false);
    svc.outbox_answered(game.id, 1, 0);
    svc.set_outbox(true);
    let rows = heads(svc).await;
    assert_eq!(svc.outbox_left_to_commit(&rows[0]), LeftToCommit::No);
    svc.play(&second, Some(game.id), act("J9", 15), None)
        .await
        .unwrap();
    assert!(svc.outbox_board(game.id, 1).await.unwrap().is_some());
}

both_stores!(
    an_answered_board_is_ended_by_the_next_commit_and_never_reaches_the_poster,
    a_row_no_commit_took_in_time_goes_back_to_the_poster_as_answered,
    a_commit_never_ends_another_process_rows,
    nothing_is_left_when_the_outbox_is_off,
);
