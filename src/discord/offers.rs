//! Between the players on Discord: `/undo` and `/draw` offers with Accept / Decline buttons,
//! the Rematch button of finished games, and pings that follow each player's preference.

use crate::i18n::{I18n, Lang};
use crate::service::{OfferError, OfferStatus};

/// Why a take-back, draw or rematch was refused, in words.
pub fn offer_error_text(i18n: &I18n, lang: Lang, e: &OfferError) -> String {
    match e {
        OfferError::NoSuchOffer => i18n.get(lang, "err-offer-no-such"),
        OfferError::NothingToUndo => i18n.get(lang, "err-offer-nothing-to-undo"),
        OfferError::DrawTwoPlayersOnly => i18n.get(lang, "err-offer-draw-two-players"),
        OfferError::RematchTwoPlayersOnly => i18n.get(lang, "err-offer-rematch-two-players"),
        OfferError::OwnOffer => i18n.get(lang, "err-offer-own"),
        OfferError::Expired => i18n.get(lang, "err-offer-expired"),
        OfferError::Closed(s) => i18n.get(
            lang,
            match s {
                OfferStatus::Accepted => "err-offer-accepted",
                OfferStatus::Declined => "err-offer-declined",
                OfferStatus::Withdrawn => "err-offer-withdrawn",
                OfferStatus::Open | OfferStatus::Expired => "err-offer-expired",
            },
        ),
        OfferError::Pending(_) => i18n.get(lang, "err-offer-pending"),
        OfferError::GameNotOver => i18n.get(lang, "err-offer-game-not-over"),
        OfferError::RematchPending(_) => i18n.get(lang, "err-offer-rematch-pending"),
        OfferError::AlreadyRematched(Some(g)) => {
            i18n.tr(lang, "err-offer-rematched-as", &[("id", g.0.into())])
        }
        OfferError::AlreadyRematched(None) => i18n.get(lang, "err-offer-rematched"),
    }
}
