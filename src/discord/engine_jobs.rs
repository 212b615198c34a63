//! The engine's job taker (issue 11): a process that thinks for the computer takes the moves
//! it owes from the database under a lease, thinks on the engine's threads, commits the move
//! through the service with the job's ply, and posts the board (a follow-up to the member's
//! interaction when this process has it, else through the outbox's poster, over REST).
//!
//! Two ways in: a member's action in this process wrote the job leased to this process
//! ([`answer_own`], called at once after the member's reply, so the computer answers as
//! promptly as before jobs existed), and the loop ([`take_jobs`]) that takes jobs nobody holds
//! (written by a process that does not think, handed back, or whose holder died), waking every
//! `engine.job_poll_ms` or when woken. A worker killed while thinking loses nothing: its lease
//! runs out and another process takes the job; the move log's `(game_id, ply)` key lets only
//! one of two takers play a ply.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use tracing::{debug, info, warn};

use super::engine_pool::{Engine, Reply, Shared, post_move, slot_label};
use crate::ops::metrics;
use crate::service::{
    EngineJob, GameId, GameStatus, JobTurn, Service, ServiceError, take_last_nodes,
};

/// Takes of one job after which it is given up (a position the engine panics on would
/// otherwise be taken for ever, by every process in turn).
const MOST_ATTEMPTS: u32 = 5;

/// Takes jobs nobody holds until the process stops, at most `engine.job_options().slots` at
/// once; returns at once when the engine takes no jobs (`engine_threads = 0`). It holds the
/// service and client only while it works, so it ends with the client that started it.
pub async fn take_jobs(shared: Shared) {
    let options = shared.engine.job_options().clone();
    if options.slots == 0 {
        return;
    }
    shared
        .service
        .set_engine_job_holder(Some((shared.engine.holder(), options.lease)));
    let http = Arc::downgrade(&shared.http);
    let service = Arc::downgrade(&shared.service);
    let engine = Arc::downgrade(&shared.engine);
    let i18n = Arc::clone(&shared.i18n);
    drop(shared);
    let permits = Arc::new(tokio::sync::Semaphore::new(options.slots));
    loop {
        let Ok(permit) = Arc::clone(&permits).acquire_owned().await else {
            return;
        };
        let (Some(http), Some(service), Some(engine)) =
            (http.upgrade(), service.upgrade(), engine.upgrade())
        else {
            return;
        };
        if engine.is_stopping() {
            return;
        }
        match service
            .claim_engine_job(engine.holder(), options.lease)
            .await
        {
            Ok(Some(job)) => {
                let shared = Shared {
                    http,
                    service,
                    i18n: Arc::clone(&i18n),
                    engine,
                };
                tokio::spawn(async move {
                    work(&shared, job, Reply::default()).await;
                    drop(permit);
                });
                continue;
            }
            Ok(None) => {}
            Err(e) if service.is_closed() => {
                debug!(%e, "the database closed: no more engine jobs");
                return;
            }
            Err(e) => warn!(%e, "could not take an engine job"),
        }
        drop((permit, http, service));
        // Woken by this process (a job handed back, stopping), else the next look.
        tokio::select! {
            () = engine.wake.notified() => {}
            () = tokio::time::sleep(options.poll) => {}
        }
    }
}

/// After a member's action in this process made the computer owe the move at `ply` of
/// `game`: takes the job this process's commit wrote leased to it, and answers with `reply`.
pub async fn answer_own(shared: Shared, game: GameId, ply: u32, reply: Reply) {
    let engine = &shared.engine;
    let lease = engine.job_options().lease;
    match shared
        .service
        .claim_own_engine_job(game, ply, engine.holder(), lease)
        .await
    {
        Ok(Some(job)) => work(&shared, job, reply).await,
        // Written for anyone (before this process's taker started): the loop takes it.
        Ok(None) => engine.wake(),
        Err(e) => warn!(%e, game = game.0, "could not take the engine's job"),
    }
}

/// Counts the job as under way for as long as it lives.
struct Running<'a>(&'a Engine);

impl<'a> Running<'a> {
    fn start(engine: &'a Engine) -> Running<'a> {
        engine.running.fetch_add(1, Ordering::SeqCst);
        Running(engine)
    }
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Answers a taken job and, while the computer acts again in the same game (swap openings),
/// the jobs its own moves make.
async fn work(shared: &Shared, job: EngineJob, reply: Reply) {
    let _running = Running::start(&shared.engine);
    let mut job = job;
    // A bound on consecutive actions (swap2 has at most a few) guards against a loop.
    for _ in 0..8 {
        match answer(shared, &job, &reply).await {
            Some(next) => job = next,
            None => return,
        }
    }
}

/// Keeps renewing a job's lease while it is thought about (stops when dropped).
struct Renewal(tokio::task::JoinHandle<()>);

impl Drop for Renewal {
    fn drop(&mut self) {
        self.0.abort();
    }
}

fn renew_while_thinking(shared: &Shared, job: &EngineJob) -> Renewal {
    let service = Arc::clone(&shared.service);
    let holder = shared.engine.holder().to_owned();
    let lease = shared.engine.job_options().lease;
    let job = job.clone();
    Renewal(tokio::spawn(async move {
        loop {
            tokio::time::sleep(lease / 3).await;
            match service.renew_engine_job(&job, &holder, lease).await {
                Ok(true) => {}
                Ok(false) => {
                    debug!(
                        game = job.game.0,
                        "the engine job is no longer this process's"
                    );
                    return;
                }
                Err(e) => warn!(%e, game = job.game.0, "could not renew an engine job's lease"),
            }
        }
    }))
}

/// Hands a job back after a failure, or gives it up after [`MOST_ATTEMPTS`].
async fn give_back(shared: &Shared, job: &EngineJob) {
    let service = &shared.service;
    let done = if job.attempts >= MOST_ATTEMPTS {
        warn!(
            game = job.game.0,
            ply = job.ply,
            attempts = job.attempts,
            "giving up an engine job"
        );
        service.drop_engine_job(job).await
    } else {
        service
            .release_engine_job(job, shared.engine.holder())
            .await
    };
    if let Err(e) = done {
        warn!(%e, game = job.game.0, "could not hand an engine job back");
    }
}

/// Thinks about one job and commits the answer; the job the computer owes next in the same
/// game, taken, when it acts again at once.
async fn answer(shared: &Shared, job: &EngineJob, reply: &Reply) -> Option<EngineJob> {
    let service = &shared.service;
    let (turn, bot) = match service.engine_job_turn(job).await {
        Ok(JobTurn::Play(turn, bot)) => (Arc::<crate::service::EngineTurn>::from(turn), bot),
        Ok(JobTurn::Dropped) => {
            debug!(
                game = job.game.0,
                ply = job.ply,
                "dropped an engine job: the game moved on"
            );
            return None;
        }
        Err(e) => {
            warn!(%e, game = job.game.0, "could not read an engine job's game");
            give_back(shared, job).await;
            return None;
        }
    };
    let renewal = renew_while_thinking(shared, job);
    let thinking = Arc::clone(&turn);
    let thinker = Arc::clone(&shared.engine.thinker);
    let role = shared.engine.job_options().role;
    let thought = shared
        .engine
        .think(move || {
            let started = Instant::now();
            let _ = take_last_nodes();
            let action = thinker(&thinking);
            (
                action,
                started.elapsed(),
                take_last_nodes(),
                slot_label(role),
            )
        })
        .await;
    let Some((action, took, nodes, worker)) = thought else {
        warn!(game = job.game.0, "the engine failed on a position");
        drop(renewal);
        give_back(shared, job).await;
        return None;
    };
    let Some(action) = action.filter(|&a| turn.game.is_legal(a)) else {
        warn!(game = job.game.0, "the engine found no legal action");
        drop(renewal);
        if let Err(e) = service.drop_engine_job(job).await {
            warn!(%e, game = job.game.0, "could not drop an engine job");
        }
        return None;
    };
    // The commit deletes the job in the move's own transaction; the renewal stops after it.
    let played = service.play_engine_move(&turn, &bot, action).await;
    drop(renewal);
    match played {
        Ok(played) => {
            metrics::engine_move(turn.level.get(), took);
            metrics::engine_worker_move(worker, took, nodes);
            post_move(shared, reply, &played, bot.id).await;
            let view = &played.view;
            let again =
                view.status == GameStatus::Active && view.to_act().map(|s| s.user) == Some(bot.id);
            if !again {
                return None;
            }
            match service
                .claim_own_engine_job(
                    view.id,
                    view.ply,
                    shared.engine.holder(),
                    shared.engine.job_options().lease,
                )
                .await
            {
                Ok(next) => {
                    if next.is_none() {
                        shared.engine.wake();
                    }
                    next
                }
                Err(e) => {
                    warn!(%e, game = view.id.0, "could not take the engine's next job");
                    None
                }
            }
        }
        // The game moved on while the engine thought (a resignation, another process that
        // played this ply first): the job is moot.
        Err(ServiceError::PositionChanged | ServiceError::NotYourTurn | ServiceError::GameOver) => {
            debug!(
                game = job.game.0,
                "the position changed while the engine thought"
            );
            if let Err(e) = service.drop_engine_job(job).await {
                warn!(%e, game = job.game.0, "could not drop an engine job");
            }
            None
        }
        Err(e) => {
            warn!(%e, game = job.game.0, "the engine could not move");
            give_back(shared, job).await;
            None
        }
    }
}

/// At shutdown: takes no new jobs, lets those under way finish for up to `within`, then hands
/// back (releases the leases of) whatever this process still holds, so another process takes
/// them at once instead of after the lease.
pub async fn stop(engine: &Engine, service: &Service, within: Duration) {
    engine.stop_taking();
    // Jobs this process's last actions make are anyone's.
    service.set_engine_job_holder(None);
    let deadline = tokio::time::Instant::now() + within;
    while engine.jobs_running() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    match service.release_engine_jobs_of(engine.holder()).await {
        Ok(0) => {}
        Ok(n) => info!(jobs = n, "engine jobs handed back for another process"),
        Err(e) => warn!(%e, "could not hand the engine's jobs back"),
    }
}
