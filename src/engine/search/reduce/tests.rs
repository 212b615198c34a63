//! The reductions' and move counts' tests.

use crate::engine::test_support::{gomoku, node_budget, refuses};
use std::time::{Duration, Instant};

use super::super::{Limits, Table};
use super::*;
use crate::engine::Level;
use crate::engine::board::cell_of;
use crate::rules::{Action, Game, Point, RuleSet};

/// A search of `g` with `style` (a small node cap; the tests call its parts, not `run`).
fn search<'a>(tt: &'a mut Table, style: Style, g: &Game) -> Search<'a> {
    let limits = node_budget(1_000);
    Search::threats(tt, style, g, limits, Instant::now()).expect("in play")
}

#[test]
fn threes_fours_and_blocks_are_tactical_quiet_points_are_not() {
    // Black (to move): H8 J8 on row 8 and A15. White: C3 D4 on a diagonal, and O1.
    let g = gomoku("H8 O1 J8 C3 A15 D4");
    let cell = |m: &str| cell_of(Point::parse(m, 15).expect("point")) as u16;
    let mut tt = Table::new(8);
    let mut s = search(&mut tt, style(2, 6), &g);
    // Level 6 counts the mover's threats from double threes up since stop 60; this test
    // starts from the rule before it, every open three and four.
    s.style.lmr_make = 1;
    s.style.lmr_block = 1;
    assert!(s.tactical(1, cell("K8")), "black's open three");
    assert!(s.tactical(1, cell("E5")), "white's open three point");
    assert!(!s.tactical(1, cell("B14")), "nothing there");
    // With blocks counted from double threes up, white's lone three point is quiet.
    s.style.lmr_block = 3;
    assert!(s.tactical(1, cell("K8")));
    assert!(!s.tactical(1, cell("E5")));
    // With the mover's own threats counted from fours up, its lone open three is quiet
    // too; the opponent's three point counts as a block again from threes up.
    s.style.lmr_make = 2;
    assert!(!s.tactical(1, cell("K8")));
    s.style.lmr_block = 1;
    assert!(s.tactical(1, cell("E5")));
    // Level 6's rule: a lone four of the mover is reducible too, a double three is not.
    s.style.lmr_make = 3;
    assert!(!s.tactical(1, cell("K8")));
    assert_eq!(Style::for_level(Level::MAX).lmr_make, 3);
}

#[test]
fn an_answer_that_leaves_the_three_open_is_reduced_a_block_is_not() {
    // Black to move against white's open three L9-L11 (white's other stones far off).
    let g = gomoku("A15 C3 O15 M3 O1 L10 H1 L11 A1 L9");
    let cell = |m: &str| Point::parse(m, 15).expect("point");
    let mut tt = Table::new(8);
    let mut s = search(&mut tt, style(2, 6), &g);
    s.style.defence_lmr = true;
    // L8 stops the three: white has no open four to make after it.
    s.b.apply(Action::Place(cell("L8"))).expect("legal");
    assert_eq!(s.delaying_reduction(1, 0, 5), 0);
    s.b.undo();
    // A quiet point elsewhere leaves it: a ply less, and a larger reduction stays.
    s.b.apply(Action::Place(cell("G3"))).expect("legal");
    assert_eq!(s.delaying_reduction(1, 0, 5), 1);
    assert_eq!(s.delaying_reduction(1, 2, 5), 2);
    // Never below a ply of search, and nothing when the style says no.
    assert_eq!(s.delaying_reduction(1, 0, 1), 0);
    s.style.defence_lmr = false;
    assert_eq!(s.delaying_reduction(1, 0, 5), 0);
}

/// Level 6's style with the one-or-two reductions (`lmr_log` off) from move `lmr`, two
/// plies from move `lmr_late`.
fn style(lmr: usize, lmr_late: usize) -> Style {
    let mut s = Style::for_level(Level::MAX);
    s.lmr = lmr;
    s.lmr_late = lmr_late;
    s.lmr_log = 0;
    s
}

/// Levels 5 and 6 reduce by the logarithms (`lmr_log=100`): nothing for the first two
/// moves or at one ply left, then at least a ply, more for later moves and deeper nodes,
/// and the reduced child always keeps a ply.
#[test]
fn logarithmic_reductions_grow_with_depth_and_index_and_keep_a_ply() {
    let s = Style::for_level(Level::new(5).expect("level"));
    assert_eq!(s.lmr_log, 100);
    for level in 1..=4 {
        let low = Style::for_level(Level::new(level).expect("level"));
        assert_eq!(low.lmr, 0, "level {level} reduces nothing");
    }
    assert_eq!(reduction(&s, 8, 1, false), 0, "the first moves");
    assert_eq!(reduction(&s, 1, 30, false), 0, "a ply left");
    assert_eq!(reduction(&s, 8, 30, true), 0, "a tactical move");
    // ln 8 × ln 31 = 7.1 plies, all but one of the eight.
    assert_eq!(reduction(&s, 8, 30, false), 7);
    // ln 4 × ln 3 = 1.5: one ply.
    assert_eq!(reduction(&s, 4, 2, false), 1);
    for depth in 2..16 {
        let mut last = 0;
        for index in 2..40 {
            let r = reduction(&s, depth, index, false);
            assert!((1..depth).contains(&r), "depth {depth} move {index}: {r}");
            assert!(r >= last, "depth {depth} move {index}");
            assert!(r >= reduction(&s, depth - 1, index, false).min(depth - 1));
            last = r;
        }
    }
}

#[test]
fn a_worsening_side_reduces_a_ply_more_when_told_and_keeps_a_ply() {
    let mut s = style(2, 6);
    assert_eq!(trend_reduction(&s, 1, true, 5), 1, "off by default");
    s.set("lmr_trend", "on").expect("a switch");
    assert_eq!(trend_reduction(&s, 1, true, 5), 2);
    assert_eq!(trend_reduction(&s, 2, true, 5), 3);
    assert_eq!(trend_reduction(&s, 1, false, 5), 1, "improving: as before");
    assert_eq!(
        trend_reduction(&s, 0, true, 5),
        0,
        "an unreduced move stays so"
    );
    assert_eq!(trend_reduction(&s, 1, true, 2), 1, "one ply must be left");
    assert_eq!(trend_reduction(&s, 2, true, 2), 2, "never less than before");
    assert!(s.set("lmr_trend", "maybe").is_err());
}

#[test]
fn the_principal_variation_reduces_fewer_plies_when_told() {
    let mut s = style(2, 6);
    assert_eq!(pv_reduction(&s, 2, true), 2, "off by default");
    s.set("lmr_pv", "1").expect("a number of plies");
    assert_eq!(pv_reduction(&s, 2, true), 1);
    assert_eq!(pv_reduction(&s, 1, true), 0, "down to none");
    assert_eq!(pv_reduction(&s, 0, true), 0, "never below none");
    assert_eq!(
        pv_reduction(&s, 2, false),
        2,
        "off the variation: as before"
    );
    refuses(&mut s, "lmr_pv", &["-1", "9", "one"]);
}

#[test]
fn a_variation_node_the_last_iterations_searched_shallow_loses_plies_when_told() {
    let mut s = style(2, 6);
    assert_eq!(stale_pv(&s, 8, 2), 0, "off by default");
    s.set("pv_tt", "28").expect("a percent");
    assert_eq!(stale_pv(&s, 8, 4), 1, "a gap of 4: 1.12 plies");
    assert_eq!(stale_pv(&s, 12, 4), 2, "a gap of 8: 2.24");
    assert_eq!(stale_pv(&s, 20, 1), 3, "at most three");
    assert_eq!(stale_pv(&s, 8, 8), 0, "an entry as deep: nothing");
    assert_eq!(stale_pv(&s, 8, 10), 0, "a deeper entry: nothing");
    assert_eq!(stale_pv(&s, 8, -100), 3, "an entry of a leaf's depth");
    s.set("pv_tt", "100").expect("a percent");
    assert_eq!(stale_pv(&s, 3, 0), 2, "a ply stays");
    assert_eq!(stale_pv(&s, 1, 0), 0, "a last ply stays");
    refuses(&mut s, "pv_tt", &["-1", "101", "most"]);
}

#[test]
fn a_late_move_that_beats_alpha_by_far_is_searched_a_ply_deeper_when_told() {
    let mut s = style(2, 6);
    assert_eq!(deeper(&s, 500, 4, 3), (4, 3), "off by default");
    s.set("lmr_deeper", "40").expect("a margin");
    assert_eq!(deeper(&s, 40, 4, 3), (5, 2), "paid from the extensions");
    assert_eq!(deeper(&s, 39, 4, 3), (4, 3), "below the margin");
    assert_eq!(deeper(&s, 500, 4, 0), (4, 0), "no extension left");
    refuses(&mut s, "lmr_deeper", &["-1", "10001", "far"]);
}

/// A search of `g` from its root to `depth` plies with no limit: the nodes it took and
/// what the table then holds of the root (its depth and best move).
fn fixed_depth(g: &Game, style: Style, depth: i32) -> (u64, Option<(i8, u16)>) {
    let mut tt = Table::new(16);
    let limits = Limits::time(Duration::from_secs(600));
    let mut s = Search::threats(&mut tt, style, g, limits, Instant::now()).expect("in play");
    s.negamax(depth, -super::super::INF, super::super::INF, 0, 0, false);
    let stored = s.tt.probe(s.b.key()).map(|e| (e.depth, e.best));
    (s.nodes, stored)
}

#[test]
fn a_free_node_the_table_does_not_know_is_searched_a_ply_shallower_with_iir() {
    // A quiet position: nothing forced, no three to answer.
    let g = gomoku("H8 J9 G7");
    let run = |iir: i32| {
        let mut st = Style::for_level(Level::MAX);
        st.iir = iir;
        let (nodes, stored) = fixed_depth(&g, st, 5);
        (nodes, stored.map(|(depth, _)| depth))
    };
    let (plain, plain_depth) = run(0);
    let (reduced, reduced_depth) = run(4);
    assert_eq!(plain_depth, Some(5));
    assert_eq!(reduced_depth, Some(4), "stored at the depth it searched");
    assert!(reduced < plain, "{reduced} nodes against {plain}");
    // Below the threshold nothing changes.
    let (deep_only, depth) = run(6);
    assert_eq!((deep_only, depth), (plain, Some(5)));
}

/// A node is likely to fail high only off the principal variation, with a trend, two
/// plies or more left, no win or loss in sight, and its evaluation `fhr` a ply above beta.
#[test]
fn likely_to_fail_high_only_far_above_beta_off_the_pv() {
    let mut st = Style::for_level(Level::MAX);
    assert_eq!(
        (st.fhr, st.air, st.cut_lmr),
        (0, false, 0),
        "off at every level"
    );
    assert!(!likely_high(&st, Some((500, true)), 4, true, 0), "off");
    st.fhr = 15;
    assert!(
        likely_high(&st, Some((60, false)), 4, true, 0),
        "60 = 15 x 4"
    );
    assert!(!likely_high(&st, Some((59, false)), 4, true, 0));
    assert!(likely_high(&st, Some((160, true)), 4, true, 100));
    assert!(!likely_high(&st, None, 4, true, 0), "no evaluation read");
    assert!(
        !likely_high(&st, Some((500, true)), 4, false, 0),
        "on the PV"
    );
    assert!(
        !likely_high(&st, Some((500, true)), 1, true, 0),
        "one ply left"
    );
    assert!(
        !likely_high(&st, Some((WIN_MIN, true)), 4, true, 0),
        "a win"
    );
    assert!(
        !likely_high(&st, Some((500, true)), 4, true, -WIN_MIN),
        "a loss"
    );
}

#[test]
fn a_raised_alpha_reduces_only_free_nodes_between_3_and_11_plies() {
    let mut st = Style::for_level(Level::MAX);
    assert!(!alpha_reduces(&st, true, 5, 10, 50), "off");
    st.air = true;
    assert!(alpha_reduces(&st, true, 5, 10, 50));
    assert!(alpha_reduces(&st, true, 3, -1_999, 50));
    assert!(alpha_reduces(&st, true, 11, 10, 50));
    assert!(!alpha_reduces(&st, false, 5, 10, 50), "forced or answering");
    assert!(!alpha_reduces(&st, true, 2, 10, 50));
    assert!(!alpha_reduces(&st, true, 12, 10, 50));
    assert!(!alpha_reduces(&st, true, 5, 50, 50), "a cut-off");
    assert!(!alpha_reduces(&st, true, 5, 2_000, 3_000), "a win in sight");
}

/// Each of the three reductions makes a fixed-depth search of a quiet position cheaper,
/// and it still returns a move. The evaluation's weights, the move ordering and the late
/// moves' reductions are those the three were measured with (`balance` 100, the hand-made
/// ordering, one or two plies): which moves raise alpha or come late, and so what a
/// reduction saves on one position, move with them (at level 5's 80 `air` costs nodes
/// here, with its fitted ordering `cut_lmr`).
#[test]
fn fail_high_alpha_and_cut_node_reductions_search_fewer_nodes() {
    let g = gomoku("H8 J9 G7 J7 J8");
    let run_with = |fhr: i32, air: bool, cut_lmr: i32| {
        let mut st = Style::for_level(Level::MAX);
        st.balance = 100;
        st.policy = false;
        st.lmr_log = 0;
        // Measured with the rules before stop 60: every open three and four at full depth,
        // every answer to a three too.
        st.lmr_make = 1;
        st.defence_log = 0;
        st.fhr = fhr;
        st.air = air;
        st.cut_lmr = cut_lmr;
        let (nodes, stored) = fixed_depth(&g, st, 6);
        (nodes, stored.is_some_and(|(_, best)| best != u16::MAX))
    };
    let run = |fhr: i32, air: bool| run_with(fhr, air, 0);
    let (plain, moved) = run(0, false);
    assert!(moved);
    let (fhr, moved) = run(10, false);
    assert!(moved);
    assert!(fhr < plain, "fhr: {fhr} nodes against {plain}");
    let (air, moved) = run(0, true);
    assert!(moved);
    assert!(air < plain, "air: {air} nodes against {plain}");
    let (cut, moved) = run_with(0, false, 1);
    assert!(moved);
    assert!(cut < plain, "cut_lmr: {cut} nodes against {plain}");
}

#[test]
fn the_knobs_are_style_settings() {
    let mut s = style(0, 0);
    s.set("lmr", "3").expect("lmr");
    s.set("lmr_late", "9").expect("lmr_late");
    s.set("lmr_block", "4").expect("lmr_block");
    s.set("history", "250").expect("history");
    assert_eq!((s.lmr, s.lmr_late, s.lmr_block, s.history), (3, 9, 4, 250));
    assert!(s.set("lmr", "-1").is_err());
    assert!(s.set("history", "x").is_err());
    s.set("iir", "4").expect("iir");
    assert_eq!(s.iir, 4);
    assert!(s.set("iir", "-2").is_err());
    assert!(s.set("iir", "99").is_err());
    s.set("fhr", "15").expect("fhr");
    s.set("air", "on").expect("air");
    assert_eq!((s.fhr, s.air), (15, true));
    assert!(s.set("fhr", "-1").is_err());
    assert!(s.set("air", "2").is_err());
    assert_eq!(s.rfp_plies, 6);
    s.set("rfp_plies", "12").expect("rfp_plies");
    assert_eq!(s.rfp_plies, 12);
    assert!(s.set("rfp_plies", "0").is_err());
    s.set("cut_lmr", "2").expect("cut_lmr");
    assert_eq!(s.cut_lmr, 2);
    assert!(s.set("cut_lmr", "9").is_err());
}

#[test]
fn capture_games_search_every_candidate_unless_told_to_prune() {
    let level5 = Style::for_level(Level::new(5).expect("level"));
    assert!(level5.mcp > 0 && level5.lmr > 0, "level 5 prunes in Gomoku");
    assert!(
        level5.rfp > 0 && level5.improving > 0,
        "and by the evaluation's trend"
    );
    for level in 1..=4 {
        let s = Style::for_level(Level::new(level).expect("level"));
        assert_eq!(
            (s.mcp, s.rfp, s.improving),
            (0, 0, 0),
            "level {level}: full width"
        );
        assert!(!s.lost_wide && !s.lost_first, "level {level} as measured");
    }
    assert!(
        level5.lost_wide && level5.lost_first,
        "level 5 searches on while every move loses, up to one that holds"
    );
    let spec = |s: &str| RuleSet::from_spec(s).expect("spec");
    assert_eq!(level5.for_rules(&spec("gomoku")), level5);
    assert_eq!(level5.for_rules(&spec("renju")), level5);
    for rules in ["pente", "keryo"] {
        let s = level5.for_rules(&spec(rules));
        assert_eq!((s.mcp, s.lmr, s.rfp, s.improving), (0, 0, 0, 0), "{rules}");
        assert_eq!(
            s.balance, 100,
            "{rules}: the waiting side as measured there"
        );
        assert!(!s.lost_wide && !s.lost_first, "{rules}: as measured there");
        assert_eq!(move_count(&s, 3, 12), 12, "{rules}: the full width");
        assert_eq!(reduction(&s, 6, 20, false), 0, "{rules}: no reduction");
        assert_eq!(
            Style {
                mcp: level5.mcp,
                lmr: level5.lmr,
                rfp: level5.rfp,
                improving: level5.improving,
                balance: level5.balance,
                defence_log: level5.defence_log,
                lost_wide: level5.lost_wide,
                lost_first: level5.lost_first,
                ..s
            },
            level5,
            "only those eight"
        );
    }
    let mut pruning = level5;
    pruning.set("prune_captures", "on").expect("a setting");
    assert_eq!(pruning.for_rules(&spec("keryo")), pruning);
    assert!(pruning.set("prune_captures", "sometimes").is_err());
}

#[test]
fn early_tactical_or_shallow_moves_are_never_reduced() {
    let s = style(3, 8);
    for index in 0..3 {
        assert_eq!(reduction(&s, 6, index, false), 0, "move {index}");
    }
    assert_eq!(reduction(&s, 6, 3, true), 0, "a threat");
    assert_eq!(reduction(&s, 1, 10, false), 0, "next to a leaf");
    assert_eq!(reduction(&s, 0, 10, false), 0);
    for index in [0, 5, 50] {
        assert_eq!(reduction(&style(0, 8), 9, index, false), 0, "off");
    }
}

#[test]
fn late_quiet_moves_lose_one_ply_and_very_late_ones_two() {
    let s = style(3, 8);
    assert_eq!(reduction(&s, 2, 3, false), 1);
    assert_eq!(reduction(&s, 6, 7, false), 1);
    assert_eq!(reduction(&s, 6, 8, false), 2);
    assert_eq!(reduction(&s, 3, 20, false), 2);
    // Two plies only from depth 3: at depth 2 the child would be a leaf's leaf.
    assert_eq!(reduction(&s, 2, 20, false), 1);
    // Without a late threshold, one ply at most.
    assert_eq!(reduction(&style(3, 0), 9, 40, false), 1);
}

#[test]
fn reductions_grow_with_the_index_and_never_pass_two() {
    let s = style(2, 6);
    for depth in -2..12 {
        let mut last = 0;
        for index in 0..40 {
            let r = reduction(&s, depth, index, false);
            assert!((0..=2).contains(&r), "depth {depth} move {index}: {r}");
            assert!(r >= last, "depth {depth} move {index}");
            // The reduced child keeps a depth of at least 0.
            assert!(depth - 1 - r >= 0 || r == 0, "depth {depth} move {index}");
            last = r;
        }
    }
}

#[test]
fn reverse_futility_cuts_only_far_above_beta_off_the_pv_near_the_leaves() {
    // Black (to move) has an open two and a split two; white's stones are scattered.
    let g = gomoku("H8 A1 J8 O15 H10 A15");
    let mut tt = Table::new(8);
    let mut st = style(0, 0);
    st.rfp = 0;
    let mut s = search(&mut tt, st, &g);
    let tac = super::super::Tactics::default();
    let eval = s.evaluate(1, &tac, 3);
    assert!(eval > 0, "black stands better: {eval}");
    assert_eq!(s.futile(1, &tac, 2, true, eval - 200, 3, None), None, "off");
    s.style.rfp = 60;
    assert_eq!(s.futile(1, &tac, 2, true, eval - 120, 3, None), Some(eval));
    assert_eq!(
        s.futile(1, &tac, 2, true, eval - 119, 3, None),
        None,
        "within the margin"
    );
    assert_eq!(s.futile(1, &tac, 6, true, eval - 360, 3, None), Some(eval));
    assert_eq!(
        s.futile(1, &tac, 7, true, eval - 1_000, 3, None),
        None,
        "too far from the leaves"
    );
    s.style.rfp_plies = 7;
    assert_eq!(
        s.futile(1, &tac, 7, true, eval - 420, 3, None),
        Some(eval),
        "unless told"
    );
    s.style.rfp_plies = 6;
    assert_eq!(
        s.futile(1, &tac, 0, true, eval - 1_000, 3, None),
        None,
        "a leaf"
    );
    assert_eq!(
        s.futile(1, &tac, 2, false, eval - 1_000, 3, None),
        None,
        "on the PV"
    );
    assert_eq!(
        s.futile(1, &tac, 2, true, -WIN_MIN, 3, None),
        None,
        "a lost beta"
    );
    // Improving: a ply less of margin.
    assert_eq!(
        s.futile(1, &tac, 2, true, eval - 60, 3, Some((eval, true))),
        Some(eval)
    );
    assert_eq!(
        s.futile(1, &tac, 2, true, eval - 59, 3, Some((eval, true))),
        None
    );
}

#[test]
fn answers_to_a_three_are_counted_only_when_asked() {
    let mut s = style(0, 0);
    s.set("width", "12").expect("width");
    s.set("defence_mcp", "0").expect("off");
    assert_eq!(defence_count(&s, 1), 24, "all of them when off");
    assert_eq!(defence_count(&s, 30), 24);
    s.set("defence_mcp", "2").expect("on");
    assert_eq!(defence_count(&s, 1), 3, "two and the growth of one ply");
    assert_eq!(defence_count(&s, 3), 6);
    assert_eq!(defence_count(&s, 30), 24, "never more than twice the width");
    // The free nodes' base does not count here, nor the other way round.
    s.set("mcp", "5").expect("mcp");
    assert_eq!(defence_count(&s, 1), 3);
    assert_eq!(move_count(&s, 1, 12), 6);
    assert!(s.set("defence_mcp", "65").is_err());
}

#[test]
fn move_counts_grow_with_depth_up_to_the_width() {
    let mut s = style(0, 0);
    s.set("mcp", "0").expect("mcp");
    for depth in -3..20 {
        assert_eq!(move_count(&s, depth, 12), 12, "off at depth {depth}");
    }
    s.set("mcp", "1").expect("mcp");
    assert_eq!(move_count(&s, 1, 12), 2, "two moves next to the leaves");
    assert_eq!(move_count(&s, 0, 12), 1);
    assert_eq!(move_count(&s, -2, 12), 1);
    assert_eq!(move_count(&s, 3, 12), 5);
    assert_eq!(move_count(&s, 6, 12), 11);
    assert_eq!(move_count(&s, 7, 12), 12, "the width caps it");
    assert_eq!(move_count(&s, 40, 20), 20, "deep nodes keep the width");
    let mut last = 0;
    for depth in 0..30 {
        let n = move_count(&s, depth, 20);
        assert!(n >= last && n <= 20, "depth {depth}: {n}");
        last = n;
    }
    assert!(s.set("mcp", "65").is_err());
    assert!(s.set("mcp", "-1").is_err());
}

#[test]
fn the_history_bonus_is_bounded_by_its_weight() {
    assert_eq!(history_bonus(0, 0, 100), 0);
    assert_eq!(history_bonus(5, 10, 0), 0);
    assert_eq!(history_bonus(10, 10, 100), 100);
    assert_eq!(history_bonus(5, 10, 100), 50);
    assert_eq!(history_bonus(u32::MAX, u32::MAX, u32::MAX), i32::MAX);
    let mut h = History::new();
    h.record(1, 30, 4);
    h.record(1, 31, 2);
    h.record(2, 32, 8);
    assert_eq!(h.bonus(2, 32, 200), 200, "the deepest cut-off");
    assert_eq!(h.bonus(1, 30, 200), 50, "16 of 64");
    assert_eq!(h.bonus(1, 31, 200), 12, "4 of 64");
    assert_eq!(h.bonus(2, 30, 200), 0, "the other colour's");
    assert_eq!(h.bonus(1, u16::MAX, 200), 0, "off the board");
    h.record(1, u16::MAX, 4);
}

#[test]
fn each_sides_move_counts_grow_at_its_own_plies_only() {
    let mut s = style(2, 6);
    assert_eq!(side_count(&s, 1, 5), 5, "off by default");
    s.set("opp_wide", "3").expect("a count");
    assert_eq!(side_count(&s, 1, 5), 8, "the root's opponent");
    assert_eq!(side_count(&s, 3, 12), 15, "and deeper, the width too");
    assert_eq!(side_count(&s, 2, 5), 5, "the root's side keeps its count");
    assert_eq!(side_count(&s, 0, 5), 5);
    refuses(&mut s, "opp_wide", &["-1", "33", "many"]);
    s.set("own_wide", "2").expect("a count");
    assert_eq!(side_count(&s, 2, 5), 7, "the root's side");
    assert_eq!(side_count(&s, 1, 5), 8, "the opponent as before");
    refuses(&mut s, "own_wide", &["-1", "33", "many"]);
}

/// `defence_log`: nothing for the first answer, below two plies for the child, or when off;
/// else the logarithms' shape, at least a ply, and the child keeps a ply.
#[test]
fn later_answers_to_a_three_lose_plies_by_the_logarithms_when_told() {
    let mut s = Style::for_level(Level::MAX);
    assert_eq!(s.defence_log, 100, "on at level 6");
    for level in 1..=4 {
        let low = Style::for_level(Level::new(level).expect("level"));
        assert_eq!((low.defence_log, low.lmr_make), (0, 1), "level {level}");
    }
    s.set("defence_log", "0").expect("off");
    assert_eq!(defence_reduction(&s, 8, 3, 7), 0);
    s.set("defence_log", "100").expect("on");
    assert_eq!(defence_reduction(&s, 8, 0, 7), 0, "the first answer");
    assert_eq!(defence_reduction(&s, 2, 3, 1), 0, "a child of one ply");
    // ln 3 × ln 2 = 0.76: still a ply.
    assert_eq!(defence_reduction(&s, 3, 1, 2), 1);
    // ln 8 × ln 4 = 2.88, ln 12 × ln 8 = 5.16.
    assert_eq!(defence_reduction(&s, 8, 3, 7), 2);
    assert_eq!(defence_reduction(&s, 12, 7, 11), 5);
    assert_eq!(defence_reduction(&s, 12, 7, 4), 3, "the child keeps a ply");
    s.set("defence_log", "200").expect("stronger");
    assert_eq!(defence_reduction(&s, 8, 3, 7), 5);
    refuses(&mut s, "defence_log", &["-1", "401", "all"]);
    assert_eq!(s.defence_log, 200);
}

/// At a node that must answer an open three, `defence_log` searches the later answers
/// shallower: fewer nodes to the same depth, the same table depth at the root.
#[test]
fn reduced_answers_to_a_three_search_fewer_nodes() {
    // Black to move against white's open three L9-L11, with stones of its own about.
    let g = gomoku("H8 L10 J9 L11 G7 L9");
    let run = |log: u32| {
        let mut st = Style::for_level(Level::MAX);
        st.defence_log = log;
        fixed_depth(&g, st, 6)
    };
    let (plain, plain_root) = run(0);
    let (reduced, reduced_root) = run(100);
    assert_eq!(plain_root.map(|r| r.0), Some(6));
    assert_eq!(reduced_root.map(|r| r.0), Some(6));
    assert!(reduced < plain, "{reduced} nodes against {plain}");
}
