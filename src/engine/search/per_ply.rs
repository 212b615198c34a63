//! Tables kept per ply of the line being searched (`killers.rs`, `improving.rs`): how many
//! plies have a slot and the slot of a ply.

/// Plies with a slot; deeper nodes (long forcing lines) keep none.
pub(super) const PLIES: usize = 128;

/// The slot of `ply`; `None` for a negative ply or one beyond [`PLIES`].
pub(super) fn slot(ply: i32) -> Option<usize> {
    usize::try_from(ply).ok().filter(|&p| p < PLIES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plies_within_the_table_have_a_slot_others_none() {
        assert_eq!(slot(0), Some(0));
        assert_eq!(slot(127), Some(127));
        assert_eq!(slot(128), None);
        assert_eq!(slot(-1), None);
        assert_eq!(slot(i32::MIN), None);
    }
}
