//! The command-line tools that need no Discord: `replay` and `rules`.

use serde::Serialize;

use crate::rules::{Game, MoveError, Phase, Preset, RuleSet, RulesError, Status};

/// The `error` member of `replay`'s output.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct ReplayError {
    /// Index of the refused token, from 0.
    pub index: usize,
    /// The token as given.
    #[serde(rename = "move")]
    pub token: String,
    /// A stable code (DESIGN.md section 3).
    pub code: &'static str,
    /// A finer reason for some codes (`forbidden_renju`: the shape); left out when none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<&'static str>,
}

/// `replay`'s output, field for field as DESIGN.md section 3 fixes it.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct ReplayOutput {
    /// `ongoing`, `won` or `draw`.
    pub status: &'static str,
    /// The winning colours (empty unless won).
    pub winners: Vec<u8>,
    /// `line`, `captures`, `board_full`, or null while ongoing.
    pub reason: Option<&'static str>,
    /// The colour whose stone comes next, null once over.
    pub to_move: Option<u8>,
    /// Stones captured by each colour.
    pub captured: Vec<u16>,
    /// How many tokens were applied.
    pub moves_applied: usize,
    /// Rows from the top; `.` empty or the colour digit.
    pub board: Vec<String>,
    /// The seat playing each colour.
    pub seat_of_colour: Vec<u8>,
    /// The empty points where the player to move may not play (Renju's forbidden points,
    /// `self_capture=forbidden`), sorted by column then row; empty when there are none.
    pub forbidden: Vec<String>,
    /// The refused token, if any.
    pub error: Option<ReplayError>,
}

/// Builds a rule set from a preset name and `key=value` options.
///
/// # Errors
/// [`RulesError`] for an unknown preset or option, a bad value or a refused combination.
pub fn rule_set(preset: &str, options: &[String]) -> Result<RuleSet, RulesError> {
    let preset: Preset = preset.parse()?;
    RuleSet::with_options(preset, options)
}

/// Splits a move list on white space and commas, keeping an offer's list of points
/// (`offer:H8,J9,K10`, also written `offer:H8, J9, K10`) as one token.
pub fn move_tokens(moves: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut in_offer = false;
    for chunk in moves.split_whitespace() {
        let is_offer = chunk
            .get(..6)
            .is_some_and(|p| p.eq_ignore_ascii_case("offer:"));
        if is_offer {
            out.push(chunk.to_string());
        } else if in_offer {
            // A point list continued after a comma and a space.
            if let Some(last) = out.last_mut() {
                last.push_str(chunk);
            }
        } else {
            out.extend(
                chunk
                    .split(',')
                    .filter(|t| !t.is_empty())
                    .map(str::to_string),
            );
        }
        in_offer = (is_offer || in_offer) && chunk.ends_with(',');
    }
    out
}

/// Applies tokens until one is refused; returns the game and the refusal.
pub fn play_tokens(rules: RuleSet, moves: &str) -> (Game, Option<(usize, String, MoveError)>) {
    let mut game = Game::new(rules);
    for (index, token) in move_tokens(moves).into_iter().enumerate() {
        if let Err(e) = game.apply_token(&token) {
            return (game, Some((index, token, e)));
        }
    }
    (game, None)
}

/// The `replay` output for a game and an optional refusal.
pub fn replay_output(game: &Game, error: Option<(usize, String, MoveError)>) -> ReplayOutput {
    let (status, winners, reason) = match game.status() {
        Status::Ongoing => ("ongoing", Vec::new(), None),
        Status::Draw => ("draw", Vec::new(), Some("board_full")),
        Status::Won { winners, reason } => ("won", winners.iter().collect(), Some(reason.name())),
    };
    let players = usize::from(game.rules().players);
    let size = game.size();
    let board = (0..size)
        .rev()
        .map(|row| {
            (0..size)
                .map(|col| {
                    let p = crate::rules::Point::new(col, row, size).expect("on the board");
                    game.stone_at(p).map_or('.', |c| char::from(b'0' + c))
                })
                .collect()
        })
        .collect();
    ReplayOutput {
        status,
        winners,
        reason,
        to_move: (!game.is_over()).then(|| game.to_move()),
        captured: game.captured()[..players].to_vec(),
        moves_applied: game.record().len(),
        board,
        seat_of_colour: (1..=game.rules().players)
            .map(|c| game.seat_of_colour(c))
            .collect(),
        forbidden: game.forbidden_points().iter().map(|p| p.name()).collect(),
        error: error.map(|(index, token, e)| ReplayError {
            index,
            token,
            code: e.code(),
            detail: e.detail(),
        }),
    }
}

/// What to say about the phase, for people reading `rules` or `replay` by hand.
pub fn phase_words(game: &Game) -> String {
    match game.phase() {
        Phase::Placing { seat, until } => {
            format!("seat {seat} places opening stones until {until} are down")
        }
        Phase::Choosing { seat, may_place } => format!(
            "seat {seat} chooses a colour (take:1, take:2{})",
            if may_place { ", or place" } else { "" }
        ),
        Phase::Playing => match game.area_limit() {
            Some(limit) => format!("play, within the central {s}x{s} square", s = 2 * limit + 1),
            None => "play".to_string(),
        },
        Phase::SwapOrKeep { seat, may_offer } => format!(
            "seat {seat} decides: swap or keep{}",
            if may_offer {
                ", or offer:... ten fifth moves"
            } else {
                ""
            }
        ),
        Phase::Declaring { seat } => {
            format!("seat {seat} declares the number of fifth moves (declare:1 to declare:8)")
        }
        Phase::Offering { seat, count } => {
            format!("seat {seat} offers {count} fifth moves (offer:H8,J9,...)")
        }
        Phase::Selecting { seat } => {
            format!("seat {seat} chooses one of the offered fifth moves (choose:H8)")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        #[test]
        fn playing_arbitrary_text_never_panics(text in proptest::prelude::any::<String>()) {
            let _ = play_tokens(RuleSet::preset(Preset::Pente), &text);
        }
    }

    #[test]
    fn output_has_the_contract_fields_in_order() {
        let (g, e) = play_tokens(RuleSet::preset(Preset::Gomoku), "H8 J9");
        let json = serde_json::to_string(&replay_output(&g, e)).unwrap();
        let keys = [
            "status",
            "winners",
            "reason",
            "to_move",
            "captured",
            "moves_applied",
            "board",
            "seat_of_colour",
            "forbidden",
            "error",
        ];
        let mut at = 0;
        for k in keys {
            let pos = json[at..]
                .find(&format!("\"{k}\":"))
                .unwrap_or_else(|| panic!("{k} missing in {json}"));
            at += pos;
        }
        assert!(json.contains("\"status\":\"ongoing\""));
        assert!(json.contains("\"to_move\":1"));
        assert!(json.contains("\"error\":null"));
    }

    #[test]
    fn offers_stay_one_token_and_other_lists_split_on_commas() {
        assert_eq!(
            move_tokens("H8 swap offer:A1,B2 C3,D4 offer:E5, F6, G7 keep"),
            [
                "H8",
                "swap",
                "offer:A1,B2",
                "C3",
                "D4",
                "offer:E5,F6,G7",
                "keep"
            ]
        );
        assert_eq!(move_tokens(" K10,,L10  "), ["K10", "L10"]);
    }

    #[test]
    fn a_refused_token_reports_the_state_before_it() {
        let (g, e) = play_tokens(RuleSet::preset(Preset::Pente), "K10 L10 K10 M10");
        let out = replay_output(&g, e);
        assert_eq!(out.moves_applied, 2);
        assert_eq!(
            out.error,
            Some(ReplayError {
                index: 2,
                token: "K10".into(),
                code: "occupied",
                detail: None,
            })
        );
    }
}
