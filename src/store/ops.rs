//! What operating the bot asks the database (issue 17): is it there, how many games and
//! challenges are open, how busy the pools are.

use super::{StorageError, Store, Timestamp};

/// Database-wide counts for the metrics, read at scrape time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpenCounts {
    /// Games in progress.
    pub active_games: u64,
    /// Games in progress whose seat to act is past its deadline.
    pub overdue_games: u64,
    /// Challenges waiting for an answer.
    pub open_challenges: u64,
}

/// Connections in use in each pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolUse {
    /// The writer's pool.
    pub writer: u32,
    /// The readers' pool.
    pub reader: u32,
}

fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

impl Store {
    /// Asks the database a trivial question (readiness).
    ///
    /// # Errors
    /// [`StorageError`] when it does not answer.
    pub async fn ping(&self) -> Result<(), StorageError> {
        sqlx::query_scalar::<_, i64>("SELECT 1")
            .fetch_one(&self.reader)
            .await?;
        Ok(())
    }

    /// Games in progress, those overdue at `now`, and open challenges.
    ///
    /// # Errors
    /// [`StorageError`] on failure.
    pub async fn open_counts(&self, now: Timestamp) -> Result<OpenCounts, StorageError> {
        let active: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE status = 'active'")
            .fetch_one(&self.reader)
            .await?;
        let overdue: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM games WHERE status = 'active' AND deadline IS NOT NULL \
             AND deadline < $1",
        )
        .bind(now.0)
        .fetch_one(&self.reader)
        .await?;
        let open: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM challenges WHERE status = 'open'")
            .fetch_one(&self.reader)
            .await?;
        Ok(OpenCounts {
            active_games: count(active),
            overdue_games: count(overdue),
            open_challenges: count(open),
        })
    }

    /// Connections open (in use or idle) in each pool: what must not grow with time.
    pub fn pool_open(&self) -> PoolUse {
        PoolUse {
            writer: self.writer.size(),
            reader: self.reader.size(),
        }
    }

    /// Whether [`Store::close`] was called (work loops end instead of retrying).
    pub fn is_closed(&self) -> bool {
        self.writer.is_closed()
    }

    /// Connections in use (not idle) in each pool.
    pub fn pool_use(&self) -> PoolUse {
        let busy = |pool: &sqlx::AnyPool| {
            pool.size()
                .saturating_sub(u32::try_from(pool.num_idle()).unwrap_or(u32::MAX))
        };
        PoolUse {
            writer: busy(&self.writer),
            reader: busy(&self.reader),
        }
    }
}
