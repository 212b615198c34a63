//! The `review` command as scripts see it: the JSON review, the chart, the English summary,
//! exit codes for bad input.

use std::process::{Command, Output};

use serde_json::Value;

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gomoku-bot"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// Black makes an open four (L10 makes the three open, M10 the four) while white plays on the
/// edge: white's replies are the mistakes.
const GAME: &str = "J10 A1 K10 A3 L10 A5 M10 A7 N10";

#[test]
fn json_has_every_move_with_its_evaluation_best_move_and_class() {
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("chart.png");
    let out = run(&[
        "review",
        "--rules",
        "gomoku",
        "--moves",
        GAME,
        "--nodes",
        "3000",
        "--json",
        "--out",
        chart.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let moves = v["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 9);
    assert_eq!(moves[0]["action"], "J10");
    for m in moves {
        assert!(m["eval"].is_i64(), "{m}");
        assert!(m["best"].is_string(), "{m}");
        let class = m["class"].as_str().unwrap();
        assert!(
            ["good", "inaccuracy", "mistake", "blunder"].contains(&class),
            "{class}"
        );
    }
    let chances = v["chances"].as_array().unwrap();
    assert_eq!(chances.len(), 10);
    assert_eq!(chances[9], 1.0, "black won");
    // White let the four be made: at least one of its moves is a blunder.
    assert!(
        moves
            .iter()
            .filter(|m| m["colour"] == 2)
            .any(|m| m["class"] == "blunder")
    );
    assert_eq!(v["players"].as_array().unwrap().len(), 2);
    let png = std::fs::read(&chart).unwrap();
    let img = image::load_from_memory(&png).unwrap();
    assert_eq!((img.width(), img.height()), (800, 360));
}

#[test]
fn words_name_the_turning_points() {
    let out = run(&[
        "review", "--rules", "gomoku", "--moves", GAME, "--nodes", "3000",
    ]);
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("Seat 1: accuracy"), "{text}");
    assert!(
        text.contains("(white), changed black's chance from"),
        "{text}"
    );
}

#[test]
fn bad_input_is_refused_with_one_line_and_its_exit_code() {
    let cases: [(&[&str], i32, &str); 4] = [
        (&["--rules", "gomoku", "--moves", "J10 K10"], 2, "not over"),
        (&["--rules", "gomoku", "--moves", "J10 J10"], 3, "refused"),
        (&["--rules", "nope", "--moves", "J10"], 2, "nope"),
        (
            &["--rules", "gomoku", "--set", "players=3", "--moves", "J10"],
            2,
            "two-player",
        ),
    ];
    for (args, code, words) in cases {
        let mut all = vec!["review"];
        all.extend_from_slice(args);
        let out = run(&all);
        assert_eq!(out.status.code(), Some(code), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.contains(words), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}
