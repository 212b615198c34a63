//! Generates the threat-search positions (`vct`, `vct-defence`) of the engine's tactical suite
//! (`tests/fixtures/engine-suite.txt`) from the engine's own self-play: no network, no other
//! engine's code.
//!
//! ```text
//! cargo run --release -p gomoku-core --example engine_suite_gen -- [games per rule set] [seed] [preset] > new-lines.txt
//! ```
//!
//! For each rule set, games are played from a few random stones near the centre by level 3
//! (seeded, node-capped) against level 2, whose mistakes leave threat wins on the board. Every
//! position of normal play is examined, each built by the rules core:
//! Every position is first screened by level 4's threat search (4,000 nodes, for the mover and
//! for the opponent after a pass); then:
//! - **vct**: the side to move has no continuous-four win (VCF search at the strongest level's
//!   depth, 60,000 nodes) but a win by fours and open threes (VCT search at that depth,
//!   150,000 nodes); the expected answers are every first move that search proves. Kept only
//!   when levels 4, 5 and 6 under the suite's node caps answer one of them *from the threat
//!   search*.
//! - **vct-defence**: if the side to move passed (played the point farthest from the stones),
//!   the opponent would win by threats (the suite test's own check, level 4's depths,
//!   40,000 nodes), and the
//!   mover has no threat win of its own (60,000 nodes); every legal point within four of a
//!   stone is tried, and a point is proved losing when the opponent then has a threat win
//!   (60,000 nodes; after a four of the mover's, the opponent's block is played and every
//!   reply of the mover must lose again, up to two such fours). The expected answers are all the
//!   points not proved losing; a position is kept when there are at most four, the suite's
//!   check finds no threat win after any of them, and levels 4-6 answer one of them. Points
//!   farther than four from every stone share no line window with a stone and count as the
//!   pass already checked.
//!
//! The suite's positions, checks and node caps come from `tests/engine_suite/positions.rs`,
//! the random openings from the arena's (`gomoku_core::engine::arena::random_opening`).
//!
//! Positions the levels miss are counted on stderr (the unfiltered solve rate), not written.

#[path = "../../../tests/engine_suite/positions.rs"]
mod positions;

use gomoku_core::engine::arena::random_opening;
use gomoku_core::engine::{Engine, Level, Style};
use gomoku_core::rules::{Action, Game, Phase, Point, RuleSet, Status};
use positions::{Position, answer, capped, far_point, level_4_threats, wins_by_threats};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The rule sets and how many positions of each kind to keep for each.
const RULES: [&str; 5] = [
    "gomoku",
    "gomoku-standard",
    "renju opening=none",
    "pente",
    "keryo",
];
const WINS_PER_RULES: usize = 7;
const DEFENCES_PER_RULES: usize = 5;
/// Most saving moves a defence position may have.
const MAX_SAVES: usize = 4;

fn strong() -> Engine {
    Engine::with_style(Level::MAX, Style::for_level(Level::MAX), 1)
}

/// Points where `colour` would win at once (a five, or the captures' goal).
fn winning_points(game: &Game, colour: u8) -> Vec<Point> {
    if game.to_move() != colour {
        return Vec::new();
    }
    game.points()
        .filter(|&p| game.stone_at(p).is_none())
        .filter(|&p| {
            let mut g = game.clone();
            matches!(g.apply(Action::Place(p)).map(|r| r.status),
                Ok(Status::Won { winners, .. }) if winners.contains(colour))
        })
        .collect()
}

/// Whether the side to move's move `p` is proved to lose to the opponent's threats.
fn proved_losing(game: &Game, p: Point, fours_left: u8) -> bool {
    let mover = game.to_move();
    let mut g = game.clone();
    if g.apply(Action::Place(p)).is_err() || g.is_over() {
        return g.is_over()
            && !matches!(g.status(), Status::Won { winners, .. } if winners.contains(mover));
    }
    // A four of the mover's: the opponent must block; after the block, every reply of the
    // mover must lose again.
    let mut passed = g.clone();
    let Some(far) = far_point(&g) else {
        return false;
    };
    if passed.apply(Action::Place(far)).is_err() {
        return false;
    }
    let my_fives = winning_points(&passed, mover);
    if !my_fives.is_empty() {
        if fours_left == 0 || my_fives.len() > 1 {
            return false;
        }
        let mut blocked = g.clone();
        if blocked.apply(Action::Place(my_fives[0])).is_err() || blocked.is_over() {
            return false;
        }
        return saving_moves(&blocked, fours_left - 1, 0).is_some_and(|s| s.is_empty());
    }
    strong().threat_win(&g, capped(60_000)).is_some()
}

/// Every legal point within four of a stone that is not proved losing for the side to move;
/// `None` when there are more than `most` of them (0: no bound).
fn saving_moves(game: &Game, fours_left: u8, most: usize) -> Option<Vec<Point>> {
    let stones = game.stones();
    let mut saves = Vec::new();
    for p in game.points() {
        if game.stone_at(p).is_some()
            || !game.is_legal(Action::Place(p))
            || !stones.iter().any(|s| s.0.distance(p) <= 4)
        {
            continue;
        }
        if !proved_losing(game, p, fours_left) {
            saves.push(p);
            if most > 0 && saves.len() > most {
                return None;
            }
        }
    }
    Some(saves)
}

/// Levels 4-6 under the suite's caps: how many answer in `expected` (for a `vct` position,
/// from the threat search), judged by the suite's own check.
fn levels_solve(game: &Game, spec: &str, category: &str, expected: &[Action], line: u64) -> usize {
    let p = Position {
        line: line as usize,
        category: category.to_string(),
        spec: spec.to_string(),
        game: game.clone(),
        expected: expected.to_vec(),
    };
    (4..=6u8)
        .filter(|&level| answer(&p, level, capped(positions::nodes_for(level))).correct)
        .count()
}

fn record(game: &Game) -> String {
    game.record()
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn tokens(actions: &[Action]) -> String {
    actions
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[derive(Default)]
struct Counts {
    wins: usize,
    defences: usize,
    wins_missed: usize,
    defences_missed: usize,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(40);
    let seed: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(2026);
    // Optionally one rule set of the list, by its preset name.
    let only = args.next();
    for spec in RULES {
        if only.as_deref().is_some_and(|o| !spec.starts_with(o)) {
            continue;
        }
        let rules = RuleSet::from_spec(spec).expect("rule set");
        let mut c = Counts::default();
        let mut seen = std::collections::HashSet::new();
        for g in 0..games {
            if c.wins >= WINS_PER_RULES && c.defences >= DEFENCES_PER_RULES {
                break;
            }
            let mut rng = StdRng::seed_from_u64(seed ^ g.wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let stones = rng.random_range(2..5);
            let mut game = random_opening(rules, stones, 3, &mut rng);
            let strong_seat = 1 + (g % 2) as u8;
            let mut players = [
                Engine::seeded(Level::new(3).expect("level"), seed + g),
                Engine::seeded(Level::new(2).expect("level"), seed + g + 1),
            ];
            // Positions a few plies apart, so one game does not give the same fight twice.
            let mut next_look = 6;
            while !game.is_over() && game.stone_count() < 120 {
                if game.phase() == Phase::Playing
                    && game.stones_placed() >= next_look
                    && examine(&game, spec, &mut c, &mut seen)
                {
                    next_look = game.stones_placed() + 8;
                }
                let k = if game.to_move() == strong_seat { 0 } else { 1 };
                let Some(a) = players[k].choose_with(&game, capped(3_000)) else {
                    break;
                };
                if game.apply(a).is_err() {
                    break;
                }
            }
        }
        eprintln!(
            "{spec}: kept {} vct and {} vct-defence; {} vct and {} vct-defence positions left out because a level 4-6 missed them",
            c.wins, c.defences, c.wins_missed, c.defences_missed
        );
    }
}

/// Looks at one position; whether it was written.
fn examine(
    game: &Game,
    spec: &str,
    c: &mut Counts,
    seen: &mut std::collections::HashSet<String>,
) -> bool {
    let rec = record(game);
    if !seen.insert(rec.clone()) {
        return false;
    }
    let line = game.stones_placed() as u64;
    let mover = game.to_move();
    if game.threatened_line().is_some() || !winning_points(game, mover).is_empty() {
        return false;
    }
    let mut e = strong();
    // A quick look first: most positions have no threat win for either side.
    let mine = level_4_threats().threat_win(game, capped(4_000)).is_some();
    if mine && !e.vcf_wins(game, capped(60_000)).is_empty() {
        return false;
    }
    // Black's threes in Renju are read at face value by the threat search (see
    // src/engine/search/threats.rs), so only white's threat wins are kept there.
    let renju_black = spec.starts_with("renju") && game.to_move() == 1;
    if mine && c.wins < WINS_PER_RULES && !renju_black {
        let wins = e.vct_wins(game, capped(150_000));
        if !wins.is_empty() {
            if levels_solve(game, spec, "vct", &wins, line) == 3 {
                c.wins += 1;
                println!(
                    "vct | {spec} | {rec} | {} | self-play, {} proved first moves",
                    tokens(&wins),
                    wins.len()
                );
                return true;
            }
            c.wins_missed += 1;
            return false;
        }
    }
    if mine || c.defences >= DEFENCES_PER_RULES {
        return false;
    }
    let Some(far) = far_point(game) else {
        return false;
    };
    let mut passed = game.clone();
    if passed.apply(Action::Place(far)).is_err()
        || !winning_points(&passed, 3 - mover).is_empty()
        || level_4_threats()
            .threat_win(&passed, capped(4_000))
            .is_none()
        || !wins_by_threats(&passed)
    {
        // No pass, a plain block (the opponent has a four), or no threat win to stop.
        return false;
    }
    // The mover's own threat win would make it no defence position.
    if e.threat_win(game, capped(60_000)).is_some() {
        return false;
    }
    let Some(saves) = saving_moves(game, 2, MAX_SAVES) else {
        return false;
    };
    if saves.is_empty() || saves.contains(&far) {
        return false;
    }
    let expected: Vec<Action> = saves.iter().copied().map(Action::Place).collect();
    // The suite checks that every accepted answer saves.
    let all_save = expected.iter().all(|&a| {
        let mut g = game.clone();
        g.apply(a).is_ok() && !wins_by_threats(&g)
    });
    if !all_save {
        return false;
    }
    if levels_solve(game, spec, "vct-defence", &expected, line) == 3 {
        c.defences += 1;
        println!(
            "vct-defence | {spec} | {rec} | {} | self-play, every other point within 4 of a stone proved losing",
            tokens(&expected)
        );
        return true;
    }
    c.defences_missed += 1;
    false
}
