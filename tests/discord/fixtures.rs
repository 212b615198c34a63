//! Every fixture, filled, is accepted by serenity's own parsers, and the keys serenity requires
//! are really required (so a fixture missing one would be caught here, not by a silent bot).

use serde_json::{Value, json};
use serenity::all::{
    CommandDataOptionValue, Event, Interaction, Member, PartialMember, ResolvedValue, User,
};

use crate::support::fake_discord::gateway::check_dispatch;
use crate::support::fake_discord::{Fixture, FixtureError, Vars};

const GUILD: &str = "1100000000000000001";
const CHANNEL: &str = "1100000000000000002";
const APP: &str = "1100000000000000003";
const ALICE: &str = "1100000000000000004";
const BOB: &str = "1100000000000000005";
const MESSAGE: &str = "1100000000000000006";
const JOINED: &str = "2024-03-01T12:00:00.000000+00:00";

fn user(id: &str, name: &str) -> Value {
    let vars = Vars::new()
        .set("user_id", id)
        .set("username", name)
        .set("global_name", name.to_uppercase())
        .omit("bot");
    Fixture::User.fill(&vars).expect("user fixture")
}

fn member(id: &str, name: &str) -> Value {
    let vars = Vars::new()
        .set("user", user(id, name))
        .set("joined_at", JOINED)
        .set("permissions", "2248473465835073");
    Fixture::Member.fill(&vars).expect("member fixture")
}

fn resolved_member() -> Value {
    let vars = Vars::new()
        .set("joined_at", JOINED)
        .set("permissions", "2248473465835073");
    Fixture::ResolvedMember
        .fill(&vars)
        .expect("resolved member fixture")
}

fn channel() -> Value {
    json!({"id": CHANNEL, "type": 0, "guild_id": GUILD, "name": "general", "position": 0, "permission_overwrites": [],
        "nsfw": false, "parent_id": null, "topic": null, "last_message_id": null, "rate_limit_per_user": 0, "flags": 0,
        "permissions": "2248473465835073"})
}

/// The variables every interaction fixture needs.
fn interaction_vars(id: &str) -> Vars {
    Vars::new()
        .set("interaction_id", id)
        .set("application_id", APP)
        .set("token", "aW50ZXJhY3Rpb24")
        .set("guild_id", GUILD)
        .set("guild_locale", "es-ES")
        .set("channel_id", CHANNEL)
        .set("channel", channel())
        .set("member", member(ALICE, "alice"))
        .set("locale", "fi")
        .set("app_permissions", "2248473465835073")
        .set("attachment_size_limit", 10_485_760)
}

fn command_payload() -> Value {
    let vars = interaction_vars("1100000000000000010")
        .set("command_id", "1100000000000000011")
        .set("command_name", "challenge")
        .omit("command_guild_id")
        .set(
            "options",
            json!([
                {"name": "opponent", "type": 6, "value": BOB},
                {"name": "size", "type": 4, "value": 19},
                {"name": "game", "type": 3, "value": "pente"},
            ]),
        )
        .set(
            "resolved",
            json!({"users": {BOB: user(BOB, "bob")}, "members": {BOB: resolved_member()}}),
        );
    Fixture::InteractionCommand
        .fill(&vars)
        .expect("command fixture")
}

fn autocomplete_payload() -> Value {
    let vars = interaction_vars("1100000000000000020")
        .set("command_id", "1100000000000000011")
        .set("command_name", "move")
        .set("command_guild_id", GUILD)
        .set(
            "options",
            json!([{"name": "at", "type": 3, "value": "K1", "focused": true}]),
        );
    Fixture::InteractionAutocomplete
        .fill(&vars)
        .expect("autocomplete fixture")
}

fn clicked_message() -> Value {
    json!({
        "id": MESSAGE,
        "channel_id": CHANNEL,
        "author": {"id": APP, "username": "bot", "discriminator": "0", "avatar": null, "bot": true, "global_name": null},
        "content": "Alice challenges Bob",
        "timestamp": JOINED,
        "edited_timestamp": null,
        "tts": false,
        "mention_everyone": false,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": false,
        "type": 0,
        "flags": 0,
        "components": [{"type": 1, "components": [{"type": 2, "style": 3, "label": "Accept", "custom_id": "game:7:accept"}]}],
    })
}

fn component_payload() -> Value {
    let vars = interaction_vars("1100000000000000030")
        .set("message", clicked_message())
        .set("custom_id", "game:7:accept")
        .set("component_type", 2)
        .omit("values");
    Fixture::InteractionComponent
        .fill(&vars)
        .expect("component fixture")
}

fn ready_payload() -> Value {
    let vars = Vars::new()
        .set("bot_user_id", APP)
        .set("bot_username", "GomokuBot")
        .set(
            "unavailable_guilds",
            json!([{"id": GUILD, "unavailable": true}]),
        )
        .set("session_id", "session")
        .set("resume_gateway_url", "ws://127.0.0.1:1")
        .set("application_id", APP);
    Fixture::Ready.fill(&vars).expect("ready fixture")
}

fn guild_create_payload() -> Value {
    // serenity 0.12.5 requires a role's `colors`, a field Discord added in 2025.
    let role = json!({"id": GUILD, "name": "@everyone", "color": 0, "colors": {"primary_color": 0}, "hoist": false, "icon": null, "unicode_emoji": null,
        "position": 0, "permissions": "0", "managed": false, "mentionable": false, "flags": 0});
    let vars = Vars::new()
        .set("guild_id", GUILD)
        .set("guild_name", "Guild")
        .set("owner_id", ALICE)
        .set("roles", json!([role]))
        .set("system_channel_id", CHANNEL)
        .set("preferred_locale", "fi")
        .set("joined_at", JOINED)
        .set("member_count", 1)
        .set("members", json!([member(ALICE, "alice")]))
        .set("channels", json!([channel()]))
        .set("threads", json!([]));
    Fixture::GuildCreate
        .fill(&vars)
        .expect("guild create fixture")
}

fn interaction(payload: &Value) -> Interaction {
    match check_dispatch("INTERACTION_CREATE", payload) {
        Ok(Event::InteractionCreate(event)) => event.interaction,
        other => panic!("not an interaction: {other:?}"),
    }
}

#[test]
fn every_fixture_is_json_with_whole_string_placeholders() {
    for fixture in Fixture::ALL {
        let template = fixture.template().unwrap_or_else(|e| panic!("{e}"));
        assert!(template.is_object(), "{}", fixture.file_name());
        // Filling with a value for every placeholder leaves none behind.
        let mut vars = Vars::new();
        for name in fixture.placeholders().expect("parsed") {
            vars.insert(&name, "x");
        }
        let filled = fixture
            .fill(&vars)
            .unwrap_or_else(|e| panic!("{}: {e}", fixture.file_name()));
        assert!(
            !filled.to_string().contains("{{"),
            "{}",
            fixture.file_name()
        );
    }
    assert!(
        Fixture::InteractionComponent
            .placeholders()
            .expect("parsed")
            .contains(&"custom_id".to_owned())
    );
}

#[test]
fn placeholders_are_replaced_left_out_or_reported() {
    let template =
        json!({"a": "{{a}}", "b": "{{b}}", "list": ["{{b}}", 1], "keep": "{not a placeholder}"});
    let filled = crate::support::fake_discord::fixtures::fill(
        &template,
        &Vars::new().set("a", json!({"n": 1})).omit("b"),
    )
    .expect("filled");
    assert_eq!(
        filled,
        json!({"a": {"n": 1}, "list": [1], "keep": "{not a placeholder}"})
    );

    let unfilled =
        crate::support::fake_discord::fixtures::fill(&template, &Vars::new().set("a", 1));
    assert_eq!(
        unfilled,
        Err(FixtureError::Unfilled {
            name: "b".to_owned(),
            at: "/b".to_owned()
        })
    );
    let embedded = crate::support::fake_discord::fixtures::fill(
        &json!({"url": "ws://{{host}}"}),
        &Vars::new(),
    );
    assert!(matches!(embedded, Err(FixtureError::Embedded { .. })));
}

#[test]
fn the_command_fixture_parses_with_a_resolved_user_option() {
    let Interaction::Command(command) = interaction(&command_payload()) else {
        panic!("not a command");
    };
    assert_eq!(command.data.name, "challenge");
    assert_eq!(command.locale, "fi");
    assert_eq!(command.guild_locale.as_deref(), Some("es-ES"));
    assert_eq!(
        command.member.as_ref().map(|m| m.user.name.as_str()),
        Some("alice")
    );
    let options = command.data.options();
    match &options[0].value {
        ResolvedValue::User(user, member) => {
            assert_eq!(user.name, "bob");
            assert!(member.is_some(), "resolved.members gives the member");
        }
        other => panic!("opponent is {other:?}"),
    }
    assert!(matches!(options[1].value, ResolvedValue::Integer(19)));
    assert!(matches!(options[2].value, ResolvedValue::String("pente")));
}

#[test]
fn the_autocomplete_fixture_parses_with_a_focused_option() {
    let Interaction::Autocomplete(autocomplete) = interaction(&autocomplete_payload()) else {
        panic!("not an autocomplete request");
    };
    let focused = autocomplete.data.autocomplete().expect("a focused option");
    assert_eq!((focused.name, focused.value), ("at", "K1"));
    assert!(matches!(
        autocomplete.data.options[0].value,
        CommandDataOptionValue::Autocomplete { .. }
    ));
}

#[test]
fn the_component_fixture_parses_with_the_clicked_message() {
    let Interaction::Component(click) = interaction(&component_payload()) else {
        panic!("not a component click");
    };
    assert_eq!(click.data.custom_id, "game:7:accept");
    assert_eq!(click.message.id.get().to_string(), MESSAGE);
    assert_eq!(click.message.components.len(), 1);
}

#[test]
fn the_ready_and_guild_create_fixtures_parse() {
    match check_dispatch("READY", &ready_payload()) {
        Ok(Event::Ready(ready)) => {
            assert_eq!(ready.ready.application.id.get().to_string(), APP);
            assert_eq!(ready.ready.user.id.get().to_string(), APP);
            assert_eq!(ready.ready.guilds.len(), 1);
        }
        other => panic!("READY: {other:?}"),
    }
    match check_dispatch("GUILD_CREATE", &guild_create_payload()) {
        Ok(Event::GuildCreate(event)) => {
            assert_eq!(event.guild.channels.len(), 1);
            assert_eq!(event.guild.members.len(), 1);
            assert_eq!(event.guild.preferred_locale, "fi");
        }
        other => panic!("GUILD_CREATE: {other:?}"),
    }
}

#[test]
fn the_user_and_member_fixtures_parse() {
    let parsed: User = serde_json::from_value(user(BOB, "bob")).expect("a user");
    assert_eq!(parsed.name, "bob");
    assert!(!parsed.bot);
    let mut with_guild = member(BOB, "bob");
    // A member from REST or an interaction gets its guild id from the surrounding payload.
    with_guild["guild_id"] = json!(GUILD);
    let parsed: Member = serde_json::from_value(with_guild).expect("a member");
    assert_eq!(parsed.user.name, "bob");
    let parsed: PartialMember =
        serde_json::from_value(resolved_member()).expect("a partial member");
    assert!(parsed.user.is_none());
}

/// Removes the key at `pointer` (`/a/b`) from a copy of `payload`.
fn without(payload: &Value, pointer: &str) -> Value {
    let mut copy = payload.clone();
    let (parent, key) = pointer.rsplit_once('/').expect("a pointer");
    let parent = if parent.is_empty() {
        Some(&mut copy)
    } else {
        copy.pointer_mut(parent)
    };
    let removed = parent
        .and_then(Value::as_object_mut)
        .and_then(|map| map.remove(key));
    assert!(removed.is_some(), "{pointer} is not in the payload");
    copy
}

#[test]
fn serenity_drops_interactions_missing_any_required_key() {
    let command = command_payload();
    let required = [
        "/id",
        "/application_id",
        "/type",
        "/token",
        "/version",
        "/channel_id",
        "/locale",
        "/entitlements",
        "/attachment_size_limit",
        "/data",
        "/member/user",
        "/member/roles",
        "/member/deaf",
        "/member/mute",
        "/member/flags",
        "/member/user/id",
        "/member/user/username",
        "/data/id",
        "/data/name",
        "/data/type",
    ];
    for pointer in required {
        let broken = without(&command, pointer);
        assert!(
            check_dispatch("INTERACTION_CREATE", &broken).is_err(),
            "serenity accepts a command without {pointer}"
        );
    }
    let component = component_payload();
    let required = [
        "/data/custom_id",
        "/data/component_type",
        "/message/id",
        "/message/channel_id",
        "/message/author",
        "/message/content",
        "/message/timestamp",
        "/message/tts",
        "/message/mention_everyone",
        "/message/mentions",
        "/message/mention_roles",
        "/message/attachments",
        "/message/embeds",
        "/message/pinned",
        "/message/type",
    ];
    for pointer in required {
        let broken = without(&component, pointer);
        assert!(
            check_dispatch("INTERACTION_CREATE", &broken).is_err(),
            "serenity accepts a click without {pointer}"
        );
    }
    // Without `resolved.users` a USER option still parses but stays unresolved (poise then
    // cannot give the command its `User` argument); without `resolved.members` it has no member.
    let Interaction::Command(no_users) = interaction(&without(&command, "/data/resolved/users"))
    else {
        panic!("not a command");
    };
    assert!(matches!(
        no_users.data.options()[0].value,
        ResolvedValue::Unresolved(_)
    ));
    let Interaction::Command(no_members) =
        interaction(&without(&command, "/data/resolved/members"))
    else {
        panic!("not a command");
    };
    assert!(matches!(
        no_members.data.options()[0].value,
        ResolvedValue::User(_, None)
    ));
    // Optional keys really are optional: the fixtures are not stricter than serenity.
    for pointer in [
        "/guild_locale",
        "/app_permissions",
        "/channel",
        "/guild",
        "/guild_id",
    ] {
        assert!(
            check_dispatch("INTERACTION_CREATE", &without(&command, pointer)).is_ok(),
            "{pointer}"
        );
    }
}

#[test]
fn serenity_drops_a_guild_create_missing_any_required_key() {
    let guild = guild_create_payload();
    for key in [
        "joined_at",
        "large",
        "member_count",
        "members",
        "channels",
        "threads",
        "voice_states",
        "presences",
        "stage_instances",
        "guild_scheduled_events",
    ] {
        let broken = without(&guild, &format!("/{key}"));
        assert!(
            check_dispatch("GUILD_CREATE", &broken).is_err(),
            "serenity accepts GUILD_CREATE without {key}"
        );
    }
}
