//! Incremental pictures against full redraws.

use proptest::prelude::*;

use super::*;
use crate::render::{Labels, picture, scene, to_png};
use crate::rules::{Action, Game, Point, Preset, RuleSet};

/// The incremental file and the full redraw's (every band deflated, no cache) for a game.
fn both(
    pictures: &PictureCache,
    series: u64,
    game: &Game,
    names: &[String],
    opts: &RenderOptions,
) -> (Vec<u8>, Vec<u8>, Drawn) {
    let (png, drawn) = render(pictures, series, &scene(game, names, opts, None), opts);
    let full = to_png(&picture(game, names, opts, None), opts.theme, None);
    (png, full, drawn)
}

/// A legal placement near the stones already down (or the centre), from `r`.
fn some_move(game: &Game, r: u64) -> Option<Action> {
    let size = game.size();
    let stones = game.stones();
    for k in 0..200u64 {
        let x = r.wrapping_add(k).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let (col, row) = match stones.get((x >> 8) as usize % stones.len().max(1)) {
            Some(&(p, _)) => (
                i16::from(p.col()) + (x >> 20) as i16 % 5 - 2,
                i16::from(p.row()) + (x >> 30) as i16 % 5 - 2,
            ),
            None => (i16::from(size / 2), i16::from(size / 2)),
        };
        let Ok(p) = Point::new(col.max(0) as u8, row.max(0) as u8, size) else {
            continue;
        };
        let a = Action::Place(p);
        if game.is_legal(a) {
            return Some(a);
        }
    }
    None
}

fn rules_of(k: u8) -> RuleSet {
    match k % 6 {
        0 => RuleSet::preset(Preset::Pente),
        1 => RuleSet::preset(Preset::Gomoku),
        2 => RuleSet::from_spec("renju opening=none").expect("a valid spec"),
        3 => RuleSet::with_options(Preset::Pente, &["extra_time_capture=on"]).expect("valid"),
        4 => RuleSet::from_spec("gomoku size=9").expect("a valid spec"),
        _ => RuleSet::from_spec("gomoku players=3").expect("a valid spec"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(16))]

    /// Over random games with take-backs, captures, wins and changes of theme, options and
    /// names, every incremental picture is byte for byte the full redraw.
    #[test]
    fn incremental_pictures_are_the_full_redraws(
        rules in 0u8..6,
        steps in proptest::collection::vec((0u8..20, any::<u64>()), 1..50),
    ) {
        let pictures = PictureCache::new(64 << 20);
        let mut game = Game::new(rules_of(rules));
        let mut opts = RenderOptions::default();
        let mut names = vec!["Ann".to_string(), "Bo".to_string()];
        for (op, r) in steps {
            match op {
                // Take-backs, one or two plies.
                0 | 1 => {
                    for _ in 0..=op {
                        game.undo();
                    }
                }
                2 => opts.theme = if r % 2 == 0 { Theme::Dark } else { Theme::Light },
                3 => opts.highlight_last = !opts.highlight_last,
                4 => opts.coordinates = !opts.coordinates,
                5 => opts.forbidden_marks = !opts.forbidden_marks,
                6 => names[(r % 2) as usize] = format!("P{}", r % 1000),
                7 => opts.labels = Labels { to_move: format!("plays {}", r % 7), ..Labels::default() },
                // Mostly moves; a game that ended is taken back first.
                _ => {
                    if game.is_over() {
                        game.undo();
                    }
                    if let Some(a) = some_move(&game, r) {
                        game.apply(a).expect("a legal move");
                    }
                }
            }
            // One series whatever the options: a changed shape must be drawn in full.
            let (png, full, _) = both(&pictures, 7, &game, &names, &opts);
            prop_assert!(png == full, "incremental picture differs after op {op} ({})", game.record().len());
        }
    }
}

#[test]
fn a_move_repaints_a_few_cells_and_rehashes_a_few_bands() {
    let pictures = PictureCache::new(64 << 20);
    let names = vec!["Ann".to_string(), "Bo".to_string()];
    let opts = RenderOptions::default();
    let mut game = Game::new(RuleSet::preset(Preset::Gomoku));
    let mut last = None;
    for r in 0..30u64 {
        let a = some_move(&game, r * 7919).expect("room for a move");
        game.apply(a).expect("a legal move");
        if game.is_over() {
            game.undo();
            continue;
        }
        let (png, full, drawn) = both(&pictures, 1, &game, &names, &opts);
        assert_eq!(png, full);
        if r == 0 {
            assert!(drawn.full, "the first picture is drawn in full");
        } else {
            // The new stone and the stone that lost its dot; the footer's five bands and
            // the board's bands of two rows of points (and those below them).
            assert!(!drawn.full);
            assert!(drawn.cells <= 2, "{drawn:?}");
            assert!(drawn.bands <= 5 + 4, "{drawn:?}");
        }
        last = Some(drawn);
    }
    assert!(last.is_some());
    // The same position again: nothing to repaint.
    let (_, _, drawn) = both(&pictures, 1, &game, &names, &opts);
    assert_eq!(drawn, Drawn::default());
}

#[test]
fn the_cache_keeps_its_budget_and_drops_the_least_recently_used() {
    let names = vec!["Ann".to_string(), "Bo".to_string()];
    let opts = RenderOptions::default();
    let game = Game::new(RuleSet::preset(Preset::Gomoku));
    let one = render(
        &PictureCache::new(64 << 20),
        0,
        &scene(&game, &names, &opts, None),
        &opts,
    );
    assert!(one.1.full);
    let probe = PictureCache::new(64 << 20);
    render(&probe, 0, &scene(&game, &names, &opts, None), &opts);
    let cost = probe.len_and_bytes().1;
    // Room for three pictures.
    let pictures = PictureCache::new(3 * cost + cost / 2);
    for series in 0..3 {
        render(&pictures, series, &scene(&game, &names, &opts, None), &opts);
    }
    // Series 0 is used again, so series 1 is the least recently used when 3 comes.
    assert!(
        !render(&pictures, 0, &scene(&game, &names, &opts, None), &opts)
            .1
            .full
    );
    render(&pictures, 3, &scene(&game, &names, &opts, None), &opts);
    assert_eq!(pictures.len_and_bytes(), (3, 3 * cost));
    assert!(
        !render(&pictures, 0, &scene(&game, &names, &opts, None), &opts)
            .1
            .full
    );
    assert!(
        render(&pictures, 1, &scene(&game, &names, &opts, None), &opts)
            .1
            .full
    );
    pictures.clear();
    assert_eq!(pictures.len_and_bytes(), (0, 0));
}

#[test]
fn series_tell_names_and_options_apart() {
    let opts = RenderOptions::default();
    let dark = RenderOptions {
        theme: Theme::Dark,
        ..RenderOptions::default()
    };
    let ab = ["A".to_string(), "B".to_string()];
    let ac = ["A".to_string(), "C".to_string()];
    assert_eq!(series(&ab, &opts, 15, 3), series(&ab, &opts, 15, 3));
    assert_ne!(series(&ab, &opts, 15, 3), series(&ac, &opts, 15, 3));
    assert_ne!(series(&ab, &opts, 15, 3), series(&ab, &dark, 15, 3));
    assert_ne!(series(&ab, &opts, 15, 3), series(&ab, &opts, 19, 3));
}

#[test]
fn a_line_that_changes_over_the_same_cells_is_repainted() {
    let pictures = PictureCache::new(64 << 20);
    let names = vec!["Ann".to_string(), "Bo".to_string()];
    let opts = RenderOptions::default();
    let mut game = Game::new(RuleSet::preset(Preset::Gomoku));
    for t in "H8 H9 J8 J9 K8".split(' ') {
        game.apply_token(t).expect("a legal move");
    }
    let p = |t: &str| Point::parse(t, 15).expect("a point");
    let mut base = scene(&game, &names, &opts, None);
    // The same cells crossed, solid then dashed: only the lines differ.
    for dashed in [false, true, false] {
        base.lines = vec![LineMark {
            from: p("H8"),
            to: p("K8"),
            dashed,
        }];
        let (png, drawn) = render(&pictures, 3, &base, &opts);
        let full = to_png(
            &crate::render::draw(&base, base.rows.len(), &opts),
            opts.theme,
            None,
        );
        assert!(png == full, "dashed {dashed}: {drawn:?}");
    }
}
