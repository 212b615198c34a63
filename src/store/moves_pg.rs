//! PostgreSQL: an append's rows in one statement. Each statement is a round trip to the
//! server and a parse, bind and execute on both sides, and an append wrote the game row, the
//! move log's row and the board's outbox row, then asked whether offers went stale: four
//! statements for every move, most of the store's work per move. Data-modifying `WITH`
//! clauses do all four in one, with the same rows, the same checks and the same outcomes:
//!
//! - the game row's conditional update comes first, and the log and outbox rows are
//!   inserted from its `RETURNING`: a game no longer at the previous ply (or ended) updates
//!   no row, so nothing at all is written and the append is a conflict, as before;
//! - the log row still meets the unique key `(game_id, ply)`; a duplicate fails the whole
//!   statement, reported as before (a log ahead of its game row is a fault);
//! - the outbox row's id comes from its sequence in the statement, before any row the
//!   caller owes after it (the edits of stale offers), so rows keep their order.
//!
//! SQLite runs in the process, where a statement costs no round trip: it keeps the
//! statements one by one (`moves`).

use sqlx::Row as _;

use super::moves::{Ending, NewAction, log_ahead_of_game};
use super::outbox::{Boot, OutboxKind, Owed, nonce};
use super::rows::flag;
use super::{AppendError, StorageError, Tx, is_unique_violation};

/// The game row's update and the log row's insert; `$1`-`$13`.
const GAME_AND_LOG: &str = "WITH g AS (UPDATE games SET ply = $1, to_act_seat = $2, \
     deadline = $3, sweep_lease = NULL, status = $4, result = $5, winners = $6, \
     loser_seat = $7, finished_at = $8, updated_at = $9 \
     WHERE game_id = $10 AND ply = $11 AND status = 'active' RETURNING game_id), \
     m AS (INSERT INTO moves (game_id, ply, seat, action, played_at) \
     SELECT game_id, $1, $12, $13, $9 FROM g RETURNING game_id)";

/// The outbox row's insert (only once the game row is updated); `$14`-`$18`.
const OUTBOX: &str = ", o AS (INSERT INTO outbox (game_id, ply, kind, seat, nonce, boot, \
     reply_token, detail, state, attempts, not_before, created_at) \
     SELECT game_id, $1, $14, $15, $16, $17, $18, NULL, 'pending', 0, $9, $9 FROM g \
     RETURNING game_id)";

/// Whether the game row moved, and whether open offers of earlier plies went stale.
const RESULT_WITH_OFFERS: &str = " SELECT (SELECT COUNT(*) FROM m) AS moved, \
     EXISTS (SELECT 1 FROM offers WHERE game_id = $10 AND status = 'open' AND ply < $1) \
     AS stale";

/// Whether the game row moved (nothing owed, so offers are not looked at).
const RESULT: &str = " SELECT (SELECT COUNT(*) FROM m) AS moved, FALSE AS stale";

/// Writes the game row's new snapshot, the move log's row and, when the action owes a board
/// or a loss on time, its outbox row, in one statement. Returns whether open offers of
/// earlier plies went stale (their edits are then owed after this row; never when nothing
/// is owed, as `owe_for_action` does).
///
/// # Errors
/// [`AppendError::Conflict`] when the game row is no longer at the previous ply or the game
/// ended (nothing written); [`AppendError::Storage`] otherwise.
pub(super) async fn append_rows(
    tx: &mut Tx,
    boot: &Boot,
    action: &NewAction,
    e: &Ending,
) -> Result<bool, AppendError> {
    let owed = match &action.owed {
        Owed::Nothing => None,
        Owed::Board { reply } => Some((OutboxKind::Board, None, reply.as_deref())),
        Owed::Timeout => Some((OutboxKind::Timeout, Some(i64::from(action.seat)), None)),
    };
    let sql = match owed {
        Some(_) => format!("{GAME_AND_LOG}{OUTBOX}{RESULT_WITH_OFFERS}"),
        None => format!("{GAME_AND_LOG}{RESULT}"),
    };
    let mut query = e
        .bind_game_update(sqlx::query(&sql), action)
        .bind(i64::from(action.seat))
        .bind(&action.token);
    if let Some((kind, seat, reply)) = owed {
        query = query
            .bind(kind.name())
            .bind(seat)
            .bind(nonce())
            .bind(&boot.0)
            .bind(reply);
    }
    let row = match query.fetch_one(&mut **tx).await {
        Ok(row) => row,
        Err(err) if is_unique_violation(&err) => return Err(log_ahead_of_game(action)),
        Err(err) => return Err(StorageError::from(err).into()),
    };
    let moved: i64 = row.try_get("moved").map_err(StorageError::from)?;
    if moved != 1 {
        return Err(AppendError::Conflict);
    }
    Ok(flag(&row, "stale")?)
}
