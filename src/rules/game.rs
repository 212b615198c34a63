//! A game as a value: rule set, record, and the position derived from them.

use std::fmt;

use thiserror::Error;

use super::point::{Point, PointError};
use super::ruleset::{Captures, Opening, RuleSet, SelfCapture};

/// Distance between vertically adjacent cells of the padded board.
const STRIDE: usize = 21;
/// Cells of the padded board: a border of walls around the largest board.
const CELLS: usize = STRIDE * STRIDE;
const EMPTY: u8 = 0;
const WALL: u8 = 8;
/// The 8 directions, as index offsets; opposite directions are neighbours in the list.
const DIRS: [isize; 8] = [
    1,
    -1,
    STRIDE as isize,
    -(STRIDE as isize),
    STRIDE as isize + 1,
    -(STRIDE as isize + 1),
    STRIDE as isize - 1,
    -(STRIDE as isize - 1),
];
/// The 4 axes (one direction of each line through a point).
const AXES: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];

fn idx(p: Point) -> usize {
    (usize::from(p.row()) + 1) * STRIDE + usize::from(p.col()) + 1
}

fn point_at(i: usize) -> Point {
    // Only called for indices of points on the board, so both parts fit.
    let row = (i / STRIDE - 1) as u8;
    let col = (i % STRIDE - 1) as u8;
    Point::new(col, row, super::point::MAX_SIZE).expect("index of an on-board cell")
}

fn step(i: usize, d: isize) -> usize {
    i.wrapping_add_signed(d)
}

fn is_stone(v: u8) -> bool {
    v.wrapping_sub(1) < 4
}

/// A set of colours (1..=4), used for winners.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Colours(u8);

impl Colours {
    /// No colour.
    pub const EMPTY: Colours = Colours(0);

    /// The set holding one colour.
    pub fn one(colour: u8) -> Colours {
        Colours(1 << colour)
    }
    /// Adds a colour.
    pub fn insert(&mut self, colour: u8) {
        self.0 |= 1 << colour;
    }
    /// Whether the colour is in the set.
    pub fn contains(self, colour: u8) -> bool {
        self.0 & (1 << colour) != 0
    }
    /// Whether no colour is in the set.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// The colours in increasing order.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (1..=4).filter(move |&c| self.contains(c))
    }
    /// How many colours are in the set.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
}

/// How a game was won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// A row of stones.
    Line,
    /// Enough captured stones.
    Captures,
}

impl WinReason {
    /// The name used in `replay` output.
    pub fn name(self) -> &'static str {
        match self {
            WinReason::Line => "line",
            WinReason::Captures => "captures",
        }
    }
}

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Not over.
    Ongoing,
    /// Over, won by these colours (several when the victory is shared).
    Won {
        /// The winning colours (a team's win lists both members).
        winners: Colours,
        /// What won (captures when any winner won by captures).
        reason: WinReason,
    },
    /// Over, the board is full (or the player to move has no legal point) and nobody won.
    Draw,
}

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

/// One thing a player does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Put a stone on a point (in play or during swap placement).
    Place(Point),
    /// The choosing seat takes this colour (swap, swap2).
    Take(u8),
    /// Swap2's third option: place two more stones and hand the choice back.
    PlaceTwo,
    /// Three or four players without teams: the colour to move leaves the game (it ran out of
    /// time). Its stones stay on the board and it is skipped in turn order from now on. Not
    /// offered by [`Game::legal_actions`]; refused when it would leave a single colour in play
    /// (the game is then over, which the caller records as it sees fit).
    Retire(u8),
}

impl Action {
    /// Parses a record token: a point (`K10`), `take:1`, `take:2` or `place`.
    ///
    /// # Errors
    /// [`PointError`] for text that is neither a choice nor a point of the board.
    pub fn parse(token: &str, size: u8) -> Result<Action, PointError> {
        let t = token.trim();
        if t.eq_ignore_ascii_case("place") {
            return Ok(Action::PlaceTwo);
        }
        if let Some(rest) = t
            .get(..7)
            .filter(|p| p.eq_ignore_ascii_case("retire:"))
            .map(|_| &t[7..])
        {
            return match rest {
                "1" => Ok(Action::Retire(1)),
                "2" => Ok(Action::Retire(2)),
                "3" => Ok(Action::Retire(3)),
                "4" => Ok(Action::Retire(4)),
                _ => Err(PointError::Malformed(token.to_string())),
            };
        }
        if let Some(rest) = t
            .get(..5)
            .filter(|p| p.eq_ignore_ascii_case("take:"))
            .map(|_| &t[5..])
        {
            return match rest {
                "1" => Ok(Action::Take(1)),
                "2" => Ok(Action::Take(2)),
                _ => Err(PointError::Malformed(token.to_string())),
            };
        }
        Point::parse(t, size).map(Action::Place)
    }
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Place(p) => write!(f, "{p}"),
            Action::Take(c) => write!(f, "take:{c}"),
            Action::PlaceTwo => f.write_str("place"),
            Action::Retire(c) => write!(f, "retire:{c}"),
        }
    }
}

/// Why an action was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The point already holds a stone.
    #[error("{0} is already occupied")]
    Occupied(Point),
    /// The opening rule forbids this point now.
    #[error("{point} breaks the {opening} opening: {why}")]
    OpeningRule {
        /// The point tried.
        point: Point,
        /// The opening in force.
        opening: Opening,
        /// What the rule requires.
        why: &'static str,
    },
    /// The point would complete a bracketed group of the mover's own stones.
    #[error("{0} is forbidden: it would put your stones into a capture")]
    ForbiddenSelfCapture(Point),
    /// The game is over.
    #[error("the game is over")]
    GameOver,
    /// The point lies outside this game's board.
    #[error("{0} is outside the board")]
    OffBoard(Point),
    /// A colour choice names a colour that cannot be chosen.
    #[error("colour {0} cannot be chosen (expected take:1 or take:2)")]
    NoSuchColour(u8),
    /// A colour choice was given when a stone was due, or the reverse.
    #[error("{0}")]
    WrongPhase(&'static str),
}

/// Why a record token was refused: it did not parse, or the game refused it.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum MoveError {
    /// Not a token of the record language, or not on the board.
    #[error(transparent)]
    Point(#[from] PointError),
    /// Parsed, but refused by the game.
    #[error(transparent)]
    Play(#[from] PlayError),
}

impl MoveError {
    /// The stable error code of the `replay` contract.
    pub fn code(&self) -> &'static str {
        match self {
            MoveError::Point(PointError::Malformed(_)) => "malformed",
            MoveError::Point(PointError::OutOfBounds { .. }) => "out_of_bounds",
            MoveError::Play(p) => p.code(),
        }
    }
}

impl PlayError {
    /// The stable error code of the `replay` contract.
    pub fn code(&self) -> &'static str {
        match self {
            PlayError::Occupied(_) => "occupied",
            PlayError::OpeningRule { .. } => "opening_rule",
            PlayError::ForbiddenSelfCapture(_) => "forbidden_self_capture",
            PlayError::GameOver => "game_over",
            PlayError::OffBoard(_) => "out_of_bounds",
            PlayError::NoSuchColour(_) => "malformed",
            PlayError::WrongPhase(_) => "wrong_phase",
        }
    }
}

/// A stone that left the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Removed {
    /// Where it stood.
    pub point: Point,
    /// Its colour.
    pub colour: u8,
    /// Who scored it: `None` when it was disputed by several players or was a teammate's.
    pub credited_to: Option<u8>,
}

/// What an applied action did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReport {
    /// The action.
    pub action: Action,
    /// The colour of the stone placed, if a stone was placed.
    pub colour: Option<u8>,
    /// The stones removed by captures (the placed stone too, after a self-capture).
    pub removed: Vec<Removed>,
    /// The status after the action.
    pub status: Status,
    /// Whether the move made a winning row that now waits for the extra-time capture.
    pub extra_time: bool,
}

/// A row of stones of one colour, from `start` to `end` inclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Line {
    /// One end.
    pub start: Point,
    /// The other end.
    pub end: Point,
    /// The colour of its stones.
    pub colour: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct RawLine {
    start: u16,
    axis: u8,
    len: u8,
    colour: u8,
}

impl RawLine {
    fn cells(self) -> impl Iterator<Item = usize> {
        let d = AXES[usize::from(self.axis)];
        (0..self.len).map(move |k| step(usize::from(self.start), d * isize::from(k)))
    }
    fn to_line(self) -> Line {
        let d = AXES[usize::from(self.axis)];
        Line {
            start: point_at(usize::from(self.start)),
            end: point_at(step(
                usize::from(self.start),
                d * (isize::from(self.len) - 1),
            )),
            colour: self.colour,
        }
    }
}

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

/// Stones claimed by a move before they are removed: `(cell, claimant)`.
struct Claims {
    items: [(u16, u8); 48],
    len: usize,
}

impl Claims {
    fn new() -> Self {
        Claims {
            items: [(0, 0); 48],
            len: 0,
        }
    }
    fn push(&mut self, cell: usize, claimant: u8) {
        // 33 is the most a single move can claim; the array has room to spare.
        if self.len < self.items.len() {
            self.items[self.len] = (cell as u16, claimant);
            self.len += 1;
        }
    }
    fn as_slice(&self) -> &[(u16, u8)] {
        &self.items[..self.len]
    }
}

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
            Opening::Swap2 => Phase::Placing { seat: 1, until: 3 },
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
        Some(match self.state.phase {
            Phase::Placing { seat, .. } | Phase::Choosing { seat, .. } => seat,
            Phase::Playing => self.seat_of_colour(self.state.to_move),
        })
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

    /// The winning rows on the board once the game is won by a line.
    pub fn winning_lines(&self) -> Vec<Line> {
        let Status::Won { winners, .. } = self.state.status else {
            return Vec::new();
        };
        let mut lines = Vec::new();
        for &e in &self.all_cells() {
            let c = self.cells[e];
            if !is_stone(c) || !winners.contains(c) {
                continue;
            }
            for (axis, &d) in AXES.iter().enumerate() {
                if self.cells[step(e, -d)] == c {
                    continue; // not the start of its run
                }
                let len = 1 + self.run(e, d, c);
                if self.is_winning_len(len) {
                    lines.push(
                        RawLine {
                            start: e as u16,
                            axis: axis as u8,
                            len: len as u8,
                            colour: c,
                        }
                        .to_line(),
                    );
                }
            }
        }
        lines
    }

    fn all_cells(&self) -> Vec<usize> {
        self.points().map(idx).collect()
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
                let before = self.state;
                let colour = self.state.to_move;
                self.put(i, colour);
                self.state.placed += 1;
                self.state.last = Some(i as u16);
                self.state.to_move = self.rules.next_colour(colour);
                if self.state.placed >= u16::from(until) {
                    self.state.phase = Phase::Choosing {
                        seat: 3 - seat,
                        may_place: self.rules.opening == Opening::Swap2 && until == 3,
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

    fn commit(
        &mut self,
        before: State,
        placed_at: Option<usize>,
        removed_from: usize,
        action: Action,
    ) {
        self.undo.push(Undo {
            state: before,
            placed_at: placed_at.map(|i| i as u16),
            removed_from: removed_from as u32,
        });
        self.record.push(action);
    }

    fn put(&mut self, i: usize, colour: u8) {
        self.cells[i] = colour;
        let slot = usize::from(self.empty_slot[i]);
        let last = *self.empties.last().expect("an empty point was played");
        self.empties.swap_remove(slot);
        if slot < self.empties.len() {
            self.empty_slot[usize::from(last)] = slot as u16;
        }
        self.empty_slot[i] = u16::MAX;
    }

    fn clear(&mut self, i: usize) {
        self.cells[i] = EMPTY;
        self.empty_slot[i] = self.empties.len() as u16;
        self.empties.push(i as u16);
    }

    /// How many cells after `i` in direction `d` hold stones of any colour, counting at most `limit`.
    fn stones_in_a_row(&self, i: usize, d: isize, limit: usize) -> usize {
        let mut n = 0;
        let mut j = step(i, d);
        while n < limit && is_stone(self.cells[j]) {
            n += 1;
            j = step(j, d);
        }
        n
    }

    /// Length of the run of `colour` starting after `i` in direction `d`.
    fn run(&self, i: usize, d: isize, colour: u8) -> usize {
        let mut n = 0;
        let mut j = step(i, d);
        while self.cells[j] == colour {
            n += 1;
            j = step(j, d);
        }
        n
    }

    fn is_winning_len(&self, len: usize) -> bool {
        let line = usize::from(self.rules.line);
        len == line || (len > line && self.rules.overline_wins)
    }

    fn opening_check(&self, p: Point) -> Result<(), PlayError> {
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

    /// Whether stones `a` (and the ones after it) may be captured together by `claimant`.
    fn capturable(&self, v: u8, first: u8, claimant: u8) -> bool {
        is_stone(v) && v != claimant && (self.rules.mixed_captures || v == first)
    }

    /// Captures made by `colour` standing at `i` (the cell must already hold it).
    fn find_captures(&self, i: usize, colour: u8, claims: &mut Claims) {
        let triples = self.rules.captures == Captures::PairsAndTriples;
        for &d in &DIRS {
            let a = step(i, d);
            let va = self.cells[a];
            if !is_stone(va) || va == colour {
                continue;
            }
            let b = step(a, d);
            if !self.capturable(self.cells[b], va, colour) {
                continue;
            }
            let e = step(b, d);
            let ve = self.cells[e];
            if ve == colour {
                claims.push(a, colour);
                claims.push(b, colour);
            } else if triples && self.capturable(ve, va, colour) && self.cells[step(e, d)] == colour
            {
                claims.push(a, colour);
                claims.push(b, colour);
                claims.push(e, colour);
            }
        }
    }

    /// Groups containing `i` that a stone of `colour` there would leave bracketed by another player.
    ///
    /// Cell `i` is read as holding `colour` whatever it holds, so this works before placing.
    fn find_self_captures(&self, i: usize, colour: u8, claims: &mut Claims) -> bool {
        let max = if self.rules.captures == Captures::PairsAndTriples {
            3
        } else {
            2
        };
        let mut found = false;
        for &d in &AXES {
            // Only cells proven to hold stones are stepped over, so every index read stays on
            // the board or its one-cell border.
            let back = self.stones_in_a_row(i, -d, max - 1);
            let fwd = self.stones_in_a_row(i, d, max - 1);
            for k in 2..=max {
                for s in -(back.min(k - 1) as isize)..=0 {
                    if s + k as isize - 1 > fwd as isize {
                        continue;
                    }
                    let first = step(i, d * s);
                    let before = step(first, -d);
                    let after = step(first, d * k as isize);
                    let x = self.cells[before];
                    if !is_stone(x) || self.cells[after] != x || x == colour {
                        continue;
                    }
                    let group_ok = (0..k as isize).all(|t| {
                        let cell = step(first, d * t);
                        let v = if cell == i { colour } else { self.cells[cell] };
                        v != x && (self.rules.mixed_captures || v == colour)
                    });
                    if group_ok {
                        found = true;
                        for t in 0..k as isize {
                            claims.push(step(first, d * t), x);
                        }
                    }
                }
            }
        }
        found
    }

    fn play(&mut self, p: Point, action: Action) -> Result<MoveReport, PlayError> {
        let i = idx(p);
        if self.cells.get(i).copied() != Some(EMPTY) {
            return Err(PlayError::Occupied(p));
        }
        if self.rules.players == 2 && self.state.placed <= 2 {
            self.opening_check(p)?;
        }
        let colour = self.state.to_move;
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

    /// Removes claimed stones, scoring each for its single claimant (disputed ones score nothing).
    fn resolve(&mut self, claims: &[(u16, u8)]) -> Vec<Removed> {
        if claims.is_empty() {
            return Vec::new();
        }
        let mut sorted: Vec<(u16, u8)> = claims.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut removed = Vec::with_capacity(sorted.len());
        let mut k = 0;
        while k < sorted.len() {
            let cell = sorted[k].0;
            let mut end = k + 1;
            while end < sorted.len() && sorted[end].0 == cell {
                end += 1;
            }
            let colour = self.cells[usize::from(cell)];
            let claimant = (end - k == 1).then_some(sorted[k].1);
            let credited_to = claimant.filter(|&c| self.rules.teammate(c) != Some(colour));
            if let Some(c) = credited_to {
                self.state.captured[usize::from(c - 1)] += 1;
            }
            removed.push(Removed {
                point: point_at(usize::from(cell)),
                colour,
                credited_to,
            });
            k = end;
        }
        for r in &removed {
            let i = idx(r.point);
            self.removed_log.push((i as u16, r.colour));
            self.clear(i);
        }
        self.state.removed += removed.len() as u16;
        removed
    }

    /// Decides the status after a stone of `colour` went to `i` and `removed` left.
    fn settle(&mut self, i: usize, colour: u8, removed: &[Removed], credited: bool) {
        let mut line_winners = Colours::EMPTY;
        let mut mover_lines = 0;
        let mut mover_line = None;
        let mut other_lines = 0;
        if self.cells[i] == colour {
            for (axis, &d) in AXES.iter().enumerate() {
                let back = self.run(i, -d, colour);
                let len = 1 + back + self.run(i, d, colour);
                if self.is_winning_len(len) {
                    line_winners.insert(colour);
                    mover_lines += 1;
                    mover_line = Some(RawLine {
                        start: step(i, -d * back as isize) as u16,
                        axis: axis as u8,
                        len: len as u8,
                        colour,
                    });
                }
            }
        }
        if !self.rules.overline_wins && !removed.is_empty() {
            // Removing stones can trim someone's overline down to an exact, winning row.
            for r in removed {
                let ri = idx(r.point);
                for &d in &DIRS {
                    let q = step(ri, d);
                    let c = self.cells[q];
                    // A retired colour's stones stay, but it can no longer win.
                    if is_stone(c)
                        && !self.state.retired.contains(c)
                        && self.cells[step(q, -d)] != c
                    {
                        let len = 1 + self.run(q, d, c);
                        if len == usize::from(self.rules.line) {
                            line_winners.insert(c);
                            other_lines += 1;
                        }
                    }
                }
            }
        }
        let mut capture_winners = Colours::EMPTY;
        if credited && self.rules.capture_win > 0 {
            for c in 1..=self.rules.players {
                if !self.state.retired.contains(c) && self.score(c) >= self.rules.capture_win {
                    capture_winners.insert(c);
                }
            }
        }
        let mut pending_winner = Colours::EMPTY;
        if let Some(line) = self.state.pending.take()
            && self.line_stands(line)
        {
            pending_winner.insert(line.colour);
        }
        let mut winners = Colours(line_winners.0 | capture_winners.0 | pending_winner.0);
        if winners.is_empty() {
            self.state.to_move = self.next_in_play(colour);
            if self.empties.is_empty() || !self.has_legal_point(self.state.to_move) {
                self.state.status = Status::Draw;
            }
            return;
        }
        let next = self.next_in_play(colour);
        if let Some(line) = mover_line {
            let single = mover_lines == 1
                && other_lines == 0
                && capture_winners.is_empty()
                && pending_winner.is_empty();
            if self.rules.extra_time_capture && single && self.can_break(line, next) {
                self.state.pending = Some(line);
                self.state.to_move = next;
                return;
            }
        }
        for c in winners.iter() {
            if let Some(t) = self.rules.teammate(c) {
                winners.insert(t);
            }
        }
        self.state.status = Status::Won {
            winners,
            reason: if capture_winners.is_empty() {
                WinReason::Line
            } else {
                WinReason::Captures
            },
        };
    }

    /// Whether a winning row (or a still-winning part of it) is still on the board.
    fn line_stands(&self, line: RawLine) -> bool {
        let d = AXES[usize::from(line.axis)];
        line.cells().any(|cell| {
            self.cells[cell] == line.colour
                && self.is_winning_len(
                    1 + self.run(cell, -d, line.colour) + self.run(cell, d, line.colour),
                )
        })
    }

    /// Whether `colour` has a legal move that captures a stone of `line`.
    fn can_break(&self, line: RawLine, colour: u8) -> bool {
        self.empties.iter().any(|&e| {
            let e = usize::from(e);
            if self.forbidden_at(e, colour) {
                return false;
            }
            let mut captures = Claims::new();
            self.find_captures(e, colour, &mut captures);
            captures
                .as_slice()
                .iter()
                .any(|&(c, _)| line.cells().any(|l| l == usize::from(c)))
        })
    }

    /// Whether `self_capture=forbidden` bars `colour` from the empty cell `i`.
    fn forbidden_at(&self, i: usize, colour: u8) -> bool {
        self.rules.self_capture == SelfCapture::Forbidden
            && self.find_self_captures(i, colour, &mut Claims::new())
    }

    fn has_legal_point(&self, colour: u8) -> bool {
        self.empties
            .iter()
            .any(|&e| !self.forbidden_at(usize::from(e), colour))
    }

    /// Takes back the last action, restoring the exact previous position.
    ///
    /// Returns the action taken back, or `None` at the start of the game.
    pub fn undo(&mut self) -> Option<Action> {
        let u = self.undo.pop()?;
        let action = self.record.pop()?;
        while self.removed_log.len() > u.removed_from as usize {
            let (i, colour) = self.removed_log.pop()?;
            self.put(usize::from(i), colour);
        }
        if let Some(i) = u.placed_at {
            self.clear(usize::from(i));
        }
        self.state = u.state;
        Some(action)
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
                if self.rules.players == 2 && self.state.placed <= 2 {
                    self.opening_check(p)?;
                }
                if self.forbidden_at(i, self.state.to_move) {
                    return Err(PlayError::ForbiddenSelfCapture(p));
                }
                Ok(())
            }
            (Phase::Placing { .. }, Action::Place(p)) => {
                if self.cells.get(idx(p)).copied() != Some(EMPTY) {
                    return Err(PlayError::Occupied(p));
                }
                Ok(())
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
