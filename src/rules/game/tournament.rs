//! Renju's tournament openings, Taraguchi-10 and Soosõrv-8 (DESIGN.md section 2b), as phases:
//! swap decisions, the declared number of fifth moves, the offer and the choice of one.
//!
//! Placements go through normal play (with the area rules of [`Game::area_limit`]); this file
//! decides which phase follows each step and checks the offers, symmetry included.

use super::action::{Candidates, MAX_CANDIDATES, OfferProblem};
use super::cells::{EMPTY, idx};
use super::{Action, Game, MoveReport, Phase, PlayError};
use crate::rules::point::Point;
use crate::rules::ruleset::Opening;

/// Taraguchi-10 offers exactly this many fifth moves.
pub const TARAGUCHI_OFFERS: u8 = 10;

impl Game {
    /// The fifth moves offered and waiting for white's choice (empty otherwise).
    pub fn offered(&self) -> &[Point] {
        match &self.state.offers {
            Some(c) => c.as_slice(),
            None => &[],
        }
    }

    /// Soosõrv-8: the number of fifth moves white declared (0 before the declaration).
    pub fn declared(&self) -> u8 {
        self.state.declared
    }

    /// The phase that follows a stone placed in normal play (or a chosen fifth move).
    pub(super) fn phase_after_stone(&self, action: Action) -> Phase {
        let placed = self.state.placed;
        let to_move_seat = self.seat_of_colour(self.state.to_move);
        match (self.rules.opening, action) {
            (_, Action::Choose(_)) => Phase::Playing,
            // After moves 1-3 the other player may swap; after move 4, black may swap or
            // offer; after move 5 (placed within 9x9), white may swap.
            (Opening::Taraguchi10, Action::Place(_)) if (1..=5).contains(&placed) => {
                Phase::SwapOrKeep {
                    seat: to_move_seat,
                    may_offer: placed == 4,
                }
            }
            // Move 4 was placed by white, who now declares how many fifth moves black offers.
            (Opening::Soosorv8, Action::Place(_)) if placed == 4 => Phase::Declaring {
                seat: self.seat_of_colour(2),
            },
            _ => Phase::Playing,
        }
    }

    /// The phase after a swap decision (the seats are already exchanged after `swap`).
    fn phase_after_decision(&self) -> Phase {
        match self.rules.opening {
            Opening::Soosorv8 if self.state.placed == 4 => Phase::Offering {
                seat: self.seat_of_colour(1),
                count: self.state.declared,
            },
            _ => Phase::Playing,
        }
    }

    /// How many fifth moves an offer must have now, if an offer is one of the choices.
    fn offer_due(&self) -> Option<u8> {
        match self.state.phase {
            Phase::SwapOrKeep {
                may_offer: true, ..
            } => Some(TARAGUCHI_OFFERS),
            Phase::Offering { count, .. } => Some(count),
            _ => None,
        }
    }

    /// Checks a decision, declaration, offer or choice of the Renju openings.
    pub(super) fn check_tournament(&self, action: Action) -> Result<(), PlayError> {
        match (self.state.phase, action) {
            (Phase::SwapOrKeep { .. }, Action::Swap | Action::Keep) => Ok(()),
            // 1 to 8 fifth moves: the parser stops other numbers, but an `Action` can be built
            // with any; those fall through to the refusal that names the range.
            (Phase::Declaring { .. }, Action::Declare(1..=8)) => Ok(()),
            (Phase::SwapOrKeep { .. } | Phase::Offering { .. }, Action::Offer(c)) => {
                match self.offer_due() {
                    Some(expected) => self.check_offer(&c, expected),
                    None => Err(PlayError::WrongPhase(
                        "offering fifth moves is not one of the choices now",
                    )),
                }
            }
            (Phase::Selecting { .. }, Action::Choose(p)) => {
                if self.offered().contains(&p) {
                    Ok(())
                } else {
                    Err(PlayError::NotOffered(p))
                }
            }
            (Phase::SwapOrKeep { .. }, _) => Err(PlayError::WrongPhase(
                "a swap decision is due: swap or keep",
            )),
            (Phase::Declaring { .. }, _) => Err(PlayError::WrongPhase(
                "white declares the number of fifth moves now (declare:1 to declare:8)",
            )),
            (Phase::Offering { .. }, _) => Err(PlayError::WrongPhase(
                "black offers the fifth moves now (offer:H8,J9,...)",
            )),
            (Phase::Selecting { .. }, _) => Err(PlayError::WrongPhase(
                "white chooses one of the offered fifth moves now (choose:H8)",
            )),
            (_, Action::Swap | Action::Keep) => {
                Err(PlayError::WrongPhase("no swap decision is due now"))
            }
            (_, Action::Declare(_)) => Err(PlayError::WrongPhase("no declaration is due now")),
            (_, Action::Offer(_)) => Err(PlayError::WrongPhase("no offer is due now")),
            (_, _) => Err(PlayError::WrongPhase("no fifth move is to be chosen now")),
        }
    }

    /// Applies a checked decision, declaration or offer (a choice is a stone: see `play`).
    pub(super) fn apply_tournament(&mut self, action: Action) -> MoveReport {
        let before = self.state;
        match action {
            Action::Swap | Action::Keep => {
                if action == Action::Swap {
                    self.state.seat_of_colour.swap(0, 1);
                }
                self.state.phase = self.phase_after_decision();
            }
            Action::Declare(n) => {
                let Phase::Declaring { seat } = self.state.phase else {
                    unreachable!("checked: a declaration is due");
                };
                self.state.declared = n;
                self.state.phase = Phase::SwapOrKeep {
                    seat: 3 - seat,
                    may_offer: false,
                };
            }
            Action::Offer(c) => {
                self.state.offers = Some(c);
                self.state.phase = Phase::Selecting {
                    seat: self.seat_of_colour(2),
                };
            }
            _ => unreachable!("only decisions, declarations and offers come here"),
        }
        self.state.last = None;
        self.commit(before, None, self.removed_log.len(), action);
        self.report_without_stone(action)
    }

    /// An offer of `expected` fifth moves: empty points black may play, no two symmetric.
    fn check_offer(&self, c: &Candidates, expected: u8) -> Result<(), PlayError> {
        let points = c.as_slice();
        if points.len() != usize::from(expected) {
            return Err(PlayError::BadOffer(OfferProblem::Count {
                expected,
                given: points.len() as u8,
            }));
        }
        for &p in points {
            if p.col() >= self.rules.size || p.row() >= self.rules.size {
                return Err(PlayError::OffBoard(p));
            }
            if self.cells[idx(p)] != EMPTY {
                return Err(PlayError::Occupied(p));
            }
            self.renju_check(p, 1)?;
        }
        let symmetries = self.symmetries();
        for (k, &a) in points.iter().enumerate() {
            for &b in &points[..k] {
                if a == b {
                    return Err(PlayError::BadOffer(OfferProblem::Repeated(a)));
                }
                if symmetries.iter().any(|s| s.apply(b, self.rules.size) == a) {
                    return Err(PlayError::BadOffer(OfferProblem::Symmetric(b, a)));
                }
            }
        }
        Ok(())
    }

    /// The symmetries of the square board that map the stones (with their colours) onto
    /// themselves; the identity is always one.
    pub fn symmetries(&self) -> Vec<Symmetry> {
        let size = self.rules.size;
        let stones = self.stones();
        Symmetry::ALL
            .into_iter()
            .filter(|s| {
                stones
                    .iter()
                    .all(|&(p, c)| self.stone_at(s.apply(p, size)) == Some(c))
            })
            .collect()
    }

    /// A valid offer for the phase, when one is due: the allowed points nearest the centre,
    /// skipping any symmetric to one already taken. `None` when no offer is due (or the board
    /// has too few distinct points, which no real position comes near).
    pub fn sample_offer(&self) -> Option<Candidates> {
        let count = usize::from(self.offer_due()?);
        let centre = Point::centre(self.rules.size);
        let symmetries = self.symmetries();
        let size = self.rules.size;
        let mut points: Vec<Point> = self
            .points()
            .filter(|&p| self.stone_at(p).is_none())
            .collect();
        points.sort_by_key(|p| p.distance(centre));
        let mut taken: Vec<Point> = Vec::with_capacity(MAX_CANDIDATES);
        for p in points {
            if taken.len() == count {
                break;
            }
            if self.renju_check(p, 1).is_err()
                || taken
                    .iter()
                    .any(|&q| symmetries.iter().any(|s| s.apply(q, size) == p))
            {
                continue;
            }
            taken.push(p);
        }
        (taken.len() == count)
            .then(|| Candidates::new(&taken))
            .flatten()
    }
}

/// One of the 8 symmetries of the square board about its centre.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    /// Exchange column and row (a reflection in the main diagonal), before the flips.
    transpose: bool,
    /// Mirror the columns.
    flip_col: bool,
    /// Mirror the rows.
    flip_row: bool,
}

impl Symmetry {
    /// All 8, the identity first.
    pub const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry {
            transpose: false,
            flip_col: false,
            flip_row: false,
        }; 8];
        let mut k = 0;
        while k < 8 {
            all[k] = Symmetry {
                transpose: k & 4 != 0,
                flip_col: k & 1 != 0,
                flip_row: k & 2 != 0,
            };
            k += 1;
        }
        all
    };

    /// Whether this is the identity.
    pub fn is_identity(self) -> bool {
        !self.transpose && !self.flip_col && !self.flip_row
    }

    /// The image of a point on a board of side `size`.
    pub fn apply(self, p: Point, size: u8) -> Point {
        let n = size - 1;
        let (mut c, mut r) = (p.col(), p.row());
        if self.transpose {
            (c, r) = (r, c);
        }
        if self.flip_col {
            c = n - c;
        }
        if self.flip_row {
            r = n - r;
        }
        Point::new(c, r, size).expect("a symmetry keeps points on the board")
    }
}
