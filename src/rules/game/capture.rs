//! Custodial captures, self-capture, and the extra-time capture's test.

use super::cells::{AXES, DIRS, idx, is_stone, point_at, step};
use super::wins::RawLine;
use super::{Game, Removed};
use crate::rules::ruleset::{Captures, SelfCapture};

/// Stones claimed by a move before they are removed: `(cell, claimant)`.
///
/// A growing list that allocates only at the first claim: most moves claim nothing, and the
/// engine plays millions of them (a fixed array of room for the most a move can claim, 33,
/// cost a hundred instructions a move to clear).
pub(super) struct Claims {
    items: Vec<(u16, u8)>,
}

impl Claims {
    pub(super) fn new() -> Self {
        Claims { items: Vec::new() }
    }
    pub(super) fn push(&mut self, cell: usize, claimant: u8) {
        self.items.push((cell as u16, claimant));
    }
    pub(super) fn as_slice(&self) -> &[(u16, u8)] {
        &self.items
    }
}

impl Game {
    /// Whether stones `a` (and the ones after it) may be captured together by `claimant`.
    pub(super) fn capturable(&self, v: u8, first: u8, claimant: u8) -> bool {
        is_stone(v) && v != claimant && (self.rules.mixed_captures || v == first)
    }

    /// Captures made by `colour` standing at `i` (the cell must already hold it).
    pub(super) fn find_captures(&self, i: usize, colour: u8, claims: &mut Claims) {
        let triples = self.rules.captures == Captures::PairsAndTriples;
        for &d in &DIRS {
            let a = step(i, d);
            let va = self.cells[a];
            if !is_stone(va) || va == colour {
                continue;
            }
            let b = step(a, d);
            if !self.capturable(self.cells[b], va, colour) {
                continue;
            }
            let e = step(b, d);
            let ve = self.cells[e];
            if ve == colour {
                claims.push(a, colour);
                claims.push(b, colour);
            } else if triples && self.capturable(ve, va, colour) && self.cells[step(e, d)] == colour
            {
                claims.push(a, colour);
                claims.push(b, colour);
                claims.push(e, colour);
            }
        }
    }

    /// Groups containing `i` that a stone of `colour` there would leave bracketed by another player.
    ///
    /// Cell `i` is read as holding `colour` whatever it holds, so this works before placing.
    pub(super) fn find_self_captures(&self, i: usize, colour: u8, claims: &mut Claims) -> bool {
        let max = if self.rules.captures == Captures::PairsAndTriples {
            3
        } else {
            2
        };
        let mut found = false;
        for &d in &AXES {
            // Only cells proven to hold stones are stepped over, so every index read stays on
            // the board or its one-cell border.
            let back = self.stones_in_a_row(i, -d, max - 1);
            let fwd = self.stones_in_a_row(i, d, max - 1);
            for k in 2..=max {
                for s in -(back.min(k - 1) as isize)..=0 {
                    if s + k as isize - 1 > fwd as isize {
                        continue;
                    }
                    let first = step(i, d * s);
                    let before = step(first, -d);
                    let after = step(first, d * k as isize);
                    let x = self.cells[before];
                    if !is_stone(x) || self.cells[after] != x || x == colour {
                        continue;
                    }
                    let group_ok = (0..k as isize).all(|t| {
                        let cell = step(first, d * t);
                        let v = if cell == i { colour } else { self.cells[cell] };
                        v != x && (self.rules.mixed_captures || v == colour)
                    });
                    if group_ok {
                        found = true;
                        for t in 0..k as isize {
                            claims.push(step(first, d * t), x);
                        }
                    }
                }
            }
        }
        found
    }

    /// Removes claimed stones, scoring each for its single claimant (disputed ones score nothing).
    pub(super) fn resolve(&mut self, claims: &[(u16, u8)]) -> Vec<Removed> {
        if claims.is_empty() {
            return Vec::new();
        }
        let mut sorted: Vec<(u16, u8)> = claims.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut removed = Vec::with_capacity(sorted.len());
        let mut k = 0;
        while k < sorted.len() {
            let cell = sorted[k].0;
            let mut end = k + 1;
            while end < sorted.len() && sorted[end].0 == cell {
                end += 1;
            }
            let colour = self.cells[usize::from(cell)];
            let claimant = (end - k == 1).then_some(sorted[k].1);
            let credited_to = claimant.filter(|&c| self.rules.teammate(c) != Some(colour));
            if let Some(c) = credited_to {
                self.state.captured[usize::from(c - 1)] += 1;
            }
            removed.push(Removed {
                point: point_at(usize::from(cell)),
                colour,
                credited_to,
            });
            k = end;
        }
        for r in &removed {
            let i = idx(r.point);
            self.removed_log.push((i as u16, r.colour));
            self.clear(i);
        }
        self.state.removed += removed.len() as u16;
        removed
    }

    /// Whether `colour` has a legal move that captures a stone of `line`.
    pub(super) fn can_break(&self, line: RawLine, colour: u8) -> bool {
        self.empties.iter().any(|&e| {
            let e = usize::from(e);
            if self.forbidden_at(e, colour) {
                return false;
            }
            let mut captures = Claims::new();
            self.find_captures(e, colour, &mut captures);
            captures
                .as_slice()
                .iter()
                .any(|&(c, _)| line.cells().any(|l| l == usize::from(c)))
        })
    }

    /// Whether `self_capture=forbidden` bars `colour` from the empty cell `i`.
    pub(super) fn forbidden_at(&self, i: usize, colour: u8) -> bool {
        self.rules.self_capture == SelfCapture::Forbidden
            && self.find_self_captures(i, colour, &mut Claims::new())
    }

    /// Whether `colour` has an empty point it may play (self-capture and Renju allowing).
    pub(super) fn has_legal_point(&self, colour: u8) -> bool {
        self.empties.iter().any(|&e| {
            let e = usize::from(e);
            !self.forbidden_at(e, colour) && self.renju_refusal(e, colour).is_none()
        })
    }
}
