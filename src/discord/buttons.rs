//! Buttons: their `custom_id`s and what a click does.
//!
//! A `custom_id` names the action and its challenge or game (and, for game actions, the ply
//! the button was made for), e.g. `gb:acc:12` or `gb:ok:7:15:K10`. Clicks are routed by that
//! text alone and checked against the stored state, so buttons keep working after a restart,
//! and a stale click or someone else's gets a short private explanation and changes nothing.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateButton, CreateInteractionResponse,
    CreateInteractionResponseMessage,
};

use super::post::{self, Origin, Responder};
use super::rest::{Op, counted};
use super::text::{self, error_text};
use super::{Data, Error, actor};
use crate::i18n::{I18n, Lang};
use crate::rules::{Action, Phase, Point};
use crate::service::{
    Challenge, ChallengeId, ChallengeStatus, ChannelId, GameId, GameView, UserId,
};

/// What a button does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ButtonAction {
    /// Accept a challenge.
    Accept(ChallengeId),
    /// Decline a challenge.
    Decline(ChallengeId),
    /// Withdraw a challenge or lobby.
    Cancel(ChallengeId),
    /// Join a lobby.
    Join(ChallengeId),
    /// Leave a lobby.
    Leave(ChallengeId),
    /// Take a colour (swap openings).
    Take {
        /// The game.
        game: GameId,
        /// The ply the button was made for.
        ply: u32,
        /// The colour taken.
        colour: u8,
    },
    /// Place two more stones (swap2).
    PlaceTwo {
        /// The game.
        game: GameId,
        /// The ply the button was made for.
        ply: u32,
    },
    /// Confirm a previewed move.
    Confirm {
        /// The game.
        game: GameId,
        /// The ply the preview was made for.
        ply: u32,
        /// The point.
        point: Point,
    },
    /// Drop a previewed move.
    Abort {
        /// The game.
        game: GameId,
    },
    /// Answer a take-back or draw offer, or propose a rematch ([`super::offers`]).
    Social(super::offers::SocialButton),
}

const PREFIX: &str = "gb";

impl ButtonAction {
    /// The `custom_id` (at most 100 characters: the longest is about 40).
    pub fn custom_id(&self) -> String {
        match self {
            ButtonAction::Accept(c) => format!("{PREFIX}:acc:{}", c.0),
            ButtonAction::Decline(c) => format!("{PREFIX}:dec:{}", c.0),
            ButtonAction::Cancel(c) => format!("{PREFIX}:can:{}", c.0),
            ButtonAction::Join(c) => format!("{PREFIX}:join:{}", c.0),
            ButtonAction::Leave(c) => format!("{PREFIX}:leave:{}", c.0),
            ButtonAction::Take { game, ply, colour } => {
                format!("{PREFIX}:take:{}:{ply}:{colour}", game.0)
            }
            ButtonAction::PlaceTwo { game, ply } => format!("{PREFIX}:place:{}:{ply}", game.0),
            ButtonAction::Confirm { game, ply, point } => {
                format!("{PREFIX}:ok:{}:{ply}:{point}", game.0)
            }
            ButtonAction::Abort { game } => format!("{PREFIX}:no:{}", game.0),
            ButtonAction::Social(s) => s.custom_id(),
        }
    }

    /// Reads a `custom_id`; `None` for anything this bot did not make.
    pub fn parse(id: &str) -> Option<ButtonAction> {
        if let Some(s) = super::offers::SocialButton::parse(id) {
            return Some(ButtonAction::Social(s));
        }
        let mut parts = id.split(':');
        if parts.next()? != PREFIX {
            return None;
        }
        let verb = parts.next()?;
        let rest: Vec<&str> = parts.collect();
        let challenge = |r: &[&str]| match r {
            [c] => c.parse().ok().map(ChallengeId),
            _ => None,
        };
        let game_ply = |g: &str, p: &str| Some((GameId(g.parse().ok()?), p.parse::<u32>().ok()?));
        match verb {
            "acc" => challenge(&rest).map(ButtonAction::Accept),
            "dec" => challenge(&rest).map(ButtonAction::Decline),
            "can" => challenge(&rest).map(ButtonAction::Cancel),
            "join" => challenge(&rest).map(ButtonAction::Join),
            "leave" => challenge(&rest).map(ButtonAction::Leave),
            "take" => match rest.as_slice() {
                [g, p, c] => {
                    let (game, ply) = game_ply(g, p)?;
                    let colour = c.parse().ok().filter(|c| (1..=2).contains(c))?;
                    Some(ButtonAction::Take { game, ply, colour })
                }
                _ => None,
            },
            "place" => match rest.as_slice() {
                [g, p] => game_ply(g, p).map(|(game, ply)| ButtonAction::PlaceTwo { game, ply }),
                _ => None,
            },
            "ok" => match rest.as_slice() {
                [g, p, point] => {
                    let (game, ply) = game_ply(g, p)?;
                    let point = Point::parse(point, crate::rules::MAX_SIZE).ok()?;
                    Some(ButtonAction::Confirm { game, ply, point })
                }
                _ => None,
            },
            "no" => match rest.as_slice() {
                [g] => g
                    .parse()
                    .ok()
                    .map(|g| ButtonAction::Abort { game: GameId(g) }),
                _ => None,
            },
            _ => None,
        }
    }
}

pub(super) fn button(action: &ButtonAction, label: String, style: ButtonStyle) -> CreateButton {
    CreateButton::new(action.custom_id())
        .label(label)
        .style(style)
}

/// The buttons of a challenge or lobby while it is open (none once closed).
pub fn challenge_buttons(i18n: &I18n, lang: Lang, c: &Challenge) -> Vec<CreateActionRow> {
    if c.status != ChallengeStatus::Open {
        return Vec::new();
    }
    let mut row = Vec::new();
    if c.is_lobby() {
        row.push(button(
            &ButtonAction::Join(c.id),
            i18n.get(lang, "button-join"),
            ButtonStyle::Success,
        ));
        row.push(button(
            &ButtonAction::Leave(c.id),
            i18n.get(lang, "button-leave"),
            ButtonStyle::Secondary,
        ));
    } else {
        row.push(button(
            &ButtonAction::Accept(c.id),
            i18n.get(lang, "button-accept"),
            ButtonStyle::Success,
        ));
        if c.opponent.is_some() {
            row.push(button(
                &ButtonAction::Decline(c.id),
                i18n.get(lang, "button-decline"),
                ButtonStyle::Secondary,
            ));
        }
    }
    row.push(button(
        &ButtonAction::Cancel(c.id),
        i18n.get(lang, "button-cancel"),
        ButtonStyle::Danger,
    ));
    vec![CreateActionRow::Buttons(row)]
}

/// The colour-choice buttons of a swap opening, when a choice is due.
pub fn choice_buttons(i18n: &I18n, lang: Lang, view: &GameView) -> Vec<CreateActionRow> {
    let Phase::Choosing { may_place, .. } = view.game.phase() else {
        return Vec::new();
    };
    if view.is_over() {
        return Vec::new();
    }
    let (game, ply) = (view.id, view.ply);
    let mut row = vec![
        button(
            &ButtonAction::Take {
                game,
                ply,
                colour: 1,
            },
            i18n.get(lang, "button-take-black"),
            ButtonStyle::Primary,
        ),
        button(
            &ButtonAction::Take {
                game,
                ply,
                colour: 2,
            },
            i18n.get(lang, "button-take-white"),
            ButtonStyle::Primary,
        ),
    ];
    if may_place {
        row.push(button(
            &ButtonAction::PlaceTwo { game, ply },
            i18n.get(lang, "button-place-two"),
            ButtonStyle::Secondary,
        ));
    }
    vec![CreateActionRow::Buttons(row)]
}

/// Confirm / Cancel under a move preview.
pub fn confirm_buttons(
    i18n: &I18n,
    lang: Lang,
    view: &GameView,
    point: Point,
) -> Vec<CreateActionRow> {
    vec![CreateActionRow::Buttons(vec![
        button(
            &ButtonAction::Confirm {
                game: view.id,
                ply: view.ply,
                point,
            },
            i18n.tr(lang, "button-confirm", &[("point", point.name().into())]),
            ButtonStyle::Success,
        ),
        button(
            &ButtonAction::Abort { game: view.id },
            i18n.get(lang, "button-cancel"),
            ButtonStyle::Secondary,
        ),
    ])]
}

/// Answers a click privately with `text`.
pub(super) async fn reply_private(
    ctx: &serenity::Context,
    click: &serenity::ComponentInteraction,
    text: String,
) -> Result<(), Error> {
    let message = CreateInteractionResponseMessage::new()
        .content(text::clip(text))
        .ephemeral(true);
    counted(
        Op::Answer,
        click.create_response(&ctx.http, CreateInteractionResponse::Message(message)),
    )
    .await?;
    Ok(())
}

/// Rewrites the clicked challenge message to show the challenge as it now stands.
async fn refresh_challenge(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    c: &Challenge,
) -> Result<(), Error> {
    let lang = data
        .public_lang(
            crate::service::GuildId(c.guild.0),
            click.guild_locale.as_deref(),
        )
        .await;
    let message = post::challenge_message(data, lang, c);
    let update = CreateInteractionResponseMessage::new()
        .content(message.content)
        .components(message.components)
        .allowed_mentions(serenity::CreateAllowedMentions::new());
    counted(
        Op::Answer,
        click.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(update)),
    )
    .await?;
    Ok(())
}

/// Explains a refused challenge click privately; when the challenge turns out to be closed
/// (expired since the last sweep, say), its message loses its buttons too.
async fn refuse_challenge_click(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    id: ChallengeId,
    lang: Lang,
    e: &crate::service::ServiceError,
) -> Result<(), Error> {
    reply_private(ctx, click, error_text(&data.i18n, lang, e)).await?;
    use crate::service::ServiceError::{ChallengeClosed, ChallengeExpired};
    if matches!(e, ChallengeExpired | ChallengeClosed(_)) && !shows_no_buttons(click) {
        let guild = crate::service::GuildId(click.guild_id.map_or(0, |g| g.get()));
        if let Ok(mut c) = data.service.challenge_info(guild, id).await {
            // The clicked message is the challenge's, even if the click came before the
            // bot had recorded where its message is.
            c.message = Some((
                crate::service::ChannelId(click.message.channel_id.get()),
                crate::service::MessageId(click.message.id.get()),
            ));
            post::show_closed_challenge(&ctx.http, &data.service, &data.i18n, &c).await;
        }
    }
    Ok(())
}

/// Whether the clicked message already shows no buttons (nothing to strike).
fn shows_no_buttons(click: &serenity::ComponentInteraction) -> bool {
    click.message.components.is_empty()
}

/// Answers a click that played an action: the clicked message becomes `update_text(said)`
/// (where `said` tells what was played) and the new board goes to the game's channel; a
/// refusal is explained privately.
pub(super) async fn announce_click(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    origin: &Origin,
    played: Result<crate::service::Played, crate::service::ServiceError>,
    update_text: impl FnOnce(&str) -> String,
) -> Result<(), Error> {
    let user = UserId(click.user.id.get());
    match played {
        Ok(played) => {
            let lang = data
                .public_lang(played.view.guild, click.guild_locale.as_deref())
                .await;
            let said = text::move_text(&data.i18n, lang, &played.view, user, &played.report);
            let update = CreateInteractionResponseMessage::new()
                .content(update_text(&said))
                .components(Vec::new());
            let responder = Responder::Component { click, update };
            post::announce(ctx, data, responder, origin, &played.view, Some(said)).await
        }
        Err(e) => {
            let lang = data.private_lang(user, &click.locale).await;
            reply_private(ctx, click, error_text(&data.i18n, lang, &e)).await
        }
    }
}

/// Handles a button click.
///
/// # Errors
/// Only when Discord cannot be answered; refusals are answered privately.
pub async fn handle(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
) -> Result<(), Error> {
    let user = UserId(click.user.id.get());
    let lang = data.private_lang(user, &click.locale).await;
    let Some(guild) = click.guild_id else {
        return reply_private(ctx, click, data.i18n.get(lang, "err-guild-only")).await;
    };
    if let Some(page) = super::ratings::LeaderboardButton::parse(&click.data.custom_id) {
        return super::ratings::turn_page(ctx, data, click, page).await;
    }
    if let Some(b) = super::tournaments::TournamentButton::parse(&click.data.custom_id) {
        return super::tournaments::handle_click(ctx, data, click, b).await;
    }
    if let Some(p) = super::picker::PickerId::parse(&click.data.custom_id) {
        return super::picker::handle_click(ctx, data, click, p).await;
    }
    if let Some(game) = super::review::parse_button(&click.data.custom_id) {
        return super::review::handle_click(ctx, data, click, game).await;
    }
    if let Some(c) = super::renju::RenjuComponent::parse(&click.data.custom_id) {
        return super::renju::handle_click(ctx, data, click, c).await;
    }
    let Some(action) = ButtonAction::parse(&click.data.custom_id) else {
        return reply_private(ctx, click, data.i18n.get(lang, "err-unknown-button")).await;
    };
    let who = actor(guild, click.channel_id, &click.user, click.member.as_ref());
    let service = &data.service;
    let origin = Origin {
        channel: ChannelId(click.channel_id.get()),
        guild_locale: click.guild_locale.clone(),
        attachment_size_limit: click.attachment_size_limit,
    };
    match action {
        ButtonAction::Accept(id) | ButtonAction::Join(id) => match service.accept(&who, id).await {
            Ok(acceptance) => {
                refresh_challenge(ctx, data, click, &acceptance.challenge).await?;
                if let Some(view) = acceptance.game {
                    post::start_game(ctx, data, click, view).await?;
                }
                Ok(())
            }
            Err(e) => refuse_challenge_click(ctx, data, click, id, lang, &e).await,
        },
        ButtonAction::Decline(id) | ButtonAction::Cancel(id) | ButtonAction::Leave(id) => {
            let result = match action {
                ButtonAction::Decline(_) => service.decline(&who, id).await,
                ButtonAction::Cancel(_) => service.cancel(&who, id).await,
                _ => service.leave(&who, id).await,
            };
            match result {
                Ok(c) => refresh_challenge(ctx, data, click, &c).await,
                Err(e) => refuse_challenge_click(ctx, data, click, id, lang, &e).await,
            }
        }
        ButtonAction::Take { game, ply, .. } | ButtonAction::PlaceTwo { game, ply } => {
            let act = match action {
                ButtonAction::Take { colour, .. } => Action::Take(colour),
                _ => Action::PlaceTwo,
            };
            let played = service.play(&who, Some(game), act, Some(ply)).await;
            // The old board keeps its text, loses its buttons, and says what was chosen.
            announce_click(ctx, data, click, &origin, played, |said| {
                text::clip(format!("{}\n{said}", click.message.content))
            })
            .await
        }
        ButtonAction::Confirm { game, ply, point } => {
            let played = service
                .play_token(&who, Some(game), &point.name(), Some(ply))
                .await;
            let done = data.i18n.tr(
                lang,
                "confirm-done",
                &[("point", point.name().into()), ("id", game.0.into())],
            );
            announce_click(ctx, data, click, &origin, played, |_| done).await
        }
        ButtonAction::Social(s) => {
            super::offers::handle_click(ctx, data, click, &who, &origin, s, lang).await
        }
        ButtonAction::Abort { game } => {
            let update = CreateInteractionResponseMessage::new()
                .content(
                    data.i18n
                        .tr(lang, "confirm-dropped", &[("id", game.0.into())]),
                )
                .components(Vec::new());
            counted(
                Op::Answer,
                click.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(update)),
            )
            .await?;
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip() {
        let k10 = Point::parse("K10", 19).unwrap();
        for a in [
            ButtonAction::Accept(ChallengeId(1)),
            ButtonAction::Decline(ChallengeId(22)),
            ButtonAction::Cancel(ChallengeId(333)),
            ButtonAction::Join(ChallengeId(4)),
            ButtonAction::Leave(ChallengeId(5)),
            ButtonAction::Take {
                game: GameId(7),
                ply: 3,
                colour: 2,
            },
            ButtonAction::PlaceTwo {
                game: GameId(7),
                ply: 3,
            },
            ButtonAction::Confirm {
                game: GameId(i64::MAX),
                ply: u32::MAX,
                point: k10,
            },
            ButtonAction::Abort { game: GameId(9) },
        ] {
            let id = a.custom_id();
            assert!(id.len() <= 100, "{id}");
            assert_eq!(ButtonAction::parse(&id), Some(a), "{id}");
        }
    }

    #[test]
    fn garbled_ids_are_refused() {
        for id in [
            "",
            "gb",
            "gb:",
            "gb:acc",
            "gb:acc:x",
            "gb:acc:1:2",
            "xx:acc:1",
            "gb:take:1:2:3",
            "gb:take:1:x:1",
            "gb:ok:1:2:I9",
            "gb:ok:1:2",
            "gb:zap:1",
            "gb:no:",
            "smoke:flip",
            "gb:take:1:2:1:9",
        ] {
            assert_eq!(ButtonAction::parse(id), None, "{id:?}");
        }
    }
}
