//! The Review button as it is built: its `custom_id` (`gr:<game>`) and the row under a
//! finished game's board.
//!
//! Beside the other buttons, below the module that runs reviews and handles the clicks
//! ([`crate::discord::review`]): the board's rows ([`super::board_rows`]) are composed without
//! importing the engine's review.

use poise::serenity_prelude as serenity;
use serenity::{ButtonStyle, CreateActionRow, CreateButton};

use crate::i18n::{I18n, Lang};
use crate::service::{GameId, GameView};

const PREFIX: &str = "gr";

/// The Review button's `custom_id`: `gr:<game>`.
pub fn button_id(game: GameId) -> String {
    format!("{PREFIX}:{}", game.0)
}

/// Reads a Review button's `custom_id`.
pub fn parse_button(id: &str) -> Option<GameId> {
    let rest = id.strip_prefix(PREFIX)?.strip_prefix(':')?;
    rest.parse().ok().map(GameId)
}

/// The Review button under a finished two-player game's board (none otherwise).
pub fn review_buttons(i18n: &I18n, lang: Lang, view: &GameView) -> Vec<CreateActionRow> {
    if !view.is_over() || view.game.rules().players != 2 {
        return Vec::new();
    }
    vec![CreateActionRow::Buttons(vec![
        CreateButton::new(button_id(view.id))
            .label(i18n.get(lang, "review-button"))
            .style(ButtonStyle::Secondary),
    ])]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn button_ids_round_trip_and_stay_short() {
        let id = button_id(GameId(i64::MAX));
        assert!(id.len() <= 100);
        assert_eq!(parse_button(&id), Some(GameId(i64::MAX)));
        assert_eq!(parse_button("gr:x"), None);
        assert_eq!(parse_button("gb:acc:1"), None);
        assert_eq!(parse_button("gr"), None);
        assert_eq!(
            parse_button("gr:-1"),
            Some(GameId(-1)),
            "unknown games are refused later"
        );
    }
}
