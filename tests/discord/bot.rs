//! End-to-end scenarios of the real bot (`gomoku_bot::discord`) against the fake Discord.

use std::path::Path;
use std::sync::Arc;

use gomoku_bot::discord::{self, Registration};
use gomoku_bot::i18n::I18n;
use gomoku_bot::service::{Service, ServiceConfig, SystemClock};
use gomoku_bot::store::StoreOptions;
use serde_json::Value;
use serenity::all::{ChannelId, MessageId, UserId};

use crate::support::fake_discord::{
    Click, ErrorAnswer, FakeConfig, FakeDiscord, RecordedRequest, Req, RunningBot, Sent,
    SlashCommand, TestUser, message_id,
};

/// Starts the bot on the database file `db` against `fake`, and waits for its commands.
pub async fn start_bot(fake: &FakeDiscord, db: &Path) -> RunningBot {
    start_bot_with(fake, db, ServiceConfig::default()).await
}

/// [`start_bot`] with a service configured by `config`.
pub async fn start_bot_with(fake: &FakeDiscord, db: &Path, config: ServiceConfig) -> RunningBot {
    start_bot_on(fake, &StoreOptions::for_file(db), config).await
}

/// [`start_bot_with`] on the database `store` names (SQLite or PostgreSQL).
pub async fn start_bot_on(
    fake: &FakeDiscord,
    store: &StoreOptions,
    config: ServiceConfig,
) -> RunningBot {
    let service = Service::open(store, config, Arc::new(SystemClock))
        .await
        .expect("open the database");
    let service = Arc::new(service);
    let framework = discord::framework(
        Arc::clone(&service),
        Arc::new(I18n::load()),
        Registration::Guild(fake.guild_id().get()),
    );
    let client = discord::client(fake.http(), framework)
        .await
        .expect("build the client");
    RunningBot::spawn(client).after_stop(move || async move { service.stop_outbox_poster().await })
}

/// A fake with the bot connected and its commands registered, and a database in `dir`.
pub async fn connected(dir: &Path) -> (FakeDiscord, RunningBot) {
    connected_with(dir, FakeConfig::default()).await
}

/// [`connected`] with a fake configured by `config`.
pub async fn connected_with(dir: &Path, config: FakeConfig) -> (FakeDiscord, RunningBot) {
    let fake = FakeDiscord::start_with(config).await;
    let bot = start_bot(&fake, &dir.join("bot.db")).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    (fake, bot)
}

/// The user ids mentioned in a text.
pub fn mentions(text: &str) -> Vec<u64> {
    text.split("<@")
        .skip(1)
        .filter_map(|rest| rest.split('>').next()?.parse().ok())
        .collect()
}

/// The content of a request's message body (JSON or multipart payload).
pub fn content(r: &RecordedRequest) -> String {
    let json = r.json_or_null();
    json.get("content")
        .or_else(|| json.get("data").and_then(|d| d.get("content")))
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string()
}

/// Whether the answer is private (ephemeral flag 64).
pub fn is_ephemeral(r: &RecordedRequest) -> bool {
    let json = r.json_or_null();
    let flags = json
        .get("data")
        .and_then(|d| d.get("flags"))
        .or_else(|| json.get("flags"))
        .and_then(Value::as_u64)
        .unwrap_or(0);
    flags & 64 != 0
}

/// The custom ids of the buttons in a message body or message object.
pub fn button_ids(v: &Value) -> Vec<String> {
    let components = v
        .get("components")
        .or_else(|| v.get("data").and_then(|d| d.get("components")))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    components
        .iter()
        .flat_map(|row| {
            row.get("components")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default()
        })
        .filter_map(|b| {
            b.get("custom_id")
                .and_then(Value::as_str)
                .map(str::to_string)
        })
        .collect()
}

/// A two-player game: `a` challenges `b`, `b` accepts; returns the thread and who moves first.
pub struct Started {
    /// The game's thread.
    pub thread: ChannelId,
    /// Who plays first (seat 1), then the other.
    pub order: [TestUser; 2],
}

/// `a` challenges `b` with the given integer options; `b` clicks Accept. Returns the click,
/// once its answer (the challenge message updated) has arrived.
pub async fn challenge_and_accept(
    fake: &FakeDiscord,
    a: &TestUser,
    b: &TestUser,
    options: &[(&str, i64)],
) -> Sent {
    let message = challenge(fake, a, b, options).await;
    accept(fake, b, message).await
}

/// `a` challenges `b` with the given options: the challenge message (the game's thread, once
/// it starts, is opened from it and has its id).
pub async fn challenge(
    fake: &FakeDiscord,
    a: &TestUser,
    b: &TestUser,
    options: &[(&str, i64)],
) -> MessageId {
    challenge_in(fake, None, a, b, options).await
}

/// [`challenge`] in `channel` (`None`: the fake's default channel).
pub async fn challenge_in(
    fake: &FakeDiscord,
    channel: Option<ChannelId>,
    a: &TestUser,
    b: &TestUser,
    options: &[(&str, i64)],
) -> MessageId {
    let mut cmd = SlashCommand::new("challenge").by(a).user("opponent", b);
    if let Some(channel) = channel {
        cmd = cmd.in_channel(channel);
    }
    for (name, value) in options {
        cmd = cmd.integer(name, *value);
    }
    let sent = fake.send(cmd).await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(!is_ephemeral(&answer), "{}", answer.summary());
    message_id(&fake.original_message(&sent).expect("the challenge message"))
}

/// `b` clicks Accept on the challenge `message`; returns the click once answered.
pub async fn accept(fake: &FakeDiscord, b: &TestUser, message: MessageId) -> Sent {
    let accept = button_ids(&fake.message(message).expect("stored"))
        .into_iter()
        .find(|id| id.contains(":acc:"))
        .expect("an accept button");
    let click = fake.send(Click::button(message, &accept).by(b)).await;
    fake.next_request(&Req::callback(&click)).await;
    click
}

/// Waits for the bot to connect and register its commands; then Alice challenges Bob to a
/// game, who accepts. Alice, Bob and the started game.
pub async fn ready_with_a_game(fake: &FakeDiscord) -> (TestUser, TestUser, Started) {
    ready_with_a_game_speaking(fake, None).await
}

/// [`ready_with_a_game`] with Alice's Discord client in `alice_locale` (Bob's in English).
pub async fn ready_with_a_game_speaking(
    fake: &FakeDiscord,
    alice_locale: Option<&str>,
) -> (TestUser, TestUser, Started) {
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    let mut alice = fake.add_user("alice");
    if let Some(locale) = alice_locale {
        alice = alice.with_locale(locale);
        fake.update_user(&alice);
    }
    let bob = fake.add_user("bob");
    let started = start_two_player(fake, &alice, &bob, &[("game", 0)]).await;
    (alice, bob, started)
}

/// `a` challenges `b` with the given options; `b` accepts. Waits for the first board.
pub async fn start_two_player(
    fake: &FakeDiscord,
    a: &TestUser,
    b: &TestUser,
    options: &[(&str, i64)],
) -> Started {
    start_two_player_in(fake, None, a, b, options).await
}

/// [`start_two_player`] in `channel` (`None`: the fake's default channel), such as a channel
/// of a guild on another gateway shard.
pub async fn start_two_player_in(
    fake: &FakeDiscord,
    channel: Option<ChannelId>,
    a: &TestUser,
    b: &TestUser,
    options: &[(&str, i64)],
) -> Started {
    let message = challenge_in(fake, channel, a, b, options).await;
    accept(fake, b, message).await;
    let parent = channel.map_or_else(|| "*".to_owned(), |c| c.to_string());
    let thread_req = fake
        .next_request(&Req::post(&format!(
            "/channels/{parent}/messages/*/threads"
        )))
        .await;
    let thread = ChannelId::new(
        thread_req
            .response
            .as_ref()
            .and_then(|a| a["id"].as_str())
            .and_then(|s| s.parse().ok())
            .expect("thread id"),
    );
    let board = fake
        .next_request(&Req::post(&format!("/channels/{thread}/messages")))
        .await;
    let first = mentions(&content(&board));
    assert_eq!(first.len(), 1, "{}", content(&board));
    let order = if first[0] == a.user_id().get() {
        [a.clone(), b.clone()]
    } else {
        [b.clone(), a.clone()]
    };
    assert!(
        board
            .files()
            .iter()
            .any(|f| f.filename.as_deref() == Some("board.png")),
        "the board picture is attached"
    );
    Started { thread, order }
}

/// Plays `point` as `user` in `channel`; returns the callback request.
pub async fn play(
    fake: &FakeDiscord,
    user: &TestUser,
    channel: ChannelId,
    point: &str,
) -> (Sent, RecordedRequest) {
    let sent = fake
        .send(
            SlashCommand::new("move")
                .by(user)
                .in_channel(channel)
                .string("at", point),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    (sent, answer)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gomoku_game_from_challenge_to_five_in_a_row() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let [first, second] = &started.order;
    let moves = [
        (first, "H8"),
        (second, "A1"),
        (first, "J8"),
        (second, "A2"),
        (first, "K8"),
        (second, "A3"),
        (first, "L8"),
        (second, "A4"),
    ];
    for (user, point) in moves {
        let (_, answer) = play(&fake, user, started.thread, point).await;
        assert!(!is_ephemeral(&answer), "{}", content(&answer));
        assert!(
            answer
                .files()
                .iter()
                .any(|f| f.filename.as_deref() == Some("board.png"))
        );
        let next = mentions(&content(&answer));
        assert_eq!(
            next.len(),
            1,
            "the next player is mentioned: {}",
            content(&answer)
        );
        assert_ne!(next[0], user.user_id().get());
    }
    let (_, last) = play(&fake, first, started.thread, "M8").await;
    let text = content(&last);
    assert!(text.contains("wins with a row"), "{text}");
    // The game is over: another move is refused privately.
    let (_, refused) = play(&fake, second, started.thread, "B1").await;
    assert!(is_ephemeral(&refused));
    assert!(
        content(&refused).contains("over") || content(&refused).contains("no game"),
        "{}",
        content(&refused)
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
    let _ = ErrorAnswer::missing_permissions();
    let _ = UserId::new(1);
}
