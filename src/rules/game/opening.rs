//! Opening rules: where the first stones may go, and the phases of swap openings.

use super::Game;
use super::action::PlayError;
use crate::rules::point::Point;
use crate::rules::ruleset::Opening;

/// What kind of action is expected next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Swap/swap2: `seat` places opening stones until `until` stones are on the board.
    Placing {
        /// The seat placing the stones.
        seat: u8,
        /// Stone count at which the placing ends.
        until: u8,
    },
    /// Swap/swap2: `seat` chooses a colour (`take:1`, `take:2`), or `place` when `may_place`.
    Choosing {
        /// The seat that chooses.
        seat: u8,
        /// Whether swap2's third option (place two more stones) is open.
        may_place: bool,
    },
    /// Normal play.
    Playing,
}

impl Game {
    /// Refuses a stone the opening rule does not allow at `p` now (two-player games only).
    pub(super) fn opening_check(&self, p: Point) -> Result<(), PlayError> {
        if self.rules.players != 2 || self.state.placed > 2 {
            return Ok(());
        }
        let min = match self.rules.opening {
            Opening::Pro => 3,
            Opening::LongPro => 4,
            _ => return Ok(()),
        };
        let centre = Point::centre(self.rules.size);
        match self.state.placed {
            0 if p != centre => Err(PlayError::OpeningRule {
                point: p,
                opening: self.rules.opening,
                why: "the first stone must be on the centre point",
            }),
            2 if p.distance(centre) < min => Err(PlayError::OpeningRule {
                point: p,
                opening: self.rules.opening,
                why: if min == 3 {
                    "the first player's second stone must be at least 3 points from the centre"
                } else {
                    "the first player's second stone must be at least 4 points from the centre"
                },
            }),
            _ => Ok(()),
        }
    }
}
