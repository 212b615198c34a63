//! Captures as the engine sees them (Pente, Keryo): which stones a move would take, the
//! pairs under threat, and the runs a capture would break or free. Nothing in games without
//! captures.

use super::*;

impl Board {
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
