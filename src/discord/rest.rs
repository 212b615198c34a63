//! Discord REST requests counted by operation and status (issue 17).
//!
//! serenity has no hook on each request it sends (its rate limiter only calls back when it
//! holds a request back, which `http_client` counts), so the bot counts where it calls: every
//! REST call the handlers make (answers, button updates, follow-ups, posts, edits, threads,
//! direct messages) is wrapped in [`counted`], with its operation, a name from the fixed set
//! [`Op`] (bounded, unlike a route with its ids), and the status its result carries. Failures
//! that reach a handler's error path are also counted apart (`ops::count_rest_failure`), as
//! what members saw fail.

use std::future::Future;

use poise::serenity_prelude as serenity;

use crate::ops::metrics;

/// What a counted request does: the `op` label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    /// The first answer to an interaction (a command's reply, a click's update).
    Answer,
    /// A follow-up message on an interaction.
    Followup,
    /// A message posted in a channel or thread.
    Post,
    /// A message edited (a closed challenge, a struck offer).
    Edit,
    /// A game's thread opened from its challenge message.
    Thread,
    /// A direct message (opening the channel, then the message).
    DirectMessage,
}

impl Op {
    /// The label value.
    pub fn name(self) -> &'static str {
        match self {
            Op::Answer => "answer",
            Op::Followup => "followup",
            Op::Post => "post",
            Op::Edit => "edit",
            Op::Thread => "thread",
            Op::DirectMessage => "direct_message",
        }
    }
}

/// The HTTP status a REST call's result carries: 200 for a success (Discord's 200 or 204),
/// Discord's status for a refusal, 0 when no answer came (a connection error, a timeout).
pub fn status_of<T>(result: &Result<T, serenity::Error>) -> u16 {
    match result {
        Ok(_) => 200,
        Err(e) => error_status(e),
    }
}

/// The HTTP status a failed REST call carries (0 when no answer came).
pub fn error_status(e: &serenity::Error) -> u16 {
    match e {
        serenity::Error::Http(serenity::HttpError::UnsuccessfulRequest(answer)) => {
            answer.status_code.as_u16()
        }
        serenity::Error::Http(serenity::HttpError::Request(e)) => {
            e.status().map_or(0, |s| s.as_u16())
        }
        _ => 0,
    }
}

/// Runs one REST call and counts it under `op` with its status.
///
/// # Errors
/// The call's own, unchanged.
pub async fn counted<T>(
    op: Op,
    call: impl Future<Output = Result<T, serenity::Error>>,
) -> Result<T, serenity::Error> {
    let result = call.await;
    metrics::rest_request(op.name(), status_of(&result));
    result
}

/// Edits the message `message` in `channel` (the ids as stored), counted as [`Op::Edit`]: how
/// every rewrite of a message the bot posted earlier (a challenge, an offer, an announcement, a
/// review) is sent. A stored id of 0 (never a real one) goes out as 1 rather than panicking in
/// serenity's non-zero ids; Discord then refuses the edit.
///
/// # Errors
/// The call's own, unchanged.
pub async fn edit_message(
    http: &serenity::Http,
    channel: u64,
    message: u64,
    edit: serenity::EditMessage,
) -> Result<serenity::Message, serenity::Error> {
    let edited = serenity::ChannelId::new(channel.max(1)).edit_message(
        http,
        serenity::MessageId::new(message.max(1)),
        edit,
    );
    counted(Op::Edit, edited).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_success_and_errors_without_an_answer_have_their_statuses() {
        assert_eq!(status_of::<()>(&Ok(())), 200);
        let other: Result<(), serenity::Error> = Err(serenity::Error::Other("no answer"));
        assert_eq!(status_of(&other), 0);
    }
}
