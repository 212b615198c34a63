//! What to draw, decided from a game: stones and their looks, lines, footer rows.

use crate::rules::{Captures, Game, Phase, Point, Status};

use super::Labels;
use super::marks::Mark;
use super::paint::Look;

/// A marker before a footer row's name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RowMark {
    None,
    /// This player acts now.
    Turn,
    /// This player won.
    Winner,
}

/// One player's footer row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Row {
    pub colour: u8,
    pub name: String,
    /// Whether `name` is a stand-in because the given one was empty; otherwise `name` is
    /// the name as given, cleaned when drawn.
    pub placeholder: bool,
    pub captured: Option<String>,
    pub mark: RowMark,
}

/// A piece of the status line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Part {
    /// Words or numbers; `true` for the muted colour.
    Text(String, bool),
    /// A small stone of a colour.
    Stone(u8),
}

/// A line drawn through stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LineMark {
    pub from: Point,
    pub to: Point,
    /// Dashed: a threatened line (extra-time capture) rather than a winning one.
    pub dashed: bool,
}

/// Everything one picture shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Scene {
    pub size: u8,
    pub stones: Vec<(Point, u8, Look)>,
    pub lines: Vec<LineMark>,
    /// Marks on points: Renju's forbidden points, the numbers of offered fifth moves.
    pub marks: Vec<(Point, Mark)>,
    pub rows: Vec<Row>,
    /// With teams, the number of rows of the first team: a rule is drawn after them.
    pub team_split: Option<usize>,
    pub status: Vec<Part>,
}

impl Scene {
    /// The scene of a game, with an optional translucent stone for the mover.
    pub fn of_game(
        game: &Game,
        players: &[String],
        labels: &Labels,
        highlight_last: bool,
        tentative: Option<Point>,
    ) -> Scene {
        let rules = game.rules();
        let size = game.size();
        let last = game.last_stone().filter(|_| highlight_last);
        let mut stones: Vec<(Point, u8, Look)> = game
            .stones()
            .into_iter()
            .map(|(p, c)| {
                (
                    p,
                    c,
                    if Some(p) == last {
                        Look::Last
                    } else {
                        Look::Stone
                    },
                )
            })
            .collect();
        for r in game.last_removed() {
            if game.stone_at(r.point).is_none() {
                stones.push((r.point, r.colour, Look::Ghost));
            }
        }
        if let Some(t) = tentative {
            let placing = matches!(game.phase(), Phase::Playing | Phase::Placing { .. });
            let on_board = t.col() < size && t.row() < size;
            if placing && on_board && !game.is_over() && game.stone_at(t).is_none() {
                stones.retain(|s| s.0 != t);
                stones.push((t, game.to_move(), Look::Tentative));
            }
        }
        let mut lines: Vec<LineMark> = game
            .winning_lines()
            .into_iter()
            .map(|l| LineMark {
                from: l.start,
                to: l.end,
                dashed: false,
            })
            .collect();
        if let Some(l) = game.threatened_line() {
            lines.push(LineMark {
                from: l.start,
                to: l.end,
                dashed: true,
            });
        }

        let winners = match game.status() {
            Status::Won { winners, .. } => Some(winners),
            _ => None,
        };
        let acting = game.seat_to_act();
        let order: Vec<u8> = if rules.teams && rules.players == 4 {
            vec![1, 3, 2, 4]
        } else {
            (1..=rules.players).collect()
        };
        let rows = order
            .into_iter()
            .map(|c| {
                let seat = game.seat_of_colour(c);
                let given = players
                    .get(usize::from(seat).wrapping_sub(1))
                    .cloned()
                    .unwrap_or_default();
                let placeholder = super::text::sanitize(&given).0.is_empty();
                let name = if placeholder {
                    format!("{} {seat}", labels.player)
                } else {
                    given
                };
                let mark = if winners.is_some_and(|w| w.contains(c)) {
                    RowMark::Winner
                } else if acting == Some(seat) && game.colour_of_seat(seat) == c {
                    RowMark::Turn
                } else {
                    RowMark::None
                };
                Row {
                    colour: c,
                    name,
                    placeholder,
                    captured: captured_text(game, c, labels),
                    mark,
                }
            })
            .collect();

        // Unambiguous about which move is meant: the next one while a stone is to be
        // placed ("Move 91 · ● to play" after 90), else how many were played ("90 moves").
        let placed = game.stones_placed();
        let placing =
            game.status() == Status::Ongoing && !matches!(game.phase(), Phase::Choosing { .. });
        let count = if placing {
            format!("{} {}", labels.move_word, placed + 1)
        } else {
            let noun = if placed == 1 {
                &labels.move_played
            } else {
                &labels.moves_played
            };
            format!("{placed} {noun}")
        };
        let mut status = vec![Part::Text(count, true), Part::Text("·".to_string(), true)];
        match game.status() {
            Status::Ongoing => match game.phase() {
                Phase::Choosing { .. } => {
                    status.push(Part::Text(labels.choose_colour.clone(), false));
                }
                _ => {
                    status.push(Part::Stone(game.to_move()));
                    status.push(Part::Text(labels.to_move.clone(), false));
                }
            },
            Status::Won { winners, .. } => {
                status.extend(winners.iter().map(Part::Stone));
                status.push(Part::Text(labels.wins.clone(), false));
            }
            Status::Draw => status.push(Part::Text(labels.draw.clone(), false)),
        }
        let mut scene = Scene {
            size,
            stones,
            lines,
            marks: Vec::new(),
            rows,
            team_split: (rules.teams && rules.players == 4).then_some(2),
            status,
        };
        scene.mark_candidates(game);
        scene
    }
}

/// "3/5 pairs", "6/15 stones", or nothing in a game without captures.
fn captured_text(game: &Game, colour: u8, labels: &Labels) -> Option<String> {
    let rules = game.rules();
    let score = game.score(colour);
    let (count, target, unit) = match rules.captures {
        Captures::None => return None,
        Captures::Pairs => (score / 2, rules.capture_win / 2, &labels.pairs),
        Captures::PairsAndTriples => (score, rules.capture_win, &labels.stones),
    };
    Some(if target > 0 {
        format!("{count}/{target} {unit}")
    } else {
        format!("{count} {unit}")
    })
}
