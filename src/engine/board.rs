//! The engine's own view of a two-player position, kept in step with a rules-core [`Game`]:
//! stones on a padded array, every point's line neighbourhoods and the shapes they make, the
//! running sums of the line windows' pattern values (from the same neighbourhoods, see
//! `windows`), a Zobrist hash, and how many stones stand near each point.
//!
//! The rules core stays the authority on what a move does (captures, self-captures, wins,
//! extra time): [`Board::apply`] plays through [`Game::apply`] and mirrors its report, so the
//! engine never has to re-implement a rule to stay correct, only to look ahead quickly.

use super::fitted::Fitted;
use super::lines::{self, CodeTable};
use super::patterns::{self, BLOCKED, CombinedTable, HALF, OWN, POW3, ShapeTable, THREATS, Threat};
use super::windows::{self, WindowTable};
use crate::rules::{Action, Captures, Game, MoveReport, PlayError, Point};

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

/// Bits per axis in a cell's reach (one per neighbourhood position).
const REACH_BITS: usize = 16;
const _: () = assert!(POW3.len() <= REACH_BITS && 4 * REACH_BITS <= 64);

/// The offset from a point to position `p` of its neighbourhood on an axis (the point
/// itself has no position: `HALF` points before it, the rest after).
fn reach_offset(p: usize) -> isize {
    if p < HALF {
        p as isize - HALF as isize
    } else {
        p as isize - HALF as isize + 1
    }
}

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

/// Row and column steps of the 4 axes, in the order of [`AXES`].
const AXIS_STEPS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

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
    placed: Option<(u16, u8)>,
    removed_from: u32,
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
    /// Stones within two points (Chebyshev) of each cell.
    pub(crate) near: Vec<u8>,
    /// One bit per cell: empty, on the board and near a stone (`near` > 0). The move
    /// generators walk these few cells, in cell order, instead of the whole board.
    frontier: [u64; CELL_WORDS],
    /// One bit per cell holding a stone (either colour), for the walks over the stones.
    stones: [u64; CELL_WORDS],
    hash: u64,
    zobrist: Zobrist,
    undo: Vec<Undo>,
    removed: Vec<(u16, u8)>,
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
            near: vec![0; CELLS],
            frontier: [0; CELL_WORDS],
            stones: [0; CELL_WORDS],
            hash: 0,
            zobrist: Zobrist::new(),
            undo: Vec::new(),
            removed: Vec::new(),
        };
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
        self.cells[i] = colour;
        self.hash ^= self.zobrist.stone[i][usize::from(colour - 1)];
        self.update_windows(i, colour, 1);
        self.update_near(i, true);
        self.stones[i / 64] |= 1 << (i % 64);
        self.update_shapes(i, colour, true);
    }

    fn clear(&mut self, i: usize) {
        let colour = self.cells[i];
        self.cells[i] = EMPTY;
        self.hash ^= self.zobrist.stone[i][usize::from(colour - 1)];
        self.update_windows(i, colour, -1);
        self.update_near(i, false);
        self.stones[i / 64] &= !(1 << (i % 64));
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

    fn update_near(&mut self, i: usize, add: bool) {
        let row = i / STRIDE;
        let col = i % STRIDE;
        for r in row.saturating_sub(2)..=(row + 2).min(STRIDE - 1) {
            for c in col.saturating_sub(2)..=(col + 2).min(STRIDE - 1) {
                let j = r * STRIDE + c;
                // At most 25 stones stand near a cell, and each leaves as it came.
                let n = if add {
                    self.near[j].wrapping_add(1)
                } else {
                    self.near[j].wrapping_sub(1)
                };
                self.near[j] = n;
                // A cell is in the frontier while it is empty with a stone near it (branch
                // free: this runs for 25 cells at every move and take-back). The cell of the
                // stone itself is among them: `put` and `clear` set it before calling here.
                let on = u64::from(self.cells[j] == EMPTY && n > 0);
                let (w, b) = (j / 64, j % 64);
                self.frontier[w] = self.frontier[w] & !(1 << b) | on << b;
            }
        }
    }

    /// Reads the neighbourhood keys of every on-board cell from the cells (a new board).
    fn init_keys(&mut self) {
        let n = STRIDE as isize;
        for k in 0..self.on_board.len() {
            let j = usize::from(self.on_board[k]);
            let (r, c) = ((j / STRIDE) as isize, (j % STRIDE) as isize);
            for (axis, &(dr, dc)) in AXIS_STEPS.iter().enumerate() {
                let mut key = [0u32; 2];
                for (p, &pow) in POW3.iter().enumerate() {
                    let o = reach_offset(p);
                    let (rr, cc) = (r + o * dr, c + o * dc);
                    let v = if rr >= 0 && rr < n && cc >= 0 && cc < n {
                        self.cells[(rr * n + cc) as usize]
                    } else {
                        WALL
                    };
                    let (a, b) = match v {
                        EMPTY => (0, 0),
                        1 => (OWN, BLOCKED),
                        2 => (BLOCKED, OWN),
                        _ => (BLOCKED, BLOCKED),
                    };
                    key[0] += (pow * a) as u32;
                    key[1] += (pow * b) as u32;
                }
                self.keys[j][0][axis] = key[0];
                self.keys[j][1][axis] = key[1];
            }
            self.refresh_shapes(j);
        }
    }

    /// Which on-board points each cell's stone reaches, from the board's shape (a new board).
    fn init_reach(&mut self) {
        let n = STRIDE as isize;
        for i in 0..CELLS {
            let (r, c) = ((i / STRIDE) as isize, (i % STRIDE) as isize);
            let mut bits = 0u64;
            for (axis, &(dr, dc)) in AXIS_STEPS.iter().enumerate() {
                for p in 0..POW3.len() {
                    let o = reach_offset(p);
                    let (rr, cc) = (r - o * dr, c - o * dc);
                    if rr < 0 || rr >= n || cc < 0 || cc >= n {
                        continue;
                    }
                    if self.cells[(rr * n + cc) as usize] != WALL {
                        bits |= 1 << (axis * REACH_BITS + p);
                    }
                }
            }
            self.reach[i] = bits;
        }
    }

    /// Sets the shapes of cell `j` from its keys (none when occupied) and its point summary.
    fn refresh_shapes(&mut self, j: usize) {
        for k in 0..2 {
            for axis in 0..4 {
                self.shapes[j][k][axis] = if self.cells[j] == EMPTY {
                    self.tables[k][self.keys[j][k][axis] as usize]
                } else {
                    0
                };
            }
        }
        self.refresh_codes(j);
        self.update_point(j);
    }

    /// Sets the line codes of cell `j` from its keys, on a board whose fit values them.
    fn refresh_codes(&mut self, j: usize) {
        if let Some(f) = self.fit.as_deref_mut()
            && let Some(tables) = f.code_tables
        {
            for (k, table) in tables.iter().enumerate() {
                f.codes[j][k] = self.keys[j][k].map(|key| table[key as usize]);
            }
        }
    }

    /// A stone of `colour` came to (`add`) or left cell `i`: updates the neighbourhood keys of
    /// the points whose lines pass within reach of it, and the shapes that changed.
    fn update_shapes(&mut self, i: usize, colour: u8, add: bool) {
        let ci = usize::from(colour - 1);
        // The on-board points within reach, one bit per (axis, offset): walking the set bits
        // skips the border and the points beyond the edge without testing each.
        let mut reach = self.reach[i];
        while reach != 0 {
            let bit = reach.trailing_zeros() as usize;
            reach &= reach - 1;
            let (axis, p) = (bit / REACH_BITS, bit % REACH_BITS);
            // `i` is at offset `p` of `j`'s neighbourhood on this axis.
            let j = i.wrapping_add_signed(-reach_offset(p) * AXES[axis]);
            let own = (POW3[p] * OWN) as u32;
            let blocked = (POW3[p] * BLOCKED) as u32;
            let key = &mut self.keys[j];
            if add {
                key[ci][axis] += own;
                key[1 - ci][axis] += blocked;
            } else {
                key[ci][axis] -= own;
                key[1 - ci][axis] -= blocked;
            }
            if self.cells[j] == EMPTY {
                let keys = [key[0][axis] as usize, key[1][axis] as usize];
                // With line codes a point's fitted value changes with its free windows too
                // (a code holds the shape, so a new shape is a new code).
                let mut coded = [false; 2];
                if let Some(f) = self.fit.as_deref_mut()
                    && let Some(tables) = f.code_tables
                {
                    for (k, &key) in keys.iter().enumerate() {
                        let code = tables[k][key];
                        if code != f.codes[j][k][axis] {
                            f.codes[j][k][axis] = code;
                            coded[k] = true;
                        }
                    }
                }
                for (k, &key) in keys.iter().enumerate() {
                    let shape = self.tables[k][key];
                    if shape != self.shapes[j][k][axis] {
                        self.shapes[j][k][axis] = shape;
                        self.update_colour_point(j, k);
                    } else if coded[k] {
                        // Same shape, so the same threat and hand-made value.
                        self.update_fit(j, k);
                    }
                }
            }
        }
        self.refresh_shapes(i);
    }

    fn update_point(&mut self, j: usize) {
        self.update_colour_point(j, 0);
        self.update_colour_point(j, 1);
    }

    /// The threat and value of cell `j` for colour index `k`, from its shapes.
    fn update_colour_point(&mut self, j: usize, k: usize) {
        let (t, v) = if self.cells[j] == EMPTY {
            self.combine[k][patterns::set_index(self.shapes[j][k])]
        } else {
            (Threat::Quiet, 0)
        };
        let old = self.threats[j][k];
        if old != t {
            self.threat_count[k][old as usize] -= 1;
            self.threat_count[k][t as usize] += 1;
            self.threats[j][k] = t;
        }
        self.shape_sum[k] += v - self.values[j][k];
        self.values[j][k] = v;
        self.update_fit(j, k);
    }

    /// The fitted values of cell `j` for colour index `k` (on a board with a fit), from its
    /// shapes and line codes.
    fn update_fit(&mut self, j: usize, k: usize) {
        if let Some(f) = self.fit.as_deref_mut() {
            let roles = if self.cells[j] == EMPTY {
                let set = patterns::set_index(self.shapes[j][k]);
                let mut roles = [f.fit.mover[set], f.fit.waiting[set]];
                if let Some(lines) = &f.fit.lines {
                    for code in f.codes[j][k] {
                        roles[0] += lines[0][usize::from(code)];
                        roles[1] += lines[1][usize::from(code)];
                    }
                }
                roles
            } else {
                [0, 0]
            };
            for (role, &v) in roles.iter().enumerate() {
                f.sums[role][k] += v - f.values[j][k][role];
            }
            f.values[j][k] = roles;
        }
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
    /// the side waiting, weighted as the fit says; `None` on a board without one.
    pub(crate) fn fitted_points(&self, sums: &Sums, me: u8) -> Option<i32> {
        let f = self.fit.as_deref()?;
        let (mover, waiting) = f.fit.weights;
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
    /// there and says so.
    pub(crate) fn use_fit(&mut self, fit: &'static Fitted) -> bool {
        if self.game.rules().is_renju() {
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
        let removed_from = self.removed.len() as u32;
        let mut placed = None;
        if let (Action::Place(p), Some(colour)) = (action, report.colour)
            && (colour == 1 || colour == 2)
        {
            let i = cell_of(p);
            self.put(i, colour);
            placed = Some((i as u16, colour));
        }
        for r in &report.removed {
            let i = cell_of(r.point);
            if self.cells[i] == 1 || self.cells[i] == 2 {
                self.removed.push((i as u16, self.cells[i]));
                self.clear(i);
            }
        }
        self.undo.push(Undo {
            placed,
            removed_from,
            before,
        });
        Ok(report)
    }

    /// Takes back the last action applied through [`Board::apply`].
    pub(crate) fn undo(&mut self) {
        let Some(u) = self.undo.pop() else {
            return;
        };
        self.game.undo();
        while self.removed.len() > u.removed_from as usize {
            if let Some((i, colour)) = self.removed.pop() {
                self.put(usize::from(i), colour);
            }
        }
        if let Some((i, _)) = u.placed {
            self.clear(usize::from(i));
        }
    }

    /// Stones a stone of `colour` at the empty cell `i` would capture (pairs, or triples too),
    /// looked up point by point: the tests' reference for `captures_both` and `capture_moves`.
    #[cfg(test)]
    pub(crate) fn captures_at(&self, i: usize, colour: u8) -> u32 {
        self.taken_by(i, colour).cells().len() as u32
    }

    /// The cells of the stones a stone of `colour` at the empty cell `i` would take, looked up
    /// direction by direction (pairs, or triples too). Kept on the stack: the threat search
    /// asks this of captures it considers, and at most three stones go in each direction.
    fn taken_by(&self, i: usize, colour: u8) -> Taken {
        let mut taken = Taken::default();
        self.runs_from(i, |owner, run, beyond| {
            if owner != colour && beyond == colour {
                taken.push(run);
            }
        });
        taken
    }

    /// Calls `f(owner, run, beyond)` for every takeable run (a pair, or a triple where
    /// triples are taken) that starts next to the empty cell `i`: the colour of its stones,
    /// their cells, and what lies just beyond it (a stone of the other colour there closes
    /// it, an empty point leaves it threatened). Nothing in games without captures.
    fn runs_from(&self, i: usize, mut f: impl FnMut(u8, &[usize], u8)) {
        if !self.takeable_len(2) {
            return;
        }
        let triples = self.takeable_len(3);
        for &d in &DIRS {
            // Each cell is read only after the one before it proved to be a stone, so every
            // index stays within the board or its one-cell border.
            let a = step(i, d);
            let owner = self.cells[a];
            if owner != 1 && owner != 2 {
                continue;
            }
            let b = step(a, d);
            if self.cells[b] != owner {
                continue;
            }
            let e = step(b, d);
            if self.cells[e] != owner {
                f(owner, &[a, b], self.cells[e]);
            } else if triples {
                f(owner, &[a, b, e], self.cells[step(e, d)]);
            }
        }
    }

    /// `Board::captures_at` for both colours at once (index 0 for colour 1): one look at the
    /// neighbours serves both, since a pair can only be taken by the other colour.
    pub(crate) fn captures_both(&self, i: usize) -> [u32; 2] {
        self.runs_next_to(i, true)
    }

    /// The stones each colour would threaten to take by playing the empty cell `i` (index 0
    /// for colour 1): the runs of the other colour's pairs (or triples, where triples are
    /// taken) that start next to `i` and end on an empty point, the capture point of the
    /// threat the stone makes. A move that makes such a threat gains a tempo in Pente.
    pub(crate) fn capture_attacks(&self, i: usize) -> [u32; 2] {
        self.runs_next_to(i, false)
    }

    /// The stones of the takeable runs (pairs, and triples where triples are taken) that start
    /// next to the empty cell `i`, credited to the colour that would take them: runs closed at
    /// the far end by that colour (`closed`: a stone at `i` takes them) or by an empty point
    /// (a stone at `i` threatens them).
    fn runs_next_to(&self, i: usize, closed: bool) -> [u32; 2] {
        let mut n = [0u32; 2];
        self.runs_from(i, |owner, run, beyond| {
            let taker = 3 - owner;
            if beyond == if closed { taker } else { EMPTY } {
                n[usize::from(taker - 1)] += run.len() as u32;
            }
        });
        n
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
        self.shapes[i][usize::from(colour - 1)].contains(&patterns::FIVE)
    }

    /// Whether `colour` playing the empty cell `i` makes a four (or an open four) on some line.
    pub(crate) fn makes_four(&self, i: usize, colour: u8) -> bool {
        self.shapes[i][usize::from(colour - 1)]
            .iter()
            .any(|&s| s == patterns::FOUR || s == patterns::OPEN_FOUR)
    }

    /// Pattern gain of `colour` playing the empty cell `i`, counting its windows still free of
    /// the other colour.
    pub(crate) fn gain_at(&self, i: usize, colour: u8) -> i32 {
        let keys = &self.keys[i][usize::from(colour - 1)];
        keys.iter()
            .map(|&k| self.window_sums.gain[k as usize])
            .sum()
    }

    /// Capture chances on the board: for each colour, the stones it could take now, summed
    /// over the runs it threatens (a run flanked by its stone on one side and an empty point
    /// on the other). No single move takes more.
    pub(crate) fn capture_threats(&self) -> [i32; 2] {
        let mut threats = [0i32; 2];
        self.threatened_runs(|taker, len, _| threats[usize::from(taker - 1)] += len as i32);
        threats
    }

    /// For each colour, its runs that can be taken (pairs, and triples where triples are
    /// taken) with both ends empty: the other colour threatens to take one by playing either
    /// end, a tempo it can gain at any time.
    pub(crate) fn open_runs(&self) -> [i32; 2] {
        let mut n = [0i32; 2];
        self.takeable_runs(|o, _, before, after| {
            if self.cells[before] == EMPTY && self.cells[after] == EMPTY {
                n[usize::from(o - 1)] += 1;
            }
        });
        n
    }

    /// Whether a stone of `colour` at the empty cell `i`, with the stones it takes gone, frees
    /// a line: some window of five points through a taken stone then holds at least `need`
    /// stones of `colour` (the one at `i` counted) and none of the other colour. Only such a
    /// capture can leave a row or a three that the shapes of `i` (read with the taken stones
    /// still down) do not show, so the threat search plays a capture to look only then.
    pub(crate) fn capture_frees_line(&self, i: usize, colour: u8, need: usize) -> bool {
        let other = 3 - colour;
        let taken = self.taken_by(i, colour);
        let taken = taken.cells();
        let at = |x: usize| {
            if x == i {
                colour
            } else if taken.contains(&x) {
                EMPTY
            } else {
                self.cells[x]
            }
        };
        for &c in taken {
            for &ax in &AXES {
                // The nine points centred on `c` along the axis; the walk stops at the wall.
                let mut line = [WALL; 9];
                line[4] = EMPTY;
                for dir in [-1isize, 1] {
                    let mut x = c;
                    for k in 1..=4isize {
                        x = step(x, ax * dir);
                        let v = at(x);
                        if v == WALL {
                            break;
                        }
                        line[(4 + dir * k) as usize] = v;
                    }
                }
                let frees = line.windows(5).any(|w| {
                    !w.iter().any(|&v| v == WALL || v == other)
                        && w.iter().filter(|&&v| v == colour).count() >= need
                });
                if frees {
                    return true;
                }
            }
        }
        false
    }

    /// The empty points where `colour` captures now, in increasing cell order, with the
    /// stones each takes: the empty ends of the runs it threatens (what
    /// `Board::captures_at` finds point by point, without looking at every point).
    pub(crate) fn capture_moves(&self, colour: u8) -> Vec<(u16, u32)> {
        let mut moves: Vec<(u16, u32)> = Vec::new();
        self.threatened_runs(|taker, len, end| {
            if taker == colour {
                moves.push((end as u16, len as u32));
            }
        });
        moves.sort_unstable();
        // One point may take runs on several lines: one entry, their stones summed.
        moves.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1 += later.1;
            }
            same
        });
        moves
    }

    /// Calls `f(taker, length, empty end)` for every run that can be taken now: a maximal run
    /// of two stones (or three, where triples are taken) with a stone of the other colour, the
    /// taker, at one end and an empty point at the other.
    fn threatened_runs(&self, mut f: impl FnMut(u8, usize, usize)) {
        self.takeable_runs(|o, len, b, a| {
            let (before, after) = (self.cells[b], self.cells[a]);
            let c = 3 - o;
            if before == c && after == EMPTY {
                f(c, len, a);
            } else if before == EMPTY && after == c {
                f(c, len, b);
            }
        });
    }

    /// Calls `f` with each empty end of the takeable runs (pairs, or triples where triples are
    /// taken) through the stone at `i` that have both ends empty, in axis order: a stone of the
    /// other colour on either end threatens to take the run, `i` with it. Nothing in games
    /// without captures. A callback rather than a list: the threat search calls this for every
    /// attacker stone near a four, and a list would be an allocation each time.
    pub(crate) fn open_run_ends(&self, i: usize, mut f: impl FnMut(usize)) {
        let o = self.cells[i];
        if !(o == 1 || o == 2) {
            return;
        }
        for &d in &AXES {
            let (back, ahead) = (self.run(i, -d, o), self.run(i, d, o));
            if self.takeable_len(1 + back + ahead) {
                let before = step(i, -d * (back as isize + 1));
                let after = step(i, d * (ahead as isize + 1));
                if self.cells[before] == EMPTY && self.cells[after] == EMPTY {
                    f(before);
                    f(after);
                }
            }
        }
    }

    /// Whether a maximal run of `len` stones can be taken by its length alone: two stones, or
    /// three where triples are taken; never in games without captures.
    fn takeable_len(&self, len: usize) -> bool {
        match self.captures {
            Captures::None => false,
            Captures::PairsAndTriples => len == 2 || len == 3,
            Captures::Pairs => len == 2,
        }
    }

    /// Calls `f(colour, length, cell before, cell after)` for every maximal run that could
    /// be taken by its length alone (two stones, or three where triples are taken), whatever
    /// stands at its ends; nothing in games without captures.
    fn takeable_runs(&self, mut f: impl FnMut(u8, usize, usize, usize)) {
        if self.captures == Captures::None {
            return;
        }
        for i in self.stone_cells() {
            let o = self.cells[i];
            for &d in &AXES {
                if self.cells[step(i, -d)] == o {
                    continue; // not the start of its run
                }
                let len = 1 + self.run(i, d, o);
                if self.takeable_len(len) {
                    f(o, len, step(i, -d), step(i, d * len as isize));
                }
            }
        }
    }
}

/// The stones one move takes: at most three in each of the eight directions.
#[derive(Default)]
struct Taken {
    cells: [usize; 24],
    len: usize,
}

impl Taken {
    fn push(&mut self, run: &[usize]) {
        self.cells[self.len..self.len + run.len()].copy_from_slice(run);
        self.len += run.len();
    }

    fn cells(&self) -> &[usize] {
        &self.cells[..self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RuleSet;

    fn game(spec: &str, moves: &str) -> Game {
        let mut g = Game::new(RuleSet::from_spec(spec).expect("spec"));
        for m in moves.split_whitespace() {
            g.apply_token(m).expect("legal move");
        }
        g
    }

    /// The pattern sums and the windows one stone short of a line, counted window by window
    /// from the stones (what the board keeps incrementally).
    fn brute_windows(b: &Board) -> ([i32; 2], [u32; 2]) {
        let values = windows::window_values(b.line);
        let short = b.line - 1;
        let (mut pattern, mut fours) = ([0i32; 2], [0u32; 2]);
        for &start in &b.on_board {
            for &d in &AXES {
                let mut n = [0u8; 2];
                let mut inside = true;
                for k in 0..isize::from(b.line) {
                    let c = step(usize::from(start), d * k);
                    match b.cells.get(c) {
                        Some(&1) => n[0] += 1,
                        Some(&2) => n[1] += 1,
                        Some(&EMPTY) => {}
                        _ => inside = false,
                    }
                }
                if !inside {
                    continue;
                }
                for k in 0..2 {
                    if n[1 - k] == 0 {
                        pattern[k] += values[usize::from(n[k]).min(5)];
                        fours[k] += u32::from(n[k] == short);
                    }
                }
            }
        }
        (pattern, fours)
    }

    #[test]
    fn apply_and_undo_restore_hash_patterns_and_stones() {
        let g = game("pente", "K10 L10 A1 M10 N10");
        let mut b = Board::new(&g);
        let (key, pattern, fours) = (b.key(), b.pattern, b.fours);
        assert_eq!(b.captured(1), 2, "N10 took the pair L10 M10");
        assert_eq!(
            b.cells[cell_of(Point::parse("L10", 19).expect("point"))],
            EMPTY
        );
        b.apply(Action::Place(Point::parse("K11", 19).expect("point")))
            .expect("legal");
        assert_ne!(b.key(), key);
        b.undo();
        assert_eq!((b.key(), b.pattern, b.fours), (key, pattern, fours));
        let fresh = Board::new(&b.game);
        assert_eq!(fresh.key(), b.key());
        assert_eq!((fresh.pattern, fresh.fours), (b.pattern, b.fours));
        assert_eq!(fresh.shapes, b.shapes);
    }

    /// Each applied action keeps the sums as they stood before it, captures included, and
    /// taking it back leaves the sums of the action before.
    #[test]
    fn the_parent_s_sums_follow_apply_and_undo() {
        let g = game("pente", "K10 L10 A1 M10");
        let mut b = Board::new(&g);
        assert_eq!(b.parent_sums(), None, "nothing applied on this board yet");
        let start = b.sums();
        assert_eq!(start.pattern, b.pattern);
        assert_eq!(start.shapes, b.shape_sum);
        assert_eq!(start.fitted, [[0; 2]; 2], "no fit, no fitted sums");
        let point = |s: &str| Point::parse(s, 19).expect("point");
        b.apply(Action::Place(point("N10"))).expect("legal");
        assert_eq!(b.captured(1), 2, "N10 took the pair L10 M10");
        let after_capture = b.sums();
        assert_ne!(after_capture, start);
        assert_eq!(b.parent_sums(), Some(start));
        b.apply(Action::Place(point("C3"))).expect("legal");
        assert_eq!(b.parent_sums(), Some(after_capture));
        b.undo();
        assert_eq!(b.sums(), after_capture);
        assert_eq!(b.parent_sums(), Some(start));
        b.undo();
        assert_eq!(b.sums(), start);
        assert_eq!(b.parent_sums(), None);
    }

    #[test]
    fn captures_and_wins_are_seen_before_playing() {
        let g = game("pente", "K10 L10 A1 M10");
        let b = Board::new(&g);
        let n10 = cell_of(Point::parse("N10", 19).expect("point"));
        assert_eq!(b.captures_at(n10, 1), 2);
        let g = game("gomoku", "H8 A1 J8 A2 K8 A3 L8 A4");
        let b = Board::new(&g);
        let m8 = cell_of(Point::parse("M8", 15).expect("point"));
        assert!(b.wins_at(m8, 1));
        assert!(!b.wins_at(m8, 2));
        assert_eq!(b.fours[0], 2, "G8 and M8 both complete five");
        let g = game("gomoku-standard", "H8 A1 J8 A2 K8 A3 L8 A4 N8 A6");
        let b = Board::new(&g);
        assert!(
            !b.wins_at(m8, 1),
            "six in a row does not win in standard gomoku"
        );
    }

    #[test]
    fn capture_attacks_and_open_runs_read_the_pairs() {
        let at = |name: &str| cell_of(Point::parse(name, 19).expect("point"));
        // White's pair L12 M12 is open at both ends (K12, N12).
        let g = game("pente", "K10 L12 A1 M12");
        let b = Board::new(&g);
        assert_eq!(b.capture_attacks(at("K12")), [2, 0]);
        assert_eq!(b.capture_attacks(at("N12")), [2, 0]);
        assert_eq!(b.capture_attacks(at("O12")), [0, 0], "not next to the pair");
        assert_eq!(b.capture_attacks(at("A2")), [0, 0], "a single stone");
        assert_eq!(b.open_runs(), [0, 1]);
        // Black's K10 closes the pair L10 M10: N10 takes it, no attack, no open run.
        let g = game("pente", "K10 L10 A1 M10");
        let b = Board::new(&g);
        assert_eq!(b.capture_attacks(at("N10")), [0, 0]);
        assert_eq!(b.open_runs(), [0, 0]);
        // A white triple is no pair in Pente, but Keryo takes it.
        let g = game("pente", "K10 L12 A1 M12 A5 N12");
        assert_eq!(Board::new(&g).capture_attacks(at("K12")), [0, 0]);
        assert_eq!(Board::new(&g).open_runs(), [0, 0]);
        let g = game("keryo", "K10 L12 A1 M12 A5 N12");
        assert_eq!(Board::new(&g).capture_attacks(at("K12")), [3, 0]);
        assert_eq!(Board::new(&g).open_runs(), [0, 1]);
        // No captures in Gomoku.
        let g = game("gomoku", "A1 H8 A3 J8");
        let g8 = cell_of(Point::parse("G8", 15).expect("point"));
        assert_eq!(Board::new(&g).capture_attacks(g8), [0, 0]);
        assert_eq!(Board::new(&g).open_runs(), [0, 0]);
    }

    #[test]
    fn point_threats_follow_the_shapes() {
        let at = |name: &str, size: u8| cell_of(Point::parse(name, size).expect("point"));
        // Black: H8 J8 K8 (an open three on row 8) and L9 L10 on column L.
        let g = game("gomoku", "H8 A1 J8 A3 K8 A5 L9 A7 L10 A9");
        let b = Board::new(&g);
        assert_eq!(b.threat_at(at("G8", 15), 1), Threat::OpenFour);
        assert_eq!(b.threat_at(at("F8", 15), 1), Threat::Four);
        assert_eq!(b.threat_at(at("L11", 15), 1), Threat::Three);
        let g = game("gomoku", "H8 A1 J8 A3 K10 A5 K11 A7");
        assert_eq!(
            Board::new(&g).threat_at(at("K8", 15), 1),
            Threat::DoubleThree
        );
        assert_eq!(b.threat_at(at("A2", 15), 2), Threat::Four);
        assert_eq!(b.threat_at(at("H8", 15), 1), Threat::Quiet, "occupied");
        assert_eq!(b.threats_at_least(1, Threat::OpenFour), 2, "G8 and L8");
        // Renju: black's six is no five, white's is.
        let g = game("renju opening=none", "A1 H8 C1 J8 D1 K8 E1 L8 F1 N8 O15 O8");
        let b = Board::new(&g);
        assert_eq!(
            b.threat_at(at("B1", 15), 1),
            Threat::Quiet,
            "B1 would make six"
        );
        assert_eq!(
            b.threat_at(at("M8", 15), 2),
            Threat::Five,
            "white's overline wins"
        );
        assert!(!b.makes_line(at("B1", 15), 1));
        assert!(b.makes_line(at("M8", 15), 2));
    }

    /// Plays the legal action each choice picks, taking one back after every `undo_every`-th.
    fn play_and_take_back(b: &mut Board, choices: &[u16], undo_every: usize) {
        for (k, &c) in choices.iter().enumerate() {
            let legal = b.game.legal_actions();
            if legal.is_empty() {
                break;
            }
            b.apply(legal[usize::from(c) % legal.len()]).expect("legal");
            if k % undo_every == 0 {
                b.undo();
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..Default::default() })]

        /// Whatever is played and taken back, the incremental tables equal a fresh build.
        #[test]
        fn incremental_tables_match_a_fresh_board(
            spec in proptest::sample::select(&["gomoku", "pente", "keryo self_capture=capture", "gomoku size=9 line=4", "pente extra_time_capture=on", "renju opening=none", "gomoku-standard"][..]),
            choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..80),
            undo_every in 2usize..6,
        ) {
            let rules = RuleSet::from_spec(spec).expect("spec");
            let mut b = Board::new(&Game::new(rules));
            play_and_take_back(&mut b, &choices, undo_every);
            let fresh = Board::new(&b.game);
            proptest::prop_assert_eq!(fresh.key(), b.key());
            proptest::prop_assert_eq!(fresh.pattern, b.pattern);
            proptest::prop_assert_eq!(fresh.fours, b.fours);
            proptest::prop_assert_eq!(brute_windows(&b), (b.pattern, b.fours));
            proptest::prop_assert_eq!(&fresh.near, &b.near);
            let walked: Vec<usize> = b.frontier().collect();
            let scanned: Vec<usize> = b
                .on_board
                .iter()
                .map(|&i| usize::from(i))
                .filter(|&i| b.cells[i] == EMPTY && b.near[i] > 0)
                .collect();
            proptest::prop_assert_eq!(walked, scanned);
            proptest::prop_assert_eq!(fresh.frontier, b.frontier);
            proptest::prop_assert_eq!(fresh.stones, b.stones);
            let stones: Vec<usize> = b.on_board.iter().map(|&i| usize::from(i)).filter(|&i| b.cells[i] == 1 || b.cells[i] == 2).collect();
            proptest::prop_assert_eq!(b.stone_cells().collect::<Vec<_>>(), stones);
            for &i in &b.on_board {
                let i = usize::from(i);
                if b.cells[i] == EMPTY {
                    proptest::prop_assert_eq!(b.captures_both(i), [b.captures_at(i, 1), b.captures_at(i, 2)]);
                }
            }
            for colour in 1..=2u8 {
                let scanned: Vec<(u16, u32)> = b
                    .on_board
                    .iter()
                    .map(|&i| (i, b.captures_at(usize::from(i), colour)))
                    .filter(|&(i, n)| b.cells[usize::from(i)] == EMPTY && n > 0)
                    .collect();
                proptest::prop_assert_eq!(b.capture_moves(colour), scanned);
            }
            proptest::prop_assert_eq!(&fresh.keys, &b.keys);
            proptest::prop_assert_eq!(&fresh.shapes, &b.shapes);
            proptest::prop_assert_eq!(&fresh.threats, &b.threats);
            proptest::prop_assert_eq!(&fresh.values, &b.values);
            proptest::prop_assert_eq!(fresh.shape_sum, b.shape_sum);
            proptest::prop_assert_eq!(fresh.threat_count, b.threat_count);
            proptest::prop_assert_eq!(&fresh.cells[..], &b.cells[..]);
        }
    }

    /// A fit whose values differ from the hand-made ones and from each other everywhere.
    fn odd_fit() -> &'static Fitted {
        static T: std::sync::OnceLock<Fitted> = std::sync::OnceLock::new();
        T.get_or_init(|| Fitted {
            mover: patterns::combined_table(false)
                .iter()
                .enumerate()
                .map(|(k, &(_, v))| 3 * v + (k % 7) as i32)
                .collect(),
            waiting: (0..4096).map(|k: i32| k % 13 - 4).collect(),
            weights: (32, 20),
            masks: Some((0..1024).map(|k: i32| k % 11 * 5).collect()),
            lines: Some([
                (0..48).map(|c: i32| c % 5 * 3 - 4).collect(),
                (0..48).map(|c: i32| 7 - c % 9).collect(),
            ]),
        })
    }

    /// The fitted sums computed from scratch: each empty point's values by role.
    fn fitted_sums(b: &Board, fit: &Fitted) -> [[i32; 2]; 2] {
        let mut sums = [[0; 2]; 2];
        for &i in &b.on_board {
            let i = usize::from(i);
            if b.cells[i] != EMPTY {
                continue;
            }
            for (k, colour) in [1u8, 2].into_iter().enumerate() {
                let set = patterns::set_index(b.shapes_at(i, colour));
                sums[0][k] += fit.mover[set];
                sums[1][k] += fit.waiting[set];
                if let Some(lines) = &fit.lines {
                    for code in b.codes_at(i, colour) {
                        sums[0][k] += lines[0][usize::from(code)];
                        sums[1][k] += lines[1][usize::from(code)];
                    }
                }
            }
        }
        sums
    }

    #[test]
    fn the_threat_mask_says_which_threats_each_side_has() {
        let mut g = Game::new(RuleSet::from_spec("gomoku").expect("spec"));
        for m in ["H8", "A1", "J8", "A15", "K8"] {
            g.apply_token(m).expect("legal");
        }
        // Black's open three: G8 or L8 makes an open four, F8 or M8 a four.
        let b = Board::new(&g);
        let open_four = 1 << (Threat::OpenFour as usize - 1);
        let four = 1 << (Threat::Four as usize - 1);
        let black = b.threat_mask(1);
        assert_eq!(black & 31 & (open_four | four), open_four | four);
        assert_eq!(black >> 5, 0, "white's two corner stones threaten nothing");
        assert_eq!(b.threat_mask(2), (black & 31) << 5);
        assert_eq!(
            Board::new(&Game::new(g.rules().to_owned())).threat_mask(1),
            0
        );
    }

    #[test]
    fn a_fit_changes_the_evaluation_not_the_ordering_s_values_and_not_renju() {
        let mut g = Game::new(RuleSet::from_spec("gomoku").expect("spec"));
        for m in ["H8", "J9", "H9"] {
            g.apply_token(m).expect("legal");
        }
        let hand = Board::new(&g);
        let mut fit = Board::new(&g);
        // The shapes' part of the evaluation for `me`: the points by their roles' values and
        // the situation's value.
        let shapes =
            |b: &Board, me: u8| b.fitted_points(&b.sums(), me).map(|p| p + b.situation(me));
        assert_eq!(shapes(&hand, 1), None);
        assert_eq!(hand.situation(1), 0);
        assert!(fit.use_fit(odd_fit()));
        let sums = fitted_sums(&fit, odd_fit());
        assert_ne!(sums[0], hand.shape_sum);
        let mask = |me: u8| odd_fit().masks.as_ref().expect("masks")[fit.threat_mask(me)];
        assert_eq!(
            shapes(&fit, 1),
            Some((sums[0][0] * 32 - sums[1][1] * 20) / 256 + mask(1))
        );
        assert_eq!(
            shapes(&fit, 2),
            Some((sums[0][1] * 32 - sums[1][0] * 20) / 256 + mask(2))
        );
        assert_eq!(fit.shape_sum, hand.shape_sum);
        for &i in &hand.on_board {
            let i = usize::from(i);
            assert_eq!(fit.value_at(i, 1), hand.value_at(i, 1));
            assert_eq!(fit.threat_at(i, 2), hand.threat_at(i, 2));
        }
        let mut renju = Board::new(&Game::new(
            RuleSet::from_spec("renju opening=none").expect("spec"),
        ));
        assert!(!renju.use_fit(odd_fit()));
        assert_eq!(shapes(&renju, 1), None);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

        /// With a fit, whatever is played and taken back, its sums equal those computed
        /// from scratch, and the hand-made ones a fresh board's.
        #[test]
        fn fitted_sums_stay_incremental(
            spec in proptest::sample::select(&["gomoku", "pente", "gomoku-standard"][..]),
            choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..60),
            undo_every in 2usize..6,
        ) {
            let rules = RuleSet::from_spec(spec).expect("spec");
            let mut b = Board::new(&Game::new(rules));
            b.use_fit(odd_fit());
            play_and_take_back(&mut b, &choices, undo_every);
            let fresh = Board::new(&b.game);
            let f = b.fit.as_deref().expect("a fit");
            proptest::prop_assert_eq!(f.sums, fitted_sums(&b, odd_fit()));
            proptest::prop_assert_eq!(&fresh.values, &b.values);
            proptest::prop_assert_eq!(fresh.shape_sum, b.shape_sum);
            proptest::prop_assert_eq!(fresh.threat_count, b.threat_count);
        }
    }
}
