use super::*;
use crate::engine::test_support::{game, gomoku};
use crate::rules::RuleSet;

/// The pattern sums and the windows one stone short of a line, counted window by window
/// from the stones (what the board keeps incrementally).
fn brute_windows(b: &Board) -> ([i32; 2], [u32; 2]) {
    let values = windows::window_values(b.line);
    let short = b.line - 1;
    let (mut pattern, mut fours) = ([0i32; 2], [0u32; 2]);
    for &start in &b.on_board {
        for &d in &AXES {
            let mut n = [0u8; 2];
            let mut inside = true;
            for k in 0..isize::from(b.line) {
                let c = step(usize::from(start), d * k);
                match b.cells.get(c) {
                    Some(&1) => n[0] += 1,
                    Some(&2) => n[1] += 1,
                    Some(&EMPTY) => {}
                    _ => inside = false,
                }
            }
            if !inside {
                continue;
            }
            for k in 0..2 {
                if n[1 - k] == 0 {
                    pattern[k] += values[usize::from(n[k]).min(5)];
                    fours[k] += u32::from(n[k] == short);
                }
            }
        }
    }
    (pattern, fours)
}

#[test]
fn apply_and_undo_restore_hash_patterns_and_stones() {
    let g = game("pente", "K10 L10 A1 M10 N10");
    let mut b = Board::new(&g);
    let (key, pattern, fours) = (b.key(), b.pattern, b.fours);
    assert_eq!(b.captured(1), 2, "N10 took the pair L10 M10");
    assert_eq!(
        b.cells[cell_of(Point::parse("L10", 19).expect("point"))],
        EMPTY
    );
    b.apply(Action::Place(Point::parse("K11", 19).expect("point")))
        .expect("legal");
    assert_ne!(b.key(), key);
    b.undo();
    assert_eq!((b.key(), b.pattern, b.fours), (key, pattern, fours));
    let fresh = Board::new(&b.game);
    assert_eq!(fresh.key(), b.key());
    assert_eq!((fresh.pattern, fresh.fours), (b.pattern, b.fours));
    assert_eq!(fresh.shapes, b.shapes);
}

/// Each applied action keeps the sums as they stood before it, captures included, and
/// taking it back leaves the sums of the action before.
#[test]
fn the_parent_s_sums_follow_apply_and_undo() {
    let g = game("pente", "K10 L10 A1 M10");
    let mut b = Board::new(&g);
    assert_eq!(b.parent_sums(), None, "nothing applied on this board yet");
    let start = b.sums();
    assert_eq!(start.pattern, b.pattern);
    assert_eq!(start.shapes, b.shape_sum);
    assert_eq!(start.fitted, [[0; 2]; 2], "no fit, no fitted sums");
    let point = |s: &str| Point::parse(s, 19).expect("point");
    b.apply(Action::Place(point("N10"))).expect("legal");
    assert_eq!(b.captured(1), 2, "N10 took the pair L10 M10");
    let after_capture = b.sums();
    assert_ne!(after_capture, start);
    assert_eq!(b.parent_sums(), Some(start));
    b.apply(Action::Place(point("C3"))).expect("legal");
    assert_eq!(b.parent_sums(), Some(after_capture));
    b.undo();
    assert_eq!(b.sums(), after_capture);
    assert_eq!(b.parent_sums(), Some(start));
    b.undo();
    assert_eq!(b.sums(), start);
    assert_eq!(b.parent_sums(), None);
}

#[test]
fn captures_and_wins_are_seen_before_playing() {
    let g = game("pente", "K10 L10 A1 M10");
    let b = Board::new(&g);
    let n10 = cell_of(Point::parse("N10", 19).expect("point"));
    assert_eq!(b.captures_at(n10, 1), 2);
    let g = game("gomoku", "H8 A1 J8 A2 K8 A3 L8 A4");
    let b = Board::new(&g);
    let m8 = cell_of(Point::parse("M8", 15).expect("point"));
    assert!(b.wins_at(m8, 1));
    assert!(!b.wins_at(m8, 2));
    assert_eq!(b.fours[0], 2, "G8 and M8 both complete five");
    let g = game("gomoku-standard", "H8 A1 J8 A2 K8 A3 L8 A4 N8 A6");
    let b = Board::new(&g);
    assert!(
        !b.wins_at(m8, 1),
        "six in a row does not win in standard gomoku"
    );
}

#[test]
fn capture_attacks_and_open_runs_read_the_pairs() {
    let at = |name: &str| cell_of(Point::parse(name, 19).expect("point"));
    // White's pair L12 M12 is open at both ends (K12, N12).
    let g = game("pente", "K10 L12 A1 M12");
    let b = Board::new(&g);
    assert_eq!(b.capture_attacks(at("K12")), [2, 0]);
    assert_eq!(b.capture_attacks(at("N12")), [2, 0]);
    assert_eq!(b.capture_attacks(at("O12")), [0, 0], "not next to the pair");
    assert_eq!(b.capture_attacks(at("A2")), [0, 0], "a single stone");
    assert_eq!(b.open_runs(), [0, 1]);
    // Black's K10 closes the pair L10 M10: N10 takes it, no attack, no open run.
    let g = game("pente", "K10 L10 A1 M10");
    let b = Board::new(&g);
    assert_eq!(b.capture_attacks(at("N10")), [0, 0]);
    assert_eq!(b.open_runs(), [0, 0]);
    // A white triple is no pair in Pente, but Keryo takes it.
    let g = game("pente", "K10 L12 A1 M12 A5 N12");
    assert_eq!(Board::new(&g).capture_attacks(at("K12")), [0, 0]);
    assert_eq!(Board::new(&g).open_runs(), [0, 0]);
    let g = game("keryo", "K10 L12 A1 M12 A5 N12");
    assert_eq!(Board::new(&g).capture_attacks(at("K12")), [3, 0]);
    assert_eq!(Board::new(&g).open_runs(), [0, 1]);
    // No captures in Gomoku.
    let g = game("gomoku", "A1 H8 A3 J8");
    let g8 = cell_of(Point::parse("G8", 15).expect("point"));
    assert_eq!(Board::new(&g).capture_attacks(g8), [0, 0]);
    assert_eq!(Board::new(&g).open_runs(), [0, 0]);
}

#[test]
fn point_threats_follow_the_shapes() {
    let at = |name: &str, size: u8| cell_of(Point::parse(name, size).expect("point"));
    // Black: H8 J8 K8 (an open three on row 8) and L9 L10 on column L.
    let g = game("gomoku", "H8 A1 J8 A3 K8 A5 L9 A7 L10 A9");
    let b = Board::new(&g);
    assert_eq!(b.threat_at(at("G8", 15), 1), Threat::OpenFour);
    assert_eq!(b.threat_at(at("F8", 15), 1), Threat::Four);
    assert_eq!(b.threat_at(at("L11", 15), 1), Threat::Three);
    let g = game("gomoku", "H8 A1 J8 A3 K10 A5 K11 A7");
    assert_eq!(
        Board::new(&g).threat_at(at("K8", 15), 1),
        Threat::DoubleThree
    );
    assert_eq!(b.threat_at(at("A2", 15), 2), Threat::Four);
    assert_eq!(b.threat_at(at("H8", 15), 1), Threat::Quiet, "occupied");
    assert_eq!(b.threats_at_least(1, Threat::OpenFour), 2, "G8 and L8");
    // Renju: black's six is no five, white's is.
    let g = game("renju opening=none", "A1 H8 C1 J8 D1 K8 E1 L8 F1 N8 O15 O8");
    let b = Board::new(&g);
    assert_eq!(
        b.threat_at(at("B1", 15), 1),
        Threat::Quiet,
        "B1 would make six"
    );
    assert_eq!(
        b.threat_at(at("M8", 15), 2),
        Threat::Five,
        "white's overline wins"
    );
    assert!(!b.makes_line(at("B1", 15), 1));
    assert!(b.makes_line(at("M8", 15), 2));
}

/// Plays the legal action each choice picks while there is one; how many it played.
fn play(b: &mut Board, choices: &[u16]) -> usize {
    let mut played = 0;
    for &c in choices {
        let legal = b.game.legal_actions();
        if legal.is_empty() {
            break;
        }
        b.apply(legal[usize::from(c) % legal.len()]).expect("legal");
        played += 1;
    }
    played
}

/// Plays the legal action each choice picks, taking one back after every `undo_every`-th.
fn play_and_take_back(b: &mut Board, choices: &[u16], undo_every: usize) {
    for (k, &c) in choices.iter().enumerate() {
        let legal = b.game.legal_actions();
        if legal.is_empty() {
            break;
        }
        b.apply(legal[usize::from(c) % legal.len()]).expect("legal");
        if k % undo_every == 0 {
            b.undo();
        }
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 48, ..Default::default() })]

    /// Whatever is played and taken back, the incremental tables equal a fresh build.
    #[test]
    fn incremental_tables_match_a_fresh_board(
        spec in proptest::sample::select(&["gomoku", "pente", "keryo self_capture=capture", "gomoku size=9 line=4", "pente extra_time_capture=on", "renju opening=none", "gomoku-standard"][..]),
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..80),
        undo_every in 2usize..6,
    ) {
        let rules = RuleSet::from_spec(spec).expect("spec");
        let mut b = Board::new(&Game::new(rules));
        play_and_take_back(&mut b, &choices, undo_every);
        let fresh = Board::new(&b.game);
        proptest::prop_assert_eq!(fresh.key(), b.key());
        proptest::prop_assert_eq!(fresh.pattern, b.pattern);
        proptest::prop_assert_eq!(fresh.fours, b.fours);
        proptest::prop_assert_eq!(brute_windows(&b), (b.pattern, b.fours));
        proptest::prop_assert_eq!(&fresh.near, &b.near);
        let walked: Vec<usize> = b.frontier().collect();
        let scanned: Vec<usize> = b
            .on_board
            .iter()
            .map(|&i| usize::from(i))
            .filter(|&i| b.cells[i] == EMPTY && b.near_at(i) > 0)
            .collect();
        proptest::prop_assert_eq!(walked, scanned);
        proptest::prop_assert_eq!(fresh.frontier, b.frontier);
        proptest::prop_assert_eq!(fresh.stones, b.stones);
        let stones: Vec<usize> = b.on_board.iter().map(|&i| usize::from(i)).filter(|&i| b.cells[i] == 1 || b.cells[i] == 2).collect();
        proptest::prop_assert_eq!(b.stone_cells().collect::<Vec<_>>(), stones);
        for &i in &b.on_board {
            let i = usize::from(i);
            if b.cells[i] == EMPTY {
                proptest::prop_assert_eq!(b.captures_both(i), [b.captures_at(i, 1), b.captures_at(i, 2)]);
            }
        }
        for colour in 1..=2u8 {
            let scanned: Vec<(u16, u32)> = b
                .on_board
                .iter()
                .map(|&i| (i, b.captures_at(usize::from(i), colour)))
                .filter(|&(i, n)| b.cells[usize::from(i)] == EMPTY && n > 0)
                .collect();
            proptest::prop_assert_eq!(b.capture_moves(colour), scanned);
        }
        for (x, y) in [(1, 2), (2, 1), (1, 1), (2, 2)] {
            let walked: Vec<u16> = b
                .frontier()
                .filter(|&i| b.makes_a_four(i, x) || b.makes_a_four(i, y))
                .map(|i| i as u16)
                .collect();
            proptest::prop_assert_eq!(b.four_cells(x, y), walked);
        }
        proptest::prop_assert_eq!(&fresh.keys, &b.keys);
        proptest::prop_assert_eq!(&fresh.shapes, &b.shapes);
        proptest::prop_assert_eq!(&fresh.threats, &b.threats);
        proptest::prop_assert_eq!(&fresh.values, &b.values);
        proptest::prop_assert_eq!(fresh.shape_sum, b.shape_sum);
        proptest::prop_assert_eq!(fresh.threat_count, b.threat_count);
        proptest::prop_assert_eq!(&fresh.cells[..], &b.cells[..]);
    }
}

/// A fit whose values differ from the hand-made ones and from each other everywhere, with
/// values of line codes (which the board follows point by point) or without (where it reads
/// each set's record, `Fitted::records`).
fn odd_fit(lines: bool) -> &'static Fitted {
    static T: [std::sync::OnceLock<Fitted>; 2] = [const { std::sync::OnceLock::new() }; 2];
    T[usize::from(lines)].get_or_init(|| Fitted {
        mover: patterns::combined_table(false)
            .iter()
            .enumerate()
            .map(|(k, &(_, v))| 3 * v + (k % 7) as i32)
            .collect(),
        waiting: (0..4096).map(|k: i32| k % 13 - 4).collect(),
        weights: (32, 20),
        masks: Some((0..1024).map(|k: i32| k % 11 * 5).collect()),
        lines: lines.then(|| {
            [
                (0..48).map(|c: i32| c % 5 * 3 - 4).collect(),
                (0..48).map(|c: i32| 7 - c % 9).collect(),
            ]
        }),
        records: std::sync::OnceLock::new(),
    })
}

/// The fitted sums computed from scratch: each empty point's values by role.
fn fitted_sums(b: &Board, fit: &Fitted) -> [[i32; 2]; 2] {
    let mut sums = [[0; 2]; 2];
    for &i in &b.on_board {
        let i = usize::from(i);
        if b.cells[i] != EMPTY {
            continue;
        }
        for (k, colour) in [1u8, 2].into_iter().enumerate() {
            let set = patterns::set_index(b.shapes_at(i, colour));
            sums[0][k] += fit.mover[set];
            sums[1][k] += fit.waiting[set];
            if let Some(lines) = &fit.lines {
                for code in b.codes_at(i, colour) {
                    sums[0][k] += lines[0][usize::from(code)];
                    sums[1][k] += lines[1][usize::from(code)];
                }
            }
        }
    }
    sums
}

#[test]
fn the_threat_mask_says_which_threats_each_side_has() {
    let g = gomoku("H8 A1 J8 A15 K8");
    // Black's open three: G8 or L8 makes an open four, F8 or M8 a four.
    let b = Board::new(&g);
    let open_four = 1 << (Threat::OpenFour as usize - 1);
    let four = 1 << (Threat::Four as usize - 1);
    let black = b.threat_mask(1);
    assert_eq!(black & 31 & (open_four | four), open_four | four);
    assert_eq!(black >> 5, 0, "white's two corner stones threaten nothing");
    assert_eq!(b.threat_mask(2), (black & 31) << 5);
    assert_eq!(
        Board::new(&Game::new(g.rules().to_owned())).threat_mask(1),
        0
    );
}

#[test]
fn a_fit_changes_the_evaluation_not_the_ordering_s_values_and_not_renju() {
    let g = gomoku("H8 J9 H9");
    let hand = Board::new(&g);
    let mut fit = Board::new(&g);
    // The shapes' part of the evaluation for `me`: the points by their roles' values and
    // the situation's value.
    let shapes = |b: &Board, me: u8| {
        b.fitted_points(&b.sums(), me, 100)
            .map(|p| p + b.situation(me))
    };
    assert_eq!(shapes(&hand, 1), None);
    assert_eq!(hand.situation(1), 0);
    assert!(fit.use_fit(odd_fit(true)));
    let sums = fitted_sums(&fit, odd_fit(true));
    assert_ne!(sums[0], hand.shape_sum);
    let mask = |me: u8| odd_fit(true).masks.as_ref().expect("masks")[fit.threat_mask(me)];
    assert_eq!(
        shapes(&fit, 1),
        Some((sums[0][0] * 32 - sums[1][1] * 20) / 256 + mask(1))
    );
    assert_eq!(
        shapes(&fit, 2),
        Some((sums[0][1] * 32 - sums[1][0] * 20) / 256 + mask(2))
    );
    assert_eq!(fit.shape_sum, hand.shape_sum);
    for &i in &hand.on_board {
        let i = usize::from(i);
        assert_eq!(fit.value_at(i, 1), hand.value_at(i, 1));
        assert_eq!(fit.threat_at(i, 2), hand.threat_at(i, 2));
    }
    let mut renju = Board::new(&Game::new(
        RuleSet::from_spec("renju opening=none").expect("spec"),
    ));
    assert!(!renju.use_fit(odd_fit(true)));
    assert_eq!(shapes(&renju, 1), None);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

    /// With a fit, whatever is played and taken back, its sums equal those computed
    /// from scratch, and the hand-made ones a fresh board's.
    #[test]
    fn fitted_sums_stay_incremental(
        spec in proptest::sample::select(&["gomoku", "pente", "gomoku-standard"][..]),
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..60),
        undo_every in 2usize..6,
        lines in proptest::prelude::any::<bool>(),
    ) {
        let rules = RuleSet::from_spec(spec).expect("spec");
        let mut b = Board::new(&Game::new(rules));
        b.use_fit(odd_fit(lines));
        play_and_take_back(&mut b, &choices, undo_every);
        let fresh = Board::new(&b.game);
        let f = b.fit.as_deref().expect("a fit");
        proptest::prop_assert_eq!(f.sums, fitted_sums(&b, odd_fit(lines)));
        let mut fresh_fit = Board::new(&b.game);
        fresh_fit.use_fit(odd_fit(lines));
        let g = fresh_fit.fit.as_deref().expect("a fit");
        proptest::prop_assert_eq!(&f.values, &g.values);
        // An occupied point's codes are not kept (nothing reads them until it is empty again).
        for &i in &b.on_board {
            let i = usize::from(i);
            if b.cells[i] == EMPTY && lines {
                proptest::prop_assert_eq!(f.codes[i], g.codes[i]);
            }
        }
        proptest::prop_assert_eq!(&fresh.values, &b.values);
        proptest::prop_assert_eq!(fresh.shape_sum, b.shape_sum);
        proptest::prop_assert_eq!(fresh.threat_count, b.threat_count);
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 24, ..Default::default() })]

    /// Taking every action back, the last first, puts back exactly the board the actions
    /// started from (the journal of `journal.rs`): every table, and with a fit its values and
    /// line codes, as the point summaries a stone changed are restored and not worked out again.
    #[test]
    fn taking_everything_back_restores_the_start(
        spec in proptest::sample::select(&["gomoku", "pente", "keryo self_capture=capture", "gomoku size=9 line=4", "gomoku-standard", "renju opening=none"][..]),
        opening in proptest::collection::vec(proptest::prelude::any::<u16>(), 0..12),
        choices in proptest::collection::vec(proptest::prelude::any::<u16>(), 1..60),
        with_fit in proptest::prelude::any::<bool>(),
        lines in proptest::prelude::any::<bool>(),
    ) {
        let rules = RuleSet::from_spec(spec).expect("spec");
        let mut start = Board::new(&Game::new(rules));
        play(&mut start, &opening);
        let mut b = Board::new(&start.game);
        if with_fit {
            b.use_fit(odd_fit(lines));
        }
        let before = b.clone();
        for _ in 0..play(&mut b, &choices) {
            b.undo();
        }
        proptest::prop_assert_eq!(b.key(), before.key());
        proptest::prop_assert_eq!(&b.cells[..], &before.cells[..]);
        proptest::prop_assert_eq!(&b.keys, &before.keys);
        proptest::prop_assert_eq!(&b.shapes, &before.shapes);
        proptest::prop_assert_eq!(&b.threats, &before.threats);
        proptest::prop_assert_eq!(&b.values, &before.values);
        proptest::prop_assert_eq!(&b.near, &before.near);
        proptest::prop_assert_eq!(b.frontier, before.frontier);
        proptest::prop_assert_eq!(b.stones, before.stones);
        proptest::prop_assert_eq!((b.pattern, b.fours), (before.pattern, before.fours));
        proptest::prop_assert_eq!(b.shape_sum, before.shape_sum);
        proptest::prop_assert_eq!(b.threat_count, before.threat_count);
        proptest::prop_assert_eq!(b.sums(), before.sums());
        if let (Some(f), Some(g)) = (b.fit.as_deref(), before.fit.as_deref()) {
            proptest::prop_assert_eq!(&f.values, &g.values);
            proptest::prop_assert_eq!(&f.codes, &g.codes);
        }
        proptest::prop_assert!(b.ops.is_empty() && b.saved.is_empty());
    }
}

#[test]
fn a_fit_comes_only_to_a_board_with_nothing_to_take_back() {
    let mut b = Board::new(&gomoku("H8 J9"));
    assert!(b.use_fit(odd_fit(true)), "a new board takes a fit");
    let mut played = Board::new(&gomoku("H8 J9"));
    played
        .apply(Action::Place(Point::parse("K10", 15).expect("point")))
        .expect("legal");
    assert!(
        !played.use_fit(odd_fit(true)),
        "its journal holds no fitted values"
    );
    assert!(played.fit.is_none());
}

#[test]
fn shapes_compared_as_one_word_agree_with_one_at_a_time() {
    let mut b = Board::new(&Game::new(RuleSet::from_spec("gomoku").expect("spec")));
    for set in 0..8u32.pow(4) {
        let shapes = [0, 1, 2, 3].map(|a| (set >> (3 * a) & 7) as u8);
        for shape in 1..=patterns::FIVE {
            let want = shapes.iter().any(|&s| s >= shape);
            assert_eq!(at_least(shapes, shape) != 0, want, "{shapes:?} {shape}");
        }
        b.shapes[0][0] = shapes;
        assert_eq!(b.line_threat_at(0, 1), shapes.contains(&patterns::FIVE));
        assert_eq!(
            b.makes_four(0, 1),
            shapes.contains(&patterns::FOUR) || shapes.contains(&patterns::OPEN_FOUR)
        );
        assert_eq!(
            b.makes_a_four(0, 1),
            shapes.iter().any(|&s| s >= patterns::FOUR)
        );
    }
}

#[test]
fn the_ends_are_left_out_only_where_no_table_reads_them() {
    // A row of five through a point reaches four points each way where overlines win; where
    // they do not, a sixth stone five points away decides.
    assert!(shapes::ends_ignored(5, false));
    assert!(!shapes::ends_ignored(5, true));
    assert!(shapes::ends_ignored(4, false));
    let free =
        |spec: &str| Board::new(&Game::new(RuleSet::from_spec(spec).expect("spec"))).ends_free;
    assert!(free("gomoku"));
    assert!(free("pente"));
    assert!(!free("gomoku-standard"));
    assert!(!free("renju opening=none"), "black's overline does not win");
    // Both ways give the same shapes, threats and values along a game, and the same sums.
    let rules = RuleSet::from_spec("gomoku").expect("spec");
    let mut kept = Board::new(&Game::new(rules));
    kept.ends_free = false;
    kept.init_keys();
    kept.init_reach();
    let mut free = Board::new(&Game::new(rules));
    let moves = "H8 J9 G7 K8 F10 G9 F6 E5 H10 J11 L7 H9 G10 K10 F11 M6 E12 D13 L9 M10";
    for (k, name) in moves.split(' ').enumerate() {
        let p = Point::parse(name, 15).expect("point");
        for b in [&mut kept, &mut free] {
            b.apply(Action::Place(p)).expect("legal");
            if k % 3 == 2 {
                b.undo();
                b.apply(Action::Place(p)).expect("legal");
            }
        }
        assert_ne!(
            kept.keys, free.keys,
            "the ends are in one board's keys only"
        );
        assert_eq!(kept.shapes, free.shapes);
        assert_eq!(kept.threats, free.threats);
        assert_eq!(kept.values, free.values);
        assert_eq!(kept.sums(), free.sums());
        assert_eq!(kept.fours, free.fours);
    }
}
