//! Pixels: RGB pictures (the `image` crate's [`RgbBuf`] = `image::RgbImage`), premultiplied
//! RGBA sprites and anti-aliased shapes drawn from signed distances (coverage = how far the
//! pixel centre lies inside the edge, clamped).
//!
//! # Why the shapes are drawn here and not with imageproc
//! The design card names `image` and `imageproc`. RGB pictures are `image` buffers, and
//! `image::imageops::replace` copies tiles in `compose.rs`; the palette pictures (the fast
//! path, whose indices go straight to the banded PNG encoder) are plain index vectors, as
//! `image` has no palette buffer. imageproc 0.27 (default features off) was measured against
//! the code here (issue 18, a scratch comparison; numbers for a star point of radius 5, a
//! winning line 10.4 pixels wide and a chart segment 2.6 wide):
//! - filled rectangles (`draw_filled_rect_mut`) give the same pixels as [`Canvas::fill_rect`];
//! - `draw_filled_circle_mut` is not anti-aliased: no partly covered pixel (ours: 28) and
//!   24 % too much area (97.0 pixels for a true 78.5; ours 78.9), so star points, stones
//!   and the last-move dot would get stair-stepped rims;
//! - `draw_antialiased_polygon_mut` takes whole-pixel corners, and round caps would be the
//!   aliased circle: a thick line gets 9 % too much area (1155 for a true 1060; ours 1061)
//!   and 182 pixels off by more than 32 levels, stepped caps, and it cannot be painted one
//!   cell tile at a time as `compose.rs` does for the palette path;
//! - `draw_antialiased_line_segment_mut` (Xiaolin Wu) is one pixel wide: the review chart's
//!   curve would lose two thirds of its weight (91 pixels of ink against 249);
//! - `draw_text_mut` places one font's glyphs a character at a time: no shaping, no fallback,
//!   no bidi (Devanagari loses its conjuncts, Arabic comes out unjoined and left to right),
//!   so `text.rs` shapes with rustybuzz instead.
//!
//! What imageproc would do as well as this module is rectangle filling, a dozen lines.
//! For that it would add ten crates (nalgebra, simba, wide, safe_arch, matrixmultiply,
//! rawpointer, approx, itertools, rand_distr and imageproc itself), about 118 s of compile
//! time measured on this machine's two shared cores (`cargo build --timings`: wide 35 s,
//! nalgebra 34 s, simba 23 s, imageproc 11 s, itertools 7 s, the other five 8 s; serenity
//! took 279 s in the same build), and its features change how shared crates are built
//! (adding it rebuilt serenity, poise, sqlx and image). So the shapes stay here: signed-distance coverage gives exact anti-aliased
//! circles, capsules, dashes and rings at any sub-pixel position, and the stones' shading
//! has no library equivalent.

use super::theme::{Rgb, StoneLook, StoneMark};

/// Something to paint on: pixels that can be read and written as RGB.
pub(crate) trait Canvas {
    /// Width and height.
    fn dims(&self) -> (u32, u32);
    /// The colour at a pixel inside the canvas.
    fn get(&self, x: u32, y: u32) -> Rgb;
    /// Sets a pixel inside the canvas.
    fn set(&mut self, x: u32, y: u32, c: Rgb);

    /// Blends `c` at coverage `a` (0..=1) into the pixel, ignoring points outside.
    #[inline]
    fn blend(&mut self, x: i32, y: i32, c: Rgb, a: f32) {
        let (w, h) = self.dims();
        if x < 0 || y < 0 || x >= w as i32 || y >= h as i32 || a <= 0.0 {
            return;
        }
        let (x, y) = (x as u32, y as u32);
        let mut d = self.get(x, y);
        blend_px(&mut d, c, a.min(1.0));
        self.set(x, y, d);
    }

    /// Fills a rectangle `[x0, x1) x [y0, y1)` with a colour, clipped to the canvas.
    fn fill_rect(&mut self, x0: i32, y0: i32, x1: i32, y1: i32, c: Rgb) {
        let (w, h) = self.dims();
        let (x0, x1) = (x0.max(0), x1.min(w as i32));
        let (y0, y1) = (y0.max(0), y1.min(h as i32));
        for y in y0..y1 {
            for x in x0..x1 {
                self.set(x as u32, y as u32, c);
            }
        }
    }

    /// Paints a shape given by its signed distance function over a pixel box.
    fn paint_sdf(
        &mut self,
        bbox: (f32, f32, f32, f32),
        c: Rgb,
        alpha: f32,
        sdf: impl Fn(f32, f32) -> f32,
    ) where
        Self: Sized,
    {
        let x0 = bbox.0.floor() as i32 - 1;
        let y0 = bbox.1.floor() as i32 - 1;
        let x1 = bbox.2.ceil() as i32 + 1;
        let y1 = bbox.3.ceil() as i32 + 1;
        for y in y0..y1 {
            for x in x0..x1 {
                let a = coverage(sdf(x as f32 + 0.5, y as f32 + 0.5)) * alpha;
                self.blend(x, y, c, a);
            }
        }
    }

    /// Draws a premultiplied sprite with its top-left corner at `(x0, y0)`.
    fn sprite(&mut self, sp: &Sprite, x0: i32, y0: i32)
    where
        Self: Sized,
    {
        let (w, h) = self.dims();
        let s = sp.size as i32;
        for sy in 0..s {
            let y = y0 + sy;
            if y < 0 || y >= h as i32 {
                continue;
            }
            for sx in 0..s {
                let x = x0 + sx;
                if x < 0 || x >= w as i32 {
                    continue;
                }
                let si = ((sy * s + sx) * 4) as usize;
                let a = sp.px[si + 3];
                if a == 0 {
                    continue;
                }
                let under = self.get(x as u32, y as u32);
                let p = [sp.px[si], sp.px[si + 1], sp.px[si + 2], a];
                self.set(x as u32, y as u32, over_premul(under, p));
            }
        }
    }
}

/// A canvas seen through a rectangle: writes outside `[x0, x1) x [y0, y1)` are dropped, so
/// that what is drawn into one box (a player's name) never reaches another.
pub(crate) struct Clip<'c, C: Canvas> {
    pub canvas: &'c mut C,
    /// Left, top, right and bottom edges; right and bottom are outside.
    pub rect: (i32, i32, i32, i32),
}

impl<C: Canvas> Canvas for Clip<'_, C> {
    fn dims(&self) -> (u32, u32) {
        self.canvas.dims()
    }
    #[inline]
    fn get(&self, x: u32, y: u32) -> Rgb {
        self.canvas.get(x, y)
    }
    #[inline]
    fn set(&mut self, x: u32, y: u32, c: Rgb) {
        let (x0, y0, x1, y1) = self.rect;
        let (xi, yi) = (x as i64, y as i64);
        if xi >= i64::from(x0) && xi < i64::from(x1) && yi >= i64::from(y0) && yi < i64::from(y1) {
            self.canvas.set(x, y, c);
        }
    }
}

/// A premultiplied RGBA pixel laid over an opaque one.
#[inline]
pub(crate) fn over_premul(under: Rgb, p: [u8; 4]) -> Rgb {
    let inv = 255 - u32::from(p[3]);
    let mut out = [0; 3];
    for k in 0..3 {
        out[k] = (u32::from(p[k]) + (u32::from(under[k]) * inv + 127) / 255).min(255) as u8;
    }
    out
}

impl Canvas for RgbBuf {
    fn dims(&self) -> (u32, u32) {
        self.dimensions()
    }
    #[inline]
    fn get(&self, x: u32, y: u32) -> Rgb {
        let i = (y as usize * self.width() as usize + x as usize) * 3;
        let px = self.as_raw();
        [px[i], px[i + 1], px[i + 2]]
    }
    #[inline]
    fn set(&mut self, x: u32, y: u32, c: Rgb) {
        let i = (y as usize * self.width() as usize + x as usize) * 3;
        let px: &mut [u8] = self;
        px[i..i + 3].copy_from_slice(&c);
    }
}

/// An opaque RGB picture: the `image` crate's buffer, 3 bytes a pixel, row after row.
pub(crate) type RgbBuf = image::RgbImage;

/// A buffer filled with one colour.
pub(crate) fn filled(w: u32, h: u32, c: Rgb) -> RgbBuf {
    RgbBuf::from_pixel(w, h, image::Rgb(c))
}

/// Coverage of a pixel whose centre lies at signed distance `d` from an edge.
#[inline]
pub(crate) fn coverage(d: f32) -> f32 {
    (0.5 - d).clamp(0.0, 1.0)
}

#[inline]
pub(crate) fn blend_px(dst: &mut [u8; 3], c: Rgb, a: f32) {
    for k in 0..3 {
        let d = f32::from(dst[k]);
        dst[k] = (d + (f32::from(c[k]) - d) * a + 0.5) as u8;
    }
}

/// Distance from a point to the segment a-b, and the position along it (pixels from a).
#[inline]
pub(crate) fn segment_distance(px: f32, py: f32, a: (f32, f32), b: (f32, f32)) -> (f32, f32) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 > 0.0 {
        (((px - a.0) * dx + (py - a.1) * dy) / len2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (cx, cy) = (a.0 + t * dx, a.1 + t * dy);
    (
        ((px - cx).powi(2) + (py - cy).powi(2)).sqrt(),
        t * len2.sqrt(),
    )
}

/// A square premultiplied RGBA image the size of one board cell.
#[derive(Clone, Debug)]
pub(crate) struct Sprite {
    pub size: u32,
    /// Premultiplied RGBA, 4 bytes a pixel.
    pub px: Vec<u8>,
}

impl Sprite {
    fn empty(size: u32) -> Sprite {
        Sprite {
            size,
            px: vec![0; (size * size * 4) as usize],
        }
    }

    /// Puts a thin ring of radius `r` around the centre under what is already drawn.
    pub fn underlay_ring(&mut self, r: f32, half_width: f32, c: Rgb) {
        let centre = (self.size / 2) as f32;
        for y in 0..self.size {
            for x in 0..self.size {
                let (px, py) = (x as f32 + 0.5 - centre, y as f32 + 0.5 - centre);
                let a = coverage(((px * px + py * py).sqrt() - r).abs() - half_width);
                let i = ((y * self.size + x) * 4) as usize;
                let p = &mut self.px[i..i + 4];
                let keep = 1.0 - f32::from(p[3]) / 255.0;
                for k in 0..3 {
                    p[k] = (f32::from(p[k]) + f32::from(c[k]) * a * keep + 0.5).min(255.0) as u8;
                }
                p[3] = (f32::from(p[3]) + 255.0 * a * keep + 0.5).min(255.0) as u8;
            }
        }
    }

    /// Lays colour `c` with coverage `a` over the sprite.
    #[inline]
    fn over(&mut self, i: usize, c: [f32; 3], a: f32) {
        if a <= 0.0 {
            return;
        }
        let p = &mut self.px[i * 4..i * 4 + 4];
        for k in 0..3 {
            p[k] = (c[k] * a + f32::from(p[k]) * (1.0 - a) + 0.5) as u8;
        }
        p[3] = (255.0 * a + f32::from(p[3]) * (1.0 - a) + 0.5) as u8;
    }
}

/// How a stone is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Look {
    /// A stone on the board.
    Stone,
    /// The stone of the last move, with a dot.
    Last,
    /// A stone taken by the last move: faint, crossed out.
    Ghost,
    /// A move being confirmed: translucent.
    Tentative,
}

impl Look {
    pub const ALL: [Look; 4] = [Look::Stone, Look::Last, Look::Ghost, Look::Tentative];

    pub fn index(self) -> usize {
        match self {
            Look::Stone => 0,
            Look::Last => 1,
            Look::Ghost => 2,
            Look::Tentative => 3,
        }
    }
}

/// Stone radius as a share of the cell: a little gap between neighbours, as on a real board.
pub(crate) const STONE_RADIUS: f32 = 0.455;

fn mix(a: Rgb, b: Rgb, t: f32) -> [f32; 3] {
    let t = t.clamp(0.0, 1.0);
    [
        f32::from(a[0]) + (f32::from(b[0]) - f32::from(a[0])) * t,
        f32::from(a[1]) + (f32::from(b[1]) - f32::from(a[1])) * t,
        f32::from(a[2]) + (f32::from(b[2]) - f32::from(a[2])) * t,
    ]
}

fn mixf(a: [f32; 3], b: Rgb, t: f32) -> [f32; 3] {
    let t = t.clamp(0.0, 1.0);
    [
        a[0] + (f32::from(b[0]) - a[0]) * t,
        a[1] + (f32::from(b[1]) - a[1]) * t,
        a[2] + (f32::from(b[2]) - a[2]) * t,
    ]
}

fn smoothstep(e0: f32, e1: f32, x: f32) -> f32 {
    let t = ((x - e0) / (e1 - e0)).clamp(0.0, 1.0);
    t * t * (3.0 - 2.0 * t)
}

/// Draws one stone of diameter about `STONE_RADIUS * 2 * cell` into a cell-sized sprite,
/// centred on the pixel corner `(cell / 2, cell / 2)` where the grid lines cross.
pub(crate) fn stone_sprite(cell: u32, look: &StoneLook, kind: Look, cross: Rgb) -> Sprite {
    stone_sprite_at(cell, cell as f32 * STONE_RADIUS, look, kind, cross)
}

/// As [`stone_sprite`] with an explicit radius (footer icons).
pub(crate) fn stone_sprite_at(
    cell: u32,
    r: f32,
    look: &StoneLook,
    kind: Look,
    cross: Rgb,
) -> Sprite {
    let mut sp = Sprite::empty(cell);
    let c = (cell / 2) as f32;
    let body_alpha = match kind {
        Look::Stone | Look::Last => 1.0,
        Look::Ghost => 0.38,
        Look::Tentative => 0.6,
    };
    let shadow = matches!(kind, Look::Stone | Look::Last);
    let (sx, sy) = (r * 0.07, r * 0.11);
    // Highlight centre and spread; black stones have a tight sheen, the others a broad one.
    let (hx, hy) = (-0.38, -0.42);
    let dark = look.body.iter().map(|&v| u32::from(v)).sum::<u32>() < 150;
    let spread = if dark { 0.10 } else { 0.30 };
    for y in 0..cell {
        for x in 0..cell {
            let i = (y * cell + x) as usize;
            let (px, py) = (x as f32 + 0.5 - c, y as f32 + 0.5 - c);
            if shadow {
                let d = ((px - sx).powi(2) + (py - sy).powi(2)).sqrt() - r;
                // A crisp shadow: a soft one would triple the pixels that need blending.
                let a = coverage(d) * 0.4;
                sp.over(i, [0.0, 0.0, 0.0], a);
            }
            let dist = (px * px + py * py).sqrt();
            let cov = coverage(dist - r);
            if cov <= 0.0 {
                continue;
            }
            let (u, v) = (px / r, py / r);
            let rr = (u * u + v * v).min(1.0);
            // Lambert shading of a flattened sphere lit from the upper left.
            let nz = (1.0 - rr).sqrt();
            let lambert = (-0.45 * u - 0.5 * v + 0.74 * nz).clamp(-1.0, 1.0);
            let mut col = mix(look.rim, look.body, smoothstep(-0.1, 0.55, lambert));
            let h = ((u - hx).powi(2) + (v - hy).powi(2)) / spread;
            col = mixf(col, look.light, (-h).exp() * 0.9);
            sp.over(i, col, cov * body_alpha);
            // The mark that tells colours 3 and 4 apart without relying on hue.
            let mark = match look.shape {
                StoneMark::None => 0.0,
                StoneMark::Ring => coverage((dist - 0.56 * r).abs() - 0.085 * r),
                StoneMark::Diamond => {
                    let l1 = (px.abs() + py.abs() - 0.62 * r) / std::f32::consts::SQRT_2;
                    coverage(l1.abs() - 0.075 * r)
                }
            };
            sp.over(i, f32rgb(look.mark), mark * 0.9 * body_alpha);
            if kind == Look::Last {
                let dot = coverage(dist - 0.3 * r);
                sp.over(i, f32rgb(look.mark), dot);
            }
            if kind == Look::Ghost {
                let k = 0.42 * r;
                let w = 0.085 * r;
                let d1 = segment_distance(px, py, (-k, -k), (k, k)).0;
                let d2 = segment_distance(px, py, (-k, k), (k, -k)).0;
                sp.over(i, f32rgb(cross), coverage(d1.min(d2) - w));
            }
        }
    }
    sp
}

fn f32rgb(c: Rgb) -> [f32; 3] {
    [f32::from(c[0]), f32::from(c[1]), f32::from(c[2])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_is_half_on_the_edge() {
        assert_eq!(coverage(0.0), 0.5);
        assert_eq!(coverage(-3.0), 1.0);
        assert_eq!(coverage(3.0), 0.0);
    }

    #[test]
    fn a_stone_sprite_is_opaque_in_the_middle_and_clear_in_the_corner() {
        let look = &super::super::theme::Theme::Light.colours().stones[0];
        let sp = stone_sprite(38, look, Look::Stone, [0, 0, 0]);
        let at = |x: u32, y: u32| sp.px[((y * 38 + x) * 4 + 3) as usize];
        assert_eq!(at(19, 19), 255);
        assert_eq!(at(0, 0), 0);
        let ghost = stone_sprite(38, look, Look::Ghost, [0, 0, 0]);
        assert!(ghost.px[((10 * 38 + 19) * 4 + 3) as usize] < 140);
    }

    #[test]
    fn segment_distance_measures_to_the_nearest_point() {
        let (d, t) = segment_distance(5.0, 3.0, (0.0, 0.0), (10.0, 0.0));
        assert!((d - 3.0).abs() < 1e-5 && (t - 5.0).abs() < 1e-5);
        let (d, _) = segment_distance(-4.0, 3.0, (0.0, 0.0), (10.0, 0.0));
        assert!((d - 5.0).abs() < 1e-5);
    }
}
