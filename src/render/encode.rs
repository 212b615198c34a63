//! Palette pictures to files: PNG for one position, GIF for a replay.

use std::borrow::Cow;

use thiserror::Error;

use super::cache::PALETTE_LEN;
use super::deflate::{self, BandCache};

/// The GIF palette index never used by a colour: marks unchanged pixels between frames.
pub(crate) const TRANSPARENT: u8 = PALETTE_LEN as u8;

/// Why a palette picture could not be encoded as PNG.
#[derive(Debug, Error)]
pub(crate) enum PngError {
    /// Zero or too large dimensions, or not `width * height` indices.
    #[error("a {width}x{height} picture cannot hold {len} pixels")]
    Size { width: u32, height: u32, len: usize },
    /// Not 1 to 256 RGB triples.
    #[error("a palette of {0} bytes is not 1 to 256 RGB colours")]
    Palette(usize),
    /// The compressor refused its input (it never does with valid arguments).
    #[error("deflate failed: {0}")]
    Deflate(#[from] flate2::CompressError),
}

/// The PNG file signature.
const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1A, b'\n'];

/// Appends a chunk: length, type, data, CRC-32 of type and data.
fn chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    let start = out.len();
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
}

/// Encodes an 8-bit palette picture as PNG: every row filtered with `Up`, the image data one
/// zlib stream of bands deflated separately (see [`deflate`]). `bands` lists the rows where
/// bands start; with `cache`, bands it holds are reused and new ones added to it. The file
/// is the same with or without a cache, and whatever the cache holds.
///
/// # Errors
/// [`PngError`] for dimensions that do not match the indices, or a bad palette.
pub(crate) fn png(
    w: u32,
    h: u32,
    palette: &[u8],
    idx: &[u8],
    bands: &[u32],
    cache: Option<&BandCache>,
) -> Result<Vec<u8>, PngError> {
    let size_error = PngError::Size {
        width: w,
        height: h,
        len: idx.len(),
    };
    let max = i32::MAX as u32;
    if w == 0 || h == 0 || w > max || h > max {
        return Err(size_error);
    }
    match (w as usize).checked_mul(h as usize) {
        Some(n) if n == idx.len() => {}
        _ => return Err(size_error),
    }
    if palette.is_empty() || palette.len() > 256 * 3 || !palette.len().is_multiple_of(3) {
        return Err(PngError::Palette(palette.len()));
    }
    let bands = deflate::bands(w as usize, idx, bands, cache)?;
    png_of_bands(w, h, palette, &bands)
}

/// The PNG of a `w` x `h` palette picture whose image data are these deflated bands (rows
/// filtered with `Up`), which must be the picture's rows from top to bottom. Dimensions and
/// palette must be valid (as [`png`] checks them).
///
/// # Errors
/// [`PngError::Size`] for image data too large for one chunk.
pub(crate) fn png_of_bands(
    w: u32,
    h: u32,
    palette: &[u8],
    bands: &[std::sync::Arc<deflate::Band>],
) -> Result<Vec<u8>, PngError> {
    let max = i32::MAX as u32;
    let zlib_len = deflate::zlib_len(bands);
    let size_error = PngError::Size {
        width: w,
        height: h,
        len: zlib_len,
    };
    let mut out = Vec::with_capacity(8 + 25 + 12 + palette.len() + 12 + zlib_len + 12);
    out.extend_from_slice(&SIGNATURE);
    let mut ihdr = [0u8; 13];
    ihdr[..4].copy_from_slice(&w.to_be_bytes());
    ihdr[4..8].copy_from_slice(&h.to_be_bytes());
    // 8 bits a pixel, palette colour, deflate, adaptive filtering, no interlace.
    ihdr[8..].copy_from_slice(&[8, 3, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"PLTE", palette);
    // One IDAT chunk, written in place: its CRC covers the stream as written.
    // A chunk holds at most 2^31 - 1 bytes; a board picture's stream is about 50 KB.
    let len = match u32::try_from(zlib_len) {
        Ok(len) if len <= max => len,
        _ => return Err(size_error),
    };
    out.extend_from_slice(&len.to_be_bytes());
    let start = out.len();
    out.extend_from_slice(b"IDAT");
    deflate::write_zlib(bands, &mut out);
    let crc = crc32fast::hash(&out[start..]);
    out.extend_from_slice(&crc.to_be_bytes());
    chunk(&mut out, b"IEND", &[]);
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Width, height, palette and indices of an 8-bit palette PNG, as stored.
    fn decode(png: &[u8]) -> (u32, u32, Vec<u8>, Vec<u8>) {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(png));
        decoder.set_transformations(png::Transformations::IDENTITY);
        let mut reader = decoder.read_info().expect("the PNG decodes");
        let info = reader.info();
        assert_eq!(info.color_type, png::ColorType::Indexed);
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        let palette = info.palette.as_deref().expect("a palette").to_vec();
        let mut idx = vec![0; reader.output_buffer_size().expect("a sane size")];
        let frame = reader.next_frame(&mut idx).expect("the image data decodes");
        idx.truncate(frame.buffer_size());
        reader.finish().expect("the file ends well");
        (frame.width, frame.height, palette, idx)
    }

    fn picture(w: usize, h: usize, colours: usize, seed: u64) -> Vec<u8> {
        // Runs of equal pixels and repeated rows, as in a board picture, plus noise.
        let mut x = seed | 1;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut idx = Vec::with_capacity(w * h);
        let mut value = 0u8;
        for _ in 0..h {
            if !idx.is_empty() && next() % 3 == 0 {
                let row: Vec<u8> = idx[idx.len() - w..].to_vec();
                idx.extend(row);
                continue;
            }
            for _ in 0..w {
                if next() % 6 == 0 {
                    value = (next() % colours as u64) as u8;
                }
                idx.push(value);
            }
        }
        idx
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        #[test]
        fn palette_pictures_decode_to_their_indices_and_palette(
            w in 1usize..150,
            h in 1usize..120,
            colours in 1usize..=256,
            seed in any::<u64>(),
            bands in proptest::collection::vec(0u32..130, 0..20),
        ) {
            let idx = picture(w, h, colours, seed);
            let palette: Vec<u8> = (0..colours * 3).map(|i| (i * 37 % 251) as u8).collect();
            let cache = BandCache::new(1 << 20);
            let cold = png(w as u32, h as u32, &palette, &idx, &bands, None).unwrap();
            let (dw, dh, dp, di) = decode(&cold);
            prop_assert_eq!((dw, dh), (w as u32, h as u32));
            prop_assert_eq!(&dp, &palette);
            prop_assert!(di == idx, "indices differ");
            // Through the cache, missing then hitting: the very same file.
            for _ in 0..2 {
                let cached = png(w as u32, h as u32, &palette, &idx, &bands, Some(&cache)).unwrap();
                prop_assert!(cached == cold, "the cache changed the file");
            }
        }
    }

    #[test]
    fn our_files_hold_the_pixels_the_png_crates_encoder_stores() {
        let (w, h) = (97, 61);
        let idx = picture(w, h, 200, 5);
        let palette: Vec<u8> = (0..600).map(|i| (i % 256) as u8).collect();
        let mut reference = Vec::new();
        let mut enc = png::Encoder::new(&mut reference, w as u32, h as u32);
        enc.set_color(png::ColorType::Indexed);
        enc.set_palette(palette.clone());
        let mut writer = enc.write_header().unwrap();
        writer.write_image_data(&idx).unwrap();
        writer.finish().unwrap();
        let ours = png(w as u32, h as u32, &palette, &idx, &[10, 20, 40], None).unwrap();
        assert_eq!(decode(&ours), decode(&reference));
    }

    #[test]
    fn bad_dimensions_and_palettes_are_refused() {
        let palette = [0u8; 6];
        let idx = [0u8; 12];
        for (w, h) in [(0, 12), (12, 0), (5, 2), (4, 4), (u32::MAX, 1)] {
            let err = png(w, h, &palette, &idx, &[], None).unwrap_err();
            assert!(matches!(err, PngError::Size { .. }), "{w}x{h}: {err}");
        }
        for len in [0, 4, 771] {
            let err = png(3, 4, &vec![0; len], &idx, &[], None).unwrap_err();
            assert!(matches!(err, PngError::Palette(n) if n == len), "{err}");
        }
        // Band starts outside the picture are ignored.
        let ok = png(3, 4, &palette, &idx, &[0, 0, 9, 3, 1, 400], None).unwrap();
        assert_eq!(decode(&ok).3, idx);
    }
}
