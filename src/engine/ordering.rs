//! How promising a move looks before any search: the score the main search orders its
//! candidates by (and move count pruning cuts), read from the shapes the board keeps.
//!
//! Two parts: the hand-made score (windows gained, the value of the four lines' shapes, the
//! threat a point makes for either side), and corrections fitted offline to the moves of a
//! stronger engine (`ordering.txt`, made by the `policy_fit` example; levels with
//! `Style::policy`). Kept apart from the search so the offline fits (`tuning`) score points
//! exactly as the search does.

use std::sync::OnceLock;

use super::board::{Board, CELLS, STRIDE, cell_of};
use super::data_lines::data_lines;
use super::patterns::{THREATS, set_index};
use crate::rules::Action;

/// Ordering bonus of a point by the threat it makes for the mover.
const ATTACK: [i32; THREATS] = [0, 400, 500, 3_000, 8_000, 20_000, 0];
/// Ordering bonus of a point by the threat it would give the opponent.
const DEFENCE: [i32; THREATS] = [0, 300, 350, 2_500, 6_000, 15_000, 0];

/// The shape score of the empty point `i` for `me` to play: what it makes for `me` and what
/// it takes from the other side (windows gained, the four lines' shapes, the threats). The
/// search adds wins, captures and its history on top.
pub(crate) fn shape_score(b: &Board, i: usize, me: u8) -> i32 {
    let opp = 3 - me;
    by_shapes(b, i, me, b.gain_at(i, me), b.gain_at(i, opp))
}

/// [`shape_score`] from the windows each side gains at the point (`gains`: the mover's, the
/// other side's), read once by the callers.
fn by_shapes(b: &Board, i: usize, me: u8, gain_mine: i32, gain_theirs: i32) -> i32 {
    let opp = 3 - me;
    gain_mine * 4
        + gain_theirs * 3
        + b.value_at(i, me) * 12
        + b.value_at(i, opp) * 10
        + ATTACK[b.threat_at(i, me) as usize]
        + DEFENCE[b.threat_at(i, opp) as usize]
}

/// [`shape_score`] with the fitted corrections of `ordering.txt`: by the set of four shapes
/// the mover's stone would make there, by the set the other side's would, per hundred
/// windows each would gain, and by the distance to the `last` two stones (the other side's
/// last, then the mover's, as padded cells, see [`last_stones`]).
#[inline]
pub(crate) fn fitted_score(
    b: &Board,
    i: usize,
    me: u8,
    last: [Option<usize>; 2],
    c: &Corrections,
) -> i32 {
    let opp = 3 - me;
    let (gm, gt) = (b.gain_at(i, me), b.gain_at(i, opp));
    let near = |k: usize| {
        let d = last[k].map_or(FAR, |s| {
            let ([rs, cs], [ri, ci]) = (ROW_COL[s], ROW_COL[i]);
            rs.abs_diff(ri).max(cs.abs_diff(ci)).clamp(1, FAR)
        });
        c.near[k][usize::from(d) - 1]
    };
    by_shapes(b, i, me, gm, gt)
        + c.mine[set_index(b.shapes_at(i, me))]
        + c.theirs[set_index(b.shapes_at(i, opp))]
        + gm * c.gain_mine / 100
        + gt * c.gain_theirs / 100
        + near(0)
        + near(1)
}

/// The row and column of each padded cell: read where the ordering measures distances for
/// every candidate at every node, instead of two divisions per cell.
const ROW_COL: [[u8; 2]; CELLS] = {
    let mut rc = [[0; 2]; CELLS];
    let mut i = 0;
    while i < CELLS {
        rc[i] = [(i / STRIDE) as u8, (i % STRIDE) as u8];
        i += 1;
    }
    rc
};

/// The distance (in king's moves) up to which the corrections tell points apart; farther
/// points, and every point when there is no such stone, count as this far.
pub const FAR: u8 = 5;

/// The cells of the last stone placed and of the one before it, when the last actions placed
/// them.
pub(crate) fn last_stones(b: &Board) -> [Option<usize>; 2] {
    let record = b.game.record();
    let stone = |back: usize| match record.len().checked_sub(back).map(|k| record[k]) {
        Some(Action::Place(p)) => Some(cell_of(p)),
        _ => None,
    };
    [stone(1), stone(2)]
}

/// How many sets of four line shapes a point can have (the order of its axes aside): the
/// multisets of four of the eight shapes.
pub const SHAPE_SETS: usize = 330;

/// The shapes of each set, by set number: ascending, `0` none to `7` five (see
/// `src/engine/patterns.rs`).
pub fn shape_sets() -> &'static [[u8; 4]] {
    &set_tables().0
}

/// The set number of four shapes in any order.
pub fn shape_set(shapes: [u8; 4]) -> u16 {
    // Masked: a shape is below 8, and the table has a slot for every three bits.
    set_tables().1[set_index(shapes.map(|s| s & 7))]
}

/// The sets in order, and the set number of every [`set_index`] of four shapes.
fn set_tables() -> &'static (Vec<[u8; 4]>, Vec<u16>) {
    static TABLES: OnceLock<(Vec<[u8; 4]>, Vec<u16>)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let mut sets = Vec::with_capacity(SHAPE_SETS);
        for a in 0..8u8 {
            for b in a..8 {
                for c in b..8 {
                    for d in c..8 {
                        sets.push([a, b, c, d]);
                    }
                }
            }
        }
        let index = (0..4096usize)
            .map(|k| {
                let mut s = [0, 1, 2, 3].map(|a| (k >> (3 * a) & 7) as u8);
                s.sort_unstable();
                sets.iter().position(|x| *x == s).unwrap_or(0) as u16
            })
            .collect();
        (sets, index)
    })
}

/// The fitted corrections, by [`set_index`] of the point's shapes.
#[derive(Debug)]
pub(crate) struct Corrections {
    mine: Vec<i32>,
    theirs: Vec<i32>,
    gain_mine: i32,
    gain_theirs: i32,
    /// By distance 1..=FAR from the last stone, then from the one before.
    near: [[i32; FAR as usize]; 2],
}

/// The corrections of `ordering.txt` (checked by a test to read whole; none if it did not).
pub(crate) fn corrections() -> &'static Corrections {
    static C: OnceLock<Corrections> = OnceLock::new();
    C.get_or_init(|| {
        read_corrections(include_str!("ordering.txt")).unwrap_or_else(|_| Corrections {
            mine: vec![0; 4096],
            theirs: vec![0; 4096],
            gain_mine: 0,
            gain_theirs: 0,
            near: [[0; FAR as usize]; 2],
        })
    })
}

/// Reads corrections: `gain MINE THEIRS` (per hundred windows), `last` and `own` with
/// [`FAR`] values (by distance from the last stone and from the one before), and lines
/// `mine|theirs A B C D VALUE` (four shapes in any order); `#` comments. What is not named
/// corrects nothing.
pub(crate) fn read_corrections(text: &str) -> Result<Corrections, String> {
    let mut by_set = [vec![0i32; SHAPE_SETS], vec![0i32; SHAPE_SETS]];
    let (mut gain_mine, mut gain_theirs) = (0, 0);
    let mut near = [[0; FAR as usize]; 2];
    for (k, line) in data_lines(text) {
        let bad = || format!("line {k}: `{line}`");
        let words: Vec<&str> = line.split_whitespace().collect();
        let nums: Vec<i32> = words[1..]
            .iter()
            .map(|w| w.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        match (words[0], nums.as_slice()) {
            ("gain", &[m, t]) => (gain_mine, gain_theirs) = (m, t),
            (side @ ("last" | "own"), n) if n.len() == usize::from(FAR) => {
                near[usize::from(side == "own")].copy_from_slice(n);
            }
            (side @ ("mine" | "theirs"), &[a, b, c, d, v]) => {
                let mut shapes = [0u8; 4];
                for (s, n) in shapes.iter_mut().zip([a, b, c, d]) {
                    *s = u8::try_from(n).ok().filter(|s| *s < 8).ok_or_else(bad)?;
                }
                by_set[usize::from(side == "theirs")][usize::from(shape_set(shapes))] = v;
            }
            _ => return Err(bad()),
        }
    }
    let index = &set_tables().1;
    let spread = |t: &[i32]| index.iter().map(|&s| t[usize::from(s)]).collect();
    Ok(Corrections {
        mine: spread(&by_set[0]),
        theirs: spread(&by_set[1]),
        gain_mine,
        gain_theirs,
        near,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_support::gomoku;
    use crate::rules::Point;

    #[test]
    fn every_order_of_four_shapes_is_one_set() {
        assert_eq!(shape_sets().len(), SHAPE_SETS);
        assert_eq!(shape_set([4, 0, 2, 2]), shape_set([2, 2, 0, 4]));
        assert_ne!(shape_set([4, 0, 2, 2]), shape_set([4, 0, 2, 1]));
        assert_eq!(
            shape_sets()[usize::from(shape_set([4, 0, 2, 2]))],
            [0, 2, 2, 4]
        );
    }

    #[test]
    fn the_checked_in_corrections_read_whole() {
        let c = read_corrections(include_str!("ordering.txt")).expect("ordering.txt reads");
        assert_eq!(c.mine.len(), 4096);
    }

    #[test]
    fn corrections_apply_to_every_order_of_their_shapes() {
        let c = read_corrections(
            "gain 5 -7\nmine 0 0 2 4 120 # a comment\ntheirs 4 4 0 0 -3\nown 1 2 3 4 5\n",
        )
        .expect("reads");
        assert_eq!((c.gain_mine, c.gain_theirs), (5, -7));
        assert_eq!(c.near, [[0; 5], [1, 2, 3, 4, 5]]);
        assert_eq!(c.mine[set_index([4, 2, 0, 0])], 120);
        assert_eq!(c.mine[set_index([0, 4, 0, 2])], 120);
        assert_eq!(c.theirs[set_index([0, 4, 4, 0])], -3);
        assert_eq!(c.theirs[set_index([0, 2, 0, 4])], 0);
    }

    #[test]
    fn the_fitted_score_adds_the_corrections_of_the_point() {
        let g = gomoku("H8 A1 J8");
        let b = Board::new(&g);
        let cell = |n: &str| cell_of(Point::parse(n, 15).expect("point"));
        let last = last_stones(&b);
        assert_eq!(last, [Some(cell("J8")), Some(cell("A1"))]);
        let c = read_corrections("last 1000 10 0 0 0\nown 0 7 0 0 0\n").expect("reads");
        let extra = |n: &str| fitted_score(&b, cell(n), 2, last, &c) - shape_score(&b, cell(n), 2);
        // K9 touches black's last stone J8, L8 is two away; B2 touches white's A1 (nothing for
        // distance 1 there), C3 is two away from it; both are far from J8.
        assert_eq!(extra("K9"), 1000);
        assert_eq!(extra("L8"), 10);
        assert_eq!(extra("B2"), 0);
        assert_eq!(extra("C3"), 7);
        // By shapes: white's stone at K8 blocks black's open three there.
        let c = read_corrections("theirs 0 0 0 4 -300\nmine 0 0 0 0 5\n").expect("reads");
        assert_eq!(
            fitted_score(&b, cell("K8"), 2, last, &c) - shape_score(&b, cell("K8"), 2),
            -300 + 5
        );
    }

    #[test]
    fn a_bad_line_is_named() {
        for text in [
            "mine 0 0 2 8 1",
            "mine 0 0 2 1",
            "gain x 1",
            "other 1 2",
            "last 1 2 3",
        ] {
            let e = read_corrections(text).expect_err(text);
            assert!(e.starts_with("line 1"), "{e}");
        }
    }
}
