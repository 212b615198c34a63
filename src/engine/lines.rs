//! Line codes: a finer name for what one more stone makes along one line than the shape
//! alone (`patterns.rs`), for the fitted evaluation (`fitted.rs`). A code is the shape and how
//! many windows of a winning row's length through the point hold no blocked cell (the other
//! colour or the edge): a point whose line is walled in two cells away and one in open space
//! make the same shape (none, or an open two) but not the same future. Right after the opening
//! most points have no shape worth naming, and there the shapes alone cannot tell the
//! positions apart.

use std::sync::OnceLock;

use super::patterns::{BLOCKED, HALF, LINE_KINDS, POW3, line_kind, shape_table};

/// How many free-window counts a code tells apart (0 to 5).
const FREE: usize = 6;
/// How many line codes there are: 8 shapes times [`FREE`] counts.
pub const LINE_CODES: usize = 8 * FREE;

/// A code by neighbourhood index (the same index as the shape tables).
pub(crate) type CodeTable = [u8; 59_049];

/// The code of a shape and a count of free windows.
pub(crate) fn code(shape: u8, free: usize) -> u8 {
    (usize::from(shape) * FREE + free.min(FREE - 1)) as u8
}

/// The shape of a code.
pub(crate) fn shape_of(code: u8) -> u8 {
    code / FREE as u8
}

/// The shape and free-window count of a code.
#[cfg(test)]
pub(crate) fn parts(code: u8) -> (u8, usize) {
    (code / FREE as u8, usize::from(code) % FREE)
}

/// How many windows of `line` cells through the point of neighbourhood `s` hold no blocked
/// cell (the point itself is empty).
fn free_windows(s: usize, line: usize) -> usize {
    // Neighbourhood positions: 0..HALF before the point, HALF.. after it. A window starting
    // `back` cells before the point covers offsets -back..=line-1-back.
    let blocked = |offset: isize| -> bool {
        let p = if offset < 0 {
            (HALF as isize + offset) as usize
        } else {
            HALF - 1 + offset as usize
        };
        s / POW3[p] % 3 == BLOCKED
    };
    (0..line as isize)
        .filter(|&back| {
            (-back..line as isize - back)
                .filter(|&o| o != 0)
                .all(|o| !blocked(o))
        })
        .count()
}

/// The code table for lines of `line` stones (4 or 5); `exact`: a longer row does not win.
pub(crate) fn code_table(line: u8, exact: bool) -> &'static CodeTable {
    static TABLES: [OnceLock<Box<CodeTable>>; LINE_KINDS] = [const { OnceLock::new() }; 4];
    let (k, stones) = line_kind(line, exact);
    TABLES[k].get_or_init(|| {
        let shapes = shape_table(line, exact);
        let codes: Vec<u8> = (0..shapes.len())
            .map(|s| code(shapes[s], free_windows(s, stones)))
            .collect();
        codes
            .into_boxed_slice()
            .try_into()
            .unwrap_or_else(|_| unreachable!("one code per neighbourhood"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::patterns::{NONE, OPEN_TWO, OWN};

    /// The neighbourhood index of `cells`, written from offset -5 to +5 without the point:
    /// `.` empty, `x` own, `o` blocked.
    fn hood(cells: &str) -> usize {
        let states: Vec<usize> = cells
            .chars()
            .map(|c| match c {
                'x' => OWN,
                'o' => BLOCKED,
                _ => 0,
            })
            .collect();
        assert_eq!(states.len(), 10);
        states.iter().zip(POW3).map(|(s, p)| s * p).sum()
    }

    #[test]
    fn open_space_has_five_free_windows_and_a_wall_takes_them_away() {
        let table = code_table(5, false);
        assert_eq!(parts(table[hood("..........")]), (NONE, 5));
        // Blocked right next to the point: only the window ending at the point is free.
        assert_eq!(parts(table[hood(".....o....")]), (NONE, 1));
        // Blocked on both sides, four cells between: no five fits.
        assert_eq!(parts(table[hood("...o.o....")]), (NONE, 0));
        // Blocked three away on one side: the windows reaching it are lost.
        assert_eq!(parts(table[hood(".......o..")]), (NONE, 3));
        // Further than four away it does not matter.
        assert_eq!(parts(table[hood("o........o")]), (NONE, 5));
    }

    #[test]
    fn the_code_keeps_the_shape() {
        let shapes = shape_table(5, false);
        let table = code_table(5, false);
        let s = hood("....x.....");
        assert_eq!(shapes[s], OPEN_TWO);
        assert_eq!(parts(table[s]), (OPEN_TWO, 5));
        for s in (0..shapes.len()).step_by(97) {
            assert_eq!(parts(table[s]).0, shapes[s]);
            assert!(usize::from(table[s]) < LINE_CODES);
        }
    }

    #[test]
    fn lines_of_four_count_windows_of_four() {
        let table = code_table(4, false);
        assert_eq!(parts(table[hood("..........")]).1, 4);
        assert_eq!(parts(table[hood(".......o..")]).1, 3);
    }
}
