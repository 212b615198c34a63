//! Property tests of the computer players: over random legal positions of every preset (and
//! the options that change what is legal), the chosen action is always accepted by the rules
//! core, and a player answers `None` only when the game is over.

use std::time::Duration;

use gomoku_bot::engine::{Engine, Level, Limits, player_for};
use gomoku_bot::rules::{Game, RuleSet};
use proptest::prelude::*;

const SPECS: &[&str] = &[
    "gomoku",
    "gomoku-standard",
    "pente",
    "keryo",
    "gomoku size=9",
    "gomoku line=4",
    "gomoku opening=swap",
    "gomoku opening=swap2",
    "pente opening=long-pro",
    "pente size=9 opening=none",
    "pente self_capture=forbidden",
    "pente self_capture=capture",
    "pente extra_time_capture=on",
    "keryo extra_time_capture=on self_capture=forbidden",
    "pente capture_win=4 size=13",
    "keryo capture_win=100 size=9 opening=none",
    "pente capture_win=0 size=9 opening=swap2",
    "gomoku opening=swap2 size=13",
    "pente players=3",
    "keryo players=4 teams=on",
];

/// A random legal game: `choices` index the legal-action list at each step.
fn random_game(spec: &str, choices: &[u16]) -> Game {
    let mut g = Game::new(RuleSet::from_spec(spec).expect("valid spec"));
    for &c in choices {
        let legal = g.legal_actions();
        if legal.is_empty() {
            break;
        }
        let a = legal[usize::from(c) % legal.len()];
        g.apply(a).expect("a legal action applies");
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn the_engine_always_answers_with_a_legal_action(
        spec in prop::sample::select(SPECS),
        choices in prop::collection::vec(any::<u16>(), 0..70),
        level in 1u8..=5,
        seed in any::<u64>(),
    ) {
        let game = random_game(spec, &choices);
        let level = Level::new(level).expect("level");
        let action = if game.rules().players == 2 {
            let mut engine = Engine::seeded(level, seed);
            engine.choose_with(&game, Limits { time: Duration::from_secs(30), nodes: 400 })
        } else {
            player_for(game.rules(), level).choose(&game, Duration::from_millis(20))
        };
        if game.is_over() {
            prop_assert_eq!(action, None);
        } else {
            let a = action.expect("an answer while the game is open");
            let mut g = game.clone();
            prop_assert!(g.apply(a).is_ok(), "{} after {:?}: {} refused", spec, game.record(), a);
        }
    }
}

#[test]
fn player_for_plays_whole_games_to_the_end() {
    for spec in [
        "gomoku size=9",
        "pente size=9 opening=none",
        "gomoku opening=swap2 size=9",
    ] {
        let mut game = Game::new(RuleSet::from_spec(spec).expect("spec"));
        let mut players = [
            player_for(game.rules(), Level::MIN),
            player_for(game.rules(), Level::new(2).expect("level")),
        ];
        let mut turns = 0;
        while let Some(seat) = game.seat_to_act() {
            let a = players[usize::from(seat - 1)]
                .choose(&game, Duration::from_millis(5))
                .expect("a move");
            game.apply(a).expect("legal");
            turns += 1;
            assert!(turns <= 200, "{spec}: the game never ends");
        }
        assert!(game.is_over());
        assert_eq!(players[0].choose(&game, Duration::from_millis(5)), None);
    }
}
