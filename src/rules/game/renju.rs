//! Renju's forbidden points for black (DESIGN.md section 2b).
//!
//! Black may not make an overline, a double four (also two fours on one line) or a double
//! three, unless the move makes an exact five. A *three* counts only when the point that
//! turns it into a straight four is itself not forbidden, so deciding a double three places
//! the stone and asks the same question about each such point: the definition is recursive.
//!
//! Everything here works on a scratch copy of the padded board: a stone is placed, the lines
//! through it are read into small windows, and the stone is taken back before returning.

use std::fmt;

use super::cells::{AXES, CELLS, EMPTY, WALL, idx, point_at, step};
use super::{Game, Phase, PlayError};
use crate::rules::point::Point;
use crate::rules::ruleset::SelfCapture;

/// The colour whose moves are restricted.
const BLACK: u8 = 1;

/// How deep the recursive three test may go before it stops asking and counts the three.
///
/// Each level needs a new double-three candidate on the point that completes the previous
/// three; the random dense positions of the oracle comparison never went past 4 (see
/// `/work/notes/issue-13.md`), so 12 is never reached in real play and still bounds the work
/// on a position built to be pathological.
pub(crate) const MAX_DEPTH: u8 = 12;

/// Why a point is forbidden for black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ForbiddenShape {
    /// Two or more threes at once.
    DoubleThree,
    /// Two or more fours at once (also two on one line).
    DoubleFour,
    /// Six or more in a row.
    Overline,
}

impl ForbiddenShape {
    /// The stable name of the `replay` contract and the error detail.
    pub fn name(self) -> &'static str {
        match self {
            ForbiddenShape::DoubleThree => "double_three",
            ForbiddenShape::DoubleFour => "double_four",
            ForbiddenShape::Overline => "overline",
        }
    }
}

impl fmt::Display for ForbiddenShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ForbiddenShape::DoubleThree => "a double three",
            ForbiddenShape::DoubleFour => "a double four",
            ForbiddenShape::Overline => "an overline",
        })
    }
}

/// Half the width of a line window: offsets -5..=5 around the point.
const HALF: usize = 5;
/// A line through a point: `w[HALF]` is the point, cells past the board edge read as walls.
type Window = [u8; 2 * HALF + 1];

fn window(cells: &[u8; CELLS], i: usize, d: isize) -> Window {
    let mut w = [WALL; 2 * HALF + 1];
    w[HALF] = cells[i];
    for (sign, range) in [(1isize, 1..=HALF), (-1, 1..=HALF)] {
        let mut j = i;
        for k in range {
            // Walls surround every board, so walking one cell at a time never leaves the array.
            j = step(j, sign * d);
            let v = cells[j];
            if v == WALL {
                break;
            }
            w[(HALF as isize + sign * k as isize) as usize] = v;
        }
    }
    w
}

/// The run of black stones through `q` in the window, as `(first, last)` offsets.
fn run_through(w: &Window, q: usize) -> (usize, usize) {
    let mut l = q;
    while l > 0 && w[l - 1] == BLACK {
        l -= 1;
    }
    let mut r = q;
    while r < 2 * HALF && w[r + 1] == BLACK {
        r += 1;
    }
    (l, r)
}

/// How many fours through the centre stone the window holds (a straight four counts once).
///
/// A four is four black stones that one more black stone turns into an exact five; each such
/// point is found, and two points five apart complete the same four (`.XXXX.`).
fn fours(w: &Window) -> u8 {
    let mut points = [0usize; 8];
    let mut n = 0;
    let mut scratch = *w;
    for q in HALF - 4..=HALF + 4 {
        if scratch[q] != EMPTY {
            continue;
        }
        scratch[q] = BLACK;
        let (l, r) = run_through(&scratch, q);
        scratch[q] = EMPTY;
        // A run of five that holds the centre: its neighbours are in the window and not black.
        if r - l + 1 == 5 && l <= HALF && HALF <= r {
            points[n] = q;
            n += 1;
        }
    }
    let mut count = n as u8;
    for a in 0..n {
        for b in a + 1..n {
            if points[b] - points[a] == 5 {
                count -= 1;
            }
        }
    }
    count
}

/// The points (as window offsets) where one more black stone makes a straight four through
/// the centre: four in a row, both ends empty, each end completing an exact five.
fn straight_four_points(w: &Window) -> ([usize; 6], usize) {
    let mut out = [0usize; 6];
    let mut n = 0;
    let mut scratch = *w;
    for q in HALF - 3..=HALF + 3 {
        if scratch[q] != EMPTY {
            continue;
        }
        scratch[q] = BLACK;
        let (l, r) = run_through(&scratch, q);
        scratch[q] = EMPTY;
        if r - l + 1 == 4
            && l <= HALF
            && HALF <= r
            && w[l - 1] == EMPTY
            && w[r + 1] == EMPTY
            && w[l - 2] != BLACK
            && w[r + 2] != BLACK
        {
            out[n] = q;
            n += 1;
        }
    }
    (out, n)
}

/// Whether a point could be forbidden at all: enough black stones near it on its lines.
///
/// An overline needs five more black stones within five points on one line; a double four on
/// one line four within four points; any other forbidden shape two lines with two each.
fn may_be_forbidden(cells: &[u8; CELLS], i: usize) -> bool {
    let mut busy_lines = 0;
    for &d in &AXES {
        let (mut near, mut far) = (0, 0);
        for sign in [1isize, -1] {
            let mut j = i;
            for k in 1..=HALF {
                j = step(j, sign * d);
                match cells[j] {
                    WALL => break,
                    BLACK if k < HALF => near += 1,
                    BLACK => far += 1,
                    _ => {}
                }
            }
        }
        if near >= 4 || near + far >= 5 {
            return true;
        }
        if near >= 2 {
            busy_lines += 1;
        }
    }
    busy_lines >= 2
}

/// Why black may not play the empty cell `i`, if it may not.
///
/// `cells` is changed while the question is answered and restored before returning.
pub(super) fn forbidden(cells: &mut [u8; CELLS], i: usize) -> Option<ForbiddenShape> {
    forbidden_at_depth(cells, i, 0)
}

fn forbidden_at_depth(cells: &mut [u8; CELLS], i: usize, depth: u8) -> Option<ForbiddenShape> {
    if cells[i] != EMPTY || !may_be_forbidden(cells, i) {
        return None;
    }
    cells[i] = BLACK;
    let shape = classify(cells, i, depth);
    cells[i] = EMPTY;
    shape
}

/// The forbidden shape black's stone at `i` (already placed) makes, if any.
fn classify(cells: &mut [u8; CELLS], i: usize, depth: u8) -> Option<ForbiddenShape> {
    let windows = AXES.map(|d| window(cells, i, d));
    let mut overline = false;
    for w in &windows {
        let (l, r) = run_through(w, HALF);
        // A run that reaches the window's edge is six or longer: the window is 11 wide.
        let len = r - l + 1;
        if len == 5 {
            return None;
        }
        if len > 5 {
            overline = true;
        }
    }
    if overline {
        return Some(ForbiddenShape::Overline);
    }
    let mut four_lines = [false; 4];
    let mut total = 0;
    for (k, w) in windows.iter().enumerate() {
        let n = fours(w);
        four_lines[k] = n > 0;
        total += n;
    }
    if total >= 2 {
        return Some(ForbiddenShape::DoubleFour);
    }
    // Lines with a three's shape; only two of them make the (recursive) check worth doing.
    let mut candidates: [([usize; 6], usize); 4] = [([0; 6], 0); 4];
    let mut shaped = 0;
    for (k, w) in windows.iter().enumerate() {
        if four_lines[k] {
            continue;
        }
        candidates[k] = straight_four_points(w);
        if candidates[k].1 > 0 {
            shaped += 1;
        }
    }
    if shaped < 2 {
        return None;
    }
    let mut threes = 0;
    for (k, &(points, n)) in candidates.iter().enumerate() {
        if n == 0 {
            continue;
        }
        let d = AXES[k];
        let real = depth >= MAX_DEPTH
            || points[..n].iter().any(|&q| {
                let cell = step(i, d * (q as isize - HALF as isize));
                forbidden_at_depth(cells, cell, depth + 1).is_none()
            });
        if real {
            threes += 1;
            if threes >= 2 {
                return Some(ForbiddenShape::DoubleThree);
            }
        }
        shaped -= 1;
        if threes + shaped < 2 {
            return None;
        }
    }
    None
}

impl Game {
    /// Why Renju forbids `colour` the empty cell `i`, if it does (only black is restricted).
    pub(super) fn renju_refusal(&self, i: usize, colour: u8) -> Option<ForbiddenShape> {
        if !self.rules.is_renju() || colour != BLACK {
            return None;
        }
        let mut scratch = self.cells;
        forbidden(&mut scratch, i)
    }

    /// Refuses a Renju-forbidden point for `colour`.
    pub(super) fn renju_check(&self, p: Point, colour: u8) -> Result<(), PlayError> {
        match self.renju_refusal(idx(p), colour) {
            Some(shape) => Err(PlayError::ForbiddenRenju { point: p, shape }),
            None => Ok(()),
        }
    }

    /// The empty points where the player to move may not put a stone now because of a
    /// forbidden shape: Renju's forbidden points for black, and the points `self_capture=forbidden`
    /// refuses. Sorted (by column, then row); empty when the game is over or a choice is due.
    ///
    /// Exactly the points that [`Game::apply`] would refuse with
    /// [`PlayError::ForbiddenRenju`] or [`PlayError::ForbiddenSelfCapture`].
    pub fn forbidden_points(&self) -> Vec<Point> {
        let mut out = Vec::new();
        if self.is_over() {
            return out;
        }
        let colour = self.state.to_move;
        let in_play = match self.state.phase {
            Phase::Playing => true,
            Phase::Placing { .. } => false,
            _ => return out,
        };
        let renju = self.rules.is_renju() && colour == BLACK;
        let self_capture = in_play && self.rules.self_capture == SelfCapture::Forbidden;
        if !renju && !self_capture {
            return out;
        }
        let mut scratch = self.cells;
        for &e in &self.empties {
            let i = usize::from(e);
            let p = point_at(i);
            // A point the opening rule refuses is refused for that reason first.
            if in_play && self.opening_check(p).is_err() {
                continue;
            }
            let refused = (renju && forbidden(&mut scratch, i).is_some())
                || (self_capture && self.forbidden_at(i, colour));
            if refused {
                out.push(p);
            }
        }
        out.sort_unstable();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(text: &str) -> Window {
        assert_eq!(text.len(), 11, "{text}");
        let mut out = [EMPTY; 11];
        for (k, c) in text.bytes().enumerate() {
            out[k] = match c {
                b'X' => BLACK,
                b'O' => 2,
                b'|' => WALL,
                _ => EMPTY,
            };
        }
        out
    }

    #[test]
    fn fours_count_a_straight_four_once_and_a_split_line_twice() {
        assert_eq!(fours(&w("..XXXX.....")), 1);
        assert_eq!(fours(&w("...XXXX....")), 1);
        assert_eq!(fours(&w("..OXXXX....")), 1);
        assert_eq!(fours(&w("..X.XXX.X..")), 2);
        assert_eq!(fours(&w("..XX.XX....")), 1);
        assert_eq!(fours(&w(".XX.XX.XX..")), 2);
        // Filling the gap would make six: only the other end makes a four.
        assert_eq!(fours(&w("..X.XXXX...")), 1);
        assert_eq!(fours(&w(".XX.XXX....")), 0);
        assert_eq!(fours(&w("....XXX....")), 0);
    }

    #[test]
    fn straight_four_points_need_open_ends_that_make_five() {
        assert_eq!(straight_four_points(&w("....XXX....")).1, 2);
        assert_eq!(straight_four_points(&w("...X.XX....")).1, 1);
        assert_eq!(straight_four_points(&w("..O.XXX....")).1, 1);
        // One end blocked: a four, not a straight four.
        assert_eq!(straight_four_points(&w("...OXXX....")).1, 0);
        assert_eq!(straight_four_points(&w("..OXXX.O...")).1, 0);
        // Either four would be completed into a six at one end.
        assert_eq!(straight_four_points(&w("..X.XX.X...")).1, 0);
        // The board edge is no black stone, but it is no empty end either.
        assert_eq!(straight_four_points(&w("|..XXX.....")).1, 2);
        assert_eq!(straight_four_points(&w("||.XXX.....")).1, 1);
    }
}
