//! Self-play matches between two engine levels: the project's strength ruler.
//!
//! Colours alternate game by game and each pair of games starts from the same seeded opening
//! (a few stones near the centre), so neither side profits from the first move or a lucky
//! opening. Each move is timed against its budget, which gives the overshoot the engine's own
//! clock allows.

use std::fmt;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use thiserror::Error;

use super::pbrain::client::PbrainClient;
use super::{Engine, Level, Player, Style};
use crate::rules::{Action, Game, Phase, Point, RuleSet, Status};

mod args;
pub use args::ArenaArgs;

/// One side of a match: an engine level, or an external Gomocup engine over pbrain.
#[derive(Clone, Debug, PartialEq)]
pub enum Side {
    /// Our engine at a level, with the level's budget.
    Level(Level),
    /// Our engine at a level's budget with some of its style changed (A/B tests of a search
    /// feature: `level=5,guard=8` is level 5 with the threat guard on); `text` as written.
    Tuned {
        /// The level whose budget and style it starts from.
        level: Level,
        /// The style it plays with (boxed: a style is some two hundred bytes).
        style: Box<Style>,
        /// The side as written.
        text: String,
    },
    /// An external pbrain engine: the command that starts it, and its turn limit.
    Pbrain {
        /// Program and arguments, split on whitespace.
        command: String,
        /// The `INFO timeout_turn` it gets for every move.
        turn: Duration,
    },
}

impl Side {
    /// The time this side may think about one move: a level's budget times `scale`; an
    /// external engine's turn limit as given (the scale is for our levels).
    pub fn budget(&self, scale: f64) -> Duration {
        match self {
            Side::Level(l) | Side::Tuned { level: l, .. } => l.budget().mul_f64(scale),
            Side::Pbrain { turn, .. } => *turn,
        }
    }

    fn player(&self, seed: u64) -> Result<Box<dyn Player>, String> {
        match self {
            Side::Level(l) => Ok(Box::new(Engine::seeded(*l, seed))),
            Side::Tuned { level, style, .. } => {
                Ok(Box::new(Engine::with_style(*level, **style, seed)))
            }
            Side::Pbrain { command, .. } => PbrainClient::spawn(command)
                .map(|c| Box::new(c) as Box<dyn Player>)
                .map_err(|e| e.to_string()),
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Side::Level(l) => write!(f, "level {l}"),
            Side::Tuned { text, .. } => write!(f, "{text}"),
            Side::Pbrain { command, .. } => write!(f, "pbrain `{command}`"),
        }
    }
}

/// A match to play.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    /// The rule set (two players).
    pub rules: RuleSet,
    /// Side A.
    pub a: Side,
    /// Side B.
    pub b: Side,
    /// Games to play.
    pub games: usize,
    /// Games played at once (each on its own thread).
    pub threads: usize,
    /// Multiplies every level's budget (1.0 = the real budgets).
    pub budget_scale: f64,
    /// Seed of the openings and of the engines' choices.
    pub seed: u64,
    /// Stones played at random near the centre before the engines take over.
    pub opening_stones: usize,
    /// Openings the game pairs play in turn (pair `k` the `k % len`-th) instead of random
    /// stones; empty: random stones.
    pub openings: Vec<Game>,
    /// Also print each game's moves on stderr as it ends, so a match stopped early (or a
    /// long one still running) already has the records of the games it finished.
    pub progress_records: bool,
}

/// Why a match cannot be played.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ArenaError {
    /// The engine plays two-player games only.
    #[error("the arena plays two-player rule sets only (players={0})")]
    NotTwoPlayers(u8),
    /// A side is not written `level=N` (or `N`, or `level=N,key=value…`, or `pbrain=COMMAND`).
    #[error(
        "`{0}` is not a side: write level=N with N from 1 to 6 (style changes as level=N,key=value), or pbrain=COMMAND"
    )]
    BadSide(String),
    /// An external engine could not be started or did not answer `ABOUT`.
    #[error("{0}")]
    External(String),
    /// No games, no threads, or a budget scale that is not a positive number.
    #[error("{0}")]
    BadSetting(&'static str),
}

/// Reads a side written `level=N` or `N`, or `pbrain=COMMAND` (an external engine given
/// `turn` per move).
///
/// # Errors
/// [`ArenaError::BadSide`] for anything else.
pub fn parse_side(text: &str, turn: Duration) -> Result<Side, ArenaError> {
    let t = text.trim();
    if let Some(command) = t.strip_prefix("pbrain=") {
        if command.trim().is_empty() || turn.is_zero() {
            return Err(ArenaError::BadSide(text.to_string()));
        }
        return Ok(Side::Pbrain {
            command: command.trim().to_string(),
            turn,
        });
    }
    let mut parts = t.split(',');
    let n = parts.next().unwrap_or_default();
    let n = n.strip_prefix("level=").unwrap_or(n);
    let level = n
        .parse::<Level>()
        .map_err(|_| ArenaError::BadSide(text.to_string()))?;
    let mut style = Style::for_level(level);
    let mut tuned = false;
    for kv in parts {
        let (key, value) = kv
            .split_once('=')
            .ok_or_else(|| ArenaError::BadSide(text.to_string()))?;
        style
            .set(key.trim(), value.trim())
            .map_err(|_| ArenaError::BadSide(text.to_string()))?;
        tuned = true;
    }
    Ok(if tuned {
        Side::Tuned {
            level,
            style: Box::new(style),
            text: t.to_string(),
        }
    } else {
        Side::Level(level)
    })
}

/// Timing of one side's moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideStats {
    /// Moves (actions) chosen.
    pub moves: u64,
    /// Their total thinking time.
    pub total: Duration,
    /// The longest one.
    pub max: Duration,
    /// The largest time / budget ratio.
    pub worst_ratio: f64,
    /// Nodes searched.
    pub nodes: u64,
    /// Moves decided by the main search, and the sum of their completed depths.
    pub searched: (u64, u64),
}

impl SideStats {
    fn add(&mut self, other: &SideStats) {
        self.moves += other.moves;
        self.total += other.total;
        self.max = self.max.max(other.max);
        self.worst_ratio = self.worst_ratio.max(other.worst_ratio);
        self.nodes += other.nodes;
        self.searched.0 += other.searched.0;
        self.searched.1 += other.searched.1;
    }

    /// Average thinking time per move.
    pub fn average(&self) -> Duration {
        if self.moves == 0 {
            Duration::ZERO
        } else {
            self.total / self.moves as u32
        }
    }

    /// Average completed depth of the moves the main search decided.
    pub fn average_depth(&self) -> f64 {
        if self.searched.0 == 0 {
            0.0
        } else {
            self.searched.1 as f64 / self.searched.0 as f64
        }
    }

    /// Nodes per second over all its thinking.
    pub fn nodes_per_second(&self) -> f64 {
        let s = self.total.as_secs_f64();
        if s > 0.0 { self.nodes as f64 / s } else { 0.0 }
    }
}

/// What a match gave.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaResult {
    /// The match played.
    pub rules: RuleSet,
    /// Side A.
    pub a: Side,
    /// Side B.
    pub b: Side,
    /// Budget multiplier used.
    pub budget_scale: f64,
    /// Games A won.
    pub wins: u32,
    /// Drawn games (shared victories included).
    pub draws: u32,
    /// Games B won.
    pub losses: u32,
    /// Side A's timing.
    pub a_stats: SideStats,
    /// Side B's timing.
    pub b_stats: SideStats,
    /// Each game's record (game number, A's seat, the moves), in game order.
    pub records: Vec<(usize, u8, String)>,
}

impl ArenaResult {
    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score share, 0..=1.
    pub fn score(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n
    }

    /// Elo difference A - B and the half-width of its 95% confidence interval.
    ///
    /// Scores of 0% or 100% are pulled half a game inwards so the numbers stay finite.
    pub fn elo(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let p = self.score();
        let clamp = |x: f64| x.clamp(0.5 / n, 1.0 - 0.5 / n);
        let elo = |x: f64| -400.0 * (1.0 / clamp(x) - 1.0).log10();
        let mut var = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        if self.draws == 0 && (self.wins == 0 || self.losses == 0) {
            // A clean sweep has no spread of its own: use the binomial spread of the pulled-in score.
            let pc = clamp(p);
            var = pc * (1.0 - pc);
        }
        let se = (var / n).sqrt();
        let (lo, hi) = (elo(p - 1.96 * se), elo(p + 1.96 * se));
        // `+ 0.0` turns a negative zero into zero for printing.
        (elo(p) + 0.0, (hi - lo) / 2.0)
    }

    /// The worst time / budget ratio of either side.
    pub fn worst_overshoot(&self) -> f64 {
        self.a_stats.worst_ratio.max(self.b_stats.worst_ratio)
    }
}

impl fmt::Display for ArenaResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (elo, err) = self.elo();
        writeln!(
            f,
            "arena: {}, A = {}, B = {}, {} games, budget scale {}",
            self.rules.to_spec(),
            self.a,
            self.b,
            self.games(),
            self.budget_scale
        )?;
        writeln!(
            f,
            "score (W-D-L for A): {}-{}-{} ({:.1}%)",
            self.wins,
            self.draws,
            self.losses,
            100.0 * self.score()
        )?;
        writeln!(f, "Elo A - B: {elo:+.0} ± {err:.0} (95%)")?;
        for (name, side, s) in [("A", &self.a, &self.a_stats), ("B", &self.b, &self.b_stats)] {
            writeln!(
                f,
                "{name} ({side}, budget {} ms): {} moves, avg {:.1} ms, max {:.1} ms, {:.0} nodes/s, avg depth {:.1}, worst time/budget {:.3}",
                (side.budget(self.budget_scale).as_secs_f64() * 1000.0).round(),
                s.moves,
                s.average().as_secs_f64() * 1000.0,
                s.max.as_secs_f64() * 1000.0,
                s.nodes_per_second(),
                s.average_depth(),
                s.worst_ratio
            )?;
        }
        write!(
            f,
            "worst budget overshoot (time / budget): {:.3}",
            self.worst_overshoot()
        )
    }
}

/// How one game ended, from side A's point of view.
enum Outcome {
    Win,
    Draw,
    Loss,
}

/// Plays a match.
///
/// # Errors
/// [`ArenaError`] for a multiplayer rule set or a setting out of range.
pub fn run(config: &ArenaConfig) -> Result<ArenaResult, ArenaError> {
    if config.rules.players != 2 {
        return Err(ArenaError::NotTwoPlayers(config.rules.players));
    }
    if config.games == 0 {
        return Err(ArenaError::BadSetting("play at least one game"));
    }
    if config.threads == 0 {
        return Err(ArenaError::BadSetting("use at least one thread"));
    }
    if !(config.budget_scale.is_finite() && config.budget_scale > 0.0) {
        return Err(ArenaError::BadSetting(
            "the budget scale must be a positive number",
        ));
    }
    for side in [&config.a, &config.b] {
        if let Side::Pbrain { .. } = side {
            side.player(0).map_err(ArenaError::External)?;
        }
    }
    let next = AtomicUsize::new(0);
    let total = Mutex::new((0u32, 0u32, 0u32, SideStats::default(), SideStats::default()));
    let records = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..config.threads.min(config.games) {
            s.spawn(|| {
                loop {
                    let k = next.fetch_add(1, Ordering::Relaxed);
                    if k >= config.games {
                        break;
                    }
                    let (outcome, a, b, record) = play_one(config, k);
                    let seat = if k.is_multiple_of(2) { 1 } else { 2 };
                    let shown = config.progress_records.then(|| record.clone());
                    records
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((k, seat, record));
                    // A poisoned lock means another game thread panicked; keep counting anyway.
                    let mut t = total.lock().unwrap_or_else(|e| e.into_inner());
                    let word = match outcome {
                        Outcome::Win => {
                            t.0 += 1;
                            "A won"
                        }
                        Outcome::Draw => {
                            t.1 += 1;
                            "drawn"
                        }
                        Outcome::Loss => {
                            t.2 += 1;
                            "B won"
                        }
                    };
                    t.3.add(&a);
                    t.4.add(&b);
                    // Progress on stderr, so a long match that is stopped early still tells
                    // what it played (stdout keeps the final report alone).
                    eprintln!(
                        "arena: game {k} {word} ({} played, A {}-{}-{}, worst time/budget A {:.3} B {:.3})",
                        t.0 + t.1 + t.2,
                        t.0,
                        t.1,
                        t.2,
                        t.3.worst_ratio,
                        t.4.worst_ratio
                    );
                    if let Some(moves) = shown {
                        eprintln!("arena: {}", record_line(k, seat, &moves));
                    }
                }
            });
        }
    });
    let (wins, draws, losses, a_stats, b_stats) =
        total.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut records = records.into_inner().unwrap_or_else(|e| e.into_inner());
    records.sort();
    Ok(ArenaResult {
        rules: config.rules,
        a: config.a.clone(),
        b: config.b.clone(),
        budget_scale: config.budget_scale,
        wins,
        draws,
        losses,
        a_stats,
        b_stats,
        records,
    })
}

/// The opening of game pair `pair`: the next of the given openings, or random legal points
/// within 4 of the centre.
fn opening(config: &ArenaConfig, pair: u64) -> Game {
    if !config.openings.is_empty() {
        let k = usize::try_from(pair).unwrap_or(0) % config.openings.len();
        return config.openings[k].clone();
    }
    let mut rng = StdRng::seed_from_u64(config.seed ^ pair.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    random_opening(config.rules, config.opening_stones, 4, &mut rng)
}

/// A game of `rules` opened with up to `stones` random legal points within `radius` of the
/// centre (fewer when the opening rule ends normal play first), the start of self-play games
/// (the arena's matches, the tactical suite's generator).
pub fn random_opening(rules: RuleSet, stones: usize, radius: u8, rng: &mut StdRng) -> Game {
    let mut game = Game::new(rules);
    let centre = Point::centre(rules.size);
    for _ in 0..stones {
        if game.phase() != Phase::Playing || game.is_over() {
            break;
        }
        let near: Vec<Action> = game
            .points()
            .filter(|p| p.distance(centre) <= radius)
            .map(Action::Place)
            .filter(|&a| game.is_legal(a))
            .collect();
        if near.is_empty() {
            break;
        }
        let a = near[rng.random_range(0..near.len())];
        if game.apply(a).is_err() {
            break;
        }
    }
    game
}

/// Plays game `k`: side A holds seat 1 in even games and seat 2 in odd ones.
fn play_one(config: &ArenaConfig, k: usize) -> (Outcome, SideStats, SideStats, String) {
    let mut game = opening(config, (k / 2) as u64);
    let a_seat = if k.is_multiple_of(2) { 1 } else { 2 };
    let seed = config.seed.wrapping_add(k as u64 * 7919);
    let mut stats = [SideStats::default(), SideStats::default()];
    let sides = [&config.a, &config.b];
    let mut players = Vec::with_capacity(2);
    for (n, side) in sides.iter().enumerate() {
        match side.player(if n == 0 { seed } else { seed ^ 0xB }) {
            Ok(p) => players.push(p),
            Err(e) => {
                // A side that cannot even start forfeits the game.
                eprintln!("arena: game {k}: {e}");
                let outcome = if n == 0 { Outcome::Loss } else { Outcome::Win };
                return (outcome, stats[0], stats[1], record_text(&game));
            }
        }
    }
    while let Some(seat) = game.seat_to_act() {
        let side = usize::from(seat != a_seat);
        let budget = sides[side].budget(config.budget_scale);
        let start = Instant::now();
        let action = players[side].choose(&game, budget);
        let took = start.elapsed();
        let s = &mut stats[side];
        s.moves += 1;
        s.total += took;
        s.max = s.max.max(took);
        s.worst_ratio = s.worst_ratio.max(took.as_secs_f64() / budget.as_secs_f64());
        if let Some(info) = players[side].last_info() {
            s.nodes += info.nodes;
            if info.source == super::Source::Search {
                s.searched.0 += 1;
                s.searched.1 += info.depth.max(0) as u64;
            }
        }
        let applied = action.is_some_and(|a| game.apply(a).is_ok());
        if !applied {
            // A side that cannot move in an open game forfeits it (counted; an external
            // engine that times out or answers nonsense ends here).
            eprintln!(
                "arena: game {k}: {} gave no legal move after {}",
                sides[side],
                record_text(&game)
            );
            let outcome = if side == 0 {
                Outcome::Loss
            } else {
                Outcome::Win
            };
            return (outcome, stats[0], stats[1], record_text(&game));
        }
    }
    let outcome = match game.status() {
        Status::Won { winners, .. } => {
            let a_colour = game.colour_of_seat(a_seat);
            let b_colour = game.colour_of_seat(3 - a_seat);
            match (winners.contains(a_colour), winners.contains(b_colour)) {
                (true, false) => Outcome::Win,
                (false, true) => Outcome::Loss,
                _ => Outcome::Draw,
            }
        }
        _ => Outcome::Draw,
    };
    (outcome, stats[0], stats[1], record_text(&game))
}

/// One game's record line, as the final report and the progress on stderr both print it.
pub(crate) fn record_line(game: usize, a_seat: u8, moves: &str) -> String {
    format!("game {game} (A is seat {a_seat}): {moves}")
}

fn record_text(game: &Game) -> String {
    game.record()
        .iter()
        .map(Action::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(w: u32, d: u32, l: u32) -> ArenaResult {
        ArenaResult {
            rules: RuleSet::preset(crate::rules::Preset::Gomoku),
            a: Side::Level(Level::MIN),
            b: Side::Level(Level::MIN),
            budget_scale: 1.0,
            wins: w,
            draws: d,
            losses: l,
            a_stats: SideStats::default(),
            b_stats: SideStats::default(),
            records: Vec::new(),
        }
    }

    #[test]
    fn elo_is_zero_for_an_even_score_and_signed_otherwise() {
        let (e, err) = result(5, 0, 5).elo();
        assert!(e.abs() < 1e-9);
        assert!(err > 100.0, "10 games say little: {err}");
        let (e, _) = result(15, 0, 5).elo();
        assert!((e - 190.8).abs() < 1.0, "{e}");
        let (e, err) = result(20, 0, 0).elo();
        assert!(e.is_finite() && e > 500.0 && err.is_finite());
        assert!(result(0, 4, 16).elo().0 < -200.0);
    }

    #[test]
    fn sides_parse_as_level_n_or_n() {
        let t = Duration::from_secs(2);
        assert_eq!(
            parse_side("level=3", t),
            Ok(Side::Level(Level::new(3).expect("level")))
        );
        assert_eq!(parse_side("6", t), Ok(Side::Level(Level::MAX)));
        assert!(parse_side("level=7", t).is_err());
        assert!(parse_side("lvl=2", t).is_err());
        assert_eq!(
            parse_side("pbrain=/bin/engine --fast", t),
            Ok(Side::Pbrain {
                command: "/bin/engine --fast".into(),
                turn: t
            })
        );
        assert!(parse_side("pbrain=  ", t).is_err());
        assert!(parse_side("pbrain=x", Duration::ZERO).is_err());
    }

    #[test]
    fn bad_settings_are_refused() {
        let mut c = ArenaConfig {
            rules: RuleSet::from_spec("gomoku players=3").expect("spec"),
            a: Side::Level(Level::MIN),
            b: Side::Level(Level::MIN),
            games: 2,
            threads: 1,
            budget_scale: 0.01,
            seed: 1,
            opening_stones: 3,
            openings: Vec::new(),
            progress_records: false,
        };
        assert_eq!(run(&c), Err(ArenaError::NotTwoPlayers(3)));
        c.rules = RuleSet::preset(crate::rules::Preset::Gomoku);
        c.games = 0;
        assert!(run(&c).is_err());
        c.games = 1;
        c.budget_scale = f64::NAN;
        assert!(run(&c).is_err());
    }

    #[test]
    fn a_short_match_plays_every_game_to_the_end_within_budget() {
        let c = ArenaConfig {
            rules: RuleSet::from_spec("gomoku size=9").expect("spec"),
            a: Side::Level(Level::new(2).expect("level")),
            b: Side::Level(Level::MIN),
            games: 2,
            threads: 2,
            budget_scale: 0.05,
            seed: 7,
            opening_stones: 2,
            openings: Vec::new(),
            progress_records: false,
        };
        let r = run(&c).expect("match");
        assert_eq!(r.games(), 2);
        assert!(r.a_stats.moves > 3 && r.b_stats.moves > 3);
        let text = r.to_string();
        assert!(text.contains("Elo A - B"), "{text}");
        assert!(text.contains("worst budget overshoot"), "{text}");
    }
}
