//! What operating the bot asks the service (issue 17): readiness and the database-wide gauges.

use super::{Service, ServiceError};
use crate::store::{OpenCounts, PoolUse};

impl Service {
    /// Whether the database answers.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] when it does not.
    pub async fn ping(&self) -> Result<(), ServiceError> {
        Ok(self.store.ping().await?)
    }

    /// Games in progress, games past their deadline now, and open challenges.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] on failure.
    pub async fn open_counts(&self) -> Result<OpenCounts, ServiceError> {
        Ok(self.store.open_counts(self.now()).await?)
    }

    /// Whether the database was closed (the process is stopping).
    pub fn is_closed(&self) -> bool {
        self.store.is_closed()
    }

    /// Database connections in use, per pool.
    pub fn pool_use(&self) -> PoolUse {
        self.store.pool_use()
    }
}
