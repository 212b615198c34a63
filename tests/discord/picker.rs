//! The point picker through the fake Discord: the Play button under a board, panning to
//! every edge, playing a point, someone else's click, a stale picker after the game moved on,
//! `/move` without a point, and a picker used after a restart.

use serde_json::Value;
use serenity::all::MessageId;

use crate::bot::{button_ids, content, is_ephemeral, play, start_bot, start_two_player};
use crate::support::fake_discord::{Click, FakeDiscord, Req, SlashCommand, TestUser, message_id};

/// The buttons of a message (or an interaction answer), as (label, id, disabled), by row.
fn rows(v: &Value) -> Vec<Vec<(String, String, bool)>> {
    let components = v
        .get("components")
        .or_else(|| v.get("data").and_then(|d| d.get("components")))
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    components
        .iter()
        .map(|row| {
            row["components"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|b| {
                    (
                        b["label"].as_str().unwrap_or_default().to_string(),
                        b["custom_id"].as_str().unwrap_or_default().to_string(),
                        b["disabled"].as_bool().unwrap_or(false),
                    )
                })
                .collect()
        })
        .collect()
}

/// The id of the control labelled `label` in a picker.
fn control(v: &Value, label: &str) -> (String, bool) {
    let r = rows(v);
    let b = r
        .last()
        .and_then(|row| row.iter().find(|b| b.0 == label))
        .unwrap_or_else(|| panic!("no {label} in {r:?}"));
    (b.1.clone(), b.2)
}

/// Clicks `id` on message `message` as `user`; returns the answer.
async fn click(
    fake: &FakeDiscord,
    message: MessageId,
    id: &str,
    user: &TestUser,
) -> crate::support::fake_discord::RecordedRequest {
    let sent = fake.send(Click::button(message, id).by(user)).await;
    fake.next_request(&Req::callback(&sent)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_picker_opens_pans_to_every_edge_and_plays_a_point() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, &db).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let carol = fake.add_user("carol");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let [first, second] = &started.order;
    let (sent, answer) = play(&fake, first, started.thread, "H8").await;
    let play_id = button_ids(&answer.json_or_null())
        .into_iter()
        .find(|b| b.starts_with("gp:o:"))
        .expect("a Play button under the board");
    assert_eq!(play_id, "gp:o:1:1");
    let board = message_id(&fake.original_message(&sent).expect("the board"));

    // Someone else's click, and the player who just moved: refused privately.
    for user in [&carol, first] {
        let refused = click(&fake, board, &play_id, user).await;
        assert!(is_ephemeral(&refused), "{}", content(&refused));
        assert!(rows(&refused.json_or_null()).is_empty());
    }
    // The player to move opens it: around H8, H8 shown as a black stone and disabled.
    let open = fake.send(Click::button(board, &play_id).by(second)).await;
    let answer = fake.next_request(&Req::callback(&open)).await;
    assert!(is_ephemeral(&answer));
    assert!(
        content(&answer).contains("Game #1: choose your point (F6 to K9)"),
        "{}",
        content(&answer)
    );
    let picker = message_id(&fake.original_message(&open).expect("the picker"));
    let r = rows(&answer.json_or_null());
    assert_eq!(r.len(), 5);
    assert_eq!(r.iter().map(Vec::len).sum::<usize>(), 25);
    let h8 = r[..4]
        .iter()
        .flatten()
        .find(|b| b.1.ends_with(":H8"))
        .unwrap();
    assert_eq!((h8.0.as_str(), h8.2), ("⚫ H8", true));
    assert!(
        control(&answer.json_or_null(), "◎").1,
        "already around the last stone"
    );

    // Pan to each edge: the arrow ends disabled there, and the edge's points show.
    for (arrow, edge) in [("◀", "A"), ("▲", "15"), ("▶", "P"), ("▼", "1")] {
        let mut shown = fake.message(picker).expect("the picker");
        for _ in 0..10 {
            let (id, disabled) = control(&shown, arrow);
            if disabled {
                break;
            }
            let update = click(&fake, picker, &id, second).await;
            assert_eq!(update.json_or_null()["type"], 7, "updated in place");
            shown = fake.message(picker).expect("the picker");
        }
        assert!(control(&shown, arrow).1, "{arrow} disabled at the edge");
        let labels: Vec<String> = rows(&shown)[..4]
            .iter()
            .flatten()
            .map(|b| b.0.clone())
            .collect();
        // A label is "K10", or "⚫ K10" for a stone: its column letter and row number.
        let at_edge = |l: &String| {
            let name = l.rsplit(' ').next().unwrap_or_default();
            let (col, row) = name.split_at(1);
            col == edge || row == edge
        };
        assert!(labels.iter().any(at_edge), "{arrow}: {labels:?}");
    }
    // Back to the last stone, then play J9.
    let shown = fake.message(picker).unwrap();
    let (centre, disabled) = control(&shown, "◎");
    assert!(!disabled);
    click(&fake, picker, &centre, second).await;
    let shown = fake.message(picker).unwrap();
    let j9 = rows(&shown)[..4]
        .iter()
        .flatten()
        .find(|b| b.0 == "J9")
        .expect("J9 in the window")
        .1
        .clone();
    let played = click(&fake, picker, &j9, second).await;
    assert_eq!(played.json_or_null()["type"], 7);
    assert!(
        content(&played).contains("You played J9 in game #1"),
        "{}",
        content(&played)
    );
    assert!(
        rows(&played.json_or_null()).is_empty(),
        "the picker is closed"
    );
    // The board is posted: it is the first player's turn, with a Play button for ply 2.
    let board2 = fake
        .next_request(&Req::any("/webhooks/*/*").matching(|r| {
            button_ids(&r.json_or_null())
                .iter()
                .any(|b| b == "gp:o:1:2")
        }))
        .await;
    assert!(content(&board2).contains("J9"), "{}", content(&board2));

    // A stale picker: the first player opens one at ply 2, then both move by typing.
    let picker_cmd = fake
        .send(
            SlashCommand::new("move")
                .by(first)
                .in_channel(started.thread),
        )
        .await;
    let answer = fake.next_request(&Req::callback(&picker_cmd)).await;
    assert!(is_ephemeral(&answer));
    assert_eq!(
        rows(&answer.json_or_null()).len(),
        5,
        "/move without a point opens the picker"
    );
    let old = message_id(&fake.original_message(&picker_cmd).expect("the picker"));
    let k10 = rows(&answer.json_or_null())[..4]
        .iter()
        .flatten()
        .find(|b| !b.2)
        .expect("a free point")
        .1
        .clone();
    play(&fake, first, started.thread, "A1").await;
    play(&fake, second, started.thread, "A2").await;
    let stale = click(&fake, old, &k10, first).await;
    assert!(is_ephemeral(&stale));
    assert!(
        content(&stale).contains("out of date"),
        "{}",
        content(&stale)
    );
    // Nothing was played: A3 is still the first player's move at ply 4.
    let (_, ok) = play(&fake, first, started.thread, "A3").await;
    assert!(!is_ephemeral(&ok), "{}", content(&ok));

    // After a restart, a picker opened before it still pans.
    let open = fake
        .send(
            SlashCommand::new("move")
                .by(second)
                .in_channel(started.thread),
        )
        .await;
    fake.next_request(&Req::callback(&open)).await;
    let picker = message_id(&fake.original_message(&open).expect("the picker"));
    bot.shutdown().await;
    let bot = start_bot(&fake, &db).await;
    fake.wait_until_ready().await;
    let shown = fake.message(picker).unwrap();
    let (right, disabled) = control(&shown, "▶");
    assert!(!disabled, "the window is at column A, around A3");
    let update = click(&fake, picker, &right, second).await;
    assert_eq!(update.json_or_null()["type"], 7, "{}", update.summary());
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

/// The point (not control) button labelled `label` in a picker.
fn point(v: &Value, label: &str) -> String {
    let r = rows(v);
    r[..r.len().saturating_sub(1)]
        .iter()
        .flatten()
        .find(|b| b.0 == label)
        .unwrap_or_else(|| panic!("no point {label} in {r:?}"))
        .1
        .clone()
}

/// The id of the first button whose label starts with `prefix` (Play J9 / Cancel under a preview).
fn labelled(v: &Value, prefix: &str) -> String {
    rows(v)
        .into_iter()
        .flatten()
        .find(|b| b.0.starts_with(prefix))
        .unwrap_or_else(|| panic!("no {prefix} in {:?}", rows(v)))
        .1
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_picked_point_is_previewed_with_confirmation_and_a_picker_plays_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bot.db");
    let fake = FakeDiscord::start().await;
    let bot = start_bot(&fake, &db).await;
    fake.wait_until_ready().await;
    fake.next_request(&Req::put("/applications/*/guilds/*/commands"))
        .await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let carol = fake.add_user("carol");
    let started = start_two_player(&fake, &alice, &bob, &[("game", 0)]).await;
    let [first, second] = &started.order;
    // The second player asks to confirm moves.
    let prefs = fake
        .send(
            SlashCommand::new("prefs")
                .by(second)
                .boolean("confirm", true),
        )
        .await;
    fake.next_request(&Req::callback(&prefs)).await;
    let (sent, answer) = play(&fake, first, started.thread, "H8").await;
    assert!(!is_ephemeral(&answer), "{}", content(&answer));
    let board = message_id(&fake.original_message(&sent).expect("the board"));
    let open = fake.send(Click::button(board, "gp:o:1:1").by(second)).await;
    let opened = fake.next_request(&Req::callback(&open)).await;
    let picker = message_id(&fake.original_message(&open).expect("the picker"));

    // Someone else's click on a point of this picker (a forged or replayed id): refused,
    // privately, and the picker is left as it was.
    let j9 = point(&opened.json_or_null(), "J9");
    let before = fake.message(picker).unwrap();
    let forged = fake
        .send(Click::button(picker, &j9).by(&carol).unchecked())
        .await;
    let refused = fake.next_request(&Req::callback(&forged)).await;
    assert!(is_ephemeral(&refused), "{}", content(&refused));
    assert_ne!(refused.json_or_null()["type"], 7, "not an update in place");
    assert_eq!(fake.message(picker).unwrap(), before);

    // J9 with confirmation on: the picker becomes the preview, "Play J9" (the confirmation) and Cancel under it.
    let preview = click(&fake, picker, &j9, second).await;
    assert_eq!(preview.json_or_null()["type"], 7, "{}", preview.summary());
    assert!(
        preview
            .files()
            .iter()
            .any(|f| f.filename.as_deref() == Some("preview.png")),
        "a preview picture"
    );
    let shown = fake.message(picker).unwrap();
    assert_eq!(rows(&shown).len(), 1, "{:?}", rows(&shown));
    let cancel = labelled(&shown, "Cancel");
    let confirm = labelled(&shown, "Play J9");
    // Cancel: dropped, nothing played; the second player is still to move.
    let dropped = click(&fake, picker, &cancel, second).await;
    assert!(
        content(&dropped).contains("Move dropped (game #1)"),
        "{}",
        content(&dropped)
    );
    assert!(rows(&fake.message(picker).unwrap()).is_empty());
    let (_, r) = play(&fake, first, started.thread, "A1").await;
    assert!(content(&r).contains("not your turn"), "{}", content(&r));

    // Again through /move without a point, and Confirm this time: played, the board posted.
    let reopen = fake
        .send(
            SlashCommand::new("move")
                .by(second)
                .in_channel(started.thread),
        )
        .await;
    let opened = fake.next_request(&Req::callback(&reopen)).await;
    let picker = message_id(&fake.original_message(&reopen).expect("the picker"));
    let j9 = point(&opened.json_or_null(), "J9");
    click(&fake, picker, &j9, second).await;
    let shown = fake.message(picker).unwrap();
    assert_eq!(
        labelled(&shown, "Play J9"),
        confirm,
        "the same move, the same id"
    );
    let done = click(&fake, picker, &confirm, second).await;
    assert!(
        content(&done).contains("Played J9 in game #1"),
        "{}",
        content(&done)
    );
    let board2 = fake
        .next_request(&Req::any("/webhooks/*/*").matching(|r| {
            button_ids(&r.json_or_null())
                .iter()
                .any(|b| b == "gp:o:1:2")
        }))
        .await;
    assert!(content(&board2).contains("J9"), "{}", content(&board2));

    // The first player opens a picker, the bot restarts, and the click plays the point.
    let open = fake
        .send(
            SlashCommand::new("move")
                .by(first)
                .in_channel(started.thread),
        )
        .await;
    let opened = fake.next_request(&Req::callback(&open)).await;
    let picker = message_id(&fake.original_message(&open).expect("the picker"));
    let k10 = point(&opened.json_or_null(), "K10");
    bot.shutdown().await;
    let bot = start_bot(&fake, &db).await;
    fake.wait_until_ready().await;
    let played = click(&fake, picker, &k10, first).await;
    assert!(
        content(&played).contains("You played K10 in game #1"),
        "{}",
        content(&played)
    );
    assert!(rows(&played.json_or_null()).is_empty(), "closed");
    // Committed: the second player's picker for ply 2 is now out of date.
    let stale = fake
        .send(Click::button(board, "gp:o:1:1").by(second).unchecked())
        .await;
    let stale = fake.next_request(&Req::callback(&stale)).await;
    assert!(is_ephemeral(&stale));
    assert!(
        rows(&stale.json_or_null()).is_empty(),
        "{}",
        content(&stale)
    );
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}
