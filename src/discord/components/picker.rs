//! The point picker's buttons as they are built: their `custom_id`s ([`PickerId`]), the
//! window of points they show ([`Window`], [`Pan`]), the Play button under a board in play and
//! the picker's own rows.
//!
//! Beside the other buttons, below the module that handles the clicks
//! ([`crate::discord::picker`]): the board's rows ([`super::board_rows`]) are composed without
//! importing the click handlers, which post boards themselves.

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow, CreateButton};

use crate::i18n::{I18n, Lang};
use crate::rules::{Action, Game, Phase, Point};
use crate::service::{GameId, GameView};

const PREFIX: &str = "gp";
/// Columns of the window.
pub const WIDTH: u8 = 5;
/// Rows of the window.
pub const HEIGHT: u8 = 4;
/// How far one pan moves the window: all but one column (row), so that some context stays.
const STEP_COLS: u8 = WIDTH - 1;
const STEP_ROWS: u8 = HEIGHT - 1;

/// Where the window lies: its bottom-left point's column and row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// Leftmost column, from 0.
    pub col: u8,
    /// Bottom row, from 0.
    pub row: u8,
}

impl Window {
    /// The window on a board of `size` with its corner at (col, row), kept on the board.
    pub fn clamped(col: i32, row: i32, size: u8) -> Window {
        let max_col = i32::from(size.saturating_sub(WIDTH));
        let max_row = i32::from(size.saturating_sub(HEIGHT));
        Window {
            col: col.clamp(0, max_col) as u8,
            row: row.clamp(0, max_row) as u8,
        }
    }

    /// The window around a point (it sits in the middle column, second row from the top).
    pub fn around(p: Point, size: u8) -> Window {
        Window::clamped(
            i32::from(p.col()) - i32::from(WIDTH / 2),
            i32::from(p.row()) - i32::from(HEIGHT / 2),
            size,
        )
    }

    /// The window a game's picker opens on: around the last stone, else the centre.
    pub fn start(game: &Game) -> Window {
        let size = game.size();
        Window::around(
            game.last_stone().unwrap_or_else(|| Point::centre(size)),
            size,
        )
    }

    /// The window moved one step in a direction.
    pub fn pan(self, dir: Pan, size: u8) -> Window {
        let (c, r) = (i32::from(self.col), i32::from(self.row));
        let (sc, sr) = (i32::from(STEP_COLS), i32::from(STEP_ROWS));
        match dir {
            Pan::Left => Window::clamped(c - sc, r, size),
            Pan::Right => Window::clamped(c + sc, r, size),
            Pan::Up => Window::clamped(c, r + sr, size),
            Pan::Down => Window::clamped(c, r - sr, size),
        }
    }
}

/// A direction to move the window.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pan {
    /// Towards column A.
    Left,
    /// Towards the last column.
    Right,
    /// Towards the top row.
    Up,
    /// Towards row 1.
    Down,
}

impl Pan {
    const ALL: [Pan; 4] = [Pan::Left, Pan::Up, Pan::Down, Pan::Right];

    fn tag(self) -> char {
        match self {
            Pan::Left => 'l',
            Pan::Right => 'r',
            Pan::Up => 'u',
            Pan::Down => 'd',
        }
    }

    fn arrow(self) -> &'static str {
        match self {
            Pan::Left => "◀",
            Pan::Right => "▶",
            Pan::Up => "▲",
            Pan::Down => "▼",
        }
    }
}

/// A picker component.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PickerId {
    /// The Play button under a board: open a picker.
    Open {
        /// The game.
        game: GameId,
        /// The ply the board showed.
        ply: u32,
    },
    /// Show another window (`tag`: the direction, or `c` for re-centre).
    Window {
        /// The game.
        game: GameId,
        /// The ply the picker was made for.
        ply: u32,
        /// The window to show.
        to: Window,
        /// Which button (ids of one message must differ).
        tag: char,
    },
    /// Play a point.
    Point {
        /// The game.
        game: GameId,
        /// The ply the picker was made for.
        ply: u32,
        /// The window it was shown in.
        window: Window,
        /// The point.
        point: Point,
    },
}

impl PickerId {
    /// The `custom_id`.
    pub fn custom_id(&self) -> String {
        match self {
            PickerId::Open { game, ply } => format!("{PREFIX}:o:{}:{ply}", game.0),
            PickerId::Window { game, ply, to, tag } => {
                format!("{PREFIX}:w:{}:{ply}:{}:{}:{tag}", game.0, to.col, to.row)
            }
            PickerId::Point {
                game,
                ply,
                window,
                point,
            } => format!(
                "{PREFIX}:p:{}:{ply}:{}:{}:{}",
                game.0,
                window.col,
                window.row,
                point.name()
            ),
        }
    }

    /// Reads a `custom_id`; `None` for anything else. Windows and points are checked against
    /// the game's board when clicked.
    pub fn parse(id: &str) -> Option<PickerId> {
        let parts: Vec<&str> = id.split(':').collect();
        if parts.first() != Some(&PREFIX) {
            return None;
        }
        let game = GameId(parts.get(2)?.parse().ok()?);
        let ply: u32 = parts.get(3)?.parse().ok()?;
        let window = |c: &str, r: &str| {
            Some(Window {
                col: c.parse().ok()?,
                row: r.parse().ok()?,
            })
        };
        match (parts[1], &parts[4..]) {
            ("o", []) => Some(PickerId::Open { game, ply }),
            ("w", [c, r, tag]) => {
                let mut chars = tag.chars();
                let tag = chars.next().filter(|t| "lrudc".contains(*t))?;
                if chars.next().is_some() {
                    return None;
                }
                Some(PickerId::Window {
                    game,
                    ply,
                    to: window(c, r)?,
                    tag,
                })
            }
            ("p", [c, r, p]) => Some(PickerId::Point {
                game,
                ply,
                window: window(c, r)?,
                // Any board size up to 26: the real size is checked on click.
                point: Point::parse(p, 26).ok()?,
            }),
            _ => None,
        }
    }
}

/// The Play button under a board in play (none once over, or outside stone placing).
pub fn play_buttons(i18n: &I18n, lang: Lang, view: &GameView) -> Vec<CreateActionRow> {
    let placing = matches!(view.game.phase(), Phase::Playing | Phase::Placing { .. });
    if view.is_over() || !placing || view.to_act().is_none() {
        return Vec::new();
    }
    vec![CreateActionRow::Buttons(vec![
        CreateButton::new(
            PickerId::Open {
                game: view.id,
                ply: view.ply,
            }
            .custom_id(),
        )
        .label(i18n.get(lang, "picker-play"))
        .style(ButtonStyle::Primary),
    ])]
}

/// The emoji of a stone colour on a button.
fn stone_emoji(colour: u8) -> &'static str {
    match colour {
        1 => "⚫",
        2 => "⚪",
        3 => "🔴",
        _ => "🔵",
    }
}

/// The picker's buttons: 4 rows of 5 points (top row first), then the window's controls.
pub fn picker_rows(i18n: &I18n, lang: Lang, view: &GameView, w: Window) -> Vec<CreateActionRow> {
    let game = &view.game;
    let size = game.size();
    let forbidden = game.forbidden_points();
    let mut rows = Vec::with_capacity(usize::from(HEIGHT) + 1);
    for dr in (0..HEIGHT).rev() {
        let mut buttons = Vec::with_capacity(usize::from(WIDTH));
        for dc in 0..WIDTH {
            let Ok(p) = Point::new(w.col + dc, w.row + dr, size) else {
                continue;
            };
            let id = PickerId::Point {
                game: view.id,
                ply: view.ply,
                window: w,
                point: p,
            }
            .custom_id();
            let b = CreateButton::new(id);
            let b = match game.stone_at(p) {
                Some(c) => b
                    .label(format!("{} {}", stone_emoji(c), p.name()))
                    .style(ButtonStyle::Secondary)
                    .disabled(true),
                None if forbidden.contains(&p) => b
                    .label(format!("✖ {}", p.name()))
                    .style(ButtonStyle::Danger)
                    .disabled(true),
                None if game.check(Action::Place(p)).is_err() => b
                    .label(p.name())
                    .style(ButtonStyle::Secondary)
                    .disabled(true),
                None => b.label(p.name()).style(ButtonStyle::Primary),
            };
            buttons.push(b);
        }
        if !buttons.is_empty() {
            rows.push(CreateActionRow::Buttons(buttons));
        }
    }
    let mut controls: Vec<CreateButton> = Pan::ALL
        .into_iter()
        .map(|dir| {
            let to = w.pan(dir, size);
            CreateButton::new(
                PickerId::Window {
                    game: view.id,
                    ply: view.ply,
                    to,
                    tag: dir.tag(),
                }
                .custom_id(),
            )
            .label(dir.arrow())
            .style(ButtonStyle::Secondary)
            .disabled(to == w)
        })
        .collect();
    let centre = Window::start(game);
    controls.insert(
        2,
        CreateButton::new(
            PickerId::Window {
                game: view.id,
                ply: view.ply,
                to: centre,
                tag: 'c',
            }
            .custom_id(),
        )
        .label(i18n.get(lang, "picker-centre"))
        .style(ButtonStyle::Secondary)
        .disabled(centre == w),
    );
    rows.push(CreateActionRow::Buttons(controls));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::service::UserId;
    use proptest::prelude::*;

    #[test]
    fn ids_round_trip_and_fit_discord() {
        let k10 = Point::parse("K10", 19).unwrap();
        let w = Window { col: 14, row: 15 };
        for id in [
            PickerId::Open {
                game: GameId(i64::MAX),
                ply: u32::MAX,
            },
            PickerId::Window {
                game: GameId(i64::MAX),
                ply: u32::MAX,
                to: w,
                tag: 'c',
            },
            PickerId::Point {
                game: GameId(i64::MAX),
                ply: u32::MAX,
                window: w,
                point: k10,
            },
        ] {
            let s = id.custom_id();
            assert!(s.len() <= 100, "{s}");
            assert_eq!(PickerId::parse(&s), Some(id), "{s}");
        }
        for bad in [
            "gp",
            "gp:o:1",
            "gp:o:x:1",
            "gp:w:1:2:3:4:z",
            "gp:w:1:2:3:4:lr",
            "gp:p:1:2:3:4:I9",
            "gp:p:1:2:3:4",
            "gb:o:1:2",
            "gp:q:1:2",
        ] {
            assert_eq!(PickerId::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn windows_start_at_the_last_stone_and_stay_on_the_board() {
        let g = crate::cli::play_tokens(
            crate::rules::RuleSet::preset(crate::rules::Preset::Gomoku),
            "A1",
        )
        .0;
        assert_eq!(Window::start(&g), Window { col: 0, row: 0 });
        let empty = Game::new(crate::rules::RuleSet::preset(crate::rules::Preset::Pente));
        let w = Window::start(&empty);
        // K10, the centre of 19x19, in the middle column.
        assert_eq!(w, Window { col: 7, row: 7 });
        assert_eq!(w.pan(Pan::Left, 19), Window { col: 3, row: 7 });
        assert_eq!(
            w.pan(Pan::Left, 19).pan(Pan::Left, 19),
            Window { col: 0, row: 7 }
        );
        assert_eq!(w.pan(Pan::Up, 19), Window { col: 7, row: 10 });
    }

    fn view_of(game: Game) -> GameView {
        use crate::service::{ChannelId, GameStatus, GuildId, SeatView, TimeControl, Timestamp};
        GameView {
            id: GameId(3),
            guild: GuildId(1),
            channel: ChannelId(100),
            thread: None,
            board_message: None,
            challenge: None,
            seats: (1..=2)
                .map(|s| SeatView {
                    seat: s,
                    user: UserId(10 + u64::from(s)),
                    name: format!("P{s}"),
                    colour: s,
                })
                .collect(),
            ply: game.record().len() as u32,
            game,
            time: TimeControl::DaysPerMove(1),
            deadline: None,
            rated: false,
            against_computer: false,
            status: GameStatus::Active,
            created_at: Timestamp(0),
            updated_at: Timestamp(0),
        }
    }

    /// Every button of the rows as (label, custom_id, disabled), top row first.
    fn buttons(rows: &[CreateActionRow]) -> Vec<Vec<(String, String, bool)>> {
        rows.iter()
            .map(|r| {
                let v = serde_json::to_value(r).unwrap();
                v["components"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| {
                        (
                            b["label"].as_str().unwrap_or_default().to_string(),
                            b["custom_id"].as_str().unwrap_or_default().to_string(),
                            b["disabled"].as_bool().unwrap_or(false),
                        )
                    })
                    .collect()
            })
            .collect()
    }

    #[test]
    fn renju_forbidden_points_and_stones_are_disabled_and_marked() {
        let rules = crate::cli::rule_set("renju", &["opening=none".to_string()]).unwrap();
        let (game, e) = crate::cli::play_tokens(rules, "F8 A15 G8 D15 H9 G15 H10 L15");
        assert!(e.is_none());
        assert_eq!(
            game.forbidden_points(),
            vec![Point::parse("H8", 15).unwrap()]
        );
        let view = view_of(game);
        let i18n = I18n::load();
        // A window around H8 (the last stone is L15, far away).
        let w = Window::around(Point::parse("H8", 15).unwrap(), 15);
        let rows = buttons(&picker_rows(&i18n, Lang::En, &view, w));
        assert_eq!(rows.len(), 5);
        assert!(rows[..4].iter().all(|r| r.len() == 5));
        let all: Vec<&(String, String, bool)> = rows[..4].iter().flatten().collect();
        let find = |name: &str| {
            all.iter()
                .find(|b| b.1.ends_with(&format!(":{name}")))
                .copied()
                .unwrap_or_else(|| panic!("{name} in {all:?}"))
        };
        assert_eq!(find("H8").0, "✖ H8");
        assert!(find("H8").2, "forbidden: disabled");
        assert_eq!(find("G8").0, "⚫ G8");
        assert!(find("G8").2);
        assert_eq!(find("J8").0, "J8");
        assert!(!find("J8").2);
        // Rows 6 to 9, the highest on top; columns F to K (no I).
        assert!(rows[0].iter().any(|b| b.1.ends_with(":H9")));
        assert!(rows[3].iter().any(|b| b.1.ends_with(":H6")));
        assert_eq!(
            rows[3].iter().map(|b| b.0.as_str()).collect::<Vec<_>>(),
            ["F6", "G6", "H6", "J6", "K6"]
        );
        // Controls: four arrows and the re-centre, none disabled in mid-board but ◎ (the
        // window is not around the last stone, L15).
        let controls = &rows[4];
        assert_eq!(
            controls.iter().map(|b| b.0.as_str()).collect::<Vec<_>>(),
            ["◀", "▲", "◎", "▼", "▶"]
        );
        assert!(controls.iter().all(|b| !b.2));
        let ids: std::collections::HashSet<&String> = rows.iter().flatten().map(|b| &b.1).collect();
        assert_eq!(ids.len(), 25, "ids of one message differ");
        // White to move has no forbidden points: the same window after a white stone.
        let mut g2 = view.game.clone();
        g2.apply_token("A1").unwrap();
        let rows = buttons(&picker_rows(&i18n, Lang::En, &view_of(g2), w));
        let h8 = rows[..4]
            .iter()
            .flatten()
            .find(|b| b.1.ends_with(":H8"))
            .unwrap();
        assert_eq!((h8.0.as_str(), h8.2), ("H8", false));
    }

    proptest! {
        #[test]
        fn every_window_fits_and_pans_reach_every_edge(col in -30i32..30, row in -30i32..30, size in prop::sample::select(vec![9u8, 13, 15, 19])) {
            let mut w = Window::clamped(col, row, size);
            prop_assert!(w.col + WIDTH <= size && w.row + HEIGHT <= size);
            for dir in Pan::ALL {
                for _ in 0..size {
                    w = w.pan(dir, size);
                    prop_assert!(w.col + WIDTH <= size && w.row + HEIGHT <= size);
                }
                match dir {
                    Pan::Left => prop_assert_eq!(w.col, 0),
                    Pan::Right => prop_assert_eq!(w.col, size - WIDTH),
                    Pan::Down => prop_assert_eq!(w.row, 0),
                    Pan::Up => prop_assert_eq!(w.row, size - HEIGHT),
                }
            }
        }
    }
}
