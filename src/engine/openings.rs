//! Renju's tournament openings played by the computer (Taraguchi-10, Soosõrv-8): the swap
//! decisions, the declared number of fifth moves, the offer and the choice of a fifth move.
//!
//! Every decision comes from one judgement, `black_edge`: how much better black stands in a
//! position with black to move (positive: black is better). The simple player judges by line
//! patterns, the search engine by searching; the reasoning here is the same for both:
//!
//! - A swap decision takes the colour that stands better now. (Where a later swap will follow,
//!   the other player balances the next stone, so the choice now matters little beyond that.)
//! - Black offers the fifth moves best for black: white will choose the one worst for black,
//!   so black's offer is worth its weakest member, and the best offer is the best `n` moves.
//! - White chooses the offered move worst for black.
//! - White declares the number of offers that leaves the game closest to even: black may swap
//!   after the declaration, so an unbalanced number only hands the better side to black.
//! - Taraguchi-10's black offers ten fifth moves instead of swapping when even the weakest of
//!   its best ten leaves black ahead.

use super::{Engine, Level, Limits};
use crate::rules::{Action, Candidates, Game, Opening, Phase, Point, RuleSet};

/// How many fifth moves are judged at most (the nearest the stones); the others are too far
/// from the fight to be among the best or the worst that matter.
const FIFTH_MOVES_JUDGED: usize = 24;

/// The position of `game` (its stones, in the order they were played) as a game without an
/// opening rule, with the same colour to move: what the stones mean once the opening is over.
pub(crate) fn position(game: &Game) -> Game {
    let mut out = Game::new(RuleSet {
        opening: Opening::None,
        ..*game.rules()
    });
    for a in game.record() {
        if let Action::Place(p) | Action::Choose(p) = *a {
            // The stones alternate colours in every Renju opening, so replaying them in order
            // rebuilds the position; a refusal cannot happen for a position the game accepted.
            let _ = out.apply(Action::Place(p));
        }
    }
    out
}

/// The empty points where black may put its fifth move, nearest the stones first, at most
/// [`FIFTH_MOVES_JUDGED`] of them that are not symmetric to an earlier one.
fn fifth_moves(game: &Game, pos: &Game) -> Vec<Point> {
    let stones = pos.stones();
    let centre = Point::centre(game.size());
    let mut points: Vec<(u8, u8, Point)> = pos
        .points()
        .filter(|&p| pos.stone_at(p).is_none() && pos.is_legal(Action::Place(p)))
        .map(|p| {
            let near = stones
                .iter()
                .map(|&(s, _)| s.distance(p))
                .min()
                .unwrap_or(0);
            (near, p.distance(centre), p)
        })
        .collect();
    points.sort();
    let symmetries = game.symmetries();
    let mut out: Vec<Point> = Vec::new();
    for (_, _, p) in points {
        if out.len() == FIFTH_MOVES_JUDGED {
            break;
        }
        if out
            .iter()
            .any(|&q| symmetries.iter().any(|s| s.apply(q, game.size()) == p))
        {
            continue;
        }
        out.push(p);
    }
    out
}

/// The fifth moves judged, best for black first: `(black's edge after it, point)`.
fn judged_fifth_moves(game: &Game, black_edge: &mut dyn FnMut(&Game) -> i64) -> Vec<(i64, Point)> {
    let pos = position(game);
    let mut judged: Vec<(i64, Point)> = fifth_moves(game, &pos)
        .into_iter()
        .filter_map(|p| {
            let mut after = pos.clone();
            after.apply(Action::Place(p)).ok()?;
            // White moves next: black's edge is what white cannot take back.
            Some((black_edge(&after), p))
        })
        .collect();
    judged.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    judged
}

/// The best offer of `n` fifth moves for black and what it is worth to black (its weakest).
fn best_offer(
    game: &Game,
    n: usize,
    black_edge: &mut dyn FnMut(&Game) -> i64,
) -> Option<(Candidates, i64)> {
    let judged = judged_fifth_moves(game, black_edge);
    if judged.len() < n {
        // Too few judged points (a tiny board): the rules core's own valid offer.
        return game.sample_offer().map(|c| (c, 0));
    }
    let points: Vec<Point> = judged[..n].iter().map(|&(_, p)| p).collect();
    Some((Candidates::new(&points)?, judged[n - 1].0))
}

/// The action the computer takes in a phase of the Renju openings, or `None` outside them.
pub(crate) fn decide(game: &Game, black_edge: &mut dyn FnMut(&Game) -> i64) -> Option<Action> {
    if game.is_over() {
        return None;
    }
    let action = match game.phase() {
        Phase::SwapOrKeep { seat, may_offer } => {
            let mine = game.colour_of_seat(seat);
            if may_offer
                && mine == 1
                && let Some((offer, worth)) =
                    best_offer(game, usize::from(TARAGUCHI_OFFERS), black_edge)
                && worth > 0
            {
                Action::Offer(offer)
            } else {
                let pos = position(game);
                let edge = black_edge(&pos);
                let better = if edge >= 0 { 1 } else { 2 };
                if better == mine {
                    Action::Keep
                } else {
                    Action::Swap
                }
            }
        }
        Phase::Declaring { .. } => {
            let judged = judged_fifth_moves(game, black_edge);
            // With n offers black's worth is its n-th best move: pick the n nearest to even.
            let n = (1..=8usize)
                .filter(|&n| n <= judged.len())
                .min_by_key(|&n| (judged[n - 1].0.abs(), n))
                .unwrap_or(8);
            Action::Declare(n as u8)
        }
        Phase::Offering { count, .. } => {
            Action::Offer(best_offer(game, usize::from(count), black_edge)?.0)
        }
        Phase::Selecting { .. } => {
            let pos = position(game);
            let choice = game.offered().iter().copied().min_by_key(|&p| {
                let mut after = pos.clone();
                match after.apply(Action::Place(p)) {
                    Ok(_) => (black_edge(&after), p),
                    Err(_) => (i64::MAX, p),
                }
            })?;
            Action::Choose(choice)
        }
        Phase::Placing { .. } | Phase::Choosing { .. } | Phase::Playing => return None,
    };
    game.is_legal(action).then_some(action)
}

/// Taraguchi-10's number of offered fifth moves.
pub(crate) const TARAGUCHI_OFFERS: u8 = 10;

/// Whether the rule set has one of the Renju openings this module plays.
pub(crate) fn is_tournament_opening(rules: &RuleSet) -> bool {
    matches!(rules.opening, Opening::Taraguchi10 | Opening::Soosorv8)
}

/// The decision of the search engine at `level`: each position is judged by a short search
/// (the budget is shared by every judgement a decision needs), its score read as black's edge.
pub(crate) fn decide_by_search(
    game: &Game,
    level: Level,
    limits: Limits,
    seed: u64,
) -> Option<Action> {
    if !is_tournament_opening(game.rules()) {
        return None;
    }
    // A decision judges at most the fifth moves and the position itself.
    let shares = FIFTH_MOVES_JUDGED as u32 + 2;
    let each = Limits {
        time: limits.time / shares,
        nodes: (limits.nodes / u64::from(shares)).max(1),
    };
    let mut engine = Engine::seeded(level, seed);
    decide(game, &mut |pos: &Game| {
        if pos.is_over() {
            return match pos.status() {
                crate::rules::Status::Won { winners, .. } if winners.contains(1) => {
                    i64::from(super::WIN)
                }
                crate::rules::Status::Won { .. } => -i64::from(super::WIN),
                _ => 0,
            };
        }
        engine.choose_with(pos, each);
        let score = i64::from(engine.last_info().score);
        if pos.to_move() == 1 { score } else { -score }
    })
}

#[cfg(test)]
#[path = "openings_tests.rs"]
mod tests;
