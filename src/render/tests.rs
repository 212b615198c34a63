//! Unit tests of the renderer's internals.

use super::cache::{background, star_points, theme_assets};
use super::compose::compose_rgb;
use super::*;
use crate::rules::{Preset, RuleSet};

fn busy_game() -> Game {
    let mut game =
        Game::new(RuleSet::with_options(Preset::Pente, &["extra_time_capture=on"]).unwrap());
    for t in "K10 M12 O10 A1 L10 A3 M11 A5 N10 A7 M10".split(' ') {
        game.apply_token(t).unwrap();
    }
    assert!(game.threatened_line().is_some());
    game
}

/// Checks that the palette path draws `scene` as the plain RGB drawing does.
fn assert_fast_path_matches(scene: &Scene, theme: Theme) {
    let opts = RenderOptions {
        theme,
        ..RenderOptions::default()
    };
    let fast = draw(scene, scene.rows.len(), &opts);
    let layout = Layout::new(scene.size, true, scene.rows.len() as u32);
    let bg = background(scene.size, theme, true);
    let assets = theme_assets(theme);
    let rgb = compose_rgb(scene, &layout, &bg, &assets.icons, theme.colours());
    assert_eq!(rgb.len(), fast.idx.len() * 3);
    let mut far = 0;
    for (i, &v) in fast.idx.iter().enumerate() {
        let want = &rgb.as_raw()[i * 3..i * 3 + 3];
        let got = assets.quant.colour(v);
        if want.iter().zip(got).any(|(a, b)| a.abs_diff(b) > 40) {
            far += 1;
        }
    }
    // Only footer glyph pixels blended twice through the palette may stray a little.
    assert!(
        far * 1000 < fast.idx.len(),
        "{theme:?}: {far} pixels far apart"
    );
}

#[test]
fn the_fast_palette_path_matches_the_plain_rgb_drawing() {
    for theme in Theme::ALL {
        let game = busy_game();
        let scene = Scene::of_game(
            &game,
            &["Ann".into(), "漢字".into()],
            &Labels::default(),
            true,
            None,
        );
        assert_fast_path_matches(&scene, theme);
    }
}

/// Renju, black to move: H8 is a double three.
fn renju_double_three() -> Game {
    let mut game = Game::new(RuleSet::from_spec("renju opening=none").unwrap());
    for t in "F8 A15 G8 C15 H9 E15 H10 G15".split(' ') {
        game.apply_token(t).unwrap();
    }
    game
}

/// Taraguchi-10 with ten fifth moves offered.
fn renju_offer() -> Game {
    let mut game = Game::new(RuleSet::preset(Preset::Renju));
    for t in "H8 keep H9 keep J8 keep H10 offer:G7,J10,K9,G10,J7,K7,G9,K8,J9,G8".split(' ') {
        game.apply_token(t).unwrap();
    }
    game
}

#[test]
fn marks_follow_the_position_and_the_option() {
    let game = renju_double_three();
    let h8 = Point::parse("H8", 15).unwrap();
    let on = scene(&game, &[], &RenderOptions::default(), None);
    assert_eq!(on.marks, vec![(h8, marks::Mark::Forbidden)]);
    let off = RenderOptions {
        forbidden_marks: false,
        ..RenderOptions::default()
    };
    assert!(scene(&game, &[], &off, None).marks.is_empty());
    // A tentative stone on the forbidden point replaces its cross.
    let t = scene(&game, &[], &RenderOptions::default(), Some(h8));
    assert!(t.marks.is_empty());

    let game = renju_offer();
    let s = scene(&game, &[], &RenderOptions::default(), None);
    let numbers: Vec<(Point, marks::Mark)> = game
        .offered()
        .iter()
        .enumerate()
        .map(|(k, &p)| (p, marks::Mark::Number(k as u8 + 1)))
        .collect();
    assert_eq!(s.marks, numbers, "numbered in the order of the offer");
    for &p in game.offered() {
        assert!(s.stones.contains(&(p, 1, paint::Look::Tentative)));
    }
    // White to move in the selection: no forbidden points to mark, whatever the option.
    assert!(s.marks.iter().all(|m| m.1 != marks::Mark::Forbidden));
}

#[test]
fn marked_cells_match_the_plain_rgb_drawing_too() {
    for theme in Theme::ALL {
        for game in [renju_double_three(), renju_offer()] {
            let s = scene(
                &game,
                &["Ann".into(), "Bo".into()],
                &RenderOptions::default(),
                None,
            );
            assert!(!s.marks.is_empty());
            assert_fast_path_matches(&s, theme);
        }
    }
}

#[test]
fn the_palette_keeps_the_theme_colours_close() {
    for theme in Theme::ALL {
        let q = &theme_assets(theme).quant;
        assert_eq!(q.palette.len(), cache::PALETTE_LEN * 3);
        let c = theme.colours();
        let mut key = vec![c.wood, c.grid, c.footer, c.text, c.line_core, c.cross];
        key.extend(c.stones.iter().map(|s| s.body));
        for colour in key {
            let got = q.colour(q.index_of(colour));
            let err: u32 = colour
                .iter()
                .zip(got)
                .map(|(a, b)| u32::from(a.abs_diff(b)))
                .sum();
            assert!(err <= 36, "{theme:?}: {colour:?} drawn as {got:?}");
        }
    }
}

#[test]
fn star_points_follow_the_usual_boards() {
    assert_eq!(star_points(19).len(), 9);
    assert_eq!(star_points(15).len(), 5);
    assert_eq!(star_points(13).len(), 5);
    assert_eq!(star_points(9).len(), 5);
    assert!(star_points(9).contains(&(2, 2)));
    assert!(star_points(19).contains(&(3, 9)));
}

#[test]
fn a_swap_names_the_seat_that_plays_each_colour() {
    let rules = RuleSet::with_options(Preset::Pente, &["opening=swap"]).unwrap();
    let mut game = Game::new(rules);
    for t in ["K10", "L10", "K12", "L12", "take:1"] {
        game.apply_token(t).unwrap();
    }
    assert_eq!(game.seat_of_colour(1), 2);
    let names = ["Ann".to_string(), "Bo".to_string()];
    let scene = Scene::of_game(&game, &names, &Labels::default(), true, None);
    assert_eq!(scene.rows[0].name, "Bo", "colour 1 is played by seat 2");
    assert_eq!(scene.rows[1].name, "Ann");
}

#[test]
fn captures_are_counted_in_pairs_or_stones() {
    let mut pente = Game::new(RuleSet::preset(Preset::Pente));
    for t in "K10 L10 K13 M10 N10".split(' ') {
        pente.apply_token(t).unwrap();
    }
    let scene = Scene::of_game(&pente, &[], &Labels::default(), true, None);
    assert_eq!(scene.rows[0].captured.as_deref(), Some("1/5 pairs"));
    assert_eq!(scene.rows[0].name, "Player 1");
    assert!(scene.rows[0].placeholder);
    let ghosts = scene
        .stones
        .iter()
        .filter(|s| s.2 == paint::Look::Ghost)
        .count();
    assert_eq!(ghosts, 2);
    let keryo = Game::new(RuleSet::preset(Preset::Keryo));
    let scene = Scene::of_game(&keryo, &[], &Labels::default(), true, None);
    assert_eq!(scene.rows[0].captured.as_deref(), Some("0/15 stones"));
    let gomoku = Game::new(RuleSet::preset(Preset::Gomoku));
    let scene = Scene::of_game(&gomoku, &[], &Labels::default(), true, None);
    assert_eq!(scene.rows[0].captured, None);
}

/// The footer's words, stones as `●1`, `●2`.
fn footer(game: &Game) -> String {
    let scene = Scene::of_game(game, &[], &Labels::default(), true, None);
    scene
        .status
        .iter()
        .map(|p| match p {
            scene::Part::Text(t, _) => t.clone(),
            scene::Part::Stone(c) => format!("●{c}"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_footer_names_the_next_move_or_counts_the_moves_played() {
    let mut game = Game::new(RuleSet::preset(Preset::Gomoku));
    assert_eq!(footer(&game), "Move 1 · ●1 to play");
    game.apply_token("H8").unwrap();
    assert_eq!(footer(&game), "Move 2 · ●2 to play");
    for t in "A1 J8 A2 K8 A3 L8 A4".split(' ') {
        game.apply_token(t).unwrap();
    }
    assert_eq!(
        footer(&game),
        "Move 9 · ●1 to play",
        "8 played, the 9th next"
    );
    game.apply_token("M8").unwrap();
    assert_eq!(footer(&game), "9 moves · ●1 wins");
    // A colour choice is no move: the count of those played.
    let mut swap = Game::new(RuleSet::with_options(Preset::Pente, &["opening=swap"]).unwrap());
    for t in ["K10", "L10", "K12", "L12"] {
        if matches!(swap.phase(), crate::rules::Phase::Choosing { .. }) {
            break;
        }
        swap.apply_token(t).unwrap();
    }
    assert!(matches!(swap.phase(), crate::rules::Phase::Choosing { .. }));
    let placed = swap.stones_placed();
    assert_eq!(footer(&swap), format!("{placed} moves · choosing colours"));
}
