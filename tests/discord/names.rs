//! Members whose display names are in other scripts, full of emoji, or hostile: the board
//! the bot posts draws exactly what the renderer draws for those names (issue 18).

use gomoku_bot::discord::text::render_options;
use gomoku_bot::i18n::{I18n, Lang};
use gomoku_bot::render::render_png;
use gomoku_bot::rules::{Game, Preset, RuleSet};
use gomoku_bot::store::Preferences;

use crate::bot::{connected, content, is_ephemeral, play, start_two_player};
use crate::support::fake_discord::{RecordedRequest, TestUser};

/// The board picture attached to a message.
fn board_png(r: &RecordedRequest) -> Vec<u8> {
    r.files()
        .into_iter()
        .find(|f| f.filename.as_deref() == Some("board.png"))
        .map(|f| f.data.clone())
        .expect("a board picture")
}

/// A member called `name` (their global name) with the user name `user`.
fn member(fake: &crate::support::fake_discord::FakeDiscord, user: &str, name: &str) -> TestUser {
    let mut u = fake.add_user(user);
    u.global_name = Some(name.to_owned());
    fake.update_user(&u);
    u
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_named_in_other_scripts_and_emoji_get_their_names_drawn() {
    let dir = tempfile::tempdir().unwrap();
    let (fake, bot) = connected(dir.path()).await;
    // Devanagari with an emoji; Arabic behind a right-to-left override, with a ZWJ family,
    // a flag and a flood of combining marks; Thai.
    let rahul = member(&fake, "rahul", "राहुल शर्मा 🐉");
    let muhammad = member(
        &fake,
        "muhammad",
        "\u{202E}محمد علي 👨\u{200D}👩\u{200D}👧 🇫🇮 x\u{0301}\u{0301}\u{0301}\u{0301}\u{0301}",
    );
    let somchai = member(&fake, "somchai", "สมชาย ใจดี");
    let i18n = I18n::load();
    let opts = render_options(&i18n, Lang::En, &Preferences::default());
    for (a, b) in [(&rahul, &muhammad), (&somchai, &rahul)] {
        let started = start_two_player(&fake, a, b, &[("game", 0)]).await;
        let [first, second] = &started.order;
        let names: Vec<String> = started
            .order
            .iter()
            .map(|u| u.global_name.clone().expect("a global name"))
            .collect();
        let mut game = Game::new(RuleSet::preset(Preset::Gomoku));
        for (user, point) in [(first, "H8"), (second, "J9")] {
            let (_, answer) = play(&fake, user, started.thread, point).await;
            assert!(!is_ephemeral(&answer), "{}", content(&answer));
            game.apply_token(point).expect("a legal move");
            let expected = render_png(&game, &names, &opts);
            assert!(
                board_png(&answer) == expected,
                "the posted board after {point} is the renderer's picture for {names:?}"
            );
        }
    }
    fake.assert_all_requests_valid();
    bot.shutdown().await;
}
