//! Line windows read from a point's neighbourhoods: what a stone at an empty point changes in
//! the windows through it (every run of `line` cells on one axis).
//!
//! The evaluation weighs each window free of the other colour by how many stones of one colour
//! it holds (a window one stone short of a line is a four). A window through a point lies
//! within `line - 1` cells of it on one axis, inside the five cells on each side that the shape
//! tables already index (see `patterns`), so what one stone there does to the windows of its
//! axis is a function of that same neighbourhood index: one table lookup per axis instead of
//! keeping every window's stone counts up to date.

use std::sync::OnceLock;

use super::patterns::{BLOCKED, HALF, OWN, POW3};

/// Neighbourhoods of a point on one line: 3 states for each of the 10 cells.
const STATES: usize = 59_049;

/// Pattern weight of a window by how many stones of one colour it holds (none of the other).
///
/// A window one stone short of a line is a four (it wins next move); overlapping windows make
/// an open three (two or three windows two short) worth far more than a closed one (one window).
pub(crate) fn window_values(line: u8) -> [i32; 6] {
    if line == 4 {
        [0, 2, 30, 900, 20_000, 20_000]
    } else {
        [0, 1, 8, 60, 900, 20_000]
    }
}

/// What a stone at an empty point does to the windows through it on one axis, seen from one
/// colour ("own"; the other colour and the edge are blocked).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct WindowSums {
    /// An own stone there: the gain in the own windows' values (windows holding a blocked
    /// cell count nothing).
    pub gain: i32,
    /// A stone of the other colour there: the value of the own windows it kills.
    pub kill: i32,
    /// An own stone there: the change in own windows one stone short of a line.
    pub four_gain: i8,
    /// A stone of the other colour there: own windows one stone short that it kills.
    pub four_kill: i8,
}

/// The table of one line length (4 or 5), by neighbourhood index.
pub(crate) type WindowTable = [WindowSums; STATES];

/// The window table of lines of `line` stones (4 or 5).
pub(crate) fn window_table(line: u8) -> &'static WindowTable {
    static TABLES: [OnceLock<Box<WindowTable>>; 2] = [OnceLock::new(), OnceLock::new()];
    let line = if line >= 5 { 5 } else { 4 };
    TABLES[usize::from(line == 5)].get_or_init(|| build(line))
}

/// The digit of the neighbour at `offset` (-5..=5, not 0) in index `s`.
fn at(s: usize, offset: isize) -> usize {
    let p = if offset < 0 {
        (offset + HALF as isize) as usize
    } else {
        (offset + HALF as isize - 1) as usize
    };
    s / POW3[p] % 3
}

fn build(line: u8) -> Box<WindowTable> {
    let values = window_values(line);
    let len = isize::from(line);
    let short = usize::from(line) - 1;
    let mut table: Box<WindowTable> = vec![WindowSums::default(); STATES]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("the table has STATES entries"));
    for (s, sums) in table.iter_mut().enumerate() {
        for first in (1 - len)..=0 {
            let mut own = 0;
            let mut blocked = false;
            for o in first..first + len {
                if o == 0 {
                    continue;
                }
                match at(s, o) {
                    OWN => own += 1,
                    BLOCKED => blocked = true,
                    _ => {}
                }
            }
            if blocked {
                continue;
            }
            sums.gain += values[own + 1] - values[own];
            sums.kill += values[own];
            if own + 1 == short {
                sums.four_gain += 1;
            }
            if own == short {
                sums.four_gain -= 1;
                sums.four_kill += 1;
            }
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The index of a line written around the point `*`: `x` own, `o` blocked, `.` empty;
    /// cells beyond the text are blocked.
    fn index(text: &str) -> usize {
        let centre = text.find('*').expect("a centre") as isize;
        let bytes = text.as_bytes();
        let mut s = 0;
        for (p, pow) in POW3.iter().enumerate() {
            let o = if p < HALF {
                p as isize - HALF as isize
            } else {
                p as isize - HALF as isize + 1
            };
            let c = usize::try_from(centre + o)
                .ok()
                .and_then(|k| bytes.get(k).copied())
                .unwrap_or(b'o');
            s += pow
                * match c {
                    b'x' => OWN,
                    b'.' => 0,
                    _ => BLOCKED,
                };
        }
        s
    }

    #[test]
    fn windows_through_a_point_are_counted_from_its_neighbourhood() {
        let t = window_table(5);
        // Open line: five windows through the point, all empty.
        let e = t[index(".....*.....")];
        assert_eq!((e.gain, e.kill, e.four_gain, e.four_kill), (5, 0, 0, 0));
        // Edge right after the point: only the window ending at it.
        let e = t[index("....*")];
        assert_eq!((e.gain, e.kill), (1, 0));
        // Three own stones to the left: the windows holding them go from 3 to 4 (a four).
        let e = t[index("..xxx*.....")];
        // Windows starting at -4 (. x x x *: 3 own), -3 (x x x * .: 3), -2 (x x * . .: 2),
        // -1 (x * . . .: 1), 0 (* . . . .: 0).
        let v = window_values(5);
        assert_eq!(
            e.gain,
            2 * (v[4] - v[3]) + (v[3] - v[2]) + (v[2] - v[1]) + (v[1] - v[0])
        );
        assert_eq!(e.kill, 2 * v[3] + v[2] + v[1]);
        assert_eq!((e.four_gain, e.four_kill), (2, 0));
        // Four own stones: the window of five is completed (no longer one short), the other
        // window of three becomes short; the other colour there kills the four.
        let e = t[index(".xxxx*.....")];
        assert_eq!(e.four_gain, 0);
        assert_eq!(e.four_kill, 1);
        // A blocked cell inside a window: that window counts nothing.
        let e = t[index("o*o")];
        assert_eq!(e, WindowSums::default());
        // Lines of four.
        let e = window_table(4)[index("...xx*...")];
        assert_eq!((e.four_gain, e.four_kill), (2, 0));
    }
}
