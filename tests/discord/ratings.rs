//! Ratings and records as members see them: /rating, /history, /leaderboard and its paging
//! buttons, /export in every format, /replay.

use std::path::Path;
use std::sync::Arc;

use gomoku_bot::rules::RuleSet;
use gomoku_bot::rules::record::{GameRecord, RecordResult};
use gomoku_bot::service::{
    Actor, ChallengeRequest, GameId, Service, ServiceConfig, SystemClock, UserInfo,
};
use gomoku_bot::store::StoreOptions;
use serde_json::Value;
use serenity::all::ChannelId;

use crate::bot::{button_ids, content, is_ephemeral, mentions, play, start_bot};
use crate::support::fake_discord::{
    Click, FakeConfig, FakeDiscord, Req, RunningBot, SlashCommand, TestUser, message_id,
};

/// Seat 1 wins a Gomoku game with the row H8-M8, after eight stones against seven.
const SEAT1_WINS: &str = "A1 O1 A3 O3 A5 O5 H8 O7 J8 O9 K8 O11 L8 O13 M8";

/// A fake whose database already holds what `seed` puts there, with the bot connected.
async fn connected_after<F, Fut>(
    dir: &Path,
    config: FakeConfig,
    seed: F,
) -> (FakeDiscord, RunningBot)
where
    F: FnOnce(Service, u64, u64) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let fake = FakeDiscord::start_with(config).await;
    let db = dir.join("bot.db");
    let service = Service::open(
        &StoreOptions::for_file(&db),
        ServiceConfig::default(),
        Arc::new(SystemClock),
    )
    .await
    .expect("open the database");
    seed(service, fake.guild_id().get(), fake.channel_id().get()).await;
    let bot = start_bot(&fake, &db).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    (fake, bot)
}

fn info(u: &TestUser, name: &str) -> UserInfo {
    UserInfo::new(u.user_id().get(), name)
}

/// Through the service: `a` challenges `b` (rated) under `spec`, `b` accepts, and `moves`
/// are played in turn from seat 1. Returns the game.
async fn seed_game(
    svc: &Service,
    guild: u64,
    channel: u64,
    a: UserInfo,
    b: UserInfo,
    spec: &str,
    moves: &str,
) -> GameId {
    let request = ChallengeRequest {
        opponent: Some(b.clone()),
        rules: Some(RuleSet::from_spec(spec).expect("valid rules")),
        time: None,
        rated: true,
    };
    let (a, b) = (Actor::new(guild, channel, a), Actor::new(guild, channel, b));
    let c = svc.challenge(&a, request).await.expect("challenge");
    let view = svc
        .accept(&b, c.id)
        .await
        .expect("accept")
        .game
        .expect("started");
    let first = if view.seats[0].user == a.user.id {
        [&a, &b]
    } else {
        [&b, &a]
    };
    for (i, t) in moves.split_whitespace().enumerate() {
        svc.play_token(first[i % 2], Some(view.id), t, None)
            .await
            .expect("legal move");
    }
    view.id
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_played_here_shows_in_rating_history_and_leaderboard() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected_after(dir.path(), FakeConfig::default(), |svc, _, _| async move {
        svc.close().await;
    })
    .await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&alice)
                .user("opponent", &bob)
                .integer("game", 0)
                .boolean("rated", true),
        )
        .await;
    fake.next_request(&Req::callback(&sent)).await;
    let message = message_id(&fake.original_message(&sent).expect("challenge message"));
    let accept = button_ids(&fake.message(message).unwrap())
        .into_iter()
        .find(|id| id.contains(":acc:"))
        .unwrap();
    let click = fake.send(Click::button(message, &accept).by(&bob)).await;
    fake.next_request(&Req::callback(&click)).await;
    let thread_req = fake
        .next_request(&Req::post("/channels/*/messages/*/threads"))
        .await;
    let thread = ChannelId::new(
        thread_req.response.as_ref().unwrap()["id"]
            .as_str()
            .unwrap()
            .parse()
            .unwrap(),
    );
    let board = fake
        .next_request(&Req::post(&format!("/channels/{thread}/messages")))
        .await;
    let first = mentions(&content(&board))[0];
    let (winner, loser) = if first == alice.user_id().get() {
        (&alice, &bob)
    } else {
        (&bob, &alice)
    };
    for (i, point) in SEAT1_WINS.split_whitespace().enumerate() {
        let who = if i % 2 == 0 { winner } else { loser };
        let (_, answer) = play(&fake, who, thread, point).await;
        assert!(!is_ephemeral(&answer), "{point}: {}", content(&answer));
    }

    // Two newcomers, one win: 1500 -> 1662 and 1338, deviation 290 each.
    let rating = fake
        .send(SlashCommand::new("rating").by(loser).user("member", winner))
        .await;
    let r = fake.next_request(&Req::callback(&rating)).await;
    let text = content(&r);
    assert!(is_ephemeral(&r), "{text}");
    assert!(
        text.contains(&format!("Ratings of {}", winner.mention())),
        "{text}"
    );
    assert!(
        text.contains("Gomoku (freestyle): 1662 ±290 · 1 games (1 won, 0 lost, 0 drawn)"),
        "{text}"
    );
    assert_eq!(
        text.matches("1662 ±290").count(),
        2,
        "server and all servers: {text}"
    );

    let history = fake.send(SlashCommand::new("history").by(loser)).await;
    let r = fake.next_request(&Req::callback(&history)).await;
    let text = content(&r);
    assert!(
        text.contains("Game #1 · Gomoku (freestyle) · lost (a row)"),
        "{text}"
    );
    assert!(
        text.contains(&format!("against {}", winner.mention())),
        "{text}"
    );
    assert!(text.contains("· -162 ·") && text.contains("<t:"), "{text}");

    let board = fake
        .send(
            SlashCommand::new("leaderboard")
                .by(loser)
                .integer("game", 0),
        )
        .await;
    let r = fake.next_request(&Req::callback(&board)).await;
    let text = content(&r);
    assert!(!is_ephemeral(&r), "anyone may page: {text}");
    assert!(text.contains("page 1 of 1"), "{text}");
    assert!(
        text.contains(&format!("1. {} · 1662 ±290", winner.mention())),
        "{text}"
    );
    assert!(
        text.contains(&format!("2. {} · 1338 ±290", loser.mention())),
        "{text}"
    );
    let ids = button_ids(&r.json_or_null());
    assert_eq!(ids, ["gb:lb:gomoku:0", "gb:lb:gomoku:2"]);
    // Nobody plays Pente here yet; the server's default game (Pente) is the default board.
    let pente = fake.send(SlashCommand::new("leaderboard").by(loser)).await;
    let r = fake.next_request(&Req::callback(&pente)).await;
    assert!(
        content(&r).contains("Nobody has finished a rated game of Pente"),
        "{}",
        content(&r)
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

/// The buttons of a message (id -> disabled).
fn buttons(message: &Value) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    for row in message["components"]
        .as_array()
        .cloned()
        .unwrap_or_default()
    {
        for b in row["components"].as_array().cloned().unwrap_or_default() {
            out.push((
                b["custom_id"].as_str().unwrap_or_default().to_string(),
                b["disabled"].as_bool().unwrap_or(false),
            ));
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaderboard_pages_with_buttons_for_anyone_and_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let players: Vec<String> = (0..12).map(|k| format!("p{k:02}")).collect();
    let fake = FakeDiscord::start().await;
    let users: Vec<TestUser> = players.iter().map(|n| fake.add_user(n)).collect();
    let svc = Service::open(
        &StoreOptions::for_file(&db),
        ServiceConfig::default(),
        Arc::new(SystemClock),
    )
    .await
    .unwrap();
    let (guild, channel) = (fake.guild_id().get(), fake.channel_id().get());
    // Six rated games between twelve players: twelve on the board, two pages.
    for pair in users.chunks(2) {
        let (a, b) = (info(&pair[0], "a"), info(&pair[1], "b"));
        seed_game(&svc, guild, channel, a, b, "gomoku", SEAT1_WINS).await;
    }
    svc.close().await;
    let bot = start_bot(&fake, &db).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    let asker = &users[0];
    let sent = fake
        .send(
            SlashCommand::new("leaderboard")
                .by(asker)
                .integer("game", 0),
        )
        .await;
    let r = fake.next_request(&Req::callback(&sent)).await;
    let text = content(&r);
    assert!(text.contains("page 1 of 2"), "{text}");
    assert_eq!(text.lines().count(), 11, "a title and ten players: {text}");
    assert!(text.contains("\n10. "), "{text}");
    let message = fake.original_message(&sent).unwrap();
    assert_eq!(
        buttons(&message),
        [
            ("gb:lb:gomoku:0".to_string(), true),
            ("gb:lb:gomoku:2".to_string(), false)
        ]
    );
    let id = message_id(&message);

    // Someone else pages forward: the same message now shows page 2.
    let next = fake
        .send(Click::button(id, "gb:lb:gomoku:2").by(&users[5]))
        .await;
    let r = fake.next_request(&Req::callback(&next)).await;
    assert_eq!(
        r.json_or_null()["type"],
        7,
        "the message is updated in place"
    );
    let text = content(&r);
    assert!(
        text.contains("page 2 of 2") && text.contains("\n11. ") && text.contains("\n12. "),
        "{text}"
    );
    assert_eq!(text.lines().count(), 3, "{text}");
    let message = fake.message(id).unwrap();
    assert_eq!(
        buttons(&message),
        [
            ("gb:lb:gomoku:1".to_string(), false),
            ("gb:lb:gomoku:3".to_string(), true)
        ]
    );
    // A stale button from a longer list shows the last page; page 0 the first.
    let stale = fake
        .send(Click::button(id, "gb:lb:gomoku:9").by(asker).unchecked())
        .await;
    let r = fake.next_request(&Req::callback(&stale)).await;
    assert!(content(&r).contains("page 2 of 2"), "{}", content(&r));
    // A garbled id is explained privately and changes nothing.
    let garbled = fake
        .send(Click::button(id, "gb:lb:chess:1").by(asker).unchecked())
        .await;
    let r = fake.next_request(&Req::callback(&garbled)).await;
    assert!(is_ephemeral(&r), "{}", content(&r));
    assert_eq!(r.json_or_null()["type"], 4);

    // After a restart, the buttons posted before it still page.
    bot.shutdown().await;
    let bot = start_bot(&fake, &db).await;
    fake.wait_for_session(2).await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    let back = fake
        .send(Click::button(id, "gb:lb:gomoku:1").by(&users[11]))
        .await;
    let r = fake.next_request(&Req::callback(&back)).await;
    let text = content(&r);
    assert!(
        text.contains("page 1 of 2") && text.contains("\n1. "),
        "{text}"
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

/// Sends `/export game:<id> format:<format>` as `user`; returns the follow-up's files as
/// (name, bytes), or the follow-up's text when it has none.
async fn export(
    fake: &FakeDiscord,
    user: &TestUser,
    game: GameId,
    format: i64,
) -> Result<Vec<(String, Vec<u8>)>, String> {
    let sent = fake
        .send(
            SlashCommand::new("export")
                .by(user)
                .integer("game", game.0)
                .integer("format", format),
        )
        .await;
    let deferred = fake.next_request(&Req::callback(&sent)).await;
    assert!(is_ephemeral(&deferred));
    let r = fake.next_request(&Req::followup(&sent)).await;
    let files: Vec<(String, Vec<u8>)> = r
        .files()
        .iter()
        .map(|f| (f.filename.clone().unwrap_or_default(), f.data.clone()))
        .collect();
    if files.is_empty() {
        Err(content(&r))
    } else {
        Ok(files)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_attaches_each_format_and_every_file_reads_back() {
    // The games started today (UTC): the records carry that date, and the players' names.
    let today = || {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap();
        let (y, m, d) = gomoku_bot::store::Timestamp(now.as_millis() as i64).utc_date();
        format!("{y:04}.{m:02}.{d:02}")
    };
    let started_on = [today()];
    let dir = tempfile::tempdir().unwrap();
    let ids = Arc::new(std::sync::Mutex::new(Vec::new()));
    let keep = Arc::clone(&ids);
    let (fake, bot) = connected_after(
        dir.path(),
        FakeConfig::default(),
        |svc, guild, channel| async move {
            let (a, b) = (UserInfo::new(501, "Ann"), UserInfo::new(502, "Bo"));
            let g = seed_game(
                &svc,
                guild,
                channel,
                a.clone(),
                b.clone(),
                "gomoku",
                SEAT1_WINS,
            )
            .await;
            let p = seed_game(&svc, guild, channel, a, b, "pente", "K10 A1 O10").await;
            keep.lock().unwrap().extend([g, p]);
            svc.close().await;
        },
    )
    .await;
    let [gomoku, pente] = <[GameId; 2]>::try_from(ids.lock().unwrap().clone()).unwrap();
    let viewer = fake.add_user("viewer");
    let moves: Vec<String> = SEAT1_WINS.split(' ').map(str::to_string).collect();
    let names_of = |r: &GameRecord| {
        r.actions
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
    };

    let files = export(&fake, &viewer, gomoku, 1).await.unwrap();
    assert_eq!(files[0].0, format!("game-{}.pgn", gomoku.0));
    let pgn_text = std::str::from_utf8(&files[0].1).unwrap();
    let pgn = GameRecord::from_pgn(pgn_text).unwrap();
    assert_eq!(names_of(&pgn), moves);
    assert_eq!(pgn.result.clone(), RecordResult::Won(vec![1]));
    let days = [started_on[0].clone(), today()];
    let date = pgn.date.clone().expect("a date");
    assert!(days.contains(&date), "{date} not in {days:?}\n{pgn_text}");
    assert!(
        pgn_text.contains(&format!("[Date \"{date}\"]")),
        "{pgn_text}"
    );
    let mut players = pgn.players.clone();
    players.sort();
    assert_eq!(players, ["Ann", "Bo"], "{pgn_text}");

    let files = export(&fake, &viewer, gomoku, 2).await.unwrap();
    assert_eq!(files[0].0, format!("game-{}.sgf", gomoku.0));
    let sgf_text = std::str::from_utf8(&files[0].1).unwrap();
    let sgf = GameRecord::from_sgf(sgf_text).unwrap();
    assert_eq!(names_of(&sgf), moves);
    assert!(
        sgf_text.contains(&format!("DT[{}]", date.replace('.', "-"))),
        "{sgf_text}"
    );
    assert!(
        sgf_text.contains("PB[") && sgf_text.contains("PW["),
        "{sgf_text}"
    );
    let mut players = sgf.players.clone();
    players.sort();
    assert_eq!(players, ["Ann", "Bo"], "{sgf_text}");

    let files = export(&fake, &viewer, gomoku, 4).await.unwrap();
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].0, format!("game-{}.psq", gomoku.0));
    let psq_text = std::str::from_utf8(&files[0].1).unwrap();
    assert!(psq_text.starts_with("Piskvorky 15x15,"), "{psq_text}");
    let psq = GameRecord::from_psq(psq_text).unwrap();
    assert_eq!(names_of(&psq), moves);
    assert_eq!(psq.result, RecordResult::Won(vec![1]));
    assert_eq!(psq.players.len(), 2);

    // "All" adds PSQ for Gomoku, and leaves it out for Pente.
    let all = export(&fake, &viewer, gomoku, 0).await.unwrap();
    let names: Vec<&str> = all.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(names.len(), 4, "{names:?}");
    assert!(names.iter().any(|n| n.ends_with(".psq")), "{names:?}");
    let all = export(&fake, &viewer, pente, 0).await.unwrap();
    assert!(!all.iter().any(|f| f.0.ends_with(".psq")));
    // Asked for PSQ, a Pente game is refused with the reason.
    let refused = export(&fake, &viewer, pente, 4).await.unwrap_err();
    assert!(
        refused.contains("has captures, which PSQ cannot record"),
        "{refused}"
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

async fn replay(
    fake: &FakeDiscord,
    user: &TestUser,
    game: GameId,
) -> (Value, Vec<(String, Vec<u8>)>) {
    let sent = fake
        .send(SlashCommand::new("replay").by(user).integer("game", game.0))
        .await;
    let deferred = fake.next_request(&Req::callback(&sent)).await;
    assert!(!is_ephemeral(&deferred), "the replay is for the channel");
    let r = fake.next_request(&Req::followup(&sent)).await;
    let files = r
        .files()
        .iter()
        .map(|f| (f.filename.clone().unwrap_or_default(), f.data.clone()))
        .collect();
    (r.json_or_null(), files)
}

async fn seeded_gomoku(dir: &Path, config: FakeConfig) -> (FakeDiscord, RunningBot, GameId) {
    let id = Arc::new(std::sync::Mutex::new(None));
    let keep = Arc::clone(&id);
    let (fake, bot) = connected_after(dir, config, |svc, guild, channel| async move {
        let (a, b) = (UserInfo::new(501, "Ann"), UserInfo::new(502, "Bo"));
        let g = seed_game(&svc, guild, channel, a, b, "gomoku", SEAT1_WINS).await;
        *keep.lock().unwrap() = Some(g);
        svc.close().await;
    })
    .await;
    let game = id.lock().unwrap().expect("seeded");
    (fake, bot, game)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_attaches_an_animated_gif_of_a_finished_game() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot, game) = seeded_gomoku(dir.path(), FakeConfig::default()).await;
    let viewer = fake.add_user("viewer");
    let (json, files) = replay(&fake, &viewer, game).await;
    assert_eq!(files.len(), 1, "{json}");
    assert_eq!(files[0].0, format!("game-{}.gif", game.0));
    let gif = &files[0].1;
    assert!(gif.starts_with(b"GIF89a"), "a GIF");
    let decoder = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(gif)).unwrap();
    let frames = image::AnimationDecoder::into_frames(decoder)
        .collect_frames()
        .unwrap();
    assert_eq!(frames.len(), 16, "the empty board and one frame per move");
    assert!(
        json["content"]
            .as_str()
            .unwrap_or_default()
            .contains("The replay of game #")
    );
    // The game option offers the player's finished games too, with how they went.
    let ann = TestUser::new(501, "ann");
    fake.update_user(&ann);
    for command in ["replay", "export"] {
        let sent = fake
            .send(SlashCommand::new(command).by(&ann).focused("game", ""))
            .await;
        fake.next_request(&Req::callback(&sent)).await;
        let choices = fake.autocomplete_choices(&sent).unwrap();
        let label = choices[0]["name"].as_str().unwrap_or_default().to_string();
        assert_eq!(choices[0]["value"], game.0, "{choices}");
        let (won, lost) = (
            format!("#{} · Bo · won", game.0),
            format!("#{} · Bo · lost", game.0),
        );
        assert!(label == won || label == lost, "{label}");
    }
    // A game that does not exist is refused privately.
    let sent = fake
        .send(SlashCommand::new("replay").by(&viewer).integer("game", 999))
        .await;
    let r = fake.next_request(&Req::callback(&sent)).await;
    assert!(is_ephemeral(&r), "{}", content(&r));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replay_too_large_for_the_channel_is_refused_with_the_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let config = FakeConfig {
        attachment_size_limit: 4096,
        ..FakeConfig::default()
    };
    let (fake, bot, game) = seeded_gomoku(dir.path(), config).await;
    let viewer = fake.add_user("viewer");
    let (json, files) = replay(&fake, &viewer, game).await;
    assert!(files.is_empty(), "{json}");
    let text = json["content"].as_str().unwrap_or_default();
    assert!(
        text.contains("KB, more than the 4 KB Discord accepts here"),
        "{text}"
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}
