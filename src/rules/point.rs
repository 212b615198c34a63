//! Board points and their names (`K10`: a column letter skipping I, a row number from 1 at the bottom).

use std::fmt;

use thiserror::Error;

/// The largest board side the rules support.
pub const MAX_SIZE: u8 = 19;

/// Column letters in order; `I` is skipped, as on Go and Pente boards. Letters past `T`
/// continue the sequence so that `Z5` is "off the board" rather than "not a coordinate".
const COLUMN_LETTERS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// An intersection of the board: column from the left and row from the bottom, both from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    col: u8,
    row: u8,
}

/// Why a piece of text is not a point of the board.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PointError {
    /// The text is not a coordinate at all (`I5`, `K`, `10K`, `K1x`, empty text).
    #[error(
        "`{0}` is not a coordinate (expected a column letter A-T without I, then a row number, like K10)"
    )]
    Malformed(String),
    /// A well-formed coordinate that lies outside the board.
    #[error("`{text}` is outside the {size}x{size} board")]
    OutOfBounds {
        /// The text as given.
        text: String,
        /// The board side.
        size: u8,
    },
}

impl Point {
    /// A point from column and row (both from 0, row 0 at the bottom).
    ///
    /// # Errors
    /// [`PointError::OutOfBounds`] when it is not on a board of side `size`.
    pub fn new(col: u8, row: u8, size: u8) -> Result<Self, PointError> {
        if col < size && row < size {
            Ok(Point { col, row })
        } else {
            Err(PointError::OutOfBounds {
                text: format!("{}{}", column_letter(col), u32::from(row) + 1),
                size,
            })
        }
    }

    /// The column, 0 at the left (`A`).
    pub fn col(self) -> u8 {
        self.col
    }

    /// The row, 0 at the bottom (row `1`).
    pub fn row(self) -> u8 {
        self.row
    }

    /// Parses `K10`, `k10`, ` a1 ` on a board of side `size`.
    ///
    /// # Errors
    /// [`PointError::Malformed`] for text that is not a coordinate, [`PointError::OutOfBounds`]
    /// for a coordinate beyond the board (including row 0).
    pub fn parse(text: &str, size: u8) -> Result<Self, PointError> {
        let trimmed = text.trim();
        let malformed = || PointError::Malformed(text.to_string());
        let mut chars = trimmed.chars();
        let letter = chars.next().ok_or_else(malformed)?.to_ascii_uppercase();
        let digits = chars.as_str();
        if !letter.is_ascii_uppercase() || letter == 'I' {
            return Err(malformed());
        }
        if digits.is_empty()
            || digits.len() > 3
            || !digits.bytes().all(|b| b.is_ascii_digit())
            || (digits.len() > 1 && digits.starts_with('0'))
        {
            return Err(malformed());
        }
        let col = COLUMN_LETTERS
            .iter()
            .position(|&b| b == letter as u8)
            .ok_or_else(malformed)?;
        let row: u32 = digits.parse().map_err(|_| malformed())?;
        let out = || PointError::OutOfBounds {
            text: trimmed.to_ascii_uppercase(),
            size,
        };
        if row == 0 || row > u32::from(size) || col >= usize::from(size) {
            return Err(out());
        }
        Ok(Point {
            col: col as u8,
            row: (row - 1) as u8,
        })
    }

    /// The point's name, like `K10`.
    pub fn name(self) -> String {
        self.to_string()
    }

    /// Chebyshev distance (king moves) to another point.
    pub fn distance(self, other: Point) -> u8 {
        self.col
            .abs_diff(other.col)
            .max(self.row.abs_diff(other.row))
    }

    /// The centre point of a board of side `size` (sizes are odd).
    pub fn centre(size: u8) -> Point {
        Point {
            col: size / 2,
            row: size / 2,
        }
    }

    /// The SGF name of the point (`aa` is the top-left corner).
    pub fn sgf(self, size: u8) -> String {
        let c = (b'a' + self.col) as char;
        let r = (b'a' + (size - 1 - self.row)) as char;
        format!("{c}{r}")
    }

    /// Reads an SGF point name (`jj`) on a board of side `size`.
    ///
    /// # Errors
    /// [`PointError`] when the text is not two letters inside the board.
    pub fn from_sgf(text: &str, size: u8) -> Result<Self, PointError> {
        let b = text.as_bytes();
        if b.len() != 2 || !b[0].is_ascii_lowercase() || !b[1].is_ascii_lowercase() {
            return Err(PointError::Malformed(text.to_string()));
        }
        let col = b[0] - b'a';
        let from_top = b[1] - b'a';
        if col >= size || from_top >= size {
            return Err(PointError::OutOfBounds {
                text: text.to_string(),
                size,
            });
        }
        Ok(Point {
            col,
            row: size - 1 - from_top,
        })
    }
}

/// The letter of a column (0 = `A`, 8 = `J`).
pub fn column_letter(col: u8) -> char {
    COLUMN_LETTERS
        .get(usize::from(col))
        .map_or('?', |&b| b as char)
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", column_letter(self.col), u32::from(self.row) + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centres_match_the_design() {
        assert_eq!(Point::centre(19).name(), "K10");
        assert_eq!(Point::centre(15).name(), "H8");
        assert_eq!(Point::centre(13).name(), "G7");
        assert_eq!(Point::centre(9).name(), "E5");
    }

    #[test]
    fn parsing_is_case_insensitive_and_skips_i() {
        assert_eq!(Point::parse("k10", 19), Point::parse("K10", 19));
        assert_eq!(Point::parse("J1", 19).unwrap().col(), 8);
        assert_eq!(
            Point::parse("T19", 19).unwrap(),
            Point::new(18, 18, 19).unwrap()
        );
        assert_eq!(
            Point::parse(" a1 ", 9).unwrap(),
            Point::new(0, 0, 9).unwrap()
        );
    }

    #[test]
    fn bad_text_is_malformed() {
        for t in [
            "", "I5", "i5", "K", "10", "10K", "K1x", "K-1", "KK10", "K05", "K1000", "é5", "K 10",
            "+1",
        ] {
            assert!(
                matches!(Point::parse(t, 19), Err(PointError::Malformed(_))),
                "{t:?}"
            );
        }
    }

    #[test]
    fn off_board_is_out_of_bounds() {
        for t in ["U1", "Z5", "A20", "A0", "K100", "J10"] {
            assert!(
                matches!(Point::parse(t, 9), Err(PointError::OutOfBounds { .. })),
                "{t:?}"
            );
        }
        assert!(Point::parse("T19", 15).is_err());
        assert!(Point::parse("P15", 15).is_ok());
    }

    #[test]
    fn sgf_names_round_trip() {
        for size in [9u8, 13, 15, 19] {
            for col in 0..size {
                for row in 0..size {
                    let p = Point::new(col, row, size).unwrap();
                    assert_eq!(Point::from_sgf(&p.sgf(size), size).unwrap(), p);
                    assert_eq!(Point::parse(&p.name(), size).unwrap(), p);
                }
            }
        }
        assert_eq!(Point::parse("A19", 19).unwrap().sgf(19), "aa");
    }
}
