//! Tournaments without IO: who plays whom in each round, and the standings.
//!
//! Pure functions of plain values, like [`crate::rules`]: no database, no time, no async. The
//! service stores what they return and feeds them what it stored.
//!
//! - [`round_robin::schedule`]: every round of a round robin at once, by the circle method
//!   (Berger tables): every pair meets `games_per_pairing` times, colours alternate so that
//!   nobody's seat counts differ by more than one, and with an odd count one player rests
//!   each round (a bye).
//! - [`swiss::pair_round`]: the next Swiss round from the results so far: players ranked by
//!   score then rating, paired inside score groups (top half against bottom half, the lowest
//!   floating down when a group is odd), no rematch while one can be avoided, colours
//!   balanced, the bye to the lowest-ranked player who has not had one.
//! - [`standings::standings`]: points (win 1, draw ½, bye 1), tiebreaks (Sonneborn-Berger for
//!   a round robin; Buchholz then Sonneborn-Berger for Swiss) and games played.
//!
//! Players are opaque keys ([`PlayerKey`], the service uses Discord user ids). "Seat 1" is the
//! seat that moves first, or that places the stones of a swap opening (the colours are then
//! chosen in the game, not by the pairing).

pub mod round_robin;
pub mod standings;
pub mod swiss;

#[cfg(test)]
mod proptests;

use std::fmt;
use std::str::FromStr;

/// A player of a tournament, as the pairing sees them.
pub type PlayerKey = u64;

/// How players are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// Everyone plays everyone (once or twice); the schedule is fixed at the start.
    RoundRobin,
    /// A fixed number of rounds, each paired from the results so far.
    Swiss,
}

impl Format {
    /// Its name, as stored and typed (`round-robin`, `swiss`).
    pub fn name(self) -> &'static str {
        match self {
            Format::RoundRobin => "round-robin",
            Format::Swiss => "swiss",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a text is not a format.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("`{0}` is not a tournament format (expected round-robin or swiss)")]
pub struct UnknownFormat(pub String);

impl FromStr for Format {
    type Err = UnknownFormat;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        [Format::RoundRobin, Format::Swiss]
            .into_iter()
            .find(|f| f.name() == s)
            .ok_or_else(|| UnknownFormat(s.to_string()))
    }
}

/// How one board of a round ended, for the tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardResult {
    /// Seat 1 won the game.
    FirstWon,
    /// Seat 2 won the game.
    SecondWon,
    /// The game was drawn.
    Draw,
    /// Seat 2 had withdrawn: seat 1 wins without a game.
    FirstWonByForfeit,
    /// Seat 1 had withdrawn: seat 2 wins without a game.
    SecondWonByForfeit,
    /// Both had withdrawn: nobody scores.
    DoubleForfeit,
    /// Seat 1 had no opponent this round (one point).
    Bye,
}

impl BoardResult {
    /// Every result, for parsing.
    pub const ALL: [BoardResult; 7] = [
        BoardResult::FirstWon,
        BoardResult::SecondWon,
        BoardResult::Draw,
        BoardResult::FirstWonByForfeit,
        BoardResult::SecondWonByForfeit,
        BoardResult::DoubleForfeit,
        BoardResult::Bye,
    ];

    /// Its name, as stored.
    pub fn name(self) -> &'static str {
        match self {
            BoardResult::FirstWon => "first",
            BoardResult::SecondWon => "second",
            BoardResult::Draw => "draw",
            BoardResult::FirstWonByForfeit => "first-forfeit",
            BoardResult::SecondWonByForfeit => "second-forfeit",
            BoardResult::DoubleForfeit => "double-forfeit",
            BoardResult::Bye => "bye",
        }
    }

    /// The result of that name.
    pub fn parse(s: &str) -> Option<BoardResult> {
        BoardResult::ALL.into_iter().find(|r| r.name() == s)
    }

    /// Points in halves (win 2, draw 1, loss 0) for seat 1 and for seat 2.
    pub fn half_points(self) -> (u32, u32) {
        match self {
            BoardResult::FirstWon | BoardResult::FirstWonByForfeit | BoardResult::Bye => (2, 0),
            BoardResult::SecondWon | BoardResult::SecondWonByForfeit => (0, 2),
            BoardResult::Draw => (1, 1),
            BoardResult::DoubleForfeit => (0, 0),
        }
    }

    /// Whether a game was actually played on the board (not a bye, not a forfeit).
    pub fn was_played(self) -> bool {
        matches!(
            self,
            BoardResult::FirstWon | BoardResult::SecondWon | BoardResult::Draw
        )
    }
}

/// One board of a round: seat 1's player, seat 2's (none for a bye), and the result once known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The round, from 1.
    pub round: u32,
    /// Seat 1: moves first, or places the stones of a swap opening.
    pub first: PlayerKey,
    /// Seat 2; `None` for a bye.
    pub second: Option<PlayerKey>,
    /// How it ended; `None` while its game is being played.
    pub result: Option<BoardResult>,
}

impl Board {
    /// Whether `player` sits at this board.
    pub fn has(&self, player: PlayerKey) -> bool {
        self.first == player || self.second == Some(player)
    }

    /// `player`'s opponent at this board (`None` for a bye or another board).
    pub fn opponent_of(&self, player: PlayerKey) -> Option<PlayerKey> {
        match self.second {
            Some(s) if self.first == player => Some(s),
            Some(s) if s == player => Some(self.first),
            _ => None,
        }
    }

    /// `player`'s points here in halves (0 while unknown or for another board).
    pub fn half_points_of(&self, player: PlayerKey) -> u32 {
        let Some(r) = self.result else { return 0 };
        let (a, b) = r.half_points();
        if self.first == player {
            a
        } else if self.second == Some(player) {
            b
        } else {
            0
        }
    }

    /// `player`'s seat at this board when a game was (or is being) played on it: 1 or 2.
    pub fn seat_played(&self, player: PlayerKey) -> Option<u8> {
        if self.second.is_none() || self.result.is_some_and(|r| !r.was_played()) {
            return None;
        }
        if self.first == player {
            Some(1)
        } else if self.second == Some(player) {
            Some(2)
        } else {
            None
        }
    }
}

/// The pairings of one round: `(seat 1, seat 2)` per board, best board first, and the player
/// with the bye, if any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// The games: seat 1's player, then seat 2's.
    pub pairs: Vec<(PlayerKey, PlayerKey)>,
    /// Who rests this round (one point).
    pub bye: Option<PlayerKey>,
}

impl Round {
    /// Every player of the round, seat 1 of board 1 first, the bye last.
    pub fn players(&self) -> Vec<PlayerKey> {
        let mut out: Vec<PlayerKey> = self.pairs.iter().flat_map(|&(a, b)| [a, b]).collect();
        out.extend(self.bye);
        out
    }

    /// The round as boards of round `number`, without results (the bye's is [`BoardResult::Bye`]).
    pub fn boards(&self, number: u32) -> Vec<Board> {
        let mut out: Vec<Board> = self
            .pairs
            .iter()
            .map(|&(first, second)| Board {
                round: number,
                first,
                second: Some(second),
                result: None,
            })
            .collect();
        out.extend(self.bye.map(|first| Board {
            round: number,
            first,
            second: None,
            result: Some(BoardResult::Bye),
        }));
        out
    }
}

/// The default number of Swiss rounds for `players`: ceil(log2(players)), at least 1.
pub fn default_swiss_rounds(players: usize) -> u32 {
    let mut rounds = 0;
    while (1usize << rounds) < players {
        rounds += 1;
    }
    rounds.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for f in [Format::RoundRobin, Format::Swiss] {
            assert_eq!(f.name().parse::<Format>(), Ok(f));
        }
        assert!("knockout".parse::<Format>().is_err());
        for r in BoardResult::ALL {
            assert_eq!(BoardResult::parse(r.name()), Some(r));
        }
        assert_eq!(BoardResult::parse("1-0"), None);
    }

    #[test]
    fn default_rounds_are_the_ceiling_of_log2() {
        let got: Vec<u32> = [1, 2, 3, 4, 5, 8, 9, 16, 17, 200]
            .into_iter()
            .map(default_swiss_rounds)
            .collect();
        assert_eq!(got, [1, 1, 2, 2, 3, 3, 4, 4, 5, 8]);
    }

    #[test]
    fn boards_know_points_seats_and_opponents() {
        let b = Board {
            round: 1,
            first: 1,
            second: Some(2),
            result: Some(BoardResult::Draw),
        };
        assert_eq!((b.half_points_of(1), b.half_points_of(2)), (1, 1));
        assert_eq!(b.half_points_of(3), 0);
        assert_eq!((b.opponent_of(1), b.opponent_of(2)), (Some(2), Some(1)));
        assert_eq!((b.seat_played(1), b.seat_played(2)), (Some(1), Some(2)));
        let f = Board {
            result: Some(BoardResult::SecondWonByForfeit),
            ..b
        };
        assert_eq!(f.seat_played(2), None, "a forfeit is not a game");
        assert_eq!(f.half_points_of(2), 2);
        let bye = Round {
            pairs: vec![],
            bye: Some(7),
        }
        .boards(3);
        assert_eq!(bye[0].half_points_of(7), 2);
        assert_eq!(bye[0].opponent_of(7), None);
    }
}
