//! The answers to a four-three in the making (`Style::defend43`).
//!
//! A point where the opponent makes a four and an open three with one stone wins for the
//! opponent unless the side to move takes it away now or has fours of its own: the four must
//! be blocked, and then the three becomes an open four. Without this a node facing such a
//! point was a free choice, where the few moves that answer it compete with every other move
//! for the move count, and the rest are each refuted by the four-three; Rapfi's move picker
//! (read, not copied) searches only the answers there, as at a node that must stop an open
//! three.

use super::{Cand, Search};
use crate::engine::patterns::Threat;
use crate::rules::Action;

/// More four-three points than this are not answered one move at a time: such a position is
/// lost or rich in counter-threats, and a free node's search judges it better than a filter.
const MOST_POINTS: usize = 2;

/// How far along a line from a four-three point a stone can still take it away: the four's
/// and the three's stones and the points that keep them open lie within four cells.
const REACH: i32 = 4;

impl Search<'_> {
    /// When the opponent has a four-three point (and nothing stronger, which `defences`
    /// answers), the moves worth searching: those after which the opponent has no four-three
    /// point left, and the mover's own fours. `None` when there is no such point, when there
    /// are too many, or when no move answers them (the node is then searched as a free one).
    /// Scores what it keeps as [`Search::forced_moves`] does.
    pub(super) fn four_three_defences(
        &mut self,
        me: u8,
        cands: &[Cand],
        scored: bool,
    ) -> Option<Vec<Cand>> {
        let opp = 3 - me;
        if !self.style.defend43
            || self.b.threats_at_least(opp, Threat::FourThree) == 0
            || self.b.threats_at_least(opp, Threat::OpenFour) > 0
            || self.b.game.threatened_line().is_some()
        {
            return None;
        }
        let points: Vec<usize> = self
            .b
            .frontier()
            .filter(|&i| self.b.threat_at(i, opp) >= Threat::FourThree)
            .take(MOST_POINTS + 1)
            .collect();
        if points.is_empty() || points.len() > MOST_POINTS {
            return None;
        }
        // Every answer stands on a line through the first point (within `REACH`): the others
        // must be taken away by the same stone.
        let first = self.b.point(points[0])?;
        let near = |q: crate::rules::Point| -> bool {
            let dr = i32::from(q.row()) - i32::from(first.row());
            let dc = i32::from(q.col()) - i32::from(first.col());
            let aligned = dr == 0 || dc == 0 || dr.abs() == dc.abs();
            aligned && dr.abs().max(dc.abs()) <= REACH
        };
        let mut keep = Vec::new();
        // Whether some stone other than a four takes the threat away.
        let mut answered_any = false;
        for c in cands {
            let i = usize::from(c.cell);
            if self.b.makes_a_four(i, me) {
                keep.push(*c);
                continue;
            }
            let Some(p) = self.b.point(i).filter(|&q| near(q)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let answered = self.b.threats_at_least(opp, Threat::FourThree) == 0;
            self.b.undo();
            if answered {
                answered_any = true;
                keep.push(*c);
            }
        }
        // Only fours (or nothing) left: no stone takes the threat away, so the node is judged
        // by the free search rather than by a list that may hold no real answer.
        if !answered_any {
            return None;
        }
        Some(self.ordered(me, keep, scored))
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::{Search, Style};
    use crate::engine::Level;
    use crate::engine::test_support::{gomoku, node_budget, off_at_every_level, refuses};
    use crate::engine::tt::Table;
    use crate::rules::Game;

    /// White (waiting) has H8-K8, shut at G8 by black, and L9-L10: L8 makes a four and an
    /// open three at once. Black's stones in the corners make nothing.
    const FOUR_THREE: &str = "G8 H8 A1 J8 A15 K8 O1 L9 O15 L10";

    /// The answers `four_three_defences` keeps for the side to move of `g`, by name, sorted;
    /// `None` as the function says.
    fn answers(g: &Game, on: bool) -> Option<Vec<String>> {
        let mut tt = Table::new(12);
        let mut style = Style::for_level(Level::LIVE_MAX);
        style.defend43 = on;
        let mut s = Search::threats(&mut tt, style, g, node_budget(1_000), Instant::now())
            .expect("in play");
        let me = s.b.to_move();
        let (cands, _) = s.generate_unsorted(me);
        let kept = s.four_three_defences(me, &cands, true)?;
        let mut names: Vec<String> = kept
            .iter()
            .filter_map(|c| s.b.point(usize::from(c.cell)))
            .map(|p| p.to_string())
            .collect();
        names.sort();
        Some(names)
    }

    #[test]
    fn only_the_moves_that_take_the_four_three_away_are_searched() {
        let g = gomoku(FOUR_THREE);
        // L8 itself; M8 kills the four (H8-L8 would be shut at both ends); L7 and L11 shut
        // the three (L8-L10 could no longer become an open four). L6 or L12 leave it open.
        assert_eq!(
            answers(&g, true),
            Some(vec!["L11".into(), "L7".into(), "L8".into(), "M8".into()])
        );
        // Off, the node is a free choice as before.
        assert_eq!(answers(&g, false), None);
    }

    #[test]
    fn the_mover_s_own_fours_are_answers_too() {
        // Black also has B1-D1 on the edge row: A1, E1 and F1 each make a four of it.
        let g = gomoku("G8 H8 B1 J8 C1 K8 D1 L9 O15 L10");
        let kept = answers(&g, true).expect("answers");
        assert!(kept.contains(&"E1".to_string()), "{kept:?}");
        for a in ["L7", "L8", "L11", "M8"] {
            assert!(kept.contains(&a.to_string()), "{a} in {kept:?}");
        }
        assert!(!kept.contains(&"L6".to_string()));
    }

    #[test]
    fn a_position_without_a_four_three_point_is_left_to_the_free_search() {
        // Without L10 white's L9 makes no three with L8.
        let g = gomoku("G8 H8 A1 J8 A15 K8 O1 L9 O15 B13");
        assert_eq!(answers(&g, true), None);
    }

    #[test]
    fn the_setting_is_off_at_every_level_and_refuses_what_it_cannot_read() {
        off_at_every_level("defend43", |s| s.defend43);
        let mut s = Style::for_level(Level::LIVE_MAX);
        s.set("defend43", "on").expect("on");
        assert!(s.defend43);
        refuses(&mut s, "defend43", &["maybe", ""]);
    }
}
