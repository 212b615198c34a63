//! The Discord front: poise slash commands, buttons, threads and pings over the game service.
//!
//! Thin glue (DESIGN.md section 1): an interaction becomes a service call, and the service's
//! typed answer becomes a message. Every button's `custom_id` names its game (or challenge) and
//! action and is checked against the stored state when clicked ([`buttons`]), so buttons keep
//! working after a restart. Errors go privately to whoever caused them, in their language.

pub mod buttons;
pub mod clocks;
mod commands;
pub mod engine;
mod localize;
pub mod offers;
pub mod picker;
mod post;
pub mod ratings;
pub mod renju;
pub mod review;
pub mod text;
pub mod tournaments;

use std::sync::{Arc, Weak};
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::{ClientBuilder, FullEvent, GatewayIntents, Http, HttpBuilder, Interaction};
use tracing::{error, info, warn};

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
        let setting = self
            .service
            .guild_settings(guild)
            .await
            .ok()
            .and_then(|s| s.locale);
        match setting.as_deref().and_then(Lang::from_code) {
            Some(l) => l,
            None => Lang::from_locale(guild_locale.unwrap_or("en")),
        }
    }
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
    }
}

/// The commands, with their Spanish and Finnish names and descriptions.
pub fn commands(i18n: &I18n) -> Vec<poise::Command<Data, Error>> {
    let mut list = commands::all();
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
    if let Err(e) = ctx
        .send(poise::CreateReply::default().content(text).ephemeral(true))
        .await
    {
        warn!(%e, "could not report an error to its caller");
    }
}

async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    match error {
        poise::FrameworkError::Command { error, ctx, .. } => {
            error!(command = %ctx.command().name, %error, "command failed");
            tell_privately(ctx, "err-internal").await;
        }
        poise::FrameworkError::EventHandler { error, .. } => {
            error!(%error, "event handler failed");
        }
        poise::FrameworkError::MissingUserPermissions { ctx, .. } => {
            tell_privately(ctx, "err-manage-server").await;
        }
        poise::FrameworkError::GuildOnly { ctx, .. } => {
            tell_privately(ctx, "err-guild-only").await;
        }
        other => {
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
        match service.expire_challenges().await {
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
    let engine = Arc::new(engine);
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
                tokio::spawn(clocks::sweep_clocks(
                    Arc::downgrade(&ctx.http),
                    Arc::downgrade(&service),
                    Arc::clone(&i18n),
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
                // Crash recovery: the moves the engine owes since before the restart.
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
    ClientBuilder::new_with_http(http, intents())
        .framework(framework)
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
        None => builder.build(),
    }
}

/// Runs the bot until it is stopped (Ctrl-C or SIGTERM) or the gateway gives up.
///
/// # Errors
/// A storage failure at start-up, or a Discord connection failure.
pub async fn run(config: Config) -> Result<(), Error> {
    let options = StoreOptions::new(config.database.url.clone());
    let service_config = ServiceConfig {
        challenge_ttl: Duration::from_secs(u64::from(config.game.challenge_expiry_hours) * 3600),
        max_open_games_per_pair: config.game.max_open_games_per_pair,
        seat_seed: None,
        vacation_days_per_year: config.game.vacation_days_per_year,
        clock_sweep_every: Duration::from_secs(u64::from(config.game.clock_sweep_seconds)),
        review_nodes: crate::service::review::NODE_BUDGET,
    };
    let service = Arc::new(Service::open(&options, service_config, Arc::new(SystemClock)).await?);
    info!(database = %redact_url(&config.database.url), "database ready, migrations applied");
    crate::render::warm_up();
    let i18n = Arc::new(I18n::load());
    let registration = config
        .discord
        .dev_guild_id
        .map_or(Registration::Global, Registration::Guild);
    let framework = framework_with_engine(
        Arc::clone(&service),
        i18n,
        registration,
        engine::Engine::new(config.game.engine_threads),
    );
    let mut client = client(http_client(&config), framework).await?;
    let shard_manager = Arc::clone(&client.shard_manager);
    tokio::spawn(async move {
        shutdown_signal().await;
        info!("shutting down");
        shard_manager.shutdown_all().await;
    });
    client.start().await?;
    service.close().await;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut term =
            match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
                Ok(s) => s,
                Err(_) => {
                    let _ = ctrl_c.await;
                    return;
                }
            };
        tokio::select! {
            _ = ctrl_c => {}
            _ = term.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = ctrl_c.await;
    }
}

/// A database URL fit for logs: any password in it is hidden.
fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            format!("{}://<redacted>@{}", &url[..scheme], &url[at + 1..])
        }
        _ => url.to_string(),
    }
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
