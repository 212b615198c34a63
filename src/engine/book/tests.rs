use super::*;
use crate::engine::test_support::{game, node_budget};
use crate::engine::{Engine, Level, Source, Style};
use rand::SeedableRng;

fn rules(spec: &str) -> RuleSet {
    RuleSet::from_spec(spec).expect("a valid rule set")
}

/// The shipped book's entries, each as (its game, its move).
fn entries() -> Vec<(Game, BookMove)> {
    BOOK.lines()
        .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
        .map(|l| {
            let ((preset, opening), stones, m) =
                parse_line(l).unwrap_or_else(|| panic!("book line does not read: {l}"));
            let g = replay(preset, opening, &stones)
                .unwrap_or_else(|| panic!("book line is no legal start: {l}"));
            (g, m)
        })
        .collect()
}

#[test]
fn every_line_of_the_shipped_book_reads_and_covers_its_positions() {
    let entries = entries();
    let map = load(BOOK);
    assert_eq!(map.len(), entries.len(), "a line was dropped or repeated");
    for (preset, opening) in [
        ("pente", "pro"),
        ("pente", "long-pro"),
        ("keryo", "pro"),
        ("keryo", "long-pro"),
    ] {
        let rules = rules(&format!("{preset} opening={opening}"));
        let mut centre = Game::new(rules);
        centre
            .apply(Action::Place(Point::centre(19)))
            .expect("the centre starts the pro opening");
        let reply = lookup(&centre)
            .unwrap_or_else(|| panic!("{preset} {opening}: no answer to the centre"))
            .point;
        for g in book_positions(&rules, Some(reply)) {
            let m = lookup(&g)
                .unwrap_or_else(|| panic!("{preset} {opening}: {:?} not in the book", g.record()));
            assert!(g.is_legal(Action::Place(m.point)));
        }
    }
    for preset in ["gomoku", "gomoku-standard", "renju"] {
        let openings = swap_openings(&rules(&format!("{preset} opening=swap2")));
        assert_eq!(openings.len(), 26, "{preset}: the 26 classic openings");
        for g in openings {
            let j =
                judgement(&g).unwrap_or_else(|| panic!("{preset}: {:?} not judged", g.record()));
            assert!(
                j.score.abs() < crate::engine::WIN,
                "a judgement, not a win found"
            );
        }
    }
}

#[test]
fn a_book_move_is_found_under_every_symmetry_of_its_position() {
    let moves = entries()
        .into_iter()
        .filter(|(g, _)| g.phase() == Phase::Playing);
    for (g, m) in moves {
        let size = g.size();
        // The moves equivalent to the book's in this position (its own symmetries).
        let same: Vec<Point> = g
            .symmetries()
            .iter()
            .map(|s| s.apply(m.point, size))
            .collect();
        for s in Symmetry::ALL {
            let mut turned = Game::new(*g.rules());
            for a in g.record() {
                let Action::Place(p) = *a else {
                    panic!("the book holds stones only")
                };
                turned
                    .apply(Action::Place(s.apply(p, size)))
                    .expect("a symmetric start is legal");
            }
            let found = lookup(&turned).expect("the turned position is in the book");
            let back = inverse(s, size).apply(found.point, size);
            assert!(
                same.contains(&back),
                "{:?} under {s:?}: {} is no image of {}",
                g.record(),
                found.point,
                m.point
            );
            assert_eq!((found.score, found.depth), (m.score, m.depth));
        }
    }
    // The judged swap openings, turned, keep their judgement.
    for g in swap_openings(&rules("gomoku opening=swap2")) {
        let want = judgement(&g).expect("judged");
        for s in Symmetry::ALL {
            let mut turned = Game::new(*g.rules());
            for a in g.record() {
                let Action::Place(p) = *a else {
                    panic!("stones only")
                };
                turned.apply(Action::Place(s.apply(p, 15))).expect("legal");
            }
            let got = judgement(&turned).expect("a turned opening is judged too");
            assert_eq!((got.score, got.depth), (want.score, want.depth));
        }
    }
}

#[test]
fn only_the_pente_and_keryo_presets_under_pro_openings_read_the_book() {
    assert_eq!(variant(&rules("pente")), Some(("pente", "pro")));
    assert_eq!(
        variant(&rules("keryo opening=long-pro")),
        Some(("keryo", "long-pro"))
    );
    for other in [
        "gomoku",
        "renju",
        "pente capture_win=15",
        "pente opening=none",
        "keryo size=15",
        "pente extra_time_capture=on",
    ] {
        let Ok(r) = RuleSet::from_spec(other) else {
            continue;
        };
        assert_eq!(variant(&r), None, "{other}");
        let mut g = Game::new(r);
        let c = Point::centre(g.size());
        if g.apply(Action::Place(c)).is_ok() {
            assert_eq!(lookup(&g), None, "{other}");
        }
    }
    // Past the book's stones, and on a position it does not hold, nothing.
    assert_eq!(lookup(&game("pente", "K10 K11 K14 L11")), None);
    assert_eq!(lookup(&game("pente", "K10 A1")), None);
}

#[test]
fn lines_that_do_not_read_or_are_illegal_are_skipped() {
    let text = "\
# a comment
garbage
pente pro | K10 | K10 | score 1 depth 2
pente pro | K10 | Z99 | score 1 depth 2
pente pro | K10 K11 L11 | N13 | score 1 depth 2
pente pro | K10 | L11 | score x depth 2
pente pro | K10 | L11 | depth 2
chess pro | K10 | L11 | score 1 depth 2
gomoku pro | K10 | L11 | score 1 depth 2
pente pro | K10 | L11 | score 7 depth 3 nodes 10
gomoku swap | H8 H9 | - | score 5 depth 3
gomoku swap | H8 H9 J10 J11 | - | score 5 depth 3
pente swap | K10 K11 L12 | - | score 5 depth 3
gomoku swap | H8 H9 J10 | - | score -60 depth 9
";
    let book = load(text);
    assert_eq!(
        book.len(),
        2,
        "only the two last good lines are book entries"
    );
    let mut opening = game("gomoku opening=swap2", "H8 H9");
    assert_eq!(judgement_in(&book, &opening), None, "no colour choice yet");
    opening.apply_token("J10").expect("the third stone");
    assert_eq!(judgement_in(&book, &opening).map(|m| m.score), Some(-60));
    let g = game("pente", "K10");
    let m = lookup_in(&book, &g).expect("the centre is in this book");
    assert_eq!(m.score, 7);
    assert_eq!(m.depth, 3);
    // The answer is L11 or one of its images around the lone centre stone.
    assert_eq!(m.point.distance(Point::centre(19)), 1);
    assert!(
        m.point.col() != 9 && m.point.row() != 9,
        "a diagonal neighbour"
    );
}

#[test]
fn the_computer_places_a_judged_opening_stone_by_stone() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    for spec in [
        "gomoku opening=swap2",
        "renju opening=swap2",
        "gomoku-standard opening=swap",
    ] {
        for _ in 0..8 {
            let mut g = Game::new(rules(spec));
            for k in 0..3 {
                let p = opening_stone(&g, &mut rng)
                    .unwrap_or_else(|| panic!("{spec}: no book stone after {k}"));
                assert!(
                    k > 0 || p == Point::centre(15),
                    "the first stone on the centre"
                );
                g.apply(Action::Place(p)).expect("a legal stone");
            }
            assert_eq!(
                opening_stone(&g, &mut rng),
                None,
                "{spec}: three stones at most"
            );
            // Swap2 now wants a colour choice; swap a fourth stone: the key is the three.
            let three = Game::new(RuleSet {
                opening: Opening::Swap2,
                ..*g.rules()
            });
            let mut again = three;
            for a in g.record() {
                again.apply(*a).expect("the same stones");
            }
            let j = judgement(&again).expect("the stones make a judged opening");
            let mut all: Vec<i32> = swap_openings(again.rules())
                .iter()
                .filter_map(|o| judgement(o).map(|m| m.score.abs()))
                .collect();
            all.sort_unstable();
            let limit = all[3].max(BALANCED);
            assert!(
                j.score.abs() <= limit,
                "{spec}: {} is no balanced opening",
                j.score
            );
        }
    }
    // Nothing for the pro openings or a game past its placing.
    assert_eq!(opening_stone(&game("pente", "K10"), &mut rng), None);
}

#[test]
fn the_colour_choice_of_a_judged_opening_follows_the_book() {
    for o in swap_openings(&rules("gomoku opening=swap2")) {
        let j = judgement(&o).expect("judged");
        let mut e = Engine::seeded(Level::LIVE_MAX, 1);
        let limits = node_budget(20_000);
        let a = e.choose_with(&o, limits).expect("a choice");
        assert_eq!(e.last_info().source, Source::Book);
        assert_eq!(e.last_info().nodes, 0, "no search");
        // White moves next: a score below even for white means black is the better colour.
        let want = if j.score.abs() < 20 {
            Action::PlaceTwo
        } else if j.score > 0 {
            Action::Take(2)
        } else {
            Action::Take(1)
        };
        assert_eq!(a, want, "{:?} judged {}", o.record(), j.score);
    }
}

#[test]
fn the_positions_are_distinct_legal_and_grouped_as_documented() {
    let r = rules("pente");
    let first = book_positions(&r, None);
    // The centre, then the 9 classes of a stone within 3 points of it.
    assert_eq!(first.len(), 10);
    let reply = Point::parse("L11", 19).expect("a point");
    let all = book_positions(&r, Some(reply));
    // ...then the 24 points 3 from the centre, paired by the mirror that keeps K10 L11.
    assert_eq!(all.len(), 10 + 2 + 11);
    let keys: std::collections::HashSet<_> = all.iter().map(canonical_key).collect();
    assert_eq!(keys.len(), all.len());
    assert!(book_positions(&rules("gomoku"), None).is_empty());
}

#[test]
fn levels_5_and_6_answer_from_the_book_and_lower_levels_search() {
    let g = game("keryo", "K10");
    let want = lookup(&g).expect("the centre is in the book").point;
    let limits = node_budget(20_000);
    for level in [5, 6] {
        let mut e = Engine::seeded(Level::new(level).expect("a level"), 1);
        assert_eq!(e.choose_with(&g, limits), Some(Action::Place(want)));
        assert_eq!(e.last_info().source, Source::Book);
        assert_eq!(e.last_info().nodes, 0);
    }
    let mut e = Engine::seeded(Level::new(4).expect("a level"), 1);
    e.choose_with(&g, limits);
    assert_eq!(e.last_info().source, Source::Search);
    let mut style = Style::for_level(Level::LIVE_MAX);
    style.set("book", "off").expect("book takes on/off");
    let mut e = Engine::with_style(Level::LIVE_MAX, style, 1);
    e.choose_with(&g, limits);
    assert_eq!(e.last_info().source, Source::Search);
    assert!(style.set("book", "maybe").is_err());
}
