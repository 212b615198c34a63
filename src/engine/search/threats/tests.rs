//! The threat searches' moves in capture games: threats made by what a capture takes away or
//! by a capture that would reach the goal, which a point's shapes cannot show.

use crate::engine::test_support::{game, node_budget};

use super::super::{Engine, Limits};
use crate::engine::Level;
use crate::rules::{Action, Point};

fn place(name: &str) -> Action {
    Action::Place(Point::parse(name, 19).expect("point"))
}

fn limits() -> Limits {
    node_budget(300_000)
}

/// Keryo, from a game level 5 lost to pente.org's engine (seed 161, game 0), white to move at
/// ply 15: white's N5-Q5 is shut by black's M5 and R5, and S6 takes R5 with Q4, which leaves
/// a four (R5) and a winning run of fours and threes. No empty point's shapes show a four for
/// white, so before the threat searches played captures to look they found nothing here.
const KERYO_15: &str = "K10 N7 M6 N5 P7 P5 N6 O5 M5 Q5 R5 M8 Q4 P3 O4";

#[test]
fn a_capture_that_opens_a_four_is_a_threat() {
    let g = game("keryo", KERYO_15);
    let mut e = Engine::seeded(Level::MAX, 1);
    assert_eq!(e.threat_win(&g, limits()), Some(place("S6")));
    // S6 makes no four of its own: it is the capture that threatens.
    let mut after = g.clone();
    after.apply(place("S6")).expect("legal");
    assert_eq!(
        after.captured()[1],
        g.captured()[1] + 2,
        "S6 takes R5 and Q4"
    );
    // Black, to move before S6 (one ply earlier), is shown the danger: level 6's choice there
    // is not the move that lost the game (O4), after which S6 wins.
    let before = game("keryo", "K10 N7 M6 N5 P7 P5 N6 O5 M5 Q5 R5 M8 Q4 P3");
    let mut e = Engine::seeded(Level::MAX, 1);
    let a = e.choose_with(&before, limits()).expect("a move");
    let mut line = before.clone();
    line.apply(a).expect("legal");
    let mut judge = Engine::seeded(Level::MAX, 1);
    assert_eq!(
        judge.threat_win(&line, limits()),
        None,
        "after {a} white still wins by threats"
    );
}

/// Pente with a goal of 4 stones: black has taken 2, and E5 threatens both white pairs (F5 G5
/// at H5, E6 E7 at E8); white can stop one, so E5 wins. Neither capture point nor E5 makes a
/// four: only a stone that threatens a capture reaching the goal is a continuous-four move.
#[test]
fn a_double_capture_threat_near_the_goal_is_a_continuous_four_win() {
    let g = game(
        "pente capture_win=4",
        "K10 L10 A1 M10 N10 F5 S19 G5 S1 E6 A19 E7",
    );
    assert_eq!(g.captured()[0], 2);
    let mut e = Engine::seeded(Level::MAX, 1);
    let wins = e.vcf_wins(&g, limits());
    assert_eq!(wins.first(), Some(&place("E5")), "{wins:?}");
    // One capture threat alone is no win: with a goal of 6 the same stone wins nothing.
    let far = game(
        "pente capture_win=6",
        "K10 L10 A1 M10 N10 F5 S19 G5 S1 E6 A19 E7",
    );
    let mut e = Engine::seeded(Level::MAX, 1);
    assert!(e.vcf_wins(&far, limits()).is_empty());
}

/// The cheap look that decides which captures are played to look: a capture frees a line when
/// a window of five through a taken stone then holds enough of the taker's stones.
#[test]
fn a_capture_frees_a_line_only_where_the_taker_has_stones_on_it() {
    use crate::engine::board::{Board, cell_of};
    let at = |name: &str| cell_of(Point::parse(name, 19).expect("point"));
    // White's S6 takes R5 and Q4: R5 opens N5-Q5 (four white stones in N5-R5).
    let b = Board::new(&game("keryo", KERYO_15));
    assert!(b.capture_frees_line(at("S6"), 2, 4));
    // Black's N10 takes L10 M10 beside K10: two black stones on row 10, no more.
    let b = Board::new(&game("pente", "K10 L10 A1 M10"));
    assert!(!b.capture_frees_line(at("N10"), 1, 4));
    assert!(!b.capture_frees_line(at("N10"), 1, 3));
    assert!(b.capture_frees_line(at("N10"), 1, 2));
    // No capture at all frees nothing.
    assert!(!b.capture_frees_line(at("O10"), 1, 1));
    // Without captures nothing is ever taken.
    let b = Board::new(&game("gomoku", "H8 J8"));
    let at15 = |name: &str| cell_of(Point::parse(name, 15).expect("point"));
    assert!(!b.capture_frees_line(at15("K8"), 1, 1));
}

/// Pente, white to move after black's open three K10 L10 M10. K10 and K11 are a black pair
/// (K9 and K12 empty), so are K11 and L10 (J12 and M9 empty): a white stone on any of those
/// four points threatens to take a stone of the four the three would make, and answers the
/// three as a block does. The pair C3 C4 is far from the three: its ends answer nothing.
#[test]
fn a_threat_to_take_a_stone_of_the_four_answers_a_three() {
    let g = game("pente", "K10 A1 C3 A19 C4 T1 L10 T19 K11 S2 M10");
    let mut tt = crate::engine::tt::Table::new(10);
    let style = Engine::seeded(Level::MAX, 1).style;
    let s = super::super::Search::threats(&mut tt, style, &g, limits(), std::time::Instant::now())
        .expect("a position in play");
    let blocks: Vec<u16> = (s.b.frontier())
        .filter(|&i| s.b.makes_a_four(i, 1))
        .map(|i| i as u16)
        .collect();
    let name = |c: &u16| s.b.point(usize::from(*c)).expect("on board").to_string();
    let mut block_names: Vec<String> = blocks.iter().map(name).collect();
    block_names.sort();
    assert_eq!(block_names, ["H10", "J10", "N10", "O10"]);
    let mut answers: Vec<String> = s
        .capture_threat_answers(1, &blocks)
        .iter()
        .map(name)
        .collect();
    answers.sort();
    assert_eq!(answers, ["J12", "K12", "K9", "M9"]);
    // Known answers are not repeated, and Gomoku has no such answers.
    let all = blocks
        .iter()
        .copied()
        .chain(s.capture_threat_answers(1, &blocks))
        .collect::<Vec<_>>();
    assert!(s.capture_threat_answers(1, &all).is_empty());
    let free = game("gomoku size=19", "K10 A1 C3 A19 C4 T1 L10 T19 K11 S2 M10");
    let s =
        super::super::Search::threats(&mut tt, style, &free, limits(), std::time::Instant::now())
            .expect("a position in play");
    let blocks: Vec<u16> = (s.b.frontier())
        .filter(|&i| s.b.makes_a_four(i, 1))
        .map(|i| i as u16)
        .collect();
    assert_eq!(blocks.len(), 4);
    assert!(s.capture_threat_answers(1, &blocks).is_empty());
}

/// The names of `cells`, sorted.
fn names(b: &crate::engine::board::Board, cells: impl IntoIterator<Item = u16>) -> Vec<String> {
    let mut v: Vec<String> = cells
        .into_iter()
        .map(|c| b.point(usize::from(c)).expect("on board").to_string())
        .collect();
    v.sort();
    v
}

/// The main search's answers to black's open three (white to move) in the Pente position above,
/// with `cap_answers` as given and the rules of `spec`.
fn main_search_answers(spec: &str, cap_answers: bool) -> Vec<String> {
    let g = game(spec, "K10 A1 C3 A19 C4 T1 L10 T19 K11 S2 M10");
    let mut tt = crate::engine::tt::Table::new(10);
    let mut style = Engine::seeded(Level::MAX, 1).style;
    style.cap_answers = cap_answers;
    let s = super::super::Search::threats(&mut tt, style, &g, limits(), std::time::Instant::now())
        .expect("a position in play");
    let (cands, tac) = s.generate_unsorted(2);
    let answers = s
        .defences(2, &cands, &tac, true)
        .expect("a three to answer");
    names(&s.b, answers.iter().map(|c| c.cell))
}

/// The main search answers a three as the VCT search's defender does: besides the blocks, the
/// threats to take a stone of the four to come (before, it searched the blocks alone, took
/// threes in capture games for more forcing than they are, and claimed wins that were not
/// there: K15 at ply 32 of a Keryo game against pente.org's engine, "won" in 19 plies, lost).
/// Near the capture goal, every threat of a capture reaching it answers too.
#[test]
fn the_main_search_answers_a_three_with_capture_threats() {
    let blocks = ["H10", "J10", "N10", "O10"];
    assert_eq!(main_search_answers("pente", false), blocks);
    let with_threats = ["H10", "J10", "J12", "K12", "K9", "M9", "N10", "O10"];
    assert_eq!(main_search_answers("pente", true), with_threats);
    // Two stones to win: a threat to take any pair, C3 C4 far from the three too, answers.
    let near_goal = [
        "C2", "C5", "H10", "J10", "J12", "K12", "K9", "M9", "N10", "O10",
    ];
    assert_eq!(main_search_answers("pente capture_win=2", true), near_goal);
    // Without captures a three has only its blocks.
    assert_eq!(main_search_answers("gomoku size=19", true), blocks);
}

/// The capture threats reaching the goal: none without a goal, none without captures, and
/// none already known.
#[test]
fn goal_threats_need_a_goal_in_reach() {
    let moves = "K10 A1 C3 A19 C4 T1 L10 T19 K11 S2 M10";
    let mut tt = crate::engine::tt::Table::new(10);
    let style = Engine::seeded(Level::MAX, 1).style;
    let mut threats = |spec: &str, known: &[&str]| {
        let g = game(spec, moves);
        let s =
            super::super::Search::threats(&mut tt, style, &g, limits(), std::time::Instant::now())
                .expect("a position in play");
        let known: Vec<u16> = known
            .iter()
            .map(|n| {
                let p = Point::parse(n, 19).expect("point");
                u16::try_from(crate::engine::board::cell_of(p)).expect("cell")
            })
            .collect();
        let found = s.goal_threats(2, &known);
        names(&s.b, found)
    };
    assert_eq!(
        threats("pente capture_win=2", &[]),
        ["C2", "C5", "J12", "K12", "K9", "M9"]
    );
    assert_eq!(
        threats("pente capture_win=2", &["C2", "K9"]),
        ["C5", "J12", "K12", "M9"]
    );
    // Ten stones to win and none taken: no single threat reaches it.
    assert!(threats("pente", &[]).is_empty());
    assert!(threats("pente capture_win=0", &[]).is_empty());
    assert!(threats("gomoku size=19", &[]).is_empty());
}
