//! The `pbrain` command through the real binary: a short Gomocup session on its stdin/stdout.

use std::io::Write;
use std::process::{Command, Stdio};

fn pbrain(args: &[&str], input: &str) -> (String, String, i32) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gomoku-bot"))
        .arg("pbrain")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // A refused setup exits before reading: its closed pipe is not this test's concern.
    let _ = child
        .stdin
        .take()
        .expect("a stdin")
        .write_all(input.as_bytes());
    let out = child.wait_with_output().expect("the binary ends");
    (
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
        out.status.code().expect("an exit code"),
    )
}

/// Whether a line is a move `x,y` on a board of side `size`.
fn is_move(line: &str, size: u32) -> bool {
    let parts: Vec<Option<u32>> = line.split(',').map(|p| p.trim().parse().ok()).collect();
    matches!(parts.as_slice(), [Some(x), Some(y)] if *x < size && *y < size)
}

#[test]
fn a_session_answers_every_command_and_end_exits_zero() {
    let (out, err, code) = pbrain(
        &["--rules", "pente", "--level", "1"],
        "INFO timeout_turn 1000\nABOUT\nSTART 19\nBEGIN\nTURN 3,3\nWHAT\nTURN 3,3\nEND\nBEGIN\n",
    );
    assert_eq!(code, 0, "stderr: {err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    assert!(lines[0].starts_with("name=\"gomoku-bot\""), "{out}");
    assert_eq!(lines[1], "OK");
    // Pente's pro opening: the engine's first stone is the centre.
    assert_eq!(lines[2], "9,9");
    assert!(is_move(lines[3], 19), "{out}");
    assert!(lines[4].starts_with("UNKNOWN"), "{out}");
    assert!(lines[5].starts_with("ERROR"), "3,3 is taken: {out}");
}

#[test]
fn the_end_of_input_also_ends_the_session() {
    let (out, _, code) = pbrain(&[], "START 15\nBEGIN\n");
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "OK");
    assert!(is_move(lines[1], 15), "{out}");
}

#[test]
fn bad_usage_exits_two_with_one_line() {
    for args in [
        &["--rules", "chess"][..],
        &["--set", "players=3"],
        &["--set", "opening=swap"],
        &["--level", "9"],
    ] {
        let (out, err, code) = pbrain(args, "START 15\n");
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty(), "{args:?}: {out}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}
