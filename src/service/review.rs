//! Engine review of a finished game: the engine evaluates every position at a fixed node
//! budget, the evaluations become win chances through a logistic curve, and every move is
//! judged by how much win chance it gave away.
//!
//! # Method
//! - **Positions.** Position `k` is the game after `k` actions (`0..=n`). A position in
//!   normal play (not an opening phase, not over) is searched by the engine at
//!   [`NODE_BUDGET`] nodes (time is only a safety net: the result does not depend on the
//!   machine). Its score (for the side to move) and best move are kept.
//! - **Win chance.** `1 / (1 + exp(-score / SCORE_SCALE))` for the side to move; the chart
//!   shows the first colour's (black's) chance. A finished position is 100 % for its winner,
//!   50 % for a draw. Opening phases (swap placements, colour choices, Renju's tournament
//!   openings) are not judged: they show 50 % and their actions are `book`.
//! - **Classes.** The drop of the mover's win chance from the position before the move to the
//!   position after it: at least [`INACCURACY`] (10 points) is an inaccuracy, at least
//!   [`MISTAKE`] (20) a mistake, at least [`BLUNDER`] (30) a blunder.
//! - **Accuracy.** Per move `103.1668 * exp(-0.04354 * drop) - 3.1669` (drop in percentage
//!   points, clamped to 0..=100; the curve lichess publishes), averaged over a player's
//!   judged moves.
//! - **Turning points.** The (up to) three moves with the largest drops of at least
//!   [`MISTAKE`], in the order they were played.
//! - **3-4 players.** Refused ([`ReviewError::TooManyPlayers`]): the search engine knows two
//!   colours only and the simple player has no evaluation to judge moves by.
//!
//! Everything here is synchronous and CPU-bound; the Discord front runs each position on the
//! engine's own low-priority threads ([`Analyser::evaluate`] one position at a time), so
//! reviews interleave with games against the computer.

use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::engine::{Engine, Level, Limits, Source, Style, WIN};
use crate::rules::{Action, Game, Phase, RuleSet, Status};

/// Nodes the engine searches per position.
pub const NODE_BUDGET: u64 = 20_000;
/// A safety net on one position's search; the node budget ends it long before on any
/// machine the bot runs on.
pub const SAFETY_TIME: Duration = Duration::from_secs(30);
/// The engine's score that makes a 73 % (`1 / (1 + e^-1)`) win chance. The engine's scores
/// for a simple open three against nothing are around this size.
pub const SCORE_SCALE: f64 = 600.0;
/// Drop of win chance (0..1) from which a move is an inaccuracy.
pub const INACCURACY: f64 = 0.10;
/// Drop of win chance from which a move is a mistake.
pub const MISTAKE: f64 = 0.20;
/// Drop of win chance from which a move is a blunder.
pub const BLUNDER: f64 = 0.30;
/// Most turning points shown.
pub const TURNING_POINTS: usize = 3;
/// The seed of the review's engine (its level 5 plays without noise; the seed only fixes
/// what would otherwise be drawn).
const SEED: u64 = 0x05EE_D0F2_EF1E;

/// Why a game cannot be reviewed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ReviewError {
    /// The game is not over.
    #[error("the game is not over")]
    InProgress,
    /// 3-4 players: the engine judges two-player games only.
    #[error("only two-player games can be reviewed")]
    TooManyPlayers,
    /// The record does not replay (index of the refused action).
    #[error("action {0} of the record is refused")]
    BadRecord(usize),
}

/// How good a move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    /// An opening action, or a position the engine does not judge.
    Book,
    /// Lost less than [`INACCURACY`].
    Good,
    /// Lost at least [`INACCURACY`].
    Inaccuracy,
    /// Lost at least [`MISTAKE`].
    Mistake,
    /// Lost at least [`BLUNDER`].
    Blunder,
}

impl Class {
    /// The class of a drop of win chance (0..1).
    pub fn of_drop(drop: f64) -> Class {
        if drop >= BLUNDER {
            Class::Blunder
        } else if drop >= MISTAKE {
            Class::Mistake
        } else if drop >= INACCURACY {
            Class::Inaccuracy
        } else {
            Class::Good
        }
    }

    /// The stable name (JSON, message ids).
    pub fn name(self) -> &'static str {
        match self {
            Class::Book => "book",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }
}

/// The win chance (0..1) of the side to move for an engine score.
pub fn win_chance(score: i32) -> f64 {
    if score >= WIN - 10_000 {
        return 1.0;
    }
    if score <= -(WIN - 10_000) {
        return 0.0;
    }
    1.0 / (1.0 + (-f64::from(score) / SCORE_SCALE).exp())
}

/// A move's accuracy (0..=100) for a drop of win chance (0..1; a gain counts as no drop).
pub fn move_accuracy(drop: f64) -> f64 {
    let d = (drop.max(0.0) * 100.0).min(100.0);
    (103.1668 * (-0.04354 * d).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The engine's view of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Eval {
    /// The score for the side to move (see [`crate::engine::WIN`]).
    pub score: i32,
    /// The best action it found.
    pub best: Option<Action>,
}

/// Most forced replies followed to find a forced position's score.
const FORCED_CHAIN: usize = 8;

/// The engine's score (for the side to move) and best action in a position in normal play.
///
/// The engine answers a forced position (a single sensible reply: a block) with a score of
/// 0 and no search; its score is then the negation of the position after that reply,
/// followed for up to [`FORCED_CHAIN`] forced replies.
fn search(game: &Game, nodes: u64) -> (i32, Option<Action>) {
    let limits = Limits {
        time: SAFETY_TIME,
        nodes,
    };
    let mut position = game.clone();
    let mut sign = 1;
    let mut first = None;
    for step in 0..=FORCED_CHAIN {
        // A fresh engine per search: the evaluation of a position does not depend on which
        // were searched before it (a resumed analysis gives the same review). No opening
        // book: its scores come from longer searches than the review's node cap, and every
        // position of a review must be judged by the same search. The hand-made evaluation:
        // `SCORE_SCALE` turns its scores into chances, and reviews stored under this cache
        // version were made with it (the fitted one saturates sooner on the same scale).
        let style = Style {
            book: false,
            eval_fit: false,
            ..Style::for_level(Level::MAX)
        };
        let mut engine = Engine::with_style(Level::MAX, style, SEED);
        let best = engine.choose_with(&position, limits);
        let info = engine.last_info();
        if step == 0 {
            first = best;
        }
        let forced = info.source == Source::Forced && info.score == 0;
        let next = best.filter(|_| forced && step < FORCED_CHAIN);
        let Some(reply) = next else {
            return (sign * info.score, first);
        };
        let (mover, mover_sign) = (position.to_move(), sign);
        if position.apply(reply).is_err() {
            return (sign * info.score, first);
        }
        sign = -sign;
        match position.status() {
            Status::Ongoing if position.phase() == Phase::Playing => {}
            Status::Ongoing => return (0, first),
            // The forced reply ended the game: a win for whoever played it.
            Status::Won { winners, .. } => {
                let s = if winners.contains(mover) {
                    WIN - 1
                } else {
                    -(WIN - 1)
                };
                return (mover_sign * s, first);
            }
            Status::Draw => return (0, first),
        }
    }
    (0, first)
}

/// Evaluates the positions of one game, one at a time (so that a caller can report progress
/// and schedule each on a pool of its own).
pub struct Analyser {
    positions: Vec<Game>,
    nodes: u64,
}

impl std::fmt::Debug for Analyser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Analyser")
            .field("positions", &self.positions.len())
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl Analyser {
    /// An analyser for a finished two-player game given by its rules and record.
    ///
    /// # Errors
    /// [`ReviewError::TooManyPlayers`], [`ReviewError::BadRecord`], and
    /// [`ReviewError::InProgress`] when the record does not end the game.
    pub fn new(rules: RuleSet, record: &[Action]) -> Result<Analyser, ReviewError> {
        Analyser::with_budget(rules, record, NODE_BUDGET)
    }

    /// As [`Analyser::new`] with another node budget (tests, benchmarks).
    ///
    /// # Errors
    /// As [`Analyser::new`].
    pub fn with_budget(
        rules: RuleSet,
        record: &[Action],
        nodes: u64,
    ) -> Result<Analyser, ReviewError> {
        Analyser::build(rules, record, nodes, true)
    }

    /// An analyser for a game that ended, by the rules or otherwise (a resignation, a loss on
    /// time, an agreed draw: its last position need not be over).
    ///
    /// # Errors
    /// [`ReviewError::TooManyPlayers`], [`ReviewError::BadRecord`].
    pub fn of_finished(
        rules: RuleSet,
        record: &[Action],
        nodes: u64,
    ) -> Result<Analyser, ReviewError> {
        Analyser::build(rules, record, nodes, false)
    }

    fn build(
        rules: RuleSet,
        record: &[Action],
        nodes: u64,
        require_over: bool,
    ) -> Result<Analyser, ReviewError> {
        if rules.players != 2 {
            return Err(ReviewError::TooManyPlayers);
        }
        let mut game = Game::new(rules);
        let mut positions = Vec::with_capacity(record.len() + 1);
        positions.push(game.clone());
        for (i, &a) in record.iter().enumerate() {
            game.apply(a).map_err(|_| ReviewError::BadRecord(i))?;
            positions.push(game.clone());
        }
        if require_over && !game.is_over() {
            return Err(ReviewError::InProgress);
        }
        Ok(Analyser { positions, nodes })
    }

    /// How many positions there are (actions + 1).
    pub fn len(&self) -> usize {
        self.positions.len()
    }

    /// Never: a game has at least its first position.
    pub fn is_empty(&self) -> bool {
        self.positions.is_empty()
    }

    /// Evaluates position `k`; `None` for a position the engine does not judge (opening
    /// phases, the end) or past the last.
    pub fn evaluate(&mut self, k: usize) -> Option<Eval> {
        let game = self.positions.get(k)?;
        if game.is_over() || game.phase() != Phase::Playing {
            return None;
        }
        let (score, best) = search(game, self.nodes);
        Some(Eval { score, best })
    }

    /// Evaluates every position, calling `progress(done, total)` after each.
    pub fn run(&mut self, mut progress: impl FnMut(usize, usize)) -> Vec<Option<Eval>> {
        let n = self.len();
        (0..n)
            .map(|k| {
                let e = self.evaluate(k);
                progress(k + 1, n);
                e
            })
            .collect()
    }

    /// The review from the evaluations of every position (as [`Analyser::run`] returns
    /// them).
    pub fn review(&self, evals: &[Option<Eval>]) -> Review {
        Review::build(&self.positions, evals)
    }
}

/// One move, judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveReview {
    /// The move's number, from 1.
    pub number: u32,
    /// The seat that played it.
    pub seat: u8,
    /// The colour it played.
    pub colour: u8,
    /// The action as a token (`K10`, `take:2`).
    pub action: String,
    /// The engine's score of the position before it, for the mover (`None`: not judged).
    pub eval: Option<i32>,
    /// The engine's best action there.
    pub best: Option<String>,
    /// The first colour's win chance before the move (0..1).
    pub before: f64,
    /// The first colour's win chance after it.
    pub after: f64,
    /// The mover's loss of win chance (0 for a gain).
    pub drop: f64,
    /// Its class.
    pub class: Class,
}

/// One player's figures.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    /// The seat.
    pub seat: u8,
    /// Judged moves.
    pub moves: u32,
    /// Inaccuracies.
    pub inaccuracies: u32,
    /// Mistakes.
    pub mistakes: u32,
    /// Blunders.
    pub blunders: u32,
    /// Mean move accuracy, 0..=100 (100 with no judged move).
    pub accuracy: f64,
}

/// A whole review.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Review {
    /// The first colour's win chance after each action, position 0 (the empty board) first.
    pub chances: Vec<f64>,
    /// Every action, judged.
    pub moves: Vec<MoveReview>,
    /// Seat 1's figures, then seat 2's.
    pub players: Vec<PlayerSummary>,
    /// Indices into `moves` of the turning points, in the order they were played.
    pub turning_points: Vec<usize>,
}

/// The first colour's chance in a position with an evaluation.
fn first_colour_chance(game: &Game, eval: Option<&Eval>) -> f64 {
    match game.status() {
        Status::Won { winners, .. } => {
            if winners.contains(1) {
                1.0
            } else {
                0.0
            }
        }
        Status::Draw => 0.5,
        Status::Ongoing => match eval {
            Some(e) => {
                let mine = win_chance(e.score);
                if game.to_move() == 1 {
                    mine
                } else {
                    1.0 - mine
                }
            }
            None => 0.5,
        },
    }
}

impl Review {
    /// Builds the review of the positions of a game (the first empty, the last over) from
    /// their evaluations (missing ones count as not judged).
    pub fn build(positions: &[Game], evals: &[Option<Eval>]) -> Review {
        let eval = |k: usize| evals.get(k).copied().flatten();
        let chances: Vec<f64> = positions
            .iter()
            .enumerate()
            .map(|(k, g)| first_colour_chance(g, eval(k).as_ref()))
            .collect();
        let mut players: Vec<PlayerSummary> = (1..=2)
            .map(|seat| PlayerSummary {
                seat,
                ..PlayerSummary::default()
            })
            .collect();
        let mut accuracy_sum = [0.0f64; 2];
        let mut moves = Vec::new();
        for (k, pair) in positions.windows(2).enumerate() {
            let (before_game, after_game) = (&pair[0], &pair[1]);
            let Some(action) = after_game.record().get(k).copied() else {
                continue;
            };
            let seat = before_game.seat_to_act().unwrap_or(1);
            let colour = before_game.to_move();
            let e = eval(k);
            let (before, after) = (chances[k], chances[k + 1]);
            let mover = |c: f64| if colour == 1 { c } else { 1.0 - c };
            let judged = e.is_some() && matches!(action, Action::Place(_));
            // The engine's own choice loses nothing: a lower score after it is the search
            // seeing further from the next position (its horizon), not the player's error,
            // and a turning point must not offer the move played as the better one.
            let engine_choice = e.and_then(|e| e.best) == Some(action);
            let drop = if judged && !engine_choice {
                (mover(before) - mover(after)).max(0.0)
            } else {
                0.0
            };
            let class = if judged {
                Class::of_drop(drop)
            } else {
                Class::Book
            };
            if judged && let Some(p) = players.get_mut(usize::from(seat) - 1) {
                p.moves += 1;
                match class {
                    Class::Inaccuracy => p.inaccuracies += 1,
                    Class::Mistake => p.mistakes += 1,
                    Class::Blunder => p.blunders += 1,
                    Class::Good | Class::Book => {}
                }
                accuracy_sum[usize::from(seat) - 1] += move_accuracy(drop);
            }
            moves.push(MoveReview {
                number: k as u32 + 1,
                seat,
                colour,
                action: action.to_string(),
                eval: e.map(|e| e.score),
                best: e.and_then(|e| e.best).map(|a| a.to_string()),
                before,
                after,
                drop,
                class,
            });
        }
        for (p, sum) in players.iter_mut().zip(accuracy_sum) {
            p.accuracy = if p.moves == 0 {
                100.0
            } else {
                sum / f64::from(p.moves)
            };
        }
        let mut turning: Vec<usize> = (0..moves.len())
            .filter(|&i| moves[i].drop >= MISTAKE && moves[i].class != Class::Book)
            .collect();
        // Largest drops first (the earlier on a tie), then back in the order played.
        turning.sort_by(|&a, &b| moves[b].drop.total_cmp(&moves[a].drop).then(a.cmp(&b)));
        turning.truncate(TURNING_POINTS);
        turning.sort_unstable();
        Review {
            chances,
            moves,
            players,
            turning_points: turning,
        }
    }

    /// The position before a move (index into `moves`) with the engine's better move, for
    /// the turning points' pictures: (the game after the move, the better point).
    pub fn turning_position(
        &self,
        rules: RuleSet,
        record: &[Action],
        index: usize,
    ) -> Option<(Game, Option<crate::rules::Point>)> {
        let m = self.moves.get(index)?;
        let upto = usize::try_from(m.number).ok()?;
        let game = Game::from_record(rules, record.get(..upto)?).ok()?;
        let better = m
            .best
            .as_deref()
            .and_then(|b| crate::rules::Point::parse(b, rules.size).ok())
            .filter(|&p| game.stone_at(p).is_none());
        Some((game, better))
    }
}

impl Review {
    /// The chart of this review with the caller's words: mistakes and blunders marked, the
    /// turning points labelled with their move numbers.
    pub fn chart(&self, title: String, move_word: String) -> crate::render::Chart {
        use crate::render::{ChartMark, MarkKind};
        let marks = self
            .moves
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let kind = match m.class {
                    Class::Mistake => MarkKind::Mistake,
                    Class::Blunder => MarkKind::Blunder,
                    _ => return None,
                };
                Some(ChartMark {
                    ply: m.number as usize,
                    kind,
                    labelled: self.turning_points.contains(&i),
                })
            })
            .collect();
        crate::render::Chart {
            title,
            move_word,
            chances: self.chances.clone(),
            marks,
        }
    }

    /// A turning point in plain English, for the command line:
    /// "Move 23, M12 (white), dropped black's chance from 64% to 21%; N11 kept it".
    pub fn describe_english(&self, index: usize) -> Option<String> {
        let m = self.moves.get(index)?;
        let colour = match m.colour {
            1 => "black",
            _ => "white",
        };
        let pct = |c: f64| (c * 100.0).round() as i64;
        let mut line = format!(
            "Move {}, {} ({colour}), changed black's chance from {}% to {}%",
            m.number,
            m.action,
            pct(m.before),
            pct(m.after)
        );
        if let Some(b) = &m.best {
            line.push_str(&format!("; {b} kept it at {}%", pct(m.before)));
        }
        Some(line)
    }
}

/// How long a running analysis's claim lasts without progress; an analysis whose claim is
/// older (its process stopped) is started again by the next sweep.
pub const REVIEW_LEASE: std::time::Duration = std::time::Duration::from_secs(60);

/// The name of the analysis method stored with each review: a stored review made another
/// way (another node budget or mapping) is made again.
pub fn method(nodes: u64) -> String {
    format!("v1-nodes{nodes}-scale{SCORE_SCALE}")
}

/// What asking for a review found.
#[derive(Debug)]
pub enum ReviewStart {
    /// The stored review.
    Stored(Box<Review>),
    /// Another analysis of this game runs now.
    Busy,
    /// Claimed: analyse with this, report progress with [`crate::service::Service::review_alive`]
    /// and store the result with [`crate::service::Service::save_review`].
    Claimed(Box<Analyser>),
}

impl crate::service::Service {
    /// Starts (or finds) the review of a finished game of this guild.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchGame`](crate::service::ServiceError::NoSuchGame),
    /// [`ServiceError::Review`](crate::service::ServiceError::Review) (in progress, 3-4
    /// players), [`ServiceError::Storage`](crate::service::ServiceError::Storage).
    pub async fn start_review(
        &self,
        guild: crate::store::GuildId,
        id: crate::store::GameId,
        lang: &str,
    ) -> Result<(crate::service::GameView, ReviewStart), crate::service::ServiceError> {
        let view = self.game(guild, id).await?;
        let start = self.claim_review_of(&view, lang).await?;
        Ok((view, start))
    }

    /// Claims again an analysis whose process stopped (see [`crate::service::Service::stale_reviews`]).
    ///
    /// # Errors
    /// As [`crate::service::Service::start_review`].
    pub async fn resume_review(
        &self,
        id: crate::store::GameId,
        lang: &str,
    ) -> Result<(crate::service::GameView, ReviewStart), crate::service::ServiceError> {
        let view = self.view_of(id).await?;
        let start = self.claim_review_of(&view, lang).await?;
        Ok((view, start))
    }

    async fn claim_review_of(
        &self,
        view: &crate::service::GameView,
        lang: &str,
    ) -> Result<ReviewStart, crate::service::ServiceError> {
        use crate::service::ServiceError;
        if !view.is_over() {
            return Err(ServiceError::Review(ReviewError::InProgress));
        }
        let rules = *view.game.rules();
        let nodes = self.config.review_nodes.max(1);
        let analyser = Analyser::of_finished(rules, view.game.record(), nodes)
            .map_err(ServiceError::Review)?;
        let now = self.clock.now();
        let stale = crate::store::Timestamp(now.0 - REVIEW_LEASE.as_millis() as i64);
        match self
            .store
            .claim_review(view.id, &method(nodes), lang, now, stale)
            .await?
        {
            crate::store::ReviewClaim::Done(json) => match serde_json::from_str(&json) {
                Ok(r) => Ok(ReviewStart::Stored(Box::new(r))),
                Err(e) => Err(ServiceError::Storage(crate::store::StorageError::corrupt(
                    format!("review of game {}: {e}", view.id.0),
                ))),
            },
            crate::store::ReviewClaim::Busy => Ok(ReviewStart::Busy),
            crate::store::ReviewClaim::Claimed => Ok(ReviewStart::Claimed(Box::new(analyser))),
        }
    }

    /// Records the message that shows an analysis's progress (to finish it after a restart).
    ///
    /// # Errors
    /// [`ServiceError::Storage`](crate::service::ServiceError::Storage).
    pub async fn review_message(
        &self,
        id: crate::store::GameId,
        channel: crate::store::ChannelId,
        message: crate::store::MessageId,
    ) -> Result<(), crate::service::ServiceError> {
        Ok(self.store.set_review_message(id, channel, message).await?)
    }

    /// Renews an analysis's claim: it made progress.
    ///
    /// # Errors
    /// [`ServiceError::Storage`](crate::service::ServiceError::Storage).
    pub async fn review_alive(
        &self,
        id: crate::store::GameId,
    ) -> Result<(), crate::service::ServiceError> {
        Ok(self.store.renew_review(id, self.clock.now()).await?)
    }

    /// Stores a finished review.
    ///
    /// # Errors
    /// [`ServiceError::Storage`](crate::service::ServiceError::Storage).
    pub async fn save_review(
        &self,
        id: crate::store::GameId,
        review: &Review,
    ) -> Result<(), crate::service::ServiceError> {
        let json = serde_json::to_string(review).expect("plain data serializes");
        Ok(self
            .store
            .finish_review(
                id,
                &method(self.config.review_nodes.max(1)),
                &json,
                self.clock.now(),
            )
            .await?)
    }

    /// Gives up an analysis (it failed); it may be asked for again.
    ///
    /// # Errors
    /// [`ServiceError::Storage`](crate::service::ServiceError::Storage).
    pub async fn abandon_review(
        &self,
        id: crate::store::GameId,
    ) -> Result<(), crate::service::ServiceError> {
        Ok(self.store.drop_review(id).await?)
    }

    /// The analyses whose process stopped: claimed, without progress for [`REVIEW_LEASE`].
    ///
    /// # Errors
    /// [`ServiceError::Storage`](crate::service::ServiceError::Storage).
    pub async fn stale_reviews(
        &self,
    ) -> Result<Vec<crate::store::RunningReview>, crate::service::ServiceError> {
        let now = self.clock.now();
        let stale = crate::store::Timestamp(now.0 - REVIEW_LEASE.as_millis() as i64);
        Ok(self.store.stale_reviews(stale).await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::play_tokens;
    use crate::rules::{Preset, RuleSet};
    use proptest::prelude::*;

    #[test]
    fn classes_follow_the_documented_thresholds() {
        assert_eq!(Class::of_drop(0.0), Class::Good);
        assert_eq!(Class::of_drop(0.099), Class::Good);
        assert_eq!(Class::of_drop(0.10), Class::Inaccuracy);
        assert_eq!(Class::of_drop(0.199), Class::Inaccuracy);
        assert_eq!(Class::of_drop(0.20), Class::Mistake);
        assert_eq!(Class::of_drop(0.2999), Class::Mistake);
        assert_eq!(Class::of_drop(0.30), Class::Blunder);
        assert_eq!(Class::of_drop(1.0), Class::Blunder);
    }

    #[test]
    fn the_logistic_mapping_is_centred_scaled_and_saturates_on_wins() {
        assert!((win_chance(0) - 0.5).abs() < 1e-12);
        let one = 1.0 / (1.0 + (-1.0f64).exp());
        assert!((win_chance(SCORE_SCALE as i32) - one).abs() < 1e-9);
        assert!((win_chance(-(SCORE_SCALE as i32)) - (1.0 - one)).abs() < 1e-9);
        assert_eq!(win_chance(WIN - 3), 1.0);
        assert_eq!(win_chance(-(WIN - 3)), 0.0);
        assert!(win_chance(50_000) > 0.999);
    }

    #[test]
    fn accuracy_is_full_without_loss_and_falls_with_it() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(
            (move_accuracy(-0.2) - 100.0).abs() < 0.01,
            "a gain is no loss"
        );
        assert!(move_accuracy(0.1) < 70.0 && move_accuracy(0.1) > 60.0);
        assert_eq!(move_accuracy(1.0), 0.0);
    }

    proptest! {
        #[test]
        fn win_chance_is_monotonic_and_symmetric(a in -2_000_000i32..2_000_000, b in -2_000_000i32..2_000_000) {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(win_chance(lo) <= win_chance(hi));
            prop_assert!((win_chance(a) + win_chance(-a) - 1.0).abs() < 1e-9);
            prop_assert!((0.0..=1.0).contains(&win_chance(a)));
        }

        #[test]
        fn classes_grow_with_the_drop(a in 0.0f64..1.0, b in 0.0f64..1.0) {
            let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
            prop_assert!(Class::of_drop(lo) <= Class::of_drop(hi));
            prop_assert!(move_accuracy(lo) >= move_accuracy(hi));
        }
    }

    fn gomoku() -> RuleSet {
        RuleSet::preset(Preset::Gomoku)
    }

    #[test]
    fn an_unfinished_game_and_a_four_player_game_are_refused() {
        let (g, _) = play_tokens(gomoku(), "K10 K11 L10");
        assert_eq!(
            Analyser::new(gomoku(), g.record()).unwrap_err(),
            ReviewError::InProgress
        );
        let four: RuleSet = crate::cli::rule_set("gomoku", &["players=4".to_string()]).unwrap();
        assert_eq!(
            Analyser::new(four, &[]).unwrap_err(),
            ReviewError::TooManyPlayers
        );
    }

    /// Built from hand-made evaluations: the classes, counts and turning points follow.
    #[test]
    fn a_review_judges_each_mover_by_their_own_chance() {
        // Black wins with a five in the top row while white plays elsewhere.
        let (g, e) = play_tokens(gomoku(), "A15 A1 B15 C1 C15 E1 D15 G1 E15");
        assert!(e.is_none() && g.is_over());
        let rules = gomoku();
        let mut positions = vec![Game::new(rules)];
        let mut game = Game::new(rules);
        for &a in g.record() {
            game.apply(a).unwrap();
            positions.push(game.clone());
        }
        // Scores for the side to move: even, then white's sixth move gives black +300, black
        // keeps most of it, and white's eighth lets black win at once.
        let scores = [0, 0, 0, 0, 0, 0, 300, -200, WIN - 5];
        let evals: Vec<Option<Eval>> = scores
            .iter()
            .map(|&s| {
                Some(Eval {
                    score: s,
                    best: None,
                })
            })
            .chain([None])
            .collect();
        let r = Review::build(&positions, &evals);
        assert_eq!(r.chances.len(), 10);
        assert_eq!(r.chances[9], 1.0, "black won");
        assert_eq!(r.moves.len(), 9);
        // Move 6 (white's E1) leaves black at +300: white's chance falls from 50 % by as much.
        let m6 = &r.moves[5];
        assert_eq!(m6.colour, 2);
        assert!((m6.drop - (win_chance(300) - 0.5)).abs() < 1e-9);
        assert_eq!(m6.class, Class::Inaccuracy);
        // Move 8 (white's G1) lets black win in one: a blunder.
        let m8 = &r.moves[7];
        assert_eq!(m8.colour, 2);
        assert_eq!(m8.class, Class::Blunder);
        // Black never lost chance: all good.
        assert!(
            r.moves
                .iter()
                .filter(|m| m.colour == 1)
                .all(|m| m.class == Class::Good)
        );
        let white = &r.players[usize::from(r.moves[7].seat) - 1];
        assert!(white.blunders >= 1 && white.accuracy < 100.0);
        assert!(r.turning_points.len() <= TURNING_POINTS);
        assert!(r.turning_points.contains(&7));
        assert!(r.turning_points.windows(2).all(|w| w[0] < w[1]));
    }

    /// A move the engine itself would have played is never a mistake, whatever the
    /// evaluation of the position after it says.
    #[test]
    fn the_engines_own_choice_is_not_charged_a_drop() {
        let (g, e) = play_tokens(gomoku(), "A15 A1 B15 C1 C15 E1 D15 G1 E15");
        assert!(e.is_none() && g.is_over());
        let mut positions = vec![Game::new(gomoku())];
        let mut game = Game::new(gomoku());
        for &a in g.record() {
            game.apply(a).unwrap();
            positions.push(game.clone());
        }
        // White's sixth move (E1, index 5) is followed by black at +300; first as the
        // engine's own best move, then with another best move.
        let evals_with = |best: Option<Action>| -> Vec<Option<Eval>> {
            [0, 0, 0, 0, 0, 0, 300, 0, 0]
                .iter()
                .enumerate()
                .map(|(k, &score)| {
                    Some(Eval {
                        score,
                        best: if k == 5 { best } else { None },
                    })
                })
                .chain([None])
                .collect()
        };
        let played = g.record()[5];
        let own = Review::build(&positions, &evals_with(Some(played)));
        assert_eq!(own.moves[5].drop, 0.0);
        assert_eq!(own.moves[5].class, Class::Good);
        assert!(!own.turning_points.contains(&5));
        let other = Review::build(&positions, &evals_with(Some(g.record()[7])));
        assert!(other.moves[5].drop > 0.0);
        assert_ne!(other.moves[5].class, Class::Good);
    }

    #[test]
    fn the_engine_review_of_a_short_game_is_reproducible_and_finds_the_blunder() {
        // White answers black's first stones, then ignores black's open three (A1): black's
        // fourth stone makes an open four, and the review must call A1 a blunder.
        let (g, e) = play_tokens(gomoku(), "J10 J11 K10 K11 L10 A1 M10 A3 N10");
        assert!(e.is_none() && g.is_over());
        let mut a = Analyser::with_budget(gomoku(), g.record(), 4_000).unwrap();
        let mut seen = Vec::new();
        let evals = a.run(|done, total| seen.push((done, total)));
        assert_eq!(seen.last(), Some(&(10, 10)));
        assert!(evals[9].is_none(), "the end is not searched");
        let r = a.review(&evals);
        let again = Analyser::with_budget(gomoku(), g.record(), 4_000)
            .unwrap()
            .run(|_, _| {});
        assert_eq!(evals, again, "a node budget gives the same evaluations");
        // Move 6 (white's A1) lets black make an open four (L10 already is an open three).
        let worst = r
            .moves
            .iter()
            .filter(|m| m.colour == 2)
            .map(|m| m.class)
            .max()
            .unwrap();
        assert_eq!(worst, Class::Blunder, "{r:#?}");
        assert!(!r.turning_points.is_empty());
    }
}
