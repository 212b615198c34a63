//! The computer opponent through the fake Discord: `/challenge opponent:@the-bot` starts a game
//! at once, the engine's moves arrive as follow-ups, and a restart finishes a move it owed.

use std::path::Path;
use std::sync::Arc;

use gomoku_bot::engine::Level;
use gomoku_bot::rules::RuleSet;
use gomoku_bot::service::{
    Actor, ChallengeRequest, GameView, Service, ServiceConfig, SystemClock, UserId, UserInfo,
};
use gomoku_bot::store::StoreOptions;
use serenity::all::ChannelId;

use crate::bot::{connected, content, is_ephemeral, mentions, play, start_bot};
use crate::support::fake_discord::{FakeDiscord, Req, SlashCommand, TestUser};

/// The bot's own user as a member picks it in the `opponent` option.
fn the_bot(fake: &FakeDiscord) -> TestUser {
    TestUser::new(fake.bot_user_id().get(), "gomoku-bot")
}

/// `member` challenges the computer at `level` to gomoku in `channel` (`None`: the fake's
/// default channel); the game's thread, once Discord has made it.
pub(crate) async fn against_the_computer(
    fake: &FakeDiscord,
    channel: Option<ChannelId>,
    member: &TestUser,
    level: i64,
) -> ChannelId {
    let mut command = SlashCommand::new("challenge")
        .by(member)
        .user("opponent", &the_bot(fake))
        .integer("game", 0)
        .integer("level", level);
    if let Some(channel) = channel {
        command = command.in_channel(channel);
    }
    let sent = fake.send(command).await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(!is_ephemeral(&answer), "{}", content(&answer));
    let parent = channel.map_or_else(|| "*".to_owned(), |c| c.to_string());
    let thread = fake
        .next_request(&Req::post(&format!(
            "/channels/{parent}/messages/*/threads"
        )))
        .await;
    ChannelId::new(thread.created_id().expect("a thread id"))
}

/// A second service on the bot's database file, to read what the bot committed.
async fn reader(db: &Path) -> Service {
    Service::open(
        &StoreOptions::for_file(db),
        ServiceConfig::default(),
        Arc::new(SystemClock),
    )
    .await
    .expect("open the database")
}

/// The only active game of `user` in the fake's guild, as committed.
async fn only_game(db: &Path, fake: &FakeDiscord, user: &TestUser) -> GameView {
    let svc = reader(db).await;
    let guild = gomoku_bot::service::GuildId(fake.guild_id().get());
    let list = svc
        .active_games(guild, UserId(user.id))
        .await
        .expect("list");
    assert_eq!(list.len(), 1, "{list:?}");
    let view = svc.game(guild, list[0].id).await.expect("the game");
    svc.close().await;
    view
}

/// The seat of the bot in a game.
fn bot_seat(view: &GameView, fake: &FakeDiscord) -> u8 {
    view.seats
        .iter()
        .find(|s| s.user.0 == fake.bot_user_id().get())
        .expect("the bot plays")
        .seat
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenging_the_bot_starts_a_game_and_the_engine_answers_each_move() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
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
    let text = content(&answer);
    assert!(!is_ephemeral(&answer), "{text}");
    assert!(text.contains("against the computer (level 1)"), "{text}");
    assert!(
        answer
            .files()
            .iter()
            .any(|f| f.filename.as_deref() == Some("board.png")),
        "the board comes with the answer"
    );
    // The game gets its own thread from that message, as games between members do.
    let thread = fake
        .next_request(&Req::post("/channels/*/messages/*/threads"))
        .await;
    let thread = ChannelId::new(thread.created_id().expect("a thread id"));
    // The bot records the thread once Discord has answered: wait for that.
    let mut view = only_game(&db, &fake, &alice).await;
    for _ in 0..100 {
        if view.thread.is_some() {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        view = only_game(&db, &fake, &alice).await;
    }
    assert!(!view.rated);
    assert_eq!(view.thread.map(|t| t.0), Some(thread.get()));
    let seat = bot_seat(&view, &fake);
    if seat == 1 {
        // The engine moves first: its move goes up in the thread at once.
        let first = fake
            .next_request(&Req::post(&format!("/channels/{thread}/messages")))
            .await;
        assert!(
            mentions(&content(&first)).contains(&alice.id),
            "Alice is told it is her turn: {}",
            content(&first)
        );
    }
    // Alice plays; the engine's answer follows her move's reply.
    let now = only_game(&db, &fake, &alice).await;
    let before = now.ply;
    let point = ["H8", "J9", "G7"]
        .into_iter()
        .find(|p| {
            let p = gomoku_bot::rules::Point::parse(p, 15).expect("a point");
            now.game.stone_at(p).is_none()
        })
        .expect("a free point");
    let (moved, reply) = play(&fake, &alice, thread, point).await;
    assert!(!is_ephemeral(&reply), "{}", content(&reply));
    // The computer's turn has no clock: no deadline under the board that hands it the move.
    assert!(!content(&reply).contains("<t:"), "{}", content(&reply));
    let follow = fake.next_request(&Req::followup(&moved)).await;
    let said = content(&follow);
    assert!(mentions(&said).contains(&alice.id), "{said}");
    // Alice's turn does (three days per move, the guild's default).
    assert!(said.contains("Due <t:"), "{said}");
    assert!(
        follow
            .files()
            .iter()
            .any(|f| f.filename.as_deref() == Some("board.png"))
    );
    let after = only_game(&db, &fake, &alice).await;
    assert_eq!(after.ply, before + 2, "Alice's move and the engine's");
    assert_eq!(after.to_act().expect("in play").user.0, alice.id);
    // The engine's stone was accepted by the rules core (the log replays) and is its colour.
    let engine_colour = after.game.colour_of_seat(seat);
    let last = after.game.last_stone().expect("a stone");
    assert_eq!(after.game.stone_at(last), Some(engine_colour));
    // The computer agrees to a take-back at once: Alice's move and its reply are gone, and
    // the board is posted again with her to play.
    let undo = fake
        .send(SlashCommand::new("undo").by(&alice).in_channel(thread))
        .await;
    let answer = fake.next_request(&Req::callback(&undo)).await;
    let said = content(&answer);
    assert!(!is_ephemeral(&answer), "{said}");
    assert!(said.contains("took back") && said.contains(point), "{said}");
    let taken = only_game(&db, &fake, &alice).await;
    assert_eq!(taken.ply, after.ply + 1, "one `undo` row in the log");
    assert_eq!(taken.game.record().len(), after.game.record().len() - 2);
    assert_eq!(taken.to_act().expect("in play").user.0, alice.id);
    let p = gomoku_bot::rules::Point::parse(point, 15).expect("a point");
    assert_eq!(taken.game.stone_at(p), None, "Alice's stone is gone");
    // A draw is still refused, privately.
    let draw = fake
        .send(SlashCommand::new("draw").by(&alice).in_channel(thread))
        .await;
    let answer = fake.next_request(&Req::callback(&draw)).await;
    assert!(is_ephemeral(&answer), "{}", content(&answer));
    assert!(
        content(&answer).contains("computer"),
        "{}",
        content(&answer)
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_a_restart_the_engine_plays_the_move_it_owes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let fake = FakeDiscord::start().await;
    let alice = fake.add_user("alice");
    // The bot crashed with the engine to move: the game is in the database, no move yet.
    let game = {
        let svc = reader(&db).await;
        let actor = Actor::new(
            fake.guild_id().get(),
            fake.channel_id().get(),
            UserInfo::new(alice.id, "Alice"),
        );
        let engine = UserInfo {
            is_bot: true,
            ..UserInfo::new(fake.bot_user_id().get(), "gomoku-bot")
        };
        let request = ChallengeRequest {
            opponent: None,
            rules: Some(RuleSet::from_spec("gomoku").expect("rules")),
            time: None,
            rated: false,
        };
        let view = svc
            .challenge_engine(&actor, &engine, Level::MIN, request)
            .await
            .expect("started");
        if view.to_act().expect("in play").user.0 == alice.id {
            svc.play_token(&actor, Some(view.id), "H8", None)
                .await
                .expect("Alice moves");
        }
        // The computer's turn shows no deadline, in the game and in Alice's list of games.
        let guild = gomoku_bot::service::GuildId(fake.guild_id().get());
        let waiting = svc.game(guild, view.id).await.expect("the game");
        assert_eq!(waiting.to_act().expect("in play").user.0, engine.id.0);
        assert_eq!(waiting.deadline, None);
        let listed = svc
            .active_games(guild, UserId(alice.id))
            .await
            .expect("list");
        assert_eq!(listed[0].deadline, None);
        svc.close().await;
        view.id
    };
    let bot = start_bot(&fake, &db).await;
    fake.wait_until_ready().await;
    let posted = fake
        .next_request(&Req::post(&format!(
            "/channels/{}/messages",
            ChannelId::new(fake.channel_id().get())
        )))
        .await;
    assert!(
        mentions(&content(&posted)).contains(&alice.id),
        "{}",
        content(&posted)
    );
    let view = only_game(&db, &fake, &alice).await;
    assert_eq!(view.id, game);
    assert_eq!(view.to_act().expect("in play").user.0, alice.id);
    assert!(view.deadline.is_some(), "Alice's turn has its clock");
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_level_without_the_bot_and_a_multiplayer_engine_game_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&alice)
                .user("opponent", &bob)
                .integer("level", 2),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(is_ephemeral(&answer));
    assert!(
        content(&answer).contains("level option is for games against the bot"),
        "{}",
        content(&answer)
    );
    let finnish = alice.clone().with_locale("fi");
    fake.update_user(&finnish);
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&finnish)
                .user("opponent", &the_bot(&fake))
                .integer("players", 1),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(is_ephemeral(&answer));
    assert!(
        content(&answer).contains("vain kahden pelaajan"),
        "{}",
        content(&answer)
    );
    // Nothing was started.
    let svc = reader(&dir.path().join("bot.db")).await;
    let guild = gomoku_bot::service::GuildId(fake.guild_id().get());
    assert!(
        svc.active_games(guild, UserId(alice.id))
            .await
            .expect("list")
            .is_empty()
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}
