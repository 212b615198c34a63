//! Between the players through the real client and the fake Discord: `/undo` and `/draw`
//! offers with their buttons (accept, decline, someone else's click, a lapsed offer), the
//! Rematch button, and offers that follow each player's ping preference.

use serde_json::Value;
use serenity::all::{ChannelId, MessageId};

use crate::bot::{button_ids, connected, content, is_ephemeral, mentions, play, start_two_player};
use crate::support::fake_discord::{
    Click, ErrorAnswer, FakeDiscord, RecordedRequest, Req, SlashCommand, TestUser, message_id,
};

/// The user ids a request allows to be pinged.
fn allowed_users(r: &RecordedRequest) -> Vec<u64> {
    let json = r.json_or_null();
    let mentions = json
        .get("data")
        .and_then(|d| d.get("allowed_mentions"))
        .or_else(|| json.get("allowed_mentions"))
        .cloned()
        .unwrap_or(Value::Null);
    mentions["users"]
        .as_array()
        .map(|a| {
            a.iter()
                .filter_map(|u| match u {
                    Value::String(s) => s.parse().ok(),
                    other => other.as_u64(),
                })
                .collect()
        })
        .unwrap_or_default()
}

fn find(ids: &[String], prefix: &str) -> String {
    ids.iter()
        .find(|i| i.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} button in {ids:?}"))
        .clone()
}

/// `user` runs `/undo` or `/draw` in `channel`: the answer, the offer's message and buttons.
pub(crate) async fn offer(
    fake: &FakeDiscord,
    user: &TestUser,
    channel: ChannelId,
    command: &str,
) -> (RecordedRequest, MessageId, Vec<String>) {
    let sent = fake
        .send(SlashCommand::new(command).by(user).in_channel(channel))
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    // The bot reads the message back to record it.
    fake.next_request(&Req::about(&sent).matching(|r| r.method == "GET"))
        .await;
    let message = fake.original_message(&sent).expect("the offer's message");
    (answer, message_id(&message), button_ids(&message))
}

/// `user` clicks `id` on `message`; the callback.
async fn click(
    fake: &FakeDiscord,
    user: &TestUser,
    message: MessageId,
    id: &str,
    checked: bool,
) -> (crate::support::fake_discord::Sent, RecordedRequest) {
    let mut c = Click::button(message, id).by(user);
    if !checked {
        c = c.unchecked();
    }
    let sent = fake.send(c).await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    (sent, answer)
}

fn name(u: &TestUser) -> &str {
    u.global_name.as_deref().unwrap_or(&u.username)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_take_back_is_answered_by_the_opponent_only_and_reposts_the_board() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let carol = fake.add_user("carol");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let [first, second] = &started.order;
    play(&fake, first, started.thread, "H8").await;
    let (answer, message, ids) = offer(&fake, first, started.thread, "undo").await;
    let text = content(&answer);
    assert!(!is_ephemeral(&answer), "{text}");
    assert!(text.contains("asks to take back H8"), "{text}");
    assert_eq!(mentions(&text), vec![second.id], "{text}");
    assert_eq!(allowed_users(&answer), vec![second.id]);
    let accept = find(&ids, "gb:oy:1:1:");
    find(&ids, "gb:on:1:1:");
    // Someone else, then the requester, are refused privately.
    let (_, refused) = click(&fake, &carol, message, &accept, true).await;
    assert!(
        is_ephemeral(&refused) && content(&refused).contains("Only the other players"),
        "{}",
        content(&refused)
    );
    let (_, refused) = click(&fake, first, message, &accept, true).await;
    assert!(
        is_ephemeral(&refused) && content(&refused).contains("your own offer"),
        "{}",
        content(&refused)
    );
    // The opponent accepts: the offer loses its buttons and the board comes again.
    let (sent, update) = click(&fake, second, message, &accept, true).await;
    assert!(
        button_ids(&update.json_or_null()).is_empty(),
        "{}",
        update.summary()
    );
    assert!(
        content(&update).contains("H8 taken back"),
        "{}",
        content(&update)
    );
    let board = fake.next_request(&Req::followup(&sent)).await;
    let text = content(&board);
    assert!(text.contains("H8 taken back"), "{text}");
    assert_eq!(
        mentions(&text),
        vec![first.id],
        "the requester moves again: {text}"
    );
    assert!(
        board
            .files()
            .iter()
            .any(|f| f.filename.as_deref() == Some("board.png"))
    );
    // H8 is free again and it is the requester's turn.
    let (_, again) = play(&fake, first, started.thread, "H8").await;
    assert!(!is_ephemeral(&again), "{}", content(&again));
    // A late click on the accepted offer.
    let (_, late) = click(&fake, second, message, &accept, false).await;
    assert!(
        is_ephemeral(&late) && content(&late).contains("already accepted"),
        "{}",
        content(&late)
    );
    // An offer made from another channel goes to the game's thread; the author is told where.
    let sent = fake
        .send(SlashCommand::new("draw").by(second).integer("game", 1))
        .await;
    let ack = fake.next_request(&Req::callback(&sent)).await;
    assert!(
        is_ephemeral(&ack) && content(&ack).contains(&format!("<#{}>", started.thread)),
        "{}",
        content(&ack)
    );
    let posted = fake
        .next_request(&Req::post(&format!(
            "/channels/{}/messages",
            started.thread
        )))
        .await;
    assert!(
        content(&posted).contains("offers a draw"),
        "{}",
        content(&posted)
    );
    assert_eq!(mentions(&content(&posted)), vec![first.id]);
    assert_eq!(button_ids(&posted.json_or_null()).len(), 2);
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn declined_and_lapsed_offers_lose_their_buttons() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let [first, second] = &started.order;
    play(&fake, first, started.thread, "H8").await;
    let (_, message, ids) = offer(&fake, first, started.thread, "undo").await;
    let (_, update) = click(&fake, second, message, &find(&ids, "gb:on:"), true).await;
    assert!(button_ids(&update.json_or_null()).is_empty());
    assert!(
        content(&update).contains(&format!("**{}** declined", name(second))),
        "{}",
        content(&update)
    );
    let (_, late) = click(&fake, second, message, &find(&ids, "gb:oy:"), false).await;
    assert!(
        is_ephemeral(&late) && content(&late).contains("already declined"),
        "{}",
        content(&late)
    );
    // A draw offer lapses when the opponent moves instead: its buttons are struck.
    let (answer, draw, ids) = offer(&fake, first, started.thread, "draw").await;
    assert!(
        content(&answer).contains("offers a draw"),
        "{}",
        content(&answer)
    );
    play(&fake, second, started.thread, "A1").await;
    let edit = fake
        .next_request(&Req::patch(&format!(
            "/channels/{}/messages/{draw}",
            started.thread
        )))
        .await;
    assert!(
        content(&edit).contains("draw offer expired"),
        "{}",
        content(&edit)
    );
    assert!(button_ids(&fake.message(draw).unwrap()).is_empty());
    let (_, stale) = click(&fake, second, draw, &find(&ids, "gb:oy:"), false).await;
    assert!(
        is_ephemeral(&stale) && content(&stale).contains("expired"),
        "{}",
        content(&stale)
    );
    // Nothing was drawn: the game goes on.
    let (_, next) = play(&fake, first, started.thread, "J9").await;
    assert!(!is_ephemeral(&next), "{}", content(&next));
    // When striking fails (Discord hiccups), the first click on the lapsed offer strikes it.
    let (_, undo, ids) = offer(&fake, first, started.thread, "undo").await;
    let strike = Req::patch(&format!("/channels/{}/messages/{undo}", started.thread));
    fake.fail_once(strike.clone(), ErrorAnswer::unknown_message());
    play(&fake, second, started.thread, "B1").await;
    assert!(fake.next_request(&strike).await.status >= 400);
    assert!(!button_ids(&fake.message(undo).unwrap()).is_empty());
    let (_, stale) = click(&fake, second, undo, &find(&ids, "gb:oy:"), true).await;
    assert!(
        is_ephemeral(&stale) && content(&stale).contains("expired"),
        "{}",
        content(&stale)
    );
    let edit = fake.next_request(&strike).await;
    assert!(
        content(&edit).contains("offer expired"),
        "{}",
        content(&edit)
    );
    assert!(button_ids(&fake.message(undo).unwrap()).is_empty());
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_agreed_draw_offers_a_rematch_with_the_seats_swapped() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let carol = fake.add_user("carol");
    // A live game: its rematch keeps its clock.
    let started =
        start_two_player(&fake, &alice, &bob, &[("game", 0), ("minutes_per_move", 5)]).await;
    let [first, second] = &started.order;
    play(&fake, first, started.thread, "H8").await;
    let (_, message, ids) = offer(&fake, second, started.thread, "draw").await;
    let (sent, update) = click(&fake, first, message, &find(&ids, "gb:oy:"), true).await;
    assert!(
        content(&update).contains("accepted the draw"),
        "{}",
        content(&update)
    );
    let board = fake.next_request(&Req::followup(&sent)).await;
    let text = content(&board);
    assert!(text.contains("draw by agreement"), "{text}");
    assert!(mentions(&text).is_empty(), "{text}");
    let board_id = message_id(board.response.as_ref().expect("the posted board"));
    let rematch = find(&button_ids(&board.json_or_null()), "gb:rematch:1");
    // Only the players may ask for a rematch.
    let (_, refused) = click(&fake, &carol, board_id, &rematch, true).await;
    assert!(is_ephemeral(&refused), "{}", content(&refused));
    assert!(
        content(&refused).contains("do not play"),
        "{}",
        content(&refused)
    );
    // The second player proposes it; the proposal goes to the game's channel.
    let (_, ack) = click(&fake, second, board_id, &rematch, true).await;
    assert!(
        is_ephemeral(&ack) && content(&ack).contains("rematch proposal"),
        "{}",
        content(&ack)
    );
    let proposal = fake
        .next_request(&Req::post(&format!(
            "/channels/{}/messages",
            fake.channel_id()
        )))
        .await;
    let text = content(&proposal);
    assert!(text.contains("Rematch of game #1"), "{text}");
    assert!(text.contains("5 minutes per move"), "{text}");
    assert_eq!(allowed_users(&proposal), vec![first.id]);
    let proposal_id = message_id(proposal.response.as_ref().unwrap());
    let accept = find(&button_ids(&proposal.json_or_null()), "gb:acc:");
    let (_, twice) = click(&fake, second, board_id, &rematch, true).await;
    assert!(
        content(&twice).contains("already proposed"),
        "{}",
        content(&twice)
    );
    // The proposer cannot accept their own proposal; the opponent does.
    let (_, own) = click(&fake, second, proposal_id, &accept, true).await;
    assert!(
        is_ephemeral(&own) && content(&own).contains("yourself"),
        "{}",
        content(&own)
    );
    click(&fake, first, proposal_id, &accept, true).await;
    let thread = fake
        .next_request(&Req::post(&format!(
            "/channels/{}/messages/{proposal_id}/threads",
            fake.channel_id()
        )))
        .await;
    let new_thread = thread.response.as_ref().unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    let new_board = fake
        .next_request(&Req::post(&format!("/channels/{new_thread}/messages")))
        .await;
    let text = content(&new_board);
    assert!(text.contains("Game #2"), "{text}");
    assert_eq!(
        mentions(&text),
        vec![second.id],
        "seat 1 went to the other player: {text}"
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn offers_and_rematches_ping_by_preference() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let [first, second] = &started.order;
    // The second player wants direct messages as well (choice 1).
    let prefs = fake
        .send(SlashCommand::new("prefs").by(second).integer("pings", 1))
        .await;
    fake.next_request(&Req::callback(&prefs)).await;
    play(&fake, first, started.thread, "H8").await;
    let (answer, _, _) = offer(&fake, first, started.thread, "undo").await;
    assert_eq!(allowed_users(&answer), vec![second.id]);
    let dm = fake
        .next_request(
            &Req::post("/channels/*/messages")
                .matching(|r| content(r).contains("asks to take back a move in game #1")),
        )
        .await;
    assert!(
        content(&dm).contains(&format!("<#{}>", started.thread)),
        "{}",
        content(&dm)
    );
    let opened: Vec<Value> = fake
        .requests_matching(&Req::post("/users/@me/channels"))
        .iter()
        .map(|r| r.json_or_null()["recipient_id"].clone())
        .collect();
    assert!(opened.contains(&Value::String(second.id.to_string())));
    // Now no pings at all (choice 2): named, not mentioned, no direct message.
    let prefs = fake
        .send(SlashCommand::new("prefs").by(second).integer("pings", 2))
        .await;
    fake.next_request(&Req::callback(&prefs)).await;
    let (answer, _, _) = offer(&fake, first, started.thread, "draw").await;
    let text = content(&answer);
    assert!(allowed_users(&answer).is_empty(), "{}", answer.summary());
    assert!(mentions(&text).is_empty(), "{text}");
    assert!(text.contains(name(second)), "{text}");
    // The same for a rematch proposal.
    let resign = fake
        .send(
            SlashCommand::new("resign")
                .by(first)
                .in_channel(started.thread),
        )
        .await;
    let board = fake.next_request(&Req::callback(&resign)).await;
    let board_id = message_id(&fake.original_message(&resign).unwrap());
    let rematch = find(&button_ids(&board.json_or_null()), "gb:rematch:");
    click(&fake, first, board_id, &rematch, true).await;
    let proposal = fake
        .next_request(&Req::post(&format!(
            "/channels/{}/messages",
            fake.channel_id()
        )))
        .await;
    assert!(
        content(&proposal).contains("Rematch"),
        "{}",
        content(&proposal)
    );
    assert!(
        allowed_users(&proposal).is_empty(),
        "{}",
        proposal.summary()
    );
    assert!(
        fake.requests_matching(&Req::post("/channels/*/messages"))
            .iter()
            .all(|r| !content(r).contains("proposes a rematch")),
        "no direct message with pings off"
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_challenge_pings_the_challenged_member_by_preference() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let quiet = fake.add_user("quiet");
    let remote = fake.add_user("remote");
    for (user, choice) in [(&quiet, 2), (&remote, 1)] {
        let prefs = fake
            .send(SlashCommand::new("prefs").by(user).integer("pings", choice))
            .await;
        fake.next_request(&Req::callback(&prefs)).await;
    }
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&alice)
                .user("opponent", &quiet),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(allowed_users(&answer).is_empty(), "{}", answer.summary());
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&alice)
                .user("opponent", &remote),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert_eq!(allowed_users(&answer), vec![remote.id]);
    let dm = fake
        .next_request(
            &Req::post("/channels/*/messages")
                .matching(|r| content(r).contains("challenges you to a game")),
        )
        .await;
    assert!(
        content(&dm).contains(&format!("<#{}>", fake.channel_id())),
        "{}",
        content(&dm)
    );
    let opened: Vec<Value> = fake
        .requests_matching(&Req::post("/users/@me/channels"))
        .iter()
        .map(|r| r.json_or_null()["recipient_id"].clone())
        .collect();
    assert_eq!(opened, vec![Value::String(remote.id.to_string())]);
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_three_player_take_back_waits_for_both_others_and_draws_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let users = [
        fake.add_user("ann"),
        fake.add_user("ben"),
        fake.add_user("cid"),
    ];
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&users[0])
                .integer("game", 0)
                .integer("players", 1),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    let lobby = message_id(&fake.original_message(&sent).unwrap());
    let join = find(&button_ids(&answer.json_or_null()), "gb:join:");
    click(&fake, &users[1], lobby, &join, true).await;
    click(&fake, &users[2], lobby, &join, true).await;
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
    let by_id = |id: u64| users.iter().find(|u| u.id == id).unwrap().clone();
    let seat1 = by_id(mentions(&content(&board))[0]);
    let (_, after) = play(&fake, &seat1, thread, "H8").await;
    let seat2 = by_id(mentions(&content(&after))[0]);
    let seat3 = users
        .iter()
        .find(|u| u.id != seat1.id && u.id != seat2.id)
        .unwrap()
        .clone();
    // No draws with three players.
    let sent = fake
        .send(SlashCommand::new("draw").by(&seat2).in_channel(thread))
        .await;
    let refused = fake.next_request(&Req::callback(&sent)).await;
    assert!(
        is_ephemeral(&refused) && content(&refused).contains("two-player"),
        "{}",
        content(&refused)
    );
    // A take-back asks both others; the first acceptance keeps the buttons.
    let (answer, message, ids) = offer(&fake, &seat1, thread, "undo").await;
    let mut asked = mentions(&content(&answer));
    asked.sort_unstable();
    let mut others = vec![seat2.id, seat3.id];
    others.sort_unstable();
    assert_eq!(asked, others, "{}", content(&answer));
    let accept = find(&ids, "gb:oy:");
    let (_, update) = click(&fake, &seat3, message, &accept, true).await;
    assert!(
        content(&update).contains(&format!("waiting for **{}**", name(&seat2))),
        "{}",
        content(&update)
    );
    assert_eq!(button_ids(&fake.message(message).unwrap()).len(), 2);
    let (sent, update) = click(&fake, &seat2, message, &accept, true).await;
    assert!(button_ids(&update.json_or_null()).is_empty());
    let board = fake.next_request(&Req::followup(&sent)).await;
    assert!(
        content(&board).contains("H8 taken back"),
        "{}",
        content(&board)
    );
    assert_eq!(mentions(&content(&board)), vec![seat1.id]);
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}
