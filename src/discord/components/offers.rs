//! The buttons of offers and finished games as they are built: `/undo` and `/draw` offers'
//! Accept / Decline (`gb:oy:<game>:<ply>:<offer>`, `gb:on:…`) and the Rematch button under a
//! finished game's board (`gb:rematch:<game>`), with the edit that strikes a lapsed offer.
//!
//! Beside the other buttons, below the module that handles the clicks
//! ([`crate::discord::offers`]): the board's rows ([`super::board_rows`]) and the outbox's
//! strike of a lapsed offer are built without importing the click handlers.

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow, CreateAllowedMentions, EditMessage};

use super::button_with_id;
use crate::i18n::{I18n, Lang};
use crate::service::{GameId, GameView, Offer, OfferId, OfferKind, UserId};

const PREFIX: &str = "gb";

/// A button of an offer or of a finished game (its rematch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SocialButton {
    /// Accept or decline an offer.
    Answer {
        /// The game.
        game: GameId,
        /// The ply the offer was made at.
        ply: u32,
        /// The offer.
        offer: OfferId,
        /// Accept (else decline, or withdraw for its author).
        accept: bool,
    },
    /// Propose a rematch of a finished game.
    Rematch {
        /// The finished game.
        game: GameId,
    },
}

impl SocialButton {
    /// The `custom_id`.
    pub fn custom_id(&self) -> String {
        match self {
            SocialButton::Answer {
                game,
                ply,
                offer,
                accept,
            } => {
                let verb = if *accept { "oy" } else { "on" };
                format!("{PREFIX}:{verb}:{}:{ply}:{}", game.0, offer.0)
            }
            SocialButton::Rematch { game } => format!("{PREFIX}:rematch:{}", game.0),
        }
    }

    /// Reads a `custom_id`; `None` for anything else.
    pub fn parse(id: &str) -> Option<SocialButton> {
        let parts: Vec<&str> = id.split(':').collect();
        match parts.as_slice() {
            [PREFIX, verb @ ("oy" | "on"), g, p, o] => Some(SocialButton::Answer {
                game: GameId(g.parse().ok()?),
                ply: p.parse().ok()?,
                offer: OfferId(o.parse().ok()?),
                accept: *verb == "oy",
            }),
            [PREFIX, "rematch", g] => Some(SocialButton::Rematch {
                game: GameId(g.parse().ok()?),
            }),
            _ => None,
        }
    }
}

/// The Rematch button under a finished two-player game's board.
pub fn rematch_buttons(i18n: &I18n, lang: Lang, view: &GameView) -> Vec<CreateActionRow> {
    if !view.is_over() || view.seats.len() != 2 || view.against_computer {
        return Vec::new();
    }
    vec![CreateActionRow::Buttons(vec![button_with_id(
        SocialButton::Rematch { game: view.id }.custom_id(),
        i18n.get(lang, "button-rematch"),
        ButtonStyle::Primary,
    )])]
}

/// Accept / Decline under an offer.
pub(crate) fn answer_buttons(i18n: &I18n, lang: Lang, offer: &Offer) -> Vec<CreateActionRow> {
    let answer = |accept| {
        SocialButton::Answer {
            game: offer.game,
            ply: offer.ply,
            offer: offer.id,
            accept,
        }
        .custom_id()
    };
    vec![CreateActionRow::Buttons(vec![
        button_with_id(
            answer(true),
            i18n.get(lang, "button-accept"),
            ButtonStyle::Success,
        ),
        button_with_id(
            answer(false),
            i18n.get(lang, "button-decline"),
            ButtonStyle::Secondary,
        ),
    ])]
}

/// A player's display name in a game (their id if unknown).
pub(crate) fn name_in(view: &GameView, user: UserId) -> String {
    view.seat_of(user)
        .map_or_else(|| user.0.to_string(), |s| s.name.clone())
}

/// The edit of a lapsed offer's message: it says so, and its buttons go.
pub(crate) fn lapsed_edit(i18n: &I18n, lang: Lang, view: &GameView, offer: &Offer) -> EditMessage {
    let key = match offer.kind {
        OfferKind::Undo => "offer-undo-lapsed",
        OfferKind::Draw => "offer-draw-lapsed",
    };
    let content = i18n.tr(
        lang,
        key,
        &[
            ("id", view.id.0.into()),
            (
                "player",
                format!("**{}**", name_in(view, offer.user)).into(),
            ),
        ],
    );
    EditMessage::new()
        .content(content)
        .components(Vec::new())
        .allowed_mentions(CreateAllowedMentions::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip_and_fit() {
        for b in [
            SocialButton::Answer {
                game: GameId(i64::MAX),
                ply: u32::MAX,
                offer: OfferId(i64::MAX),
                accept: true,
            },
            SocialButton::Answer {
                game: GameId(3),
                ply: 0,
                offer: OfferId(1),
                accept: false,
            },
            SocialButton::Rematch { game: GameId(12) },
        ] {
            let id = b.custom_id();
            assert!(id.len() <= 100, "{id}");
            assert_eq!(SocialButton::parse(&id), Some(b.clone()), "{id}");
            // Never taken for another button: the clicks are routed by these ids alone.
            assert_eq!(crate::discord::components::ButtonAction::parse(&id), None);
        }
    }

    #[test]
    fn garbled_ids_are_refused() {
        for id in [
            "gb:oy",
            "gb:oy:1:2",
            "gb:oy:1:2:x",
            "gb:on:1:-2:3",
            "gb:oy:1:2:3:4",
            "gb:rematch",
            "gb:rematch:x",
            "gb:rematch:1:2",
            "xx:rematch:1",
        ] {
            assert_eq!(SocialButton::parse(id), None, "{id:?}");
        }
    }
}
