//! Drawing a scene: copy the cached board, redraw only the cells that hold something, draw
//! the footer, and hand finished pixels to a sink (palette indices, or plain RGB).

use super::cache::{Background, Quantizer};
use super::layout::{FOOTER_PAD_TOP, Layout, ROW_H};
use super::paint::{Look, RgbBuf, Sprite, coverage, segment_distance};
use super::scene::{LineMark, Part, RowMark, Scene};
use super::text;
use super::theme::Colours;

/// Where finished pixels go.
pub(crate) trait Sink {
    /// Takes a finished rectangle whose top-left pixel is `(x0, y0)`.
    fn put(&mut self, x0: u32, y0: u32, tile: &RgbBuf);
}

/// A picture in palette indices.
pub(crate) struct Indexed<'q> {
    pub width: u32,
    pub height: u32,
    pub idx: Vec<u8>,
    pub quant: &'q Quantizer,
}

impl Sink for Indexed<'_> {
    fn put(&mut self, x0: u32, y0: u32, tile: &RgbBuf) {
        let w = self.width as usize;
        for ty in 0..tile.h as usize {
            let y = y0 as usize + ty;
            if y >= self.height as usize {
                break;
            }
            let tw = (tile.w as usize).min(w.saturating_sub(x0 as usize));
            let row = &mut self.idx[y * w + x0 as usize..y * w + x0 as usize + tw];
            let src = &tile.px[ty * tile.w as usize * 3..];
            for (tx, out) in row.iter_mut().enumerate() {
                *out = self
                    .quant
                    .index(src[tx * 3], src[tx * 3 + 1], src[tx * 3 + 2]);
            }
        }
    }
}

/// A picture in RGB (for training the palette and for tests).
pub(crate) struct Plain {
    pub img: RgbBuf,
}

impl Sink for Plain {
    fn put(&mut self, x0: u32, y0: u32, tile: &RgbBuf) {
        let w = self.img.w as usize;
        for ty in 0..tile.h as usize {
            let y = y0 as usize + ty;
            if y >= self.img.h as usize {
                break;
            }
            let tw = (tile.w as usize).min(w.saturating_sub(x0 as usize));
            let dst = (y * w + x0 as usize) * 3;
            let src = ty * tile.w as usize * 3;
            self.img.px[dst..dst + tw * 3].copy_from_slice(&tile.px[src..src + tw * 3]);
        }
    }
}

/// Draws the scene's board cells and footer into the sink, which already holds the board.
pub(crate) fn compose(
    scene: &Scene,
    layout: &Layout,
    bg: &Background,
    icons: &[Sprite],
    colours: &Colours,
    sink: &mut impl Sink,
) {
    let n = usize::from(layout.size);
    let s = layout.cell;
    // What each cell holds: a stone look, and whether a line crosses it.
    let mut cells: Vec<Option<(u8, Look)>> = vec![None; n * n];
    let mut crossed = vec![false; n * n];
    for &(p, colour, look) in &scene.stones {
        if let Some(c) = cells.get_mut(usize::from(p.row()) * n + usize::from(p.col())) {
            *c = Some((colour, look));
        }
    }
    let lines: Vec<LinePx> = scene.lines.iter().map(|l| LinePx::new(l, layout)).collect();
    for line in &lines {
        for row in 0..n {
            for col in 0..n {
                let (x0, y0) = layout.cell_origin(col as u8, row as u8);
                if line.touches(x0 as f32, y0 as f32, s as f32) {
                    crossed[row * n + col] = true;
                }
            }
        }
    }
    let mut tile = RgbBuf {
        w: s,
        h: s,
        px: vec![0; (s * s * 3) as usize],
    };
    for row in 0..n {
        for col in 0..n {
            let i = row * n + col;
            if cells[i].is_none() && !crossed[i] {
                continue;
            }
            let (x0, y0) = layout.cell_origin(col as u8, row as u8);
            bg.copy_tile(x0 as u32, y0 as u32, &mut tile);
            if let Some((colour, look)) = cells[i] {
                if let Some(sp) = bg.sprite(colour, look) {
                    sp.draw_on(&mut tile, 0, 0);
                }
            }
            if crossed[i] {
                for line in &lines {
                    line.paint(&mut tile, x0, y0, colours);
                }
            }
            sink.put(x0 as u32, y0 as u32, &tile);
        }
    }
    let footer = draw_footer(scene, layout, icons, colours);
    sink.put(0, layout.width, &footer);
}

/// A line mark in pixels.
struct LinePx {
    a: (f32, f32),
    b: (f32, f32),
    half_edge: f32,
    half_core: f32,
    dashed: bool,
    period: f32,
    on: f32,
}

impl LinePx {
    fn new(l: &LineMark, layout: &Layout) -> LinePx {
        let s = layout.cell as f32;
        let (ax, ay) = layout.point_xy(l.from.col(), l.from.row());
        let (bx, by) = layout.point_xy(l.to.col(), l.to.row());
        let (ax, ay, bx, by) = (ax as f32, ay as f32, bx as f32, by as f32);
        // Reach a little past the end stones so the line reads as "through" them.
        let len = ((bx - ax).powi(2) + (by - ay).powi(2)).sqrt().max(1e-3);
        let (ux, uy) = ((bx - ax) / len, (by - ay) / len);
        let ext = 0.3 * s;
        LinePx {
            a: (ax - ux * ext, ay - uy * ext),
            b: (bx + ux * ext, by + uy * ext),
            half_edge: (0.13 * s).max(3.0),
            half_core: (0.075 * s).max(1.8),
            dashed: l.dashed,
            period: 0.62 * s,
            on: 0.38 * s,
        }
    }

    fn touches(&self, x0: f32, y0: f32, s: f32) -> bool {
        let (cx, cy) = (x0 + s / 2.0, y0 + s / 2.0);
        let d = segment_distance(cx, cy, self.a, self.b).0;
        d <= s * std::f32::consts::FRAC_1_SQRT_2 + self.half_edge + 1.0
    }

    fn paint(&self, tile: &mut RgbBuf, x0: i32, y0: i32, colours: &Colours) {
        let core = if self.dashed {
            colours.threat_core
        } else {
            colours.line_core
        };
        for ty in 0..tile.h as i32 {
            for tx in 0..tile.w as i32 {
                let px = (x0 + tx) as f32 + 0.5;
                let py = (y0 + ty) as f32 + 0.5;
                let (d, t) = segment_distance(px, py, self.a, self.b);
                if d > self.half_edge + 1.0 {
                    continue;
                }
                // A dash is the intersection of the thick line with an interval along it.
                let along = if self.dashed {
                    let ph = t.rem_euclid(self.period);
                    (-ph).max(ph - self.on)
                } else {
                    f32::NEG_INFINITY
                };
                let edge = coverage((d - self.half_edge).max(along));
                let inner = coverage((d - self.half_core).max(along + 1.2));
                tile.blend(tx, ty, colours.line_edge, edge * 0.9);
                tile.blend(tx, ty, core, inner);
            }
        }
    }
}

/// Size of the footer's stone icons.
const ICON: u32 = 28;
const NAME_EM: f32 = 21.0;
const SMALL_EM: f32 = 18.0;
const MARGIN: f32 = 16.0;

fn draw_footer(scene: &Scene, layout: &Layout, icons: &[Sprite], colours: &Colours) -> RgbBuf {
    let w = layout.width;
    let mut buf = RgbBuf::filled(w, layout.footer_h, colours.footer);
    buf.fill_rect(0, 0, w as i32, 2, colours.footer_rule);
    let row_centre = |i: usize| (FOOTER_PAD_TOP + i as u32 * ROW_H + ROW_H / 2) as f32;
    let icon = |buf: &mut RgbBuf, colour: u8, x: f32, yc: f32| {
        if let Some(sp) = icons.get(usize::from(colour).wrapping_sub(1)) {
            draw_icon(buf, sp, x, yc);
        }
    };
    for (i, row) in scene.rows.iter().enumerate() {
        let yc = row_centre(i);
        let baseline = yc + text::cap_height(NAME_EM) / 2.0;
        match row.mark {
            RowMark::None => {}
            RowMark::Turn => {
                let t = text::shape("▶", NAME_EM * 0.85);
                text::draw(&mut buf, &t, MARGIN, baseline, colours.accent);
            }
            RowMark::Winner => {
                let t = text::shape("★", NAME_EM);
                text::draw(&mut buf, &t, MARGIN - 2.0, baseline + 1.0, colours.accent);
            }
        }
        icon(&mut buf, row.colour, MARGIN + 26.0, yc);
        let name_x = MARGIN + 26.0 + ICON as f32 + 10.0;
        let mut right = w as f32 - MARGIN;
        if let Some(c) = &row.captured {
            let t = text::shape(c, SMALL_EM);
            right -= t.width;
            text::draw(&mut buf, &t, right, yc + text::cap_height(SMALL_EM) / 2.0, colours.muted);
            right -= 20.0;
        }
        let (clean, cut) = if row.placeholder {
            (row.name.clone(), false)
        } else {
            text::sanitize(&row.name)
        };
        let shaped = text::fit(&clean, NAME_EM, (right - name_x).max(0.0), cut);
        let colour = if row.placeholder {
            colours.muted
        } else {
            colours.text
        };
        text::draw(&mut buf, &shaped, name_x, baseline, colour);
    }
    let yc = row_centre(scene.rows.len());
    let baseline = yc + text::cap_height(SMALL_EM) / 2.0;
    let mut x = MARGIN;
    let limit = w as f32 - MARGIN;
    for part in &scene.status {
        match part {
            Part::Stone(c) => {
                icon(&mut buf, *c, x, yc);
                x += ICON as f32 + 6.0;
            }
            Part::Text(t, muted) => {
                let shaped = text::fit(t, SMALL_EM, (limit - x).max(0.0), false);
                let colour = if *muted { colours.muted } else { colours.text };
                text::draw(&mut buf, &shaped, x, baseline, colour);
                x += shaped.width + 8.0;
            }
        }
    }
    buf
}

fn draw_icon(buf: &mut RgbBuf, sp: &Sprite, x: f32, yc: f32) {
    let half = (sp.size / 2) as f32;
    sp.draw_on(buf, x.round() as i32, (yc - half).round() as i32);
}

pub(crate) const ICON_SIZE: u32 = ICON;
