//! The poster's edits (issue 16): the messages of offers an action made stale, and of
//! challenges that expired, each owed in the commit that closed them. An edit is idempotent:
//! made twice (a retry after a lost answer, a restart), it leaves the same message.

use poise::serenity_prelude as serenity;
use tracing::warn;

use super::outbox::{Failure, Poster, classify, read_failure, request_failure};
use super::rest::edit_message;
use crate::service::{OutboxEnd, OutboxRow};

impl Poster {
    /// Edits one message; a refusal for good of an edit is given up (the message was deleted:
    /// nothing left to correct).
    async fn edit(
        &self,
        channel: u64,
        message: u64,
        edit: serenity::EditMessage,
        attempts: u32,
    ) -> Result<(), Failure> {
        match edit_message(&self.http, channel, message, edit).await {
            Ok(_) => Ok(()),
            Err(e) => Err(request_failure(&e, attempts, "editing a message")),
        }
    }

    /// The offers of a game that its action at the row's ply made stale: their messages say
    /// so, and lose their buttons.
    pub(super) async fn offers_lapsed(&self, row: &OutboxRow) -> Result<OutboxEnd, Failure> {
        let retry = |what: String| classify(0, None, None, false, row.attempts, what);
        let offers = self
            .service
            .outbox_lapsed_offers(row)
            .await
            .map_err(|e| retry(format!("reading the lapsed offers: {e}")))?;
        if offers.is_empty() {
            return Ok(OutboxEnd::Stale);
        }
        // The game as it is now (the offers' authors are named from its seats).
        let view = match self.service.game_at(row.game, u32::MAX).await {
            Ok(Some((v, _))) => v,
            Ok(None) => return Ok(OutboxEnd::Stale),
            Err(e) => return Err(retry(format!("reading the game: {e}"))),
        };
        let lang = self.guild_lang(view.guild).await;
        for offer in &offers {
            let Some((channel, message)) = offer.message else {
                continue;
            };
            let edit = super::components::offers::lapsed_edit(&self.i18n, lang, &view, offer);
            match self.edit(channel.0, message.0, edit, row.attempts).await {
                Ok(()) => {}
                Err(Failure::Permanent { why, .. }) => {
                    warn!(offer = offer.id.0, %why, "could not strike a lapsed offer's buttons");
                }
                Err(f) => return Err(f),
            }
        }
        Ok(OutboxEnd::Sent)
    }

    /// An expired challenge's message: its text as it now stands, without buttons.
    pub(super) async fn challenge_closed(&self, row: &OutboxRow) -> Result<OutboxEnd, Failure> {
        let challenge = match self.service.outbox_challenge(row).await {
            Ok(Some(c)) => c,
            Ok(None) => return Ok(OutboxEnd::Stale),
            Err(e) => {
                return Err(read_failure(row.attempts, "reading the challenge", e));
            }
        };
        let Some((channel, message)) = challenge.message else {
            return Ok(OutboxEnd::Stale);
        };
        let lang = self.guild_lang(challenge.guild).await;
        let content = super::text::clip(super::text::challenge_text(&self.i18n, lang, &challenge));
        let edit = serenity::EditMessage::new()
            .content(content)
            .components(Vec::new());
        match self.edit(channel.0, message.0, edit, row.attempts).await {
            Err(Failure::Permanent { why, .. }) => {
                warn!(challenge = challenge.id.0, %why, "could not update an expired challenge's message");
                Ok(OutboxEnd::Failed)
            }
            other => other.map(|()| OutboxEnd::Sent),
        }
    }
}
