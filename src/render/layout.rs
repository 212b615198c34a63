//! Where things go: cell size, margins and the footer band for a board size.

/// The picture's width in pixels, roughly: phones show it at full width.
pub(crate) const TARGET_WIDTH: u32 = 800;
/// Height of one footer row.
pub(crate) const ROW_H: u32 = 38;
/// Footer space above the first row and below the last.
pub(crate) const FOOTER_PAD_TOP: u32 = 12;
const FOOTER_PAD_BOTTOM: u32 = 10;

/// The geometry of one picture.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Board side in points.
    pub size: u8,
    /// Distance between neighbouring lines, in pixels.
    pub cell: u32,
    /// Distance from the picture's edge to the outer grid line.
    pub pad: u32,
    /// Picture width, and height of the (square) board part.
    pub width: u32,
    /// Height of the footer band below the board.
    pub footer_h: u32,
    /// Number of footer rows (one per player, plus the status row).
    pub rows: u32,
}

impl Layout {
    /// The layout of a board of side `size` (at least 2) with `players` footer rows.
    pub fn new(size: u8, coordinates: bool, players: u32) -> Layout {
        let n = u32::from(size.max(2));
        // Room beyond the outer stones' cells: the coordinates, or a wooden border.
        let extra = if coordinates { 32 } else { 10 };
        // Tiny boards (which the rules never make) keep cells of at most 120 pixels: sprite
        // offsets are stored in bytes.
        let cell = ((TARGET_WIDTH - 2 * extra) / n).clamp(8, 120);
        let pad = cell / 2 + extra;
        let width = 2 * pad + (n - 1) * cell;
        let rows = players + 1;
        Layout {
            size: size.max(2),
            cell,
            pad,
            width,
            footer_h: FOOTER_PAD_TOP + rows * ROW_H + FOOTER_PAD_BOTTOM,
            rows,
        }
    }

    /// Picture height: the square board and the footer.
    pub fn height(&self) -> u32 {
        self.width + self.footer_h
    }

    /// The first rows of the picture's horizontal bands for PNG encoding, each deflated and
    /// cached on its own (see `deflate`): the top margin, one band per row of points, the
    /// bottom margin, and in the footer its top, one band per footer row and its bottom.
    ///
    /// A move changes the bands of its own row of points and few others. Bands start one
    /// pixel below a cell's top edge: rows are filtered against the row above, so a band is
    /// cached together with that row, and a cell's top row is plain board, which no stone
    /// reaches (stones' shadows do reach a cell's bottom row).
    pub fn band_starts(&self) -> Vec<u32> {
        let n = u32::from(self.size);
        let top = self.pad - self.cell / 2 + 1;
        let mut v = vec![0];
        v.extend((0..=n).map(|k| top + k * self.cell));
        let footer = self.width + FOOTER_PAD_TOP;
        v.push(self.width);
        v.extend((0..=self.rows).map(|i| footer + i * ROW_H));
        v
    }

    /// The pixel corner where the lines of a point cross (row 0 at the bottom).
    pub fn point_xy(&self, col: u8, row: u8) -> (i32, i32) {
        let n = u32::from(self.size);
        let x = self.pad + u32::from(col) * self.cell;
        let y = self.pad + (n - 1 - u32::from(row).min(n - 1)) * self.cell;
        (x as i32, y as i32)
    }

    /// Top-left pixel of the square cell around a point, the area its stone may cover.
    pub fn cell_origin(&self, col: u8, row: u8) -> (i32, i32) {
        let (x, y) = self.point_xy(col, row);
        let h = (self.cell / 2) as i32;
        (x - h, y - h)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pictures_are_about_800_wide_and_not_square() {
        for size in [9, 13, 15, 19] {
            for coords in [true, false] {
                let l = Layout::new(size, coords, 2);
                assert!(
                    (760..=820).contains(&l.width),
                    "{size} {coords}: {}",
                    l.width
                );
                assert!(l.height() > l.width + 80);
                // Every cell lies inside the picture.
                let (x, y) = l.cell_origin(0, size - 1);
                assert!(x >= 0 && y >= 0);
                let (x, y) = l.cell_origin(size - 1, 0);
                assert!(x as u32 + l.cell <= l.width && y as u32 + l.cell <= l.width);
            }
        }
    }

    #[test]
    fn bands_start_inside_the_picture_in_order() {
        for size in [9, 13, 15, 19] {
            for coords in [true, false] {
                for players in [2, 3, 4] {
                    let l = Layout::new(size, coords, players);
                    let b = l.band_starts();
                    assert_eq!(b[0], 0);
                    assert!(b.windows(2).all(|w| w[0] < w[1]), "{b:?}");
                    assert!(*b.last().unwrap() < l.height(), "{b:?}");
                    // Every row of points has its band, one row below its cells' top.
                    for row in 0..size {
                        let y = l.cell_origin(0, row).1 as u32 + 1;
                        assert!(b.contains(&y), "{size} {coords}: {y} in {b:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn row_one_is_at_the_bottom() {
        let l = Layout::new(19, true, 2);
        assert!(l.point_xy(0, 0).1 > l.point_xy(0, 18).1);
        assert!(l.point_xy(0, 0).0 < l.point_xy(18, 0).0);
    }
}
