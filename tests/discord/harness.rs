//! The fake itself: its REST answers deserialize into serenity's models, it applies Discord's
//! rules and the test's failure rules, its recorder and matchers work, and the OpenAPI check
//! catches invalid bodies (so `assert_all_requests_valid` can fail).

use std::panic::{AssertUnwindSafe, catch_unwind};

use serde_json::{Value, json};
use serenity::all::{
    Channel, ChannelId, ChannelType, Command, CommandOptionType, CreateAttachment, CreateCommand,
    CreateCommandOption, CreateMessage, CreateThread, EditMessage, GuildId, HttpError, Permissions,
    UserId,
};
use serenity::http::HttpBuilder;

use crate::support::fake_discord::record::parse_multipart;
use crate::support::fake_discord::spec::{normalise, spec};
use crate::support::fake_discord::{
    Body, ErrorAnswer, FakeConfig, FakeDiscord, FakeError, Part, Req, SlashCommand,
};

const TINY_PNG: &[u8] = include_bytes!("../fixtures/discord/tiny.png");

/// The Discord error code of a failed serenity call.
fn discord_code<T: std::fmt::Debug>(result: serenity::Result<T>) -> (u16, isize) {
    match result {
        Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(response))) => {
            (response.status_code.as_u16(), response.error.code)
        }
        other => panic!("expected a Discord error, got {other:?}"),
    }
}

#[tokio::test]
async fn rest_answers_deserialize_into_serenity_models() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    assert_eq!(
        http.get_gateway().await.expect("gateway").url,
        fake.gateway_url()
    );
    assert_eq!(http.get_bot_gateway().await.expect("bot gateway").shards, 1);
    assert_eq!(
        http.get_current_user().await.expect("current user").id,
        fake.bot_user_id()
    );
    let app = http
        .get_current_application_info()
        .await
        .expect("application");
    assert_eq!(app.id, fake.application_id());
    assert_eq!(app.owner.expect("an owner").id, fake.owner().user_id());
    let Channel::Guild(general) = http.get_channel(fake.channel_id()).await.expect("channel")
    else {
        panic!("not a guild channel");
    };
    assert_eq!(
        (general.name.as_str(), general.kind),
        ("general", ChannelType::Text)
    );
    assert_eq!(
        http.get_guild(fake.guild_id()).await.expect("guild").id,
        fake.guild_id()
    );
    let alice = fake.add_user("alice");
    assert_eq!(
        http.get_member(fake.guild_id(), alice.user_id())
            .await
            .expect("member")
            .user
            .name,
        "alice"
    );
    assert_eq!(
        http.get_user(alice.user_id()).await.expect("user").name,
        "alice"
    );
    assert_eq!(
        http.get_channels(fake.guild_id())
            .await
            .expect("channels")
            .len(),
        1
    );

    let sent = fake
        .channel_id()
        .send_message(
            &http,
            CreateMessage::new()
                .content(format!("hi {}", alice.mention()))
                .add_file(CreateAttachment::bytes(TINY_PNG, "b.png")),
        )
        .await
        .expect("a message");
    assert_eq!(sent.attachments[0].dimensions(), Some((4, 3)));
    assert_eq!(sent.mentions[0].id, alice.user_id());
    let edited = fake
        .channel_id()
        .edit_message(&http, sent.id, EditMessage::new().content("edited"))
        .await
        .expect("edited");
    assert_eq!(edited.content, "edited");
    assert!(edited.edited_timestamp.is_some());
    // Editing attachments: keep one by id and add one, then replace all with a new one.
    let kept = sent.attachments[0].id;
    let both = EditMessage::new()
        .keep_existing_attachment(kept)
        .new_attachment(CreateAttachment::bytes(TINY_PNG, "c.png"));
    let edited = fake
        .channel_id()
        .edit_message(&http, sent.id, both)
        .await
        .expect("edited");
    let names: Vec<&str> = edited
        .attachments
        .iter()
        .map(|a| a.filename.as_str())
        .collect();
    assert_eq!(names, ["b.png", "c.png"]);
    assert_eq!(edited.attachments[0].id, kept);
    let replaced = EditMessage::new().new_attachment(CreateAttachment::bytes(TINY_PNG, "d.png"));
    let edited = fake
        .channel_id()
        .edit_message(&http, sent.id, replaced)
        .await
        .expect("edited");
    let names: Vec<&str> = edited
        .attachments
        .iter()
        .map(|a| a.filename.as_str())
        .collect();
    assert_eq!(names, ["d.png"]);
    let cleared = EditMessage::new().remove_all_attachments();
    let edited = fake
        .channel_id()
        .edit_message(&http, sent.id, cleared)
        .await
        .expect("edited");
    assert!(edited.attachments.is_empty());
    assert_eq!(
        fake.channel_id()
            .message(&http, sent.id)
            .await
            .expect("fetched")
            .content,
        "edited"
    );

    let thread = fake
        .channel_id()
        .create_thread_from_message(&http, sent.id, CreateThread::new("game 1"))
        .await
        .expect("thread");
    assert_eq!(
        (thread.kind, thread.id.get()),
        (ChannelType::PublicThread, sent.id.get()),
        "a message's thread shares its id"
    );
    let private = fake
        .channel_id()
        .create_thread(
            &http,
            CreateThread::new("secret").kind(ChannelType::PrivateThread),
        )
        .await
        .expect("private thread");
    assert_eq!(private.kind, ChannelType::PrivateThread);
    private
        .id
        .add_thread_member(&http, alice.user_id())
        .await
        .expect("member added");
    assert_eq!(
        thread
            .id
            .say(&http, "in the thread")
            .await
            .expect("thread message")
            .channel_id,
        thread.id
    );
    assert_eq!(fake.messages_in(thread.id).len(), 1);

    http.set_application_id(fake.application_id());
    let commands =
        Command::set_global_commands(&http, vec![CreateCommand::new("ping").description("Pong")])
            .await
            .expect("registered");
    let again =
        Command::set_global_commands(&http, vec![CreateCommand::new("ping").description("Pong!")])
            .await
            .expect("registered");
    assert_eq!(
        commands[0].id, again[0].id,
        "re-registering keeps a command's id"
    );
    assert_eq!(
        Command::get_global_commands(&http).await.expect("listed")[0].description,
        "Pong!"
    );
    fake.assert_all_requests_valid();
    let answers = fake.answer_violations();
    assert!(answers.is_empty(), "{answers:#?}");
}

#[tokio::test]
async fn errors_have_discords_shape_and_count_as_violations() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    assert_eq!(
        discord_code(http.get_channel(ChannelId::new(42)).await),
        (404, 10003)
    );
    assert_eq!(
        discord_code(http.get_guild(GuildId::new(42)).await),
        (404, 10004)
    );
    // serenity refuses over-long content itself, so send the raw body.
    let too_long = json!({"content": "x".repeat(2001)});
    assert_eq!(
        discord_code(
            http.send_message(fake.channel_id(), vec![], &too_long)
                .await
        ),
        (400, 50035)
    );
    assert_eq!(
        discord_code(
            fake.channel_id()
                .send_message(&http, CreateMessage::new())
                .await
        ),
        (400, 50006)
    );
    let stranger = HttpBuilder::new("not-the-token")
        .proxy(fake.base_url())
        .ratelimiter_disabled(true)
        .build();
    assert_eq!(discord_code(stranger.get_current_user().await), (401, 0));

    let violations = fake.violations();
    assert_eq!(violations.len(), 5, "{violations:#?}");
    assert!(violations.iter().any(|v| v.contains("10003")));
    assert!(violations.iter().any(|v| v.contains("no valid bot token")));
    // The API description allows 4000 characters in a channel message; a bot gets 2000.
    assert!(
        violations
            .iter()
            .any(|v| v.contains("BASE_TYPE_MAX_LENGTH")),
        "{violations:#?}"
    );
}

#[tokio::test]
async fn failure_rules_answer_matching_requests_and_are_not_violations() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    fake.fail_once(Req::get("/users/@me"), ErrorAnswer::missing_access());
    assert_eq!(discord_code(http.get_current_user().await), (403, 50001));
    assert!(
        http.get_current_user().await.is_ok(),
        "fail_once applies once"
    );

    fake.fail(
        Req::post("/channels/*/messages"),
        ErrorAnswer::missing_permissions(),
    );
    assert_eq!(
        discord_code(fake.channel_id().say(&http, "a").await),
        (403, 50013)
    );
    assert_eq!(
        discord_code(fake.channel_id().say(&http, "b").await),
        (403, 50013)
    );
    fake.clear_failures();
    assert!(fake.channel_id().say(&http, "c").await.is_ok());

    let rate_limited = ErrorAnswer::rate_limited(1.5);
    fake.fail_once(Req::get("/guilds/*"), rate_limited);
    assert_eq!(discord_code(http.get_guild(fake.guild_id()).await).0, 429);
    fake.assert_all_requests_valid();
}

#[tokio::test]
async fn withheld_channel_permissions_are_enforced() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let games = fake.add_text_channel("games");
    fake.set_app_permissions(
        games,
        Permissions::VIEW_CHANNEL | Permissions::SEND_MESSAGES,
    );
    let file = CreateMessage::new()
        .content("board")
        .add_file(CreateAttachment::bytes(TINY_PNG, "b.png"));
    assert_eq!(
        discord_code(games.send_message(&http, file).await),
        (403, 50013),
        "no ATTACH_FILES"
    );
    let message = games.say(&http, "text is fine").await.expect("sent");
    assert_eq!(
        discord_code(
            games
                .create_thread_from_message(&http, message.id, CreateThread::new("t"))
                .await
        ),
        (403, 50013)
    );

    fake.set_app_permissions(games, Permissions::empty());
    assert_eq!(
        discord_code(games.say(&http, "hidden").await),
        (403, 50001),
        "no VIEW_CHANNEL"
    );

    // A thread inherits its parent's permissions unless it has its own.
    let general_message = fake.channel_id().say(&http, "root").await.expect("sent");
    let thread = fake
        .channel_id()
        .create_thread_from_message(&http, general_message.id, CreateThread::new("t"))
        .await
        .expect("thread");
    fake.set_app_permissions(
        fake.channel_id(),
        Permissions::VIEW_CHANNEL | Permissions::SEND_MESSAGES,
    );
    assert_eq!(
        discord_code(thread.id.say(&http, "in thread").await),
        (403, 50013),
        "no SEND_MESSAGES_IN_THREADS"
    );
    fake.assert_all_requests_valid();
}

#[tokio::test]
async fn files_over_the_attachment_limit_are_refused() {
    let fake = FakeDiscord::start_with(FakeConfig {
        attachment_size_limit: 50,
        ..FakeConfig::default()
    })
    .await;
    let http = fake.http();
    let big = CreateMessage::new().add_file(CreateAttachment::bytes(TINY_PNG, "b.png"));
    assert_eq!(
        discord_code(fake.channel_id().send_message(&http, big).await),
        (413, 40005)
    );
}

#[tokio::test]
async fn the_validator_rejects_invalid_bodies() {
    let spec = spec().unwrap_or_else(|e| panic!("{e}"));
    let callback = "/interactions/1/token/callback";
    assert_eq!(
        spec.check_json(
            "POST",
            callback,
            &json!({"type": 4, "data": {"content": "hi"}})
        ),
        Vec::<String>::new()
    );

    let too_long = spec.check_json(
        "POST",
        callback,
        &json!({"type": 4, "data": {"content": "x".repeat(2001)}}),
    );
    assert_eq!(too_long.len(), 1, "{too_long:?}");
    assert!(
        too_long[0].contains("/data/content"),
        "the best branch of anyOf is explained: {too_long:?}"
    );

    let bad_button = json!({"type": 4, "data": {"components": [{"type": 1, "components": [{"type": 2, "label": "no style"}]}]}});
    let button_errors = spec.check_json("POST", callback, &bad_button);
    assert!(
        button_errors
            .iter()
            .all(|e| e.contains("/data/components/0/components/0")),
        "the explanation points at the button, not at other kinds of callback: {button_errors:#?}"
    );
    assert!(!button_errors.is_empty());
    assert!(
        !spec
            .check_json("POST", callback, &json!({"type": 99}))
            .is_empty()
    );
    assert!(
        !spec
            .check_json(
                "PUT",
                "/applications/1/commands",
                &json!([{"name": "ok", "description": "x".repeat(101)}])
            )
            .is_empty()
    );
    assert_eq!(
        spec.check_json(
            "PUT",
            "/applications/1/commands",
            &json!([{"name": "ok", "description": "x"}])
        ),
        Vec::<String>::new()
    );
    assert!(
        !spec
            .check_json("POST", "/no/such/route", &json!({}))
            .is_empty()
    );
    // `@original` is matched before `{message_id}`.
    let (template, _) = spec
        .operation("PATCH", "/webhooks/1/t/messages/@original")
        .expect("in the spec");
    assert_eq!(
        template,
        "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    );

    // serenity's numeric attachment ids are made strings before validation.
    let mut body = json!({"type": 4, "data": {"attachments": [{"id": 0, "filename": "b.png"}]}});
    normalise(&mut body);
    assert_eq!(body["data"]["attachments"][0]["id"], "0");
    let mut command =
        json!([{"name": "settings", "description": "x", "default_member_permissions": "32"}]);
    normalise(&mut command);
    assert_eq!(command[0]["default_member_permissions"], 32);
    assert_eq!(
        spec.check_json("PUT", "/applications/1/commands", &command),
        Vec::<String>::new()
    );
    assert_eq!(
        spec.check_json("POST", callback, &body),
        Vec::<String>::new()
    );
}

#[tokio::test]
async fn assert_all_requests_valid_fails_on_an_invalid_body() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    // `tts` must be a boolean: the fake answers (as Discord would not), the check catches it.
    http.send_message(
        fake.channel_id(),
        vec![],
        &json!({"content": "hi", "tts": "yes"}),
    )
    .await
    .expect("answered");
    let violations = fake.violations();
    assert_eq!(violations.len(), 1, "{violations:?}");
    assert!(violations[0].contains("/tts"), "{violations:?}");
    assert!(catch_unwind(AssertUnwindSafe(|| fake.assert_all_requests_valid())).is_err());
}

#[tokio::test]
async fn multipart_files_must_match_the_attachments_listed() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    // Listing attachment 1 while uploading only files[0]: Discord refuses it, so does the check.
    let payload = json!({"content": "x", "attachments": [{"id": 1, "filename": "b.png"}]});
    let file = CreateAttachment::bytes(TINY_PNG, "b.png");
    assert!(
        http.send_message(fake.channel_id(), vec![file], &payload)
            .await
            .is_err()
    );
    let violations = fake.violations();
    assert!(
        violations
            .iter()
            .any(|v| v.contains("names no files[1] part")),
        "{violations:?}"
    );
}

#[tokio::test]
async fn next_request_hands_out_each_request_once_in_order() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    fake.channel_id().say(&http, "one").await.expect("sent");
    fake.channel_id().say(&http, "two").await.expect("sent");
    let matcher = Req::post("/channels/*/messages");
    assert_eq!(
        fake.next_request(&matcher).await.json_or_null()["content"],
        "one"
    );
    assert_eq!(
        fake.next_request(&matcher).await.json_or_null()["content"],
        "two"
    );
    let none = fake
        .try_next_request(&matcher, std::time::Duration::from_millis(50))
        .await;
    assert!(none.is_none());
    // A request that arrives while a test waits wakes it.
    let waiter = fake.try_next_request(&matcher, std::time::Duration::from_secs(10));
    let (found, _) = tokio::join!(waiter, fake.channel_id().say(&http, "three"));
    assert_eq!(found.expect("woken").json_or_null()["content"], "three");
    let record = &fake.requests()[0];
    assert!(
        record.header("authorization").is_none(),
        "the token header is not recorded"
    );
    assert!(
        record
            .header("user-agent")
            .is_some_and(|ua| ua.contains("serenity"))
    );
}

#[tokio::test]
async fn subscribers_see_each_later_request_once_without_consuming_it() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    fake.channel_id().say(&http, "before").await.expect("sent");
    let mut taps = fake.subscribe_requests();
    let hung_up = fake.subscribe_requests();
    drop(hung_up);
    fake.channel_id().say(&http, "after").await.expect("sent");
    let _ = http.get_current_user().await.expect("current user");
    let first = taps.recv().await.expect("the message");
    assert_eq!(first.json_or_null()["content"], "after");
    assert_eq!((first.status, first.index), (200, 1));
    let second = taps.recv().await.expect("the user lookup");
    assert_eq!(
        (second.method.as_str(), second.path.as_str()),
        ("GET", "/users/@me")
    );
    assert!(taps.try_recv().is_err(), "nothing else was recorded");
    // Subscribing hands nothing out: next_request still finds both messages.
    let matcher = Req::post("/channels/*/messages");
    assert_eq!(
        fake.next_request(&matcher).await.json_or_null()["content"],
        "before"
    );
    assert_eq!(
        fake.next_request(&matcher).await.json_or_null()["content"],
        "after"
    );
}

#[tokio::test]
async fn commands_cannot_be_injected_without_a_gateway_session_or_registration() {
    let fake = FakeDiscord::start_with(FakeConfig {
        wait_timeout: std::time::Duration::from_millis(100),
        ..FakeConfig::default()
    })
    .await;
    assert!(matches!(
        fake.try_send(SlashCommand::new("ping")).await,
        Err(FakeError::UnregisteredCommand(_))
    ));
    assert!(matches!(
        fake.try_send(SlashCommand::new("ping").unchecked()).await,
        Err(FakeError::NoSession(_))
    ));
    let dropped = fake
        .dispatch("INTERACTION_CREATE", json!({"id": "1", "type": 2}))
        .await;
    assert!(
        matches!(dropped, Err(FakeError::WouldBeDropped(_))),
        "{dropped:?}"
    );
}

#[test]
fn request_patterns_match_methods_segments_and_predicates() {
    let request = |method: &str, path: &str| crate::support::fake_discord::RecordedRequest {
        index: 0,
        method: method.to_owned(),
        path: path.to_owned(),
        query: None,
        headers: Vec::new(),
        authorized: true,
        body: Body::Json(json!({"content": "hi"})),
        status: 200,
        response: None,
        known_route: true,
        deliberate_error: false,
        at: std::time::Duration::ZERO,
    };
    let post = request("POST", "/channels/1/messages");
    assert!(Req::post("/channels/*/messages").matches(&post));
    assert!(Req::any("/channels/1/messages").matches(&post));
    assert!(!Req::patch("/channels/*/messages").matches(&post));
    assert!(!Req::post("/channels/*").matches(&post));
    assert!(!Req::post("/channels/*/messages/*").matches(&post));
    assert!(Req::any("/channels/**").matches(&post));
    assert!(
        Req::post("/channels/*/messages")
            .matching(|r| r.json_or_null()["content"] == "hi")
            .matches(&post)
    );
    assert!(
        !Req::post("/channels/*/messages")
            .matching(|r| r.json_or_null()["content"] == "no")
            .matches(&post)
    );
}

#[test]
fn multipart_bodies_are_split_into_parts() {
    let body = b"--XyZ\r\nContent-Disposition: form-data; name=\"payload_json\"\r\n\r\n{\"a\":1}\r\n--XyZ\r\nContent-Disposition: form-data; name=\"files[0]\"; filename=\"b.png\"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n\r\n--XyZ--\r\n";
    let parts = parse_multipart("multipart/form-data; boundary=XyZ", body).expect("parsed");
    assert_eq!(parts.len(), 2);
    assert_eq!(
        (parts[0].name.as_str(), parts[0].data.as_slice()),
        ("payload_json", b"{\"a\":1}".as_slice())
    );
    assert_eq!(
        parts[1],
        Part {
            name: "files[0]".to_owned(),
            filename: Some("b.png".to_owned()),
            content_type: Some("image/png".to_owned()),
            data: b"\x89PNG\r\n\x1a\n".to_vec(),
        }
    );
    assert_eq!(parts[1].file_index(), Some(0));
    assert!(
        parse_multipart("multipart/form-data", body).is_err(),
        "no boundary"
    );
    assert!(
        parse_multipart("multipart/form-data; boundary=Other", body).is_err(),
        "wrong boundary"
    );
    let unclosed = b"--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end";
    assert!(parse_multipart("multipart/form-data; boundary=XyZ", unclosed).is_err());
    let nameless = b"--XyZ\r\nContent-Type: text/plain\r\n\r\nx\r\n--XyZ--";
    assert!(parse_multipart("multipart/form-data; boundary=XyZ", nameless).is_err());
}

#[tokio::test]
async fn users_and_channels_can_be_added_and_looked_up() {
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice").with_locale("fi");
    fake.update_user(&alice);
    assert_eq!(fake.user(alice.user_id()).expect("stored").locale, "fi");
    assert!(fake.user(UserId::new(1)).is_none());
    let games = fake.add_text_channel("games");
    assert_eq!(fake.channel(games).expect("stored")["name"], "games");
    let guild = fake.guild_create_payload();
    assert_eq!(guild["channels"].as_array().map(Vec::len), Some(2));
    assert!(guild["members"].as_array().is_some_and(|m| {
        m.iter()
            .any(|m| m["user"]["id"].as_str() == Some(alice.id.to_string().as_str()))
    }));
    let _: Value = guild;
}

#[tokio::test]
async fn command_rules_missing_from_the_api_description_are_enforced() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    http.set_application_id(fake.application_id());
    let register = |commands: Vec<CreateCommand>| Command::set_global_commands(&http, commands);
    assert_eq!(
        discord_code(register(vec![CreateCommand::new("Ping").description("x")]).await),
        (400, 50035)
    );
    assert_eq!(
        discord_code(register(vec![CreateCommand::new("two words").description("x")]).await),
        (400, 50035)
    );
    let localised = CreateCommand::new("move")
        .description("Play")
        .name_localized("es-ES", "Mover");
    assert_eq!(
        discord_code(register(vec![localised]).await),
        (400, 50035),
        "localised names are lower case too"
    );
    assert_eq!(
        discord_code(register(vec![CreateCommand::new("ping")]).await),
        (400, 50035),
        "a description is needed"
    );
    let order = CreateCommand::new("challenge")
        .description("x")
        .add_option(CreateCommandOption::new(
            CommandOptionType::String,
            "game",
            "x",
        ))
        .add_option(
            CreateCommandOption::new(CommandOptionType::User, "opponent", "x").required(true),
        );
    assert_eq!(
        discord_code(register(vec![order]).await),
        (400, 50035),
        "required options come first"
    );
    let fine = CreateCommand::new("mover")
        .description("Juega")
        .name_localized("fi", "siirrä");
    assert!(register(vec![fine]).await.is_ok());
    let rejected = fake.requests_matching(&Req::put("/applications/*/commands"));
    assert_eq!(
        rejected[0]
            .response
            .as_ref()
            .map(|r| r["errors"]["0"]["name"]["_errors"][0]["code"].clone()),
        Some(json!("APPLICATION_COMMAND_INVALID_NAME"))
    );
}
