//! The search engine for two-player rule sets: tactics first (wins in one, forced blocks,
//! continuous fours), then iterative-deepening principal-variation search with a
//! transposition table over candidate moves near the stones.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::board::{Board, EMPTY};
use super::tt::{Bound, Entry, Table};
use super::{Level, Player};
use crate::rules::{Action, Game, Phase, Point, Status};

/// The score of a won position (less the plies it takes).
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses found by search.
const WIN_MIN: i32 = WIN - 10_000;
const INF: i32 = WIN + 1;
/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 128;
/// Forced replies (blocks) searched past the nominal depth on one line.
const EXTENSIONS: i32 = 6;

/// How a level plays: search depth, width, tactics, and the mistakes it makes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Style {
    /// Deepest iteration of the main search, in plies.
    pub max_depth: i32,
    /// Candidates kept at inner nodes (the root keeps twice as many).
    pub width: usize,
    /// Attacker moves the continuous-four (VCF) search looks ahead; 0 turns it off.
    pub vcf_depth: i32,
    /// The root picks at random among moves scoring within this much of the best.
    pub noise: i32,
    /// Chance (0..1) of answering from the move ordering alone, missing threats beyond one move.
    pub blunder: f64,
    /// Best root moves checked for an opponent's continuous-four reply (0: no check).
    pub safety: usize,
}

impl Style {
    /// The style of a level.
    pub fn for_level(level: Level) -> Style {
        match level.get() {
            1 => Style {
                max_depth: 2,
                width: 8,
                vcf_depth: 0,
                noise: 150,
                blunder: 0.35,
                safety: 0,
            },
            2 => Style {
                max_depth: 3,
                width: 10,
                vcf_depth: 3,
                noise: 40,
                blunder: 0.12,
                safety: 0,
            },
            3 => Style {
                max_depth: 5,
                width: 12,
                vcf_depth: 8,
                noise: 8,
                blunder: 0.0,
                safety: 3,
            },
            4 => Style {
                max_depth: 8,
                width: 12,
                vcf_depth: 10,
                noise: 0,
                blunder: 0.0,
                safety: 6,
            },
            _ => Style {
                max_depth: 64,
                width: 12,
                vcf_depth: 16,
                noise: 0,
                blunder: 0.0,
                safety: 10,
            },
        }
    }
}

/// How long one search may run: a time budget and, for reproducible tests, a node cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Wall-clock budget for the whole decision.
    pub time: Duration,
    /// Most nodes to visit (`u64::MAX` for no cap).
    pub nodes: u64,
}

impl Limits {
    /// A time budget alone.
    pub fn time(time: Duration) -> Limits {
        Limits {
            time,
            nodes: u64::MAX,
        }
    }
}

/// How the last decision was found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Source {
    /// Nothing decided yet.
    #[default]
    None,
    /// The only sensible action (one legal move, or a win in one).
    Forced,
    /// A continuous-four win found by the VCF search.
    Vcf,
    /// The main search.
    Search,
    /// A deliberate beginner's mistake (levels 1-2).
    Blunder,
    /// Opening placement or a colour choice (swap, swap2).
    Opening,
}

/// What the last search did, for the arena and benchmarks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// Nodes visited (main search, quiescence and VCF).
    pub nodes: u64,
    /// Deepest completed iteration.
    pub depth: i32,
    /// Score of the chosen move for the side to act (see [`WIN`]).
    pub score: i32,
    /// Time taken.
    pub elapsed: Duration,
    /// How the move was found.
    pub source: Source,
}

/// Tactical facts about the side to move, found while generating candidates.
#[derive(Default)]
struct Tactics {
    my_wins: Vec<u16>,
    opp_wins: Vec<u16>,
    my_captures: Vec<u16>,
}

#[derive(Clone, Copy)]
struct Cand {
    cell: u16,
    score: i32,
}

/// The search engine: one per seat, single-threaded; keeps its table between moves.
pub struct Engine {
    level: Level,
    style: Style,
    rng: StdRng,
    tt: Table,
    info: SearchInfo,
}

impl Engine {
    /// The engine at a level, seeded from the operating system.
    pub fn new(level: Level) -> Engine {
        Engine::seeded(level, StdRng::from_os_rng().random())
    }

    /// The engine at a level with a fixed seed: same inputs, same choices (under node limits).
    pub fn seeded(level: Level, seed: u64) -> Engine {
        Engine::with_style(level, Style::for_level(level), seed)
    }

    /// An engine with a style of its own (tests, tuning).
    pub fn with_style(level: Level, style: Style, seed: u64) -> Engine {
        Engine {
            level,
            style,
            rng: StdRng::seed_from_u64(seed),
            tt: Table::new(18),
            info: SearchInfo::default(),
        }
    }

    /// The level it plays at.
    pub fn level(&self) -> Level {
        self.level
    }

    /// What the last decision cost and how it was found.
    pub fn last_info(&self) -> SearchInfo {
        self.info
    }

    /// Chooses an action within `limits`; `None` only when the game is over (or has no seat
    /// a two-player engine can play).
    pub fn choose_with(&mut self, game: &Game, limits: Limits) -> Option<Action> {
        let start = Instant::now();
        if game.is_over() {
            return None;
        }
        if game.rules().players != 2 {
            // The search knows two colours only; a seat of a larger game gets the simple
            // player's move.
            return super::SimplePlayer::new().choose(game, limits.time);
        }
        let mut search = Search {
            b: Board::new(game),
            tt: &mut self.tt,
            style: self.style,
            nodes: 0,
            node_limit: limits.nodes,
            deadline: start + limits.time.mul_f64(0.85),
            stopped: false,
            vcf_failed: HashMap::new(),
        };
        let (action, score, depth, source) = match game.phase() {
            Phase::Playing => {
                let r = search.root(&mut self.rng, start, limits.time);
                (r.0.map(Action::Place), r.1, r.2, r.3)
            }
            Phase::Placing { .. } => (
                search.place_opening_stone(&mut self.rng).map(Action::Place),
                0,
                0,
                Source::Opening,
            ),
            Phase::Choosing { may_place, .. } => {
                let (a, s) = search.choose_colour(may_place, &mut self.rng, start, limits.time);
                (Some(a), s, 0, Source::Opening)
            }
            // Renju's tournament openings (src/engine/openings.rs).
            _ => {
                let seed = self.rng.random();
                let a = super::openings::decide_by_search(game, self.level, limits, seed);
                (a, 0, 0, Source::Opening)
            }
        };
        let nodes = search.nodes;
        // A last guard: whatever the search decided, only a legal action leaves the engine.
        let action = action
            .filter(|&a| game.is_legal(a))
            .or_else(|| game.legal_actions().into_iter().next());
        self.info = SearchInfo {
            nodes,
            depth,
            score,
            elapsed: start.elapsed(),
            source,
        };
        action
    }
}

impl Engine {
    /// Every first move of a continuous-four (VCF) win for the side to move, searching up to
    /// this level's VCF depth (at least 8 attacker moves), shortest wins first.
    ///
    /// Empty when there is none within `limits`, or when the game is not in normal play.
    pub fn vcf_wins(&mut self, game: &Game, limits: Limits) -> Vec<Action> {
        let start = Instant::now();
        if game.is_over() || game.phase() != Phase::Playing || game.rules().players != 2 {
            return Vec::new();
        }
        let mut search = Search {
            b: Board::new(game),
            tt: &mut self.tt,
            style: self.style,
            nodes: 0,
            node_limit: limits.nodes,
            deadline: start + limits.time,
            stopped: false,
            vcf_failed: HashMap::new(),
        };
        let me = search.b.to_move();
        let mut wins: Vec<(i32, Action)> = Vec::new();
        if !search.win_cells(3 - me).is_empty() {
            return Vec::new();
        }
        let max = self.style.vcf_depth.max(8);
        for m in search.four_makers(me) {
            let Some(p) = search.b.point(usize::from(m.cell)) else {
                continue;
            };
            if search.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let mut found = None;
            for depth in 1..=max {
                if search.vcf_defend(me, depth) {
                    found = Some(depth);
                    break;
                }
                if search.stopped {
                    break;
                }
            }
            search.b.undo();
            if let Some(d) = found {
                wins.push((d, Action::Place(p)));
            }
            if search.stopped {
                break;
            }
        }
        self.info = SearchInfo {
            nodes: search.nodes,
            elapsed: start.elapsed(),
            source: Source::Vcf,
            ..SearchInfo::default()
        };
        wins.sort_by_key(|w| w.0);
        wins.into_iter().map(|w| w.1).collect()
    }
}

impl Player for Engine {
    fn choose(&mut self, game: &Game, budget: Duration) -> Option<Action> {
        self.choose_with(game, Limits::time(budget))
    }

    fn reset(&mut self) {
        self.tt.clear();
    }
}

/// One decision's search state.
struct Search<'a> {
    b: Board,
    tt: &'a mut Table,
    style: Style,
    nodes: u64,
    node_limit: u64,
    deadline: Instant,
    stopped: bool,
    /// Positions (attacker to move) where the VCF search failed, with the depth it tried.
    vcf_failed: HashMap<u64, i32>,
}

fn capture_value(n: u16, goal: u16) -> i32 {
    let n = i64::from(n);
    let mut v = 40 * n;
    if goal > 0 {
        // In i64: with a goal of 100 stones the cube alone passes i32.
        let g = i64::from(goal);
        let k = n.min(g);
        v += 4000 * k * k * k / (g * g * g);
    }
    i32::try_from(v).unwrap_or(i32::MAX)
}

impl Search<'_> {
    fn tick(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY)
            && (Instant::now() >= self.deadline || self.nodes >= self.node_limit)
        {
            self.stopped = true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
        }
        self.stopped
    }

    /// Whether placing on cell `i` needs the rules core's full check (opening rule, forbidden
    /// self-capture); otherwise every empty point is legal in play.
    fn needs_check(&self) -> bool {
        self.b.game.stones_placed() <= 2
            || self.b.game.rules().self_capture == crate::rules::SelfCapture::Forbidden
    }

    fn legal_cell(&self, i: usize, check: bool) -> bool {
        self.b.cells[i] == EMPTY
            && (!check
                || self
                    .b
                    .point(i)
                    .is_some_and(|p| self.b.game.is_legal(Action::Place(p))))
    }

    /// Candidate moves near the stones, scored for ordering, and the tactical facts.
    fn generate(&self, me: u8) -> (Vec<Cand>, Tactics) {
        let opp = 3 - me;
        let check = self.needs_check();
        let b = &self.b;
        let mut cands = Vec::with_capacity(64);
        let mut tac = Tactics::default();
        let capturing = b.captures != crate::rules::Captures::None;
        let (cap_me, cap_opp) = (b.captured(me), b.captured(opp));
        let goal = b.capture_win;
        for &i in &b.on_board {
            let i = usize::from(i);
            if b.cells[i] != EMPTY || b.near[i] == 0 {
                continue;
            }
            if !self.legal_cell(i, check) {
                continue;
            }
            let mut score = b.gain_at(i, me) * 10 + b.gain_at(i, opp) * 8;
            if b.line_threat_at(i, me) && b.makes_line(i, me) {
                tac.my_wins.push(i as u16);
                score += 10 * WIN_MIN;
            }
            if b.line_threat_at(i, opp) && b.makes_line(i, opp) {
                tac.opp_wins.push(i as u16);
                score += 5 * WIN_MIN;
            }
            if capturing {
                let cm = b.captures_at(i, me);
                if cm > 0 {
                    tac.my_captures.push(i as u16);
                    let gain =
                        capture_value(cap_me + cm as u16, goal) - capture_value(cap_me, goal);
                    score += gain * 12;
                    if goal > 0 && u32::from(cap_me) + cm >= u32::from(goal) {
                        tac.my_wins.push(i as u16);
                        score += 10 * WIN_MIN;
                    }
                }
                let co = b.captures_at(i, opp);
                if co > 0 {
                    let gain =
                        capture_value(cap_opp + co as u16, goal) - capture_value(cap_opp, goal);
                    score += gain * 8;
                    if goal > 0 && u32::from(cap_opp) + co >= u32::from(goal) {
                        tac.opp_wins.push(i as u16);
                        score += 5 * WIN_MIN;
                    }
                }
            }
            cands.push(Cand {
                cell: i as u16,
                score,
            });
        }
        if cands.is_empty() {
            // No stone yet, or every point near the stones is refused (the pro opening's
            // second stone): fall back to every legal point, nearest the centre first.
            let centre = Point::centre(b.size);
            for &i in &b.on_board {
                let i = usize::from(i);
                if !self.legal_cell(i, true) {
                    continue;
                }
                let Some(p) = b.point(i) else { continue };
                let score = b.gain_at(i, me) * 10 + b.gain_at(i, opp) * 8
                    - i32::from(p.distance(centre)) * 20;
                cands.push(Cand {
                    cell: i as u16,
                    score,
                });
            }
        }
        tac.my_wins.dedup();
        tac.opp_wins.dedup();
        cands.sort_by_key(|c| std::cmp::Reverse(c.score));
        (cands, tac)
    }

    /// The score of a finished game for the side to move.
    fn terminal(&self, me: u8, ply: i32) -> i32 {
        match self.b.game.status() {
            Status::Won { winners, .. } => {
                let mine = winners.contains(me);
                let theirs = winners.contains(3 - me);
                match (mine, theirs) {
                    (true, false) => WIN - ply,
                    (false, true) => -(WIN - ply),
                    _ => 0,
                }
            }
            _ => 0,
        }
    }

    /// A move of `tac.my_wins` that ends the game in the mover's sole favour, checked through
    /// the rules core when extra time or a pending row could change the outcome.
    fn immediate_win(&mut self, me: u8, tac: &Tactics) -> Option<u16> {
        let simple = !self.b.game.rules().extra_time_capture;
        for &w in &tac.my_wins {
            if simple {
                return Some(w);
            }
            let Some(p) = self.b.point(usize::from(w)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_ok() {
                let won = self.terminal(3 - me, 0) < -WIN_MIN;
                self.b.undo();
                if won {
                    return Some(w);
                }
            }
        }
        None
    }

    /// The moves to search when something must be answered: blocks of an immediate win,
    /// captures (which may break a row or stop a capture win); `None` when nothing is forced.
    fn forced_moves(&self, me: u8, cands: &[Cand], tac: &Tactics) -> Option<Vec<Cand>> {
        let pending_against_me = self
            .b
            .game
            .threatened_line()
            .is_some_and(|l| l.colour != me);
        if tac.opp_wins.is_empty() && !pending_against_me {
            return None;
        }
        let forced: Vec<Cand> = cands
            .iter()
            .copied()
            .filter(|c| {
                tac.my_captures.contains(&c.cell)
                    || (!pending_against_me && tac.opp_wins.contains(&c.cell))
            })
            .collect();
        Some(forced)
    }

    /// Whether nobody can win on the next move (no four, no capture win in reach, no pending
    /// row), so a leaf can be scored without generating moves.
    fn quiet(&self, me: u8) -> bool {
        let b = &self.b;
        let reach = |c: u8| b.capture_win > 0 && b.captured(c) + 6 >= b.capture_win;
        b.fours == [0, 0] && !reach(me) && !reach(3 - me) && b.game.threatened_line().is_none()
    }

    fn evaluate(&self, me: u8, tac: &Tactics, ply: i32) -> i32 {
        let opp = 3 - me;
        let b = &self.b;
        if tac.my_wins.is_empty()
            && tac.opp_wins.len() >= 2
            && tac.my_captures.is_empty()
            && b.game.threatened_line().is_none()
        {
            // Two winning points and no capture to break them: lost.
            return -(WIN - ply - 1);
        }
        let (mi, oi) = (usize::from(me - 1), usize::from(opp - 1));
        let mut s = b.pattern[mi] * 11 / 10 - b.pattern[oi];
        if b.captures != crate::rules::Captures::None {
            let goal = b.capture_win;
            let (cm, co) = (b.captured(me), b.captured(opp));
            s += capture_value(cm, goal) - capture_value(co, goal);
            let t = b.capture_threats();
            let tm = t[mi].min(6) as u16;
            let to = t[oi].min(6) as u16;
            s += (capture_value(cm + tm, goal) - capture_value(cm, goal)) * 6 / 10;
            s -= (capture_value(co + to, goal) - capture_value(co, goal)) * 3 / 10;
        }
        s
    }

    fn negamax(&mut self, depth: i32, mut alpha: i32, beta: i32, ply: i32, ext: i32) -> i32 {
        if self.tick() {
            return 0;
        }
        let me = self.b.to_move();
        if self.b.game.is_over() {
            return self.terminal(me, ply);
        }
        let key = self.b.key();
        let mut tt_move = u16::MAX;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.best;
            if i32::from(e.depth) >= depth && ply > 0 {
                let s = from_tt(e.score, ply);
                match e.bound {
                    Bound::Exact => return s,
                    Bound::Lower if s >= beta => return s,
                    Bound::Upper if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        if depth <= 0 && self.quiet(me) {
            return self.evaluate(me, &Tactics::default(), ply);
        }
        let (cands, tac) = self.generate(me);
        if cands.is_empty() {
            return 0;
        }
        if self.immediate_win(me, &tac).is_some() {
            return WIN - ply - 1;
        }
        let forced = self.forced_moves(me, &cands, &tac);
        let is_forced = forced.is_some();
        if depth <= 0 && (!is_forced || ext <= 0) {
            return self.evaluate(me, &tac, ply);
        }
        let mut moves = match forced {
            Some(f) if !f.is_empty() => f,
            _ => {
                let mut c = cands;
                c.truncate(self.style.width);
                c
            }
        };
        if let Some(k) = moves.iter().position(|c| c.cell == tt_move) {
            moves[..=k].rotate_right(1);
        }
        let (child_depth, child_ext) = if is_forced && ext > 0 {
            (depth.max(0), ext - 1)
        } else {
            (depth - 1, ext)
        };
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = u16::MAX;
        for (k, m) in moves.iter().enumerate() {
            let Some(p) = self.b.point(usize::from(m.cell)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let score = if k == 0 {
                -self.negamax(child_depth, -beta, -alpha, ply + 1, child_ext)
            } else {
                let s = -self.negamax(child_depth, -alpha - 1, -alpha, ply + 1, child_ext);
                if s > alpha && s < beta {
                    -self.negamax(child_depth, -beta, -alpha, ply + 1, child_ext)
                } else {
                    s
                }
            };
            self.b.undo();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = m.cell;
            }
            if score > alpha {
                alpha = score;
            }
            if alpha >= beta {
                break;
            }
        }
        if best == -INF {
            return self.evaluate(me, &tac, ply);
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.store(Entry {
            key,
            score: to_tt(best, ply),
            best: best_move,
            depth: depth.clamp(-100, 100) as i8,
            bound,
        });
        best
    }

    /// The decision in normal play: (cell, score, depth, how).
    fn root(
        &mut self,
        rng: &mut StdRng,
        start: Instant,
        budget: Duration,
    ) -> (Option<Point>, i32, i32, Source) {
        let me = self.b.to_move();
        let (cands, tac) = self.generate(me);
        let point = |b: &Board, c: u16| b.point(usize::from(c));
        if cands.is_empty() {
            return (None, 0, 0, Source::Forced);
        }
        if let Some(w) = self.immediate_win(me, &tac) {
            return (point(&self.b, w), WIN - 1, 1, Source::Forced);
        }
        let forced = self.forced_moves(me, &cands, &tac);
        let mut moves = match &forced {
            Some(f) if !f.is_empty() => f.clone(),
            _ => {
                let mut c = cands.clone();
                c.truncate(self.style.width * 2);
                c
            }
        };
        if moves.len() == 1 {
            return (point(&self.b, moves[0].cell), 0, 0, Source::Forced);
        }
        if forced.is_none() && self.style.blunder > 0.0 && rng.random_bool(self.style.blunder) {
            // A beginner's look: the first few moves that catch the eye, none of the reading.
            let k = moves.len().min(4);
            let pick = rng.random_range(0..k);
            return (point(&self.b, moves[pick].cell), 0, 0, Source::Blunder);
        }
        if forced.is_none() && self.style.vcf_depth > 0 {
            let full_deadline = self.deadline;
            self.deadline = start + budget.mul_f64(0.3);
            let found = self.vcf_root(me, self.style.vcf_depth);
            self.deadline = full_deadline;
            self.stopped = false;
            if let Some(c) = found {
                return (point(&self.b, c), WIN - 2, 0, Source::Vcf);
            }
        }
        let soft = start + budget.mul_f64(0.5);
        let mut best: Option<(u16, i32)> = None;
        let mut scored: Vec<(u16, i32)> = Vec::new();
        let mut completed = 0;
        let exact_all = self.style.noise > 0;
        for depth in 1..=self.style.max_depth {
            let mut alpha = -INF;
            let mut results: Vec<(u16, i32)> = Vec::with_capacity(moves.len());
            for (k, m) in moves.iter().enumerate() {
                let Some(p) = self.b.point(usize::from(m.cell)) else {
                    continue;
                };
                if self.b.apply(Action::Place(p)).is_err() {
                    continue;
                }
                let score = if k == 0 || exact_all {
                    -self.negamax(depth - 1, -INF, INF, 1, EXTENSIONS)
                } else {
                    let s = -self.negamax(depth - 1, -alpha - 1, -alpha, 1, EXTENSIONS);
                    if s > alpha {
                        -self.negamax(depth - 1, -INF, -alpha, 1, EXTENSIONS)
                    } else {
                        s
                    }
                };
                self.b.undo();
                if self.stopped {
                    break;
                }
                alpha = alpha.max(score);
                results.push((m.cell, score));
            }
            if self.stopped {
                // A partial iteration still counts when its first (previous best) move was
                // searched and a later one beat it.
                if let (Some(&(c0, s0)), Some(prev)) = (results.first(), best)
                    && let Some(&(c, s)) = results.iter().max_by_key(|r| r.1)
                    && c != c0
                    && s > s0
                    && s > prev.1
                {
                    best = Some((c, s));
                }
                break;
            }
            completed = depth;
            results.sort_by_key(|r| std::cmp::Reverse(r.1));
            best = results.first().copied();
            scored = results.clone();
            // The next iteration searches the best moves first.
            let order: Vec<u16> = results.iter().map(|r| r.0).collect();
            moves.sort_by_key(|c| {
                order
                    .iter()
                    .position(|&o| o == c.cell)
                    .unwrap_or(usize::MAX)
            });
            if best.is_some_and(|b| b.1.abs() >= WIN_MIN) || Instant::now() >= soft {
                break;
            }
        }
        let Some((mut cell, mut score)) = best.or_else(|| moves.first().map(|c| (c.cell, 0)))
        else {
            return (None, 0, 0, Source::Search);
        };
        if self.style.noise > 0 && score.abs() < WIN_MIN && !scored.is_empty() {
            let near: Vec<(u16, i32)> = scored
                .iter()
                .copied()
                .filter(|&(_, s)| s >= score - self.style.noise && s.abs() < WIN_MIN)
                .collect();
            if !near.is_empty() {
                let pick = near[rng.random_range(0..near.len())];
                cell = pick.0;
                score = pick.1;
            }
        }
        if self.style.safety > 0 && score.abs() < WIN_MIN {
            let rest: Vec<(u16, i32)> = cands.iter().map(|c| (c.cell, score)).collect();
            (cell, score) = self.avoid_opponent_vcf(me, (cell, score), &scored, &rest);
        }
        (point(&self.b, cell), score, completed, Source::Search)
    }

    /// The first of the best root moves after which the opponent has no continuous-four win;
    /// the chosen move itself when every one checked loses that way or time runs out.
    fn avoid_opponent_vcf(
        &mut self,
        me: u8,
        chosen: (u16, i32),
        scored: &[(u16, i32)],
        rest: &[(u16, i32)],
    ) -> (u16, i32) {
        // The strongest level looks past their short list when every move on it loses to
        // continuous fours: the defence is often a quiet point the search ranked low.
        let wide = self.style.safety >= 10;
        let mut candidates: Vec<(u16, i32)> = std::iter::once(chosen)
            .chain(scored.iter().copied().filter(|c| c.0 != chosen.0))
            .take(self.style.safety)
            .collect();
        if wide {
            for &c in scored.iter().chain(rest) {
                if !candidates.iter().any(|k| k.0 == c.0) {
                    candidates.push(c);
                }
            }
        }
        for (cell, score) in candidates {
            let Some(p) = self.b.point(usize::from(cell)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let refuted = self.vcf_root(3 - me, self.style.vcf_depth).is_some();
            self.b.undo();
            if self.stopped {
                break;
            }
            if !refuted {
                return (cell, score);
            }
        }
        self.stopped = false;
        chosen
    }

    /// Cells where `colour` makes a row one short of a line (a four).
    fn four_makers(&self, colour: u8) -> Vec<Cand> {
        let b = &self.b;
        let check = self.needs_check();
        let mut v: Vec<Cand> = b
            .on_board
            .iter()
            .map(|&i| usize::from(i))
            .filter(|&i| b.cells[i] == EMPTY && b.near[i] > 0 && b.makes_four(i, colour))
            .filter(|&i| self.legal_cell(i, check))
            .map(|i| Cand {
                cell: i as u16,
                score: b.gain_at(i, colour),
            })
            .collect();
        v.sort_by_key(|c| std::cmp::Reverse(c.score));
        v
    }

    /// Empty cells near the stones where `colour` would win on the spot.
    fn win_cells(&self, colour: u8) -> Vec<u16> {
        let b = &self.b;
        b.on_board
            .iter()
            .map(|&i| usize::from(i))
            .filter(|&i| b.cells[i] == EMPTY && b.near[i] > 0 && b.wins_at(i, colour))
            .map(|i| i as u16)
            .collect()
    }

    fn capture_cells(&self, colour: u8) -> Vec<u16> {
        let b = &self.b;
        if b.captures == crate::rules::Captures::None {
            return Vec::new();
        }
        b.on_board
            .iter()
            .map(|&i| usize::from(i))
            .filter(|&i| b.cells[i] == EMPTY && b.captures_at(i, colour) > 0)
            .map(|i| i as u16)
            .collect()
    }

    /// A first move of a continuous-four win for the side to move, if one is found.
    fn vcf_root(&mut self, attacker: u8, depth: i32) -> Option<u16> {
        if !self.win_cells(3 - attacker).is_empty() {
            return None;
        }
        for m in self.four_makers(attacker) {
            let p = self.b.point(usize::from(m.cell))?;
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let won = self.vcf_defend(attacker, depth);
            self.b.undo();
            if self.stopped {
                return None;
            }
            if won {
                return Some(m.cell);
            }
        }
        None
    }

    /// Attacker to move: whether continuous fours win within `depth` attacker moves.
    fn vcf_attack(&mut self, attacker: u8, depth: i32) -> bool {
        if self.tick() {
            return false;
        }
        if self.b.game.is_over() {
            return self.terminal(attacker, 0) > WIN_MIN;
        }
        let wins = self.win_cells(attacker);
        if !wins.is_empty() {
            let tac = Tactics {
                my_wins: wins,
                ..Tactics::default()
            };
            if self.immediate_win(attacker, &tac).is_some() {
                return true;
            }
        }
        if depth <= 0
            || self.b.game.threatened_line().is_some()
            || !self.win_cells(3 - attacker).is_empty()
        {
            return false;
        }
        let key = self.b.key();
        if self.vcf_failed.get(&key).is_some_and(|&d| d >= depth) {
            return false;
        }
        for m in self.four_makers(attacker) {
            let Some(p) = self.b.point(usize::from(m.cell)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let won = self.vcf_defend(attacker, depth);
            self.b.undo();
            if self.stopped {
                return false;
            }
            if won {
                return true;
            }
        }
        self.vcf_failed.insert(key, depth);
        false
    }

    /// Defender to move after an attacker's four: whether every reply still loses.
    fn vcf_defend(&mut self, attacker: u8, depth: i32) -> bool {
        if self.tick() {
            return false;
        }
        let defender = 3 - attacker;
        if self.b.game.is_over() {
            return self.terminal(defender, 0) < -WIN_MIN;
        }
        if !self.win_cells(defender).is_empty() {
            return false;
        }
        let pending = self.b.game.threatened_line().is_some();
        let threats = self.win_cells(attacker);
        if threats.is_empty() && !pending {
            return false;
        }
        let mut replies = threats;
        for c in self.capture_cells(defender) {
            if !replies.contains(&c) {
                replies.push(c);
            }
        }
        let mut any = false;
        for r in replies {
            let Some(p) = self.b.point(usize::from(r)) else {
                continue;
            };
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            any = true;
            let won = self.vcf_attack(attacker, depth - 1);
            self.b.undo();
            if !won || self.stopped {
                return false;
            }
        }
        // No legal reply at all (every blocking point refused) loses for the defender too.
        let _ = any;
        true
    }

    /// Swap/swap2 placement: a stone near the centre that keeps the position balanced, so the
    /// other seat's colour choice gains little.
    fn place_opening_stone(&mut self, rng: &mut StdRng) -> Option<Point> {
        let colour = self.b.to_move();
        let centre = Point::centre(self.b.size);
        let mut options: Vec<(i32, Point)> = Vec::new();
        for &i in &self.b.on_board.clone() {
            let i = usize::from(i);
            let Some(p) = self.b.point(i) else { continue };
            if self.b.cells[i] != EMPTY || p.distance(centre) > 2 {
                continue;
            }
            if self.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let diff = self.b.pattern[0] - self.b.pattern[1];
            self.b.undo();
            options.push((diff.abs(), p));
        }
        let _ = colour;
        options.sort_by_key(|o| o.0);
        let k = options.len().min(4);
        if k == 0 {
            return None;
        }
        Some(options[rng.random_range(0..k)].1)
    }

    /// Swap/swap2 colour choice: searches the position for the colour that moves next and
    /// takes the colour that comes out ahead. `place` (swap2) is worth about nothing to the
    /// chooser (the other seat gets the choice back after a balancing pair), so it is chosen
    /// only when neither colour is better than an even game.
    fn choose_colour(
        &mut self,
        may_place: bool,
        rng: &mut StdRng,
        start: Instant,
        budget: Duration,
    ) -> (Action, i32) {
        let next = self.b.to_move();
        // Look at the position as it will be played: take colour 1 on a scratch copy so the
        // phase is normal play; the colour to move does not depend on who takes what.
        let score = if self.b.apply(Action::Take(1)).is_ok() {
            let (_, s, _, _) = self.root(rng, start, budget.mul_f64(0.8));
            self.b.undo();
            s
        } else {
            0
        };
        let take_next = score;
        let take_other = -score;
        const EVEN: i32 = 20;
        if may_place && take_next.max(take_other) < EVEN && take_next.min(take_other) > -EVEN {
            return (Action::PlaceTwo, 0);
        }
        if take_next >= take_other {
            (Action::Take(next), take_next)
        } else {
            (Action::Take(3 - next), take_other)
        }
    }
}

fn to_tt(score: i32, ply: i32) -> i32 {
    if score > WIN_MIN {
        score + ply
    } else if score < -WIN_MIN {
        score - ply
    } else {
        score
    }
}

fn from_tt(score: i32, ply: i32) -> i32 {
    if score > WIN_MIN {
        score - ply
    } else if score < -WIN_MIN {
        score + ply
    } else {
        score
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

    fn pick(level: u8, g: &Game, nodes: u64) -> Action {
        let mut e = Engine::seeded(Level::new(level).expect("level"), 42);
        e.choose_with(
            g,
            Limits {
                time: Duration::from_secs(60),
                nodes,
            },
        )
        .expect("a move")
    }

    fn place(name: &str, size: u8) -> Action {
        Action::Place(Point::parse(name, size).expect("point"))
    }

    #[test]
    fn every_level_wins_in_one_and_blocks_a_four() {
        for level in 1..=5 {
            // Black to move with an open four: either end wins.
            let a = pick(level, &game("gomoku", "H8 A1 J8 A2 K8 A3 L8 B1"), 5_000);
            assert!(
                [place("G8", 15), place("M8", 15)].contains(&a),
                "level {level}: {a}"
            );
            // White has A1-A4 (A5 wins); black's own three cannot win first, so it blocks.
            let g = game("gomoku", "H8 A1 J8 A2 K8 A3 O15 A4");
            let a = pick(level, &g, 5_000);
            assert_eq!(a, place("A5", 15), "level {level} must block A5");
        }
    }

    #[test]
    fn a_capture_reaching_the_goal_wins() {
        // With a goal of 2 stones, taking the pair L10 M10 at N10 wins at once.
        let g = game("pente capture_win=2", "K10 L10 A1 M10");
        assert_eq!(pick(1, &g, 5_000), place("N10", 19));
    }

    #[test]
    fn a_continuous_four_win_is_found() {
        // Black: H8 J8 on row 8 and L9-L11 on column L; L8 makes two fours at once.
        let g = game("gomoku", "H8 A1 J8 A15 L10 O1 L11 O15 L9 B2");
        let mut e = Engine::seeded(Level::MAX, 1);
        let a = e.choose_with(
            &g,
            Limits {
                time: Duration::from_secs(60),
                nodes: 200_000,
            },
        );
        assert!(a.is_some());
        assert!(e.last_info().score > WIN_MIN, "{:?}", e.last_info());
    }

    #[test]
    fn capture_values_grow_towards_the_goal_without_overflow() {
        for goal in [0u16, 2, 10, 15, 100] {
            let mut last = -1;
            for n in 0..=400u16 {
                let v = capture_value(n, goal);
                assert!(v >= last, "goal {goal}, {n} stones");
                last = v;
            }
        }
        assert!(capture_value(8, 10) - capture_value(6, 10) > capture_value(2, 10));
    }

    #[test]
    fn a_multiplayer_game_still_gets_a_legal_move() {
        let g = game("pente players=3", "K10 L10 M10 A1");
        let a = pick(5, &g, 1_000);
        assert!(g.is_legal(a), "{a}");
        let mut e = Engine::seeded(Level::MAX, 1);
        assert!(
            e.vcf_wins(&g, Limits::time(Duration::from_secs(1)))
                .is_empty()
        );
    }

    #[test]
    fn the_chooser_takes_the_colour_that_is_ahead() {
        // Colour 1 has two joined stones in the centre and moves next; colour 2 sits in a corner.
        let g = game("gomoku opening=swap", "H8 A1 J8 A2");
        assert_eq!(pick(3, &g, 20_000), Action::Take(1));
        assert_eq!(pick(5, &g, 20_000), Action::Take(1));
    }

    #[test]
    fn swap2_decisions_are_legal() {
        for moves in ["", "H8 H9 J9", "H8 H9 J9 place", "H8 H9 J9 place K10 G7"] {
            let g = game("gomoku opening=swap2", moves);
            let a = pick(3, &g, 3_000);
            assert!(g.is_legal(a), "{moves}: {a}");
        }
    }
}
