//! Engine review through the fake Discord: refused while the game is played, the Review
//! button under the last board, `/review` with progress edits and the pictures, a second
//! `/review` answered from storage, and an analysis stopped by a restart finished into its
//! message.

use std::path::Path;
use std::sync::Arc;

use gomoku_bot::service::review::ReviewStart;
use gomoku_bot::service::{
    Actor, ChallengeRequest, GameId, GuildId, ManualClock, Service, ServiceConfig, Timestamp,
    UserInfo,
};
use gomoku_bot::store::{ChannelId as DbChannel, MessageId as DbMessage, StoreOptions};
use serenity::all::{CreateMessage, MessageId};

use crate::bot::{button_ids, content, is_ephemeral, play, ready_with_a_game, start_bot_with};
use crate::support::fake_discord::{Click, FakeConfig, FakeDiscord, Req, SlashCommand, message_id};

/// A small node budget: the review's shape, not the engine's strength, is under test.
fn config() -> ServiceConfig {
    ServiceConfig {
        review_nodes: 1_500,
        ..ServiceConfig::default()
    }
}

/// A fake that waits up to a minute for the bot: an analysis runs the debug-build engine, and
/// on a loaded two-core machine ten positions can take longer than the default ten seconds.
/// Waiting longer changes no outcome; it only avoids a timeout that is not the bot's fault.
async fn patient_fake() -> FakeDiscord {
    FakeDiscord::start_with(FakeConfig {
        wait_timeout: std::time::Duration::from_secs(60),
        ..FakeConfig::default()
    })
    .await
}

fn names(r: &crate::support::fake_discord::RecordedRequest) -> Vec<String> {
    r.files()
        .iter()
        .filter_map(|f| f.filename.clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_finished_game_is_reviewed_once_and_then_answered_from_storage() {
    let dir = tempfile::tempdir().unwrap();
    let fake = patient_fake().await;
    let bot = start_bot_with(&fake, &dir.path().join("bot.db"), config()).await;
    let (alice, bob, started) = ready_with_a_game(&fake).await;
    let [first, second] = &started.order;
    // In play: refused, privately.
    let sent = fake
        .send(SlashCommand::new("review").by(&alice).integer("game", 1))
        .await;
    let refused = fake.next_request(&Req::callback(&sent)).await;
    assert!(is_ephemeral(&refused));
    assert!(
        content(&refused).contains("still being played"),
        "{}",
        content(&refused)
    );
    // Black makes five while white plays along the edge.
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
        assert!(
            !button_ids(&answer.json_or_null())
                .iter()
                .any(|b| b.starts_with("gr:")),
            "no Review button while the game is played"
        );
    }
    let (last_sent, last) = play(&fake, first, started.thread, "M8").await;
    let review_button = button_ids(&last.json_or_null())
        .into_iter()
        .find(|b| b.starts_with("gr:"))
        .expect("a Review button under the last board");
    assert_eq!(review_button, "gr:1");

    // The button: a public message with the progress, edited into the review.
    let board = message_id(&fake.original_message(&last_sent).expect("the last board"));
    let click = fake
        .send(Click::button(board, &review_button).by(&bob))
        .await;
    let answer = fake.next_request(&Req::callback(&click)).await;
    assert!(!is_ephemeral(&answer));
    assert_eq!(content(&answer), "Analysing game #1… 0/10");
    let done = fake
        .next_request(&Req::patch("/channels/*/messages/*").matching(|r| !r.files().is_empty()))
        .await;
    let text = content(&done);
    assert!(text.contains("Review of game #1"), "{text}");
    assert!(text.contains("accuracy"), "{text}");
    // White's A4 let black's open four through: a turning point.
    assert!(text.contains("Turning points:"), "{text}");
    let files = names(&done);
    assert!(files.contains(&"review-1.png".to_string()), "{files:?}");
    assert!(
        files.iter().any(|f| f.starts_with("review-1-turning-")),
        "{files:?}"
    );
    let chart = done
        .files()
        .into_iter()
        .find(|f| f.filename.as_deref() == Some("review-1.png"))
        .unwrap()
        .data
        .clone();
    let img = image::load_from_memory(&chart).expect("a PNG chart");
    assert_eq!((img.width(), img.height()), (800, 360));

    // Asked again: answered at once from storage, with the same words and pictures.
    let patches_before = fake.requests_matching(&Req::patch("/channels/*/messages/*"));
    let sent = fake
        .send(SlashCommand::new("review").by(&alice).integer("game", 1))
        .await;
    let again = fake.next_request(&Req::callback(&sent)).await;
    assert!(!is_ephemeral(&again));
    assert_eq!(content(&again), text);
    assert_eq!(names(&again).len(), files.len());
    let patches = patches_before;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert_eq!(
        fake.requests_matching(&Req::patch("/channels/*/messages/*"))
            .len(),
        patches.len(),
        "no analysis ran again"
    );
    // The first analysis showed its progress before the review.
    assert!(
        patches
            .iter()
            .any(|p| content(p) == "Analysing game #1… 1/10"),
        "{:?}",
        patches.iter().map(content).collect::<Vec<_>>()
    );
    // A game that does not exist: privately refused.
    let sent = fake
        .send(SlashCommand::new("review").by(&alice).integer("game", 99))
        .await;
    let refused = fake.next_request(&Req::callback(&sent)).await;
    assert!(is_ephemeral(&refused));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

/// The bot stopped in the middle of an analysis: its claim is in the database with the
/// message it was showing progress in. The next bot finishes the review into that message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_analysis_stopped_by_a_restart_is_finished_into_its_message() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let fake = patient_fake().await;
    let guild = GuildId(fake.guild_id().get());
    // A finished game, and an analysis claimed an hour ago by a process that then stopped.
    let an_hour_ago = Timestamp(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .as_millis() as i64
            - 3_600_000,
    );
    let progress = fake
        .channel_id()
        .send_message(
            &fake.http(),
            CreateMessage::new().content("Analysing game #1… 3/10"),
        )
        .await
        .expect("the old progress message");
    {
        let clock = Arc::new(ManualClock::new(an_hour_ago));
        let svc = Service::open(&StoreOptions::for_file(&db), config(), clock)
            .await
            .expect("open");
        let alice = Actor::new(guild.0, fake.channel_id().get(), UserInfo::new(11, "Alice"));
        let bob = Actor::new(guild.0, fake.channel_id().get(), UserInfo::new(12, "Bob"));
        let request = ChallengeRequest {
            opponent: Some(bob.user.clone()),
            rules: Some(gomoku_bot::rules::RuleSet::from_spec("gomoku").unwrap()),
            time: None,
            rated: false,
        };
        let challenge = svc.challenge(&alice, request).await.expect("challenge");
        let view = svc
            .accept(&bob, challenge.id)
            .await
            .expect("accept")
            .game
            .expect("a game");
        let (black, white) = if view.to_act().unwrap().user == alice.user.id {
            (&alice, &bob)
        } else {
            (&bob, &alice)
        };
        for (k, p) in ["H8", "A1", "J8", "A2", "K8", "A3", "L8", "A4", "M8"]
            .iter()
            .enumerate()
        {
            let who = if k % 2 == 0 { black } else { white };
            svc.play_token(who, Some(view.id), p, None)
                .await
                .expect("a move");
        }
        let (_, start) = svc
            .start_review(guild, GameId(1), "en")
            .await
            .expect("claimed");
        assert!(matches!(start, ReviewStart::Claimed(_)));
        svc.review_message(
            GameId(1),
            DbChannel(fake.channel_id().get()),
            DbMessage(progress.id.get()),
        )
        .await
        .unwrap();
        svc.close().await;
    }
    let bot = start_bot_with(&fake, &db, config()).await;
    fake.wait_until_ready().await;
    let path = format!("/channels/{}/messages/{}", fake.channel_id(), progress.id);
    let done = fake
        .next_request(&Req::patch(&path).matching(|r| !r.files().is_empty()))
        .await;
    assert!(
        content(&done).contains("Review of game #1"),
        "{}",
        content(&done)
    );
    let now = fake
        .message(MessageId::new(progress.id.get()))
        .expect("kept");
    assert!(
        now["content"]
            .as_str()
            .unwrap()
            .contains("Review of game #1")
    );
    // Stored: a /review now answers at once.
    let sent = fake
        .send(
            SlashCommand::new("review")
                .by(&fake.add_user("carol"))
                .integer("game", 1),
        )
        .await;
    let again = fake.next_request(&Req::callback(&sent)).await;
    assert!(content(&again).contains("Review of game #1"));
    let _ = Path::new("");
    bot.shutdown().await;
}
