//! Board pictures: golden images, dimensions of every option combination, hostile names,
//! the animated replay, and the `render` command.
//!
//! Golden images live in `tests/golden/`. After an intended change to the drawing, look at
//! the new pictures and regenerate them with
//! `UPDATE_GOLDEN=1 cargo test --test render golden`. On a mismatch the test writes the
//! picture it got next to the golden one as `NAME.actual.png`.

mod common;
#[path = "render/renju.rs"]
mod renju;

use std::path::PathBuf;
use std::process::Command;

use gomoku_bot::render::{
    self, Labels, REPLAY_HOLD, RenderError, RenderOptions, StandingsRow, StandingsTable, Theme,
    picture_size, render_png, render_png_with_tentative, render_replay_gif, render_standings_png,
};
use gomoku_bot::render::{
    Chart, ChartMark, MarkKind, render_chart_png, render_png_with_alternative,
};
use gomoku_bot::rules::{Action, Game, Point, Preset, RuleSet};
use image::AnimationDecoder;

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn play(rules: RuleSet, moves: &str) -> Game {
    let mut g = Game::new(rules);
    for t in moves.split_whitespace() {
        g.apply_token(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
    g
}

fn decode(png: &[u8]) -> image::RgbImage {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .expect("the PNG decodes")
        .to_rgb8()
}

/// Compares with `tests/golden/NAME.png`: at most 0.2 % of pixels may differ by more than
/// 24 levels in a channel (palette training may round differently on other machines).
fn check_golden(name: &str, png: &[u8]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let path = dir.join(format!("{name}.png"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&path, png).unwrap();
        return;
    }
    let expected = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}; create it with UPDATE_GOLDEN=1 cargo test --test render",
            path.display()
        )
    });
    let (want, got) = (decode(&expected), decode(png));
    let actual = dir.join(format!("{name}.actual.png"));
    if want.dimensions() != got.dimensions() {
        std::fs::write(&actual, png).unwrap();
        panic!(
            "{name}: size {:?}, golden {:?}; wrote {}",
            got.dimensions(),
            want.dimensions(),
            actual.display()
        );
    }
    let differing = want
        .pixels()
        .zip(got.pixels())
        .filter(|(a, b)| a.0.iter().zip(b.0.iter()).any(|(x, y)| x.abs_diff(*y) > 24))
        .count();
    let total = (want.width() * want.height()) as usize;
    if differing * 500 > total {
        std::fs::write(&actual, png).unwrap();
        panic!(
            "{name}: {differing} of {total} pixels differ from the golden picture; wrote {}",
            actual.display()
        );
    }
    let _ = std::fs::remove_file(actual);
}

/// A Pente middle game that ends on a capture (so ghosts show), with earlier captures too.
fn pente_midgame() -> Game {
    let long = common::random_game(RuleSet::preset(Preset::Pente), 100, 7);
    let mut g = Game::new(RuleSet::preset(Preset::Pente));
    let mut upto = 0;
    for (i, &a) in long.record().iter().enumerate() {
        if !g.apply(a).unwrap().removed.is_empty() {
            upto = i + 1;
        }
    }
    Game::from_record(RuleSet::preset(Preset::Pente), &long.record()[..upto]).unwrap()
}

#[test]
fn golden_pente_19_midgame_with_captures() {
    let g = pente_midgame();
    assert!(g.captured().iter().sum::<u16>() >= 6, "{:?}", g.captured());
    assert!(!g.last_removed().is_empty(), "the last move captures");
    check_golden(
        "pente-19-midgame",
        &render_png(&g, &names(&["Ann", "Bo"]), &RenderOptions::default()),
    );
}

#[test]
fn golden_gomoku_15_won_with_the_line() {
    let g = play(
        RuleSet::preset(Preset::Gomoku),
        "H8 A1 J9 A2 K10 A3 L11 A4 M12",
    );
    assert_eq!(g.winning_lines().len(), 1);
    check_golden(
        "gomoku-15-won",
        &render_png(&g, &names(&["Émilie", "李小龙"]), &RenderOptions::default()),
    );
}

#[test]
fn golden_four_players_in_teams() {
    let rules = RuleSet::with_options(Preset::Pente, &["players=4", "teams=on"]).unwrap();
    let g = common::random_game(rules, 60, 3);
    assert_eq!(g.stones_placed(), 60);
    check_golden(
        "teams-4-players",
        &render_png(
            &g,
            &names(&["Ann", "Bo", "Cy", "Di"]),
            &RenderOptions::default(),
        ),
    );
}

#[test]
fn golden_dark_without_coordinates_and_threatened_line() {
    let rules = RuleSet::with_options(Preset::Pente, &["extra_time_capture=on"]).unwrap();
    let g = play(rules, "K10 M12 O10 A1 L10 A3 M11 A5 N10 A7 M10");
    assert!(g.threatened_line().is_some());
    let opts = RenderOptions {
        theme: Theme::Dark,
        coordinates: false,
        ..RenderOptions::default()
    };
    check_golden(
        "dark-threatened",
        &render_png(&g, &names(&["Ann", "Bo"]), &opts),
    );
}

#[test]
fn golden_nine_by_nine_tentative_stone() {
    let rules = RuleSet::with_options(Preset::Gomoku, &["size=9"]).unwrap();
    let g = play(rules, "E5 D4 F6");
    let png = render_png_with_tentative(
        &g,
        &names(&["Ann", "Bo"]),
        &RenderOptions::default(),
        Point::parse("G7", 9).unwrap(),
    );
    check_golden("nine-tentative", &png);
}

#[test]
fn golden_hostile_names() {
    let rules = RuleSet::with_options(Preset::Keryo, &["players=4"]).unwrap();
    let g = common::random_game(rules, 16, 21);
    let hostile = names(&[
        "\u{202E}evil\u{202C}\u{7}\n",
        "مرحبا بالعالم 123",
        "漢字テスト한국어 and a name far too long for the footer of the picture, really",
        "😀🎉👨‍👩‍👧‍👦 ok🇫🇮",
    ]);
    let opts = RenderOptions {
        theme: Theme::Dark,
        ..RenderOptions::default()
    };
    check_golden("hostile-names", &render_png(&g, &hostile, &opts));
}

/// `(script, name)` pairs of `tests/fixtures/names.txt` (also shaped by the unit test that
/// finds no `.notdef` glyph).
fn fixture_names() -> Vec<(String, String)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/names.txt");
    std::fs::read_to_string(path)
        .expect("the names fixture")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.split_once('\t'))
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// The fixture's names whose script label starts with one of `scripts`, in their order.
fn names_of(scripts: &[&str]) -> Vec<String> {
    let all = fixture_names();
    scripts
        .iter()
        .map(|s| {
            all.iter()
                .find(|(script, _)| script == s)
                .unwrap_or_else(|| panic!("{s} is in the fixture"))
                .1
                .clone()
        })
        .collect()
}

/// A four-player board whose footer shows the given names.
fn four_names_board(names: &[String], theme: Theme) -> Vec<u8> {
    let rules = RuleSet::with_options(Preset::Keryo, &["players=4"]).unwrap();
    let g = common::random_game(rules, 9, 5);
    let opts = RenderOptions {
        theme,
        ..RenderOptions::default()
    };
    render_png(&g, names, &opts)
}

#[test]
fn golden_names_in_south_asian_scripts() {
    let n = names_of(&["Devanagari", "Bengali", "Tamil", "Sinhala"]);
    check_golden("names-south-asia", &four_names_board(&n, Theme::Light));
}

#[test]
fn golden_names_in_right_to_left_and_mixed_scripts() {
    let n = names_of(&["Arabic", "Persian", "Mixed Hebrew", "Mixed Arabic"]);
    check_golden("names-rtl-mixed", &four_names_board(&n, Theme::Dark));
}

#[test]
fn golden_names_in_south_east_and_east_asian_scripts() {
    let n = names_of(&["Thai", "Khmer", "Korean", "Japanese"]);
    check_golden("names-asia", &four_names_board(&n, Theme::Light));
}

#[test]
fn golden_names_with_emoji_sequences() {
    let n = names_of(&[
        "Emoji",
        "Emoji ZWJ",
        "Emoji tones and flags",
        "Emoji keycaps",
    ]);
    check_golden("names-emoji", &four_names_board(&n, Theme::Light));
}

#[test]
fn golden_standings_with_a_name_in_every_script() {
    let all = fixture_names();
    let names: Vec<&str> = all.iter().map(|(_, n)| n.as_str()).collect();
    let mut table = standings_table(names.len(), &names);
    table.title = "Ελληνικά · العربية · हिन्दी · ไทย · 한국어 🏆".into();
    check_golden(
        "standings-every-script",
        &render_standings_png(&table, Theme::Light),
    );
}

#[test]
fn every_size_theme_and_option_has_the_right_dimensions() {
    render::warm_up();
    for size in [9u8, 13, 15, 19] {
        for players in [2u8, 3, 4] {
            let rules = RuleSet::with_options(
                Preset::Pente,
                &[format!("size={size}"), format!("players={players}")],
            )
            .unwrap();
            let g = common::random_game(rules, 12, u64::from(size));
            for theme in Theme::ALL {
                for coordinates in [true, false] {
                    for highlight_last in [true, false] {
                        let opts = RenderOptions {
                            theme,
                            coordinates,
                            highlight_last,
                            forbidden_marks: true,
                            labels: Labels::default(),
                        };
                        let img = decode(&render_png(&g, &names(&["A", "B"]), &opts));
                        let (w, h) = picture_size(&rules, &opts);
                        assert_eq!(img.dimensions(), (w, h), "{size} {players} {opts:?}");
                        assert!((760..=820).contains(&w), "about 800 wide: {w}");
                        assert!(h > w + 80, "a footer band, never square");
                    }
                }
            }
        }
    }
}

#[test]
fn options_change_the_picture() {
    let g = play(RuleSet::preset(Preset::Pente), "K10 L10 K13");
    let n = names(&["Ann", "Bo"]);
    let base = render_png(&g, &n, &RenderOptions::default());
    let variants = [
        RenderOptions {
            theme: Theme::Dark,
            ..RenderOptions::default()
        },
        RenderOptions {
            coordinates: false,
            ..RenderOptions::default()
        },
        RenderOptions {
            highlight_last: false,
            ..RenderOptions::default()
        },
    ];
    for v in variants {
        assert_ne!(render_png(&g, &n, &v), base, "{v:?}");
    }
}

#[test]
fn the_last_move_dot_sits_on_the_last_stone() {
    let rules = RuleSet::with_options(Preset::Gomoku, &["size=9"]).unwrap();
    let g = play(rules, "E5 D4");
    let n = names(&["Ann", "Bo"]);
    let on = decode(&render_png(&g, &n, &RenderOptions::default()));
    let off = decode(&render_png(
        &g,
        &n,
        &RenderOptions {
            highlight_last: false,
            ..RenderOptions::default()
        },
    ));
    let (w, _) = picture_size(&rules, &RenderOptions::default());
    // The only differences are a small spot on the last stone, D4: left of and below E5,
    // the centre of the board.
    let mut changed = Vec::new();
    for (x, y, p) in on.enumerate_pixels() {
        if p != off.get_pixel(x, y) {
            changed.push((x, y));
        }
    }
    assert!(!changed.is_empty());
    let (x0, x1) = (
        changed.iter().map(|p| p.0).min().unwrap(),
        changed.iter().map(|p| p.0).max().unwrap(),
    );
    let (y0, y1) = (
        changed.iter().map(|p| p.1).min().unwrap(),
        changed.iter().map(|p| p.1).max().unwrap(),
    );
    assert!(
        x1 - x0 < w / 18 && y1 - y0 < w / 18,
        "{x0}..{x1} {y0}..{y1}"
    );
    let (cx, cy) = ((x0 + x1) / 2, (y0 + y1) / 2);
    let cell = w / 10;
    assert!(
        cx + cell / 2 < w / 2 && cx + cell * 3 / 2 > w / 2,
        "one column left: {cx}"
    );
    assert!(
        cy > w / 2 + cell / 2 && cy < w / 2 + cell * 3 / 2,
        "one row down: {cy}"
    );
}

#[test]
fn a_tentative_stone_appears_only_where_it_is_playable() {
    let g = play(RuleSet::preset(Preset::Pente), "K10 L10");
    let n = names(&["Ann", "Bo"]);
    let opts = RenderOptions::default();
    let plain = render_png(&g, &n, &opts);
    let free = Point::parse("O15", 19).unwrap();
    assert_ne!(render_png_with_tentative(&g, &n, &opts, free), plain);
    let taken = Point::parse("L10", 19).unwrap();
    assert_eq!(render_png_with_tentative(&g, &n, &opts, taken), plain);
}

#[test]
fn hostile_names_never_break_rendering() {
    let long = "W".repeat(200);
    let zalgo = format!("Z{}", "\u{0336}\u{0301}".repeat(40));
    let hostile = [
        "",
        long.as_str(),
        "😀🎉👨‍👩‍👧‍👦🏳️‍🌈🇫🇮",
        "مرحبا بالعالم 123",
        "שלום (עולם)",
        "bell\u{7}\u{1b}[31mred\r\nnew\u{0}line",
        "\u{202E}reversed\u{202C} \u{200B}\u{FEFF}",
        "漢字テスト한국어",
        zalgo.as_str(),
        "\u{10FFFF}\u{E000}\u{FFFD}",
        "   ",
    ];
    let rules = RuleSet::with_options(Preset::Pente, &["players=4"]).unwrap();
    let g = common::random_game(rules, 20, 5);
    let opts = RenderOptions::default();
    let (w, h) = picture_size(&rules, &opts);
    for pair in hostile.windows(2) {
        for dark in [false, true] {
            let opts = RenderOptions {
                theme: if dark { Theme::Dark } else { Theme::Light },
                ..RenderOptions::default()
            };
            let png = render_png(&g, &names(&[pair[0], pair[1], pair[1], pair[0]]), &opts);
            assert_eq!(decode(&png).dimensions(), (w, h), "{pair:?}");
        }
    }
    // Fewer names than seats: the missing ones get stand-ins.
    assert_eq!(decode(&render_png(&g, &[], &opts)).dimensions(), (w, h));
    // A 200-character name is cut: the picture is the same as for a 300-character one.
    let n200 = render_png(&g, &names(&[&long, "b", "c", "d"]), &opts);
    let n300 = render_png(&g, &names(&[&"W".repeat(300), "b", "c", "d"]), &opts);
    assert_eq!(n200, n300);
}

/// The rows of pixels in which two pictures of the same size differ, as a range.
fn rows_that_differ(a: &image::RgbImage, b: &image::RgbImage) -> Option<(u32, u32)> {
    let mut span: Option<(u32, u32)> = None;
    for (x, y, p) in a.enumerate_pixels() {
        if b.get_pixel(x, y) != p {
            let s = span.get_or_insert((y, y));
            *s = (s.0.min(y), s.1.max(y));
        }
    }
    span
}

/// Names made of any characters, with the ones hostile names are made of more likely.
fn any_name() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let hostile: Vec<char> =
        "\u{0}\n \u{200B}\u{200C}\u{200D}\u{200E}\u{202B}\u{202E}\u{2067}\u{2069}\
        \u{FEFF}\u{0301}\u{0316}\u{0489}\u{20DD}\u{20E3}\u{FE0F}\u{094D}\u{0E34}\u{1F3FD}\
        \u{1F468}\u{1F469}\u{1F1EB}\u{1F1EE}\u{E0067}WgjÅبשकषශกន្က김漢ა\u{FFFD}"
            .chars()
            .collect();
    proptest::collection::vec(
        prop_oneof![any::<char>(), proptest::sample::select(hostile)],
        0..100,
    )
    .prop_map(|v| v.into_iter().collect())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Whatever a player is called, their name changes only their own footer row: never
    /// the board, the other player's row or the status line.
    #[test]
    fn a_name_never_spills_out_of_its_row(name in any_name(), dark in proptest::bool::ANY) {
        let g = play(RuleSet::preset(Preset::Pente), "K10 L10 K13 M12");
        let opts = RenderOptions {
            theme: if dark { Theme::Dark } else { Theme::Light },
            ..RenderOptions::default()
        };
        let other = "Ann Example";
        let base = decode(&render_png(&g, &names(&["", other]), &opts));
        // Where the first player's row is: between a short name and a tall, wide one.
        let (top, bottom) = rows_that_differ(
            &base,
            &decode(&render_png(&g, &names(&["ÅWgj", other]), &opts)),
        )
        .expect("a name is drawn");
        let pic = decode(&render_png(&g, &names(&[&name, other]), &opts));
        if let Some((t, b)) = rows_that_differ(&base, &pic) {
            // The row is 38 pixels high; the reference name's ink is centred in it to a
            // pixel or two.
            let centre = (top + bottom) / 2;
            proptest::prop_assert!(t + 21 >= centre && b <= centre + 21,
                "{name:?} drew rows {t}..={b}, its row is around {centre}");
        }
    }
}

#[test]
fn boards_the_rules_never_make_still_render() {
    for size in [2u8, 5, 7, 19] {
        let mut rules = RuleSet::preset(Preset::Gomoku);
        rules.size = size;
        let mut g = Game::new(rules);
        g.apply(Action::Place(Point::new(0, 0, size).unwrap()))
            .unwrap();
        let opts = RenderOptions::default();
        let img = decode(&render_png(&g, &[], &opts));
        assert_eq!(img.dimensions(), picture_size(&rules, &opts), "{size}");
    }
}

#[test]
fn rendering_from_many_threads_gives_the_same_picture() {
    let g = common::random_game(RuleSet::preset(Preset::Pente), 50, 9);
    let n = names(&["Ann", "Bo"]);
    let opts = RenderOptions::default();
    let want = render_png(&g, &n, &opts);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..4)
            .map(|_| s.spawn(|| render_png(&g, &n, &opts)))
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), want);
        }
    });
}

#[test]
fn labels_are_the_callers_words() {
    let g = play(RuleSet::preset(Preset::Pente), "K10 L10");
    let n = names(&["Ann", "Bo"]);
    let es = RenderOptions {
        labels: Labels {
            move_word: "Jugada".into(),
            to_move: "juega".into(),
            pairs: "parejas".into(),
            ..Labels::default()
        },
        ..RenderOptions::default()
    };
    assert_ne!(
        render_png(&g, &n, &es),
        render_png(&g, &n, &RenderOptions::default())
    );
}

fn gif_frames(gif: &[u8]) -> Vec<image::Frame> {
    let dec = image::codecs::gif::GifDecoder::new(std::io::Cursor::new(gif)).expect("GIF header");
    dec.into_frames()
        .collect_frames()
        .expect("every frame decodes")
}

#[test]
fn the_replay_has_a_frame_per_action_and_holds_the_end() {
    // The last move captures a pair.
    let g = play(RuleSet::preset(Preset::Pente), "K10 L10 K13 M10 N10");
    let n = names(&["Ann", "Bo"]);
    let opts = RenderOptions::default();
    let gif = render_replay_gif(g.rules(), g.record(), &n, &opts).unwrap();
    let frames = gif_frames(&gif);
    assert_eq!(
        frames.len(),
        g.record().len() + 1,
        "the empty board, then each action"
    );
    let (w, h) = picture_size(g.rules(), &opts);
    assert_eq!(frames[0].buffer().dimensions(), (w, h));
    let (num, den) = frames.last().unwrap().delay().numer_denom_ms();
    assert_eq!(num / den, u32::from(REPLAY_HOLD) * 10);
    let (num, den) = frames[1].delay().numer_denom_ms();
    assert!(num / den < u32::from(REPLAY_HOLD) * 10);
    // The final frame shows the final position: it matches the PNG closely.
    let last = frames.last().unwrap().buffer();
    let png = decode(&render_png(&g, &n, &opts));
    let same = last
        .pixels()
        .zip(png.pixels())
        .filter(|(a, b)| a.0[..3] == b.0[..3])
        .count();
    assert!(same * 100 >= (w * h) as usize * 99, "{same}");
}

#[test]
fn a_long_game_replay_stays_under_8_mb() {
    let g = common::random_game(RuleSet::preset(Preset::Pente), 400, 11);
    assert!(g.record().len() > 300, "{}", g.record().len());
    let gif = render_replay_gif(
        g.rules(),
        g.record(),
        &names(&["Ann", "Bo"]),
        &RenderOptions::default(),
    )
    .unwrap();
    assert!(gif.len() < 8 * 1024 * 1024, "{} bytes", gif.len());
    // Decoding every frame of a long game is slow in debug builds; the header and the
    // frame count are enough here.
    let mut dec = gif::DecodeOptions::new();
    dec.set_color_output(gif::ColorOutput::Indexed);
    let mut reader = dec.read_info(std::io::Cursor::new(&gif)).unwrap();
    let mut count = 0;
    while reader.next_frame_info().unwrap().is_some() {
        count += 1;
    }
    assert_eq!(count, g.record().len() + 1);
}

#[test]
fn a_refused_action_is_reported_not_drawn() {
    let rules = RuleSet::preset(Preset::Pente);
    let k10 = Point::parse("K10", 19).unwrap();
    let actions = [Action::Place(k10), Action::Place(k10)];
    match render_replay_gif(&rules, &actions, &[], &RenderOptions::default()) {
        Err(RenderError::Refused { index: 1, .. }) => {}
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_palette_png_of_a_busy_board_is_small() {
    let g = common::random_game(RuleSet::preset(Preset::Pente), 100, 7);
    let png = render_png(&g, &names(&["Ann", "Bo"]), &RenderOptions::default());
    assert!(png.len() <= 80 * 1024, "{} bytes", png.len());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(12))]

    /// Any reachable position with any options renders a PNG of the announced size.
    #[test]
    fn any_position_renders_at_the_announced_size(
        seed in 0u64..1000,
        size in proptest::sample::select(vec![9u8, 13, 15, 19]),
        players in 2u8..=4,
        stones in 0usize..60,
        dark: bool,
        coordinates: bool,
        highlight_last: bool,
        name in ".{0,40}",
    ) {
        let rules = RuleSet::with_options(
            Preset::Keryo,
            &[format!("size={size}"), format!("players={players}")],
        )
        .unwrap();
        let g = common::random_game(rules, stones, seed);
        let opts = RenderOptions {
            theme: if dark { Theme::Dark } else { Theme::Light },
            coordinates,
            highlight_last,
            forbidden_marks: true,
            labels: Labels::default(),
        };
        let png = render_png(&g, &[name.clone(), name], &opts);
        proptest::prop_assert_eq!(decode(&png).dimensions(), picture_size(&rules, &opts));
    }
}

/// Width, height, palette and indices of a palette PNG, as stored.
fn decode_indexed(png: &[u8]) -> (u32, u32, Vec<u8>, Vec<u8>) {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
    decoder.set_transformations(png::Transformations::IDENTITY);
    let mut reader = decoder.read_info().expect("the PNG decodes");
    let palette = reader
        .info()
        .palette
        .as_deref()
        .expect("a palette")
        .to_vec();
    let mut idx = vec![0; reader.output_buffer_size().expect("a sane size")];
    let frame = reader.next_frame(&mut idx).expect("the image data decodes");
    idx.truncate(frame.buffer_size());
    (frame.width, frame.height, palette, idx)
}

/// Checks a board PNG against the picture drawn for it: same size, palette and indices.
fn assert_holds(png: &[u8], drawn: &render::DrawnPicture) {
    let (w, h, palette, idx) = decode_indexed(png);
    assert_eq!((w, h), drawn.dimensions());
    assert_eq!(palette, drawn.palette());
    assert!(
        idx == drawn.indices(),
        "the PNG's pixels differ from the drawing"
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(10))]

    /// The banded, cached encoding stores exactly the drawn pixels, and the file does not
    /// depend on what the cache held.
    #[test]
    fn board_pngs_hold_exactly_the_drawn_pixels(
        seed in 0u64..10_000,
        size in proptest::sample::select(vec![9u8, 13, 15, 19]),
        preset in proptest::sample::select(vec![Preset::Pente, Preset::Gomoku, Preset::Keryo]),
        stones in 0usize..150,
        dark: bool,
        coordinates: bool,
        highlight_last: bool,
    ) {
        let rules = RuleSet::with_options(preset, &[format!("size={size}")]).unwrap();
        let g = common::random_game(rules, stones, seed);
        let opts = RenderOptions {
            theme: if dark { Theme::Dark } else { Theme::Light },
            coordinates,
            highlight_last,
            forbidden_marks: true,
            labels: Labels::default(),
        };
        let n = names(&["Ann", "Bo"]);
        let drawn = render::draw_picture(&g, &n, &opts);
        let png = render_png(&g, &n, &opts);
        assert_holds(&png, &drawn);
        proptest::prop_assert!(drawn.encode_cold() == png, "cold and cached files differ");
    }
}

#[test]
fn encoding_a_picture_again_reuses_its_bands_and_gives_the_same_file() {
    let g = common::random_game(RuleSet::preset(Preset::Pente), 80, 3);
    let n = names(&["Ann", "Bo"]);
    let opts = RenderOptions::default();
    let drawn = render::draw_picture(&g, &n, &opts);
    let first = drawn.encode();
    let hits = render::png_cache_stats().hits;
    let second = drawn.encode();
    // 26 bands: margins, 19 rows of points, the footer's top, 3 rows and bottom.
    assert!(render::png_cache_stats().hits >= hits + 26);
    assert_eq!(first, second);
    assert_eq!(second, drawn.encode_cold());
    assert_holds(&second, &drawn);
    let stats = render::png_cache_stats();
    assert!(stats.entries > 0 && stats.bytes > 0, "{stats:?}");
    assert!(stats.bytes <= 16 << 20, "{stats:?}");
}

#[test]
fn threads_rendering_at_once_get_the_files_a_cold_encoding_gives() {
    // Each thread follows its own game move by move, as the bot does for many games at once,
    // so every picture reuses the bands of the one before and of the other games.
    std::thread::scope(|s| {
        for t in 0..4u64 {
            s.spawn(move || {
                let full = common::random_game(RuleSet::preset(Preset::Pente), 40, 100 + t);
                let n = names(&["Ann", "Bo"]);
                let opts = RenderOptions {
                    theme: if t % 2 == 0 {
                        Theme::Light
                    } else {
                        Theme::Dark
                    },
                    ..RenderOptions::default()
                };
                for ply in (0..=full.record().len()).step_by(3) {
                    let rules = *full.rules();
                    let g = Game::from_record(rules, &full.record()[..ply]).unwrap();
                    let drawn = render::draw_picture(&g, &n, &opts);
                    let png = render_png(&g, &n, &opts);
                    assert!(png == drawn.encode_cold(), "thread {t}, ply {ply}");
                    if ply % 12 == 0 {
                        assert_holds(&png, &drawn);
                    }
                }
            });
        }
    });
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gomoku-bot"))
}

#[test]
fn the_render_command_writes_a_png_and_a_gif() {
    let dir = std::env::temp_dir().join(format!("gomoku-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (png, gif) = (dir.join("b.png"), dir.join("b.gif"));
    let out = bin()
        .args([
            "render",
            "--rules",
            "pente",
            "--set",
            "size=13",
            "--moves",
            "G7 H7 G10",
        ])
        .args([
            "--theme",
            "dark",
            "--no-coordinates",
            "--names",
            "Ann,Bo",
            "--out",
        ])
        .arg(&png)
        .arg("--replay")
        .arg(&gif)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let img = decode(&std::fs::read(&png).unwrap());
    let rules = RuleSet::with_options(Preset::Pente, &["size=13"]).unwrap();
    let opts = RenderOptions {
        coordinates: false,
        ..RenderOptions::default()
    };
    assert_eq!(img.dimensions(), picture_size(&rules, &opts));
    assert_eq!(gif_frames(&std::fs::read(&gif).unwrap()).len(), 4);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_render_command_refuses_bad_usage_and_bad_moves() {
    let usage: [&[&str]; 6] = [
        &["render", "--rules", "pente", "--moves", "K10"],
        &["render", "--moves", "K10", "--out", "x.png"],
        &[
            "render", "--rules", "pente", "--colour", "red", "--out", "x.png",
        ],
        &["render", "--rules", "chess", "--out", "x.png"],
        &[
            "render", "--rules", "pente", "--theme", "pink", "--out", "x.png",
        ],
        &[
            "render", "--rules", "pente", "--set", "size=7", "--out", "x.png",
        ],
    ];
    for args in usage {
        let out = bin().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
    let out = bin()
        .args(["render", "--rules", "pente", "--moves", "K10 K10", "--out"])
        .arg(std::env::temp_dir().join("never-written.png"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("K10") && err.contains('2'), "{err}");
}

#[test]
fn render_is_reexported_for_the_discord_layer() {
    // The module's public surface used by other layers.
    let _ = render::Theme::Light;
    assert_eq!("dark".parse::<Theme>().unwrap(), Theme::Dark);
    assert!("sepia".parse::<Theme>().is_err());
}

fn standings_table(rows: usize, names: &[&str]) -> StandingsTable {
    StandingsTable {
        title: "Spring Open 2026 — Swiss".into(),
        subtitle: "After round 3 of 5".into(),
        headings: ["#", "Player", "Points", "Buchholz", "SB", "Games"]
            .map(String::from)
            .to_vec(),
        rows: (0..rows)
            .map(|i| StandingsRow {
                rank: if i == 2 || i == 3 {
                    "=3".into()
                } else {
                    (i + 1).to_string()
                },
                name: names[i % names.len()].to_string(),
                cells: vec![
                    format!("{}½", 3 - i.min(8) / 3),
                    format!("{}", 9 - i.min(8)),
                    format!("{}¼", 6 - i.min(5)),
                    "3".into(),
                ],
                winner: false,
                withdrawn: i == 5,
            })
            .collect(),
    }
}

#[test]
fn golden_standings_light_and_dark() {
    let names = [
        "Ann",
        "Bo Lindqvist",
        "Ça va · Ünïcödé",
        "李小龍",
        "\u{202E}evil\u{0000}name",
        "A name far too long to fit in the player column of the standings table at all",
        "مرحبا 42",
        "Z\u{0301}\u{0301}\u{0301}\u{0301}algo",
    ];
    let light = render_standings_png(&standings_table(10, &names), Theme::Light);
    check_golden("standings-light", &light);
    let mut final_table = standings_table(8, &names);
    final_table.subtitle = "Final standings".into();
    final_table.rows[0].winner = true;
    check_golden(
        "standings-dark",
        &render_standings_png(&final_table, Theme::Dark),
    );
}

#[test]
fn a_standings_table_of_64_players_is_tall_and_small() {
    let png = render_standings_png(&standings_table(64, &["Player"]), Theme::Light);
    let img = decode(&png);
    assert_eq!((img.width(), img.height()), (800, 74 + 34 + 64 * 30 + 12));
    assert!(png.len() < 200_000, "{} bytes", png.len());
}

/// A review's chart: a fixed curve (not the engine's, so that engine changes leave it alone)
/// with a mistake, a blunder and labelled turning points, in both themes.
#[test]
fn golden_review_charts() {
    let chances: Vec<f64> = (0..=61)
        .map(|k| {
            let k = f64::from(k);
            match k {
                k if k < 20.0 => 0.5 + 0.1 * (k / 3.0).sin(),
                k if k < 23.0 => 0.64,
                k if k < 40.0 => 0.21 + 0.004 * (k - 23.0),
                k if k < 41.0 => 0.78,
                _ => 0.85 + 0.15 * (k - 41.0) / 20.0,
            }
        })
        .collect();
    let chart = Chart {
        title: "Black's chance of winning".into(),
        move_word: "Move".into(),
        chances,
        marks: vec![
            ChartMark {
                ply: 23,
                kind: MarkKind::Blunder,
                labelled: true,
            },
            ChartMark {
                ply: 31,
                kind: MarkKind::Mistake,
                labelled: false,
            },
            ChartMark {
                ply: 40,
                kind: MarkKind::Blunder,
                labelled: true,
            },
            ChartMark {
                ply: 61,
                kind: MarkKind::Mistake,
                labelled: true,
            },
        ],
    };
    check_golden(
        "review-chart-light",
        &render_chart_png(&chart, Theme::Light),
    );
    let short = Chart {
        title: "Mustan voittomahdollisuus".into(),
        move_word: "Siirto".into(),
        chances: vec![0.5, 0.55, 0.3, 0.3, 1.0],
        marks: vec![ChartMark {
            ply: 2,
            kind: MarkKind::Mistake,
            labelled: true,
        }],
    };
    check_golden("review-chart-dark", &render_chart_png(&short, Theme::Dark));
}

/// A turning point's picture: the move played, and the better point as a translucent stone
/// of the mover's colour; an occupied point is not drawn over.
#[test]
fn golden_review_alternative_stone() {
    let g = play(RuleSet::preset(Preset::Gomoku), "H8 A1 J8 A2 K8 A3");
    let png = render_png_with_alternative(
        &g,
        &names(&["Ann", "Bo"]),
        &RenderOptions::default(),
        Point::parse("G8", 15).unwrap(),
        2,
    );
    check_golden("review-alternative", &png);
    let plain = render_png(&g, &names(&["Ann", "Bo"]), &RenderOptions::default());
    assert_ne!(decode(&png), decode(&plain));
    let occupied = render_png_with_alternative(
        &g,
        &names(&["Ann", "Bo"]),
        &RenderOptions::default(),
        Point::parse("H8", 15).unwrap(),
        2,
    );
    assert_eq!(decode(&occupied), decode(&plain));
}

/// Every picture that shows names (the board, the replay, a review's boards, the standings
/// and the review chart's title) cleans them on the same text path: invisible characters
/// and a right-to-left override change none of them, and the replay's last frame draws the
/// names in other scripts exactly as the board does.
#[test]
fn every_picture_with_names_cleans_and_draws_them_alike() {
    let hostile = "\u{202E}Ann\u{200B}\u{2066} \u{FEFF}Lee\u{202C}";
    let clean = "Ann Lee";
    let g = play(RuleSet::preset(Preset::Pente), "K10 L10 K13 M10 N10");
    let opts = RenderOptions::default();
    let both = |a: &str| names(&[a, "Bo"]);
    assert_eq!(
        render_png(&g, &both(hostile), &opts),
        render_png(&g, &both(clean), &opts)
    );
    let at = Point::parse("G8", 19).unwrap();
    assert_eq!(
        render_png_with_alternative(&g, &both(hostile), &opts, at, 1),
        render_png_with_alternative(&g, &both(clean), &opts, at, 1)
    );
    assert_eq!(
        render_replay_gif(g.rules(), g.record(), &both(hostile), &opts).unwrap(),
        render_replay_gif(g.rules(), g.record(), &both(clean), &opts).unwrap()
    );
    assert_eq!(
        render_standings_png(&standings_table(3, &[hostile, "Bo"]), Theme::Light),
        render_standings_png(&standings_table(3, &[clean, "Bo"]), Theme::Light)
    );
    let chart = |title: &str| Chart {
        title: title.into(),
        move_word: "Move".into(),
        chances: vec![0.5, 0.6, 0.4],
        marks: Vec::new(),
    };
    assert_eq!(
        render_chart_png(&chart(hostile), Theme::Dark),
        render_chart_png(&chart(clean), Theme::Dark)
    );

    // The replay's footer is the board's footer, names in other scripts included.
    let scripts = names(&["राहुल शर्मा 🐉", "محمد علي 👨‍👩‍👧"]);
    let frames = gif_frames(&render_replay_gif(g.rules(), g.record(), &scripts, &opts).unwrap());
    let last = frames.last().expect("frames").buffer().clone();
    let png = decode(&render_png(&g, &scripts, &opts));
    let ascii = decode(&render_png(&g, &both(clean), &opts));
    let (w, h) = png.dimensions();
    let board_side = w; // the footer starts below the square board
    let (mut same, mut drawn) = (0, 0);
    for y in board_side..h {
        for x in 0..w {
            let p = png.get_pixel(x, y).0;
            same += usize::from(last.get_pixel(x, y).0[..3] == p);
            drawn += usize::from(ascii.get_pixel(x, y).0 != p);
        }
    }
    let footer = (w * (h - board_side)) as usize;
    assert!(
        same * 1000 >= footer * 998,
        "{same} of {footer} footer pixels alike"
    );
    assert!(
        drawn > 500,
        "the names in other scripts are drawn: {drawn} pixels"
    );
}
