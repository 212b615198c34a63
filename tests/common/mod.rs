//! Positions shared by the render tests and benchmarks.

#![allow(dead_code)]

use gomoku_bot::rules::{Action, Game, Point, RuleSet};

/// A deterministic pseudo-random game: each move lands near the stones already down, is
/// legal, and never ends the game, until `stones` placements or no such move is left.
pub fn random_game(rules: RuleSet, stones: usize, seed: u64) -> Game {
    let mut game = Game::new(rules);
    let size = game.size();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = move |n: u32| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) % u64::from(n)) as u8
    };
    'moves: while game.stones_placed() < stones {
        for _ in 0..400 {
            let p = match game
                .stones()
                .get(usize::from(next(250)) % game.stone_count().max(1))
            {
                Some(&(anchor, _)) => {
                    let dc = i16::from(next(5)) - 2;
                    let dr = i16::from(next(5)) - 2;
                    let c = i16::from(anchor.col()) + dc;
                    let r = i16::from(anchor.row()) + dr;
                    if c < 0 || r < 0 {
                        continue;
                    }
                    match Point::new(c as u8, r as u8, size) {
                        Ok(p) => p,
                        Err(_) => continue,
                    }
                }
                None => Point::centre(size),
            };
            let action = Action::Place(p);
            if !game.is_legal(action) {
                continue;
            }
            game.apply(action).unwrap();
            if game.is_over() {
                game.undo();
                continue;
            }
            continue 'moves;
        }
        break;
    }
    game
}

/// The moves of a game as record tokens.
pub fn tokens(game: &Game) -> String {
    game.record()
        .iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
