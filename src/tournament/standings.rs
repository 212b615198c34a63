//! Standings: points and tiebreaks from the boards played so far.
//!
//! - Points: a win 1, a draw ½, a bye 1, a forfeit win 1 (in half points: 2, 1, 2, 2).
//! - Sonneborn-Berger: the points of every opponent beaten, plus half the points of every
//!   opponent drawn (kept in quarter points so it stays exact).
//! - Buchholz: the sum of the opponents' points.
//!
//! Both tiebreaks count every board with an opponent, forfeits included (the opponent is
//! real and their score is known); a bye has no opponent and adds nothing. Order: points,
//! then Sonneborn-Berger for a round robin, or Buchholz then Sonneborn-Berger for Swiss;
//! players equal on all of them share a rank (listed by rating, then key).

use std::collections::HashMap;

use super::{Board, Format, PlayerKey};

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
pub struct Standing {
    /// 1 for the leader; equal players share a rank.
    pub rank: u32,
    /// Who.
    pub player: PlayerKey,
    /// Points in halves (a win is 2).
    pub half_points: u32,
    /// Buchholz in half points.
    pub buchholz_halves: u32,
    /// Sonneborn-Berger in quarter points.
    pub sonneborn_berger_quarters: u32,
    /// Games actually played to a result (not byes, not forfeits).
    pub played: u32,
    /// Of which won.
    pub wins: u32,
    /// Drawn.
    pub draws: u32,
    /// Lost.
    pub losses: u32,
    /// Whether the player has withdrawn.
    pub withdrawn: bool,
}

impl Standing {
    /// Points as a number (1.5).
    pub fn points(&self) -> f64 {
        f64::from(self.half_points) / 2.0
    }

    /// Buchholz as a number.
    pub fn buchholz(&self) -> f64 {
        f64::from(self.buchholz_halves) / 2.0
    }

    /// Sonneborn-Berger as a number.
    pub fn sonneborn_berger(&self) -> f64 {
        f64::from(self.sonneborn_berger_quarters) / 4.0
    }

    /// The tiebreak keys compared after the points, for this format.
    fn keys(&self, format: Format) -> [u32; 3] {
        match format {
            Format::RoundRobin => [self.half_points, self.sonneborn_berger_quarters, 0],
            Format::Swiss => [
                self.half_points,
                self.buchholz_halves,
                self.sonneborn_berger_quarters,
            ],
        }
    }
}

/// A player of the standings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Participant {
    /// Who.
    pub player: PlayerKey,
    /// Their rating at the start (orders players who are equal on everything else).
    pub rating: f64,
    /// Whether they have withdrawn.
    pub withdrawn: bool,
}

/// The standings of `participants` after `boards` (boards still being played count nothing).
pub fn standings(format: Format, participants: &[Participant], boards: &[Board]) -> Vec<Standing> {
    let mut points: HashMap<PlayerKey, u32> = HashMap::new();
    for b in boards {
        for p in [Some(b.first), b.second].into_iter().flatten() {
            *points.entry(p).or_default() += b.half_points_of(p);
        }
    }
    let mut lines: Vec<(Standing, f64)> = participants
        .iter()
        .map(|p| {
            let mut s = Standing {
                rank: 0,
                player: p.player,
                half_points: points.get(&p.player).copied().unwrap_or(0),
                buchholz_halves: 0,
                sonneborn_berger_quarters: 0,
                played: 0,
                wins: 0,
                draws: 0,
                losses: 0,
                withdrawn: p.withdrawn,
            };
            for b in boards.iter().filter(|b| b.has(p.player)) {
                let Some(result) = b.result else { continue };
                let mine = b.half_points_of(p.player);
                if let Some(o) = b.opponent_of(p.player) {
                    let theirs = points.get(&o).copied().unwrap_or(0);
                    s.buchholz_halves += theirs;
                    s.sonneborn_berger_quarters += mine * theirs;
                }
                if result.was_played() {
                    s.played += 1;
                    match mine {
                        2 => s.wins += 1,
                        1 => s.draws += 1,
                        _ => s.losses += 1,
                    }
                }
            }
            (s, p.rating)
        })
        .collect();
    lines.sort_by(|(a, ra), (b, rb)| {
        b.keys(format)
            .cmp(&a.keys(format))
            .then(rb.total_cmp(ra))
            .then(a.player.cmp(&b.player))
    });
    let mut out: Vec<Standing> = Vec::with_capacity(lines.len());
    for (i, (mut s, _)) in lines.into_iter().enumerate() {
        s.rank = match out.last() {
            Some(prev) if prev.keys(format) == s.keys(format) => prev.rank,
            _ => u32::try_from(i + 1).unwrap_or(u32::MAX),
        };
        out.push(s);
    }
    out
}

/// The players ranked first (several when they are equal on points and every tiebreak).
pub fn winners(table: &[Standing]) -> Vec<PlayerKey> {
    table
        .iter()
        .filter(|s| s.rank == 1)
        .map(|s| s.player)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::BoardResult::{self, *};

    fn board(round: u32, a: u64, b: Option<u64>, r: BoardResult) -> Board {
        Board {
            round,
            first: a,
            second: b,
            result: Some(r),
        }
    }

    fn people(n: u64) -> Vec<Participant> {
        (1..=n)
            .map(|k| Participant {
                player: k,
                rating: 1500.0,
                withdrawn: false,
            })
            .collect()
    }

    #[test]
    fn a_round_robin_is_ordered_by_points_then_sonneborn_berger() {
        // 1 beats 2, 2 beats 3, 3 beats 1, 4 loses to all, 1-4 drawn instead of lost.
        let boards = [
            board(1, 1, Some(2), FirstWon),
            board(1, 3, Some(4), FirstWon),
            board(2, 2, Some(3), FirstWon),
            board(2, 4, Some(1), Draw),
            board(3, 3, Some(1), FirstWon),
            board(3, 2, Some(4), FirstWon),
        ];
        let t = standings(Format::RoundRobin, &people(4), &boards);
        // Points: 1: 1.5, 2: 2, 3: 2, 4: 0.5.
        let order: Vec<(u64, f64)> = t.iter().map(|s| (s.player, s.points())).collect();
        assert_eq!(order, [(2, 2.0), (3, 2.0), (1, 1.5), (4, 0.5)]);
        // SB: 2 beat 3 (2) and 4 (0.5) = 2.5; 3 beat 4 (0.5) and 1 (1.5) = 2.0.
        assert_eq!(t[0].sonneborn_berger(), 2.5);
        assert_eq!(t[1].sonneborn_berger(), 2.0);
        // 1: beat 2 (2) + half of 4's 0.5 = 2.25.
        assert_eq!(t[2].sonneborn_berger(), 2.25);
        assert_eq!(
            t.iter().map(|s| s.rank).collect::<Vec<_>>(),
            [1, 2, 3, 4],
            "SB separates 2 and 3"
        );
        assert_eq!(winners(&t), [2]);
        assert_eq!(
            (t[2].wins, t[2].draws, t[2].losses, t[2].played),
            (1, 1, 1, 3)
        );
    }

    #[test]
    fn swiss_uses_buchholz_first_and_byes_add_no_opponent() {
        let boards = [
            board(1, 1, Some(2), FirstWon),
            board(1, 3, None, Bye),
            board(2, 3, Some(1), Draw),
            board(2, 2, None, Bye),
        ];
        let t = standings(Format::Swiss, &people(3), &boards);
        // Points: 1: 1.5, 3: 1.5, 2: 1. Buchholz: 1 = 1 + 1.5 = 2.5; 3 = 1.5.
        assert_eq!(t[0].player, 1);
        assert_eq!(t[0].buchholz(), 2.5);
        assert_eq!(t[1].player, 3);
        assert_eq!(t[1].buchholz(), 1.5);
        assert_eq!(t[1].played, 1, "the bye is not a game");
        assert_eq!(t[2].buchholz(), 1.5);
    }

    #[test]
    fn equal_players_share_a_rank_and_forfeits_score_but_are_not_games() {
        let boards = [
            board(1, 1, Some(2), Draw),
            board(1, 3, Some(4), FirstWonByForfeit),
            board(2, 4, Some(3), DoubleForfeit),
        ];
        let mut p = people(4);
        p[3].withdrawn = true;
        let t = standings(Format::RoundRobin, &p, &boards);
        assert_eq!(t[0].player, 3);
        assert_eq!((t[0].points(), t[0].played), (1.0, 0));
        assert_eq!((t[1].rank, t[2].rank), (2, 2));
        assert!(t[3].withdrawn);
        assert_eq!(winners(&t), [3]);
        // A board still being played counts nothing.
        let open = [Board {
            round: 1,
            first: 1,
            second: Some(2),
            result: None,
        }];
        let t = standings(Format::Swiss, &people(2), &open);
        assert!(t.iter().all(|s| s.half_points == 0 && s.rank == 1));
    }
}
