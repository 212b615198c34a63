//! Board pictures: a PNG of any position and an animated GIF replay of a whole game.
//!
//! Rendering is a pure function of (position, names, options): no IO, no global state
//! besides read-only caches built on first use, so it is safe to call from many threads.
//!
//! ```no_run
//! use gomoku_bot::render::{RenderOptions, Theme, render_png};
//! use gomoku_bot::rules::{Game, Preset, RuleSet};
//!
//! let mut game = Game::new(RuleSet::preset(Preset::Pente));
//! game.apply_token("K10").unwrap();
//! let names = ["Ann".to_string(), "Bo".to_string()];
//! let opts = RenderOptions { theme: Theme::Dark, ..RenderOptions::default() };
//! let png: Vec<u8> = render_png(&game, &names, &opts);
//! ```
//!
//! # API
//! - [`render_png`]: one position as a PNG; [`render_png_with_tentative`] adds a translucent
//!   stone for a move awaiting confirmation.
//! - [`render_replay_gif`]: a whole game as an animated GIF, one frame per action.
//! - [`RenderOptions`] (theme, coordinates, last-move highlight, footer [`Labels`]) and
//!   [`picture_size`] for the dimensions of a game's pictures.
//!
//! Names are given by seat (seat 1 first), as the service knows them; each footer row names
//! the seat that plays its colour, so after a swap the right person stands by each colour.
//!
//! # What a picture shows
//! A square wooden board (grid, star points, coordinates A-T without I along the top and
//! bottom, 1-N from the bottom along the sides) and below it a footer band, so that the
//! picture is never square (some mobile clients crop square pictures). Stones are shaded and
//! anti-aliased: colour 1 black, 2 white, 3 vermilion with a ring, 4 blue with a diamond, so
//! the four stay apart by brightness or mark, not by hue alone. The last stone carries a dot,
//! the stones it captured stay as faint crossed-out ghosts, a winning line is drawn through its
//! stones, and a line waiting for the extra-time capture is drawn dashed. In Renju, while
//! black is to move, each of black's forbidden points carries a small red cross (unless
//! [`RenderOptions::forbidden_marks`] is off), and the fifth moves offered in a tournament
//! opening are translucent black stones numbered in the order of the offer.
//!
//! The footer has one row per colour (seats are named through `Game::seat_of_colour`, so a
//! swap shows the right person): a ▶ before the player who acts, a ★ before a winner, the
//! stone, the name (cleaned of control characters, shortened with an ellipsis) and the
//! captures (pairs, or stones when triples are captured too). The last row is the move
//! number and whose turn it is, or who won. Words come from [`Labels`] so callers can
//! localise them.
//!
//! # How it is fast and small
//! Pictures are drawn with a fixed 255-colour palette per theme and stored as palette PNGs
//! (about 60 KB for a 19x19 board with 90 stones; rows filtered with `Up`, deflate level 2
//! through `zlib-rs`). The board with its grid and labels, the stone sprites and the palette
//! lookup table are cached; a picture copies the cached board and redraws only the cells
//! that hold a stone or a line, then the footer.
//!
//! Deflating is most of a picture's cost, so the PNG's image data is deflated in horizontal
//! bands (a row of points, a footer row), each on its own and kept in a bounded cache shared
//! by all threads, keyed by the band's content: the next picture of a game only deflates
//! the bands its move changed. The file does not depend on what the cache holds; see
//! [`png_cache_stats`] for its size.
//!
//! A picture is also drawn over the last one drawn with the same names and options (in
//! practice the same game's board a move earlier, kept in a second bounded cache): only the
//! cells whose content differs and the footer are repainted, and only the bands holding a
//! repainted row are hashed again. The file is the same as a full redraw's.

mod cache;
mod chart;
mod compose;
mod deflate;
mod encode;
mod fonts;
mod incremental;
mod layout;
mod marks;
mod paint;
mod sanitize;
mod scene;
mod standings;
mod text;
mod theme;

use thiserror::Error;

use crate::rules::{Action, Game, PlayError, Point, RuleSet};

pub use chart::{
    CHART_HEIGHT, CHART_WIDTH, Chart, ChartMark, DrawnChart, MarkKind, draw_chart, render_chart_png,
};
use compose::compose_indexed;
pub use deflate::CacheStats as PngCacheStats;
use layout::Layout;
use scene::Scene;
pub use standings::{
    DrawnTable, StandingsRow, StandingsTable, draw_standings, render_standings_png,
};
pub use text::name_strip;
pub use theme::{Theme, UnknownTheme};

/// The footer's words, so that the caller can translate them. English by default.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Labels {
    /// Before the number of the move that comes next, while the game is played: "Move 37"
    /// (36 stones are on the record; the 37th is to be played).
    pub move_word: String,
    /// After the stone of the colour to move: "Move 37 · ● to play".
    pub to_move: String,
    /// After a count of one move played: "1 move" (a finished game, a colour choice).
    pub move_played: String,
    /// After a count of moves played other than one: "90 moves".
    pub moves_played: String,
    /// After the winners' stones: "● wins".
    pub wins: String,
    /// The result of a full board.
    pub draw: String,
    /// Unit of captures counted in pairs: "3/5 pairs".
    pub pairs: String,
    /// Unit of captures counted in stones (when triples are captured too): "6/15 stones".
    pub stones: String,
    /// Status while a seat chooses its colour (swap openings).
    pub choose_colour: String,
    /// Stand-in name for a seat without a usable name: "Player 2".
    pub player: String,
}

impl Default for Labels {
    fn default() -> Self {
        Labels {
            move_word: "Move".into(),
            to_move: "to play".into(),
            move_played: "move".into(),
            moves_played: "moves".into(),
            wins: "wins".into(),
            draw: "Draw".into(),
            pairs: "pairs".into(),
            stones: "stones".into(),
            choose_colour: "choosing colours".into(),
            player: "Player".into(),
        }
    }
}

/// How to draw: the player preferences of seed 000 plus a theme.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RenderOptions {
    /// Light or dark.
    pub theme: Theme,
    /// Letters and numbers along the board's edges.
    pub coordinates: bool,
    /// A dot on the last stone played.
    pub highlight_last: bool,
    /// Renju: a small red cross on each of black's forbidden points while black is to move.
    pub forbidden_marks: bool,
    /// The footer's words.
    pub labels: Labels,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            theme: Theme::Light,
            coordinates: true,
            highlight_last: true,
            forbidden_marks: true,
            labels: Labels::default(),
        }
    }
}

/// Why a replay could not be drawn.
#[derive(Debug, Error)]
pub enum RenderError {
    /// An action of the record was refused by the rules.
    #[error("action {index} ({action}) is refused: {error}")]
    Refused {
        /// Index of the action, from 0.
        index: usize,
        /// The action.
        action: Action,
        /// Why the rules refused it.
        error: PlayError,
    },
    /// The GIF encoder failed.
    #[error("GIF encoding failed: {0}")]
    Gif(#[from] gif::EncodingError),
}

/// A drawn picture in palette indices.
struct Picture {
    width: u32,
    height: u32,
    idx: Vec<u8>,
    /// First rows of the bands the PNG encoder deflates and caches apart.
    bands: Vec<u32>,
}

fn draw(scene: &Scene, players: usize, opts: &RenderOptions) -> Picture {
    let theme = opts.theme;
    let assets = cache::theme_assets(theme);
    let bg = cache::background(scene.size, theme, opts.coordinates);
    let layout = Layout::new(scene.size, opts.coordinates, players as u32);
    let idx = compose_indexed(
        scene,
        &layout,
        &bg,
        &assets.icons,
        theme.colours(),
        &assets.quant,
    );
    Picture {
        width: layout.width,
        height: layout.height(),
        idx,
        bands: layout.band_starts(),
    }
}

/// The scene of a game as `opts` ask for it: with black's forbidden points marked in Renju
/// unless they are turned off.
fn scene(game: &Game, players: &[String], opts: &RenderOptions, t: Option<Point>) -> Scene {
    let mut scene = Scene::of_game(game, players, &opts.labels, opts.highlight_last, t);
    if opts.forbidden_marks {
        scene.mark_forbidden(&marks::forbidden(game));
    }
    scene
}

fn picture(game: &Game, players: &[String], opts: &RenderOptions, t: Option<Point>) -> Picture {
    let scene = scene(game, players, opts, t);
    draw(&scene, scene.rows.len(), opts)
}

fn to_png(p: &Picture, theme: Theme, cache: Option<&deflate::BandCache>) -> Vec<u8> {
    let palette = &cache::theme_assets(theme).quant.palette;
    // A picture of the renderer's own dimensions and palette always encodes.
    encode::png(p.width, p.height, palette, &p.idx, &p.bands, cache)
        .expect("the renderer's pictures have valid dimensions and palettes")
}

/// Encodes `scene` incrementally: from the last picture drawn for the same names, options
/// and rules, through the shared caches (see `incremental`).
fn render_scene(scene: &Scene, players: &[String], opts: &RenderOptions) -> Vec<u8> {
    let series = incremental::series(players, opts, scene.size, scene.rows.len());
    incremental::render(incremental::shared(), series, scene, opts).0
}

/// Draws a position as a PNG.
///
/// `players` names the seats, seat 1 first; missing or empty names become "Player N".
///
/// The picture is drawn over the last one drawn with the same names and options when there
/// is one (the board of the same game, a move earlier): only what differs is repainted and
/// re-encoded. The file is the same as a full redraw's.
pub fn render_png(game: &Game, players: &[String], opts: &RenderOptions) -> Vec<u8> {
    render_scene(&scene(game, players, opts, None), players, opts)
}

/// Draws a position as [`render_png`] does, but in full, without starting from an earlier
/// picture: the same file, at the cost before incremental pictures; for benchmarks.
#[doc(hidden)]
pub fn render_png_full(game: &Game, players: &[String], opts: &RenderOptions) -> Vec<u8> {
    to_png(
        &picture(game, players, opts, None),
        opts.theme,
        Some(deflate::shared()),
    )
}

/// Draws a position with a translucent stone of the mover's colour on `tentative`, to
/// confirm a move before it is played. A point that is occupied, off the board, or not
/// playable now (game over, colour choice due) is not drawn.
pub fn render_png_with_tentative(
    game: &Game,
    players: &[String],
    opts: &RenderOptions,
    tentative: Point,
) -> Vec<u8> {
    render_scene(&scene(game, players, opts, Some(tentative)), players, opts)
}

/// Draws a position with a translucent stone of `colour` on `alternative`: a review's
/// better move, shown on the board after the move that was played instead. An occupied or
/// off-board point is not drawn.
pub fn render_png_with_alternative(
    game: &Game,
    players: &[String],
    opts: &RenderOptions,
    alternative: Point,
    colour: u8,
) -> Vec<u8> {
    let mut scene = scene(game, players, opts, None);
    let size = game.size();
    let on_board = alternative.col() < size && alternative.row() < size;
    if on_board && game.stone_at(alternative).is_none() && (1..=4).contains(&colour) {
        scene.stones.retain(|s| s.0 != alternative);
        scene.marks.retain(|m| m.0 != alternative);
        scene
            .stones
            .push((alternative, colour, paint::Look::Tentative));
    }
    render_scene(&scene, players, opts)
}

/// Builds every cache (both themes' palettes, all board sizes with and without coordinates)
/// so that the first pictures after start-up are as fast as the rest. Optional: caches are
/// otherwise built on first use.
pub fn warm_up() {
    for theme in Theme::ALL {
        for size in [9, 13, 15, 19] {
            for coordinates in [true, false] {
                cache::background(size, theme, coordinates);
            }
        }
    }
}

/// Size and counters of the cache of deflated picture bands that every thread's
/// [`render_png`] shares. It holds at most about 16 MiB ([`PngCacheStats::bytes`]).
pub fn png_cache_stats() -> PngCacheStats {
    deflate::shared().stats()
}

/// Empties the shared cache of deflated picture bands (resetting its counters) and the one
/// of the last pictures of each game; for benchmarks. Pictures stay the same, only slower
/// until the caches fill again.
#[doc(hidden)]
pub fn clear_png_cache() {
    deflate::shared().clear();
    incremental::shared().clear();
}

/// A position drawn in palette indices but not yet encoded: for the benchmark that times
/// drawing and encoding apart.
#[doc(hidden)]
pub struct DrawnPicture {
    picture: Picture,
    theme: Theme,
}

/// Draws a position as [`render_png`] does, without encoding it.
#[doc(hidden)]
pub fn draw_picture(game: &Game, players: &[String], opts: &RenderOptions) -> DrawnPicture {
    DrawnPicture {
        picture: picture(game, players, opts, None),
        theme: opts.theme,
    }
}

impl DrawnPicture {
    /// Width and height in pixels.
    pub fn dimensions(&self) -> (u32, u32) {
        (self.picture.width, self.picture.height)
    }

    /// The palette index of every pixel, row by row.
    pub fn indices(&self) -> &[u8] {
        &self.picture.idx
    }

    /// The palette: RGB triples.
    pub fn palette(&self) -> &[u8] {
        &cache::theme_assets(self.theme).quant.palette
    }

    /// The PNG as [`render_png`] makes it, through the shared band cache.
    pub fn encode(&self) -> Vec<u8> {
        to_png(&self.picture, self.theme, Some(deflate::shared()))
    }

    /// The same PNG, byte for byte, with every band deflated afresh and the cache left
    /// alone: what encoding the picture costs when nothing can be reused.
    pub fn encode_cold(&self) -> Vec<u8> {
        to_png(&self.picture, self.theme, None)
    }
}

/// Width and height in pixels of the pictures of a game with these rules.
pub fn picture_size(rules: &RuleSet, opts: &RenderOptions) -> (u32, u32) {
    let l = Layout::new(rules.size, opts.coordinates, u32::from(rules.players));
    (l.width, l.height())
}

/// How long each replay frame shows, in hundredths of a second: about half a minute for the
/// whole game, but never faster than 4 moves a second nor slower than 1 a second.
fn frame_delay(actions: usize) -> u16 {
    (3000 / actions.max(1)).clamp(25, 100) as u16
}

/// Hold of the final position, in hundredths of a second.
pub const REPLAY_HOLD: u16 = 400;

/// Draws a whole game as an animated GIF: the empty board, then one frame per action,
/// the last one held for [`REPLAY_HOLD`]; the animation loops.
///
/// # Errors
/// [`RenderError::Refused`] for an action the rules refuse (nothing is drawn then), or
/// [`RenderError::Gif`] if encoding fails.
pub fn render_replay_gif(
    rules: &RuleSet,
    actions: &[Action],
    players: &[String],
    opts: &RenderOptions,
) -> Result<Vec<u8>, RenderError> {
    // Check the whole record first: no half-drawn replay for a bad record.
    let mut game = Game::new(*rules);
    for (index, &action) in actions.iter().enumerate() {
        game.apply(action).map_err(|error| RenderError::Refused {
            index,
            action,
            error,
        })?;
    }
    let mut game = Game::new(*rules);
    let first = picture(&game, players, opts, None);
    let palette = &cache::theme_assets(opts.theme).quant.palette;
    let mut gif = encode::GifWriter::new(first.width, first.height, palette)?;
    let delay = frame_delay(actions.len());
    gif.frame(
        first.idx,
        if actions.is_empty() {
            REPLAY_HOLD
        } else {
            delay
        },
    )?;
    for (i, &action) in actions.iter().enumerate() {
        game.apply(action).map_err(|error| RenderError::Refused {
            index: i,
            action,
            error,
        })?;
        let p = picture(&game, players, opts, None);
        let d = if i + 1 == actions.len() {
            REPLAY_HOLD
        } else {
            delay
        };
        gif.frame(p.idx, d)?;
    }
    Ok(gif.finish()?)
}

#[cfg(test)]
mod tests;
