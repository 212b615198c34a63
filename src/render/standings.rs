//! A tournament's standings as a PNG table, in the boards' fonts, themes and palette.
//!
//! The caller gives the words (title, column headings, cells) so that it can localise them;
//! names are cleaned exactly as in the board footers (control and invisible characters
//! dropped, combining marks limited) and cut with an ellipsis when they do not fit. The table
//! is drawn straight in the theme's palette and stored as a palette PNG, one band per row.

use super::cache;
use super::compose::Indexed;
use super::encode;
use super::text;
use super::theme::{Colours, Rgb, Theme};

/// The table's width in pixels (as wide as a board picture).
const WIDTH: u32 = 800;
const MARGIN: f32 = 16.0;
const TITLE_EM: f32 = 24.0;
const SUBTITLE_EM: f32 = 17.0;
const HEAD_EM: f32 = 15.0;
const CELL_EM: f32 = 18.0;
const TITLE_H: u32 = 74;
const HEAD_H: u32 = 34;
const ROW_H: u32 = 30;
const BOTTOM: u32 = 12;
/// Width of the rank column.
const RANK_W: f32 = 48.0;
/// The narrowest number column after the name.
const NUMBER_W: f32 = 70.0;

/// One line of the table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StandingsRow {
    /// The rank as shown (`1`, or `=2` for a shared rank).
    pub rank: String,
    /// The player's name, as given (it is cleaned here).
    pub name: String,
    /// The cells after the name (points, tiebreaks, games), right-aligned.
    pub cells: Vec<String>,
    /// A winner: the rank is drawn with a star, in the accent colour.
    pub winner: bool,
    /// Withdrawn: drawn muted.
    pub withdrawn: bool,
}

/// A whole table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StandingsTable {
    /// The first line: the tournament's name.
    pub title: String,
    /// The second line: the round, or "final standings".
    pub subtitle: String,
    /// Headings: the rank's, the name's, then one per cell.
    pub headings: Vec<String>,
    /// The lines, leader first.
    pub rows: Vec<StandingsRow>,
}

/// A table drawn in palette indices, not yet encoded (for benchmarks and tests).
pub struct DrawnTable {
    width: u32,
    height: u32,
    idx: Vec<u8>,
    bands: Vec<u32>,
    theme: Theme,
}

impl DrawnTable {
    /// Width and height in pixels.
    pub fn dimensions(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    /// The PNG.
    pub fn encode(&self) -> Vec<u8> {
        let palette = &cache::theme_assets(self.theme).quant.palette;
        // A table of the renderer's own dimensions and palette always encodes.
        encode::png(
            self.width,
            self.height,
            palette,
            &self.idx,
            &self.bands,
            None,
        )
        .expect("the renderer's tables have valid dimensions and palettes")
    }
}

/// Fills the rows `y0..y1` of the table with `c` (a heading band, a stripe).
fn fill_rows(buf: &mut Indexed<'_>, y0: u32, y1: u32, c: Rgb) {
    let i = buf.quant.index_of(c);
    let w = buf.width as usize;
    let (y0, y1) = (y0.min(buf.height) as usize, y1.min(buf.height) as usize);
    buf.idx[y0 * w..y1 * w].fill(i);
}

fn mix(a: Rgb, b: Rgb, t: f32) -> Rgb {
    let m = |x: u8, y: u8| (f32::from(x) + (f32::from(y) - f32::from(x)) * t).round() as u8;
    [m(a[0], b[0]), m(a[1], b[1]), m(a[2], b[2])]
}

/// Draws text right-aligned at `right`.
fn right_aligned(buf: &mut Indexed<'_>, s: &str, em: f32, right: f32, baseline: f32, c: Rgb) {
    let t = text::shape(s, em);
    text::draw(buf, &t, right - t.width, baseline, c);
}

/// Draws the table without encoding it.
pub fn draw_standings(table: &StandingsTable, theme: Theme) -> DrawnTable {
    let assets = cache::theme_assets(theme);
    let colours: &Colours = theme.colours();
    let rows = table.rows.len() as u32;
    let height = TITLE_H + HEAD_H + rows.max(1) * ROW_H + BOTTOM;
    let mut buf = Indexed {
        width: WIDTH,
        height,
        idx: vec![assets.quant.index_of(colours.footer); (WIDTH * height) as usize],
        quant: &assets.quant,
    };
    let w = WIDTH as f32;
    let cells = table
        .headings
        .len()
        .saturating_sub(2)
        .max(table.rows.iter().map(|r| r.cells.len()).max().unwrap_or(0));
    // Each number column as wide as its widest heading or cell (at least NUMBER_W), so that
    // long headings in any language stay whole.
    let widths: Vec<f32> = (0..cells)
        .map(|k| {
            let heading = table
                .headings
                .get(k + 2)
                .map_or(0.0, |h| text::shape(h, HEAD_EM).width);
            let widest = table
                .rows
                .iter()
                .filter_map(|r| r.cells.get(k))
                .map(|c| text::shape(c, CELL_EM).width)
                .fold(heading, f32::max);
            (widest + 18.0).clamp(NUMBER_W, 2.0 * NUMBER_W)
        })
        .collect();
    let name_x = MARGIN + RANK_W + 8.0;
    let name_right = (w - MARGIN - widths.iter().sum::<f32>() - 8.0).max(name_x + 120.0);
    let cell_right = |k: usize| name_right + 8.0 + widths.iter().take(k + 1).sum::<f32>();
    let cell_width = |k: usize| widths.get(k).copied().unwrap_or(NUMBER_W) - 6.0;

    // Title and subtitle.
    let (title, cut) = text::sanitize(&table.title);
    let shaped = text::fit(&title, TITLE_EM, w - 2.0 * MARGIN, cut);
    text::draw(&mut buf, &shaped, MARGIN, 34.0, colours.text);
    let shaped = text::fit(&table.subtitle, SUBTITLE_EM, w - 2.0 * MARGIN, false);
    text::draw(&mut buf, &shaped, MARGIN, 60.0, colours.muted);

    // Headings on a band of the rule colour.
    let head_top = TITLE_H;
    fill_rows(&mut buf, head_top, head_top + HEAD_H, colours.footer_rule);
    let base = (head_top + HEAD_H / 2) as f32 + text::cap_height(HEAD_EM) / 2.0;
    if let Some(h) = table.headings.first() {
        right_aligned(&mut buf, h, HEAD_EM, MARGIN + RANK_W, base, colours.text);
    }
    if let Some(h) = table.headings.get(1) {
        let shaped = text::fit(h, HEAD_EM, (name_right - name_x).max(0.0), false);
        text::draw(&mut buf, &shaped, name_x, base, colours.text);
    }
    for (k, h) in table.headings.iter().skip(2).enumerate() {
        let shaped = text::fit(h, HEAD_EM, cell_width(k), false);
        text::draw(
            &mut buf,
            &shaped,
            cell_right(k) - shaped.width,
            base,
            colours.text,
        );
    }

    // Rows, every other one on a faint stripe.
    let stripe = mix(colours.footer, colours.footer_rule, 0.35);
    for (i, row) in table.rows.iter().enumerate() {
        let top = TITLE_H + HEAD_H + i as u32 * ROW_H;
        if i % 2 == 1 {
            fill_rows(&mut buf, top, top + ROW_H, stripe);
        }
        let base = (top + ROW_H / 2) as f32 + text::cap_height(CELL_EM) / 2.0;
        let (main, soft) = if row.withdrawn {
            (colours.muted, colours.muted)
        } else {
            (colours.text, colours.muted)
        };
        let rank_colour = if row.winner { colours.accent } else { soft };
        if row.winner {
            let star = text::shape("★", CELL_EM);
            text::draw(&mut buf, &star, MARGIN - 4.0, base, colours.accent);
        }
        right_aligned(
            &mut buf,
            &row.rank,
            CELL_EM,
            MARGIN + RANK_W,
            base,
            rank_colour,
        );
        let (clean, cut) = text::sanitize(&row.name);
        let shaped = text::fit(&clean, CELL_EM, (name_right - name_x).max(0.0), cut);
        // Tall or overhanging glyphs stay in the name's cell.
        let clip = (
            name_x as i32 - 4,
            top as i32,
            name_right.ceil() as i32 + 2,
            (top + ROW_H) as i32,
        );
        text::draw_in(&mut buf, &shaped, name_x, base, main, clip);
        for (k, c) in row.cells.iter().enumerate() {
            // The points stand out; tiebreaks and games are muted.
            let colour = if k == 0 { main } else { soft };
            let shaped = text::fit(c, CELL_EM, cell_width(k), false);
            text::draw(
                &mut buf,
                &shaped,
                cell_right(k) - shaped.width,
                base,
                colour,
            );
        }
    }
    let mut bands = vec![0, TITLE_H, TITLE_H + HEAD_H];
    bands.extend((1..rows).map(|i| TITLE_H + HEAD_H + i * ROW_H));
    DrawnTable {
        width: WIDTH,
        height,
        idx: buf.idx,
        bands,
        theme,
    }
}

/// Draws standings as a PNG.
pub fn render_standings_png(table: &StandingsTable, theme: Theme) -> Vec<u8> {
    draw_standings(table, theme).encode()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(rows: usize) -> StandingsTable {
        StandingsTable {
            title: "Winter Cup".into(),
            subtitle: "After round 2 of 5".into(),
            headings: ["#", "Player", "Pts", "BH", "SB", "Games"]
                .map(String::from)
                .to_vec(),
            rows: (0..rows)
                .map(|i| StandingsRow {
                    rank: (i + 1).to_string(),
                    name: format!("Player {i}"),
                    cells: vec!["2½".into(), "3".into(), "2.25".into(), "3".into()],
                    winner: i == 0,
                    withdrawn: i == 3,
                })
                .collect(),
        }
    }

    #[test]
    fn a_table_has_a_row_band_per_player_and_decodes() {
        let d = draw_standings(&table(64), Theme::Dark);
        assert_eq!(d.dimensions(), (800, 74 + 34 + 64 * 30 + 12));
        assert_eq!(d.bands.len(), 3 + 63);
        let png = d.encode();
        assert_eq!(&png[1..4], b"PNG");
        let empty = draw_standings(&table(0), Theme::Light);
        assert_eq!(empty.dimensions().1, 74 + 34 + 30 + 12);
        empty.encode();
    }

    #[test]
    fn hostile_names_are_cleaned_and_cut() {
        let mut t = table(2);
        t.rows[0].name = "\u{202E}evil\u{0000}".repeat(40);
        t.rows[1].name = "Z\u{0301}\u{0301}\u{0301}\u{0301}algo".into();
        let a = draw_standings(&t, Theme::Light);
        t.rows[0].name = "evil".repeat(40);
        t.rows[1].name = "Z\u{0301}\u{0301}\u{0301}algo".into();
        let b = draw_standings(&t, Theme::Light);
        assert_eq!(a.idx, b.idx, "the same picture once cleaned");
    }
}
