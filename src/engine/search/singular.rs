//! Singular extensions (`Style::singular`), as Stockfish and Rapfi search them.
//!
//! At a free node deep enough from the leaves whose table move failed high before, the
//! other moves are searched first, shallower and on a null window just below the table's
//! score. When none of them comes near it, the table move is the only good move here (it is
//! "singular") and is searched a ply deeper: forcing-looking quiet moves that decide the
//! game get the depth a four's answer gets. When another move also reaches a bound above
//! `beta`, two moves fail high and the node is cut at once (multi-cut); when the table's
//! score is above `beta` but the move is not singular, the table move is searched a ply
//! shallower (Rapfi's "likely to fail high" reduction). Rapfi puts its version at about 52
//! Elo in its own self-play.

use crate::engine::tt::Bound;

use super::per_ply::{PLIES, slot};
use super::{Search, Style, WIN_MIN};

/// The cell each ply's node leaves out while it tests its table move (`u16::MAX`: none).
pub(super) struct Excluded([u16; PLIES]);

impl Excluded {
    /// No node leaves anything out.
    pub(super) fn new() -> Excluded {
        Excluded([u16::MAX; PLIES])
    }

    /// The cell the node at `ply` leaves out, `u16::MAX` when none (or beyond the table).
    pub(super) fn at(&self, ply: i32) -> u16 {
        slot(ply).map_or(u16::MAX, |p| self.0[p])
    }

    fn set(&mut self, ply: i32, cell: u16) {
        if let Some(p) = slot(ply) {
            self.0[p] = cell;
        }
    }
}

/// What the test found: how many plies the table move gains or loses, or a cut of the node.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Singular {
    /// Search the table move `n` plies deeper (negative: shallower).
    Extend(i32),
    /// Two moves reach past `beta`: the node fails high with this score.
    Cut(i32),
}

/// The null-window bound the other moves are tested against, when the node is to test its
/// table move: a style that asks (`singular` > 0), not the root nor a node already testing
/// (`excluded`), at least `singular` plies from the leaves, an extension left (`ext`), and a
/// table entry that failed high or was exact, searched at most two plies shallower, with a
/// score that is not a found win or loss. The bound is the table's score less `se_margin`
/// a ply.
pub(super) fn bound_for(
    style: &Style,
    ply: i32,
    depth: i32,
    ext: i32,
    excluded: bool,
    entry: Option<(i32, Bound, i32)>,
) -> Option<i32> {
    let (score, bound, tt_depth) = entry?;
    (style.singular > 0
        && ply > 0
        && !excluded
        && ext > 0
        && depth >= style.singular
        && bound != Bound::Upper
        && tt_depth >= depth - 2
        && score.abs() < WIN_MIN)
        .then(|| score - style.se_margin * depth)
}

impl Search<'_> {
    /// Tests the table move `tt_move` of the free node at `ply` (see the module's doc):
    /// searches the node again without it at half `depth` on a null window at `bound`
    /// ([`bound_for`]). `tt_score`: the table's score; `None` when the search stopped.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn singular(
        &mut self,
        tt_move: u16,
        tt_score: i32,
        bound: i32,
        depth: i32,
        beta: i32,
        ply: i32,
        ext: i32,
        cut: bool,
    ) -> Option<Singular> {
        self.excluded.set(ply, tt_move);
        let v = self.negamax(depth / 2, bound - 1, bound, ply, ext, cut);
        self.excluded.set(ply, u16::MAX);
        if self.stopped {
            return None;
        }
        Some(if v < bound {
            Singular::Extend(1)
        } else if bound >= beta {
            Singular::Cut(bound)
        } else if tt_score >= beta {
            Singular::Extend(-1)
        } else {
            Singular::Extend(0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Level;
    use crate::engine::search::{EXTENSIONS, INF, Limits};
    use crate::engine::test_support::gomoku;
    use crate::engine::tt::Table;
    use std::time::{Duration, Instant};

    fn style(singular: i32) -> Style {
        let mut s = Style::for_level(Level::new(5).expect("level"));
        s.set("singular", &singular.to_string()).expect("setting");
        s.set("se_margin", "3").expect("setting");
        s
    }

    #[test]
    fn the_bound_is_the_table_score_less_the_margin_a_ply() {
        let entry = Some((200, Bound::Lower, 6));
        assert_eq!(bound_for(&style(4), 3, 7, 2, false, entry), Some(200 - 21));
        assert_eq!(
            bound_for(&style(4), 3, 4, 2, false, Some((-50, Bound::Exact, 2))),
            Some(-62)
        );
    }

    #[test]
    fn no_test_unless_every_condition_holds() {
        let entry = Some((200, Bound::Lower, 6));
        let s = style(4);
        // Off in today's levels.
        let level5 = Style::for_level(Level::new(5).expect("level"));
        assert_eq!(bound_for(&level5, 3, 7, 2, false, entry), None);
        // The root, a node already testing, no extension left, too near the leaves.
        assert_eq!(bound_for(&s, 0, 7, 2, false, entry), None);
        assert_eq!(bound_for(&s, 3, 7, 2, true, entry), None);
        assert_eq!(bound_for(&s, 3, 7, 0, false, entry), None);
        assert_eq!(bound_for(&s, 3, 3, 2, false, entry), None);
        // No entry, an upper bound, an entry too shallow, a found win or loss.
        assert_eq!(bound_for(&s, 3, 7, 2, false, None), None);
        assert_eq!(
            bound_for(&s, 3, 7, 2, false, Some((200, Bound::Upper, 6))),
            None
        );
        assert_eq!(
            bound_for(&s, 3, 7, 2, false, Some((200, Bound::Lower, 4))),
            None
        );
        assert_eq!(
            bound_for(&s, 3, 7, 2, false, Some((WIN_MIN, Bound::Lower, 6))),
            None
        );
        assert_eq!(
            bound_for(&s, 3, 7, 2, false, Some((-WIN_MIN, Bound::Exact, 6))),
            None
        );
    }

    /// A search of a quiet position (nothing forced, no three to answer) deepened one ply at
    /// a time from ply 1 to `depth`, as the root's iterations do: its nodes and the table's
    /// entry for the position (depth, best cell).
    fn deepened(style: Style, depth: i32, leave_out: Option<u16>) -> (u64, Option<(i8, u16)>) {
        let g = gomoku("H8 J9 G7 K8 F10 G9");
        let mut tt = Table::new(16);
        let limits = Limits::time(Duration::from_secs(600));
        let mut s = Search::threats(&mut tt, style, &g, limits, Instant::now()).expect("in play");
        if let Some(cell) = leave_out {
            s.excluded.set(1, cell);
        }
        for d in 1..=depth {
            s.negamax(d, -INF, INF, 1, EXTENSIONS, false);
        }
        let stored = s.tt.probe(s.b.key()).map(|e| (e.depth, e.best));
        (s.nodes, stored)
    }

    /// A node that leaves its table move out is the whole node's entry's business only:
    /// it neither reads the entry (which would hand it the move it must not play) nor
    /// writes one (which would be the value of the node without its best move).
    #[test]
    fn a_node_leaving_a_move_out_keeps_out_of_the_table() {
        let st = style(0);
        let (_, whole) = deepened(st, 3, None);
        let (_, best) = whole.expect("the whole node stores its entry");
        assert_ne!(best, u16::MAX);
        let (_, without) = deepened(st, 3, Some(best));
        assert_eq!(without, None, "no entry for the node leaving {best} out");
    }

    /// With the test on, deep free nodes search their table moves deeper or are cut: a
    /// deepened search of a quiet position visits another number of nodes, and still
    /// stores a move; off (0), nothing changes from today's search.
    #[test]
    fn the_test_changes_the_search_only_when_on() {
        let level5 = Style::for_level(Level::new(5).expect("level"));
        let (plain, stored) = deepened(level5, 7, None);
        assert!(stored.is_some_and(|(_, best)| best != u16::MAX));
        assert_eq!(deepened(style(0), 7, None).0, plain);
        let (tested, stored) = deepened(style(3), 7, None);
        assert!(stored.is_some_and(|(_, best)| best != u16::MAX));
        assert_ne!(tested, plain, "singular=3: {tested} nodes, as without");
    }

    #[test]
    fn excluded_cells_are_kept_by_ply_and_cleared() {
        let mut e = Excluded::new();
        assert_eq!(e.at(3), u16::MAX);
        e.set(3, 112);
        assert_eq!(e.at(3), 112);
        assert_eq!(e.at(4), u16::MAX);
        // Beyond the table nothing is kept and nothing breaks.
        e.set(PLIES as i32 + 5, 7);
        assert_eq!(e.at(PLIES as i32 + 5), u16::MAX);
        assert_eq!(e.at(-1), u16::MAX);
        e.set(3, u16::MAX);
        assert_eq!(e.at(3), u16::MAX);
    }
}
