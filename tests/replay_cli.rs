//! The `replay` and `rules` commands as scripts see them: stdout JSON, stderr, exit codes.

mod common;
#[path = "oracles/rapfi_forbidden.rs"]
mod rapfi_forbidden;

use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gomoku-bot"))
        .args(args)
        .output()
        .expect("the binary runs")
}

fn replay(args: &[&str]) -> (Value, i32) {
    let mut all = vec!["replay"];
    all.extend_from_slice(args);
    let out = run(&all);
    let stdout = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(stdout.lines().count(), 1, "exactly one line: {stdout}");
    (
        serde_json::from_str(&stdout).expect("one JSON object"),
        out.status.code().expect("exit code"),
    )
}

#[test]
fn a_won_game_reports_winner_reason_and_board() {
    let (v, code) = replay(&["--rules", "gomoku", "--moves", "H8 A1 J8 A2 K8 A3 L8 A4 M8"]);
    assert_eq!(code, 0);
    assert_eq!(v["status"], "won");
    assert_eq!(v["winners"], serde_json::json!([1]));
    assert_eq!(v["reason"], "line");
    assert_eq!(v["to_move"], Value::Null);
    assert_eq!(v["moves_applied"], 9);
    let board: Vec<&str> = v["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect();
    assert_eq!(board.len(), 15);
    assert!(board.iter().all(|r| r.len() == 15));
    // Row 8 from the bottom is index 15 - 8 from the top.
    assert_eq!(board[7], ".......11111...");
    assert_eq!(board[14], "2..............");
    assert_eq!(v["error"], Value::Null);
    assert_eq!(v["seat_of_colour"], serde_json::json!([1, 2]));
}

#[test]
fn captures_and_options_are_reported() {
    let (v, code) = replay(&[
        "--rules",
        "pente",
        "--set",
        "opening=none",
        "--set",
        "size=13",
        "--moves",
        "G7 H7 A1 J7 K7",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["captured"], serde_json::json!([2, 0]));
    assert_eq!(v["status"], "ongoing");
    assert_eq!(v["to_move"], 2);
    assert_eq!(v["board"][6], "......1..1...");
}

#[test]
fn refused_tokens_stop_the_replay_with_exit_3() {
    for (moves, index, token, code) in [
        ("K10 L10 K10", 2, "K10", "occupied"),
        ("K10 Z9", 1, "Z9", "out_of_bounds"),
        ("K10 hello", 1, "hello", "malformed"),
        ("A1", 0, "A1", "opening_rule"),
        ("K10 take:1", 1, "take:1", "wrong_phase"),
    ] {
        let (v, exit) = replay(&["--rules", "pente", "--moves", moves]);
        assert_eq!(exit, 3, "{moves}");
        assert_eq!(v["error"]["index"], index, "{moves}");
        assert_eq!(v["error"]["move"], token, "{moves}");
        assert_eq!(v["error"]["code"], code, "{moves}");
        assert_eq!(v["moves_applied"], index, "{moves}");
    }
    let (v, exit) = replay(&[
        "--rules",
        "gomoku",
        "--moves",
        "A1 B1 A2 B2 A3 B3 A4 B4 A5 B5",
    ]);
    assert_eq!((exit, v["error"]["code"].as_str()), (3, Some("game_over")));
    let (v, exit) = replay(&[
        "--rules",
        "pente",
        "--set",
        "self_capture=forbidden",
        "--set",
        "opening=none",
        "--moves",
        "K10 J10 A1 M10 L10",
    ]);
    assert_eq!(
        (exit, v["error"]["code"].as_str()),
        (3, Some("forbidden_self_capture"))
    );
}

#[test]
fn swap_choices_map_seats_to_colours() {
    let (v, code) = replay(&[
        "--rules",
        "pente",
        "--set",
        "opening=swap2",
        "--moves",
        "K10 L10 M10 take:1",
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["seat_of_colour"], serde_json::json!([2, 1]));
    assert_eq!(v["to_move"], 2);
}

#[test]
fn bad_usage_is_one_line_on_stderr_and_exit_2() {
    for args in [
        vec!["replay", "--rules", "chess", "--moves", "K10"],
        vec!["replay", "--rules", "pente", "--set", "size=7"],
        vec!["replay", "--rules", "pente", "--set", "colour=red"],
        vec![
            "replay",
            "--rules",
            "pente",
            "--set",
            "players=3",
            "--set",
            "teams=on",
        ],
        vec![
            "replay",
            "--rules",
            "pente",
            "--set",
            "players=4",
            "--set",
            "opening=pro",
        ],
    ] {
        let out = run(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    }
}

#[test]
fn rules_are_printed_in_words() {
    let out = run(&["rules", "keryo", "--set", "players=3"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Keryo-Pente on a 19x19 board, 3 players"),
        "{text}"
    );
    assert!(text.contains("4 or more stones"), "{text}");
    assert!(text.contains("capture 12 stones"), "{text}");
    assert_eq!(run(&["rules", "chess"]).status.code(), Some(2));
}

#[test]
fn renju_lists_black_forbidden_points_and_refuses_them_with_the_shape() {
    // Black F8 G8 H9 H10 (white far away): H8 would make two open threes.
    let moves = "F8 A15 G8 D15 H9 G15 H10 L15";
    let (v, code) = replay(&[
        "--rules",
        "renju",
        "--set",
        "opening=none",
        "--moves",
        moves,
    ]);
    assert_eq!(code, 0);
    assert_eq!(v["forbidden"], serde_json::json!(["H8"]));
    let (v, code) = replay(&[
        "--rules",
        "renju",
        "--set",
        "opening=none",
        "--moves",
        &format!("{moves} H8"),
    ]);
    assert_eq!(code, 3);
    assert_eq!(v["error"]["code"], "forbidden_renju");
    assert_eq!(v["error"]["detail"], "double_three");
    assert_eq!(v["moves_applied"], 8);
    // White to move: no forbidden points; other rule sets list none and add no detail.
    let (v, _) = replay(&["--rules", "renju", "--set", "opening=none", "--moves", "H8"]);
    assert_eq!(v["forbidden"], serde_json::json!([]));
    let (v, _) = replay(&["--rules", "pente", "--moves", "K10 K10"]);
    assert_eq!(v["forbidden"], serde_json::json!([]));
    assert!(v["error"].get("detail").is_none(), "{v}");
}

#[test]
fn renju_opening_tokens_replay_and_the_rules_describe_both_openings() {
    let (v, code) = replay(&[
        "--rules",
        "renju",
        "--moves",
        "H8 swap J9 keep K10 keep G5 offer:A1, B1, C1,D1,E1,F1,G1,H1,J1,K1 choose:E1 O15",
    ]);
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["moves_applied"], 10);
    assert_eq!(v["seat_of_colour"], serde_json::json!([2, 1]));
    assert_eq!(v["board"][14], "....1..........");
    let (v, code) = replay(&[
        "--rules",
        "renju",
        "--set",
        "opening=soosorv-8",
        "--moves",
        "H8 J9 K10 keep B2 declare:9",
    ]);
    assert_eq!((code, v["error"]["code"].as_str()), (3, Some("malformed")));
    let (v, code) = replay(&["--rules", "renju", "--moves", "H8 keep L12"]);
    assert_eq!(
        (code, v["error"]["code"].as_str()),
        (3, Some("opening_rule"))
    );
    for (opening, words) in [("taraguchi-10", "Taraguchi-10"), ("soosorv-8", "Soosorv-8")] {
        let out = run(&["rules", "renju", "--set", &format!("opening={opening}")]);
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(words), "{text}");
        assert!(text.contains("double three"), "{text}");
    }
    let out = run(&["rules", "renju", "--set", "captures=pairs"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8(out.stderr)
            .unwrap()
            .contains("no captures")
    );
}
