//! Clocks through the service with a manual clock and real SQLite files: reminders, vacation,
//! losses on time, restarts in the middle of a countdown, and two sweepers at once.

use std::time::Duration;

use gomoku_bot::rules::Colours;
use gomoku_bot::service::{
    ClockEvent, GameStatus, GameView, GuildId, GuildSettings, ResultReason, Service, ServiceConfig,
    ServiceError, TimeControl, Timestamp, UserId,
};

use crate::common::*;

const MINUTE: Duration = Duration::from_secs(60);
const HOUR: Duration = Duration::from_secs(3600);
const DAY: Duration = Duration::from_secs(86_400);

fn with_vacation(days: u32) -> ServiceConfig {
    ServiceConfig {
        vacation_days_per_year: days,
        ..config()
    }
}

/// Alice challenges Bob with this time control on a gomoku board; Bob accepts.
async fn timed_game(svc: &Service, time: TimeControl) -> GameView {
    let mut r = request(Some(bob()), "gomoku");
    r.time = Some(time);
    let c = svc.challenge(&at(alice()), r).await.expect("challenge");
    svc.accept(&at(bob()), c.id)
        .await
        .expect("accept")
        .game
        .expect("started")
}

fn user_of_seat(view: &GameView, seat: u8) -> UserId {
    view.seats.iter().find(|s| s.seat == seat).unwrap().user
}

/// The reminders among the events: (game, user).
fn reminders(events: &[ClockEvent]) -> Vec<(i64, UserId)> {
    events
        .iter()
        .filter_map(|e| match e {
            ClockEvent::Reminder { game, user, .. } => Some((game.id.0, *user)),
            _ => None,
        })
        .collect()
}

fn timeouts(events: &[ClockEvent]) -> Vec<&GameView> {
    events
        .iter()
        .filter_map(|e| match e {
            ClockEvent::TimedOut { game, .. } => Some(game),
            _ => None,
        })
        .collect()
}

async fn three_days_per_move_reminds_once_a_day_before_the_deadline_even_across_a_restart(
    db: TestDb,
) {
    let mut env = Env::with_config(db, with_vacation(0)).await;
    let game = timed_game(&env.svc, TimeControl::DaysPerMove(3)).await;
    let first = user_of_seat(&game, 1);
    assert_eq!(game.deadline, Some(T0.plus(3 * DAY)));
    // 24 hours before the deadline (48 h) comes before 80% of the time (57.6 h).
    env.clock.advance(2 * DAY - MINUTE);
    assert!(env.svc.sweep_clocks().await.unwrap().is_empty());
    env.clock.advance(MINUTE);
    let events = env.svc.sweep_clocks().await.unwrap();
    assert_eq!(reminders(&events), vec![(game.id.0, first)]);
    match &events[0] {
        ClockEvent::Reminder { game: g, seat, .. } => {
            assert_eq!(*seat, 1);
            assert_eq!(g.deadline, Some(T0.plus(3 * DAY)));
        }
        other => panic!("{other:?}"),
    }
    assert!(env.svc.sweep_clocks().await.unwrap().is_empty(), "once");
    env.restart().await;
    env.clock.advance(HOUR);
    assert!(
        env.svc.sweep_clocks().await.unwrap().is_empty(),
        "a restart does not repeat the reminder"
    );
}

async fn seven_days_per_move_reminds_at_eighty_percent_and_each_turn_gets_its_own_reminder(
    db: TestDb,
) {
    let env = Env::new(db).await;
    let game = timed_game(&env.svc, TimeControl::DaysPerMove(7)).await;
    // 80% of 7 days = 134.4 h, before 24 h before the deadline (144 h).
    let at_80 = Duration::from_secs(134 * 3600 + 24 * 60);
    env.clock.advance(at_80 - Duration::from_millis(1));
    assert!(env.svc.sweep_clocks().await.unwrap().is_empty());
    env.clock.advance(Duration::from_millis(1));
    let events = env.svc.sweep_clocks().await.unwrap();
    assert_eq!(
        reminders(&events),
        vec![(game.id.0, user_of_seat(&game, 1))]
    );
    // Seat 1 moves: seat 2's turn has a reminder of its own, 134.4 h later.
    env.svc
        .play(&seat_actor(&game, 1), Some(game.id), act("H8", 15), None)
        .await
        .unwrap();
    env.clock.advance(at_80 - MINUTE);
    assert!(env.svc.sweep_clocks().await.unwrap().is_empty());
    env.clock.advance(MINUTE);
    let events = env.svc.sweep_clocks().await.unwrap();
    assert_eq!(
        reminders(&events),
        vec![(game.id.0, user_of_seat(&game, 2))]
    );
}

async fn a_passed_deadline_without_vacation_is_a_loss_on_time_that_replays_after_a_restart(
    db: TestDb,
) {
    let mut env = Env::with_config(db, with_vacation(0)).await;
    let game = timed_game(&env.svc, TimeControl::DaysPerMove(1)).await;
    env.svc
        .play(&seat_actor(&game, 1), Some(game.id), act("H8", 15), None)
        .await
        .unwrap();
    env.clock.advance(DAY - Duration::from_millis(1));
    // The 80% reminder went out on the way; the deadline has not passed.
    let events = env.svc.sweep_clocks().await.unwrap();
    assert_eq!(
        reminders(&events),
        vec![(game.id.0, user_of_seat(&game, 2))]
    );
    assert!(timeouts(&events).is_empty());
    env.clock.advance(Duration::from_millis(1));
    let events = env.svc.sweep_clocks().await.unwrap();
    let ended = timeouts(&events);
    assert_eq!(ended.len(), 1);
    let expected = GameStatus::Finished(gomoku_bot::service::GameResult {
        winners: Colours::one(ended[0].game.colour_of_seat(1)),
        reason: ResultReason::Timeout { seat: 2 },
    });
    assert_eq!(ended[0].status, expected);
    assert_eq!(ended[0].winners(), vec![user_of_seat(&game, 1)]);
    assert_eq!(ended[0].ply, 2, "the loss on time is a row of the move log");
    match &events[0] {
        ClockEvent::TimedOut { user, seat, .. } => {
            assert_eq!((*user, *seat), (user_of_seat(&game, 2), 2));
        }
        other => panic!("{other:?}"),
    }
    assert!(
        env.svc.sweep_clocks().await.unwrap().is_empty(),
        "only once"
    );
    assert_eq!(
        env.svc
            .play(&seat_actor(&game, 2), Some(game.id), act("A1", 15), None)
            .await
            .unwrap_err(),
        ServiceError::GameOver
    );
    env.restart().await;
    let view = env.svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(view.status, expected);
    assert_eq!(view.game.record().len(), 1, "the stone is replayed");
    assert!(
        env.svc
            .active_games(GuildId(GUILD), UserId(1))
            .await
            .unwrap()
            .is_empty()
    );
}

async fn vacation_is_spent_an_hour_at_a_time_and_then_the_player_loses_on_time(db: TestDb) {
    let env = Env::with_config(db, with_vacation(1)).await;
    let game = timed_game(&env.svc, TimeControl::DaysPerMove(1)).await;
    let first = user_of_seat(&game, 1);
    let deadline = T0.plus(DAY);
    assert_eq!(env.svc.vacation(first).await.unwrap().left_hours(), 24);
    env.clock.set(deadline);
    let events = env.svc.sweep_clocks().await.unwrap();
    let used: Vec<_> = events
        .iter()
        .filter_map(|e| match e {
            ClockEvent::VacationUsed {
                game,
                user,
                hours,
                left,
                first_of_turn,
            } => Some((game.deadline, *user, *hours, *left, *first_of_turn)),
            _ => None,
        })
        .collect();
    assert_eq!(used, vec![(Some(deadline.plus(HOUR)), first, 1, 23, true)]);
    assert!(env.svc.sweep_clocks().await.unwrap().is_empty());
    assert_eq!(
        env.svc
            .game(GuildId(GUILD), game.id)
            .await
            .unwrap()
            .deadline,
        Some(deadline.plus(HOUR))
    );
    // The next hour: one more hour, and no longer the first of this turn.
    env.clock.advance(HOUR);
    let events = env.svc.sweep_clocks().await.unwrap();
    assert!(matches!(
        events.as_slice(),
        [ClockEvent::VacationUsed {
            hours: 1,
            left: 22,
            first_of_turn: false,
            ..
        }]
    ));
    let balance = env.svc.vacation(first).await.unwrap();
    assert_eq!((balance.used_hours, balance.left_hours()), (2, 22));
    assert_eq!(balance.year, 2023);
    // A day later the 22 hours left are not enough: they are spent and the game is lost.
    env.clock.advance(DAY);
    let events = env.svc.sweep_clocks().await.unwrap();
    let ended = timeouts(&events);
    assert_eq!(ended.len(), 1, "{events:?}");
    assert_eq!(
        ended[0].status,
        GameStatus::Finished(gomoku_bot::service::GameResult {
            winners: Colours::one(ended[0].game.colour_of_seat(2)),
            reason: ResultReason::Timeout { seat: 1 },
        })
    );
    assert_eq!(env.svc.vacation(first).await.unwrap().left_hours(), 0);
    // The opponent's vacation was never touched; next year the allowance is whole again.
    assert_eq!(
        env.svc
            .vacation(user_of_seat(&game, 2))
            .await
            .unwrap()
            .used_hours,
        0
    );
    env.clock.advance(366 * DAY);
    let next = env.svc.vacation(first).await.unwrap();
    assert_eq!((next.year, next.left_hours()), (2024, 24));
}

async fn a_move_during_vacation_gives_a_full_turn_and_keeps_what_was_spent(db: TestDb) {
    let env = Env::with_config(db, with_vacation(2)).await;
    let game = timed_game(&env.svc, TimeControl::DaysPerMove(2)).await;
    let first = user_of_seat(&game, 1);
    env.clock.advance(2 * DAY + 30 * MINUTE);
    env.svc.sweep_clocks().await.unwrap();
    assert_eq!(env.svc.vacation(first).await.unwrap().used_hours, 1);
    let played = env
        .svc
        .play(&seat_actor(&game, 1), Some(game.id), act("H8", 15), None)
        .await
        .unwrap();
    assert_eq!(played.view.deadline, Some(env.clock_now().plus(2 * DAY)));
    assert_eq!(env.svc.vacation(first).await.unwrap().used_hours, 1);
}

async fn after_a_downtime_enough_hours_are_spent_at_once_to_bring_the_deadline_past_now(
    db: TestDb,
) {
    let env = Env::with_config(db, with_vacation(10)).await;
    let game = timed_game(&env.svc, TimeControl::DaysPerMove(1)).await;
    env.clock.set(T0.plus(DAY).plus(5 * HOUR + 30 * MINUTE));
    let events = env.svc.sweep_clocks().await.unwrap();
    match events.as_slice() {
        [
            ClockEvent::VacationUsed {
                game: g,
                hours: 6,
                left: 234,
                first_of_turn: true,
                ..
            },
        ] => assert_eq!(g.deadline, Some(T0.plus(DAY).plus(6 * HOUR))),
        other => panic!("{} events, expected one vacation notice", other.len()),
    }
    // Vacation replaces the reminder this turn never had, and is not repeated.
    env.clock.advance(10 * MINUTE);
    assert!(env.svc.sweep_clocks().await.unwrap().is_empty());
    let _ = game;
}

async fn a_restart_in_the_middle_of_a_countdown_keeps_the_deadline(db: TestDb) {
    let mut env = Env::with_config(db, with_vacation(0)).await;
    let game = timed_game(&env.svc, TimeControl::DaysPerMove(2)).await;
    env.clock.advance(DAY);
    // The 24-hour reminder is due now (at 24 h, before 80% = 38.4 h).
    assert_eq!(reminders(&env.svc.sweep_clocks().await.unwrap()).len(), 1);
    env.svc.close().await;
    // The bot is down past the deadline; a new service on the same file catches up.
    env.clock.advance(DAY + HOUR);
    env.svc = open_service(&env.db, with_vacation(0), env.clock.clone()).await;
    assert_eq!(
        env.svc
            .game(GuildId(GUILD), game.id)
            .await
            .unwrap()
            .deadline,
        Some(T0.plus(2 * DAY))
    );
    let events = env.svc.sweep_clocks().await.unwrap();
    assert!(
        reminders(&events).is_empty(),
        "no late reminder: {events:?}"
    );
    assert_eq!(timeouts(&events).len(), 1);
}

async fn two_sweepers_on_one_database_never_both_act(db: TestDb) {
    let env = Env::with_config(db, with_vacation(0)).await;
    let other = open_service(&env.db, with_vacation(0), env.clock.clone()).await;
    let mut ids = Vec::new();
    for (a, b) in [(alice(), bob()), (carol(), dave())] {
        let mut r = request(Some(b.clone()), "gomoku");
        r.time = Some(TimeControl::DaysPerMove(3));
        let c = env.svc.challenge(&at(a), r).await.unwrap();
        ids.push(env.svc.accept(&at(b), c.id).await.unwrap().game.unwrap().id);
    }
    // Reminders: each turn once between the two.
    env.clock.advance(2 * DAY);
    let (x, y) = tokio::join!(env.svc.sweep_clocks(), other.sweep_clocks());
    let mut all = reminders(&x.unwrap());
    all.extend(reminders(&y.unwrap()));
    all.sort();
    assert_eq!(
        all.iter().map(|r| r.0).collect::<Vec<_>>(),
        vec![ids[0].0, ids[1].0]
    );
    // Losses on time: each game ends once, and its log has one row for it.
    env.clock.advance(DAY);
    let (x, y) = tokio::join!(env.svc.sweep_clocks(), other.sweep_clocks());
    let (x, y) = (x.unwrap(), y.unwrap());
    let mut ended: Vec<i64> = timeouts(&x)
        .iter()
        .chain(timeouts(&y).iter())
        .map(|g| g.id.0)
        .collect();
    ended.sort();
    assert_eq!(ended, vec![ids[0].0, ids[1].0]);
    for id in ids {
        let view = other.game(GuildId(GUILD), id).await.unwrap();
        assert_eq!(view.ply, 1);
    }
    other.close().await;
}

async fn in_a_three_player_game_the_player_out_of_time_is_out_and_the_last_two_play_on(db: TestDb) {
    let mut env = Env::with_config(db, with_vacation(0)).await;
    let mut r = request(None, "pente players=3");
    r.time = Some(TimeControl::DaysPerMove(1));
    let lobby = env.svc.challenge(&at(alice()), r).await.unwrap();
    env.svc.accept(&at(bob()), lobby.id).await.unwrap();
    let game = env
        .svc
        .accept(&at(carol()), lobby.id)
        .await
        .unwrap()
        .game
        .unwrap();
    env.svc
        .play(&seat_actor(&game, 1), Some(game.id), act("K10", 19), None)
        .await
        .unwrap();
    env.clock.advance(DAY);
    let events = env.svc.sweep_clocks().await.unwrap();
    let out = timeouts(&events);
    assert_eq!(out.len(), 1, "{} events", events.len());
    let view = out[0];
    assert_eq!(view.status, GameStatus::Active, "the others play on");
    assert!(view.game.retired().contains(view.game.colour_of_seat(2)));
    assert_eq!(view.to_act().map(|s| s.seat), Some(3));
    assert_eq!(view.deadline, Some(env.clock_now().plus(DAY)));
    assert_eq!(view.game.stones().len(), 1, "stones stay");
    // Seat 2 is skipped from now on, and cannot resign out of a game it already left.
    env.svc
        .play(&seat_actor(&game, 3), Some(game.id), act("A1", 19), None)
        .await
        .unwrap();
    assert_eq!(
        env.svc
            .play(&seat_actor(&game, 2), Some(game.id), act("B1", 19), None)
            .await
            .unwrap_err(),
        ServiceError::NotYourTurn
    );
    assert_eq!(
        env.svc
            .resign(&seat_actor(&game, 2), Some(game.id))
            .await
            .unwrap_err(),
        ServiceError::GameOver
    );
    // The move log replays after a restart.
    env.svc.close().await;
    env.svc = open_service(&env.db, with_vacation(0), env.clock.clone()).await;
    let view = env.svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(view.to_act().map(|s| s.seat), Some(1));
    assert_eq!(view.ply, 3);
    // Seat 1 runs out too: one player is left, and wins alone.
    env.clock.advance(DAY);
    let events = env.svc.sweep_clocks().await.unwrap();
    let ended = timeouts(&events);
    assert_eq!(ended.len(), 1);
    let GameStatus::Finished(result) = ended[0].status else {
        panic!("not finished");
    };
    assert_eq!(result.reason, ResultReason::Timeout { seat: 1 });
    assert_eq!(ended[0].winners(), vec![user_of_seat(&game, 3)]);
}

async fn a_resignation_after_a_timeout_does_not_crown_the_player_who_left(db: TestDb) {
    let env = Env::with_config(db, with_vacation(0)).await;
    let mut r = request(None, "gomoku players=4");
    r.time = Some(TimeControl::DaysPerMove(1));
    let lobby = env.svc.challenge(&at(alice()), r).await.unwrap();
    let mut game = None;
    for u in [bob(), carol(), dave()] {
        game = env.svc.accept(&at(u), lobby.id).await.unwrap().game;
    }
    let game = game.unwrap();
    env.clock.advance(DAY);
    let events = env.svc.sweep_clocks().await.unwrap();
    assert_eq!(timeouts(&events)[0].status, GameStatus::Active);
    let over = env
        .svc
        .resign(&seat_actor(&game, 3), Some(game.id))
        .await
        .unwrap();
    let mut winners = over.winners();
    winners.sort();
    let mut expected = vec![user_of_seat(&game, 2), user_of_seat(&game, 4)];
    expected.sort();
    assert_eq!(winners, expected);
}

async fn a_damaged_game_does_not_stop_the_others_from_timing_out(db: TestDb) {
    use sqlx::Connection;
    let env = Env::with_config(db, with_vacation(0)).await;
    let broken = timed_game(&env.svc, TimeControl::DaysPerMove(1)).await;
    let mut r = request(Some(dave()), "gomoku");
    r.time = Some(TimeControl::DaysPerMove(1));
    let c = env.svc.challenge(&at(carol()), r).await.unwrap();
    let fine = env
        .svc
        .accept(&at(dave()), c.id)
        .await
        .unwrap()
        .game
        .unwrap();
    // A move-log row the game's row does not know about: the log no longer rebuilds.
    let mut conn = env.db.raw().await;
    sqlx::query(
        "INSERT INTO moves (game_id, ply, seat, action, played_at) VALUES ($1, 1, 1, 'H8', 0)",
    )
    .bind(broken.id.0 as i64)
    .execute(&mut conn)
    .await
    .unwrap();
    conn.close().await.unwrap();
    env.clock.advance(DAY);
    let events = env.svc.sweep_clocks().await.unwrap();
    assert_eq!(
        timeouts(&events).iter().map(|g| g.id).collect::<Vec<_>>(),
        vec![fine.id]
    );
    assert!(events.iter().any(|e| matches!(
        e,
        ClockEvent::Failed { game, error: ServiceError::Storage(_) } if *game == broken.id
    )));
}

async fn one_sweep_ends_every_overdue_game_however_many(db: TestDb) {
    let env = Env::with_config(db, with_vacation(0)).await;
    // More than one claim's worth (200).
    for i in 0..205u64 {
        let a = user(1000 + 2 * i, "A");
        let b = user(1001 + 2 * i, "B");
        let mut r = request(Some(b.clone()), "gomoku");
        r.time = Some(TimeControl::MinutesPerMove(1));
        let c = env.svc.challenge(&at(a), r).await.unwrap();
        env.svc.accept(&at(b), c.id).await.unwrap();
    }
    env.clock.advance(MINUTE);
    let events = env.svc.sweep_clocks().await.unwrap();
    assert_eq!(timeouts(&events).len(), 205);
    assert!(env.svc.sweep_clocks().await.unwrap().is_empty());
}

async fn live_games_time_out_in_minutes_and_never_use_vacation(db: TestDb) {
    let env = Env::with_config(db, with_vacation(10)).await;
    let game = timed_game(&env.svc, TimeControl::MinutesPerMove(5)).await;
    assert_eq!(game.time, TimeControl::MinutesPerMove(5));
    assert_eq!(game.deadline, Some(T0.plus(5 * MINUTE)));
    env.clock.advance(4 * MINUTE);
    assert_eq!(reminders(&env.svc.sweep_clocks().await.unwrap()).len(), 1);
    env.clock.advance(MINUTE);
    let events = env.svc.sweep_clocks().await.unwrap();
    assert_eq!(timeouts(&events).len(), 1, "{events:?}");
    assert_eq!(
        env.svc
            .vacation(user_of_seat(&game, 1))
            .await
            .unwrap()
            .used_hours,
        0
    );
}

async fn untimed_games_are_never_reminded_nor_ended(db: TestDb) {
    let env = Env::new(db).await;
    timed_game(&env.svc, TimeControl::Unlimited).await;
    env.clock.advance(400 * DAY);
    assert!(env.svc.sweep_clocks().await.unwrap().is_empty());
}

async fn only_the_listed_time_controls_are_accepted_and_live_defaults_are_stored(db: TestDb) {
    let env = Env::new(db).await;
    for (time, err) in [
        (TimeControl::DaysPerMove(4), ServiceError::BadTimeControl(4)),
        (
            TimeControl::DaysPerMove(30),
            ServiceError::BadTimeControl(30),
        ),
        (TimeControl::DaysPerMove(0), ServiceError::BadTimeControl(0)),
        (
            TimeControl::MinutesPerMove(3),
            ServiceError::BadMinutesPerMove(3),
        ),
        (
            TimeControl::MinutesPerMove(0),
            ServiceError::BadMinutesPerMove(0),
        ),
    ] {
        let mut r = request(Some(bob()), "gomoku");
        r.time = Some(time);
        assert_eq!(env.svc.challenge(&at(alice()), r).await.unwrap_err(), err);
    }
    let settings = GuildSettings {
        default_time: TimeControl::MinutesPerMove(10),
        ..GuildSettings::default()
    };
    env.svc
        .set_guild_settings(GuildId(GUILD), settings.clone())
        .await
        .unwrap();
    assert_eq!(
        env.svc.guild_settings(GuildId(GUILD)).await.unwrap(),
        settings
    );
    let c = env
        .svc
        .challenge(
            &at(alice()),
            gomoku_bot::service::ChallengeRequest {
                opponent: Some(bob()),
                ..Default::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(c.time, TimeControl::MinutesPerMove(10));
    let game = env
        .svc
        .accept(&at(bob()), c.id)
        .await
        .unwrap()
        .game
        .unwrap();
    assert_eq!(game.deadline, Some(T0.plus(10 * MINUTE)));
    assert_eq!(
        GuildSettings::default().default_time,
        TimeControl::DaysPerMove(3)
    );
}

#[test]
fn the_reminder_rule_is_public() {
    let start = Timestamp(0);
    let t = TimeControl::DaysPerMove(3);
    assert_eq!(
        gomoku_bot::service::reminder_time(t, start, t.deadline_after(start).unwrap()),
        Some(start.plus(2 * DAY))
    );
}

both_stores!(
    three_days_per_move_reminds_once_a_day_before_the_deadline_even_across_a_restart,
    seven_days_per_move_reminds_at_eighty_percent_and_each_turn_gets_its_own_reminder,
    a_passed_deadline_without_vacation_is_a_loss_on_time_that_replays_after_a_restart,
    vacation_is_spent_an_hour_at_a_time_and_then_the_player_loses_on_time,
    a_move_during_vacation_gives_a_full_turn_and_keeps_what_was_spent,
    after_a_downtime_enough_hours_are_spent_at_once_to_bring_the_deadline_past_now,
    a_restart_in_the_middle_of_a_countdown_keeps_the_deadline,
    two_sweepers_on_one_database_never_both_act,
    in_a_three_player_game_the_player_out_of_time_is_out_and_the_last_two_play_on,
    a_resignation_after_a_timeout_does_not_crown_the_player_who_left,
    a_damaged_game_does_not_stop_the_others_from_timing_out,
    one_sweep_ends_every_overdue_game_however_many,
    live_games_time_out_in_minutes_and_never_use_vacation,
    untimed_games_are_never_reminded_nor_ended,
    only_the_listed_time_controls_are_accepted_and_live_defaults_are_stored,
);
