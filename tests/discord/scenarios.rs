//! The end-to-end scenarios: every flow a member goes through, driven through the
//! real client, with every request the bot sends checked against Discord's OpenAPI spec.

use serde_json::Value;
use serenity::all::{ChannelId, Permissions};

use crate::bot::{
    button_ids, challenge_and_accept, connected, connected_with, content, is_ephemeral, mentions,
    play, start_bot, start_bot_with, start_two_player,
};
use crate::support::fake_discord::{
    Click, ErrorAnswer, FakeConfig, FakeDiscord, Req, SlashCommand, TestUser, message_id,
};

/// Finds the board message the last request posted (its buttons, id and text).
fn ids_with(v: &Value, needle: &str) -> Vec<String> {
    button_ids(v)
        .into_iter()
        .filter(|id| id.contains(needle))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_are_registered_with_spanish_and_finnish_names() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let commands = fake.registered_commands();
    let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    for expected in [
        "challenge",
        "move",
        "board",
        "games",
        "resign",
        "rules",
        "prefs",
        "settings",
        "export",
    ] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    let challenge = commands.iter().find(|c| c["name"] == "challenge").unwrap();
    assert_eq!(challenge["name_localizations"]["es-ES"], "desafiar");
    assert_eq!(challenge["name_localizations"]["fi"], "haasta");
    let game = challenge["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "game")
        .unwrap();
    assert_eq!(game["choices"].as_array().unwrap().len(), 5);
    assert_eq!(game["choices"][2]["name_localizations"]["es-ES"], "Pente");
    let settings = commands.iter().find(|c| c["name"] == "settings").unwrap();
    assert_eq!(
        settings["default_member_permissions"], "32",
        "Manage Server only"
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_pente_game_won_by_captures() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 2)]).await;
    let moves = "K10 L10 K5 M10 N10 K6 A1 K7 K8 F10 E10 G10 H10 O12 N11 P13 Q14 C3 C2 C4 C5";
    let mut last = String::new();
    for (i, point) in moves.split_whitespace().enumerate() {
        let (_, answer) = play(&fake, &started.order[i % 2], started.thread, point).await;
        last = content(&answer);
        assert!(!is_ephemeral(&answer), "move {point}: {last}");
    }
    assert!(last.contains("captured 2 stones"), "{last}");
    assert!(last.contains("wins by captures"), "{last}");
    assert!(
        mentions(&last).is_empty(),
        "nobody is pinged once the game is over: {last}"
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_challenge_is_accepted_by_anyone_but_not_its_author() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let carol = fake.add_user("carol");
    let sent = fake
        .send(SlashCommand::new("challenge").by(&alice).integer("game", 0))
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(
        content(&answer).contains("looking for an opponent"),
        "{}",
        content(&answer)
    );
    assert!(
        ids_with(&answer.json_or_null(), ":dec:").is_empty(),
        "an open challenge cannot be declined"
    );
    let message = message_id(&fake.original_message(&sent).unwrap());
    let accept = ids_with(&fake.message(message).unwrap(), ":acc:").remove(0);
    // The challenger cannot accept their own challenge.
    let own = fake.send(Click::button(message, &accept).by(&alice)).await;
    let refused = fake.next_request(&Req::callback(&own)).await;
    assert!(is_ephemeral(&refused));
    assert!(
        content(&refused).contains("yourself"),
        "{}",
        content(&refused)
    );
    let click = fake.send(Click::button(message, &accept).by(&carol)).await;
    let update = fake.next_request(&Req::callback(&click)).await;
    assert!(
        content(&update).contains("Accepted"),
        "{}",
        content(&update)
    );
    assert!(
        button_ids(&update.json_or_null()).is_empty(),
        "the buttons are gone"
    );
    fake.next_request(&Req::post("/channels/*/messages/*/threads"))
        .await;
    fake.next_request(&Req::post("/channels/*/messages")).await;
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_three_player_lobby_fills_up_and_starts() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let [a, b, c] = [
        fake.add_user("ann"),
        fake.add_user("ben"),
        fake.add_user("cid"),
    ];
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&a)
                .integer("game", 2)
                .integer("players", 1),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    assert!(
        content(&answer).contains("3-player lobby"),
        "{}",
        content(&answer)
    );
    let message = message_id(&fake.original_message(&sent).unwrap());
    let join = ids_with(&answer.json_or_null(), ":join:").remove(0);
    let first = fake.send(Click::button(message, &join).by(&b)).await;
    let update = fake.next_request(&Req::callback(&first)).await;
    assert!(content(&update).contains("(2/3)"), "{}", content(&update));
    // Joining twice is refused privately.
    let again = fake.send(Click::button(message, &join).by(&b)).await;
    assert!(is_ephemeral(
        &fake.next_request(&Req::callback(&again)).await
    ));
    let last = fake.send(Click::button(message, &join).by(&c)).await;
    let full = fake.next_request(&Req::callback(&last)).await;
    assert!(content(&full).contains("(3/3)"), "{}", content(&full));
    fake.next_request(&Req::post("/channels/*/messages/*/threads"))
        .await;
    let board = fake.next_request(&Req::post("/channels/*/messages")).await;
    let to_move = mentions(&content(&board));
    assert_eq!(to_move.len(), 1);
    assert!([a.id, b.id, c.id].contains(&to_move[0]));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swap2_choices_are_buttons_for_the_right_player_only() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 2), ("opening", 4)]).await;
    let [placer, chooser] = &started.order;
    play(&fake, placer, started.thread, "K10").await;
    play(&fake, placer, started.thread, "L10").await;
    let (sent, answer) = play(&fake, placer, started.thread, "M10").await;
    assert!(
        content(&answer).contains("choose your colour, or place two more"),
        "{}",
        content(&answer)
    );
    let board = fake.original_message(&sent).unwrap();
    let board_id = message_id(&board);
    let takes = ids_with(&board, ":take:");
    assert_eq!(takes.len(), 2);
    assert_eq!(ids_with(&board, ":place:").len(), 1);
    // The placer may not choose.
    let wrong = fake
        .send(Click::button(board_id, &takes[0]).by(placer))
        .await;
    let refused = fake.next_request(&Req::callback(&wrong)).await;
    assert!(
        is_ephemeral(&refused) && content(&refused).contains("not your turn"),
        "{}",
        content(&refused)
    );
    // The chooser takes black: the placer, now white, moves next.
    let click = fake
        .send(Click::button(board_id, &takes[0]).by(chooser))
        .await;
    let update = fake.next_request(&Req::callback(&click)).await;
    assert!(
        button_ids(&update.json_or_null()).is_empty(),
        "the choice buttons are gone"
    );
    let followup = fake.next_request(&Req::followup(&click)).await;
    let text = content(&followup);
    assert!(text.contains("took black"), "{text}");
    assert_eq!(mentions(&text), vec![placer.id], "{text}");
    assert!(text.contains("(white)"), "{text}");
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stale_and_foreign_buttons_explain_privately_and_change_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let carol = fake.add_user("carol");
    // Someone else's challenge: carol may not accept or decline alice's challenge to bob.
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&alice)
                .user("opponent", &bob),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    let message = message_id(&fake.original_message(&sent).unwrap());
    for id in button_ids(&answer.json_or_null()) {
        let click = fake.send(Click::button(message, &id).by(&carol)).await;
        let reply = fake.next_request(&Req::callback(&click)).await;
        assert!(is_ephemeral(&reply), "{id}: {}", content(&reply));
        assert!(
            content(&reply).contains("not for you")
                || content(&reply).contains("Only the challenger"),
            "{id}: {}",
            content(&reply)
        );
    }
    // Bob declines; the accept button is stale afterwards.
    let decline = ids_with(&answer.json_or_null(), ":dec:").remove(0);
    let click = fake.send(Click::button(message, &decline).by(&bob)).await;
    assert!(content(&fake.next_request(&Req::callback(&click)).await).contains("Declined"));
    let accept = ids_with(&answer.json_or_null(), ":acc:").remove(0);
    let late = fake
        .send(Click::button(message, &accept).by(&bob).unchecked())
        .await;
    let reply = fake.next_request(&Req::callback(&late)).await;
    assert!(
        is_ephemeral(&reply) && content(&reply).contains("declined"),
        "{}",
        content(&reply)
    );
    // A swap choice clicked after the position moved on.
    let started = start_two_player(&fake, &alice, &bob, &[("game", 2), ("opening", 3)]).await;
    let [placer, chooser] = &started.order;
    let mut last = None;
    for p in ["K10", "L10", "M10", "N10"] {
        last = Some(play(&fake, placer, started.thread, p).await.0);
    }
    let board = fake.original_message(&last.unwrap()).unwrap();
    let takes = ids_with(&board, ":take:");
    let click = fake
        .send(Click::button(message_id(&board), &takes[1]).by(chooser))
        .await;
    fake.next_request(&Req::callback(&click)).await;
    let stale = fake
        .send(
            Click::button(message_id(&board), &takes[0])
                .by(chooser)
                .unchecked(),
        )
        .await;
    let reply = fake.next_request(&Req::callback(&stale)).await;
    assert!(is_ephemeral(&reply), "{}", content(&reply));
    // Whose turn it is decides first: the chooser's stale click meets "not your turn".
    assert!(
        content(&reply).contains("moved on") || content(&reply).contains("not your turn"),
        "{}",
        content(&reply)
    );
    // Nothing changed: black (the placer) is still to move.
    let (_, r) = play(&fake, placer, started.thread, "A1").await;
    assert!(!is_ephemeral(&r), "{}", content(&r));
    // A garbled custom id.
    let garbled = fake
        .send(
            Click::button(message_id(&board), "gb:take:x")
                .by(chooser)
                .unchecked(),
        )
        .await;
    let reply = fake.next_request(&Req::callback(&garbled)).await;
    assert!(
        is_ephemeral(&reply) && content(&reply).contains("no longer"),
        "{}",
        content(&reply)
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn illegal_moves_get_a_private_reason_in_the_players_language() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice").with_locale("es-ES");
    fake.update_user(&alice);
    let bob = fake.add_user("bob").with_locale("fi");
    fake.update_user(&bob);
    let started = start_two_player(&fake, &alice, &bob, &[("game", 2)]).await;
    let [first, second] = &started.order;
    let expect = |user: &TestUser, es: &str, fi: &str| {
        if user.locale == "fi" {
            fi.to_string()
        } else {
            es.to_string()
        }
    };
    let (_, r) = play(&fake, first, started.thread, "A1").await;
    assert!(is_ephemeral(&r));
    assert!(
        content(&r).contains(&expect(first, "regla de apertura", "avaussääntöä")),
        "{}",
        content(&r)
    );
    let (_, r) = play(&fake, second, started.thread, "K10").await;
    assert!(
        content(&r).contains(&expect(second, "No es tu turno", "Ei ole sinun vuorosi")),
        "{}",
        content(&r)
    );
    play(&fake, first, started.thread, "K10").await;
    let (_, r) = play(&fake, second, started.thread, "K10").await;
    assert!(
        content(&r).contains(&expect(second, "ya está ocupado", "on jo varattu")),
        "{}",
        content(&r)
    );
    let (_, r) = play(&fake, second, started.thread, "I5").await;
    assert!(
        content(&r).contains("K10"),
        "the malformed message shows an example: {}",
        content(&r)
    );
    let (_, r) = play(&fake, second, started.thread, "Z5").await;
    assert!(content(&r).contains("19×19"), "{}", content(&r));
    // Nothing of that changed the game: the second player's move is still due.
    let (_, r) = play(&fake, second, started.thread, "L10").await;
    assert!(!is_ephemeral(&r), "{}", content(&r));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_ends_the_game_for_the_opponent() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    play(&fake, &started.order[0], started.thread, "H8").await;
    let sent = fake
        .send(
            SlashCommand::new("resign")
                .by(&started.order[0])
                .in_channel(started.thread),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    let text = content(&answer);
    assert!(!is_ephemeral(&answer));
    assert!(
        text.contains("wins by resignation")
            && text.contains(&started.order[1].global_name.clone().unwrap()),
        "{text}"
    );
    let (_, r) = play(&fake, &started.order[1], started.thread, "J9").await;
    assert!(is_ephemeral(&r));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_continues_after_a_restart_from_a_button_posted_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, &db).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 1), ("opening", 3)]).await;
    let [placer, chooser] = &started.order;
    let mut last = None;
    for p in ["H8", "J8", "H9", "J9"] {
        last = Some(play(&fake, placer, started.thread, p).await.0);
    }
    let board = fake.original_message(&last.unwrap()).unwrap();
    let take_white = ids_with(&board, ":take:").remove(1);
    bot.shutdown().await;

    let bot = start_bot(&fake, &db).await;
    fake.wait_for_session(2).await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    let click = fake
        .send(Click::button(message_id(&board), &take_white).by(chooser))
        .await;
    fake.next_request(&Req::callback(&click)).await;
    let followup = fake.next_request(&Req::followup(&click)).await;
    assert!(
        content(&followup).contains("took white"),
        "{}",
        content(&followup)
    );
    // Black (the placer) moves next and the game goes on.
    let (_, r) = play(&fake, placer, started.thread, "H10").await;
    assert!(!is_ephemeral(&r), "{}", content(&r));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn move_confirmation_previews_privately_then_plays() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let first = &started.order[0];
    let prefs = fake
        .send(
            SlashCommand::new("prefs")
                .by(first)
                .boolean("confirm", true),
        )
        .await;
    let saved = fake.next_request(&Req::callback(&prefs)).await;
    assert!(
        is_ephemeral(&saved) && content(&saved).contains("Move confirmation: on"),
        "{}",
        content(&saved)
    );
    let (sent, preview) = play(&fake, first, started.thread, "H8").await;
    assert!(is_ephemeral(&preview), "{}", content(&preview));
    assert!(
        preview
            .files()
            .iter()
            .any(|f| f.filename.as_deref() == Some("preview.png"))
    );
    let message = fake.original_message(&sent).unwrap();
    let ok = ids_with(&message, ":ok:").remove(0);
    // Nothing is played until confirmed: the opponent still may not move.
    let (_, r) = play(&fake, &started.order[1], started.thread, "A1").await;
    assert!(content(&r).contains("not your turn"), "{}", content(&r));
    let click = fake
        .send(Click::button(message_id(&message), &ok).by(first))
        .await;
    let done = fake.next_request(&Req::callback(&click)).await;
    assert!(content(&done).contains("Played H8"), "{}", content(&done));
    let board = fake.next_request(&Req::followup(&click)).await;
    assert_eq!(mentions(&content(&board)), vec![started.order[1].id]);
    // The same confirmation again is stale.
    let again = fake
        .send(
            Click::button(message_id(&message), &ok)
                .by(first)
                .unchecked(),
        )
        .await;
    assert!(is_ephemeral(
        &fake.next_request(&Req::callback(&again)).await
    ));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_offers_games_and_legal_points() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 2)]).await;
    let first = &started.order[0];
    let sent = fake
        .send(
            SlashCommand::new("move")
                .by(first)
                .in_channel(started.thread)
                .focused("at", "k1"),
        )
        .await;
    fake.next_request(&Req::callback(&sent)).await;
    let choices = fake.autocomplete_choices(&sent).unwrap();
    let names: Vec<&str> = choices
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["name"].as_str())
        .collect();
    assert_eq!(names, vec!["K10"], "the pro opening allows only the centre");
    let sent = fake
        .send(SlashCommand::new("move").by(first).focused("game", ""))
        .await;
    fake.next_request(&Req::callback(&sent)).await;
    let games = fake.autocomplete_choices(&sent).unwrap();
    assert_eq!(games.as_array().unwrap().len(), 1);
    assert!(
        games[0]["name"].as_str().unwrap().contains("your turn"),
        "{games}"
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_thread_permission_the_game_is_played_in_the_channel() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    fake.fail(
        Req::post("/channels/*/messages/*/threads"),
        ErrorAnswer::missing_permissions(),
    );
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    challenge_and_accept(&fake, &alice, &bob, &[("game", 0)]).await;
    // The first board, owed by the commit that started the game, goes in the channel.
    let board = fake
        .next_request(&Req::post(&format!(
            "/channels/{}/messages",
            fake.channel_id()
        )))
        .await;
    assert!(
        content(&board).contains("could not open a thread"),
        "{}",
        content(&board)
    );
    let first = mentions(&content(&board))[0];
    let mover = if first == alice.id { &alice } else { &bob };
    let (_, r) = play(&fake, mover, fake.channel_id(), "H8").await;
    assert!(!is_ephemeral(&r), "{}", content(&r));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_from_another_channel_is_acknowledged_privately_and_survives_missing_permissions() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let elsewhere = fake.add_text_channel("lounge");
    // The game's thread refuses the bot's messages from now on.
    fake.set_app_permissions(started.thread, Permissions::VIEW_CHANNEL);
    let first = &started.order[0];
    let sent = fake
        .send(
            SlashCommand::new("move")
                .by(first)
                .in_channel(elsewhere)
                .string("at", "H8")
                .integer("game", 1),
        )
        .await;
    let ack = fake.next_request(&Req::callback(&sent)).await;
    assert!(
        is_ephemeral(&ack) && content(&ack).contains(&format!("<#{}>", started.thread)),
        "{}",
        content(&ack)
    );
    let note = fake.next_request(&Req::followup(&sent)).await;
    assert!(
        is_ephemeral(&note) && content(&note).contains("not allowed to post"),
        "{}",
        content(&note)
    );
    // The move itself stands.
    let (_, r) = play(&fake, first, elsewhere, "J8").await;
    assert!(
        content(&r).contains("not your turn") || content(&r).contains("no game"),
        "{}",
        content(&r)
    );
    let board = fake
        .send(
            SlashCommand::new("board")
                .by(&started.order[1])
                .in_channel(started.thread),
        )
        .await;
    let shown = fake.next_request(&Req::callback(&board)).await;
    assert!(content(&shown).contains("your move"), "{}", content(&shown));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_rules_board_export_and_settings_answer_privately() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 2), ("size", 2)]).await;
    play(&fake, &started.order[0], started.thread, "H8").await;
    let list = fake.send(SlashCommand::new("games").by(&alice)).await;
    let r = fake.next_request(&Req::callback(&list)).await;
    assert!(
        is_ephemeral(&r) && content(&r).contains("#1 · Pente"),
        "{}",
        content(&r)
    );
    let rules = fake
        .send(
            SlashCommand::new("rules")
                .by(&alice)
                .in_channel(started.thread)
                .locale("fi"),
        )
        .await;
    let r = fake.next_request(&Req::callback(&rules)).await;
    assert!(content(&r).contains("15×15-laudalla"), "{}", content(&r));
    let export = fake
        .send(
            SlashCommand::new("export")
                .by(&bob)
                .in_channel(started.thread),
        )
        .await;
    let deferred = fake.next_request(&Req::callback(&export)).await;
    assert!(is_ephemeral(&deferred));
    let files = fake.next_request(&Req::followup(&export)).await;
    let names: Vec<String> = files
        .files()
        .iter()
        .filter_map(|f| f.filename.clone())
        .collect();
    assert_eq!(names, ["game-1.pgn", "game-1.sgf", "game-1.gif"]);
    let pgn = String::from_utf8(files.files()[0].data.clone()).unwrap();
    assert!(
        pgn.contains("[Game \"Pente\"]") && pgn.contains("1. H8"),
        "{pgn}"
    );
    // Settings: members without Manage Server cannot even send it; the owner can.
    assert!(
        fake.try_send(
            SlashCommand::new("settings")
                .by(&alice)
                .boolean("threads", false)
        )
        .await
        .is_err()
    );
    let owner = fake.owner();
    let set = fake
        .send(
            SlashCommand::new("settings")
                .by(&owner)
                .boolean("threads", false)
                .integer("game", 0),
        )
        .await;
    let r = fake.next_request(&Req::callback(&set)).await;
    assert!(
        content(&r).contains("A thread for each game: off"),
        "{}",
        content(&r)
    );
    // The new default applies: a challenge without options is Gomoku, played in the channel.
    let sent = fake
        .send(
            SlashCommand::new("challenge")
                .by(&alice)
                .user("opponent", &bob),
        )
        .await;
    let r = fake.next_request(&Req::callback(&sent)).await;
    assert!(
        content(&r).contains("Gomoku (freestyle)"),
        "{}",
        content(&r)
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
    let _ = ChannelId::new(1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_board_too_large_for_the_upload_limit_is_sent_as_text() {
    let dir = tempfile::tempdir().unwrap();
    let config = FakeConfig {
        attachment_size_limit: 2_000,
        ..FakeConfig::default()
    };
    let (fake, bot) = connected_with(dir.path(), config).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    challenge_and_accept(&fake, &alice, &bob, &[("game", 0)]).await;
    fake.next_request(&Req::post("/channels/*/messages/*/threads"))
        .await;
    let board = fake.next_request(&Req::post("/channels/*/messages")).await;
    assert!(board.files().is_empty());
    assert!(content(&board).contains("too large"), "{}", content(&board));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ping_preferences_choose_between_mention_direct_message_and_silence() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let [first, second] = &started.order;
    // The second player wants a direct message as well (choice 1 = direct).
    let prefs = fake
        .send(SlashCommand::new("prefs").by(second).integer("pings", 1))
        .await;
    fake.next_request(&Req::callback(&prefs)).await;
    let (_, board) = play(&fake, first, started.thread, "H8").await;
    assert_eq!(mentions(&content(&board)), vec![second.id]);
    let dm = fake.next_request(&Req::post("/users/@me/channels")).await;
    assert_eq!(dm.json_or_null()["recipient_id"], second.id.to_string());
    let reminder = fake.next_request(&Req::post("/channels/*/messages")).await;
    assert!(
        content(&reminder).contains("Your move in game #1"),
        "{}",
        content(&reminder)
    );
    // The first player wants no pings at all (choice 2 = off): named, not mentioned.
    let prefs = fake
        .send(SlashCommand::new("prefs").by(first).integer("pings", 2))
        .await;
    fake.next_request(&Req::callback(&prefs)).await;
    let (_, board) = play(&fake, second, started.thread, "A1").await;
    assert!(mentions(&content(&board)).is_empty(), "{}", content(&board));
    assert!(
        content(&board).contains(first.global_name.as_deref().unwrap()),
        "{}",
        content(&board)
    );
    assert_eq!(
        board.json_or_null()["data"]["allowed_mentions"]["users"],
        serde_json::json!([])
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn expired_challenges_lose_their_buttons_at_the_next_sweep() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let fake = FakeDiscord::start().await;
    // Challenges expire at once; the sweeper runs when the bot starts, then every minute.
    let config = gomoku_bot::service::ServiceConfig {
        challenge_ttl: std::time::Duration::from_millis(1),
        ..Default::default()
    };
    let bot = start_bot_with(&fake, &db, config.clone()).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let mut messages = Vec::new();
    for _ in 0..2 {
        let sent = fake
            .send(
                SlashCommand::new("challenge")
                    .by(&alice)
                    .user("opponent", &bob),
            )
            .await;
        fake.next_request(&Req::callback(&sent)).await;
        // The bot records the message after reading it back.
        fake.next_request(&Req::about(&sent).matching(|r| r.method == "GET"))
            .await;
        messages.push(message_id(&fake.original_message(&sent).unwrap()));
    }
    // A click on the second one, already expired: a private word, and the buttons go.
    let accept = ids_with(&fake.message(messages[1]).unwrap(), ":acc:").remove(0);
    let late = fake
        .send(Click::button(messages[1], &accept).by(&bob))
        .await;
    let reply = fake.next_request(&Req::callback(&late)).await;
    assert!(
        is_ephemeral(&reply) && content(&reply).contains("expired"),
        "{}",
        content(&reply)
    );
    let edit = fake
        .next_request(&Req::patch(&format!(
            "/channels/*/messages/{}",
            messages[1]
        )))
        .await;
    assert!(content(&edit).contains("Expired"), "{}", content(&edit));
    // The first one is struck by the sweeper when the bot starts again.
    bot.shutdown().await;
    let bot = start_bot_with(&fake, &db, config).await;
    fake.wait_for_session(2).await;
    let edit = fake
        .next_request(&Req::patch(&format!(
            "/channels/*/messages/{}",
            messages[0]
        )))
        .await;
    assert!(content(&edit).contains("Expired"), "{}", content(&edit));
    for m in messages {
        assert!(button_ids(&fake.message(m).unwrap()).is_empty());
    }
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}
