//! Whether the side to move is doing better than two plies before (`Style::improving`).
//!
//! Strong engines (Stockfish, Rapfi) prune harder where the side to move's static evaluation
//! has fallen since its last move: a line that is going badly seldom needs its late moves,
//! while one that is going well may hide a refutation the opponent must find. Here a free node
//! (nothing forced, no three to answer) whose evaluation is not above the one of the same side
//! two plies up searches only a share of its move count, and reverse futility takes a ply off
//! its margin when the evaluation is improving.

use super::per_ply::{PLIES, slot};
use super::{Search, Tactics};
/// No evaluation at this ply on the current line (a forced node, or the root).
const NONE: i32 = i32::MIN;

/// The static evaluations of the free nodes on the line being searched, by ply.
pub(super) struct Trend {
    evals: Vec<i32>,
}

impl Trend {
    /// No evaluation yet.
    pub(super) fn new() -> Trend {
        Trend {
            // Deeper nodes count as improving: nothing is pruned the harder there.
            evals: vec![NONE; PLIES],
        }
    }

    /// A node at `ply` is entered: what an earlier line left there is no longer this line's.
    pub(super) fn clear(&mut self, ply: i32) {
        if let Some(e) = slot(ply).and_then(|p| self.evals.get_mut(p)) {
            *e = NONE;
        }
    }

    /// The free node at `ply` evaluates to `eval` for its side to move; whether that is above
    /// the evaluation two plies up (true as well when there is none to compare with).
    pub(super) fn record(&mut self, ply: i32, eval: i32) -> bool {
        if let Some(e) = slot(ply).and_then(|p| self.evals.get_mut(p)) {
            *e = eval;
        }
        let before = slot(ply - 2)
            .and_then(|p| self.evals.get(p))
            .copied()
            .unwrap_or(NONE);
        before == NONE || eval > before
    }
}

/// The move count of a node that is not improving: `percent` of `count`, rounded up, at least
/// one move (and never more than `count`).
pub(super) fn fewer(count: usize, percent: u32) -> usize {
    let kept = (count * percent.min(100) as usize).div_ceil(100);
    kept.clamp(1, count.max(1))
}

impl Search<'_> {
    /// The free node at `ply` (`me` to move): its static evaluation and whether it is
    /// improving, when the style prunes by it (`None` otherwise: nothing is evaluated).
    pub(super) fn improving(&mut self, me: u8, tac: &Tactics, ply: i32) -> Option<(i32, bool)> {
        if self.style.improving == 0 {
            return None;
        }
        let eval = self.evaluate(me, tac, ply);
        Some((eval, self.trend.record(ply, eval)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn improving_compares_with_the_same_side_two_plies_up() {
        let mut t = Trend::new();
        assert!(t.record(0, -50), "nothing to compare with");
        assert!(t.record(1, 10));
        assert!(t.record(2, -40), "-40 is above -50");
        assert!(!t.record(3, 10), "equal is not improving");
        assert!(!t.record(4, -41));
        // A forced node at ply 4 on another line: nothing to compare ply 6 with.
        t.clear(4);
        assert!(t.record(6, -1_000));
    }

    #[test]
    fn plies_off_the_table_count_as_improving_and_do_not_panic() {
        let mut t = Trend::new();
        t.clear(-3);
        t.clear(i32::MAX);
        assert!(t.record(PLIES as i32 + 5, -7));
        assert!(t.record(-1, 0));
    }

    #[test]
    fn fewer_keeps_a_share_rounded_up() {
        assert_eq!(fewer(2, 50), 1);
        assert_eq!(fewer(5, 50), 3);
        assert_eq!(fewer(12, 50), 6);
        assert_eq!(fewer(12, 100), 12);
        assert_eq!(fewer(12, 1), 1);
        assert_eq!(fewer(0, 50), 1, "one move at least");
    }

    proptest! {
        #[test]
        fn fewer_is_between_one_and_the_count(count in 1usize..64, percent in 1u32..200) {
            let n = fewer(count, percent);
            prop_assert!(n >= 1 && n <= count);
            prop_assert!(fewer(count, 100) == count);
        }
    }
}
