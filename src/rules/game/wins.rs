//! Winning rows: deciding the status after a move, and listing the rows that won.

use super::cells::{AXES, DIRS, idx, is_stone, point_at, step};
use super::{Colours, Game, Line, Removed, Status, WinReason};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct RawLine {
    start: u16,
    axis: u8,
    len: u8,
    pub(super) colour: u8,
}

impl RawLine {
    pub(super) fn cells(self) -> impl Iterator<Item = usize> {
        let d = AXES[usize::from(self.axis)];
        (0..self.len).map(move |k| step(usize::from(self.start), d * isize::from(k)))
    }
    pub(super) fn to_line(self) -> Line {
        let d = AXES[usize::from(self.axis)];
        Line {
            start: point_at(usize::from(self.start)),
            end: point_at(step(
                usize::from(self.start),
                d * (isize::from(self.len) - 1),
            )),
            colour: self.colour,
        }
    }
}

impl Game {
    /// The winning rows on the board once the game is won by a line.
    pub fn winning_lines(&self) -> Vec<Line> {
        let Status::Won { winners, .. } = self.state.status else {
            return Vec::new();
        };
        let mut lines = Vec::new();
        for &e in &self.all_cells() {
            let c = self.cells[e];
            if !is_stone(c) || !winners.contains(c) {
                continue;
            }
            for (axis, &d) in AXES.iter().enumerate() {
                if self.cells[step(e, -d)] == c {
                    continue; // not the start of its run
                }
                let len = 1 + self.run(e, d, c);
                if self.is_winning_len(len, c) {
                    lines.push(
                        RawLine {
                            start: e as u16,
                            axis: axis as u8,
                            len: len as u8,
                            colour: c,
                        }
                        .to_line(),
                    );
                }
            }
        }
        lines
    }

    pub(super) fn all_cells(&self) -> Vec<usize> {
        self.points().map(idx).collect()
    }

    /// Whether a row of `len` stones of `colour` wins (Renju: black only with exactly five).
    pub(super) fn is_winning_len(&self, len: usize, colour: u8) -> bool {
        let line = usize::from(self.rules.line);
        let overline_wins = self.rules.overline_wins && !(self.rules.is_renju() && colour == 1);
        len == line || (len > line && overline_wins)
    }

    /// Decides the status after a stone of `colour` went to `i` and `removed` left.
    pub(super) fn settle(&mut self, i: usize, colour: u8, removed: &[Removed], credited: bool) {
        let mut line_winners = Colours::EMPTY;
        let mut mover_lines = 0;
        let mut mover_line = None;
        let mut other_lines = 0;
        if self.cells[i] == colour {
            for (axis, &d) in AXES.iter().enumerate() {
                let back = self.run(i, -d, colour);
                let len = 1 + back + self.run(i, d, colour);
                if self.is_winning_len(len, colour) {
                    line_winners.insert(colour);
                    mover_lines += 1;
                    mover_line = Some(RawLine {
                        start: step(i, -d * back as isize) as u16,
                        axis: axis as u8,
                        len: len as u8,
                        colour,
                    });
                }
            }
        }
        if !self.rules.overline_wins && !removed.is_empty() {
            // Removing stones can trim someone's overline down to an exact, winning row.
            for r in removed {
                let ri = idx(r.point);
                for &d in &DIRS {
                    let q = step(ri, d);
                    let c = self.cells[q];
                    // A retired colour's stones stay, but it can no longer win.
                    if is_stone(c)
                        && !self.state.retired.contains(c)
                        && self.cells[step(q, -d)] != c
                    {
                        let len = 1 + self.run(q, d, c);
                        if len == usize::from(self.rules.line) {
                            line_winners.insert(c);
                            other_lines += 1;
                        }
                    }
                }
            }
        }
        let mut capture_winners = Colours::EMPTY;
        if credited && self.rules.capture_win > 0 {
            for c in 1..=self.rules.players {
                if !self.state.retired.contains(c) && self.score(c) >= self.rules.capture_win {
                    capture_winners.insert(c);
                }
            }
        }
        let mut pending_winner = Colours::EMPTY;
        if let Some(line) = self.state.pending.take()
            && self.line_stands(line)
        {
            pending_winner.insert(line.colour);
        }
        let mut winners = Colours(line_winners.0 | capture_winners.0 | pending_winner.0);
        if winners.is_empty() {
            self.state.to_move = self.next_in_play(colour);
            if self.empties.is_empty() || !self.has_legal_point(self.state.to_move) {
                self.state.status = Status::Draw;
            }
            return;
        }
        let next = self.next_in_play(colour);
        if let Some(line) = mover_line {
            let single = mover_lines == 1
                && other_lines == 0
                && capture_winners.is_empty()
                && pending_winner.is_empty();
            if self.rules.extra_time_capture && single && self.can_break(line, next) {
                self.state.pending = Some(line);
                self.state.to_move = next;
                return;
            }
        }
        for c in winners.iter() {
            if let Some(t) = self.rules.teammate(c) {
                winners.insert(t);
            }
        }
        self.state.status = Status::Won {
            winners,
            reason: if capture_winners.is_empty() {
                WinReason::Line
            } else {
                WinReason::Captures
            },
        };
    }

    /// Whether a winning row (or a still-winning part of it) is still on the board.
    pub(super) fn line_stands(&self, line: RawLine) -> bool {
        let d = AXES[usize::from(line.axis)];
        line.cells().any(|cell| {
            self.cells[cell] == line.colour
                && self.is_winning_len(
                    1 + self.run(cell, -d, line.colour) + self.run(cell, d, line.colour),
                    line.colour,
                )
        })
    }
}
