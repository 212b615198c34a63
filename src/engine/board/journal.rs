//! Taking a stone back by putting back what it changed, instead of working it out again.
//!
//! A stone placed or removed changes the neighbourhood keys of the forty-odd points within
//! reach of it, and through them the shapes, threats and values of about half of those, each
//! a few table reads. Working them out again when the search takes the move back cost as
//! much as the move itself, and the search takes back every move it makes. So each stone
//! placed or removed through [`Board::apply`] keeps a journal: the point summaries it is about
//! to change, as they were, and the board's sums before it. Taking the action back restores
//! them in the reverse order; only the keys (a subtraction each) and the stones near each
//! point are reworked.

use super::{Board, CELL_WORDS, EMPTY, FitSums};
use crate::engine::patterns::{THREATS, Threat};

/// One stone placed or removed, and the board's sums before it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Op {
    cell: u16,
    colour: u8,
    /// Placed (`true`) or removed.
    add: bool,
    /// The length of the journal of point summaries before this stone.
    from: u32,
    hash: u64,
    pattern: [i32; 2],
    fours: [u32; 2],
    shape_sum: [i32; 2],
    threat_count: [[u16; THREATS]; 2],
    fit_sums: [[i32; 2]; 2],
    /// The frontier before the stone: taking it back restores it instead of working out
    /// which of the twenty-five cells around the stone still have a stone near.
    frontier: [u64; CELL_WORDS],
}

/// A point's summary for one colour as it was before a stone changed it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Saved {
    cell: u16,
    k: u8,
    threat: Threat,
    shapes: [u8; 4],
    /// The line codes, on a board whose fit values them (zero otherwise).
    codes: [u8; 4],
    value: i32,
    /// The fitted values, on a board with a fit (zero otherwise).
    fit: [i32; 2],
}

impl Board {
    /// Starts the journal of a stone of `colour` placed on (`add`) or removed from cell `i`,
    /// before anything of it is done.
    pub(super) fn begin(&mut self, i: usize, colour: u8, add: bool) {
        self.ops.push(Op {
            cell: i as u16,
            colour,
            add,
            from: self.saved.len() as u32,
            hash: self.hash,
            pattern: self.pattern,
            fours: self.fours,
            shape_sum: self.shape_sum,
            threat_count: self.threat_count,
            fit_sums: self.fit.as_deref().map_or([[0; 2]; 2], |f| f.sums),
            frontier: self.frontier,
        });
    }

    /// Keeps cell `j`'s summary for colour index `k` as it is, before the stone being placed or
    /// removed changes it.
    pub(super) fn save(&mut self, j: usize, k: usize) {
        let (fit, codes) = self.fit.as_deref().map_or(([0; 2], [0; 4]), |f| {
            (f.values[j][k], f.codes.get(j).map_or([0; 4], |c| c[k]))
        });
        self.saved.push(Saved {
            cell: j as u16,
            k: k as u8,
            threat: self.threats[j][k],
            shapes: self.shapes[j][k],
            codes,
            value: self.values[j][k],
            fit,
        });
    }

    /// Forgets the journals (a new board's own stones are never taken back).
    pub(super) fn forget_journal(&mut self) {
        self.ops.clear();
        self.saved.clear();
    }

    /// How many stones the journal holds (see [`Board::revert_to`]).
    pub(super) fn journal_len(&self) -> usize {
        self.ops.len()
    }

    /// Takes back the stones placed or removed since the journal held `len` of them, the last
    /// first.
    pub(super) fn revert_to(&mut self, len: usize) {
        while self.ops.len() > len {
            let Some(op) = self.ops.pop() else {
                return;
            };
            self.revert(&op);
        }
    }

    fn revert(&mut self, op: &Op) {
        let i = usize::from(op.cell);
        self.shift_keys(i, op.colour, !op.add);
        let (w, b) = (i / 64, i % 64);
        if op.add {
            self.cells[i] = EMPTY;
            self.stones[w] &= !(1 << b);
        } else {
            self.cells[i] = op.colour;
            self.stones[w] |= 1 << b;
        }
        self.count_near(i, !op.add);
        self.frontier = op.frontier;
        while self.saved.len() > op.from as usize {
            let Some(s) = self.saved.pop() else {
                break;
            };
            let (j, k) = (usize::from(s.cell), usize::from(s.k));
            self.threats[j][k] = s.threat;
            self.shapes[j][k] = s.shapes;
            self.values[j][k] = s.value;
            if let Some(f) = self.fit.as_deref_mut() {
                restore_fit(f, j, k, &s);
            }
        }
        self.hash = op.hash;
        self.pattern = op.pattern;
        self.fours = op.fours;
        self.shape_sum = op.shape_sum;
        self.threat_count = op.threat_count;
        if let Some(f) = self.fit.as_deref_mut() {
            f.sums = op.fit_sums;
        }
    }
}

/// Puts back a point's fitted values and line codes.
fn restore_fit(f: &mut FitSums, j: usize, k: usize, s: &Saved) {
    f.values[j][k] = s.fit;
    if let Some(codes) = f.codes.get_mut(j) {
        codes[k] = s.codes;
    }
}
