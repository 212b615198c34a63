//! The evaluation's terms counted one by one, for fitting its weights offline (the
//! `eval_fit` example): what the search adds up incrementally, taken apart so a least-squares
//! fit can weigh each term against another engine's judgement of the same positions. And the
//! move ordering's view of each candidate, for fitting its corrections to another engine's
//! moves (the `policy_fit` example).

use super::board::{AXES, Board, EMPTY, step};
pub use super::lines::LINE_CODES;
pub use super::ordering::{FAR, SHAPE_SETS, shape_set, shape_sets};
use super::ordering::{last_stones, shape_score};
use super::patterns::{FIVE, OPEN_TWO, Threat};
use super::search::line_terms;
use crate::rules::{Captures, Game, Point};

/// The names of the terms [`eval_features`] returns, in its order. `me` is the side to move.
#[rustfmt::skip]
pub const FEATURE_NAMES: [&str; FEATURES] = [
    // Windows free of the other colour, by its stones in them.
    "win1.me", "win2.me", "win3.me", "win4.me",
    "win1.op", "win2.op", "win3.op", "win4.op",
    // (Empty point, axis) pairs by the shape one more stone makes there.
    "two.me", "otwo.me", "three.me", "othree.me", "four.me", "ofour.me",
    "two.op", "otwo.op", "three.op", "othree.op", "four.op", "ofour.op",
    // Empty points by what their four shapes make together.
    "T3.me", "T4.me", "T33.me", "T43.me", "T44.me",
    "T3.op", "T4.op", "T33.op", "T43.op", "T44.op",
    // Crossing open twos at a quiet point, less one.
    "twos.me", "twos.op",
    // The mover's best threat, when the other side has no four to make first.
    "has44.me", "has43.me", "has33.me",
];

/// How many terms [`eval_features`] returns.
pub const FEATURES: usize = 35;

/// The terms of a quiet position of a game without captures (no window one stone short of a
/// line for either side, the game not over), seen from the side to move; `None` otherwise.
pub fn eval_features(game: &Game) -> Option<[i32; FEATURES]> {
    if game.is_over() || game.rules().captures != Captures::None {
        return None;
    }
    let b = Board::new(game);
    if b.fours != [0, 0] {
        return None;
    }
    let me = b.to_move();
    let sides = [me, 3 - me];
    let mut f = [0i32; FEATURES];
    // Windows, counted from the stones as the board's tables count them incrementally.
    for &start in &b.on_board {
        for &d in &AXES {
            let mut n = [0usize; 2];
            let mut inside = true;
            for k in 0..isize::from(b.line) {
                match b.cells.get(step(usize::from(start), d * k)) {
                    Some(&c) if c == sides[0] => n[0] += 1,
                    Some(&c) if c == sides[1] => n[1] += 1,
                    Some(&EMPTY) => {}
                    _ => inside = false,
                }
            }
            if !inside {
                continue;
            }
            for s in 0..2 {
                if n[1 - s] == 0 && (1..=4).contains(&n[s]) {
                    f[4 * s + n[s] - 1] += 1;
                }
            }
        }
    }
    for &cell in &b.on_board {
        let i = usize::from(cell);
        if b.cells[i] != EMPTY {
            continue;
        }
        for (s, &colour) in sides.iter().enumerate() {
            let shapes = b.shapes_at(i, colour);
            for &shape in &shapes {
                if (1..=6).contains(&shape) {
                    f[8 + 6 * s + usize::from(shape) - 1] += 1;
                }
            }
            let t = b.threat_at(i, colour) as usize;
            if (1..=5).contains(&t) {
                f[20 + 5 * s + t - 1] += 1;
            }
            if t == Threat::Quiet as usize {
                let twos = shapes.iter().filter(|&&x| x == OPEN_TWO).count() as i32;
                if twos >= 2 {
                    f[30 + s] += twos - 1;
                }
            }
        }
    }
    // As the evaluation: the mover's best threat counts only when the other side cannot make
    // a four first.
    if b.threats_at_least(3 - me, Threat::Four) > 0 {
    } else if b.threats_at_least(me, Threat::OpenFour) > 0 {
        f[32] = 1;
    } else if b.threats_at_least(me, Threat::FourThree) > 0 {
        f[33] = 1;
    } else if b.threats_at_least(me, Threat::DoubleThree) > 0 {
        f[34] = 1;
    }
    Some(f)
}

/// A quiet position as an evaluation by sets of shapes sees it, from the side to move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalSets {
    /// The evaluation's terms a fit of the sets keeps: the windows and the mover's threat
    /// bonus, as the engine weighs them.
    pub fixed: i32,
    /// The engine's evaluation of the position today (`fixed` and its shape sums).
    pub today: i32,
    /// The [`shape_set`] of each empty point (other than the empty set) for the mover.
    pub mine: Vec<u16>,
    /// The same for the other side.
    pub theirs: Vec<u16>,
    /// The threats each side has, as bits (see [`THREAT_MASKS`]).
    pub mask: u16,
    /// How many times each line code (the shape and its free windows, see [`LINE_CODES`])
    /// occurs over the axes of the empty points, for the mover and for the other side.
    pub lines: [[u16; LINE_CODES]; 2],
}

/// How many situations of threats [`EvalSets::mask`] tells apart: bits 0-4 say whether some
/// empty point gives the mover a three, a four, a double three, a four-three, an open four;
/// bits 5-9 the same for the other side.
pub const THREAT_MASKS: usize = super::fitted::MASKS;

/// The position as [`EvalSets`]: a game without captures and not Renju, not over, with no
/// window one stone short of a line (as [`eval_features`]); `None` otherwise.
pub fn eval_sets(game: &Game) -> Option<EvalSets> {
    if game.is_over() || game.rules().captures != Captures::None || game.rules().is_renju() {
        return None;
    }
    let b = Board::new(game);
    if b.fours != [0, 0] {
        return None;
    }
    let me = b.to_move();
    let (mi, oi) = (usize::from(me - 1), usize::from(2 - me));
    let fixed = line_terms(&b, me);
    let today = fixed + b.shape_sum[mi] / 8 - b.shape_sum[oi] / 16;
    let empty = shape_set([0; 4]);
    let sets = |colour: u8| -> Vec<u16> {
        b.on_board
            .iter()
            .map(|&c| usize::from(c))
            .filter(|&i| b.cells[i] == EMPTY)
            .map(|i| shape_set(b.shapes_at(i, colour)))
            .filter(|&s| s != empty)
            .collect()
    };
    let mut lines = [[0u16; LINE_CODES]; 2];
    for (role, colour) in [me, 3 - me].into_iter().enumerate() {
        for &c in &b.on_board {
            let i = usize::from(c);
            if b.cells[i] == EMPTY {
                for code in b.codes_at(i, colour) {
                    lines[role][usize::from(code)] += 1;
                }
            }
        }
    }
    Some(EvalSets {
        lines,
        fixed,
        today,
        mine: sets(me),
        theirs: sets(3 - me),
        mask: b.threat_mask(me) as u16,
    })
}

/// A fit in `eval_sets.txt`'s format as a fit of the sets sees it, read by the engine's own
/// reader (`fitted::read`): each set's value for the side to move and for the side waiting
/// (in [`shape_sets`] order, in the evaluation's units: the file's numbers times their
/// weight, over 256), and the value of each situation of threats.
pub struct FittedSets {
    /// The side to move's value of each set.
    pub mover: Vec<f64>,
    /// The side waiting's value of each set.
    pub waiting: Vec<f64>,
    /// The value of each situation of threats (see [`THREAT_MASKS`]).
    pub masks: Vec<i32>,
}

/// Reads a fit written by `eval_sets_fit` (or checked in as `eval_sets.txt`).
pub fn fitted_sets(text: &str) -> Result<FittedSets, String> {
    let f = super::fitted::read(text)?;
    let scale = |v: i32, w: i32| f64::from(v) * f64::from(w) / 256.0;
    let index = |shapes: [u8; 4]| super::patterns::set_index(shapes);
    let sets = shape_sets();
    Ok(FittedSets {
        mover: sets
            .iter()
            .map(|&s| scale(f.mover[index(s)], f.weights.0))
            .collect(),
        waiting: sets
            .iter()
            .map(|&s| scale(f.waiting[index(s)], f.weights.1))
            .collect(),
        masks: f.masks.clone().unwrap_or_else(|| vec![0; THREAT_MASKS]),
    })
}

/// The value the engine gives a point with the shapes of set `s` (out of range: 0).
pub fn shape_set_value(s: u16) -> i32 {
    shape_sets()
        .get(usize::from(s))
        .map_or(0, |&shapes| super::patterns::combine(shapes).1)
}

/// One candidate move of a position as the move ordering sees it (the side to move is
/// `mine`, the other side `theirs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PolicyPoint {
    /// The point.
    pub point: Point,
    /// The [`shape_set`] the mover's stone there would make.
    pub mine: u16,
    /// The [`shape_set`] the other side's stone there would make.
    pub theirs: u16,
    /// Windows the mover's stone there gains (the board's pattern units).
    pub gain_mine: i32,
    /// Windows the other side's stone there would gain.
    pub gain_theirs: i32,
    /// The search's ordering score of the point (without wins, captures or history).
    pub score: i32,
    /// How far (in king's moves, at most [`FAR`]) the point lies from the last stone, the
    /// other side's, and from the one before it, the mover's.
    pub near: [u8; 2],
}

/// The candidate moves of a position the main search orders by shapes alone: a game without
/// captures and not Renju, not over, where neither side can make a line on the next move
/// (those moves are forced, not ordered). `None` otherwise.
pub fn policy_points(game: &Game) -> Option<Vec<PolicyPoint>> {
    if game.is_over() || game.rules().captures != Captures::None || game.rules().is_renju() {
        return None;
    }
    let b = Board::new(game);
    let me = b.to_move();
    if b.threats_at_least(1, Threat::Five) > 0 || b.threats_at_least(2, Threat::Five) > 0 {
        return None;
    }
    let last = last_stones(&b);
    let points = b
        .frontier()
        .filter_map(|i| {
            let point = b.point(i)?;
            let (mine, theirs) = (b.shapes_at(i, me), b.shapes_at(i, 3 - me));
            debug_assert!(!mine.contains(&FIVE) && !theirs.contains(&FIVE));
            Some(PolicyPoint {
                point,
                mine: shape_set(mine),
                theirs: shape_set(theirs),
                gain_mine: b.gain_at(i, me),
                gain_theirs: b.gain_at(i, 3 - me),
                score: shape_score(&b, i, me),
                near: last.map(|s| {
                    s.and_then(|s| b.point(s))
                        .map_or(FAR, |s| s.distance(point).min(FAR))
                }),
            })
        })
        .collect();
    Some(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_support::{game, gomoku};
    use crate::engine::windows::window_values;

    #[test]
    fn the_window_terms_add_up_to_the_boards_pattern_sums() {
        let g = gomoku("H8 H9 J8 J10 G7 K11 F9");
        let f = eval_features(&g).expect("quiet");
        let b = Board::new(&g);
        let v = window_values(5);
        let me = usize::from(b.to_move() - 1);
        let sum = |s: usize| (0..4).map(|n| v[n + 1] * f[4 * s + n]).sum::<i32>();
        assert_eq!(sum(0), b.pattern[me]);
        assert_eq!(sum(1), b.pattern[1 - me]);
    }

    #[test]
    fn the_threats_of_the_side_not_to_move_are_counted_as_the_opponent_s() {
        // White to move; black's H9 would make an open four (H8 H9 H10 H11), white has none.
        let g = gomoku("H8 A1 J8 A2 H10 A15 H11");
        let f = eval_features(&g).expect("quiet");
        assert_eq!(
            f[20..25].iter().sum::<i32>(),
            0,
            "white has no threat: {f:?}"
        );
        assert!(
            f[25..30].iter().sum::<i32>() > 0,
            "black has threats: {f:?}"
        );
        assert_eq!(f[32..35], [0, 0, 0]);
    }

    #[test]
    fn policy_points_are_the_empty_points_near_the_stones_scored_as_the_search_orders() {
        // White to move against black's open two H8 J8 (A1 is white's, far away).
        let g = gomoku("H8 A1 J8");
        let points = policy_points(&g).expect("quiet");
        let b = Board::new(&g);
        // Every empty point within two of a stone, each once.
        assert_eq!(points.len(), b.frontier().count());
        let mut seen: Vec<Point> = points.iter().map(|p| p.point).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), points.len());
        let at = |name: &str| {
            let p = Point::parse(name, 15).expect("point");
            *points.iter().find(|c| c.point == p).expect("a candidate")
        };
        // At K8 black would make an open three, white nothing.
        let open_three = crate::engine::patterns::OPEN_THREE;
        let k8 = at("K8");
        assert!(shape_sets()[usize::from(k8.theirs)].contains(&open_three));
        assert!(!shape_sets()[usize::from(k8.mine)].contains(&open_three));
        assert!(k8.gain_theirs > k8.gain_mine);
        assert_eq!(
            k8.score,
            shape_score(&b, crate::engine::board::cell_of(k8.point), 2)
        );
        // The ordering puts one of black's open-three points first.
        let best = points.iter().max_by_key(|p| p.score).expect("points");
        let threes: Vec<Point> = ["F8", "G8", "K8", "L8"]
            .map(|n| Point::parse(n, 15).expect("point"))
            .to_vec();
        assert!(threes.contains(&best.point), "{best:?}");
        assert!(at("A2").score < k8.score);
    }

    #[test]
    fn positions_with_a_winning_point_are_not_ordered() {
        // Black threatens five at L8 (H8 J8 K8 G8 F8 is not there yet: four in a row).
        assert!(policy_points(&gomoku("H8 A1 J8 A2 K8 A3 G8")).is_none());
        let pente = game("pente", "K10");
        assert!(policy_points(&pente).is_none());
    }

    #[test]
    fn eval_sets_add_up_to_today_s_evaluation() {
        // White to move; black's open two H8 J8 gives black open-three points.
        let g = gomoku("H8 A1 J8 B3 G9");
        let e = eval_sets(&g).expect("quiet");
        let sum =
            |sets: &[u16], div: i32| sets.iter().map(|&s| shape_set_value(s)).sum::<i32>() / div;
        assert_eq!(e.today, e.fixed + sum(&e.mine, 8) - sum(&e.theirs, 16));
        let open_three = crate::engine::patterns::OPEN_THREE;
        let has_three = |sets: &[u16]| {
            sets.iter()
                .any(|&s| shape_sets()[usize::from(s)].contains(&open_three))
        };
        assert!(has_three(&e.theirs), "black's threes are the other side's");
        assert!(!has_three(&e.mine), "white has no two to make a three of");
        // The empty set is never listed: far fewer sets than empty points.
        assert!(e.mine.len() < 100 && e.theirs.len() < 100);
        assert!(eval_sets(&gomoku("H8 A1 J8 A2 K8 A3 L8")).is_none());
    }

    #[test]
    fn positions_with_a_four_or_captures_are_not_measured() {
        assert!(eval_features(&gomoku("H8 A1 J8 A2 K8 A3 L8")).is_none());
        let pente = game("pente", "K10");
        assert!(eval_features(&pente).is_none());
    }
}
