//! Renju pictures: black's forbidden points marked with a small red cross while black is to
//! move (and only then, and only when asked), and the offered fifth moves of the tournament
//! openings as numbered translucent stones.

use super::*;

/// A Renju position, black to move, where H8 is a double three, G3 an overline and L9 a
/// double four; white's stones sit far away on the edges.
pub(crate) fn forbidden_position() -> Game {
    let black = "F8 G8 H9 H10 D3 E3 F3 H3 J3 L10 L11 L12 M9 N9 O9";
    let white = "A15 C15 E15 G15 J15 L15 N15 P15 A13 A11 P13 P11 B1 D1 N1";
    let moves: Vec<&str> = black
        .split_whitespace()
        .zip(white.split_whitespace())
        .flat_map(|(b, w)| [b, w])
        .collect();
    let g = play(
        RuleSet::from_spec("renju opening=none").unwrap(),
        &moves.join(" "),
    );
    assert_eq!(g.to_move(), 1);
    let forbidden: Vec<String> = g.forbidden_points().iter().map(|p| p.name()).collect();
    for p in ["H8", "G3", "L9"] {
        assert!(forbidden.contains(&p.to_string()), "{p}: {forbidden:?}");
    }
    g
}

/// Taraguchi-10 after move 4: black offered ten fifth moves, white chooses one.
pub(crate) fn offered_position() -> Game {
    let g = play(
        RuleSet::preset(Preset::Renju),
        "H8 keep H9 keep J8 keep H10 offer:G7,J10,K9,G10,J7,K7,G9,K8,J9,G8",
    );
    assert_eq!(g.offered().len(), 10);
    g
}

fn at(g: &Game, name: &str) -> Point {
    Point::parse(name, g.size()).unwrap()
}

/// The pixel at a point's centre shifted by `(dx, dy)` cells.
fn pixel(
    img: &image::RgbImage,
    g: &Game,
    opts: &RenderOptions,
    p: Point,
    dx: f32,
    dy: f32,
) -> [u8; 3] {
    let (w, _) = picture_size(g.rules(), opts);
    let n = u32::from(g.size());
    // The board part is square: `n` cells plus a margin on each side, as in the layout.
    let cell = if opts.coordinates {
        (800 - 64) / n
    } else {
        (800 - 20) / n
    };
    let pad = (w - (n - 1) * cell) / 2;
    let x = pad as f32 + (f32::from(p.col()) + dx) * cell as f32;
    let y = pad as f32 + (f32::from(g.size() - 1 - p.row()) + dy) * cell as f32;
    img.get_pixel(x as u32, y as u32).0
}

fn reddish(c: [u8; 3]) -> bool {
    c[0] > 120 && c[1] < 80 && c[2] < 80
}

#[test]
fn golden_renju_forbidden_points() {
    let g = forbidden_position();
    check_golden(
        "renju-forbidden",
        &render_png(&g, &names(&["Ann", "Bo"]), &RenderOptions::default()),
    );
}

#[test]
fn golden_renju_offered_fifth_moves_dark() {
    let g = offered_position();
    let opts = RenderOptions {
        theme: Theme::Dark,
        ..RenderOptions::default()
    };
    check_golden(
        "renju-offered",
        &render_png(&g, &names(&["Ann", "Bo"]), &opts),
    );
}

#[test]
fn forbidden_points_carry_a_red_cross_only_while_black_is_to_move_and_when_asked() {
    let g = forbidden_position();
    let n = names(&["Ann", "Bo"]);
    let opts = RenderOptions::default();
    let img = decode(&render_png(&g, &n, &opts));
    // The cross's arms run diagonally through the point: a little off the centre along the
    // diagonal is red, on a forbidden point and not on a free one.
    let red_at = |img: &image::RgbImage, name: &str| {
        [0.08f32, 0.12, -0.08, -0.12]
            .iter()
            .any(|&d| reddish(pixel(img, &g, &opts, at(&g, name), d, d)))
    };
    for p in g.forbidden_points() {
        assert!(red_at(&img, &p.name()), "no cross on {}", p.name());
    }
    assert!(!red_at(&img, "K5"), "a free point has no cross");
    assert!(!red_at(&img, "B14"), "a free point has no cross");

    // Turned off: no cross anywhere, and otherwise the same picture as with the marks.
    let off = RenderOptions {
        forbidden_marks: false,
        ..RenderOptions::default()
    };
    let plain = decode(&render_png(&g, &n, &off));
    for p in g.forbidden_points() {
        assert!(!red_at(&plain, &p.name()), "{} marked while off", p.name());
    }
    let changed = img
        .pixels()
        .zip(plain.pixels())
        .filter(|(a, b)| a != b)
        .count();
    let cells = g.forbidden_points().len();
    let (w, _) = picture_size(g.rules(), &opts);
    let cell = w / 16;
    assert!(
        changed > 0 && changed <= cells * (cell * cell) as usize,
        "{changed}"
    );

    // White to move: black's forbidden points are not marked.
    let mut white = g.clone();
    white.apply_token("K5").unwrap();
    assert!(white.forbidden_points().is_empty());
    let img = decode(&render_png(&white, &n, &opts));
    assert!(!red_at(&img, "H8") && !red_at(&img, "G3"));

    // Freestyle Gomoku has no forbidden points: the same stones show no cross.
    let moves: Vec<String> = g.record().iter().map(|a| a.to_string()).collect();
    let gomoku = play(RuleSet::preset(Preset::Gomoku), &moves.join(" "));
    let img = decode(&render_png(&gomoku, &n, &opts));
    assert!(!red_at(&img, "H8") && !red_at(&img, "L9"));
}

#[test]
fn a_tentative_or_alternative_stone_on_a_forbidden_point_hides_its_cross() {
    let g = forbidden_position();
    let n = names(&["Ann", "Bo"]);
    let opts = RenderOptions::default();
    let h8 = at(&g, "H8");
    for png in [
        render_png_with_tentative(&g, &n, &opts, h8),
        render_png_with_alternative(&g, &n, &opts, h8, 1),
    ] {
        let img = decode(&png);
        assert!(!reddish(pixel(&img, &g, &opts, h8, 0.1, 0.1)));
    }
}

#[test]
fn offered_fifth_moves_are_translucent_numbered_stones_until_one_is_chosen() {
    let g = offered_position();
    let n = names(&["Ann", "Bo"]);
    let opts = RenderOptions::default();
    let img = decode(&render_png(&g, &n, &opts));
    let brightness = |c: [u8; 3]| c.iter().map(|&v| u32::from(v)).sum::<u32>();
    let wood = brightness(pixel(&img, &g, &opts, at(&g, "C3"), 0.3, 0.3));
    for &p in g.offered() {
        // Darker than the wood (a translucent black stone), lighter than a black stone.
        let body = brightness(pixel(&img, &g, &opts, p, 0.33, 0.25));
        let black = brightness(pixel(&img, &g, &opts, at(&g, "H8"), 0.33, 0.25));
        assert!(
            body < wood && body > black,
            "{}: {body} ({wood}, {black})",
            p.name()
        );
    }
    // Numbers differ: each candidate's cell differs from the others' by its digits.
    let cells: Vec<Vec<[u8; 3]>> = g
        .offered()
        .iter()
        .map(|&p| {
            (0..9)
                .flat_map(|k| (0..9).map(move |j| (k, j)))
                .map(|(k, j)| {
                    let d = |v: i32| (v - 4) as f32 * 0.05;
                    pixel(&img, &g, &opts, p, d(k), d(j))
                })
                .collect()
        })
        .collect();
    for a in 0..cells.len() {
        for b in a + 1..cells.len() {
            assert_ne!(
                cells[a],
                cells[b],
                "candidates {} and {} look alike",
                a + 1,
                b + 1
            );
        }
    }
    // Once white chose, the other candidates are gone: the chosen one is a real stone.
    let mut chosen = g.clone();
    chosen.apply_token("choose:K9").unwrap();
    let img = decode(&render_png(&chosen, &n, &opts));
    let k9 = brightness(pixel(&img, &chosen, &opts, at(&chosen, "K9"), 0.33, 0.25));
    let g7 = brightness(pixel(&img, &chosen, &opts, at(&chosen, "G7"), 0.3, 0.3));
    assert!(k9 < 200, "K9 is a black stone: {k9}");
    assert!(g7 > 300, "G7 is bare wood again: {g7}");
}
