//! What is drawn once and reused: per theme a palette (trained on a sample picture) with a
//! colour lookup table and footer icons; per board size, theme and coordinates setting the
//! wooden board with grid, star points and labels, and the stone sprites. All are built on
//! first use behind `OnceLock`s, then shared read-only between threads.

use std::sync::{Arc, OnceLock};

use color_quant::NeuQuant;

use crate::rules::{Point, column_letter};

use super::compose::{ICON_SIZE, compose_rgb};
use super::layout::Layout;
use super::paint::{Canvas, Look, RgbBuf, Sprite, stone_sprite, stone_sprite_at};
use super::scene::{LineMark, Part, Row, RowMark, Scene};
use super::text;
use super::theme::{Colours, Rgb, Theme};

/// Palette entries in use; index 255 is left free for the GIF's transparent colour.
pub(crate) const PALETTE_LEN: usize = 255;
/// Bits kept per channel in the colour lookup table.
const LUT_BITS: u32 = 6;

/// Maps RGB colours to the theme's palette.
pub(crate) struct Quantizer {
    /// `PALETTE_LEN` RGB triples.
    pub palette: Vec<u8>,
    lut: Vec<u8>,
}

impl Quantizer {
    fn train(sample: &RgbBuf) -> Quantizer {
        let mut rgba = Vec::with_capacity(sample.len() / 3 * 4);
        for p in sample.chunks_exact(3) {
            rgba.extend_from_slice(&[p[0], p[1], p[2], 255]);
        }
        let nq = NeuQuant::new(2, PALETTE_LEN, &rgba);
        let palette = nq.color_map_rgb();
        let levels = 1u32 << LUT_BITS;
        let shift = 8 - LUT_BITS;
        let mut lut = Vec::with_capacity((levels * levels * levels) as usize);
        for r in 0..levels {
            for g in 0..levels {
                for b in 0..levels {
                    // The centre of the bucket stands for every colour in it.
                    let c = |v: u32| ((v << shift) | (1 << (shift - 1))) as u8;
                    lut.push(nq.index_of(&[c(r), c(g), c(b), 255]) as u8);
                }
            }
        }
        Quantizer { palette, lut }
    }

    /// The palette colour of an index.
    #[inline]
    pub fn colour(&self, i: u8) -> Rgb {
        let i = usize::from(i).min(PALETTE_LEN - 1) * 3;
        [self.palette[i], self.palette[i + 1], self.palette[i + 2]]
    }

    /// The palette index for a colour.
    #[inline]
    pub fn index_of(&self, c: Rgb) -> u8 {
        self.index(c[0], c[1], c[2])
    }

    /// The palette index for a colour.
    #[inline]
    pub fn index(&self, r: u8, g: u8, b: u8) -> u8 {
        let shift = 8 - LUT_BITS;
        let key = (usize::from(r >> shift) << (2 * LUT_BITS))
            | (usize::from(g >> shift) << LUT_BITS)
            | usize::from(b >> shift);
        self.lut[key]
    }
}

/// Everything cached for one theme.
pub(crate) struct ThemeAssets {
    pub quant: Quantizer,
    /// Footer stone icons, one per colour.
    pub icons: Vec<Sprite>,
}

/// The theme's cached assets, built on first use.
pub(crate) fn theme_assets(theme: Theme) -> &'static ThemeAssets {
    static ASSETS: [OnceLock<ThemeAssets>; 2] = [OnceLock::new(), OnceLock::new()];
    ASSETS[theme.index()].get_or_init(|| {
        let colours = theme.colours();
        let icons = make_icons(colours);
        let quant = Quantizer::train(&training_picture(colours, &icons));
        ThemeAssets { quant, icons }
    })
}

fn make_icons(colours: &Colours) -> Vec<Sprite> {
    let r = ICON_SIZE as f32 * 0.42;
    colours
        .stones
        .iter()
        .map(|look| {
            let mut sp = stone_sprite_at(ICON_SIZE, r, look, Look::Stone, colours.cross);
            if let Some(ring) = colours.icon_ring {
                sp.underlay_ring(r + 0.6, 0.8, ring);
            }
            sp
        })
        .collect()
}

/// A sprite split for drawing in palette indices: pixels it covers fully have a fixed
/// index and are copied in runs; only its rim (anti-aliased edge, shadow, translucent parts)
/// needs blending with the board under it.
pub(crate) struct FastSprite {
    /// `(row, first column, start in values, length)` of runs of fully covered pixels.
    pub runs: Vec<(u8, u8, u16, u8)>,
    /// Palette indices of the runs, one after the other.
    pub values: Vec<u8>,
    /// `(row, column, premultiplied RGBA)` of partly covered pixels.
    pub rim: Vec<(u8, u8, [u8; 4])>,
}

impl FastSprite {
    fn new(sp: &Sprite, quant: &Quantizer) -> FastSprite {
        let mut runs = Vec::new();
        let mut values = Vec::new();
        let mut rim = Vec::new();
        let s = sp.size as usize;
        for y in 0..s {
            let mut run: Option<(u8, u16)> = None;
            for x in 0..=s {
                let p = if x < s {
                    let i = (y * s + x) * 4;
                    [sp.px[i], sp.px[i + 1], sp.px[i + 2], sp.px[i + 3]]
                } else {
                    [0; 4]
                };
                if p[3] == 255 {
                    if run.is_none() {
                        run = Some((x as u8, values.len() as u16));
                    }
                    values.push(quant.index(p[0], p[1], p[2]));
                    continue;
                }
                if let Some((x0, start)) = run.take() {
                    runs.push((y as u8, x0, start, (x - usize::from(x0)) as u8));
                }
                if p[3] > 0 {
                    rim.push((y as u8, x as u8, p));
                }
            }
        }
        FastSprite { runs, values, rim }
    }
}

/// The board of one size, theme and coordinates setting, with its stone sprites.
pub(crate) struct Background {
    /// The square board part in RGB.
    pub rgb: RgbBuf,
    /// The same in palette indices (empty while training the palette).
    pub idx: Vec<u8>,
    /// Sprites by `(colour - 1) * 4 + look`.
    sprites: Vec<Sprite>,
    /// The same, split for the palette (empty while training the palette).
    fast: Vec<FastSprite>,
}

impl Background {
    fn build(size: u8, colours: &Colours, coordinates: bool) -> Background {
        let layout = Layout::new(size, coordinates, 2);
        let rgb = board_picture(&layout, colours, coordinates);
        let sprites = colours
            .stones
            .iter()
            .flat_map(|look| {
                Look::ALL
                    .into_iter()
                    .map(move |kind| stone_sprite(layout.cell, look, kind, colours.cross))
            })
            .collect();
        Background {
            rgb,
            idx: Vec::new(),
            sprites,
            fast: Vec::new(),
        }
    }

    /// The sprite of a stone colour (1..=4) drawn a given way.
    pub fn sprite(&self, colour: u8, look: Look) -> Option<&Sprite> {
        let c = usize::from(colour).checked_sub(1)?;
        self.sprites.get(c * 4 + look.index())
    }

    /// The split sprite of a stone colour (1..=4) drawn a given way.
    pub fn fast_sprite(&self, colour: u8, look: Look) -> Option<&FastSprite> {
        let c = usize::from(colour).checked_sub(1)?;
        self.fast.get(c * 4 + look.index())
    }

    /// Copies the board's pixels under a tile whose top-left pixel is `(x0, y0)`.
    pub fn copy_tile(&self, x0: u32, y0: u32, tile: &mut RgbBuf) {
        let w = self.rgb.width() as usize;
        let tw = tile.width() as usize;
        for ty in 0..tile.height() as usize {
            let y = (y0 as usize + ty).min(self.rgb.height() as usize - 1);
            let src = (y * w + x0 as usize) * 3;
            let n = tw.min(w - x0 as usize) * 3;
            let to: &mut [u8] = tile;
            to[ty * tw * 3..ty * tw * 3 + n].copy_from_slice(&self.rgb.as_raw()[src..src + n]);
        }
    }
}

/// The cached board for a size, theme and coordinates setting.
pub(crate) fn background(size: u8, theme: Theme, coordinates: bool) -> Arc<Background> {
    static BOARDS: [OnceLock<Arc<Background>>; 16] = [const { OnceLock::new() }; 16];
    let build = || {
        let assets = theme_assets(theme);
        let mut bg = Background::build(size, theme.colours(), coordinates);
        bg.idx = bg
            .rgb
            .chunks_exact(3)
            .map(|p| assets.quant.index(p[0], p[1], p[2]))
            .collect();
        bg.fast = bg
            .sprites
            .iter()
            .map(|sp| FastSprite::new(sp, &assets.quant))
            .collect();
        Arc::new(bg)
    };
    let slot = match size {
        9 => Some(0),
        13 => Some(1),
        15 => Some(2),
        19 => Some(3),
        _ => None,
    };
    match slot {
        Some(s) => {
            let key = s * 4 + theme.index() * 2 + usize::from(coordinates);
            BOARDS[key].get_or_init(build).clone()
        }
        // Sizes the rules never produce are drawn without caching.
        None => build(),
    }
}

/// Star points of a board side.
pub(crate) fn star_points(size: u8) -> Vec<(u8, u8)> {
    let c = size / 2;
    let (lo, hi) = match size {
        19 => (3, 15),
        13 | 15 => (3, size - 4),
        9 => (2, 6),
        _ => return if size % 2 == 1 { vec![(c, c)] } else { vec![] },
    };
    let mut v = vec![(lo, lo), (lo, hi), (hi, lo), (hi, hi), (c, c)];
    if size == 19 {
        v.extend([(lo, c), (hi, c), (c, lo), (c, hi)]);
    }
    v
}

/// Wood, grid, star points and coordinates for the square board part.
fn board_picture(layout: &Layout, colours: &Colours, coordinates: bool) -> RgbBuf {
    let w = layout.width;
    let mut buf = super::paint::filled(w, w, colours.wood);
    // Straight grain (masame), as on good boards: stripes of uneven width and shade running
    // top to bottom. Rows repeat, which keeps the PNG small; no per-pixel noise.
    let shade: Vec<f32> = (0..w)
        .map(|x| {
            let x = x as f32;
            let v = 0.5 * (0.031 * x + 0.8 * (0.0077 * x).sin()).sin()
                + 0.3 * (0.093 * x + 1.1).sin()
                + 0.2 * (0.21 * x + 0.4 * (0.05 * x).sin()).sin();
            v * colours.grain
        })
        .collect();
    let px: &mut [u8] = &mut buf;
    for y in 0..w {
        for (x, v) in shade.iter().enumerate() {
            let i = ((y * w) as usize + x) * 3;
            for (k, f) in [1.0, 0.85, 0.6].into_iter().enumerate() {
                px[i + k] = (f32::from(colours.wood[k]) + v * f).clamp(0.0, 255.0) as u8;
            }
        }
    }
    let n = layout.size;
    let (left, top) = layout.point_xy(0, n - 1);
    let (right, bottom) = layout.point_xy(n - 1, 0);
    // Lines are two pixels wide and centred on pixel corners, so they stay crisp.
    for i in 0..n {
        let (x, _) = layout.point_xy(i, 0);
        buf.fill_rect(x - 1, top - 1, x + 1, bottom + 1, colours.grid);
        let (_, y) = layout.point_xy(0, i);
        buf.fill_rect(left - 1, y - 1, right + 1, y + 1, colours.grid);
    }
    let r = (layout.cell as f32 * 0.12).clamp(4.0, 6.5);
    for (col, row) in star_points(n) {
        let (x, y) = layout.point_xy(col, row);
        let (x, y) = (x as f32, y as f32);
        buf.paint_sdf((x - r, y - r, x + r, y + r), colours.grid, 1.0, |px, py| {
            ((px - x).powi(2) + (py - y).powi(2)).sqrt() - r
        });
    }
    if coordinates {
        let em = (layout.cell as f32 * 0.5).clamp(16.0, 22.0);
        // Centre labels in the free band between the picture's edge and the outer stones.
        let band = layout.pad as f32 - layout.cell as f32 * super::paint::STONE_RADIUS;
        let near = band / 2.0;
        let far = w as f32 - band / 2.0;
        let cap = text::cap_height(em);
        for i in 0..n {
            let (x, _) = layout.point_xy(i, 0);
            let t = text::shape(&column_letter(i).to_string(), em);
            for yc in [near, far] {
                text::draw(
                    &mut buf,
                    &t,
                    x as f32 - t.width / 2.0,
                    yc + cap / 2.0,
                    colours.label,
                );
            }
            let (_, y) = layout.point_xy(0, i);
            let t = text::shape(&(u32::from(i) + 1).to_string(), em);
            for xc in [near, far] {
                let yb = y as f32 + cap / 2.0;
                text::draw(&mut buf, &t, xc - t.width / 2.0, yb, colours.label);
            }
        }
    }
    buf
}

/// A busy picture holding every colour the renderer produces, to train the palette on.
fn training_picture(colours: &Colours, icons: &[Sprite]) -> RgbBuf {
    let size = 19;
    let bg = Background::build(size, colours, true);
    let layout = Layout::new(size, true, 4);
    let mut stones = Vec::new();
    for row in 0..size {
        for col in 0..size {
            let k = usize::from(row) * 7 + usize::from(col) * 3;
            if k % 3 == 0 {
                continue;
            }
            let look = match k % 11 {
                0 => Look::Last,
                1 => Look::Ghost,
                2 => Look::Tentative,
                _ => Look::Stone,
            };
            if let Ok(p) = Point::new(col, row, size) {
                stones.push((p, (k % 4) as u8 + 1, look));
            }
        }
    }
    let pt = |c, r| Point::new(c, r, size).unwrap_or(Point::centre(size));
    let lines = vec![
        LineMark {
            from: pt(2, 4),
            to: pt(7, 4),
            dashed: false,
        },
        LineMark {
            from: pt(10, 10),
            to: pt(14, 14),
            dashed: true,
        },
        LineMark {
            from: pt(3, 16),
            to: pt(7, 12),
            dashed: false,
        },
    ];
    // Colour emoji bring their own colours: a few common ones teach the palette skin tones,
    // reds, yellows and greens.
    let rows = [
        "Ann Ølsen 🐉✨",
        "漢字 한국어 かな 👍🏽❤️",
        "שלום עולם 🇫🇮🔥",
        "Zoë 123 (x) 😀🌈",
    ]
    .iter()
    .enumerate()
    .map(|(i, name)| Row {
        colour: i as u8 + 1,
        name: name.to_string(),
        placeholder: i == 3,
        captured: Some(format!("{i}/5 pairs")),
        mark: [RowMark::Turn, RowMark::Winner, RowMark::None, RowMark::None][i],
    })
    .collect();
    let status = vec![
        Part::Text("Move 123".into(), true),
        Part::Stone(1),
        Part::Stone(3),
        Part::Text("to move wins".into(), false),
    ];
    let scene = Scene {
        size,
        stones,
        lines,
        marks: Vec::new(),
        rows,
        team_split: Some(2),
        status,
    };
    compose_rgb(&scene, &layout, &bg, icons, colours)
}
