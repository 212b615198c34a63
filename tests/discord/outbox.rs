//! The durable outbox (issue 16) through the fake Discord: boards a committed move owes are
//! posted exactly once through server errors and rate limits, after a restart, in order per
//! game; permanent refusals are given up without holding anything else up. A game's start
//! (its thread and first board) is owed the same way.

use std::path::Path;
use std::time::Duration;

use serde_json::Value;
use serenity::all::ChannelId;

use gomoku_bot::service::ServiceConfig;
use gomoku_bot::store::StoreOptions;

use crate::bot::{
    Started, accept, challenge, connected, content, is_ephemeral, mentions, play, start_bot,
    start_bot_on, start_two_player,
};
use crate::support::fake_discord::{
    ErrorAnswer, FakeDiscord, Req, RunningBot, SlashCommand, TestUser,
};

/// The bot connected on a database in `dir`, a game of alice and bob started in its thread,
/// and the route of that thread's messages.
async fn a_game(dir: &Path) -> (FakeDiscord, RunningBot, Started, Req) {
    let (fake, bot) = connected(dir).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let route = Req::post(&format!("/channels/{}/messages", started.thread));
    (fake, bot, started, route)
}

/// A move typed in the game's channel (not its thread), naming the game: its board is owed
/// in the thread, posted after the member's private acknowledgement.
async fn move_elsewhere(fake: &FakeDiscord, user: &TestUser, point: &str) {
    let sent = fake
        .send(
            SlashCommand::new("move")
                .by(user)
                .string("at", point)
                .integer("game", 1),
        )
        .await;
    let ack = fake.next_request(&Req::callback(&sent)).await;
    assert!(is_ephemeral(&ack), "{}", ack.summary());
    assert!(
        content(&ack).contains("Game #1"),
        "the acknowledgement names the game: {}",
        content(&ack)
    );
}

/// The board posts in `thread` whose caption says `point` was played, as Discord stored them.
fn boards_with(fake: &FakeDiscord, thread: ChannelId, point: &str) -> Vec<Value> {
    fake.messages_in(thread)
        .into_iter()
        .filter(|m| {
            m["content"].as_str().is_some_and(|c| c.contains(point))
                && m["attachments"].as_array().is_some_and(|a| !a.is_empty())
        })
        .collect()
}

/// Every POST of a message to `thread` so far, with its nonce.
fn posts_to(fake: &FakeDiscord, thread: ChannelId) -> Vec<(u16, Option<String>, String)> {
    fake.requests_matching(&Req::post(&format!("/channels/{thread}/messages")))
        .into_iter()
        .map(|r| {
            let body = r.json_or_null();
            (
                r.status,
                body["nonce"].as_str().map(str::to_owned),
                body["content"].as_str().unwrap_or_default().to_owned(),
            )
        })
        .collect()
}

/// The attempts at posting the board that says `point` in `thread`, and the one nonce they
/// all carried.
fn attempts_at(fake: &FakeDiscord, thread: ChannelId, point: &str) -> (Vec<u16>, String) {
    let attempts: Vec<_> = posts_to(fake, thread)
        .into_iter()
        .filter(|(_, _, c)| c.contains(point))
        .collect();
    let nonce = attempts.first().and_then(|a| a.1.clone()).expect("a nonce");
    assert!(
        attempts.iter().all(|a| a.1.as_ref() == Some(&nonce)),
        "one nonce for every attempt: {attempts:?}"
    );
    (attempts.iter().map(|a| a.0).collect(), nonce)
}

/// [`move_elsewhere`], then waits until the fake holds its board in `thread`.
async fn move_elsewhere_and_see(
    fake: &FakeDiscord,
    user: &TestUser,
    thread: ChannelId,
    point: &str,
) {
    move_elsewhere(fake, user, point).await;
    wait_for("the board in the thread", || {
        !boards_with(fake, thread, point).is_empty()
    })
    .await;
}

/// Waits until the bot's database `db` owes Discord nothing (a game's start, for one, is sent
/// and ended): what a move made next meets is then the same in every run.
pub(crate) async fn nothing_owed(db: &Path) {
    use sqlx::Connection as _;
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(db)
        .read_only(true);
    let mut conn = sqlx::SqliteConnection::connect_with(&options)
        .await
        .expect("a reading connection");
    for _ in 0..600 {
        let owed: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM outbox WHERE state = 'pending'")
            .fetch_one(&mut conn)
            .await
            .expect("count the outbox");
        if owed == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("waited 30 s for the outbox to owe nothing");
}

pub(crate) async fn wait_for(what: &str, mut done: impl FnMut() -> bool) {
    for _ in 0..600 {
        if done() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("waited 30 s for {what}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_refused_with_5xx_and_429_is_posted_exactly_once_after_the_retries() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot, started, route) = a_game(dir.path()).await;
    let [first, _] = &started.order;
    let thread = started.thread;
    // Discord fails twice in a row, then asks for a pause on the route, then takes it.
    fake.fail_once(route.clone(), ErrorAnswer::server_error(502));
    fake.fail_once(route.clone(), ErrorAnswer::server_error(500));
    fake.fail_once(route.clone(), ErrorAnswer::rate_limited(0.3));
    move_elsewhere_and_see(&fake, first, thread, "H8").await;
    // Some time for a stray second post to show.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let boards = boards_with(&fake, thread, "H8");
    assert_eq!(boards.len(), 1, "{boards:#?}");
    // One nonce for every attempt, and Discord was asked to enforce it.
    let (statuses, nonce) = attempts_at(&fake, thread, "H8");
    assert_eq!(statuses, vec![502, 500, 429, 200]);
    assert!(nonce.len() <= 25);
    assert_eq!(boards[0]["nonce"], Value::String(nonce));
    // The 429 asked for 0.3 s: the next attempt waited at least that long.
    let times: Vec<Duration> = fake
        .requests_matching(&route)
        .iter()
        .filter(|r| {
            r.json_or_null()["content"]
                .as_str()
                .is_some_and(|c| c.contains("H8"))
        })
        .map(|r| r.at)
        .collect();
    assert!(
        times[3] - times[2] >= Duration::from_millis(300),
        "{times:?}"
    );
    // The game goes on in its thread.
    let (_, answer) = play(&fake, &started.order[1], thread, "J9").await;
    assert!(!is_ephemeral(&answer), "{}", answer.summary());
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repeated_nonce_returns_the_message_discord_already_made() {
    let fake = FakeDiscord::start().await;
    let http = fake.http();
    let channel = fake.channel_id();
    let message = |nonce: &str, enforce: bool| {
        serenity::all::CreateMessage::new()
            .content("hello")
            .nonce(serenity::all::Nonce::String(nonce.to_owned()))
            .enforce_nonce(enforce)
    };
    let first = channel
        .send_message(&http, message("n-1", true))
        .await
        .unwrap();
    let again = channel
        .send_message(&http, message("n-1", true))
        .await
        .unwrap();
    assert_eq!(first.id, again.id);
    // Another nonce, or the same one without enforce_nonce, makes a new message.
    let other = channel
        .send_message(&http, message("n-2", true))
        .await
        .unwrap();
    let unenforced = channel
        .send_message(&http, message("n-1", false))
        .await
        .unwrap();
    assert_ne!(other.id, first.id);
    assert_ne!(unenforced.id, first.id);
    assert_eq!(fake.messages_in(channel).len(), 3);
    // Discord takes at most 25 characters.
    let long = "x".repeat(26);
    assert!(
        channel
            .send_message(&http, message(&long, true))
            .await
            .is_err()
    );
    // Discord remembers a nonce for "the past few minutes" only: past its window the same
    // nonce makes a second message. Only the bot's own record prevents that.
    let fake = FakeDiscord::start_with(crate::support::fake_discord::FakeConfig {
        nonce_window: Duration::from_millis(300),
        ..crate::support::fake_discord::FakeConfig::default()
    })
    .await;
    let (http, channel) = (fake.http(), fake.channel_id());
    let first = channel
        .send_message(&http, message("n-3", true))
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(400)).await;
    let later = channel
        .send_message(&http, message("n-3", true))
        .await
        .unwrap();
    assert_ne!(first.id, later.id);
}

/// Opens the bot on `db` against `fake` again, as after a restart.
pub(crate) async fn restart(fake: &FakeDiscord, db: &Path) -> RunningBot {
    let bot = start_bot(fake, db).await;
    fake.wait_until_ready().await;
    bot
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn boards_still_owed_at_a_restart_are_posted_once_in_order_after_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let (fake, bot, started, route) = a_game(dir.path()).await;
    let [first, second] = &started.order;
    let thread = started.thread;
    // Discord is down for the thread: two boards wait in the outbox, in order.
    fake.fail(route.clone(), ErrorAnswer::server_error(503));
    move_elsewhere(&fake, first, "H8").await;
    move_elsewhere(&fake, second, "J9").await;
    wait_for("attempts at both boards", || {
        let posts = posts_to(&fake, thread);
        posts.iter().any(|p| p.2.contains("H8"))
    })
    .await;
    // Order per game: J9's board is never tried before H8's went out.
    assert!(
        posts_to(&fake, thread).iter().all(|p| !p.2.contains("J9")),
        "{:?}",
        posts_to(&fake, thread)
    );
    bot.shutdown().await;
    fake.clear_failures();
    let bot = restart(&fake, &db).await;
    wait_for("both boards after the restart", || {
        !boards_with(&fake, thread, "J9").is_empty()
    })
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(boards_with(&fake, thread, "H8").len(), 1);
    assert_eq!(boards_with(&fake, thread, "J9").len(), 1);
    let stored = fake.messages_in(thread);
    let at = |p: &str| {
        stored
            .iter()
            .position(|m| m["content"].as_str().is_some_and(|c| c.contains(p)))
            .unwrap()
    };
    assert!(at("H8") < at("J9"), "posted in order");
    // The player to act after J9 is pinged by its board.
    let last = boards_with(&fake, thread, "J9").remove(0);
    assert!(
        last["content"]
            .as_str()
            .unwrap()
            .contains(&format!("<@{}>", first.id)),
        "{last}"
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thread_that_refuses_for_good_is_given_up_reported_and_holds_nothing_up() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot, started, route) = a_game(dir.path()).await;
    let [first, second] = &started.order;
    let thread = started.thread;
    // First a passing failure (the poster takes the board over), then a permanent 404.
    fake.fail_once(route.clone(), ErrorAnswer::server_error(502));
    fake.fail_once(route.clone(), ErrorAnswer::unknown_channel());
    move_elsewhere(&fake, first, "H8").await;
    // The game's channel hears that the board could not go in the thread.
    let report = fake
        .next_request(&Req::post(&format!(
            "/channels/{}/messages",
            fake.channel_id()
        )))
        .await;
    assert!(
        content(&report).contains(&format!("<#{thread}>")),
        "{}",
        content(&report)
    );
    let statuses: Vec<u16> = posts_to(&fake, thread)
        .iter()
        .filter(|p| p.2.contains("H8"))
        .map(|p| p.0)
        .collect();
    assert_eq!(statuses, vec![502, 404]);
    // Nothing waits behind it: the next move's board goes out at once, and one more from
    // elsewhere is posted by the outbox.
    let (_, answer) = play(&fake, second, thread, "J9").await;
    assert!(!is_ephemeral(&answer), "{}", answer.summary());
    move_elsewhere(&fake, first, "H9").await;
    wait_for("the next board from elsewhere", || {
        !boards_with(&fake, thread, "H9").is_empty()
    })
    .await;
    assert!(boards_with(&fake, thread, "H8").is_empty());
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_permission_on_the_first_try_is_told_to_the_member_and_given_up() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot, started, _) = a_game(dir.path()).await;
    let [first, second] = &started.order;
    let thread = started.thread;
    // The game's start is ended in the outbox, so that the front posts the next board itself.
    nothing_owed(&dir.path().join("bot.db")).await;
    let route = Req::post(&format!("/channels/{thread}/messages"));
    fake.fail_once(route.clone(), ErrorAnswer::missing_permissions());
    let sent = fake
        .send(
            SlashCommand::new("move")
                .by(first)
                .string("at", "H8")
                .integer("game", 1),
        )
        .await;
    fake.next_request(&Req::callback(&sent)).await;
    // The member hears it privately, in a follow-up of their command.
    let told = fake
        .next_request(&Req::post(&format!("/webhooks/*/{}", sent.token)))
        .await;
    assert!(is_ephemeral(&told), "{}", told.summary());
    assert!(
        content(&told).contains(&format!("<#{thread}>")),
        "{}",
        content(&told)
    );
    // Given up, not retried: the next moves go on in the thread.
    let (_, answer) = play(&fake, second, thread, "J9").await;
    assert!(!is_ephemeral(&answer), "{}", answer.summary());
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!(
        posts_to(&fake, thread)
            .iter()
            .filter(|p| p.2.contains("H8"))
            .count(),
        1,
        "one attempt only"
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

/// Every request valid, but for attempts to open a thread already opened: the stopped bot's
/// poster may still be finishing its round when the new one starts (a real crash leaves none),
/// and the second to open the thread meets "already created", which is how it finds it.
pub(crate) fn valid_but_for_a_thread_already_opened(fake: &FakeDiscord) {
    let violations = fake.violations();
    assert!(
        violations.iter().all(|v| v.contains("160004")),
        "{violations:#?}"
    );
}

/// The first boards in `thread`: a picture, the first player mentioned, no move said.
fn first_boards(fake: &FakeDiscord, thread: ChannelId) -> Vec<Value> {
    fake.messages_in(thread)
        .into_iter()
        .filter(|m| {
            let content = m["content"].as_str().unwrap_or_default();
            m["attachments"].as_array().is_some_and(|a| !a.is_empty())
                && mentions(content).len() == 1
                && !content.contains(" played ")
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_start_whose_answers_discord_lost_opens_one_thread_and_posts_one_board() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let message = challenge(&fake, &alice, &bob, &[("game", 0)]).await;
    // The thread opened from the challenge message has the message's id.
    let thread = ChannelId::new(message.get());
    let opening = Req::post(&format!("/channels/*/messages/{message}/threads"));
    let board = Req::post(&format!("/channels/{thread}/messages"));
    // Discord opens the thread and makes the board, but both answers are lost on the way.
    fake.lose_answer_once(opening.clone(), ErrorAnswer::server_error(502));
    fake.lose_answer_once(board.clone(), ErrorAnswer::server_error(502));
    accept(&fake, &bob, message).await;
    wait_for("the first board after the retries", || {
        fake.requests_matching(&board).len() >= 2
    })
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    // The retry of the thread met "already created" and took the message's thread; the retry
    // of the board carried the same nonce, and Discord returned the message it had made.
    let openings: Vec<u16> = fake
        .requests_matching(&opening)
        .iter()
        .map(|r| r.status)
        .collect();
    assert_eq!(openings, vec![502, 400], "{openings:?}");
    assert!(fake.channel(thread).is_some(), "the thread exists");
    let attempts = posts_to(&fake, thread);
    assert_eq!(
        attempts.iter().map(|a| a.0).collect::<Vec<_>>(),
        vec![502, 200],
        "{attempts:?}"
    );
    assert_eq!(attempts[0].1, attempts[1].1, "one nonce for both attempts");
    let boards = first_boards(&fake, thread);
    assert_eq!(boards.len(), 1, "{boards:#?}");
    // The game is played in that thread.
    let first = mentions(boards[0]["content"].as_str().unwrap())[0];
    let (mover, other) = if first == alice.id {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };
    let (_, answer) = play(&fake, mover, thread, "H8").await;
    assert!(!is_ephemeral(&answer), "{}", answer.summary());
    assert_eq!(mentions(&content(&answer)), vec![other.id]);
    // The one refusal is the "already created" the retry met, which is how it found the thread.
    let violations = fake.violations();
    assert_eq!(violations.len(), 1, "{violations:#?}");
    assert!(violations[0].contains("160004"), "{violations:#?}");
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_bot_sends_nothing_more_while_its_posts_are_still_owed() {
    // A restart in one process (as here) must leave the new bot the only poster: the old one,
    // retrying a board Discord refused, would otherwise go on beside it.
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot, started, route) = a_game(dir.path()).await;
    let [first, _] = &started.order;
    fake.fail(route.clone(), ErrorAnswer::server_error(503));
    move_elsewhere(&fake, first, "H8").await;
    wait_for("a refused attempt at the board", || {
        !fake.requests_matching(&route).is_empty()
    })
    .await;
    bot.shutdown().await;
    let at_stop = fake.requests().len();
    // Longer than the first retry's delay and the poster's idle look together.
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    let after: Vec<String> = fake.requests()[at_stop..]
        .iter()
        .map(|r| format!("{} {} {}", r.method, r.path, r.status))
        .collect();
    assert!(after.is_empty(), "requests after the stop: {after:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_start_owed_at_a_restart_is_opened_and_posted_once_after_it() {
    // Discord is down first for threads, then (the thread opened) for the thread's messages;
    // each time the bot stops with the start owed, and a restart finishes it.
    for down in ["threads", "board"] {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("bot.db");
        let (fake, bot) = connected(dir.path()).await;
        let alice = fake.add_user("alice");
        let bob = fake.add_user("bob");
        let message = challenge(&fake, &alice, &bob, &[("game", 0)]).await;
        let thread = ChannelId::new(message.get());
        let opening = Req::post(&format!("/channels/*/messages/{message}/threads"));
        let board = Req::post(&format!("/channels/{thread}/messages"));
        let refused = if down == "threads" {
            opening.clone()
        } else {
            board.clone()
        };
        fake.fail(refused.clone(), ErrorAnswer::server_error(503));
        // The click's own answer (the challenge updated) comes at once, Discord down or not.
        accept(&fake, &bob, message).await;
        wait_for("an attempt Discord refused", || {
            !fake.requests_matching(&refused).is_empty()
        })
        .await;
        bot.shutdown().await;
        assert!(first_boards(&fake, thread).is_empty(), "{down}");
        fake.clear_failures();
        let bot = restart(&fake, &db).await;
        wait_for("the first board after the restart", || {
            !first_boards(&fake, thread).is_empty()
        })
        .await;
        tokio::time::sleep(Duration::from_millis(800)).await;
        assert_eq!(first_boards(&fake, thread).len(), 1, "{down}");
        let opened: Vec<u16> = fake
            .requests_matching(&opening)
            .iter()
            .map(|r| r.status)
            .filter(|s| *s < 300)
            .collect();
        assert_eq!(opened.len(), 1, "{down}: one thread opened: {opened:?}");
        // The game goes on in its thread.
        let boards = first_boards(&fake, thread);
        let first = mentions(boards[0]["content"].as_str().unwrap())[0];
        let mover = if first == alice.id { &alice } else { &bob };
        let (_, answer) = play(&fake, mover, thread, "H8").await;
        assert!(!is_ephemeral(&answer), "{down}: {}", answer.summary());
        valid_but_for_a_thread_already_opened(&fake);
        bot.shutdown().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_discord_made_before_a_crash_and_the_record_is_not_posted_again_after_the_restart()
{
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let (fake, bot, started, route) = a_game(dir.path()).await;
    let [first, _] = &started.order;
    let thread = started.thread;
    // Discord makes the board but its answer is lost; every later attempt before the stop
    // fails: the bot stops with the message made and not recorded, as if it had died between
    // Discord's answer and the record.
    fake.lose_answer_once(route.clone(), ErrorAnswer::server_error(502));
    fake.fail(route.clone(), ErrorAnswer::server_error(503));
    move_elsewhere_and_see(&fake, first, thread, "H8").await;
    bot.shutdown().await;
    fake.clear_failures();
    let bot = restart(&fake, &db).await;
    // The restart sends the row again at once, with the same nonce: within Discord's window,
    // Discord returns the message it made.
    wait_for("the attempt after the restart", || {
        posts_to(&fake, thread)
            .iter()
            .any(|p| p.0 == 200 && p.2.contains("H8"))
    })
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(boards_with(&fake, thread, "H8").len(), 1);
    let (statuses, _) = attempts_at(&fake, thread, "H8");
    assert_eq!(statuses.last(), Some(&200), "{statuses:?}");
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

/// The outbox's queries on `store`: a game's start and then a board, each owed while Discord
/// refuses them, each sent once after a restart, in order.
async fn a_start_and_a_board_owed_across_restarts(store: StoreOptions) {
    let fake = FakeDiscord::start().await;
    let restart_on = || async {
        let bot = start_bot_on(&fake, &store, ServiceConfig::default()).await;
        fake.wait_until_ready().await;
        fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
            .await;
        bot
    };
    let bot = restart_on().await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let message = challenge(&fake, &alice, &bob, &[("game", 0)]).await;
    let thread = ChannelId::new(message.get());
    let opening = Req::post(&format!("/channels/*/messages/{message}/threads"));
    fake.fail(opening.clone(), ErrorAnswer::server_error(503));
    accept(&fake, &bob, message).await;
    wait_for("an attempt at the thread", || {
        !fake.requests_matching(&opening).is_empty()
    })
    .await;
    bot.shutdown().await;
    fake.clear_failures();
    let bot = restart_on().await;
    wait_for("the first board after the restart", || {
        !first_boards(&fake, thread).is_empty()
    })
    .await;
    let first = mentions(first_boards(&fake, thread)[0]["content"].as_str().unwrap())[0];
    let mover = if first == alice.id { &alice } else { &bob };
    // Now the thread refuses the board of a move made elsewhere.
    let route = Req::post(&format!("/channels/{thread}/messages"));
    fake.fail(route.clone(), ErrorAnswer::server_error(503));
    move_elsewhere(&fake, mover, "H8").await;
    wait_for("an attempt at the board", || {
        posts_to(&fake, thread).iter().any(|p| p.2.contains("H8"))
    })
    .await;
    bot.shutdown().await;
    fake.clear_failures();
    let bot = restart_on().await;
    wait_for("the board after the restart", || {
        !boards_with(&fake, thread, "H8").is_empty()
    })
    .await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    assert_eq!(first_boards(&fake, thread).len(), 1);
    assert_eq!(boards_with(&fake, thread, "H8").len(), 1);
    let opened = fake
        .requests_matching(&opening)
        .iter()
        .filter(|r| r.status < 300)
        .count();
    assert_eq!(opened, 1, "one thread opened");
    valid_but_for_a_thread_already_opened(&fake);
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_and_a_board_owed_across_restarts_go_out_once_on_sqlite() {
    let db = crate::support::test_db::TestDb::sqlite();
    a_start_and_a_board_owed_across_restarts(db.options()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_start_and_a_board_owed_across_restarts_go_out_once_on_postgres() {
    let Some(db) = crate::support::test_db::TestDb::postgres(module_path!()).await else {
        return;
    };
    a_start_and_a_board_owed_across_restarts(db.options()).await;
}
