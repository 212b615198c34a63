//! The harness proven with the real client: a tiny test-only poise bot (not the product's)
//! connects to the fake, registers commands, and answers commands, files, buttons, autocomplete,
//! user options and permission failures.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use poise::CreateReply;
use serde_json::Value;
use serenity::all::{
    AutocompleteChoice, ButtonStyle, ClientBuilder, CreateActionRow, CreateAttachment,
    CreateAutocompleteResponse, CreateButton, CreateInteractionResponse,
    CreateInteractionResponseMessage, CreateMessage, CreateThread, FullEvent, GatewayIntents,
    Interaction, Mentionable, Permissions, User,
};

use crate::support::fake_discord::{
    Click, ErrorAnswer, FakeConfig, FakeDiscord, FakeError, OptionValue, Req, RunningBot,
    SlashCommand, message_id,
};

const TINY_PNG: &[u8] = include_bytes!("../fixtures/discord/tiny.png");

type Error = Box<dyn std::error::Error + Send + Sync>;
type Context<'a> = poise::Context<'a, Data, Error>;

/// The test bot's state: errors poise reported, so tests can see them.
struct Data {
    errors: Arc<Mutex<Vec<String>>>,
}

/// Answers pong.
#[poise::command(slash_command)]
async fn ping(ctx: Context<'_>) -> Result<(), Error> {
    ctx.say("pong").await?;
    Ok(())
}

/// Replies with a picture and a button.
#[poise::command(slash_command)]
async fn picture(ctx: Context<'_>) -> Result<(), Error> {
    let button = CreateButton::new("smoke:flip")
        .label("Flip")
        .style(ButtonStyle::Primary);
    let reply = CreateReply::default()
        .content("here is a board")
        .attachment(CreateAttachment::bytes(TINY_PNG, "board.png"))
        .components(vec![CreateActionRow::Buttons(vec![button])]);
    ctx.send(reply).await?;
    Ok(())
}

/// Greets a member.
#[poise::command(slash_command)]
async fn greet(ctx: Context<'_>, #[description = "Who to greet"] who: User) -> Result<(), Error> {
    ctx.say(format!("hello {}", who.mention())).await?;
    Ok(())
}

async fn colours(_ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let choices = ["black", "blue", "red", "white"]
        .into_iter()
        .filter(|c| c.starts_with(partial))
        .map(AutocompleteChoice::from)
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// Picks a colour.
#[poise::command(slash_command)]
async fn pick(
    ctx: Context<'_>,
    #[description = "A colour"]
    #[autocomplete = "colours"]
    colour: String,
) -> Result<(), Error> {
    ctx.say(format!("you picked {colour}")).await?;
    Ok(())
}

/// Server settings, for members who may manage the server.
#[poise::command(slash_command, default_member_permissions = "MANAGE_GUILD")]
async fn settings(ctx: Context<'_>) -> Result<(), Error> {
    ctx.send(CreateReply::default().content("settings").ephemeral(true))
        .await?;
    Ok(())
}

/// Opens a thread on its own reply, or explains privately why it cannot.
#[poise::command(slash_command)]
async fn thread(ctx: Context<'_>) -> Result<(), Error> {
    let handle = ctx.say("opening a thread").await?;
    let message = handle.message().await?;
    match message
        .channel_id
        .create_thread_from_message(ctx, message.id, CreateThread::new("game 1"))
        .await
    {
        Ok(thread) => {
            thread
                .id
                .send_message(ctx, CreateMessage::new().content("first move"))
                .await?;
        }
        Err(e) => {
            ctx.send(
                CreateReply::default()
                    .content(format!("cannot open a thread: {e}"))
                    .ephemeral(true),
            )
            .await?;
        }
    }
    Ok(())
}

async fn on_event(ctx: &serenity::all::Context, event: &FullEvent) -> Result<(), Error> {
    if let FullEvent::InteractionCreate {
        interaction: Interaction::Component(click),
    } = event
        && click.data.custom_id == "smoke:flip"
    {
        let update = CreateInteractionResponseMessage::new()
            .content("flipped")
            .add_file(CreateAttachment::bytes(TINY_PNG, "flipped.png"));
        click
            .create_response(ctx, CreateInteractionResponse::UpdateMessage(update))
            .await?;
    }
    Ok(())
}

async fn on_error(error: poise::FrameworkError<'_, Data, Error>) {
    let text = error.to_string();
    let data = match &error {
        poise::FrameworkError::EventHandler { framework, .. } => Some(framework.user_data),
        other => other.ctx().map(|c| c.data()),
    };
    if let Some(data) = data {
        data.errors
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(text);
    }
}

/// Starts the test bot against `fake`; returns it and the list its errors go to.
async fn start_bot(fake: &FakeDiscord) -> (RunningBot, Arc<Mutex<Vec<String>>>) {
    let errors = Arc::new(Mutex::new(Vec::new()));
    let data_errors = Arc::clone(&errors);
    let framework = poise::Framework::builder()
        .options(poise::FrameworkOptions {
            commands: vec![ping(), picture(), greet(), pick(), thread(), settings()],
            event_handler: |framework, event| Box::pin(on_event(framework.serenity_context, event)),
            on_error: |error| Box::pin(on_error(error)),
            ..Default::default()
        })
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                poise::builtins::register_globally(ctx, &framework.options().commands).await?;
                Ok(Data {
                    errors: data_errors,
                })
            })
        })
        .build();
    let client = ClientBuilder::new_with_http(fake.http(), GatewayIntents::GUILDS)
        .framework(framework)
        .await
        .expect("build the client");
    (RunningBot::spawn(client), errors)
}

/// A fake with the test bot connected and its commands registered.
async fn connected() -> (FakeDiscord, RunningBot, Arc<Mutex<Vec<String>>>) {
    let fake = FakeDiscord::start().await;
    let (bot, errors) = start_bot(&fake).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/commands"))
        .await;
    (fake, bot, errors)
}

fn errors_of(errors: &Arc<Mutex<Vec<String>>>) -> Vec<String> {
    errors.lock().unwrap_or_else(|e| e.into_inner()).clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_client_identifies_and_registers_its_commands() {
    let fake = FakeDiscord::start().await;
    let (bot, errors) = start_bot(&fake).await;
    assert_eq!(fake.wait_until_ready().await, 1);
    let registration = fake
        .next_request(&Req::put(&format!(
            "/applications/{}/commands",
            fake.application_id()
        )))
        .await;
    let names: Vec<&str> = registration
        .json()
        .and_then(Value::as_array)
        .expect("an array of commands")
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(
        names,
        ["ping", "picture", "greet", "pick", "thread", "settings"]
    );
    assert_eq!(registration.status, 200);
    // Serenity asked for the gateway URL; poise asked who owns the application.
    assert_eq!(fake.requests_matching(&Req::get("/gateway")).len(), 1);
    fake.next_request(&Req::get("/oauth2/applications/@me"))
        .await;

    let identify = fake.identify_payloads();
    assert_eq!(identify.len(), 1);
    assert_eq!(identify[0]["d"]["token"], "<redacted>");
    assert_eq!(identify[0]["d"]["intents"], GatewayIntents::GUILDS.bits());
    let pick = fake
        .registered_commands()
        .into_iter()
        .find(|c| c["name"] == "pick")
        .expect("pick registered");
    assert_eq!(pick["options"][0]["autocomplete"], true);

    // The token appears nowhere in what the fake recorded.
    let recorded = format!(
        "{:?}{:?}{:?}",
        fake.requests(),
        fake.identify_payloads(),
        fake.gateway_frames()
    );
    assert!(!recorded.contains(fake.token()));
    assert!(errors_of(&errors).is_empty(), "{:?}", errors_of(&errors));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slash_command_gets_its_callback() {
    let (fake, bot, errors) = connected().await;
    let alice = fake.add_user("alice");
    let sent = fake.send(SlashCommand::new("ping").by(&alice)).await;
    let callback = fake.next_request(&Req::callback(&sent)).await;
    assert_eq!(callback.status, 204);
    assert!(
        callback.at >= sent.sent_at,
        "latency can be measured from sent_at to at"
    );
    let body = callback.json().expect("a JSON callback");
    assert_eq!(body["type"], 4);
    assert_eq!(body["data"]["content"], "pong");
    assert_eq!(fake.acknowledgement(&sent), Some(4));
    let original = fake.original_message(&sent).expect("the reply is stored");
    assert_eq!(original["content"], "pong");
    assert_eq!(
        original["interaction_metadata"]["user"]["id"],
        alice.id.to_string()
    );
    assert!(errors_of(&errors).is_empty(), "{:?}", errors_of(&errors));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_file_reply_is_multipart_and_its_button_can_be_clicked() {
    let (fake, bot, errors) = connected().await;
    let sent = fake.send(SlashCommand::new("picture")).await;
    let callback = fake.next_request(&Req::callback(&sent)).await;
    assert!(
        callback.is_multipart(),
        "a file makes the callback multipart"
    );
    let files = callback.files();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].name, "files[0]");
    assert_eq!(files[0].filename.as_deref(), Some("board.png"));
    assert_eq!(files[0].data, TINY_PNG);
    let payload = callback.json().expect("payload_json");
    assert_eq!(payload["data"]["attachments"][0]["filename"], "board.png");

    let message = fake.original_message(&sent).expect("the reply is stored");
    assert_eq!(message["attachments"][0]["width"], 4);
    assert_eq!(message["attachments"][0]["height"], 3);
    assert_eq!(
        message["components"][0]["components"][0]["custom_id"],
        "smoke:flip"
    );

    let bob = fake.add_user("bob");
    let click = fake
        .send(Click::button(message_id(&message), "smoke:flip").by(&bob))
        .await;
    let update = fake.next_request(&Req::callback(&click)).await;
    assert_eq!(update.json().expect("payload")["type"], 7);
    assert_eq!(update.files()[0].data, TINY_PNG);
    let flipped = fake.message(message_id(&message)).expect("still stored");
    assert_eq!(flipped["content"], "flipped");
    let names: Vec<&str> = flipped["attachments"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|a| a["filename"].as_str())
        .collect();
    assert!(names.contains(&"flipped.png"), "{names:?}");

    // A button the message does not show cannot be clicked.
    let missing = fake
        .try_send(Click::button(message_id(&message), "smoke:nothing"))
        .await;
    assert!(missing.is_err());
    assert!(errors_of(&errors).is_empty(), "{:?}", errors_of(&errors));
    fake.assert_all_requests_valid();
    let answers = fake.answer_violations();
    assert!(answers.is_empty(), "{answers:#?}");
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn user_options_and_autocomplete_reach_the_bot() {
    let (fake, bot, errors) = connected().await;
    let bob = fake.add_user("bob");
    let sent = fake
        .send(SlashCommand::new("greet").user("who", &bob))
        .await;
    let callback = fake.next_request(&Req::callback(&sent)).await;
    assert_eq!(
        callback.json().expect("payload")["data"]["content"],
        format!("hello <@{}>", bob.id)
    );
    assert_eq!(
        fake.original_message(&sent).expect("stored")["mentions"][0]["id"],
        bob.id.to_string()
    );

    let typing = fake
        .send(SlashCommand::new("pick").focused("colour", "b"))
        .await;
    let choices = fake.next_request(&Req::callback(&typing)).await;
    assert_eq!(choices.json().expect("payload")["type"], 8);
    let names: Vec<String> = fake
        .autocomplete_choices(&typing)
        .expect("choices")
        .as_array()
        .expect("an array")
        .iter()
        .filter_map(|c| c["name"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(names, ["black", "blue"]);

    // Commands limited by default_member_permissions reach only members who have them.
    let denied = fake.try_send(SlashCommand::new("settings")).await;
    assert!(
        matches!(denied, Err(FakeError::NotPermitted { .. })),
        "{denied:?}"
    );
    let owner = fake
        .send(SlashCommand::new("settings").by(&fake.owner()))
        .await;
    let reply = fake.next_request(&Req::callback(&owner)).await;
    assert_eq!(reply.json_or_null()["data"]["flags"], 64);

    // The fake refuses what Discord's client could not send.
    let wrong_type =
        SlashCommand::new("greet").option("who", OptionValue::String("bob".to_owned()));
    assert!(matches!(
        fake.try_send(wrong_type).await,
        Err(FakeError::InvalidOptions(_))
    ));
    assert!(fake.try_send(SlashCommand::new("greet")).await.is_err());
    assert!(fake.try_send(SlashCommand::new("nosuch")).await.is_err());
    assert!(errors_of(&errors).is_empty(), "{:?}", errors_of(&errors));
    fake.assert_all_requests_valid();
    let answers = fake.answer_violations();
    assert!(answers.is_empty(), "{answers:#?}");
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn threads_are_created_and_a_403_is_survived() {
    let (fake, bot, errors) = connected().await;
    let sent = fake.send(SlashCommand::new("thread")).await;
    fake.next_request(&Req::callback(&sent)).await;
    let created = fake
        .next_request(&Req::post("/channels/*/messages/*/threads"))
        .await;
    assert_eq!(created.status, 201);
    let thread_id = created.created_id().expect("a thread id");
    let first = fake
        .next_request(&Req::post(&format!("/channels/{thread_id}/messages")))
        .await;
    assert_eq!(first.json().expect("payload")["content"], "first move");

    // Now Discord refuses threads: the bot explains privately and keeps running.
    fake.fail(
        Req::post("/channels/*/messages/*/threads"),
        ErrorAnswer::missing_permissions(),
    );
    let refused = fake.send(SlashCommand::new("thread")).await;
    let attempt = fake
        .next_request(&Req::post("/channels/*/messages/*/threads"))
        .await;
    assert_eq!(attempt.status, 403);
    let followup = fake.next_request(&Req::followup(&refused)).await;
    let body = followup.json().expect("payload");
    assert!(
        body["content"]
            .as_str()
            .is_some_and(|c| c.contains("Missing Permissions")),
        "{body}"
    );
    assert_eq!(
        body["flags"].as_u64().map(|f| f & 64),
        Some(64),
        "the explanation is ephemeral"
    );

    // Withheld channel permissions give the same answer, through the fake's own rules.
    fake.clear_failures();
    fake.set_app_permissions(
        fake.channel_id(),
        Permissions::VIEW_CHANNEL | Permissions::SEND_MESSAGES,
    );
    let denied = fake.send(SlashCommand::new("thread")).await;
    let followup = fake.next_request(&Req::followup(&denied)).await;
    assert!(
        followup.json_or_null()["content"]
            .as_str()
            .is_some_and(|c| c.contains("Missing Permissions"))
    );

    let ping = fake.send(SlashCommand::new("ping")).await;
    fake.next_request(&Req::callback(&ping)).await;
    assert!(!bot.has_stopped());
    assert!(errors_of(&errors).is_empty(), "{:?}", errors_of(&errors));
    fake.assert_all_requests_valid();
    let answers = fake.answer_violations();
    assert!(answers.is_empty(), "{answers:#?}");
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_button_posted_before_a_restart_still_reaches_the_new_client() {
    let (fake, bot, _errors) = connected().await;
    let sent = fake.send(SlashCommand::new("picture")).await;
    fake.next_request(&Req::callback(&sent)).await;
    let message = fake.original_message(&sent).expect("stored");
    bot.shutdown().await;

    let (bot, errors) = start_bot(&fake).await;
    assert_eq!(fake.wait_for_session(2).await, 2);
    fake.next_request(&Req::put("/applications/*/commands"))
        .await;
    let click = fake
        .send(Click::button(message_id(&message), "smoke:flip"))
        .await;
    assert_eq!(
        click.seq, 3,
        "READY and GUILD_CREATE came first on the new session"
    );
    fake.next_request(&Req::callback(&click)).await;
    assert_eq!(
        fake.message(message_id(&message)).expect("stored")["content"],
        "flipped"
    );
    assert!(errors_of(&errors).is_empty(), "{:?}", errors_of(&errors));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_answer_to_one_interaction_is_a_violation() {
    let (fake, bot, _errors) = connected().await;
    let sent = fake.send(SlashCommand::new("ping")).await;
    fake.next_request(&Req::callback(&sent)).await;
    // As if the bot answered twice: Discord refuses the second initial response.
    let again = serde_json::json!({"type": 4, "data": {"content": "again"}});
    let second = fake
        .http()
        .create_interaction_response(sent.id, &sent.token, &again, vec![])
        .await;
    assert!(second.is_err());
    let violations = fake.violations();
    assert_eq!(violations.len(), 1, "{violations:#?}");
    assert!(violations[0].contains("40060"), "{violations:#?}");
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_answer_gets_unknown_interaction_when_a_deadline_is_set() {
    let config = FakeConfig {
        interaction_deadline: Some(Duration::ZERO),
        ..FakeConfig::default()
    };
    let fake = FakeDiscord::start_with(config).await;
    let (bot, _errors) = start_bot(&fake).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/commands"))
        .await;
    let sent = fake.send(SlashCommand::new("ping")).await;
    let late = fake.next_request(&Req::callback(&sent)).await;
    assert_eq!(late.status, 404);
    assert_eq!(
        late.response.as_ref().map(|r| r["code"].clone()),
        Some(serde_json::json!(10062))
    );
    assert!(fake.violations().iter().any(|v| v.contains("10062")));
    assert!(!bot.has_stopped(), "a refused answer does not stop the bot");
    bot.shutdown().await;
}
