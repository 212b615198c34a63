//! What challenges, offers and tournaments share as rows a Discord message shows: recording
//! that message, and closing a row that is still open (challenges and offers).
//!
//! Each of those tables has the same `message_channel_id`, `message_id` and (but tournaments)
//! `status`, `closed_at`, `closed_by` columns, so one statement serves each; only the table
//! and its key column differ. Both are given as constants by the feature files, never from
//! input.

use super::model::{ChannelId, MessageId, Timestamp, UserId};
use super::{StorageError, Store};

/// A table whose rows a message shows, and the column that keys it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shown {
    /// The table, e.g. `challenges`.
    pub table: &'static str,
    /// Its key column, e.g. `challenge_id`.
    pub key: &'static str,
}

impl Store {
    /// Records the message that shows row `id` of `shown`. `false` if there is no such row.
    pub(super) async fn set_shown_message(
        &self,
        shown: Shown,
        id: i64,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<bool, StorageError> {
        let Shown { table, key } = shown;
        let done = sqlx::query(&format!(
            "UPDATE {table} SET message_channel_id = $1, message_id = $2 WHERE {key} = $3"
        ))
        .bind(channel.to_db())
        .bind(message.to_db())
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Closes row `id` of `shown` with `status` (its stored name) if it is still open: a
    /// conditional update, so of two closers (in this process or another) exactly one wins.
    /// `false` when it was not open any more.
    pub(super) async fn close_shown(
        &self,
        shown: Shown,
        id: i64,
        status: &str,
        by: Option<UserId>,
        now: Timestamp,
    ) -> Result<bool, StorageError> {
        let Shown { table, key } = shown;
        let done = sqlx::query(&format!(
            "UPDATE {table} SET status = $1, closed_at = $2, closed_by = $3 \
             WHERE {key} = $4 AND status = 'open'"
        ))
        .bind(status)
        .bind(now.0)
        .bind(by.map(UserId::to_db))
        .bind(id)
        .execute(&self.writer)
        .await?;
        Ok(done.rows_affected() == 1)
    }
}
