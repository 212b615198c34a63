//! Selectivity for the main search: late move reductions and the history heuristic.
//!
//! Each iteration of the plain width-capped search cost about 2.3 times the one before, so
//! more time bought almost no depth. Most of that work goes to the late, quiet moves of the
//! ordered list, which seldom turn out best: they are searched a ply or two shallower first and
//! searched again at full depth only when the shallow search says they beat the best so far.
//! Moves that make or stop a threat (a four, an open three, a capture) are never reduced: the
//! evaluation cannot see what they start, and they are exactly what a threat win is made of.

use super::{Cand, Search, Style, WIN_MIN};
use crate::engine::board::CELLS;
use crate::engine::patterns::Threat;

/// Plies taken off the search of the `index`-th move (0-based, in search order) at a node of
/// remaining `depth`: 0 for the first `style.lmr` moves, for moves that are `tactical`, at
/// shallow depths (below 2 the move is all but a leaf anyway), and when reductions are off
/// (`lmr` = 0); 2 for moves from `style.lmr_late` on (0: never) at depth 3 or more; else 1.
pub(super) fn reduction(style: &Style, depth: i32, index: usize, tactical: bool) -> i32 {
    if style.lmr == 0 || tactical || depth < 2 || index < style.lmr {
        0
    } else if style.lmr_log > 0 {
        // Rapfi's and Stockfish's shape: more for later moves and deeper nodes, growing with
        // the logarithm of both; at least one ply, and the move is still searched.
        let r = (depth as f32).ln() * ((index + 1) as f32).ln() * style.lmr_log as f32 / 100.0;
        (r as i32).clamp(1, depth - 1)
    } else if style.lmr_late > 0 && index >= style.lmr_late && depth >= 3 {
        2
    } else {
        1
    }
}

/// The reduction `r` of a late move (from [`reduction`]) at a node whose side to move is
/// `worsening` (not improving, see `improving.rs`): a ply more when the style says
/// `lmr_trend`, as long as the reduced search keeps at least one ply of `child_depth`; never
/// less than `r`, and nothing added to a move that is not reduced.
pub(super) fn trend_reduction(style: &Style, r: i32, worsening: bool, child_depth: i32) -> i32 {
    if r > 0 && worsening && style.lmr_trend {
        more_plies(r, 1, child_depth)
    } else {
        r
    }
}

/// Plies taken off a node on the principal variation with `depth` plies left whose table
/// entry was searched to `tt_depth`: (depth - tt_depth) × `style.pv_tt` / 100, at most three,
/// and at least one ply is left; nothing when the entry is as deep or `pv_tt` is 0.
pub(super) fn stale_pv(style: &Style, depth: i32, tt_depth: i32) -> i32 {
    if style.pv_tt == 0 || depth <= 1 {
        return 0;
    }
    let gap = i64::from((depth - tt_depth).max(0));
    let r = i32::try_from(gap * i64::from(style.pv_tt) / 100).unwrap_or(3);
    r.min(3).min(depth - 1)
}

/// The depth and extensions left of the full-depth search of a reduced late move whose
/// shallow search beat alpha by `margin`: a ply deeper (paid from the extensions left, as a
/// forced reply is) when `style.lmr_deeper` is on and the margin is at least that; else as
/// it was (`depth`, `ext`). Stockfish's and Rapfi's "deeper search" after a reduced move
/// fails high by far.
pub(super) fn deeper(style: &Style, margin: i32, depth: i32, ext: i32) -> (i32, i32) {
    if style.lmr_deeper > 0 && margin >= style.lmr_deeper && ext > 0 {
        (depth + 1, ext - 1)
    } else {
        (depth, ext)
    }
}

/// The reduction `r` of a late move at a node on the principal variation (`pv`: searched with
/// an open window): `style.lmr_pv` plies fewer, down to none.
pub(super) fn pv_reduction(style: &Style, r: i32, pv: bool) -> i32 {
    if pv { (r - style.lmr_pv).max(0) } else { r }
}

/// The reduction `r` of a late move that makes and stops no threat, searched after the first
/// at a node expected to fail high (`cut`): `style.cut_lmr` plies more.
pub(super) fn cut_reduction(style: &Style, r: i32, cut: bool, child_depth: i32) -> i32 {
    if cut && style.cut_lmr > 0 {
        more_plies(r, style.cut_lmr, child_depth)
    } else {
        r
    }
}

/// `r` plies of reduction and `extra` more, as long as the reduced search keeps at least one
/// ply of `child_depth`; never less than `r`.
fn more_plies(r: i32, extra: i32, child_depth: i32) -> i32 {
    (r + extra).min(child_depth - 1).max(r)
}

/// Whether a free node (nothing forced, no three to answer) off the principal variation
/// (`null_window`) will likely fail high: its evaluation (`trend`, from `improving.rs`)
/// stands at least `style.fhr` a ply above `beta`, and neither is a win or a loss. Its
/// moves that make no four are then searched a ply shallower.
pub(super) fn likely_high(
    style: &Style,
    trend: Option<(i32, bool)>,
    depth: i32,
    null_window: bool,
    beta: i32,
) -> bool {
    let Some((eval, _)) = trend else {
        return false;
    };
    style.fhr > 0
        && null_window
        && depth >= 2
        && beta.abs() < WIN_MIN
        && eval.abs() < WIN_MIN
        && eval >= beta + style.fhr * depth
}

/// Whether a free node whose alpha a move has just raised to `alpha` (still below `beta`)
/// searches the moves after it a ply shallower (`style.air`): with 3 to 11 plies left and
/// no win or loss in sight.
pub(super) fn alpha_reduces(style: &Style, free: bool, depth: i32, alpha: i32, beta: i32) -> bool {
    style.air && free && alpha < beta && (3..12).contains(&depth) && alpha.abs() < 2_000
}

/// How many candidates a node where nothing is forced searches with `depth` plies left:
/// `width` when move count pruning is off (`style.mcp` = 0), else at most `mcp` + depth^1.32
/// (rounded down), so 1 + `mcp` at the last ply and the full width from about 7 plies left.
pub(super) fn move_count(style: &Style, depth: i32, width: usize) -> usize {
    counted(style.mcp, depth, width)
}

/// At most `base` + depth^1.32 (rounded down) of `width` moves; all of them when `base` is 0.
fn counted(base: usize, depth: i32, width: usize) -> usize {
    // depth^1.32 rounded down, for depths 0..=12 (deeper nodes keep the width).
    const GROWTH: [usize; 13] = [0, 1, 2, 4, 6, 8, 10, 13, 15, 18, 20, 23, 26];
    if base == 0 {
        return width;
    }
    let grow = usize::try_from(depth.max(0))
        .ok()
        .and_then(|d| GROWTH.get(d).copied())
        .unwrap_or(width);
    width.min(base.saturating_add(grow))
}

/// How many of its answers a node that must stop an open three searches with `depth` plies
/// left: twice the width, or fewer near the leaves with `style.defence_mcp` (the same growth
/// with depth as [`move_count`]).
pub(super) fn defence_count(style: &Style, depth: i32) -> usize {
    counted(style.defence_mcp, depth, style.width * 2)
}

/// The bonus added to a candidate's ordering score from its history: `weight` for the move
/// that caused the most cut-offs so far, proportionally less for the others, so the bonus
/// never outweighs the shapes beyond `weight` however long the search runs.
pub(super) fn history_bonus(count: u32, max: u32, weight: u32) -> i32 {
    if max == 0 || weight == 0 {
        return 0;
    }
    let b = u64::from(count.min(max)) * u64::from(weight) / u64::from(max);
    i32::try_from(b).unwrap_or(i32::MAX)
}

/// Cut-offs by quiet moves, per colour and cell, weighted by the depth they happened at: a
/// move that refuted one line is often good in its siblings too (the point that breaks the
/// opponent's shape), which the static ordering scores cannot know.
pub(super) struct History {
    counts: Vec<[u32; 2]>,
    max: u32,
}

impl History {
    /// An empty history.
    pub(super) fn new() -> History {
        History {
            counts: vec![[0; 2]; CELLS],
            max: 0,
        }
    }

    /// A cut-off by `colour`'s quiet move on `cell` at remaining `depth`.
    pub(super) fn record(&mut self, colour: u8, cell: u16, depth: i32) {
        let d = u32::try_from(depth.clamp(1, 30)).unwrap_or(1);
        if let Some(c) = self.counts.get_mut(usize::from(cell)) {
            let v = &mut c[usize::from(colour - 1) & 1];
            *v = v.saturating_add(d * d);
            self.max = self.max.max(*v);
        }
    }

    /// The ordering bonus of `colour`'s move on `cell` (see [`history_bonus`]).
    pub(super) fn bonus(&self, colour: u8, cell: u16, weight: u32) -> i32 {
        let count = self
            .counts
            .get(usize::from(cell))
            .map_or(0, |c| c[usize::from(colour - 1) & 1]);
        history_bonus(count, self.max, weight)
    }
}

impl Search<'_> {
    /// Whether `me`'s move on `cell` makes or stops a threat: a threat of its own of at least
    /// the style's `lmr_make` (today an open three or a four), a point where the opponent would
    /// make at least the style's `lmr_block` threat, or a capture either way. Such moves are
    /// searched at full depth (see [`reduction`]).
    pub(super) fn tactical(&self, me: u8, cell: u16) -> bool {
        let b = &self.b;
        let i = usize::from(cell);
        if b.threat_at(i, me) as u8 >= self.style.lmr_make.max(1)
            || b.threat_at(i, 3 - me) as u8 >= self.style.lmr_block.max(1)
        {
            return true;
        }
        b.captures_both(i) != [0, 0]
    }

    /// The reduction of `me`'s answer to an open three, just played (`style.defence_lmr`):
    /// a ply when the opponent still has a point that makes an open four (the answer delays
    /// rather than stops the three, as a four elsewhere does), as long as the reduced search
    /// keeps a ply of `depth`; `r` otherwise.
    pub(super) fn delaying_reduction(&self, me: u8, r: i32, depth: i32) -> i32 {
        if self.style.defence_lmr
            && depth > 1
            && self.b.threats_at_least(3 - me, Threat::OpenFour) > 0
        {
            r.max(1)
        } else {
            r
        }
    }

    /// The depth `me`'s move on `cell` is searched to from a node whose children have
    /// `child_depth` plies: a ply less at a node likely to fail high (`likely_high`) unless
    /// the move makes a four.
    pub(super) fn move_depth(&self, me: u8, cell: u16, child_depth: i32, likely_high: bool) -> i32 {
        if likely_high && self.b.threat_at(usize::from(cell), me) < Threat::Four {
            (child_depth - 1).max(0)
        } else {
            child_depth
        }
    }

    /// Reverse futility pruning (`style.rfp`): the static evaluation of a free node (nothing
    /// forced, no three to answer) off the principal variation (`null_window`) when it stands
    /// at least `rfp` a ply above `beta` with at most `rfp_plies` plies left (a ply fewer when the
    /// side to move is improving). `trend`: the node's evaluation and whether it is improving,
    /// when `Search::improving` has them already (see `improving.rs`); else the evaluation
    /// is read here. `None` to search on.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn futile(
        &self,
        me: u8,
        tac: &super::Tactics,
        depth: i32,
        null_window: bool,
        beta: i32,
        ply: i32,
        trend: Option<(i32, bool)>,
    ) -> Option<i32> {
        let margin = self.style.rfp;
        if margin == 0
            || !null_window
            || !(1..=self.style.rfp_plies).contains(&depth)
            || beta.abs() >= WIN_MIN
        {
            return None;
        }
        let eval = trend.map_or_else(|| self.evaluate(me, tac, ply), |t| t.0);
        let plies = depth - i32::from(trend.is_some_and(|t| t.1));
        (eval.abs() < WIN_MIN && eval - margin * plies >= beta).then_some(eval)
    }

    /// Adds the history bonus to every candidate of `me` (no-op when the style has none).
    pub(super) fn order_by_history(&self, me: u8, cands: &mut [Cand]) {
        let weight = self.style.history;
        if weight == 0 {
            return;
        }
        for c in cands {
            c.score = c
                .score
                .saturating_add(self.history.bonus(me, c.cell, weight));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::test_support::{gomoku, node_budget};
    use std::time::{Duration, Instant};

    use super::super::{Limits, Table};
    use super::*;
    use crate::engine::Level;
    use crate::engine::board::cell_of;
    use crate::rules::{Action, Game, Point, RuleSet};

    /// A search of `g` with `style` (a small node cap; the tests call its parts, not `run`).
    fn search<'a>(tt: &'a mut Table, style: Style, g: &Game) -> Search<'a> {
        let limits = node_budget(1_000);
        Search::threats(tt, style, g, limits, Instant::now()).expect("in play")
    }

    #[test]
    fn threes_fours_and_blocks_are_tactical_quiet_points_are_not() {
        // Black (to move): H8 J8 on row 8 and A15. White: C3 D4 on a diagonal, and O1.
        let g = gomoku("H8 O1 J8 C3 A15 D4");
        let cell = |m: &str| cell_of(Point::parse(m, 15).expect("point")) as u16;
        let mut tt = Table::new(8);
        let mut s = search(&mut tt, style(2, 6), &g);
        s.style.lmr_block = 1;
        assert!(s.tactical(1, cell("K8")), "black's open three");
        assert!(s.tactical(1, cell("E5")), "white's open three point");
        assert!(!s.tactical(1, cell("B14")), "nothing there");
        // With blocks counted from double threes up, white's lone three point is quiet.
        s.style.lmr_block = 3;
        assert!(s.tactical(1, cell("K8")));
        assert!(!s.tactical(1, cell("E5")));
        // With the mover's own threats counted from fours up, its lone open three is quiet
        // too; the opponent's three point counts as a block again from threes up.
        s.style.lmr_make = 2;
        assert!(!s.tactical(1, cell("K8")));
        s.style.lmr_block = 1;
        assert!(s.tactical(1, cell("E5")));
    }

    #[test]
    fn an_answer_that_leaves_the_three_open_is_reduced_a_block_is_not() {
        // Black to move against white's open three L9-L11 (white's other stones far off).
        let g = gomoku("A15 C3 O15 M3 O1 L10 H1 L11 A1 L9");
        let cell = |m: &str| Point::parse(m, 15).expect("point");
        let mut tt = Table::new(8);
        let mut s = search(&mut tt, style(2, 6), &g);
        s.style.defence_lmr = true;
        // L8 stops the three: white has no open four to make after it.
        s.b.apply(Action::Place(cell("L8"))).expect("legal");
        assert_eq!(s.delaying_reduction(1, 0, 5), 0);
        s.b.undo();
        // A quiet point elsewhere leaves it: a ply less, and a larger reduction stays.
        s.b.apply(Action::Place(cell("G3"))).expect("legal");
        assert_eq!(s.delaying_reduction(1, 0, 5), 1);
        assert_eq!(s.delaying_reduction(1, 2, 5), 2);
        // Never below a ply of search, and nothing when the style says no.
        assert_eq!(s.delaying_reduction(1, 0, 1), 0);
        s.style.defence_lmr = false;
        assert_eq!(s.delaying_reduction(1, 0, 5), 0);
    }

    /// Level 6's style with the one-or-two reductions (`lmr_log` off) from move `lmr`, two
    /// plies from move `lmr_late`.
    fn style(lmr: usize, lmr_late: usize) -> Style {
        let mut s = Style::for_level(Level::MAX);
        s.lmr = lmr;
        s.lmr_late = lmr_late;
        s.lmr_log = 0;
        s
    }

    /// Levels 5 and 6 reduce by the logarithms (`lmr_log=100`): nothing for the first two
    /// moves or at one ply left, then at least a ply, more for later moves and deeper nodes,
    /// and the reduced child always keeps a ply.
    #[test]
    fn logarithmic_reductions_grow_with_depth_and_index_and_keep_a_ply() {
        let s = Style::for_level(Level::new(5).expect("level"));
        assert_eq!(s.lmr_log, 100);
        for level in 1..=4 {
            let low = Style::for_level(Level::new(level).expect("level"));
            assert_eq!(low.lmr, 0, "level {level} reduces nothing");
        }
        assert_eq!(reduction(&s, 8, 1, false), 0, "the first moves");
        assert_eq!(reduction(&s, 1, 30, false), 0, "a ply left");
        assert_eq!(reduction(&s, 8, 30, true), 0, "a tactical move");
        // ln 8 × ln 31 = 7.1 plies, all but one of the eight.
        assert_eq!(reduction(&s, 8, 30, false), 7);
        // ln 4 × ln 3 = 1.5: one ply.
        assert_eq!(reduction(&s, 4, 2, false), 1);
        for depth in 2..16 {
            let mut last = 0;
            for index in 2..40 {
                let r = reduction(&s, depth, index, false);
                assert!((1..depth).contains(&r), "depth {depth} move {index}: {r}");
                assert!(r >= last, "depth {depth} move {index}");
                assert!(r >= reduction(&s, depth - 1, index, false).min(depth - 1));
                last = r;
            }
        }
    }

    #[test]
    fn a_worsening_side_reduces_a_ply_more_when_told_and_keeps_a_ply() {
        let mut s = style(2, 6);
        assert_eq!(trend_reduction(&s, 1, true, 5), 1, "off by default");
        s.set("lmr_trend", "on").expect("a switch");
        assert_eq!(trend_reduction(&s, 1, true, 5), 2);
        assert_eq!(trend_reduction(&s, 2, true, 5), 3);
        assert_eq!(trend_reduction(&s, 1, false, 5), 1, "improving: as before");
        assert_eq!(
            trend_reduction(&s, 0, true, 5),
            0,
            "an unreduced move stays so"
        );
        assert_eq!(trend_reduction(&s, 1, true, 2), 1, "one ply must be left");
        assert_eq!(trend_reduction(&s, 2, true, 2), 2, "never less than before");
        assert!(s.set("lmr_trend", "maybe").is_err());
    }

    #[test]
    fn the_principal_variation_reduces_fewer_plies_when_told() {
        let mut s = style(2, 6);
        assert_eq!(pv_reduction(&s, 2, true), 2, "off by default");
        s.set("lmr_pv", "1").expect("a number of plies");
        assert_eq!(pv_reduction(&s, 2, true), 1);
        assert_eq!(pv_reduction(&s, 1, true), 0, "down to none");
        assert_eq!(pv_reduction(&s, 0, true), 0, "never below none");
        assert_eq!(
            pv_reduction(&s, 2, false),
            2,
            "off the variation: as before"
        );
        for bad in ["-1", "9", "one"] {
            assert!(s.set("lmr_pv", bad).is_err(), "{bad}");
        }
        assert_eq!(s.lmr_pv, 1, "a refused value changes nothing");
    }

    #[test]
    fn a_variation_node_the_last_iterations_searched_shallow_loses_plies_when_told() {
        let mut s = style(2, 6);
        assert_eq!(stale_pv(&s, 8, 2), 0, "off by default");
        s.set("pv_tt", "28").expect("a percent");
        assert_eq!(stale_pv(&s, 8, 4), 1, "a gap of 4: 1.12 plies");
        assert_eq!(stale_pv(&s, 12, 4), 2, "a gap of 8: 2.24");
        assert_eq!(stale_pv(&s, 20, 1), 3, "at most three");
        assert_eq!(stale_pv(&s, 8, 8), 0, "an entry as deep: nothing");
        assert_eq!(stale_pv(&s, 8, 10), 0, "a deeper entry: nothing");
        assert_eq!(stale_pv(&s, 8, -100), 3, "an entry of a leaf's depth");
        s.set("pv_tt", "100").expect("a percent");
        assert_eq!(stale_pv(&s, 3, 0), 2, "a ply stays");
        assert_eq!(stale_pv(&s, 1, 0), 0, "a last ply stays");
        for bad in ["-1", "101", "most"] {
            assert!(s.set("pv_tt", bad).is_err(), "{bad}");
        }
        assert_eq!(s.pv_tt, 100, "a refused value changes nothing");
    }

    #[test]
    fn a_late_move_that_beats_alpha_by_far_is_searched_a_ply_deeper_when_told() {
        let mut s = style(2, 6);
        assert_eq!(deeper(&s, 500, 4, 3), (4, 3), "off by default");
        s.set("lmr_deeper", "40").expect("a margin");
        assert_eq!(deeper(&s, 40, 4, 3), (5, 2), "paid from the extensions");
        assert_eq!(deeper(&s, 39, 4, 3), (4, 3), "below the margin");
        assert_eq!(deeper(&s, 500, 4, 0), (4, 0), "no extension left");
        for bad in ["-1", "10001", "far"] {
            assert!(s.set("lmr_deeper", bad).is_err(), "{bad}");
        }
        assert_eq!(s.lmr_deeper, 40, "a refused value changes nothing");
    }

    /// A search of `g` from its root to `depth` plies with no limit: the nodes it took and
    /// what the table then holds of the root (its depth and best move).
    fn fixed_depth(g: &Game, style: Style, depth: i32) -> (u64, Option<(i8, u16)>) {
        let mut tt = Table::new(16);
        let limits = Limits::time(Duration::from_secs(600));
        let mut s = Search::threats(&mut tt, style, g, limits, Instant::now()).expect("in play");
        s.negamax(depth, -super::super::INF, super::super::INF, 0, 0, false);
        let stored = s.tt.probe(s.b.key()).map(|e| (e.depth, e.best));
        (s.nodes, stored)
    }

    #[test]
    fn a_free_node_the_table_does_not_know_is_searched_a_ply_shallower_with_iir() {
        // A quiet position: nothing forced, no three to answer.
        let g = gomoku("H8 J9 G7");
        let run = |iir: i32| {
            let mut st = Style::for_level(Level::MAX);
            st.iir = iir;
            let (nodes, stored) = fixed_depth(&g, st, 5);
            (nodes, stored.map(|(depth, _)| depth))
        };
        let (plain, plain_depth) = run(0);
        let (reduced, reduced_depth) = run(4);
        assert_eq!(plain_depth, Some(5));
        assert_eq!(reduced_depth, Some(4), "stored at the depth it searched");
        assert!(reduced < plain, "{reduced} nodes against {plain}");
        // Below the threshold nothing changes.
        let (deep_only, depth) = run(6);
        assert_eq!((deep_only, depth), (plain, Some(5)));
    }

    /// A node is likely to fail high only off the principal variation, with a trend, two
    /// plies or more left, no win or loss in sight, and its evaluation `fhr` a ply above beta.
    #[test]
    fn likely_to_fail_high_only_far_above_beta_off_the_pv() {
        let mut st = Style::for_level(Level::MAX);
        assert_eq!(
            (st.fhr, st.air, st.cut_lmr),
            (0, false, 0),
            "off at every level"
        );
        assert!(!likely_high(&st, Some((500, true)), 4, true, 0), "off");
        st.fhr = 15;
        assert!(
            likely_high(&st, Some((60, false)), 4, true, 0),
            "60 = 15 x 4"
        );
        assert!(!likely_high(&st, Some((59, false)), 4, true, 0));
        assert!(likely_high(&st, Some((160, true)), 4, true, 100));
        assert!(!likely_high(&st, None, 4, true, 0), "no evaluation read");
        assert!(
            !likely_high(&st, Some((500, true)), 4, false, 0),
            "on the PV"
        );
        assert!(
            !likely_high(&st, Some((500, true)), 1, true, 0),
            "one ply left"
        );
        assert!(
            !likely_high(&st, Some((WIN_MIN, true)), 4, true, 0),
            "a win"
        );
        assert!(
            !likely_high(&st, Some((500, true)), 4, true, -WIN_MIN),
            "a loss"
        );
    }

    #[test]
    fn a_raised_alpha_reduces_only_free_nodes_between_3_and_11_plies() {
        let mut st = Style::for_level(Level::MAX);
        assert!(!alpha_reduces(&st, true, 5, 10, 50), "off");
        st.air = true;
        assert!(alpha_reduces(&st, true, 5, 10, 50));
        assert!(alpha_reduces(&st, true, 3, -1_999, 50));
        assert!(alpha_reduces(&st, true, 11, 10, 50));
        assert!(!alpha_reduces(&st, false, 5, 10, 50), "forced or answering");
        assert!(!alpha_reduces(&st, true, 2, 10, 50));
        assert!(!alpha_reduces(&st, true, 12, 10, 50));
        assert!(!alpha_reduces(&st, true, 5, 50, 50), "a cut-off");
        assert!(!alpha_reduces(&st, true, 5, 2_000, 3_000), "a win in sight");
    }

    /// Each of the three reductions makes a fixed-depth search of a quiet position cheaper,
    /// and it still returns a move. The evaluation's weights, the move ordering and the late
    /// moves' reductions are those the three were measured with (`balance` 100, the hand-made
    /// ordering, one or two plies): which moves raise alpha or come late, and so what a
    /// reduction saves on one position, move with them (at level 5's 80 `air` costs nodes
    /// here, with its fitted ordering `cut_lmr`).
    #[test]
    fn fail_high_alpha_and_cut_node_reductions_search_fewer_nodes() {
        let g = gomoku("H8 J9 G7 J7 J8");
        let run_with = |fhr: i32, air: bool, cut_lmr: i32| {
            let mut st = Style::for_level(Level::MAX);
            st.balance = 100;
            st.policy = false;
            st.lmr_log = 0;
            st.fhr = fhr;
            st.air = air;
            st.cut_lmr = cut_lmr;
            let (nodes, stored) = fixed_depth(&g, st, 6);
            (nodes, stored.is_some_and(|(_, best)| best != u16::MAX))
        };
        let run = |fhr: i32, air: bool| run_with(fhr, air, 0);
        let (plain, moved) = run(0, false);
        assert!(moved);
        let (fhr, moved) = run(10, false);
        assert!(moved);
        assert!(fhr < plain, "fhr: {fhr} nodes against {plain}");
        let (air, moved) = run(0, true);
        assert!(moved);
        assert!(air < plain, "air: {air} nodes against {plain}");
        let (cut, moved) = run_with(0, false, 1);
        assert!(moved);
        assert!(cut < plain, "cut_lmr: {cut} nodes against {plain}");
    }

    #[test]
    fn the_knobs_are_style_settings() {
        let mut s = style(0, 0);
        s.set("lmr", "3").expect("lmr");
        s.set("lmr_late", "9").expect("lmr_late");
        s.set("lmr_block", "4").expect("lmr_block");
        s.set("history", "250").expect("history");
        assert_eq!((s.lmr, s.lmr_late, s.lmr_block, s.history), (3, 9, 4, 250));
        assert!(s.set("lmr", "-1").is_err());
        assert!(s.set("history", "x").is_err());
        s.set("iir", "4").expect("iir");
        assert_eq!(s.iir, 4);
        assert!(s.set("iir", "-2").is_err());
        assert!(s.set("iir", "99").is_err());
        s.set("fhr", "15").expect("fhr");
        s.set("air", "on").expect("air");
        assert_eq!((s.fhr, s.air), (15, true));
        assert!(s.set("fhr", "-1").is_err());
        assert!(s.set("air", "2").is_err());
        assert_eq!(s.rfp_plies, 6);
        s.set("rfp_plies", "12").expect("rfp_plies");
        assert_eq!(s.rfp_plies, 12);
        assert!(s.set("rfp_plies", "0").is_err());
        s.set("cut_lmr", "2").expect("cut_lmr");
        assert_eq!(s.cut_lmr, 2);
        assert!(s.set("cut_lmr", "9").is_err());
    }

    #[test]
    fn capture_games_search_every_candidate_unless_told_to_prune() {
        let level5 = Style::for_level(Level::new(5).expect("level"));
        assert!(level5.mcp > 0 && level5.lmr > 0, "level 5 prunes in Gomoku");
        assert!(
            level5.rfp > 0 && level5.improving > 0,
            "and by the evaluation's trend"
        );
        for level in 1..=4 {
            let s = Style::for_level(Level::new(level).expect("level"));
            assert_eq!(
                (s.mcp, s.rfp, s.improving),
                (0, 0, 0),
                "level {level}: full width"
            );
        }
        let spec = |s: &str| RuleSet::from_spec(s).expect("spec");
        assert_eq!(level5.for_rules(&spec("gomoku")), level5);
        assert_eq!(level5.for_rules(&spec("renju")), level5);
        for rules in ["pente", "keryo"] {
            let s = level5.for_rules(&spec(rules));
            assert_eq!((s.mcp, s.lmr, s.rfp, s.improving), (0, 0, 0, 0), "{rules}");
            assert_eq!(
                s.balance, 100,
                "{rules}: the waiting side as measured there"
            );
            assert_eq!(move_count(&s, 3, 12), 12, "{rules}: the full width");
            assert_eq!(reduction(&s, 6, 20, false), 0, "{rules}: no reduction");
            assert_eq!(
                Style {
                    mcp: level5.mcp,
                    lmr: level5.lmr,
                    rfp: level5.rfp,
                    improving: level5.improving,
                    balance: level5.balance,
                    ..s
                },
                level5,
                "only those five"
            );
        }
        let mut pruning = level5;
        pruning.set("prune_captures", "on").expect("a setting");
        assert_eq!(pruning.for_rules(&spec("keryo")), pruning);
        assert!(pruning.set("prune_captures", "sometimes").is_err());
    }

    #[test]
    fn early_tactical_or_shallow_moves_are_never_reduced() {
        let s = style(3, 8);
        for index in 0..3 {
            assert_eq!(reduction(&s, 6, index, false), 0, "move {index}");
        }
        assert_eq!(reduction(&s, 6, 3, true), 0, "a threat");
        assert_eq!(reduction(&s, 1, 10, false), 0, "next to a leaf");
        assert_eq!(reduction(&s, 0, 10, false), 0);
        for index in [0, 5, 50] {
            assert_eq!(reduction(&style(0, 8), 9, index, false), 0, "off");
        }
    }

    #[test]
    fn late_quiet_moves_lose_one_ply_and_very_late_ones_two() {
        let s = style(3, 8);
        assert_eq!(reduction(&s, 2, 3, false), 1);
        assert_eq!(reduction(&s, 6, 7, false), 1);
        assert_eq!(reduction(&s, 6, 8, false), 2);
        assert_eq!(reduction(&s, 3, 20, false), 2);
        // Two plies only from depth 3: at depth 2 the child would be a leaf's leaf.
        assert_eq!(reduction(&s, 2, 20, false), 1);
        // Without a late threshold, one ply at most.
        assert_eq!(reduction(&style(3, 0), 9, 40, false), 1);
    }

    #[test]
    fn reductions_grow_with_the_index_and_never_pass_two() {
        let s = style(2, 6);
        for depth in -2..12 {
            let mut last = 0;
            for index in 0..40 {
                let r = reduction(&s, depth, index, false);
                assert!((0..=2).contains(&r), "depth {depth} move {index}: {r}");
                assert!(r >= last, "depth {depth} move {index}");
                // The reduced child keeps a depth of at least 0.
                assert!(depth - 1 - r >= 0 || r == 0, "depth {depth} move {index}");
                last = r;
            }
        }
    }

    #[test]
    fn reverse_futility_cuts_only_far_above_beta_off_the_pv_near_the_leaves() {
        // Black (to move) has an open two and a split two; white's stones are scattered.
        let g = gomoku("H8 A1 J8 O15 H10 A15");
        let mut tt = Table::new(8);
        let mut st = style(0, 0);
        st.rfp = 0;
        let mut s = search(&mut tt, st, &g);
        let tac = super::super::Tactics::default();
        let eval = s.evaluate(1, &tac, 3);
        assert!(eval > 0, "black stands better: {eval}");
        assert_eq!(s.futile(1, &tac, 2, true, eval - 200, 3, None), None, "off");
        s.style.rfp = 60;
        assert_eq!(s.futile(1, &tac, 2, true, eval - 120, 3, None), Some(eval));
        assert_eq!(
            s.futile(1, &tac, 2, true, eval - 119, 3, None),
            None,
            "within the margin"
        );
        assert_eq!(s.futile(1, &tac, 6, true, eval - 360, 3, None), Some(eval));
        assert_eq!(
            s.futile(1, &tac, 7, true, eval - 1_000, 3, None),
            None,
            "too far from the leaves"
        );
        s.style.rfp_plies = 7;
        assert_eq!(
            s.futile(1, &tac, 7, true, eval - 420, 3, None),
            Some(eval),
            "unless told"
        );
        s.style.rfp_plies = 6;
        assert_eq!(
            s.futile(1, &tac, 0, true, eval - 1_000, 3, None),
            None,
            "a leaf"
        );
        assert_eq!(
            s.futile(1, &tac, 2, false, eval - 1_000, 3, None),
            None,
            "on the PV"
        );
        assert_eq!(
            s.futile(1, &tac, 2, true, -WIN_MIN, 3, None),
            None,
            "a lost beta"
        );
        // Improving: a ply less of margin.
        assert_eq!(
            s.futile(1, &tac, 2, true, eval - 60, 3, Some((eval, true))),
            Some(eval)
        );
        assert_eq!(
            s.futile(1, &tac, 2, true, eval - 59, 3, Some((eval, true))),
            None
        );
    }

    #[test]
    fn answers_to_a_three_are_counted_only_when_asked() {
        let mut s = style(0, 0);
        s.set("width", "12").expect("width");
        s.set("defence_mcp", "0").expect("off");
        assert_eq!(defence_count(&s, 1), 24, "all of them when off");
        assert_eq!(defence_count(&s, 30), 24);
        s.set("defence_mcp", "2").expect("on");
        assert_eq!(defence_count(&s, 1), 3, "two and the growth of one ply");
        assert_eq!(defence_count(&s, 3), 6);
        assert_eq!(defence_count(&s, 30), 24, "never more than twice the width");
        // The free nodes' base does not count here, nor the other way round.
        s.set("mcp", "5").expect("mcp");
        assert_eq!(defence_count(&s, 1), 3);
        assert_eq!(move_count(&s, 1, 12), 6);
        assert!(s.set("defence_mcp", "65").is_err());
    }

    #[test]
    fn move_counts_grow_with_depth_up_to_the_width() {
        let mut s = style(0, 0);
        s.set("mcp", "0").expect("mcp");
        for depth in -3..20 {
            assert_eq!(move_count(&s, depth, 12), 12, "off at depth {depth}");
        }
        s.set("mcp", "1").expect("mcp");
        assert_eq!(move_count(&s, 1, 12), 2, "two moves next to the leaves");
        assert_eq!(move_count(&s, 0, 12), 1);
        assert_eq!(move_count(&s, -2, 12), 1);
        assert_eq!(move_count(&s, 3, 12), 5);
        assert_eq!(move_count(&s, 6, 12), 11);
        assert_eq!(move_count(&s, 7, 12), 12, "the width caps it");
        assert_eq!(move_count(&s, 40, 20), 20, "deep nodes keep the width");
        let mut last = 0;
        for depth in 0..30 {
            let n = move_count(&s, depth, 20);
            assert!(n >= last && n <= 20, "depth {depth}: {n}");
            last = n;
        }
        assert!(s.set("mcp", "65").is_err());
        assert!(s.set("mcp", "-1").is_err());
    }

    #[test]
    fn the_history_bonus_is_bounded_by_its_weight() {
        assert_eq!(history_bonus(0, 0, 100), 0);
        assert_eq!(history_bonus(5, 10, 0), 0);
        assert_eq!(history_bonus(10, 10, 100), 100);
        assert_eq!(history_bonus(5, 10, 100), 50);
        assert_eq!(history_bonus(u32::MAX, u32::MAX, u32::MAX), i32::MAX);
        let mut h = History::new();
        h.record(1, 30, 4);
        h.record(1, 31, 2);
        h.record(2, 32, 8);
        assert_eq!(h.bonus(2, 32, 200), 200, "the deepest cut-off");
        assert_eq!(h.bonus(1, 30, 200), 50, "16 of 64");
        assert_eq!(h.bonus(1, 31, 200), 12, "4 of 64");
        assert_eq!(h.bonus(2, 30, 200), 0, "the other colour's");
        assert_eq!(h.bonus(1, u16::MAX, 200), 0, "off the board");
        h.record(1, u16::MAX, 4);
    }
}
