//! Opening rules: where the first stones may go, and the phases of the opening.

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
    /// Normal play (also the placements of the Renju openings, area by area).
    Playing,
    /// Renju openings: `seat` exchanges colours with the other seat (`swap`) or not (`keep`);
    /// with `may_offer` (Taraguchi-10 after move 4) it may instead offer ten fifth moves.
    SwapOrKeep {
        /// The seat that decides.
        seat: u8,
        /// Whether offering the fifth moves is one of the choices.
        may_offer: bool,
    },
    /// Soosõrv-8: `seat` (white, which placed move 4) declares how many fifth moves black
    /// will offer (`declare:N`, 1 to 8).
    Declaring {
        /// The seat that declares.
        seat: u8,
    },
    /// Soosõrv-8: `seat` (black) offers `count` fifth moves at once (`offer:H8,J9,...`).
    Offering {
        /// The seat that offers.
        seat: u8,
        /// How many fifth moves it must offer.
        count: u8,
    },
    /// Renju openings: `seat` (white) chooses one of the offered fifth moves (`choose:H8`).
    Selecting {
        /// The seat that chooses.
        seat: u8,
    },
}

impl Phase {
    /// The seat that must act in a phase that names one (every phase but normal play).
    pub fn seat(self) -> Option<u8> {
        match self {
            Phase::Playing => None,
            Phase::Placing { seat, .. }
            | Phase::Choosing { seat, .. }
            | Phase::SwapOrKeep { seat, .. }
            | Phase::Declaring { seat }
            | Phase::Offering { seat, .. }
            | Phase::Selecting { seat } => Some(seat),
        }
    }
}

impl Game {
    /// Refuses a stone the opening rule does not allow at `p` now (two-player games only).
    ///
    /// Meant for placed stones ([`super::Action::Place`]); a chosen fifth move was checked
    /// when it was offered.
    pub(super) fn opening_check(&self, p: Point) -> Result<(), PlayError> {
        if let Some(limit) = self.area_limit() {
            let centre = Point::centre(self.rules.size);
            if p.distance(centre) > limit {
                return Err(PlayError::OutsideArea {
                    point: p,
                    move_number: self.state.placed as u8 + 1,
                    side: 2 * limit + 1,
                });
            }
            return Ok(());
        }
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

impl Game {
    /// Renju openings: how far from the centre (Chebyshev distance) the next placed stone may
    /// go, when the opening limits it (the allowed square's side is twice this plus one).
    pub fn area_limit(&self) -> Option<u8> {
        let placed = self.state.placed;
        match (self.rules.opening, self.state.phase) {
            // Taraguchi-10: move k (1-5) within the central (2k-1)x(2k-1) square.
            (Opening::Taraguchi10, Phase::Playing) if placed <= 4 => Some(placed as u8),
            // Soosõrv-8: the first three stones make one of the 26 openings.
            (Opening::Soosorv8, Phase::Placing { .. }) if placed <= 2 => Some(placed as u8),
            _ => None,
        }
    }
}
