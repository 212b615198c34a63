//! What the poster reads for the outbox's edits and notices (issue 16): the offers an action
//! made stale, and the challenge an expired row is about.

use super::{Challenge, Offer, Service, ServiceError};
use crate::store::{OutboxRow, queue_challenge};

impl Service {
    /// The offers whose messages an `offers` row owes edits of: those of its game made before
    /// its action and lapsed since (open ones are closed as expired now).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn outbox_lapsed_offers(&self, row: &OutboxRow) -> Result<Vec<Offer>, ServiceError> {
        Ok(self
            .store
            .offers_lapsed_by(row.game, row.ply, row.created_at, self.now())
            .await?)
    }

    /// The challenge a `challenge` row is about, if it is still there.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn outbox_challenge(
        &self,
        row: &OutboxRow,
    ) -> Result<Option<Challenge>, ServiceError> {
        let Some(id) = queue_challenge(row.game) else {
            return Ok(None);
        };
        Ok(self.store.challenge(id).await?)
    }
}
