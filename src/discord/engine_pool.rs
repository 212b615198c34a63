//! The engine's think pool and what the engine's background work shares: a fixed number of
//! dedicated threads ([`Engine`]), how a process takes jobs ([`JobOptions`]), the handles the
//! work holds ([`Shared`]), and the posting of the engine's move with its board.
//!
//! The engine never thinks on the async runtime's threads: moves are computed on a pool of
//! exactly `engine_threads` dedicated threads, in the order they were asked for, so at most
//! that many threads think at once over all games. Members' replies are sent before the
//! engine starts, and on Linux the engine's threads run at a lower priority (nice 10), so
//! a CPU shared with thinking games still answers members first.
//!
//! Below `engine` (the `/challenge` against the computer, resuming after a restart, the
//! answer after a member's action) and `engine_jobs` (the job taker), which both use it, so
//! that the job taker needs nothing of `engine`; it posts with `post`, below it.

use crate::ops::metrics;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex, OnceLock};

use poise::serenity_prelude as serenity;
use serenity::Http;
use serenity::builder::Builder;
use tracing::{debug, warn};

use super::post::{self, board_message_with};
use super::rest::{Op, counted};
use super::text;
use crate::i18n::I18n;
use crate::rules::Action;
use crate::service::{EngineTurn, GameView, OutboxNote, Played, Service, UserId, UserInfo};

/// How the engine chooses its action for a position (CPU-bound; run on the blocking pool).
pub type Thinker = Arc<dyn Fn(&EngineTurn) -> Option<Action> + Send + Sync>;

/// A job for the engine's threads.
type Job = Box<dyn FnOnce() + Send>;

/// A fixed number of dedicated threads, at lowered priority, running jobs in order.
struct ThinkPool {
    jobs: std::sync::mpsc::Sender<Job>,
    /// Jobs sent and not yet taken by a thread, then jobs running (for the metrics).
    load: Arc<PoolLoad>,
}

/// How busy the pool is, kept for the metrics' gauges.
#[derive(Default)]
struct PoolLoad {
    waiting: std::sync::atomic::AtomicUsize,
    busy: std::sync::atomic::AtomicUsize,
}

impl ThinkPool {
    fn new(threads: usize) -> ThinkPool {
        let (jobs, queue) = std::sync::mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..threads {
            let queue = Arc::clone(&queue);
            let spawned = std::thread::Builder::new()
                .name(format!("engine-{i}"))
                .spawn(move || {
                    lower_priority();
                    SLOT.with(|s| s.set(i));
                    loop {
                        // One idle thread waits on the queue; the others wait for the lock.
                        let job = match queue.lock() {
                            Ok(q) => q.recv(),
                            Err(_) => return,
                        };
                        match job {
                            // A panicking player loses its answer, not the thread.
                            Ok(job) => {
                                let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
                            }
                            // The engine is gone: so is its pool.
                            Err(_) => return,
                        }
                    }
                });
            if let Err(e) = spawned {
                warn!(%e, "could not start an engine thread");
            }
        }
        ThinkPool {
            jobs,
            load: Arc::default(),
        }
    }

    /// Runs `f` on one of the pool's threads; `None` if it panicked or the pool is gone.
    async fn run<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
        use std::sync::atomic::Ordering::Relaxed;
        let (answer, answered) = tokio::sync::oneshot::channel();
        let load = Arc::clone(&self.load);
        load.waiting.fetch_add(1, Relaxed);
        let sent = self.jobs.send(Box::new(move || {
            load.waiting.fetch_sub(1, Relaxed);
            metrics::engine_workers_busy(load.busy.fetch_add(1, Relaxed) + 1);
            let _ = answer.send(f());
            metrics::engine_workers_busy(load.busy.fetch_sub(1, Relaxed).saturating_sub(1));
        }));
        if sent.is_err() {
            self.load.waiting.fetch_sub(1, Relaxed);
            return None;
        }
        answered.await.ok()
    }
}

thread_local! {
    /// The index of an engine thread in its pool (the metrics' per-worker slot).
    static SLOT: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// The metrics' `worker` label of the engine thread running this (call it on one).
pub(super) fn slot_label(role: metrics::WorkerRole) -> &'static str {
    metrics::worker_label(role, SLOT.with(std::cell::Cell::get))
}

/// Lowers the calling thread's scheduling priority (Linux: nice 10 for this thread alone), so
/// that the engine yields the CPU to the threads that answer members. A process that already
/// runs nicer than 10 keeps its own value: run as root, a plain `setpriority(10)` would raise
/// the engine above the threads that answer members.
#[cfg(target_os = "linux")]
fn lower_priority() {
    // SAFETY: gettid has no preconditions; getpriority and setpriority only read their
    // arguments, and with PRIO_PROCESS and a thread id they concern that one thread.
    let failed = unsafe {
        let tid = libc::gettid();
        let current = libc::getpriority(libc::PRIO_PROCESS, tid as libc::id_t);
        libc::setpriority(libc::PRIO_PROCESS, tid as libc::id_t, current.max(10)) != 0
    };
    if failed {
        debug!("could not lower an engine thread's priority");
    }
}

#[cfg(not(target_os = "linux"))]
fn lower_priority() {}

/// How a process takes engine jobs (issue 11).
#[derive(Clone, Debug)]
pub struct JobOptions {
    /// Jobs thought about at once (0: this process takes none and leaves them to workers).
    pub slots: usize,
    /// The kind of process, for the metrics' `worker` label.
    pub role: metrics::WorkerRole,
    /// How long a taken job is held; renewed every third of it while thinking.
    pub lease: std::time::Duration,
    /// How often to look for jobs written by other processes (this process's own commits
    /// wake the taker at once).
    pub poll: std::time::Duration,
}

impl JobOptions {
    /// A bot process taking jobs on `slots` threads, with the default lease (30 s) and poll
    /// (250 ms).
    pub fn run(slots: usize) -> JobOptions {
        JobOptions {
            slots,
            role: metrics::WorkerRole::Run,
            lease: std::time::Duration::from_secs(30),
            poll: std::time::Duration::from_millis(250),
        }
    }
}

/// The computer opponent's seat in the bot: who it is, and the threads it may think on.
pub struct Engine {
    pool: ThinkPool,
    threads: usize,
    bot: OnceLock<UserInfo>,
    /// How the engine chooses its action (the job taker calls it on the pool's threads).
    pub(super) thinker: Thinker,
    /// How this process takes jobs.
    pub(super) jobs: JobOptions,
    /// This process's name on the leases it takes (random per process: never reused).
    pub(super) holder: String,
    /// Wakes the job taker (a commit made a job here, or the process is stopping).
    pub(super) wake: tokio::sync::Notify,
    /// Set once the process stops: no new jobs are taken.
    pub(super) stopping: std::sync::atomic::AtomicBool,
    /// Jobs being worked on now.
    pub(super) running: std::sync::atomic::AtomicUsize,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Engine")
            .field("threads", &self.threads)
            .field("bot", &self.bot.get())
            .field("jobs", &self.jobs)
            .finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine that thinks on at most `threads` threads at once (at least 1), with the
    /// player of each game's rules and level at the levels' default budgets.
    pub fn new(threads: usize) -> Engine {
        Engine::with_thinker(threads, Arc::new(EngineTurn::think))
    }

    /// As [`Engine::new`], level 6 (correspondence) thinking `correspondence` a move.
    pub fn with_correspondence(threads: usize, correspondence: std::time::Duration) -> Engine {
        Engine::with_thinker(
            threads,
            Arc::new(move |turn: &EngineTurn| turn.think_correspondence(correspondence)),
        )
    }

    /// An engine that chooses with `thinker` (benchmarks and tests stand in a player of
    /// their own; the bound on threads is the same). It takes jobs on as many threads.
    pub fn with_thinker(threads: usize, thinker: Thinker) -> Engine {
        let threads = threads.max(1);
        let holder = format!("{:016x}", rand::random::<u64>());
        Engine {
            pool: ThinkPool::new(threads),
            threads,
            bot: OnceLock::new(),
            thinker,
            jobs: JobOptions::run(threads),
            holder,
            wake: tokio::sync::Notify::new(),
            stopping: std::sync::atomic::AtomicBool::new(false),
            running: std::sync::atomic::AtomicUsize::new(0),
        }
    }

    /// This engine taking jobs as `jobs` says (0 slots: none; the pool keeps one thread for
    /// reviews).
    #[must_use]
    pub fn taking_jobs(mut self, jobs: JobOptions) -> Engine {
        self.holder = format!(
            "{}-{:016x}",
            match jobs.role {
                metrics::WorkerRole::Run => "run",
                metrics::WorkerRole::Worker => "worker",
            },
            rand::random::<u64>()
        );
        self.jobs = jobs;
        self
    }

    /// How this engine takes jobs.
    pub fn job_options(&self) -> &JobOptions {
        &self.jobs
    }

    /// This process's name on the leases it holds.
    pub fn holder(&self) -> &str {
        &self.holder
    }

    /// Runs other engine work (a review's position) on the engine's threads, in turn with
    /// the games' moves; `None` if it panicked or the pool is gone.
    pub async fn run_job<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        self.pool.run(f).await
    }

    /// The most threads thinking at once.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Records the bot's own user (known once connected); the engine plays under it.
    pub fn set_bot(&self, user: UserInfo) {
        let _ = self.bot.set(user);
    }

    /// The bot's own user, once connected.
    pub fn bot(&self) -> Option<&UserInfo> {
        self.bot.get()
    }

    /// Whether the engine is the one to act in a game (nobody needs a ping then).
    pub fn acts_in(&self, view: &GameView) -> bool {
        self.bot()
            .is_some_and(|b| view.to_act().map(|s| s.user) == Some(b.id))
    }

    /// Wakes this process's job taker (a job may be waiting).
    pub fn wake(&self) {
        self.wake.notify_one();
    }

    /// Stops taking jobs (a process shutting down); jobs under way go on.
    pub fn stop_taking(&self) {
        self.stopping
            .store(true, std::sync::atomic::Ordering::SeqCst);
        self.wake.notify_one();
    }

    /// Whether [`Engine::stop_taking`] was called.
    pub fn is_stopping(&self) -> bool {
        self.stopping.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Jobs being worked on now.
    pub fn jobs_running(&self) -> usize {
        self.running.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// Runs `f` on one of the engine's threads (a job's thinking).
    pub(super) async fn think<T: Send + 'static>(
        &self,
        f: impl FnOnce() -> T + Send + 'static,
    ) -> Option<T> {
        self.pool.run(f).await
    }
}

/// Where the engine's answer goes: the interaction's follow-up while its token is fresh, else
/// a message in the game's channel.
#[derive(Clone, Debug, Default)]
pub struct Reply {
    /// The interaction token to follow up on (only when the game lives in its channel).
    pub token: Option<String>,
    /// The guild's Discord locale, for the public language.
    pub guild_locale: Option<String>,
    /// The largest picture the message may carry.
    pub attachment_size_limit: Option<u32>,
}

/// What the engine task needs, shared with the framework's data.
#[derive(Clone)]
pub struct Shared {
    /// Discord's REST client.
    pub http: Arc<Http>,
    /// The game service.
    pub service: Arc<Service>,
    /// Translations.
    pub i18n: Arc<I18n>,
    /// The engine.
    pub engine: Arc<Engine>,
}

/// Posts the engine's move with the board: as a follow-up when there is a token, else (or
/// when the follow-up fails) in the game's channel.
pub(super) async fn post_move(shared: &Shared, reply: &Reply, played: &Played, bot: UserId) {
    let view = &played.view;
    let lang = super::guild_lang(&shared.service, view.guild, reply.guild_locale.as_deref()).await;
    let prefs = post::viewer_prefs(&shared.service, view).await;
    let ping = post::wants_ping(view, &prefs);
    let limit = reply.attachment_size_limit.unwrap_or(8 << 20);
    let build = || {
        let lead = text::move_text(&shared.i18n, lang, view, bot, &played.report);
        board_message_with(&shared.i18n, lang, view, &prefs, Some(lead), ping, limit)
    };
    // The follow-up is the interaction's own answer; otherwise (or when it fails) the
    // outbox's poster posts the board in the game's channel, and sends the ping either way.
    if let Some(token) = &reply.token {
        let followup = build().followup();
        let sent = followup.execute(&*shared.http, (None, token.as_str()));
        match counted(Op::Followup, sent).await {
            Ok(m) => {
                let note = OutboxNote {
                    answered: Some(m.id.get()),
                    ..OutboxNote::default()
                };
                shared.service.outbox_release(view.id, view.ply, note);
                return;
            }
            Err(e) => {
                warn!(%e, game = view.id.0, "engine follow-up failed; posting in the channel")
            }
        }
    }
    let note = OutboxNote {
        answered: None,
        lead: Some(text::move_text(
            &shared.i18n,
            lang,
            view,
            bot,
            &played.report,
        )),
        lang: Some(lang.code().to_owned()),
        ..OutboxNote::default()
    };
    shared.service.outbox_release(view.id, view.ply, note);
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    use super::*;

    #[tokio::test]
    async fn the_pool_never_runs_more_jobs_than_its_threads_and_survives_a_panic() {
        for threads in [1usize, 2] {
            let pool = Arc::new(ThinkPool::new(threads));
            let running = Arc::new(AtomicUsize::new(0));
            let most = Arc::new(AtomicUsize::new(0));
            let mut waiting = Vec::new();
            for i in 0..6 {
                let (pool, running, most) = (pool.clone(), running.clone(), most.clone());
                waiting.push(tokio::spawn(async move {
                    pool.run(move || {
                        // Never a runtime thread: one of the pool's own.
                        let name = std::thread::current().name().map(str::to_owned);
                        assert!(name.is_some_and(|n| n.starts_with("engine-")));
                        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                        most.fetch_max(now, Ordering::SeqCst);
                        std::thread::sleep(Duration::from_millis(20));
                        running.fetch_sub(1, Ordering::SeqCst);
                        i
                    })
                    .await
                }));
            }
            let mut answers = Vec::new();
            for w in waiting {
                answers.push(w.await.expect("joined"));
            }
            assert_eq!(answers, (0..6).map(Some).collect::<Vec<_>>());
            assert_eq!(most.load(Ordering::SeqCst), threads, "{threads} thread(s)");
            // A panicking job loses its answer; the pool goes on with all its threads.
            assert_eq!(pool.run(|| -> u8 { panic!("a broken player") }).await, None);
            assert_eq!(pool.run(|| 7).await, Some(7));
        }
    }

    #[cfg(target_os = "linux")]
    #[tokio::test]
    async fn engine_threads_run_at_a_lower_priority() {
        let pool = ThinkPool::new(1);
        // SAFETY: as in lower_priority; getpriority only reads.
        let nice = pool
            .run(|| unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) })
            .await;
        // SAFETY: as above, for the test's own thread.
        let ours = unsafe { libc::getpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t) };
        // Nice 10, or the process's own when it was already nicer.
        assert_eq!(nice, Some(ours.max(10)));
    }
}
