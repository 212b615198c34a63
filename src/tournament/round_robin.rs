//! Round robin by the circle method (Berger tables).
//!
//! With an even count, player `n - 1` stays put and the others turn around a circle; in round
//! `r` the player at position `r` meets the fixed player, and the players `k` places either
//! side of it meet each other. Colours: the fixed player alternates round by round, and of
//! each other pair the player ahead on the circle sits in seat 1 when `k` is odd, so each
//! player's seat counts over a cycle differ by at most one. With an odd count a phantom takes
//! the fixed place: whoever would meet it rests (the bye). A second cycle (two games per
//! pairing) repeats the first with the seats swapped, so every pair plays once in each seat.

use super::{PlayerKey, Round};

/// The whole schedule: `games_per_pairing` cycles of `n - 1` rounds (`n` rounds when `n` is
/// odd), in the order given (the service passes players by seed, strongest first). Fewer than
/// two players, or no games per pairing, make no rounds.
pub fn schedule(players: &[PlayerKey], games_per_pairing: u8) -> Vec<Round> {
    let mut seats: Vec<Option<PlayerKey>> = players.iter().copied().map(Some).collect();
    if players.len() < 2 || games_per_pairing == 0 {
        return Vec::new();
    }
    if seats.len() % 2 == 1 {
        seats.push(None);
    }
    let n = seats.len();
    let circle = n - 1;
    let fixed = seats[n - 1];
    let mut cycle = Vec::with_capacity(circle);
    for r in 0..circle {
        let mut round = Round::default();
        let at = |i: usize| seats[i % circle];
        // The fixed player's game: it alternates seats round by round.
        match (at(r), fixed) {
            (Some(p), Some(f)) => round.pairs.push(if r % 2 == 1 { (f, p) } else { (p, f) }),
            (Some(p), None) | (None, Some(p)) => round.bye = Some(p),
            (None, None) => {}
        }
        for k in 1..n / 2 {
            let ahead = at(r + k);
            let behind = at(r + circle - k);
            match (ahead, behind) {
                (Some(a), Some(b)) => round.pairs.push(if k % 2 == 1 { (a, b) } else { (b, a) }),
                (Some(p), None) | (None, Some(p)) => round.bye = Some(p),
                (None, None) => {}
            }
        }
        cycle.push(round);
    }
    let mut all = Vec::with_capacity(cycle.len() * usize::from(games_per_pairing));
    for c in 0..games_per_pairing {
        for round in &cycle {
            let mut round = round.clone();
            if c % 2 == 1 {
                for pair in &mut round.pairs {
                    *pair = (pair.1, pair.0);
                }
            }
            all.push(round);
        }
    }
    all
}

/// How many rounds [`schedule`] makes for `players` and `games_per_pairing`.
pub fn rounds(players: usize, games_per_pairing: u8) -> u32 {
    if players < 2 {
        return 0;
    }
    let per_cycle = if players.is_multiple_of(2) {
        players - 1
    } else {
        players
    };
    u32::try_from(per_cycle * usize::from(games_per_pairing)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_players_meet_once_each_in_three_rounds() {
        let s = schedule(&[1, 2, 3, 4], 1);
        assert_eq!(s.len(), 3);
        assert_eq!(rounds(4, 1), 3);
        for round in &s {
            assert_eq!(round.pairs.len(), 2);
            assert_eq!(round.bye, None);
        }
        let mut met: Vec<(u64, u64)> = s
            .iter()
            .flat_map(|r| r.pairs.iter().map(|&(a, b)| (a.min(b), a.max(b))))
            .collect();
        met.sort_unstable();
        assert_eq!(met, [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]);
    }

    #[test]
    fn an_odd_count_rests_one_player_a_round() {
        let s = schedule(&[1, 2, 3, 4, 5], 2);
        assert_eq!(s.len(), 10);
        assert_eq!(rounds(5, 2), 10);
        let mut byes: Vec<u64> = s.iter().filter_map(|r| r.bye).collect();
        byes.sort_unstable();
        assert_eq!(byes, [1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
    }

    #[test]
    fn nothing_to_schedule_for_fewer_than_two() {
        assert!(schedule(&[1], 1).is_empty());
        assert!(schedule(&[], 2).is_empty());
        assert!(schedule(&[1, 2], 0).is_empty());
        assert_eq!(rounds(1, 2), 0);
        let two = schedule(&[1, 2], 2);
        assert_eq!(two.len(), 2);
        assert_eq!(two[0].pairs[0], (two[1].pairs[0].1, two[1].pairs[0].0));
    }
}
