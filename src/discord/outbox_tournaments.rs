//! The poster's tournament rounds (issue 16): a round's post (each game's first message,
//! thread and board, then the pairings and standings, or the final result) is owed in the
//! commit that starts the round, and sent here with nonces made from the row's, so that a
//! retry after a lost answer or a restart posts nothing twice and opens no second thread.

use tracing::warn;

use super::outbox::{Failure, Poster, classify, request_failure};
use crate::service::{OutboxEnd, OutboxRow};
use crate::store::row_tournament;

impl Poster {
    /// Posts the round a `tournament` row owes, then records it posted.
    pub(super) async fn tournament_round(&self, row: &OutboxRow) -> Result<OutboxEnd, Failure> {
        let retry = |what: String| classify(0, None, None, false, row.attempts, what);
        let Some((id, round)) = row_tournament(row) else {
            return Ok(OutboxEnd::Stale);
        };
        let announcement = match self.service.announcement(id, round).await {
            Ok(Some(a)) => a,
            // Gone, or posted already (by a process before the outbox).
            Ok(None) => return Ok(OutboxEnd::Stale),
            Err(e) => return Err(retry(format!("reading the tournament: {e}"))),
        };
        if let Err(e) = super::tournaments::post_announcement(
            &self.http,
            &self.service,
            &self.i18n,
            &announcement,
            Some(&row.nonce),
        )
        .await
        {
            return Err(request_failure(
                &e,
                row.attempts,
                "posting a tournament round",
            ));
        }
        if let Err(e) = self.service.mark_announced(id, round).await {
            warn!(%e, tournament = id.0, "could not record a posted round");
        }
        Ok(OutboxEnd::Sent)
    }
}
