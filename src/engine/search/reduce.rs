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
        // At least one ply, and the move is still searched.
        log_plies(depth, index, style.lmr_log).clamp(1, depth - 1)
    } else if style.lmr_late > 0 && index >= style.lmr_late && depth >= 3 {
        2
    } else {
        1
    }
}

/// Plies taken off the `index`-th answer (0-based, in search order) to an open three at a
/// node of remaining `depth` whose children have `child_depth` plies (`style.defence_log`):
/// ln(depth) × ln(index + 1) × `defence_log` / 100, at least one, and the reduced child keeps
/// at least a ply; nothing for the first answer, with less than two plies for the child, or
/// with the setting off.
pub(super) fn defence_reduction(style: &Style, depth: i32, index: usize, child_depth: i32) -> i32 {
    if style.defence_log == 0 || child_depth < 2 || index == 0 {
        return 0;
    }
    log_plies(depth, index, style.defence_log).clamp(1, child_depth - 1)
}

/// Rapfi's and Stockfish's shape of a reduction: ln(depth) × ln(index + 1) × `pct` / 100
/// whole plies (rounded down), more for later moves and deeper nodes; the callers bound it.
fn log_plies(depth: i32, index: usize, pct: u32) -> i32 {
    ((depth as f32).ln() * ((index + 1) as f32).ln() * pct as f32 / 100.0) as i32
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
    // `pv_tt` is at most 100 and the depths within ±100: no overflow.
    ((depth - tt_depth).max(0) * style.pv_tt as i32 / 100)
        .min(3)
        .min(depth - 1)
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

/// The moves a free node `ply` plies below the root searches, given its `count`: as many, or
/// `style.opp_wide` more where the root's opponent moves (odd plies) and `style.own_wide` more
/// where the root's side moves (even plies); the width grows with it, since a count never
/// exceeds the width.
pub(super) fn side_count(style: &Style, ply: i32, count: usize) -> usize {
    let more = if ply % 2 == 1 {
        style.opp_wide
    } else {
        style.own_wide
    };
    count.saturating_add(more)
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
mod tests;
