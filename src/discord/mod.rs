//! The Discord front: poise slash commands, buttons, threads and pings over the game service.
//!
//! Thin glue (DESIGN.md section 1): an interaction becomes a service call, and the service's
//! typed answer becomes a message. Every button's `custom_id` names its game (or challenge) and
//! action and is checked against the stored state when clicked ([`buttons`]), so buttons keep
//! working after a restart. Errors go privately to whoever caused them, in their language.

mod announce;
pub mod buttons;
mod choices;
mod clock_sweep;
pub mod clocks;
mod commands;
pub mod components;
mod context;
pub mod engine;
pub mod engine_jobs;
mod engine_pool;
pub mod fatal;
mod localize;
pub mod offers;
pub mod ops;
pub mod outbox;
mod outbox_notices;
mod outbox_tournaments;
pub mod picker;
mod post;
pub mod ratings;
pub mod renju;
pub mod rest;
pub mod review;
pub mod shards;
pub mod text;
pub mod tournaments;
pub mod worker;

/// Move suggestions for what a member typed (the /move autocompletion), for tests and fuzzing.
pub use post::point_suggestions;

use std::sync::{Arc, Weak};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ClientBuilder, FullEvent, GatewayIntents, Http, HttpBuilder, Interaction};
use tracing::{error, info, warn};

use self::rest::{Op, counted};
use crate::config::Config;
use crate::i18n::{I18n, Lang};
use crate::service::{
    Actor, ChannelId, GuildId, Service, ServiceConfig, SystemClock, UserId, UserInfo,
};
use crate::store::StoreOptions;

/// The error type of commands and handlers.
pub type Error = Box<dyn std::error::Error + Send + Sync>;
/// poise's context with our data.
pub type Context<'a> = poise::Context<'a, Data, Error>;

/// What every command and handler can reach.
pub struct Data {
    /// The game service.
    pub service: Arc<Service>,
    /// Translations.
    pub i18n: Arc<I18n>,
    /// The computer opponent (who it is, and its bounded thread pool).
    pub engine: Arc<engine::Engine>,
}

impl Data {
    /// What the engine's background work needs, with the client's HTTP handle.
    pub fn engine_shared(&self, sctx: &serenity::Context) -> engine::Shared {
        engine::Shared {
            http: Arc::clone(&sctx.http),
            service: Arc::clone(&self.service),
            i18n: Arc::clone(&self.i18n),
            engine: Arc::clone(&self.engine),
        }
    }

    /// The language of private replies to `user`: their preference, else their Discord locale.
    pub async fn private_lang(&self, user: UserId, locale: &str) -> Lang {
        match self.service.preferences(user).await {
            Ok(p) => p
                .language
                .as_deref()
                .and_then(Lang::from_code)
                .unwrap_or_else(|| Lang::from_locale(locale)),
            Err(_) => Lang::from_locale(locale),
        }
    }

    /// The language of public messages in a guild: its setting, else its Discord locale.
    pub async fn public_lang(&self, guild: GuildId, guild_locale: Option<&str>) -> Lang {
        guild_lang(&self.service, guild, guild_locale).await
    }
}

/// The language of public messages in a guild: its setting, else its Discord locale when one
/// is known (`guild_locale`, from an interaction), else English. The commands ask through
/// [`Data::public_lang`]; what posts outside an interaction (the engine's moves, the clocks,
/// the outbox, tournaments) asks here, with the locale it kept if any.
async fn guild_lang(service: &Service, guild: GuildId, guild_locale: Option<&str>) -> Lang {
    let setting = service
        .guild_settings(guild)
        .await
        .ok()
        .and_then(|s| s.locale);
    match setting.as_deref().and_then(Lang::from_code) {
        Some(l) => l,
        None => Lang::from_locale(guild_locale.unwrap_or("en")),
    }
}

/// Whether a guild's games are played in a thread of their own: its setting, else yes (the
/// settings' default) when they cannot be read. Asked wherever a game's first board goes out:
/// the answer to an accepted challenge or an engine game, the outbox, a tournament round.
async fn guild_threads(service: &Service, guild: GuildId) -> bool {
    service
        .guild_settings(guild)
        .await
        .map(|s| s.thread_per_game)
        .unwrap_or(true)
}

/// Where slash commands are registered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Registration {
    /// Everywhere (Discord may take a while to show changes).
    Global,
    /// In one guild only (instant; for development and tests).
    Guild(u64),
}

/// The name a member is shown by: their server nickname, global name, or user name.
pub fn display_name(user: &serenity::User, member: Option<&serenity::Member>) -> String {
    member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .unwrap_or_else(|| user.name.clone())
}

/// A service user from a Discord user.
pub fn user_info(user: &serenity::User, member: Option<&serenity::Member>) -> UserInfo {
    UserInfo {
        id: UserId(user.id.get()),
        name: display_name(user, member),
        is_bot: user.bot,
    }
}

/// A service actor from the parts of an interaction.
pub fn actor(
    guild: serenity::GuildId,
    channel: serenity::ChannelId,
    user: &serenity::User,
    member: Option<&serenity::Member>,
) -> Actor {
    Actor {
        guild: GuildId(guild.get()),
        channel: ChannelId(channel.get()),
        user: user_info(user, member),
        reply: None,
        owes_posts: true,
    }
}

/// Every command of the bot, in menu order (here, at the root of the Discord layer, so that
/// no command module needs to know the others).
fn all_commands() -> Vec<poise::Command<Data, Error>> {
    vec![
        commands::challenge(),
        commands::move_(),
        commands::board(),
        commands::games(),
        commands::resign(),
        commands::rules(),
        commands::prefs(),
        commands::settings(),
        commands::export(),
        offers::undo(),
        offers::draw(),
        clocks::vacation(),
        ratings::leaderboard(),
        ratings::rating(),
        ratings::history(),
        ratings::replay(),
        tournaments::tournament(),
        review::review(),
    ]
}

/// The commands, with their Spanish and Finnish names and descriptions.
pub fn commands(i18n: &I18n) -> Vec<poise::Command<Data, Error>> {
    let mut list = all_commands();
    localize::apply(&mut list, i18n);
    list
}

async fn on_event(ctx: &serenity::Context, event: &FullEvent, data: &Data) -> Result<(), Error> {
    if let FullEvent::InteractionCreate {
        interaction: Interaction::Component(click),
    } = event
    {
        buttons::handle(ctx, data, click).await?;
    }
    Ok(())
}

/// Tells the command's caller, privately and in their language, the message `key`.
async fn tell_privately(ctx: Context<'_>, key: &str) {
    let lang = ctx
        .data()
        .private_lang(UserId(ctx.author().id.get()), ctx.locale().unwrap_or("en"))
        .await;
    let text = ctx.data().i18n.get(lang, key);
    if let Err(e) = counted(
        Op::Answer,
        ctx.send(poise::CreateReply::default().content(text).ephemeral(true)),
    )
    .await
    {
        warn!(%e, "could not report an error to its caller");
    }
}

async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    use crate::ops::metrics::{Outcome, mark};
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            mark(Outcome::Error);
            ops::count_rest_failure(error.as_ref());
            error!(command = %ctx.command().name, %error, "command failed");
            tell_privately(ctx, "err-internal").await;
        }
        poise::FrameworkError::EventHandler { error, .. } => {
            mark(Outcome::Error);
            ops::count_rest_failure(error.as_ref());
            error!(%error, "event handler failed");
        }
        poise::FrameworkError::MissingUserPermissions { ctx, .. } => {
            mark(Outcome::Refused);
            tell_privately(ctx, "err-manage-server").await;
        }
        poise::FrameworkError::GuildOnly { ctx, .. } => {
            mark(Outcome::Refused);
            tell_privately(ctx, "err-guild-only").await;
        }
        other => {
            mark(Outcome::Refused);
            if let Err(e) = poise::builtins::on_error(other).await {
                warn!(%e, "could not report an error");
            }
        }
    }
}

/// Expires old challenges every minute and strikes their messages' buttons.
///
/// It holds only weak handles, so it ends once the client that started it is gone (an
/// in-process restart does not leave a second sweeper behind).
async fn sweep_challenges(http: Weak<Http>, service: Weak<Service>, i18n: Arc<I18n>) {
    let mut tick = tokio::time::interval(Duration::from_secs(60));
    loop {
        tick.tick().await;
        let (Some(http), Some(service)) = (http.upgrade(), service.upgrade()) else {
            return;
        };
        match service.expire_challenges_for(true).await {
            // With the outbox on, the edits were owed in the commits and the poster makes them.
            Ok(_) if service.outbox_on() => {}
            Ok(expired) => {
                for c in expired {
                    post::show_closed_challenge(&http, &service, &i18n, &c).await;
                }
            }
            Err(e) => warn!(%e, "challenge sweep failed"),
        }
    }
}

/// The poise framework over a service: commands, buttons, registration and the sweeper, with
/// the engine thinking on one thread.
pub fn framework(
    service: Arc<Service>,
    i18n: Arc<I18n>,
    registration: Registration,
) -> poise::Framework<Data, Error> {
    framework_with_engine(service, i18n, registration, engine::Engine::new(1))
}

/// [`framework`] with this computer opponent (its bound on threads: `engine_threads`).
pub fn framework_with_engine(
    service: Arc<Service>,
    i18n: Arc<I18n>,
    registration: Registration,
    engine: engine::Engine,
) -> poise::Framework<Data, Error> {
    framework_with_shared_engine(service, i18n, registration, Arc::new(engine))
}

/// [`framework_with_engine`] with an engine the caller keeps a handle on (to stop its job
/// taker and hand its jobs back at shutdown).
pub fn framework_with_shared_engine(
    service: Arc<Service>,
    i18n: Arc<I18n>,
    registration: Registration,
    engine: Arc<engine::Engine>,
) -> poise::Framework<Data, Error> {
    let commands = commands(&i18n);
    poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands,
            event_handler: |framework, event| {
                Box::pin(on_event(
                    framework.serenity_context,
                    event,
                    framework.user_data,
                ))
            },
            on_error: |error| Box::pin(on_error(error)),
            // Mentions are opted into message by message; nothing pings by default.
            allowed_mentions: Some(serenity::CreateAllowedMentions::new()),
            ..Default::default()
        })
        .setup(move |ctx, ready, framework| {
            Box::pin(async move {
                info!(user = %ready.user.name, guilds = ready.guilds.len(), "connected to Discord");
                match registration {
                    Registration::Global => {
                        poise::builtins::register_globally(ctx, &framework.options().commands)
                            .await?
                    }
                    Registration::Guild(id) => {
                        poise::builtins::register_in_guild(
                            ctx,
                            &framework.options().commands,
                            serenity::GuildId::new(id),
                        )
                        .await?;
                    }
                }
                tokio::spawn(sweep_challenges(
                    Arc::downgrade(&ctx.http),
                    Arc::downgrade(&service),
                    Arc::clone(&i18n),
                ));
                tokio::spawn(clock_sweep::sweep_clocks(
                    Arc::downgrade(&ctx.http),
                    Arc::downgrade(&service),
                    Arc::clone(&i18n),
                ));
                // The outbox's poster: what committed actions owe Discord, including what was
                // owed before a restart.
                service.set_outbox_poster();
                tokio::spawn(outbox::run(
                    Arc::downgrade(&ctx.http),
                    Arc::downgrade(&service),
                    Arc::clone(&i18n),
                    Some(UserId(ready.user.id.get())),
                ));
                tokio::spawn(tournaments::sweep_tournaments(
                    Arc::downgrade(&ctx.http),
                    Arc::downgrade(&service),
                    Arc::clone(&i18n),
                ));
                engine.set_bot(UserInfo {
                    id: UserId(ready.user.id.get()),
                    name: ready
                        .user
                        .global_name
                        .clone()
                        .unwrap_or_else(|| ready.user.name.clone()),
                    is_bot: true,
                });
                let data = Data {
                    service,
                    i18n,
                    engine,
                };
                // The moves the computer owes (since before a restart too) are jobs in the
                // database: this process takes them when it thinks (engine_threads > 0).
                tokio::spawn(engine::resume(data.engine_shared(ctx)));
                tokio::spawn(review::sweep_reviews(data.engine_shared(ctx)));
                Ok(data)
            })
        })
        .build()
}

/// The gateway intents the bot needs: guilds only (interactions arrive regardless).
pub fn intents() -> GatewayIntents {
    GatewayIntents::GUILDS
}

/// A serenity client for the framework over the given HTTP client.
///
/// # Errors
/// serenity's, when the client cannot be built.
pub async fn client(
    http: Http,
    framework: poise::Framework<Data, Error>,
) -> Result<serenity::Client, serenity::Error> {
    client_with_drain(http, framework, crate::ops::shutdown::Drain::new()).await
}

/// [`client`] whose interactions are refused ("restarting") once `drain` starts.
///
/// # Errors
/// serenity's, when the client cannot be built.
pub async fn client_with_drain(
    http: Http,
    framework: poise::Framework<Data, Error>,
    drain: Arc<crate::ops::shutdown::Drain>,
) -> Result<serenity::Client, serenity::Error> {
    ClientBuilder::new_with_http(http, intents())
        .framework(ops::Instrumented::new(framework, drain))
        .await
}

/// The HTTP client for the configuration: discord.com, or the configured base URL with
/// serenity's own rate limiter off (the proxy does the rate limiting).
pub fn http_client(config: &Config) -> Http {
    let builder = HttpBuilder::new(config.discord.token.expose());
    match &config.discord.api_url {
        Some(url) => builder
            .proxy(url.trim_end_matches('/'))
            .ratelimiter_disabled(true)
            .build(),
        None => {
            let mut http = builder.build();
            // Rate limits met by serenity's own limiter (with a proxy, the proxy meets them).
            if let Some(limiter) = http.ratelimiter.as_mut() {
                limiter.set_ratelimit_callback(Box::new(|info| {
                    crate::ops::metrics::rate_limited(info.global);
                }));
            }
            http
        }
    }
}

/// What the binary prepared for operating the bot before it runs.
#[derive(Debug, Default)]
pub struct Operations {
    /// The bound `/metrics`, `/healthz`, `/readyz` listener, when `metrics.listen` is set.
    pub listener: Option<crate::ops::server::Listener>,
    /// The installed Prometheus recorder's handle, when metrics are on.
    pub metrics: Option<metrics_exporter_prometheus::PrometheusHandle>,
}

impl Operations {
    /// Starts serving `/metrics`, `/healthz` and `/readyz` in the background when a listener
    /// is bound, readiness answered by the probe `probe` makes (only then). The bot and the
    /// worker start it alike; only their probes differ.
    fn serve<P: crate::ops::server::Probe + 'static>(self, probe: impl FnOnce() -> P) -> Serving {
        let Operations { listener, metrics } = self;
        let (stop, stopped) = tokio::sync::watch::channel(false);
        let task = listener.map(|listener| {
            if let Ok(addr) = listener.local_addr() {
                info!(%addr, "serving /metrics, /healthz and /readyz");
            }
            tokio::spawn(listener.serve(metrics, Arc::new(probe()), stopped))
        });
        Serving { stop, task }
    }
}

/// The operations listener serving in the background ([`Operations::serve`]).
struct Serving {
    /// Turned true to stop it.
    stop: tokio::sync::watch::Sender<bool>,
    /// Its task, when a listener was bound.
    task: Option<tokio::task::JoinHandle<()>>,
}

/// The last steps of stopping a process, the bot or a worker, once it takes no new work:
/// what its commits owe Discord goes out (for a fifth of `grace`), the outbox's poster stops
/// (within a tenth), then the database closes and, last, the operations listener.
async fn close_down(service: &Service, grace: Duration, serving: Serving) {
    flush_outbox(service, grace / 5).await;
    stop_poster(service, grace / 10).await;
    service.close().await;
    let _ = serving.stop.send(true);
    if let Some(task) = serving.task {
        let _ = task.await;
    }
    info!("stopped");
}

/// Runs the bot until it is stopped (Ctrl-C or SIGTERM) or the gateway gives up.
///
/// The first signal drains (see [`crate::ops::shutdown`]): new interactions are answered
/// "restarting", those in flight finish, then the gateway closes, the database is closed and
/// this returns, within `shutdown_grace_seconds`; past that, or on a second signal, the process
/// exits at once with status 1.
///
/// # Errors
/// A storage failure at start-up, or a Discord connection failure.
pub async fn run(config: Config, operations: Operations) -> Result<(), Error> {
    use crate::ops::shutdown::Drain;

    let service = open_service(&config).await?;
    crate::render::warm_up();
    let i18n = Arc::new(I18n::load());
    let registration = config
        .discord
        .dev_guild_id
        .map_or(Registration::Global, Registration::Guild);
    let engine = Arc::new(
        engine::Engine::with_correspondence(
            config.game.engine_threads,
            config.engine.correspondence_budget(),
        )
        .taking_jobs(engine::JobOptions {
            slots: config.game.engine_threads,
            role: crate::ops::metrics::WorkerRole::Run,
            lease: config.engine.job_lease(),
            poll: config.engine.job_poll(),
        }),
    );
    let framework = framework_with_shared_engine(
        Arc::clone(&service),
        i18n,
        registration,
        Arc::clone(&engine),
    );
    let drain = Drain::new();
    let mut client = client_with_drain(http_client(&config), framework, Arc::clone(&drain)).await?;
    // Before the probe: it must know how many shards this process should have connected.
    let shards = shards::resolve(config.discord.shard_plan()?, &client.http).await?;
    info!(shards = %shards, "connecting the gateway shards");
    // With a range of its own, this process posts what is owed in its shards' guilds (and
    // what it wrote itself); other processes post the rest.
    if shards.count() < shards.total {
        service.set_outbox_scope(crate::service::OutboxScope::Shards(
            crate::service::GuildShards {
                first: shards.first,
                last: shards.last,
                total: shards.total,
            },
        ));
    }
    let shard_manager = Arc::clone(&client.shard_manager);
    let serving = operations.serve(|| {
        ops::BotProbe::new(
            Arc::clone(&service),
            Arc::clone(&shard_manager),
            shards.count(),
            Arc::clone(&drain),
        )
    });
    let grace = Duration::from_secs(u64::from(config.shutdown_grace_seconds));
    tokio::spawn(stop_on_signal(
        Arc::clone(&drain),
        shard_manager,
        Arc::clone(&engine),
        grace,
    ));
    shards::start(&mut client, shards).await?;
    // Events the gateway delivered just before it closed run in tasks of their own that may
    // not have begun yet: let them begin, then wait for them (the watchdog bounds this).
    tokio::time::sleep(Duration::from_millis(100)).await;
    drain.wait_idle(grace).await;
    // The engine finishes what it is thinking about within a fifth of the grace, and hands
    // back the rest (another process takes it at once).
    engine_jobs::stop(&engine, &service, grace / 5).await;
    close_down(&service, grace, serving).await;
    Ok(())
}

/// Opens the configuration's database (migrations applied) under a service.
async fn open_service(config: &Config) -> Result<Arc<Service>, Error> {
    let options = StoreOptions::new(config.database.url.clone());
    let service_config = ServiceConfig {
        challenge_ttl: Duration::from_secs(u64::from(config.game.challenge_expiry_hours) * 3600),
        max_open_games_per_pair: config.game.max_open_games_per_pair,
        seat_seed: None,
        vacation_days_per_year: config.game.vacation_days_per_year,
        clock_sweep_every: Duration::from_secs(u64::from(config.game.clock_sweep_seconds)),
        review_nodes: crate::service::review::NODE_BUDGET,
    };
    let service = Service::open(&options, service_config, Arc::new(SystemClock))
        .await
        .map_err(|source| fatal::DatabaseAtStart {
            database: redact_url(&config.database.url),
            source,
        })?;
    info!(database = %redact_url(&config.database.url), "database ready, migrations applied");
    let service = Arc::new(service);
    // Other processes' commits drop what this one holds in memory (PostgreSQL). Without the
    // listener nothing is wrong, only slower: a stale game is reloaded on a conflict.
    if let Err(e) = service.follow_changes().await {
        warn!(%e, "not listening for other processes' changes");
    }
    Ok(service)
}

/// Gives the outbox's poster (still running) a bounded time to send what the last actions owe
/// Discord, and to record what it sent, before the database closes. What is left is durable:
/// the next start posts it, so running out of time here loses nothing.
pub(crate) async fn flush_outbox(service: &Service, within: Duration) {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match service.outbox_pending().await {
            Ok(0) => return,
            Ok(owed) if tokio::time::Instant::now() >= deadline => {
                info!(owed, "messages left in the outbox for the next start");
                return;
            }
            Ok(_) => service.outbox_wake(),
            Err(e) => {
                warn!(%e, "could not read the outbox before stopping");
                return;
            }
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

/// Stops the outbox's poster before the database closes, waiting at most `within` for the
/// round under way (its posts are recorded or stay owed: nothing is lost either way).
pub(crate) async fn stop_poster(service: &Service, within: Duration) {
    if tokio::time::timeout(within, service.stop_outbox_poster())
        .await
        .is_err()
    {
        info!("the outbox's poster was still in a round at the stop");
    }
}

/// On the first signal: drain, then close the gateway (which ends `client.start()`), all
/// within `grace`; a second signal, or the grace running out, exits the process at once.
async fn stop_on_signal(
    drain: Arc<crate::ops::shutdown::Drain>,
    shard_manager: Arc<serenity::ShardManager>,
    engine: Arc<engine::Engine>,
    grace: Duration,
) {
    let mut signals = match Signals::new() {
        Ok(s) => s,
        Err(e) => {
            warn!(%e, "cannot listen for SIGTERM and Ctrl-C; stop the bot with SIGKILL");
            return;
        }
    };
    signals.next().await;
    drain.start();
    // No new engine jobs from now on: what this process has not begun is another's.
    engine.stop_taking();
    info!(
        in_flight = drain.in_flight(),
        grace_seconds = grace.as_secs(),
        "shutting down: new interactions are answered \"restarting\", those in flight finish"
    );
    signals.exit_on_second_or_after(grace);
    // Most of the grace for the work in flight; the rest to close the gateway and database.
    let for_work = grace.mul_f64(0.75);
    if !drain.wait_idle(for_work).await {
        warn!(
            in_flight = drain.in_flight(),
            "interactions still in flight after {:?}; closing the gateway anyway", for_work
        );
    }
    shard_manager.shutdown_all().await;
}

/// SIGTERM and SIGINT (Ctrl-C), listened to once for the whole run, so that a second signal
/// is told from the first.
struct Signals {
    #[cfg(unix)]
    term: tokio::signal::unix::Signal,
    #[cfg(unix)]
    int: tokio::signal::unix::Signal,
}

impl Signals {
    fn new() -> std::io::Result<Signals> {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Ok(Signals {
                term: signal(SignalKind::terminate())?,
                int: signal(SignalKind::interrupt())?,
            })
        }
        #[cfg(not(unix))]
        {
            Ok(Signals {})
        }
    }

    /// The shutdown's watchdog, once the first signal has come: a second signal, or `grace`
    /// running out, exits the process at once (status 1), whatever is still running.
    fn exit_on_second_or_after(mut self, grace: Duration) {
        tokio::spawn(async move {
            tokio::select! {
                () = self.next() => error!("a second signal: exiting at once"),
                () = tokio::time::sleep(grace) => {
                    error!(grace_seconds = grace.as_secs(), "the shutdown took too long: exiting");
                }
            }
            std::process::exit(1);
        });
    }

    /// Waits for the next signal.
    async fn next(&mut self) {
        #[cfg(unix)]
        {
            tokio::select! {
                _ = self.term.recv() => {}
                _ = self.int.recv() => {}
            }
        }
        #[cfg(not(unix))]
        {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// A database URL fit for logs: any password in it is hidden.
fn redact_url(url: &str) -> String {
    crate::store::redact_url(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_in_database_urls_stay_out_of_logs() {
        assert_eq!(
            redact_url("postgres://bot:secret@db/games"),
            "postgres://<redacted>@db/games"
        );
        assert_eq!(
            redact_url("sqlite://gomoku-bot.db"),
            "sqlite://gomoku-bot.db"
        );
    }
}
