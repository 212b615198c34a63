//! Killer moves: the moves that refuted a sibling line at the same ply (`Style::killers`), and
//! counter moves: the last refutation of the other side's last move (`Style::counters`).
//!
//! Move count pruning keeps only the first few candidates near the leaves, in the order of the
//! static shape scores. A point that refuted the opponent's last try one line over (the point
//! that breaks its shape, the move that starts a counter-attack) is often the refutation here
//! too, but the static order may rank it past the cut. Two slots a ply, the newest first, are
//! searched right after the table's move.

use super::per_ply::{PLIES, slot};
use super::{Cand, Search};
/// An empty slot.
const NONE: u16 = u16::MAX;

/// The two latest cut-off moves of each ply, newest first.
pub(super) struct Killers {
    slots: Vec<[u16; 2]>,
}

impl Killers {
    /// No killers yet.
    pub(super) fn new() -> Killers {
        Killers {
            slots: vec![[NONE; 2]; PLIES],
        }
    }

    /// A cut-off by `cell` at `ply`: it becomes the newest killer there (a move already in
    /// the first slot stays alone in it, so the two slots hold two different moves).
    pub(super) fn record(&mut self, ply: i32, cell: u16) {
        let Some(s) = slot(ply).and_then(|p| self.slots.get_mut(p)) else {
            return;
        };
        if s[0] != cell {
            s[1] = s[0];
            s[0] = cell;
        }
    }

    /// The killers of `ply`, newest first (`u16::MAX` for an empty slot).
    pub(super) fn at(&self, ply: i32) -> [u16; 2] {
        slot(ply)
            .and_then(|p| self.slots.get(p))
            .copied()
            .unwrap_or([NONE; 2])
    }
}

/// The move that refuted each move of the other side, by the cell that move was played on
/// (`Style::counters`): the answer to a given stone is often the same wherever in the tree
/// that stone was played.
pub(super) struct Counters {
    /// By colour to move (0 black, 1 white), then by the other side's last cell.
    answers: Vec<[u16; 2]>,
}

impl Counters {
    /// No answers yet.
    pub(super) fn new() -> Counters {
        Counters {
            answers: vec![[NONE; 2]; crate::engine::board::CELLS],
        }
    }

    /// `colour`'s move on `cell` refuted the other side's move on `prev`.
    pub(super) fn record(&mut self, colour: u8, prev: usize, cell: u16) {
        if let Some(a) = self.answers.get_mut(prev) {
            a[usize::from(colour.wrapping_sub(1)) & 1] = cell;
        }
    }

    /// `colour`'s last refutation of a move on `prev` (`u16::MAX` for none).
    pub(super) fn at(&self, colour: u8, prev: usize) -> u16 {
        self.answers
            .get(prev)
            .map_or(NONE, |a| a[usize::from(colour.wrapping_sub(1)) & 1])
    }
}

/// Raises the scores of the `first` cells among `cands` above every other candidate's, in
/// the order given (earlier higher), so a best-first pick puts them first and keeps them under
/// any move count cap; with `after_best`, the best of the other candidates stays ahead of
/// them. Empty slots (`u16::MAX`) and cells that are no candidate change nothing.
pub(super) fn promote(first: &[u16], cands: &mut [Cand], after_best: bool) {
    let Some(top) = cands.iter().map(|c| c.score).max() else {
        return;
    };
    let best = if after_best {
        cands
            .iter()
            .filter(|c| !first.contains(&c.cell))
            .min_by_key(|c| super::movegen::order(c))
            .map(|c| c.cell)
    } else {
        None
    };
    for c in cands.iter_mut() {
        if let Some(k) = first.iter().position(|&f| f == c.cell) {
            // Earlier in `first`: higher; `first` holds a handful of cells.
            let lift = i32::try_from(first.len() - k).unwrap_or(1);
            c.score = top.saturating_add(lift);
        } else if Some(c.cell) == best {
            let lift = i32::try_from(first.len() + 1).unwrap_or(1);
            c.score = top.saturating_add(lift);
        }
    }
}

impl Search<'_> {
    /// Puts the killers of `ply` (newest first), then the last refutation of the other
    /// side's last move, first among a free node's candidates, as the style asks.
    pub(super) fn order_by_killers(&self, me: u8, ply: i32, cands: &mut [Cand]) {
        if self.style.killers == 0 && !self.style.counters {
            return;
        }
        let mut first = [NONE; 3];
        if self.style.killers > 0 {
            first[..2].copy_from_slice(&self.killers.at(ply));
        }
        if self.style.counters
            && let Some(prev) = crate::engine::ordering::last_stones(&self.b)[0]
        {
            first[2] = self.counters.at(me, prev);
        }
        promote(&first, cands, self.style.killers >= 2);
    }

    /// Remembers `me`'s cut-off by `cell` at `ply` for the orderings the style uses.
    pub(super) fn record_refutation(&mut self, me: u8, ply: i32, cell: u16) {
        if self.style.killers > 0 {
            self.killers.record(ply, cell);
        }
        if self.style.counters
            && let Some(prev) = crate::engine::ordering::last_stones(&self.b)[0]
        {
            self.counters.record(me, prev, cell);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn cand(cell: u16, score: i32) -> Cand {
        Cand { cell, score }
    }

    #[test]
    fn the_newest_killer_comes_first_and_a_repeat_does_not_fill_both_slots() {
        let mut k = Killers::new();
        assert_eq!(k.at(3), [NONE, NONE]);
        k.record(3, 10);
        k.record(3, 10);
        assert_eq!(k.at(3), [10, NONE]);
        k.record(3, 20);
        assert_eq!(k.at(3), [20, 10]);
        k.record(3, 30);
        assert_eq!(k.at(3), [30, 20]);
        // Other plies are untouched.
        assert_eq!(k.at(2), [NONE, NONE]);
    }

    #[test]
    fn plies_out_of_range_are_ignored() {
        let mut k = Killers::new();
        k.record(-1, 5);
        k.record(PLIES as i32, 5);
        k.record(i32::MAX, 5);
        assert_eq!(k.at(-1), [NONE, NONE]);
        assert_eq!(k.at(PLIES as i32), [NONE, NONE]);
        assert_eq!(k.at(PLIES as i32 - 1), [NONE, NONE]);
    }

    #[test]
    fn promoted_killers_lead_the_best_first_order() {
        let mut c = vec![cand(1, 500), cand(2, 40), cand(3, 900), cand(4, -20)];
        promote(&[4, 2], &mut c, false);
        super::super::movegen::best_first(&mut c, 2);
        let cells: Vec<u16> = c.iter().map(|c| c.cell).collect();
        assert_eq!(cells, vec![4, 2]);
    }

    #[test]
    fn after_the_best_the_killers_come_second() {
        let mut c = vec![cand(1, 500), cand(2, 40), cand(3, 900), cand(4, -20)];
        promote(&[4, 2], &mut c, true);
        super::super::movegen::best_first(&mut c, 3);
        let cells: Vec<u16> = c.iter().map(|c| c.cell).collect();
        assert_eq!(cells, vec![3, 4, 2]);
    }

    #[test]
    fn a_killer_that_is_no_candidate_changes_nothing() {
        let mut c = vec![cand(1, 500), cand(2, 40)];
        promote(&[7, NONE], &mut c, false);
        assert_eq!(c[0].score, 500);
        assert_eq!(c[1].score, 40);
    }

    #[test]
    fn counters_remember_each_colours_answer_to_a_cell() {
        let mut c = Counters::new();
        assert_eq!(c.at(1, 40), NONE);
        c.record(1, 40, 41);
        c.record(2, 40, 57);
        assert_eq!(c.at(1, 40), 41);
        assert_eq!(c.at(2, 40), 57);
        c.record(1, 40, 39);
        assert_eq!(c.at(1, 40), 39);
        // A cell off the table is ignored, not a panic.
        c.record(1, usize::MAX, 3);
        assert_eq!(c.at(1, usize::MAX), NONE);
    }

    proptest! {
        /// Whatever the scores, the killers present come first (newest first) and the other
        /// candidates keep their scores and relative order.
        #[test]
        fn promotion_keeps_the_rest_in_order(
            scores in proptest::collection::vec(-100_000i32..100_000, 1..40),
            k0 in 0u16..45,
            k1 in 0u16..45,
        ) {
            prop_assume!(k0 != k1);
            let mut c: Vec<Cand> = scores.iter().enumerate()
                .map(|(i, &s)| cand(i as u16, s)).collect();
            let before = c.clone();
            promote(&[k0, k1], &mut c, false);
            let n = c.len();
            super::super::movegen::best_first(&mut c, n);
            let mut expect: Vec<u16> = [k0, k1].into_iter()
                .filter(|&k| usize::from(k) < before.len()).collect();
            let mut rest: Vec<Cand> = before.iter().copied()
                .filter(|x| x.cell != k0 && x.cell != k1).collect();
            rest.sort_unstable_by_key(super::super::movegen::order);
            expect.extend(rest.iter().map(|x| x.cell));
            let got: Vec<u16> = c.iter().map(|x| x.cell).collect();
            prop_assert_eq!(got, expect);
        }
    }
}
