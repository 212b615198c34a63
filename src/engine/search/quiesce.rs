//! The leaf quiescence over continuous fours (`Style::qfours`).
//!
//! A quiet leaf's evaluation reads shapes, not lines of play: a mover who wins by three
//! fours in a row looks no better than one with the same shapes and no win. Strong engines
//! let the side to move try its fours at the leaves (each answered by the forced block, or in
//! capture games a capture) and keep the static score as the floor ("stand pat"), so a quiet
//! move that prepares a continuous-four win is seen a few plies before the win itself.

use super::{Search, Tactics};
use crate::rules::Action;

impl Search<'_> {
    /// The score of a quiet leaf for `me` to move: its evaluation, or better when one of its
    /// fours leads to more (searched within the line's extension budget `ext`, which each
    /// forced answer spends, and at most `Style::qfours` fours on the line).
    pub(super) fn quiesce(&mut self, me: u8, alpha: i32, beta: i32, ply: i32, ext: i32) -> i32 {
        let stand = self.evaluate(me, &Tactics::default(), ply);
        // Without an extension left the opponent's answer would not be searched, and the
        // position after an unanswered four scores the four as a line of the mover's: a dead
        // four would look like a gain.
        if stand >= beta || ext <= 0 || self.qfours_used >= self.style.qfours {
            return stand;
        }
        let fours = self.four_makers(me);
        if fours.is_empty() {
            return stand;
        }
        let (mut best, mut alpha) = (stand, alpha.max(stand));
        for m in fours {
            let Some(p) = self.b.point(usize::from(m.cell)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            self.qfours_used += 1;
            // The opponent's node sees the four and searches its forced answers (depth 0,
            // one extension spent), then this side's node is a quiet leaf again.
            let score = -self.negamax(0, -beta, -alpha, ply + 1, ext, false);
            self.qfours_used -= 1;
            self.b.undo();
            if self.stopped {
                return 0;
            }
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::{gomoku, node_budget};
    use std::time::Instant;

    use super::super::{EXTENSIONS, INF, Search, Style, Tactics, WIN_MIN};
    use crate::engine::Level;
    use crate::engine::tt::Table;
    use crate::rules::Game;

    /// `quiesce` and `evaluate` of `g` for the side to move, with `qfours` fours allowed and
    /// `ext` extensions left.
    fn scores(g: &Game, qfours: i32, ext: i32) -> (i32, i32) {
        let mut tt = Table::new(12);
        let mut style = Style::for_level(Level::LIVE_MAX);
        style.qfours = qfours;
        // The hand-made evaluation, whose dead four and block leave the score as it was: the
        // fitted one (`eval_fit`) values the shut three's points below nothing, so playing
        // them out moves it a little, which says nothing about the quiescence.
        style.eval_fit = false;
        let limits = node_budget(1_000_000);
        let mut s = Search::threats(&mut tt, style, g, limits, Instant::now()).expect("in play");
        let me = s.b.to_move();
        assert!(s.quiet(me), "the test positions are quiet leaves");
        let stand = s.evaluate(me, &Tactics::default(), 0);
        (s.quiesce(me, -INF, INF, 0, ext), stand)
    }

    /// Black to move: H8-H10 (shut at H7) and J11 K11. H11 makes a four and an open three;
    /// white must block at H12, then G11 or L11 makes an open four. Only fours are played.
    const FOURS_WIN: &str = "H8 H7 H9 A1 H10 A3 J11 C1 K11 O15";

    #[test]
    fn a_leaf_whose_mover_wins_by_fours_scores_as_won() {
        let g = gomoku(FOURS_WIN);
        let (q, stand) = scores(&g, 4, EXTENSIONS);
        assert!(q >= WIN_MIN, "quiescence {q}");
        assert!(stand < WIN_MIN, "the evaluation alone sees shapes: {stand}");
    }

    #[test]
    fn without_fours_or_extensions_a_leaf_keeps_its_evaluation() {
        let g = gomoku(FOURS_WIN);
        let (q, stand) = scores(&g, 0, EXTENSIONS);
        assert_eq!(q, stand, "qfours=0 is the evaluation");
        // With no extension left the block would not be searched, and an unanswered four
        // would count as a line of the mover's.
        let (q, stand) = scores(&g, 4, 0);
        assert_eq!(q, stand);
        // One four is not enough here: after H11 and the block, the open four needs a second.
        let (q, _) = scores(&g, 1, EXTENSIONS);
        assert!(q < WIN_MIN, "one four alone does not win: {q}");
    }

    #[test]
    fn a_dead_four_is_no_gain() {
        // Black's only four (H11 or H12 on H8-H10, shut at H7) is blocked and leaves nothing.
        let g = gomoku("H8 H7 H9 A1 H10 A3 C15 C1 E15 O15");
        let (q, stand) = scores(&g, 4, EXTENSIONS);
        assert_eq!(q, stand, "playing the four and its block scores no better");
    }
}
