//! The fake's memory: ids, users, channels, messages, commands, interactions, gateway sessions
//! and every request, behind one lock that is never held across an await.

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use serde_json::{Value, json};
use serenity::all::Permissions;
use tokio::sync::{mpsc, watch};

use super::FakeConfig;
use super::interactions::TestUser;
use super::record::{FailureRule, RecordedRequest};

const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// Channel types the fake creates.
pub(crate) const GUILD_TEXT: u64 = 0;
pub(crate) const PUBLIC_THREAD: u64 = 11;
pub(crate) const PRIVATE_THREAD: u64 = 12;

/// Everything the server tasks and the test's handle share.
pub(crate) struct Shared {
    pub config: FakeConfig,
    pub token: String,
    pub application_id: u64,
    pub bot_user_id: u64,
    pub bot_username: String,
    pub guild_id: u64,
    pub owner_id: u64,
    pub default_channel_id: u64,
    pub default_user_id: u64,
    pub base_url: String,
    pub gateway_url: String,
    pub started: Instant,
    pub joined_at: String,
    ids: AtomicU64,
    state: Mutex<State>,
    changes: watch::Sender<u64>,
    /// Whether the gateway greets new connections (a held gateway keeps them waiting).
    pub gateway_open: watch::Sender<bool>,
}

/// A recorded request and whether a `next_request` call has handed it out already.
pub(crate) struct Recorded {
    pub request: RecordedRequest,
    pub consumed: bool,
}

/// What the fake sends down one websocket connection.
#[derive(Debug)]
pub(crate) enum Out {
    /// A text frame (a JSON payload).
    Frame(String),
    /// A close frame with Discord's close code and reason; the connection then ends.
    Close(u16, String),
}

/// A gateway session: live on a connection, or left by its connection and resumable.
pub(crate) struct Session {
    pub number: u64,
    /// The shard it serves: `[shard_id, shard_total]` from its IDENTIFY (`[0, 1]` without).
    pub shard: [u64; 2],
    pub seq: u64,
    pub tx: mpsc::UnboundedSender<Out>,
    /// The websocket connection carrying it now (a resume moves it to another).
    pub connection: u64,
    /// Dispatches (sequence number, frame) that no heartbeat has acknowledged yet: what a
    /// RESUME replays after the sequence number it names, as Discord does.
    pub unacked: VecDeque<(u64, String)>,
    /// Invalidated (opcode 9 with `d: false`, or a close code that ends the session): a
    /// RESUME of it is refused.
    pub invalidated: bool,
}

/// Gateway bookkeeping.
#[derive(Default)]
pub(crate) struct GatewayState {
    pub sessions_started: u64,
    /// The live sessions, by shard id (one without sharding: shard 0).
    pub live: BTreeMap<u64, Session>,
    /// IDENTIFY payloads with the token replaced.
    pub identifies: Vec<Value>,
    /// Every other frame the client sent (heartbeats aside).
    pub received: Vec<Value>,
    /// Websocket connections accepted so far (numbers them).
    pub connections: u64,
    /// Whether a RESUME of the last session is accepted (else: invalid session, identify).
    pub accept_resumes: bool,
    /// The last session of each shard whose connection closed: what a RESUME may take up.
    pub resumable: BTreeMap<u64, Session>,
    /// Sessions resumed so far.
    pub resumes: u64,
    /// Dispatches while no connection is live go to the resumable session (replayed when the
    /// client resumes) instead of waiting for a live session.
    pub queue_while_away: bool,
    /// A connection whose heartbeats go unacknowledged (a zombie connection).
    pub silent_connection: Option<u64>,
    /// The close code (and reason) the next IDENTIFY is answered with instead of READY.
    pub refuse_identify: Option<(u16, String)>,
    /// Heartbeats received, by connection number.
    pub heartbeats: Vec<u64>,
    /// Dispatches sent again on a RESUME (missed while the client was away).
    pub replayed: u64,
}

impl GatewayState {
    /// The live session of the lowest shard: the only one without sharding.
    pub(crate) fn current(&self) -> Option<&Session> {
        self.live.values().next()
    }

    /// [`Self::current`], mutable.
    pub(crate) fn current_mut(&mut self) -> Option<&mut Session> {
        self.live.values_mut().next()
    }

    /// The shard that carries `guild`'s events among the live sessions (Discord's rule:
    /// `(guild_id >> 22) % shard_total`), whether or not that shard is connected; shard 0
    /// while no session tells the total.
    pub(crate) fn shard_of(&self, guild: u64) -> u64 {
        let total = self.live.values().map(|s| s.shard[1]).max().unwrap_or(1);
        (guild >> 22) % total.max(1)
    }
}

/// What the fake knows of one injected interaction.
#[derive(Clone, Debug)]
pub(crate) struct InteractionState {
    pub id: u64,
    pub token: String,
    pub kind: u8,
    pub channel_id: u64,
    pub user: TestUser,
    pub command_name: Option<String>,
    pub message_id: Option<u64>,
    pub acknowledged: Option<u64>,
    pub original: Option<u64>,
    pub followups: Vec<u64>,
    pub sent_at: Instant,
    pub autocomplete_choices: Option<Value>,
}

/// The fake's mutable memory.
#[derive(Default)]
pub(crate) struct State {
    pub requests: Vec<Recorded>,
    pub failures: Vec<FailureRule>,
    pub users: BTreeMap<u64, TestUser>,
    pub channels: BTreeMap<u64, Value>,
    pub app_permissions: HashMap<u64, Permissions>,
    pub messages: BTreeMap<u64, Value>,
    pub global_commands: Vec<Value>,
    pub guild_commands: BTreeMap<u64, Vec<Value>>,
    pub interactions: HashMap<u64, InteractionState>,
    pub gateway: GatewayState,
    /// Problems the fake found in its own payloads (would-be-dropped dispatches).
    pub harness_errors: Vec<String>,
    /// Channel messages sent with `enforce_nonce`: the nonce, to the message made and when
    /// (Discord answers a repeated nonce from the same author within a few minutes with the
    /// message it made the first time).
    pub nonces: HashMap<String, (u64, Instant)>,
    /// Where each newly recorded request is also sent ([`super::FakeDiscord::subscribe_requests`]).
    pub taps: Vec<mpsc::UnboundedSender<RecordedRequest>>,
    /// Guilds besides the test guild ([`super::FakeDiscord::add_guild_on_shard`]): id to name.
    pub other_guilds: BTreeMap<u64, String>,
}

impl Shared {
    pub(crate) fn new(config: FakeConfig, http_port: u16, gateway_port: u16) -> Self {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .subsec_nanos();
        let mut shared = Self {
            token: format!("fake-bot-token.{nanos:x}.not-a-real-secret"),
            application_id: 0,
            bot_user_id: 0,
            bot_username: "GomokuTestBot".to_owned(),
            guild_id: 0,
            owner_id: 0,
            default_channel_id: 0,
            default_user_id: 0,
            base_url: format!("http://127.0.0.1:{http_port}"),
            gateway_url: format!("ws://127.0.0.1:{gateway_port}"),
            started: Instant::now(),
            joined_at: iso8601(SystemTime::now() - Duration::from_secs(86_400)),
            ids: AtomicU64::new(0),
            state: Mutex::new(State::default()),
            changes: watch::channel(0).0,
            gateway_open: watch::channel(true).0,
            config,
        };
        // Like Discord, the bot user shares its id with the application.
        shared.application_id = shared.next_id();
        shared.bot_user_id = shared.application_id;
        shared.guild_id = shared.next_id();
        shared.default_channel_id = shared.next_id();
        let owner = TestUser::new(shared.next_id(), "owner").with_permissions(Permissions::all());
        shared.owner_id = owner.id;
        let player = TestUser::new(shared.next_id(), "player");
        shared.default_user_id = player.id;
        let general = shared.text_channel_json(shared.default_channel_id, "general", 0);
        {
            let mut st = shared.lock();
            st.users.insert(owner.id, owner);
            st.users.insert(player.id, player);
            st.channels.insert(shared.default_channel_id, general);
        }
        shared
    }

    /// A fresh snowflake: time-based like Discord's, and strictly increasing.
    pub(crate) fn next_id(&self) -> u64 {
        let now_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis() as u64;
        let floor = now_ms.saturating_sub(DISCORD_EPOCH_MS) << 22;
        let step = |prev: u64| (prev + 1).max(floor);
        let prev = self
            .ids
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |p| Some(step(p)))
            .unwrap_or(0);
        step(prev)
    }

    /// Makes every later [`Self::next_id`] larger than `id`.
    pub(crate) fn ids_at_least(&self, id: u64) {
        self.ids.fetch_max(id, Ordering::SeqCst);
    }

    pub(crate) fn lock(&self) -> MutexGuard<'_, State> {
        // A test that panicked while holding the lock must not hide its own failure.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Wakes everything waiting for a request or a session.
    pub(crate) fn bump(&self) {
        self.changes.send_modify(|v| *v += 1);
    }

    pub(crate) fn subscribe(&self) -> watch::Receiver<u64> {
        self.changes.subscribe()
    }

    pub(crate) fn bot_user_json(&self) -> Value {
        json!({
            "id": self.bot_user_id.to_string(),
            "username": self.bot_username,
            "global_name": null,
            "discriminator": "0",
            "avatar": null,
            "avatar_decoration_data": null,
            "banner": null,
            "accent_color": null,
            "collectibles": null,
            "primary_guild": null,
            "bot": true,
            "flags": 0,
            "public_flags": 0,
        })
    }

    pub(crate) fn current_user_json(&self) -> Value {
        let mut user = self.bot_user_json();
        user["verified"] = json!(true);
        user["mfa_enabled"] = json!(false);
        user["email"] = Value::Null;
        user["flags"] = json!(0);
        user["locale"] = json!("en-US");
        user
    }

    pub(crate) fn application_json(&self, st: &State) -> Value {
        let owner = st
            .users
            .get(&self.owner_id)
            .map(TestUser::user_json)
            .unwrap_or(Value::Null);
        json!({
            "id": self.application_id.to_string(),
            "name": self.bot_username,
            "icon": null,
            "description": "A fake application for tests",
            "summary": "",
            "type": null,
            "bot_public": true,
            "bot_require_code_grant": false,
            "verify_key": "0".repeat(64),
            "flags": 8_953_856,
            "flags_new": "8953856",
            "approximate_user_install_count": 0,
            "approximate_user_authorization_count": 0,
            "explicit_content_filter": 0,
            "eligible_oauth2_scopes": ["bot", "applications.commands"],
            "hook": true,
            "is_monetized": false,
            "owner": owner,
            "team": null,
            "bot": self.bot_user_json(),
            "tags": [],
            "redirect_uris": [],
            "interactions_endpoint_url": null,
            "role_connections_verification_url": null,
            "approximate_guild_count": 1,
        })
    }

    pub(crate) fn everyone_role_json(&self) -> Value {
        json!({
            "id": self.guild_id.to_string(),
            "name": "@everyone",
            "description": null,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
            "hoist": false,
            "icon": null,
            "unicode_emoji": null,
            "position": 0,
            "permissions": default_member_permissions().bits().to_string(),
            "managed": false,
            "mentionable": false,
            "flags": 0,
        })
    }

    /// The REST guild object (`GET /guilds/{id}`) of the test guild or another one.
    pub(crate) fn guild_json(&self, st: &State, guild: u64) -> Value {
        let name = st
            .other_guilds
            .get(&guild)
            .cloned()
            .unwrap_or_else(|| self.config.guild_name.clone());
        json!({
            "id": guild.to_string(),
            "name": name,
            "icon": null,
            "icon_hash": null,
            "splash": null,
            "discovery_splash": null,
            "banner": null,
            "description": null,
            "owner_id": self.owner_id.to_string(),
            "afk_channel_id": null,
            "afk_timeout": 300,
            "widget_enabled": false,
            "widget_channel_id": null,
            "verification_level": 1,
            "default_message_notifications": 1,
            "explicit_content_filter": 2,
            "roles": [self.everyone_role_json()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": null,
            "system_channel_id": st.first_channel_of(guild).map(|c| c.to_string()),
            "system_channel_flags": 0,
            "rules_channel_id": null,
            "public_updates_channel_id": null,
            "safety_alerts_channel_id": null,
            "max_presences": null,
            "max_members": 25_000_000,
            "max_video_channel_users": 25,
            "max_stage_video_channel_users": 50,
            "region": "deprecated",
            "home_header": null,
            "incidents_data": null,
            "vanity_url_code": null,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "premium_progress_bar_enabled": false,
            "preferred_locale": self.config.guild_locale,
            "nsfw": false,
            "nsfw_level": 0,
        })
    }

    pub(crate) fn text_channel_json(&self, id: u64, name: &str, position: u64) -> Value {
        self.text_channel_json_in(self.guild_id, id, name, position)
    }

    /// A text channel of `guild`.
    pub(crate) fn text_channel_json_in(
        &self,
        guild: u64,
        id: u64,
        name: &str,
        position: u64,
    ) -> Value {
        json!({
            "id": id.to_string(),
            "type": GUILD_TEXT,
            "guild_id": guild.to_string(),
            "name": name,
            "position": position,
            "permission_overwrites": [],
            "parent_id": null,
            "nsfw": false,
            "topic": null,
            "last_message_id": null,
            "rate_limit_per_user": 0,
            "flags": 0,
        })
    }

    pub(crate) fn thread_json(
        &self,
        id: u64,
        parent_id: u64,
        kind: u64,
        name: &str,
        archive_minutes: u64,
    ) -> Value {
        let now = now_iso8601();
        let mut metadata = json!({
            "archived": false,
            "auto_archive_duration": archive_minutes,
            "archive_timestamp": now,
            "locked": false,
            "create_timestamp": now,
        });
        if kind == PRIVATE_THREAD {
            metadata["invitable"] = json!(true);
        }
        json!({
            "id": id.to_string(),
            "type": kind,
            "guild_id": self.guild_id.to_string(),
            "parent_id": parent_id.to_string(),
            "owner_id": self.bot_user_id.to_string(),
            "name": name,
            "last_message_id": null,
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "rate_limit_per_user": 0,
            "flags": 0,
            "applied_tags": [],
            "thread_metadata": metadata,
            "member": {
                "id": id.to_string(),
                "user_id": self.bot_user_id.to_string(),
                "join_timestamp": now,
                "flags": 1,
            },
        })
    }

    /// The guild member object of the bot itself.
    pub(crate) fn bot_member_json(&self) -> Value {
        json!({
            "user": self.bot_user_json(),
            "nick": null,
            "avatar": null,
            "roles": [],
            "joined_at": self.joined_at,
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
        })
    }
}

impl State {
    /// The bot's permissions in a channel: set explicitly, else the parent's (for threads), else
    /// the configured default.
    pub(crate) fn app_permissions(&self, channel_id: u64, default: Permissions) -> Permissions {
        if let Some(p) = self.app_permissions.get(&channel_id) {
            return *p;
        }
        self.parent_of(channel_id)
            .and_then(|parent| self.app_permissions.get(&parent).copied())
            .unwrap_or(default)
    }

    pub(crate) fn parent_of(&self, channel_id: u64) -> Option<u64> {
        self.channels
            .get(&channel_id)?
            .get("parent_id")?
            .as_str()?
            .parse()
            .ok()
    }

    /// The guild a channel (or thread) belongs to.
    pub(crate) fn guild_of_channel(&self, channel_id: u64) -> Option<u64> {
        self.channels
            .get(&channel_id)?
            .get("guild_id")?
            .as_str()?
            .parse()
            .ok()
    }

    /// The first text channel of `guild` (its system channel).
    pub(crate) fn first_channel_of(&self, guild: u64) -> Option<u64> {
        self.channels
            .keys()
            .copied()
            .find(|c| !self.is_thread(*c) && self.guild_of_channel(*c) == Some(guild))
    }

    pub(crate) fn is_thread(&self, channel_id: u64) -> bool {
        self.channels
            .get(&channel_id)
            .and_then(|c| c["type"].as_u64())
            .is_some_and(|t| t == PUBLIC_THREAD || t == PRIVATE_THREAD)
    }

    /// A registered command by name: guild commands first, as Discord shows them.
    pub(crate) fn find_command(&self, name: &str) -> Option<&Value> {
        self.guild_commands
            .values()
            .flatten()
            .chain(&self.global_commands)
            .find(|c| c["name"] == name && c["type"].as_u64().unwrap_or(1) == 1)
    }

    pub(crate) fn interaction_by_token(&mut self, token: &str) -> Option<&mut InteractionState> {
        self.interactions.values_mut().find(|i| i.token == token)
    }
}

/// What a member of the test guild may do by default.
pub(crate) fn default_member_permissions() -> Permissions {
    Permissions::VIEW_CHANNEL
        | Permissions::SEND_MESSAGES
        | Permissions::SEND_MESSAGES_IN_THREADS
        | Permissions::CREATE_PUBLIC_THREADS
        | Permissions::READ_MESSAGE_HISTORY
        | Permissions::ADD_REACTIONS
        | Permissions::ATTACH_FILES
        | Permissions::EMBED_LINKS
        | Permissions::USE_APPLICATION_COMMANDS
        | Permissions::USE_EXTERNAL_EMOJIS
}

/// What the bot may do in a channel by default: what its invite link grants.
pub(crate) fn default_app_permissions() -> Permissions {
    Permissions::VIEW_CHANNEL
        | Permissions::SEND_MESSAGES
        | Permissions::SEND_MESSAGES_IN_THREADS
        | Permissions::CREATE_PUBLIC_THREADS
        | Permissions::CREATE_PRIVATE_THREADS
        | Permissions::MANAGE_THREADS
        | Permissions::EMBED_LINKS
        | Permissions::ATTACH_FILES
        | Permissions::READ_MESSAGE_HISTORY
        | Permissions::ADD_REACTIONS
        | Permissions::USE_EXTERNAL_EMOJIS
}

/// A snowflake held as a JSON string (as Discord sends them) or number.
pub(crate) fn snowflake_of(value: &Value) -> Option<u64> {
    match value {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

pub(crate) fn now_iso8601() -> String {
    iso8601(SystemTime::now())
}

/// Discord's timestamp format, `2024-01-31T12:00:00.000000+00:00`.
pub(crate) fn iso8601(time: SystemTime) -> String {
    let since = time.duration_since(UNIX_EPOCH).unwrap_or_default();
    let secs = since.as_secs();
    let (year, month, day) = civil_from_days((secs / 86_400) as i64);
    let rem = secs % 86_400;
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:06}+00:00",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60,
        since.subsec_micros()
    )
}

// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use super::*;

    #[test]
    fn timestamps_have_discords_format() {
        assert_eq!(iso8601(UNIX_EPOCH), "1970-01-01T00:00:00.000000+00:00");
        // 2024-02-29 (a leap day) 13:14:15.5
        let leap = UNIX_EPOCH + Duration::from_millis(1_709_212_455_500);
        assert_eq!(iso8601(leap), "2024-02-29T13:14:15.500000+00:00");
        assert_eq!(
            iso8601(UNIX_EPOCH + Duration::from_secs(951_868_800)),
            "2000-03-01T00:00:00.000000+00:00"
        );
    }

    #[test]
    fn snowflakes_increase_and_carry_the_time() {
        let shared = Shared::new(FakeConfig::default(), 1, 2);
        let ids: Vec<u64> = (0..1000).map(|_| shared.next_id()).collect();
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        let ms = (ids[999] >> 22) + DISCORD_EPOCH_MS;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_millis() as u64;
        assert!(
            now.abs_diff(ms) < 60_000,
            "the timestamp part is the creation time"
        );
        assert_eq!(snowflake_of(&json!(ids[0].to_string())), Some(ids[0]));
        assert_eq!(snowflake_of(&json!("x")), None);
    }
}
