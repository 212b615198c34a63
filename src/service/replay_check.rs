//! Replaying every stored game's move log with the rules core and comparing the result with
//! the game's row: the check `migrate-store` runs on its copy (and any tool can run on a
//! database it distrusts).

use super::loaded::{Loaded, result_of};
use super::{GameStatus, ResultReason, StorageError, StorageErrorKind};
use crate::store::Store;

/// Replays every game of `store` and compares it with its row: the log must replay with the
/// rules core (plies in order, each seat in turn, every move legal), the row's ply count must
/// be the log's length, an active game must not be over and must wait for the seat the row
/// names, and a game that ended on the board (a line, captures, a full board) must have the
/// result the rules core finds. Returns how many games were checked.
///
/// # Errors
/// [`StorageErrorKind::Corrupt`] naming the first game that differs, or the failure to read.
pub async fn replay_every_game(store: &Store) -> Result<usize, StorageError> {
    let ids = store.all_game_ids().await?;
    for &id in &ids {
        let Some(stored) = store.load_game(id).await? else {
            continue;
        };
        let loaded = Loaded::rebuild(stored)?;
        let differs = |what: String| StorageError {
            kind: StorageErrorKind::Corrupt,
            detail: format!("game {id}: {what}"),
        };
        let game = &loaded.game;
        match loaded.meta.status {
            GameStatus::Active => {
                if game.is_over() {
                    return Err(differs(format!(
                        "the row says active, the log ends the game ({:?})",
                        game.status()
                    )));
                }
                if loaded.meta.to_act != game.seat_to_act() {
                    return Err(differs(format!(
                        "the row says seat {:?} acts, the log says seat {:?}",
                        loaded.meta.to_act,
                        game.seat_to_act()
                    )));
                }
            }
            GameStatus::Finished(result) => {
                let on_board = matches!(
                    result.reason,
                    ResultReason::Line | ResultReason::Captures | ResultReason::BoardFull
                );
                if on_board && result_of(game.status()) != Some(result) {
                    return Err(differs(format!(
                        "the row says {result:?}, the log says {:?}",
                        game.status()
                    )));
                }
            }
        }
    }
    Ok(ids.len())
}
