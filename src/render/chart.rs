//! A game review's win-chance chart as a PNG, in the boards' fonts, themes and palette.
//!
//! Move number across, the first colour's (black's) chance of winning from 0 to 100 % up:
//! the area under the curve is filled in the black stones' colour and the area above in the
//! white stones', so the picture reads like the board (more black, better for black). The
//! 50 % line is dashed; mistakes carry a dot in the accent colour, blunders a larger dot in
//! red, and turning points their move number above the dot.
//!
//! Drawn with the render module's own anti-aliased primitives rather than a plotting crate:
//! the chart is one filled curve, a few lines and labels; the module already has the fonts
//! (with the same fallbacks and right-to-left handling as the boards), both themes, the
//! palette and the PNG encoder, so a plotting crate (plotters and its own font stack) would add
//! a dependency tree and a second text renderer for no visible gain.

use super::cache;
use super::compose::Indexed;
use super::encode;
use super::paint::{Canvas, segment_distance};
use super::text;
use super::theme::{Colours, Theme};

/// The chart's width in pixels (as wide as a board picture).
pub const CHART_WIDTH: u32 = 800;
/// The chart's height in pixels.
pub const CHART_HEIGHT: u32 = 360;
const LEFT: f32 = 58.0;
const RIGHT: f32 = 18.0;
const TOP: f32 = 52.0;
const BOTTOM: f32 = 40.0;
const TITLE_EM: f32 = 20.0;
const LABEL_EM: f32 = 14.0;

/// How a point of the curve is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// A mistake.
    Mistake,
    /// A blunder.
    Blunder,
}

/// A marked move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChartMark {
    /// The position after the move (its index in [`Chart::chances`]; the move's number).
    pub ply: usize,
    /// Mistake or blunder.
    pub kind: MarkKind,
    /// Label it with its move number (a turning point).
    pub labelled: bool,
}

/// What to draw; the caller gives the words so that it can localise them.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Chart {
    /// The first line: "Black's chance of winning".
    pub title: String,
    /// Under the horizontal axis, after the numbers: "Move".
    pub move_word: String,
    /// The first colour's chance (0..1) after each action, the start first. Values outside
    /// 0..1 (or not numbers) are clamped (read as 50 %).
    pub chances: Vec<f64>,
    /// Marked moves.
    pub marks: Vec<ChartMark>,
}

/// A chart drawn in palette indices, not yet encoded (for benchmarks and tests).
pub struct DrawnChart {
    idx: Vec<u8>,
    theme: Theme,
}

impl DrawnChart {
    /// Width and height in pixels.
    pub fn dimensions(&self) -> (u32, u32) {
        (CHART_WIDTH, CHART_HEIGHT)
    }

    /// The PNG.
    pub fn encode(&self) -> Vec<u8> {
        let palette = &cache::theme_assets(self.theme).quant.palette;
        let bands: Vec<u32> = (0..CHART_HEIGHT).step_by(40).collect();
        // A chart of the renderer's own dimensions and palette always encodes.
        encode::png(CHART_WIDTH, CHART_HEIGHT, palette, &self.idx, &bands, None)
            .expect("the renderer's charts have valid dimensions and palettes")
    }
}

fn clean(c: f64) -> f32 {
    if c.is_nan() {
        0.5
    } else {
        c.clamp(0.0, 1.0) as f32
    }
}

/// A "nice" step for move-number ticks: about 8 labels across.
fn tick_step(moves: usize) -> usize {
    let raw = moves.div_ceil(8).max(1);
    [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500]
        .into_iter()
        .find(|&s| s >= raw)
        .unwrap_or(1000)
}

/// Draws the chart without encoding it.
pub fn draw_chart(chart: &Chart, theme: Theme) -> DrawnChart {
    let assets = cache::theme_assets(theme);
    let colours: &Colours = theme.colours();
    let mut buf = Indexed {
        width: CHART_WIDTH,
        height: CHART_HEIGHT,
        idx: vec![assets.quant.index_of(colours.footer); (CHART_WIDTH * CHART_HEIGHT) as usize],
        quant: &assets.quant,
    };
    let (x0, x1) = (LEFT, CHART_WIDTH as f32 - RIGHT);
    let (y0, y1) = (TOP, CHART_HEIGHT as f32 - BOTTOM);
    let n = chart.chances.len().saturating_sub(1).max(1);
    let px = |ply: usize| x0 + (x1 - x0) * ply as f32 / n as f32;
    let py = |c: f32| y1 - (y1 - y0) * c;
    let chance = |k: usize| clean(chart.chances.get(k).copied().unwrap_or(0.5));
    // The curve's height at any x, by linear interpolation between moves.
    let curve_at = |x: f32| -> f32 {
        if chart.chances.len() < 2 {
            return py(chance(0));
        }
        let t = ((x - x0) / (x1 - x0)).clamp(0.0, 1.0) * n as f32;
        let k = (t.floor() as usize).min(n - 1);
        let f = t - k as f32;
        py(chance(k) * (1.0 - f) + chance(k + 1) * f)
    };

    // The plot: white above the curve, black below, blended on the curve's edge.
    let black = colours.stones[0].body;
    let white = colours.stones[1].body;
    for x in x0.round() as i32..x1.round() as i32 {
        let yc = curve_at(x as f32 + 0.5);
        for y in y0.round() as i32..y1.round() as i32 {
            let cover = (y as f32 + 1.0 - yc).clamp(0.0, 1.0);
            buf.blend(x, y, white, 1.0);
            buf.blend(x, y, black, cover);
        }
    }
    // Grid: 25 % and 75 % faint, 50 % dashed.
    for (c, dashed) in [(0.25f32, false), (0.5, true), (0.75, false)] {
        let y = py(c).round() as i32;
        for x in x0.round() as i32..x1.round() as i32 {
            if dashed && (x / 6) % 2 == 1 {
                continue;
            }
            buf.blend(x, y, colours.muted, if dashed { 0.9 } else { 0.45 });
        }
    }
    // The frame.
    let frame = |buf: &mut Indexed<'_>, a: (f32, f32), b: (f32, f32)| {
        buf.paint_sdf(
            (a.0.min(b.0), a.1.min(b.1), a.0.max(b.0), a.1.max(b.1)),
            colours.muted,
            1.0,
            |x, y| segment_distance(x, y, a, b).0 - 0.6,
        );
    };
    frame(&mut buf, (x0, y0), (x1, y0));
    frame(&mut buf, (x0, y1), (x1, y1));
    frame(&mut buf, (x0, y0), (x0, y1));
    frame(&mut buf, (x1, y0), (x1, y1));
    // The curve itself.
    for k in 0..chart.chances.len().saturating_sub(1) {
        let a = (px(k), py(chance(k)));
        let b = (px(k + 1), py(chance(k + 1)));
        buf.paint_sdf(
            (a.0.min(b.0), a.1.min(b.1), a.0.max(b.0), a.1.max(b.1)),
            colours.accent,
            1.0,
            |x, y| segment_distance(x, y, a, b).0 - 1.3,
        );
    }
    // Marks.
    for m in &chart.marks {
        if m.ply >= chart.chances.len() {
            continue;
        }
        let (cx, cy) = (px(m.ply), py(chance(m.ply)));
        let (r, c) = match m.kind {
            MarkKind::Mistake => (4.5, colours.accent),
            MarkKind::Blunder => (6.0, colours.cross),
        };
        let ring = colours.stones[1].body;
        let bbox = (cx - r - 2.0, cy - r - 2.0, cx + r + 2.0, cy + r + 2.0);
        buf.paint_sdf(bbox, ring, 1.0, |x, y| (x - cx).hypot(y - cy) - (r + 1.5));
        buf.paint_sdf(bbox, c, 1.0, |x, y| (x - cx).hypot(y - cy) - r);
        if m.labelled {
            let label = text::shape(&m.ply.to_string(), LABEL_EM);
            // Above the dot, or below it when the dot is near the top.
            let base = if cy - r - 6.0 - text::cap_height(LABEL_EM) > y0 {
                cy - r - 6.0
            } else {
                cy + r + 6.0 + text::cap_height(LABEL_EM)
            };
            let lx = (cx - label.width / 2.0).clamp(x0 + 2.0, x1 - label.width - 2.0);
            let back = (
                lx - 3.0,
                base - text::cap_height(LABEL_EM) - 3.0,
                lx + label.width + 3.0,
                base + 3.0,
            );
            buf.paint_sdf(back, colours.footer, 0.85, |x, y| {
                let dx = (back.0 - x).max(x - back.2);
                let dy = (back.1 - y).max(y - back.3);
                dx.max(dy)
            });
            text::draw(&mut buf, &label, lx, base, colours.text);
        }
    }

    // Labels: title, percentages, move numbers.
    let (title, cut) = text::sanitize(&chart.title);
    let shaped = text::fit(&title, TITLE_EM, CHART_WIDTH as f32 - 2.0 * RIGHT, cut);
    text::draw(&mut buf, &shaped, x0, 32.0, colours.text);
    for (c, label) in [(0.0f32, "0%"), (0.5, "50%"), (1.0, "100%")] {
        let t = text::shape(label, LABEL_EM);
        let base = py(c) + text::cap_height(LABEL_EM) / 2.0;
        text::draw(&mut buf, &t, x0 - 8.0 - t.width, base, colours.muted);
    }
    let moves = chart.chances.len().saturating_sub(1);
    let step = tick_step(moves);
    let base = y1 + 8.0 + text::cap_height(LABEL_EM);
    let mut last_right = f32::MIN;
    // From the first step: the start (0) needs no number, and the word "Move" stands there.
    for k in (step..=moves).step_by(step) {
        let t = text::shape(&k.to_string(), LABEL_EM);
        let lx = (px(k) - t.width / 2.0).max(x0 - 4.0);
        if lx > last_right + 6.0 {
            text::draw(&mut buf, &t, lx, base, colours.muted);
            last_right = lx + t.width;
        }
    }
    let word = text::fit(&chart.move_word, LABEL_EM, x0 - 8.0, false);
    text::draw(&mut buf, &word, 6.0, base, colours.muted);
    DrawnChart {
        idx: buf.idx,
        theme,
    }
}

/// Draws the chart as a PNG.
pub fn render_chart_png(chart: &Chart, theme: Theme) -> Vec<u8> {
    draw_chart(chart, theme).encode()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(chances: Vec<f64>) -> Chart {
        Chart {
            title: "Black's chance of winning".into(),
            move_word: "Move".into(),
            chances,
            marks: Vec::new(),
        }
    }

    #[test]
    fn ticks_stay_few() {
        assert_eq!(tick_step(0), 1);
        assert_eq!(tick_step(8), 1);
        assert_eq!(tick_step(9), 2);
        assert_eq!(tick_step(61), 10);
        assert_eq!(tick_step(225), 50);
    }

    #[test]
    fn more_black_means_more_dark_pixels() {
        let dark = |c: &Chart| {
            let d = draw_chart(c, Theme::Light);
            let black = d_index(&d, Theme::Light);
            d.idx.iter().filter(|&&i| i == black).count()
        };
        let low = dark(&chart(vec![0.5, 0.2, 0.1, 0.1]));
        let high = dark(&chart(vec![0.5, 0.8, 0.9, 0.9]));
        assert!(high > low * 2, "{high} vs {low}");
    }

    fn d_index(_: &DrawnChart, theme: Theme) -> u8 {
        cache::theme_assets(theme)
            .quant
            .index_of(theme.colours().stones[0].body)
    }

    #[test]
    fn odd_input_draws_without_panicking() {
        for c in [
            vec![],
            vec![0.5],
            vec![f64::NAN, 2.0, -1.0, f64::INFINITY],
            vec![0.5; 1000],
        ] {
            let mut ch = chart(c);
            ch.marks = vec![
                ChartMark {
                    ply: 1,
                    kind: MarkKind::Blunder,
                    labelled: true,
                },
                ChartMark {
                    ply: 5000,
                    kind: MarkKind::Mistake,
                    labelled: true,
                },
            ];
            ch.title = "\u{202E}x".repeat(300);
            let png = render_chart_png(&ch, Theme::Dark);
            assert_eq!(&png[1..4], b"PNG");
        }
    }
}
