//! The computer's decisions in Renju's tournament openings, judged with made-up evaluations
//! (so that the right answer is known), and the real players' decisions in every phase.

use crate::engine::test_support::{game, node_budget};
use std::time::Duration;

use super::*;
use crate::engine::{Player, SimplePlayer};

fn pt(name: &str) -> Point {
    Point::parse(name, 15).expect("point")
}

/// Black's edge read from the last stone placed: `value` of its point.
fn by_last_stone(value: impl Fn(Point) -> i64) -> impl FnMut(&Game) -> i64 {
    move |g: &Game| g.last_stone().map_or(0, &value)
}

/// Taraguchi-10 after move 4: black may swap, keep, or offer ten fifth moves.
const TARAGUCHI_4: &str = "H8 keep H9 keep J8 keep H10";

#[test]
fn a_swap_decision_takes_the_colour_that_stands_better() {
    // After move 1 white's seat decides.
    let g = game("renju", "H8");
    assert_eq!(
        g.phase(),
        Phase::SwapOrKeep {
            seat: 2,
            may_offer: false
        }
    );
    assert_eq!(decide(&g, &mut |_: &Game| 50), Some(Action::Swap));
    assert_eq!(decide(&g, &mut |_: &Game| -50), Some(Action::Keep));
    // Soosõrv-8 after the three first stones: the same reasoning.
    let g = game("renju opening=soosorv-8", "H8 J9 K10");
    assert_eq!(decide(&g, &mut |_: &Game| 50), Some(Action::Swap));
    assert_eq!(decide(&g, &mut |_: &Game| -50), Some(Action::Keep));
}

#[test]
fn black_offers_its_ten_best_fifth_moves_and_white_chooses_the_worst_for_black() {
    let g = game("renju", TARAGUCHI_4);
    assert!(matches!(
        g.phase(),
        Phase::SwapOrKeep {
            may_offer: true,
            ..
        }
    ));
    // Good for black near K11, the better the nearer; every fifth move leaves black ahead.
    let value = |p: Point| 200 - 10 * i64::from(p.distance(pt("K11")));
    let judged = judged_fifth_moves(&g, &mut by_last_stone(value));
    assert!(judged.len() >= 10);
    assert!(judged.windows(2).all(|w| w[0].0 >= w[1].0), "best first");
    let Some(Action::Offer(offer)) = decide(&g, &mut by_last_stone(value)) else {
        panic!("black offers when even its tenth best move leaves it ahead");
    };
    let offered = offer.as_slice();
    assert_eq!(offered.len(), usize::from(TARAGUCHI_OFFERS));
    let best: Vec<Point> = judged[..10].iter().map(|&(_, p)| p).collect();
    for p in offered {
        assert!(best.contains(p), "{} is not among black's best", p.name());
    }
    // No two offered points are symmetric, and the rules accept the offer.
    let mut g = g;
    g.apply(Action::Offer(offer)).expect("a valid offer");
    assert!(matches!(g.phase(), Phase::Selecting { .. }));
    // White chooses the candidate worst for black: the one farthest from K11.
    let Some(Action::Choose(chosen)) = decide(&g, &mut by_last_stone(value)) else {
        panic!("white chooses");
    };
    let worst = g.offered().iter().map(|&p| value(p)).min().expect("offers");
    assert_eq!(value(chosen), worst, "{}", chosen.name());
}

#[test]
fn black_swaps_instead_of_offering_when_every_fifth_move_is_bad_for_black() {
    let g = game("renju", TARAGUCHI_4);
    // Every position is white's: black's seat gives black away.
    let value = |p: Point| -10 - i64::from(p.distance(pt("K11")));
    assert_eq!(decide(&g, &mut by_last_stone(value)), Some(Action::Swap));
    // Black stands better before the fifth move but no offer keeps it ahead: keep.
    let mixed = |p: Point| if p == pt("H10") { 30 } else { -5 };
    assert_eq!(decide(&g, &mut by_last_stone(mixed)), Some(Action::Keep));
}

#[test]
fn white_declares_the_number_that_leaves_the_game_closest_to_even() {
    let g = game("renju opening=soosorv-8", "H8 J9 K10 keep B2");
    assert!(matches!(g.phase(), Phase::Declaring { .. }));
    let value = |p: Point| 60 - 10 * i64::from(p.distance(pt("K11")));
    let judged = judged_fifth_moves(&g, &mut by_last_stone(value));
    let Some(Action::Declare(n)) = decide(&g, &mut by_last_stone(value)) else {
        panic!("white declares");
    };
    assert!((1..=8).contains(&n));
    let worth = |k: u8| judged[usize::from(k) - 1].0.abs();
    for m in 1..=8 {
        assert!(
            worth(n) <= worth(m),
            "declare:{n} worth {} > declare:{m}",
            worth(n)
        );
    }
    // Then black (after white keeps) offers its n best.
    let mut g = g;
    g.apply(Action::Declare(n)).expect("declared");
    g.apply(Action::Keep).expect("kept");
    let Some(Action::Offer(offer)) = decide(&g, &mut by_last_stone(value)) else {
        panic!("black offers");
    };
    assert_eq!(offer.as_slice().len(), usize::from(n));
    assert!(g.is_legal(Action::Offer(offer)));
}

#[test]
fn the_players_decide_legally_in_every_phase_of_both_openings() {
    let phases = [
        ("renju", ""),
        ("renju", "H8"),
        ("renju", "H8 keep"),
        ("renju", "H8 keep H9"),
        ("renju", TARAGUCHI_4),
        ("renju", "H8 keep H9 keep J8 keep H10 keep"),
        ("renju", "H8 keep H9 keep J8 keep H10 keep G9"),
        (
            "renju",
            "H8 keep H9 keep J8 keep H10 offer:G7,J10,K9,G10,J7,K7,G9,K8,J9,G8",
        ),
        ("renju opening=soosorv-8", "H8 J9"),
        ("renju opening=soosorv-8", "H8 J9 K10"),
        ("renju opening=soosorv-8", "H8 J9 K10 swap B2"),
        ("renju opening=soosorv-8", "H8 J9 K10 swap B2 declare:3"),
        (
            "renju opening=soosorv-8",
            "H8 J9 K10 swap B2 declare:3 keep",
        ),
        (
            "renju opening=soosorv-8",
            "H8 J9 K10 swap B2 declare:3 keep offer:G7,L11,O1",
        ),
    ];
    for (spec, moves) in phases {
        let g = game(spec, moves);
        let a = SimplePlayer
            .choose(&g, Duration::from_millis(20))
            .expect("an action");
        assert!(g.is_legal(a), "simple, {spec} {moves}: {a}");
        for level in [1, 3, 5] {
            let mut e = super::Engine::seeded(Level::new(level).expect("level"), 11);
            let limits = node_budget(4_000);
            let a = e.choose_with(&g, limits).expect("an action");
            assert!(g.is_legal(a), "level {level}, {spec} {moves}: {a}");
        }
    }
}
