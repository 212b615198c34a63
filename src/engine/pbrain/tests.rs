//! Scripted pbrain sessions, run in-process.

use std::sync::{Arc, Mutex};

use super::*;
use crate::rules::Status;

fn setup(preset: Preset, options: &[&str]) -> Setup {
    Setup {
        preset,
        options: options.iter().map(|o| o.to_string()).collect(),
        level: Level::MIN,
    }
}

/// Runs `script` in `session`; returns the output lines.
fn run(session: &mut Session, script: &str) -> Vec<String> {
    let mut out = Vec::new();
    session
        .run(script.as_bytes(), &mut out)
        .expect("in-memory IO does not fail");
    String::from_utf8(out)
        .expect("UTF-8 output")
        .lines()
        .map(str::to_string)
        .collect()
}

fn point(name: &str, size: u8) -> Point {
    Point::parse(name, size).expect("a point")
}

/// Asserts that `line` is a move `x,y` on the board and returns its point.
fn move_of(line: &str, size: u8) -> Point {
    parse_xy(line, size).unwrap_or_else(|e| panic!("`{line}` is not a move: {e}"))
}

#[test]
fn coordinates_count_rows_from_the_top() {
    assert_eq!(parse_xy("0,0", 19), Ok(point("A19", 19)));
    assert_eq!(parse_xy("7,7", 15), Ok(point("H8", 15)));
    assert_eq!(parse_xy("0,14", 15), Ok(point("A1", 15)));
    assert_eq!(parse_xy("14, 0", 15), Ok(point("P15", 15)));
    assert_eq!(format_xy(point("K10", 19), 19), "9,9");
    assert_eq!(format_xy(point("A1", 15), 15), "0,14");
    for bad in ["", "1", "1,2,3", "a,b", "-1,2", "15,0", "0,15", "300,1"] {
        assert!(parse_xy(bad, 15).is_err(), "{bad}");
    }
    for size in [9u8, 13, 15, 19] {
        for x in 0..size {
            for y in 0..size {
                let p = parse_xy(&format!("{x},{y}"), size).expect("on the board");
                assert_eq!(format_xy(p, size), format!("{x},{y}"));
            }
        }
    }
}

#[test]
fn about_start_begin_turn_and_end() {
    let mut s = Session::new(setup(Preset::Gomoku, &[])).expect("setup");
    let out = run(
        &mut s,
        "ABOUT\nSTART 15\nBEGIN\nTURN 0,0\nEND\nSTART 15\nBEGIN\n",
    );
    assert_eq!(out.len(), 4, "{out:?}");
    assert!(
        out[0].starts_with("name=\"gomoku-bot\", version=\""),
        "{out:?}"
    );
    assert!(out[0].contains("author=") && out[0].contains("country="));
    assert_eq!(out[1], "OK");
    let first = move_of(&out[2], 15);
    let second = move_of(&out[3], 15);
    let game = s.game.as_ref().expect("a game");
    assert_eq!(
        game.record(),
        &[
            Action::Place(first),
            Action::Place(point("A15", 15)),
            Action::Place(second)
        ]
    );
    assert_eq!(game.stone_at(point("A15", 15)), Some(2));
}

#[test]
fn the_board_size_follows_start_and_restart_keeps_it() {
    let mut s = Session::new(setup(Preset::Pente, &[])).expect("setup");
    let out = run(&mut s, "START 13\nBEGIN\nRESTART\nSTART 20\nSTART x\n");
    assert_eq!(out[0], "OK");
    // Pente's pro opening: the first stone goes on the centre.
    assert_eq!(move_of(&out[1], 13), Point::centre(13));
    assert_eq!(out[2], "OK");
    assert!(out[3].starts_with("ERROR unsupported size 20"), "{out:?}");
    assert!(out[4].starts_with("ERROR"), "{out:?}");
    let game = s.game.as_ref().expect("a game");
    assert_eq!((game.size(), game.record().len()), (13, 0));
}

/// Pente (no opening rule): the opponent has two of our pairs to capture, so whatever the
/// engine does in between, one of them is still there to take.
const TWO_PAIRS: &str =
    "BOARD\n9,9,2\n10,9,1\n9,14,2\n11,9,1\n0,18,2\n10,14,1\n0,16,2\n11,14,1\n0,14,2\nDONE\n";

#[test]
fn board_replays_the_game_and_turn_applies_captures() {
    let mut s = Session::new(setup(Preset::Pente, &["opening=none"])).expect("setup");
    let out = run(&mut s, &format!("START 19\n{TWO_PAIRS}"));
    assert_eq!(out[0], "OK");
    let reply = move_of(&out[1], 19);
    let game = s.game.clone().expect("a game");
    assert_eq!(game.record().len(), 10);
    assert_eq!(game.stone_at(reply), Some(2), "we play colour 2");
    assert_eq!(game.stone_at(point("L10", 19)), Some(2));
    assert_eq!(game.stone_at(point("K5", 19)), Some(1));
    let (capture, pair) = if game.stone_at(point("N10", 19)).is_none()
        && game.stone_at(point("L10", 19)) == Some(2)
        && game.stone_at(point("M10", 19)) == Some(2)
    {
        ("12,9", ["L10", "M10"])
    } else {
        ("12,14", ["L5", "M5"])
    };
    let out = run(&mut s, &format!("TURN {capture}\n"));
    assert_eq!(out.len(), 1, "{out:?}");
    let answer = move_of(&out[0], 19);
    let game = s.game.clone().expect("a game");
    assert_eq!(game.captured()[0], 2, "the opponent's capture counted");
    for p in pair {
        // Captured: empty, unless our answer went back onto the point.
        assert!(
            game.stone_at(point(p, 19)) != Some(2) || answer == point(p, 19),
            "{p} was captured"
        );
    }
    // Take back our answer, then the capture: the pair is back.
    let x_y = format_xy(answer, 19);
    let out = run(&mut s, &format!("TAKEBACK {x_y}\nTAKEBACK {capture}\n"));
    assert_eq!(out, ["OK", "OK"]);
    let game = s.game.clone().expect("a game");
    assert_eq!(game.record().len(), 10);
    for p in pair {
        assert_eq!(game.stone_at(point(p, 19)), Some(2), "{p} is back");
    }
    assert_eq!(game.captured()[0], 0);
}

#[test]
fn board_lists_must_alternate_in_the_order_played() {
    let mut s = Session::new(setup(Preset::Gomoku, &[])).expect("setup");
    // Two opponent stones in a row, then one of ours: not an order of play.
    let out = run(&mut s, "START 15\nBOARD\n7,7,2\n8,8,2\n9,9,1\nDONE\n");
    assert_eq!(out[0], "OK");
    assert!(out[1].starts_with("ERROR BOARD line 2"), "{out:?}");
    // The game is unchanged by a refused BOARD.
    assert!(s.game.as_ref().expect("a game").record().is_empty());
    // Continuous-game fields are refused; an empty board means we start.
    let out = run(&mut s, "BOARD\n7,7,3\nDONE\nBOARD\nDONE\n");
    assert!(out[0].contains("not supported"), "{out:?}");
    move_of(&out[1], 15);
}

#[test]
fn bad_lines_are_answered_and_the_session_goes_on() {
    let mut s = Session::new(setup(Preset::Gomoku, &[])).expect("setup");
    let out = run(
        &mut s,
        "TURN 1,1\nBEGIN\nSTART 15\nTURN\nTURN a,b\nTURN 99,99\nTURN 7,7\nTURN 7,7\nFOO bar\n\
         INFO timeout_turn soon\nINFO rule 2\nTAKEBACK 0,0\nTAKEBACK x\nBOARD\n1,2\nDONE\n\
         BEGIN\n\u{feff}\u{0}\nTURN 0,0\n",
    );
    let errors = out.iter().filter(|l| l.starts_with("ERROR")).count();
    let unknown = out.iter().filter(|l| l.starts_with("UNKNOWN")).count();
    // TURN, BEGIN before START; TURN x3; occupied 7,7; INFO x2; TAKEBACK x2; BOARD line;
    // BEGIN mid-game. The unknown ones: FOO, the stray DONE, and the garbage line.
    assert_eq!(errors, 12, "{out:?}");
    assert_eq!(unknown, 3, "{out:?}");
    assert_eq!(out.iter().filter(|l| *l == "OK").count(), 1);
    let moves: Vec<&String> = out.iter().filter(|l| parse_xy(l, 15).is_ok()).collect();
    assert_eq!(moves.len(), 2, "the two good TURNs are answered: {out:?}");
    let game = s.game.as_ref().expect("a game");
    assert_eq!(game.record().len(), 4);
    assert_eq!(game.stone_at(point("H8", 15)), Some(1));
}

#[test]
fn a_turn_that_ends_the_game_gets_no_move() {
    let mut s = Session::new(setup(Preset::Gomoku, &[])).expect("setup");
    // We (colour 1) have scattered stones on the top row; the opponent has A1-D1.
    let out = run(
        &mut s,
        "START 15\nBOARD\n0,0,1\n0,14,2\n2,0,1\n1,14,2\n4,0,1\n2,14,2\n6,0,1\n3,14,2\nDONE\n",
    );
    assert_eq!(out[0], "OK");
    let ours = move_of(&out[1], 15);
    if ours != point("E1", 15) {
        let out = run(&mut s, "TURN 4,14\n");
        assert_eq!(out, ["ERROR the game is over"]);
        let game = s.game.as_ref().expect("a game");
        assert!(matches!(game.status(), Status::Won { winners, .. } if winners.contains(2)));
    }
}

#[test]
fn info_rule_one_means_exactly_five() {
    let mut s = Session::new(setup(Preset::Gomoku, &[])).expect("setup");
    let out = run(
        &mut s,
        "INFO rule 1\nINFO max_memory 83886080\nINFO game_type 1\nINFO folder /tmp\n\
         INFO evaluate 1,1\nSTART 15\n",
    );
    assert_eq!(out, ["OK"]);
    let rules = *s.game.as_ref().expect("a game").rules();
    assert!(!rules.overline_wins);
    // Between games it applies at once.
    run(&mut s, "INFO rule 0\n");
    assert!(s.game.as_ref().expect("a game").rules().overline_wins);
}

/// A player that records the budgets it is given and plays the first legal point.
struct Recorder(Arc<Mutex<Vec<Duration>>>);

impl Player for Recorder {
    fn choose(&mut self, game: &Game, budget: Duration) -> Option<Action> {
        self.0.lock().expect("not poisoned").push(budget);
        game.legal_actions().into_iter().next()
    }
}

#[test]
fn the_time_is_the_smallest_of_level_turn_limit_and_match_share() {
    let budgets = Arc::new(Mutex::new(Vec::new()));
    let mut s = Session::new(setup(Preset::Gomoku, &[])).expect("setup");
    run(&mut s, "START 15\n");
    s.player = Box::new(Recorder(Arc::clone(&budgets)));
    // Level 1 thinks 100 ms; a 50 ms turn limit leaves 25 ms after the margin; 800 ms left in
    // the match over at least 56 moves to come leaves 14 ms.
    run(
        &mut s,
        "BEGIN\nINFO timeout_turn 50\nTURN 0,0\nINFO time_left 800\nTURN 0,1\n\
         INFO timeout_match 0\nTURN 0,2\nINFO timeout_turn 0\nTURN 0,3\n",
    );
    let seen = budgets.lock().expect("not poisoned").clone();
    assert_eq!(
        seen,
        [
            Duration::from_millis(100),
            Duration::from_millis(25),
            Duration::from_millis(14),
            Duration::from_millis(25),
            Duration::ZERO,
        ]
    );
}

#[test]
fn setups_pbrain_cannot_play_are_refused() {
    assert!(matches!(
        Session::new(setup(Preset::Gomoku, &["players=3"])),
        Err(SetupError::Players(3))
    ));
    assert!(matches!(
        Session::new(setup(Preset::Gomoku, &["opening=swap2"])),
        Err(SetupError::Opening(Opening::Swap2))
    ));
    assert!(matches!(
        Session::new(setup(Preset::Gomoku, &["size=12"])),
        Err(SetupError::Rules(_))
    ));
}

#[test]
fn info_rule_four_plays_renju_and_black_never_answers_on_a_forbidden_point() {
    for level in [Level::MIN, Level::MAX] {
        let mut s = Session::new(Setup {
            level,
            ..setup(Preset::Gomoku, &[])
        })
        .expect("setup");
        let out = run(&mut s, "INFO rule 4\nSTART 15\n");
        assert_eq!(out, ["OK"]);
        let rules = *s.game.as_ref().expect("a game").rules();
        assert!(rules.is_renju(), "{rules:?}");
        assert_eq!(
            rules.opening,
            Opening::None,
            "pbrain cannot express swap decisions"
        );
        // We are black (an even number of stones listed). Black's F8 G8 and H9 H10 make H8
        // a double three, the point where both threes meet: tempting, and forbidden. White
        // threatens nothing.
        let board = "BOARD\n5,7,1\n0,0,2\n6,7,1\n14,0,2\n7,6,1\n0,14,2\n7,5,1\n14,14,2\nDONE\n";
        let out = run(&mut s, board);
        let ours = move_of(&out[0], 15);
        let game = s.game.as_ref().expect("a game");
        assert_eq!(game.stone_at(ours), Some(1), "the answer was played");
        let mut before = game.clone();
        before.undo().expect("our move undoes");
        assert!(
            before.forbidden_points().contains(&point("H8", 15)),
            "the position has the forbidden point"
        );
        assert!(
            !before.forbidden_points().contains(&ours),
            "level {level:?} played the forbidden {}",
            ours.name()
        );
        // The opponent's TURN on a forbidden point is refused as such. Black has two double
        // threes far apart (H8, and M12 from K12 L12 with M13 M14): one white answer cannot
        // take both away.
        let mut s = Session::new(setup(Preset::Gomoku, &[])).expect("setup");
        let black = ["5,7", "6,7", "7,6", "7,5", "9,3", "10,3", "11,2", "11,1"];
        let white = ["0,0", "14,14", "0,14", "0,7", "14,7", "7,14", "3,14"];
        let mut script = String::from("INFO rule 5\nSTART 15\nBOARD\n");
        for (k, b) in black.iter().enumerate() {
            script.push_str(&format!("{b},2\n"));
            if let Some(w) = white.get(k) {
                script.push_str(&format!("{w},1\n"));
            }
        }
        script.push_str("DONE\n");
        let out = run(&mut s, &script);
        assert_eq!(out[0], "OK");
        move_of(&out[1], 15);
        let forbidden = s.game.as_ref().expect("a game").forbidden_points();
        let p = forbidden.first().expect("a double three is left");
        let xy = format!("{},{}", p.col(), 14 - p.row());
        let out = run(&mut s, &format!("TURN {xy}\n"));
        assert!(
            out[0].starts_with(&format!("ERROR {xy}")) && out[0].contains("forbidden"),
            "{out:?}"
        );
    }
}

#[test]
fn renju_follows_start_s_board_and_other_rule_bits_are_refused() {
    let mut s = Session::new(setup(Preset::Gomoku, &[])).expect("setup");
    let out = run(&mut s, "INFO rule 4\nSTART 19\n");
    assert_eq!(out, ["OK"]);
    let rules = *s.game.as_ref().expect("a game").rules();
    assert!(rules.is_renju() && rules.size == 19, "{rules:?}");
    let out = run(&mut s, "START 15\nINFO rule 2\nINFO rule 8\n");
    assert_eq!(out[0], "OK");
    assert!(
        out[1].contains("only 0 (freestyle), 1 (exactly five) and 4 (Renju)"),
        "{out:?}"
    );
    assert!(out[2].starts_with("ERROR INFO rule 8"), "{out:?}");
    assert!(
        s.game.as_ref().expect("a game").rules().is_renju(),
        "refused bits change nothing"
    );
    // Back to freestyle between games: the empty game takes the new rule at once.
    assert_eq!(run(&mut s, "INFO rule 0\n"), Vec::<String>::new());
    let rules = *s.game.as_ref().expect("a game").rules();
    assert!(!rules.is_renju() && rules.overline_wins);
}

#[test]
fn the_renju_preset_is_played_without_its_tournament_opening() {
    let mut s = Session::new(setup(Preset::Renju, &[])).expect("renju over pbrain");
    let out = run(&mut s, "START 15\nTURN 0,0\n");
    assert_eq!(out[0], "OK");
    // A first stone in the corner: no opening rule holds it to the centre.
    let ours = move_of(&out[1], 15);
    let game = s.game.as_ref().expect("a game");
    assert!(game.rules().is_renju());
    assert_eq!(game.stone_at(point("A15", 15)), Some(1));
    assert_eq!(game.stone_at(ours), Some(2));
}
