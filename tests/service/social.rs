//! Between the players: take-backs, draw offers and rematches, through the service with a
//! manual clock and real SQLite files.

use gomoku_bot::rules::{Action, Colours, Point};
use gomoku_bot::service::{
    Actor, ChallengeStatus, GameId, GameResult, GameStatus, GameView, GuildId, OfferError,
    OfferStatus, Outcome, ResultReason, ServiceError, UserId,
};

use gomoku_bot::store::{Backend, ChannelId, NewChallenge, TimeControl};

use crate::common::*;

fn pt(name: &str) -> Point {
    Point::parse(name, 19).expect("a point")
}

async fn play(env: &Env, who: &Actor, game: GameId, token: &str) -> GameView {
    env.svc
        .play_token(who, Some(game), token, None)
        .await
        .unwrap_or_else(|e| panic!("{token}: {e}"))
        .view
}

fn offer_err(e: ServiceError) -> OfferError {
    match e {
        ServiceError::Offer(o) => o,
        other => panic!("expected an offer error, got {other:?}"),
    }
}

async fn an_accepted_take_back_removes_the_requesters_stone_and_gives_them_the_turn_again(
    db: TestDb,
) {
    let env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "gomoku").await;
    play(&env, &first, game.id, "H8").await;
    let made = env.svc.offer_undo(&first, Some(game.id)).await.unwrap();
    assert_eq!(
        made.taken_back,
        vec![Action::Place(Point::parse("H8", 15).unwrap())]
    );
    assert_eq!(made.answerers, vec![second.user.id]);
    assert_eq!(made.offer.ply, 1);
    assert_eq!(made.offer.status, OfferStatus::Open);

    let answered = env
        .svc
        .answer_offer(&second, made.offer.id, true)
        .await
        .unwrap();
    assert_eq!(
        answered.outcome,
        Outcome::Accepted {
            taken_back: made.taken_back.clone()
        }
    );
    assert_eq!(answered.offer.status, OfferStatus::Accepted);
    let view = answered.view;
    assert_eq!(view.ply, 2, "the take-back is a new row of the log");
    assert!(view.game.record().is_empty());
    assert_eq!(view.game.stone_count(), 0);
    assert_eq!(view.to_act().map(|s| s.user), Some(first.user.id));
    // The log holds the move and the take-back, untouched.
    let stored = env.svc.store().load_game(game.id).await.unwrap().unwrap();
    let tokens: Vec<&str> = stored.actions.iter().map(|a| a.token.as_str()).collect();
    assert_eq!(tokens, ["H8", "undo:1"]);
    // The requester plays again, elsewhere; answering the closed offer is refused.
    let after = play(&env, &first, game.id, "J9").await;
    assert_eq!(after.game.record().len(), 1);
    assert_eq!(
        offer_err(
            env.svc
                .answer_offer(&second, made.offer.id, true)
                .await
                .unwrap_err()
        ),
        OfferError::Closed(OfferStatus::Accepted)
    );
}

async fn a_take_back_after_the_opponents_reply_takes_back_both_moves(db: TestDb) {
    let env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "gomoku").await;
    play(&env, &first, game.id, "H8").await;
    play(&env, &second, game.id, "A1").await;
    play(&env, &first, game.id, "J9").await;
    play(&env, &second, game.id, "A2").await;
    let made = env.svc.offer_undo(&first, Some(game.id)).await.unwrap();
    let p = |n| Action::Place(Point::parse(n, 15).unwrap());
    assert_eq!(made.taken_back, vec![p("J9"), p("A2")]);
    let answered = env
        .svc
        .answer_offer(&second, made.offer.id, true)
        .await
        .unwrap();
    assert_eq!(answered.view.game.record(), &[p("H8"), p("A1")]);
    assert_eq!(answered.view.to_act().map(|s| s.user), Some(first.user.id));
}

async fn a_declined_take_back_changes_nothing_and_cannot_be_accepted_later(db: TestDb) {
    let env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "gomoku").await;
    let before = play(&env, &first, game.id, "H8").await;
    let made = env.svc.offer_undo(&first, Some(game.id)).await.unwrap();
    let answered = env
        .svc
        .answer_offer(&second, made.offer.id, false)
        .await
        .unwrap();
    assert_eq!(answered.outcome, Outcome::Declined);
    assert_eq!(answered.offer.status, OfferStatus::Declined);
    assert_eq!(answered.view, before);
    assert_eq!(
        offer_err(
            env.svc
                .answer_offer(&second, made.offer.id, true)
                .await
                .unwrap_err()
        ),
        OfferError::Closed(OfferStatus::Declined)
    );
    // A new request may follow a refusal.
    assert!(env.svc.offer_undo(&first, Some(game.id)).await.is_ok());
}

async fn the_next_move_makes_an_offer_expire(db: TestDb) {
    let env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "gomoku").await;
    play(&env, &first, game.id, "H8").await;
    let undo = env.svc.offer_undo(&first, Some(game.id)).await.unwrap();
    let draw = env.svc.offer_draw(&first, Some(game.id)).await.unwrap();
    play(&env, &second, game.id, "A1").await;
    // The sweep after a move reports both, once.
    let stale = env.svc.expire_stale_offers(game.id).await.unwrap();
    let ids: Vec<_> = stale.iter().map(|o| o.id).collect();
    assert_eq!(ids, vec![undo.offer.id, draw.offer.id]);
    assert!(stale.iter().all(|o| o.status == OfferStatus::Expired));
    assert!(
        env.svc
            .expire_stale_offers(game.id)
            .await
            .unwrap()
            .is_empty()
    );
    for id in ids {
        assert_eq!(
            offer_err(env.svc.answer_offer(&second, id, true).await.unwrap_err()),
            OfferError::Expired
        );
    }
    // An offer never swept is found stale when clicked, and closed then.
    let again = env.svc.offer_draw(&second, Some(game.id)).await.unwrap();
    let view = play(&env, &first, game.id, "J9").await;
    assert_eq!(
        offer_err(
            env.svc
                .answer_offer(&first, again.offer.id, true)
                .await
                .unwrap_err()
        ),
        OfferError::Expired
    );
    assert_eq!(
        env.svc
            .offer_info(GuildId(GUILD), again.offer.id)
            .await
            .unwrap()
            .status,
        OfferStatus::Expired
    );
    assert_eq!(
        env.svc.game(GuildId(GUILD), game.id).await.unwrap(),
        view,
        "nothing was taken back"
    );
}

async fn a_take_back_restores_captured_stones_and_survives_a_restart(db: TestDb) {
    let mut env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "pente").await;
    for (who, p) in [
        (&first, "K10"),
        (&second, "L10"),
        (&first, "A1"),
        (&second, "M10"),
    ] {
        play(&env, who, game.id, p).await;
    }
    let captured = play(&env, &first, game.id, "N10").await;
    assert_eq!(captured.game.stone_at(pt("L10")), None);
    assert_eq!(captured.game.captured()[0], 2);
    // Made before the restart, accepted after it.
    let made = env.svc.offer_undo(&first, Some(game.id)).await.unwrap();
    env.restart().await;
    let answered = env
        .svc
        .answer_offer(&second, made.offer.id, true)
        .await
        .unwrap();
    let view = answered.view;
    assert_eq!(view.game.stone_at(pt("L10")), Some(2));
    assert_eq!(view.game.stone_at(pt("M10")), Some(2));
    assert_eq!(view.game.stone_at(pt("N10")), None);
    assert_eq!(view.game.captured(), [0, 0, 0, 0]);
    assert_eq!(view.to_act().map(|s| s.user), Some(first.user.id));

    env.restart().await;
    let reloaded = env.svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(
        reloaded, view,
        "the taken-back position is rebuilt from the log"
    );
    // Play goes on from there: the capture can be made again.
    let again = play(&env, &first, game.id, "N10").await;
    assert_eq!(again.game.captured()[0], 2);
}

async fn an_accepted_draw_ends_the_game_as_a_draw(db: TestDb) {
    let mut env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "gomoku").await;
    play(&env, &first, game.id, "H8").await;
    // Either player may offer, on their turn or not.
    let made = env.svc.offer_draw(&first, Some(game.id)).await.unwrap();
    assert!(made.taken_back.is_empty());
    let answered = env
        .svc
        .answer_offer(&second, made.offer.id, true)
        .await
        .unwrap();
    let draw = GameStatus::Finished(GameResult {
        winners: Colours::EMPTY,
        reason: ResultReason::DrawAgreed,
    });
    assert_eq!(answered.view.status, draw);
    assert!(answered.view.winners().is_empty());
    assert_eq!(answered.view.to_act(), None);
    assert_eq!(
        env.svc
            .play_token(&first, Some(game.id), "A1", None)
            .await
            .unwrap_err(),
        ServiceError::GameOver
    );
    env.restart().await;
    let after = env.svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(after.status, draw);
    assert_eq!(after.game.record().len(), 1);
    assert!(
        env.svc
            .active_games(GuildId(GUILD), first.user.id)
            .await
            .unwrap()
            .is_empty()
    );
}

async fn draws_are_refused_in_multiplayer_and_take_backs_need_every_other_player(db: TestDb) {
    let env = Env::new(db).await;
    let lobby = env
        .svc
        .challenge(&at(alice()), request(None, "gomoku players=3"))
        .await
        .unwrap();
    env.svc.accept(&at(bob()), lobby.id).await.unwrap();
    let game = env
        .svc
        .accept(&at(carol()), lobby.id)
        .await
        .unwrap()
        .game
        .unwrap();
    let seat = |n| seat_actor(&game, n);
    assert_eq!(
        offer_err(
            env.svc
                .offer_draw(&seat(1), Some(game.id))
                .await
                .unwrap_err()
        ),
        OfferError::DrawTwoPlayersOnly
    );
    play(&env, &seat(1), game.id, "H8").await;
    play(&env, &seat(2), game.id, "A1").await;
    let made = env.svc.offer_undo(&seat(1), Some(game.id)).await.unwrap();
    assert_eq!(made.taken_back.len(), 2);
    assert_eq!(made.answerers.len(), 2);
    let first = env
        .svc
        .answer_offer(&seat(3), made.offer.id, true)
        .await
        .unwrap();
    assert_eq!(
        first.outcome,
        Outcome::Waiting {
            waiting: vec![seat(2).user.id]
        }
    );
    assert_eq!(first.view.game.record().len(), 2, "nothing happened yet");
    let last = env
        .svc
        .answer_offer(&seat(2), made.offer.id, true)
        .await
        .unwrap();
    assert!(matches!(last.outcome, Outcome::Accepted { .. }));
    assert!(last.view.game.record().is_empty());
    assert_eq!(last.view.to_act().map(|s| s.seat), Some(1));
}

async fn offers_are_refused_to_outsiders_and_to_their_own_author(db: TestDb) {
    let env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "gomoku").await;
    let outsider = at(carol());
    assert_eq!(
        env.svc
            .offer_undo(&outsider, Some(game.id))
            .await
            .unwrap_err(),
        ServiceError::NotAParticipant
    );
    assert_eq!(
        env.svc
            .offer_draw(&outsider, Some(game.id))
            .await
            .unwrap_err(),
        ServiceError::NotAParticipant
    );
    // Nothing to take back before one's first move.
    assert_eq!(
        offer_err(
            env.svc
                .offer_undo(&second, Some(game.id))
                .await
                .unwrap_err()
        ),
        OfferError::NothingToUndo
    );
    play(&env, &first, game.id, "H8").await;
    let made = env.svc.offer_undo(&first, Some(game.id)).await.unwrap();
    // The same offer twice is refused while the first is open.
    assert_eq!(
        offer_err(env.svc.offer_undo(&first, Some(game.id)).await.unwrap_err()),
        OfferError::Pending(made.offer.id)
    );
    for accept in [true, false] {
        assert_eq!(
            env.svc
                .answer_offer(&outsider, made.offer.id, accept)
                .await
                .unwrap_err(),
            ServiceError::NotAParticipant
        );
    }
    assert_eq!(
        offer_err(
            env.svc
                .answer_offer(&first, made.offer.id, true)
                .await
                .unwrap_err()
        ),
        OfferError::OwnOffer
    );
    // Its author may withdraw it.
    let withdrawn = env
        .svc
        .answer_offer(&first, made.offer.id, false)
        .await
        .unwrap();
    assert_eq!(withdrawn.outcome, Outcome::Withdrawn);
    assert_eq!(
        offer_err(
            env.svc
                .answer_offer(&second, made.offer.id, true)
                .await
                .unwrap_err()
        ),
        OfferError::Closed(OfferStatus::Withdrawn)
    );
    // Another guild does not see the offer.
    assert_eq!(
        offer_err(
            env.svc
                .answer_offer(&Actor::new(GUILD + 1, CHANNEL, bob()), made.offer.id, true)
                .await
                .unwrap_err()
        ),
        OfferError::NoSuchOffer
    );
    assert_eq!(
        offer_err(
            env.svc
                .answer_offer(&second, gomoku_bot::service::OfferId(999), true)
                .await
                .unwrap_err()
        ),
        OfferError::NoSuchOffer
    );
}

async fn a_rematch_has_the_same_rules_and_the_seats_swapped(db: TestDb) {
    let mut env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "pente size=13").await;
    // Not while the game is on.
    assert_eq!(
        offer_err(env.svc.propose_rematch(&first, game.id).await.unwrap_err()),
        OfferError::GameNotOver
    );
    env.svc.resign(&second, Some(game.id)).await.unwrap();
    assert_eq!(
        env.svc
            .propose_rematch(&at(carol()), game.id)
            .await
            .unwrap_err(),
        ServiceError::NotAParticipant
    );
    // The loser proposes; the proposal is a challenge to the winner.
    let c = env.svc.propose_rematch(&second, game.id).await.unwrap();
    assert_eq!(c.challenger, second.user.id);
    assert_eq!(c.opponent, Some(first.user.id));
    assert_eq!(c.rules, *game.game.rules());
    assert_eq!(c.status, ChallengeStatus::Open);
    assert_eq!(env.svc.rematch_of(c.id).await.unwrap(), Some(game.id));
    assert_eq!(
        offer_err(env.svc.propose_rematch(&first, game.id).await.unwrap_err()),
        OfferError::RematchPending(c.id)
    );
    // The proposer cannot accept their own proposal.
    assert_eq!(
        env.svc.accept(&second, c.id).await.unwrap_err(),
        ServiceError::ChallengeSelf
    );
    env.restart().await;
    let accepted = env.svc.accept(&first, c.id).await.unwrap();
    let new = accepted.game.expect("the rematch starts");
    assert_ne!(new.id, game.id);
    assert_eq!(new.game.rules(), game.game.rules());
    let seat_of = |v: &GameView, u: UserId| v.seat_of(u).unwrap().seat;
    assert_eq!(seat_of(&new, first.user.id), 2);
    assert_eq!(seat_of(&new, second.user.id), 1);
    assert_eq!(new.to_act().map(|s| s.user), Some(second.user.id));
    assert_eq!(
        offer_err(env.svc.propose_rematch(&first, game.id).await.unwrap_err()),
        OfferError::AlreadyRematched(Some(new.id))
    );
    // The rematch of the rematch swaps back.
    let third = at(gomoku_bot::service::UserInfo::new(first.user.id.0, "Again"));
    env.svc.resign(&third, Some(new.id)).await.unwrap();
    let c2 = env.svc.propose_rematch(&third, new.id).await.unwrap();
    let again = env.svc.accept(&second, c2.id).await.unwrap().game.unwrap();
    assert_eq!(seat_of(&again, first.user.id), 1);
    assert_eq!(seat_of(&again, second.user.id), 2);
}

/// The time controls a rematch must keep: live, correspondence and none.
const REMATCH_TIMES: [TimeControl; 3] = [
    TimeControl::MinutesPerMove(5),
    TimeControl::DaysPerMove(3),
    TimeControl::Unlimited,
];

/// The store writes a rematch's challenge with the time control it is given, whichever
/// column that is (a rematch once lost its minutes per move and read back as unlimited).
async fn a_rematch_is_stored_with_its_time_control(db: TestDb) {
    let env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "gomoku").await;
    env.svc.resign(&first, Some(game.id)).await.unwrap();
    let store = env.svc.store();
    for time in REMATCH_TIMES {
        let new = NewChallenge {
            guild: GuildId(GUILD),
            channel: ChannelId(CHANNEL),
            challenger: first.user.clone(),
            opponent: Some(second.user.clone()),
            rules: *game.game.rules(),
            time,
            rated: false,
            now: T0,
            expires_at: T0.plus(std::time::Duration::from_secs(3600)),
        };
        let id = store.insert_rematch(&new, game.id).await.unwrap();
        let c = store.challenge(id).await.unwrap().expect("the rematch");
        assert_eq!(c.time, time, "the rematch's time control");
        assert_eq!(c.rules, *game.game.rules());
        assert_eq!(c.status, ChallengeStatus::Open);
        assert_eq!(c.members, vec![first.user.id]);
        assert_eq!(store.rematch_of(id).await.unwrap(), Some(game.id));
    }
}

/// Proposed through the service and accepted, a rematch is played with the time control
/// of the game it is the rematch of.
async fn a_rematch_keeps_the_games_time_control(db: TestDb) {
    let env = Env::new(db).await;
    let (first, second) = (at(alice()), at(bob()));
    for time in REMATCH_TIMES {
        let mut r = request(Some(bob()), "gomoku");
        r.time = Some(time);
        let c = env.svc.challenge(&first, r).await.unwrap();
        let game = env.svc.accept(&second, c.id).await.unwrap().game.unwrap();
        assert_eq!(game.time, time);
        env.svc.resign(&first, Some(game.id)).await.unwrap();
        let c = env.svc.propose_rematch(&second, game.id).await.unwrap();
        assert_eq!(c.time, time, "the proposed rematch's time control");
        let new = env.svc.accept(&first, c.id).await.unwrap().game.unwrap();
        assert_eq!(new.time, time, "the rematch game's time control");
        env.svc.resign(&first, Some(new.id)).await.unwrap();
    }
}

async fn a_declined_or_expired_rematch_can_be_proposed_again_and_three_players_have_none(
    db: TestDb,
) {
    let env = Env::new(db).await;
    let (game, first, second) = start_two(&env.svc, "gomoku").await;
    env.svc.resign(&first, Some(game.id)).await.unwrap();
    let c = env.svc.propose_rematch(&first, game.id).await.unwrap();
    env.svc.decline(&second, c.id).await.unwrap();
    let c2 = env.svc.propose_rematch(&second, game.id).await.unwrap();
    env.clock.advance(env.svc.config().challenge_ttl);
    let c3 = env.svc.propose_rematch(&first, game.id).await.unwrap();
    assert!(c3.id.0 > c2.id.0);

    let lobby = env
        .svc
        .challenge(&at(alice()), request(None, "gomoku players=3"))
        .await
        .unwrap();
    env.svc.accept(&at(dave()), lobby.id).await.unwrap();
    let three = env
        .svc
        .accept(&at(erin()), lobby.id)
        .await
        .unwrap()
        .game
        .unwrap();
    env.svc.resign(&at(alice()), Some(three.id)).await.unwrap();
    assert_eq!(
        offer_err(
            env.svc
                .propose_rematch(&at(dave()), three.id)
                .await
                .unwrap_err()
        ),
        OfferError::RematchTwoPlayersOnly
    );
}

/// One step of a random game: play the `pick`-th legal action, then maybe have the player who
/// just acted (`undo_mover`) or the other one (`undo_other`) ask for a take-back, accepted.
#[derive(Clone, Debug)]
struct Step {
    pick: usize,
    undo_mover: bool,
    undo_other: bool,
}

fn steps() -> impl proptest::strategy::Strategy<Value = Vec<Step>> {
    use proptest::prelude::*;
    prop::collection::vec(
        (
            any::<usize>(),
            prop::bool::weighted(0.25),
            prop::bool::weighted(0.15),
        )
            .prop_map(|(pick, undo_mover, undo_other)| Step {
                pick,
                undo_mover,
                undo_other,
            }),
        1..30,
    )
}

/// The model of a take-back by `seat`: the record cut back to before that seat's last action.
fn model_take_back(game: &gomoku_bot::rules::Game, seat: u8) -> Option<gomoku_bot::rules::Game> {
    use gomoku_bot::rules::Game;
    let mut replay = Game::new(*game.rules());
    let mut cut = None;
    for (i, a) in game.record().iter().enumerate() {
        if replay.seat_to_act() == Some(seat) {
            cut = Some(i);
        }
        replay.apply(*a).ok()?;
    }
    Game::from_record(*game.rules(), &game.record()[..cut?]).ok()
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 10, ..Default::default() })]

    /// Whatever moves and take-backs happen, the service's position is the rules core's
    /// position for the record without the taken-back actions (stones, captures, turn), and
    /// a restart rebuilds exactly the same game from the append-only log.
    #[test]
    fn take_backs_leave_the_position_of_the_shortened_record_on_sqlite(spec in take_back_specs(), script in steps()) {
        take_backs(Backend::Sqlite, spec, &script);
    }

    #[test]
    fn take_backs_leave_the_position_of_the_shortened_record_on_postgres(spec in take_back_specs(), script in steps()) {
        take_backs(Backend::Postgres, spec, &script);
    }
}

fn take_back_specs() -> impl proptest::strategy::Strategy<Value = &'static str> {
    proptest::sample::select(vec![
        "pente size=9 opening=none",
        "keryo size=9 opening=none",
        "pente size=9 opening=swap2",
    ])
}

/// One case of the take-back property on one store.
fn take_backs(backend: Backend, spec: &str, script: &[Step]) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let Some(db) = TestDb::of(
            backend,
            "social::take_backs_leave_the_position_of_the_shortened_record",
        )
        .await
        else {
            return;
        };
        let mut env = Env::new(db).await;
        let (view, first, second) = start_two(&env.svc, spec).await;
        let actor = |seat: u8| {
            if seat == 1 {
                first.clone()
            } else {
                second.clone()
            }
        };
        let mut current = view;
        for step in script {
            let Some(mover) = current.game.seat_to_act() else {
                break;
            };
            if current.is_over() {
                break;
            }
            let legal = current.game.legal_actions();
            let action = legal[step.pick % legal.len()];
            current = env
                .svc
                .play(&actor(mover), Some(current.id), action, Some(current.ply))
                .await
                .unwrap()
                .view;
            if current.is_over() {
                break;
            }
            for (wanted, asker) in [(step.undo_mover, mover), (step.undo_other, 3 - mover)] {
                if !wanted {
                    continue;
                }
                let expected = model_take_back(&current.game, asker);
                let made = env.svc.offer_undo(&actor(asker), Some(current.id)).await;
                let Some(expected) = expected else {
                    assert_eq!(
                        made.unwrap_err(),
                        ServiceError::Offer(OfferError::NothingToUndo)
                    );
                    continue;
                };
                let made = made.unwrap();
                let answered = env
                    .svc
                    .answer_offer(&actor(3 - asker), made.offer.id, true)
                    .await
                    .unwrap();
                current = answered.view;
                assert_eq!(current.game.record(), expected.record());
                assert_eq!(current.game.stones(), expected.stones());
                assert_eq!(current.game.captured(), expected.captured());
                assert_eq!(current.game.seat_to_act(), expected.seat_to_act());
                assert_eq!(current.game.phase(), expected.phase());
                assert_eq!(current.game.seat_to_act(), Some(asker));
            }
        }
        env.restart().await;
        let rebuilt = env.svc.game(GuildId(GUILD), current.id).await.unwrap();
        assert_eq!(rebuilt, current);
    });
}

both_stores!(
    an_accepted_take_back_removes_the_requesters_stone_and_gives_them_the_turn_again,
    a_take_back_after_the_opponents_reply_takes_back_both_moves,
    a_declined_take_back_changes_nothing_and_cannot_be_accepted_later,
    the_next_move_makes_an_offer_expire,
    a_take_back_restores_captured_stones_and_survives_a_restart,
    an_accepted_draw_ends_the_game_as_a_draw,
    draws_are_refused_in_multiplayer_and_take_backs_need_every_other_player,
    offers_are_refused_to_outsiders_and_to_their_own_author,
    a_rematch_has_the_same_rules_and_the_seats_swapped,
    a_rematch_is_stored_with_its_time_control,
    a_rematch_keeps_the_games_time_control,
    a_declined_or_expired_rematch_can_be_proposed_again_and_three_players_have_none,
);
