//! Renju's tournament openings on Discord: every decision is a component for the player who
//! must decide (DESIGN.md section 2b).
//!
//! - swap decisions: **Swap** / **Keep** buttons;
//! - Soosõrv-8's declaration: a select menu of 1 to 8;
//! - offers of fifth moves: a multi-select of allowed points (one per symmetry class, so that
//!   two symmetric candidates cannot be picked), exactly as many as due; any other offer can
//!   be typed (`/move at:offer:H8,J9,...`);
//! - the choice of a fifth move: one numbered button per candidate, the numbers drawn on the
//!   picture too.
//!
//! `custom_id`s are `rj:<verb>:<game>:<ply>[:<point>]` (built with the components, in
//! [`super::components::renju`]); a click is checked against the stored game like every other
//! button ([`super::buttons`]), so a stale click or someone else's is explained privately and
//! changes nothing. This module handles the clicks.

use poise::serenity_prelude as serenity;
use serenity::ComponentInteractionDataKind;

use super::announce::announce_click;
pub use super::components::renju::RenjuComponent;
use super::components::reply_private;
use super::post::Origin;
use super::text;
use super::{Data, Error, actor};
use crate::i18n::{I18n, Lang};
use crate::rules::{Action, Candidates, Point};
use crate::service::{ChannelId, UserId};

/// The action a click or a choice in a menu stands for, or the private reason it is refused.
fn action_of(
    i18n: &I18n,
    lang: Lang,
    c: RenjuComponent,
    click: &serenity::ComponentInteraction,
) -> Result<Action, String> {
    let values = match &click.data.kind {
        ComponentInteractionDataKind::StringSelect { values } => values.as_slice(),
        _ => &[],
    };
    match c {
        RenjuComponent::Swap { .. } => Ok(Action::Swap),
        RenjuComponent::Keep { .. } => Ok(Action::Keep),
        RenjuComponent::Choose { point, .. } => Ok(Action::Choose(point)),
        RenjuComponent::Declare { .. } => match values {
            [v] => match v.parse::<u8>() {
                Ok(n @ 1..=8) => Ok(Action::Declare(n)),
                _ => Err(i18n.get(lang, "err-renju-bad-choice")),
            },
            _ => Err(i18n.get(lang, "err-renju-bad-choice")),
        },
        RenjuComponent::Offer { .. } => {
            let points: Option<Vec<Point>> = values
                .iter()
                .map(|v| Point::parse(v, crate::rules::MAX_SIZE).ok())
                .collect();
            match points.as_deref().and_then(Candidates::new) {
                Some(c) => Ok(Action::Offer(c)),
                None => Err(i18n.get(lang, "err-renju-bad-choice")),
            }
        }
    }
}

/// Handles a click on a Renju opening component.
///
/// # Errors
/// Only when Discord cannot be answered; refusals are answered privately.
pub async fn handle_click(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    c: RenjuComponent,
) -> Result<(), Error> {
    let user = UserId(click.user.id.get());
    let lang = data.private_lang(user, &click.locale).await;
    let Some(guild) = click.guild_id else {
        return reply_private(ctx, click, data.i18n.get(lang, "err-guild-only")).await;
    };
    let action = match action_of(&data.i18n, lang, c, click) {
        Ok(a) => a,
        Err(text) => return reply_private(ctx, click, text).await,
    };
    let who = actor(guild, click.channel_id, &click.user, click.member.as_ref());
    let origin = Origin {
        channel: ChannelId(click.channel_id.get()),
        guild_locale: click.guild_locale.clone(),
        attachment_size_limit: click.attachment_size_limit,
    };
    let played = data
        .service
        .play(&who, Some(c.game()), action, Some(c.ply()))
        .await;
    // The old board keeps its text, loses its components, and says what was decided.
    announce_click(ctx, data, click, &origin, played, |said| {
        text::clip(format!("{}\n{said}", click.message.content))
    })
    .await
}
