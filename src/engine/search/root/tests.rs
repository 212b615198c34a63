//! The root's tests: its decision, its time, the final check, and the settings it passes down.

use super::*;
use crate::engine::test_support::{gomoku, node_budget, off_at_every_level, refuses};
use proptest::prelude::*;

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

/// Black to move against white's open three L9-L11 (white's other stones far off): A2
/// lets white win by continuous fours, L8 stops the three.
fn open_three_to_stop() -> Game {
    gomoku("A15 C3 O15 M3 O1 L10 H1 L11 A1 L9")
}

fn cell(name: &str) -> u16 {
    let p = Point::parse(name, 15).expect("point");
    u16::try_from(crate::engine::board::cell_of(p)).expect("cell")
}

/// The final check of `chosen` then `other`, on a fresh search capped at `nodes`: the
/// move it keeps and the nodes it spent.
fn final_check(nodes: u64, chosen: u16, other: u16) -> (u16, u64) {
    let g = open_three_to_stop();
    let mut tt = Table::new(16);
    let limits = node_budget(nodes);
    let style = Style::for_level(Level::new(5).expect("level"));
    let mut s = Search::threats(&mut tt, style, &g, limits, Instant::now()).expect("search");
    let (cell, _) = s.avoid_opponent_vcf(1, (chosen, 0), &[(other, 0)], &[]);
    (cell, s.nodes)
}

#[test]
fn a_check_stopped_by_the_clock_keeps_a_move_not_known_to_lose() {
    let (a2, l8) = (cell("A2"), cell("L8"));
    // With nodes to spare, A2 is refuted and L8 kept.
    let (kept, _) = final_check(10_000_000, a2, l8);
    assert_eq!(kept, l8);
    // The nodes that refuting A2 alone takes.
    let (kept, refute) = final_check(10_000_000, a2, a2);
    assert_eq!(kept, a2, "nothing else to play");
    assert!(refute > 0);
    // One node more: A2 is refuted, then the check of L8 is cut off at once. L8 is not
    // known to lose, A2 is: L8 is played.
    let (kept, spent) = final_check(refute + 1, a2, l8);
    assert_eq!(spent, refute + 1, "the check of L8 was cut off");
    assert_eq!(kept, l8);
}

/// The first root move's score at `depth` (H8 J9 G7 K8 F10 G9, black's K10 played),
/// searched by level 4's full-width style with aspiration windows of `aspire` around
/// `previous`, on a fresh table: the score and the nodes searched.
fn first_move_score(aspire: i32, previous: Option<i32>, depth: i32) -> (i32, u64) {
    let g = gomoku("H8 J9 G7 K8 F10 G9");
    let mut style = Style::for_level(Level::new(4).expect("level"));
    style.set("aspire", &aspire.to_string()).expect("setting");
    let mut tt = Table::new(16);
    let limits = node_budget(10_000_000);
    let mut s = Search::threats(&mut tt, style, &g, limits, Instant::now()).expect("search");
    let p = s.b.point(usize::from(cell("K10"))).expect("on the board");
    s.b.apply(Action::Place(p)).expect("legal");
    (s.first_root_move(depth, previous), s.nodes)
}

#[test]
fn aspiration_windows_find_the_full_windows_score_whatever_the_guess() {
    // Level 4 prunes nothing by the window (no reductions, no futility), so the exact
    // score of a move does not depend on it: a window that holds the score gives it at
    // once, one that misses it must search again rather than return its bound.
    let full = first_move_score(0, None, 4);
    let exact = full.0;
    assert!(exact.abs() < WIN_MIN, "a quiet position: {exact}");
    for guess in [exact, exact - 300, exact + 300, exact - 5, exact + 5] {
        assert_eq!(
            first_move_score(10, Some(guess), 4).0,
            exact,
            "guess {guess}"
        );
    }
    // A guess that misses searches twice: more nodes than the full window alone.
    assert!(first_move_score(10, Some(exact + 300), 4).1 > full.1);
    // Before the third iteration, and around a won score, only the full window is
    // searched: the very same nodes as without aspiration.
    assert_eq!(
        first_move_score(10, Some(exact + 300), 2),
        first_move_score(0, None, 2)
    );
    assert_eq!(first_move_score(10, Some(WIN - 5), 4), full);
}

/// `start_iteration` in milliseconds: elapsed, last, before, soft, stop, finish.
fn starts(elapsed: u64, last: u64, before: Option<u64>, soft: u64, stop: u64, f: u32) -> bool {
    start_iteration(ms(elapsed), ms(last), before.map(ms), ms(soft), ms(stop), f)
}

#[test]
fn no_iteration_starts_after_the_soft_stop() {
    assert!(starts(100, 10, None, 1100, 1400, 0));
    assert!(!starts(1100, 1, None, 1100, 1400, 0));
    assert!(!starts(1200, 1, Some(1), 1100, 1400, 100));
}

#[test]
fn the_next_iteration_starts_when_it_is_expected_to_finish() {
    // 200 ms after 100 ms: growth 2, 400 ms more from 500 ms ends at 900 ms.
    assert!(starts(500, 200, Some(100), 1400, 900, 100));
    assert!(!starts(501, 200, Some(100), 1400, 900, 100));
    // Half of it is enough with finish = 50.
    assert!(starts(700, 200, Some(100), 1400, 900, 50));
    // A wild ratio is clamped (at most 6, at least 1.5).
    assert!(starts(100, 100, Some(1), 1400, 700, 100));
    assert!(!starts(100, 100, Some(1), 1400, 699, 100));
    assert!(starts(100, 100, Some(90), 1400, 250, 100));
    assert!(!starts(100, 100, Some(90), 1400, 249, 100));
    // An earlier iteration too short to measure gives the default growth, 3.
    let tiny = Some(Duration::from_micros(100));
    assert!(start_iteration(
        ms(100),
        ms(100),
        tiny,
        ms(1400),
        ms(400),
        100
    ));
    assert!(!start_iteration(
        ms(100),
        ms(100),
        tiny,
        ms(1400),
        ms(399),
        100
    ));
    assert!(!starts(100, 100, None, 1400, 399, 100));
}

proptest! {
    #[test]
    fn the_decision_is_monotone(
        elapsed in 0u64..3000,
        later in 0u64..3000,
        last in 0u64..2000,
        before in proptest::option::of(0u64..2000),
        soft in 0u64..3000,
        stop in 0u64..3000,
        finish in 0u32..150,
        more in 0u32..150,
    ) {
        let b = before.map(ms);
        let go = start_iteration(ms(elapsed), ms(last), b, ms(soft), ms(stop), finish);
        // Never at or after the soft stop; without a prediction, always before it.
        if elapsed >= soft {
            prop_assert!(!go);
        }
        if finish == 0 {
            prop_assert_eq!(go, elapsed < soft);
        }
        // Later, or asking more of the next iteration, never turns a no into a yes.
        if !go {
            let at = ms(elapsed + later);
            prop_assert!(!start_iteration(at, ms(last), b, ms(soft), ms(stop), finish));
            if finish > 0 {
                let f = finish + more;
                prop_assert!(!start_iteration(ms(elapsed), ms(last), b, ms(soft), ms(stop), f));
            }
        }
    }
}

/// Level 5's search of a quiet middle game (fours come within a few plies), to `depth`
/// plies with `extensions` forced replies searched past it: the nodes it took.
fn nodes_with(extensions: &str, depth: &str) -> u64 {
    nodes_of(&[("extensions", extensions), ("max_depth", depth)])
}

/// Level 5's search of the quiet middle game with `set` changed: the nodes it took.
fn nodes_of(set: &[(&str, &str)]) -> u64 {
    nodes_on("H8 J9 G7 K8 F10 G9", set)
}

/// Level 5's search of the position after `moves` with `set` changed: the nodes it took.
fn nodes_on(moves: &str, set: &[(&str, &str)]) -> u64 {
    let g = gomoku(moves);
    let mut style = Style::for_level(Level::new(5).expect("level"));
    for (k, v) in set {
        style.set(k, v).expect("setting");
    }
    let mut e = Engine::with_style(Level::new(5).expect("level"), style, 1);
    e.choose_with(&g, node_budget(50_000_000)).expect("a move");
    e.last_info().nodes
}

#[test]
fn the_extension_budget_lets_forcing_lines_run_past_the_depth() {
    let none = nodes_with("0", "4");
    let six = nodes_with("6", "4");
    let twelve = nodes_with("12", "4");
    assert!(
        none < six,
        "{none} nodes without extensions, {six} with six"
    );
    assert!(six <= twelve, "{six} with six, {twelve} with twelve");
    assert_eq!(nodes_with("6", "4"), six, "the same search twice");
    let mut s = Style::for_level(Level::new(5).expect("level"));
    assert_eq!(s.extensions, 6, "level 5's budget");
    refuses(&mut s, "extensions", &["-1", "33", "six"]);
}

#[test]
fn stale_variation_nodes_are_searched_shallower_when_told() {
    let plain = nodes_of(&[("max_depth", "7")]);
    assert_eq!(nodes_of(&[("max_depth", "7"), ("pv_tt", "0")]), plain);
    let cut = nodes_of(&[("max_depth", "7"), ("pv_tt", "100")]);
    assert!(cut < plain, "{cut} nodes against {plain}");
}

#[test]
fn late_moves_that_beat_alpha_by_far_are_searched_deeper_when_told() {
    // Measured with the reductions before stop 60 (threes and fours at full depth, every
    // answer to a three too).
    let before = [("max_depth", "7"), ("lmr_make", "1"), ("defence_log", "0")];
    let plain = nodes_of(&before);
    assert_eq!(
        nodes_of(&[&before[..], &[("lmr_deeper", "0")]].concat()),
        plain
    );
    let deeper = nodes_of(&[&before[..], &[("lmr_deeper", "1")]].concat());
    assert!(deeper > plain, "{deeper} nodes against {plain}");
}

/// Level 5's search of three scattered stones (some fifty candidates) to three plies with
/// `set` changed: the nodes it took.
fn sparse_nodes(set: &[(&str, &str)]) -> u64 {
    nodes_on("G5 G7 K9", &[&[("max_depth", "3")], set].concat())
}

#[test]
fn the_root_keeps_root_width_candidates_when_told() {
    let today = sparse_nodes(&[]);
    // Twice the inner width, today's root, by name.
    assert_eq!(sparse_nodes(&[("root_width", "24")]), today);
    let all = sparse_nodes(&[("root_width", "64")]);
    assert!(all > today, "{all} nodes against {today}");
    let few = sparse_nodes(&[("root_width", "6")]);
    assert!(few < today, "{few} nodes against {today}");
    let mut s = Style::for_level(Level::new(5).expect("level"));
    assert_eq!(s.root_width, 0, "level 5 keeps twice its width");
    off_at_every_level("root_width", |s| s.root_width > 0);
    refuses(&mut s, "root_width", &["-1", "401", "all"]);
}
