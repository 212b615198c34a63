//! Palette pictures to files: PNG for one position, GIF for a replay.

use std::borrow::Cow;

use super::cache::PALETTE_LEN;

/// zlib level for PNGs. With the `Up` filter, level 2 gives the files level 3 gave unfiltered
/// (19x19 boards of 0-280 stones, both themes: 43.6 KB against 41.2 KB on average) in two
/// thirds of the time (1.0 ms against 1.5 ms); level 3 with `Up` is 39.4 KB in 1.25 ms,
/// level 1 with `Up` 56 KB in 0.66 ms. Encoding is most of a move's CPU under load.
const PNG_LEVEL: u8 = 2;
/// The GIF palette index never used by a colour: marks unchanged pixels between frames.
pub(crate) const TRANSPARENT: u8 = PALETTE_LEN as u8;

/// Encodes an 8-bit palette picture as PNG.
///
/// # Errors
/// The `png` crate's error, which only bad dimensions or a short buffer can cause.
pub(crate) fn png(
    w: u32,
    h: u32,
    palette: &[u8],
    idx: &[u8],
) -> Result<Vec<u8>, png::EncodingError> {
    let mut out = Vec::with_capacity(64 * 1024);
    let mut enc = png::Encoder::new(&mut out, w, h);
    enc.set_color(png::ColorType::Indexed);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_palette(palette);
    // Rows of a board repeat the row above (wood, grid lines, stones' columns): `Up` leaves
    // zeros there, which deflate finds faster than long matches, and files get smaller too.
    enc.set_filter(png::Filter::Up);
    enc.set_deflate_compression(png::DeflateCompression::Level(PNG_LEVEL));
    let mut writer = enc.write_header()?;
    writer.write_image_data(idx)?;
    writer.finish()?;
    Ok(out)
}

/// Writes an animated GIF frame by frame; each frame after the first only carries the
/// rectangle that changed, with unchanged pixels transparent.
pub(crate) struct GifWriter {
    enc: gif::Encoder<Vec<u8>>,
    w: u32,
    h: u32,
    prev: Option<Vec<u8>>,
}

impl GifWriter {
    pub fn new(w: u32, h: u32, palette: &[u8]) -> Result<GifWriter, gif::EncodingError> {
        let mut full = palette.to_vec();
        full.resize(256 * 3, 0);
        let mut enc = gif::Encoder::new(Vec::new(), w as u16, h as u16, &full)?;
        enc.set_repeat(gif::Repeat::Infinite)?;
        Ok(GifWriter {
            enc,
            w,
            h,
            prev: None,
        })
    }

    /// Adds a frame shown for `delay` hundredths of a second.
    pub fn frame(&mut self, idx: Vec<u8>, delay: u16) -> Result<(), gif::EncodingError> {
        let (w, h) = (self.w as usize, self.h as usize);
        let frame = match &self.prev {
            None => gif::Frame {
                width: w as u16,
                height: h as u16,
                buffer: Cow::Borrowed(&idx),
                delay,
                ..gif::Frame::default()
            },
            Some(prev) => {
                let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
                for y in 0..h {
                    let row = &idx[y * w..(y + 1) * w];
                    let old = &prev[y * w..(y + 1) * w];
                    if row == old {
                        continue;
                    }
                    let first = row.iter().zip(old).position(|(a, b)| a != b).unwrap_or(0);
                    let last = row.iter().zip(old).rposition(|(a, b)| a != b).unwrap_or(0);
                    x0 = x0.min(first);
                    x1 = x1.max(last + 1);
                    y0 = y0.min(y);
                    y1 = y + 1;
                }
                if x0 >= x1 {
                    // Nothing changed: a one-pixel transparent frame keeps the count right.
                    (x0, y0, x1, y1) = (0, 0, 1, 1);
                }
                let mut buf = Vec::with_capacity((x1 - x0) * (y1 - y0));
                for y in y0..y1 {
                    for x in x0..x1 {
                        let v = idx[y * w + x];
                        buf.push(if prev[y * w + x] == v { TRANSPARENT } else { v });
                    }
                }
                gif::Frame {
                    left: x0 as u16,
                    top: y0 as u16,
                    width: (x1 - x0) as u16,
                    height: (y1 - y0) as u16,
                    buffer: Cow::Owned(buf),
                    transparent: Some(TRANSPARENT),
                    dispose: gif::DisposalMethod::Keep,
                    delay,
                    ..gif::Frame::default()
                }
            }
        };
        self.enc.write_frame(&frame)?;
        self.prev = Some(idx);
        Ok(())
    }

    /// The finished file.
    pub fn finish(self) -> Result<Vec<u8>, gif::EncodingError> {
        self.enc.into_inner()
    }
}
