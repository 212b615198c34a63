//! Clocks as players see them on Discord: the reminder ping and the loss-on-time message in
//! the game's thread, `/vacation`, and refused time options of `/challenge`. The bot runs on
//! a manual clock with a fast deadline sweep, so the tests move time instead of waiting.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use gomoku_bot::discord::{self, Registration};
use gomoku_bot::i18n::I18n;
use gomoku_bot::service::{Clock, ManualClock, Service, ServiceConfig, SystemClock};
use gomoku_bot::store::StoreOptions;

use crate::bot::{button_ids, content, is_ephemeral, mentions, start_two_player};
use crate::support::fake_discord::{Click, FakeDiscord, Req, RunningBot, SlashCommand, message_id};

const HOUR: Duration = Duration::from_secs(3600);

/// A fake with the bot connected on a manual clock, sweeping deadlines every 20 ms.
async fn connected_on_clock(
    dir: &Path,
    vacation_days: u32,
) -> (FakeDiscord, RunningBot, Arc<ManualClock>) {
    let fake = FakeDiscord::start().await;
    let clock = Arc::new(ManualClock::new(SystemClock.now()));
    let config = ServiceConfig {
        vacation_days_per_year: vacation_days,
        clock_sweep_every: Duration::from_millis(20),
        ..ServiceConfig::default()
    };
    let service = Service::open(
        &StoreOptions::for_file(&dir.join("bot.db")),
        config,
        clock.clone(),
    )
    .await
    .expect("open the database");
    let framework = discord::framework(
        Arc::new(service),
        Arc::new(I18n::load()),
        Registration::Guild(fake.guild_id().get()),
    );
    let client = discord::client(fake.http(), framework)
        .await
        .expect("build the client");
    let bot = RunningBot::spawn(client);
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    (fake, bot, clock)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_player_to_move_is_reminded_once_and_then_loses_on_time_in_the_thread() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot, clock) = connected_on_clock(dir.path(), 0).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0), ("days_per_move", 1)]).await;
    let [first, second] = &started.order;
    let in_thread = Req::post(&format!("/channels/{}/messages", started.thread));
    // The deadline shows under the board and in /games, in each reader's time zone.
    let due = format!("<t:{}:R>", clock.now().plus(24 * HOUR).unix_seconds());
    let board = &fake.messages_in(started.thread)[0];
    assert!(
        board["content"].as_str().unwrap_or_default().contains(&due),
        "{board}"
    );
    let sent = fake.send(SlashCommand::new("games").by(first)).await;
    let list = fake.next_request(&Req::callback(&sent)).await;
    assert!(content(&list).contains(&due), "{}", content(&list));

    // 80% of a day: the reminder, in the thread, pinging the player to move.
    clock.advance(Duration::from_secs(19 * 3600 + 12 * 60));
    let reminder = fake.next_request(&in_thread).await;
    let text = content(&reminder);
    assert!(text.contains("your move in game #1 is due <t:"), "{text}");
    assert_eq!(mentions(&text), vec![first.id]);
    assert_eq!(
        reminder.json_or_null()["allowed_mentions"]["users"],
        serde_json::json!([first.id.to_string()])
    );
    // Once: more sweeps before the deadline post nothing.
    clock.advance(HOUR);
    assert!(
        fake.try_next_request(&in_thread, Duration::from_millis(300))
            .await
            .is_none(),
        "a second reminder"
    );

    // The deadline passes: a loss on time, announced in the thread.
    clock.advance(5 * HOUR);
    let over = fake.next_request(&in_thread).await;
    let text = content(&over);
    assert!(text.contains("Game #1 is over"), "{text}");
    assert!(text.contains("ran out of time"), "{text}");
    assert!(text.contains("wins on time"), "{text}");
    let mut pinged = mentions(&text);
    pinged.sort();
    let mut both = vec![first.id, second.id];
    both.sort();
    assert_eq!(pinged, both);
    // The game is over for the service too.
    let sent = fake
        .send(
            SlashCommand::new("move")
                .by(first)
                .in_channel(started.thread)
                .string("at", "H8"),
        )
        .await;
    let refused = fake.next_request(&Req::callback(&sent)).await;
    assert!(is_ephemeral(&refused), "{}", content(&refused));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reminders_follow_the_ping_preference_and_vacation_is_announced_once() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot, clock) = connected_on_clock(dir.path(), 10).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0), ("days_per_move", 2)]).await;
    let [first, _] = &started.order;
    // The player to move wants direct messages too (choice 1 = direct).
    let prefs = fake
        .send(SlashCommand::new("prefs").by(first).integer("pings", 1))
        .await;
    fake.next_request(&Req::callback(&prefs)).await;
    let in_thread = Req::post(&format!("/channels/{}/messages", started.thread));

    // Two days per move: the reminder comes 24 hours before the deadline.
    clock.advance(24 * HOUR);
    let reminder = fake.next_request(&in_thread).await;
    assert_eq!(mentions(&content(&reminder)), vec![first.id]);
    let dm = fake.next_request(&Req::post("/users/@me/channels")).await;
    assert_eq!(dm.json_or_null()["recipient_id"], first.id.to_string());
    let direct = fake.next_request(&Req::post("/channels/*/messages")).await;
    assert!(
        content(&direct).contains("Your move in game #1"),
        "{}",
        content(&direct)
    );

    // The deadline passes: vacation starts, announced once (not every hour).
    clock.advance(24 * HOUR);
    let notice = fake.next_request(&in_thread).await;
    let text = content(&notice);
    assert!(text.contains("vacation time is being spent"), "{text}");
    assert!(text.contains("239 hours left"), "{text}");
    clock.advance(HOUR);
    assert!(
        fake.try_next_request(&in_thread, Duration::from_millis(300))
            .await
            .is_none(),
        "one notice per turn"
    );
    let sent = fake.send(SlashCommand::new("vacation").by(first)).await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(is_ephemeral(&answer));
    let text = content(&answer);
    assert!(text.contains("9 days and 22 hours"), "{text}");
    assert!(text.contains("Used this year: 2 hours"), "{text}");
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_three_player_game_the_player_out_of_time_is_out_and_the_next_one_is_pinged() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot, clock) = connected_on_clock(dir.path(), 0).await;
    let players = [
        fake.add_user("ann"),
        fake.add_user("ben"),
        fake.add_user("cid"),
    ];
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&players[0])
                .integer("game", 2)
                .integer("players", 1)
                .integer("days_per_move", 1),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    let message = message_id(&fake.original_message(&sent).unwrap());
    let join = button_ids(&answer.json_or_null())
        .into_iter()
        .find(|id| id.contains(":join:"))
        .expect("a join button");
    for p in &players[1..] {
        let click = fake.send(Click::button(message, &join).by(p)).await;
        fake.next_request(&Req::callback(&click)).await;
    }
    let thread_req = fake
        .next_request(&Req::post("/channels/*/messages/*/threads"))
        .await;
    let thread: u64 = thread_req
        .response
        .as_ref()
        .and_then(|a| a["id"].as_str())
        .and_then(|s| s.parse().ok())
        .expect("thread id");
    let in_thread = Req::post(&format!("/channels/{thread}/messages"));
    let board = fake.next_request(&in_thread).await;
    let first = mentions(&content(&board))[0];

    // The first player lets the day pass: they are out, and the next player is pinged.
    clock.advance(24 * HOUR);
    // (Expiry comes first in a sweep: no late reminder for a turn that already ran out.)
    let notice = fake.next_request(&in_thread).await;
    let text = content(&notice);
    assert!(text.contains("is out; the others play on"), "{text}");
    let next = mentions(&text);
    assert_eq!(next.len(), 1, "{text}");
    assert_ne!(next[0], first);
    assert!(!text.contains(&format!("<@{first}>")), "{text}");
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenges_with_time_controls_that_are_not_offered_are_refused_privately() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot, _clock) = connected_on_clock(dir.path(), 10).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let cases: [(&[(&str, i64)], &str); 3] = [
        (&[("days_per_move", 4)], "4 days per move is not possible"),
        (
            &[("minutes_per_move", 3)],
            "3 minutes per move is not possible",
        ),
        (&[("days_per_move", 1), ("minutes_per_move", 5)], "not both"),
    ];
    for (options, expected) in cases {
        let mut cmd = SlashCommand::new("challenge")
            .by(&alice)
            .user("opponent", &bob);
        for (name, value) in options {
            cmd = cmd.integer(name, *value);
        }
        let sent = fake.send(cmd).await;
        let answer = fake.next_request(&Req::callback(&sent)).await;
        assert!(is_ephemeral(&answer), "{}", content(&answer));
        assert!(content(&answer).contains(expected), "{}", content(&answer));
    }
    // An allowed live time control makes a challenge that says so.
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&alice)
                .user("opponent", &bob)
                .integer("minutes_per_move", 10),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(!is_ephemeral(&answer));
    assert!(
        content(&answer).contains("10 minutes per move"),
        "{}",
        content(&answer)
    );
    // A server can make live games its default; a challenge without options then is one.
    let owner = fake.owner();
    let set = fake
        .send(
            SlashCommand::new("settings")
                .by(&owner)
                .integer("minutes_per_move", 5),
        )
        .await;
    let r = fake.next_request(&Req::callback(&set)).await;
    assert!(
        content(&r).contains("5 minutes per move"),
        "{}",
        content(&r)
    );
    let bad = fake
        .send(
            SlashCommand::new("settings")
                .by(&owner)
                .integer("days_per_move", 6),
        )
        .await;
    let r = fake.next_request(&Req::callback(&bad)).await;
    assert!(
        content(&r).contains("6 days per move is not possible"),
        "{}",
        content(&r)
    );
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&bob)
                .user("opponent", &alice),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(
        content(&answer).contains("5 minutes per move"),
        "{}",
        content(&answer)
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}
