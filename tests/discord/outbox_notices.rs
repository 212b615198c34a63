//! The outbox's other kinds through the fake Discord (issue 16): a vacation notice, the edit
//! of an offer a move made stale, the edit of an expired challenge, the thread of a game
//! against the computer, and a tournament round's posts. Each is owed in the commit that
//! makes it due; Discord down across a restart, it goes out once after; an answer Discord
//! lost doubles nothing (posts carry nonces, edits are made again to the same text).

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use gomoku_bot::discord::{self, Registration};
use gomoku_bot::i18n::I18n;
use gomoku_bot::service::{Clock, ManualClock, Service, ServiceConfig, SystemClock};
use gomoku_bot::store::StoreOptions;
use serde_json::Value;
use serenity::all::ChannelId;

use crate::bot::{
    button_ids, challenge, connected, content, is_ephemeral, play, start_bot, start_bot_with,
    start_two_player,
};
use crate::outbox::{nothing_owed, restart, valid_but_for_a_thread_already_opened, wait_for};
use crate::support::fake_discord::{
    ErrorAnswer, FakeDiscord, RecordedRequest, Req, RunningBot, SlashCommand, TestUser, message_id,
};
use crate::tournaments::{click, create_swiss, slash};

const HOUR: Duration = Duration::from_secs(3600);

/// The bot on the database file `db`, on `clock`, sweeping deadlines every 20 ms; waits for
/// its commands.
async fn bot_on_clock(fake: &FakeDiscord, db: &Path, clock: Arc<ManualClock>) -> RunningBot {
    let config = ServiceConfig {
        vacation_days_per_year: 10,
        clock_sweep_every: Duration::from_millis(20),
        ..ServiceConfig::default()
    };
    let service = Service::open(&StoreOptions::for_file(db), config, clock)
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
    let bot = RunningBot::spawn(client)
        .after_stop(move || async move { service.stop_outbox_poster().await });
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    bot
}

/// The requests so far that match `route` and whose content has `text`.
fn attempts(fake: &FakeDiscord, route: &Req, text: &str) -> Vec<RecordedRequest> {
    fake.requests_matching(route)
        .into_iter()
        .filter(|r| content(r).contains(text))
        .collect()
}

/// The one nonce every attempt carried (and Discord was asked to enforce it).
fn one_nonce(attempts: &[RecordedRequest]) -> String {
    let nonces: Vec<Option<String>> = attempts
        .iter()
        .map(|r| r.json_or_null()["nonce"].as_str().map(str::to_owned))
        .collect();
    let first = nonces[0].clone().expect("a nonce");
    assert!(
        nonces.iter().all(|n| n.as_ref() == Some(&first)),
        "{nonces:?}"
    );
    assert!(
        attempts
            .iter()
            .all(|r| r.json_or_null()["enforce_nonce"] == Value::Bool(true))
    );
    first
}

/// The messages Discord stored in `channel` whose content has `text`.
fn stored(fake: &FakeDiscord, channel: ChannelId, text: &str) -> Vec<Value> {
    fake.messages_in(channel)
        .into_iter()
        .filter(|m| m["content"].as_str().is_some_and(|c| c.contains(text)))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_notice_made_while_discord_fails_is_posted_once_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let fake = FakeDiscord::start().await;
    let clock = Arc::new(ManualClock::new(SystemClock.now()));
    let bot = bot_on_clock(&fake, &db, clock.clone()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0), ("days_per_move", 1)]).await;
    nothing_owed(&db).await;
    let thread = started.thread;
    let in_thread = Req::post(&format!("/channels/{thread}/messages"));
    const NOTICE: &str = "vacation time is being spent";
    // Discord makes the notice but its answer is lost; then it is down.
    fake.lose_answer_once(in_thread.clone(), ErrorAnswer::server_error(502));
    fake.fail(in_thread.clone(), ErrorAnswer::server_error(503));
    // The deadline passes: vacation starts for the player to move.
    clock.advance(25 * HOUR);
    wait_for("the first attempt", || {
        !attempts(&fake, &in_thread, NOTICE).is_empty()
    })
    .await;
    // The poster's retries wait on the bot's clock.
    clock.advance(Duration::from_secs(2));
    wait_for("a second attempt", || {
        attempts(&fake, &in_thread, NOTICE).len() >= 2
    })
    .await;
    bot.shutdown().await;
    fake.clear_failures();
    let bot = bot_on_clock(&fake, &db, clock.clone()).await;
    clock.advance(Duration::from_secs(10));
    wait_for("the notice after the restart", || {
        attempts(&fake, &in_thread, NOTICE)
            .iter()
            .any(|r| r.status < 300)
    })
    .await;
    clock.advance(HOUR);
    tokio::time::sleep(Duration::from_millis(800)).await;
    // One notice, though Discord made one before the restart: every attempt had its nonce.
    let all = attempts(&fake, &in_thread, NOTICE);
    let statuses: Vec<u16> = all.iter().map(|r| r.status).collect();
    assert_eq!(statuses.first(), Some(&502), "{statuses:?}");
    assert_eq!(statuses.last(), Some(&200), "{statuses:?}");
    let nonce = one_nonce(&all);
    let notices = stored(&fake, thread, NOTICE);
    assert_eq!(notices.len(), 1, "{notices:#?}");
    assert_eq!(notices[0]["nonce"], Value::String(nonce));
    assert!(
        content(&all[0]).contains(&format!("<@{}>", started.order[0].id)),
        "{}",
        content(&all[0])
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lapsed_offer_is_struck_once_discord_is_back_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let [first, second] = &started.order;
    play(&fake, first, started.thread, "H8").await;
    let (_, draw, ids) = crate::social::offer(&fake, first, started.thread, "draw").await;
    assert!(!ids.is_empty());
    let strike = Req::patch(&format!("/channels/{}/messages/{draw}", started.thread));
    // Discord makes the edit but loses its answer, then refuses every edit.
    fake.lose_answer_once(strike.clone(), ErrorAnswer::server_error(502));
    fake.fail(strike.clone(), ErrorAnswer::server_error(503));
    // The opponent moves instead of answering: the offer lapses in that move's commit.
    let (_, answer) = play(&fake, second, started.thread, "A1").await;
    assert!(!is_ephemeral(&answer), "{}", content(&answer));
    wait_for("two attempts at the edit", || {
        fake.requests_matching(&strike).len() >= 2
    })
    .await;
    bot.shutdown().await;
    // Discord made the first edit (only its answer was lost): the row is still owed.
    assert!(button_ids(&fake.message(draw).unwrap()).is_empty());
    fake.clear_failures();
    let bot = restart(&fake, &db).await;
    wait_for("the edit after the restart", || {
        fake.requests_matching(&strike)
            .iter()
            .any(|r| r.status < 300)
    })
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let edits = fake.requests_matching(&strike);
    // Every attempt asked for the same message: an edit made twice is harmless.
    let bodies: Vec<String> = edits.iter().map(content).collect();
    assert!(
        bodies
            .iter()
            .all(|b| b == &bodies[0] && b.contains("draw offer expired")),
        "{bodies:?}"
    );
    // (The stopped bot's poster may still finish its round as the new one starts: a real
    // crash leaves none, and an edit made twice leaves the message as once.)
    assert!(edits.iter().any(|r| r.status < 300));
    let message = fake.message(draw).unwrap();
    assert!(button_ids(&message).is_empty(), "{message}");
    assert!(
        message["content"]
            .as_str()
            .is_some_and(|c| c.contains("draw offer expired")),
        "{message}"
    );
    // The game goes on.
    let (_, next) = play(&fake, first, started.thread, "J9").await;
    assert!(!is_ephemeral(&next), "{}", content(&next));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_challenge_is_edited_once_discord_is_back_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    // Challenges expire at once; the sweeper runs when the bot starts.
    let config = ServiceConfig {
        challenge_ttl: Duration::from_millis(1),
        ..ServiceConfig::default()
    };
    let fake = FakeDiscord::start().await;
    let bot = start_bot_with(&fake, &db, config.clone()).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let message = challenge(&fake, &alice, &bob, &[("game", 0)]).await;
    assert!(!button_ids(&fake.message(message).unwrap()).is_empty());
    bot.shutdown().await;
    let edit = Req::patch(&format!(
        "/channels/{}/messages/{message}",
        fake.channel_id()
    ));
    fake.lose_answer_once(edit.clone(), ErrorAnswer::server_error(502));
    fake.fail(edit.clone(), ErrorAnswer::server_error(503));
    // The next start expires the challenge and owes the edit in the same commit.
    let bot = start_bot_with(&fake, &db, config.clone()).await;
    wait_for("two attempts at the edit", || {
        fake.requests_matching(&edit).len() >= 2
    })
    .await;
    bot.shutdown().await;
    fake.clear_failures();
    let bot = start_bot_with(&fake, &db, config).await;
    wait_for("the edit after the restart", || {
        fake.requests_matching(&edit).iter().any(|r| r.status < 300)
    })
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    let edits = fake.requests_matching(&edit);
    let statuses: Vec<u16> = edits.iter().map(|r| r.status).collect();
    assert_eq!(statuses.first(), Some(&502), "{statuses:?}");
    assert!(statuses.iter().any(|s| *s < 300), "{statuses:?}");
    let bodies: Vec<String> = edits.iter().map(content).collect();
    assert!(bodies.iter().all(|b| b == &bodies[0]), "{bodies:?}");
    assert!(button_ids(&fake.message(message).unwrap()).is_empty());
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

/// The bot's own user as a member picks it in the `opponent` option.
fn the_bot(fake: &FakeDiscord) -> TestUser {
    TestUser::new(fake.bot_user_id().get(), "gomoku-bot")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_computer_game_whose_thread_discord_refused_gets_it_once_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let opening = Req::post("/channels/*/messages/*/threads");
    // Discord opens the thread but loses its answer, then refuses threads.
    fake.lose_answer_once(opening.clone(), ErrorAnswer::server_error(502));
    fake.fail(opening.clone(), ErrorAnswer::server_error(503));
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&alice)
                .user("opponent", &the_bot(&fake))
                .integer("game", 0)
                .integer("level", 1),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(!is_ephemeral(&answer), "{}", content(&answer));
    let first_board = message_id(&fake.original_message(&sent).expect("the answer"));
    wait_for("two attempts at the thread", || {
        fake.requests_matching(&opening).len() >= 2
    })
    .await;
    bot.shutdown().await;
    fake.clear_failures();
    let bot = start_bot(&fake, &db).await;
    fake.wait_until_ready().await;
    // The thread is the answer's: after the restart the poster asks Discord for the answer,
    // and the next attempt meets "already created" and takes that thread.
    let thread = ChannelId::new(first_board.get());
    wait_for("the thread recorded after the restart", || {
        fake.requests_matching(&opening)
            .iter()
            .any(|r| r.status == 400)
    })
    .await;
    assert!(fake.channel(thread).is_some());
    tokio::time::sleep(Duration::from_millis(800)).await;
    // No second thread, and no second first board: the answer carried it.
    let threads = fake
        .requests_matching(&opening)
        .iter()
        .filter(|r| r.status < 300)
        .count();
    assert_eq!(threads, 0, "the one thread is the one the lost answer made");
    let boards_in_channel: Vec<String> = fake
        .requests_matching(&Req::post(&format!(
            "/channels/{}/messages",
            fake.channel_id()
        )))
        .iter()
        .map(|r| r.summary())
        .collect();
    assert!(
        boards_in_channel.is_empty(),
        "the answer was the first board: {boards_in_channel:#?}"
    );
    valid_but_for_a_thread_already_opened(&fake);
    bot.shutdown().await;
    // The game is played in that thread from now on.
    let svc = Service::open(
        &StoreOptions::for_file(&db),
        ServiceConfig::default(),
        Arc::new(SystemClock),
    )
    .await
    .unwrap();
    let guild = gomoku_bot::service::GuildId(fake.guild_id().get());
    let games = svc
        .active_games(guild, gomoku_bot::service::UserId(alice.id))
        .await
        .unwrap();
    assert_eq!(games.len(), 1);
    let view = svc.game(guild, games[0].id).await.unwrap();
    assert_eq!(view.thread.map(|t| t.0), Some(thread.get()));
    svc.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_round_posted_through_lost_answers_and_a_restart_posts_each_message_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let (fake, bot) = connected(dir.path()).await;
    let organiser = fake.add_user("organiser");
    let members: Vec<TestUser> = ["ann", "bo", "cy"]
        .iter()
        .map(|n| fake.add_user(n))
        .collect();
    let (_, announcement) = create_swiss(&fake, &organiser, "Winter Cup").await;
    for m in &members {
        let update = click(&fake, m, announcement, "gt:join:1").await;
        assert!(!is_ephemeral(&update), "{}", update.summary());
    }
    let channel = fake.channel_id();
    let in_channel = Req::post(&format!("/channels/{channel}/messages"));
    let first_message = in_channel
        .clone()
        .matching(|r| content(r).contains("board 1: <@"));
    let opening = Req::post("/channels/*/messages/*/threads");
    let board = Req::post("/channels/*/messages").matching(|r| {
        r.files()
            .iter()
            .any(|f| f.filename.as_deref() == Some("board.png"))
    });
    let pairings = in_channel
        .clone()
        .matching(|r| content(r).contains("** · round 1 of"));
    // Discord makes the game's first message, its thread and its board but loses each answer;
    // then it refuses the pairings until the bot has stopped.
    fake.lose_answer_once(first_message.clone(), ErrorAnswer::server_error(502));
    fake.lose_answer_once(opening.clone(), ErrorAnswer::server_error(502));
    fake.lose_answer_once(board.clone(), ErrorAnswer::server_error(502));
    fake.fail(pairings.clone(), ErrorAnswer::server_error(503));
    let started = slash(&fake, &organiser, "start").await;
    assert!(!is_ephemeral(&started), "{}", started.summary());
    wait_for("an attempt at the pairings", || {
        !fake.requests_matching(&pairings).is_empty()
    })
    .await;
    bot.shutdown().await;
    fake.clear_failures();
    let bot = restart(&fake, &db).await;
    wait_for("the pairings after the restart", || {
        !stored(&fake, channel, "** · round 1 of").is_empty()
    })
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    // One game (three players: one rests), one first message, one thread, one board.
    let firsts = stored(&fake, channel, "board 1: <@");
    assert_eq!(firsts.len(), 1, "{firsts:#?}");
    let thread = ChannelId::new(message_id(&firsts[0]).get());
    assert!(
        fake.channel(thread).is_some(),
        "the thread is the message's"
    );
    let boards: Vec<Value> = fake
        .messages_in(thread)
        .into_iter()
        .filter(|m| m["attachments"].as_array().is_some_and(|a| !a.is_empty()))
        .collect();
    assert_eq!(boards.len(), 1, "{boards:#?}");
    assert_eq!(stored(&fake, channel, "** · round 1 of").len(), 1);
    let text = stored(&fake, channel, "** · round 1 of")[0]["content"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    assert!(
        text.contains(&format!("<#{thread}>")),
        "the pairings link the game's thread {thread}: {text}\n{:#?}",
        fake.requests_matching(&opening)
            .iter()
            .map(|r| (r.status, r.path.clone()))
            .collect::<Vec<_>>()
    );
    // Each message kept its own nonce through its attempts.
    for (what, route) in [
        ("first message", &first_message),
        ("board", &board),
        ("pairings", &pairings),
    ] {
        let tries = fake.requests_matching(route);
        assert!(tries.len() >= 2, "{what}: {}", tries.len());
        one_nonce(&tries);
    }
    valid_but_for_a_thread_already_opened(&fake);
    bot.shutdown().await;
}
