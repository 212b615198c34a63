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
        let forced = self.forced_moves(me, &cands, &tac);
        // Whether every root move is a free choice (nothing to block, no three to answer):
        // only then may the root reduce its late moves.
        let mut free = false;
        let mut moves = match &forced {
            Some(f) if !f.is_empty() => f.clone(),
            _ => {
                let mut c = self.defences(me, &cands, &tac).unwrap_or_else(|| {
                    free = forced.is_none();
                    cands.clone()
                });
                c.truncate(self.style.width * 2);
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
mod tests {
    use super::*;
    use crate::engine::test_support::{gomoku, node_budget};
    use proptest::prelude::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    /// Black to move against white's open three L9-L11 (white's other stones far off): A2
    /// lets white win by continuous fours, L8 stops the three.
    fn open_three_to_stop() -> Game {
        gomoku("A15 C3 O15 M3 O1 L10 H1 L11 A1 L9")
    }

    fn cell(name: &str) -> u16 {
        let p = Point::parse(name, 15).expect("point");
        u16::try_from(crate::engine::board::cell_of(p)).expect("cell")
    }

    /// The final check of `chosen` then `other`, on a fresh search capped at `nodes`: the
    /// move it keeps and the nodes it spent.
    fn final_check(nodes: u64, chosen: u16, other: u16) -> (u16, u64) {
        let g = open_three_to_stop();
        let mut tt = Table::new(16);
        let limits = node_budget(nodes);
        let style = Style::for_level(Level::new(5).expect("level"));
        let mut s = Search::threats(&mut tt, style, &g, limits, Instant::now()).expect("search");
        let (cell, _) = s.avoid_opponent_vcf(1, (chosen, 0), &[(other, 0)], &[]);
        (cell, s.nodes)
    }

    #[test]
    fn a_check_stopped_by_the_clock_keeps_a_move_not_known_to_lose() {
        let (a2, l8) = (cell("A2"), cell("L8"));
        // With nodes to spare, A2 is refuted and L8 kept.
        let (kept, _) = final_check(10_000_000, a2, l8);
        assert_eq!(kept, l8);
        // The nodes that refuting A2 alone takes.
        let (kept, refute) = final_check(10_000_000, a2, a2);
        assert_eq!(kept, a2, "nothing else to play");
        assert!(refute > 0);
        // One node more: A2 is refuted, then the check of L8 is cut off at once. L8 is not
        // known to lose, A2 is: L8 is played.
        let (kept, spent) = final_check(refute + 1, a2, l8);
        assert_eq!(spent, refute + 1, "the check of L8 was cut off");
        assert_eq!(kept, l8);
    }

    /// The first root move's score at `depth` (H8 J9 G7 K8 F10 G9, black's K10 played),
    /// searched by level 4's full-width style with aspiration windows of `aspire` around
    /// `previous`, on a fresh table: the score and the nodes searched.
    fn first_move_score(aspire: i32, previous: Option<i32>, depth: i32) -> (i32, u64) {
        let g = gomoku("H8 J9 G7 K8 F10 G9");
        let mut style = Style::for_level(Level::new(4).expect("level"));
        style.set("aspire", &aspire.to_string()).expect("setting");
        let mut tt = Table::new(16);
        let limits = node_budget(10_000_000);
        let mut s = Search::threats(&mut tt, style, &g, limits, Instant::now()).expect("search");
        let p = s.b.point(usize::from(cell("K10"))).expect("on the board");
        s.b.apply(Action::Place(p)).expect("legal");
        (s.first_root_move(depth, previous), s.nodes)
    }

    #[test]
    fn aspiration_windows_find_the_full_windows_score_whatever_the_guess() {
        // Level 4 prunes nothing by the window (no reductions, no futility), so the exact
        // score of a move does not depend on it: a window that holds the score gives it at
        // once, one that misses it must search again rather than return its bound.
        let full = first_move_score(0, None, 4);
        let exact = full.0;
        assert!(exact.abs() < WIN_MIN, "a quiet position: {exact}");
        for guess in [exact, exact - 300, exact + 300, exact - 5, exact + 5] {
            assert_eq!(
                first_move_score(10, Some(guess), 4).0,
                exact,
                "guess {guess}"
            );
        }
        // A guess that misses searches twice: more nodes than the full window alone.
        assert!(first_move_score(10, Some(exact + 300), 4).1 > full.1);
        // Before the third iteration, and around a won score, only the full window is
        // searched: the very same nodes as without aspiration.
        assert_eq!(
            first_move_score(10, Some(exact + 300), 2),
            first_move_score(0, None, 2)
        );
        assert_eq!(first_move_score(10, Some(WIN - 5), 4), full);
    }

    /// `start_iteration` in milliseconds: elapsed, last, before, soft, stop, finish.
    fn starts(elapsed: u64, last: u64, before: Option<u64>, soft: u64, stop: u64, f: u32) -> bool {
        start_iteration(ms(elapsed), ms(last), before.map(ms), ms(soft), ms(stop), f)
    }

    #[test]
    fn no_iteration_starts_after_the_soft_stop() {
        assert!(starts(100, 10, None, 1100, 1400, 0));
        assert!(!starts(1100, 1, None, 1100, 1400, 0));
        assert!(!starts(1200, 1, Some(1), 1100, 1400, 100));
    }

    #[test]
    fn the_next_iteration_starts_when_it_is_expected_to_finish() {
        // 200 ms after 100 ms: growth 2, 400 ms more from 500 ms ends at 900 ms.
        assert!(starts(500, 200, Some(100), 1400, 900, 100));
        assert!(!starts(501, 200, Some(100), 1400, 900, 100));
        // Half of it is enough with finish = 50.
        assert!(starts(700, 200, Some(100), 1400, 900, 50));
        // A wild ratio is clamped (at most 6, at least 1.5).
        assert!(starts(100, 100, Some(1), 1400, 700, 100));
        assert!(!starts(100, 100, Some(1), 1400, 699, 100));
        assert!(starts(100, 100, Some(90), 1400, 250, 100));
        assert!(!starts(100, 100, Some(90), 1400, 249, 100));
        // An earlier iteration too short to measure gives the default growth, 3.
        let tiny = Some(Duration::from_micros(100));
        assert!(start_iteration(
            ms(100),
            ms(100),
            tiny,
            ms(1400),
            ms(400),
            100
        ));
        assert!(!start_iteration(
            ms(100),
            ms(100),
            tiny,
            ms(1400),
            ms(399),
            100
        ));
        assert!(!starts(100, 100, None, 1400, 399, 100));
    }

    proptest! {
        #[test]
        fn the_decision_is_monotone(
            elapsed in 0u64..3000,
            later in 0u64..3000,
            last in 0u64..2000,
            before in proptest::option::of(0u64..2000),
            soft in 0u64..3000,
            stop in 0u64..3000,
            finish in 0u32..150,
            more in 0u32..150,
        ) {
            let b = before.map(ms);
            let go = start_iteration(ms(elapsed), ms(last), b, ms(soft), ms(stop), finish);
            // Never at or after the soft stop; without a prediction, always before it.
            if elapsed >= soft {
                prop_assert!(!go);
            }
            if finish == 0 {
                prop_assert_eq!(go, elapsed < soft);
            }
            // Later, or asking more of the next iteration, never turns a no into a yes.
            if !go {
                let at = ms(elapsed + later);
                prop_assert!(!start_iteration(at, ms(last), b, ms(soft), ms(stop), finish));
                if finish > 0 {
                    let f = finish + more;
                    prop_assert!(!start_iteration(ms(elapsed), ms(last), b, ms(soft), ms(stop), f));
                }
            }
        }
    }
}

#[cfg(test)]
mod extension_tests {
    use super::*;
    use crate::engine::test_support::{gomoku, node_budget};

    /// Level 5's search of a quiet middle game (fours come within a few plies), to `depth`
    /// plies with `extensions` forced replies searched past it: the nodes it took.
    fn nodes_with(extensions: &str, depth: &str) -> u64 {
        nodes_of(&[("extensions", extensions), ("max_depth", depth)])
    }

    /// Level 5's search of the quiet middle game with `set` changed: the nodes it took.
    fn nodes_of(set: &[(&str, &str)]) -> u64 {
        let g = gomoku("H8 J9 G7 K8 F10 G9");
        let mut style = Style::for_level(Level::new(5).expect("level"));
        for (k, v) in set {
            style.set(k, v).expect("setting");
        }
        let mut e = Engine::with_style(Level::new(5).expect("level"), style, 1);
        e.choose_with(&g, node_budget(50_000_000)).expect("a move");
        e.last_info().nodes
    }

    #[test]
    fn the_extension_budget_lets_forcing_lines_run_past_the_depth() {
        let none = nodes_with("0", "4");
        let six = nodes_with("6", "4");
        let twelve = nodes_with("12", "4");
        assert!(
            none < six,
            "{none} nodes without extensions, {six} with six"
        );
        assert!(six <= twelve, "{six} with six, {twelve} with twelve");
        assert_eq!(nodes_with("6", "4"), six, "the same search twice");
        let mut s = Style::for_level(Level::new(5).expect("level"));
        assert_eq!(s.extensions, 6, "level 5's budget");
        for bad in ["-1", "33", "six"] {
            assert!(s.set("extensions", bad).is_err(), "{bad}");
        }
        assert_eq!(s.extensions, 6, "a refused value changes nothing");
    }

    #[test]
    fn stale_variation_nodes_are_searched_shallower_when_told() {
        let plain = nodes_of(&[("max_depth", "7")]);
        assert_eq!(nodes_of(&[("max_depth", "7"), ("pv_tt", "0")]), plain);
        let cut = nodes_of(&[("max_depth", "7"), ("pv_tt", "100")]);
        assert!(cut < plain, "{cut} nodes against {plain}");
    }

    #[test]
    fn late_moves_that_beat_alpha_by_far_are_searched_deeper_when_told() {
        let plain = nodes_of(&[("max_depth", "7")]);
        assert_eq!(nodes_of(&[("max_depth", "7"), ("lmr_deeper", "0")]), plain);
        let deeper = nodes_of(&[("max_depth", "7"), ("lmr_deeper", "1")]);
        assert!(deeper > plain, "{deeper} nodes against {plain}");
    }
}
