//! A simple player for any number of players (made for the 3-4 player games the search engine
//! does not cover): it looks one move ahead and scores points by plain line patterns.
//!
//! In order of priority it completes its own winning line (or capture win), blocks a point
//! where an opponent would win next, takes captures, keeps its stones out of pairs an opponent
//! could capture at once, and otherwise extends its own lines near the stones on the board.
//! It never returns anything but one of [`Game::legal_actions`].

use std::time::Duration;

use super::Player;
use crate::rules::{Action, Captures, Game, Phase, Point, Status};

/// Score of a move that wins at once.
const WIN: i64 = 1_000_000_000;
/// Score of a point where the next opponent would win (it must be blocked).
const BLOCK_NEXT: i64 = 100_000_000;
/// Score of a point where a later opponent would win.
const BLOCK_LATER: i64 = 50_000_000;
/// Score per captured stone.
const CAPTURE: i64 = 3_000;
/// Penalty for leaving a pair of one's own stones that an opponent can capture at once.
const EXPOSED_PAIR: i64 = 4_000;

/// The four line directions as (column step, row step).
const AXES: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A player that looks one move ahead: wins, blocks, captures, and extends its lines.
#[derive(Clone, Copy, Debug, Default)]
pub struct SimplePlayer;

impl SimplePlayer {
    /// A simple player.
    pub fn new() -> SimplePlayer {
        SimplePlayer
    }
}

impl Player for SimplePlayer {
    fn choose(&mut self, game: &Game, _budget: Duration) -> Option<Action> {
        let legal = game.legal_actions();
        if legal.is_empty() {
            return None;
        }
        match game.phase() {
            Phase::Choosing { .. } => Some(choose_colour(game, &legal)),
            Phase::Placing { .. } => Some(place_opening_stone(game, &legal)),
            Phase::Playing => Some(best_point(game, &legal)),
            Phase::SwapOrKeep { .. }
            | Phase::Declaring { .. }
            | Phase::Offering { .. }
            | Phase::Selecting { .. } => {
                super::openings::decide(game, &mut pattern_edge).or(Some(legal[0]))
            }
        }
    }
}

/// The board as a plain grid of colours (0 = empty), `(col, row)` from the bottom left.
struct Grid {
    size: i32,
    cells: Vec<u8>,
}

impl Grid {
    fn of(game: &Game) -> Grid {
        let size = i32::from(game.size());
        let mut cells = vec![0; (size * size) as usize];
        for (p, c) in game.stones() {
            cells[(i32::from(p.row()) * size + i32::from(p.col())) as usize] = c;
        }
        Grid { size, cells }
    }

    /// The colour at `(col, row)`: `None` off the board, `Some(0)` empty.
    fn at(&self, col: i32, row: i32) -> Option<u8> {
        (0..self.size)
            .contains(&col)
            .then_some(())
            .filter(|_| (0..self.size).contains(&row))
            .map(|_| self.cells[(row * self.size + col) as usize])
    }

    /// Stones of `colour` in a row from `(col, row)` (excluded) stepping by `(dc, dr)`.
    fn run(&self, col: i32, row: i32, (dc, dr): (i32, i32), colour: u8) -> i32 {
        let mut n = 0;
        while self.at(col + dc * (n + 1), row + dr * (n + 1)) == Some(colour) {
            n += 1;
        }
        n
    }

    /// Whether any stone stands within `reach` of `p`.
    fn near_stone(&self, p: Point, reach: i32) -> bool {
        let (c, r) = (i32::from(p.col()), i32::from(p.row()));
        (-reach..=reach).any(|dc| {
            (-reach..=reach).any(|dr| matches!(self.at(c + dc, r + dr), Some(v) if v != 0))
        })
    }
}

fn xy(p: Point) -> (i32, i32) {
    (i32::from(p.col()), i32::from(p.row()))
}

/// Whether `a` and `b` play on the same side (the same colour, or teammates).
fn same_side(game: &Game, a: u8, b: u8) -> bool {
    a == b || game.rules().teammate(a) == Some(b)
}

/// How many stones `colour` would capture by a stone at `p` (counting only what the rules
/// would remove: exactly 2, or 2 or 3 with triples, bracketed by its own stone).
fn captures_at(game: &Game, grid: &Grid, p: Point, colour: u8) -> i32 {
    let sizes: &[i32] = match game.rules().captures {
        Captures::None => return 0,
        Captures::Pairs => &[2],
        Captures::PairsAndTriples => &[2, 3],
    };
    let (c, r) = xy(p);
    let mut total = 0;
    for (dc, dr) in AXES.iter().flat_map(|&(dc, dr)| [(dc, dr), (-dc, -dr)]) {
        for &k in sizes {
            let group: Vec<Option<u8>> = (1..=k).map(|i| grid.at(c + dc * i, r + dr * i)).collect();
            let Some(Some(first)) = group.first().copied() else {
                continue;
            };
            let opposing = group.iter().all(|v| match v {
                Some(v) if *v != 0 && *v != colour => *v == first || game.rules().mixed_captures,
                _ => false,
            });
            if opposing && grid.at(c + dc * (k + 1), r + dr * (k + 1)) == Some(colour) {
                total += k;
            }
        }
    }
    total
}

/// Whether a stone of `colour` at the empty point `p` would win at once (a line, or the
/// captures that reach the goal). Used to find the opponents' winning points.
fn would_win(game: &Game, grid: &Grid, p: Point, colour: u8) -> bool {
    let rules = game.rules();
    let (c, r) = xy(p);
    for axis in AXES {
        let len = 1 + grid.run(c, r, axis, colour) + grid.run(c, r, (-axis.0, -axis.1), colour);
        let line = i32::from(rules.line);
        if len == line || (len > line && rules.overline_wins) {
            return true;
        }
    }
    rules.capture_win > 0
        && u32::from(game.score(colour)) + captures_at(game, grid, p, colour) as u32
            >= u32::from(rules.capture_win)
}

/// Pattern value of the lines through `p` for `colour` if it played there: longer runs with
/// open ends are worth more.
fn line_value(grid: &Grid, p: Point, colour: u8, line: i32) -> i64 {
    let (c, r) = xy(p);
    let mut value = 0;
    for axis in AXES {
        let back = (-axis.0, -axis.1);
        let fwd_run = grid.run(c, r, axis, colour);
        let back_run = grid.run(c, r, back, colour);
        let len = 1 + fwd_run + back_run;
        let open_end = |(dc, dr): (i32, i32), run: i32| {
            grid.at(c + dc * (run + 1), r + dr * (run + 1)) == Some(0)
        };
        let open = i32::from(open_end(axis, fwd_run)) + i32::from(open_end(back, back_run));
        // Room to still make a line: count free or own points along the axis.
        let room = |(dc, dr): (i32, i32)| {
            (1..line)
                .take_while(
                    |i| matches!(grid.at(c + dc * i, r + dr * i), Some(v) if v == 0 || v == colour),
                )
                .count() as i32
        };
        if 1 + room(axis) + room(back) < line {
            continue;
        }
        let shape = match (len.min(line), open) {
            (_, 0) => 1,
            (l, o) if l >= line - 1 => 4_000 * i64::from(o),
            (l, 2) if l == line - 2 => 800,
            (l, 1) if l == line - 2 => 150,
            (l, o) => 10 * i64::from(l) * i64::from(o),
        };
        value += shape;
    }
    value
}

/// Whether a stone of `colour` at `p` forms a pair of its own that an opponent could capture
/// at once (own, own, with an opponent on one end and an empty point on the other).
fn exposes_pair(game: &Game, grid: &Grid, p: Point, colour: u8) -> bool {
    if game.rules().captures == Captures::None {
        return false;
    }
    let (c, r) = xy(p);
    AXES.iter()
        .flat_map(|&(dc, dr)| [(dc, dr), (-dc, -dr)])
        .any(|(dc, dr)| {
            if grid.at(c + dc, r + dr) != Some(colour) {
                return false;
            }
            // The pair is p and p+d: look at both ends.
            if grid.at(c + 2 * dc, r + 2 * dr) == Some(colour)
                || grid.at(c - dc, r - dr) == Some(colour)
            {
                return false; // a run of three or more is not a pair
            }
            let ends = [grid.at(c - dc, r - dr), grid.at(c + 2 * dc, r + 2 * dr)];
            let enemy =
                |v: Option<u8>| matches!(v, Some(v) if v != 0 && !same_side(game, v, colour));
            (enemy(ends[0]) && ends[1] == Some(0)) || (enemy(ends[1]) && ends[0] == Some(0))
        })
}

/// The best point of normal play.
fn best_point(game: &Game, legal: &[Action]) -> Action {
    let grid = Grid::of(game);
    let me = game.to_move();
    let rules = *game.rules();
    let line = i32::from(rules.line);
    let centre = Point::centre(game.size());
    let any_stone = game.stone_count() > 0;
    let opponents: Vec<u8> = {
        let mut v = Vec::new();
        let mut c = rules.next_colour(me);
        while c != me {
            if !same_side(game, c, me) {
                v.push(c);
            }
            c = rules.next_colour(c);
        }
        v
    };
    let mut probe = game.clone();
    let mut best: Option<(i64, Action)> = None;
    for &action in legal {
        let Action::Place(p) = action else { continue };
        // Far from every stone a point is only worth its distance to the centre, which a
        // near point beats anyway: skip most of the board cheaply.
        if any_stone && !grid.near_stone(p, 2) {
            let score = -i64::from(p.distance(centre)) - 10_000;
            if best.is_none_or(|(b, _)| score > b) {
                best = Some((score, action));
            }
            continue;
        }
        let mut score = 0i64;
        if let Ok(report) = probe.apply(action) {
            match report.status {
                Status::Won { winners, .. } if winners.contains(me) => score += WIN,
                _ => {}
            }
            if report.extra_time {
                score += WIN / 10;
            }
            let taken = report
                .removed
                .iter()
                .filter(|r| !same_side(game, r.colour, me))
                .count() as i64;
            let lost = report.removed.len() as i64 - taken;
            score += CAPTURE * taken - CAPTURE * lost;
            probe.undo();
        }
        for (k, &o) in opponents.iter().enumerate() {
            if would_win(game, &grid, p, o) {
                score += if k == 0 { BLOCK_NEXT } else { BLOCK_LATER };
            }
            // Blocking their lines is worth a little less than building one's own.
            score += line_value(&grid, p, o, line) * 2 / 3;
            score += i64::from(captures_at(game, &grid, p, o)) * CAPTURE / 3;
        }
        score += line_value(&grid, p, me, line);
        if exposes_pair(game, &grid, p, me) {
            score -= EXPOSED_PAIR;
        }
        score -= i64::from(p.distance(centre));
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, action));
        }
    }
    // `legal` is not empty and in normal play holds only points.
    best.map_or(legal[0], |(_, a)| a)
}

/// Swap and swap2 placing: stones close to the centre, in a balanced cluster.
fn place_opening_stone(game: &Game, legal: &[Action]) -> Action {
    let centre = Point::centre(game.size());
    legal
        .iter()
        .copied()
        .min_by_key(|a| match a {
            Action::Place(p) => {
                // Prefer the centre, then a knight's-move-like spread around it.
                let d = p.distance(centre);
                let skew = p.col().abs_diff(centre.col()) + p.row().abs_diff(centre.row());
                (d, skew, *p)
            }
            _ => (u8::MAX, u8::MAX, centre),
        })
        .unwrap_or(legal[0])
}

/// Black's edge by line patterns: black's stones' pattern value less white's, with the move
/// worth about one stone to the side to move (the simple player's judgement of a position).
pub(super) fn pattern_edge(game: &Game) -> i64 {
    let grid = Grid::of(game);
    let tempo = if game.to_move() == 1 { 200 } else { -200 };
    strength(game, &grid, 1) - strength(game, &grid, 2) + tempo
}

/// How well `colour`'s stones stand: the sum of their line patterns' values. The simple
/// player's one measure of a side, for its judgement of a position and its colour choice.
fn strength(game: &Game, grid: &Grid, colour: u8) -> i64 {
    let line = i32::from(game.rules().line);
    game.stones()
        .into_iter()
        .filter(|&(_, c)| c == colour)
        .map(|(p, _)| line_value(grid, p, colour, line))
        .sum()
}

/// Swap and swap2 colour choice: the colour whose stones stand better on the board.
fn choose_colour(game: &Game, legal: &[Action]) -> Action {
    let grid = Grid::of(game);
    // Colour 1 moves next after the choice, which is worth about one stone.
    let first = strength(game, &grid, 1) + 200;
    let second = strength(game, &grid, 2);
    let wanted = if first >= second { 1 } else { 2 };
    legal
        .iter()
        .copied()
        .find(|a| *a == Action::Take(wanted))
        .unwrap_or(legal[0])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Preset, RuleSet};
    use proptest::prelude::*;

    fn rules(preset: Preset, options: &[&str]) -> RuleSet {
        RuleSet::with_options(preset, options).expect("valid rules")
    }

    fn game(rules: RuleSet, moves: &str) -> Game {
        let mut g = Game::new(rules);
        for m in moves.split_whitespace() {
            g.apply_token(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        }
        g
    }

    fn choose(g: &Game) -> String {
        SimplePlayer
            .choose(g, Duration::from_millis(50))
            .expect("a move")
            .to_string()
    }

    #[test]
    fn completes_its_own_line() {
        // Colour 1 has four in a row H8..L8 with one end blocked; colour 2 has a three.
        let g = game(RuleSet::preset(Preset::Gomoku), "H8 A1 J8 A2 K8 A3 L8 G8");
        assert_eq!(choose(&g), "M8");
    }

    #[test]
    fn blocks_an_opponent_four() {
        let g = game(RuleSet::preset(Preset::Gomoku), "H8 A1 J8 A2 K8 A3 L8");
        // Colour 2 to move: A1-A3 is only three, H8-L8 threatens G8 and M8; one of them.
        let m = choose(&g);
        assert!(m == "G8" || m == "M8", "{m}");
    }

    #[test]
    fn in_three_players_blocks_the_next_players_win() {
        let r = rules(Preset::Gomoku, &["players=3"]);
        // Line of 4 wins with 3 players; colour 2 has three in a column, colour 3 to move.
        let g = game(r, "H8 B2 N14 J9 B3 N13 A14 B4");
        assert_eq!(g.to_move(), 3);
        let m = choose(&g);
        assert!(m == "B1" || m == "B5", "{m}");
    }

    #[test]
    fn takes_a_capture_and_a_capture_win() {
        // Pente: colour 1 K10, colour 2 L10 M10; colour 1 captures at N10.
        let r = RuleSet::preset(Preset::Pente);
        let g = game(r, "K10 L10 K4 M10");
        assert_eq!(choose(&g), "N10");
        // With 8 stones already captured, a capture wins: the player takes it.
        let r = rules(Preset::Pente, &["capture_win=2"]);
        let g = game(r, "K10 L10 K4 M10");
        let mut probe = g.clone();
        probe.apply_token(&choose(&g)).expect("legal");
        assert!(matches!(probe.status(), Status::Won { winners, .. } if winners.contains(1)));
    }

    #[test]
    fn avoids_a_placement_its_opponent_captures_at_once() {
        // Colour 1 to move; K11 would make the pair K10-K11 bracketed by K9 (colour 2) and
        // open at K12. The player never puts itself there when other moves are as good.
        let g = game(rules(Preset::Pente, &["opening=none"]), "K10 K9");
        let m = choose(&g);
        assert_ne!(m, "K11");
        let grid = Grid::of(&g);
        let k11 = Point::parse("K11", 19).expect("point");
        assert!(exposes_pair(&g, &grid, k11, 1));
    }

    #[test]
    fn extends_its_lines_near_the_action() {
        let g = game(RuleSet::preset(Preset::Gomoku), "H8 A15 J8 A13");
        let m = Point::parse(&choose(&g), 15).expect("a point");
        // An open three on row 8 (G8 or K8), or at least a stone next to its own.
        assert_eq!(m.row(), 7, "{m}");
        assert!(m == Point::parse("G8", 15).unwrap() || m == Point::parse("K8", 15).unwrap());
    }

    #[test]
    fn plays_the_pro_opening_and_swap_choices() {
        let g = Game::new(RuleSet::preset(Preset::Pente));
        assert_eq!(choose(&g), "K10");
        let g = game(RuleSet::preset(Preset::Pente), "K10 L11");
        let m = Point::parse(&choose(&g), 19).unwrap();
        assert!(m.distance(Point::centre(19)) >= 3, "{m}");
        let r = rules(Preset::Gomoku, &["opening=swap2"]);
        let mut g = Game::new(r);
        for _ in 0..3 {
            let a = SimplePlayer.choose(&g, Duration::ZERO).expect("a stone");
            g.apply(a).expect("legal");
        }
        let choice = SimplePlayer.choose(&g, Duration::ZERO).expect("a choice");
        assert!(matches!(choice, Action::Take(_)), "{choice}");
    }

    #[test]
    fn returns_nothing_once_the_game_is_over() {
        let g = game(
            RuleSet::preset(Preset::Gomoku),
            "H8 A1 J8 A2 K8 A3 L8 A4 M8",
        );
        assert!(g.is_over());
        assert_eq!(SimplePlayer.choose(&g, Duration::ZERO), None);
    }

    /// Every preset with the options that change what is legal, for 2, 3 and 4 players.
    fn all_rule_sets() -> Vec<RuleSet> {
        let mut out = Vec::new();
        for preset in [
            Preset::Gomoku,
            Preset::GomokuStandard,
            Preset::Pente,
            Preset::Keryo,
        ] {
            let mut variants: Vec<Vec<&str>> = vec![
                vec![],
                vec!["size=9"],
                vec!["opening=swap"],
                vec!["opening=swap2"],
                vec!["players=3"],
                vec!["players=4"],
                vec!["players=4", "teams=on"],
                vec!["players=3", "size=9", "line=4"],
            ];
            if preset == Preset::Pente || preset == Preset::Keryo {
                variants.push(vec!["self_capture=forbidden"]);
                variants.push(vec!["self_capture=capture"]);
                variants.push(vec!["extra_time_capture=on"]);
                variants.push(vec!["players=4", "mixed_captures=on"]);
                variants.push(vec!["opening=long-pro"]);
            }
            for v in variants {
                if let Ok(r) = RuleSet::with_options(preset, &v) {
                    out.push(r);
                }
            }
        }
        // Renju: black's forbidden points, and both tournament openings' decisions.
        for v in ["opening=none", "opening=taraguchi-10", "opening=soosorv-8"] {
            out.push(RuleSet::with_options(Preset::Renju, &[v]).expect("a renju rule set"));
        }
        out
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn always_returns_a_legal_action(which in 0usize..64, picks in prop::collection::vec(0usize..400, 0..60)) {
            let sets = all_rule_sets();
            let rules = sets[which % sets.len()];
            let mut g = Game::new(rules);
            for k in picks {
                let legal = g.legal_actions();
                if legal.is_empty() {
                    break;
                }
                g.apply(legal[k % legal.len()]).expect("a legal action applies");
            }
            let chosen = SimplePlayer.choose(&g, Duration::from_millis(10));
            if g.is_over() {
                prop_assert_eq!(chosen, None);
            } else {
                let a = chosen.expect("a move while the game goes on");
                prop_assert!(g.is_legal(a), "{} is not legal in {:?}", a, g.record());
            }
        }
    }
}
