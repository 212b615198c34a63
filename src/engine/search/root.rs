//! The root of the main search: threat wins first, then iterative deepening over the
//! root moves, then the final check against the opponent's threat wins; and the time
//! logic that decides whether another iteration starts.

use super::*;

impl Search<'_> {
    /// The decision in normal play: (cell, score, depth, how).
    pub(super) fn root(
        &mut self,
        rng: &mut StdRng,
        start: Instant,
        budget: Duration,
    ) -> (Option<Point>, i32, i32, Source) {
        let me = self.b.to_move();
        let (cands, tac) = self.generate(me);
        let point = |b: &Board, c: u16| b.point(usize::from(c));
        if cands.is_empty() {
            return (None, 0, 0, Source::Forced);
        }
        if let Some(w) = self.immediate_win(me, &tac) {
            return (point(&self.b, w), WIN - 1, 1, Source::Forced);
        }
        if !tac.opp_wins.is_empty()
            && tac.opp_wins_forbidden == tac.opp_wins.len()
            && tac.my_captures.is_empty()
        {
            // Renju: white's five comes on a point black may not play; nothing stops it.
            return (point(&self.b, cands[0].cell), -(WIN - 2), 1, Source::Forced);
        }
        let forced = self.forced_moves(me, &cands, &tac, true);
        // Whether every root move is a free choice (nothing to block, no three to answer):
        // only then may the root reduce its late moves.
        let mut free = false;
        let mut moves = match &forced {
            Some(f) if !f.is_empty() => f.clone(),
            _ => {
                let mut c = self.defences(me, &cands, &tac, true).unwrap_or_else(|| {
                    free = forced.is_none();
                    cands.clone()
                });
                c.truncate(if self.style.root_width > 0 {
                    self.style.root_width
                } else {
                    self.style.width * 2
                });
                c
            }
        };
        if moves.len() == 1 {
            return (point(&self.b, moves[0].cell), 0, 0, Source::Forced);
        }
        if forced.is_none() && self.style.blunder > 0.0 && rng.random_bool(self.style.blunder) {
            // A beginner's look: the first few moves that catch the eye, none of the reading.
            let k = moves.len().min(4);
            let pick = rng.random_range(0..k);
            return (point(&self.b, moves[pick].cell), 0, 0, Source::Blunder);
        }
        if forced.is_none() && self.style.vcf_depth > 0 {
            let full_deadline = self.deadline;
            self.deadline = start + budget.mul_f64(0.15);
            let found = self.vcf_root(me, self.style.vcf_depth);
            self.deadline = full_deadline;
            self.stopped = false;
            if let Some(c) = found {
                return (point(&self.b, c), WIN - 2, 0, Source::Vcf);
            }
        }
        if forced.is_none() && self.style.vct_depth > 0 {
            let full_deadline = self.deadline;
            let share = f64::from(self.style.vct_share.min(85)) / 100.0;
            self.deadline = full_deadline.min(start + budget.mul_f64(share));
            let found = self.vct_root(me, self.style.vct_depth);
            self.deadline = full_deadline;
            self.stopped = false;
            if let Some(c) = found {
                return (point(&self.b, c), WIN - 3, 0, Source::Vct);
            }
        }
        if self.style.guard > 0 && forced.as_ref().is_none_or(|f| f.is_empty()) {
            // The threat guard gets the time up to 45% of the budget and at most a third of
            // what is left of a node cap, so the main search always has its share.
            let (full_deadline, full_limit) = (self.deadline, self.node_limit);
            self.deadline = full_deadline.min(start + budget.mul_f64(0.45));
            let left = full_limit.saturating_sub(self.nodes);
            self.node_limit = self.nodes.saturating_add(left / 3);
            moves = self.guard(me, moves, &cands);
            (self.deadline, self.node_limit) = (full_deadline, full_limit);
            self.stopped = false;
        }
        let full_deadline = self.deadline;
        if self.style.safety > 0 && self.style.reserve > 0 {
            let share = (0.85 - f64::from(self.style.reserve.min(50)) / 100.0).max(0.35);
            self.deadline = full_deadline.min(start + budget.mul_f64(share));
        }
        let soft = budget.mul_f64(f64::from(self.style.soft.min(85)) / 100.0);
        let stop = self.deadline.saturating_duration_since(start);
        let mut last: Option<Duration> = None;
        let mut best: Option<(u16, i32)> = None;
        let mut scored: Vec<(u16, i32)> = Vec::new();
        let mut completed = 0;
        let exact_all = self.style.noise > 0;
        for depth in 1..=self.style.max_depth {
            let iteration = Instant::now();
            let mut alpha = -INF;
            let mut results: Vec<(u16, i32)> = Vec::with_capacity(moves.len());
            for (k, m) in moves.iter().enumerate() {
                let Some(p) = self.b.point(usize::from(m.cell)) else {
                    continue;
                };
                // The root's late quiet moves (ranked low by the last iteration) are reduced
                // like an inner node's, when the style asks for it and nothing is forced.
                let r = if self.style.lmr_root && free && !exact_all {
                    let tactical = self.tactical(me, m.cell);
                    reduce::reduction(&self.style, depth, k, tactical)
                } else {
                    0
                };
                if self.b.apply(Action::Place(p)).is_err() {
                    continue;
                }
                let score = if exact_all {
                    -self.negamax(depth - 1, -INF, INF, 1, self.style.extensions, false)
                } else if k == 0 {
                    self.first_root_move(depth, best.map(|b| b.1))
                } else {
                    let mut s = -self.negamax(
                        depth - 1 - r,
                        -alpha - 1,
                        -alpha,
                        1,
                        self.style.extensions,
                        true,
                    );
                    if r > 0 && s > alpha && !self.stopped {
                        s = -self.negamax(
                            depth - 1,
                            -alpha - 1,
                            -alpha,
                            1,
                            self.style.extensions,
                            true,
                        );
                    }
                    if s > alpha {
                        -self.negamax(depth - 1, -INF, -alpha, 1, self.style.extensions, false)
                    } else {
                        s
                    }
                };
                self.b.undo();
                if self.stopped {
                    break;
                }
                alpha = alpha.max(score);
                results.push((m.cell, score));
            }
            if self.stopped {
                // A partial iteration still counts when its first (previous best) move was
                // searched and a later one beat it: both scores are exact and of the same
                // depth (a later move is re-searched with a full window when it beats the
                // first). It need not beat the previous iteration's score too: when the first
                // move falls at the new depth, the better move of that depth is the better
                // guess (scores swing between odd and even depths).
                if let (Some(&(c0, s0)), Some(_)) = (results.first(), best)
                    && let Some(&(c, s)) = results.iter().max_by_key(|r| r.1)
                    && c != c0
                    && s > s0
                {
                    best = Some((c, s));
                }
                break;
            }
            completed = depth;
            results.sort_by_key(|r| std::cmp::Reverse(r.1));
            best = results.first().copied();
            scored = results.clone();
            // The next iteration searches the best moves first.
            let order: Vec<u16> = results.iter().map(|r| r.0).collect();
            moves.sort_by_key(|c| {
                order
                    .iter()
                    .position(|&o| o == c.cell)
                    .unwrap_or(usize::MAX)
            });
            let before = last.replace(iteration.elapsed());
            if best.is_some_and(|b| b.1.abs() >= WIN_MIN)
                || !start_iteration(
                    start.elapsed(),
                    last.unwrap_or_default(),
                    before,
                    soft,
                    stop,
                    self.style.finish,
                )
            {
                break;
            }
        }
        let Some((mut cell, mut score)) = best.or_else(|| moves.first().map(|c| (c.cell, 0)))
        else {
            return (None, 0, 0, Source::Search);
        };
        if self.style.noise > 0 && score.abs() < WIN_MIN && !scored.is_empty() {
            let near: Vec<(u16, i32)> = scored
                .iter()
                .copied()
                .filter(|&(_, s)| s >= score - self.style.noise && s.abs() < WIN_MIN)
                .collect();
            if !near.is_empty() {
                let pick = near[rng.random_range(0..near.len())];
                cell = pick.0;
                score = pick.1;
            }
        }
        // The final check has the time the main search left (at least the reserve).
        self.deadline = full_deadline;
        if self.style.safety > 0 && score.abs() < WIN_MIN {
            self.stopped = self.nodes >= self.node_limit;
            let rest: Vec<(u16, i32)> = cands.iter().map(|c| (c.cell, score)).collect();
            (cell, score) = self.avoid_opponent_vcf(me, (cell, score), &scored, &rest);
        }
        (point(&self.b, cell), score, completed, Source::Search)
    }

    /// The score of the first root move (already played) at `depth`: searched with the full
    /// window, or first within `style.aspire` either side of the previous iteration's score
    /// (`previous`) from the third iteration, and again with the full window when the score
    /// falls outside (it is then only a bound).
    fn first_root_move(&mut self, depth: i32, previous: Option<i32>) -> i32 {
        let delta = self.style.aspire;
        if let Some(p) = previous.filter(|p| delta > 0 && depth >= 3 && p.abs() < WIN_MIN) {
            let (lo, hi) = (p.saturating_sub(delta), p.saturating_add(delta));
            let s = -self.negamax(depth - 1, -hi, -lo, 1, self.style.extensions, false);
            if self.stopped || (s > lo && s < hi) {
                return s;
            }
        }
        -self.negamax(depth - 1, -INF, INF, 1, self.style.extensions, false)
    }

    /// The first of the best root moves after which the opponent has no continuous-four win;
    /// the chosen move itself when every one checked loses that way or time runs out.
    pub(super) fn avoid_opponent_vcf(
        &mut self,
        me: u8,
        chosen: (u16, i32),
        scored: &[(u16, i32)],
        rest: &[(u16, i32)],
    ) -> (u16, i32) {
        // The strongest level looks past their short list when every move on it loses to
        // continuous fours: the defence is often a quiet point the search ranked low.
        let wide = self.style.safety >= 10;
        let mut candidates: Vec<(u16, i32)> = std::iter::once(chosen)
            .chain(scored.iter().copied().filter(|c| c.0 != chosen.0))
            .take(self.style.safety)
            .collect();
        if wide {
            for &c in scored.iter().chain(rest) {
                if !candidates.iter().any(|k| k.0 == c.0) {
                    candidates.push(c);
                }
            }
        }
        for (cell, score) in candidates {
            let Some(p) = self.b.point(usize::from(cell)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let refuted = self.vcf_root(3 - me, self.style.vcf_depth).is_some()
                || (self.style.vct_depth > 0
                    && !self.stopped
                    && self.vct_root(3 - me, self.style.vct_depth - 2).is_some());
            self.b.undo();
            if self.stopped {
                // Out of time or nodes. A later candidate whose check did not refute it is
                // not known to lose, while every move before it (the chosen one first) was
                // proven lost: play it rather than fall back to a known loss.
                if cell != chosen.0 && !refuted {
                    self.stopped = false;
                    return (cell, score);
                }
                break;
            }
            if !refuted {
                return (cell, score);
            }
        }
        self.stopped = false;
        chosen
    }

    /// The threat guard: `moves` without those after which the opponent wins by threats
    /// (continuous fours, or fours and threes within the style's guard depth), in their order.
    /// Moves it had no time to check stay. When every move is refuted, it looks for a saving
    /// move among the other candidates (often a quiet point the ordering ranked low), and
    /// when there is none it keeps `moves` as they were: the search then picks the longest
    /// resistance. Never returns an empty list for a non-empty `moves`.
    pub(super) fn guard(&mut self, me: u8, moves: Vec<Cand>, cands: &[Cand]) -> Vec<Cand> {
        let mut kept = Vec::with_capacity(moves.len());
        for &m in &moves {
            if self.stopped || !self.refuted(me, m.cell).unwrap_or(false) {
                kept.push(m);
            }
        }
        if !kept.is_empty() {
            return kept;
        }
        for &c in cands {
            if self.stopped {
                break;
            }
            if moves.iter().any(|m| m.cell == c.cell) {
                continue;
            }
            if self.refuted(me, c.cell) == Some(false) {
                return vec![c];
            }
        }
        moves
    }

    /// Whether the opponent wins by threats after `me` plays `cell`: `None` when the move
    /// cannot be played or the clock stopped the look.
    pub(super) fn refuted(&mut self, me: u8, cell: u16) -> Option<bool> {
        let p = self.b.point(usize::from(cell))?;
        self.b.apply(Action::Place(p)).ok()?;
        let opp = 3 - me;
        let won = self.vcf_root(opp, self.style.vcf_depth).is_some()
            || (!self.stopped && self.vct_root(opp, self.style.guard).is_some());
        self.b.undo();
        (!self.stopped).then_some(won)
    }
}

/// Least and most growth assumed from one iteration of the main search to the next (the
/// measured ratio of the last two is noisy: odd and even depths, table hits, tiny times).
const GROWTH_MIN: f64 = 1.5;
const GROWTH_MAX: f64 = 6.0;
/// The growth assumed when the iteration before took no measurable time.
const GROWTH_DEFAULT: f64 = 3.0;

/// Whether iterative deepening starts another iteration, `elapsed` after the decision began:
/// never at or after `soft`; with `finish` > 0, only when that percent of the next iteration's
/// predicted time (`last`, the iteration just done, times its growth over `before`) fits
/// before `stop`, the main search's deadline. Time logic alone: under a node cap the clock
/// is far from both, so the search stays deterministic.
pub(super) fn start_iteration(
    elapsed: Duration,
    last: Duration,
    before: Option<Duration>,
    soft: Duration,
    stop: Duration,
    finish: u32,
) -> bool {
    if elapsed >= soft {
        return false;
    }
    if finish == 0 {
        return true;
    }
    let growth = match before {
        Some(b) if b >= Duration::from_micros(200) => {
            (last.as_secs_f64() / b.as_secs_f64()).clamp(GROWTH_MIN, GROWTH_MAX)
        }
        _ => GROWTH_DEFAULT,
    };
    let needed = last.mul_f64(growth * f64::from(finish.min(100)) / 100.0);
    elapsed + needed <= stop
}

#[cfg(test)]
mod tests;
