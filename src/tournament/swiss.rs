//! Swiss pairings as a minimum-cost perfect matching.
//!
//! Players are ranked by score, then rating (then key, so ranks are total). A round is the
//! perfect matching of the players (plus a phantom "bye" when their number is odd) whose cost
//! is least, the cost of a pairing compared criterion by criterion, most important first:
//!
//! 1. a second bye for a player who already had one (only when everyone has had one);
//! 2. rematches (each earlier meeting of the two counts);
//! 3. the bye's rank from the bottom: the lowest-ranked player without a bye gets it;
//! 4. both players needing the same colour absolutely (their last two games in one colour,
//!    or two more games in one colour than the other): one of them would get three in a row;
//! 5. the score difference, squared (in half points): players meet inside their score
//!    group, and an odd group sends one player down to the next;
//! 6. both players preferring the same colour (strongly: one more game in it; or mildly: to
//!    alternate from their last);
//! 7. the distance from the "top half against bottom half" order inside a score group (in a
//!    group of 8, ranks 1-5, 2-6, 3-7, 4-8), and for a player floating down, that the
//!    group's lowest meets the next group's highest.
//!
//! Each criterion gets a weight larger than the most all lower ones can add up to, so the
//! matching (the blossom algorithm of `integer-blossom`, O(n³)) optimises them in this order:
//! no rematch happens while any pairing without one exists, and so on down the list.
//!
//! Seats: the player who needs the colour more gets it (absolute, then strong, then mild),
//! else the higher-ranked; in round 1 the higher-ranked takes seat 1 on odd boards and seat 2
//! on even ones. Colours are counted as seats (seat 1 moves first, or places a swap opening).

use std::collections::HashMap;

use super::{Board, PlayerKey, Round};

/// A player to pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entrant {
    /// Who.
    pub key: PlayerKey,
    /// Their rating at the start (the second sort key after the score).
    pub rating: f64,
}

/// Why a round cannot be paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PairingError {
    /// Fewer than two players are left.
    #[error("fewer than two players to pair")]
    TooFewPlayers,
    /// The same player is listed twice.
    #[error("player {0} is listed twice")]
    Duplicate(PlayerKey),
    /// So many players and rounds that the weights would not fit in 128 bits.
    #[error("too many players or rounds to pair")]
    TooLarge,
}

/// How much a player wants a seat, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Strength {
    None,
    /// Alternate from the last game.
    Mild,
    /// One more game in the other seat.
    Strong,
    /// Two games in a row in the other seat, or two more games in it.
    Absolute,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Preference {
    seat: u8,
    strength: Strength,
}

fn preference(seats: &[u8]) -> Preference {
    let ones = seats.iter().filter(|&&s| s == 1).count() as i64;
    let twos = seats.len() as i64 - ones;
    let other = |s: u8| if s == 1 { 2 } else { 1 };
    let fewer = if ones < twos { 1 } else { 2 };
    let last_two_same = seats.len() >= 2 && seats[seats.len() - 1] == seats[seats.len() - 2];
    match seats.last() {
        None => Preference {
            seat: 1,
            strength: Strength::None,
        },
        Some(&last) if last_two_same => Preference {
            seat: other(last),
            strength: Strength::Absolute,
        },
        Some(_) if (ones - twos).abs() >= 2 => Preference {
            seat: fewer,
            strength: Strength::Absolute,
        },
        Some(_) if ones != twos => Preference {
            seat: fewer,
            strength: Strength::Strong,
        },
        Some(&last) => Preference {
            seat: other(last),
            strength: Strength::Mild,
        },
    }
}

/// What the pairing knows of a player.
#[derive(Clone, Debug)]
struct Player {
    key: PlayerKey,
    points: u32,
    rank: usize,
    group: usize,
    rank_in_group: usize,
    had_byes: u32,
    pref: Preference,
}

/// The criteria of one edge, most important first (see the module documentation).
type Criteria = [u64; 7];

/// Everything the pairing derives from the results so far.
struct Field {
    players: Vec<Player>,
    group_sizes: Vec<usize>,
    met: HashMap<(PlayerKey, PlayerKey), u32>,
}

fn pair_key(a: PlayerKey, b: PlayerKey) -> (PlayerKey, PlayerKey) {
    (a.min(b), a.max(b))
}

impl Field {
    fn new(entrants: &[Entrant], history: &[Board]) -> Result<Field, PairingError> {
        let mut points: HashMap<PlayerKey, u32> = HashMap::new();
        let mut byes: HashMap<PlayerKey, u32> = HashMap::new();
        let mut met: HashMap<(PlayerKey, PlayerKey), u32> = HashMap::new();
        let mut seats: HashMap<PlayerKey, Vec<(u32, u8)>> = HashMap::new();
        for b in history {
            for p in [Some(b.first), b.second].into_iter().flatten() {
                *points.entry(p).or_default() += b.half_points_of(p);
                if let Some(s) = b.seat_played(p) {
                    seats.entry(p).or_default().push((b.round, s));
                }
            }
            match b.second {
                None => *byes.entry(b.first).or_default() += 1,
                Some(s) => *met.entry(pair_key(b.first, s)).or_default() += 1,
            }
        }
        let mut order: Vec<&Entrant> = entrants.iter().collect();
        order.sort_by(|a, b| {
            let (pa, pb) = (points.get(&a.key), points.get(&b.key));
            pb.cmp(&pa)
                .then(b.rating.total_cmp(&a.rating))
                .then(a.key.cmp(&b.key))
        });
        for w in order.windows(2) {
            if w[0].key == w[1].key {
                return Err(PairingError::Duplicate(w[0].key));
            }
        }
        let mut players: Vec<Player> = Vec::with_capacity(order.len());
        let mut group_sizes: Vec<usize> = Vec::new();
        for (rank, e) in order.iter().enumerate() {
            let p = points.get(&e.key).copied().unwrap_or(0);
            let new_group = players.last().is_none_or(|last| last.points != p);
            if new_group {
                group_sizes.push(0);
            }
            let group = group_sizes.len() - 1;
            let rank_in_group = group_sizes[group];
            group_sizes[group] += 1;
            let mut history = seats.remove(&e.key).unwrap_or_default();
            history.sort_unstable();
            let history: Vec<u8> = history.into_iter().map(|(_, s)| s).collect();
            players.push(Player {
                key: e.key,
                points: p,
                rank,
                group,
                rank_in_group,
                had_byes: byes.get(&e.key).copied().unwrap_or(0),
                pref: preference(&history),
            });
        }
        Ok(Field {
            players,
            group_sizes,
            met,
        })
    }

    /// The criteria of giving `a` the bye.
    fn bye_criteria(&self, a: &Player) -> Criteria {
        let from_bottom = (self.players.len() - 1 - a.rank) as u64;
        [u64::from(a.had_byes), 0, from_bottom, 0, 0, 0, 0]
    }

    /// The criteria of pairing `a` (ranked higher) with `b`.
    fn pair_criteria(&self, a: &Player, b: &Player) -> Criteria {
        let rematches = self.met.get(&pair_key(a.key, b.key)).copied().unwrap_or(0);
        let same_seat = a.pref.seat == b.pref.seat;
        let absolute = same_seat
            && a.pref.strength == Strength::Absolute
            && b.pref.strength == Strength::Absolute;
        let diff = u64::from(a.points.abs_diff(b.points));
        let colour = if !same_seat || absolute {
            0
        } else {
            match a.pref.strength.min(b.pref.strength) {
                Strength::None => 0,
                Strength::Mild => 1,
                Strength::Strong | Strength::Absolute => 2,
            }
        };
        let fold = if a.group == b.group {
            let half = self.group_sizes[a.group] / 2;
            (a.rank_in_group.abs_diff(b.rank_in_group)).abs_diff(half) as u64
        } else {
            // A floater: the upper group's lowest against the lower group's highest.
            (self.group_sizes[a.group] - 1 - a.rank_in_group + b.rank_in_group) as u64
        };
        [
            0,
            u64::from(rematches),
            0,
            u64::from(absolute),
            diff * diff,
            colour,
            fold,
        ]
    }
}

/// Pairs the next Swiss round of `entrants` (the players still in, in any order) given every
/// board played so far (withdrawn players' boards included: they count for their opponents).
///
/// # Errors
/// [`PairingError::TooFewPlayers`], [`PairingError::Duplicate`], [`PairingError::TooLarge`]
/// (beyond a few thousand players).
pub fn pair_round(entrants: &[Entrant], history: &[Board]) -> Result<Round, PairingError> {
    if entrants.len() < 2 {
        return Err(PairingError::TooFewPlayers);
    }
    let field = Field::new(entrants, history)?;
    let n = field.players.len();
    let vertices = n + n % 2;
    let bye = (n % 2 == 1).then_some(n);
    let criteria = |i: usize, j: usize| -> Criteria {
        let (i, j) = (i.min(j), i.max(j));
        if Some(j) == bye {
            field.bye_criteria(&field.players[i])
        } else {
            field.pair_criteria(&field.players[i], &field.players[j])
        }
    };
    let mut edges: Vec<Criteria> = vec![[0; 7]; vertices * vertices];
    let mut most: Criteria = [0; 7];
    for i in 0..vertices {
        for j in i + 1..vertices {
            let c = criteria(i, j);
            for t in 0..7 {
                most[t] = most[t].max(c[t]);
            }
            edges[i * vertices + j] = c;
        }
    }
    // Weights, least important criterion first: each is worth more than all lower ones of a
    // whole round can add up to.
    let boards = (vertices / 2) as i128;
    let mut weights = [0i128; 7];
    let mut weight: i128 = 1;
    for t in (0..7).rev() {
        weights[t] = weight;
        let span = boards
            .checked_mul(i128::from(most[t]))
            .and_then(|s| s.checked_add(1))
            .ok_or(PairingError::TooLarge)?;
        weight = weight.checked_mul(span).ok_or(PairingError::TooLarge)?;
    }
    // The solver doubles its duals: keep a margin below i128's range.
    if weight > i128::MAX / 64 {
        return Err(PairingError::TooLarge);
    }
    let costs: Vec<i128> = edges
        .iter()
        .map(|c| c.iter().zip(weights).map(|(&v, w)| i128::from(v) * w).sum())
        .collect();
    let mates = integer_blossom::min_weight_perfect_matching(&costs, vertices);
    let mut round = Round::default();
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (i, &m) in mates.iter().enumerate() {
        if i < m {
            if Some(m) == bye {
                round.bye = Some(field.players[i].key);
            } else {
                pairs.push((i, m));
            }
        }
    }
    // Best boards first: the higher score, then the higher rank.
    pairs.sort_by_key(|&(i, j)| {
        let (a, b) = (&field.players[i], &field.players[j]);
        (
            std::cmp::Reverse(a.points.max(b.points)),
            a.rank.min(b.rank),
        )
    });
    for (board, &(i, j)) in pairs.iter().enumerate() {
        let (hi, lo) = (&field.players[i.min(j)], &field.players[i.max(j)]);
        round.pairs.push(seats(hi, lo, board));
    }
    Ok(round)
}

/// Who takes seat 1: `hi` is the higher-ranked; `board` counts from 0.
fn seats(hi: &Player, lo: &Player, board: usize) -> (PlayerKey, PlayerKey) {
    let (a, b) = (hi.pref, lo.pref);
    let hi_first = match (a.strength, b.strength) {
        (Strength::None, Strength::None) => board.is_multiple_of(2),
        _ if a.seat != b.seat => {
            if a.strength >= b.strength {
                a.seat == 1
            } else {
                b.seat == 2
            }
        }
        _ if b.strength > a.strength => b.seat == 2,
        _ => a.seat == 1,
    };
    if hi_first {
        (hi.key, lo.key)
    } else {
        (lo.key, hi.key)
    }
}

/// The criteria a round scores (for tests: the matching must be the least of all).
#[cfg(test)]
pub(super) fn round_criteria(
    entrants: &[Entrant],
    history: &[Board],
    round: &Round,
) -> Option<Criteria> {
    let field = Field::new(entrants, history).ok()?;
    let by_key: HashMap<PlayerKey, &Player> = field.players.iter().map(|p| (p.key, p)).collect();
    let mut total: Criteria = [0; 7];
    let mut add = |c: Criteria| {
        for t in 0..7 {
            total[t] += c[t];
        }
    };
    for &(a, b) in &round.pairs {
        let (pa, pb) = (by_key.get(&a)?, by_key.get(&b)?);
        let (hi, lo) = if pa.rank < pb.rank {
            (pa, pb)
        } else {
            (pb, pa)
        };
        add(field.pair_criteria(hi, lo));
    }
    if let Some(b) = round.bye {
        add(field.bye_criteria(by_key.get(&b)?));
    }
    Some(total)
}

/// The least criteria of any pairing of the entrants, by trying them all (tests, small fields).
#[cfg(test)]
pub(super) fn best_criteria(entrants: &[Entrant], history: &[Board]) -> Option<Criteria> {
    let field = Field::new(entrants, history).ok()?;
    let n = field.players.len();
    let vertices: Vec<Option<usize>> = (0..n)
        .map(Some)
        .chain((n % 2 == 1).then_some(None))
        .collect();
    fn search(field: &Field, left: &[Option<usize>], sum: Criteria, best: &mut Option<Criteria>) {
        let Some((&first, rest)) = left.split_first() else {
            if best.is_none_or(|b| sum < b) {
                *best = Some(sum);
            }
            return;
        };
        for k in 0..rest.len() {
            let other = rest[k];
            let c = match (first, other) {
                (Some(i), Some(j)) => {
                    let (i, j) = (i.min(j), i.max(j));
                    field.pair_criteria(&field.players[i], &field.players[j])
                }
                (Some(i), None) | (None, Some(i)) => field.bye_criteria(&field.players[i]),
                (None, None) => [0; 7],
            };
            let mut next = sum;
            for t in 0..7 {
                next[t] += c[t];
            }
            let remaining: Vec<Option<usize>> = rest
                .iter()
                .enumerate()
                .filter(|&(x, _)| x != k)
                .map(|(_, &v)| v)
                .collect();
            search(field, &remaining, next, best);
        }
    }
    let mut best = None;
    search(&field, &vertices, [0; 7], &mut best);
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::BoardResult;

    fn entrants(n: u64) -> Vec<Entrant> {
        (1..=n)
            .map(|k| Entrant {
                key: k,
                rating: 2000.0 - k as f64,
            })
            .collect()
    }

    #[test]
    fn round_one_folds_the_field_top_half_against_bottom_half() {
        let r = pair_round(&entrants(8), &[]).unwrap();
        assert_eq!(r.bye, None);
        // Colours alternate down the boards.
        assert_eq!(r.pairs, [(1, 5), (6, 2), (3, 7), (8, 4)]);
    }

    #[test]
    fn an_odd_field_gives_the_bye_to_the_lowest_rated() {
        let r = pair_round(&entrants(7), &[]).unwrap();
        assert_eq!(r.bye, Some(7));
        assert_eq!(r.pairs, [(1, 4), (5, 2), (3, 6)]);
    }

    #[test]
    fn the_bye_skips_players_who_had_one() {
        let history = [Board {
            round: 1,
            first: 5,
            second: None,
            result: Some(BoardResult::Bye),
        }];
        let r = pair_round(&entrants(5), &history).unwrap();
        // 5 leads on points now; the lowest-ranked without a bye is 4.
        assert_eq!(r.bye, Some(4));
    }

    #[test]
    fn winners_meet_winners_and_colours_alternate() {
        let r1 = pair_round(&entrants(4), &[]).unwrap();
        assert_eq!(r1.pairs, [(1, 3), (4, 2)]);
        let history = [
            Board {
                round: 1,
                first: 1,
                second: Some(3),
                result: Some(BoardResult::FirstWon),
            },
            Board {
                round: 1,
                first: 4,
                second: Some(2),
                result: Some(BoardResult::SecondWon),
            },
        ];
        let r2 = pair_round(&entrants(4), &history).unwrap();
        // 1 and 2 lead; 1 had seat 1, 2 had seat 2: they swap.
        assert_eq!(r2.pairs, [(2, 1), (3, 4)]);
    }

    #[test]
    fn refusals() {
        assert_eq!(
            pair_round(&entrants(1), &[]),
            Err(PairingError::TooFewPlayers)
        );
        let mut twice = entrants(3);
        twice.push(twice[0]);
        assert_eq!(pair_round(&twice, &[]), Err(PairingError::Duplicate(1)));
    }

    #[test]
    fn two_hundred_players_pair_in_one_go() {
        let r = pair_round(&entrants(200), &[]).unwrap();
        assert_eq!(r.pairs.len(), 100);
        assert_eq!(r.pairs[0], (1, 101));
    }

    #[test]
    fn preferences_follow_the_seat_history() {
        assert_eq!(preference(&[]).strength, Strength::None);
        assert_eq!(
            preference(&[1]),
            Preference {
                seat: 2,
                strength: Strength::Strong
            }
        );
        assert_eq!(
            preference(&[1, 2]),
            Preference {
                seat: 1,
                strength: Strength::Mild
            }
        );
        assert_eq!(
            preference(&[2, 1, 1]),
            Preference {
                seat: 2,
                strength: Strength::Absolute
            }
        );
        assert_eq!(
            preference(&[1, 2, 1, 2, 2]),
            Preference {
                seat: 1,
                strength: Strength::Absolute
            }
        );
    }
}
