//! The bot's Prometheus metrics: every name, its meaning, and one function per thing counted.
//!
//! Recording goes through the [`metrics`] facade: without an installed recorder (metrics off,
//! tests, benchmarks, the command-line tools) every function here is a no-op costing one
//! atomic load. [`install`] puts the Prometheus recorder in place; `ops::server` renders it.
//!
//! # Adding a metric (for other features)
//! Add a name constant and a function here (a counter, gauge or histogram with bounded
//! labels: never a user, game, guild or message id), describe it in [`describe`], and list it
//! in README.md's "Operating the bot". Call the function from any layer: this module depends
//! on nothing else of the bot. Gauges that are read from the database or from a pool at scrape
//! time belong in the probe's `refresh` (see `discord::ops`) instead of a timer of their own.
//! The outbox (issue 16) and the engine workers (issue 11) already have their functions:
//! [`outbox_waiting`], [`outbox_oldest_age`], [`engine_jobs_waiting`], [`engine_workers_busy`].

use std::cell::Cell;
use std::future::Future;
use std::time::Duration;

use metrics::{
    Unit, counter, describe_counter, describe_gauge, describe_histogram, gauge, histogram,
};
use metrics_exporter_prometheus::{BuildError, Matcher, PrometheusBuilder, PrometheusHandle};

/// Interactions handled, by kind, name and outcome.
pub const INTERACTIONS: &str = "gomoku_interactions_total";
/// Seconds from an interaction's receipt to the end of its handling (its first reply is sent
/// within it).
pub const INTERACTION_SECONDS: &str = "gomoku_interaction_seconds";
/// Actions (moves, swaps, resignations, losses on time) committed to the move log.
pub const MOVES_COMMITTED: &str = "gomoku_moves_committed_total";
/// Games started, by family.
pub const GAMES_STARTED: &str = "gomoku_games_started_total";
/// Games finished, by family and how they ended.
pub const GAMES_FINISHED: &str = "gomoku_games_finished_total";
/// Challenges, by what became of them.
pub const CHALLENGES: &str = "gomoku_challenges_total";
/// Games in progress (the whole database).
pub const GAMES_ACTIVE: &str = "gomoku_games_active";
/// Games in progress whose player to act is past the deadline.
pub const GAMES_OVERDUE: &str = "gomoku_games_overdue";
/// Challenges waiting for an answer.
pub const CHALLENGES_OPEN: &str = "gomoku_challenges_open";
/// Moves the engine played.
pub const ENGINE_MOVES: &str = "gomoku_engine_moves_total";
/// Seconds the engine thought per move.
pub const ENGINE_THINKING_SECONDS: &str = "gomoku_engine_thinking_seconds";
/// Positions the engine's search visited (nodes per second: its rate over the thinking time's).
pub const ENGINE_NODES: &str = "gomoku_engine_nodes_total";
/// Engine jobs waiting for a thread or a worker.
pub const ENGINE_JOBS_WAITING: &str = "gomoku_engine_jobs_waiting";
/// Engine threads or workers thinking now.
pub const ENGINE_WORKERS_BUSY: &str = "gomoku_engine_workers_busy";
/// Moves the engine played, by worker (issue 11: `run-K` or `worker-K`, K a thread slot).
pub const ENGINE_WORKER_MOVES: &str = "gomoku_engine_worker_moves_total";
/// Seconds the engine thought per move, by worker.
pub const ENGINE_WORKER_THINKING_SECONDS: &str = "gomoku_engine_worker_thinking_seconds";
/// Positions the engine's search visited, by worker.
pub const ENGINE_WORKER_NODES: &str = "gomoku_engine_worker_nodes_total";
/// Seconds a write transaction's commit took, by operation.
pub const DB_COMMIT_SECONDS: &str = "gomoku_db_commit_seconds";
/// Database connections in use, by pool.
pub const DB_CONNECTIONS_IN_USE: &str = "gomoku_db_connections_in_use";
/// Storage failures, by kind.
pub const DB_ERRORS: &str = "gomoku_db_errors_total";
/// Discord REST requests the bot counts where it calls, by operation and HTTP status.
pub const REST_REQUESTS: &str = "gomoku_discord_requests_total";
/// Discord REST requests that failed, as the handlers saw them, by HTTP status.
pub const REST_FAILURES: &str = "gomoku_discord_rest_failures_total";
/// Times serenity's rate limiter held a request back (after a 429, or a route's bucket empty).
pub const REST_RATE_LIMITED: &str = "gomoku_discord_rate_limited_total";
/// Gateway sessions begun, by kind (`identify`: a new session, `resume`: a resumed one).
pub const GATEWAY_SESSIONS: &str = "gomoku_gateway_sessions_total";
/// Gateway connections after a shard's first session: resumed, or a new session identified.
pub const GATEWAY_RECONNECTS: &str = "gomoku_gateway_reconnects_total";
/// Shards of this process connected to the gateway.
pub const GATEWAY_SHARDS_CONNECTED: &str = "gomoku_gateway_shards_connected";
/// The last heartbeat's round trip, per shard, in seconds.
pub const GATEWAY_HEARTBEAT_SECONDS: &str = "gomoku_gateway_heartbeat_seconds";
/// Messages waiting in the outbox.
pub const OUTBOX_WAITING: &str = "gomoku_outbox_waiting";
/// Age of the oldest message waiting in the outbox, in seconds.
pub const OUTBOX_OLDEST_SECONDS: &str = "gomoku_outbox_oldest_seconds";
/// Outbox rows ended, by outcome (`sent`, `stale`, `failed`).
pub const OUTBOX_SENT: &str = "gomoku_outbox_sent_total";
/// Outbox attempts put off, by reason (`rate_limited`, `server_error`, `no_answer`).
pub const OUTBOX_RETRIES: &str = "gomoku_outbox_retries_total";
/// 1 while the bot is draining for a shutdown, else 0.
pub const SHUTTING_DOWN: &str = "gomoku_shutting_down";

/// Histogram buckets for answers to members (seconds): 5 ms to 10 s.
const ANSWER_BUCKETS: &[f64] = &[
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
/// Histogram buckets for database commits (seconds): 0.5 ms to 5 s.
const COMMIT_BUCKETS: &[f64] = &[
    0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0, 5.0,
];
/// The 64 labels `prefix0` to `prefix63`, made at compile time.
macro_rules! slots {
    ($prefix:literal) => {
        seq_slots!($prefix; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25
            26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53
            54 55 56 57 58 59 60 61 62 63)
    };
}
macro_rules! seq_slots {
    ($prefix:literal; $($n:literal)*) => {
        [$(concat!($prefix, $n)),*]
    };
}

/// Histogram buckets for the engine's thinking (seconds): 10 ms to 60 s.
const THINKING_BUCKETS: &[f64] = &[0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 60.0];

/// Builds the Prometheus recorder and installs it for the whole process.
///
/// # Errors
/// A recorder is already installed, or the bucket lists are refused.
pub fn install() -> Result<PrometheusHandle, BuildError> {
    let handle = builder()?.install_recorder()?;
    describe();
    Ok(handle)
}

/// The recorder's configuration: the bucket lists of the histograms.
///
/// # Errors
/// A bucket list is refused (never, for the fixed lists here).
pub fn builder() -> Result<PrometheusBuilder, BuildError> {
    PrometheusBuilder::new()
        .set_buckets_for_metric(Matcher::Full(INTERACTION_SECONDS.into()), ANSWER_BUCKETS)?
        .set_buckets_for_metric(Matcher::Full(DB_COMMIT_SECONDS.into()), COMMIT_BUCKETS)?
        .set_buckets_for_metric(
            Matcher::Full(ENGINE_THINKING_SECONDS.into()),
            THINKING_BUCKETS,
        )?
        .set_buckets_for_metric(
            Matcher::Full(ENGINE_WORKER_THINKING_SECONDS.into()),
            THINKING_BUCKETS,
        )
}

/// Gives every metric its help text (the `# HELP` lines).
pub fn describe() {
    describe_counter!(
        INTERACTIONS,
        "Interactions handled, by kind, name and outcome."
    );
    describe_histogram!(
        INTERACTION_SECONDS,
        Unit::Seconds,
        "From an interaction's receipt to the end of its handling."
    );
    describe_counter!(MOVES_COMMITTED, "Actions committed to the move log.");
    describe_counter!(GAMES_STARTED, "Games started, by family.");
    describe_counter!(GAMES_FINISHED, "Games finished, by family and reason.");
    describe_counter!(CHALLENGES, "Challenges, by what became of them.");
    describe_gauge!(GAMES_ACTIVE, "Games in progress (whole database).");
    describe_gauge!(GAMES_OVERDUE, "Games in progress past their deadline.");
    describe_gauge!(CHALLENGES_OPEN, "Challenges waiting for an answer.");
    describe_counter!(ENGINE_MOVES, "Moves the engine played, by level.");
    describe_histogram!(
        ENGINE_THINKING_SECONDS,
        Unit::Seconds,
        "Engine thinking time per move, by level."
    );
    describe_counter!(
        ENGINE_NODES,
        "Positions visited by the engine's search, by level (per second: over the thinking time)."
    );
    describe_gauge!(
        ENGINE_JOBS_WAITING,
        "Engine jobs in the database nobody holds (whole database)."
    );
    describe_gauge!(ENGINE_WORKERS_BUSY, "Engine threads thinking now.");
    describe_counter!(
        ENGINE_WORKER_MOVES,
        "Moves the engine played, by worker (process role and thread slot)."
    );
    describe_histogram!(
        ENGINE_WORKER_THINKING_SECONDS,
        Unit::Seconds,
        "Engine thinking time per move, by worker."
    );
    describe_counter!(
        ENGINE_WORKER_NODES,
        "Positions visited by the engine's search, by worker (per second: over the thinking time)."
    );
    describe_histogram!(
        DB_COMMIT_SECONDS,
        Unit::Seconds,
        "Write transaction commit time, by operation."
    );
    describe_gauge!(
        DB_CONNECTIONS_IN_USE,
        "Database connections in use, by pool."
    );
    describe_counter!(DB_ERRORS, "Storage failures, by kind.");
    describe_counter!(
        REST_REQUESTS,
        "Discord REST requests of the games, by operation and status."
    );
    describe_counter!(
        REST_FAILURES,
        "Failed Discord REST requests seen by handlers, by status."
    );
    describe_counter!(
        REST_RATE_LIMITED,
        "Requests held back by serenity's rate limiter (global: after a 429; route: after a 429 or with the route's bucket empty)."
    );
    describe_counter!(
        GATEWAY_SESSIONS,
        "Gateway sessions begun (identify or resume)."
    );
    describe_counter!(
        GATEWAY_RECONNECTS,
        "Gateway reconnections after a shard's first session (resumed or identified anew)."
    );
    describe_gauge!(
        GATEWAY_SHARDS_CONNECTED,
        "Shards of this process connected."
    );
    describe_gauge!(
        GATEWAY_HEARTBEAT_SECONDS,
        Unit::Seconds,
        "Last heartbeat round trip, per shard."
    );
    describe_gauge!(OUTBOX_WAITING, "Messages waiting in the outbox.");
    describe_gauge!(
        OUTBOX_OLDEST_SECONDS,
        Unit::Seconds,
        "Age of the oldest message waiting in the outbox."
    );
    describe_counter!(
        OUTBOX_SENT,
        "Outbox messages ended, by outcome (sent, stale, failed)."
    );
    describe_counter!(
        OUTBOX_RETRIES,
        "Outbox attempts put off, by reason (rate_limited, server_error, no_answer)."
    );
    describe_gauge!(SHUTTING_DOWN, "1 while draining for a shutdown.");
}

/// How an interaction ended, for [`INTERACTIONS`]'s `outcome` label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Answered as asked.
    Ok,
    /// Refused with a reason (bad input, not allowed, not your turn).
    Refused,
    /// Failed inside the bot.
    Error,
    /// Answered "restarting" during a shutdown.
    Restarting,
}

impl Outcome {
    /// The label value.
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::Refused => "refused",
            Outcome::Error => "error",
            Outcome::Restarting => "restarting",
        }
    }
}

tokio::task_local! {
    static OUTCOME: Cell<Outcome>;
}

/// Runs an interaction's handling, and returns what it gave with the outcome marked during it
/// ([`mark`]; `Ok` when nothing was marked).
pub async fn tracked<F: Future>(handling: F) -> (F::Output, Outcome) {
    OUTCOME
        .scope(Cell::new(Outcome::Ok), async move {
            let output = handling.await;
            (output, OUTCOME.with(Cell::get))
        })
        .await
}

/// Marks the interaction being handled (in this task) as `outcome`; the worst mark wins.
/// Outside [`tracked`] it does nothing.
pub fn mark(outcome: Outcome) {
    let _ = OUTCOME.try_with(|cell| cell.set(cell.get().max(outcome)));
}

/// Counts one handled interaction and its time. `kind` and `name` must come from bounded
/// sets (the registered commands, the button prefixes).
pub fn interaction(kind: &'static str, name: String, outcome: Outcome, took: Duration) {
    counter!(INTERACTIONS, "kind" => kind, "name" => name.clone(), "outcome" => outcome.name())
        .increment(1);
    histogram!(INTERACTION_SECONDS, "kind" => kind, "name" => name).record(took.as_secs_f64());
}

/// Counts actions committed to the move log.
pub fn moves_committed(n: u64) {
    counter!(MOVES_COMMITTED).increment(n);
}

/// Counts a game started in `family`.
pub fn game_started(family: &'static str) {
    counter!(GAMES_STARTED, "family" => family).increment(1);
}

/// Counts a game finished in `family` for `reason` (`line`, `captures`, `resignation`, ...).
pub fn game_finished(family: &'static str, reason: &'static str) {
    counter!(GAMES_FINISHED, "family" => family, "reason" => reason).increment(1);
}

/// Counts a challenge's step: `created`, `accepted`, `declined`, `cancelled` or `expired`.
pub fn challenge(outcome: &'static str) {
    counter!(CHALLENGES, "outcome" => outcome).increment(1);
}

/// The database-wide counts read at scrape time.
pub fn game_counts(active: u64, overdue: u64, open_challenges: u64) {
    gauge!(GAMES_ACTIVE).set(active as f64);
    gauge!(GAMES_OVERDUE).set(overdue as f64);
    gauge!(CHALLENGES_OPEN).set(open_challenges as f64);
}

/// Counts a move the engine played at `level` after thinking `took`.
pub fn engine_move(level: u8, took: Duration) {
    let level = level_label(level);
    counter!(ENGINE_MOVES, "level" => level).increment(1);
    histogram!(ENGINE_THINKING_SECONDS, "level" => level).record(took.as_secs_f64());
}

/// A level as a label (levels are 1 to 5), from a fixed set.
fn level_label(level: u8) -> &'static str {
    const LEVELS: [&str; 6] = ["0", "1", "2", "3", "4", "5"];
    LEVELS.get(usize::from(level)).copied().unwrap_or("other")
}

/// Counts positions the engine's search visited at `level` (the nodes per second are this
/// counter's rate over the rate of [`ENGINE_THINKING_SECONDS`]'s sum, by level).
pub fn engine_nodes(level: u8, nodes: u64) {
    counter!(ENGINE_NODES, "level" => level_label(level)).increment(nodes);
}

/// Counts a move played by `worker` (a bounded label: the process's role and a thread slot,
/// see [`worker_label`]) after thinking `took` and visiting `nodes` positions.
pub fn engine_worker_move(worker: &'static str, took: Duration, nodes: u64) {
    counter!(ENGINE_WORKER_MOVES, "worker" => worker).increment(1);
    histogram!(ENGINE_WORKER_THINKING_SECONDS, "worker" => worker).record(took.as_secs_f64());
    counter!(ENGINE_WORKER_NODES, "worker" => worker).increment(nodes);
}

/// The label of thread slot `slot` of a process in `role` (`run` or `worker`): from a fixed
/// set of 64 slots per role, never an id, so the label's values stay bounded.
pub fn worker_label(role: WorkerRole, slot: usize) -> &'static str {
    const RUN: [&str; 64] = slots!("run-");
    const WORKER: [&str; 64] = slots!("worker-");
    let table = match role {
        WorkerRole::Run => &RUN,
        WorkerRole::Worker => &WORKER,
    };
    table.get(slot).copied().unwrap_or("other")
}

/// The kind of process that takes engine jobs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WorkerRole {
    /// A bot process (`gomoku-bot run`) thinking beside its gateway.
    Run,
    /// An engine worker (`gomoku-bot worker`).
    Worker,
}

/// Sets how many engine jobs nobody holds, over the whole database.
pub fn engine_jobs_waiting(n: usize) {
    gauge!(ENGINE_JOBS_WAITING).set(n as f64);
}

/// Sets how many engine threads (or workers) are thinking now.
pub fn engine_workers_busy(n: usize) {
    gauge!(ENGINE_WORKERS_BUSY).set(n as f64);
}

/// Records a write transaction's commit time; `op` names the operation (bounded set).
pub fn db_commit(op: &'static str, took: Duration) {
    histogram!(DB_COMMIT_SECONDS, "op" => op).record(took.as_secs_f64());
}

/// Sets the connections in use of the pool `pool` (`writer`, `reader`).
pub fn db_connections_in_use(pool: &'static str, n: u32) {
    gauge!(DB_CONNECTIONS_IN_USE, "pool" => pool).set(f64::from(n));
}

/// Counts a storage failure of `kind` (`busy`, `full`, `corrupt`, ...).
pub fn db_error(kind: &'static str) {
    counter!(DB_ERRORS, "kind" => kind).increment(1);
}

/// Counts a Discord REST request of operation `op` (a fixed set) that ended with HTTP status
/// `status` (0: no answer).
pub fn rest_request(op: &'static str, status: u16) {
    counter!(REST_REQUESTS, "op" => op, "status" => status_label(status)).increment(1);
}

/// Counts a failed Discord REST request with HTTP status `status` (0: no answer).
pub fn rest_failure(status: u16) {
    counter!(REST_FAILURES, "status" => status_label(status)).increment(1);
}

/// A status code as a label, from a fixed set.
fn status_label(status: u16) -> &'static str {
    match status {
        200..=299 => "2xx",
        400 => "400",
        401 => "401",
        403 => "403",
        404 => "404",
        429 => "429",
        500..=599 => "5xx",
        0 => "none",
        _ => "other",
    }
}

/// Counts a rate limit that serenity's own limiter met (`global`: the bot-wide limit, else a
/// route's).
pub fn rate_limited(global: bool) {
    let scope = if global { "global" } else { "route" };
    counter!(REST_RATE_LIMITED, "scope" => scope).increment(1);
}

/// Counts a gateway session begun: `identify` (a new session) or `resume`.
pub fn gateway_session(kind: &'static str) {
    counter!(GATEWAY_SESSIONS, "kind" => kind).increment(1);
}

/// Counts a gateway reconnection: a shard resumed, or identified again after its first session.
pub fn gateway_reconnect() {
    counter!(GATEWAY_RECONNECTS).increment(1);
}

/// Sets the connected shards and each shard's last heartbeat round trip.
pub fn gateway_shards(connected: usize, heartbeats: &[(u32, Option<Duration>)]) {
    gauge!(GATEWAY_SHARDS_CONNECTED).set(connected as f64);
    for (shard, latency) in heartbeats {
        if let Some(latency) = latency {
            gauge!(GATEWAY_HEARTBEAT_SECONDS, "shard" => shard.to_string())
                .set(latency.as_secs_f64());
        }
    }
}

/// Sets the messages waiting in the outbox.
pub fn outbox_waiting(n: usize) {
    gauge!(OUTBOX_WAITING).set(n as f64);
}

/// Sets the age of the oldest message waiting in the outbox (zero when none waits).
pub fn outbox_oldest_age(age: Duration) {
    gauge!(OUTBOX_OLDEST_SECONDS).set(age.as_secs_f64());
}

/// Counts an outbox row ended with `outcome`.
pub fn outbox_sent(outcome: &'static str) {
    outbox_sent_many(outcome, 1);
}

/// Counts `n` outbox rows ended with `outcome` at once (a batch's answered boards).
pub fn outbox_sent_many(outcome: &'static str, n: u64) {
    counter!(OUTBOX_SENT, "outcome" => outcome).increment(n);
}

/// Counts an outbox attempt put off for `reason`.
pub fn outbox_retry(reason: &'static str) {
    counter!(OUTBOX_RETRIES, "reason" => reason).increment(1);
}

/// Sets whether the bot is draining for a shutdown.
pub fn shutting_down(draining: bool) {
    gauge!(SHUTTING_DOWN).set(if draining { 1.0 } else { 0.0 });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rendered(record: impl FnOnce()) -> String {
        let recorder = builder().unwrap().build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            describe();
            record();
        });
        handle.render()
    }

    #[test]
    fn counters_and_histograms_render_with_their_labels_and_help() {
        let text = rendered(|| {
            interaction(
                "command",
                "move".into(),
                Outcome::Ok,
                Duration::from_millis(30),
            );
            interaction(
                "command",
                "move".into(),
                Outcome::Refused,
                Duration::from_millis(3),
            );
            moves_committed(2);
            game_finished("pente", "captures");
            rest_failure(503);
            rest_failure(404);
        });
        assert!(
            text.contains(
                "gomoku_interactions_total{kind=\"command\",name=\"move\",outcome=\"ok\"} 1"
            ),
            "{text}"
        );
        assert!(text.contains("gomoku_moves_committed_total 2"), "{text}");
        assert!(
            text.contains("gomoku_games_finished_total{family=\"pente\",reason=\"captures\"} 1"),
            "{text}"
        );
        assert!(
            text.contains(
                "gomoku_interaction_seconds_bucket{kind=\"command\",name=\"move\",le=\"0.005\"} 1"
            ),
            "the 3 ms answer is in the 5 ms bucket: {text}"
        );
        assert!(text.contains("status=\"5xx\"} 1"), "{text}");
        assert!(
            text.contains("# HELP gomoku_moves_committed_total"),
            "{text}"
        );
    }

    #[test]
    fn status_labels_stay_in_a_fixed_set() {
        let labels: std::collections::BTreeSet<&str> = (0..=1000).map(status_label).collect();
        assert_eq!(labels.len(), 9, "{labels:?}");
    }

    #[tokio::test]
    async fn the_worst_mark_wins_and_marks_outside_do_nothing() {
        mark(Outcome::Error);
        let ((), outcome) = tracked(async {
            mark(Outcome::Refused);
            mark(Outcome::Ok);
        })
        .await;
        assert_eq!(outcome, Outcome::Refused);
        let ((), outcome) = tracked(async {}).await;
        assert_eq!(outcome, Outcome::Ok);
        let ((), outcome) = tracked(async {
            tokio::task::yield_now().await;
            mark(Outcome::Error);
            mark(Outcome::Refused);
        })
        .await;
        assert_eq!(outcome, Outcome::Error);
    }
}
