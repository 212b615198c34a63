//! Tournaments through the service with a manual clock and real SQLite files: a double round
//! robin to the end, a Swiss with a bye, a withdrawal, a loss on time and a restart while a
//! round advances, two processes advancing at once, and every refusal.

use std::collections::HashMap;
use std::time::Duration;

use gomoku_bot::rules::RuleSet;
use gomoku_bot::service::{
    Actor, ClockEvent, GameId, GameStatus, GameView, GuildId, ResultReason, Service, TimeControl,
    Tournament, TournamentError, TournamentId, TournamentRequest, TournamentStatus, UserId,
    UserInfo,
};
use gomoku_bot::tournament::{BoardResult, Format};

use crate::common::*;

const LEASE: Duration = Duration::from_secs(60);

fn player(k: u64) -> UserInfo {
    user(k, &format!("P{k}"))
}

fn request(format: Format) -> TournamentRequest {
    TournamentRequest {
        name: "Winter Cup".into(),
        format,
        rules: Some(rules("gomoku")),
        time: Some(TimeControl::DaysPerMove(3)),
        rated: true,
        max_players: None,
        rounds: None,
        games_per_pairing: None,
    }
}

async fn create_with(svc: &Service, request: TournamentRequest, players: u64) -> Tournament {
    let t = svc
        .create_tournament(&at(player(1)), request)
        .await
        .expect("created");
    assert_eq!(t.row.status, TournamentStatus::Open);
    for k in 1..=players {
        svc.join_tournament(&at(player(k)), t.row.id)
            .await
            .expect("joined");
    }
    svc.tournament(GuildId(GUILD), t.row.id).await.unwrap()
}

/// How a test wants a game to end.
#[derive(Clone, Copy, Debug, PartialEq)]
enum End {
    First,
    Second,
    Draw,
}

/// The actor of a seat (by the name the game knows).
fn seat(view: &GameView, s: u8) -> Actor {
    seat_actor(view, s)
}

/// Plays a gomoku game to the end wanted.
async fn finish(svc: &Service, view: &GameView, end: End) -> GameView {
    let (one, two) = (seat(view, 1), seat(view, 2));
    let id = Some(view.id);
    match end {
        End::Draw => {
            let made = svc.offer_draw(&one, id).await.expect("draw offered");
            let answered = svc
                .answer_offer(&two, made.offer.id, true)
                .await
                .expect("draw accepted");
            answered.view
        }
        End::First | End::Second => {
            let (winner, loser) = if end == End::First {
                (one, two)
            } else {
                (two, one)
            };
            let line = ["H8", "J8", "K8", "L8", "M8"];
            let junk = ["A1", "A3", "A5", "A7", "A9"];
            let mut last = None;
            for i in 0..5 {
                let (first_mover, first_points, second_mover, second_points) = if end == End::First
                {
                    (&winner, line, &loser, junk)
                } else {
                    (&loser, junk, &winner, line)
                };
                let p = svc
                    .play_token(first_mover, id, first_points[i], None)
                    .await
                    .expect("move");
                if p.view.is_over() {
                    return p.view;
                }
                let p = svc
                    .play_token(second_mover, id, second_points[i], None)
                    .await
                    .expect("move");
                last = Some(p.view);
                if last.as_ref().is_some_and(GameView::is_over) {
                    break;
                }
            }
            last.expect("the game ended")
        }
    }
}

/// The running games of the tournament's current round.
async fn round_games(svc: &Service, id: TournamentId) -> (u32, Vec<GameView>) {
    let t = svc.tournament(GuildId(GUILD), id).await.unwrap();
    let mut games = Vec::new();
    for b in t.round_boards(t.row.round) {
        if let (Some(g), None) = (b.game, b.result) {
            games.push(svc.game(GuildId(GUILD), g).await.unwrap());
        }
    }
    (t.row.round, games)
}

fn seat_user(view: &GameView, s: u8) -> u64 {
    view.seats.iter().find(|x| x.seat == s).unwrap().user.0
}

async fn a_four_player_double_round_robin_runs_to_the_end(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let mut req = request(Format::RoundRobin);
    req.games_per_pairing = Some(2);
    let t = create_with(svc, req, 4).await;
    let id = t.row.id;
    let started = svc
        .start_tournament(&at(player(1)), id, false)
        .await
        .expect("started");
    assert_eq!(started.row.status, TournamentStatus::Running);
    assert_eq!((started.row.round, started.row.total_rounds), (1, Some(6)));
    let mut expected: HashMap<u64, u32> = HashMap::new();
    for round in 1..=6u32 {
        let (r, games) = round_games(svc, id).await;
        assert_eq!((r, games.len()), (round, 2), "two games a round");
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.time, TimeControl::DaysPerMove(3));
            assert!(g.rated);
            // The smaller id wins, except in round 3, which is all draws.
            let (a, b) = (seat_user(g, 1), seat_user(g, 2));
            let end = if round == 3 {
                End::Draw
            } else if a < b {
                End::First
            } else {
                End::Second
            };
            match end {
                End::Draw => {
                    *expected.entry(a).or_default() += 1;
                    *expected.entry(b).or_default() += 1;
                }
                _ => *expected.entry(a.min(b)).or_default() += 2,
            }
            let done = finish(svc, g, end).await;
            assert!(done.is_over());
            let advanced = svc.advance_after_game(g.id).await.expect("advance");
            if i + 1 < games.len() {
                assert_eq!(advanced, Some((id, vec![])), "a game is still running");
            } else {
                assert_eq!(advanced, Some((id, vec![round + 1])));
            }
        }
    }
    let t = svc.tournament(GuildId(GUILD), id).await.unwrap();
    assert_eq!(t.row.status, TournamentStatus::Finished);
    assert_eq!(t.row.round, 7);
    // Every pair met twice, once in each seat.
    let mut seats: HashMap<(u64, u64), u32> = HashMap::new();
    for b in &t.boards {
        *seats.entry((b.first.0, b.second.unwrap().0)).or_default() += 1;
        assert!(b.game.is_some() && b.result.is_some());
    }
    assert_eq!(seats.len(), 12);
    assert!(seats.values().all(|&n| n == 1));
    let view = svc.tournament_standings(GuildId(GUILD), id).await.unwrap();
    for line in &view.lines {
        assert_eq!(
            line.standing.half_points,
            expected.get(&line.standing.player).copied().unwrap_or(0),
            "{line:?}"
        );
        assert_eq!(line.standing.played, 6);
        assert_eq!(line.name, format!("P{}", line.standing.player));
    }
    assert_eq!(view.winners(), vec![UserId(1)]);
    assert_eq!(view.rounds_complete, 6);
    // Nothing was posted yet: the claim is for the final result, once.
    let claims = svc.claim_announcements(None, LEASE).await.unwrap();
    assert_eq!(claims.len(), 1);
    assert!(claims[0].is_final());
    assert!(claims[0].games.is_empty());
    assert!(
        svc.claim_announcements(None, LEASE)
            .await
            .unwrap()
            .is_empty()
    );
    svc.mark_announced(id, claims[0].round).await.unwrap();
    env.clock.advance(2 * LEASE);
    assert!(
        svc.claim_announcements(None, LEASE)
            .await
            .unwrap()
            .is_empty()
    );
}

async fn a_seven_player_swiss_with_a_bye_a_withdrawal_a_timeout_and_a_restart(db: TestDb) {
    let mut env = Env::new(db).await;
    let mut req = request(Format::Swiss);
    req.rounds = Some(3);
    req.time = Some(TimeControl::MinutesPerMove(10));
    req.rated = false;
    let t = create_with(&env.svc, req, 7).await;
    let id = t.row.id;
    env.svc
        .start_tournament(&at(player(1)), id, false)
        .await
        .unwrap();
    // Round 1: everyone is unrated, seeds follow the joining order; the last gets the bye.
    let t = env.svc.tournament(GuildId(GUILD), id).await.unwrap();
    let r1 = t.round_boards(1);
    assert_eq!(r1.len(), 4);
    let bye = r1.iter().find(|b| b.second.is_none()).expect("a bye");
    assert_eq!((bye.first, bye.result), (UserId(7), Some(BoardResult::Bye)));
    assert_eq!(bye.game, None);
    let (_, games) = round_games(&env.svc, id).await;
    assert_eq!(games.len(), 3);
    for g in &games {
        finish(&env.svc, g, End::First).await;
    }
    // The sweep advances what the games' ends left complete.
    assert_eq!(env.svc.advance_tournaments().await.unwrap(), vec![id]);
    let (round, games) = round_games(&env.svc, id).await;
    assert_eq!((round, games.len()), (2, 3));
    // P2 withdraws during round 2: their game is resigned at once.
    let p2 = at(player(2));
    let left = env.svc.leave_tournament(&p2, id).await.expect("withdrawn");
    assert!(left.withdrew);
    let resigned = left.resigned.expect("P2's game was resigned");
    assert!(matches!(
        resigned.status,
        GameStatus::Finished(r) if matches!(r.reason, ResultReason::Resignation { .. })
    ));
    assert_eq!(
        env.svc.leave_tournament(&p2, id).await.unwrap_err(),
        TournamentError::AlreadyWithdrawn
    );
    let others: Vec<&GameView> = games.iter().filter(|g| g.id != resigned.id).collect();
    assert_eq!(others.len(), 2);
    finish(&env.svc, others[0], End::Second).await;
    assert_eq!(
        env.svc.advance_after_game(others[0].id).await.unwrap(),
        Some((id, vec![])),
        "the last game of round 2 is still on"
    );
    // The last game of the round is lost on time.
    env.clock.advance(Duration::from_secs(11 * 60));
    let events = env.svc.sweep_clocks().await.unwrap();
    let timed_out: Vec<GameId> = events
        .iter()
        .filter_map(|e| match e {
            ClockEvent::TimedOut { game, .. } => Some(game.id),
            _ => None,
        })
        .collect();
    assert_eq!(timed_out, vec![others[1].id]);
    // The process stops before anything advances the round, and restarts.
    env.restart().await;
    // Two processes sweep at once: exactly one creates round 3.
    let second = open_service(&env.db, config(), env.clock.clone()).await;
    let (a, b) = tokio::join!(
        env.svc.advance_tournament(id),
        second.advance_tournament(id)
    );
    let mut started = a.unwrap();
    started.extend(b.unwrap());
    assert_eq!(started, vec![3]);
    let t = env.svc.tournament(GuildId(GUILD), id).await.unwrap();
    assert_eq!(t.row.round, 3);
    let r2 = t.round_boards(2);
    assert!(r2.iter().all(|b| b.result.is_some()));
    let timeout_board = r2.iter().find(|b| b.game == Some(others[1].id)).unwrap();
    assert!(matches!(
        timeout_board.result,
        Some(BoardResult::FirstWon | BoardResult::SecondWon)
    ));
    // Round 3: six players left, no bye, P2 not paired, no rematch, nobody with two byes.
    let r3 = t.round_boards(3);
    assert_eq!(r3.len(), 3);
    assert!(r3.iter().all(|b| b.second.is_some() && b.game.is_some()));
    assert!(
        !r3.iter()
            .any(|b| b.first == UserId(2) || b.second == Some(UserId(2)))
    );
    let earlier: Vec<(UserId, UserId)> = t
        .boards
        .iter()
        .filter(|b| b.round < 3)
        .filter_map(|b| Some((b.first, b.second?)))
        .collect();
    for b in &r3 {
        let pair = (b.first, b.second.unwrap());
        assert!(
            !earlier.contains(&pair) && !earlier.contains(&(pair.1, pair.0)),
            "rematch {pair:?}"
        );
    }
    let mut byes: HashMap<UserId, u32> = HashMap::new();
    for b in t.boards.iter().filter(|b| b.second.is_none()) {
        *byes.entry(b.first).or_default() += 1;
    }
    assert_eq!(byes.len(), 2, "a bye in each of rounds 1 and 2: {byes:?}");
    assert!(byes.values().all(|&n| n == 1));
    // Round 3 is posted once, by whichever process claims it first.
    let claims = second.claim_announcements(Some(id), LEASE).await.unwrap();
    assert_eq!(claims.len(), 1);
    assert_eq!((claims[0].round, claims[0].games.len()), (3, 3));
    assert!(!claims[0].is_final());
    assert!(
        env.svc
            .claim_announcements(None, LEASE)
            .await
            .unwrap()
            .is_empty()
    );
    second.mark_announced(id, 3).await.unwrap();
    second.close().await;
    let (_, games) = round_games(&env.svc, id).await;
    for g in &games {
        finish(&env.svc, g, End::Draw).await;
    }
    assert_eq!(
        env.svc.advance_after_game(games[2].id).await.unwrap(),
        Some((id, vec![4]))
    );
    let view = env
        .svc
        .tournament_standings(GuildId(GUILD), id)
        .await
        .unwrap();
    assert_eq!(view.tournament.row.status, TournamentStatus::Finished);
    assert_eq!(view.lines.len(), 7);
    let p2_line = view.lines.iter().find(|l| l.standing.player == 2).unwrap();
    assert!(p2_line.standing.withdrawn);
    // Points over the whole field: 3 games a round (1 point each) plus the byes.
    let total: u32 = view.lines.iter().map(|l| l.standing.half_points).sum();
    assert_eq!(total, 2 * (3 + 1) + 2 * (3 + 1) + 2 * 3);
    // Standings are ordered by points, then Buchholz.
    for w in view.lines.windows(2) {
        let (a, b) = (&w[0].standing, &w[1].standing);
        assert!((a.half_points, a.buchholz_halves) >= (b.half_points, b.buchholz_halves));
    }
}

async fn withdrawing_from_a_round_robin_forfeits_the_remaining_games(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let t = create_with(svc, request(Format::RoundRobin), 4).await;
    let id = t.row.id;
    svc.start_tournament(&at(player(1)), id, false)
        .await
        .unwrap();
    let (_, games) = round_games(svc, id).await;
    for g in &games {
        finish(svc, g, End::First).await;
    }
    svc.advance_tournaments().await.unwrap();
    // P4 withdraws in round 2 (resigning that game); rounds 3's board of P4 is a forfeit.
    let left = svc.leave_tournament(&at(player(4)), id).await.unwrap();
    assert!(left.resigned.is_some());
    let (round, games) = round_games(svc, id).await;
    assert_eq!((round, games.len()), (2, 1));
    finish(svc, &games[0], End::Draw).await;
    svc.advance_after_game(games[0].id).await.unwrap();
    let t = svc.tournament(GuildId(GUILD), id).await.unwrap();
    assert_eq!(t.row.round, 3);
    let r3 = t.round_boards(3);
    let forfeit = r3
        .iter()
        .find(|b| b.first == UserId(4) || b.second == Some(UserId(4)))
        .unwrap();
    assert_eq!(forfeit.game, None, "no game for a forfeit");
    assert!(matches!(
        forfeit.result,
        Some(BoardResult::FirstWonByForfeit | BoardResult::SecondWonByForfeit)
    ));
    let view = svc.standings_of(t);
    let p4 = view.lines.iter().find(|l| l.standing.player == 4).unwrap();
    assert!(p4.standing.withdrawn);
    assert_eq!(
        p4.standing.played, 2,
        "the resigned game counts, the forfeit not"
    );
}

async fn refusals_are_precise_and_change_nothing(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let alice = at(player(1));
    let bad = |f: &dyn Fn(&mut TournamentRequest)| {
        let mut r = request(Format::Swiss);
        f(&mut r);
        r
    };
    let cases: Vec<(TournamentRequest, TournamentError)> = vec![
        (bad(&|r| r.name = "   ".into()), TournamentError::BadName),
        (bad(&|r| r.name = "x".repeat(61)), TournamentError::BadName),
        (
            bad(&|r| r.rules = Some(rules("pente players=3"))),
            TournamentError::Multiplayer,
        ),
        (
            bad(&|r| {
                r.format = Format::RoundRobin;
                r.rounds = Some(3);
            }),
            TournamentError::RoundsForRoundRobin,
        ),
        (
            bad(&|r| r.games_per_pairing = Some(2)),
            TournamentError::GamesPerPairingForSwiss,
        ),
        (
            bad(&|r| r.rounds = Some(0)),
            TournamentError::BadRounds { max: 20 },
        ),
        (
            bad(&|r| r.max_players = Some(2)),
            TournamentError::BadMaxPlayers { min: 3, max: 256 },
        ),
        (
            bad(&|r| {
                r.format = Format::RoundRobin;
                r.max_players = Some(33);
            }),
            TournamentError::BadMaxPlayers { min: 3, max: 32 },
        ),
        (
            bad(&|r| {
                r.format = Format::RoundRobin;
                r.games_per_pairing = Some(3);
            }),
            TournamentError::BadGamesPerPairing,
        ),
    ];
    for (req, want) in cases {
        assert_eq!(svc.create_tournament(&alice, req).await.unwrap_err(), want);
    }
    assert!(
        svc.tournaments(GuildId(GUILD), true)
            .await
            .unwrap()
            .is_empty()
    );
    let bot = Actor::new(GUILD, CHANNEL, robot());
    assert_eq!(
        svc.create_tournament(&bot, request(Format::Swiss))
            .await
            .unwrap_err(),
        TournamentError::Bot
    );
    // A tournament of three, then every refusal around it.
    let mut small = request(Format::Swiss);
    small.max_players = Some(3);
    let t = svc.create_tournament(&alice, small).await.unwrap();
    let id = t.row.id;
    assert_eq!(
        svc.resolve_tournament(GuildId(GUILD), None)
            .await
            .unwrap()
            .row
            .id,
        id
    );
    assert_eq!(
        svc.join_tournament(&at(player(1)), TournamentId(999))
            .await
            .unwrap_err(),
        TournamentError::NoSuchTournament
    );
    assert_eq!(
        svc.tournament(GuildId(GUILD + 1), id).await.unwrap_err(),
        TournamentError::NoSuchTournament,
        "another server's tournament is unknown here"
    );
    svc.join_tournament(&at(player(2)), id).await.unwrap();
    assert_eq!(
        svc.join_tournament(&at(player(2)), id).await.unwrap_err(),
        TournamentError::AlreadyJoined
    );
    assert_eq!(
        svc.join_tournament(&bot, id).await.unwrap_err(),
        TournamentError::Bot
    );
    assert_eq!(
        svc.leave_tournament(&at(player(5)), id).await.unwrap_err(),
        TournamentError::NotJoined
    );
    assert_eq!(
        svc.start_tournament(&alice, id, false).await.unwrap_err(),
        TournamentError::TooFewPlayers { min: 3, have: 1 }
    );
    svc.join_tournament(&at(player(3)), id).await.unwrap();
    svc.join_tournament(&at(player(4)), id).await.unwrap();
    assert_eq!(
        svc.join_tournament(&at(player(5)), id).await.unwrap_err(),
        TournamentError::Full
    );
    assert_eq!(
        svc.start_tournament(&at(player(2)), id, false)
            .await
            .unwrap_err(),
        TournamentError::NotCreator
    );
    assert_eq!(
        svc.cancel_tournament(&at(player(2)), id, false)
            .await
            .unwrap_err(),
        TournamentError::NotCreator
    );
    // Leaving frees a place again.
    svc.leave_tournament(&at(player(4)), id).await.unwrap();
    let t = svc.tournament(GuildId(GUILD), id).await.unwrap();
    assert_eq!(t.row.entrants, 2);
    assert!(!t.has_player(UserId(4)));
    svc.join_tournament(&at(player(5)), id).await.unwrap();
    // A member who may manage the server starts someone else's tournament.
    let started = svc
        .start_tournament(&at(player(2)), id, true)
        .await
        .unwrap();
    assert_eq!(started.row.total_rounds, Some(2), "ceil(log2(3))");
    assert_eq!(
        svc.join_tournament(&at(player(6)), id).await.unwrap_err(),
        TournamentError::NotOpen(TournamentStatus::Running)
    );
    assert_eq!(
        svc.start_tournament(&alice, id, false).await.unwrap_err(),
        TournamentError::NotOpen(TournamentStatus::Running)
    );
    assert_eq!(
        svc.cancel_tournament(&alice, id, false).await.unwrap_err(),
        TournamentError::NotOpen(TournamentStatus::Running)
    );
    assert_eq!(
        svc.leave_tournament(&at(player(4)), id).await.unwrap_err(),
        TournamentError::NotJoined
    );
    // Too many Swiss rounds for the field.
    let mut long = request(Format::Swiss);
    long.rounds = Some(5);
    let t = create_with(svc, long, 3).await;
    assert_eq!(
        svc.start_tournament(&alice, t.row.id, false)
            .await
            .unwrap_err(),
        TournamentError::TooManyRounds {
            asked: 5,
            players: 3,
            max: 2
        }
    );
    assert_eq!(
        svc.resolve_tournament(GuildId(GUILD), None)
            .await
            .unwrap_err(),
        TournamentError::Ambiguous(vec![t.row.id, id])
    );
    let cancelled = svc
        .cancel_tournament(&alice, t.row.id, false)
        .await
        .unwrap();
    assert_eq!(cancelled.row.status, TournamentStatus::Cancelled);
    assert_eq!(
        svc.join_tournament(&at(player(9)), t.row.id)
            .await
            .unwrap_err(),
        TournamentError::NotOpen(TournamentStatus::Cancelled)
    );
    // The server's default game applies when none is given: a 3-player default is refused.
    let mut settings = svc.guild_settings(GuildId(GUILD)).await.unwrap();
    settings.default_rules = RuleSet::from_spec("gomoku players=3").unwrap();
    svc.set_guild_settings(GuildId(GUILD), settings)
        .await
        .unwrap();
    let mut defaults = request(Format::Swiss);
    defaults.rules = None;
    assert_eq!(
        svc.create_tournament(&alice, defaults).await.unwrap_err(),
        TournamentError::Multiplayer
    );
}

async fn a_swiss_ends_early_when_fewer_than_two_players_are_left(db: TestDb) {
    let env = Env::new(db).await;
    let svc = &env.svc;
    let mut req = request(Format::Swiss);
    req.rounds = Some(2);
    let t = create_with(svc, req, 3).await;
    let id = t.row.id;
    svc.start_tournament(&at(player(1)), id, false)
        .await
        .unwrap();
    // Round 1: one game and a bye. Both players of the game withdraw during it.
    let (_, games) = round_games(svc, id).await;
    assert_eq!(games.len(), 1);
    let (a, b) = (seat_user(&games[0], 1), seat_user(&games[0], 2));
    let first = svc.leave_tournament(&at(player(a)), id).await.unwrap();
    assert!(first.resigned.is_some());
    assert!(
        svc.leave_tournament(&at(player(b)), id)
            .await
            .unwrap()
            .resigned
            .is_none()
    );
    // The resignation completed round 1; with one player left the tournament ends.
    assert_eq!(svc.advance_tournaments().await.unwrap(), vec![id]);
    let t = svc.tournament(GuildId(GUILD), id).await.unwrap();
    assert_eq!((t.row.status, t.row.round), (TournamentStatus::Finished, 2));
    let claims = svc.claim_announcements(Some(id), LEASE).await.unwrap();
    assert_eq!(claims.len(), 1);
    assert!(claims[0].is_final());
    assert_eq!(claims[0].standings.rounds_complete, 1);
    // The bye and the win by resignation are worth a point each, with nothing to tell them
    // apart: the player with the bye and the one who won (withdrawn since) share first place.
    let winners = claims[0].standings.winners();
    assert_eq!(winners.len(), 2, "{winners:?}");
    assert!(winners.contains(&UserId(b)) && !winners.contains(&UserId(a)));
}

both_stores!(
    a_four_player_double_round_robin_runs_to_the_end,
    a_seven_player_swiss_with_a_bye_a_withdrawal_a_timeout_and_a_restart,
    withdrawing_from_a_round_robin_forfeits_the_remaining_games,
    refusals_are_precise_and_change_nothing,
    a_swiss_ends_early_when_fewer_than_two_players_are_left,
);
