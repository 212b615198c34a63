//! The principal-variation search below the root (`root.rs` decides at the root).

use super::*;

impl Search<'_> {
    /// The principal-variation search of the position on the board, `depth` plies left
    /// (`ext` extensions left for forced lines), between `alpha` and `beta`. `cut`: whether
    /// the node is expected to fail high (a null-window node whose parent expects to fail
    /// low, as Stockfish and Rapfi track it), where `style.cut_lmr` reduces late moves more.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn negamax(
        &mut self,
        mut depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
        ext: i32,
        cut: bool,
    ) -> i32 {
        // Every caller passes an open window (a null window at least): so a node is on the
        // principal variation exactly when it is not searched with a null window.
        debug_assert!(alpha < beta, "an empty window {alpha}..{beta}");
        if self.tick() {
            return 0;
        }
        if self.style.improving > 0 {
            self.trend.clear(ply);
        }
        let me = self.b.to_move();
        if self.b.game.is_over() {
            return self.terminal(me, ply);
        }
        let key = self.b.key();
        let mut tt_move = u16::MAX;
        // The table's score, bound and depth when too shallow to decide here: a better guess
        // than the evaluation (`tt_eval.rs`) and the singular test's start (`singular.rs`).
        let mut entry = None;
        // The cell this node leaves out while it tests its table move: such a search neither
        // reads nor writes the table, whose entry is the whole node's.
        let excluded = self.excluded.at(ply);
        let probe = if excluded == u16::MAX {
            self.tt.probe(key)
        } else {
            None
        };
        if let Some(e) = probe {
            tt_move = e.best;
            let s = from_tt(e.score, ply);
            entry = Some((s, e.bound, i32::from(e.depth)));
            if i32::from(e.depth) >= depth && ply > 0 {
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        // Whether this node is on the principal variation (an open window), as it was entered.
        let pv = beta - alpha > 1;
        if pv && let Some((_, _, tt_depth)) = entry {
            // On the principal variation, a node whose entry is much shallower than this
            // search: the last iterations did not follow it here (`style.pv_tt`).
            depth -= reduce::stale_pv(&self.style, depth, tt_depth);
        }
        if depth <= 0 && self.quiet(me) {
            if let Some(s) = self.quick_win(me, ply) {
                return s;
            }
            if self.qvcf_applies() {
                return self.qvcf(me, alpha, beta, ply, 0);
            }
            if self.style.qfours > 0 {
                return self.quiesce(me, alpha, beta, ply, ext);
            }
            return self.evaluate(me, &Tactics::default(), ply);
        }
        let (cands, tac, scored) = self.generate_unscored(me);
        if cands.is_empty() {
            return 0;
        }
        if self.immediate_win(me, &tac).is_some() {
            return WIN - ply - 1;
        }
        if tac.opp_wins.is_empty()
            && self.b.game.threatened_line().is_none()
            && let Some(s) = self.quick_win(me, ply)
        {
            return s;
        }
        let is_forced = self.must_answer(me, &tac);
        if depth <= 0 && (!is_forced || ext <= 0) {
            return self.evaluate(me, &tac, ply);
        }
        // Only the moves a node goes on to order are scored: the answers kept when something
        // must be answered, every candidate of a free node that pruning did not end.
        let forced = self.forced_moves(me, &cands, &tac, scored);
        // Answering an open three (a threat to make an open four) is forced too: the line
        // is searched one ply further, within the same extension budget as fours.
        let mut answers_three = false;
        // Whether this node must stop an open three (`style.defence_lmr`).
        let mut defending = false;
        // Only a node where nothing is forced or answered reduces its late moves: there every
        // move is a choice, not a reply whose refutation the reduced search could miss.
        let mut free = false;
        // Whether the side to move is not improving (`improving.rs`), at a free node.
        let mut worsening = false;
        // Whether this free node will likely fail high (`style.fhr`).
        let mut likely_high = false;
        // How many of `moves` the node searches while some move does not lose; the moves
        // after it wait for a node whose moves so far all lose (`style.lost_wide`).
        let mut limit = usize::MAX;
        let mut moves = match forced {
            Some(f) if !f.is_empty() => f,
            _ => match self
                .defences(me, &cands, &tac, scored)
                .or_else(|| self.four_three_defences(me, &cands, scored))
            {
                Some(mut d) => {
                    defending = true;
                    answers_three = self.style.extend_threes;
                    d.truncate(reduce::defence_count(&self.style, depth));
                    d
                }
                None => {
                    let trend = self.improving(me, &tac, ply);
                    let trend =
                        tt_eval::refine(self.style.tt_eval, trend, entry.map(|(s, b, _)| (s, b)));
                    let null_window = !pv;
                    if let Some(s) = self.futile(me, &tac, depth, null_window, beta, ply, trend) {
                        return s;
                    }
                    if let Some(s) = self.razor(me, &tac, depth, null_window, alpha, ply, trend) {
                        return s;
                    }
                    free = true;
                    worsening = trend.is_some_and(|t| !t.1);
                    likely_high = reduce::likely_high(&self.style, trend, depth, null_window, beta);
                    if self.style.iir > 0 && depth >= self.style.iir && tt_move == u16::MAX {
                        // Internal iterative reduction: a free node the table knows nothing
                        // of is likely off any line that mattered before; searched a ply
                        // shallower, it gets a table move for when it is searched again.
                        depth -= 1;
                    }
                    let mut c = cands;
                    if !scored {
                        self.score_moves(me, &mut c);
                    }
                    self.order_by_history(me, &mut c);
                    self.order_by_killers(me, ply, &mut c);
                    let width = if ply <= self.style.wide_plies && self.style.wide > 0 {
                        self.style.wide
                    } else {
                        self.style.width
                    };
                    let mut count = reduce::move_count(&self.style, depth, width);
                    if worsening && self.style.mcp > 0 {
                        count = improving::fewer(count, self.style.improving);
                    }
                    let count = reduce::side_count(&self.style, ply, count);
                    if self.style.lost_wide {
                        movegen::sort_first(&mut c, count);
                        limit = count;
                    } else {
                        movegen::best_first(&mut c, count);
                    }
                    c
                }
            },
        };
        if excluded != u16::MAX {
            if let Some(k) = moves.iter().position(|m| m.cell == excluded) {
                moves.remove(k);
                if k < limit {
                    // The counted moves stay those they were: the next one does not move up.
                    limit -= 1;
                }
            }
            if moves.is_empty() || limit == 0 {
                // Nothing but the table move: every other move fails low.
                return alpha;
            }
        }
        if let Some(k) = moves.iter().take(limit).position(|c| c.cell == tt_move) {
            moves[..=k].rotate_right(1);
        }
        // How many plies the table move, first, gains from the singular test.
        let mut tt_extra = 0;
        if free
            && moves.first().is_some_and(|m| m.cell == tt_move)
            && let Some((tt_score, _, _)) = entry
            && let Some(bound) =
                singular::bound_for(&self.style, ply, depth, ext, excluded != u16::MAX, entry)
        {
            match self.singular(tt_move, tt_score, bound, depth, beta, ply, ext, cut) {
                None => return 0,
                Some(singular::Singular::Cut(s)) => return s,
                Some(singular::Singular::Extend(n)) => tt_extra = n,
            }
        }
        let (mut child_depth, child_ext) = if (is_forced || answers_three) && ext > 0 {
            (depth.max(0), ext - 1)
        } else {
            (depth - 1, ext)
        };
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = u16::MAX;
        for k in 0..moves.len() {
            if k >= limit && (k == limit || self.style.lost_first) && best > -WIN_MIN {
                break;
            }
            if self.style.lost_extra > 0
                && k >= limit.saturating_add(self.style.lost_extra as usize)
            {
                // `lost_extra`: enough of the rest lost too; the loss is believed.
                break;
            }
            if k == limit {
                // Every counted move loses: a loss is proved only when every move loses, so
                // the rest are searched too, best first.
                moves[k..].sort_unstable_by_key(movegen::order);
            }
            let m = moves[k];
            let Some(p) = self.b.point(usize::from(m.cell)) else {
                continue;
            };
            // Whether the move makes or stops a threat is read before it is played (the
            // board's shapes are those of the empty point); the same flag keeps a cut-off by a
            // threat out of the quiet moves' history.
            let quiet = free
                && (self.style.lmr > 0 || self.style.history > 0)
                && !self.tactical(me, m.cell);
            let r = if quiet && m.cell != tt_move {
                // A reduced move at a node whose side is not improving may lose a ply more
                // (Stockfish's and Rapfi's rule).
                let r = reduce::reduction(&self.style, depth, k, false);
                let r = reduce::trend_reduction(&self.style, r, worsening, child_depth);
                reduce::pv_reduction(&self.style, r, pv)
            } else {
                0
            };
            // A node likely to fail high searches its moves a ply shallower, fours apart: the
            // depth the move is searched to, re-searches included.
            let depth_m = self.move_depth(me, m.cell, child_depth, likely_high);
            // The table move tested singular: a ply deeper, paid from the extensions left.
            let (depth_m, child_ext) = if k == 0 && tt_extra != 0 {
                ((depth_m + tt_extra).max(0), child_ext - tt_extra.max(0))
            } else {
                (depth_m, child_ext)
            };
            let r = r.min(depth_m.max(0));
            // At a node expected to fail high the quiet moves after the first lose more.
            let r = if quiet && k > 0 && m.cell != tt_move {
                reduce::cut_reduction(&self.style, r, cut, depth_m)
            } else {
                r
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let r = if defending && k > 0 && m.cell != tt_move {
                // A defending node is not free, so no quiet move's reduction applies here.
                let r = reduce::defence_reduction(&self.style, depth, k, depth_m);
                self.delaying_reduction(me, r, depth_m)
            } else {
                r
            };
            let score = if k == 0 {
                // On a null window the first child is expected to do the opposite of this
                // node; on the principal variation it is on it too.
                let child_cut = beta - alpha == 1 && !cut;
                -self.negamax(depth_m, -beta, -alpha, ply + 1, child_ext, child_cut)
            } else {
                let mut s =
                    -self.negamax(depth_m - r, -alpha - 1, -alpha, ply + 1, child_ext, true);
                let (mut full, mut full_ext) = (depth_m, child_ext);
                if r > 0 && s > alpha && !self.stopped {
                    // The shallow look says this late move beats the best so far: check it at
                    // full depth before believing it, a ply deeper when it beat it by far.
                    (full, full_ext) = reduce::deeper(&self.style, s - alpha, depth_m, child_ext);
                    s = -self.negamax(full, -alpha - 1, -alpha, ply + 1, full_ext, !cut);
                }
                if s > alpha && s < beta && !self.stopped {
                    -self.negamax(full, -beta, -alpha, ply + 1, full_ext, false)
                } else {
                    s
                }
            };
            self.b.undo();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m.cell;
            }
            if score > alpha {
                alpha = score;
                if reduce::alpha_reduces(&self.style, free, depth, alpha, beta) {
                    // A move has raised alpha: the ones after it, less likely to do better,
                    // are searched a ply shallower (Rapfi's rule).
                    child_depth = (child_depth - 1).max(0);
                }
            }
            if alpha >= beta {
                if quiet && self.style.history > 0 {
                    self.history.record(me, m.cell, depth);
                }
                if free {
                    self.record_refutation(me, ply, m.cell);
                }
                break;
            }
        }
        if best == -INF {
            return self.evaluate(me, &tac, ply);
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if excluded != u16::MAX {
            return best;
        }
        self.tt.store(Entry {
            key,
            score: to_tt(best, ply),
            best: best_move,
            depth: depth.clamp(-100, 100) as i8,
            bound,
        });
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::test_support::{gomoku, node_budget, off_at_every_level, refuses};

    /// Nodes of a two-ply search below a quiet middle-game position (nothing forced, more
    /// than twenty candidates everywhere), with the style changed by `set`.
    fn nodes_two_plies(set: &[(&str, &str)]) -> u64 {
        let g = gomoku("H8 J9 G7 K8 F10 G9");
        let mut style = Style::for_level(Level::new(5).expect("level"));
        // Level 5's move counts would cap the width these tests are about; `set` may turn
        // them back on.
        style.set("mcp", "0").expect("setting");
        for (k, v) in set {
            style.set(k, v).expect("setting");
        }
        let mut tt = Table::new(16);
        let limits = node_budget(10_000_000);
        let mut s = Search::threats(&mut tt, style, &g, limits, Instant::now()).expect("search");
        s.negamax(2, -INF, INF, 1, 0, false);
        s.nodes
    }

    /// Nodes and score of level 5's search after `moves` under `nodes` nodes, `set` on top.
    fn level5(moves: &str, nodes: u64, set: &[(&str, &str)]) -> (u64, i32) {
        let level = Level::new(5).expect("level");
        let mut style = Style::for_level(level);
        for (k, v) in set {
            style.set(k, v).expect("setting");
        }
        let mut e = Engine::with_style(level, style, 1);
        e.choose_with(&gomoku(moves), node_budget(nodes))
            .expect("a move");
        (e.last_info().nodes, e.last_info().score)
    }

    /// Nodes and score of level 5's search after `moves` under `nodes` nodes, with `set`
    /// applied on top of a search that keeps one candidate at every free node.
    fn one_wide(moves: &str, nodes: u64, set: &[(&str, &str)]) -> (u64, i32) {
        let set: Vec<_> = [("width", "1"), ("wide", "0")]
            .into_iter()
            .chain(set.iter().copied())
            .collect();
        level5(moves, nodes, &set)
    }

    /// Level 5's score for the side to move after `moves` under 20,000 nodes, one candidate
    /// at every free node, `set` on top.
    fn score_one_wide(moves: &str, set: &[(&str, &str)]) -> i32 {
        one_wide(moves, 20_000, set).1
    }

    #[test]
    fn a_forced_result_is_believed_only_when_every_answer_was_searched() {
        // Balanced openings (`gomoku_balanced_openings.txt`): with one candidate at every free
        // node, the side that moves there seems lost whenever its one move loses, and the
        // search claims a forced result (three wins for the side to move, one loss); the
        // full-width search finds none. Searching on while every move loses (`lost_wide`)
        // takes the claims back.
        for moves in ["G5 G7 K9", "G6 M11 L8", "K9 J5 E7", "F11 F10 G6"] {
            let narrow = score_one_wide(moves, &[("lost_wide", "off")]);
            assert!(narrow.abs() > WIN_MIN, "{moves}: {narrow}");
            let wide = score_one_wide(
                moves,
                &[
                    ("width", "40"),
                    ("wide", "40"),
                    ("mcp", "0"),
                    ("lost_wide", "off"),
                ],
            );
            assert!(wide.abs() < WIN_MIN, "{moves}: {wide}");
            let on = score_one_wide(moves, &[("lost_wide", "on")]);
            assert!(on.abs() < WIN_MIN, "{moves}: {on}");
        }
    }

    /// Nodes and score of that search to 28 plies (node budget to spare), `set` on top.
    fn one_wide_28_plies(moves: &str, set: &[(&str, &str)]) -> (u64, i32) {
        let set: Vec<_> = [("max_depth", "28")]
            .into_iter()
            .chain(set.iter().copied())
            .collect();
        one_wide(moves, 50_000_000, &set)
    }

    #[test]
    fn a_node_whose_counted_moves_lose_stops_at_the_first_that_holds_when_asked() {
        // Both ways the search searches on past a losing counted move; `lost_first` stops at
        // the first of the rest that does not lose, so it visits fewer nodes, and neither
        // claims a forced result the full-width search does not find.
        let mut fewer = 0;
        for moves in ["G5 G7 K9", "G6 M11 L8", "K9 J5 E7", "F11 F10 G6"] {
            let (all, s_all) = one_wide_28_plies(moves, &[("lost_first", "off")]);
            let (first, s_first) = one_wide_28_plies(moves, &[("lost_first", "on")]);
            assert!(s_all.abs() < WIN_MIN, "{moves}: {s_all}");
            assert!(s_first.abs() < WIN_MIN, "{moves}: {s_first}");
            assert!(first <= all, "{moves}: {first} nodes against {all}");
            fewer += usize::from(first < all);
        }
        assert!(fewer > 1, "lost_first saved nodes in {fewer} of 4");
    }

    #[test]
    fn a_losing_node_believes_its_loss_after_lost_extra_more_moves_when_asked() {
        // White to move wins in 23 more plies by Rapfi's reading (a line of threes and quiet
        // moves through black's delaying fours, from a game Rapfi won against level 5).
        // Searching every candidate of each losing free node (`lost_wide`), level 5 does not
        // prove it in 3 million nodes; believing the loss after eight more of them, it does.
        let moves = "K9 J5 E7 K5 G9 L5 H5 L7 H10 F8 H9";
        // The root's threat search (VCT), which finds nothing here, would spend the whole cap.
        let all = level5(moves, 3_000_000, &[("vct_depth", "0")]);
        assert!(all.1 < WIN_MIN, "{all:?}");
        let bounded = level5(moves, 3_000_000, &[("vct_depth", "0"), ("lost_extra", "8")]);
        assert!(bounded.1 > WIN_MIN, "{bounded:?}");
        // More than every candidate is `lost_wide` itself, node for node.
        let opening = "G5 G7 K9";
        assert_eq!(
            level5(opening, 200_000, &[("lost_extra", "400")]),
            level5(opening, 200_000, &[])
        );
    }

    #[test]
    fn lost_extra_is_off_at_every_level_and_refuses_what_is_no_count() {
        off_at_every_level("lost_extra", |s| s.lost_extra > 0);
        let mut style = Style::for_level(Level::new(5).expect("level"));
        refuses(&mut style, "lost_extra", &["-1", "x", "", "8.5"]);
    }

    #[test]
    fn the_plies_near_the_root_search_wide_only_when_asked() {
        let narrow = nodes_two_plies(&[("wide", "0"), ("wide_plies", "0")]);
        // `wide` without plies to apply it to changes nothing.
        assert_eq!(
            nodes_two_plies(&[("wide", "20"), ("wide_plies", "0")]),
            narrow
        );
        // At ply 1 only: twenty children instead of twelve (eight more nodes at least; the
        // cut-offs below decide the rest).
        let first = nodes_two_plies(&[("wide", "20"), ("wide_plies", "1")]);
        assert!(first >= narrow + 8, "{first} against {narrow}");
        // At plies 1 and 2: the first child's twenty leaves, searched in full, add eight more.
        let both = nodes_two_plies(&[("wide", "20"), ("wide_plies", "2")]);
        assert!(both >= first + 8, "{both} against {first}");
    }

    #[test]
    fn move_counts_search_fewer_moves_near_the_leaves() {
        let narrow = nodes_two_plies(&[("wide", "0"), ("wide_plies", "0")]);
        // Two plies left: 1 + 2 moves at the first ply instead of 12, 1 + 1 at the second.
        let counted = nodes_two_plies(&[("wide", "0"), ("wide_plies", "0"), ("mcp", "1")]);
        assert!(counted * 2 < narrow, "{counted} against {narrow}");
        // A large base leaves the width in charge.
        let wide = nodes_two_plies(&[("wide", "0"), ("wide_plies", "0"), ("mcp", "30")]);
        assert_eq!(wide, narrow);
    }

    #[test]
    fn each_sides_nodes_search_more_moves_only_when_asked() {
        let base = [("wide", "0"), ("wide_plies", "0"), ("mcp", "1")];
        let counted = nodes_two_plies(&base);
        let with = |n: &str| {
            let mut set = base.to_vec();
            set.push(("opp_wide", n));
            nodes_two_plies(&set)
        };
        assert_eq!(with("0"), counted, "off: as before");
        // The search starts at ply 1, the root's opponent: its 1 + 2 moves become 1 + 2 + 4,
        // each searched (the nodes below them at ply 2, the root side's, keep their count).
        let wider = with("4");
        assert!(wider >= counted + 4, "{wider} against {counted}");
        // The root's own side moves at ply 2: its nodes (one ply left, 1 + 1 moves each)
        // grow only with `own_wide`.
        let mut own = base.to_vec();
        own.push(("own_wide", "4"));
        let own = nodes_two_plies(&own);
        assert!(own >= counted + 4, "{own} against {counted}");
    }
}
