//! Drawing a scene: start from the cached board, redraw only the cells that hold a stone or
//! a line, then draw the footer. Two outputs: palette indices (the fast path used for every
//! picture) and plain RGB (used to train the palette, and to check the fast path).

use super::cache::{Background, Quantizer};
use super::layout::{FOOTER_PAD_TOP, Layout, ROW_H};
use super::marks::{self, Mark};
use super::paint::{
    Canvas, Look, RgbBuf, STONE_RADIUS, Sprite, coverage, filled, segment_distance,
};
use super::scene::{LineMark, Part, RowMark, Scene};
use super::text;
use super::theme::{Colours, Rgb};

/// A picture in palette indices, painted through its palette: the boards, and the review
/// charts and standings tables drawn in the same palette.
pub(crate) struct Indexed<'q> {
    pub width: u32,
    pub height: u32,
    pub idx: Vec<u8>,
    pub quant: &'q Quantizer,
}

impl Canvas for Indexed<'_> {
    fn dims(&self) -> (u32, u32) {
        (self.width, self.height)
    }
    #[inline]
    fn get(&self, x: u32, y: u32) -> Rgb {
        self.quant
            .colour(self.idx[y as usize * self.width as usize + x as usize])
    }
    #[inline]
    fn set(&mut self, x: u32, y: u32, c: Rgb) {
        self.idx[y as usize * self.width as usize + x as usize] =
            self.quant.index(c[0], c[1], c[2]);
    }
}

/// What each cell of the board shows.
pub(crate) struct Cells {
    /// Board side.
    pub n: usize,
    stones: Vec<Option<(u8, Look)>>,
    crossed: Vec<bool>,
    marks: Vec<Option<Mark>>,
    lines: Vec<LinePx>,
}

impl Cells {
    /// Whether cell `i` is drawn the same in both, given whether the lines drawn through
    /// crossed cells are the same.
    pub fn same_cell(&self, other: &Cells, i: usize, same_lines: bool) -> bool {
        self.stones[i] == other.stones[i]
            && self.marks[i] == other.marks[i]
            && self.crossed[i] == other.crossed[i]
            && (same_lines || !self.crossed[i])
    }

    /// What each cell of `scene` shows.
    pub fn of(scene: &Scene, layout: &Layout) -> Cells {
        let n = usize::from(layout.size);
        let mut stones = vec![None; n * n];
        for &(p, colour, look) in &scene.stones {
            if let Some(c) = stones.get_mut(usize::from(p.row()) * n + usize::from(p.col())) {
                *c = Some((colour, look));
            }
        }
        let mut marks = vec![None; n * n];
        for &(p, mark) in &scene.marks {
            if let Some(m) = marks.get_mut(usize::from(p.row()) * n + usize::from(p.col())) {
                *m = Some(mark);
            }
        }
        let lines: Vec<LinePx> = scene.lines.iter().map(|l| LinePx::new(l, layout)).collect();
        let mut crossed = vec![false; n * n];
        let s = layout.cell as f32;
        for line in &lines {
            for row in 0..n {
                for col in 0..n {
                    let (x0, y0) = layout.cell_origin(col as u8, row as u8);
                    if line.touches(x0 as f32, y0 as f32, s) {
                        crossed[row * n + col] = true;
                    }
                }
            }
        }
        Cells {
            n,
            stones,
            crossed,
            marks,
            lines,
        }
    }

    /// Whether a cell is drawn through an RGB tile: a line crosses it or it carries a mark.
    fn needs_tile(&self, i: usize) -> bool {
        self.crossed[i] || self.marks[i].is_some()
    }

    /// Paints one cell in RGB: the board under it, its stone, the lines over it.
    fn paint_tile(
        &self,
        i: usize,
        x0: i32,
        y0: i32,
        bg: &Background,
        colours: &Colours,
        tile: &mut RgbBuf,
    ) {
        bg.copy_tile(x0 as u32, y0 as u32, tile);
        if let Some((colour, look)) = self.stones[i]
            && let Some(sp) = bg.sprite(colour, look)
        {
            tile.sprite(sp, 0, 0);
        }
        if self.crossed[i] {
            for line in &self.lines {
                line.paint(tile, x0, y0, colours);
            }
            // Keep the last-move dot visible on top of a line through it.
            if let Some((colour, Look::Last)) = self.stones[i]
                && let Some(look) = colours.stones.get(usize::from(colour).wrapping_sub(1))
            {
                let c = (tile.width() / 2) as f32;
                let r = 0.3 * STONE_RADIUS * tile.width() as f32;
                tile.paint_sdf((c - r, c - r, c + r, c + r), look.mark, 1.0, |x, y| {
                    ((x - c).powi(2) + (y - c).powi(2)).sqrt() - r
                });
            }
        }
        if let Some(mark) = self.marks[i] {
            marks::paint(mark, tile, colours);
        }
    }
}

/// Draws the whole scene in RGB, the slow and simple way.
pub(crate) fn compose_rgb(
    scene: &Scene,
    layout: &Layout,
    bg: &Background,
    icons: &[Sprite],
    colours: &Colours,
) -> RgbBuf {
    let (w, h) = (layout.width, layout.height());
    let mut img = filled(w, h, colours.footer);
    let board = bg.rgb.as_raw();
    let px: &mut [u8] = &mut img;
    px[..board.len()].copy_from_slice(board);
    let top = layout.width as i32;
    img.fill_rect(0, top, w as i32, top + 2, colours.footer_rule);
    let cells = Cells::of(scene, layout);
    let s = layout.cell;
    let mut tile = filled(s, s, [0; 3]);
    for i in 0..cells.n * cells.n {
        if cells.stones[i].is_none() && !cells.needs_tile(i) {
            continue;
        }
        let (x0, y0) = layout.cell_origin((i % cells.n) as u8, (i / cells.n) as u8);
        cells.paint_tile(i, x0, y0, bg, colours, &mut tile);
        image::imageops::replace(&mut img, &tile, x0.into(), y0.into());
    }
    let mut footer = Footer {
        canvas: &mut img,
        top: layout.width,
    };
    draw_footer(&mut footer, scene, layout, icons, colours);
    img
}

/// Draws the scene in palette indices: cells with a stone only touch the stone's rim pixels
/// (its inside has a fixed index), cells crossed by a line go through RGB.
pub(crate) fn compose_indexed(
    scene: &Scene,
    layout: &Layout,
    bg: &Background,
    icons: &[Sprite],
    colours: &Colours,
    quant: &Quantizer,
) -> Vec<u8> {
    let painter = Painter {
        layout,
        bg,
        icons,
        colours,
        quant,
    };
    painter.compose(&Cells::of(scene, layout), scene)
}

/// What drawing in palette indices needs besides the scene: the geometry, the cached board,
/// the footer icons, the theme's colours and its palette.
pub(crate) struct Painter<'a> {
    pub layout: &'a Layout,
    pub bg: &'a Background,
    pub icons: &'a [Sprite],
    pub colours: &'a Colours,
    pub quant: &'a Quantizer,
}

impl Painter<'_> {
    /// The whole picture: the board, every cell of `cells` (the cells of `scene`), the footer.
    pub fn compose(&self, cells: &Cells, scene: &Scene) -> Vec<u8> {
        let (w, h) = (self.layout.width, self.layout.height());
        let mut idx = Vec::with_capacity((w * h) as usize);
        idx.extend_from_slice(&self.bg.idx);
        idx.resize((w * h) as usize, 0);
        let mut tile = filled(self.layout.cell, self.layout.cell, [0; 3]);
        for i in 0..cells.n * cells.n {
            // The board was just copied: no cell needs restoring.
            self.paint_cell(cells, i, &mut idx, &mut tile, false);
        }
        self.paint_footer(scene, &mut idx);
        idx
    }

    /// Paints cell `i` of `cells` into the picture `idx`. With `restore`, the board's own
    /// pixels are put back under the cell first (the cell may hold an earlier stone);
    /// without, they must already be there.
    pub fn paint_cell(
        &self,
        cells: &Cells,
        i: usize,
        idx: &mut [u8],
        tile: &mut RgbBuf,
        restore: bool,
    ) {
        let (layout, quant) = (self.layout, self.quant);
        let s = layout.cell as usize;
        let wu = layout.width as usize;
        let (x0, y0) = layout.cell_origin((i % cells.n) as u8, (i / cells.n) as u8);
        let base = y0 as usize * wu + x0 as usize;
        if restore {
            for ty in 0..s {
                let j = base + ty * wu;
                idx[j..j + s].copy_from_slice(&self.bg.idx[j..j + s]);
            }
        }
        if cells.needs_tile(i) {
            cells.paint_tile(i, x0, y0, self.bg, self.colours, tile);
            for ty in 0..s {
                for tx in 0..s {
                    let p = &tile.as_raw()[(ty * s + tx) * 3..];
                    idx[base + ty * wu + tx] = quant.index(p[0], p[1], p[2]);
                }
            }
        } else if let Some((colour, look)) = cells.stones[i] {
            let Some(fast) = self.bg.fast_sprite(colour, look) else {
                return;
            };
            for &(ty, tx, start, len) in &fast.runs {
                let j = base + usize::from(ty) * wu + usize::from(tx);
                let start = usize::from(start);
                idx[j..j + usize::from(len)]
                    .copy_from_slice(&fast.values[start..start + usize::from(len)]);
            }
            for &(ty, tx, p) in &fast.rim {
                let j = base + usize::from(ty) * wu + usize::from(tx);
                // The board's palette colour here, read from the picture itself (just
                // copied, so in cache) rather than from the much larger RGB board.
                let c = super::paint::over_premul(quant.colour(idx[j]), p);
                idx[j] = quant.index(c[0], c[1], c[2]);
            }
        }
    }

    /// Paints the footer band (every row below the board) afresh: its rule, its background,
    /// the players' rows and the status line of `scene`.
    pub fn paint_footer(&self, scene: &Scene, idx: &mut Vec<u8>) {
        let layout = self.layout;
        let (w, h) = (layout.width, layout.height());
        let wu = w as usize;
        let top = (layout.width * w) as usize;
        idx[top..top + 2 * wu].fill(self.quant.index_of(self.colours.footer_rule));
        idx[top + 2 * wu..].fill(self.quant.index_of(self.colours.footer));
        let mut canvas = Indexed {
            width: w,
            height: h,
            idx: std::mem::take(idx),
            quant: self.quant,
        };
        let mut footer = Footer {
            canvas: &mut canvas,
            top: layout.width,
        };
        draw_footer(&mut footer, scene, layout, self.icons, self.colours);
        *idx = canvas.idx;
    }
}

/// The footer band of a picture, as a canvas of its own.
struct Footer<'c, C: Canvas> {
    canvas: &'c mut C,
    top: u32,
}

impl<C: Canvas> Canvas for Footer<'_, C> {
    fn dims(&self) -> (u32, u32) {
        let (w, h) = self.canvas.dims();
        (w, h - self.top)
    }
    fn get(&self, x: u32, y: u32) -> Rgb {
        self.canvas.get(x, y + self.top)
    }
    fn set(&mut self, x: u32, y: u32, c: Rgb) {
        self.canvas.set(x, y + self.top, c);
    }
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
        for ty in 0..tile.height() as i32 {
            for tx in 0..tile.width() as i32 {
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
pub(crate) const ICON_SIZE: u32 = 28;
/// Em size of the players' names.
pub(crate) const NAME_EM: f32 = 21.0;
const SMALL_EM: f32 = 18.0;
const MARGIN: f32 = 16.0;

/// Draws the footer's rows and status line on a canvas already filled with its background.
fn draw_footer(
    buf: &mut impl Canvas,
    scene: &Scene,
    layout: &Layout,
    icons: &[Sprite],
    colours: &Colours,
) {
    let w = layout.width;
    let row_centre = |i: usize| (FOOTER_PAD_TOP + i as u32 * ROW_H + ROW_H / 2) as f32;
    let icon = |buf: &mut _, colour: u8, x: f32, yc: f32| {
        if let Some(sp) = icons.get(usize::from(colour).wrapping_sub(1)) {
            let half = (sp.size / 2) as f32;
            Canvas::sprite(buf, sp, x.round() as i32, (yc - half).round() as i32);
        }
    };
    for (i, row) in scene.rows.iter().enumerate() {
        let yc = row_centre(i);
        let baseline = yc + text::cap_height(NAME_EM) / 2.0;
        match row.mark {
            RowMark::None => {}
            RowMark::Turn => {
                let t = text::shape("▶", NAME_EM * 0.85);
                text::draw(buf, &t, MARGIN, baseline, colours.accent);
            }
            RowMark::Winner => {
                let t = text::shape("★", NAME_EM);
                text::draw(buf, &t, MARGIN - 2.0, baseline + 1.0, colours.accent);
            }
        }
        icon(buf, row.colour, MARGIN + 26.0, yc);
        let name_x = MARGIN + 26.0 + ICON_SIZE as f32 + 10.0;
        let mut right = w as f32 - MARGIN;
        if let Some(c) = &row.captured {
            let t = text::shape(c, SMALL_EM);
            right -= t.width;
            let base = yc + text::cap_height(SMALL_EM) / 2.0;
            text::draw(buf, &t, right, base, colours.muted);
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
        // The name's box: its row, from just after the icon to the room's right edge (a
        // couple of pixels for a last glyph's overhang; the captures are 20 px further).
        let top = (FOOTER_PAD_TOP + i as u32 * ROW_H) as i32;
        let clip = (
            name_x as i32 - 4,
            top,
            right.ceil() as i32 + 2,
            top + ROW_H as i32,
        );
        text::draw_in(buf, &shaped, name_x, baseline, colour, clip);
    }
    if let Some(split) = scene.team_split {
        // Between the two teams, a short rule under the names.
        let y = (FOOTER_PAD_TOP + split as u32 * ROW_H) as i32;
        let x0 = (MARGIN + 26.0) as i32;
        for x in x0..w as i32 - MARGIN as i32 {
            buf.blend(x, y, colours.footer_rule, 1.0);
        }
    }
    let yc = row_centre(scene.rows.len());
    let baseline = yc + text::cap_height(SMALL_EM) / 2.0;
    let mut x = MARGIN;
    let limit = w as f32 - MARGIN;
    for part in &scene.status {
        match part {
            Part::Stone(c) => {
                icon(buf, *c, x, yc);
                x += ICON_SIZE as f32 + 6.0;
            }
            Part::Text(t, muted) => {
                let shaped = text::fit(t, SMALL_EM, (limit - x).max(0.0), false);
                let colour = if *muted { colours.muted } else { colours.text };
                text::draw(buf, &shaped, x, baseline, colour);
                x += shaped.width + 8.0;
            }
        }
    }
}
