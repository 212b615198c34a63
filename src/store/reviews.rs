//! Engine reviews of finished games: one row per game, claimed while the engine analyses
//! (so that one game is analysed once at a time, in this process or another), then kept as
//! JSON so that asking again answers at once, also after a restart.

use sqlx::Row as _;

use super::{ChannelId, GameId, MessageId, StorageError, Store, Timestamp};

/// What claiming a review found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReviewClaim {
    /// The review is stored (its JSON).
    Done(String),
    /// Another analysis of this game is running (its lease is fresh).
    Busy,
    /// Claimed: the caller analyses now.
    Claimed,
}

/// An analysis that was running when the process stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunningReview {
    /// The game.
    pub game: GameId,
    /// The language it was asked in.
    pub lang: String,
    /// The message showing its progress, if it was recorded.
    pub message: Option<(ChannelId, MessageId)>,
}

impl Store {
    /// Returns the stored review of `game` made by `method`, or claims its analysis (a
    /// missing row, a review made by another method, or a running one whose lease began
    /// before `stale_before`), or reports that another analysis runs.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn claim_review(
        &self,
        game: GameId,
        method: &str,
        lang: &str,
        now: Timestamp,
        stale_before: Timestamp,
    ) -> Result<ReviewClaim, StorageError> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(
            "SELECT method, status, review, claimed_at FROM reviews WHERE game_id = $1",
        )
        .bind(game.0)
        .fetch_optional(&mut *tx)
        .await?;
        if let Some(row) = &row {
            let stored_method: String = row.try_get("method")?;
            let status: String = row.try_get("status")?;
            let claimed_at: i64 = row.try_get("claimed_at")?;
            if status == "done" && stored_method == method {
                let review: Option<String> = row.try_get("review")?;
                if let Some(json) = review {
                    return Ok(ReviewClaim::Done(json));
                }
            }
            if status == "running" && claimed_at >= stale_before.0 {
                return Ok(ReviewClaim::Busy);
            }
        }
        sqlx::query(
            "INSERT INTO reviews (game_id, method, status, review, lang, channel_id, \
             message_id, claimed_at, finished_at) \
             VALUES ($1, $2, 'running', NULL, $3, NULL, NULL, $4, NULL) \
             ON CONFLICT (game_id) DO UPDATE SET method = excluded.method, \
             status = 'running', review = NULL, lang = excluded.lang, channel_id = NULL, \
             message_id = NULL, claimed_at = excluded.claimed_at, finished_at = NULL",
        )
        .bind(game.0)
        .bind(method)
        .bind(lang)
        .bind(now.0)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(ReviewClaim::Claimed)
    }

    /// Records the message that shows a running analysis's progress.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn set_review_message(
        &self,
        game: GameId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "UPDATE reviews SET channel_id = $1, message_id = $2 \
             WHERE game_id = $3 AND status = 'running'",
        )
        .bind(channel.to_db())
        .bind(message.to_db())
        .bind(game.0)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Renews a running analysis's lease (it is alive: progress was made).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn renew_review(&self, game: GameId, now: Timestamp) -> Result<(), StorageError> {
        sqlx::query("UPDATE reviews SET claimed_at = $1 WHERE game_id = $2 AND status = 'running'")
            .bind(now.0)
            .bind(game.0)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// Stores a finished review.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn finish_review(
        &self,
        game: GameId,
        method: &str,
        json: &str,
        now: Timestamp,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "UPDATE reviews SET status = 'done', method = $1, review = $2, finished_at = $3 \
             WHERE game_id = $4",
        )
        .bind(method)
        .bind(json)
        .bind(now.0)
        .bind(game.0)
        .execute(&self.writer)
        .await?;
        Ok(())
    }

    /// Forgets a running analysis that failed (it may be asked again).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn drop_review(&self, game: GameId) -> Result<(), StorageError> {
        sqlx::query("DELETE FROM reviews WHERE game_id = $1 AND status = 'running'")
            .bind(game.0)
            .execute(&self.writer)
            .await?;
        Ok(())
    }

    /// The analyses still marked running whose lease began before `stale_before` (their
    /// process stopped), oldest first.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn stale_reviews(
        &self,
        stale_before: Timestamp,
    ) -> Result<Vec<RunningReview>, StorageError> {
        let rows = sqlx::query(
            "SELECT game_id, lang, channel_id, message_id FROM reviews \
             WHERE status = 'running' AND claimed_at < $1 ORDER BY claimed_at, game_id",
        )
        .bind(stale_before.0)
        .fetch_all(&self.reader)
        .await?;
        rows.iter()
            .map(|r| {
                let channel: Option<i64> = r.try_get("channel_id")?;
                let message: Option<i64> = r.try_get("message_id")?;
                Ok(RunningReview {
                    game: GameId(r.try_get("game_id")?),
                    lang: r.try_get("lang")?,
                    message: channel
                        .zip(message)
                        .map(|(c, m)| (ChannelId::from_db(c), MessageId::from_db(m))),
                })
            })
            .collect()
    }
}
