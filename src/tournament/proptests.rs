//! Property tests of the pairings: round robins of any size, and Swiss tournaments played
//! round by round over random results, checked against a brute-force search of every pairing.

use std::collections::{HashMap, HashSet};

use proptest::prelude::*;

use super::swiss::{Entrant, best_criteria, pair_round, round_criteria};
use super::{Board, BoardResult, PlayerKey, Round, round_robin};

fn check_round_shape(round: &Round, players: &[PlayerKey]) {
    let mut seen: Vec<PlayerKey> = round.players();
    seen.sort_unstable();
    let mut want = players.to_vec();
    want.sort_unstable();
    assert_eq!(seen, want, "every player exactly once: {round:?}");
    assert_eq!(round.bye.is_some(), players.len() % 2 == 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn round_robin_pairs_meet_as_often_as_asked_with_balanced_seats(
        n in 2usize..=16,
        games in 1u8..=2,
    ) {
        let players: Vec<PlayerKey> = (100..100 + n as u64).collect();
        let schedule = round_robin::schedule(&players, games);
        prop_assert_eq!(schedule.len() as u32, round_robin::rounds(n, games));
        let mut met: HashMap<(PlayerKey, PlayerKey), u32> = HashMap::new();
        let mut firsts: HashMap<PlayerKey, i64> = HashMap::new();
        let mut byes: HashMap<PlayerKey, u32> = HashMap::new();
        for round in &schedule {
            check_round_shape(round, &players);
            for &(a, b) in &round.pairs {
                *met.entry((a.min(b), a.max(b))).or_default() += 1;
                *firsts.entry(a).or_default() += 1;
                *firsts.entry(b).or_default() -= 1;
            }
            if let Some(b) = round.bye {
                *byes.entry(b).or_default() += 1;
            }
        }
        for (i, &a) in players.iter().enumerate() {
            for &b in &players[i + 1..] {
                prop_assert_eq!(met.get(&(a, b)).copied(), Some(u32::from(games)));
            }
            let balance = firsts.get(&a).copied().unwrap_or(0);
            prop_assert!(balance.abs() <= 1, "player {} seat 1 minus seat 2: {}", a, balance);
            if n % 2 == 1 {
                prop_assert_eq!(byes.get(&a).copied(), Some(u32::from(games)));
            }
        }
    }

    #[test]
    fn swiss_rounds_are_the_best_pairing_over_random_results(
        n in 2usize..=9,
        ratings in prop::collection::vec(1000u32..2000, 9),
        results in prop::collection::vec(0u8..3, 64),
        rounds in 1usize..=8,
    ) {
        let entrants: Vec<Entrant> = (0..n)
            .map(|i| Entrant { key: i as u64 + 1, rating: f64::from(ratings[i]) })
            .collect();
        let keys: Vec<PlayerKey> = entrants.iter().map(|e| e.key).collect();
        let rounds = rounds.min(n.saturating_sub(1)).max(1);
        let mut history: Vec<Board> = Vec::new();
        let mut next_result = results.iter().cycle();
        for r in 1..=rounds as u32 {
            let round = pair_round(&entrants, &history).expect("paired");
            check_round_shape(&round, &keys);
            // The pairing is the least of all by every criterion in order: no rematch while
            // one can be avoided, the bye's rule, colours, score groups, the fold.
            let got = round_criteria(&entrants, &history, &round).expect("criteria");
            let best = best_criteria(&entrants, &history).expect("best");
            prop_assert_eq!(got, best, "round {} of {:?}: {:?}", r, history, round);
            check_swiss_rules(&history, &round, &keys);
            let mut boards = round.boards(r);
            for b in boards.iter_mut().filter(|b| b.result.is_none()) {
                b.result = Some(match next_result.next().copied().unwrap_or(0) {
                    0 => BoardResult::FirstWon,
                    1 => BoardResult::SecondWon,
                    _ => BoardResult::Draw,
                });
            }
            history.extend(boards);
        }
    }
}

/// The rules a reader of the issue would check by hand, on one round.
fn check_swiss_rules(history: &[Board], round: &Round, keys: &[PlayerKey]) {
    let mut met: HashSet<(PlayerKey, PlayerKey)> = HashSet::new();
    let mut had_bye: HashSet<PlayerKey> = HashSet::new();
    let mut points: HashMap<PlayerKey, u32> = HashMap::new();
    let mut seats: HashMap<PlayerKey, Vec<u8>> = HashMap::new();
    for b in history {
        match b.second {
            Some(s) => {
                met.insert((b.first.min(s), b.first.max(s)));
            }
            None => {
                had_bye.insert(b.first);
            }
        }
        for p in [Some(b.first), b.second].into_iter().flatten() {
            *points.entry(p).or_default() += b.half_points_of(p);
            if let Some(s) = b.seat_played(p) {
                seats.entry(p).or_default().push(s);
            }
        }
    }
    // At most one bye per player while someone without one is left.
    if let Some(b) = round.bye
        && had_bye.contains(&b)
    {
        assert!(
            keys.iter().all(|k| had_bye.contains(k)),
            "{b} gets a second bye while others had none"
        );
    }
    // A rematch only when no pairing of this field avoids every rematch: checked above by the
    // search; here, that a rematch-free field is paired rematch-free once every player has
    // more unmet opponents than half the field.
    let unmet = |p: PlayerKey| {
        keys.iter()
            .filter(|&&q| q != p && !met.contains(&(p.min(q), p.max(q))))
            .count()
    };
    if keys.iter().all(|&p| unmet(p) * 2 > keys.len()) {
        for &(a, b) in &round.pairs {
            assert!(
                !met.contains(&(a.min(b), a.max(b))),
                "rematch {a}-{b} in {round:?}"
            );
        }
    }
    // Three in a row of one seat only when the opponent needed the other seat just as
    // absolutely (their last two games in `seat`, or two more games in it).
    for &(a, b) in &round.pairs {
        for (p, seat, other) in [(a, 1u8, b), (b, 2u8, a)] {
            let h = seats.get(&p).cloned().unwrap_or_default();
            if h.len() >= 2 && h[h.len() - 1] == seat && h[h.len() - 2] == seat {
                let o = seats.get(&other).cloned().unwrap_or_default();
                let other_needs = o.len() >= 2 && o[o.len() - 1] == seat && o[o.len() - 2] == seat;
                let ones = o.iter().filter(|&&s| s == 1).count() as i64;
                let twos = o.len() as i64 - ones;
                let imbalance = if seat == 1 { ones - twos } else { twos - ones };
                assert!(
                    other_needs || imbalance >= 2,
                    "{p} gets seat {seat} a third time against {other}"
                );
            }
        }
    }
}

#[test]
fn a_bigger_swiss_keeps_score_groups_together() {
    // 32 players, 5 rounds, the higher-rated always wins: after each round the leaders meet.
    let entrants: Vec<Entrant> = (1..=32)
        .map(|k| Entrant {
            key: k,
            rating: 3000.0 - k as f64,
        })
        .collect();
    let mut history: Vec<Board> = Vec::new();
    for r in 1..=5 {
        let round = pair_round(&entrants, &history).unwrap();
        let points = |p: PlayerKey| history.iter().map(|b| b.half_points_of(p)).sum::<u32>();
        let floats = round
            .pairs
            .iter()
            .filter(|&&(a, b)| points(a) != points(b))
            .count();
        // Score groups of 32 players stay even (binomial counts doubled): nobody floats.
        assert_eq!(floats, 0, "round {r}: {round:?}");
        for (a, b) in &round.pairs {
            let winner = (*a).min(*b);
            history.push(Board {
                round: r,
                first: *a,
                second: Some(*b),
                result: Some(if winner == *a {
                    BoardResult::FirstWon
                } else {
                    BoardResult::SecondWon
                }),
            });
        }
    }
}
