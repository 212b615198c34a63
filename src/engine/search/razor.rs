//! Razoring: a node far below alpha near the leaves fails low at once, unless the side to
//! move wins by continuous fours (Rapfi's step, read, not copied: its razoring drops into a
//! search of fours, which fails low when there is no winning run of them).

use super::{Search, Tactics, WIN_MIN};

/// The most plies left at which razoring applies (Rapfi's margin is finite below 2.6 plies).
const RAZOR_PLIES: i32 = 2;

/// Attacker moves the check for a continuous-four win looks ahead: short, since it runs at
/// many nodes near the leaves.
const RAZOR_VCF: i32 = 8;

impl Search<'_> {
    /// The score of a free node off the principal variation (`null_window`) whose evaluation
    /// (`trend`, or evaluated here) stands more than `style.razor` a ply below `alpha`, with
    /// at most two plies left: its evaluation, as a fail-low, when the side to move has no
    /// continuous-four win; `None` (search the node) otherwise or when razoring is off.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn razor(
        &mut self,
        me: u8,
        tac: &Tactics,
        depth: i32,
        null_window: bool,
        alpha: i32,
        ply: i32,
        trend: Option<(i32, bool)>,
    ) -> Option<i32> {
        let margin = self.style.razor;
        if margin == 0
            || !null_window
            || !(1..=RAZOR_PLIES).contains(&depth)
            || alpha.abs() >= WIN_MIN
        {
            return None;
        }
        let eval = trend.map_or_else(|| self.evaluate(me, tac, ply), |t| t.0);
        if eval.abs() >= WIN_MIN || eval + margin * depth >= alpha {
            return None;
        }
        // A run of fours is the one way a quiet-looking node this far behind turns around
        // within a ply or two; the check is what keeps razoring from pruning a win.
        let wins = self.vcf_root(me, RAZOR_VCF).is_some();
        if self.stopped || wins {
            return None;
        }
        Some(eval)
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::{gomoku, node_budget};
    use std::time::Instant;

    use super::super::Table;
    use super::*;
    use crate::engine::Level;
    use crate::engine::search::Style;

    fn search_with<'a>(tt: &'a mut Table, moves: &str, razor: &str) -> Search<'a> {
        let g = gomoku(moves);
        let mut style = Style::for_level(Level::new(5).expect("level"));
        style.set("razor", razor).expect("razor");
        let limits = node_budget(10_000_000);
        Search::threats(tt, style, &g, limits, Instant::now()).expect("search")
    }

    #[test]
    fn a_node_far_below_alpha_fails_low_without_a_search() {
        let mut tt = Table::new(12);
        // Black has an open three to white's scattered stones: white, to move, is far behind.
        let mut s = search_with(&mut tt, "H8 A1 J8 A15 K8", "40");
        let me = s.b.to_move();
        let eval = s.evaluate(me, &Tactics::default(), 1);
        // A window well above the evaluation: razored at one and two plies left, to the
        // evaluation itself.
        let alpha = eval + 200;
        assert_eq!(
            s.razor(me, &Tactics::default(), 1, true, alpha, 1, None),
            Some(eval)
        );
        assert_eq!(
            s.razor(me, &Tactics::default(), 2, true, alpha, 1, None),
            Some(eval)
        );
        // Not three plies from the leaves, not on the principal variation, not off, not
        // within the margin, not against a window that is a win.
        assert_eq!(
            s.razor(me, &Tactics::default(), 3, true, alpha, 1, None),
            None
        );
        assert_eq!(
            s.razor(me, &Tactics::default(), 1, false, alpha, 1, None),
            None
        );
        assert_eq!(
            s.razor(me, &Tactics::default(), 1, true, eval + 30, 1, None),
            None
        );
        assert_eq!(
            s.razor(me, &Tactics::default(), 1, true, WIN_MIN + 5, 1, None),
            None
        );
        let mut tt = Table::new(12);
        let mut off = search_with(&mut tt, "H8 A1 J8 A15 K8", "0");
        assert_eq!(
            off.razor(me, &Tactics::default(), 1, true, alpha, 1, None),
            None
        );
    }

    #[test]
    fn a_side_that_wins_by_fours_is_never_razored() {
        let mut tt = Table::new(12);
        // Black to move: L8 makes two fours at once (H8-L8, white on G8; L8-L11, white on
        // L12), a win by fours however the evaluation and the window stand.
        let moves = "H8 G8 J8 L12 K8 A1 L9 A15 L10 O1 L11 O15";
        let mut s = search_with(&mut tt, moves, "40");
        let me = s.b.to_move();
        assert!(
            s.vcf_root(me, RAZOR_VCF).is_some(),
            "the position has its win"
        );
        let eval = s.evaluate(me, &Tactics::default(), 1);
        assert_eq!(
            s.razor(me, &Tactics::default(), 1, true, eval + 500, 1, None),
            None
        );
        // The same window with white to move instead (no fours of its own) is razored.
        let mut tt = Table::new(12);
        let mut w = search_with(&mut tt, &format!("{moves} A8"), "40");
        let me = w.b.to_move();
        let eval = w.evaluate(me, &Tactics::default(), 1);
        assert_eq!(
            w.razor(me, &Tactics::default(), 1, true, eval + 500, 1, None),
            Some(eval)
        );
    }
}
