//! A tournament through the real client and the fake Discord: created, five members join with
//! the button and one leaves, started, round 1's threads (each from a message naming its game)
//! and boards with their pings, its
//! games played to the end, round 2 posted with the standings picture, and the standings in
//! Finnish; then a restart, after which the buttons still answer. And the slash commands that
//! join, leave and cancel, each answered privately.

use serenity::all::{ChannelId, MessageId};

use crate::bot::{button_ids, connected, content, is_ephemeral, mentions, play, start_bot};
use crate::support::fake_discord::{
    Click, FakeDiscord, RecordedRequest, Req, SlashCommand, TestUser, message_id,
};

/// `user` clicks `id` on `message`; the callback.
pub(crate) async fn click(
    fake: &FakeDiscord,
    user: &TestUser,
    message: MessageId,
    id: &str,
) -> RecordedRequest {
    let sent = fake.send(Click::button(message, id).by(user)).await;
    fake.next_request(&Req::callback(&sent)).await
}

/// `user` sends `/tournament <sub>` (naming no tournament: the server's only one); the answer.
pub(crate) async fn slash(fake: &FakeDiscord, user: &TestUser, sub: &str) -> RecordedRequest {
    let sent = fake
        .send(SlashCommand::new("tournament").subcommand(sub).by(user))
        .await;
    fake.next_request(&Req::callback(&sent)).await
}

/// `organiser` creates a Swiss tournament called `name` (Gomoku, two days a move): the answer
/// (the public announcement) and the announcement's message.
pub(crate) async fn create_swiss(
    fake: &FakeDiscord,
    organiser: &TestUser,
    name: &str,
) -> (RecordedRequest, MessageId) {
    let sent = fake
        .send(
            SlashCommand::new("tournament")
                .subcommand("create")
                .by(organiser)
                .string("name", name)
                .integer("format", 1)
                .integer("game", 0)
                .integer("days_per_move", 2),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    let announcement = message_id(&fake.original_message(&sent).expect("the announcement"));
    (answer, announcement)
}

/// The round's boards as posted in their threads: (thread, seat 1's user id, seat 2's).
async fn round_boards(fake: &FakeDiscord, games: usize) -> Vec<(ChannelId, u64)> {
    let mut out = Vec::new();
    for _ in 0..games {
        // Each game's thread opens from a first message in the tournament's channel that
        // names it (so that a retry takes the same thread), without pinging anyone.
        let first = fake
            .next_request(&Req::post(&format!(
                "/channels/{}/messages",
                fake.channel_id()
            )))
            .await;
        assert!(content(&first).contains("board"), "{}", first.summary());
        let allowed = &first.json_or_null()["allowed_mentions"];
        assert!(
            allowed.is_object()
                && ["parse", "users", "roles"]
                    .iter()
                    .all(|k| allowed[*k].as_array().is_none_or(|a| a.is_empty())),
            "nobody pinged: {}",
            first.summary()
        );
        let thread = fake
            .next_request(&Req::post("/channels/*/messages/*/threads"))
            .await;
        let body = thread.json_or_null();
        assert!(
            body["name"].as_str().is_some_and(|n| n.starts_with('#')),
            "{}",
            thread.summary()
        );
        let thread = ChannelId::new(thread.created_id().expect("the thread's id"));
        let board = fake
            .next_request(&Req::post(&format!("/channels/{thread}/messages")))
            .await;
        let text = content(&board);
        assert!(text.contains("Spring Open"), "{text}");
        assert!(text.contains("board"), "{text}");
        assert!(
            board
                .files()
                .iter()
                .any(|f| f.filename.as_deref() == Some("board.png")),
            "the board picture"
        );
        let pinged = mentions(&text);
        assert_eq!(pinged.len(), 1, "the player to move is pinged: {text}");
        out.push((thread, pinged[0]));
    }
    out
}

/// Plays a short win for the first mover in `thread` (gomoku, no opening rule).
async fn win_in(fake: &FakeDiscord, thread: ChannelId, first: &TestUser, second: &TestUser) {
    let moves = [
        (first, "H8"),
        (second, "A1"),
        (first, "J8"),
        (second, "A2"),
        (first, "K8"),
        (second, "A3"),
        (first, "L8"),
        (second, "A4"),
        (first, "M8"),
    ];
    for (user, point) in moves {
        let (_, answer) = play(fake, user, thread, point).await;
        assert!(!is_ephemeral(&answer), "{}", content(&answer));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_tournament_from_creation_to_round_two() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let organiser = fake.add_user("organiser");
    let members: Vec<TestUser> = ["ann", "bo", "cy", "di", "ed"]
        .iter()
        .map(|n| fake.add_user(n))
        .collect();
    // Create: a public announcement with Join / Leave.
    let (answer, announcement) = create_swiss(&fake, &organiser, "Spring Open").await;
    assert!(!is_ephemeral(&answer), "{}", answer.summary());
    let text = content(&answer);
    assert!(
        text.contains("Spring Open") && text.contains("Swiss"),
        "{text}"
    );
    assert!(text.contains("No players yet"), "{text}");
    let ids = button_ids(&fake.message(announcement).unwrap());
    assert_eq!(ids, ["gt:join:1", "gt:leave:1"]);
    // Five join; one joins twice and is told privately; one leaves.
    for m in &members {
        let update = click(&fake, m, announcement, "gt:join:1").await;
        assert!(!is_ephemeral(&update), "{}", update.summary());
        assert!(
            content(&update).contains(&m.mention()),
            "{}",
            content(&update)
        );
    }
    let twice = click(&fake, &members[0], announcement, "gt:join:1").await;
    assert!(is_ephemeral(&twice) && content(&twice).contains("already in"));
    let left = click(&fake, &members[4], announcement, "gt:leave:1").await;
    assert!(
        !content(&left).contains(&members[4].mention()),
        "{}",
        content(&left)
    );
    assert!(content(&left).contains("(4/64)"), "{}", content(&left));
    // Someone else may not start it.
    let refused = slash(&fake, &members[1], "start").await;
    assert!(is_ephemeral(&refused) && content(&refused).contains("creator"));
    // The organiser starts it: two rounds for four players, two games a round.
    let started = slash(&fake, &organiser, "start").await;
    assert!(
        content(&started).contains("2 rounds"),
        "{}",
        content(&started)
    );
    let boards = round_boards(&fake, 2).await;
    let pairings = fake
        .next_request(
            &Req::post(&format!("/channels/{}/messages", fake.channel_id()))
                .matching(|r| content(r).contains("round 1 of 2")),
        )
        .await;
    let text = content(&pairings);
    for (thread, _) in &boards {
        assert!(text.contains(&format!("<#{thread}>")), "{text}");
    }
    let announcement_now = fake.message(announcement).unwrap();
    assert!(
        button_ids(&announcement_now).is_empty(),
        "entries are closed"
    );
    // Play round 1: the player pinged in each thread moves first and wins.
    let user = |id: u64| members.iter().find(|m| m.user_id().get() == id).unwrap();
    for (thread, first) in &boards {
        let first = user(*first);
        // The opponent: the other player named in the pairings line of this thread.
        let line = text
            .lines()
            .find(|l| l.contains(&format!("<#{thread}>")))
            .unwrap()
            .to_string();
        let second = mentions(&line)
            .into_iter()
            .find(|id| *id != first.user_id().get())
            .map(user)
            .unwrap();
        win_in(&fake, *thread, first, second).await;
    }
    // Round 2 is posted by itself: threads, boards, and the pairings with the standings.
    let boards2 = round_boards(&fake, 2).await;
    let round2 = fake
        .next_request(
            &Req::post(&format!("/channels/{}/messages", fake.channel_id()))
                .matching(|r| content(r).contains("round 2 of 2")),
        )
        .await;
    let text = content(&round2);
    assert!(text.contains("Buchholz"), "{text}");
    let picture = round2
        .files()
        .into_iter()
        .find(|f| f.filename.as_deref() == Some("standings.png"))
        .expect("the standings picture");
    let img = image::load_from_memory(&picture.data).expect("a PNG");
    assert_eq!(img.width(), 800);
    assert!(boards2.len() == 2);
    // The winners of round 1 meet in round 2.
    // The standings, asked in Finnish, come privately in Finnish with the picture.
    let finn = members[2].clone().with_locale("fi");
    let sent = fake
        .send(
            SlashCommand::new("tournament")
                .subcommand("standings")
                .by(&finn)
                .locale("fi"),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(is_ephemeral(&answer));
    let text = content(&answer);
    assert!(text.contains("kierrosta pelattu"), "{text}");
    assert!(text.contains("peliä"), "{text}");
    assert!(
        answer
            .files()
            .iter()
            .any(|f| f.filename.as_deref() == Some("standings.png"))
    );
    fake.assert_all_requests_valid();
    // After a restart the announcement's buttons still answer (entries are closed now).
    bot.shutdown().await;
    let bot = start_bot(&fake, &dir.path().join("bot.db")).await;
    fake.wait_for_session(2).await;
    let late = fake
        .send(
            Click::button(announcement, "gt:join:1")
                .by(&members[4])
                .unchecked(),
        )
        .await;
    let late = fake.next_request(&Req::callback(&late)).await;
    assert!(
        is_ephemeral(&late) && content(&late).contains("already started"),
        "{}",
        late.summary()
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

/// The slash commands `/tournament join`, `leave` and `cancel`: each answers only the member,
/// naming the tournament, and edits the announcement; a second join, a cancel by someone else
/// and a join after the cancel are refused privately. Every request the bot made is valid.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joining_leaving_and_cancelling_by_slash_command() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let organiser = fake.add_user("organiser");
    let ann = fake.add_user("ann");
    let bo = fake.add_user("bo");
    let (_, announcement) = create_swiss(&fake, &organiser, "Autumn Cup").await;

    let joined = slash(&fake, &ann, "join").await;
    assert!(is_ephemeral(&joined), "{}", joined.summary());
    assert_eq!(content(&joined), "You joined **Autumn Cup**.");
    let path = format!("/channels/{}/messages/{announcement}", fake.channel_id());
    let mention = ann.mention();
    let listed = fake
        .next_request(&Req::patch(&path).matching(move |r| content(r).contains(&mention)))
        .await;
    assert!(content(&listed).contains("(1/64)"), "{}", content(&listed));

    let twice = slash(&fake, &ann, "join").await;
    assert!(is_ephemeral(&twice), "{}", twice.summary());
    assert_eq!(content(&twice), "You are already in this tournament.");

    let left = slash(&fake, &ann, "leave").await;
    assert!(is_ephemeral(&left), "{}", left.summary());
    assert_eq!(content(&left), "You left **Autumn Cup**.");
    let emptied = fake
        .next_request(&Req::patch(&path).matching(|r| content(r).contains("No players yet")))
        .await;
    assert!(
        !content(&emptied).contains(&ann.mention()),
        "{}",
        content(&emptied)
    );

    let refused = slash(&fake, &bo, "cancel").await;
    assert!(is_ephemeral(&refused), "{}", refused.summary());
    assert!(
        content(&refused).contains("creator"),
        "{}",
        content(&refused)
    );

    let cancelled = slash(&fake, &organiser, "cancel").await;
    assert!(is_ephemeral(&cancelled), "{}", cancelled.summary());
    assert_eq!(content(&cancelled), "**Autumn Cup** is cancelled.");
    fake.next_request(&Req::patch(&path).matching(|r| content(r).contains("Cancelled.")))
        .await;
    assert!(
        button_ids(&fake.message(announcement).unwrap()).is_empty(),
        "no Join or Leave after the cancel"
    );

    let late = slash(&fake, &bo, "join").await;
    assert!(is_ephemeral(&late), "{}", late.summary());
    assert!(
        content(&late).starts_with("No tournament is open or running in this server."),
        "{}",
        content(&late)
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}
