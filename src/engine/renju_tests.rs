//! The engine in Renju: black never plays a forbidden point at any level, white wins through
//! a point black may not play, black sees that it cannot block there, and black's forbidden
//! shapes count as holes, not strengths.

use crate::engine::test_support::{game, gomoku, node_budget};
use std::time::Duration;

use super::board::{Board, cell_of};
use super::patterns::Threat;
use super::{Engine, Level, Limits, Player, SimplePlayer, WIN};
use crate::rules::{Action, Game, Point};

fn renju(moves: &str) -> Game {
    game("renju opening=none", moves)
}

fn pt(name: &str) -> Point {
    Point::parse(name, 15).expect("point")
}

fn limits() -> Limits {
    node_budget(6_000)
}

/// Black to move with H8 forbidden: a double three (F8 G8 with H9 H10).
const DOUBLE_THREE: &str = "F8 A15 G8 C15 H9 E15 H10 G15";
/// Black to move with H8 forbidden: two fours on row 8 (D8 . F8 G8 H8 . K8), freestyle's win.
const DOUBLE_FOUR_ONE_LINE: &str = "D8 A15 F8 C15 G8 E15 K8 G15";
/// Black to move with H8 forbidden: a four on row 8 and one on column H.
const DOUBLE_FOUR: &str = "E8 A15 F8 C15 G8 E15 H5 G15 H6 J15 H7 L15";
/// White to move: E5 F6 G7 (closed by black's D4) and J9 make a four that only H8 completes,
/// and H8 is black's double three (F8 G8, H9 H10).
const WHITE_TO_STEER: &str = "F8 E5 G8 F6 H9 G7 H10 A15 D4";

#[test]
fn black_never_plays_a_forbidden_point_at_any_level() {
    for moves in [
        DOUBLE_THREE,
        DOUBLE_FOUR,
        DOUBLE_FOUR_ONE_LINE,
        // White's four completed only at black's forbidden H8: nothing saves black.
        &format!("{WHITE_TO_STEER} J9"),
    ] {
        let g = renju(moves);
        assert_eq!(g.to_move(), 1);
        let forbidden = g.forbidden_points();
        assert!(forbidden.contains(&pt("H8")), "{moves}: {forbidden:?}");
        for level in 1..=5 {
            for seed in 0..4 {
                let mut e = Engine::seeded(Level::new(level).expect("level"), seed);
                let a = e.choose_with(&g, limits()).expect("a move");
                assert!(g.is_legal(a), "level {level}: {a} in {moves}");
                assert!(
                    !matches!(a, Action::Place(p) if forbidden.contains(&p)),
                    "level {level} seed {seed} played the forbidden {a} in {moves}"
                );
            }
        }
        let a = SimplePlayer
            .choose(&g, Duration::from_millis(10))
            .expect("a move");
        assert!(g.is_legal(a) && a != Action::Place(pt("H8")), "simple: {a}");
    }
}

#[test]
fn black_plays_a_real_move_rather_than_the_first_legal_point() {
    // A forbidden point never reaches the last guard (which would fall back on the first legal
    // point, far in a corner): black's candidates are checked exactly.
    for moves in [DOUBLE_THREE, DOUBLE_FOUR, DOUBLE_FOUR_ONE_LINE] {
        let g = renju(moves);
        for level in 1..=5 {
            for seed in 0..4 {
                let mut e = Engine::seeded(Level::new(level).expect("level"), seed);
                let Some(Action::Place(p)) = e.choose_with(&g, limits()) else {
                    panic!("a stone");
                };
                let near = g.stones().iter().any(|&(s, _)| s.distance(p) <= 2);
                assert!(
                    near,
                    "level {level} played {} far from the stones",
                    p.name()
                );
            }
        }
    }
}

#[test]
fn white_wins_through_a_point_black_may_not_play() {
    let g = renju(WHITE_TO_STEER);
    assert_eq!(g.to_move(), 2);
    // Levels 1 and 2 sometimes answer at a glance (their blunders); the others never do.
    for level in 3..=5 {
        let mut e = Engine::seeded(Level::new(level).expect("level"), 3);
        let a = e.choose_with(&g, limits()).expect("a move");
        assert_eq!(
            a,
            Action::Place(pt("J9")),
            "level {level}: {:?}",
            e.last_info()
        );
        assert!(e.last_info().score > WIN / 2, "{:?}", e.last_info());
    }
    // In freestyle the same stones are no win for white: black simply blocks at H8.
    let free = gomoku(WHITE_TO_STEER);
    let mut e = Engine::seeded(Level::MAX, 3);
    e.choose_with(&free, limits()).expect("a move");
    assert!(e.last_info().score < WIN / 2, "{:?}", e.last_info());
}

#[test]
fn black_knows_it_cannot_block_on_a_forbidden_point() {
    let g = renju(&format!("{WHITE_TO_STEER} J9"));
    for level in 1..=5 {
        let mut e = Engine::seeded(Level::new(level).expect("level"), 5);
        let a = e.choose_with(&g, limits()).expect("a move");
        assert!(g.is_legal(a), "{a}");
        assert!(
            e.last_info().score < -WIN / 2,
            "level {level} does not see the loss: {:?}",
            e.last_info()
        );
    }
}

#[test]
fn black_s_forbidden_shapes_are_no_threats_for_the_evaluation() {
    let h8 = cell_of(pt("H8"));
    let g = renju(DOUBLE_THREE);
    let b = Board::new(&g);
    assert_eq!(
        b.threat_at(h8, 1),
        Threat::Quiet,
        "a double three is forbidden"
    );
    assert_eq!(b.value_at(h8, 1), 0);
    // The same stones in freestyle: a double three, a real threat.
    let free = gomoku(DOUBLE_THREE);
    let f = Board::new(&free);
    assert_eq!(f.threat_at(h8, 1), Threat::DoubleThree);
    assert!(f.shape_sum[0] > b.shape_sum[0]);
    // White's shapes are judged as in freestyle.
    assert_eq!(b.shape_sum[1], f.shape_sum[1]);
    let g = renju(DOUBLE_FOUR);
    assert_eq!(Board::new(&g).threat_at(h8, 1), Threat::Quiet, "two fours");
    // Two fours on one line look like an open four to the shapes (two points make five): the
    // evaluation counts it as black's, but the move is never played (the rules core decides).
    let g = renju(DOUBLE_FOUR_ONE_LINE);
    assert_eq!(Board::new(&g).threat_at(h8, 1), Threat::OpenFour);
    assert!(!g.is_legal(Action::Place(pt("H8"))));
}
