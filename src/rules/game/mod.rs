//! A game as a value: rule set, record, and the position derived from them.
//!
//! The position lives on a padded board ([`cells`]); each rule family has a file of its own:
//! captures, winning rows, openings, the undo log.

mod action;
mod capture;
mod cells;
mod opening;
mod outcome;
mod renju;
mod tournament;
mod undo;
mod wins;

pub use action::{Action, Candidates, MAX_CANDIDATES, MoveError, OfferProblem, PlayError};
pub use opening::Phase;
pub use outcome::{Colours, Line, MoveReport, Removed, Status, WinReason};
pub use renju::ForbiddenShape;
pub use tournament::{Symmetry, TARAGUCHI_OFFERS};

use capture::Claims;
use cells::{CELLS, EMPTY, WALL, idx, is_stone, point_at};
use wins::RawLine;

use super::point::Point;
use super::ruleset::{Captures, Opening, RuleSet, SelfCapture};

/// Everything that changes with a move and is not the board itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct State {
    to_move: u8,
    phase: Phase,
    seat_of_colour: [u8; 4],
    captured: [u16; 4],
    placed: u16,
    removed: u16,
    status: Status,
    pending: Option<RawLine>,
    last: Option<u16>,
    /// Colours that left the game ([`Action::Retire`]).
    retired: Colours,
    /// Soosõrv-8: the declared number of fifth moves (0 before the declaration).
    declared: u8,
    /// Renju openings: the fifth moves offered, until white chooses one.
    offers: Option<Candidates>,
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    state: State,
    placed_at: Option<u16>,
    removed_from: u32,
}

/// A game: the rule set, the record of actions, and the position they lead to.
#[derive(Clone, Debug)]
pub struct Game {
    rules: RuleSet,
    cells: [u8; CELLS],
    empties: Vec<u16>,
    empty_slot: [u16; CELLS],
    state: State,
    record: Vec<Action>,
    undo: Vec<Undo>,
    removed_log: Vec<(u16, u8)>,
}

impl PartialEq for Game {
    /// Two games are equal when rules, record and position are; internal list orders do not count.
    fn eq(&self, other: &Self) -> bool {
        self.rules == other.rules
            && self.cells == other.cells
            && self.state == other.state
            && self.record == other.record
    }
}

impl Eq for Game {}

impl Game {
    /// A new game with an empty board.
    pub fn new(rules: RuleSet) -> Game {
        let mut cells = [WALL; CELLS];
        let mut empties = Vec::with_capacity(usize::from(rules.size) * usize::from(rules.size));
        let mut empty_slot = [u16::MAX; CELLS];
        for row in 0..rules.size {
            for col in 0..rules.size {
                let i = idx(Point::new(col, row, rules.size).expect("in range"));
                cells[i] = EMPTY;
                empty_slot[i] = empties.len() as u16;
                empties.push(i as u16);
            }
        }
        let phase = match rules.opening {
            Opening::Swap => Phase::Placing { seat: 1, until: 4 },
            Opening::Swap2 | Opening::Soosorv8 => Phase::Placing { seat: 1, until: 3 },
            _ => Phase::Playing,
        };
        Game {
            rules,
            cells,
            empties,
            empty_slot,
            state: State {
                to_move: 1,
                phase,
                seat_of_colour: [1, 2, 3, 4],
                captured: [0; 4],
                placed: 0,
                removed: 0,
                status: Status::Ongoing,
                pending: None,
                last: None,
                retired: Colours::EMPTY,
                declared: 0,
                offers: None,
            },
            record: Vec::new(),
            undo: Vec::new(),
            removed_log: Vec::new(),
        }
    }

    /// Replays a record from the start.
    ///
    /// # Errors
    /// The index of the first refused action and why.
    pub fn from_record(rules: RuleSet, record: &[Action]) -> Result<Game, (usize, PlayError)> {
        let mut g = Game::new(rules);
        for (i, &a) in record.iter().enumerate() {
            g.apply(a).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    /// The rule set.
    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }
    /// The board side.
    pub fn size(&self) -> u8 {
        self.rules.size
    }
    /// Every action so far, in order.
    pub fn record(&self) -> &[Action] {
        &self.record
    }
    /// The colour of the stone at a point, if any.
    pub fn stone_at(&self, p: Point) -> Option<u8> {
        let v = *self.cells.get(idx(p))?;
        is_stone(v).then_some(v)
    }
    /// Every stone on the board as `(point, colour)`, bottom row first.
    pub fn stones(&self) -> Vec<(Point, u8)> {
        self.points()
            .filter_map(|p| self.stone_at(p).map(|c| (p, c)))
            .collect()
    }
    /// Every point of the board, bottom row first, left to right.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let n = self.rules.size;
        (0..n)
            .flat_map(move |row| (0..n).map(move |col| Point::new(col, row, n).expect("in range")))
    }
    /// How many stones are on the board.
    pub fn stone_count(&self) -> usize {
        usize::from(self.rules.size) * usize::from(self.rules.size) - self.empties.len()
    }
    /// How many stones have been placed since the start (removed ones included).
    pub fn stones_placed(&self) -> usize {
        usize::from(self.state.placed)
    }
    /// How many stones have left the board.
    pub fn stones_removed(&self) -> usize {
        usize::from(self.state.removed)
    }
    /// The colour whose stone comes next (meaningful while the game is not over).
    pub fn to_move(&self) -> u8 {
        self.state.to_move
    }
    /// The current phase.
    pub fn phase(&self) -> Phase {
        self.state.phase
    }
    /// The status.
    pub fn status(&self) -> Status {
        self.state.status
    }
    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.state.status != Status::Ongoing
    }
    /// Stones captured (scored) by each colour, index 0 for colour 1.
    pub fn captured(&self) -> [u16; 4] {
        self.state.captured
    }
    /// Stones scored by the colour's side: its own, plus its teammate's with teams.
    pub fn score(&self, colour: u8) -> u16 {
        let own = self.state.captured[usize::from(colour - 1)];
        match self.rules.teammate(colour) {
            Some(t) => own + self.state.captured[usize::from(t - 1)],
            None => own,
        }
    }
    /// The seat (person, from 1) that plays a colour.
    pub fn seat_of_colour(&self, colour: u8) -> u8 {
        self.state.seat_of_colour[usize::from(colour - 1)]
    }
    /// The colour a seat plays.
    pub fn colour_of_seat(&self, seat: u8) -> u8 {
        (1..=self.rules.players)
            .find(|&c| self.seat_of_colour(c) == seat)
            .unwrap_or(seat)
    }
    /// The seat that must act now, `None` when the game is over.
    pub fn seat_to_act(&self) -> Option<u8> {
        if self.is_over() {
            return None;
        }
        Some(
            self.state
                .phase
                .seat()
                .unwrap_or_else(|| self.seat_of_colour(self.state.to_move)),
        )
    }
    /// The colours that left the game ([`Action::Retire`]): skipped in turn order.
    pub fn retired(&self) -> Colours {
        self.state.retired
    }
    /// The colour that moves after `colour`, skipping retired colours.
    fn next_in_play(&self, colour: u8) -> u8 {
        let mut next = self.rules.next_colour(colour);
        while self.state.retired.contains(next) && next != colour {
            next = self.rules.next_colour(next);
        }
        next
    }
    /// The point of the last stone placed, if the last action placed one.
    pub fn last_stone(&self) -> Option<Point> {
        self.state.last.map(|i| point_at(usize::from(i)))
    }
    /// The stones removed by the last action.
    pub fn last_removed(&self) -> Vec<Removed> {
        let from = self
            .undo
            .last()
            .map_or(self.removed_log.len(), |u| u.removed_from as usize);
        self.removed_log[from..]
            .iter()
            .map(|&(i, colour)| Removed {
                point: point_at(usize::from(i)),
                colour,
                credited_to: None,
            })
            .collect()
    }
    /// A winning row waiting for the extra-time capture, if there is one.
    pub fn threatened_line(&self) -> Option<Line> {
        self.state.pending.map(RawLine::to_line)
    }

    /// Parses and applies one record token.
    ///
    /// # Errors
    /// [`MoveError`]; the game is unchanged.
    pub fn apply_token(&mut self, token: &str) -> Result<MoveReport, MoveError> {
        let action = Action::parse(token, self.rules.size)?;
        Ok(self.apply(action)?)
    }

    /// Applies an action for whoever must act now.
    ///
    /// # Errors
    /// [`PlayError`] when the action is refused; the game is then unchanged.
    pub fn apply(&mut self, action: Action) -> Result<MoveReport, PlayError> {
        self.check_shape(action)?;
        match (self.state.phase, action) {
            (Phase::Playing, Action::Place(p)) => self.play(p, action),
            (
                Phase::SwapOrKeep { .. }
                | Phase::Declaring { .. }
                | Phase::Offering { .. }
                | Phase::Selecting { .. },
                _,
            )
            | (
                _,
                Action::Swap
                | Action::Keep
                | Action::Declare(_)
                | Action::Offer(_)
                | Action::Choose(_),
            ) => {
                self.check_tournament(action)?;
                match action {
                    Action::Choose(p) => self.play(p, action),
                    _ => Ok(self.apply_tournament(action)),
                }
            }
            (_, Action::Retire(colour)) => {
                self.check_retire(colour)?;
                let before = self.state;
                self.state.retired.insert(colour);
                self.state.last = None;
                // A winning row that waited for this colour's capture stands: it was not broken.
                if let Some(line) = self.state.pending.take()
                    && self.line_stands(line)
                {
                    let mut winners = Colours::one(line.colour);
                    if let Some(t) = self.rules.teammate(line.colour) {
                        winners.insert(t);
                    }
                    self.state.status = Status::Won {
                        winners,
                        reason: WinReason::Line,
                    };
                } else {
                    self.state.to_move = self.next_in_play(colour);
                    if self.empties.is_empty() || !self.has_legal_point(self.state.to_move) {
                        self.state.status = Status::Draw;
                    }
                }
                self.commit(before, None, self.removed_log.len(), action);
                Ok(self.report_without_stone(action))
            }
            (Phase::Placing { seat, until }, Action::Place(p)) => {
                let i = idx(p);
                if self.cells.get(i).copied() != Some(EMPTY) {
                    return Err(PlayError::Occupied(p));
                }
                self.opening_check(p)?;
                let colour = self.state.to_move;
                self.renju_check(p, colour)?;
                let before = self.state;
                self.put(i, colour);
                self.state.placed += 1;
                self.state.last = Some(i as u16);
                self.state.to_move = self.rules.next_colour(colour);
                if self.state.placed >= u16::from(until) {
                    self.state.phase = if self.rules.opening == Opening::Soosorv8 {
                        Phase::SwapOrKeep {
                            seat: 3 - seat,
                            may_offer: false,
                        }
                    } else {
                        Phase::Choosing {
                            seat: 3 - seat,
                            may_place: self.rules.opening == Opening::Swap2 && until == 3,
                        }
                    };
                }
                self.commit(before, Some(i), self.removed_log.len(), action);
                Ok(MoveReport {
                    action,
                    colour: Some(colour),
                    removed: Vec::new(),
                    status: self.state.status,
                    extra_time: false,
                })
            }
            (Phase::Choosing { seat, .. }, Action::Take(colour)) => {
                let before = self.state;
                self.state.seat_of_colour[usize::from(colour - 1)] = seat;
                self.state.seat_of_colour[usize::from(2 - colour)] = 3 - seat;
                self.state.phase = Phase::Playing;
                self.commit(before, None, self.removed_log.len(), action);
                Ok(self.report_without_stone(action))
            }
            (
                Phase::Choosing {
                    seat,
                    may_place: true,
                },
                Action::PlaceTwo,
            ) => {
                let before = self.state;
                self.state.phase = Phase::Placing {
                    seat,
                    until: (self.state.placed + 2) as u8,
                };
                self.commit(before, None, self.removed_log.len(), action);
                Ok(self.report_without_stone(action))
            }
            (Phase::Choosing { .. }, Action::PlaceTwo) => Err(PlayError::WrongPhase(
                "placing more stones is not one of the choices now",
            )),
            (Phase::Choosing { .. }, Action::Place(_)) => {
                Err(PlayError::WrongPhase("a colour choice is due, not a stone"))
            }
            (_, Action::Take(_) | Action::PlaceTwo) => {
                Err(PlayError::WrongPhase("a stone is due, not a colour choice"))
            }
        }
    }

    /// Why the colour may not retire now, if it may not.
    fn check_retire(&self, colour: u8) -> Result<(), PlayError> {
        if !(1..=self.rules.players).contains(&colour) {
            return Err(PlayError::NoSuchColour(colour));
        }
        if self.rules.players < 3 || self.rules.teams {
            return Err(PlayError::WrongPhase(
                "only a player of a 3-4 player game without teams can retire",
            ));
        }
        if self.state.phase != Phase::Playing || colour != self.state.to_move {
            return Err(PlayError::WrongPhase("only the colour to move can retire"));
        }
        if self.rules.players as usize - self.state.retired.len() <= 2 {
            return Err(PlayError::WrongPhase(
                "retiring would leave a single colour in play: the game is over",
            ));
        }
        Ok(())
    }

    /// Refusals that do not depend on the phase: game over, points off this board, bad colours.
    fn check_shape(&self, action: Action) -> Result<(), PlayError> {
        if self.is_over() {
            return Err(PlayError::GameOver);
        }
        match action {
            Action::Place(p) if p.col() >= self.rules.size || p.row() >= self.rules.size => {
                Err(PlayError::OffBoard(p))
            }
            Action::Take(c) if !(1..=2).contains(&c) => Err(PlayError::NoSuchColour(c)),
            _ => Ok(()),
        }
    }

    fn report_without_stone(&self, action: Action) -> MoveReport {
        MoveReport {
            action,
            colour: None,
            removed: Vec::new(),
            status: self.state.status,
            extra_time: false,
        }
    }

    fn play(&mut self, p: Point, action: Action) -> Result<MoveReport, PlayError> {
        let i = idx(p);
        if self.cells.get(i).copied() != Some(EMPTY) {
            return Err(PlayError::Occupied(p));
        }
        if matches!(action, Action::Place(_)) {
            self.opening_check(p)?;
        }
        let colour = self.state.to_move;
        self.renju_check(p, colour)?;
        let mut claims = Claims::new();
        if self.rules.self_capture != SelfCapture::None {
            let found = self.find_self_captures(i, colour, &mut claims);
            if found && self.rules.self_capture == SelfCapture::Forbidden {
                return Err(PlayError::ForbiddenSelfCapture(p));
            }
        }
        let before = self.state;
        self.put(i, colour);
        self.state.placed += 1;
        self.state.last = Some(i as u16);
        if self.rules.captures != Captures::None {
            self.find_captures(i, colour, &mut claims);
        }
        let removed_from = self.removed_log.len();
        let removed = self.resolve(claims.as_slice());
        let credited = removed.iter().any(|r| r.credited_to.is_some());
        self.settle(i, colour, &removed, credited);
        if matches!(action, Action::Choose(_)) {
            self.state.offers = None;
        }
        if !self.is_over() {
            self.state.phase = self.phase_after_stone(action);
        }
        self.commit(before, Some(i), removed_from, action);
        Ok(MoveReport {
            action,
            colour: Some(colour),
            removed,
            status: self.state.status,
            // `settle` clears the previous move's pending row, so a pending row is this move's.
            extra_time: self.state.pending.is_some(),
        })
    }

    /// Every action [`Game::apply`] would accept now, points in board order.
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.is_over() {
            return Vec::new();
        }
        match self.state.phase {
            Phase::Choosing { may_place, .. } => {
                let mut v = vec![Action::Take(1), Action::Take(2)];
                if may_place {
                    v.push(Action::PlaceTwo);
                }
                v
            }
            Phase::Placing { .. } | Phase::Playing => self
                .points()
                .map(Action::Place)
                .filter(|&a| self.check(a).is_ok())
                .collect(),
            // Every set of candidates cannot be listed: one valid offer stands for them.
            Phase::SwapOrKeep { may_offer, .. } => {
                let mut v = vec![Action::Swap, Action::Keep];
                if may_offer {
                    v.extend(self.sample_offer().map(Action::Offer));
                }
                v
            }
            Phase::Declaring { .. } => (1..=8).map(Action::Declare).collect(),
            Phase::Offering { .. } => self.sample_offer().map(Action::Offer).into_iter().collect(),
            Phase::Selecting { .. } => self
                .offered()
                .iter()
                .map(|&p| Action::Choose(p))
                .filter(|&a| self.check(a).is_ok())
                .collect(),
        }
    }

    /// How many points are empty.
    pub fn empty_count(&self) -> usize {
        self.empties.len()
    }

    /// The `k`-th empty point in an internal order that changes as stones come and go.
    ///
    /// Meant for random playouts: `k` drawn below [`Game::empty_count`] picks a uniform empty point.
    /// Returns `None` when `k` is out of range.
    pub fn empty_point(&self, k: usize) -> Option<Point> {
        self.empties.get(k).map(|&i| point_at(usize::from(i)))
    }

    /// Whether an action would be accepted now.
    pub fn is_legal(&self, action: Action) -> bool {
        self.check(action).is_ok()
    }

    /// Checks an action without applying it.
    ///
    /// # Errors
    /// The [`PlayError`] that [`Game::apply`] would return.
    pub fn check(&self, action: Action) -> Result<(), PlayError> {
        self.check_shape(action)?;
        match (self.state.phase, action) {
            (Phase::Playing, Action::Place(p)) => {
                let i = idx(p);
                if self.cells.get(i).copied() != Some(EMPTY) {
                    return Err(PlayError::Occupied(p));
                }
                self.opening_check(p)?;
                self.renju_check(p, self.state.to_move)?;
                if self.forbidden_at(i, self.state.to_move) {
                    return Err(PlayError::ForbiddenSelfCapture(p));
                }
                Ok(())
            }
            (
                Phase::SwapOrKeep { .. }
                | Phase::Declaring { .. }
                | Phase::Offering { .. }
                | Phase::Selecting { .. },
                _,
            )
            | (
                _,
                Action::Swap
                | Action::Keep
                | Action::Declare(_)
                | Action::Offer(_)
                | Action::Choose(_),
            ) => {
                self.check_tournament(action)?;
                if let Action::Choose(p) = action {
                    if self.cells.get(idx(p)).copied() != Some(EMPTY) {
                        return Err(PlayError::Occupied(p));
                    }
                    self.renju_check(p, self.state.to_move)?;
                }
                Ok(())
            }
            (Phase::Placing { .. }, Action::Place(p)) => {
                if self.cells.get(idx(p)).copied() != Some(EMPTY) {
                    return Err(PlayError::Occupied(p));
                }
                self.opening_check(p)?;
                self.renju_check(p, self.state.to_move)
            }
            (_, Action::Retire(colour)) => self.check_retire(colour),
            (Phase::Choosing { .. }, Action::Take(_)) => Ok(()),
            (
                Phase::Choosing {
                    may_place: true, ..
                },
                Action::PlaceTwo,
            ) => Ok(()),
            (Phase::Choosing { .. }, Action::PlaceTwo) => Err(PlayError::WrongPhase(
                "placing more stones is not one of the choices now",
            )),
            (Phase::Choosing { .. }, Action::Place(_)) => {
                Err(PlayError::WrongPhase("a colour choice is due, not a stone"))
            }
            (_, Action::Take(_) | Action::PlaceTwo) => {
                Err(PlayError::WrongPhase("a stone is due, not a colour choice"))
            }
        }
    }
}
