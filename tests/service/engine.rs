//! Games against the computer at the service: started at once, never rated, the engine's turn
//! found (also after a restart) and its moves committed like a member's.

use gomoku_bot::engine::Level;
use std::time::Duration;

use gomoku_bot::service::{
    ClockEvent, GameStatus, OfferError, ResultReason, ServiceError, TimeControl, UserInfo,
};

use crate::common::{Env, TestDb, act, alice, at, bob, request, robot, user};

/// The bot's own user (a bot account, as Discord reports it).
fn engine() -> UserInfo {
    UserInfo {
        is_bot: true,
        ..user(500, "Gomoku Bot")
    }
}

fn level(n: u8) -> Level {
    Level::new(n).expect("a level")
}

async fn a_game_against_the_engine_starts_at_once_unrated_with_its_level(db: TestDb) {
    let env = Env::new(db).await;
    let mut req = request(None, "gomoku");
    req.rated = true;
    let view = env
        .svc
        .challenge_engine(&at(alice()), &engine(), level(2), req)
        .await
        .expect("started");
    assert_eq!(view.status, GameStatus::Active);
    assert!(!view.rated, "engine games are never rated");
    let mut users: Vec<u64> = view.seats.iter().map(|s| s.user.0).collect();
    users.sort_unstable();
    assert_eq!(users, [1, 500]);
    assert_eq!(env.svc.engine_level(view.id).await, Ok(Some(level(2))));
    // A game between members has no engine.
    let (other, _, _) = crate::common::start_two(&env.svc, "gomoku").await;
    assert_eq!(env.svc.engine_level(other.id).await, Ok(None));
    assert!(
        env.svc
            .engine_turn(other.id, engine().id)
            .await
            .expect("read")
            .is_none()
    );
}

/// Every level the bot offers, level 6 (correspondence) included, starts a game and is kept
/// on the game's row (the first schema's check allowed 1-5 only, so level 6 failed to start).
async fn every_level_starts_a_game_and_keeps_its_level(db: TestDb) {
    let env = Env::new(db).await;
    for n in 1..=6 {
        let member = user(100 + u64::from(n), "Member");
        let view = env
            .svc
            .challenge_engine(&at(member), &engine(), level(n), request(None, "gomoku"))
            .await
            .unwrap_or_else(|e| panic!("level {n} starts: {e:?}"));
        assert_eq!(env.svc.engine_level(view.id).await, Ok(Some(level(n))));
    }
}

async fn the_engine_moves_on_its_turn_and_a_stale_answer_is_refused(db: TestDb) {
    let mut env = Env::new(db).await;
    let view = env
        .svc
        .challenge_engine(&at(alice()), &engine(), level(1), request(None, "gomoku"))
        .await
        .expect("started");
    let alice_first = view.to_act().expect("someone acts").user == alice().id;
    if alice_first {
        assert!(
            env.svc
                .engine_turn(view.id, engine().id)
                .await
                .expect("read")
                .is_none(),
            "not the engine's turn"
        );
        env.svc
            .play(&at(alice()), Some(view.id), act("H8", 15), None)
            .await
            .expect("Alice moves");
    }
    // After a restart the game is still owed a move.
    env.restart().await;
    assert_eq!(
        env.svc.engine_games_to_move(engine().id).await,
        Ok(vec![view.id])
    );
    let turn = env
        .svc
        .engine_turn(view.id, engine().id)
        .await
        .expect("read")
        .expect("the engine's turn");
    let action = turn.think().expect("a move");
    assert!(turn.game.is_legal(action));
    let played = env
        .svc
        .play_engine_move(&turn, &engine(), action)
        .await
        .expect("committed");
    assert_eq!(played.view.ply, turn.ply + 1);
    assert_eq!(played.view.to_act().expect("Alice's turn").user, alice().id);
    assert_eq!(env.svc.engine_games_to_move(engine().id).await, Ok(vec![]));
    // The same answer again is stale.
    assert_eq!(
        env.svc
            .play_engine_move(&turn, &engine(), action)
            .await
            .map(|_| ()),
        Err(ServiceError::NotYourTurn)
    );
}

async fn engine_challenges_are_refused_for_bots_lobbies_and_too_many_games(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let refused = |r: Result<gomoku_bot::service::GameView, ServiceError>| r.map(|v| v.id).err();
    assert_eq!(
        refused(
            svc.challenge_engine(&at(robot()), &engine(), level(1), request(None, "gomoku"))
                .await
        ),
        Some(ServiceError::ChallengeBot)
    );
    assert_eq!(
        refused(
            svc.challenge_engine(
                &at(alice()),
                &engine(),
                level(1),
                request(None, "gomoku players=3")
            )
            .await
        ),
        Some(ServiceError::OpponentInLobby)
    );
    for _ in 0..svc.config().max_open_games_per_pair {
        svc.challenge_engine(&at(bob()), &engine(), level(1), request(None, "pente"))
            .await
            .expect("within the limit");
    }
    assert!(matches!(
        refused(
            svc.challenge_engine(&at(bob()), &engine(), level(1), request(None, "pente"))
                .await
        ),
        Some(ServiceError::TooManyOpenGames { .. })
    ));
    // A member challenging the bot through an ordinary challenge is still refused.
    assert_eq!(
        svc.challenge(&at(alice()), request(Some(engine()), "gomoku"))
            .await
            .map(|c| c.id),
        Err(ServiceError::ChallengeBot)
    );
}

async fn the_computer_never_runs_out_of_time_but_its_opponent_does(db: TestDb) {
    let env = Env::new(db).await;
    let mut req = request(None, "gomoku");
    req.time = Some(TimeControl::DaysPerMove(1));
    let view = env
        .svc
        .challenge_engine(&at(alice()), &engine(), level(1), req)
        .await
        .expect("started");
    if view.to_act().expect("someone acts").user == alice().id {
        env.svc
            .play(&at(alice()), Some(view.id), act("H8", 15), None)
            .await
            .expect("Alice moves");
    }
    // The bot was down for a year with the computer to move: no reminder, no loss on time.
    env.clock.advance(Duration::from_secs(365 * 86_400));
    assert_eq!(env.svc.sweep_clocks().await, Ok(vec![]));
    let turn = env
        .svc
        .engine_turn(view.id, engine().id)
        .await
        .expect("read")
        .expect("still the computer's turn");
    let action = turn.think().expect("a move");
    env.svc
        .play_engine_move(&turn, &engine(), action)
        .await
        .expect("committed");
    // Alice's turn has a clock: past her deadline and her vacation, she loses on time.
    env.clock.advance(Duration::from_secs(60 * 86_400));
    let events = env.svc.sweep_clocks().await.expect("swept");
    assert!(
        events
            .iter()
            .any(|e| matches!(e, ClockEvent::TimedOut { .. })),
        "{events:?}"
    );
    let after = env.svc.game(view.guild, view.id).await.expect("game");
    match after.status {
        GameStatus::Finished(r) => {
            assert_eq!(
                r.reason,
                ResultReason::Timeout {
                    seat: after
                        .seats
                        .iter()
                        .find(|s| s.user == alice().id)
                        .expect("Alice sits")
                        .seat
                }
            );
        }
        other => panic!("still {other:?}"),
    }
}

async fn offers_to_the_computer_are_refused_take_backs_go_through_their_own_call(db: TestDb) {
    let env = Env::new(db).await;
    let view = env
        .svc
        .challenge_engine(&at(alice()), &engine(), level(1), request(None, "gomoku"))
        .await
        .expect("started");
    assert!(view.against_computer);
    if view.to_act().expect("someone acts").user == alice().id {
        env.svc
            .play(&at(alice()), Some(view.id), act("H8", 15), None)
            .await
            .expect("Alice moves");
    }
    let computer = Err(ServiceError::Offer(OfferError::AgainstComputer));
    assert_eq!(
        env.svc
            .offer_undo(&at(alice()), Some(view.id))
            .await
            .map(|_| ()),
        computer
    );
    assert_eq!(
        env.svc
            .offer_draw(&at(alice()), Some(view.id))
            .await
            .map(|_| ()),
        computer
    );
    env.svc
        .resign(&at(alice()), Some(view.id))
        .await
        .expect("resigned");
    assert_eq!(
        env.svc
            .propose_rematch(&at(alice()), view.id)
            .await
            .map(|_| ()),
        computer
    );
    // Between members, the same game would allow them.
    let (other, a, _) = crate::common::start_two(&env.svc, "gomoku").await;
    assert!(!other.against_computer);
    assert!(env.svc.offer_draw(&a, Some(other.id)).await.is_ok());
}

async fn the_computer_agrees_to_take_backs_at_once(db: TestDb) {
    let mut env = Env::new(db).await;
    let view = env
        .svc
        .challenge_engine(&at(alice()), &engine(), level(1), request(None, "pente"))
        .await
        .expect("started");
    let alice_first = view.to_act().expect("someone acts").user == alice().id;
    if alice_first {
        // Nothing of Alice's to take back yet.
        assert_eq!(
            env.svc
                .take_back_from_computer(&at(alice()), Some(view.id))
                .await
                .map(|_| ()),
            Err(ServiceError::Offer(OfferError::NothingToUndo))
        );
    }
    // Alice moves, the computer replies, twice.
    for _ in 0..2 {
        let now = env.svc.game(view.guild, view.id).await.expect("game");
        if now.to_act().expect("in play").user == alice().id {
            let free = ["K10", "L11", "J9", "M12"]
                .into_iter()
                .find(|p| {
                    now.game
                        .stone_at(gomoku_bot::rules::Point::parse(p, 19).expect("point"))
                        .is_none()
                })
                .expect("a free point");
            env.svc
                .play(&at(alice()), Some(view.id), act(free, 19), None)
                .await
                .expect("Alice moves");
        }
        let turn = env
            .svc
            .engine_turn(view.id, engine().id)
            .await
            .expect("read")
            .expect("the computer's turn");
        let action = turn.think().expect("a move");
        env.svc
            .play_engine_move(&turn, &engine(), action)
            .await
            .expect("committed");
    }
    let before = env.svc.game(view.guild, view.id).await.expect("game");
    let (taken, actions) = env
        .svc
        .take_back_from_computer(&at(alice()), Some(view.id))
        .await
        .expect("taken back");
    assert_eq!(actions.len(), 2, "Alice's move and the computer's reply");
    assert_eq!(
        &before.game.record()[before.game.record().len() - 2..],
        &actions[..]
    );
    assert_eq!(taken.ply, before.ply + 1);
    assert_eq!(taken.to_act().expect("in play").user, alice().id);
    // The same position after a restart (the log replays the `undo` row).
    env.restart().await;
    let again = env.svc.game(view.guild, view.id).await.expect("game");
    assert_eq!(again.game.record(), taken.game.record());
    // Between members there is someone to ask.
    let (other, a, _) = crate::common::start_two(&env.svc, "gomoku").await;
    assert_eq!(
        env.svc
            .take_back_from_computer(&a, Some(other.id))
            .await
            .map(|_| ()),
        Err(ServiceError::Offer(OfferError::NotAgainstComputer))
    );
}

both_stores!(
    a_game_against_the_engine_starts_at_once_unrated_with_its_level,
    every_level_starts_a_game_and_keeps_its_level,
    the_engine_moves_on_its_turn_and_a_stale_answer_is_refused,
    engine_challenges_are_refused_for_bots_lobbies_and_too_many_games,
    the_computer_never_runs_out_of_time_but_its_opponent_does,
    offers_to_the_computer_are_refused_take_backs_go_through_their_own_call,
    the_computer_agrees_to_take_backs_at_once,
);
