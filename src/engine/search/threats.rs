//! Threat-space search: continuous fours (VCF), and fours with open threes (VCT).
//!
//! The VCT search plays the attacker's threats only (fours, open threes) and, for the
//! defender, only the answers that can stop them: the winning point after a four; after a
//! three, the points where the attacker would make a four (every defence of a three stands on
//! one), the defender's own fours (which the attacker must answer before going on), and in
//! capture games every capture. A point the rules refuse (Renju's forbidden points) is no
//! answer. Black's threes in Renju are taken at face value even when the point that would make
//! them open fours is forbidden, so a VCT for black can be optimistic there; VCF is exact.
//!
//! In capture games the attacker's threats include what a point's shapes cannot show, since
//! they are read with the stones still down: a capture that leaves a four (its taken stone
//! blocked a row) or an open three, and near the capture goal a stone that threatens a capture
//! reaching it. Games against pente.org's engine were lost to such lines, invisible to the
//! threat search until the last moves. The defender's answers to a three there also include
//! the moves that threaten to take a stone of the four the three would make: taking it would
//! break the four.

use super::*;
use crate::engine::board::{AXES, WALL, step};
use crate::engine::patterns::{FOUR, Threat};

/// Threes tried at each attacker node of the VCT search (fours are all tried).
const VCT_WIDTH: usize = 8;
/// Keeps the VCT's failure memo apart from the VCF's in the shared map.
const VCT_SALT: u64 = 0x7C7_5A17_u64;

impl Search<'_> {
    /// A first move of a continuous-four win for the side to move, if one is found.
    pub(super) fn vcf_root(&mut self, attacker: u8, depth: i32) -> Option<u16> {
        if !self.win_cells(3 - attacker).is_empty() {
            return None;
        }
        let moves = self.vcf_moves(attacker);
        self.winning_move(moves, |s| s.vcf_defend(attacker, depth))
    }

    /// The first of `moves` after which `wins` holds (each played to look and taken back);
    /// `None` when none does, or the clock or node cap stopped the search.
    fn winning_move(
        &mut self,
        moves: Vec<u16>,
        mut wins: impl FnMut(&mut Self) -> bool,
    ) -> Option<u16> {
        for m in moves {
            let Some(p) = self.b.point(usize::from(m)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let won = wins(self);
            self.b.undo();
            if self.stopped {
                return None;
            }
            if won {
                return Some(m);
            }
        }
        None
    }

    /// Whether `still_won` holds after every one of the defender's `replies` (each played to
    /// look and taken back); a reply the rules refuse (a forbidden point in Renju) is no
    /// answer. False as soon as one reply saves the defender or the search is stopped.
    fn every_reply_loses(
        &mut self,
        replies: Vec<u16>,
        mut still_won: impl FnMut(&mut Self) -> bool,
    ) -> bool {
        for r in replies {
            let Some(p) = self.b.point(usize::from(r)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let won = still_won(self);
            self.b.undo();
            if !won || self.stopped {
                return false;
            }
        }
        true
    }

    /// What an attacker's node of the threat searches knows before it looks at moves: lost
    /// when stopped, the game's result when it is over, won when the attacker wins at once;
    /// `None` when it must search.
    fn attack_settled(&mut self, attacker: u8) -> Option<bool> {
        if self.tick() {
            return Some(false);
        }
        if self.b.game.is_over() {
            return Some(self.terminal(attacker, 0) > WIN_MIN);
        }
        let wins = self.win_cells(attacker);
        if !wins.is_empty() {
            let tac = Tactics {
                my_wins: wins,
                ..Tactics::default()
            };
            if self.immediate_win(attacker, &tac).is_some() {
                return Some(true);
            }
        }
        None
    }

    /// The same for a defender's node: not lost when stopped or when the defender can win at
    /// once, the game's result when it is over; `None` when the replies must be searched.
    fn defence_settled(&mut self, attacker: u8) -> Option<bool> {
        if self.tick() {
            return Some(false);
        }
        let defender = 3 - attacker;
        if self.b.game.is_over() {
            return Some(self.terminal(defender, 0) < -WIN_MIN);
        }
        if !self.win_cells(defender).is_empty() {
            return Some(false);
        }
        None
    }

    /// Attacker to move: whether continuous fours win within `depth` attacker moves.
    pub(super) fn vcf_attack(&mut self, attacker: u8, depth: i32) -> bool {
        if let Some(settled) = self.attack_settled(attacker) {
            return settled;
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
        let moves = self.vcf_moves(attacker);
        if self
            .winning_move(moves, |s| s.vcf_defend(attacker, depth))
            .is_some()
        {
            return true;
        }
        if !self.stopped {
            self.vcf_failed.insert(key, depth);
        }
        false
    }

    /// Defender to move after an attacker's four: whether every reply still loses.
    pub(super) fn vcf_defend(&mut self, attacker: u8, depth: i32) -> bool {
        if let Some(settled) = self.defence_settled(attacker) {
            return settled;
        }
        let defender = 3 - attacker;
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
        // No legal reply at all (every blocking point refused) loses for the defender too.
        self.every_reply_loses(replies, |s| s.vcf_attack(attacker, depth - 1))
    }
}

/// Ordering of an attacker's threat move: fours and double threats first.
fn threat_rank(t: Threat) -> i32 {
    match t {
        Threat::Five => 100,
        Threat::OpenFour => 90,
        Threat::FourThree => 80,
        Threat::DoubleThree => 60,
        Threat::Four => 40,
        Threat::Three => 30,
        Threat::Quiet => 0,
    }
}

impl Search<'_> {
    /// Moves of `attacker` that threaten: a four (answer or lose), or an open three (answer or
    /// face an open four), the strongest first; at most `limit` of the threes.
    pub(super) fn threat_moves(&self, attacker: u8, limit: usize) -> Vec<u16> {
        let b = &self.b;
        let check = self.needs_check();
        let mut fours: Vec<(i32, u16)> = Vec::new();
        let mut threes: Vec<(i32, u16)> = Vec::new();
        for i in b.frontier() {
            let t = b.threat_at(i, attacker);
            if t == Threat::Quiet || !self.legal_cell(i, check) {
                continue;
            }
            let key = threat_rank(t) * 10_000 + b.value_at(i, attacker);
            if b.makes_a_four(i, attacker) {
                fours.push((key, i as u16));
            } else {
                threes.push((key, i as u16));
            }
        }
        fours.sort_unstable_by_key(|f| std::cmp::Reverse(f.0));
        threes.sort_unstable_by_key(|f| std::cmp::Reverse(f.0));
        threes.truncate(limit);
        fours.into_iter().chain(threes).map(|f| f.1).collect()
    }

    /// The attacker's moves of the continuous-four search: the points that make a four, then
    /// (capture games) the captures that threaten by what they take away and the stones that
    /// threaten a capture reaching the goal.
    pub(super) fn vcf_moves(&mut self, attacker: u8) -> Vec<u16> {
        let mut moves: Vec<u16> = self.four_makers(attacker).iter().map(|m| m.cell).collect();
        let (fours, _) = self.capture_threats(attacker, false, &moves);
        moves.extend(fours);
        moves
    }

    /// The attacker's moves of the VCT search: [`Search::threat_moves`], with (capture games)
    /// the captures that leave a four first and those that leave an open three last.
    pub(super) fn vct_moves(&mut self, attacker: u8, limit: usize) -> Vec<u16> {
        let moves = self.threat_moves(attacker, limit);
        let (fours, threes) = self.capture_threats(attacker, true, &moves);
        if fours.is_empty() && threes.is_empty() {
            return moves;
        }
        fours.into_iter().chain(moves).chain(threes).collect()
    }

    /// In capture games, the captures of `attacker` (other than `known` moves) that threaten
    /// through the stones they take: afterwards the attacker has a winning point (a row whose
    /// blocking stone was taken, or a capture win in reach) or, with `threes`, a point that
    /// makes an open four; and, near the capture goal, the stones that threaten a capture
    /// reaching it. A point's shapes are read with the captured stones still on the board and
    /// know nothing of the goal, so [`Search::four_makers`] and [`Search::threat_moves`] cannot
    /// see these: each is played to look. Returns (those that leave a win, those that leave a
    /// three).
    pub(super) fn capture_threats(
        &mut self,
        attacker: u8,
        threes: bool,
        known: &[u16],
    ) -> (Vec<u16>, Vec<u16>) {
        let (mut fours, mut open) = (Vec::new(), Vec::new());
        if self.b.captures == crate::rules::Captures::None {
            return (fours, open);
        }
        // A three already standing is no threat the capture makes.
        let had_three = threes && self.b.threats_at_least(attacker, Threat::OpenFour) > 0;
        let need = if threes && !had_three { 3 } else { 4 };
        let goal = u32::from(self.b.capture_win);
        let have = u32::from(self.b.captured(attacker));
        let run = if self.b.captures == crate::rules::Captures::PairsAndTriples {
            3
        } else {
            2
        };
        for (c, n) in self.b.capture_moves(attacker) {
            // Playing a capture to look costs far more than reading the lines around it:
            // only a capture that frees a line, or brings the goal within two more runs (what
            // one stone may take beside it), is tried.
            let near_goal = goal > 0 && have + n + 2 * run >= goal;
            if known.contains(&c)
                || !(near_goal || self.b.capture_frees_line(usize::from(c), attacker, need))
            {
                continue;
            }
            match self.threat_after(c, attacker, threes && !had_three) {
                Some(true) => fours.push(c),
                Some(false) => open.push(c),
                None => {}
            }
        }
        // Near the capture goal, a stone that threatens to take enough stones is a four too.
        if goal > 0 && have < goal {
            let ai = usize::from(attacker - 1);
            let check = self.needs_check();
            let reach: Vec<u16> = (self.b.frontier())
                .filter(|&i| have + self.b.capture_attacks(i)[ai] >= goal)
                .filter(|&i| self.legal_cell(i, check))
                .map(|i| i as u16)
                .filter(|c| !known.contains(c) && !fours.contains(c) && !open.contains(c))
                .collect();
            for c in reach {
                if self.threat_after(c, attacker, false) == Some(true) {
                    fours.push(c);
                }
            }
        }
        (fours, open)
    }

    /// Plays `c` for `attacker` to look: `Some(true)` when the attacker then has a winning
    /// point, `Some(false)` when (asked with `three`) a point that makes an open four, `None`
    /// when neither (or the move is refused).
    fn threat_after(&mut self, c: u16, attacker: u8, three: bool) -> Option<bool> {
        let p = self.b.point(usize::from(c))?;
        self.b.apply(Action::Place(p)).ok()?;
        let found = if !self.win_cells(attacker).is_empty() {
            Some(true)
        } else if three && self.b.threats_at_least(attacker, Threat::OpenFour) > 0 {
            Some(false)
        } else {
            None
        };
        self.b.undo();
        found
    }

    /// A first move of a win by threats (fours and open threes, VCT) for `attacker` to move,
    /// within `depth` attacker moves.
    pub(super) fn vct_root(&mut self, attacker: u8, depth: i32) -> Option<u16> {
        if !self.win_cells(3 - attacker).is_empty() || self.b.game.threatened_line().is_some() {
            return None;
        }
        for d in (2..=depth).step_by(2) {
            let moves = self.vct_moves(attacker, VCT_WIDTH);
            let found = self.winning_move(moves, |s| s.vct_defend(attacker, d));
            if found.is_some() || self.stopped {
                return found;
            }
        }
        None
    }

    /// Attacker to move: whether fours and open threes win within `depth` attacker moves.
    pub(super) fn vct_attack(&mut self, attacker: u8, depth: i32) -> bool {
        if let Some(settled) = self.attack_settled(attacker) {
            return settled;
        }
        let defender = 3 - attacker;
        if depth <= 0 || self.b.game.threatened_line().is_some() {
            return false;
        }
        let key = self.b.key();
        if self
            .vcf_failed
            .get(&(key ^ VCT_SALT))
            .is_some_and(|&d| d >= depth)
        {
            return false;
        }
        let blocks = self.win_cells(defender);
        let won = if !blocks.is_empty() {
            // The defender answered with a four of its own: block it (one point, or lost) and
            // let the defender move again against the threats still standing.
            blocks.len() == 1 && {
                let p = self.b.point(usize::from(blocks[0]));
                match p.map(|p| self.b.apply(Action::Place(p))) {
                    Some(Ok(_)) => {
                        let won = self.vct_defend(attacker, depth - 1);
                        self.b.undo();
                        won
                    }
                    _ => false,
                }
            }
        } else {
            let moves = self.vct_moves(attacker, VCT_WIDTH);
            self.winning_move(moves, |s| s.vct_defend(attacker, depth))
                .is_some()
        };
        if !won && !self.stopped {
            self.vcf_failed.insert(key ^ VCT_SALT, depth);
        }
        won && !self.stopped
    }

    /// In capture games, after an open three: the defender's moves (other than `known`, the
    /// answers found so far, among them every point where the attacker makes a four) that
    /// threaten to take a stone of the attacker's lying on such a four's line within four
    /// points of its point. Should the attacker go on to the four, taking that stone breaks it
    /// (and the capture counts), so such a move answers a three as a block does.
    pub(super) fn capture_threat_answers(&self, attacker: u8, known: &[u16]) -> Vec<u16> {
        let b = &self.b;
        let mut answers: Vec<u16> = Vec::new();
        if b.captures == crate::rules::Captures::None {
            return answers;
        }
        // A stone on the lines of several four points is looked at once: its runs are the same.
        let mut seen: Vec<usize> = Vec::new();
        for &f in known {
            let f = usize::from(f);
            let shapes = b.shapes_at(f, attacker);
            for (&ax, _) in AXES.iter().zip(shapes).filter(|(_, s)| *s >= FOUR) {
                for d in [-ax, ax] {
                    // The walk stops at the wall, so it never leaves the board's border.
                    let mut s = f;
                    for _ in 0..4 {
                        s = step(s, d);
                        match b.cells[s] {
                            WALL => break,
                            c if c == attacker && !seen.contains(&s) => {
                                seen.push(s);
                                b.open_run_ends(s, |e| {
                                    let e = e as u16;
                                    if !known.contains(&e) && !answers.contains(&e) {
                                        answers.push(e);
                                    }
                                });
                            }
                            _ => {}
                        }
                    }
                }
            }
        }
        answers
    }

    /// In capture games with a capture goal: the empty points (other than `known`) where
    /// `defender` would threaten a capture that reaches the goal. Against a three such a move
    /// answers as a four does: should the attacker make the four, the defender takes the
    /// stones and wins first.
    pub(super) fn goal_threats(&self, defender: u8, known: &[u16]) -> Vec<u16> {
        let b = &self.b;
        let goal = u32::from(b.capture_win);
        if b.captures == crate::rules::Captures::None || goal == 0 {
            return Vec::new();
        }
        let have = u32::from(b.captured(defender));
        let di = usize::from(defender - 1);
        let check = self.needs_check();
        b.frontier()
            .filter(|&i| have + b.capture_attacks(i)[di] >= goal)
            .filter(|&i| self.legal_cell(i, check))
            .map(|i| i as u16)
            .filter(|c| !known.contains(c))
            .collect()
    }

    /// In capture games, the answers to `attacker`'s three beyond the blocks and the
    /// defender's fours (other than `known`): [`Search::capture_threat_answers`] and the
    /// defender's [`Search::goal_threats`]. The main search and the VCT search's defender
    /// both answer a three with these.
    pub(super) fn capture_answers(&self, attacker: u8, known: &[u16]) -> Vec<u16> {
        let mut answers = self.capture_threat_answers(attacker, known);
        for g in self.goal_threats(3 - attacker, known) {
            if !answers.contains(&g) {
                answers.push(g);
            }
        }
        answers
    }

    /// Defender to move after an attacker's threat: whether every answer still loses. The
    /// answers: the attacker's winning points after a four; after a three, every point where
    /// the attacker would make a four (the blocks), the defender's own fours and, in capture
    /// games, the moves that threaten to take a stone of the four to come; captures always.
    pub(super) fn vct_defend(&mut self, attacker: u8, depth: i32) -> bool {
        if let Some(settled) = self.defence_settled(attacker) {
            return settled;
        }
        let defender = 3 - attacker;
        let pending = self.b.game.threatened_line().is_some();
        let fives = self.win_cells(attacker);
        let mut three = false;
        let mut replies: Vec<u16> = if !fives.is_empty() || pending {
            fives
        } else if self.b.threats_at_least(attacker, Threat::OpenFour) > 0 {
            three = true;
            self.b.four_cells(attacker, defender)
        } else {
            // The attacker's move threatened nothing that must be answered.
            return false;
        };
        for c in self.capture_cells(defender) {
            if !replies.contains(&c) {
                replies.push(c);
            }
        }
        if three && self.style.cap_answers {
            let answers = self.capture_answers(attacker, &replies);
            replies.extend(answers);
        }
        self.every_reply_loses(replies, |s| s.vct_attack(attacker, depth - 1))
    }
}

#[cfg(test)]
mod tests;
