//! The engine's own view of a two-player position, kept in step with a rules-core [`Game`]:
//! stones on a padded array, every point's line neighbourhoods and the shapes they make, the
//! running sums of the line windows' pattern values (from the same neighbourhoods, see
//! `windows`), a Zobrist hash, and how many stones stand near each point.
//!
//! The rules core stays the authority on what a move does (captures, self-captures, wins,
//! extra time): [`Board::apply`] plays through [`Game::apply`] and mirrors its report, so the
//! engine never has to re-implement a rule to stay correct, only to look ahead quickly.

use super::fitted::{Fitted, SetRecord};
use super::lines::{self, CodeTable};
use super::patterns::{self, CombinedTable, ShapeTable, THREATS, Threat};
use super::windows::{self, WindowTable};
use crate::rules::{Action, Captures, Game, MoveReport, PlayError, Point};

mod captures;
mod journal;
mod near;
mod shapes;

/// Distance between vertically adjacent cells: the largest board plus a border on each side.
pub(crate) const STRIDE: usize = 21;
/// Cells of the padded array.
pub(crate) const CELLS: usize = STRIDE * STRIDE;
/// An empty point.
pub(crate) const EMPTY: u8 = 0;
/// A cell of the border (or beyond a smaller board's edge).
pub(crate) const WALL: u8 = 3;
/// The 4 axes, one direction of each.
pub(crate) const AXES: [isize; 4] = [1, STRIDE as isize, STRIDE as isize + 1, STRIDE as isize - 1];
/// The 8 directions.
pub(crate) const DIRS: [isize; 8] = [
    1,
    -1,
    STRIDE as isize,
    -(STRIDE as isize),
    STRIDE as isize + 1,
    -(STRIDE as isize + 1),
    STRIDE as isize - 1,
    -(STRIDE as isize - 1),
];

/// The set bits of a cell bit set, in increasing order.
fn bits(set: &[u64; CELL_WORDS]) -> impl Iterator<Item = usize> + '_ {
    set.iter().enumerate().flat_map(|(w, &word)| {
        let mut bits = word;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let b = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            Some(w * 64 + b)
        })
    })
}

/// Words of a bit set with one bit per cell (the frontier, the stones).
const CELL_WORDS: usize = CELLS.div_ceil(64);

/// The padded index of a point.
pub(crate) fn cell_of(p: Point) -> usize {
    (usize::from(p.row()) + 1) * STRIDE + usize::from(p.col()) + 1
}

/// Steps from a cell; only used from cells whose neighbours lie inside the padded array.
pub(crate) fn step(i: usize, d: isize) -> usize {
    i.wrapping_add_signed(d)
}

/// splitmix64: fills the Zobrist table from a fixed seed, so hashes are the same in every run.
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Zobrist keys: one per (cell, colour), plus the side to move, captures and extra time.
#[derive(Clone)]
pub(crate) struct Zobrist {
    stone: Vec<[u64; 2]>,
    side: u64,
    captures: [u64; 2],
    pending: u64,
}

impl Zobrist {
    fn new() -> Zobrist {
        let mut s = 0x005E_ED0F_601D_u64;
        let stone = (0..CELLS)
            .map(|_| [splitmix(&mut s), splitmix(&mut s)])
            .collect();
        Zobrist {
            stone,
            side: splitmix(&mut s),
            captures: [splitmix(&mut s) | 1, splitmix(&mut s) | 1],
            pending: splitmix(&mut s),
        }
    }
}

/// What one applied action changed on the board, to take it back.
#[derive(Clone, Copy, Debug)]
struct Undo {
    /// The length of the board's journal of stones (`journal.rs`) before the action.
    ops_from: u32,
    /// The evaluation's sums before the action, for an evaluation that also weighs the
    /// position before the last move ([`Board::parent_sums`]).
    before: Sums,
}

/// The sums the static evaluation reads of a position (beside its threats): each colour's
/// windows, its points by the hand-made values and, with a fit, by the fitted ones in each
/// role (to move, waiting; zero without a fit).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Sums {
    /// Each colour's sum of window values.
    pub(crate) pattern: [i32; 2],
    /// Each colour's sum of hand-made point values.
    pub(crate) shapes: [i32; 2],
    /// By role (to move, waiting) and colour: the sum of the fitted point values.
    pub(crate) fitted: [[i32; 2]; 2],
}

/// A fitted evaluation's values and sums, kept as the board's hand-made ones are.
#[derive(Clone)]
struct FitSums {
    fit: &'static Fitted,
    /// Per cell and colour: the point's fitted value as the side to move and as the side
    /// waiting (0 when occupied).
    values: Vec<[[i32; 2]; 2]>,
    /// By role (to move, waiting) and colour: the sum of the values over the empty points.
    sums: [[i32; 2]; 2],
    /// Per cell and colour: the line codes of the point's four axes (`lines.rs`), kept only
    /// when the fit values them (empty otherwise).
    codes: Vec<[[u8; 4]; 2]>,
    /// Each colour's table of line codes, when the fit values them.
    code_tables: Option<[&'static CodeTable; 2]>,
    /// The fit's records by set of shapes (`Fitted::records`).
    records: &'static [SetRecord],
}

/// The engine's board: see the module documentation.
#[derive(Clone)]
pub(crate) struct Board {
    pub(crate) game: Game,
    pub(crate) size: u8,
    pub(crate) line: u8,
    /// Whether a row longer than the line wins, by colour (Renju: not for black).
    overline: [bool; 2],
    /// The shape table of each colour's lines.
    tables: [&'static ShapeTable; 2],
    /// Each colour's table of what four shapes make together. Renju: black's points that make
    /// two fours or two open threes are forbidden, so black's are judged with
    /// `patterns::combine_renju_black`.
    combine: [&'static CombinedTable; 2],
    /// Per cell, colour and axis: the neighbourhood's index in the shape table.
    keys: Vec<[[u32; 4]; 2]>,
    /// Whether the keys leave out the two ends of each neighbourhood (five points away),
    /// which no table this board reads looks at (`shapes::ends_ignored`): both colours'
    /// longer rows win.
    ends_free: bool,
    /// Per cell: the on-board points whose neighbourhoods hold it, as bits `axis *
    /// REACH_BITS + p` (the cell is at position `p` of that point's neighbourhood).
    reach: Vec<u64>,
    /// Per cell and colour: the shape one more stone there makes on each axis.
    shapes: Vec<[[u8; 4]; 2]>,
    /// Per cell and colour: what the four shapes make together (quiet when occupied).
    threats: Vec<[Threat; 2]>,
    /// Per cell and colour: the value of the point's shapes (0 when occupied).
    values: Vec<[i32; 2]>,
    /// Per colour: the sum of its point values over the empty points.
    pub(crate) shape_sum: [i32; 2],
    /// The fitted evaluation's sums ([`Board::use_fit`]), only on a board that uses one: a
    /// board without keeps the path it had before fits came.
    fit: Option<Box<FitSums>>,
    /// Per colour: on-board cells by threat kind (occupied cells count as quiet).
    threat_count: [[u16; THREATS]; 2],
    pub(crate) captures: Captures,
    pub(crate) capture_win: u16,
    pub(crate) cells: [u8; CELLS],
    /// On-board cells, bottom row first.
    pub(crate) on_board: Vec<u16>,
    /// The point of each on-board cell.
    points: Vec<Option<Point>>,
    /// What a stone does to the line windows through a point, by neighbourhood index.
    window_sums: &'static WindowTable,
    /// Sum of the window values of each colour.
    pub(crate) pattern: [i32; 2],
    /// Windows one stone short of a line, by colour.
    pub(crate) fours: [u32; 2],
    /// Stones within two points (Chebyshev) of each cell, from index 1 (cell `i` at `i + 1`,
    /// with room for a whole word read on either side, see `update_near`).
    near: Vec<u8>,
    /// One bit per on-board cell.
    board_bits: [u64; CELL_WORDS],
    /// One bit per cell: empty, on the board and near a stone (`near` > 0). The move
    /// generators walk these few cells, in cell order, instead of the whole board.
    frontier: [u64; CELL_WORDS],
    /// One bit per cell holding a stone (either colour), for the walks over the stones.
    stones: [u64; CELL_WORDS],
    hash: u64,
    zobrist: Zobrist,
    undo: Vec<Undo>,
    /// Each stone placed or removed by the actions applied, with the board's sums before it.
    ops: Vec<journal::Op>,
    /// The point summaries those stones changed, as they were (`journal.rs`).
    saved: Vec<journal::Saved>,
}

impl Board {
    /// The board of a two-player game (colours 1 and 2).
    pub(crate) fn new(game: &Game) -> Board {
        let rules = *game.rules();
        let size = rules.size;
        let line = rules.line.clamp(4, 5);
        let black_overline = rules.overline_wins && !rules.is_renju();
        let overline = [black_overline, rules.overline_wins];
        let mut cells = [WALL; CELLS];
        let mut on_board = Vec::with_capacity(usize::from(size) * usize::from(size));
        let mut points = vec![None; CELLS];
        for row in 0..size {
            for col in 0..size {
                if let Ok(p) = Point::new(col, row, size) {
                    let i = cell_of(p);
                    cells[i] = EMPTY;
                    on_board.push(i as u16);
                    points[i] = Some(p);
                }
            }
        }
        let mut board = Board {
            game: Game::new(rules),
            size,
            line,
            overline,
            tables: [
                patterns::shape_table(line, !overline[0]),
                patterns::shape_table(line, !overline[1]),
            ],
            combine: [
                patterns::combined_table(rules.is_renju()),
                patterns::combined_table(false),
            ],
            keys: vec![[[0; 4]; 2]; CELLS],
            ends_free: (0..2).all(|k| shapes::ends_ignored(line, !overline[k])),
            reach: vec![0; CELLS],
            shapes: vec![[[0; 4]; 2]; CELLS],
            threats: vec![[Threat::Quiet; 2]; CELLS],
            values: vec![[0; 2]; CELLS],
            shape_sum: [0, 0],
            fit: None,
            threat_count: [[0; THREATS]; 2],
            captures: rules.captures,
            capture_win: rules.capture_win,
            cells,
            on_board,
            points,
            window_sums: windows::window_table(line),
            pattern: [0, 0],
            fours: [0, 0],
            near: vec![0; CELLS + 8],
            board_bits: [0; CELL_WORDS],
            frontier: [0; CELL_WORDS],
            stones: [0; CELL_WORDS],
            hash: 0,
            zobrist: Zobrist::new(),
            undo: Vec::new(),
            ops: Vec::new(),
            saved: Vec::new(),
        };
        for &i in &board.on_board {
            board.board_bits[usize::from(i) / 64] |= 1 << (i % 64);
        }
        let n = board.on_board.len() as u16;
        board.threat_count = [[n, 0, 0, 0, 0, 0, 0], [n, 0, 0, 0, 0, 0, 0]];
        // On an empty board a point's shapes are those of a lone stone (an open two when the
        // line is four long).
        board.init_keys();
        board.init_reach();
        for (p, colour) in game.stones() {
            if colour == 1 || colour == 2 {
                board.put(cell_of(p), colour);
            }
        }
        board.forget_journal();
        board.game = game.clone();
        board
    }

    /// The point of an on-board cell.
    pub(crate) fn point(&self, i: usize) -> Option<Point> {
        self.points.get(i).copied().flatten()
    }

    /// The colour to move (1 or 2).
    pub(crate) fn to_move(&self) -> u8 {
        self.game.to_move()
    }

    /// Stones captured by a colour.
    pub(crate) fn captured(&self, colour: u8) -> u16 {
        self.game.captured()[usize::from(colour - 1)]
    }

    /// The hash of the whole position: stones, side to move, captures, a pending extra-time row.
    pub(crate) fn key(&self) -> u64 {
        let caps = self.game.captured();
        let mut k = self.hash
            ^ u64::from(caps[0]).wrapping_mul(self.zobrist.captures[0])
            ^ u64::from(caps[1])
                .wrapping_mul(self.zobrist.captures[1])
                .rotate_left(17);
        if self.game.to_move() == 2 {
            k ^= self.zobrist.side;
        }
        if self.game.threatened_line().is_some() {
            k ^= self.zobrist.pending;
        }
        k
    }

    fn put(&mut self, i: usize, colour: u8) {
        self.begin(i, colour, true);
        self.cells[i] = colour;
        self.hash ^= self.zobrist.stone[i][usize::from(colour - 1)];
        self.update_windows(i, colour, 1);
        self.stones[i / 64] |= 1 << (i % 64);
        self.update_near(i, true);
        self.update_shapes(i, colour, true);
    }

    fn clear(&mut self, i: usize) {
        let colour = self.cells[i];
        self.begin(i, colour, false);
        self.cells[i] = EMPTY;
        self.hash ^= self.zobrist.stone[i][usize::from(colour - 1)];
        self.update_windows(i, colour, -1);
        self.stones[i / 64] &= !(1 << (i % 64));
        self.update_near(i, false);
        self.update_shapes(i, colour, false);
    }

    /// The empty on-board cells near a stone (`near` > 0), in increasing cell order (the
    /// order of `on_board`).
    pub(crate) fn frontier(&self) -> impl Iterator<Item = usize> + '_ {
        bits(&self.frontier)
    }

    /// The cells holding a stone, in increasing cell order.
    pub(crate) fn stone_cells(&self) -> impl Iterator<Item = usize> + '_ {
        bits(&self.stones)
    }

    /// What `colour` playing the empty cell `i` makes over its four lines.
    pub(crate) fn threat_at(&self, i: usize, colour: u8) -> Threat {
        self.threats[i][usize::from(colour - 1)]
    }

    /// The value of `colour`'s shapes at the empty cell `i` (0 when occupied), by the
    /// hand-made table whatever the evaluation weighs (see [`Board::use_fit`]).
    pub(crate) fn value_at(&self, i: usize, colour: u8) -> i32 {
        self.values[i][usize::from(colour - 1)]
    }

    /// With a fit: the fitted point values of `sums` for `me` as the side to move against
    /// the side waiting, weighted as the fit says (the waiting side's weight times `balance`
    /// percent); `None` on a board without one.
    pub(crate) fn fitted_points(&self, sums: &Sums, me: u8, balance: u32) -> Option<i32> {
        let f = self.fit.as_deref()?;
        let (mover, waiting) = f.fit.weights;
        let waiting = weigh(waiting, balance);
        let (mi, oi) = (usize::from(me - 1), usize::from(2 - me));
        Some((sums.fitted[0][mi] * mover - sums.fitted[1][oi] * waiting) / 256)
    }

    /// With a fit that values them: the value for `me`, the side to move, of the two sides'
    /// threats ([`Board::threat_mask`]); 0 otherwise.
    pub(crate) fn situation(&self, me: u8) -> i32 {
        self.fit
            .as_deref()
            .and_then(|f| f.fit.masks.as_ref())
            .map_or(0, |values| values[self.threat_mask(me)])
    }

    /// The evaluation's sums of the position as it stands.
    pub(crate) fn sums(&self) -> Sums {
        Sums {
            pattern: self.pattern,
            shapes: self.shape_sum,
            fitted: self.fit.as_deref().map_or([[0; 2]; 2], |f| f.sums),
        }
    }

    /// The evaluation's sums of the position before the last action applied through
    /// [`Board::apply`]; `None` before any (the position the board was built on).
    pub(crate) fn parent_sums(&self) -> Option<Sums> {
        self.undo.last().map(|u| u.before)
    }

    /// Makes the evaluation weigh the empty points by `fit`'s values: the board keeps their
    /// sums beside the hand-made ones, which the threats and the move ordering keep using.
    /// Renju keeps black's own table (its forbidden points are holes), so this does nothing
    /// there and says so; so does a board with actions applied to it (their journal, to take
    /// them back, holds no fitted values), so a fit comes to a new board.
    pub(crate) fn use_fit(&mut self, fit: &'static Fitted) -> bool {
        if self.game.rules().is_renju() || !self.undo.is_empty() {
            return false;
        }
        self.fit = Some(Box::new(FitSums {
            fit,
            values: vec![[[0; 2]; 2]; CELLS],
            sums: [[0; 2]; 2],
            codes: if fit.lines.is_some() {
                vec![[[0; 4]; 2]; CELLS]
            } else {
                Vec::new()
            },
            code_tables: fit
                .lines
                .is_some()
                .then(|| [0, 1].map(|k| lines::code_table(self.line, !self.overline[k]))),
            records: fit.records(),
        }));
        for k in 0..self.on_board.len() {
            let j = usize::from(self.on_board[k]);
            self.refresh_codes(j);
            self.update_point(j);
        }
        true
    }

    /// The line code (`lines.rs`) `colour` would make at the empty cell `i` on each axis.
    pub(crate) fn codes_at(&self, i: usize, colour: u8) -> [u8; 4] {
        let k = usize::from(colour - 1);
        let table = lines::code_table(self.line, !self.overline[k]);
        self.keys[i][k].map(|key| table[key as usize])
    }

    /// The shape `colour` would make at the empty cell `i` on each axis.
    pub(crate) fn shapes_at(&self, i: usize, colour: u8) -> [u8; 4] {
        self.shapes[i][usize::from(colour - 1)]
    }

    /// The threats each side has, as bits: for `me` (bits 0-4) and then the other side (bits
    /// 5-9), whether some empty point gives it a three, a four, a double three, a four-three,
    /// an open four (`Threat` 1-5). The fitted evaluation values each such situation.
    pub(crate) fn threat_mask(&self, me: u8) -> usize {
        let bits = |k: usize| {
            (1..=5).fold(0, |m, t| {
                m | (usize::from(self.threat_count[k][t] > 0) << (t - 1))
            })
        };
        let mi = usize::from(me - 1);
        bits(mi) | bits(1 - mi) << 5
    }

    /// How many empty points give `colour` at least the threat `t`.
    pub(crate) fn threats_at_least(&self, colour: u8, t: Threat) -> u16 {
        self.threat_count[usize::from(colour - 1)][t as usize..]
            .iter()
            .sum()
    }

    /// A stone of `colour` came to (`sign` 1) or left (-1) cell `i`: the pattern sums and the
    /// count of windows one stone short of a line, from the neighbourhoods of `i` (which do
    /// not depend on the stone at `i` itself).
    fn update_windows(&mut self, i: usize, colour: u8, sign: i32) {
        let (c, o) = (usize::from(colour - 1), usize::from(2 - colour));
        let keys = &self.keys[i];
        let (mut gain, mut kill, mut four_gain, mut four_kill) = (0, 0, 0i32, 0i32);
        for (&kc, &ko) in keys[c].iter().zip(&keys[o]) {
            let own = self.window_sums.sums[kc as usize];
            let other = self.window_sums.sums[ko as usize];
            gain += own.gain;
            four_gain += i32::from(own.four_gain);
            kill += other.kill;
            four_kill += i32::from(other.four_kill);
        }
        self.pattern[c] += sign * gain;
        self.pattern[o] -= sign * kill;
        self.fours[c] = self.fours[c].wrapping_add_signed(sign * four_gain);
        self.fours[o] = self.fours[o].wrapping_add_signed(-sign * four_kill);
    }

    /// Applies an action through the rules core and mirrors what it did.
    ///
    /// # Errors
    /// The rules core's refusal; nothing changes then.
    pub(crate) fn apply(&mut self, action: Action) -> Result<MoveReport, PlayError> {
        let before = self.sums();
        let report = self.game.apply(action)?;
        let ops_from = self.journal_len() as u32;
        if let (Action::Place(p), Some(colour)) = (action, report.colour)
            && (colour == 1 || colour == 2)
        {
            self.put(cell_of(p), colour);
        }
        for r in &report.removed {
            let i = cell_of(r.point);
            if self.cells[i] == 1 || self.cells[i] == 2 {
                self.clear(i);
            }
        }
        self.undo.push(Undo { ops_from, before });
        Ok(report)
    }

    /// Takes back the last action applied through [`Board::apply`].
    pub(crate) fn undo(&mut self) {
        let Some(u) = self.undo.pop() else {
            return;
        };
        self.game.undo();
        self.revert_to(u.ops_from as usize);
    }

    /// Whether the stones of `colour` at the empty cell `i` would make a winning row.
    pub(crate) fn makes_line(&self, i: usize, colour: u8) -> bool {
        let line = usize::from(self.line);
        AXES.iter().any(|&d| {
            let len = 1 + self.run(i, d, colour) + self.run(i, -d, colour);
            len == line || (len > line && self.overline[usize::from(colour - 1)])
        })
    }

    fn run(&self, i: usize, d: isize, colour: u8) -> usize {
        let mut n = 0;
        let mut j = step(i, d);
        while self.cells[j] == colour {
            n += 1;
            j = step(j, d);
        }
        n
    }

    /// Whether `colour` playing the empty cell `i` wins on the spot (a row or the capture goal),
    /// ignoring extra time.
    #[cfg(test)]
    pub(crate) fn wins_at(&self, i: usize, colour: u8) -> bool {
        self.line_threat_at(i, colour) && self.makes_line(i, colour)
            || self.capture_win > 0
                && self.captures != Captures::None
                && u32::from(self.captured(colour)) + self.captures_at(i, colour)
                    >= u32::from(self.capture_win)
    }

    /// Whether `colour` playing the empty cell `i` makes a winning row on some line (its
    /// shapes say so; [`Board::makes_line`] reads the stones).
    pub(crate) fn line_threat_at(&self, i: usize, colour: u8) -> bool {
        at_least(self.shapes[i][usize::from(colour - 1)], patterns::FIVE) != 0
    }

    /// Whether `colour` playing the empty cell `i` makes a four (or an open four) on some line.
    pub(crate) fn makes_four(&self, i: usize, colour: u8) -> bool {
        let shapes = self.shapes[i][usize::from(colour - 1)];
        at_least(shapes, patterns::FOUR) & !at_least(shapes, patterns::FIVE) != 0
    }

    /// Whether `colour` playing the empty cell `i` makes at least a four (a five included) on
    /// some line.
    pub(crate) fn makes_a_four(&self, i: usize, colour: u8) -> bool {
        at_least(self.shapes[i][usize::from(colour - 1)], patterns::FOUR) != 0
    }

    /// The empty cells where `a` or `b` makes at least a four on some line, in cell order.
    ///
    /// Every such cell is within two of a stone, in the frontier; the walk stops once it has
    /// seen as many as the threat counts say there are (a four is a four, a four-three, an
    /// open four or a five among the threats). Renju's black has points the counts call quiet
    /// (its forbidden double fours) whose shapes hold fours, so there it walks the frontier
    /// to the end.
    pub(crate) fn four_cells(&self, a: u8, b: u8) -> Vec<u16> {
        let counted = |colour: u8| {
            let k = usize::from(colour - 1);
            let exact = !(colour == 1 && self.game.rules().is_renju());
            let t = &self.threat_count[k];
            exact.then(|| {
                usize::from(t[Threat::Four as usize])
                    + usize::from(t[Threat::FourThree as usize])
                    + usize::from(t[Threat::OpenFour as usize])
                    + usize::from(t[Threat::Five as usize])
            })
        };
        let (mut left_a, mut left_b) = (counted(a), counted(b));
        let mut cells = Vec::with_capacity(left_a.unwrap_or(8) + left_b.unwrap_or(8));
        for i in self.frontier() {
            if left_a == Some(0) && left_b == Some(0) {
                break;
            }
            let (fa, fb) = (self.makes_a_four(i, a), self.makes_a_four(i, b));
            if fa || fb {
                cells.push(i as u16);
            }
            // Saturating: the counts are exact, and a miscount must not wrap.
            if fa && let Some(n) = left_a.as_mut() {
                *n = n.saturating_sub(1);
            }
            if fb && let Some(n) = left_b.as_mut() {
                *n = n.saturating_sub(1);
            }
        }
        cells
    }

    /// Pattern gain of `colour` playing the empty cell `i`, counting its windows still free of
    /// the other colour.
    pub(crate) fn gain_at(&self, i: usize, colour: u8) -> i32 {
        let keys = &self.keys[i][usize::from(colour - 1)];
        keys.iter()
            .map(|&k| self.window_sums.gain[k as usize])
            .sum()
    }
}

/// The high bit of each byte of four shapes (one per axis) that is at least `shape`: the
/// four compared at once, as one word (these tests run at every candidate of every node).
/// A shape is at most [`patterns::FIVE`] (7), so adding `0x80 - shape` to a byte sets its high
/// bit exactly when it is at least `shape`, and never carries into the next byte.
#[inline]
fn at_least(shapes: [u8; 4], shape: u8) -> u32 {
    debug_assert!(shapes.iter().all(|&s| s <= patterns::FIVE) && (1..=8).contains(&shape));
    (u32::from_le_bytes(shapes) + u32::from(0x80 - shape) * 0x0101_0101) & 0x8080_8080
}

/// `v` times `pct` percent, saturating (the evaluation's weights, `Style::balance` and the
/// like, are percentages).
pub(crate) fn weigh(v: i32, pct: u32) -> i32 {
    if pct == 100 {
        return v;
    }
    let x = i64::from(v) * i64::from(pct) / 100;
    i32::try_from(x).unwrap_or(if x < 0 { i32::MIN } else { i32::MAX })
}

#[cfg(test)]
mod tests;
