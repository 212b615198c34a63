//! The components of a Renju opening decision as they are built: their `custom_id`s
//! (`rj:<verb>:<game>:<ply>[:<point>]`, [`RenjuComponent`]) and the rows under a board where a
//! decision is due ([`components`]).
//!
//! Beside the other buttons, below the module that handles the clicks
//! ([`crate::discord::renju`]): the board's rows are composed here ([`super::board_rows`]), so
//! that posting a board does not import the click handlers, which post boards themselves.

use poise::serenity_prelude as serenity;
use serenity::{
    ButtonStyle, CreateActionRow, CreateButton, CreateSelectMenu, CreateSelectMenuKind,
    CreateSelectMenuOption,
};

use crate::i18n::{I18n, Lang};
use crate::rules::{Game, Phase, Point};
use crate::service::{GameId, GameView};

const PREFIX: &str = "rj";

/// The most options a select menu may have (Discord's limit).
const MAX_OPTIONS: usize = 25;

/// What a Renju opening component does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenjuComponent {
    /// Exchange colours with the opponent.
    Swap {
        /// The game.
        game: GameId,
        /// The ply the button was made for.
        ply: u32,
    },
    /// Keep one's colour.
    Keep {
        /// The game.
        game: GameId,
        /// The ply the button was made for.
        ply: u32,
    },
    /// Soosõrv-8: the select menu of the number of fifth moves (its value is the number).
    Declare {
        /// The game.
        game: GameId,
        /// The ply the menu was made for.
        ply: u32,
    },
    /// The select menu of the fifth moves to offer (its values are the points).
    Offer {
        /// The game.
        game: GameId,
        /// The ply the menu was made for.
        ply: u32,
    },
    /// Choose one of the offered fifth moves.
    Choose {
        /// The game.
        game: GameId,
        /// The ply the button was made for.
        ply: u32,
        /// The chosen point.
        point: Point,
    },
}

impl RenjuComponent {
    /// The `custom_id` (at most about 40 characters).
    pub fn custom_id(&self) -> String {
        match *self {
            RenjuComponent::Swap { game, ply } => format!("{PREFIX}:swap:{}:{ply}", game.0),
            RenjuComponent::Keep { game, ply } => format!("{PREFIX}:keep:{}:{ply}", game.0),
            RenjuComponent::Declare { game, ply } => format!("{PREFIX}:declare:{}:{ply}", game.0),
            RenjuComponent::Offer { game, ply } => format!("{PREFIX}:offer:{}:{ply}", game.0),
            RenjuComponent::Choose { game, ply, point } => {
                format!("{PREFIX}:choose:{}:{ply}:{point}", game.0)
            }
        }
    }

    /// Reads a `custom_id`; `None` for anything else.
    pub fn parse(id: &str) -> Option<RenjuComponent> {
        let parts: Vec<&str> = id.split(':').collect();
        let (&prefix, rest) = parts.split_first()?;
        if prefix != PREFIX {
            return None;
        }
        let game_ply = |g: &str, p: &str| Some((GameId(g.parse().ok()?), p.parse::<u32>().ok()?));
        match rest {
            ["swap", g, p] => game_ply(g, p).map(|(game, ply)| RenjuComponent::Swap { game, ply }),
            ["keep", g, p] => game_ply(g, p).map(|(game, ply)| RenjuComponent::Keep { game, ply }),
            ["declare", g, p] => {
                game_ply(g, p).map(|(game, ply)| RenjuComponent::Declare { game, ply })
            }
            ["offer", g, p] => {
                game_ply(g, p).map(|(game, ply)| RenjuComponent::Offer { game, ply })
            }
            ["choose", g, p, point] => {
                let (game, ply) = game_ply(g, p)?;
                let point = Point::parse(point, crate::rules::MAX_SIZE).ok()?;
                Some(RenjuComponent::Choose { game, ply, point })
            }
            _ => None,
        }
    }

    /// The game the component was made for.
    pub(crate) fn game(&self) -> GameId {
        match *self {
            RenjuComponent::Swap { game, .. }
            | RenjuComponent::Keep { game, .. }
            | RenjuComponent::Declare { game, .. }
            | RenjuComponent::Offer { game, .. }
            | RenjuComponent::Choose { game, .. } => game,
        }
    }

    /// The ply the component was made for.
    pub(crate) fn ply(&self) -> u32 {
        match *self {
            RenjuComponent::Swap { ply, .. }
            | RenjuComponent::Keep { ply, .. }
            | RenjuComponent::Declare { ply, .. }
            | RenjuComponent::Offer { ply, .. }
            | RenjuComponent::Choose { ply, .. } => ply,
        }
    }
}

/// How many fifth moves are due now, when an offer is one of the choices.
fn offer_due(game: &Game) -> Option<u8> {
    match game.phase() {
        Phase::SwapOrKeep {
            may_offer: true, ..
        } => Some(crate::rules::TARAGUCHI_OFFERS),
        Phase::Offering { count, .. } => Some(count),
        _ => None,
    }
}

/// The points an offer menu lists: black's allowed empty points nearest the centre, one per
/// class of symmetric points (so no two picked can be symmetric), at most `limit`.
pub fn offer_options(game: &Game, limit: usize) -> Vec<Point> {
    let size = game.size();
    let centre = Point::centre(size);
    let symmetries = game.symmetries();
    let forbidden = game.forbidden_points();
    let mut points: Vec<Point> = game
        .points()
        .filter(|&p| game.stone_at(p).is_none() && !forbidden.contains(&p))
        .collect();
    points.sort_by_key(|p| (p.distance(centre), p.row(), p.col()));
    let mut taken: Vec<Point> = Vec::with_capacity(limit);
    for p in points {
        if taken.len() == limit {
            break;
        }
        if taken
            .iter()
            .any(|&q| symmetries.iter().any(|s| s.apply(q, size) == p))
        {
            continue;
        }
        taken.push(p);
    }
    taken
}

fn button(c: RenjuComponent, label: String, style: ButtonStyle) -> CreateButton {
    CreateButton::new(c.custom_id()).label(label).style(style)
}

/// The components of a Renju opening decision, when one is due (none otherwise).
pub fn components(i18n: &I18n, lang: Lang, view: &GameView) -> Vec<CreateActionRow> {
    if view.is_over() {
        return Vec::new();
    }
    let (game, ply) = (view.id, view.ply);
    let mut rows = Vec::new();
    match view.game.phase() {
        Phase::SwapOrKeep { .. } => {
            rows.push(CreateActionRow::Buttons(vec![
                button(
                    RenjuComponent::Swap { game, ply },
                    i18n.get(lang, "button-renju-swap"),
                    ButtonStyle::Primary,
                ),
                button(
                    RenjuComponent::Keep { game, ply },
                    i18n.get(lang, "button-renju-keep"),
                    ButtonStyle::Secondary,
                ),
            ]));
        }
        Phase::Declaring { .. } => {
            let options = (1..=8u8)
                .map(|n| CreateSelectMenuOption::new(n.to_string(), n.to_string()))
                .collect();
            let menu = CreateSelectMenu::new(
                RenjuComponent::Declare { game, ply }.custom_id(),
                CreateSelectMenuKind::String { options },
            )
            .placeholder(i18n.get(lang, "select-renju-declare"))
            .min_values(1)
            .max_values(1);
            rows.push(CreateActionRow::SelectMenu(menu));
        }
        Phase::Selecting { .. } => {
            let buttons: Vec<CreateButton> = view
                .game
                .offered()
                .iter()
                .enumerate()
                .map(|(k, &point)| {
                    button(
                        RenjuComponent::Choose { game, ply, point },
                        format!("{} · {}", k + 1, point.name()),
                        ButtonStyle::Primary,
                    )
                })
                .collect();
            for chunk in buttons.chunks(5) {
                rows.push(CreateActionRow::Buttons(chunk.to_vec()));
            }
        }
        _ => {}
    }
    if let Some(count) = offer_due(&view.game) {
        let points = offer_options(&view.game, MAX_OPTIONS);
        if points.len() >= usize::from(count) {
            let options = points
                .iter()
                .map(|p| CreateSelectMenuOption::new(p.name(), p.name()))
                .collect();
            let menu = CreateSelectMenu::new(
                RenjuComponent::Offer { game, ply }.custom_id(),
                CreateSelectMenuKind::String { options },
            )
            .placeholder(i18n.tr(lang, "select-renju-offer", &[("count", count.into())]))
            .min_values(count)
            .max_values(count);
            rows.push(CreateActionRow::SelectMenu(menu));
        }
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Action, Candidates, Preset, RuleSet};

    #[test]
    fn custom_ids_round_trip() {
        let h8 = Point::parse("H8", 15).unwrap();
        for c in [
            RenjuComponent::Swap {
                game: GameId(1),
                ply: 2,
            },
            RenjuComponent::Keep {
                game: GameId(3),
                ply: 0,
            },
            RenjuComponent::Declare {
                game: GameId(i64::MAX),
                ply: u32::MAX,
            },
            RenjuComponent::Offer {
                game: GameId(5),
                ply: 9,
            },
            RenjuComponent::Choose {
                game: GameId(6),
                ply: 11,
                point: h8,
            },
        ] {
            let id = c.custom_id();
            assert!(id.len() <= 100, "{id}");
            assert_eq!(RenjuComponent::parse(&id), Some(c), "{id}");
        }
    }

    #[test]
    fn garbled_ids_are_refused() {
        for id in [
            "",
            "rj",
            "rj:swap",
            "rj:swap:1",
            "rj:swap:x:1",
            "rj:swap:1:2:3",
            "rj:choose:1:2",
            "rj:choose:1:2:I9",
            "rj:choose:1:2:Z99",
            "rj:zap:1:2",
            "gb:swap:1:2",
            "rj:declare:1:-2",
        ] {
            assert_eq!(RenjuComponent::parse(id), None, "{id:?}");
        }
    }

    fn game_after(tokens: &[&str]) -> Game {
        let rules = RuleSet::preset(Preset::Renju);
        let mut g = Game::new(rules);
        for t in tokens {
            g.apply(Action::parse(t, 15).unwrap()).unwrap();
        }
        g
    }

    #[test]
    fn offer_options_are_allowed_and_never_symmetric_to_one_another() {
        // After H8 (black) and H9 (white) straight up, the position is symmetric in the
        // vertical line through H: G and J points pair up.
        let g = game_after(&["H8", "keep", "H9", "keep", "H6", "keep", "H10"]);
        assert!(matches!(
            g.phase(),
            Phase::SwapOrKeep {
                may_offer: true,
                ..
            }
        ));
        let symmetries = g.symmetries();
        assert!(symmetries.len() > 1, "the position has a mirror symmetry");
        let options = offer_options(&g, MAX_OPTIONS);
        assert_eq!(options.len(), MAX_OPTIONS);
        for (k, &a) in options.iter().enumerate() {
            assert!(g.stone_at(a).is_none());
            for &b in &options[..k] {
                assert!(
                    symmetries.iter().all(|s| s.apply(b, 15) != a),
                    "{a} and {b} are symmetric"
                );
            }
        }
        // Any ten of them make a valid offer.
        let ten = Candidates::new(&options[15..25]).unwrap();
        assert_eq!(g.check(Action::Offer(ten)), Ok(()));
    }
}
