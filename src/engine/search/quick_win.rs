//! Wins the shapes prove without a search (`Style::quick_win`).
//!
//! With nothing to block, a side to move that can make an open four (or two fours) wins in
//! three plies: the other side can stop one five, not two. One that can make a four and an
//! open three at once, where the other side cannot make a four, wins in five: the four's
//! block stands on another line than the three, cannot be a four of its own, and the open
//! four that follows ends the game before any later four of the other side's can. Rapfi's
//! search (read, not copied) scores both as wins at every node; ours scored them as a bonus
//! of the evaluation at the leaves (`eval.rs::tempo`) and searched them out below.

use super::{Search, WIN};
use crate::engine::patterns::Threat;

impl Search<'_> {
    /// The proven score for `me`, the side to move, `ply` plies from the root, when the shapes
    /// say `me` wins as above; `None` otherwise, and always with the setting off (see
    /// [`Search::shapes_win`]).
    pub(super) fn quick_win(&self, me: u8, ply: i32) -> Option<i32> {
        if !self.style.quick_win {
            return None;
        }
        self.shapes_win(me, ply)
    }

    /// Whether a four is answered only by its block and every point may be played: not in
    /// capture games (a capture answers a four too, and can break a line) nor in Renju (a
    /// forbidden point can make a threat false). Where it holds, the shapes prove wins
    /// ([`Search::shapes_win`]) and the leaf's fours may be played out (`qvcf.rs`).
    pub(super) fn lines_decide(&self) -> bool {
        self.b.captures == crate::rules::Captures::None && !self.b.game.rules().is_renju()
    }

    /// [`Search::quick_win`] whatever the setting says: `None` in capture games (a capture can
    /// break a line) and in Renju (a forbidden point can make a threat false). The caller has
    /// checked that the other side cannot make five now.
    pub(super) fn shapes_win(&self, me: u8, ply: i32) -> Option<i32> {
        if !self.lines_decide() {
            return None;
        }
        let b = &self.b;
        if b.threats_at_least(me, Threat::OpenFour) > 0 {
            return Some(WIN - ply - 3);
        }
        let opp = 3 - me;
        if b.threats_at_least(me, Threat::FourThree) > 0
            && b.threats_at_least(opp, Threat::Four) == 0
        {
            return Some(WIN - ply - 5);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::{Engine, Search, Style, WIN, WIN_MIN};
    use crate::engine::Level;
    use crate::engine::test_support::{game, gomoku, node_budget, off_at_every_level};
    use crate::engine::tt::Table;
    use crate::rules::Game;

    /// Black to move: H8-K8 shut at G8 and L9-L10, so L8 makes a four and an open three;
    /// white's stones stand alone in the corners.
    const FOUR_THREE: &str = "H8 G8 J8 A1 K8 O1 L9 A15 L10 O15";

    /// `quick_win` for the side to move of `g` at ply 0, with the setting `on` or off.
    fn quick(g: &Game, on: bool) -> Option<i32> {
        let mut tt = Table::new(12);
        let mut style = Style::for_level(Level::LIVE_MAX);
        style.quick_win = on;
        let s = Search::threats(&mut tt, style, g, node_budget(1_000), Instant::now())
            .expect("in play");
        s.quick_win(s.b.to_move(), 0)
    }

    #[test]
    fn an_open_three_with_nothing_to_block_wins_in_three() {
        // Black's H8-K8 is open at both ends; white's corner stones make nothing.
        let g = gomoku("H8 A1 J8 O1 K8 A15");
        assert_eq!(quick(&g, true), Some(WIN - 3));
        assert_eq!(quick(&g, false), None, "off");
    }

    #[test]
    fn a_four_three_wins_in_five_only_where_the_other_side_has_no_four() {
        let g = gomoku(FOUR_THREE);
        assert_eq!(quick(&g, true), Some(WIN - 5));
        // The search without the setting proves the same win.
        let mut style = Style::for_level(Level::LIVE_MAX);
        style.quick_win = false;
        let mut e = Engine::with_style(Level::LIVE_MAX, style, 1);
        e.choose_with(&g, node_budget(200_000)).expect("a move");
        assert!(e.last_info().score >= WIN_MIN, "{}", e.last_info().score);
        // White's A1-A3 on the edge: A4 makes a four, whose block could come with a four of
        // black's own to answer, so the shapes prove nothing.
        let g = gomoku("H8 G8 J8 A1 K8 A2 L9 A3 L10 O15");
        assert_eq!(quick(&g, true), None);
    }

    #[test]
    fn capture_games_and_renju_are_left_to_the_search() {
        // An open three of the mover's: a capture could break it in Pente (white's N10-P10),
        // a forbidden point in Renju (black's H8-K8).
        for (spec, moves) in [
            ("pente", "K10 N10 A1 O10 T1 P10 A19"),
            ("renju opening=none", "H8 A1 J8 O1 K8 A15"),
        ] {
            let g = game(spec, moves);
            assert_eq!(quick(&g, true), None, "{spec}");
        }
    }

    #[test]
    fn a_quiet_position_wins_nothing_and_no_level_asks() {
        let g = gomoku("H8 A1 J8 O1 L12 A15");
        assert_eq!(quick(&g, true), None);
        off_at_every_level("quick_win", |s| s.quick_win);
        let mut s = Style::for_level(Level::LIVE_MAX);
        s.set("quick_win", "on").expect("on");
        assert!(s.quick_win);
        assert!(s.set("quick_win", "often").is_err());
    }
}
