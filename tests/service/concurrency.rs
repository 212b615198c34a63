//! Many tasks at once: one winner per ply, no lost or duplicated move, no deadlock.

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Duration;

use gomoku_bot::rules::{Action, Point};
use gomoku_bot::service::{
    Actor, ChallengeStatus, GameId, GameView, GuildId, ManualClock, Service, ServiceError,
};
use gomoku_bot::store::{AppendError, NewAction};
use rand::{Rng, SeedableRng};

use crate::common::*;

/// What one hammering task saw.
#[derive(Default)]
struct Tally {
    /// `(ply, point)` of every move this task got accepted.
    won: Vec<(u32, String)>,
    /// Refusals that mean "someone else was first".
    lost: usize,
}

fn random_empty(view: &GameView, rng: &mut impl Rng) -> Point {
    let empty: Vec<Point> = view
        .game
        .points()
        .filter(|p| view.game.stone_at(*p).is_none())
        .collect();
    empty[rng.random_range(0..empty.len())]
}

/// Plays random moves as `actor` until the game reaches `target` plies or ends.
/// With `stale_ok`, some attempts carry no expected ply (so a stale point can be occupied).
async fn hammer(svc: Arc<Service>, actor: Actor, id: GameId, target: u32, seed: u64) -> Tally {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    loop {
        let view = svc.game(actor.guild, id).await.expect("view");
        if view.ply >= target || view.is_over() {
            return tally;
        }
        let point = random_empty(&view, &mut rng);
        let expected = rng.random_bool(0.7).then_some(view.ply);
        match svc
            .play(&actor, Some(id), Action::Place(point), expected)
            .await
        {
            Ok(p) => tally.won.push((p.view.ply, point.name())),
            Err(
                ServiceError::PositionChanged
                | ServiceError::NotYourTurn
                | ServiceError::Illegal(gomoku_bot::rules::PlayError::Occupied(_)),
            ) => tally.lost += 1,
            Err(ServiceError::GameOver) => return tally,
            Err(e) => panic!("unexpected refusal: {e:?}"),
        }
        if rng.random_bool(0.3) {
            tokio::task::yield_now().await;
        }
    }
}

/// Checks the tallies against the log: plies 1..=n each won exactly once, as stored.
async fn check_log(svc: &Service, id: GameId, tallies: &[Tally]) -> u32 {
    let mut won: Vec<(u32, String)> = tallies.iter().flat_map(|t| t.won.clone()).collect();
    won.sort();
    let n = won.len() as u32;
    let plies: Vec<u32> = won.iter().map(|w| w.0).collect();
    assert_eq!(
        plies,
        (1..=n).collect::<Vec<_>>(),
        "each ply won exactly once"
    );
    let stored = svc.store().load_game(id).await.unwrap().unwrap();
    let log: Vec<(u32, String)> = stored
        .actions
        .iter()
        .map(|a| (a.ply, a.token.clone()))
        .collect();
    assert_eq!(log, won, "the log holds exactly the acknowledged moves");
    assert_eq!(stored.meta.ply, n);
    n
}

fn runtime_timeout() -> Duration {
    Duration::from_secs(120)
}

async fn many_tasks_on_one_game_win_each_ply_exactly_once(db: TestDb) {
    let svc = Arc::new(open_service(&db, config(), Arc::new(ManualClock::new(T0))).await);
    let (game, first, second) = start_two(&svc, "gomoku size=19").await;
    let mut tasks = Vec::new();
    for k in 0..24u64 {
        let actor = if k % 2 == 0 {
            first.clone()
        } else {
            second.clone()
        };
        tasks.push(tokio::spawn(hammer(svc.clone(), actor, game.id, 60, k)));
    }
    let tallies = tokio::time::timeout(runtime_timeout(), async {
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    })
    .await
    .expect("no deadlock");
    let n = check_log(&svc, game.id, &tallies).await;
    assert!(n >= 9, "the game went on ({n} plies)");
    assert!(
        tallies.iter().map(|t| t.lost).sum::<usize>() > 0,
        "there was contention"
    );
    let view = svc.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(view.ply, n);
    svc.store().check_integrity().await.unwrap();
}

async fn two_services_on_one_database_never_both_append_a_ply(db: TestDb) {
    // Two services stand for two processes: separate pools, locks and caches. Only the
    // move log's unique (game, ply) key keeps them apart.
    let clock = Arc::new(ManualClock::new(T0));
    let a = Arc::new(open_service(&db, config(), clock.clone()).await);
    let b = Arc::new(open_service(&db, config(), clock).await);
    let (game, first, second) = start_two(&a, "gomoku size=19").await;
    let mut tasks = Vec::new();
    for k in 0..16u64 {
        let svc = if k % 4 < 2 { a.clone() } else { b.clone() };
        let actor = if k % 2 == 0 {
            first.clone()
        } else {
            second.clone()
        };
        tasks.push(tokio::spawn(hammer(svc, actor, game.id, 40, 100 + k)));
    }
    let tallies = tokio::time::timeout(runtime_timeout(), async {
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    })
    .await
    .expect("no deadlock");
    let n = check_log(&a, game.id, &tallies).await;
    assert!(n >= 9);
    // Both services agree on the committed position.
    let va = a.game(GuildId(GUILD), game.id).await.unwrap();
    let vb = b.game(GuildId(GUILD), game.id).await.unwrap();
    assert_eq!(va.game, vb.game);
    assert_eq!(va.ply, n);
}

async fn many_games_run_in_parallel_without_losing_moves(db: TestDb) {
    let svc = Arc::new(open_service(&db, config(), Arc::new(ManualClock::new(T0))).await);
    let mut games = Vec::new();
    for k in 0..20u64 {
        let a = user(1000 + 2 * k, "A");
        let b = user(1001 + 2 * k, "B");
        games.push(start_pair(&svc, a, b, "gomoku size=19").await);
    }
    let mut tasks = Vec::new();
    for (k, (game, first, second)) in games.iter().enumerate() {
        for (j, actor) in [first, second].into_iter().enumerate() {
            let seed = (k * 2 + j) as u64;
            tasks.push((
                game.id,
                tokio::spawn(hammer(svc.clone(), actor.clone(), game.id, 16, seed)),
            ));
        }
    }
    let results = tokio::time::timeout(runtime_timeout(), async {
        let mut out = Vec::new();
        for (id, t) in tasks {
            out.push((id, t.await.unwrap()));
        }
        out
    })
    .await
    .expect("no deadlock");
    let mut total = 0;
    for (game, _, _) in &games {
        let tallies: Vec<Tally> = results
            .iter()
            .filter(|(id, _)| *id == game.id)
            .map(|(_, t)| Tally {
                won: t.won.clone(),
                lost: t.lost,
            })
            .collect();
        total += check_log(&svc, game.id, &tallies).await;
    }
    assert!(total >= 20 * 9);
}

async fn simultaneous_joiners_fill_a_lobby_exactly_and_start_one_game(db: TestDb) {
    let svc = Arc::new(open_service(&db, config(), Arc::new(ManualClock::new(T0))).await);
    let lobby = svc
        .challenge(&at(alice()), request(None, "pente players=4"))
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for k in 0..12u64 {
        let svc = svc.clone();
        tasks.push(tokio::spawn(async move {
            svc.accept(&at(user(200 + k, "J")), lobby.id).await
        }));
    }
    let mut joined = 0;
    let mut started = HashSet::new();
    for t in tasks {
        match t.await.unwrap() {
            Ok(a) => {
                joined += 1;
                if let Some(g) = a.game {
                    started.insert(g.id);
                }
            }
            Err(
                ServiceError::LobbyFull | ServiceError::ChallengeClosed(ChallengeStatus::Accepted),
            ) => {}
            Err(e) => panic!("unexpected refusal: {e:?}"),
        }
    }
    assert_eq!(joined, 3);
    assert_eq!(started.len(), 1);
    let c = svc.challenge_info(GuildId(GUILD), lobby.id).await.unwrap();
    assert_eq!(c.members.len(), 4);
    assert_eq!(c.status, ChallengeStatus::Accepted);
    let game = svc
        .game(GuildId(GUILD), *started.iter().next().unwrap())
        .await
        .unwrap();
    let seated: HashSet<_> = game.seats.iter().map(|s| s.user).collect();
    let members: HashSet<_> = c.members.iter().copied().collect();
    assert_eq!(seated, members);

    // An open two-player challenge is taken by exactly one of many.
    let open = svc
        .challenge(&at(bob()), request(None, "gomoku"))
        .await
        .unwrap();
    let mut tasks = Vec::new();
    for k in 0..10u64 {
        let svc = svc.clone();
        tasks.push(tokio::spawn(async move {
            svc.accept(&at(user(300 + k, "K")), open.id).await
        }));
    }
    let mut games = 0;
    for t in tasks {
        match t.await.unwrap() {
            Ok(a) => games += usize::from(a.game.is_some()),
            Err(ServiceError::ChallengeClosed(ChallengeStatus::Accepted)) => {}
            Err(e) => panic!("unexpected refusal: {e:?}"),
        }
    }
    assert_eq!(games, 1);
}

/// The move of seat 1 at ply 1 on `point`.
fn first_move(game: GameId, point: &str) -> NewAction {
    NewAction {
        game,
        ply: 1,
        seat: 1,
        token: point.to_string(),
        at: T0,
        to_act: Some(2),
        deadline: None,
        finished: None,
        rename: None,
        owed: gomoku_bot::store::Owed::Nothing,
        computer: false,
    }
}

async fn moves_queued_behind_a_commit_go_in_together_and_a_refused_one_spares_the_rest(db: TestDb) {
    let svc = Arc::new(open_service(&db, config(), Arc::new(ManualClock::new(T0))).await);
    let games = start_games(&svc, 4, 10).await;
    // Another process holds the write lock, so the first move waits inside its commit while
    // the next ones queue behind it; they are then committed together, two of them refused:
    // a second move at ply 1 of game 0 (its log row is refused), and a move at ply 3 of
    // game 1 (its log row goes in, the game's row refuses it: the row must go again).
    let mut other = db.hold_move_log().await;
    let append = |action: NewAction| {
        let svc = svc.clone();
        tokio::spawn(async move { svc.store().append_action(&action).await })
    };
    let first = append(first_move(games[3], "H8"));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let skipping = NewAction {
        ply: 3,
        ..first_move(games[1], "K11")
    };
    let queued: Vec<_> = [
        first_move(games[0], "H8"),
        first_move(games[1], "H8"),
        first_move(games[0], "J9"),
        skipping,
        first_move(games[2], "H8"),
    ]
    .into_iter()
    .map(append)
    .collect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    assert_eq!(first.await.unwrap(), Ok(()));
    let mut results = Vec::new();
    for q in queued {
        results.push(q.await.unwrap());
    }
    let [a, b, a2, skipped, c] = results.try_into().unwrap();
    assert_eq!((b, c), (Ok(()), Ok(())));
    assert_eq!(skipped, Err(AppendError::Conflict));
    // Exactly one of the two moves at ply 1 of game 0.
    let won = match (a, a2) {
        (Ok(()), Err(AppendError::Conflict)) => "H8",
        (Err(AppendError::Conflict), Ok(())) => "J9",
        other => panic!("one move per ply: {other:?}"),
    };
    for (k, id) in games.iter().enumerate() {
        let view = svc.game(GuildId(GUILD), *id).await.unwrap();
        assert_eq!(view.ply, 1, "game {k}");
        let want = if k == 0 { won } else { "H8" };
        let point = Point::parse(want, 15).unwrap();
        assert_eq!(view.game.stone_at(point), Some(1), "game {k}");
        let stored = svc.store().load_game(*id).await.unwrap().unwrap();
        assert_eq!(stored.actions.len(), 1, "game {k}: {:?}", stored.actions);
    }
    svc.store().check_integrity().await.unwrap();
}

/// `n` two-player Gomoku games started one after another, their players numbered from
/// `first` (A and B alternately).
async fn start_games(svc: &Service, n: u64, first: u64) -> Vec<GameId> {
    let mut games = Vec::new();
    for k in 0..n {
        let (a, b) = (user(first + 2 * k, "A"), user(first + 2 * k + 1, "B"));
        games.push(start_pair(svc, a, b, "gomoku").await.0.id);
    }
    games
}

async fn a_move_that_fails_with_an_error_spares_the_rest_of_its_batch(db: TestDb) {
    // A batch is first tried without savepoints. When one move fails with an error (not a
    // refusal), which on PostgreSQL aborts the whole transaction, the batch must go again
    // with each move in a savepoint: the failed move alone is refused.
    let svc = Arc::new(open_service(&db, config(), Arc::new(ManualClock::new(T0))).await);
    let games = start_games(&svc, 13, 40).await;
    // Four games in one commit lane (PostgreSQL has four, by game id; SQLite one).
    let lane: Vec<GameId> = games
        .iter()
        .copied()
        .filter(|g| g.0.rem_euclid(4) == games[0].0.rem_euclid(4))
        .take(4)
        .collect();
    let [head, faulty, g1, g2] = lane.try_into().unwrap();
    // The faulty game's log already holds ply 1 while its row says ply 0: appending ply 1
    // fails with an error (the two disagree), not with a conflict.
    let mut raw = db.raw().await;
    sqlx::query(
        "INSERT INTO moves (game_id, ply, seat, action, played_at) VALUES ($1, 1, 1, 'A1', $2)",
    )
    .bind(faulty.0)
    .bind(T0.0)
    .execute(&mut raw)
    .await
    .unwrap();
    let mut other = db.hold_move_log().await;
    let append = |action: NewAction| {
        let svc = svc.clone();
        tokio::spawn(async move { svc.store().append_action(&action).await })
    };
    let first = append(first_move(head, "H8"));
    tokio::time::sleep(Duration::from_millis(100)).await;
    let queued: Vec<_> = [
        first_move(g1, "H8"),
        first_move(faulty, "H8"),
        first_move(g2, "J9"),
    ]
    .into_iter()
    .map(append)
    .collect();
    tokio::time::sleep(Duration::from_millis(100)).await;
    sqlx::query("ROLLBACK").execute(&mut other).await.unwrap();
    assert_eq!(first.await.unwrap(), Ok(()));
    let mut results = Vec::new();
    for q in queued {
        results.push(q.await.unwrap());
    }
    let [r1, bad, r2] = results.try_into().unwrap();
    assert_eq!((r1, r2), (Ok(()), Ok(())));
    assert!(
        matches!(bad, Err(AppendError::Storage(_))),
        "the faulty move fails with an error: {bad:?}"
    );
    for (id, ply) in [(head, 1), (g1, 1), (g2, 1), (faulty, 0)] {
        let view = svc.game(GuildId(GUILD), id).await.unwrap();
        assert_eq!(view.ply, ply, "game {}", id.0);
    }
    // The spared moves are each in their game's log once; the faulty game's log holds only
    // the stray row (the move log is append-only, so it stays).
    for (id, token) in [(head, "H8"), (g1, "H8"), (g2, "J9"), (faulty, "A1")] {
        let stored = svc.store().load_game(id).await.unwrap().unwrap();
        let log: Vec<&str> = stored.actions.iter().map(|a| a.token.as_str()).collect();
        assert_eq!(log, [token], "game {}", id.0);
    }
}

async fn crossed_challenges_in_two_processes_both_go_through(db: TestDb) {
    // A challenges B in one process while B challenges A in another: both transactions save
    // both members. Saved in the order given, PostgreSQL could find them waiting on each other
    // and cancel one as a deadlock; saved in user-id order, both go through.
    let clock = Arc::new(ManualClock::new(T0));
    let a = Arc::new(open_service(&db, config(), clock.clone()).await);
    let b = Arc::new(open_service(&db, config(), clock).await);
    let mut tasks = Vec::new();
    for k in 0..24u64 {
        let (x, y) = (user(5000 + 2 * k, "x"), user(5001 + 2 * k, "y"));
        for (svc, from, to) in [(a.clone(), x.clone(), y.clone()), (b.clone(), y, x)] {
            tasks.push(tokio::spawn(async move {
                svc.challenge(&at(from), request(Some(to), "gomoku")).await
            }));
        }
    }
    let results = tokio::time::timeout(runtime_timeout(), async {
        let mut out = Vec::new();
        for t in tasks {
            out.push(t.await.unwrap());
        }
        out
    })
    .await
    .expect("no task hangs");
    for (k, r) in results.iter().enumerate() {
        assert!(r.is_ok(), "challenge {k}: {r:?}");
    }
}

both_stores!(
    multi_thread 4:
    many_tasks_on_one_game_win_each_ply_exactly_once,
    two_services_on_one_database_never_both_append_a_ply,
    many_games_run_in_parallel_without_losing_moves,
    simultaneous_joiners_fill_a_lobby_exactly_and_start_one_game,
    moves_queued_behind_a_commit_go_in_together_and_a_refused_one_spares_the_rest,
    a_move_that_fails_with_an_error_spares_the_rest_of_its_batch,
    crossed_challenges_in_two_processes_both_go_through,
);
