//! The line loop of the engine's checked-in data files (`ordering.txt`, `eval_sets.txt`)
//! and the arena's openings files: `#` starts a comment, blank lines are skipped, and each
//! line keeps its number for the error that names it.

/// The non-blank lines of `text` without their comments, trimmed, each with its number
/// (counting from 1, as an editor shows it).
pub(crate) fn data_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.lines().enumerate().filter_map(|(n, line)| {
        let line = line.split('#').next().unwrap_or_default().trim();
        (!line.is_empty()).then_some((n + 1, line))
    })
}

#[cfg(test)]
mod tests {
    use super::data_lines;

    #[test]
    fn comments_and_blank_lines_go_and_numbers_stay() {
        let text = "# a header\n\n  a b # why\nc\n   \n#\nd e";
        let lines: Vec<_> = data_lines(text).collect();
        assert_eq!(lines, [(3, "a b"), (4, "c"), (7, "d e")]);
        assert_eq!(data_lines("").count(), 0);
        assert_eq!(data_lines("# only\n\n").count(), 0);
    }
}
