//! Rule-by-rule tests of the rules core, including the edge cases DESIGN.md section 2 decides.

use super::*;

fn rules(spec: &str) -> RuleSet {
    RuleSet::from_spec(spec).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn p(name: &str) -> Point {
    Point::parse(name, 19).unwrap()
}

fn play(g: &mut Game, moves: &str) -> Vec<MoveReport> {
    moves
        .split_whitespace()
        .map(|t| g.apply_token(t).unwrap_or_else(|e| panic!("{t}: {e}")))
        .collect()
}

/// Plays the lists' stones in turn order (list k for colour k+1); setup moves may not capture.
fn setup(spec: &str, lists: &[&str]) -> Game {
    let mut g = Game::new(rules(spec));
    let lists: Vec<Vec<&str>> = lists
        .iter()
        .map(|l| l.split_whitespace().collect())
        .collect();
    let n = lists[0].len();
    assert!(
        lists.iter().all(|l| l.len() == n),
        "setup lists differ in length"
    );
    for i in 0..n {
        for l in &lists {
            let r = g
                .apply_token(l[i])
                .unwrap_or_else(|e| panic!("setup {}: {e}", l[i]));
            assert!(r.removed.is_empty(), "setup move {} captured", l[i]);
            assert_eq!(
                r.status,
                Status::Ongoing,
                "setup move {} ended the game",
                l[i]
            );
        }
    }
    g
}

fn at(g: &Game, name: &str) -> Option<u8> {
    g.stone_at(Point::parse(name, g.size()).unwrap())
}

fn won(winners: &[u8], reason: WinReason) -> Status {
    let mut set = Colours::EMPTY;
    for &c in winners {
        set.insert(c);
    }
    Status::Won {
        winners: set,
        reason,
    }
}

fn removed_names(r: &MoveReport) -> Vec<String> {
    let mut v: Vec<String> = r.removed.iter().map(|x| x.point.name()).collect();
    v.sort();
    v
}

#[test]
fn a_bracketed_pair_is_captured_and_scored() {
    let mut g = setup("pente opening=none", &["K10 A1", "L10 M10"]);
    let r = play(&mut g, "N10").remove(0);
    assert_eq!(removed_names(&r), ["L10", "M10"]);
    assert!(
        r.removed
            .iter()
            .all(|x| x.credited_to == Some(1) && x.colour == 2)
    );
    assert_eq!(g.captured()[..2], [2, 0]);
    assert_eq!((at(&g, "L10"), at(&g, "M10")), (None, None));
    assert_eq!(g.stone_count(), g.stones_placed() - g.stones_removed());
}

#[test]
fn captures_in_several_directions_resolve_in_one_move() {
    let mut g = setup(
        "pente opening=none",
        &[
            "N10 K13 N13 G7 A1 A3 A5 A7",
            "L10 M10 K11 K12 L11 M12 J9 H8",
        ],
    );
    let r = play(&mut g, "K10").remove(0);
    assert_eq!(
        removed_names(&r),
        ["H8", "J9", "K11", "K12", "L10", "L11", "M10", "M12"]
    );
    assert_eq!(g.captured()[0], 8);
}

#[test]
fn the_board_edge_never_brackets() {
    let mut g = setup("pente opening=none", &["K10 F5", "A1 B1"]);
    assert!(play(&mut g, "C1")[0].removed.is_empty());
    let mut g = setup("pente opening=none", &["K10 F5", "A1 B2"]);
    assert!(
        play(&mut g, "C3")[0].removed.is_empty(),
        "a diagonal pair at the corner is safe"
    );
    // A pair one point in from the edge is captured against a stone on the edge.
    let mut g = setup("pente opening=none", &["A1 F5", "B1 C1"]);
    assert_eq!(removed_names(&play(&mut g, "D1")[0]), ["B1", "C1"]);
}

#[test]
fn three_are_safe_without_triples_and_captured_with_them() {
    let mut g = setup("pente opening=none", &["K10 A1 A3", "L10 M10 N10"]);
    assert!(play(&mut g, "O10")[0].removed.is_empty());
    let mut g = setup("keryo opening=none", &["K10 A1 A3", "L10 M10 N10"]);
    assert_eq!(
        removed_names(&play(&mut g, "O10")[0]),
        ["L10", "M10", "N10"]
    );
    assert_eq!(g.captured()[0], 3);
    // Keryo still captures pairs, and never four.
    let mut g = setup("keryo opening=none", &["K10 A1", "L10 M10"]);
    assert_eq!(play(&mut g, "N10")[0].removed.len(), 2);
    let mut g = setup("keryo opening=none", &["K10 A1 A3 A5", "L10 M10 N10 O10"]);
    assert!(play(&mut g, "P10")[0].removed.is_empty());
}

#[test]
fn single_stones_and_mixed_lines_are_not_captured() {
    let mut g = setup("pente opening=none", &["K10 A1", "L10 A19"]);
    assert!(play(&mut g, "M10")[0].removed.is_empty());
    // Own stone inside the bracket: not a capture.
    let mut g = setup("pente opening=none", &["K10 M10", "L10 A19"]);
    assert!(play(&mut g, "N10")[0].removed.is_empty());
}

#[test]
fn a_captured_point_can_be_played_again() {
    let mut g = setup("pente opening=none", &["K10 A1", "L10 M10"]);
    play(&mut g, "N10");
    assert!(g.is_legal(Action::Place(p("L10"))));
    play(&mut g, "L10 A3 M10");
    assert_eq!(
        (at(&g, "L10"), at(&g, "M10")),
        (Some(2), Some(2)),
        "entering a bracket is safe"
    );
}

#[test]
fn entering_a_bracket_is_safe_by_default() {
    let mut g = setup("pente opening=none", &["K10 A1", "J10 M10"]);
    let r = play(&mut g, "L10").remove(0);
    assert!(r.removed.is_empty());
    assert_eq!(at(&g, "K10"), Some(1));
}

#[test]
fn pro_opening_binds_colour_one_first_and_second_stones_only() {
    let err = |spec: &str, moves: &str, last: &str| {
        let mut g = Game::new(rules(spec));
        play(&mut g, moves);
        g.apply_token(last).unwrap_err()
    };
    assert_eq!(err("pente", "", "A1").code(), "opening_rule");
    assert_eq!(err("pente", "K10 L10", "L11").code(), "opening_rule");
    assert_eq!(
        err("pente", "K10 L10", "M12").code(),
        "opening_rule",
        "distance 2"
    );
    let mut g = Game::new(rules("pente"));
    play(&mut g, "K10 L10 N10"); // colour 2 anywhere, colour 1 at distance 3
    play(&mut g, "K11 K12"); // colour 1's third stone is free
    assert_eq!(
        err("pente opening=long-pro", "K10 L10", "N10").code(),
        "opening_rule"
    );
    let mut g = Game::new(rules("pente opening=long-pro"));
    play(&mut g, "K10 K11 O14");
    let mut g = Game::new(rules("pente size=9"));
    play(&mut g, "E5 F5 A1");
    assert_eq!(err("pente size=9", "", "K10").code(), "out_of_bounds");
    // Opening rules apply to plies, not to who happens to play them: colour 2 is never bound.
    let mut g = Game::new(rules("pente"));
    play(&mut g, "K10 K11");
    assert!(!g.legal_actions().contains(&Action::Place(p("L11"))));
    assert!(g.legal_actions().contains(&Action::Place(p("N13"))));
}

#[test]
fn overline_wins_in_freestyle_but_not_in_standard() {
    let six = |spec| {
        let mut g = setup(spec, &["A1 A2 A3 A4 A6", "K1 K2 K3 K4 K6"]);
        play(&mut g, "A5");
        g.status()
    };
    assert_eq!(six("gomoku"), won(&[1], WinReason::Line));
    assert_eq!(six("gomoku-standard"), Status::Ongoing);
    let mut g = setup("gomoku-standard", &["A1 A2 A3 A4", "K1 K2 K3 K5"]);
    play(&mut g, "A5");
    assert_eq!(g.status(), won(&[1], WinReason::Line));
    assert_eq!(
        g.winning_lines(),
        vec![Line {
            start: p("A1"),
            end: p("A5"),
            colour: 1
        }]
    );
}

#[test]
fn diagonal_lines_win_both_ways() {
    let mut g = setup("gomoku", &["A1 B2 C3 D4", "A15 B14 C13 D12"]);
    play(&mut g, "E5");
    assert_eq!(g.status(), won(&[1], WinReason::Line));
    let mut g = setup("gomoku", &["K1 K2 K3 K4", "A15 B14 C13 D12"]);
    play(&mut g, "A1 E11");
    assert_eq!(g.status(), won(&[2], WinReason::Line));
}

#[test]
fn capture_win_at_ten_stones() {
    // Five pairs: each setup row gives black a pair to take.
    let mut g = setup(
        "pente opening=none",
        &[
            "A10 A12 A14 A16 A18 T1 T3 T5 T7 T9",
            "B10 C10 B12 C12 B14 C14 B16 C16 B18 C18",
        ],
    );
    play(&mut g, "D10 R1 D12 R3 D14 R5 D16 R7");
    assert_eq!(g.captured()[0], 8);
    assert_eq!(g.status(), Status::Ongoing);
    play(&mut g, "D18");
    assert_eq!(g.captured()[0], 10);
    assert_eq!(g.status(), won(&[1], WinReason::Captures));
    assert_eq!(g.apply_token("R9").unwrap_err().code(), "game_over");
}

#[test]
fn self_capture_is_resolved_with_the_movers_own_capture() {
    let spec = "pente opening=none self_capture=capture";
    let mut g = setup(spec, &["K10 L13 A1 A3", "J10 M10 L11 L12"]);
    let r = play(&mut g, "L10").remove(0);
    assert_eq!(removed_names(&r), ["K10", "L10", "L11", "L12"]);
    let credit = |name: &str| {
        r.removed
            .iter()
            .find(|x| x.point.name() == name)
            .unwrap()
            .credited_to
    };
    assert_eq!(
        (credit("K10"), credit("L10"), credit("L11")),
        (Some(2), Some(2), Some(1))
    );
    assert_eq!(g.captured()[..2], [2, 2]);
    assert_eq!(g.stone_count(), g.stones_placed() - g.stones_removed());
    // With self_capture=none the same move only captures.
    let mut g = setup("pente opening=none", &["K10 L13 A1 A3", "J10 M10 L11 L12"]);
    assert_eq!(removed_names(&play(&mut g, "L10")[0]), ["L11", "L12"]);
}

#[test]
fn forbidden_self_capture_points_cannot_be_played_even_to_capture() {
    let spec = "pente opening=none self_capture=forbidden";
    let mut g = setup(spec, &["K10 L13 A1 A3", "J10 M10 L11 L12"]);
    let before = g.clone();
    let e = g.apply_token("L10").unwrap_err();
    assert_eq!(e.code(), "forbidden_self_capture");
    assert_eq!(g, before, "a refusal changes nothing");
    assert!(!g.legal_actions().contains(&Action::Place(p("L10"))));
    // White may play there: it brackets nothing of its own.
    play(&mut g, "T19");
    assert!(g.is_legal(Action::Place(p("L10"))));
}

#[test]
fn self_capture_with_triples_takes_the_whole_group() {
    let mut g = setup(
        "keryo opening=none self_capture=capture",
        &["K10 L10 A1", "J10 N10 A19"],
    );
    let r = play(&mut g, "M10").remove(0);
    assert_eq!(removed_names(&r), ["K10", "L10", "M10"]);
    assert_eq!(g.captured()[..2], [0, 3]);
}

#[test]
fn extra_time_capture_that_breaks_the_line_lets_play_go_on() {
    let spec = "pente opening=none extra_time_capture=on";
    let mut g = setup(spec, &["C10 D10 E10 F10 D11", "D12 A1 A3 A5 A7"]);
    let r = play(&mut g, "G10").remove(0);
    assert!(r.extra_time);
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(g.to_move(), 2);
    assert_eq!(
        g.threatened_line(),
        Some(Line {
            start: p("C10"),
            end: p("G10"),
            colour: 1
        })
    );
    let r = play(&mut g, "D9").remove(0);
    assert_eq!(removed_names(&r), ["D10", "D11"]);
    assert_eq!(g.status(), Status::Ongoing);
    assert_eq!(g.threatened_line(), None);
    assert_eq!(g.to_move(), 1);
}

#[test]
fn extra_time_capture_not_taken_means_the_line_wins() {
    let spec = "pente opening=none extra_time_capture=on";
    let mut g = setup(spec, &["C10 D10 E10 F10 D11", "D12 A1 A3 A5 A7"]);
    play(&mut g, "G10 T19");
    assert_eq!(g.status(), won(&[1], WinReason::Line));
    // Without the option the line wins at once.
    let mut g = setup(
        "pente opening=none",
        &["C10 D10 E10 F10 D11", "D12 A1 A3 A5 A7"],
    );
    play(&mut g, "G10");
    assert_eq!(g.status(), won(&[1], WinReason::Line));
}

#[test]
fn trimming_an_overline_to_a_winning_length_is_not_a_break() {
    let spec = "pente opening=none extra_time_capture=on";
    let mut g = setup(spec, &["C10 D10 E10 F10 H10 H11", "H12 A1 A3 A5 A7 A9"]);
    play(&mut g, "G10");
    assert_eq!(g.status(), Status::Ongoing, "white can capture H10");
    let r = play(&mut g, "H9").remove(0);
    assert_eq!(removed_names(&r), ["H10", "H11"]);
    assert_eq!(g.status(), won(&[1], WinReason::Line));
}

#[test]
fn extra_time_exceptions_end_the_game_at_once() {
    let spec = "pente opening=none extra_time_capture=on";
    // No capture available to the next player: nothing to wait for.
    let mut g = setup(spec, &["C10 D10 E10 F10", "A1 A3 A5 A7"]);
    play(&mut g, "G10");
    assert_eq!(g.status(), won(&[1], WinReason::Line));
    // Two lines at once.
    let mut g = setup(
        spec,
        &[
            "C10 D10 E10 F10 G6 G7 G8 G9 D11",
            "D12 A1 A3 A5 A7 A9 A11 A13 A15",
        ],
    );
    play(&mut g, "G10");
    assert_eq!(g.status(), won(&[1], WinReason::Line));
    // A capture win at the same time.
    let mut g = setup(
        "pente opening=none extra_time_capture=on capture_win=2",
        &["C10 D10 E10 F10 D11 G13", "D12 A1 A3 G11 G12 A7"],
    );
    play(&mut g, "G10");
    assert_eq!(g.status(), won(&[1], WinReason::Captures));
}

#[test]
fn removing_stones_can_make_someone_elses_exact_line_and_share_the_victory() {
    let spec = "pente opening=none overline=no";
    let lists = ["F4 G7 H7 J7 K7 T19 T17", "A5 B5 C5 D5 F5 F6 E5"];
    let mut g = setup(spec, &lists);
    let r = play(&mut g, "F7").remove(0);
    assert_eq!(removed_names(&r), ["F5", "F6"]);
    assert_eq!(g.status(), won(&[1, 2], WinReason::Line));
    // Without black's own five, the capture hands white the win.
    let mut g = setup(spec, &["F4 G7 H7 J7 O1 T19 T17", "A5 B5 C5 D5 F5 F6 E5"]);
    play(&mut g, "F7");
    assert_eq!(g.status(), won(&[2], WinReason::Line));
}

#[test]
fn mixed_captures_take_different_colours_only_when_on() {
    let lists = ["K10 A1", "L10 A5", "M10 A9"];
    let mut g = setup("pente players=3", &lists);
    assert!(play(&mut g, "N10")[0].removed.is_empty());
    let mut g = setup("pente players=3 mixed_captures=on", &lists);
    let r = play(&mut g, "N10").remove(0);
    assert_eq!(removed_names(&r), ["L10", "M10"]);
    assert_eq!(g.captured()[..3], [2, 0, 0]);
    // A single-colour pair is captured either way.
    let mut g = setup("pente players=3", &["K10 A1", "L10 M10", "C1 C3"]);
    assert_eq!(play(&mut g, "N10")[0].removed.len(), 2);
}

#[test]
fn multiplayer_turns_rotate_and_four_in_a_row_wins() {
    let mut g = setup("gomoku players=3", &["A1 A2 A3", "C1 C2 C3", "E1 E2 E3"]);
    assert_eq!(g.to_move(), 1);
    play(&mut g, "A4");
    assert_eq!(g.status(), won(&[1], WinReason::Line));
    let mut g = Game::new(rules("gomoku players=4"));
    let colours: Vec<u8> = play(&mut g, "A1 B1 C1 D1 E1")
        .iter()
        .map(|r| r.colour.unwrap())
        .collect();
    assert_eq!(colours, [1, 2, 3, 4, 1]);
}

#[test]
fn teammates_stones_are_captured_but_score_nothing_and_teams_pool_captures() {
    let spec = "pente players=4 teams=on capture_win=4";
    let mut g = setup(spec, &["K10 A1", "C1 C3", "L10 M10", "E1 E3"]);
    let r = play(&mut g, "N10").remove(0);
    assert_eq!(removed_names(&r), ["L10", "M10"]);
    assert!(r.removed.iter().all(|x| x.credited_to.is_none()));
    assert_eq!(g.captured(), [0, 0, 0, 0]);

    let mut g = setup(spec, &["K10 A1", "L10 M10", "K5 A5", "L5 M5"]);
    play(&mut g, "N10 C1");
    assert_eq!(g.score(1), 2);
    assert_eq!(g.status(), Status::Ongoing);
    play(&mut g, "N5");
    assert_eq!((g.score(1), g.score(3)), (4, 4));
    assert_eq!(g.status(), won(&[1, 3], WinReason::Captures));
}

#[test]
fn a_teams_line_wins_for_both_members() {
    let mut g = setup(
        "gomoku players=4 teams=on",
        &["A1 A2 A3 A4", "C1 C2 C3 C5", "E1 E2 E3 E5", "G1 G2 G3 G5"],
    );
    play(&mut g, "A5");
    assert_eq!(g.status(), won(&[1, 3], WinReason::Line));
}

#[test]
fn a_full_board_without_a_line_is_a_draw() {
    // Colour from (col + 2*row) mod 4: no run longer than 2 in any direction; 41 black, 40 white.
    let mut black = Vec::new();
    let mut white = Vec::new();
    for row in 0..9u8 {
        for col in 0..9u8 {
            let name = Point::new(col, row, 9).unwrap().name();
            if (col + 2 * row) % 4 < 2 {
                black.push(name)
            } else {
                white.push(name)
            }
        }
    }
    let mut g = Game::new(rules("gomoku size=9"));
    for k in 0..81 {
        let t = if k % 2 == 0 {
            &black[k / 2]
        } else {
            &white[k / 2]
        };
        assert_eq!(g.status(), Status::Ongoing);
        g.apply_token(t).unwrap();
    }
    assert_eq!(g.status(), Status::Draw);
    assert!(g.legal_actions().is_empty());
}

#[test]
fn swap_places_four_then_the_second_seat_chooses() {
    let mut g = Game::new(rules("gomoku opening=swap"));
    assert_eq!(g.phase(), Phase::Placing { seat: 1, until: 4 });
    let colours: Vec<u8> = play(&mut g, "H8 J8 H9 J9")
        .iter()
        .map(|r| r.colour.unwrap())
        .collect();
    assert_eq!(colours, [1, 2, 1, 2]);
    assert_eq!(
        g.phase(),
        Phase::Choosing {
            seat: 2,
            may_place: false
        }
    );
    assert_eq!(g.seat_to_act(), Some(2));
    assert_eq!(g.apply_token("A1").unwrap_err().code(), "wrong_phase");
    assert_eq!(g.apply_token("place").unwrap_err().code(), "wrong_phase");
    assert_eq!(g.apply_token("take:3").unwrap_err().code(), "malformed");
    play(&mut g, "take:1");
    assert_eq!((g.seat_of_colour(1), g.seat_of_colour(2)), (2, 1));
    assert_eq!((g.to_move(), g.seat_to_act()), (1, Some(2)));
    assert_eq!(g.apply_token("take:1").unwrap_err().code(), "wrong_phase");
}

#[test]
fn swap2_offers_three_choices() {
    // Take colour 1: the first seat, now colour 2, moves next.
    let mut g = Game::new(rules("pente opening=swap2"));
    play(&mut g, "K10 L10 M10");
    assert_eq!(
        g.phase(),
        Phase::Choosing {
            seat: 2,
            may_place: true
        }
    );
    play(&mut g, "take:1");
    assert_eq!(
        (g.to_move(), g.seat_to_act(), g.seat_of_colour(1)),
        (2, Some(1), 2)
    );
    // Take colour 2 and place the fourth stone.
    let mut g = Game::new(rules("pente opening=swap2"));
    play(&mut g, "K10 L10 M10 take:2");
    assert_eq!((g.to_move(), g.seat_to_act()), (2, Some(2)));
    // Place two more and hand the choice back.
    let mut g = Game::new(rules("pente opening=swap2"));
    play(&mut g, "K10 L10 M10 place");
    assert_eq!(g.phase(), Phase::Placing { seat: 2, until: 5 });
    let colours: Vec<u8> = play(&mut g, "A1 B1")
        .iter()
        .map(|r| r.colour.unwrap())
        .collect();
    assert_eq!(colours, [2, 1]);
    assert_eq!(
        g.phase(),
        Phase::Choosing {
            seat: 1,
            may_place: false
        }
    );
    assert_eq!(g.apply_token("place").unwrap_err().code(), "wrong_phase");
    play(&mut g, "take:2");
    assert_eq!(
        (g.seat_of_colour(2), g.to_move(), g.seat_to_act()),
        (1, 2, Some(1))
    );
}

#[test]
fn opening_stones_never_capture() {
    let mut g = Game::new(rules("pente opening=swap"));
    // Colours go 1, 2, 1, 2: the fourth stone (colour 2) would bracket... nothing is captured.
    play(&mut g, "K10 J10 L10 M10");
    let mut g = Game::new(rules("pente opening=swap2"));
    let r = play(&mut g, "K10 L10 N10 place M10 O10");
    assert!(r.iter().all(|r| r.removed.is_empty()));
    assert_eq!(g.stone_count(), 5);
}

#[test]
fn undo_restores_the_exact_position() {
    let mut g = setup(
        "pente opening=none self_capture=capture",
        &["K10 L13 A1 A3", "J10 M10 L11 L12"],
    );
    let before = g.clone();
    play(&mut g, "L10");
    assert_eq!(g.undo(), Some(Action::Place(p("L10"))));
    assert_eq!(g, before);
    assert_eq!(g.stones(), before.stones());
    let mut g = setup(
        "pente opening=none extra_time_capture=on",
        &["C10 D10 E10 F10 D11", "D12 A1 A3 A5 A7"],
    );
    let before = g.clone();
    play(&mut g, "G10 D9");
    g.undo();
    g.undo();
    assert_eq!(g, before);
    let mut g = Game::new(rules("pente opening=swap2"));
    play(&mut g, "K10 L10 M10");
    let before = g.clone();
    play(&mut g, "take:1");
    g.undo();
    assert_eq!(g, before);
    assert_eq!(Game::new(rules("pente")).undo(), None);
}

#[test]
fn actions_built_by_hand_are_checked_too() {
    let mut g = Game::new(rules("gomoku size=9"));
    let far = Point::new(12, 12, 19).unwrap();
    assert_eq!(g.apply(Action::Place(far)), Err(PlayError::OffBoard(far)));
    assert_eq!(g.apply(Action::Take(0)).unwrap_err().code(), "malformed");
    assert_eq!(g.apply(Action::Take(200)).unwrap_err().code(), "malformed");
    assert_eq!(g.apply(Action::PlaceTwo).unwrap_err().code(), "wrong_phase");
}

#[test]
fn records_replay_to_the_same_game() {
    let mut g = Game::new(rules("keryo"));
    play(&mut g, "K10 L10 N10 M10 A1 J9");
    let again = Game::from_record(*g.rules(), g.record()).unwrap();
    assert_eq!(again, g);
    let bad = [Action::Place(p("K10")), Action::Place(p("K10"))];
    assert_eq!(Game::from_record(*g.rules(), &bad).unwrap_err().0, 1);
}

// ----- retiring (a player ran out of time in a 3-4 player game) -----------------------------

#[test]
fn a_retired_colour_is_skipped_in_turn_order_and_its_stones_stay() {
    let mut g = Game::new(rules("gomoku players=3"));
    play(&mut g, "H8 A1");
    assert_eq!(g.to_move(), 3);
    play(&mut g, "B2");
    // Colour 1 plays; colour 2 runs out of time.
    play(&mut g, "C3");
    assert_eq!(g.to_move(), 2);
    let r = g.apply(Action::Retire(2)).unwrap();
    assert_eq!(r.status, Status::Ongoing);
    assert_eq!(r.colour, None);
    assert!(r.removed.is_empty());
    assert!(g.retired().contains(2));
    assert_eq!(g.to_move(), 3);
    assert_eq!(g.seat_to_act(), Some(3));
    assert_eq!(g.stone_at(Point::parse("A1", 15).unwrap()), Some(2));
    assert_eq!(g.last_stone(), None);
    for (token, next) in [("D4", 1), ("E5", 3), ("F6", 1)] {
        let r = g.apply_token(token).unwrap();
        assert_eq!(r.colour, Some(if next == 1 { 3 } else { 1 }));
        assert_eq!(g.to_move(), next, "after {token}");
    }
    assert_eq!(g.record().last(), Some(&Action::parse("F6", 15).unwrap()));
    assert!(!g.legal_actions().contains(&Action::Retire(1)));
}

#[test]
fn only_the_colour_to_move_of_a_free_for_all_may_retire_while_two_others_remain() {
    let mut g = Game::new(rules("gomoku players=4"));
    play(&mut g, "H8");
    assert_eq!(
        g.apply(Action::Retire(1)),
        Err(PlayError::WrongPhase("only the colour to move can retire"))
    );
    assert_eq!(g.apply(Action::Retire(5)), Err(PlayError::NoSuchColour(5)));
    assert_eq!(g.apply(Action::Retire(0)), Err(PlayError::NoSuchColour(0)));
    g.apply(Action::Retire(2)).unwrap();
    assert_eq!(g.to_move(), 3);
    g.apply(Action::Retire(3)).unwrap();
    assert_eq!(g.to_move(), 4);
    // Two colours are left: one more retirement would end the game, which is the caller's.
    assert!(matches!(
        g.apply(Action::Retire(4)),
        Err(PlayError::WrongPhase(_))
    ));
    assert!(g.check(Action::Retire(4)).is_err());
    play(&mut g, "J9");
    assert_eq!(g.to_move(), 1);

    let mut two = Game::new(rules("gomoku"));
    assert!(matches!(
        two.apply(Action::Retire(1)),
        Err(PlayError::WrongPhase(_))
    ));
    let mut teams = Game::new(rules("pente players=4 teams=on"));
    assert!(matches!(
        teams.apply(Action::Retire(1)),
        Err(PlayError::WrongPhase(_))
    ));
    assert_eq!(
        two.record().len() + teams.record().len(),
        0,
        "refusals change nothing"
    );
}

#[test]
fn undoing_a_retirement_restores_the_position_exactly() {
    let mut g = Game::new(rules("pente players=3"));
    play(&mut g, "K10 A1 B2");
    let before = g.clone();
    g.apply(Action::Retire(1)).unwrap();
    assert_ne!(g, before);
    assert_eq!(g.undo(), Some(Action::Retire(1)));
    assert_eq!(g, before);
    assert_eq!(g.retired(), Colours::EMPTY);
    assert_eq!(g.to_move(), 1);
}

#[test]
fn retire_tokens_round_trip_and_replay() {
    assert_eq!(Action::parse("retire:3", 19), Ok(Action::Retire(3)));
    assert_eq!(Action::parse("RETIRE:2", 19), Ok(Action::Retire(2)));
    assert_eq!(Action::Retire(4).to_string(), "retire:4");
    for bad in ["retire:5", "retire:", "retire:x", "retire:11"] {
        assert!(Action::parse(bad, 19).is_err(), "{bad}");
    }
    let mut g = Game::new(rules("pente players=3"));
    play(&mut g, "K10 A1 retire:3 B2 C3");
    let replayed = Game::from_record(*g.rules(), g.record()).unwrap();
    assert_eq!(replayed, g);
    assert_eq!(g.to_move(), 1, "3 is skipped after 2");
}

#[test]
fn a_row_waiting_for_the_extra_time_capture_stands_when_the_next_colour_retires() {
    // Colour 1 makes a row of 4 (the multiplayer line) that colour 2 could break by capturing
    // H10 and H11 from H9; colour 2 retires instead, so the row wins.
    let mut g = setup(
        "pente players=3 extra_time_capture=on",
        &["F10 G10 H10 H11", "H12 S1 S3 S5", "A19 C19 E19 G19"],
    );
    let r = g.apply_token("J10").unwrap();
    assert!(r.extra_time, "the row waits for colour 2");
    assert_eq!(g.to_move(), 2);
    let mut broken = g.clone();
    let r = g.apply(Action::Retire(2)).unwrap();
    assert_eq!(
        r.status,
        Status::Won {
            winners: Colours::one(1),
            reason: WinReason::Line
        }
    );
    // Had colour 2 captured instead, play would go on.
    let r = broken.apply_token("H9").unwrap();
    assert_eq!(r.status, Status::Ongoing);
}
