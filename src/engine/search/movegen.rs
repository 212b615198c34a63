//! Candidate moves and the tactical facts found while generating them.

use super::eval::capture_value;
use super::{Cand, Search, Tactics, WIN_MIN};
use crate::engine::ordering::{corrections, fitted_score, last_stones, shape_score};
use crate::engine::patterns::Threat;
use crate::rules::Point;

/// The order of candidates: highest score first, ties in board order (the order the cells are
/// visited in), a total order, so a partial sort picks the same first moves as a full one.
pub(super) fn order(c: &Cand) -> (std::cmp::Reverse<i32>, u16) {
    (std::cmp::Reverse(c.score), c.cell)
}

/// Keeps the `keep` first candidates in [`order`], sorted, without sorting the rest.
pub(super) fn best_first(v: &mut Vec<Cand>, keep: usize) {
    sort_first(v, keep);
    v.truncate(keep);
}

/// Puts the `keep` first candidates in [`order`] first, sorted, and leaves the rest after
/// them unsorted ([`order`] sorts them if they are ever needed).
pub(super) fn sort_first(v: &mut [Cand], keep: usize) {
    if keep == 0 {
        return;
    }
    if v.len() > keep {
        v.select_nth_unstable_by_key(keep - 1, order);
        v[..keep].sort_unstable_by_key(order);
    } else {
        v.sort_unstable_by_key(order);
    }
}

impl Search<'_> {
    /// Candidate moves near the stones, best first (see [`order`]), and the tactical facts.
    pub(super) fn generate(&self, me: u8) -> (Vec<Cand>, Tactics) {
        let (mut cands, tac) = self.generate_unsorted(me);
        cands.sort_unstable_by_key(order);
        (cands, tac)
    }

    /// [`Search::generate`] with the candidates in board order (scored, not sorted): inner
    /// nodes sort only the few they search ([`best_first`]).
    pub(super) fn generate_unsorted(&self, me: u8) -> (Vec<Cand>, Tactics) {
        let (mut cands, tac, scored) = self.generate_unscored(me);
        if !scored {
            self.score_moves(me, &mut cands);
        }
        (cands, tac)
    }

    /// [`Search::generate_unsorted`] without the move ordering's own score: each candidate
    /// carries only what the tactics add (wins, captures) until [`Search::score_moves`] adds
    /// the rest, and says whether they are scored already (the fallback to every legal point,
    /// when no point near the stones is legal, scores its own). A node that ends on the
    /// tactics alone (a win on the spot, a leaf) never needs the ordering's score, which reads
    /// a dozen tables for every candidate.
    pub(super) fn generate_unscored(&self, me: u8) -> (Vec<Cand>, Tactics, bool) {
        let opp = 3 - me;
        let check = self.needs_check();
        let b = &self.b;
        let mut cands = Vec::with_capacity(64);
        let mut tac = Tactics::default();
        let capturing = b.captures != crate::rules::Captures::None;
        let (cap_me, cap_opp) = (b.captured(me), b.captured(opp));
        let goal = b.capture_win;
        // Renju: black's forbidden points are no moves for black (checked exactly by the rules
        // core), but a point where white makes five stays in `opp_wins`: black cannot block
        // there, which is how white wins through a forbidden point.
        let renju_black = me == 1 && b.game.rules().is_renju();
        // Whether some point makes a row for each side (the shapes' count says so, as in
        // `win_cells`): most nodes have none, and skip the test at every candidate.
        let fives = [me, opp].map(|c| b.threats_at_least(c, Threat::Five) > 0);
        for i in b.frontier() {
            if !self.legal_cell(i, check) {
                continue;
            }
            if renju_black
                && b.point(i)
                    .is_some_and(|p| !b.game.is_legal(crate::rules::Action::Place(p)))
            {
                if fives[1] && b.line_threat_at(i, opp) && b.makes_line(i, opp) {
                    tac.opp_wins.push(i as u16);
                    tac.opp_wins_forbidden += 1;
                }
                continue;
            }
            let mut score = 0;
            if fives[0] && b.line_threat_at(i, me) && b.makes_line(i, me) {
                tac.my_wins.push(i as u16);
                score += 10 * WIN_MIN;
            }
            if fives[1] && b.line_threat_at(i, opp) && b.makes_line(i, opp) {
                tac.opp_wins.push(i as u16);
                score += 5 * WIN_MIN;
            }
            if capturing {
                let both = b.captures_both(i);
                let (cm, co) = (both[usize::from(me - 1)], both[usize::from(opp - 1)]);
                if cm > 0 {
                    tac.my_captures.push(i as u16);
                    let gain =
                        capture_value(cap_me + cm as u16, goal) - capture_value(cap_me, goal);
                    score += gain * 12;
                    if goal > 0 && u32::from(cap_me) + cm >= u32::from(goal) {
                        tac.my_wins.push(i as u16);
                        score += 10 * WIN_MIN;
                    }
                }
                if co > 0 {
                    let gain =
                        capture_value(cap_opp + co as u16, goal) - capture_value(cap_opp, goal);
                    score += gain * 8;
                    if goal > 0 && u32::from(cap_opp) + co >= u32::from(goal) {
                        tac.opp_wins.push(i as u16);
                        score += 5 * WIN_MIN;
                    }
                }
            }
            if capturing && self.style.cap_attack > 0 {
                let att = b.capture_attacks(i);
                let (am, ao) = (att[usize::from(me - 1)], att[usize::from(opp - 1)]);
                if am > 0 {
                    let gain =
                        capture_value(cap_me + am as u16, goal) - capture_value(cap_me, goal);
                    score += gain * self.style.cap_attack;
                }
                if ao > 0 {
                    // The point where the opponent would attack a pair: taking it first
                    // spares the pair that tempo.
                    let gain =
                        capture_value(cap_opp + ao as u16, goal) - capture_value(cap_opp, goal);
                    score += gain * self.style.cap_attack / 2;
                }
            }
            cands.push(Cand {
                cell: i as u16,
                score,
            });
        }
        let scored = cands.is_empty();
        if scored {
            // No stone yet, or every point near the stones is refused (the pro opening's
            // second stone): fall back to every legal point, nearest the centre first.
            let centre = Point::centre(b.size);
            for &i in &b.on_board {
                let i = usize::from(i);
                if !self.legal_cell(i, true) {
                    continue;
                }
                let Some(p) = b.point(i) else { continue };
                let score = b.gain_at(i, me) * 10 + b.gain_at(i, opp) * 8
                    - i32::from(p.distance(centre)) * 20;
                cands.push(Cand {
                    cell: i as u16,
                    score,
                });
            }
        }
        tac.my_wins.dedup();
        tac.opp_wins.dedup();
        (cands, tac, scored)
    }

    /// Adds the move ordering's score of each candidate (the fitted one where the style and
    /// the rules have it, the hand-made one otherwise) to what the tactics gave it.
    pub(super) fn score_moves(&self, me: u8, cands: &mut [Cand]) {
        let b = &self.b;
        let capturing = b.captures != crate::rules::Captures::None;
        // The corrections were fitted to freestyle Gomoku (no captures, no forbidden points).
        let fitted = self.style.policy && !capturing && !b.game.rules().is_renju();
        let last = if fitted { last_stones(b) } else { [None; 2] };
        // Read (once per process) only by a style that uses them.
        match fitted.then(corrections) {
            Some(fix) => {
                for c in cands {
                    c.score += fitted_score(b, usize::from(c.cell), me, last, fix);
                }
            }
            None => {
                for c in cands {
                    c.score += shape_score(b, usize::from(c.cell), me);
                }
            }
        }
    }

    /// Whether the side to move must answer at once: the other side wins next move, or an
    /// extra-time row stands against it ([`Search::forced_moves`] is `None` exactly when not,
    /// as it asks this).
    pub(super) fn must_answer(&self, me: u8, tac: &Tactics) -> bool {
        !tac.opp_wins.is_empty() || self.pending_against(me)
    }

    /// Whether an extra-time row of the other side stands against `me`.
    fn pending_against(&self, me: u8) -> bool {
        self.b
            .game
            .threatened_line()
            .is_some_and(|l| l.colour != me)
    }

    /// The moves to search when something must be answered: blocks of an immediate win,
    /// captures (which may break a row or stop a capture win); `None` when nothing is forced.
    /// Unless the candidates are `scored`, only the moves kept are given the ordering's score
    /// ([`Search::score_moves`]), as they are sorted.
    pub(super) fn forced_moves(
        &self,
        me: u8,
        cands: &[Cand],
        tac: &Tactics,
        scored: bool,
    ) -> Option<Vec<Cand>> {
        if !self.must_answer(me, tac) {
            return None;
        }
        let pending_against_me = self.pending_against(me);
        let forced: Vec<Cand> = cands
            .iter()
            .copied()
            .filter(|c| {
                tac.my_captures.contains(&c.cell)
                    || (!pending_against_me && tac.opp_wins.contains(&c.cell))
            })
            .collect();
        Some(self.ordered(me, forced, scored))
    }

    /// `moves` given the ordering's score (unless `scored` already, see
    /// [`Search::score_moves`]) and sorted in [`order`].
    pub(super) fn ordered(&self, me: u8, mut moves: Vec<Cand>, scored: bool) -> Vec<Cand> {
        if !scored {
            self.score_moves(me, &mut moves);
        }
        moves.sort_unstable_by_key(order);
        moves
    }

    /// When the opponent threatens to make an open four (or two fours) next move and nothing
    /// wins at once, the only moves worth searching: those that stand on one of the opponent's
    /// four-making points (every defence of a three does), the mover's own fours, captures
    /// and, in capture games, the capture threats that answer it.
    /// `None` when there is no such threat (or no such move). Scores what it keeps as
    /// [`Search::forced_moves`] does.
    pub(super) fn defences(
        &self,
        me: u8,
        cands: &[Cand],
        tac: &Tactics,
        scored: bool,
    ) -> Option<Vec<Cand>> {
        let opp = 3 - me;
        let b = &self.b;
        if b.threats_at_least(opp, Threat::OpenFour) == 0 || b.game.threatened_line().is_some() {
            return None;
        }
        let mut keep: Vec<Cand> = cands
            .iter()
            .copied()
            .filter(|c| {
                let i = usize::from(c.cell);
                b.makes_a_four(i, opp) || b.makes_a_four(i, me) || tac.my_captures.contains(&c.cell)
            })
            .collect();
        if b.captures != crate::rules::Captures::None && self.style.cap_answers {
            // In capture games a three is also answered by threatening to take a stone of the
            // four to come, or by threatening a capture that reaches the goal (as the VCT
            // search's defender does): without them the search took threes for more forcing
            // than they are, and claimed wins that were not there.
            let known: Vec<u16> = keep.iter().map(|c| c.cell).collect();
            let more = self.capture_answers(opp, &known);
            keep.extend(cands.iter().copied().filter(|c| more.contains(&c.cell)));
        }
        let keep = self.ordered(me, keep, scored);
        (!keep.is_empty()).then_some(keep)
    }

    /// Cells where `colour` makes a row one short of a line (a four).
    pub(super) fn four_makers(&self, colour: u8) -> Vec<Cand> {
        let b = &self.b;
        if b.threats_at_least(colour, Threat::Four) == 0 {
            // Every point with a four on some line is a four or more in its threat (only
            // Renju's forbidden double fours are not, and the rules refuse those anyway).
            return Vec::new();
        }
        let check = self.needs_check();
        let mut v: Vec<Cand> = b
            .frontier()
            .filter(|&i| b.makes_four(i, colour))
            .filter(|&i| self.legal_cell(i, check))
            .map(|i| Cand {
                cell: i as u16,
                score: b.gain_at(i, colour),
            })
            .collect();
        v.sort_unstable_by_key(order);
        v
    }

    /// Empty cells near the stones where `colour` would win on the spot, in cell order.
    pub(super) fn win_cells(&self, colour: u8) -> Vec<u16> {
        let b = &self.b;
        // How many points make a row by their shapes (see `Board::line_threat_at`): every
        // such point is next to a stone, so the walk over the frontier stops at the last.
        let rows = usize::from(b.threats_at_least(colour, Threat::Five));
        let mut wins: Vec<u16> = Vec::with_capacity(rows);
        if rows > 0 {
            let mut seen = 0;
            for i in b.frontier() {
                if b.line_threat_at(i, colour) {
                    if b.makes_line(i, colour) {
                        wins.push(i as u16);
                    }
                    seen += 1;
                    if seen == rows {
                        break;
                    }
                }
            }
        }
        if b.capture_win > 0 && b.captures != crate::rules::Captures::None {
            let (have, goal) = (u32::from(b.captured(colour)), u32::from(b.capture_win));
            if have >= goal {
                // The goal is reached already: every point wins (as the rules would see it).
                return b.frontier().map(|i| i as u16).collect();
            }
            let before = wins.len();
            wins.extend(
                b.capture_moves(colour)
                    .into_iter()
                    .filter(|&(_, n)| have + n >= goal)
                    .map(|(i, _)| i),
            );
            if wins.len() > before {
                wins.sort_unstable();
                wins.dedup();
            }
        }
        wins
    }

    /// Empty cells where `colour` captures now, in cell order.
    pub(super) fn capture_cells(&self, colour: u8) -> Vec<u16> {
        self.b
            .capture_moves(colour)
            .into_iter()
            .map(|m| m.0)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Level;
    use crate::engine::search::Style;
    use crate::engine::test_support::{game, node_budget};
    use crate::engine::tt::Table;
    use std::time::Instant;

    /// The candidates of `moves` played under `spec`, as `style` scores them (cell, score).
    fn scored(spec: &str, moves: &str, style: Style) -> Vec<(u16, i32)> {
        let g = game(spec, moves);
        let mut tt = Table::new(12);
        let limits = node_budget(1_000);
        let s = Search::threats(
            &mut tt,
            style.for_rules(g.rules()),
            &g,
            limits,
            Instant::now(),
        )
        .expect("search");
        let (cands, _) = s.generate_unsorted(g.to_move());
        cands.iter().map(|c| (c.cell, c.score)).collect()
    }

    fn level(n: u8) -> Style {
        Style::for_level(Level::new(n).expect("level"))
    }

    fn without_policy(mut s: Style) -> Style {
        s.set("policy", "off").expect("setting");
        s
    }

    /// Scoring late gives the scores scoring at once gave: the answers a node keeps when it
    /// must block a four or stop a three, and every candidate of a free node, in Gomoku with
    /// the fitted ordering, in Renju and in Pente with the hand-made one.
    #[test]
    fn moves_scored_late_are_scored_as_before() {
        let positions = [
            ("gomoku", "H8 J9 G7 K8 F10 G9"),
            // Black's open three: white must stop it.
            ("gomoku", "H8 A1 J8 A15 K8"),
            // Black's open four: white must block (and loses).
            ("gomoku", "H8 A1 J8 A15 K8 B1 L8"),
            ("renju opening=none", "H8 J9 G7 K8 F10 G9"),
            ("pente opening=none", "K10 L11 N10 L12 M9"),
        ];
        let pairs = |v: &[Cand]| v.iter().map(|c| (c.cell, c.score)).collect::<Vec<_>>();
        // Positions with blocks to play, and with a three to stop.
        let (mut blocks, mut stops) = (0, 0);
        for (spec, moves) in positions {
            let g = game(spec, moves);
            let mut tt = Table::new(12);
            let s = Search::threats(
                &mut tt,
                level(5).for_rules(g.rules()),
                &g,
                node_budget(1_000),
                Instant::now(),
            )
            .expect("search");
            let me = g.to_move();
            let (eager, tac) = s.generate_unsorted(me);
            let (mut lazy, _, scored) = s.generate_unscored(me);
            assert!(
                !scored,
                "{moves}: stones on the board, so nothing scored yet"
            );
            let (forced, late) = (
                s.forced_moves(me, &eager, &tac, true),
                s.forced_moves(me, &lazy, &tac, false),
            );
            assert_eq!(forced.is_some(), s.must_answer(me, &tac), "{moves}");
            blocks += usize::from(forced.as_ref().is_some_and(|v| !v.is_empty()));
            assert_eq!(
                forced.map(|v| pairs(&v)),
                late.map(|v| pairs(&v)),
                "{moves}"
            );
            let (defences, late) = (
                s.defences(me, &eager, &tac, true),
                s.defences(me, &lazy, &tac, false),
            );
            stops += usize::from(defences.is_some());
            assert_eq!(
                defences.map(|v| pairs(&v)),
                late.map(|v| pairs(&v)),
                "{moves}"
            );
            assert_ne!(
                pairs(&eager),
                pairs(&lazy),
                "{moves}: the ordering scores something"
            );
            s.score_moves(me, &mut lazy);
            assert_eq!(pairs(&eager), pairs(&lazy), "{spec} {moves}");
        }
        assert!(blocks > 0 && stops > 0, "blocks {blocks}, stops {stops}");
    }

    /// Levels 5 and 6 order Gomoku's candidates with the corrections fitted to Rapfi's moves
    /// (the same candidates, scored otherwise); levels 1-4 and the games the fit was not
    /// made for (Renju, Pente) keep the hand-made scores.
    #[test]
    fn the_fitted_ordering_is_level_5_and_6s_in_gomoku_only() {
        let quiet = "H8 J9 G7 K8 F10 G9";
        for n in [5, 6] {
            for spec in ["gomoku", "gomoku-standard"] {
                let fitted = scored(spec, quiet, level(n));
                let plain = scored(spec, quiet, without_policy(level(n)));
                let cells = |v: &[(u16, i32)]| v.iter().map(|c| c.0).collect::<Vec<_>>();
                assert_eq!(cells(&fitted), cells(&plain), "{spec}: the same candidates");
                assert_ne!(fitted, plain, "level {n} {spec}: fitted scores");
            }
        }
        for n in 1..=4 {
            assert!(!level(n).policy, "level {n}");
        }
        assert_eq!(
            scored("renju opening=none", quiet, level(5)),
            scored("renju opening=none", quiet, without_policy(level(5)))
        );
        let pente = "K10 L11 N10 L12 M9";
        assert_eq!(
            scored("pente opening=none", pente, level(5)),
            scored("pente opening=none", pente, without_policy(level(5)))
        );
    }
}
