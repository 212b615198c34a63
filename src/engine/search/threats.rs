//! Threat-space search: continuous fours (VCF).

use super::*;

impl Search<'_> {
    /// A first move of a continuous-four win for the side to move, if one is found.
    pub(super) fn vcf_root(&mut self, attacker: u8, depth: i32) -> Option<u16> {
        if !self.win_cells(3 - attacker).is_empty() {
            return None;
        }
        for m in self.four_makers(attacker) {
            let p = self.b.point(usize::from(m.cell))?;
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let won = self.vcf_defend(attacker, depth);
            self.b.undo();
            if self.stopped {
                return None;
            }
            if won {
                return Some(m.cell);
            }
        }
        None
    }

    /// Attacker to move: whether continuous fours win within `depth` attacker moves.
    pub(super) fn vcf_attack(&mut self, attacker: u8, depth: i32) -> bool {
        if self.tick() {
            return false;
        }
        if self.b.game.is_over() {
            return self.terminal(attacker, 0) > WIN_MIN;
        }
        let wins = self.win_cells(attacker);
        if !wins.is_empty() {
            let tac = Tactics {
                my_wins: wins,
                ..Tactics::default()
            };
            if self.immediate_win(attacker, &tac).is_some() {
                return true;
            }
        }
        if depth <= 0
            || self.b.game.threatened_line().is_some()
            || !self.win_cells(3 - attacker).is_empty()
        {
            return false;
        }
        let key = self.b.key();
        if self.vcf_failed.get(&key).is_some_and(|&d| d >= depth) {
            return false;
        }
        for m in self.four_makers(attacker) {
            let Some(p) = self.b.point(usize::from(m.cell)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let won = self.vcf_defend(attacker, depth);
            self.b.undo();
            if self.stopped {
                return false;
            }
            if won {
                return true;
            }
        }
        self.vcf_failed.insert(key, depth);
        false
    }

    /// Defender to move after an attacker's four: whether every reply still loses.
    pub(super) fn vcf_defend(&mut self, attacker: u8, depth: i32) -> bool {
        if self.tick() {
            return false;
        }
        let defender = 3 - attacker;
        if self.b.game.is_over() {
            return self.terminal(defender, 0) < -WIN_MIN;
        }
        if !self.win_cells(defender).is_empty() {
            return false;
        }
        let pending = self.b.game.threatened_line().is_some();
        let threats = self.win_cells(attacker);
        if threats.is_empty() && !pending {
            return false;
        }
        let mut replies = threats;
        for c in self.capture_cells(defender) {
            if !replies.contains(&c) {
                replies.push(c);
            }
        }
        let mut any = false;
        for r in replies {
            let Some(p) = self.b.point(usize::from(r)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            any = true;
            let won = self.vcf_attack(attacker, depth - 1);
            self.b.undo();
            if !won || self.stopped {
                return false;
            }
        }
        // No legal reply at all (every blocking point refused) loses for the defender too.
        let _ = any;
        true
    }
}
