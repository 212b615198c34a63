//! Rapfi (dhbloo/rapfi, the Gomocup champion) as an oracle for Renju's forbidden points.
//!
//! Ignored by default: it needs a Rapfi binary, which is GPL and never part of this tree.
//! Build one anywhere (see DESIGN.md section 7) and run
//!
//! ```sh
//! RAPFI_PATH=/tmp/rapfi/build/pbrain-rapfi cargo test --release --test replay_cli rapfi -- --ignored --nocapture
//! ```
//!
//! Dense random positions (black to move, nobody has won, every stone legal when it was
//! played) are set up in Rapfi with `INFO rule 4` and `YXBOARD`; `YXSHOWFORBID` lists black's
//! forbidden points, which must be exactly `Game::forbidden_points`. `RAPFI_POSITIONS` sets
//! how many positions (default 5000).
//!
//! One kind of disagreement is Rapfi's and is counted apart: a three whose straight-four point
//! also makes a five on another line. By the rule (DESIGN.md section 2b) that point is not
//! forbidden (a five wins), so the line is a three. Rapfi (`Board::checkForbiddenPoint`)
//! accepts a completion point only when its combined pattern is a flex four (`B_FLEX4`), the
//! line's own pattern a five, or a forbidden-looking four that is not forbidden; a point that
//! makes a five on another line has the combined pattern `A_FIVE` and is none of these, so
//! Rapfi does not count that three. Directly, Rapfi then misses a double three (a point we
//! list and Rapfi does not); one level down the recursion, it misses the double three of a
//! completion point and so counts a three we do not (a point Rapfi lists and we do not). Both
//! need a five for black on the board, so disagreements in positions where black can make five
//! are counted apart, and every other position must agree exactly.
//! (`src/rules/renju_tests.rs` pins our reading with a position of its own.)

use std::collections::BTreeSet;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use gomoku_bot::rules::{Action, Game, Point, RuleSet, Status};

use crate::common::random_game;

/// Rapfi's `x,y`: column from the left, row from the top, both from 0.
fn xy(p: Point, size: u8) -> (u8, u8) {
    (p.col(), size - 1 - p.row())
}

/// Black's forbidden points in Rapfi's answer `FORBID xxyy....`.
fn parse_forbid(line: &str, size: u8) -> BTreeSet<Point> {
    let digits = line
        .trim()
        .strip_prefix("FORBID")
        .expect("a FORBID line")
        .trim()
        .trim_end_matches('.');
    digits
        .as_bytes()
        .chunks(4)
        .map(|c| {
            let n = |s: &[u8]| std::str::from_utf8(s).unwrap().parse::<u8>().unwrap();
            let (x, y) = (n(&c[..2]), n(&c[2..]));
            Point::new(x, size - 1 - y, size).expect("on the board")
        })
        .collect()
}

/// Whether black makes five now somewhere.
fn black_has_a_five(game: &Game) -> bool {
    game.points()
        .filter(|&p| game.stone_at(p).is_none())
        .any(|p| {
            let mut g = game.clone();
            g.apply(Action::Place(p)).is_ok()
                && matches!(g.status(), Status::Won { winners, .. } if winners.contains(1))
        })
}

/// Whether black has four stones and an empty point in a row of five cells (a cheap test
/// that covers every five black could make now).
fn black_has_a_four(game: &Game) -> bool {
    let n = i16::from(game.size());
    let at = |c: i16, r: i16| {
        if (0..n).contains(&c) && (0..n).contains(&r) {
            Point::new(c as u8, r as u8, game.size())
                .ok()
                .map(|p| game.stone_at(p))
        } else {
            None
        }
    };
    for (dc, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
        for c in 0..n {
            for r in 0..n {
                let cells: Vec<Option<Option<u8>>> =
                    (0..5).map(|k| at(c + k * dc, r + k * dr)).collect();
                if cells.iter().any(Option::is_none) {
                    continue;
                }
                let black = cells.iter().filter(|x| **x == Some(Some(1))).count();
                let empty = cells.iter().filter(|x| **x == Some(None)).count();
                if black == 4 && empty == 1 {
                    return true;
                }
            }
        }
    }
    false
}

/// A dense position without a four for black (so without a five to make): stones near the
/// ones already down, every one legal and none ending the game; black to move.
fn without_fours(rules: RuleSet, stones: usize, seed: u64) -> Game {
    let mut game = Game::new(rules);
    let size = game.size();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    'moves: while game.stones_placed() < stones {
        for _ in 0..400 {
            let stones_now = game.stones();
            let p = match stones_now.get(next(stones_now.len().max(1) as u64) as usize) {
                Some(&(anchor, _)) => {
                    let c = i16::from(anchor.col()) + next(5) as i16 - 2;
                    let r = i16::from(anchor.row()) + next(5) as i16 - 2;
                    if c < 0 || r < 0 {
                        continue;
                    }
                    match Point::new(c as u8, r as u8, size) {
                        Ok(p) => p,
                        Err(_) => continue,
                    }
                }
                None => Point::centre(size),
            };
            let black = game.to_move() == 1;
            if game.apply(Action::Place(p)).is_err() {
                continue;
            }
            if game.is_over() || (black && black_has_a_four(&game)) {
                game.undo();
                continue;
            }
            continue 'moves;
        }
        break;
    }
    game
}

#[test]
#[ignore = "needs a Rapfi binary in RAPFI_PATH"]
fn black_s_forbidden_points_agree_with_rapfi() {
    let Some(path) = std::env::var_os("RAPFI_PATH") else {
        eprintln!("RAPFI_PATH is not set: the comparison with Rapfi is skipped");
        return;
    };
    let count: u64 = std::env::var("RAPFI_POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    let mut child = Command::new(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Rapfi starts");
    let mut input = child.stdin.take().expect("stdin");
    let mut output = BufReader::new(child.stdout.take().expect("stdout"));
    let mut answer = |prefix: &str| -> String {
        let mut line = String::new();
        loop {
            line.clear();
            assert!(output.read_line(&mut line).expect("read") > 0, "Rapfi quit");
            if line.starts_with(prefix) {
                return line.trim().to_string();
            }
        }
    };
    let rules = RuleSet::from_spec("renju opening=none").expect("spec");
    let size = rules.size;
    writeln!(input, "INFO rule 4\nSTART {size}").unwrap();
    assert_eq!(answer("OK"), "OK");

    let (mut compared, mut points, mut with_any) = (0u64, 0usize, 0u64);
    let (mut quirks, mut with_five) = (0u64, 0u64);
    let mut quirk_examples = Vec::new();
    let mut disagreements = Vec::new();
    for seed in 0..count {
        // 20 to 140 stones, an even number: black to move. Every other position has no four
        // for black; the others are any legal positions, fours and fives for black included.
        let stones = 20 + 2 * (seed % 61) as usize;
        let game: Game = if seed % 2 == 0 {
            without_fours(rules, stones, seed)
        } else {
            random_game(rules, stones, seed)
        };
        if game.to_move() != 1 || game.is_over() {
            continue;
        }
        let mut board = String::from("YXBOARD\n");
        for a in game.record() {
            let Action::Place(p) = *a else { continue };
            let (x, y) = xy(p, size);
            let colour = game.stone_at(p).expect("a stone");
            // Rapfi's 1 is the side that moved first (black), 2 the other.
            board.push_str(&format!("{x},{y},{colour}\n"));
        }
        board.push_str("DONE\nYXSHOWFORBID\n");
        input.write_all(board.as_bytes()).unwrap();
        input.flush().unwrap();
        let theirs = parse_forbid(&answer("FORBID"), size);
        let ours: BTreeSet<Point> = game.forbidden_points().into_iter().collect();
        compared += 1;
        points += ours.len();
        with_any += u64::from(!ours.is_empty());
        let five = black_has_a_five(&game);
        with_five += u64::from(five);
        let name = |s: &BTreeSet<Point>| s.iter().map(|p| p.name()).collect::<Vec<_>>();
        if ours != theirs && five {
            quirks += 1;
            if quirk_examples.len() < 5 {
                quirk_examples.push(format!(
                    "seed {seed}: ours {:?}, Rapfi's {:?}",
                    name(&ours),
                    name(&theirs)
                ));
            }
            continue;
        }
        if ours != theirs {
            disagreements.push(format!(
                "seed {seed} ({stones} stones): ours {:?}, Rapfi's {:?}; moves {}",
                name(&ours),
                name(&theirs),
                game.record()
                    .iter()
                    .map(|a| a.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
    }
    let _ = writeln!(input, "END");
    let _ = child.wait();
    eprintln!(
        "compared {compared} positions with Rapfi ({with_any} with forbidden points, \
         {points} forbidden points in all): {} disagreements where black has no five; \
         {quirks} of the {with_five} positions where black has a five differ (Rapfi's \
         three rule, see the module documentation)",
        disagreements.len()
    );
    for q in &quirk_examples {
        eprintln!("  {q}");
    }
    for d in disagreements.iter().take(20) {
        eprintln!("{d}");
    }
    assert!(disagreements.is_empty());
    assert!(compared * 10 >= count * 9, "most seeds give a position");
    assert!(
        (compared - with_five) * 3 >= count,
        "a third at least compared strictly"
    );
}
