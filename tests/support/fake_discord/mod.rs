//! A fake Discord at the wire, for end-to-end tests of the real serenity/poise client.
//!
//! The fake serves Discord's REST API v10 over HTTP and a websocket gateway, both on 127.0.0.1
//! with random ports, inside the test process. The bot under test is the real serenity
//! `Client`: only its base URL differs. Nothing leaves 127.0.0.1.
//!
//! # Using it
//!
//! ```ignore
//! #[path = "../support/mod.rs"]
//! mod support;
//! use support::fake_discord::{message_id, Click, ErrorAnswer, FakeDiscord, Req, RunningBot, SlashCommand};
//!
//! #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
//! async fn ping_answers() {
//!     // 1. Start the fake (a guild, a #general channel, a default user "player").
//!     let fake = FakeDiscord::start().await;
//!     // 2. Start the bot against it. `fake.http()` is
//!     //    `HttpBuilder::new(token).proxy(base_url).ratelimiter_disabled(true).build()`.
//!     let client = serenity::all::ClientBuilder::new_with_http(fake.http(), intents)
//!         .framework(framework)
//!         .await
//!         .unwrap();
//!     let bot = RunningBot::spawn(client);
//!     // 3. Wait for the bot to connect and register its commands.
//!     fake.wait_until_ready().await;
//!     fake.next_request(&Req::put("/applications/*/commands")).await;
//!     // 4. Inject interactions; they are built from tests/fixtures/discord/ and checked
//!     //    against the registered command (names, types, choices, required options).
//!     let alice = fake.add_user("alice");
//!     let sent = fake.send(SlashCommand::new("ping").by(&alice)).await;
//!     // 5. Await the bot's requests (no sleeps): each call hands out the earliest request
//!     //    that matches and was not handed out before, waiting up to the configured timeout.
//!     let answer = fake.next_request(&Req::callback(&sent)).await;
//!     assert_eq!(answer.json().unwrap()["data"]["content"], "pong");
//!     // Click a button on a message the bot posted (the fake stores every message).
//!     let message = fake.original_message(&sent).unwrap();
//!     fake.send(Click::button(message_id(&message), "game:1:accept").by(&alice)).await;
//!     // 6. Make routes fail in Discord's shape, or withhold the bot's channel permissions.
//!     fake.fail(Req::post("/channels/*/messages/*/threads"), ErrorAnswer::missing_permissions());
//!     // 7. At the end: every body the bot sent is valid for Discord's OpenAPI description,
//!     //    every route was one the fake knows, and no answer was a protocol error.
//!     fake.assert_all_requests_valid();
//!     bot.shutdown().await;
//! }
//! ```
//!
//! # What it checks for you
//! - Every dispatch (READY, GUILD_CREATE, INTERACTION_CREATE) is parsed by serenity's own
//!   `GatewayEvent` before it is sent: serenity drops unparseable payloads silently.
//! - Interaction answers follow Discord's rules: one initial callback (40060 otherwise), webhook
//!   routes only after it (10015), at most 2000 characters (50035), no empty message (50006),
//!   files up to `attachment_size_limit` (40005), optionally a deadline (10062).
//! - The bot's permissions per channel (`set_app_permissions`) are enforced on channel messages,
//!   files and thread creation (50001/50013), and sent in `app_permissions`.
//! - Injected interactions fit the registered commands: option names, types, choices, ranges,
//!   required options, `default_member_permissions`; clicks hit an enabled component that the
//!   stored message shows (`.unchecked()` bypasses these checks).
//! - `assert_all_requests_valid` validates JSON bodies and multipart `payload_json` against
//!   `DISCORD_OPENAPI_SPEC` (see [`spec`]); `answer_violations` checks the fake's own answers.
//! - Latency: [`Sent::sent_at`] and [`RecordedRequest::at`] are both measured from the fake's
//!   start.
//!
//! The bot token is never recorded: requests keep their headers minus `Authorization`, and the
//! recorded IDENTIFY has its token replaced.

pub mod bot;
pub mod fixtures;
pub mod gateway;
mod http;
pub mod interactions;
pub mod record;
pub mod spec;
mod state;

use std::fmt;
use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use serenity::all::{ApplicationId, ChannelId, GuildId, MessageId, Permissions, UserId};
use serenity::http::{Http, HttpBuilder};
use tokio::net::TcpListener;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

pub use bot::RunningBot;
pub use fixtures::{Fixture, FixtureError, Vars};
pub use interactions::{Click, InteractionSpec, OptionValue, Sent, SlashCommand, TestUser};
pub use record::{Body, ErrorAnswer, Part, RecordedRequest, Req};

use record::FailureRule;
use state::Shared;

/// The id of a message object as the fake stores and answers them.
///
/// # Panics
/// The value has no snowflake `id`.
pub fn message_id(message: &Value) -> MessageId {
    match message.get("id").and_then(state::snowflake_of) {
        Some(id) if id != 0 => MessageId::new(id),
        _ => panic!("not a message object with an id: {message}"),
    }
}

/// How the fake behaves.
#[derive(Clone, Debug)]
pub struct FakeConfig {
    /// The guild's name.
    pub guild_name: String,
    /// The guild's `preferred_locale` and the interactions' `guild_locale`.
    pub guild_locale: String,
    /// Whether a GUILD_CREATE follows READY.
    pub send_guild_create: bool,
    /// The bot's permissions in channels without their own setting.
    pub app_permissions: Permissions,
    /// The `attachment_size_limit` of interactions, and the largest file the fake accepts.
    pub attachment_size_limit: u64,
    /// Answer callbacks later than this with 10062 Unknown interaction, as Discord does after 3 s.
    /// Off by default: a loaded CI machine must not make tests flaky.
    pub interaction_deadline: Option<Duration>,
    /// How long `next_request`, `wait_until_ready` and `send` wait.
    pub wait_timeout: Duration,
    /// The shard count `GET /gateway/bot` recommends (1 by default). The gateway accepts any
    /// `[shard_id, shard_total]` in IDENTIFY (the same total for all live shards) and sends
    /// each guild's events on its shard only: `(guild_id >> 22) % shard_total`.
    pub shards: u32,
    /// The `heartbeat_interval` announced in HELLO.
    pub heartbeat_interval_ms: u64,
    /// How long a nonce sent with `enforce_nonce` is remembered: a message sent again with it
    /// within this time returns the message already made. Discord says "the past few
    /// minutes" and no more; 5 minutes by default.
    pub nonce_window: Duration,
}

impl Default for FakeConfig {
    fn default() -> Self {
        Self {
            guild_name: "Gomoku Test Guild".to_owned(),
            guild_locale: "en-US".to_owned(),
            send_guild_create: true,
            app_permissions: state::default_app_permissions(),
            attachment_size_limit: 10 * 1024 * 1024,
            interaction_deadline: None,
            wait_timeout: Duration::from_secs(10),
            shards: 1,
            heartbeat_interval_ms: 41_250,
            nonce_window: Duration::from_secs(300),
        }
    }
}

/// Why the fake refused to do what a test asked.
#[derive(Debug)]
pub enum FakeError {
    /// A fixture could not be filled.
    Fixture(FixtureError),
    /// Serenity would drop the payload (or does not know the event).
    WouldBeDropped(String),
    /// No identified gateway session appeared in time.
    NoSession(Duration),
    /// The command was not registered by the bot.
    UnregisteredCommand(String),
    /// The options do not fit the registered command.
    InvalidOptions(String),
    /// The fake holds no such message.
    UnknownMessage(u64),
    /// The fake knows no such channel.
    UnknownChannel(u64),
    /// The message shows no component with that `custom_id` (of the clicked kind).
    NoSuchComponent {
        /// The message.
        message_id: u64,
        /// The custom id looked for.
        custom_id: String,
    },
    /// The component is disabled, so no client could click it.
    DisabledComponent {
        /// The message.
        message_id: u64,
        /// The custom id.
        custom_id: String,
    },
    /// No user to act as.
    NoUser,
    /// The user lacks the command's `default_member_permissions`, so Discord hides it.
    NotPermitted {
        /// The command.
        command: String,
        /// The user's name.
        user: String,
    },
}

impl fmt::Display for FakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Fixture(e) => write!(f, "{e}"),
            Self::WouldBeDropped(reason) => write!(f, "{reason}"),
            Self::NoSession(t) => write!(
                f,
                "no gateway session identified within {t:?} (for a sharded bot: on the shard of the event's guild)"
            ),
            Self::UnregisteredCommand(name) => write!(f, "the bot registered no command /{name}"),
            Self::InvalidOptions(reason) => write!(f, "{reason}"),
            Self::UnknownMessage(id) => write!(f, "the fake holds no message {id}"),
            Self::UnknownChannel(id) => write!(f, "the fake knows no channel {id}"),
            Self::NoSuchComponent {
                message_id,
                custom_id,
            } => {
                write!(
                    f,
                    "message {message_id} shows no component {custom_id:?} of that kind"
                )
            }
            Self::DisabledComponent {
                message_id,
                custom_id,
            } => {
                write!(
                    f,
                    "component {custom_id:?} of message {message_id} is disabled"
                )
            }
            Self::NoUser => write!(f, "no user to act as"),
            Self::NotPermitted { command, user } => {
                write!(
                    f,
                    "{user} lacks the permissions /{command} requires, so Discord hides it"
                )
            }
        }
    }
}

impl std::error::Error for FakeError {}

/// A running fake Discord. Dropping it stops its listeners.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    tasks: Vec<JoinHandle<()>>,
}

impl fmt::Debug for FakeDiscord {
    // Deliberately without the token.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FakeDiscord")
            .field("base_url", &self.shared.base_url)
            .finish_non_exhaustive()
    }
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}

impl FakeDiscord {
    /// Starts a fake with the default configuration.
    pub async fn start() -> Self {
        Self::start_with(FakeConfig::default()).await
    }

    /// Starts a fake.
    ///
    /// # Panics
    /// No port on 127.0.0.1 could be bound.
    pub async fn start_with(config: FakeConfig) -> Self {
        let http_listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the fake's HTTP port");
        let gateway_listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind the fake's gateway port");
        let http_port = http_listener.local_addr().expect("HTTP address").port();
        let gateway_port = gateway_listener
            .local_addr()
            .expect("gateway address")
            .port();
        let shared = Arc::new(Shared::new(config, http_port, gateway_port));
        let tasks = vec![
            tokio::spawn(http::serve(http_listener, Arc::clone(&shared))),
            tokio::spawn(gateway::serve(gateway_listener, Arc::clone(&shared))),
        ];
        Self { shared, tasks }
    }

    /// `http://127.0.0.1:PORT`, the value for serenity's `HttpBuilder::proxy`.
    pub fn base_url(&self) -> &str {
        &self.shared.base_url
    }

    /// `ws://127.0.0.1:PORT`, what `GET /gateway` answers.
    pub fn gateway_url(&self) -> &str {
        &self.shared.gateway_url
    }

    /// The bot token the fake accepts (give it to the bot; never print it).
    pub fn token(&self) -> &str {
        &self.shared.token
    }

    /// A serenity HTTP client aimed at the fake, with serenity's rate limiter off (with it on,
    /// serenity ignores the proxy and calls discord.com).
    pub fn http(&self) -> Http {
        HttpBuilder::new(&self.shared.token)
            .proxy(self.base_url())
            .ratelimiter_disabled(true)
            .build()
    }

    /// The application id (also the bot's user id).
    pub fn application_id(&self) -> ApplicationId {
        ApplicationId::new(self.shared.application_id)
    }

    /// The bot's user id.
    pub fn bot_user_id(&self) -> UserId {
        UserId::new(self.shared.bot_user_id)
    }

    /// The test guild.
    pub fn guild_id(&self) -> GuildId {
        GuildId::new(self.shared.guild_id)
    }

    /// The guild's `#general` text channel, where interactions happen by default.
    pub fn channel_id(&self) -> ChannelId {
        ChannelId::new(self.shared.default_channel_id)
    }

    /// The guild's owner (all permissions).
    pub fn owner(&self) -> TestUser {
        self.user(UserId::new(self.shared.owner_id))
            .expect("the owner exists")
    }

    /// The user interactions come from when a test names none.
    pub fn default_user(&self) -> TestUser {
        self.user(UserId::new(self.shared.default_user_id))
            .expect("the default user exists")
    }

    /// Adds a guild member with a fresh id.
    pub fn add_user(&self, username: &str) -> TestUser {
        let user = TestUser::new(self.shared.next_id(), username);
        self.update_user(&user);
        user
    }

    /// Stores a changed user (locale, permissions) for lookups by id.
    pub fn update_user(&self, user: &TestUser) {
        self.shared.lock().users.insert(user.id, user.clone());
    }

    /// A user by id.
    pub fn user(&self, id: UserId) -> Option<TestUser> {
        self.shared.lock().users.get(&id.get()).cloned()
    }

    /// Adds a text channel to the guild.
    pub fn add_text_channel(&self, name: &str) -> ChannelId {
        let id = self.shared.next_id();
        let mut st = self.shared.lock();
        let position = st.channels.len() as u64;
        let channel = self.shared.text_channel_json(id, name, position);
        st.channels.insert(id, channel);
        ChannelId::new(id)
    }

    /// Adds a guild whose events Discord sends on shard `shard` of `total` (its id is made so
    /// that `(id >> 22) % total == shard`), with a `#general` text channel; returns both. The
    /// test guild's members are members here too. Add guilds before the bot connects: a shard
    /// sends GUILD_CREATE for its guilds when it identifies.
    pub fn add_guild_on_shard(&self, name: &str, shard: u32, total: u32) -> (GuildId, ChannelId) {
        assert!(shard < total, "shard {shard} of {total}");
        let total = u64::from(total);
        // A snowflake's top bits are its time: move it on to a later millisecond of the
        // wanted shard (later than every id given out), then keep ids increasing past it.
        let base = (self.shared.next_id() >> 22) + 1;
        let millis = base + (u64::from(shard) + total - base % total) % total;
        let id = millis << 22;
        self.shared.ids_at_least(id);
        let channel = self.shared.next_id();
        let mut st = self.shared.lock();
        st.other_guilds.insert(id, name.to_owned());
        let json = self.shared.text_channel_json_in(id, channel, "general", 0);
        st.channels.insert(channel, json);
        (GuildId::new(id), ChannelId::new(channel))
    }

    /// The shard the live sessions' total puts `guild` on (shard 0 before any session).
    pub fn shard_of(&self, guild: GuildId) -> u64 {
        self.shared.lock().gateway.shard_of(guild.get())
    }

    /// The `[shard_id, shard_total]` of every live session, by shard.
    pub fn live_shards(&self) -> Vec<[u64; 2]> {
        let st = self.shared.lock();
        st.gateway.live.values().map(|s| s.shard).collect()
    }

    /// Waits until shard `shard` has a live session; returns the session's number.
    ///
    /// # Panics
    /// None within the configured timeout.
    pub async fn wait_for_shard(&self, shard: u64) -> u64 {
        self.wait_for_shard_session(shard, 1).await
    }

    /// Waits until shard `shard` has a live session numbered at least `number` (a later one
    /// after its process restarted); returns the number.
    ///
    /// # Panics
    /// None within the configured timeout.
    pub async fn wait_for_shard_session(&self, shard: u64, number: u64) -> u64 {
        let timeout = self.shared.config.wait_timeout;
        self.wait(timeout, |st| {
            st.gateway
                .live
                .get(&shard)
                .map(|s| s.number)
                .filter(|n| *n >= number)
        })
        .await
        .unwrap_or_else(|| {
            panic!(
                "no session of shard {shard} numbered {number} or later within {timeout:?}{}",
                self.recent()
            )
        })
    }

    /// Sets the bot's permissions in one channel (threads inherit their parent's).
    pub fn set_app_permissions(&self, channel: ChannelId, permissions: Permissions) {
        self.shared
            .lock()
            .app_permissions
            .insert(channel.get(), permissions);
    }

    /// Holds the gateway: new connections are accepted but not greeted (no HELLO) until
    /// [`Self::open_gateway`], as when Discord's gateway is slow or unreachable.
    pub fn hold_gateway(&self) {
        self.shared.gateway_open.send_replace(false);
    }

    /// Lets held and new gateway connections proceed.
    pub fn open_gateway(&self) {
        self.shared.gateway_open.send_replace(true);
    }

    /// Asks the client to reconnect (opcode 7, as Discord does before it moves a session);
    /// the client then resumes on a new connection. `false` when no session is live.
    pub fn ask_reconnect(&self) -> bool {
        let st = self.shared.lock();
        let Some(session) = st.gateway.current() else {
            return false;
        };
        let reconnect = serde_json::json!({"op": 7, "s": null, "t": null, "d": null});
        session
            .tx
            .send(state::Out::Frame(reconnect.to_string()))
            .is_ok()
    }

    /// Closes the live session's connection with one of Discord's gateway close codes (and
    /// its reason). After 4007, 4009 and the codes Discord forbids reconnecting after, the
    /// session cannot be resumed; after the others it can (see
    /// [`gateway::close_keeps_session`]). `false` when no session is live.
    pub fn close_gateway(&self, code: u16) -> bool {
        let mut st = self.shared.lock();
        let Some(session) = st.gateway.current_mut() else {
            return false;
        };
        // The session ends now, as Discord ends it when it closes: not when the closing
        // connection's task gets round to it. The client may send its RESUME on a new
        // connection before that task runs (it did, under load: the RESUME after 4012 was
        // accepted and no new session came).
        session.invalidated |= !gateway::close_keeps_session(code);
        let reason = gateway::close_reason(code).to_owned();
        session.tx.send(state::Out::Close(code, reason)).is_ok()
    }

    /// Sends opcode 9 Invalid Session on the live session: `resumable` is its `d`. When
    /// `false` the session is over (a RESUME of it is refused). `false` when none is live.
    pub fn invalidate_session(&self, resumable: bool) -> bool {
        let mut st = self.shared.lock();
        let Some(session) = st.gateway.current_mut() else {
            return false;
        };
        session.invalidated |= !resumable;
        let invalid = serde_json::json!({"op": 9, "s": null, "t": null, "d": resumable});
        session
            .tx
            .send(state::Out::Frame(invalid.to_string()))
            .is_ok()
    }

    /// Stops acknowledging heartbeats on the live session's connection (a zombie connection:
    /// open, but Discord no longer answers); later connections are acknowledged again.
    /// Returns the connection's number, `None` when no session is live.
    pub fn stop_acking_heartbeats(&self) -> Option<u64> {
        let mut st = self.shared.lock();
        let connection = st.gateway.current()?.connection;
        st.gateway.silent_connection = Some(connection);
        Some(connection)
    }

    /// Whether dispatches made while no connection is live (between a close and the client's
    /// RESUME) are kept in the resumable session and replayed when the client resumes, as
    /// Discord does, instead of waiting for a live session. Off by default.
    pub fn queue_while_away(&self, queue: bool) {
        self.shared.lock().gateway.queue_while_away = queue;
    }

    /// Answers the next valid IDENTIFY with a close `code` (4010-4014: invalid shard,
    /// sharding required, invalid API version, invalid or disallowed intents) instead of READY.
    pub fn refuse_next_identify(&self, code: u16) {
        let reason = gateway::close_reason(code).to_owned();
        self.shared.lock().gateway.refuse_identify = Some((code, reason));
    }

    /// Dispatches replayed on RESUMEs so far (missed while the client was away).
    pub fn replayed(&self) -> u64 {
        self.shared.lock().gateway.replayed
    }

    /// Websocket connections greeted so far.
    pub fn connections(&self) -> u64 {
        self.shared.lock().gateway.connections
    }

    /// IDENTIFY payloads received so far (accepted or refused).
    pub fn identifies(&self) -> usize {
        self.shared.lock().gateway.identifies.len()
    }

    /// Heartbeats received so far on connection `connection`.
    pub fn heartbeats_on(&self, connection: u64) -> usize {
        let st = self.shared.lock();
        st.gateway
            .heartbeats
            .iter()
            .filter(|c| **c == connection)
            .count()
    }

    /// Waits until at least `count` sessions have been resumed; returns the count.
    ///
    /// # Panics
    /// Fewer within the configured timeout.
    pub async fn wait_for_resumes(&self, count: u64) -> u64 {
        let timeout = self.shared.config.wait_timeout;
        self.wait(timeout, |st| {
            Some(st.gateway.resumes)
                .filter(|n| *n >= count)
                .filter(|_| st.gateway.current().is_some())
        })
        .await
        .unwrap_or_else(|| {
            panic!(
                "fewer than {count} resumed sessions within {timeout:?}{}",
                self.recent()
            )
        })
    }

    /// Whether a RESUME of the last session is accepted (answered RESUMED, the session goes
    /// on) or refused (invalid session: the client identifies afresh, a new session). Refused
    /// by default.
    pub fn accept_resumes(&self, accept: bool) {
        self.shared.lock().gateway.accept_resumes = accept;
    }

    /// Sessions resumed so far.
    pub fn resumes(&self) -> u64 {
        self.shared.lock().gateway.resumes
    }

    /// Waits until a gateway session has identified and is live; returns its number (1 for the
    /// first connection, 2 after a restart, ...).
    ///
    /// # Panics
    /// None within the configured timeout.
    pub async fn wait_until_ready(&self) -> u64 {
        self.wait_for_session(1).await
    }

    /// Waits for a live session numbered at least `number` (use 2 after restarting the bot).
    ///
    /// # Panics
    /// None within the configured timeout.
    pub async fn wait_for_session(&self, number: u64) -> u64 {
        let timeout = self.shared.config.wait_timeout;
        self.wait(timeout, |st| {
            st.gateway
                .current()
                .map(|s| s.number)
                .filter(|n| *n >= number)
        })
        .await
        .unwrap_or_else(|| {
            panic!(
                "no gateway session numbered {number} or later identified within {timeout:?}{}",
                self.recent()
            )
        })
    }

    /// IDENTIFY payloads received so far, with the token replaced by `<redacted>`.
    pub fn identify_payloads(&self) -> Vec<Value> {
        self.shared.lock().gateway.identifies.clone()
    }

    /// Gateway frames the client sent other than heartbeats and IDENTIFY.
    pub fn gateway_frames(&self) -> Vec<Value> {
        self.shared.lock().gateway.received.clone()
    }

    /// Sends a dispatch event (any `t`, with `d`) on the live session.
    ///
    /// # Errors
    /// Serenity would drop the payload, or no session appeared in time.
    pub async fn dispatch(&self, event: &str, data: Value) -> Result<u64, FakeError> {
        gateway::check_dispatch(event, &data).map_err(FakeError::WouldBeDropped)?;
        self.dispatch_checked(event, &data).await
    }

    /// Sends a dispatch that `check_dispatch` accepted, once a session is live.
    async fn dispatch_checked(&self, event: &str, data: &Value) -> Result<u64, FakeError> {
        let timeout = self.shared.config.wait_timeout;
        self.wait(timeout, |st| gateway::enqueue_checked(st, event, data))
            .await
            .ok_or(FakeError::NoSession(timeout))
    }

    /// Injects an interaction.
    ///
    /// # Panics
    /// When [`Self::try_send`] fails: a test should not go on with a broken setup.
    pub async fn send(&self, spec: impl Into<InteractionSpec>) -> Sent {
        match self.try_send(spec).await {
            Ok(sent) => sent,
            Err(e) => panic!("cannot inject the interaction: {e}"),
        }
    }

    /// Injects an interaction: builds it from the fixtures, checks it against the registered
    /// command, checks that serenity parses it, and sends INTERACTION_CREATE.
    ///
    /// # Errors
    /// See [`FakeError`].
    pub async fn try_send(&self, spec: impl Into<InteractionSpec>) -> Result<Sent, FakeError> {
        let spec = spec.into();
        let (payload, record) = {
            let st = self.shared.lock();
            interactions::build(&self.shared, &st, &spec)?
        };
        gateway::check_dispatch("INTERACTION_CREATE", &payload)
            .map_err(FakeError::WouldBeDropped)?;
        let sent = Sent {
            id: serenity::all::InteractionId::new(record.id),
            token: record.token.clone(),
            application_id: self.application_id(),
            channel_id: ChannelId::new(record.channel_id),
            kind: record.kind,
            seq: 0,
            sent_at: self.shared.started.elapsed(),
        };
        self.shared.lock().interactions.insert(record.id, record);
        let seq = self
            .dispatch_checked("INTERACTION_CREATE", &payload)
            .await?;
        Ok(Sent { seq, ..sent })
    }

    /// The INTERACTION_CREATE payload `spec` would inject, without sending it or recording
    /// the interaction (valid seeds for fuzzing the bot's reading of interactions).
    ///
    /// # Errors
    /// See [`FakeError`].
    pub fn interaction_payload(
        &self,
        spec: impl Into<InteractionSpec>,
    ) -> Result<Value, FakeError> {
        let st = self.shared.lock();
        interactions::build(&self.shared, &st, &spec.into()).map(|(payload, _)| payload)
    }

    /// The earliest request matching `matcher` that no earlier call handed out, waiting for it.
    ///
    /// # Panics
    /// None arrives within the configured timeout; the message lists the recent requests.
    pub async fn next_request(&self, matcher: &Req) -> RecordedRequest {
        let timeout = self.shared.config.wait_timeout;
        match self.try_next_request(matcher, timeout).await {
            Some(request) => request,
            None => panic!(
                "no request matching {matcher:?} within {timeout:?}{}",
                self.recent()
            ),
        }
    }

    /// Like [`Self::next_request`], with its own timeout and `None` when nothing came.
    pub async fn try_next_request(
        &self,
        matcher: &Req,
        timeout: Duration,
    ) -> Option<RecordedRequest> {
        self.wait(timeout, |st| {
            let found = st
                .requests
                .iter_mut()
                .find(|r| !r.consumed && matcher.matches(&r.request))?;
            found.consumed = true;
            Some(found.request.clone())
        })
        .await
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared
            .lock()
            .requests
            .iter()
            .map(|r| r.request.clone())
            .collect()
    }

    /// Every request recorded from now on, in arrival order, as it arrives (with the fake's
    /// answer). For load tests that follow thousands of requests: unlike [`Self::next_request`]
    /// it never rescans the record, and it hands out nothing (`next_request` still sees them).
    pub fn subscribe_requests(&self) -> mpsc::UnboundedReceiver<RecordedRequest> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.shared.lock().taps.push(tx);
        rx
    }

    /// Every request so far that matches (handed out or not).
    pub fn requests_matching(&self, matcher: &Req) -> Vec<RecordedRequest> {
        self.shared
            .lock()
            .requests
            .iter()
            .filter(|r| matcher.matches(&r.request))
            .map(|r| r.request.clone())
            .collect()
    }

    /// Answers every matching request with `answer` until [`Self::clear_failures`].
    pub fn fail(&self, matcher: Req, answer: ErrorAnswer) {
        self.shared.lock().failures.push(FailureRule {
            matcher,
            answer,
            remaining: None,
            applied: false,
        });
    }

    /// Answers the next matching request with `answer`.
    pub fn fail_once(&self, matcher: Req, answer: ErrorAnswer) {
        self.shared.lock().failures.push(FailureRule {
            matcher,
            answer,
            remaining: Some(1),
            applied: false,
        });
    }

    /// Carries out the next matching request, then answers it with `answer` as if Discord's
    /// answer had been lost on the way: what a retry after a crash or a timeout meets.
    pub fn lose_answer_once(&self, matcher: Req, answer: ErrorAnswer) {
        self.shared.lock().failures.push(FailureRule {
            matcher,
            answer,
            remaining: Some(1),
            applied: true,
        });
    }

    /// Forgets every failure rule.
    pub fn clear_failures(&self) {
        self.shared.lock().failures.clear();
    }

    /// A message as the fake holds it now (edits applied).
    pub fn message(&self, id: MessageId) -> Option<Value> {
        self.shared.lock().messages.get(&id.get()).cloned()
    }

    /// The messages of a channel or thread, oldest first.
    pub fn messages_in(&self, channel: ChannelId) -> Vec<Value> {
        let channel = channel.get().to_string();
        self.shared
            .lock()
            .messages
            .values()
            .filter(|m| m["channel_id"] == channel.as_str())
            .cloned()
            .collect()
    }

    /// The message an interaction's initial answer created or targets, as it is now.
    pub fn original_message(&self, sent: &Sent) -> Option<Value> {
        let st = self.shared.lock();
        let id = st.interactions.get(&sent.id.get())?.original?;
        st.messages.get(&id).cloned()
    }

    /// The follow-up messages of an interaction, as they are now.
    pub fn followups(&self, sent: &Sent) -> Vec<Value> {
        let st = self.shared.lock();
        let Some(interaction) = st.interactions.get(&sent.id.get()) else {
            return Vec::new();
        };
        interaction
            .followups
            .iter()
            .filter_map(|id| st.messages.get(id).cloned())
            .collect()
    }

    /// The choices the bot answered an autocomplete request with.
    pub fn autocomplete_choices(&self, sent: &Sent) -> Option<Value> {
        self.shared
            .lock()
            .interactions
            .get(&sent.id.get())?
            .autocomplete_choices
            .clone()
    }

    /// The callback type the bot acknowledged an interaction with (4 message, 5 deferred, ...).
    pub fn acknowledgement(&self, sent: &Sent) -> Option<u64> {
        self.shared
            .lock()
            .interactions
            .get(&sent.id.get())?
            .acknowledged
    }

    /// A channel or thread object.
    pub fn channel(&self, id: ChannelId) -> Option<Value> {
        self.shared.lock().channels.get(&id.get()).cloned()
    }

    /// The commands the bot registered: global ones, then the guild's.
    pub fn registered_commands(&self) -> Vec<Value> {
        let st = self.shared.lock();
        st.global_commands
            .iter()
            .chain(st.guild_commands.values().flatten())
            .cloned()
            .collect()
    }

    /// The GUILD_CREATE payload the fake would send now.
    pub fn guild_create_payload(&self) -> Value {
        let st = self.shared.lock();
        gateway::guild_create(&self.shared, &st, self.shared.guild_id)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Everything wrong so far: bodies invalid for Discord's API description, routes the fake
    /// does not know, requests without the bot token, errors the fake answered on its own
    /// (not asked for by the test), and payloads of its own that serenity would drop.
    pub fn violations(&self) -> Vec<String> {
        let (requests, harness_errors) = {
            let st = self.shared.lock();
            (
                st.requests
                    .iter()
                    .map(|r| r.request.clone())
                    .collect::<Vec<_>>(),
                st.harness_errors.clone(),
            )
        };
        let mut violations = harness_errors;
        let spec = match spec::spec() {
            Ok(spec) => Some(spec),
            Err(e) => {
                violations.push(e);
                None
            }
        };
        for request in &requests {
            let name = format!("#{} {} {}", request.index, request.method, request.path);
            if !request.known_route {
                violations.push(format!("{name}: the fake does not serve this route"));
            } else if !request.authorized {
                violations.push(format!("{name}: no valid bot token"));
            } else if request.status >= 400 && !request.deliberate_error {
                let body = request
                    .response
                    .as_ref()
                    .map(Value::to_string)
                    .unwrap_or_default();
                violations.push(format!(
                    "{name}: Discord would answer {} {body}",
                    request.status
                ));
            }
            if let Some(spec) = spec {
                violations.extend(
                    spec.check_request(request)
                        .into_iter()
                        .map(|v| format!("#{} {v}", request.index)),
                );
            }
        }
        violations
    }

    /// The fake's own answers that do not fit Discord's API description (a defect of the fake,
    /// checked by the harness's tests rather than by bot tests).
    pub fn answer_violations(&self) -> Vec<String> {
        let requests = self.requests();
        let spec = match spec::spec() {
            Ok(spec) => spec,
            Err(e) => return vec![e],
        };
        requests
            .iter()
            .filter(|r| r.known_route && r.authorized)
            .flat_map(|r| {
                let body = r.response.clone().unwrap_or(Value::Null);
                if r.status == 204 {
                    return Vec::new();
                }
                spec.check_response(&r.method, &r.path, r.status, &body)
                    .into_iter()
                    .map(|v| format!("#{} {v}", r.index))
                    .collect()
            })
            .collect()
    }

    /// Fails the test listing every violation (see [`Self::violations`]).
    ///
    /// # Panics
    /// When there is any violation.
    pub fn assert_all_requests_valid(&self) {
        let violations = self.violations();
        assert!(
            violations.is_empty(),
            "{} violation(s) of Discord's API:\n  {}",
            violations.len(),
            violations.join("\n  ")
        );
    }

    /// Waits until `probe` finds something in the state, or `timeout` passes.
    async fn wait<T>(
        &self,
        timeout: Duration,
        mut probe: impl FnMut(&mut state::State) -> Option<T>,
    ) -> Option<T> {
        let mut changes = self.shared.subscribe();
        let deadline = tokio::time::Instant::now() + timeout;
        loop {
            // Mark the current version seen before probing, so no change is missed.
            changes.borrow_and_update();
            if let Some(found) = probe(&mut self.shared.lock()) {
                return Some(found);
            }
            if tokio::time::timeout_at(deadline, changes.changed())
                .await
                .is_err()
            {
                return None;
            }
        }
    }

    fn recent(&self) -> String {
        let st = self.shared.lock();
        let start = st.requests.len().saturating_sub(15);
        let mut text = String::from("\nrecent requests:");
        for r in &st.requests[start..] {
            text.push_str("\n  ");
            text.push_str(&r.request.summary());
            if r.consumed {
                text.push_str(" (handed out)");
            }
        }
        if !st.harness_errors.is_empty() {
            text.push_str("\nfake's own errors:\n  ");
            text.push_str(&st.harness_errors.join("\n  "));
        }
        text
    }
}
