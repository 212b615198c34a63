//! `gomoku-bot worker` (issue 11): a process with no gateway connection that thinks for the
//! computer opponent. It takes the engine jobs from the database (PostgreSQL: any number of
//! workers and bot processes share them), commits each move through the service with the
//! job's ply, and its outbox poster posts the board through Discord's REST API.
//!
//! On SIGTERM or Ctrl-C it takes no new job, lets the moves it is thinking about finish for a
//! part of `shutdown_grace_seconds`, hands back the rest (another process takes them at once),
//! sends what its commits owe Discord, and exits 0; a second signal exits at once.

use std::sync::Arc;
use std::time::Duration;

use tracing::info;

use super::engine::{Engine, JobOptions, Shared};
use super::{Error, Operations, Signals, close_down, engine_jobs, http_client, open_service};
use crate::config::Config;
use crate::i18n::I18n;
use crate::ops::metrics::{self, WorkerRole};
use crate::ops::server::Probe;
use crate::service::Service;

/// Why a worker may not run on this database, in one line; `None` when it may.
pub fn refusal(database_url: &str) -> Option<String> {
    match crate::store::Backend::of_url(database_url) {
        Ok(crate::store::Backend::Postgres) => None,
        Ok(crate::store::Backend::Sqlite) => Some(
            "gomoku-bot worker needs PostgreSQL (database.url or DATABASE_URL = postgres://...): \
             SQLite is one process, where `gomoku-bot run` thinks for the computer itself"
                .to_string(),
        ),
        Err(e) => Some(e.to_string()),
    }
}

/// The readiness of a worker: the database answers and it is not stopping.
struct WorkerProbe {
    service: Arc<Service>,
    engine: Arc<Engine>,
}

#[async_trait::async_trait]
impl Probe for WorkerProbe {
    async fn ready(&self) -> Result<(), String> {
        if self.engine.is_stopping() {
            return Err("shutting down".into());
        }
        match tokio::time::timeout(Duration::from_secs(2), self.service.ping()).await {
            Ok(Ok(())) => Ok(()),
            Ok(Err(_)) => Err("the database does not answer".into()),
            Err(_) => Err("the database did not answer within 2 s".into()),
        }
    }

    async fn refresh(&self) {
        super::ops::refresh_engine_jobs(&self.service).await;
        let pools = self.service.pool_use();
        metrics::db_connections_in_use("writer", pools.writer);
        metrics::db_connections_in_use("reader", pools.reader);
    }
}

/// Runs a worker thinking on `threads` threads until it is stopped.
///
/// # Errors
/// The database cannot be opened (or is SQLite), or the HTTP client cannot be made.
pub async fn run(config: Config, threads: usize, operations: Operations) -> Result<(), Error> {
    if let Some(why) = refusal(&config.database.url) {
        return Err(why.into());
    }
    let service = open_service(&config).await?;
    crate::render::warm_up();
    let http = Arc::new(http_client(&config));
    let i18n = Arc::new(I18n::load());
    let engine = Arc::new(
        Engine::with_correspondence(threads, config.engine.correspondence_budget()).taking_jobs(
            JobOptions {
                slots: threads,
                role: WorkerRole::Worker,
                lease: config.engine.job_lease(),
                poll: config.engine.job_poll(),
            },
        ),
    );
    let shared = Shared {
        http: Arc::clone(&http),
        service: Arc::clone(&service),
        i18n: Arc::clone(&i18n),
        engine: Arc::clone(&engine),
    };
    // The boards of the moves this worker commits go out through the REST API; without a
    // gateway the bot's own id is not known here, which only spares a ping when the computer
    // is to act again. Only its own rows: a bot process's rows may carry an interaction's
    // answer, which only that process can tell apart from a post still owed; what a dead
    // process (this worker's previous life too) left is taken by the bots of its guilds'
    // shards after the hold.
    service.set_outbox_scope(crate::service::OutboxScope::Own);
    service.set_outbox_poster();
    tokio::spawn(super::outbox::run(
        Arc::downgrade(&http),
        Arc::downgrade(&service),
        Arc::clone(&i18n),
        None,
    ));
    let serving = operations.serve(|| WorkerProbe {
        service: Arc::clone(&service),
        engine: Arc::clone(&engine),
    });
    info!(
        threads,
        holder = engine.holder(),
        "engine worker taking jobs"
    );
    let taking = tokio::spawn(engine_jobs::take_jobs(shared));
    let grace = Duration::from_secs(u64::from(config.shutdown_grace_seconds));
    let mut signals = Signals::new()?;
    signals.next().await;
    engine.stop_taking();
    info!(
        running = engine.jobs_running(),
        grace_seconds = grace.as_secs(),
        "shutting down: no new engine jobs; those under way finish or are handed back"
    );
    signals.exit_on_second_or_after(grace);
    engine_jobs::stop(&engine, &service, grace / 2).await;
    // The taker may wait for a slot held by a move still thinking: it has nothing left to do.
    taking.abort();
    close_down(&service, grace, serving).await;
    Ok(())
}
