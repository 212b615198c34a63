//! The `arena` command as a user runs it: a short match prints its score, Elo and timings;
//! bad usage is one line on stderr and exit status 2.

use std::process::{Command, Output};

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gomoku-bot"))
        .arg("arena")
        .args(args)
        .output()
        .expect("the binary runs")
}

#[test]
fn a_short_match_prints_score_elo_and_timings() {
    let out = arena(&[
        "--rules",
        "gomoku",
        "--set",
        "size=9",
        "--a",
        "level=2",
        "--b",
        "level=1",
        "--games",
        "2",
        "--threads",
        "2",
        "--budget-scale",
        "0.05",
        "--records",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(
        text.starts_with("arena: gomoku size=9, A = level 2, B = level 1, 2 games"),
        "{text}"
    );
    let score = text
        .lines()
        .find_map(|l| l.strip_prefix("score (W-D-L for A): "))
        .expect("a score line");
    let wdl: Vec<u32> = score
        .split_whitespace()
        .next()
        .expect("W-D-L")
        .split('-')
        .map(|n| n.parse().expect("a count"))
        .collect();
    assert_eq!(wdl.iter().sum::<u32>(), 2, "{score}");
    assert!(text.contains("Elo A - B: "), "{text}");
    assert!(text.contains("A (level 2, budget 13 ms)"), "{text}");
    assert!(
        text.contains("worst budget overshoot (time / budget): "),
        "{text}"
    );
    assert_eq!(
        text.lines().filter(|l| l.starts_with("game ")).count(),
        2,
        "{text}"
    );
    // The same records went to stderr as each game ended (a match stopped early keeps them).
    let err = String::from_utf8(out.stderr).expect("utf-8");
    for game in text.lines().filter(|l| l.starts_with("game ")) {
        assert!(
            err.contains(&format!("arena: {game}\n")),
            "{game} not in {err}"
        );
    }
}

#[test]
fn an_external_pbrain_engine_plays_a_match_through_the_client() {
    // Our own binary's pbrain mode stands in for an external engine such as Rapfi.
    let engine = format!(
        "pbrain={} pbrain --level 1",
        env!("CARGO_BIN_EXE_gomoku-bot")
    );
    let out = arena(&[
        "--rules",
        "gomoku",
        "--set",
        "size=9",
        "--a",
        "level=2",
        "--b",
        &engine,
        "--games",
        "2",
        "--budget-scale",
        "0.1",
        "--pbrain-turn-ms",
        "50",
        "--records",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(
        !err.contains("gave no legal move"),
        "no forfeit expected: {err}"
    );
    let text = String::from_utf8(out.stdout).expect("utf-8");
    assert!(text.contains("B = pbrain `"), "{text}");
    assert!(text.contains("budget 50 ms"), "{text}");
    // Both games were played to the end: each record has more than the opening's stones.
    let games: Vec<&str> = text.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{text}");
    for g in games {
        let moves = g
            .split(": ")
            .nth(1)
            .expect("moves")
            .split_whitespace()
            .count();
        assert!(moves >= 9, "{g}");
    }
}

#[test]
fn bad_usage_is_one_line_and_exit_status_2() {
    for args in [
        &["--rules", "gomoku", "--a", "level=7", "--b", "level=1"][..],
        &["--rules", "gomoku", "--a", "level=1", "--b", "pbrain="][..],
        // An external engine that does not exist is refused before any game.
        &[
            "--rules",
            "gomoku",
            "--a",
            "level=1",
            "--b",
            "pbrain=/nonexistent/pbrain-engine",
        ][..],
        // One that is not a pbrain engine (it never answers ABOUT) too.
        &["--rules", "gomoku", "--a", "level=1", "--b", "pbrain=true"][..],
        &["--rules", "chess", "--a", "level=1", "--b", "level=1"][..],
        &[
            "--rules",
            "gomoku",
            "--set",
            "players=3",
            "--a",
            "1",
            "--b",
            "1",
        ][..],
        &["--rules", "gomoku", "--a", "1", "--b", "1", "--games", "0"][..],
        &[
            "--rules",
            "gomoku",
            "--a",
            "1",
            "--b",
            "1",
            "--budget-scale",
            "-1",
        ][..],
    ] {
        let out = arena(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).expect("utf-8");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
}
