//! The leaf's continuous fours near the mover's last stone (`Style::qvcf`).
//!
//! A quiet leaf's evaluation reads shapes, not lines of play. Rapfi (read, not copied) ends
//! every line of its main search in a search of continuous fours: the side to move tries the
//! fours near its own last stone, each answered by the one block, and keeps the evaluation as
//! the floor ("stand pat"). Near the last stone only, and after the first two fours only fours
//! that make something more as well (a four-three or better), so the look stays a few nodes
//! where nothing is there, and a quiet move that prepares a win by fours is seen as won a few
//! plies before the fours themselves. `quiesce.rs` (`Style::qfours`) plays every four on the
//! board through the main search instead, within the line's extension budget.

use super::{Search, Tactics, WIN};
use crate::engine::board::cell_of;
use crate::engine::patterns::Threat;
use crate::rules::{Action, Point};

/// How many of the mover's fours in a row may be plain fours (a four and nothing more) before
/// only fours that make more are tried.
const PLAIN_FOURS: i32 = 2;

impl Search<'_> {
    /// Whether the leaf's fours may be played out here: with the setting on, where the lines
    /// decide ([`Search::lines_decide`]); elsewhere the evaluation alone scores the leaf.
    pub(super) fn qvcf_applies(&self) -> bool {
        self.style.qvcf && self.lines_decide()
    }

    /// The score of a quiet leaf for `me` to move: its evaluation, or more when its fours
    /// near `me`'s last stone lead to more (`fours` of them played on this line so far).
    pub(super) fn qvcf(&mut self, me: u8, alpha: i32, beta: i32, ply: i32, fours: i32) -> i32 {
        if let Some(s) = self.shapes_win(me, ply) {
            return s;
        }
        let stand = self.evaluate(me, &Tactics::default(), ply);
        if stand >= beta {
            return stand;
        }
        let cells = self.fours_near_last(me, fours >= PLAIN_FOURS);
        let (mut best, mut alpha) = (stand, alpha.max(stand));
        let opp = 3 - me;
        for c in cells {
            let Some(p) = self.b.point(usize::from(c)) else {
                continue;
            };
            if self.tick() {
                break;
            }
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let blocks = self.win_cells(me);
            let score = match blocks.as_slice() {
                // Not a four after all (the shapes said so; the stones decide).
                [] => None,
                // The one block, unless it makes a four of the other side's: then the line is
                // no longer one of this side's fours, and the leaf keeps what it has.
                [b] => {
                    let block = self.b.point(usize::from(*b));
                    let played = block.is_some_and(|q| self.b.apply(Action::Place(q)).is_ok());
                    let s = if played && self.b.fours[usize::from(opp - 1)] == 0 {
                        self.tick();
                        Some(self.qvcf(me, alpha, beta, ply + 2, fours + 1))
                    } else {
                        None
                    };
                    if played {
                        self.b.undo();
                    }
                    s
                }
                // Two points to make five: the other side stops one.
                _ => Some(WIN - ply - 3),
            };
            self.b.undo();
            if self.stopped {
                return 0;
            }
            let Some(score) = score else {
                continue;
            };
            best = best.max(score);
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The empty cells where `me` makes a four within two points of its last stone, or on one
    /// of its lines within four (`combined`: only fours that make a three or a second four as
    /// well), best first by the shapes.
    fn fours_near_last(&self, me: u8, combined: bool) -> Vec<u16> {
        let b = &self.b;
        if b.threats_at_least(me, Threat::Four) == 0 {
            return Vec::new();
        }
        let record = b.game.record();
        let Some(Action::Place(last)) = record.len().checked_sub(2).map(|k| record[k]) else {
            return Vec::new();
        };
        let size = b.game.size();
        let wanted = if combined {
            Threat::FourThree
        } else {
            Threat::Four
        };
        let mut cells: Vec<(i32, u16)> = Vec::new();
        for dr in -4i32..=4 {
            for dc in -4i32..=4 {
                let near = dr.abs() <= 2 && dc.abs() <= 2;
                let on_line = dr == 0 || dc == 0 || dr.abs() == dc.abs();
                if (dr, dc) == (0, 0) || !(near || on_line) {
                    continue;
                }
                let (Ok(col), Ok(row)) = (
                    u8::try_from(i32::from(last.col()) + dc),
                    u8::try_from(i32::from(last.row()) + dr),
                ) else {
                    continue;
                };
                let Ok(p) = Point::new(col, row, size) else {
                    continue;
                };
                let i = cell_of(p);
                if b.cells[i] == super::EMPTY && b.threat_at(i, me) >= wanted && b.makes_four(i, me)
                {
                    cells.push((b.gain_at(i, me), i as u16));
                }
            }
        }
        cells.sort_unstable_by(|a, b| b.cmp(a));
        cells.into_iter().map(|(_, i)| i).collect()
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use super::super::{INF, Search, Style, Tactics, WIN_MIN};
    use crate::engine::Level;
    use crate::engine::test_support::{game, gomoku, node_budget, off_at_every_level};
    use crate::engine::tt::Table;
    use crate::rules::Game;

    /// `qvcf`, `evaluate` and whether the shapes alone prove a win (`quick_win`) for the side
    /// to move of `g`, with the setting on, or `None` where the leaf is not quiet or the
    /// setting does not apply.
    fn leaf3(g: &Game) -> Option<(i32, i32, bool)> {
        let mut tt = Table::new(12);
        let mut style = Style::for_level(Level::new(5).expect("level"));
        style.qvcf = true;
        let mut s = Search::threats(&mut tt, style, g, node_budget(1_000_000), Instant::now())?;
        let me = s.b.to_move();
        if !s.quiet(me) || !s.qvcf_applies() {
            return None;
        }
        let stand = s.evaluate(me, &Tactics::default(), 0);
        let shapes = s.shapes_win(me, 0).is_some();
        Some((s.qvcf(me, -INF, INF, 0, 0), stand, shapes))
    }

    /// `qvcf` and `evaluate` as [`leaf3`].
    fn leaf(g: &Game) -> Option<(i32, i32)> {
        leaf3(g).map(|(q, stand, _)| (q, stand))
    }

    /// Whether the threat search's continuous fours (every four on the board) win for the
    /// side to move of `g`.
    fn vcf_wins(g: &Game) -> bool {
        let mut tt = Table::new(16);
        let style = Style::for_level(Level::new(5).expect("level"));
        let mut s = Search::threats(&mut tt, style, g, node_budget(50_000_000), Instant::now())
            .expect("in play");
        let me = s.b.to_move();
        s.vcf_root(me, 40).is_some()
    }

    /// Black to move: H11 makes a four (H8-H11, shut at H7) and an open three (H11 J11 K11);
    /// the block at H12 leaves G11 or L11 for an open four. The shapes prove it; the wins
    /// that need fours played out are in the nps positions' test below.
    const FOURS_WIN: &str = "H8 H7 H9 A1 H10 A3 J11 C1 K11 O15";

    #[test]
    fn a_leaf_whose_shapes_win_scores_as_won() {
        let (q, stand) = leaf(&gomoku(FOURS_WIN)).expect("a quiet leaf");
        assert!(q >= WIN_MIN, "qvcf {q}");
        assert!(stand < WIN_MIN, "the evaluation alone sees shapes: {stand}");
    }

    #[test]
    fn a_dead_four_is_no_gain() {
        // Black's only four (H11 or H12 on H8-H10, shut at H7) is blocked and leaves nothing.
        let dead = gomoku("H8 H7 H9 A1 H10 A3 C15 C1 E15 O15");
        let (q, stand) = leaf(&dead).expect("a quiet leaf");
        assert_eq!(q, stand);
    }

    #[test]
    fn capture_games_and_renju_keep_the_evaluation() {
        assert_eq!(leaf(&game("pente", "K10 L11 N10 L12 M9")), None);
        assert_eq!(leaf(&game("renju opening=none", FOURS_WIN)), None);
    }

    #[test]
    fn every_win_the_leaf_claims_is_a_win_by_fours() {
        // Every quiet prefix of the nps positions (self-play of level 3): the leaf never
        // scores less than its evaluation, and every win it claims the threat search's
        // continuous fours prove from the whole board; some of them take fours played out
        // (the shapes alone do not prove them).
        let text = include_str!("../../../crates/gomoku-core/examples/nps_positions.txt");
        let (mut leaves, mut wins, mut played) = (0, 0, 0);
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.is_empty())
        {
            let moves: Vec<&str> = line.split_whitespace().collect();
            for n in 4..=moves.len() {
                let g = gomoku(&moves[..n].join(" "));
                let Some((q, stand, shapes)) = leaf3(&g) else {
                    continue;
                };
                leaves += 1;
                assert!(q >= stand, "{}: {q} below {stand}", moves[..n].join(" "));
                if q >= WIN_MIN {
                    wins += 1;
                    played += usize::from(!shapes);
                    assert!(vcf_wins(&g), "{}: a false win", moves[..n].join(" "));
                }
            }
        }
        assert!(leaves > 100, "{leaves} quiet leaves");
        assert!(
            played > 0,
            "{wins} wins in {leaves} leaves, none by fours played out"
        );
    }

    #[test]
    fn off_at_every_level_until_measured() {
        off_at_every_level("qvcf", |s| s.qvcf);
    }
}
