//! Renju: each forbidden shape, the recursive three, five beating a forbidden shape, white's
//! freedom, the listing of forbidden points, and the rule set's refusals.

use proptest::prelude::*;

use super::*;

/// Isolated white stones far from the centre, used to give white as many moves as black.
const FILLERS: &[&str] = &[
    "A15", "D15", "G15", "L15", "O15", "A1", "D1", "G1", "L1", "O1", "A12", "A4", "P12", "P4",
    "P15", "P1", "C13", "N13", "C3", "N3",
];

/// A Renju game (no opening rule) with these black and white stones, black to move.
///
/// Black's stones are played in the order given, each after a white stone (the listed ones
/// first, then fillers far away), so every setup move must be legal when it is played.
fn renju(black: &str, white: &str) -> Game {
    let black: Vec<&str> = black.split_whitespace().collect();
    let mut white: Vec<&str> = white.split_whitespace().collect();
    assert!(white.len() <= black.len(), "more white stones than black");
    let mut fillers = FILLERS.iter();
    while white.len() < black.len() {
        white.push(fillers.next().expect("enough fillers"));
    }
    let mut g = Game::new(RuleSet::from_spec("renju opening=none").unwrap());
    for (b, w) in black.iter().zip(&white) {
        for t in [b, w] {
            let r = g
                .apply_token(t)
                .unwrap_or_else(|e| panic!("setup {t}: {e}"));
            assert_eq!(r.status, Status::Ongoing, "setup move {t} ended the game");
        }
    }
    assert_eq!(g.to_move(), 1);
    g
}

fn pt(name: &str) -> Point {
    Point::parse(name, 15).unwrap()
}

fn refusal(g: &Game, name: &str) -> Option<ForbiddenShape> {
    match g.check(Action::Place(pt(name))) {
        Err(PlayError::ForbiddenRenju { point, shape }) => {
            assert_eq!(point, pt(name));
            Some(shape)
        }
        Err(e) => panic!("{name} refused for another reason: {e}"),
        Ok(()) => None,
    }
}

fn names(points: &[Point]) -> Vec<String> {
    points.iter().map(|p| p.name()).collect()
}

#[test]
fn two_open_threes_at_once_are_a_double_three() {
    let g = renju("F8 G8 H9 H10", "");
    assert_eq!(refusal(&g, "H8"), Some(ForbiddenShape::DoubleThree));
    // A split three counts too: F8 . H8 J8 with the column three.
    let g = renju("F8 J8 H9 H10", "");
    assert_eq!(refusal(&g, "H8"), Some(ForbiddenShape::DoubleThree));
    // One of them closed at an end is no three: allowed.
    let g = renju("F8 G8 H9 H10", "E8");
    assert_eq!(refusal(&g, "H8"), None);
}

#[test]
fn two_fours_are_a_double_four_also_on_one_line() {
    let g = renju("E8 F8 G8 H5 H6 H7", "");
    assert_eq!(refusal(&g, "H8"), Some(ForbiddenShape::DoubleFour));
    // X.XX?.X on row 8: both gaps complete a five.
    let g = renju("D8 F8 G8 K8", "");
    assert_eq!(refusal(&g, "H8"), Some(ForbiddenShape::DoubleFour));
    // XX.X?.XX on row 8: the move between two gaps.
    let g = renju("B8 C8 E8 H8 J8", "");
    assert_eq!(refusal(&g, "F8"), Some(ForbiddenShape::DoubleFour));
    // A four and a three are allowed (the winning "four-three").
    let g = renju("E8 F8 G8 H9 H10", "");
    assert_eq!(refusal(&g, "H8"), None);
}

#[test]
fn six_or_more_in_a_row_is_an_overline() {
    let g = renju("D8 E8 F8 G8 J8", "");
    assert_eq!(refusal(&g, "H8"), Some(ForbiddenShape::Overline));
    let g = renju("D8 E8 F8 G8 J8 K8", "");
    assert_eq!(refusal(&g, "H8"), Some(ForbiddenShape::Overline));
}

#[test]
fn an_exact_five_wins_even_when_it_makes_a_forbidden_shape() {
    // Five on row 8, an overline on column H.
    let mut g = renju("D8 E8 F8 G8 H6 H7 H9 H10 H11", "");
    assert_eq!(refusal(&g, "H8"), None);
    let r = g.apply_token("H8").unwrap();
    assert_eq!(
        r.status,
        Status::Won {
            winners: Colours::one(1),
            reason: WinReason::Line
        }
    );
    // Five with two threes through the same point.
    let mut g = renju("D8 E8 F8 G8 H9 H10 J9 K10", "");
    assert!(g.apply_token("H8").unwrap().status != Status::Ongoing);
}

#[test]
fn a_three_whose_only_completion_is_forbidden_is_no_three() {
    // Row 8: F8 . H8 J8 becomes a straight four only at G8; G8 makes an overline on column G
    // (G4-G7, G8, G9). With the open three on column H, H8 is still allowed.
    let g = renju("F8 J8 H9 H10 G4 G5 G6 G7 G9", "");
    assert_eq!(refusal(&g, "H8"), None);
    assert!(!g.forbidden_points().contains(&pt("H8")));
    // Without G9, G8 would make five (not forbidden): both threes are real.
    let g = renju("F8 J8 H9 H10 G4 G5 G6 G7", "G3");
    assert_eq!(refusal(&g, "H8"), Some(ForbiddenShape::DoubleThree));
}

#[test]
fn a_three_completed_only_at_a_double_three_point_is_no_three() {
    // Row 8: F8 . H8 J8 becomes a straight four only at G8. Once H8 is placed, G8 makes that
    // four, the three G8 G9 G10 and the three E10 F9 G8: a four and two threes, forbidden as
    // a double three (two levels of the recursion). So H8 makes one three only (column H).
    let g = renju("F8 J8 H9 H10 G9 G10 F9 E10", "");
    assert_eq!(refusal(&g, "H8"), None);
    let mut after = g.clone();
    after.apply_token("H8").unwrap();
    after.apply_token("A8").unwrap();
    assert_eq!(refusal(&after, "G8"), Some(ForbiddenShape::DoubleThree));
    // Without the anti-diagonal three, G8 is a four and a three (allowed): H8 is forbidden.
    let g = renju("F8 J8 H9 H10 G9 G10", "");
    assert_eq!(refusal(&g, "H8"), Some(ForbiddenShape::DoubleThree));
}

#[test]
fn white_is_never_restricted_and_wins_with_an_overline() {
    // White's double three and double four are allowed.
    let mut g = renju("A3 B5 C7 E1 O6 O9", "F8 G8 H9 H10 E2 F2");
    g.apply_token("M13").unwrap();
    assert!(
        g.forbidden_points().is_empty(),
        "white has no forbidden points"
    );
    assert!(g.check(Action::Place(pt("H8"))).is_ok());
    // White's six in a row wins.
    let mut g = renju("A3 B5 C7 E1 O6 B13", "D8 E8 F8 G8 J8");
    g.apply_token("M13").unwrap();
    let r = g.apply_token("H8").unwrap();
    assert_eq!(
        r.status,
        Status::Won {
            winners: Colours::one(2),
            reason: WinReason::Line
        }
    );
    assert_eq!(g.winning_lines().len(), 1);
}

#[test]
fn a_three_whose_straight_four_point_also_makes_five_is_a_three() {
    // Row 8: G8 H8 . K8 becomes a straight four only at J8, and J8 also makes five on column
    // J (J4-J8): not forbidden (five wins), so the row is a three, and with the column three
    // H8 H9 H10, H8 is a double three. (Rapfi does not count such a three: see
    // tests/oracles/rapfi_forbidden.rs.)
    let g = renju("G8 K8 H9 H10 J4 J5 J6 J7", "");
    assert_eq!(refusal(&g, "H8"), Some(ForbiddenShape::DoubleThree));
    // The same without the column-J four: J8 is an ordinary straight-four point.
    let g = renju("G8 K8 H9 H10", "");
    assert_eq!(refusal(&g, "H8"), Some(ForbiddenShape::DoubleThree));
    // With K8 gone the row is a two: one three only, allowed.
    let g = renju("G8 H9 H10 J4 J5 J6 J7", "");
    assert_eq!(refusal(&g, "H8"), None);
}

#[test]
fn forbidden_points_are_listed_sorted_and_refused_with_their_shape() {
    let mut g = renju("F8 G8 H9 H10 L4 L5 L6 L8", "");
    let listed = names(&g.forbidden_points());
    assert!(listed.contains(&"H8".to_string()), "{listed:?}");
    // L7 would make L4-L8: exactly five, allowed.
    assert!(!listed.contains(&"L7".to_string()), "{listed:?}");
    let mut sorted = g.forbidden_points();
    sorted.sort();
    assert_eq!(sorted, g.forbidden_points());
    let e = g.apply_token("H8").unwrap_err();
    assert_eq!(e.code(), "forbidden_renju");
    assert_eq!(e.detail(), Some("double_three"));
    assert!(e.to_string().contains("double three"), "{e}");
    // The refusal left the game as it was, and the other players' points are unaffected.
    assert_eq!(g.stone_at(pt("H8")), None);
    assert!(g.apply_token("E5").is_ok());
    assert!(g.forbidden_points().is_empty(), "white to move");
}

#[test]
fn other_rule_sets_list_no_renju_points() {
    let mut g = Game::new(RuleSet::from_spec("gomoku-standard").unwrap());
    for t in "F8 A1 G8 A3 H9 A5 H10 A7".split_whitespace() {
        g.apply_token(t).unwrap();
    }
    assert!(g.forbidden_points().is_empty());
    assert!(g.apply_token("H8").is_ok());
}

#[test]
fn self_capture_forbidden_points_are_listed_too() {
    // Pente: white brackets K10 with J10 . L10 ... a white stone at L10 and J10 around K10?
    // Black's K10 L10 pair between white J10 and M10: black may not complete it at L10.
    let mut g = Game::new(RuleSet::from_spec("pente opening=none self_capture=forbidden").unwrap());
    for t in "K10 J10 A1 M10".split_whitespace() {
        g.apply_token(t).unwrap();
    }
    assert_eq!(names(&g.forbidden_points()), ["L10"]);
    assert_eq!(
        g.apply_token("L10").unwrap_err().code(),
        "forbidden_self_capture"
    );
}

#[test]
fn renju_refuses_options_it_fixes_and_foreign_openings() {
    let conflict = |spec: &str| match RuleSet::from_spec(spec) {
        Err(RulesError::Conflict(c)) => c,
        other => panic!("{spec}: expected a conflict, got {other:?}"),
    };
    assert_eq!(
        conflict("renju captures=pairs"),
        Conflict::RenjuFixes("captures")
    );
    assert_eq!(
        conflict("renju capture_win=10"),
        Conflict::RenjuFixes("capture_win")
    );
    assert_eq!(conflict("renju players=3"), Conflict::RenjuFixes("players"));
    assert_eq!(conflict("renju line=4"), Conflict::RenjuFixes("line"));
    assert_eq!(
        conflict("renju overline=no"),
        Conflict::RenjuFixes("overline")
    );
    for o in ["pro", "long-pro", "swap"] {
        assert!(matches!(
            conflict(&format!("renju opening={o}")),
            Conflict::NotARenjuOpening(_)
        ));
    }
    let r = RuleSet::from_spec("renju opening=swap2 line=5 players=2").unwrap();
    assert!(r.is_renju());
    assert_eq!(r.to_spec(), "renju opening=swap2");
    assert_eq!(RuleSet::from_spec(&r.to_spec()), Ok(r));
    let plain = RuleSet::preset(Preset::Renju);
    assert_eq!(
        (plain.size, plain.line, plain.captures),
        (15, 5, Captures::None)
    );
    assert!(plain.describe().contains("double three"));
}

/// Plays random legal Renju moves near the centre (dense positions come quickly), checking
/// at every step that the listed forbidden points are exactly the refused ones.
fn check_forbidden_listing(choices: &[u16]) -> Result<(), TestCaseError> {
    let mut g = Game::new(RuleSet::from_spec("renju opening=none").unwrap());
    for &c in choices {
        if g.is_over() {
            break;
        }
        let listed = g.forbidden_points();
        let mut refused = Vec::new();
        let mut near = Vec::new();
        for p in g.points() {
            match g.check(Action::Place(p)) {
                Err(PlayError::ForbiddenRenju { .. }) => refused.push(p),
                Ok(()) if p.distance(Point::centre(15)) <= 4 => near.push(p),
                _ => {}
            }
            let mut probe = g.clone();
            let applied = probe.apply(Action::Place(p));
            prop_assert_eq!(
                matches!(applied, Err(PlayError::ForbiddenRenju { .. })),
                listed.contains(&p),
                "{} at {:?}",
                p,
                g.record()
            );
        }
        refused.sort();
        prop_assert_eq!(&listed, &refused);
        let pool = if near.is_empty() {
            g.legal_actions()
        } else {
            near.into_iter().map(Action::Place).collect()
        };
        if pool.is_empty() {
            break;
        }
        g.apply(pool[usize::from(c) % pool.len()]).unwrap();
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn forbidden_points_are_exactly_the_points_refused_as_forbidden(
        choices in proptest::collection::vec(any::<u16>(), 20..70),
    ) {
        check_forbidden_listing(&choices)?;
    }
}
