//! The padded board: cell indices, directions, and stone bookkeeping.

use super::Game;
use crate::rules::point::Point;

/// Distance between vertically adjacent cells of the padded board.
pub(super) const STRIDE: usize = 21;
/// Cells of the padded board: a border of walls around the largest board.
pub(super) const CELLS: usize = STRIDE * STRIDE;
pub(super) const EMPTY: u8 = 0;
pub(super) const WALL: u8 = 8;
/// The 8 directions, as index offsets; opposite directions are neighbours in the list.
pub(super) const DIRS: [isize; 8] = [
    1,
    -1,
    STRIDE as isize,
    -(STRIDE as isize),
    STRIDE as isize + 1,
    -(STRIDE as isize + 1),
    STRIDE as isize - 1,
    -(STRIDE as isize - 1),
];
/// The 4 axes (one direction of each line through a point).
pub(super) const AXES: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

pub(super) fn idx(p: Point) -> usize {
    (usize::from(p.row()) + 1) * STRIDE + usize::from(p.col()) + 1
}

pub(super) fn point_at(i: usize) -> Point {
    // Only called for indices of points on the board, so both parts fit.
    let row = (i / STRIDE - 1) as u8;
    let col = (i % STRIDE - 1) as u8;
    Point::new(col, row, crate::rules::point::MAX_SIZE).expect("index of an on-board cell")
}

pub(super) fn step(i: usize, d: isize) -> usize {
    i.wrapping_add_signed(d)
}

pub(super) fn is_stone(v: u8) -> bool {
    v.wrapping_sub(1) < 4
}

impl Game {
    pub(super) fn put(&mut self, i: usize, colour: u8) {
        self.cells[i] = colour;
        let slot = usize::from(self.empty_slot[i]);
        let last = *self.empties.last().expect("an empty point was played");
        self.empties.swap_remove(slot);
        if slot < self.empties.len() {
            self.empty_slot[usize::from(last)] = slot as u16;
        }
        self.empty_slot[i] = u16::MAX;
    }

    pub(super) fn clear(&mut self, i: usize) {
        self.cells[i] = EMPTY;
        self.empty_slot[i] = self.empties.len() as u16;
        self.empties.push(i as u16);
    }

    /// How many cells after `i` in direction `d` hold stones of any colour, counting at most `limit`.
    pub(super) fn stones_in_a_row(&self, i: usize, d: isize, limit: usize) -> usize {
        let mut n = 0;
        let mut j = step(i, d);
        while n < limit && is_stone(self.cells[j]) {
            n += 1;
            j = step(j, d);
        }
        n
    }

    /// Length of the run of `colour` starting after `i` in direction `d`.
    pub(super) fn run(&self, i: usize, d: isize, colour: u8) -> usize {
        let mut n = 0;
        let mut j = step(i, d);
        while self.cells[j] == colour {
            n += 1;
            j = step(j, d);
        }
        n
    }
}
