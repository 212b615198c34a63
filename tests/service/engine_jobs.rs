//! Engine jobs (issue 11) at the service, on both stores: owed in the transaction of the
//! action that makes the computer owe a move, completed in the engine's move's transaction,
//! taken by one claimer only, handed to another when a lease lapses or is given back, and
//! dropped when the game moved on.

use std::time::Duration;

use gomoku_bot::engine::Level;
use gomoku_bot::service::{EngineJob, GameView, JobTurn, Service, ServiceError, UserInfo};

use crate::common::{Env, TestDb, act, alice, at, bob, carol, config, open_service, request, user};

const LEASE: Duration = Duration::from_secs(30);

/// The bot's own user.
fn engine() -> UserInfo {
    UserInfo {
        is_bot: true,
        ..user(500, "Gomoku Bot")
    }
}

/// A game of `who` against the computer where the computer is to act (the human moves first
/// when the seat draw gives them the first turn).
async fn owed_game(svc: &Service, who: UserInfo) -> GameView {
    let level = Level::new(1).expect("a level");
    let view = svc
        .challenge_engine(&at(who.clone()), &engine(), level, request(None, "gomoku"))
        .await
        .expect("started");
    if view.to_act().expect("in play").user == who.id {
        svc.play(&at(who), Some(view.id), act("H8", 15), None)
            .await
            .expect("the member moves")
            .view
    } else {
        view
    }
}

/// The job `holder` takes now (under [`LEASE`]); there must be one.
async fn claimed(svc: &Service, holder: &str) -> EngineJob {
    svc.claim_engine_job(holder, LEASE)
        .await
        .expect("claim")
        .unwrap_or_else(|| panic!("a job for {holder} to take"))
}

/// Thinks and commits a taken job the way a worker does.
async fn play_job(svc: &Service, job: &EngineJob) -> Result<GameView, ServiceError> {
    let JobTurn::Play(turn, bot) = svc.engine_job_turn(job).await? else {
        return Err(ServiceError::GameOver);
    };
    let action = turn.think_nodes(200).expect("a legal action");
    Ok(svc.play_engine_move(&turn, &bot, action).await?.view)
}

async fn a_job_is_owed_exactly_while_the_computer_is_to_act(db: TestDb) {
    let env = Env::new(db).await;
    let view = owed_game(&env.svc, alice()).await;
    let jobs = env.svc.engine_jobs().await.expect("jobs");
    assert_eq!(jobs.len(), 1, "{jobs:?}");
    assert_eq!(
        (jobs[0].game, jobs[0].ply, jobs[0].level),
        (view.id, view.ply, 1)
    );
    // The engine's move completes the job in its own transaction; Alice is to act: no job.
    let job = claimed(&env.svc, "a").await;
    let after = play_job(&env.svc, &job).await.expect("played");
    assert_eq!(after.ply, view.ply + 1);
    assert_eq!(env.svc.engine_jobs().await.expect("jobs"), vec![]);
    // Alice's move owes the next one; her resignation then drops it in the same transaction.
    let next = env
        .svc
        .play(&at(alice()), Some(view.id), act("A1", 15), None)
        .await
        .expect("Alice moves")
        .view;
    let jobs = env.svc.engine_jobs().await.expect("jobs");
    assert_eq!(
        jobs.iter().map(|j| (j.game, j.ply)).collect::<Vec<_>>(),
        [(view.id, next.ply)]
    );
    env.svc
        .resign(&at(alice()), Some(view.id))
        .await
        .expect("resigned");
    assert_eq!(env.svc.engine_jobs().await.expect("jobs"), vec![]);
    // The start-up safety net writes nothing twice, and nothing for finished games.
    assert_eq!(env.svc.owe_missing_engine_jobs().await, Ok(0));
}

async fn two_claimers_never_take_the_same_job(db: TestDb) {
    let env = Env::new(db).await;
    let other = open_service(&env.db, config(), env.clock.clone()).await;
    let mut games = Vec::new();
    for who in [alice(), bob(), carol()] {
        games.push(owed_game(&env.svc, who).await.id);
    }
    let mut taken = Vec::new();
    for _ in 0..3 {
        let (a, b) = tokio::join!(
            env.svc.claim_engine_job("a", LEASE),
            other.claim_engine_job("b", LEASE)
        );
        taken.extend(a.expect("claim a"));
        taken.extend(b.expect("claim b"));
    }
    let mut ids: Vec<_> = taken.iter().map(|j| j.game).collect();
    ids.sort_unstable_by_key(|g| g.0);
    games.sort_unstable_by_key(|g| g.0);
    assert_eq!(ids, games, "each job taken exactly once: {taken:?}");
    assert!(taken.iter().all(|j| j.attempts == 1));
    // Nothing left for anyone while the leases hold.
    assert_eq!(env.svc.claim_engine_job("c", LEASE).await, Ok(None));
    assert_eq!(env.svc.engine_jobs_waiting().await, Ok(0));
    other.close().await;
}

async fn a_lapsed_lease_hands_the_job_to_another_and_only_one_move_counts(db: TestDb) {
    let env = Env::new(db).await;
    let other = open_service(&env.db, config(), env.clock.clone()).await;
    let view = owed_game(&env.svc, alice()).await;
    let first = claimed(&env.svc, "a").await;
    assert_eq!(other.claim_engine_job("b", LEASE).await, Ok(None), "held");
    // Renewing pushes the lease on; past it (a killed holder), another takes the job.
    env.clock.advance(LEASE - Duration::from_secs(1));
    assert_eq!(env.svc.renew_engine_job(&first, "a", LEASE).await, Ok(true));
    env.clock.advance(LEASE - Duration::from_secs(1));
    assert_eq!(
        other.claim_engine_job("b", LEASE).await,
        Ok(None),
        "renewed"
    );
    env.clock.advance(Duration::from_secs(2));
    assert_eq!(env.svc.engine_jobs_waiting().await, Ok(1));
    let second = claimed(&other, "b").await;
    assert_eq!(
        (second.game, second.ply, second.attempts),
        (view.id, view.ply, 2)
    );
    assert_eq!(
        env.svc.renew_engine_job(&first, "a", LEASE).await,
        Ok(false),
        "no longer the first holder's"
    );
    // Both think; the first commit wins, the second is refused at the same ply.
    let (JobTurn::Play(turn_a, bot_a), JobTurn::Play(turn_b, bot_b)) = (
        env.svc.engine_job_turn(&first).await.expect("turn a"),
        other.engine_job_turn(&second).await.expect("turn b"),
    ) else {
        panic!("both see the computer to act");
    };
    let played = other
        .play_engine_move(&turn_b, &bot_b, turn_b.think_nodes(200).expect("action"))
        .await
        .expect("b plays");
    assert_eq!(played.view.ply, view.ply + 1);
    let late = env
        .svc
        .play_engine_move(&turn_a, &bot_a, turn_a.think_nodes(200).expect("action"))
        .await;
    assert!(
        matches!(
            late,
            Err(ServiceError::PositionChanged | ServiceError::NotYourTurn)
        ),
        "{late:?}"
    );
    let game = env.svc.game(view.guild, view.id).await.expect("game");
    assert_eq!(game.ply, view.ply + 1, "exactly one move at that ply");
    assert_eq!(env.svc.engine_jobs().await.expect("jobs"), vec![]);
    other.close().await;
}

async fn a_handed_back_job_is_taken_at_once_and_a_stale_one_is_dropped(db: TestDb) {
    let env = Env::new(db).await;
    let view = owed_game(&env.svc, alice()).await;
    let job = claimed(&env.svc, "a").await;
    // A process stopping hands its jobs back: anyone takes them without waiting the lease.
    assert_eq!(env.svc.release_engine_jobs_of("a").await, Ok(1));
    let again = claimed(&env.svc, "b").await;
    assert_eq!((again.game, again.ply), (job.game, job.ply));
    // The game moves on while the job is held (Alice resigns): the job is gone with it, and
    // its holder finds it moot.
    env.svc
        .resign(&at(alice()), Some(view.id))
        .await
        .expect("resigned");
    assert!(matches!(
        env.svc.engine_job_turn(&again).await,
        Ok(JobTurn::Dropped)
    ));
    assert_eq!(env.svc.engine_jobs().await.expect("jobs"), vec![]);
    // A job about a ply the game has left (written before a take-back, say) is dropped when
    // taken, and never played.
    let view = owed_game(&env.svc, bob()).await;
    let job = claimed(&env.svc, "b").await;
    let stale = EngineJob {
        ply: job.ply + 7,
        ..job.clone()
    };
    assert!(matches!(
        env.svc.engine_job_turn(&stale).await,
        Ok(JobTurn::Dropped)
    ));
    assert_eq!(
        env.svc.engine_jobs().await.expect("jobs").len(),
        1,
        "the current job stays"
    );
    assert!(play_job(&env.svc, &job).await.is_ok());
    assert_eq!(
        env.svc.game(view.guild, view.id).await.expect("game").ply,
        view.ply + 1
    );
}

both_stores!(
    a_job_is_owed_exactly_while_the_computer_is_to_act,
    two_claimers_never_take_the_same_job,
    a_lapsed_lease_hands_the_job_to_another_and_only_one_move_counts,
    a_handed_back_job_is_taken_at_once_and_a_stale_one_is_dropped,
);
