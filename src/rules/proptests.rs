//! Property tests on random legal games, and fuzz-style tests feeding arbitrary input to every parser.

use proptest::prelude::*;

use super::record::GameRecord;
use super::*;

/// A spread of rule sets: every preset, every opening, captures and self-capture modes,
/// extra time, multiplayer with and without teams and mixed captures, small boards.
const SPECS: &[&str] = &[
    "gomoku",
    "gomoku-standard size=9",
    "pente",
    "keryo",
    "pente size=9 overline=no capture_win=4",
    "pente opening=swap2 self_capture=capture",
    "pente opening=swap self_capture=forbidden extra_time_capture=on",
    "keryo size=13 opening=long-pro extra_time_capture=on self_capture=forbidden",
    "keryo players=3 mixed_captures=on self_capture=capture",
    "pente players=3 self_capture=forbidden size=9",
    "pente players=4 teams=on extra_time_capture=on size=13",
    "gomoku players=4 size=9",
    "keryo size=9 capture_win=6 self_capture=capture extra_time_capture=on",
    "renju opening=none",
    "renju opening=swap2 size=9",
    "renju",
    "renju opening=soosorv-8 size=13",
];

fn check_invariants(g: &Game) -> Result<(), TestCaseError> {
    prop_assert_eq!(g.stone_count(), g.stones_placed() - g.stones_removed());
    prop_assert_eq!(g.stones().len(), g.stone_count());
    let scored: u16 = g.captured().iter().sum();
    prop_assert!(usize::from(scored) <= g.stones_removed());
    Ok(())
}

/// Plays a random legal game (choices index the legal-action list), checking at every step.
fn random_game(spec: &str, choices: &[u16], probes: &[(u8, u8)]) -> Result<Game, TestCaseError> {
    let rules = RuleSet::from_spec(spec).expect("test specs are valid");
    let mut g = Game::new(rules);
    for (step, &choice) in choices.iter().enumerate() {
        let legal = g.legal_actions();
        if legal.is_empty() {
            prop_assert!(g.is_over(), "no legal action in an ongoing game");
            break;
        }
        // Every listed action is accepted, and every accepted probe is listed.
        let (col, row) = probes[step % probes.len()];
        let probe = Action::Place(Point::new(col % 19, row % 19, 19).expect("in range"));
        let accepted = g.clone().apply(probe).is_ok();
        prop_assert_eq!(
            accepted,
            legal.contains(&probe),
            "probe {} at step {}",
            probe,
            step
        );

        let action = legal[usize::from(choice) % legal.len()];
        let before = g.clone();
        let report = g.apply(action);
        prop_assert!(
            report.is_ok(),
            "listed action {} refused: {:?}",
            action,
            report
        );
        check_invariants(&g)?;
        let after = g.clone();
        prop_assert_eq!(g.undo(), Some(action));
        prop_assert_eq!(
            &g,
            &before,
            "undo of {} did not restore the position",
            action
        );
        g = after;
        if g.is_over() {
            prop_assert!(g.legal_actions().is_empty());
            prop_assert_eq!(g.apply(action).unwrap_err(), PlayError::GameOver);
            break;
        }
    }
    Ok(g)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn random_legal_games_keep_every_invariant(
        spec in proptest::sample::select(SPECS),
        choices in proptest::collection::vec(any::<u16>(), 1..160),
        probes in proptest::collection::vec((any::<u8>(), any::<u8>()), 1..8),
    ) {
        let g = random_game(spec, &choices, &probes)?;
        // The record replays to the same game.
        let again = Game::from_record(*g.rules(), g.record());
        prop_assert!(again.is_ok());
        prop_assert_eq!(&again.unwrap(), &g);
        // Export then import gives the same game, in both formats.
        let names: Vec<String> = (1..=g.rules().players).map(|s| format!("player {s} ]\\\"")).collect();
        let record = GameRecord::from_game(&g, &names);
        let from_pgn = GameRecord::from_pgn(&record.to_pgn());
        prop_assert_eq!(from_pgn.as_ref(), Ok(&record), "{}", record.to_pgn());
        let from_sgf = GameRecord::from_sgf(&record.to_sgf());
        prop_assert_eq!(from_sgf.as_ref(), Ok(&record), "{}", record.to_sgf());
        prop_assert_eq!(&record.replay().unwrap(), &g);
        // PSQ keeps every stone of two-player games without captures, and refuses the rest.
        match record.to_psq() {
            Ok(psq) => {
                // Without colour choices in the file, swap openings are read as free play.
                let back = match g.rules().opening {
                    Opening::Swap | Opening::Swap2 | Opening::Taraguchi10 | Opening::Soosorv8 => {
                        GameRecord::from_psq(&psq)
                    }
                    _ => GameRecord::from_psq_as(&psq, *g.rules()),
                };
                prop_assert!(back.is_ok(), "{}", psq);
                let back = back.unwrap().replay().unwrap();
                prop_assert_eq!(back.stones(), g.stones());
            }
            Err(record::PsqError::Captures) => prop_assert!(g.rules().captures != Captures::None),
            Err(record::PsqError::Players(n)) => prop_assert!(n > 2),
        }
    }

    #[test]
    fn long_random_games_in_capture_variants(
        spec in proptest::sample::select(&SPECS[2..]),
        choices in proptest::collection::vec(any::<u16>(), 200..400),
    ) {
        random_game(spec, &choices, &[(9, 9)])?;
    }

    #[test]
    fn parsers_never_panic_on_arbitrary_text(text in any::<String>(), size in proptest::sample::select(&[9u8, 13, 15, 19][..])) {
        let _ = Point::parse(&text, size);
        let _ = Point::from_sgf(&text, size);
        let _ = Action::parse(&text, size);
        let _ = RuleSet::from_spec(&text);
        let _ = text.parse::<Preset>();
        let _ = GameRecord::from_pgn(&text);
        let _ = GameRecord::from_sgf(&text);
        let _ = GameRecord::from_psq(&text);
        let _ = GameRecord::from_psq(&format!("Piskvorky 15x15, 1:1, 0\n{text}"));
        // (`cli::play_tokens` on the same text: src/cli.rs, the bot's crate.)
    }

    #[test]
    fn option_parsing_never_panics(key in "[a-z_]{0,20}", value in ".{0,12}", preset in proptest::sample::select(&Preset::ALL[..])) {
        let _ = RuleSet::with_options(preset, &[format!("{key}={value}")]);
        for k in OPTION_KEYS {
            if let Ok(r) = RuleSet::with_options(preset, &[format!("{k}={value}")]) {
                // Whatever is accepted round-trips through the compact form.
                prop_assert_eq!(RuleSet::from_spec(&r.to_spec()), Ok(r));
            }
        }
    }

    #[test]
    fn records_with_garbage_moves_are_refused_cleanly(moves in proptest::collection::vec(".{0,6}", 0..12)) {
        let body = moves.join(" ");
        let _ = GameRecord::from_pgn(&format!("[Game \"Pente\"]\n\n{body}"));
        let _ = GameRecord::from_sgf(&format!("(;GM[4]SZ[19]RU[pente];B[{body}])"));
    }

    #[test]
    fn arbitrary_actions_never_panic(
        spec in proptest::sample::select(SPECS),
        actions in proptest::collection::vec((0u8..10, any::<u8>(), any::<u8>()), 0..60),
    ) {
        let mut g = Game::new(RuleSet::from_spec(spec).expect("valid"));
        for (kind, a, b) in actions {
            let point = |k: u8| Point::new((a.wrapping_mul(7).wrapping_add(k * 3)) % 19, (b.wrapping_mul(5).wrapping_add(k * 11)) % 19, 19).expect("in range");
            let action = match kind {
                0 | 1 => Action::Place(point(0)),
                2 => Action::Take(a),
                3 => Action::PlaceTwo,
                4 => Action::Swap,
                5 => Action::Keep,
                6 => Action::Declare(a % 10),
                7 => Action::Choose(point(0)),
                8 => {
                    // Often the sample offer (valid when an offer is due), else arbitrary points.
                    match g.sample_offer() {
                        Some(c) if a % 2 == 0 => Action::Offer(c),
                        _ => {
                            let points: Vec<Point> = (0..1 + b % 10).map(point).collect();
                            Action::Offer(Candidates::new(&points).expect("1 to 10 points"))
                        }
                    }
                }
                _ => match g.legal_actions().first() {
                    Some(&a) => a,
                    None => continue,
                },
            };
            let listed = g.legal_actions().contains(&action);
            let checked = g.is_legal(action);
            let result = g.apply(action);
            prop_assert_eq!(result.is_ok(), checked, "{}", action);
            // Offers cannot all be listed: one valid offer stands for them.
            if !matches!(action, Action::Offer(_)) {
                prop_assert_eq!(listed, checked, "{}", action);
            }
            check_invariants(&g)?;
        }
    }
}
