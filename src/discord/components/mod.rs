//! Buttons as they are built: their `custom_id`s, the rows under challenges, swap choices and
//! move previews, all the rows under a board ([`board_rows`]), and the private answer to a
//! click. A leaf of the Discord layer: the modules that own a kind of click use it, and
//! `buttons` routes the clicks to them. The buttons of those modules' own kinds sit in
//! submodules here ([`renju`], [`offers`], [`review`], [`picker`]), so that posting a board
//! needs none of the modules that handle the clicks (which post boards themselves).
//!
//! A `custom_id` names the action and its challenge or game (and, for game actions, the ply
//! the button was made for), e.g. `gb:acc:12` or `gb:ok:7:15:K10`. Clicks are routed by that
//! text alone and checked against the stored state, so buttons keep working after a restart,
//! and a stale click or someone else's gets a short private explanation and changes nothing.

pub mod offers;
pub mod picker;
pub mod renju;
pub mod review;

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateButton, CreateInteractionResponse,
    CreateInteractionResponseMessage,
};

use super::Error;
use super::rest::{Op, counted};
use super::text;
use crate::i18n::{I18n, Lang};
use crate::rules::{Phase, Point};
use crate::service::{Challenge, ChallengeId, ChallengeStatus, GameId, GameView};

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
        }
    }

    /// Reads a `custom_id`; `None` for anything this bot did not make.
    pub fn parse(id: &str) -> Option<ButtonAction> {
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

/// A button that does `action`.
pub(super) fn button(action: &ButtonAction, label: String, style: ButtonStyle) -> CreateButton {
    button_with_id(action.custom_id(), label, style)
}

/// A button with the `custom_id` of another module's clicks (offers, rematches).
pub(super) fn button_with_id(custom_id: String, label: String, style: ButtonStyle) -> CreateButton {
    CreateButton::new(custom_id).label(label).style(style)
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

/// Every row under a board: the colour choice of a swap opening, a Renju opening's decision,
/// Rematch and Review under a finished game, and the picker's Play button where there is room.
pub fn board_rows(i18n: &I18n, lang: Lang, view: &GameView) -> Vec<CreateActionRow> {
    let mut rows = choice_buttons(i18n, lang, view);
    rows.extend(renju::components(i18n, lang, view));
    rows.extend(offers::rematch_buttons(i18n, lang, view));
    rows.extend(review::review_buttons(i18n, lang, view));
    // Discord allows five rows: the picker's Play button only where there is room.
    if rows.len() < 5 {
        rows.extend(picker::play_buttons(i18n, lang, view));
    }
    rows
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

/// Answers a click with a new message (counted as an answer).
pub(super) async fn answer_click(
    ctx: &serenity::Context,
    click: &serenity::ComponentInteraction,
    message: CreateInteractionResponseMessage,
) -> Result<(), serenity::Error> {
    counted(
        Op::Answer,
        click.create_response(&ctx.http, CreateInteractionResponse::Message(message)),
    )
    .await
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
    answer_click(ctx, click, message).await?;
    Ok(())
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
