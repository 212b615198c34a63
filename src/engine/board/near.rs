//! The stones near each point, and the frontier they make: the empty points within two of a
//! stone, where the move generators look for moves.

use super::{Board, CELL_WORDS, STRIDE};

/// The five bits of a cell bit set from cell `first` on, as the low bits of a word.
fn window(set: &[u64; CELL_WORDS], first: usize) -> u64 {
    let (w, b) = (first / 64, first % 64);
    let low = set.get(w).copied().unwrap_or(0);
    let high = set.get(w + 1).copied().unwrap_or(0);
    ((u128::from(high) << 64 | u128::from(low)) >> b) as u64 & 0x1F
}

/// Sets the five bits of a cell bit set from cell `first` on to the low bits of `bits`.
fn set_window(set: &mut [u64; CELL_WORDS], first: usize, bits: u64) {
    let (w, b) = (first / 64, first % 64);
    let mask = 0x1F_u128 << b;
    let value = u128::from(bits & 0x1F) << b;
    if let Some(low) = set.get_mut(w) {
        *low = (*low & !(mask as u64)) | value as u64;
    }
    if let Some(high) = set.get_mut(w + 1) {
        *high = (*high & !((mask >> 64) as u64)) | (value >> 64) as u64;
    }
}

impl Board {
    /// How many stones stand within two points (Chebyshev) of cell `i`.
    #[cfg(test)]
    pub(crate) fn near_at(&self, i: usize) -> u8 {
        self.near[i + 1]
    }

    /// A stone came to (`add`) or left cell `i`: the count of stones near each cell of the
    /// 5 by 5 square around it, and which of those cells are in the frontier.
    ///
    /// Row by row, five counts at once: the five bytes are read as one word and one is added
    /// to (or taken from) each, which never carries into the next byte as a count stays
    /// within 0..=25. The square's first and last columns may fall one cell beyond the padded
    /// row (a border cell of the row next to it, or the spare byte before the array): those
    /// are never on the board, so their counts are never read.
    pub(super) fn update_near(&mut self, i: usize, add: bool) {
        let row = i / STRIDE;
        for r in row.saturating_sub(2)..=(row + 2).min(STRIDE - 1) {
            let Some((at, counts)) = self.count_row(i, r, add) else {
                continue;
            };
            // The border rows hold no board cell, and so no frontier.
            if r == 0 || r == STRIDE - 1 {
                continue;
            }
            // A cell is in the frontier while it is empty, on the board, with a stone near:
            // after a stone came, every cell of the square has one.
            let near = if add {
                0x1F
            } else {
                // Counts are below 32: adding 31 to each sets its bit 5 when it is not zero.
                let nonzero = ((counts & 0x1F_1F1F_1F1F) + 0x1F_1F1F_1F1F) & 0x20_2020_2020;
                (0..5).fold(0u64, |m, t| m | (nonzero >> (8 * t + 5) & 1) << t)
            };
            let first = at - 1;
            let open = window(&self.board_bits, first) & !window(&self.stones, first);
            set_window(&mut self.frontier, first, open & near);
        }
    }

    /// The counts alone of [`Board::update_near`], for a stone taken back whose frontier the
    /// journal restores.
    pub(super) fn count_near(&mut self, i: usize, add: bool) {
        let row = i / STRIDE;
        for r in row.saturating_sub(2)..=(row + 2).min(STRIDE - 1) {
            self.count_row(i, r, add);
        }
    }

    /// Adds one to (`add`) or takes one from the counts of the five cells of row `r` around
    /// cell `i`'s column; returns where they start in `near` and the word they are now.
    #[inline(always)]
    fn count_row(&mut self, i: usize, r: usize, add: bool) -> Option<(usize, u64)> {
        /// One in each of the five low bytes.
        const FIVE: u64 = 0x01_0101_0101;
        // The square's first cell in this row, in `near`'s indices (cell + 1).
        let at = (r * STRIDE + i % STRIDE + 1).wrapping_sub(2);
        let bytes = self.near.get_mut(at..at + 8)?;
        let mut word = [0; 8];
        word.copy_from_slice(bytes);
        let counts = if add {
            u64::from_le_bytes(word).wrapping_add(FIVE)
        } else {
            u64::from_le_bytes(word).wrapping_sub(FIVE)
        };
        bytes.copy_from_slice(&counts.to_le_bytes());
        Some((at, counts))
    }
}
