//! Renju's tournament openings: every phase of Taraguchi-10 and Soosõrv-8, who acts in each,
//! the areas, the offers (count, repeats, symmetry) and the choice, and their records.

use super::record::GameRecord;
use super::*;

fn game(spec: &str) -> Game {
    Game::new(RuleSet::from_spec(spec).unwrap())
}

fn play(g: &mut Game, tokens: &str) {
    for t in tokens.split_whitespace() {
        g.apply_token(t)
            .unwrap_or_else(|e| panic!("{t}: {e} at {:?}", g.record()));
    }
}

fn refused(g: &Game, token: &str) -> MoveError {
    let mut probe = g.clone();
    let e = probe
        .apply_token(token)
        .expect_err("the token should be refused");
    assert_eq!(&probe, g, "a refusal leaves the game unchanged");
    e
}

fn pt(name: &str) -> Point {
    Point::parse(name, 15).unwrap()
}

#[test]
fn renju_plays_taraguchi_10_by_default() {
    let r = RuleSet::preset(Preset::Renju);
    assert_eq!(r.opening, Opening::Taraguchi10);
    assert_eq!(r.to_spec(), "renju");
    assert_eq!(
        RuleSet::from_spec("renju opening=Soosõrv-8")
            .unwrap()
            .opening,
        Opening::Soosorv8
    );
    assert!(matches!(
        RuleSet::from_spec("gomoku opening=taraguchi-10"),
        Err(RulesError::Conflict(Conflict::RenjuOpeningNeedsRenju(
            Opening::Taraguchi10
        )))
    ));
}

#[test]
fn taraguchi_10_moves_grow_square_by_square_with_a_swap_after_each() {
    let mut g = game("renju");
    assert_eq!((g.phase(), g.seat_to_act()), (Phase::Playing, Some(1)));
    let e = refused(&g, "J9");
    assert_eq!(e.code(), "opening_rule");
    assert!(e.to_string().contains("1x1"), "{e}");
    play(&mut g, "H8");
    assert_eq!(
        g.phase(),
        Phase::SwapOrKeep {
            seat: 2,
            may_offer: false
        }
    );
    assert_eq!(refused(&g, "J9").code(), "wrong_phase");
    assert_eq!(refused(&g, "take:1").code(), "wrong_phase");
    assert_eq!(refused(&g, "offer:A1").code(), "wrong_phase");
    play(&mut g, "keep");
    // Move 2: white, seat 2, within 3x3.
    assert_eq!((g.to_move(), g.seat_to_act()), (2, Some(2)));
    assert_eq!(refused(&g, "K10").code(), "opening_rule");
    assert_eq!(refused(&g, "keep").code(), "wrong_phase");
    play(&mut g, "J9");
    assert_eq!(g.seat_to_act(), Some(1));
    play(&mut g, "swap");
    // Seat 2 is black now and places move 3 within 5x5.
    assert_eq!((g.seat_of_colour(1), g.seat_of_colour(2)), (2, 1));
    assert_eq!((g.to_move(), g.seat_to_act()), (1, Some(2)));
    assert_eq!(refused(&g, "L11").code(), "opening_rule");
    play(&mut g, "K10");
    assert_eq!(g.seat_to_act(), Some(1), "white (seat 1) may swap");
    play(&mut g, "keep");
    // Move 4: white (seat 1) within 7x7.
    assert_eq!(refused(&g, "L12").code(), "opening_rule");
    play(&mut g, "G5");
    assert_eq!(
        g.phase(),
        Phase::SwapOrKeep {
            seat: 2,
            may_offer: true
        }
    );
    assert!(
        g.legal_actions()
            .iter()
            .any(|a| matches!(a, Action::Offer(_)))
    );
    // Choice 1: keep, black places move 5 within 9x9, white may swap, white plays anywhere.
    let mut one = g.clone();
    play(&mut one, "keep");
    assert_eq!(refused(&one, "M13").code(), "opening_rule");
    play(&mut one, "L12");
    assert_eq!(
        one.phase(),
        Phase::SwapOrKeep {
            seat: 1,
            may_offer: false
        }
    );
    play(&mut one, "swap");
    assert_eq!((one.to_move(), one.seat_to_act()), (2, Some(2)));
    play(&mut one, "A1 B1");
    assert_eq!(one.phase(), Phase::Playing);
    assert!(one.area_limit().is_none());
    // Choice 2: ten fifth moves; white (seat 1) chooses one, then plays move 6 anywhere.
    let offer = "offer:A1,B1,C1,D1,E1,F1,G1,H1,J1,K1";
    play(&mut g, offer);
    assert_eq!(g.phase(), Phase::Selecting { seat: 1 });
    assert_eq!(g.offered().len(), 10);
    assert_eq!(refused(&g, "L1").code(), "wrong_phase");
    assert_eq!(refused(&g, "choose:L1").code(), "opening_rule");
    assert_eq!(g.legal_actions().len(), 10);
    play(&mut g, "choose:E1");
    assert_eq!(g.stone_at(pt("E1")), Some(1));
    assert_eq!(g.offered(), &[] as &[Point]);
    assert_eq!(
        (g.phase(), g.to_move(), g.seat_to_act()),
        (Phase::Playing, 2, Some(1))
    );
    play(&mut g, "O15");
    assert_eq!(g.stone_count(), 6);
}

#[test]
fn offers_must_have_the_right_count_and_no_repeated_or_symmetric_points() {
    // H8, J9 (white), G7, F6 (white): every stone on the main diagonal, so reflecting in it
    // maps the position onto itself.
    let mut g = game("renju");
    play(&mut g, "H8 keep J9 keep G7 keep F6");
    let sym = g.symmetries();
    assert_eq!(sym.len(), 2, "the identity and the diagonal reflection");
    let nine = "offer:A1,B1,C1,D1,E1,F1,G1,H1,J1";
    match refused(&g, nine) {
        MoveError::Play(PlayError::BadOffer(OfferProblem::Count { expected, given })) => {
            assert_eq!((expected, given), (10, 9))
        }
        e => panic!("{e}"),
    }
    assert!(matches!(
        refused(&g, "offer:A1,B1,C1,D1,E1,F1,G1,H1,J1,A1"),
        MoveError::Play(PlayError::BadOffer(OfferProblem::Repeated(_)))
    ));
    // K8 and H10 are mirror images in the diagonal.
    match refused(&g, "offer:K8,B1,C1,D1,E1,F1,G1,H1,J1,H10") {
        MoveError::Play(PlayError::BadOffer(OfferProblem::Symmetric(a, b))) => {
            assert_eq!((a, b), (pt("K8"), pt("H10")));
        }
        e => panic!("{e}"),
    }
    assert_eq!(
        refused(&g, "offer:H8,B1,C1,D1,E1,F1,G1,H1,J1,K1").code(),
        "occupied"
    );
    assert_eq!(
        refused(&g, "offer:A1,B1,C1,D1,E1,F1,G1,H1,J1,K16").code(),
        "out_of_bounds"
    );
    // A1 and O15 are not symmetric here (the reflection keeps both corners in place).
    play(&mut g, "offer:A1,O15,C1,D1,E1,F1,G1,H1,J1,K8");
    let sample = {
        let mut h = game("renju");
        play(&mut h, "H8 keep J9 keep G7 keep F6");
        h.sample_offer().expect("a sample offer")
    };
    assert_eq!(sample.len(), 10);
    let mut h = game("renju");
    play(&mut h, "H8 keep J9 keep G7 keep F6");
    assert!(h.apply(Action::Offer(sample)).is_ok());
}

#[test]
fn soosorv_8_plays_the_26_openings_a_declaration_and_the_offers() {
    let mut g = game("renju opening=soosorv-8");
    assert_eq!(g.phase(), Phase::Placing { seat: 1, until: 3 });
    assert_eq!(refused(&g, "J9").code(), "opening_rule");
    play(&mut g, "H8 J9");
    assert_eq!(refused(&g, "L11").code(), "opening_rule");
    play(&mut g, "K10");
    assert_eq!(
        g.phase(),
        Phase::SwapOrKeep {
            seat: 2,
            may_offer: false
        }
    );
    assert_eq!(refused(&g, "offer:A1").code(), "wrong_phase");
    play(&mut g, "swap");
    // Seat 1 is white now and places move 4 anywhere, then declares.
    assert_eq!((g.to_move(), g.seat_to_act()), (2, Some(1)));
    play(&mut g, "B2");
    assert_eq!(g.phase(), Phase::Declaring { seat: 1 });
    assert_eq!(refused(&g, "declare:9").code(), "malformed");
    assert_eq!(refused(&g, "declare:0").code(), "malformed");
    // Built directly (as a button or the engine could), out-of-range declarations are refused
    // by the game itself, which stays as it was.
    for n in [0, 9, 255] {
        assert!(!g.is_legal(Action::Declare(n)), "declare:{n}");
        let mut copy = g.clone();
        assert!(matches!(
            copy.apply(Action::Declare(n)),
            Err(PlayError::WrongPhase(_))
        ));
        assert_eq!(copy.phase(), Phase::Declaring { seat: 1 });
    }
    assert_eq!(refused(&g, "keep").code(), "wrong_phase");
    assert_eq!(g.legal_actions().len(), 8);
    play(&mut g, "declare:3");
    assert_eq!(g.declared(), 3);
    assert_eq!(
        g.phase(),
        Phase::SwapOrKeep {
            seat: 2,
            may_offer: false
        }
    );
    assert_eq!(refused(&g, "offer:A1,A2,A3").code(), "wrong_phase");
    play(&mut g, "keep");
    assert_eq!(g.phase(), Phase::Offering { seat: 2, count: 3 });
    assert_eq!(refused(&g, "offer:A1,A2").code(), "opening_rule");
    assert_eq!(refused(&g, "A1").code(), "wrong_phase");
    play(&mut g, "offer:G7,L11,O1");
    assert_eq!(g.phase(), Phase::Selecting { seat: 1 });
    assert_eq!(refused(&g, "choose:A1").code(), "opening_rule");
    play(&mut g, "choose:L11");
    assert_eq!((g.stone_at(pt("L11")), g.to_move()), (Some(1), 2));
    assert_eq!(g.seat_to_act(), Some(1));
    play(&mut g, "M12");
    assert_eq!(g.phase(), Phase::Playing);
}

#[test]
fn every_opening_step_undoes_exactly() {
    let mut g = game("renju opening=soosorv-8");
    let tokens = "H8 J9 K10 keep B2 declare:2 swap offer:G7,L11 choose:G7 A1";
    let mut before = Vec::new();
    for t in tokens.split_whitespace() {
        before.push(g.clone());
        play(&mut g, t);
    }
    for b in before.iter().rev() {
        g.undo();
        assert_eq!(&g, b);
    }
}

#[test]
fn opening_records_round_trip_in_pgn_and_sgf_and_keep_their_stones_in_psq() {
    for (spec, tokens) in [
        (
            "renju",
            "H8 swap J9 keep K10 keep G5 offer:A1,B1,C1,D1,E1,F1,G1,H1,J1,K1 choose:E1 O15 L3",
        ),
        ("renju", "H8 keep J9 keep K10 keep G5 swap L12 keep A1"),
        (
            "renju opening=soosorv-8",
            "H8 J9 K10 keep B2 declare:2 swap offer:G7,L11 choose:G7 A1",
        ),
    ] {
        let mut g = game(spec);
        play(&mut g, tokens);
        let record = GameRecord::from_game(&g, &["Ann".into(), "Bo".into()]);
        let pgn = record.to_pgn();
        assert!(pgn.contains("[Game \"Renju\"]"), "{pgn}");
        assert!(
            pgn.contains(&format!("[Rules \"{}\"]", g.rules().to_spec())),
            "{pgn}"
        );
        assert_eq!(GameRecord::from_pgn(&pgn).as_ref(), Ok(&record), "{pgn}");
        let sgf = record.to_sgf();
        assert!(sgf.contains("RU[renju"), "{sgf}");
        assert_eq!(GameRecord::from_sgf(&sgf).as_ref(), Ok(&record), "{sgf}");
        let psq = record.to_psq().unwrap();
        assert!(psq.trim_end().ends_with("Renju"), "{psq}");
        let back = GameRecord::from_psq(&psq).unwrap();
        assert!(back.rules.is_renju());
        assert_eq!(back.replay().unwrap().stones(), g.stones());
    }
    let mut g = game("renju");
    play(
        &mut g,
        "H8 keep J9 keep K10 keep G5 offer:A1,B1,C1,D1,E1,F1,G1,H1,J1,K1 choose:E1",
    );
    let sgf = GameRecord::from_game(&g, &[]).to_sgf();
    assert!(sgf.contains(";B[eo]SW[choose:E1]"), "{sgf}");
    assert!(sgf.contains("LB[ao:1][bo:2]"), "{sgf}");
}
