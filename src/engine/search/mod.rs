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

mod alphabeta;
mod defend43;
mod eval;
mod improving;
mod killers;
mod movegen;
mod opening;
mod per_ply;
mod quick_win;
mod quiesce;
mod qvcf;
mod razor;
mod reduce;
mod root;
mod singular;
mod style;
mod threats;
mod tt_eval;

pub(crate) use eval::line_terms;
pub use style::Style;

/// The score of a won position (less the plies it takes).
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses found by search.
const WIN_MIN: i32 = WIN - 10_000;
const INF: i32 = WIN + 1;
/// Nodes between two looks at the clock.
const CLOCK_EVERY: u64 = 128;
/// Forced replies (blocks) searched past the nominal depth on one line, by default
/// (`Style::extensions`).
const EXTENSIONS: i32 = 6;

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
    /// A win by fours and open threes found by the VCT search.
    Vct,
    /// The main search.
    Search,
    /// A deliberate beginner's mistake (levels 1-2).
    Blunder,
    /// Opening placement or a colour choice (swap, swap2).
    Opening,
    /// The opening book (Pente and Keryo's first moves, the swap openings' stones and colour
    /// choices, see `book.rs`).
    Book,
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
    /// How many of `opp_wins` the mover may not play (Renju's forbidden points for black):
    /// when that is all of them, the mover cannot block.
    opp_wins_forbidden: usize,
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
            tt: Table::new(style.tt_bits),
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
        self.tt.new_search();
        let mut search = Search {
            b: board_for(game, &self.style),
            tt: &mut self.tt,
            style: self.style.for_rules(game.rules()),
            nodes: 0,
            node_limit: limits.nodes,
            deadline: start + limits.time.mul_f64(0.85),
            stopped: false,
            vcf_failed: HashMap::new(),
            history: reduce::History::new(),
            killers: killers::Killers::new(),
            counters: killers::Counters::new(),
            trend: improving::Trend::new(),
            qfours_used: 0,
            excluded: singular::Excluded::new(),
        };
        let (action, score, depth, source) = match game.phase() {
            Phase::Playing => match self.style.book.then(|| super::book::lookup(game)).flatten() {
                Some(m) => (Some(Action::Place(m.point)), m.score, m.depth, Source::Book),
                None => {
                    let r = search.root(&mut self.rng, start, limits.time);
                    (r.0.map(Action::Place), r.1, r.2, r.3)
                }
            },
            Phase::Placing { .. } => {
                match (self.style.book)
                    .then(|| super::book::opening_stone(game, &mut self.rng))
                    .flatten()
                {
                    Some(p) => (Some(Action::Place(p)), 0, 0, Source::Book),
                    None => (
                        search.place_opening_stone(&mut self.rng).map(Action::Place),
                        0,
                        0,
                        Source::Opening,
                    ),
                }
            }
            Phase::Choosing { may_place, .. } => {
                let known = self
                    .style
                    .book
                    .then(|| super::book::judgement(game))
                    .flatten();
                let (a, s) = search.choose_colour(
                    may_place,
                    known.map(|m| m.score),
                    &mut self.rng,
                    start,
                    limits.time,
                );
                let source = if known.is_some() {
                    Source::Book
                } else {
                    Source::Opening
                };
                (Some(a), s, known.map_or(0, |m| m.depth), source)
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
        let Some(mut search) = Search::threats(&mut self.tt, self.style, game, limits, start)
        else {
            return Vec::new();
        };
        let me = search.b.to_move();
        let mut wins: Vec<(i32, Action)> = Vec::new();
        if !search.win_cells(3 - me).is_empty() {
            return Vec::new();
        }
        let max = self.style.vcf_depth.max(8);
        for m in search.vcf_moves(me) {
            let Some(p) = search.b.point(usize::from(m)) else {
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

impl Engine {
    /// Every first move of a win by threats (fours and open threes, VCT) for the side to move,
    /// searching up to this level's VCT depth (at least 8 attacker moves); empty when there is
    /// none within `limits`, or when the game is not in normal play.
    pub fn vct_wins(&mut self, game: &Game, limits: Limits) -> Vec<Action> {
        let start = Instant::now();
        let Some(mut search) = Search::threats(&mut self.tt, self.style, game, limits, start)
        else {
            return Vec::new();
        };
        let me = search.b.to_move();
        let mut wins = Vec::new();
        if !search.win_cells(3 - me).is_empty() {
            return wins;
        }
        let max = self.style.vct_depth.max(8);
        for m in search.vct_moves(me, usize::MAX) {
            let Some(p) = search.b.point(usize::from(m)) else {
                continue;
            };
            if search.b.apply(Action::Place(p)).is_err() {
                continue;
            }
            let won = search.vct_defend(me, max);
            search.b.undo();
            if search.stopped {
                break;
            }
            if won {
                wins.push(Action::Place(p));
            }
        }
        self.info = SearchInfo {
            nodes: search.nodes,
            elapsed: start.elapsed(),
            source: Source::Vct,
            ..SearchInfo::default()
        };
        wins
    }
}

impl Engine {
    /// The first move of a threat win (continuous fours first, then fours and open threes)
    /// for the side to move within this level's threat depths, or `None` when none is found
    /// within `limits` (the suite's generator asks this of every reply it tries, so it stops
    /// at the first win rather than listing them all).
    pub fn threat_win(&mut self, game: &Game, limits: Limits) -> Option<Action> {
        let start = Instant::now();
        let mut search = Search::threats(&mut self.tt, self.style, game, limits, start)?;
        let me = search.b.to_move();
        let found = search
            .vcf_root(me, self.style.vcf_depth.max(8))
            .or_else(|| {
                search.stopped = false;
                search.vct_root(me, self.style.vct_depth.max(8))
            });
        self.info = SearchInfo {
            nodes: search.nodes,
            elapsed: start.elapsed(),
            source: Source::Vct,
            ..SearchInfo::default()
        };
        found
            .and_then(|c| search.b.point(usize::from(c)))
            .map(Action::Place)
    }
}

impl Player for Engine {
    fn choose(&mut self, game: &Game, budget: Duration) -> Option<Action> {
        self.choose_with(game, Limits::time(budget))
    }

    fn reset(&mut self) {
        self.tt.clear();
    }

    fn nodes(&self) -> u64 {
        self.info.nodes
    }

    fn last_info(&self) -> Option<SearchInfo> {
        Some(self.info)
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
    /// Cut-offs by quiet moves in this decision, for the move ordering (`Style::history`).
    history: reduce::History,
    /// Cut-off moves by ply in this decision, for the move ordering (`Style::killers`).
    killers: killers::Killers,
    /// Refutations by the other side's last cell, for the move ordering (`Style::counters`).
    counters: killers::Counters,
    /// The free nodes' evaluations on the line being searched (`Style::improving`).
    trend: improving::Trend,
    /// Fours of the leaf quiescence on the line being searched (`Style::qfours`).
    qfours_used: i32,
    /// The cell each ply's node leaves out while testing its table move (`Style::singular`).
    excluded: singular::Excluded,
}

/// The search's board for `game`: with the fitted point values when `style` asks for them
/// and the game is the kind they were fitted to (freestyle: five or more in a row, no
/// captures, not Renju).
fn board_for(game: &Game, style: &Style) -> Board {
    let mut b = Board::new(game);
    let rules = game.rules();
    if style.eval_fit
        && rules.captures == crate::rules::Captures::None
        && rules.overline_wins
        && !rules.is_renju()
        && let Some(f) = crate::engine::fitted::fitted()
    {
        b.use_fit(f);
    }
    b
}

impl<'a> Search<'a> {
    /// The search the threat entry points (`vcf_wins`, `vct_wins`, `threat_win`) run, on the
    /// whole of `limits`; `None` when `game` is not in normal two-player play, where they
    /// answer nothing.
    fn threats(
        tt: &'a mut Table,
        style: Style,
        game: &Game,
        limits: Limits,
        start: Instant,
    ) -> Option<Search<'a>> {
        if game.is_over() || game.phase() != Phase::Playing || game.rules().players != 2 {
            return None;
        }
        Some(Search {
            b: board_for(game, &style),
            tt,
            style,
            nodes: 0,
            node_limit: limits.nodes,
            deadline: start + limits.time,
            stopped: false,
            vcf_failed: HashMap::new(),
            history: reduce::History::new(),
            killers: killers::Killers::new(),
            counters: killers::Counters::new(),
            trend: improving::Trend::new(),
            qfours_used: 0,
            excluded: singular::Excluded::new(),
        })
    }
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
    use super::eval::capture_value;
    use super::*;
    use crate::engine::test_support::{game, node_budget, refuses};

    #[test]
    fn the_table_has_the_size_the_style_asks_for() {
        let level = Level::new(5).expect("level");
        let mut style = Style::for_level(level);
        assert_eq!(style.tt_bits, 18, "today's size at level 5");
        assert_eq!(Engine::with_style(level, style, 1).tt.slots(), 1 << 18);
        style.set("tt_bits", "12").expect("tt_bits");
        assert_eq!(Engine::with_style(level, style, 1).tt.slots(), 1 << 12);
        refuses(&mut style, "tt_bits", &["9", "27", "-1", "big"]);
        assert_eq!(style.tt_bits, 12);
    }

    fn pick(level: u8, g: &Game, nodes: u64) -> Action {
        let mut e = Engine::seeded(Level::new(level).expect("level"), 42);
        e.choose_with(g, node_budget(nodes)).expect("a move")
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
        let a = e.choose_with(&g, node_budget(200_000));
        assert!(a.is_some());
        assert!(e.last_info().score > WIN_MIN, "{:?}", e.last_info());
    }

    #[test]
    fn a_win_by_threes_is_found_and_a_quiet_position_has_none() {
        // Black: H8 J8 on row 8, K10 K11 on column K; K8 makes two open threes at once.
        // (White's stones sit in the corners: on A1 A3 A5 A7, A4 would make two fives.)
        let g = game("gomoku", "H8 A1 J8 O1 K10 A15 K11 O15");
        let mut e = Engine::seeded(Level::MAX, 1);
        let limits = node_budget(400_000);
        assert!(
            e.vcf_wins(&g, limits).is_empty(),
            "no continuous fours here"
        );
        let wins = e.vct_wins(&g, limits);
        assert!(wins.contains(&place("K8", 15)), "{wins:?}");
        let a = e.choose_with(&g, limits).expect("a move");
        assert!(wins.contains(&a), "{a} {:?}", e.last_info());
        let g = game("gomoku", "H8 A1 J8 A3 K10 A5 K11 A7");
        assert!(
            e.vct_wins(&g, limits).is_empty(),
            "white's A4 answers any three"
        );
    }

    /// The threat guard (VCT depth 8) run on `moves` (points) of `g`, at level 5's style
    /// under a node cap.
    fn guarded(g: &Game, moves: &[&str]) -> Vec<Action> {
        let mut tt = Table::new(16);
        let limits = node_budget(2_000_000);
        let mut style = Style::for_level(Level::LIVE_MAX);
        style.guard = 8;
        let mut s = Search::threats(&mut tt, style, g, limits, Instant::now()).expect("in play");
        let me = s.b.to_move();
        let cell = |m: &str| {
            let p = Point::parse(m, 15).expect("point");
            Cand {
                cell: super::super::board::cell_of(p) as u16,
                score: 0,
            }
        };
        let moves: Vec<Cand> = moves.iter().map(|m| cell(m)).collect();
        let (cands, _) = s.generate(me);
        let kept = s.guard(me, moves, &cands);
        kept.iter()
            .map(|c| Action::Place(s.b.point(usize::from(c.cell)).expect("on the board")))
            .collect()
    }

    #[test]
    fn the_capture_knobs_move_the_ordering_and_the_evaluation() {
        // Black to move; white's pair L12 M12 is open at both ends, K12 and N12 attack it.
        let g = game("pente", "K10 L12 A1 M12");
        let k12 = super::super::board::cell_of(Point::parse("K12", 19).expect("point")) as u16;
        let limits = node_budget(1_000);
        // (K12's ordering score, the evaluation) under a style changed by `knobs`.
        let read_in = |g: &Game, knobs: &[(&str, &str)]| {
            let mut style = Style::for_level(Level::LIVE_MAX);
            for (k, v) in knobs {
                style.set(k, v).expect("a knob");
            }
            let mut tt = Table::new(10);
            let s = Search::threats(&mut tt, style, g, limits, Instant::now()).expect("in play");
            let (cands, _) = s.generate(1);
            let at = cands.iter().find(|c| c.cell == k12).map_or(0, |c| c.score);
            (at, s.evaluate(1, &Tactics::default(), 0))
        };
        let read = |knobs: &[(&str, &str)]| read_in(&g, knobs);
        let (order, eval) = read(&[]);
        let attack = capture_value(2, 10) - capture_value(0, 10);
        assert_eq!(read(&[("cap_attack", "10")]).0, order + 10 * attack);
        assert_eq!(
            read(&[("open_pair", "50")]).1,
            eval + 50,
            "white's open pair"
        );
        // No stone taken and no capture threat yet: the capture terms are zero either way.
        assert_eq!(read(&[("cap_weight", "0")]).1, eval);
        // Black's K10 and N10 threaten white's pair L10 M10: the mover's threat counts 6/10
        // of the capture's value, scaled by the knob.
        let g = game("pente", "K10 L10 A1 M10");
        let threat = attack * 6 / 10;
        let eval = read_in(&g, &[]).1;
        assert_eq!(read_in(&g, &[("cap_weight", "0")]).1, eval - threat);
        assert_eq!(read_in(&g, &[("cap_weight", "200")]).1, eval + threat);
        let mut style = Style::for_level(Level::LIVE_MAX);
        for (k, v) in [
            ("cap_attack", "101"),
            ("cap_weight", "-1"),
            ("open_pair", "x"),
            ("cap_answers", "maybe"),
        ] {
            assert!(style.set(k, v).is_err(), "{k}={v}");
        }
        assert_eq!(style.cap_attack, 0);
        assert!(style.cap_answers, "on by default");
        style.set("cap_answers", "off").expect("a switch");
        assert!(!style.cap_answers);
    }

    #[test]
    fn the_threat_guard_drops_moves_that_lose_to_threats_but_never_all() {
        // The suite's VCT defence: white's D6 E5 F4 must be stopped at G3 or C7 (every other
        // point within 4 of a stone loses). Black to move.
        let g = game("gomoku", "J8 E5 G11 F4 J9 D6");
        let kept = guarded(&g, &["H10", "G3", "K10"]);
        assert_eq!(kept, vec![place("G3", 15)], "only G3 saves of the three");
        // Every move given loses: the guard finds a saving move among the other candidates.
        let kept = guarded(&g, &["H10", "K10"]);
        assert!(
            kept == vec![place("G3", 15)] || kept == vec![place("C7", 15)],
            "{kept:?}"
        );
        // White has an open four: nothing saves black, and the guard keeps what it was given.
        let g = game("gomoku", "A1 H8 A15 J8 O1 K8 O15 L8");
        let kept = guarded(&g, &["B2", "N14"]);
        assert_eq!(kept, vec![place("B2", 15), place("N14", 15)]);
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
