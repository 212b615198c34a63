//! Test users and the interactions a test injects: slash commands, autocomplete requests and
//! component clicks, built from the fixture files and checked against what the bot registered.

use std::time::Instant;

use serde_json::{Map, Value, json};
use serenity::all::{ApplicationId, ChannelId, InteractionId, MessageId, Permissions, UserId};

use super::FakeError;
use super::fixtures::{Fixture, Vars};
use super::state::{InteractionState, Shared, State, default_member_permissions};

/// A member of the test guild, as interactions show them.
#[derive(Clone, Debug, PartialEq)]
pub struct TestUser {
    /// The user's snowflake.
    pub id: u64,
    /// The unique user name.
    pub username: String,
    /// The display name, if any.
    pub global_name: Option<String>,
    /// The Discord client language (`en-US`, `es-ES`, `fi`, ...), sent as the interaction `locale`.
    pub locale: String,
    /// The member's permissions in the channel (`member.permissions`).
    pub permissions: Permissions,
}

impl TestUser {
    /// A member with the default permissions and the `en-US` locale.
    pub fn new(id: u64, username: &str) -> Self {
        let mut global_name: Vec<char> = username.chars().collect();
        if let Some(first) = global_name.first_mut() {
            *first = first.to_ascii_uppercase();
        }
        Self {
            id,
            username: username.to_owned(),
            global_name: Some(global_name.into_iter().collect()),
            locale: "en-US".to_owned(),
            permissions: default_member_permissions(),
        }
    }

    /// The same member with another client language.
    pub fn with_locale(mut self, locale: &str) -> Self {
        self.locale = locale.to_owned();
        self
    }

    /// The same member with other permissions.
    pub fn with_permissions(mut self, permissions: Permissions) -> Self {
        self.permissions = permissions;
        self
    }

    /// The id as serenity's type.
    pub fn user_id(&self) -> UserId {
        UserId::new(self.id)
    }

    /// `<@id>`, as a bot writes a ping.
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }

    fn user_vars(&self) -> Vars {
        let mut vars = Vars::new()
            .set("user_id", self.id.to_string())
            .set("username", self.username.clone())
            .omit("bot");
        vars.insert(
            "global_name",
            self.global_name.clone().map_or(Value::Null, Value::String),
        );
        vars
    }

    /// The user object.
    pub fn user_json(&self) -> Value {
        Fixture::User
            .fill(&self.user_vars())
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The guild member object with its user.
    pub fn member_json(&self, joined_at: &str) -> Value {
        let vars = Vars::new()
            .set("user", self.user_json())
            .set("joined_at", joined_at)
            .set("permissions", self.permissions.bits().to_string());
        Fixture::Member
            .fill(&vars)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// The partial member of `resolved.members`.
    pub fn resolved_member_json(&self, joined_at: &str) -> Value {
        let vars = Vars::new()
            .set("joined_at", joined_at)
            .set("permissions", self.permissions.bits().to_string());
        Fixture::ResolvedMember
            .fill(&vars)
            .unwrap_or_else(|e| panic!("{e}"))
    }
}

/// A value for a slash-command option.
#[derive(Clone, Debug, PartialEq)]
pub enum OptionValue {
    /// STRING (type 3).
    String(String),
    /// INTEGER (type 4).
    Integer(i64),
    /// BOOLEAN (type 5).
    Boolean(bool),
    /// USER (type 6): the interaction also carries `resolved.users` and `resolved.members`.
    User(TestUser),
    /// CHANNEL (type 7): the interaction also carries `resolved.channels`.
    Channel(u64),
    /// NUMBER (type 10).
    Number(f64),
}

impl OptionValue {
    /// Discord's option type number.
    pub fn type_code(&self) -> u64 {
        match self {
            Self::String(_) => 3,
            Self::Integer(_) => 4,
            Self::Boolean(_) => 5,
            Self::User(_) => 6,
            Self::Channel(_) => 7,
            Self::Number(_) => 10,
        }
    }

    fn json(&self) -> Value {
        match self {
            Self::String(s) => json!(s),
            Self::Integer(i) => json!(i),
            Self::Boolean(b) => json!(b),
            Self::User(u) => json!(u.id.to_string()),
            Self::Channel(c) => json!(c.to_string()),
            Self::Number(n) => json!(n),
        }
    }
}

/// A slash command to inject, or with [`SlashCommand::focused`] an autocomplete request.
#[derive(Clone, Debug)]
pub struct SlashCommand {
    name: String,
    subcommand: Option<String>,
    options: Vec<(String, OptionValue)>,
    focused: Option<(String, String)>,
    user: Option<TestUser>,
    channel: Option<u64>,
    locale: Option<String>,
    checked: bool,
}

impl SlashCommand {
    /// `/name` with no options yet, by the default user in the default channel.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            subcommand: None,
            options: Vec::new(),
            focused: None,
            user: None,
            channel: None,
            locale: None,
            checked: true,
        }
    }

    /// Invoked by `user` (and in the user's locale unless [`Self::locale`] says otherwise).
    pub fn by(mut self, user: &TestUser) -> Self {
        self.user = Some(user.clone());
        self
    }

    /// Invoked in this channel or thread.
    pub fn in_channel(mut self, channel: ChannelId) -> Self {
        self.channel = Some(channel.get());
        self
    }

    /// The interaction `locale` (the invoker's client language).
    pub fn locale(mut self, locale: &str) -> Self {
        self.locale = Some(locale.to_owned());
        self
    }

    /// Invokes subcommand `name`; later options belong to it.
    pub fn subcommand(mut self, name: &str) -> Self {
        self.subcommand = Some(name.to_owned());
        self
    }

    /// Adds an option with any value.
    pub fn option(mut self, name: &str, value: OptionValue) -> Self {
        self.options.push((name.to_owned(), value));
        self
    }

    /// Adds a STRING option.
    pub fn string(self, name: &str, value: &str) -> Self {
        self.option(name, OptionValue::String(value.to_owned()))
    }

    /// Adds an INTEGER option.
    pub fn integer(self, name: &str, value: i64) -> Self {
        self.option(name, OptionValue::Integer(value))
    }

    /// Adds a BOOLEAN option.
    pub fn boolean(self, name: &str, value: bool) -> Self {
        self.option(name, OptionValue::Boolean(value))
    }

    /// Adds a NUMBER option.
    pub fn number(self, name: &str, value: f64) -> Self {
        self.option(name, OptionValue::Number(value))
    }

    /// Adds a USER option (with `resolved.users` and `resolved.members`).
    pub fn user(self, name: &str, user: &TestUser) -> Self {
        self.option(name, OptionValue::User(user.clone()))
    }

    /// Adds a CHANNEL option (with `resolved.channels`).
    pub fn channel(self, name: &str, channel: ChannelId) -> Self {
        self.option(name, OptionValue::Channel(channel.get()))
    }

    /// Makes this an autocomplete request (type 4): `typed` is what the user has typed so far
    /// in option `name`; the other options are those already filled.
    pub fn focused(mut self, name: &str, typed: &str) -> Self {
        self.focused = Some((name.to_owned(), typed.to_owned()));
        self
    }

    /// Skips the checks against the registered command (for tests of what Discord would not send).
    pub fn unchecked(mut self) -> Self {
        self.checked = false;
        self
    }
}

/// A click on a component of a message the fake holds.
#[derive(Clone, Debug)]
pub struct Click {
    message_id: u64,
    custom_id: String,
    component_type: u64,
    values: Option<Vec<String>>,
    user: Option<TestUser>,
    locale: Option<String>,
    checked: bool,
}

impl Click {
    /// A click on the button with `custom_id` of message `message`.
    pub fn button(message: MessageId, custom_id: &str) -> Self {
        Self {
            message_id: message.get(),
            custom_id: custom_id.to_owned(),
            component_type: 2,
            values: None,
            user: None,
            locale: None,
            checked: true,
        }
    }

    /// A choice of `values` in the string select menu `custom_id` of message `message`.
    pub fn select(message: MessageId, custom_id: &str, values: &[&str]) -> Self {
        Self {
            component_type: 3,
            values: Some(values.iter().map(|v| (*v).to_owned()).collect()),
            ..Self::button(message, custom_id)
        }
    }

    /// Clicked by `user`.
    pub fn by(mut self, user: &TestUser) -> Self {
        self.user = Some(user.clone());
        self
    }

    /// The interaction `locale`.
    pub fn locale(mut self, locale: &str) -> Self {
        self.locale = Some(locale.to_owned());
        self
    }

    /// Skips the check that the message shows an enabled component with this `custom_id`
    /// (a stale client can still send such a click).
    pub fn unchecked(mut self) -> Self {
        self.checked = false;
        self
    }
}

/// Anything [`super::FakeDiscord::send`] can inject.
#[derive(Clone, Debug)]
pub enum InteractionSpec {
    /// A slash command or autocomplete request.
    Command(SlashCommand),
    /// A component click.
    Click(Click),
}

impl From<SlashCommand> for InteractionSpec {
    fn from(command: SlashCommand) -> Self {
        Self::Command(command)
    }
}

impl From<Click> for InteractionSpec {
    fn from(click: Click) -> Self {
        Self::Click(click)
    }
}

/// An injected interaction: what a test needs to find the bot's answers to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sent {
    /// The interaction id.
    pub id: InteractionId,
    /// The interaction token (a fake one, safe to show).
    pub token: String,
    /// The application id (the webhook id of its follow-ups).
    pub application_id: ApplicationId,
    /// Where it happened.
    pub channel_id: ChannelId,
    /// Interaction type: 2 command, 3 component, 4 autocomplete.
    pub kind: u8,
    /// Gateway sequence number of its INTERACTION_CREATE.
    pub seq: u64,
    /// When it was sent, as time since the fake started (compare with [`super::RecordedRequest::at`]).
    pub sent_at: std::time::Duration,
}

/// Builds the INTERACTION_CREATE payload and the fake's record of it.
pub(crate) fn build(
    shared: &Shared,
    st: &State,
    spec: &InteractionSpec,
) -> Result<(Value, InteractionState), FakeError> {
    match spec {
        InteractionSpec::Command(command) => build_command(shared, st, command),
        InteractionSpec::Click(click) => build_click(shared, st, click),
    }
}

fn common_vars(
    shared: &Shared,
    st: &State,
    id: u64,
    token: &str,
    channel_id: u64,
    user: &TestUser,
    locale: &str,
) -> Result<Vars, FakeError> {
    let mut channel = st
        .channels
        .get(&channel_id)
        .cloned()
        .ok_or(FakeError::UnknownChannel(channel_id))?;
    let app_permissions = st.app_permissions(channel_id, shared.config.app_permissions);
    channel["permissions"] = json!(app_permissions.bits().to_string());
    Ok(Vars::new()
        .set("interaction_id", id.to_string())
        .set("application_id", shared.application_id.to_string())
        .set("token", token)
        .set(
            "guild_id",
            st.guild_of_channel(channel_id)
                .unwrap_or(shared.guild_id)
                .to_string(),
        )
        .set("guild_locale", shared.config.guild_locale.clone())
        .set("channel_id", channel_id.to_string())
        .set("channel", channel)
        .set("member", user.member_json(&shared.joined_at))
        .set("locale", locale)
        .set("app_permissions", app_permissions.bits().to_string())
        .set("attachment_size_limit", shared.config.attachment_size_limit))
}

fn build_command(
    shared: &Shared,
    st: &State,
    command: &SlashCommand,
) -> Result<(Value, InteractionState), FakeError> {
    let user = command
        .user
        .clone()
        .or_else(|| st.users.get(&shared.default_user_id).cloned())
        .ok_or(FakeError::NoUser)?;
    let channel_id = command.channel.unwrap_or(shared.default_channel_id);
    let registered = st.find_command(&command.name);
    let (command_id, command_guild) = match registered {
        Some(c) => (
            c["id"].as_str().unwrap_or("0").to_owned(),
            c.get("guild_id").and_then(Value::as_str).map(str::to_owned),
        ),
        None if !command.checked => (shared.next_id().to_string(), None),
        None => return Err(FakeError::UnregisteredCommand(command.name.clone())),
    };
    let definitions = match (registered, &command.subcommand) {
        (Some(c), None) => Some(c["options"].as_array().cloned().unwrap_or_default()),
        (Some(c), Some(sub)) => {
            let sub_def = c["options"]
                .as_array()
                .into_iter()
                .flatten()
                .find(|o| o["type"] == 1 && o["name"] == sub.as_str());
            match sub_def {
                Some(s) => Some(s["options"].as_array().cloned().unwrap_or_default()),
                None if command.checked => {
                    return Err(FakeError::InvalidOptions(format!(
                        "/{} has no subcommand {sub}",
                        command.name
                    )));
                }
                None => None,
            }
        }
        (None, _) => None,
    };
    if command.checked
        && let Some(defs) = &definitions
    {
        check_options(&command.name, defs, command, registered)?;
    }
    // Discord's client hides a command from members without its default permissions.
    let required = registered
        .and_then(|c| c["default_member_permissions"].as_str())
        .and_then(|bits| bits.parse().ok())
        .map(Permissions::from_bits_truncate);
    if command.checked
        && let Some(required) = required
        && !user.permissions.contains(Permissions::ADMINISTRATOR)
        && !user.permissions.contains(required)
    {
        return Err(FakeError::NotPermitted {
            command: command.name.clone(),
            user: user.username.clone(),
        });
    }

    let mut options: Vec<Value> = command
        .options
        .iter()
        .map(
            |(name, value)| json!({"name": name, "type": value.type_code(), "value": value.json()}),
        )
        .collect();
    if let Some((name, typed)) = &command.focused {
        let kind = definitions
            .iter()
            .flatten()
            .find(|d| d["name"] == name.as_str())
            .and_then(|d| d["type"].as_u64())
            .unwrap_or(3);
        options.push(json!({"name": name, "type": kind, "value": typed, "focused": true}));
    }
    if let Some(sub) = &command.subcommand {
        options = vec![json!({"name": sub, "type": 1, "options": options})];
    }

    let mut resolved = Map::new();
    for (_, value) in &command.options {
        match value {
            OptionValue::User(u) => {
                entry(&mut resolved, "users").insert(u.id.to_string(), u.user_json());
                entry(&mut resolved, "members")
                    .insert(u.id.to_string(), u.resolved_member_json(&shared.joined_at));
            }
            OptionValue::Channel(c) => {
                let mut channel = st
                    .channels
                    .get(c)
                    .cloned()
                    .ok_or(FakeError::UnknownChannel(*c))?;
                channel["permissions"] = json!(
                    st.app_permissions(*c, shared.config.app_permissions)
                        .bits()
                        .to_string()
                );
                entry(&mut resolved, "channels").insert(c.to_string(), channel);
            }
            _ => {}
        }
    }

    let id = shared.next_id();
    let token = interaction_token(id);
    let locale = command
        .locale
        .clone()
        .unwrap_or_else(|| user.locale.clone());
    let mut vars = common_vars(shared, st, id, &token, channel_id, &user, &locale)?
        .set("command_id", command_id)
        .set("command_name", command.name.clone())
        .set("options", options);
    vars.insert_opt("command_guild_id", command_guild);
    vars.insert_opt(
        "resolved",
        (!resolved.is_empty()).then_some(Value::Object(resolved)),
    );
    let (fixture, kind) = if command.focused.is_some() {
        (Fixture::InteractionAutocomplete, 4)
    } else {
        (Fixture::InteractionCommand, 2)
    };
    let payload = fixture.fill(&vars).map_err(FakeError::Fixture)?;
    let state = InteractionState {
        id,
        token,
        kind,
        channel_id,
        user,
        command_name: Some(command.name.clone()),
        message_id: None,
        acknowledged: None,
        original: None,
        followups: Vec::new(),
        sent_at: Instant::now(),
        autocomplete_choices: None,
    };
    Ok((payload, state))
}

fn entry<'a>(map: &'a mut Map<String, Value>, key: &str) -> &'a mut Map<String, Value> {
    match map.entry(key).or_insert_with(|| Value::Object(Map::new())) {
        Value::Object(inner) => inner,
        _ => unreachable!("resolved entries are always objects"),
    }
}

/// Refuses options Discord's client could never send for the registered command.
fn check_options(
    name: &str,
    defs: &[Value],
    command: &SlashCommand,
    registered: Option<&Value>,
) -> Result<(), FakeError> {
    let fail = |reason: String| Err(FakeError::InvalidOptions(format!("/{name}: {reason}")));
    if command.subcommand.is_none()
        && registered.is_some_and(|c| {
            c["options"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|o| o["type"] == 1 || o["type"] == 2)
        })
    {
        return fail("the command has subcommands; pick one with .subcommand()".to_owned());
    }
    for (option, value) in &command.options {
        let Some(def) = defs.iter().find(|d| d["name"] == option.as_str()) else {
            return fail(format!("no option {option:?} is registered"));
        };
        let registered_type = def["type"].as_u64().unwrap_or(0);
        if registered_type != value.type_code() {
            return fail(format!(
                "option {option:?} is registered as type {registered_type}, the test gives type {}",
                value.type_code()
            ));
        }
        if let Some(choices) = def["choices"].as_array().filter(|c| !c.is_empty())
            && !choices.iter().any(|c| c["value"] == value.json())
        {
            return fail(format!(
                "option {option:?} = {} is not one of the registered choices",
                value.json()
            ));
        }
        let number = match value {
            OptionValue::Integer(i) => Some(*i as f64),
            OptionValue::Number(n) => Some(*n),
            _ => None,
        };
        if let Some(n) = number
            && (def["min_value"].as_f64().is_some_and(|min| n < min)
                || def["max_value"].as_f64().is_some_and(|max| n > max))
        {
            return fail(format!(
                "option {option:?} = {n} is outside the registered range"
            ));
        }
        if let OptionValue::String(s) = value {
            let len = s.chars().count() as u64;
            if def["min_length"].as_u64().is_some_and(|min| len < min)
                || def["max_length"].as_u64().is_some_and(|max| len > max)
            {
                return fail(format!(
                    "option {option:?} has a length outside the registered bounds"
                ));
            }
        }
    }
    if let Some((focused, _)) = &command.focused {
        match defs.iter().find(|d| d["name"] == focused.as_str()) {
            Some(def) if def["autocomplete"] == true => {}
            Some(_) => {
                return fail(format!(
                    "option {focused:?} is not registered with autocomplete"
                ));
            }
            None => return fail(format!("no option {focused:?} is registered")),
        }
    } else {
        for def in defs.iter().filter(|d| d["required"] == true) {
            let def_name = def["name"].as_str().unwrap_or_default();
            if !command.options.iter().any(|(n, _)| n == def_name) {
                return fail(format!("required option {def_name:?} is missing"));
            }
        }
    }
    Ok(())
}

fn build_click(
    shared: &Shared,
    st: &State,
    click: &Click,
) -> Result<(Value, InteractionState), FakeError> {
    let user = click
        .user
        .clone()
        .or_else(|| st.users.get(&shared.default_user_id).cloned())
        .ok_or(FakeError::NoUser)?;
    let message = st
        .messages
        .get(&click.message_id)
        .cloned()
        .ok_or(FakeError::UnknownMessage(click.message_id))?;
    if click.checked {
        match find_component(&message["components"], &click.custom_id) {
            None => {
                return Err(FakeError::NoSuchComponent {
                    message_id: click.message_id,
                    custom_id: click.custom_id.clone(),
                });
            }
            Some(c) if c["disabled"] == true => {
                return Err(FakeError::DisabledComponent {
                    message_id: click.message_id,
                    custom_id: click.custom_id.clone(),
                });
            }
            Some(c) if c["type"].as_u64() != Some(click.component_type) => {
                return Err(FakeError::NoSuchComponent {
                    message_id: click.message_id,
                    custom_id: click.custom_id.clone(),
                });
            }
            Some(_) => {}
        }
    }
    let channel_id = message["channel_id"]
        .as_str()
        .and_then(|c| c.parse().ok())
        .unwrap_or(shared.default_channel_id);
    let id = shared.next_id();
    let token = interaction_token(id);
    let locale = click.locale.clone().unwrap_or_else(|| user.locale.clone());
    let mut vars = common_vars(shared, st, id, &token, channel_id, &user, &locale)?
        .set("message", message)
        .set("custom_id", click.custom_id.clone())
        .set("component_type", click.component_type);
    vars.insert_opt("values", click.values.clone());
    let payload = Fixture::InteractionComponent
        .fill(&vars)
        .map_err(FakeError::Fixture)?;
    let state = InteractionState {
        id,
        token,
        kind: 3,
        channel_id,
        user,
        command_name: None,
        message_id: Some(click.message_id),
        acknowledged: None,
        original: None,
        followups: Vec::new(),
        sent_at: Instant::now(),
        autocomplete_choices: None,
    };
    Ok((payload, state))
}

/// The component with `custom_id` anywhere in a message's component tree.
pub(crate) fn find_component<'a>(components: &'a Value, custom_id: &str) -> Option<&'a Value> {
    match components {
        Value::Array(items) => items.iter().find_map(|c| find_component(c, custom_id)),
        Value::Object(map) => {
            if map.get("custom_id").and_then(Value::as_str) == Some(custom_id) {
                return Some(components);
            }
            ["components", "accessory"]
                .iter()
                .find_map(|k| map.get(*k).and_then(|c| find_component(c, custom_id)))
        }
        _ => None,
    }
}

/// A token shaped like Discord's (long, URL-safe) that names the interaction, for debugging.
fn interaction_token(id: u64) -> String {
    format!("aW50ZXJhY3Rpb246{id}OmZha2UtdG9rZW4")
}
