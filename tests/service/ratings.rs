//! Ratings: Glicko-2 updates checked against an independent computation of Glickman's
//! algorithm, the games that do not count, and servers kept apart from the global ladder.

use std::f64::consts::PI;

use gomoku_bot::rules::Colours;
use gomoku_bot::service::{
    Actor, ChallengeRequest, ClockEvent, Family, GameId, GameOutcome, GameResult, GameView,
    GuildId, ResultReason, Service, ServiceConfig, TimeControl, Timestamp, UserId, UserInfo,
};
use gomoku_bot::store::{NewAction, Rating};

use crate::common::*;

/// Glicko-2 exactly as Glickman's paper (glicko.net/glicko/glicko2.pdf) describes it, written
/// independently of the crate the bot uses: one player, the games of one rating period as
/// `(opponent rating, opponent deviation, score)`, tau 0.5.
fn glicko2_reference(rating: f64, rd: f64, vol: f64, games: &[(f64, f64, f64)]) -> [f64; 3] {
    const SCALE: f64 = 173.7178;
    const TAU: f64 = 0.5;
    let mu = (rating - 1500.0) / SCALE;
    let phi = rd / SCALE;
    let g = |phi_j: f64| 1.0 / (1.0 + 3.0 * phi_j * phi_j / (PI * PI)).sqrt();
    let terms: Vec<(f64, f64, f64)> = games
        .iter()
        .map(|&(r, d, s)| {
            let (mu_j, phi_j) = ((r - 1500.0) / SCALE, d / SCALE);
            let e = 1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp());
            (g(phi_j), e, s)
        })
        .collect();
    let v = 1.0
        / terms
            .iter()
            .map(|(g, e, _)| g * g * e * (1.0 - e))
            .sum::<f64>();
    let sum: f64 = terms.iter().map(|(g, e, s)| g * (s - e)).sum();
    let delta = v * sum;
    let a = (vol * vol).ln();
    let f = |x: f64| {
        let ex = x.exp();
        ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex).powi(2))
            - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let (mut fa, mut fb) = (f(big_a), f(big_b));
    while (big_b - big_a).abs() > 1e-9 {
        let c = big_a + (big_a - big_b) * fa / (fb - fa);
        let fc = f(c);
        if fc * fb <= 0.0 {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = c;
        fb = fc;
    }
    let new_vol = (big_a / 2.0).exp();
    let phi_star = (phi * phi + new_vol * new_vol).sqrt();
    let new_phi = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let new_mu = mu + new_phi * new_phi * sum;
    [new_mu * SCALE + 1500.0, new_phi * SCALE, new_vol]
}

/// A rating as the reference computes with: (rating, deviation, volatility).
type R = [f64; 3];
const NEW: R = [1500.0, 350.0, 0.06];

/// Both players after one game, by the reference (each sees the other's rating before it).
fn one_game(a: R, b: R, score_a: f64) -> (R, R) {
    (
        glicko2_reference(a[0], a[1], a[2], &[(b[0], b[1], score_a)]),
        glicko2_reference(b[0], b[1], b[2], &[(a[0], a[1], 1.0 - score_a)]),
    )
}

fn close(stored: &Rating, expected: R) {
    assert!(
        (stored.rating - expected[0]).abs() < 1e-3
            && (stored.deviation - expected[1]).abs() < 1e-3
            && (stored.volatility - expected[2]).abs() < 1e-6,
        "stored {stored:?}, expected {expected:?}"
    );
}

#[test]
fn the_reference_reproduces_glickmans_example() {
    let [r, rd, vol] = glicko2_reference(
        1500.0,
        200.0,
        0.06,
        &[
            (1400.0, 30.0, 1.0),
            (1550.0, 100.0, 0.0),
            (1700.0, 300.0, 0.0),
        ],
    );
    assert!((r - 1464.06).abs() < 0.01, "{r}");
    assert!((rd - 151.52).abs() < 0.01, "{rd}");
    assert!((vol - 0.05999).abs() < 0.00001, "{vol}");
    // The crate the bot uses agrees with it on the same example.
    let player = skillratings::glicko2::Glicko2Rating {
        rating: 1500.0,
        deviation: 200.0,
        volatility: 0.06,
    };
    let opponent = |rating, deviation| skillratings::glicko2::Glicko2Rating {
        rating,
        deviation,
        volatility: 0.06,
    };
    let crate_says = skillratings::glicko2::glicko2_rating_period(
        &player,
        &[
            (opponent(1400.0, 30.0), skillratings::Outcomes::WIN),
            (opponent(1550.0, 100.0), skillratings::Outcomes::LOSS),
            (opponent(1700.0, 300.0), skillratings::Outcomes::LOSS),
        ],
        &skillratings::glicko2::Glicko2Config::new(),
    );
    assert!((crate_says.rating - r).abs() < 1e-3);
    assert!((crate_says.deviation - rd).abs() < 1e-3);
}

/// `a` challenges `b` to a game under `spec` in `guild`, rated or not; `b` accepts. Returns
/// the game and the actors of seat 1 and seat 2.
async fn start(
    svc: &Service,
    guild: u64,
    a: UserInfo,
    b: UserInfo,
    spec: &str,
    rated: bool,
) -> (GameView, Actor, Actor) {
    let request = ChallengeRequest {
        opponent: Some(b.clone()),
        rules: Some(rules(spec)),
        time: None,
        rated,
    };
    let c = svc
        .challenge(&Actor::new(guild, CHANNEL, a), request)
        .await
        .expect("challenge");
    let view = svc
        .accept(&Actor::new(guild, CHANNEL, b), c.id)
        .await
        .expect("accept")
        .game
        .expect("started");
    let seat = |n: u8| {
        let s = view.seats.iter().find(|s| s.seat == n).expect("seat");
        Actor::new(guild, CHANNEL, UserInfo::new(s.user.0, s.name.clone()))
    };
    let (one, two) = (seat(1), seat(2));
    (view, one, two)
}

/// Seat 1 wins a Gomoku game with a row H8-M8 after eight stones against seven.
const SEAT1_WINS: &str = "A1 O1 A3 O3 A5 O5 H8 O7 J8 O9 K8 O11 L8 O13 M8";
/// The same row, but after only five stones each side: too short to count.
const SHORT_WIN: &str = "H8 O1 J8 O3 K8 O5 L8 O7 M8";

async fn play_all(svc: &Service, id: GameId, seats: [&Actor; 2], moves: &str) -> GameView {
    let mut last = None;
    for (i, token) in moves.split_whitespace().enumerate() {
        let played = svc
            .play_token(seats[i % 2], Some(id), token, None)
            .await
            .unwrap_or_else(|e| panic!("{token}: {e}"));
        last = Some(played.view);
    }
    last.expect("at least one move")
}

async fn server_rating(svc: &Service, guild: u64, user: UserId, family: Family) -> Option<Rating> {
    let r = svc.ratings(GuildId(guild), user).await.unwrap();
    r.server.into_iter().find(|r| r.family == family)
}

async fn global_rating(svc: &Service, user: UserId, family: Family) -> Option<Rating> {
    let r = svc.ratings(GuildId(GUILD), user).await.unwrap();
    r.global.into_iter().find(|r| r.family == family)
}

async fn a_sequence_of_rated_games_follows_glicko2_in_each_server_and_across_servers(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    // Game 1, server 10: seat 1 wins by a row.
    let (g1, one, two) = start(svc, GUILD, alice(), bob(), "gomoku", true).await;
    let end = play_all(svc, g1.id, [&one, &two], SEAT1_WINS).await;
    assert!(end.is_over());
    let (w, l) = (one.user.id, two.user.id);
    let (w1, l1) = one_game(NEW, NEW, 1.0);
    close(
        &server_rating(svc, GUILD, w, Family::Gomoku).await.unwrap(),
        w1,
    );
    close(
        &server_rating(svc, GUILD, l, Family::Gomoku).await.unwrap(),
        l1,
    );
    close(&global_rating(svc, w, Family::Gomoku).await.unwrap(), w1);
    let won = server_rating(svc, GUILD, w, Family::Gomoku).await.unwrap();
    assert_eq!((won.games, won.wins, won.losses, won.draws), (1, 1, 0, 0));
    // The hand-checkable numbers: two newcomers, one win: 1500 -> 1662.31 and 1337.69, 290.32.
    assert!((won.rating - 1662.31).abs() < 0.01, "{won:?}");
    assert!((won.deviation - 290.32).abs() < 0.01, "{won:?}");

    // Game 2, same server: the game-1 winner resigns after six stones each (a loss).
    let (g2, one2, two2) = start(svc, GUILD, alice(), bob(), "gomoku", true).await;
    play_all(
        svc,
        g2.id,
        [&one2, &two2],
        "A1 O1 A3 O3 A5 O5 A7 O7 A9 O9 A11 O11",
    )
    .await;
    let resigner = if one2.user.id == w { &one2 } else { &two2 };
    svc.resign(resigner, Some(g2.id)).await.unwrap();
    let (w2, l2) = one_game(w1, l1, 0.0);
    close(
        &server_rating(svc, GUILD, w, Family::Gomoku).await.unwrap(),
        w2,
    );
    close(
        &server_rating(svc, GUILD, l, Family::Gomoku).await.unwrap(),
        l2,
    );

    // Game 3, another server, Carol against Alice: Alice's rating across all servers
    // changes, her rating in server 10 does not.
    let alice_server_before = server_rating(svc, GUILD, alice().id, Family::Gomoku)
        .await
        .unwrap();
    let alice_global_before = global_rating(svc, alice().id, Family::Gomoku)
        .await
        .unwrap();
    let (g3, one3, two3) = start(svc, 11, carol(), alice(), "gomoku", true).await;
    play_all(svc, g3.id, [&one3, &two3], SEAT1_WINS).await;
    let alice_score = if one3.user.id == alice().id { 1.0 } else { 0.0 };
    let a = alice_global_before;
    let (alice_after, carol_after) =
        one_game([a.rating, a.deviation, a.volatility], NEW, alice_score);
    close(
        &global_rating(svc, alice().id, Family::Gomoku)
            .await
            .unwrap(),
        alice_after,
    );
    assert_eq!(
        server_rating(svc, GUILD, alice().id, Family::Gomoku).await,
        Some(alice_server_before),
        "another server's game leaves this server's rating alone"
    );
    // In server 11 both started from scratch.
    let (alice_11, carol_11) = one_game(NEW, NEW, alice_score);
    close(
        &server_rating(svc, 11, alice().id, Family::Gomoku)
            .await
            .unwrap(),
        alice_11,
    );
    close(
        &server_rating(svc, 11, carol().id, Family::Gomoku)
            .await
            .unwrap(),
        carol_11,
    );
    close(
        &global_rating(svc, carol().id, Family::Gomoku)
            .await
            .unwrap(),
        carol_after,
    );
    // Carol has never played in server 10, and no one has a Pente rating.
    assert_eq!(
        server_rating(svc, GUILD, carol().id, Family::Gomoku).await,
        None
    );
    assert_eq!(global_rating(svc, alice().id, Family::Pente).await, None);

    // Histories show each game's change in the server's rating, latest first.
    let h = svc.history(GuildId(GUILD), w).await.unwrap();
    let ids: Vec<GameId> = h.iter().map(|e| e.game).collect();
    assert_eq!(ids, [g2.id, g1.id]);
    assert_eq!(h[0].outcome, GameOutcome::Lost);
    assert!(matches!(h[0].reason, ResultReason::Resignation { .. }));
    assert_eq!(h[1].outcome, GameOutcome::Won);
    let c1 = h[1].change.unwrap();
    assert_eq!(c1.family, Family::Gomoku);
    assert_eq!(c1.score, 1.0);
    assert!((c1.server.0 - 1500.0).abs() < 1e-9 && (c1.server.1 - w1[0]).abs() < 1e-3);
    let c2 = h[0].change.unwrap();
    assert!((c2.server.0 - w1[0]).abs() < 1e-3 && (c2.server.1 - w2[0]).abs() < 1e-3);
    assert_eq!(h[0].opponents.len(), 1);
    assert_eq!(h[0].opponents[0].user, l);
}

async fn the_leaderboard_ranks_a_servers_players_and_pages_past_the_end_show_the_last(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let empty = svc
        .leaderboard(GuildId(GUILD), Family::Gomoku, 1)
        .await
        .unwrap();
    assert_eq!((empty.page, empty.pages, empty.players), (1, 1, 0));
    assert!(empty.entries.is_empty() && !empty.has_next() && !empty.has_previous());
    let (g, one, two) = start(svc, GUILD, alice(), bob(), "gomoku", true).await;
    play_all(svc, g.id, [&one, &two], SEAT1_WINS).await;
    let board = svc
        .leaderboard(GuildId(GUILD), Family::Gomoku, 7)
        .await
        .unwrap();
    assert_eq!((board.page, board.pages, board.players), (1, 1, 2));
    let ranked: Vec<(u32, UserId)> = board.entries.iter().map(|r| (r.rank, r.user)).collect();
    assert_eq!(ranked, [(1, one.user.id), (2, two.user.id)]);
    assert_eq!(
        board.entries[0].name.as_deref(),
        Some(one.user.name.as_str())
    );
    // Other servers and families have their own boards.
    for (guild, family) in [(11, Family::Gomoku), (GUILD, Family::Pente)] {
        let other = svc.leaderboard(GuildId(guild), family, 1).await.unwrap();
        assert_eq!(other.players, 0, "{guild} {family}");
    }
}

async fn short_unrated_multiplayer_and_bot_games_leave_ratings_alone(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    // Too short: five stones each.
    let (g, one, two) = start(svc, GUILD, alice(), bob(), "gomoku", true).await;
    let end = play_all(svc, g.id, [&one, &two], SHORT_WIN).await;
    assert!(end.is_over());
    // Not rated.
    let (g, one, two) = start(svc, GUILD, alice(), bob(), "gomoku", false).await;
    play_all(svc, g.id, [&one, &two], SEAT1_WINS).await;
    // Against a bot: Bob's account turns out to be a bot (as the engine's seat is).
    let (g, one, two) = start(svc, GUILD, alice(), bob(), "gomoku", true).await;
    let bot = UserInfo {
        is_bot: true,
        ..bob()
    };
    svc.store()
        .remember_members(GuildId(GUILD), &[&bot], T0)
        .await
        .unwrap();
    play_all(svc, g.id, [&one, &two], SEAT1_WINS).await;
    // Three players, rated, long enough.
    let mut three = request(None, "gomoku players=3");
    three.rated = true;
    let lobby = svc.challenge(&at(alice()), three).await.unwrap();
    svc.accept(&at(carol()), lobby.id).await.unwrap();
    let started = svc.accept(&at(dave()), lobby.id).await.unwrap();
    let view = started.game.expect("full lobby starts");
    let seat = |n: u8| seat_actor(&view, n);
    let tokens = "A1 C1 E1 A3 C3 E3 A5 C5 E5 A7 C7 E7 A9 C9 E9 A11 C11 E11";
    for (i, t) in tokens.split(' ').enumerate() {
        let who = seat(u8::try_from(i % 3).unwrap() + 1);
        svc.play_token(&who, Some(view.id), t, None).await.unwrap();
    }
    svc.resign(&at(dave()), Some(view.id)).await.unwrap();

    for user in [alice(), bob(), carol(), dave()] {
        let r = svc.ratings(GuildId(GUILD), user.id).await.unwrap();
        assert!(
            r.server.is_empty() && r.global.is_empty(),
            "{user:?}: {r:?}"
        );
        for entry in svc.history(GuildId(GUILD), user.id).await.unwrap() {
            assert_eq!(entry.change, None, "{user:?} game {}", entry.game);
        }
    }
    assert_eq!(
        svc.history(GuildId(GUILD), alice().id).await.unwrap().len(),
        4
    );
    // The three-player game: Dave resigned, Alice and Carol share the win.
    let h = svc.history(GuildId(GUILD), carol().id).await.unwrap();
    assert_eq!(h[0].outcome, GameOutcome::Won);
    assert_eq!(h[0].opponents.len(), 2);
    assert_eq!(
        svc.history(GuildId(GUILD), dave().id).await.unwrap()[0].outcome,
        GameOutcome::Lost
    );
}

/// Appends one log row straight to the store, as the other ways of ending a game do.
async fn append(
    svc: &Service,
    game: GameId,
    ply: u32,
    seat: u8,
    token: &str,
    finished: Option<GameResult>,
) {
    svc.store()
        .append_action(&NewAction {
            game,
            ply,
            seat,
            token: token.to_string(),
            at: Timestamp(T0.0 + i64::from(ply)),
            to_act: finished.is_none().then_some(seat % 2 + 1),
            deadline: None,
            finished,
            rename: None,
            owed: gomoku_bot::store::Owed::Nothing,
            computer: false,
        })
        .await
        .unwrap();
}

async fn agreed_draws_and_timeouts_ending_in_append_action_are_rated_and_take_backs_do_not_count(
    db: TestDb,
) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let twelve = "A1 O1 A3 O3 A5 O5 A7 O7 A9 O9 A11 O11";
    // An agreed draw after six stones each: half a point each.
    let (g, one, two) = start(svc, GUILD, alice(), bob(), "gomoku", true).await;
    play_all(svc, g.id, [&one, &two], twelve).await;
    let draw = GameResult {
        winners: Colours::EMPTY,
        reason: ResultReason::DrawAgreed,
    };
    append(svc, g.id, 13, 1, "draw", Some(draw)).await;
    let (a, b) = one_game(NEW, NEW, 0.5);
    close(
        &server_rating(svc, GUILD, one.user.id, Family::Gomoku)
            .await
            .unwrap(),
        a,
    );
    close(
        &server_rating(svc, GUILD, two.user.id, Family::Gomoku)
            .await
            .unwrap(),
        b,
    );
    let drawn = server_rating(svc, GUILD, one.user.id, Family::Gomoku)
        .await
        .unwrap();
    assert_eq!((drawn.games, drawn.draws), (1, 1));
    assert_eq!(
        svc.history(GuildId(GUILD), one.user.id).await.unwrap()[0].outcome,
        GameOutcome::Drawn
    );

    // A timeout of seat 2 after six stones each: a loss for seat 2, at Pente.
    let (g, one, two) = start(svc, GUILD, alice(), bob(), "pente", true).await;
    play_all(
        svc,
        g.id,
        [&one, &two],
        "K10 A1 O10 A3 Q10 A5 S10 A7 S12 A9 S14 A11",
    )
    .await;
    let timeout = GameResult {
        winners: Colours::one(1),
        reason: ResultReason::Timeout { seat: 2 },
    };
    append(svc, g.id, 13, 2, "timeout", Some(timeout)).await;
    let (a, b) = one_game(NEW, NEW, 1.0);
    close(
        &server_rating(svc, GUILD, one.user.id, Family::Pente)
            .await
            .unwrap(),
        a,
    );
    close(
        &server_rating(svc, GUILD, two.user.id, Family::Pente)
            .await
            .unwrap(),
        b,
    );

    // Six stones each, but seat 2's sixth is taken back: five stones, the game does not count.
    let (g, one, two) = start(svc, GUILD, alice(), bob(), "gomoku-standard", true).await;
    play_all(svc, g.id, [&one, &two], twelve).await;
    append(svc, g.id, 13, 1, "undo:1", None).await;
    let resign = GameResult {
        winners: Colours::one(2),
        reason: ResultReason::Resignation { seat: 1 },
    };
    append(svc, g.id, 14, 1, "resign", Some(resign)).await;
    assert_eq!(
        server_rating(svc, GUILD, one.user.id, Family::GomokuStandard).await,
        None
    );
    assert_eq!(
        svc.history(GuildId(GUILD), one.user.id).await.unwrap()[0].change,
        None
    );
}

async fn real_take_backs_and_agreed_draws_through_the_service(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let twelve = "A1 O1 A3 O3 A5 O5 A7 O7 A9 O9 A11 O11";
    // Seat 2's sixth stone is taken back (offered and accepted), then seat 2 resigns:
    // five stones against six, the game does not count.
    let (g, one, two) = start(svc, GUILD, alice(), bob(), "gomoku", true).await;
    play_all(svc, g.id, [&one, &two], twelve).await;
    let made = svc.offer_undo(&two, Some(g.id)).await.unwrap();
    assert_eq!(made.taken_back.len(), 1);
    svc.answer_offer(&one, made.offer.id, true).await.unwrap();
    svc.resign(&two, Some(g.id)).await.unwrap();
    for user in [one.user.id, two.user.id] {
        let r = svc.ratings(GuildId(GUILD), user).await.unwrap();
        assert!(r.server.is_empty() && r.global.is_empty(), "{r:?}");
    }
    // An agreed draw after six stones each is rated as a draw.
    let (g, one, two) = start(svc, GUILD, alice(), bob(), "gomoku", true).await;
    play_all(svc, g.id, [&one, &two], twelve).await;
    let made = svc.offer_draw(&one, Some(g.id)).await.unwrap();
    svc.answer_offer(&two, made.offer.id, true).await.unwrap();
    let (a, b) = one_game(NEW, NEW, 0.5);
    close(
        &server_rating(svc, GUILD, one.user.id, Family::Gomoku)
            .await
            .unwrap(),
        a,
    );
    close(
        &global_rating(svc, two.user.id, Family::Gomoku)
            .await
            .unwrap(),
        b,
    );
    let h = svc.history(GuildId(GUILD), one.user.id).await.unwrap();
    assert_eq!(h[0].outcome, GameOutcome::Drawn);
    assert_eq!(h[0].reason, ResultReason::DrawAgreed);
    assert_eq!(h[1].change, None, "the game with the take-back");
}

async fn a_loss_on_time_from_the_clock_sweep_is_rated_as_a_loss(db: TestDb) {
    let env = Env::with_config(
        db,
        ServiceConfig {
            vacation_days_per_year: 0,
            ..config()
        },
    )
    .await;
    let svc = &env.svc;
    let mut r = request(Some(bob()), "gomoku");
    r.rated = true;
    r.time = Some(TimeControl::DaysPerMove(1));
    let c = svc.challenge(&at(alice()), r).await.unwrap();
    let view = svc.accept(&at(bob()), c.id).await.unwrap().game.unwrap();
    let (one, two) = (seat_actor(&view, 1), seat_actor(&view, 2));
    play_all(
        svc,
        view.id,
        [&one, &two],
        "A1 O1 A3 O3 A5 O5 A7 O7 A9 O9 A11 O11",
    )
    .await;
    // Seat 1 is to move and lets two days pass, with no vacation to spend.
    env.clock
        .advance(std::time::Duration::from_secs(2 * 86_400));
    let events = svc.sweep_clocks().await.unwrap();
    assert!(
        events
            .iter()
            .any(|e| matches!(e, ClockEvent::TimedOut { .. })),
        "{events:?}"
    );
    let (loser, winner) = one_game(NEW, NEW, 0.0);
    close(
        &server_rating(svc, GUILD, one.user.id, Family::Gomoku)
            .await
            .unwrap(),
        loser,
    );
    close(
        &server_rating(svc, GUILD, two.user.id, Family::Gomoku)
            .await
            .unwrap(),
        winner,
    );
    let h = svc.history(GuildId(GUILD), one.user.id).await.unwrap();
    assert_eq!(h[0].outcome, GameOutcome::Lost);
    assert!(matches!(h[0].reason, ResultReason::Timeout { seat: 1 }));
}

async fn renju_is_rated_on_a_leaderboard_of_its_own(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let (g, one, two) = start(svc, GUILD, alice(), bob(), "renju opening=none", true).await;
    let end = play_all(svc, g.id, [&one, &two], SEAT1_WINS).await;
    assert!(end.game.is_over());
    let renju = svc
        .leaderboard(GuildId(GUILD), Family::Renju, 1)
        .await
        .unwrap();
    let ranked: Vec<UserId> = renju.entries.iter().map(|r| r.user).collect();
    assert_eq!(ranked, [one.user.id, two.user.id]);
    // Freestyle Gomoku's board knows nothing of it, nor the other families.
    for family in [Family::Gomoku, Family::GomokuStandard, Family::Pente] {
        let other = svc.leaderboard(GuildId(GUILD), family, 1).await.unwrap();
        assert_eq!(other.players, 0, "{family}");
    }
    let change = svc.history(GuildId(GUILD), one.user.id).await.unwrap()[0]
        .change
        .expect("a rated game");
    assert_eq!(change.family, Family::Renju);
    assert!(
        server_rating(svc, GUILD, one.user.id, Family::Renju)
            .await
            .is_some()
    );
    assert_eq!(
        server_rating(svc, GUILD, one.user.id, Family::Gomoku).await,
        None
    );
}

both_stores!(
    a_sequence_of_rated_games_follows_glicko2_in_each_server_and_across_servers,
    the_leaderboard_ranks_a_servers_players_and_pages_past_the_end_show_the_last,
    short_unrated_multiplayer_and_bot_games_leave_ratings_alone,
    agreed_draws_and_timeouts_ending_in_append_action_are_rated_and_take_backs_do_not_count,
    real_take_backs_and_agreed_draws_through_the_service,
    a_loss_on_time_from_the_clock_sweep_is_rated_as_a_loss,
    renju_is_rated_on_a_leaderboard_of_its_own,
);
