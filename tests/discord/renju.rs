//! Renju through the fake Discord (issue 13): the tournament openings' decisions as buttons
//! and select menus for exactly the player who must decide, typed tokens, and refusals in the
//! player's language.

use serde_json::Value;
use serenity::all::ChannelId;

use crate::bot::{button_ids, connected, content, is_ephemeral, mentions, play, start_two_player};
use crate::support::fake_discord::{
    Click, FakeDiscord, RecordedRequest, Req, SlashCommand, TestUser, message_id,
};

/// `/challenge`'s index of the game Renju and of the openings.
const RENJU: i64 = 4;
const SOOSORV_8: i64 = 6;

/// The latest public message in a channel (the board the last action posted).
fn latest(fake: &FakeDiscord, channel: ChannelId) -> Value {
    fake.messages_in(channel)
        .into_iter()
        .rfind(|m| m["flags"].as_u64().unwrap_or(0) & 64 == 0)
        .expect("a message in the channel")
}

/// The custom ids of a message's components that contain `needle`.
fn ids_with(v: &Value, needle: &str) -> Vec<String> {
    button_ids(v)
        .into_iter()
        .filter(|id| id.contains(needle))
        .collect()
}

/// A component of a message, by a part of its custom id.
fn component<'a>(v: &'a Value, needle: &str) -> &'a Value {
    v["components"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|row| row["components"].as_array().into_iter().flatten())
        .find(|c| {
            c["custom_id"]
                .as_str()
                .is_some_and(|id| id.contains(needle))
        })
        .unwrap_or_else(|| panic!("no component {needle} in {v}"))
}

/// Clicks the button of the latest board whose custom id contains `needle`, as `user`;
/// returns the callback (and the follow-up with the new board when the click was taken).
async fn click(
    fake: &FakeDiscord,
    channel: ChannelId,
    user: &TestUser,
    needle: &str,
) -> (RecordedRequest, Option<RecordedRequest>) {
    let board = latest(fake, channel);
    let id = ids_with(&board, needle)
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("no {needle} button in {board}"));
    let sent = fake
        .send(Click::button(message_id(&board), &id).by(user))
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    if is_ephemeral(&answer) {
        return (answer, None);
    }
    let board = fake.next_request(&Req::followup(&sent)).await;
    (answer, Some(board))
}

/// Chooses `values` in the select menu of the latest board whose custom id contains `needle`.
async fn select(
    fake: &FakeDiscord,
    channel: ChannelId,
    user: &TestUser,
    needle: &str,
    values: &[&str],
) -> (RecordedRequest, Option<RecordedRequest>) {
    let board = latest(fake, channel);
    let menu = component(&board, needle);
    let id = menu["custom_id"].as_str().unwrap().to_string();
    let sent = fake
        .send(Click::select(message_id(&board), &id, values).by(user))
        .await;
    let answer = fake.next_request(&Req::callback(&sent)).await;
    if is_ephemeral(&answer) {
        return (answer, None);
    }
    let board = fake.next_request(&Req::followup(&sent)).await;
    (answer, Some(board))
}

/// The colour of a 15x15 board picture (coordinates shown, the default) at a point moved by
/// `(dx, dy)` cells; the picture is the `board.png` a response carries.
fn board_pixel(r: &RecordedRequest, point: &str, dx: f32, dy: f32) -> [u8; 3] {
    let png = &r
        .files()
        .into_iter()
        .find(|f| f.filename.as_deref() == Some("board.png"))
        .expect("a board picture")
        .data;
    let img = image::load_from_memory(png).expect("a PNG").to_rgb8();
    // The renderer's layout for 15x15 with coordinates: 49-pixel cells, 56 pixels to A15.
    let col = "ABCDEFGHJKLMNOP".find(&point[..1]).expect("a column") as f32;
    let row: f32 = point[1..].parse().expect("a row");
    let x = 56.0 + (col + dx) * 49.0;
    let y = 56.0 + (15.0 - row + dy) * 49.0;
    img.get_pixel(x as u32, y as u32).0
}

/// Whether the small red cross of a forbidden point is drawn on `point`.
fn crossed(r: &RecordedRequest, point: &str) -> bool {
    [0.08f32, 0.12, -0.08, -0.12].iter().any(|&d| {
        let c = board_pixel(r, point, d, d);
        c[0] > 120 && c[1] < 80 && c[2] < 80
    })
}

fn has_picture(r: &RecordedRequest) -> bool {
    r.files()
        .iter()
        .any(|f| f.filename.as_deref() == Some("board.png"))
}

/// Spanish-speaking players (the guild's public language stays English).
fn spanish(fake: &FakeDiscord, name: &str) -> TestUser {
    let user = fake.add_user(name).with_locale("es-ES");
    fake.update_user(&user);
    user
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_taraguchi_10_game_from_the_first_stone_to_a_win() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = spanish(&fake, "alice");
    let bob = spanish(&fake, "bob");
    // The game Renju without an opening named: Taraguchi-10, Renju's default.
    let started = start_two_player(&fake, &alice, &bob, &[("game", RENJU)]).await;
    let thread = started.thread;
    let [black, white] = &started.order;

    // Move 1 goes on the centre: anywhere else is refused, in Spanish.
    let (_, r) = play(&fake, black, thread, "A1").await;
    assert!(is_ephemeral(&r), "{}", content(&r));
    assert!(
        content(&r).contains("fuera de la zona de apertura"),
        "{}",
        content(&r)
    );
    let (_, r) = play(&fake, black, thread, "H8").await;
    assert!(!is_ephemeral(&r), "{}", content(&r));
    assert!(content(&r).contains("swap colours"), "{}", content(&r));
    assert_eq!(
        mentions(&content(&r)),
        vec![white.user_id().get()],
        "the player who decides is mentioned"
    );
    // Swap and Keep are for the player who decides: black's click is refused privately.
    let board = latest(&fake, thread);
    assert_eq!(ids_with(&board, "rj:swap:").len(), 1);
    assert_eq!(ids_with(&board, "rj:keep:").len(), 1);
    let (r, _) = click(&fake, thread, black, "rj:keep:").await;
    assert!(
        is_ephemeral(&r) && content(&r).contains("No es tu turno"),
        "{}",
        content(&r)
    );
    // A typed stone while a decision is due is refused too.
    let (_, r) = play(&fake, white, thread, "H9").await;
    assert!(is_ephemeral(&r), "{}", content(&r));
    let (update, followup) = click(&fake, thread, white, "rj:keep:").await;
    assert!(
        button_ids(&update.json_or_null()).is_empty(),
        "the decided board loses its buttons"
    );
    let followup = followup.expect("the next board");
    assert!(has_picture(&followup));
    assert!(content(&followup).contains("kept their colour"));
    assert!(
        content(&followup).contains("within the central 3×3"),
        "{}",
        content(&followup)
    );

    // Move 2, then the other may swap; typed decisions work as well as buttons.
    let (_, r) = play(&fake, white, thread, "K11").await;
    assert!(
        is_ephemeral(&r) && content(&r).contains("3×3"),
        "outside the 3x3: {}",
        content(&r)
    );
    play(&fake, white, thread, "H9").await;
    let (_, r) = play(&fake, black, thread, "keep").await;
    assert!(!is_ephemeral(&r), "{}", content(&r));
    play(&fake, black, thread, "J8").await;
    click(&fake, thread, white, "rj:keep:").await;
    let (_, r) = play(&fake, white, thread, "H10").await;
    // After move 4 black may also offer ten fifth moves: a menu of 25 points, pick 10.
    assert!(
        content(&r).contains("offer 10 fifth moves"),
        "{}",
        content(&r)
    );
    let board = latest(&fake, thread);
    let offer = component(&board, "rj:offer:");
    assert_eq!(offer["min_values"], 10);
    assert_eq!(offer["max_values"], 10);
    assert_eq!(offer["options"].as_array().unwrap().len(), 25);
    click(&fake, thread, black, "rj:keep:").await;
    play(&fake, black, thread, "K10").await;
    click(&fake, thread, white, "rj:keep:").await;
    // Move 6 and on: anywhere.
    for (user, point) in [(white, "A1"), (black, "K9"), (white, "A2")] {
        let (_, r) = play(&fake, user, thread, point).await;
        assert!(!is_ephemeral(&r), "{point}: {}", content(&r));
    }
    // K8 would make two open threes for black: refused, in Spanish, naming the shape.
    let (_, r) = play(&fake, black, thread, "K8").await;
    assert!(is_ephemeral(&r), "{}", content(&r));
    let text = content(&r);
    assert!(
        text.contains("K8") && text.contains("punto prohibido") && text.contains("doble tres"),
        "{text}"
    );
    // Autocomplete never offers it.
    let sent = fake
        .send(
            SlashCommand::new("move")
                .by(black)
                .in_channel(thread)
                .focused("at", "K"),
        )
        .await;
    fake.next_request(&Req::callback(&sent)).await;
    let choices = fake.autocomplete_choices(&sent).expect("choices");
    let names: Vec<&str> = choices
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["value"].as_str())
        .collect();
    assert!(names.contains(&"K7"), "{names:?}");
    assert!(!names.contains(&"K8"), "{names:?}");
    // Nothing changed: black is still to move, and white wins with five.
    for (user, point) in [
        (black, "O15"),
        (white, "A3"),
        (black, "M15"),
        (white, "A4"),
        (black, "O12"),
    ] {
        let (_, r) = play(&fake, user, thread, point).await;
        assert!(!is_ephemeral(&r), "{point}: {}", content(&r));
    }
    let (_, r) = play(&fake, white, thread, "A5").await;
    assert!(content(&r).contains("wins with a row"), "{}", content(&r));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_soosorv_8_opening_through_the_choice_of_the_fifth_move() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(
        &fake,
        &alice,
        &bob,
        &[("game", RENJU), ("opening", SOOSORV_8)],
    )
    .await;
    let thread = started.thread;
    // Seat 1 is the tentative black and places the first three stones.
    let [first, second] = &started.order;
    for p in ["H8", "H9", "J8"] {
        let (_, r) = play(&fake, first, thread, p).await;
        assert!(!is_ephemeral(&r), "{p}: {}", content(&r));
    }
    click(&fake, thread, second, "rj:keep:").await;
    // White places move 4 anywhere, then declares the number of fifth moves in a menu.
    let (_, r) = play(&fake, second, thread, "G7").await;
    assert!(
        content(&r).contains("how many fifth moves"),
        "{}",
        content(&r)
    );
    let board = latest(&fake, thread);
    let declare = component(&board, "rj:declare:");
    assert_eq!(declare["options"].as_array().unwrap().len(), 8);
    let (r, _) = select(&fake, thread, first, "rj:declare:", &["3"]).await;
    assert!(
        is_ephemeral(&r) && content(&r).contains("not your turn"),
        "{}",
        content(&r)
    );
    // A value no menu offers (a forged click) is refused and changes nothing.
    let forged = fake
        .send(
            Click::select(
                message_id(&board),
                declare["custom_id"].as_str().unwrap(),
                &["9"],
            )
            .by(second)
            .unchecked(),
        )
        .await;
    let r = fake.next_request(&Req::callback(&forged)).await;
    assert!(is_ephemeral(&r), "{}", content(&r));
    let (_, followup) = select(&fake, thread, second, "rj:declare:", &["3"]).await;
    let followup = followup.expect("the next board");
    assert!(
        content(&followup).contains("declared 3 fifth moves"),
        "{}",
        content(&followup)
    );
    // Black (the first player) swaps: the second player is black from now on.
    let (_, followup) = click(&fake, thread, first, "rj:swap:").await;
    let text = content(&followup.expect("the next board"));
    assert!(text.contains("swapped colours"), "{text}");
    assert!(text.contains("offer 3 fifth moves"), "{text}");
    assert_eq!(mentions(&text), vec![second.user_id().get()], "{text}");
    // A typed offer of the wrong size is refused with the reason.
    let (_, r) = play(&fake, second, thread, "offer:K10,L10").await;
    assert!(
        is_ephemeral(&r) && content(&r).contains("Offer exactly 3 fifth moves"),
        "{}",
        content(&r)
    );
    // The menu: three of its points.
    let board = latest(&fake, thread);
    let options: Vec<String> = component(&board, "rj:offer:")["options"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["value"].as_str().unwrap().to_string())
        .collect();
    let picked: Vec<&str> = options[..3].iter().map(String::as_str).collect();
    let (_, followup) = select(&fake, thread, second, "rj:offer:", &picked).await;
    let followup = followup.expect("the next board");
    let text = content(&followup);
    assert!(text.contains("offered 3 fifth moves"), "{text}");
    assert!(has_picture(&followup));
    // The candidates are translucent stones on the picture: darker than the bare wood.
    let shade = |c: [u8; 3]| c.iter().map(|&v| u32::from(v)).sum::<u32>();
    let wood = shade(board_pixel(&followup, "B2", 0.3, 0.3));
    for p in &picked {
        let stone = shade(board_pixel(&followup, p, 0.33, 0.25));
        assert!(stone + 100 < wood, "{p}: {stone} against the wood's {wood}");
    }
    // One numbered button per candidate, for the white player only.
    let board = latest(&fake, thread);
    let chooses = ids_with(&board, "rj:choose:");
    assert_eq!(chooses.len(), 3);
    for (k, p) in picked.iter().enumerate() {
        assert!(chooses[k].ends_with(&format!(":{p}")), "{chooses:?}");
    }
    let (r, _) = click(&fake, thread, second, "rj:choose:").await;
    assert!(is_ephemeral(&r), "{}", content(&r));
    let second_choice = format!(":{}", picked[1]);
    let (_, followup) = click(&fake, thread, first, &second_choice).await;
    let text = content(&followup.expect("the next board"));
    assert!(
        text.contains(&format!("chose {} as the fifth move", picked[1])),
        "{text}"
    );
    // White (the first player) plays move 6.
    assert_eq!(mentions(&text), vec![first.user_id().get()], "{text}");
    let (_, r) = play(&fake, first, thread, "A1").await;
    assert!(!is_ephemeral(&r), "{}", content(&r));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn forbidden_points_are_marked_unless_the_player_to_move_turns_them_off() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    let alice = fake.add_user("alice");
    let bob = fake.add_user("bob");
    let started = start_two_player(&fake, &alice, &bob, &[("game", RENJU)]).await;
    let thread = started.thread;
    let [black, white] = &started.order;
    let prefs = |on: bool| {
        fake.send(
            SlashCommand::new("prefs")
                .by(black)
                .boolean("forbidden", on),
        )
    };
    let sent = prefs(false).await;
    let saved = fake.next_request(&Req::callback(&sent)).await;
    assert!(
        is_ephemeral(&saved) && content(&saved).contains("Renju forbidden points marked: off"),
        "{}",
        content(&saved)
    );
    // Taraguchi-10 with every colour kept, to black's K8: a double three (H8 J8, K9 K10).
    for (user, token) in [
        (black, "H8"),
        (white, "keep"),
        (white, "H9"),
        (black, "keep"),
        (black, "J8"),
        (white, "keep"),
        (white, "H10"),
        (black, "keep"),
        (black, "K10"),
        (white, "keep"),
        (white, "A1"),
        (black, "K9"),
    ] {
        let (_, r) = play(&fake, user, thread, token).await;
        assert!(!is_ephemeral(&r), "{token}: {}", content(&r));
    }
    // Black is to move and sees the board with its own preferences: no cross.
    let (_, r) = play(&fake, white, thread, "A2").await;
    assert!(has_picture(&r));
    assert!(!crossed(&r, "K8"), "marks are off for black");
    let (_, refused) = play(&fake, black, thread, "K8").await;
    assert!(
        is_ephemeral(&refused),
        "K8 is forbidden: {}",
        content(&refused)
    );
    // Turned back on: the next board with black to move has the cross, and only there.
    let sent = prefs(true).await;
    let saved = fake.next_request(&Req::callback(&sent)).await;
    assert!(
        content(&saved).contains("Renju forbidden points marked: on"),
        "{}",
        content(&saved)
    );
    play(&fake, black, thread, "O15").await;
    let (_, r) = play(&fake, white, thread, "A3").await;
    assert!(crossed(&r, "K8"), "the forbidden K8 is marked");
    assert!(
        !crossed(&r, "K7") && !crossed(&r, "L8"),
        "free points are not"
    );
    // White to move: black's forbidden points are not shown.
    let (_, r) = play(&fake, black, thread, "O14").await;
    assert!(!crossed(&r, "K8"));
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}
