//! Each point's neighbourhood keys on its four lines, and what they make: the shape one more
//! stone there makes on each line, the threat of the four together, its hand-made value and,
//! with a fit, its fitted values. A stone placed or removed updates the keys of the points
//! within reach of it and whatever of these changed.

use std::sync::OnceLock;

use super::{AXES, Board, CELLS, EMPTY, STRIDE, WALL};
use crate::engine::fitted::SetRecord;
use crate::engine::patterns::{self, BLOCKED, HALF, LINE_KINDS, OWN, POW3, Threat};
use crate::engine::{lines, windows};

/// Bits per axis in a cell's reach (one per neighbourhood position).
const REACH_BITS: usize = 16;
const _: () = assert!(POW3.len() <= REACH_BITS && 4 * REACH_BITS <= 64);

/// The offset from a point to position `p` of its neighbourhood on an axis (the point
/// itself has no position: `HALF` points before it, the rest after).
const fn reach_offset(p: usize) -> isize {
    if p < HALF {
        p as isize - HALF as isize
    } else {
        p as isize - HALF as isize + 1
    }
}

/// What a stone at position `p` of a point's neighbourhood on one axis is to that point.
#[derive(Clone, Copy)]
struct Reached {
    /// The step from the stone's cell to the point.
    step: isize,
    axis: usize,
    /// What the stone adds to the point's key for its own colour, and for the other colour.
    own: u32,
    blocked: u32,
}

/// [`Reached`] by reach bit (`axis * REACH_BITS + p`): read once instead of worked out at each
/// of the forty-odd points a stone reaches, when it is placed and when it is taken back.
const REACH: [Reached; 64] = {
    let mut reach = [Reached {
        step: 0,
        axis: 0,
        own: 0,
        blocked: 0,
    }; 64];
    let mut axis = 0;
    while axis < 4 {
        let mut p = 0;
        while p < POW3.len() {
            reach[axis * REACH_BITS + p] = Reached {
                step: -reach_offset(p) * AXES[axis],
                axis,
                own: (POW3[p] * OWN) as u32,
                blocked: (POW3[p] * BLOCKED) as u32,
            };
            p += 1;
        }
        axis += 1;
    }
    reach
};

/// The reach bits of the two ends of every axis's neighbourhood (positions 0 and 9, five
/// points away).
const ENDS: u64 = {
    let mut bits = 0u64;
    let mut axis = 0;
    while axis < 4 {
        bits |= 1 << (axis * REACH_BITS) | 1 << (axis * REACH_BITS + POW3.len() - 1);
        axis += 1;
    }
    bits
};

/// Whether a table by neighbourhood key gives the same entry whatever stands at the two ends
/// of the neighbourhood (five points away): true of every table of lines where an overline
/// wins, whose rows of five through a point reach four points each way.
fn ignores_ends<T: PartialEq>(table: &[T]) -> bool {
    let last = POW3[POW3.len() - 1];
    (0..table.len()).all(|key| {
        let inner = key % last - key % POW3[1];
        table.get(inner) == table.get(key)
    })
}

/// Whether every table a board of lines of `line` stones reads through its keys, for a
/// colour whose longer rows do not win (`exact`) or do, ignores the neighbourhood's ends;
/// worked out once per kind of line.
pub(super) fn ends_ignored(line: u8, exact: bool) -> bool {
    static KINDS: [OnceLock<bool>; LINE_KINDS] = [const { OnceLock::new() }; LINE_KINDS];
    let (kind, _) = patterns::line_kind(line, exact);
    *KINDS[kind].get_or_init(|| {
        let windows = windows::window_table(line);
        ignores_ends(&patterns::shape_table(line, exact)[..])
            && ignores_ends(&lines::code_table(line, exact)[..])
            && ignores_ends(&windows.sums)
            && ignores_ends(&windows.gain)
    })
}

/// Row and column steps of the 4 axes, in the order of [`AXES`].
const AXIS_STEPS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

impl Board {
    /// Reads the neighbourhood keys of every on-board cell from the cells (a new board).
    pub(super) fn init_keys(&mut self) {
        let n = STRIDE as isize;
        for k in 0..self.on_board.len() {
            let j = usize::from(self.on_board[k]);
            let (r, c) = ((j / STRIDE) as isize, (j % STRIDE) as isize);
            for (axis, &(dr, dc)) in AXIS_STEPS.iter().enumerate() {
                let mut key = [0u32; 2];
                for (p, &pow) in POW3.iter().enumerate() {
                    if self.ends_free && (p == 0 || p == POW3.len() - 1) {
                        continue;
                    }
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
    pub(super) fn init_reach(&mut self) {
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
            // The ends are left out where no table reads them: a fifth fewer points to
            // update at every stone.
            self.reach[i] = if self.ends_free { bits & !ENDS } else { bits };
        }
    }

    /// Sets the shapes of cell `j` from its keys (none when occupied) and its point summary.
    pub(super) fn refresh_shapes(&mut self, j: usize) {
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
    pub(super) fn refresh_codes(&mut self, j: usize) {
        if let Some(f) = self.fit.as_deref_mut()
            && let Some(tables) = f.code_tables
        {
            for (k, table) in tables.iter().enumerate() {
                f.codes[j][k] = self.keys[j][k].map(|key| table[key as usize]);
            }
        }
    }

    /// A stone of `colour` came to (`add`) or left cell `i`: the neighbourhood keys of the points
    /// within reach of it, alone (what they change is `update_shapes`'s, or the journal's).
    pub(super) fn shift_keys(&mut self, i: usize, colour: u8, add: bool) {
        let ci = usize::from(colour - 1);
        let mut reach = self.reach[i];
        while reach != 0 {
            let bit = reach.trailing_zeros() as usize;
            reach &= reach - 1;
            // The point `step` away holds `i` in its neighbourhood on this axis.
            let Reached {
                step,
                axis,
                own,
                blocked,
            } = REACH[bit];
            let key = &mut self.keys[i.wrapping_add_signed(step)];
            if add {
                key[ci][axis] += own;
                key[1 - ci][axis] += blocked;
            } else {
                key[ci][axis] -= own;
                key[1 - ci][axis] -= blocked;
            }
        }
    }

    /// A stone of `colour` came to (`add`) or left cell `i`: updates the neighbourhood keys of
    /// the points whose lines pass within reach of it, and the shapes that changed.
    pub(super) fn update_shapes(&mut self, i: usize, colour: u8, add: bool) {
        // The on-board points within reach, one bit per (axis, offset): walking the set bits
        // skips the border and the points beyond the edge without testing each.
        let mut reach = self.reach[i];
        self.shift_keys(i, colour, add);
        while reach != 0 {
            let bit = reach.trailing_zeros() as usize;
            reach &= reach - 1;
            let Reached { step, axis, .. } = REACH[bit];
            let j = i.wrapping_add_signed(step);
            if self.cells[j] == EMPTY {
                let key = &self.keys[j];
                let keys = [key[0][axis] as usize, key[1][axis] as usize];
                // With line codes a point's fitted value changes with its free windows too.
                // A code holds the shape, so one lookup tells both: an unchanged code is an
                // unchanged shape, and the shape of a new one is read from the code instead of
                // from a second table (this loop runs for some 40 points at every move).
                if let Some(tables) = self.fit.as_deref().and_then(|f| f.code_tables) {
                    for (k, &key) in keys.iter().enumerate() {
                        let code = tables[k][key];
                        self.recode(j, k, axis, code);
                    }
                    continue;
                }
                for (k, &key) in keys.iter().enumerate() {
                    let shape = self.tables[k][key];
                    if shape != self.shapes[j][k][axis] {
                        self.save(j, k);
                        self.shapes[j][k][axis] = shape;
                        self.update_colour_point(j, k);
                    }
                }
            }
        }
        self.save(i, 0);
        self.save(i, 1);
        self.refresh_shapes(i);
    }

    /// The empty cell `j`'s line code for colour index `k` on `axis` is now `code` (on a board
    /// whose fit values line codes): updates its shape, its threat and hand-made value when
    /// the shape changed, and its fitted values by the difference alone. The fitted value is
    /// a sum of table entries (the shape set's, one per axis code), so adding what changed
    /// gives exactly what summing them afresh would, for a fraction of the reads: this runs
    /// for most of the 40 points within reach of every stone placed or taken back.
    fn recode(&mut self, j: usize, k: usize, axis: usize, code: u8) {
        let Some(old) = self.fit.as_deref().map(|f| f.codes[j][k][axis]) else {
            return;
        };
        if code == old {
            return;
        }
        self.save(j, k);
        let Some(f) = self.fit.as_deref_mut() else {
            return;
        };
        f.codes[j][k][axis] = code;
        let fit = f.fit;
        let mut delta = fit.lines.as_ref().map_or([0, 0], |lines| {
            [0, 1].map(|role| lines[role][usize::from(code)] - lines[role][usize::from(old)])
        });
        let shape = lines::shape_of(code);
        if shape != self.shapes[j][k][axis] {
            let before = patterns::set_index(self.shapes[j][k]);
            self.shapes[j][k][axis] = shape;
            let after = patterns::set_index(self.shapes[j][k]);
            delta[0] += fit.mover[after] - fit.mover[before];
            delta[1] += fit.waiting[after] - fit.waiting[before];
            self.update_hand(j, k, Some(after));
        }
        if let Some(f) = self.fit.as_deref_mut() {
            for (role, d) in delta.into_iter().enumerate() {
                f.values[j][k][role] += d;
                f.sums[role][k] += d;
            }
        }
    }

    pub(super) fn update_point(&mut self, j: usize) {
        self.update_colour_point(j, 0);
        self.update_colour_point(j, 1);
    }

    /// The threat and values of cell `j` for colour index `k`, from its shapes (and codes).
    #[inline]
    fn update_colour_point(&mut self, j: usize, k: usize) {
        let set = (self.cells[j] == EMPTY).then(|| patterns::set_index(self.shapes[j][k]));
        if let Some(f) = self.fit.as_deref_mut()
            && f.code_tables.is_none()
        {
            // A fit without line codes: the threat and every value from one record.
            let r = set.map_or(SetRecord::EMPTY, |set| f.records[set]);
            f.set_values(j, k, r.roles);
            self.set_hand(j, k, r.threat, r.hand);
            return;
        }
        self.update_hand(j, k, set);
        self.update_fit(j, k, set);
    }

    /// The threat and hand-made value of cell `j` for colour index `k`, from the set index of
    /// its shapes (`None` when occupied).
    // Always: the compiler's choice varied with unrelated edits, and a call here cost up
    // to a twentieth of all the search's instructions (valgrind's count).
    #[inline(always)]
    fn update_hand(&mut self, j: usize, k: usize, set: Option<usize>) {
        let (t, v) = set.map_or((Threat::Quiet, 0), |set| self.combine[k][set]);
        self.set_hand(j, k, t, v);
    }

    /// Cell `j`'s threat and hand-made value for colour index `k` are now `t` and `v`.
    #[inline(always)]
    fn set_hand(&mut self, j: usize, k: usize, t: Threat, v: i32) {
        let old = self.threats[j][k];
        if old != t {
            self.threat_count[k][old as usize] -= 1;
            self.threat_count[k][t as usize] += 1;
            self.threats[j][k] = t;
        }
        self.shape_sum[k] += v - self.values[j][k];
        self.values[j][k] = v;
    }

    /// The fitted values of cell `j` for colour index `k` (on a board with a fit), from the set
    /// index of its shapes (`None` when occupied) and its line codes.
    // Always: the compiler's choice varied with unrelated edits, and a call here cost up
    // to a twentieth of all the search's instructions (valgrind's count).
    #[inline(always)]
    fn update_fit(&mut self, j: usize, k: usize, set: Option<usize>) {
        if let Some(f) = self.fit.as_deref_mut() {
            let roles = if let Some(set) = set {
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
            f.set_values(j, k, roles);
        }
    }
}

impl super::FitSums {
    /// Cell `j`'s fitted values for colour index `k` are now `roles` (as the side to move and
    /// as the side waiting): the sums follow.
    #[inline(always)]
    fn set_values(&mut self, j: usize, k: usize, roles: [i32; 2]) {
        for (role, &v) in roles.iter().enumerate() {
            self.sums[role][k] += v - self.values[j][k][role];
        }
        self.values[j][k] = roles;
    }
}
