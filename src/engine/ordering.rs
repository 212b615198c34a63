//! How promising a move looks before any search: the score the main search orders its
//! candidates by (and move count pruning cuts), read from the shapes the board keeps.
//!
//! Two parts: the hand-made score (windows gained, the value of the four lines' shapes, the
//! threat a point makes for either side), and corrections fitted offline to the moves of a
//! stronger engine (`ordering.txt`, made by the `policy_fit` example; levels with
//! `Style::policy`). Kept apart from the search so the offline fits (`tuning`) score points
//! exactly as the search does.

use std::sync::OnceLock;

use super::board::Board;
use super::patterns::THREATS;

/// Ordering bonus of a point by the threat it makes for the mover.
const ATTACK: [i32; THREATS] = [0, 400, 500, 3_000, 8_000, 20_000, 0];
/// Ordering bonus of a point by the threat it would give the opponent.
const DEFENCE: [i32; THREATS] = [0, 300, 350, 2_500, 6_000, 15_000, 0];

/// The shape score of the empty point `i` for `me` to play: what it makes for `me` and what
/// it takes from the other side (windows gained, the four lines' shapes, the threats). The
/// search adds wins, captures and its history on top.
pub(crate) fn shape_score(b: &Board, i: usize, me: u8) -> i32 {
    let opp = 3 - me;
    b.gain_at(i, me) * 4
        + b.gain_at(i, opp) * 3
        + b.value_at(i, me) * 12
        + b.value_at(i, opp) * 10
        + ATTACK[b.threat_at(i, me) as usize]
        + DEFENCE[b.threat_at(i, opp) as usize]
}

/// [`shape_score`] with the fitted corrections of `ordering.txt`: by the set of four shapes
/// the mover's stone would make there, by the set the other side's would, and per hundred
/// windows each would gain.
pub(crate) fn fitted_score(b: &Board, i: usize, me: u8) -> i32 {
    let c = corrections();
    let opp = 3 - me;
    shape_score(b, i, me)
        + c.mine[packed(b.shapes_at(i, me))]
        + c.theirs[packed(b.shapes_at(i, opp))]
        + b.gain_at(i, me) * c.gain_mine / 100
        + b.gain_at(i, opp) * c.gain_theirs / 100
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
    set_tables().1[packed(shapes)]
}

/// Four shapes packed three bits each.
fn packed(shapes: [u8; 4]) -> usize {
    usize::from(shapes[0] & 7)
        | usize::from(shapes[1] & 7) << 3
        | usize::from(shapes[2] & 7) << 6
        | usize::from(shapes[3] & 7) << 9
}

/// The sets in order, and the set number of every [`packed`] four shapes.
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

/// The fitted corrections, by [`packed`] shapes.
#[derive(Debug)]
pub(crate) struct Corrections {
    mine: Vec<i32>,
    theirs: Vec<i32>,
    gain_mine: i32,
    gain_theirs: i32,
}

/// The corrections of `ordering.txt` (checked by a test to read whole; none if it did not).
fn corrections() -> &'static Corrections {
    static C: OnceLock<Corrections> = OnceLock::new();
    C.get_or_init(|| {
        read_corrections(include_str!("ordering.txt")).unwrap_or_else(|_| Corrections {
            mine: vec![0; 4096],
            theirs: vec![0; 4096],
            gain_mine: 0,
            gain_theirs: 0,
        })
    })
}

/// Reads corrections: `gain MINE THEIRS` (per hundred windows), and lines `mine|theirs A B C
/// D VALUE` (four shapes in any order); `#` comments. A set not named corrects nothing.
pub(crate) fn read_corrections(text: &str) -> Result<Corrections, String> {
    let mut by_set = [vec![0i32; SHAPE_SETS], vec![0i32; SHAPE_SETS]];
    let (mut gain_mine, mut gain_theirs) = (0, 0);
    for (k, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = || format!("line {}: `{line}`", k + 1);
        let words: Vec<&str> = line.split_whitespace().collect();
        let nums: Vec<i32> = words[1..]
            .iter()
            .map(|w| w.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        match (words[0], nums.as_slice()) {
            ("gain", &[m, t]) => (gain_mine, gain_theirs) = (m, t),
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
    })
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let c = read_corrections("gain 5 -7\nmine 0 0 2 4 120 # a comment\ntheirs 4 4 0 0 -3\n")
            .expect("reads");
        assert_eq!((c.gain_mine, c.gain_theirs), (5, -7));
        assert_eq!(c.mine[packed([4, 2, 0, 0])], 120);
        assert_eq!(c.mine[packed([0, 4, 0, 2])], 120);
        assert_eq!(c.theirs[packed([0, 4, 4, 0])], -3);
        assert_eq!(c.theirs[packed([0, 2, 0, 4])], 0);
    }

    #[test]
    fn a_bad_line_is_named() {
        for text in ["mine 0 0 2 8 1", "mine 0 0 2 1", "gain x 1", "other 1 2"] {
            let e = read_corrections(text).expect_err(text);
            assert!(e.starts_with("line 1"), "{e}");
        }
    }
}
