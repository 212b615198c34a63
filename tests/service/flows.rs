//! Every flow of the service, refusals included, through its public API.

use std::collections::HashSet;
use std::time::Duration;

use gomoku_bot::rules::{Action, Colours, Opening, Phase, PlayError, Point, PointError};
use gomoku_bot::service::{
    ChallengeId, ChallengeRequest, ChallengeStatus, ChannelId, GameId, GameResult, GameStatus,
    GuildId, GuildSettings, MessageId, Notify, Preferences, ResultReason, ServiceConfig,
    ServiceError, TimeControl, UserId, UserInfo,
};

use crate::common::*;

// ----- challenges ---------------------------------------------------------------------------

async fn a_named_challenge_accepted_starts_a_game_with_both_seated(db: TestDb) {
    let env = Env::new(db).await;
    let c = env
        .svc
        .challenge(&at(alice()), request(Some(bob()), "pente"))
        .await
        .unwrap();
    assert_eq!(c.status, ChallengeStatus::Open);
    assert_eq!(c.challenger, UserId(1));
    assert_eq!(c.opponent, Some(UserId(2)));
    assert_eq!(c.members, vec![UserId(1)]);
    assert_eq!(c.expires_at, T0.plus(Duration::from_secs(24 * 3600)));
    assert!(!c.is_lobby());

    let accepted = env.svc.accept(&at(bob()), c.id).await.unwrap();
    let game = accepted.game.expect("game started");
    assert_eq!(accepted.challenge.status, ChallengeStatus::Accepted);
    assert_eq!(accepted.challenge.game, Some(game.id));
    assert_eq!(accepted.challenge.members, vec![UserId(1), UserId(2)]);
    assert_eq!(game.challenge, Some(c.id));
    assert_eq!(game.ply, 0);
    assert_eq!(game.status, GameStatus::Active);
    assert_eq!(game.game.rules().to_spec(), "pente");
    let users: HashSet<_> = game.seats.iter().map(|s| s.user).collect();
    assert_eq!(users, HashSet::from([UserId(1), UserId(2)]));
    let seats: Vec<u8> = game.seats.iter().map(|s| s.seat).collect();
    assert_eq!(seats, vec![1, 2]);
    assert_eq!(game.to_act().map(|s| s.seat), Some(1));
    let names: HashSet<_> = game.seats.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, HashSet::from(["Alice", "Bob"]));
    assert_eq!(game.home(), ChannelId(CHANNEL));
    // The built-in default: three days per move.
    assert_eq!(game.time, TimeControl::DaysPerMove(3));
    assert_eq!(
        game.deadline,
        Some(T0.plus(Duration::from_secs(3 * 86_400)))
    );

    // The challenge is closed now.
    assert_eq!(
        env.svc.accept(&at(bob()), c.id).await.unwrap_err(),
        ServiceError::ChallengeClosed(ChallengeStatus::Accepted)
    );
}

async fn only_the_challenged_member_may_accept_or_decline_and_only_the_challenger_cancel(
    db: TestDb,
) {
    let env = Env::new(db).await;
    let c = env
        .svc
        .challenge(&at(alice()), request(Some(bob()), "gomoku"))
        .await
        .unwrap();
    assert_eq!(
        env.svc.accept(&at(carol()), c.id).await.unwrap_err(),
        ServiceError::NotChallenged
    );
    assert_eq!(
        env.svc.decline(&at(carol()), c.id).await.unwrap_err(),
        ServiceError::NotChallenged
    );
    assert_eq!(
        env.svc.accept(&at(alice()), c.id).await.unwrap_err(),
        ServiceError::ChallengeSelf
    );
    assert_eq!(
        env.svc.cancel(&at(bob()), c.id).await.unwrap_err(),
        ServiceError::NotChallenger
    );
    let declined = env.svc.decline(&at(bob()), c.id).await.unwrap();
    assert_eq!(declined.status, ChallengeStatus::Declined);
    assert_eq!(declined.game, None);
    assert_eq!(
        env.svc.accept(&at(bob()), c.id).await.unwrap_err(),
        ServiceError::ChallengeClosed(ChallengeStatus::Declined)
    );
    assert_eq!(
        env.svc.cancel(&at(alice()), c.id).await.unwrap_err(),
        ServiceError::ChallengeClosed(ChallengeStatus::Declined)
    );

    let c2 = env
        .svc
        .challenge(&at(alice()), request(Some(bob()), "gomoku"))
        .await
        .unwrap();
    assert_ne!(c2.id, c.id);
    let cancelled = env.svc.cancel(&at(alice()), c2.id).await.unwrap();
    assert_eq!(cancelled.status, ChallengeStatus::Cancelled);
    assert_eq!(
        env.svc.accept(&at(bob()), c2.id).await.unwrap_err(),
        ServiceError::ChallengeClosed(ChallengeStatus::Cancelled)
    );
    assert!(
        env.svc
            .active_games(GuildId(GUILD), UserId(1))
            .await
            .unwrap()
            .is_empty()
    );
}

async fn an_open_challenge_is_taken_by_the_first_human_who_is_not_the_challenger(db: TestDb) {
    let env = Env::new(db).await;
    let c = env
        .svc
        .challenge(&at(alice()), request(None, "gomoku"))
        .await
        .unwrap();
    assert_eq!(c.opponent, None);
    assert_eq!(
        env.svc.accept(&at(alice()), c.id).await.unwrap_err(),
        ServiceError::ChallengeSelf
    );
    assert_eq!(
        env.svc.accept(&at(robot()), c.id).await.unwrap_err(),
        ServiceError::ChallengeBot
    );
    assert_eq!(
        env.svc.decline(&at(carol()), c.id).await.unwrap_err(),
        ServiceError::NotChallenged,
        "an open challenge is not declined, just left alone"
    );
    let accepted = env.svc.accept(&at(carol()), c.id).await.unwrap();
    let game = accepted.game.unwrap();
    assert!(game.seat_of(UserId(3)).is_some());
    assert!(game.seat_of(UserId(1)).is_some());
    assert_eq!(
        env.svc.accept(&at(dave()), c.id).await.unwrap_err(),
        ServiceError::ChallengeClosed(ChallengeStatus::Accepted)
    );
}

async fn challenges_to_yourself_to_bots_and_beyond_the_pair_limit_are_refused(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    assert_eq!(
        svc.challenge(&at(alice()), request(Some(alice()), "gomoku"))
            .await
            .unwrap_err(),
        ServiceError::ChallengeSelf
    );
    assert_eq!(
        svc.challenge(&at(alice()), request(Some(robot()), "gomoku"))
            .await
            .unwrap_err(),
        ServiceError::ChallengeBot
    );
    assert_eq!(
        svc.challenge(&at(robot()), request(None, "gomoku"))
            .await
            .unwrap_err(),
        ServiceError::ChallengeBot
    );
    assert_eq!(
        svc.challenge(&at(alice()), request(Some(bob()), "pente players=3"))
            .await
            .unwrap_err(),
        ServiceError::OpponentInLobby
    );
    for days in [0, 31] {
        let mut r = request(Some(bob()), "gomoku");
        r.time = Some(TimeControl::DaysPerMove(days));
        assert_eq!(
            svc.challenge(&at(alice()), r).await.unwrap_err(),
            ServiceError::BadTimeControl(days)
        );
    }

    // Max 3 open games per pair: one active game and two pending challenges fill it,
    // whoever challenged whom.
    start_two(svc, "gomoku").await;
    svc.challenge(&at(alice()), request(Some(bob()), "gomoku"))
        .await
        .unwrap();
    let pending = svc
        .challenge(&at(bob()), request(Some(alice()), "gomoku"))
        .await
        .unwrap();
    assert_eq!(
        svc.challenge(&at(alice()), request(Some(bob()), "gomoku"))
            .await
            .unwrap_err(),
        ServiceError::TooManyOpenGames { max: 3 }
    );
    // Another pair is not affected.
    svc.challenge(&at(alice()), request(Some(carol()), "gomoku"))
        .await
        .unwrap();
    // An open challenge from Alice cannot be taken by Bob while the pair is full...
    let open = svc
        .challenge(&at(alice()), request(None, "gomoku"))
        .await
        .unwrap();
    assert_eq!(
        svc.accept(&at(bob()), open.id).await.unwrap_err(),
        ServiceError::TooManyOpenGames { max: 3 }
    );
    // ...until a pending challenge between them is cancelled.
    svc.cancel(&at(bob()), pending.id).await.unwrap();
    assert!(
        svc.accept(&at(bob()), open.id)
            .await
            .unwrap()
            .game
            .is_some()
    );
}

async fn the_pair_limit_is_configurable(db: TestDb) {
    let env = Env::with_config(
        db,
        ServiceConfig {
            max_open_games_per_pair: 1,
            ..config()
        },
    )
    .await;
    env.svc
        .challenge(&at(alice()), request(Some(bob()), "gomoku"))
        .await
        .unwrap();
    assert_eq!(
        env.svc
            .challenge(&at(bob()), request(Some(alice()), "gomoku"))
            .await
            .unwrap_err(),
        ServiceError::TooManyOpenGames { max: 1 }
    );
}

async fn challenges_expire_after_their_time_and_the_sweep_reports_each_once(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let named = svc
        .challenge(&at(alice()), request(Some(bob()), "gomoku"))
        .await
        .unwrap();
    let open = svc
        .challenge(&at(alice()), request(None, "gomoku"))
        .await
        .unwrap();
    env.clock.advance(Duration::from_secs(12 * 3600));
    let later = svc
        .challenge(&at(carol()), request(None, "gomoku"))
        .await
        .unwrap();
    env.clock.advance(Duration::from_secs(12 * 3600 - 1));
    assert!(
        svc.expire_challenges().await.unwrap().is_empty(),
        "1 s left"
    );
    env.clock.advance(Duration::from_secs(1));

    assert_eq!(
        svc.accept(&at(bob()), named.id).await.unwrap_err(),
        ServiceError::ChallengeExpired
    );
    assert_eq!(
        svc.challenge_info(GuildId(GUILD), named.id)
            .await
            .unwrap()
            .status,
        ChallengeStatus::Expired
    );
    let swept = svc.expire_challenges().await.unwrap();
    assert_eq!(
        swept.iter().map(|c| c.id).collect::<Vec<_>>(),
        vec![open.id]
    );
    assert_eq!(swept[0].status, ChallengeStatus::Expired);
    assert!(svc.expire_challenges().await.unwrap().is_empty());
    assert_eq!(
        svc.cancel(&at(alice()), open.id).await.unwrap_err(),
        ServiceError::ChallengeExpired
    );
    // The later one still stands.
    assert!(
        svc.accept(&at(dave()), later.id)
            .await
            .unwrap()
            .game
            .is_some()
    );
}

async fn the_challenge_lifetime_is_configurable(db: TestDb) {
    let env = Env::with_config(
        db,
        ServiceConfig {
            challenge_ttl: Duration::from_secs(60),
            ..config()
        },
    )
    .await;
    let c = env
        .svc
        .challenge(&at(alice()), request(Some(bob()), "gomoku"))
        .await
        .unwrap();
    assert_eq!(c.expires_at, T0.plus(Duration::from_secs(60)));
    env.clock.advance(Duration::from_secs(61));
    assert_eq!(
        env.svc.accept(&at(bob()), c.id).await.unwrap_err(),
        ServiceError::ChallengeExpired
    );
}

async fn challenge_messages_are_recorded_and_unknown_or_foreign_challenges_are_refused(db: TestDb) {
    let env = Env::new(db).await;
    let c = env
        .svc
        .challenge(&at(alice()), request(Some(bob()), "gomoku"))
        .await
        .unwrap();
    env.svc
        .set_challenge_message(c.id, ChannelId(CHANNEL), MessageId(555))
        .await
        .unwrap();
    let again = env.svc.challenge_info(GuildId(GUILD), c.id).await.unwrap();
    assert_eq!(again.message, Some((ChannelId(CHANNEL), MessageId(555))));
    assert_eq!(
        env.svc
            .set_challenge_message(ChallengeId(999), ChannelId(1), MessageId(1))
            .await
            .unwrap_err(),
        ServiceError::NoSuchChallenge
    );
    assert_eq!(
        env.svc.challenge_info(GuildId(11), c.id).await.unwrap_err(),
        ServiceError::NoSuchChallenge
    );
    let elsewhere = gomoku_bot::service::Actor::new(11, CHANNEL, bob());
    assert_eq!(
        env.svc.accept(&elsewhere, c.id).await.unwrap_err(),
        ServiceError::NoSuchChallenge
    );
    assert_eq!(
        env.svc
            .accept(&at(bob()), ChallengeId(999))
            .await
            .unwrap_err(),
        ServiceError::NoSuchChallenge
    );
}

async fn guild_defaults_fill_in_rules_and_time_control(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    assert_eq!(
        svc.guild_settings(GuildId(GUILD)).await.unwrap(),
        GuildSettings::default()
    );
    let settings = GuildSettings {
        default_rules: rules("keryo size=13"),
        default_time: TimeControl::DaysPerMove(3),
        thread_per_game: false,
        locale: Some(" fi ".into()),
    };
    let saved = svc
        .set_guild_settings(GuildId(GUILD), settings.clone())
        .await
        .unwrap();
    assert_eq!(saved.locale.as_deref(), Some("fi"));
    assert_eq!(svc.guild_settings(GuildId(GUILD)).await.unwrap(), saved);
    assert_eq!(
        svc.guild_settings(GuildId(11)).await.unwrap(),
        GuildSettings::default(),
        "settings are per guild"
    );
    assert_eq!(
        svc.set_guild_settings(
            GuildId(GUILD),
            GuildSettings {
                default_time: TimeControl::DaysPerMove(0),
                ..settings
            }
        )
        .await
        .unwrap_err(),
        ServiceError::BadTimeControl(0)
    );

    let c = svc
        .challenge(
            &at(alice()),
            ChallengeRequest {
                opponent: Some(bob()),
                ..ChallengeRequest::default()
            },
        )
        .await
        .unwrap();
    assert_eq!(c.rules, rules("keryo size=13"));
    assert_eq!(c.time, TimeControl::DaysPerMove(3));
    let game = svc.accept(&at(bob()), c.id).await.unwrap().game.unwrap();
    assert_eq!(game.time, TimeControl::DaysPerMove(3));
    assert_eq!(
        game.deadline,
        Some(T0.plus(Duration::from_secs(3 * 86_400)))
    );

    // An explicit choice wins over the defaults.
    let mut r = request(Some(carol()), "gomoku");
    r.time = Some(TimeControl::Unlimited);
    r.rated = true;
    let c = svc.challenge(&at(alice()), r).await.unwrap();
    assert_eq!(c.time, TimeControl::Unlimited);
    assert!(c.rated);
    let game = svc.accept(&at(carol()), c.id).await.unwrap().game.unwrap();
    assert!(game.rated);
    assert_eq!(game.deadline, None);
}

// ----- lobbies ------------------------------------------------------------------------------

async fn a_three_player_lobby_fills_up_and_starts_with_seats_drawn_and_recorded(db: TestDb) {
    let mut env = Env::new(db).await;
    let lobby = env
        .svc
        .challenge(&at(alice()), request(None, "pente players=3"))
        .await
        .unwrap();
    assert!(lobby.is_lobby());
    assert_eq!(lobby.free_seats(), 2);
    assert_eq!(
        env.svc.accept(&at(alice()), lobby.id).await.unwrap_err(),
        ServiceError::AlreadyJoined
    );
    assert_eq!(
        env.svc.accept(&at(robot()), lobby.id).await.unwrap_err(),
        ServiceError::ChallengeBot
    );
    let joined = env.svc.accept(&at(bob()), lobby.id).await.unwrap();
    assert_eq!(joined.game, None);
    assert_eq!(joined.challenge.members, vec![UserId(1), UserId(2)]);
    assert_eq!(joined.challenge.free_seats(), 1);
    assert_eq!(
        env.svc.accept(&at(bob()), lobby.id).await.unwrap_err(),
        ServiceError::AlreadyJoined
    );
    let started = env.svc.accept(&at(carol()), lobby.id).await.unwrap();
    let game = started.game.expect("full lobby starts");
    assert_eq!(started.challenge.status, ChallengeStatus::Accepted);
    assert_eq!(game.game.rules().players, 3);
    let mut seated: Vec<(u8, UserId)> = game.seats.iter().map(|s| (s.seat, s.user)).collect();
    seated.sort();
    assert_eq!(
        seated.iter().map(|s| s.0).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    let users: HashSet<_> = seated.iter().map(|s| s.1).collect();
    assert_eq!(users, HashSet::from([UserId(1), UserId(2), UserId(3)]));
    for s in &game.seats {
        assert_eq!(s.colour, s.seat, "multiplayer colours follow the seats");
    }
    assert_eq!(
        env.svc.accept(&at(dave()), lobby.id).await.unwrap_err(),
        ServiceError::ChallengeClosed(ChallengeStatus::Accepted)
    );

    env.restart().await;
    let again = env.svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(again.seats, game.seats, "the draw is recorded, not redone");
}

async fn seat_draws_vary(db: TestDb) {
    // Not every lobby may seat its members in joining order.
    let env = Env::new(db).await;
    let mut orders = HashSet::new();
    for round in 0..12u64 {
        let a = user(100 + round * 3, "A");
        let b = user(101 + round * 3, "B");
        let c = user(102 + round * 3, "C");
        let lobby = env
            .svc
            .challenge(&at(a.clone()), request(None, "gomoku players=3"))
            .await
            .unwrap();
        env.svc.accept(&at(b.clone()), lobby.id).await.unwrap();
        let game = env
            .svc
            .accept(&at(c.clone()), lobby.id)
            .await
            .unwrap()
            .game
            .unwrap();
        let order: Vec<u64> = game.seats.iter().map(|s| s.user.0 - a.id.0).collect();
        orders.insert(order);
    }
    assert!(orders.len() >= 3, "seat orders seen: {orders:?}");
}

async fn members_may_leave_a_lobby_and_its_creator_leaving_cancels_it(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let lobby = svc
        .challenge(&at(alice()), request(None, "pente players=4 teams=on"))
        .await
        .unwrap();
    svc.accept(&at(bob()), lobby.id).await.unwrap();
    svc.accept(&at(carol()), lobby.id).await.unwrap();
    assert_eq!(
        svc.leave(&at(dave()), lobby.id).await.unwrap_err(),
        ServiceError::NotJoined
    );
    let left = svc.leave(&at(bob()), lobby.id).await.unwrap();
    assert_eq!(left.members, vec![UserId(1), UserId(3)]);
    assert_eq!(left.free_seats(), 2);
    svc.accept(&at(dave()), lobby.id).await.unwrap();
    svc.accept(&at(bob()), lobby.id).await.unwrap();
    // Full now: the game started.
    let c = svc.challenge_info(GuildId(GUILD), lobby.id).await.unwrap();
    assert_eq!(c.status, ChallengeStatus::Accepted);
    assert!(c.game.is_some());

    let lobby2 = svc
        .challenge(&at(alice()), request(None, "gomoku players=3"))
        .await
        .unwrap();
    svc.accept(&at(erin()), lobby2.id).await.unwrap();
    let gone = svc.leave(&at(alice()), lobby2.id).await.unwrap();
    assert_eq!(gone.status, ChallengeStatus::Cancelled);
    assert_eq!(
        svc.accept(&at(bob()), lobby2.id).await.unwrap_err(),
        ServiceError::ChallengeClosed(ChallengeStatus::Cancelled)
    );
}

// ----- games --------------------------------------------------------------------------------

async fn moves_are_checked_for_turn_participation_legality_and_staleness(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, first, second) = start_two(svc, "pente").await;
    let id = Some(game.id);
    let k10 = act("K10", 19);

    assert_eq!(
        svc.play(&second, id, k10, None).await.unwrap_err(),
        ServiceError::NotYourTurn
    );
    assert_eq!(
        svc.play(&at(carol()), id, k10, None).await.unwrap_err(),
        ServiceError::NotAParticipant
    );
    assert!(matches!(
        svc.play(&first, id, act("A1", 19), None).await.unwrap_err(),
        ServiceError::Illegal(PlayError::OpeningRule {
            opening: Opening::Pro,
            ..
        })
    ));
    assert_eq!(
        svc.play(&first, id, k10, Some(3)).await.unwrap_err(),
        ServiceError::PositionChanged
    );
    let played = svc.play(&first, id, k10, Some(0)).await.unwrap();
    assert_eq!(played.view.ply, 1);
    assert_eq!(played.report.action, k10);
    assert_eq!(played.report.colour, Some(1));
    assert_eq!(
        played.view.game.stone_at(Point::parse("K10", 19).unwrap()),
        Some(1)
    );
    assert_eq!(played.view.to_act().map(|s| s.user), Some(second.user.id));

    assert_eq!(
        svc.play(&second, id, k10, Some(1)).await.unwrap_err(),
        ServiceError::Illegal(PlayError::Occupied(Point::parse("K10", 19).unwrap()))
    );
    assert_eq!(
        svc.play(&second, id, Action::Take(1), Some(1))
            .await
            .unwrap_err(),
        ServiceError::Illegal(PlayError::WrongPhase("a stone is due, not a colour choice"))
    );
    // A stale button (the position the player saw before the last move) is refused even
    // when it is that player's turn again.
    svc.play(&second, id, act("L10", 19), Some(1))
        .await
        .unwrap();
    assert_eq!(
        svc.play(&first, id, act("A1", 19), Some(1))
            .await
            .unwrap_err(),
        ServiceError::PositionChanged
    );
    let view = svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(view.ply, 2);
    assert_eq!(
        svc.game(GuildId(11), game.id).await.unwrap_err(),
        ServiceError::NoSuchGame,
        "games of other guilds are not visible"
    );
    assert_eq!(
        svc.play(
            &gomoku_bot::service::Actor::new(11, CHANNEL, first.user.clone()),
            id,
            k10,
            None
        )
        .await
        .unwrap_err(),
        ServiceError::NoSuchGame
    );
    assert_eq!(
        svc.game(GuildId(GUILD), GameId(999)).await.unwrap_err(),
        ServiceError::NoSuchGame
    );
}

async fn moves_as_typed_are_read_against_the_games_board(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, first, second) = start_two(svc, "gomoku size=9").await;
    let id = Some(game.id);
    assert_eq!(
        svc.play_token(&second, id, "e5", None).await.unwrap_err(),
        ServiceError::NotYourTurn,
        "the turn is checked before the text"
    );
    assert_eq!(
        svc.play_token(&first, id, "K10", None).await.unwrap_err(),
        ServiceError::BadPoint(PointError::OutOfBounds {
            text: "K10".into(),
            size: 9
        })
    );
    assert_eq!(
        svc.play_token(&first, id, "hello", None).await.unwrap_err(),
        ServiceError::BadPoint(PointError::Malformed("hello".into()))
    );
    assert_eq!(
        svc.play_token(&first, id, "take:1", None)
            .await
            .unwrap_err(),
        ServiceError::Illegal(PlayError::WrongPhase("a stone is due, not a colour choice"))
    );
    let played = svc.play_token(&first, id, " e5 ", Some(0)).await.unwrap();
    assert_eq!(played.report.action, act("E5", 9));
    assert_eq!(played.view.ply, 1);
}

async fn a_five_in_a_row_ends_the_game_and_later_moves_are_refused(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, first, second) = start_two(svc, "gomoku").await;
    let id = Some(game.id);
    for (a, b) in [("H8", "H10"), ("J8", "J10"), ("K8", "K10"), ("L8", "L10")] {
        svc.play(&first, id, act(a, 15), None).await.unwrap();
        svc.play(&second, id, act(b, 15), None).await.unwrap();
    }
    let won = svc.play(&first, id, act("M8", 15), None).await.unwrap();
    assert_eq!(won.view.ply, 9);
    let GameStatus::Finished(result) = won.view.status else {
        panic!("the game should be over: {:?}", won.view.status)
    };
    assert_eq!(result.reason, ResultReason::Line);
    assert_eq!(result.winners, Colours::one(1));
    assert_eq!(won.view.winners(), vec![first.user.id]);
    assert_eq!(won.view.to_act(), None);
    assert_eq!(won.view.deadline, None);
    assert_eq!(
        svc.play(&second, id, act("A1", 15), None)
            .await
            .unwrap_err(),
        ServiceError::GameOver
    );
    assert_eq!(
        svc.resign(&second, id).await.unwrap_err(),
        ServiceError::GameOver
    );
    assert!(
        svc.active_games(GuildId(GUILD), first.user.id)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(svc.cached_games(), 0, "finished games leave the cache");
    let view = svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(view.status, won.view.status);
}

async fn captures_are_counted_in_the_state(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, first, second) = start_two(svc, "pente").await;
    let id = Some(game.id);
    for (seat, token) in [(1, "K10"), (2, "L10"), (1, "A1"), (2, "M10"), (1, "N10")] {
        let who = if seat == 1 { &first } else { &second };
        svc.play(who, id, act(token, 19), None).await.unwrap();
    }
    let view = svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(view.game.captured()[0], 2);
    assert_eq!(view.game.stone_at(Point::parse("L10", 19).unwrap()), None);
    assert_eq!(view.game.stone_count(), 3);
}

async fn swap2_choices_are_played_by_the_seat_that_must_choose(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, first, second) = start_two(svc, "gomoku opening=swap2").await;
    let id = Some(game.id);
    for token in ["H8", "J9", "H10"] {
        svc.play(&first, id, act(token, 15), None).await.unwrap();
    }
    let view = svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert!(matches!(
        view.game.phase(),
        Phase::Choosing {
            seat: 2,
            may_place: true
        }
    ));
    assert_eq!(view.to_act().map(|s| s.seat), Some(2));
    assert_eq!(
        svc.play(&first, id, Action::Take(1), None)
            .await
            .unwrap_err(),
        ServiceError::NotYourTurn
    );
    assert_eq!(
        svc.play(&second, id, act("A1", 15), None)
            .await
            .unwrap_err(),
        ServiceError::Illegal(PlayError::WrongPhase("a colour choice is due, not a stone"))
    );
    let chosen = svc
        .play(&second, id, Action::Take(1), Some(3))
        .await
        .unwrap();
    let me = chosen.view.seat_of(second.user.id).unwrap();
    assert_eq!(me.colour, 1, "seat 2 took colour 1");
    assert_eq!(chosen.view.seat_of(first.user.id).unwrap().colour, 2);
    // Three stones are down, so colour 2 (now seat 1) moves.
    assert_eq!(chosen.view.to_act().map(|s| s.seat), Some(1));
    svc.play(&first, id, act("C3", 15), None).await.unwrap();
}

async fn resigning_gives_the_win_to_the_opponent(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (game, first, second) = start_two(svc, "pente").await;
    svc.play(&first, Some(game.id), act("K10", 19), None)
        .await
        .unwrap();
    assert_eq!(
        svc.resign(&at(carol()), Some(game.id)).await.unwrap_err(),
        ServiceError::NotAParticipant
    );
    // Out of turn is fine.
    let view = svc.resign(&first, Some(game.id)).await.unwrap();
    assert_eq!(
        view.status,
        GameStatus::Finished(GameResult {
            winners: Colours::one(2),
            reason: ResultReason::Resignation { seat: 1 },
        })
    );
    assert_eq!(view.winners(), vec![second.user.id]);
    assert_eq!(view.ply, 2);
    assert_eq!(
        svc.play(&second, Some(game.id), act("A1", 19), None)
            .await
            .unwrap_err(),
        ServiceError::GameOver
    );
    assert_eq!(
        svc.resign(&second, Some(game.id)).await.unwrap_err(),
        ServiceError::GameOver
    );
    // The stored result survives a fresh read.
    let again = svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(again.status, view.status);
    assert_eq!(again.game.stone_count(), 1);
}

async fn in_multiplayer_a_resignation_ends_the_game_for_the_other_sides(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    // Free-for-all: the two others share the win.
    let lobby = svc
        .challenge(&at(alice()), request(None, "pente players=3"))
        .await
        .unwrap();
    svc.accept(&at(bob()), lobby.id).await.unwrap();
    let game = svc
        .accept(&at(carol()), lobby.id)
        .await
        .unwrap()
        .game
        .unwrap();
    let bob_seat = game.seat_of(UserId(2)).unwrap().seat;
    let view = svc.resign(&at(bob()), Some(game.id)).await.unwrap();
    let GameStatus::Finished(r) = view.status else {
        panic!("over")
    };
    assert_eq!(r.reason, ResultReason::Resignation { seat: bob_seat });
    let mut winners = view.winners();
    winners.sort();
    assert_eq!(winners, vec![UserId(1), UserId(3)]);

    // Teams: the resigning player's team loses, the other team wins.
    let lobby = svc
        .challenge(&at(alice()), request(None, "pente players=4 teams=on"))
        .await
        .unwrap();
    for u in [bob(), carol(), dave()] {
        svc.accept(&at(u), lobby.id).await.unwrap();
    }
    let game = svc
        .challenge_info(GuildId(GUILD), lobby.id)
        .await
        .unwrap()
        .game
        .unwrap();
    let view = svc.game(GuildId(GUILD), game).await.unwrap();
    let alice_seat = view.seat_of(UserId(1)).unwrap().seat;
    let partner = view
        .seats
        .iter()
        .find(|s| s.seat != alice_seat && s.seat % 2 == alice_seat % 2)
        .unwrap()
        .user;
    let view = svc.resign(&at(alice()), Some(game)).await.unwrap();
    let winners: HashSet<_> = view.winners().into_iter().collect();
    let losers: HashSet<_> = HashSet::from([UserId(1), partner]);
    assert_eq!(winners.len(), 2);
    assert!(winners.is_disjoint(&losers));
}

async fn the_game_is_found_from_the_channel_when_not_named(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    assert_eq!(
        svc.play(&at(alice()), None, act("K10", 19), None)
            .await
            .unwrap_err(),
        ServiceError::NoActiveGame
    );
    let (g1, first, _) = start_two(svc, "gomoku").await;
    let played = svc.play(&first, None, act("H8", 15), None).await.unwrap();
    assert_eq!(played.view.id, g1.id);

    // A second game of Alice's in the same channel makes it ambiguous for her only.
    let c = svc
        .challenge(&at(alice()), request(Some(carol()), "gomoku"))
        .await
        .unwrap();
    let g2 = svc.accept(&at(carol()), c.id).await.unwrap().game.unwrap();
    assert_eq!(
        svc.resolve_game(&at(alice()), None).await.unwrap_err(),
        ServiceError::Ambiguous(vec![g1.id, g2.id])
    );
    assert_eq!(svc.resolve_game(&at(carol()), None).await.unwrap(), g2.id);
    assert_eq!(
        svc.resolve_game(&at(alice()), Some(g2.id)).await.unwrap(),
        g2.id
    );
    // Elsewhere Alice has none.
    assert_eq!(
        svc.resolve_game(&at_channel(200, alice()), None)
            .await
            .unwrap_err(),
        ServiceError::NoActiveGame
    );

    // The game's thread is its home: there, it is found without a number.
    svc.set_game_thread(g2.id, ChannelId(300)).await.unwrap();
    assert_eq!(
        svc.resolve_game(&at_channel(300, alice()), None)
            .await
            .unwrap(),
        g2.id
    );
    let view = svc.game(GuildId(GUILD), g2.id).await.unwrap();
    assert_eq!(view.thread, Some(ChannelId(300)));
    assert_eq!(view.home(), ChannelId(300));
    // A spectator in the thread sees that game's board.
    assert_eq!(
        svc.board(&at_channel(300, erin()), None).await.unwrap().id,
        g2.id
    );
    assert_eq!(
        svc.board(&at(erin()), None).await.unwrap_err(),
        ServiceError::Ambiguous(vec![g1.id, g2.id])
    );
    assert_eq!(
        svc.set_game_thread(GameId(999), ChannelId(1))
            .await
            .unwrap_err(),
        ServiceError::NoSuchGame
    );
    svc.set_board_message(g2.id, ChannelId(300), MessageId(77))
        .await
        .unwrap();
    assert_eq!(
        svc.game(GuildId(GUILD), g2.id).await.unwrap().board_message,
        Some((ChannelId(300), MessageId(77)))
    );
}

async fn a_members_active_games_are_listed_with_their_turn_first(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let mut made = Vec::new();
    for opponent in [bob(), carol(), dave()] {
        let mut r = request(Some(opponent.clone()), "gomoku");
        r.time = Some(TimeControl::DaysPerMove(2));
        let c = svc.challenge(&at(alice()), r).await.unwrap();
        let g = svc.accept(&at(opponent), c.id).await.unwrap().game.unwrap();
        made.push(g);
    }
    // Make the first move in every game where Alice is seat 1: then it is not her turn.
    for g in &made {
        let seat1 = seat_actor(g, 1);
        env.clock.advance(Duration::from_secs(60));
        svc.play(&seat1, Some(g.id), act("H8", 15), None)
            .await
            .unwrap();
    }
    let list = svc.active_games(GuildId(GUILD), UserId(1)).await.unwrap();
    assert_eq!(list.len(), 3);
    let firsts: Vec<bool> = list.iter().map(|g| g.your_turn).collect();
    let mut sorted = firsts.clone();
    sorted.sort_by_key(|t| !t);
    assert_eq!(firsts, sorted, "her turn first");
    for entry in &list {
        let g = made.iter().find(|g| g.id == entry.id).unwrap();
        let seat2 = g.seats.iter().find(|s| s.seat == 2).unwrap().user;
        assert_eq!(entry.to_act, Some(seat2));
        assert_eq!(entry.your_turn, seat2 == UserId(1));
        assert_eq!(entry.ply, 1);
        assert_eq!(entry.players.len(), 2);
        assert!(entry.deadline.is_some());
        assert_eq!(entry.time, TimeControl::DaysPerMove(2));
    }
    // Within one group, nearer deadlines first.
    for pair in list.windows(2) {
        if pair[0].your_turn == pair[1].your_turn {
            assert!(pair[0].deadline <= pair[1].deadline);
        }
    }
    assert_eq!(
        svc.active_games(GuildId(GUILD), UserId(2))
            .await
            .unwrap()
            .len(),
        1
    );
    assert!(
        svc.active_games(GuildId(11), UserId(1))
            .await
            .unwrap()
            .is_empty()
    );
}

async fn each_move_moves_the_deadline_and_overdue_games_are_claimed_once_per_lease(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let mut r = request(Some(bob()), "gomoku");
    r.time = Some(TimeControl::DaysPerMove(1));
    let c = svc.challenge(&at(alice()), r).await.unwrap();
    let game = svc.accept(&at(bob()), c.id).await.unwrap().game.unwrap();
    let day = Duration::from_secs(86_400);
    assert_eq!(game.deadline, Some(T0.plus(day)));
    env.clock.advance(Duration::from_secs(3600));
    let played = svc
        .play(&seat_actor(&game, 1), Some(game.id), act("H8", 15), None)
        .await
        .unwrap();
    let due = T0.plus(Duration::from_secs(3600)).plus(day);
    assert_eq!(played.view.deadline, Some(due));
    assert!(
        svc.claim_overdue_games(Duration::from_secs(60), 10)
            .await
            .unwrap()
            .is_empty()
    );

    env.clock.advance(day);
    let lease = Duration::from_secs(600);
    assert_eq!(
        svc.claim_overdue_games(lease, 10).await.unwrap(),
        vec![(game.id, due)]
    );
    assert!(
        svc.claim_overdue_games(lease, 10).await.unwrap().is_empty(),
        "leased to the first sweep"
    );
    env.clock.advance(lease);
    assert_eq!(svc.claim_overdue_games(lease, 10).await.unwrap().len(), 1);
    // A move clears the lease and moves the deadline.
    svc.play(&seat_actor(&game, 2), Some(game.id), act("A1", 15), None)
        .await
        .unwrap();
    assert!(svc.claim_overdue_games(lease, 10).await.unwrap().is_empty());
}

async fn display_names_follow_the_latest_calls(db: TestDb) {
    let mut env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "gomoku").await;
    let renamed = UserInfo::new(first.user.id.0, "New Name");
    let played = env
        .svc
        .play(&at(renamed), Some(game.id), act("H8", 15), None)
        .await
        .unwrap();
    assert_eq!(played.view.seat_of(first.user.id).unwrap().name, "New Name");
    env.restart().await;
    let view = env.svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(view.seat_of(first.user.id).unwrap().name, "New Name");
    assert_eq!(view.seat_of(second.user.id).unwrap().name, second.user.name);
}

async fn preferences_default_and_round_trip(db: TestDb) {
    let mut env = Env::new(db).await;
    let svc = &env.svc;
    assert_eq!(
        svc.preferences(UserId(1)).await.unwrap(),
        Preferences::default()
    );
    let defaults = Preferences::default();
    assert!(!defaults.confirm_move && defaults.highlight_last_move && defaults.show_coordinates);
    assert!(
        defaults.show_forbidden,
        "Renju's forbidden points are marked by default"
    );
    let mine = Preferences {
        confirm_move: true,
        highlight_last_move: false,
        show_coordinates: false,
        show_forbidden: false,
        language: Some("es".into()),
        notify: Notify::DirectMessage,
    };
    assert_eq!(
        svc.set_preferences(UserId(1), mine.clone()).await.unwrap(),
        mine
    );
    let blank = Preferences {
        language: Some("  ".into()),
        notify: Notify::Off,
        ..Preferences::default()
    };
    let saved = svc.set_preferences(UserId(2), blank).await.unwrap();
    assert_eq!(saved.language, None);
    env.restart().await;
    assert_eq!(env.svc.preferences(UserId(1)).await.unwrap(), mine);
    assert_eq!(
        env.svc.preferences(UserId(2)).await.unwrap().notify,
        Notify::Off
    );
    assert_eq!(
        env.svc.preferences(UserId(3)).await.unwrap(),
        Preferences::default()
    );
}

async fn huge_discord_ids_survive_storage(db: TestDb) {
    let env = Env::new(db).await;
    let a = user(u64::MAX, "Max");
    let b = user(1 << 63, "Half");
    let actor = gomoku_bot::service::Actor::new(u64::MAX - 1, u64::MAX - 2, a.clone());
    let c = env
        .svc
        .challenge(&actor, request(Some(b.clone()), "gomoku"))
        .await
        .unwrap();
    assert_eq!(c.guild, GuildId(u64::MAX - 1));
    assert_eq!(c.challenger, a.id);
    assert_eq!(c.opponent, Some(b.id));
    let accepter = gomoku_bot::service::Actor::new(u64::MAX - 1, u64::MAX - 2, b.clone());
    let game = env.svc.accept(&accepter, c.id).await.unwrap().game.unwrap();
    assert_eq!(game.channel, ChannelId(u64::MAX - 2));
    let list = env
        .svc
        .active_games(GuildId(u64::MAX - 1), a.id)
        .await
        .unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(env.svc.resolve_game(&actor, None).await.unwrap(), game.id);
}

both_stores!(
    a_named_challenge_accepted_starts_a_game_with_both_seated,
    only_the_challenged_member_may_accept_or_decline_and_only_the_challenger_cancel,
    an_open_challenge_is_taken_by_the_first_human_who_is_not_the_challenger,
    challenges_to_yourself_to_bots_and_beyond_the_pair_limit_are_refused,
    the_pair_limit_is_configurable,
    challenges_expire_after_their_time_and_the_sweep_reports_each_once,
    the_challenge_lifetime_is_configurable,
    challenge_messages_are_recorded_and_unknown_or_foreign_challenges_are_refused,
    guild_defaults_fill_in_rules_and_time_control,
    a_three_player_lobby_fills_up_and_starts_with_seats_drawn_and_recorded,
    seat_draws_vary,
    members_may_leave_a_lobby_and_its_creator_leaving_cancels_it,
    moves_are_checked_for_turn_participation_legality_and_staleness,
    moves_as_typed_are_read_against_the_games_board,
    a_five_in_a_row_ends_the_game_and_later_moves_are_refused,
    captures_are_counted_in_the_state,
    swap2_choices_are_played_by_the_seat_that_must_choose,
    resigning_gives_the_win_to_the_opponent,
    in_multiplayer_a_resignation_ends_the_game_for_the_other_sides,
    the_game_is_found_from_the_channel_when_not_named,
    a_members_active_games_are_listed_with_their_turn_first,
    each_move_moves_the_deadline_and_overdue_games_are_claimed_once_per_lease,
    display_names_follow_the_latest_calls,
    preferences_default_and_round_trip,
    huge_discord_ids_survive_storage,
);
