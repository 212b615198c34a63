//! Words for Discord messages: service errors, board captions, challenge messages, in any
//! language. Pure functions of service values, so they are tested without Discord.

use fluent_bundle::FluentValue;

use crate::i18n::{I18n, Lang, rules_text};
use crate::render::{Labels, RenderOptions};
use crate::rules::{Conflict, MoveReport, OfferProblem, Phase, PlayError, PointError, RulesError};
use crate::service::review::ReviewError;
use crate::service::{
    Challenge, ChallengeStatus, GameStatus, GameSummary, GameView, OfferError, OfferStatus,
    Preferences, ResultReason, ServiceError, StorageErrorKind, TimeControl, UserId,
};

/// A user mention (`<@id>`).
pub fn mention(user: UserId) -> String {
    format!("<@{}>", user.0)
}

/// The localised name of a colour (1 black, 2 white, 3 red, 4 blue).
pub fn colour_name(i18n: &I18n, lang: Lang, colour: u8) -> String {
    i18n.get(
        lang,
        match colour {
            1 => "colour-black",
            2 => "colour-white",
            3 => "colour-red",
            _ => "colour-blue",
        },
    )
}

/// Why the rules core refused an action, in words.
pub fn play_error_text(i18n: &I18n, lang: Lang, e: &PlayError) -> String {
    crate::ops::metrics::mark(crate::ops::metrics::Outcome::Refused);
    match e {
        PlayError::Occupied(p) => i18n.tr(lang, "err-occupied", &[("point", p.name().into())]),
        PlayError::OpeningRule { point, opening, .. } => {
            let distance: u8 = if *opening == crate::rules::Opening::LongPro {
                4
            } else {
                3
            };
            i18n.tr(
                lang,
                "err-opening-rule",
                &[
                    ("point", point.name().into()),
                    ("distance", distance.into()),
                ],
            )
        }
        PlayError::ForbiddenSelfCapture(p) => i18n.tr(
            lang,
            "err-forbidden-self-capture",
            &[("point", p.name().into())],
        ),
        PlayError::ForbiddenRenju { point, shape } => i18n.tr(
            lang,
            "err-forbidden-renju",
            &[
                ("point", point.name().into()),
                (
                    "shape",
                    i18n.get(lang, &format!("renju-shape-{}", shape.name()))
                        .into(),
                ),
            ],
        ),
        PlayError::OutsideArea {
            point,
            move_number,
            side,
        } => i18n.tr(
            lang,
            "err-opening-area",
            &[
                ("point", point.name().into()),
                ("move", (*move_number).into()),
                ("side", (*side).into()),
            ],
        ),
        PlayError::BadOffer(problem) => match problem {
            OfferProblem::Count { expected, given } => i18n.tr(
                lang,
                "err-offer-count",
                &[("expected", (*expected).into()), ("given", (*given).into())],
            ),
            OfferProblem::Repeated(p) => {
                i18n.tr(lang, "err-offer-repeated", &[("point", p.name().into())])
            }
            OfferProblem::Symmetric(a, b) => i18n.tr(
                lang,
                "err-offer-symmetric",
                &[("a", a.name().into()), ("b", b.name().into())],
            ),
        },
        PlayError::NotOffered(p) => i18n.tr(lang, "err-not-offered", &[("point", p.name().into())]),
        PlayError::GameOver => i18n.get(lang, "err-game-over"),
        PlayError::OffBoard(p) => i18n.tr(lang, "err-off-board", &[("point", p.name().into())]),
        PlayError::NoSuchColour(_) => i18n.get(lang, "err-bad-choice"),
        PlayError::WrongPhase(_) => i18n.get(lang, "err-wrong-phase"),
    }
}

/// A service refusal or failure, in words, for the person who caused it.
///
/// The interaction being handled, if any, is marked refused (or failed, for storage) in the
/// metrics: every refusal a member sees passes here.
pub fn error_text(i18n: &I18n, lang: Lang, e: &ServiceError) -> String {
    use crate::ops::metrics::{Outcome, mark};
    mark(if matches!(e, ServiceError::Storage(_)) {
        Outcome::Error
    } else {
        Outcome::Refused
    });
    let game_list = |ids: &[crate::service::GameId]| {
        ids.iter()
            .map(|g| format!("#{g}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    match e {
        ServiceError::NoSuchGame => i18n.get(lang, "err-no-such-game"),
        ServiceError::NoSuchChallenge => i18n.get(lang, "err-no-such-challenge"),
        ServiceError::NotYourTurn => i18n.get(lang, "err-not-your-turn"),
        ServiceError::GameOver => i18n.get(lang, "err-game-over"),
        ServiceError::Review(r) => review_refusal_text(i18n, lang, r),
        ServiceError::Illegal(p) => play_error_text(i18n, lang, p),
        ServiceError::BadPoint(PointError::Malformed(t)) => {
            i18n.tr(lang, "err-malformed-point", &[("text", t.clone().into())])
        }
        ServiceError::BadPoint(PointError::OutOfBounds { text, size }) => i18n.tr(
            lang,
            "err-point-out-of-bounds",
            &[("text", text.clone().into()), ("size", (*size).into())],
        ),
        ServiceError::PositionChanged => i18n.get(lang, "err-position-changed"),
        ServiceError::NotAParticipant => i18n.get(lang, "err-not-a-participant"),
        ServiceError::Ambiguous(ids) => {
            i18n.tr(lang, "err-ambiguous", &[("games", game_list(ids).into())])
        }
        ServiceError::NoActiveGame => i18n.get(lang, "err-no-active-game"),
        ServiceError::ChallengeSelf => i18n.get(lang, "err-challenge-self"),
        ServiceError::ChallengeBot => i18n.get(lang, "err-challenge-bot"),
        ServiceError::TooManyOpenGames { max } => {
            i18n.tr(lang, "err-too-many-games", &[("max", (*max).into())])
        }
        ServiceError::ChallengeExpired => i18n.get(lang, "err-challenge-expired"),
        ServiceError::ChallengeClosed(s) => i18n.get(
            lang,
            match s {
                ChallengeStatus::Accepted => "err-challenge-accepted",
                ChallengeStatus::Declined => "err-challenge-declined",
                ChallengeStatus::Cancelled => "err-challenge-cancelled",
                ChallengeStatus::Expired => "err-challenge-expired",
                ChallengeStatus::Open => "err-challenge-closed",
            },
        ),
        ServiceError::NotChallenged => i18n.get(lang, "err-not-challenged"),
        ServiceError::NotChallenger => i18n.get(lang, "err-not-challenger"),
        ServiceError::LobbyFull => i18n.get(lang, "err-lobby-full"),
        ServiceError::AlreadyJoined => i18n.get(lang, "err-already-joined"),
        ServiceError::NotJoined => i18n.get(lang, "err-not-joined"),
        ServiceError::OpponentInLobby => i18n.get(lang, "err-opponent-in-lobby"),
        ServiceError::BadTimeControl(d) => {
            i18n.tr(lang, "err-bad-time-control", &[("days", (*d).into())])
        }
        ServiceError::Offer(o) => offer_error_text(i18n, lang, o),
        ServiceError::BadMinutesPerMove(m) => bad_minutes_text(i18n, lang, *m),
        ServiceError::Storage(s) => i18n.get(
            lang,
            match s.kind {
                StorageErrorKind::Busy => "err-storage-busy",
                StorageErrorKind::Full => "err-storage-full",
                _ => "err-storage",
            },
        ),
    }
}

/// Why a rule set was refused, in words.
pub fn rules_error_text(i18n: &I18n, lang: Lang, e: &RulesError) -> String {
    match e {
        RulesError::Conflict(Conflict::RenjuFixes(key)) => {
            i18n.tr(lang, "err-rules-renju-fixed", &[("key", (*key).into())])
        }
        RulesError::Conflict(c) => i18n.get(
            lang,
            match c {
                Conflict::TeamsNeedFourPlayers => "err-rules-teams",
                Conflict::OpeningNeedsTwoPlayers(_) => "err-rules-opening-players",
                Conflict::CaptureWinNeededForMultiplayer => "err-rules-capture-win-multiplayer",
                Conflict::CaptureWinWithoutCaptures => "err-rules-capture-win-captures",
                Conflict::SelfCaptureWithoutCaptures => "err-rules-self-capture-captures",
                Conflict::ExtraTimeWithoutCaptures => "err-rules-extra-time-captures",
                Conflict::MixedCapturesNeedMultiplayer => "err-rules-mixed-players",
                Conflict::NotARenjuOpening(_) => "err-rules-renju-opening",
                Conflict::RenjuFixes(_) => "err-rules-renju-fixed",
                Conflict::RenjuOpeningNeedsRenju(_) => "err-rules-renju-opening-preset",
            },
        ),
        other => i18n.tr(
            lang,
            "err-rules-invalid",
            &[("detail", other.to_string().into())],
        ),
    }
}

/// Footer words for board pictures.
pub fn labels(i18n: &I18n, lang: Lang) -> Labels {
    Labels {
        move_word: i18n.get(lang, "board-move"),
        to_move: i18n.get(lang, "board-to-move"),
        move_played: i18n.get(lang, "board-move-played"),
        moves_played: i18n.get(lang, "board-moves-played"),
        wins: i18n.get(lang, "board-wins"),
        draw: i18n.get(lang, "board-draw"),
        pairs: i18n.get(lang, "board-pairs"),
        stones: i18n.get(lang, "board-stones"),
        choose_colour: i18n.get(lang, "board-choose-colour"),
        player: i18n.get(lang, "board-player"),
    }
}

/// Render options from a viewer's preferences.
pub fn render_options(i18n: &I18n, lang: Lang, prefs: &Preferences) -> RenderOptions {
    RenderOptions {
        coordinates: prefs.show_coordinates,
        highlight_last: prefs.highlight_last_move,
        forbidden_marks: prefs.show_forbidden,
        labels: labels(i18n, lang),
        ..RenderOptions::default()
    }
}

/// The time control in words.
pub fn time_text(i18n: &I18n, lang: Lang, t: TimeControl) -> String {
    match t {
        TimeControl::Unlimited => i18n.get(lang, "time-unlimited"),
        TimeControl::DaysPerMove(d) => i18n.tr(lang, "time-days-per-move", &[("days", d.into())]),
        TimeControl::MinutesPerMove(m) => minutes_text(i18n, lang, m),
    }
}

/// The one-line name of a game: `Game #12 · Pente`.
pub fn game_title(i18n: &I18n, lang: Lang, view: &GameView) -> String {
    i18n.tr(
        lang,
        "game-title",
        &[
            ("id", view.id.0.into()),
            (
                "game",
                rules_text::preset_name(i18n, lang, view.game.rules().preset).into(),
            ),
        ],
    )
}

/// What the last move did, in words (`Ann played K10 and captured 2 stones.`).
pub fn move_text(
    i18n: &I18n,
    lang: Lang,
    view: &GameView,
    actor: UserId,
    report: &MoveReport,
) -> String {
    let who = view
        .seat_of(actor)
        .map_or_else(|| actor.0.to_string(), |s| s.name.clone());
    let who: FluentValue<'_> = who.into();
    match report.action {
        crate::rules::Action::Place(p) => {
            let captured = report
                .removed
                .iter()
                .filter(|r| Some(r.colour) != report.colour)
                .count();
            if captured == 0 {
                i18n.tr(
                    lang,
                    "move-played",
                    &[("player", who), ("point", p.name().into())],
                )
            } else {
                i18n.tr(
                    lang,
                    "move-played-capturing",
                    &[
                        ("player", who),
                        ("point", p.name().into()),
                        ("stones", captured.into()),
                    ],
                )
            }
        }
        crate::rules::Action::Take(c) => i18n.tr(
            lang,
            "move-took-colour",
            &[
                ("player", who),
                ("colour", colour_name(i18n, lang, c).into()),
            ],
        ),
        crate::rules::Action::PlaceTwo => i18n.tr(lang, "move-place-two", &[("player", who)]),
        crate::rules::Action::Retire(_) => i18n.tr(lang, "clock-move-retired", &[("player", who)]),
        crate::rules::Action::Swap => i18n.tr(lang, "move-swapped", &[("player", who)]),
        crate::rules::Action::Keep => i18n.tr(lang, "move-kept", &[("player", who)]),
        crate::rules::Action::Declare(n) => i18n.tr(
            lang,
            "move-declared",
            &[("player", who), ("count", n.into())],
        ),
        crate::rules::Action::Offer(c) => {
            let list: Vec<String> = c.as_slice().iter().map(|p| p.name()).collect();
            i18n.tr(
                lang,
                "move-offered",
                &[
                    ("player", who),
                    ("count", c.len().into()),
                    ("points", list.join(", ").into()),
                ],
            )
        }
        crate::rules::Action::Choose(p) => i18n.tr(
            lang,
            "move-chose-fifth",
            &[("player", who), ("point", p.name().into())],
        ),
    }
}

/// The caption under a board: whose turn (with a mention when `ping`), or the result.
pub fn board_caption(i18n: &I18n, lang: Lang, view: &GameView, ping: bool) -> String {
    let mut lines = vec![format!("**{}**", game_title(i18n, lang, view))];
    let name_or_mention = |user: UserId, name: &str| {
        if ping {
            mention(user)
        } else {
            format!("**{name}**")
        }
    };
    match view.status {
        GameStatus::Active => {
            if let Some(seat) = view.to_act() {
                let who: FluentValue<'_> = name_or_mention(seat.user, &seat.name).into();
                let line = match view.game.phase() {
                    Phase::Choosing { may_place, .. } => i18n.tr(
                        lang,
                        if may_place {
                            "turn-choose-or-place"
                        } else {
                            "turn-choose"
                        },
                        &[("player", who)],
                    ),
                    Phase::Placing { .. } => {
                        let colour = colour_name(i18n, lang, view.game.to_move());
                        i18n.tr(
                            lang,
                            "turn-place-opening",
                            &[("player", who), ("colour", colour.into())],
                        )
                    }
                    Phase::Playing => {
                        let colour = colour_name(i18n, lang, view.game.to_move());
                        match view.game.area_limit() {
                            Some(limit) => i18n.tr(
                                lang,
                                "turn-move-area",
                                &[
                                    ("player", who),
                                    ("colour", colour.into()),
                                    ("side", (2 * limit + 1).into()),
                                ],
                            ),
                            None => i18n.tr(
                                lang,
                                "turn-move",
                                &[("player", who), ("colour", colour.into())],
                            ),
                        }
                    }
                    Phase::SwapOrKeep { may_offer, .. } => i18n.tr(
                        lang,
                        if may_offer {
                            "turn-swap-or-offer"
                        } else {
                            "turn-swap"
                        },
                        &[("player", who)],
                    ),
                    Phase::Declaring { .. } => i18n.tr(lang, "turn-declare", &[("player", who)]),
                    Phase::Offering { count, .. } => i18n.tr(
                        lang,
                        "turn-offer",
                        &[("player", who), ("count", count.into())],
                    ),
                    Phase::Selecting { .. } => i18n.tr(lang, "turn-select", &[("player", who)]),
                };
                lines.push(line);
                if matches!(
                    view.game.phase(),
                    Phase::Offering { .. }
                        | Phase::SwapOrKeep {
                            may_offer: true,
                            ..
                        }
                ) {
                    lines.push(i18n.get(lang, "turn-offer-how"));
                }
                if view.game.threatened_line().is_some() {
                    lines.push(i18n.get(lang, "turn-extra-time"));
                }
                if let Some(deadline) = view.deadline {
                    lines.push(i18n.tr(
                        lang,
                        "turn-deadline",
                        &[("when", format!("<t:{}:R>", deadline.unix_seconds()).into())],
                    ));
                }
            }
        }
        GameStatus::Finished(result) => {
            let winners: Vec<String> = view
                .seats
                .iter()
                .filter(|s| result.winners.contains(view.game.colour_of_seat(s.seat)))
                .map(|s| name_or_mention(s.user, &s.name))
                .collect();
            let names = winners.join(", ");
            let key = match result.reason {
                ResultReason::BoardFull => "result-draw",
                ResultReason::Line => "result-line",
                ResultReason::Captures => "result-captures",
                ResultReason::Resignation { .. } => "result-resignation",
                ResultReason::Timeout { .. } => "result-timeout",
                ResultReason::DrawAgreed => "result-draw-agreed",
            };
            lines.push(i18n.tr(
                lang,
                key,
                &[("winners", names.into()), ("count", winners.len().into())],
            ));
        }
    }
    lines.join("\n")
}

/// The public message of a challenge or lobby.
pub fn challenge_text(i18n: &I18n, lang: Lang, c: &Challenge) -> String {
    let game = rules_text::preset_name(i18n, lang, c.rules.preset);
    let mut lines = Vec::new();
    let challenger: FluentValue<'_> = mention(c.challenger).into();
    lines.push(match (c.is_lobby(), c.opponent) {
        (true, _) => i18n.tr(
            lang,
            "challenge-lobby",
            &[
                ("challenger", challenger),
                ("id", c.id.0.into()),
                ("game", game.into()),
                ("players", c.rules.players.into()),
            ],
        ),
        (false, Some(o)) => i18n.tr(
            lang,
            "challenge-named",
            &[
                ("challenger", challenger),
                ("opponent", mention(o).into()),
                ("id", c.id.0.into()),
                ("game", game.into()),
            ],
        ),
        (false, None) => i18n.tr(
            lang,
            "challenge-open",
            &[
                ("challenger", challenger),
                ("id", c.id.0.into()),
                ("game", game.into()),
            ],
        ),
    });
    lines.push(String::new());
    for line in rules_text::describe(i18n, lang, &c.rules) {
        lines.push(format!("• {line}"));
    }
    lines.push(format!("• {}", time_text(i18n, lang, c.time)));
    if c.rated {
        lines.push(format!("• {}", i18n.get(lang, "challenge-rated")));
    }
    lines.push(String::new());
    if c.is_lobby() {
        let members: Vec<String> = c.members.iter().map(|u| mention(*u)).collect();
        lines.push(i18n.tr(
            lang,
            "lobby-members",
            &[
                ("members", members.join(", ").into()),
                ("count", c.members.len().into()),
                ("players", c.rules.players.into()),
            ],
        ));
    }
    let status_key = match c.status {
        ChallengeStatus::Open => None,
        ChallengeStatus::Accepted => Some("challenge-status-accepted"),
        ChallengeStatus::Declined => Some("challenge-status-declined"),
        ChallengeStatus::Cancelled => Some("challenge-status-cancelled"),
        ChallengeStatus::Expired => Some("challenge-status-expired"),
    };
    match status_key {
        None => lines.push(i18n.tr(
            lang,
            "challenge-expires",
            &[(
                "when",
                format!("<t:{}:R>", c.expires_at.unix_seconds()).into(),
            )],
        )),
        Some(k) => lines.push(i18n.tr(lang, k, &[("game", c.game.map_or(0, |g| g.0).into())])),
    }
    lines.join("\n")
}

/// One line of `/games`.
pub fn summary_line(i18n: &I18n, lang: Lang, me: UserId, g: &GameSummary) -> String {
    let opponents: Vec<String> = g
        .players
        .iter()
        .filter(|p| p.user != me)
        .map(|p| p.name.clone())
        .collect();
    let game = rules_text::preset_name(i18n, lang, g.rules.preset);
    let turn = if g.your_turn {
        i18n.get(lang, "games-your-turn")
    } else {
        let name = g
            .to_act
            .and_then(|u| g.players.iter().find(|p| p.user == u))
            .map_or_else(String::new, |p| p.name.clone());
        i18n.tr(lang, "games-their-turn", &[("player", name.into())])
    };
    let place = format!("<#{}>", g.thread.unwrap_or(g.channel).0);
    let mut line = i18n.tr(
        lang,
        "games-line",
        &[
            ("id", g.id.0.into()),
            ("game", game.into()),
            ("opponents", opponents.join(", ").into()),
            ("turn", turn.into()),
            ("place", place.into()),
        ],
    );
    if let Some(d) = g.deadline {
        line.push_str(&format!(" · ⏰ <t:{}:R>", d.unix_seconds()));
    }
    line
}

/// A short label for a game in autocomplete lists (at most 100 characters).
pub fn summary_label(i18n: &I18n, lang: Lang, me: UserId, g: &GameSummary) -> String {
    let opponents: Vec<String> = g
        .players
        .iter()
        .filter(|p| p.user != me)
        .map(|p| p.name.clone())
        .collect();
    let turn = if g.your_turn {
        i18n.get(lang, "games-your-turn")
    } else {
        i18n.get(lang, "games-waiting")
    };
    let label = format!("#{} · {} · {}", g.id.0, opponents.join(", "), turn);
    if label.chars().count() > 100 {
        label.chars().take(99).collect::<String>() + "…"
    } else {
        label
    }
}

fn yes_no(i18n: &I18n, lang: Lang, b: bool) -> String {
    i18n.get(lang, if b { "value-on" } else { "value-off" })
}

fn language_name(i18n: &I18n, lang: Lang, code: Option<&str>) -> String {
    match code.and_then(Lang::from_code) {
        Some(l) => i18n.get(lang, &format!("choice-language-{}", l.code())),
        None => i18n.get(lang, "choice-language-auto"),
    }
}

/// A heading and `key: value` lines, each line a message with a `$value`.
fn value_lines(i18n: &I18n, lang: Lang, heading: &str, rows: Vec<(&str, String)>) -> String {
    let mut lines = vec![i18n.get(lang, heading)];
    lines.extend(
        rows.into_iter()
            .map(|(key, value)| i18n.tr(lang, key, &[("value", value.into())])),
    );
    lines.join("\n")
}

/// A player's preferences in words (after `/prefs`).
pub fn prefs_text(i18n: &I18n, lang: Lang, p: &Preferences, changed: bool) -> String {
    let pings = match p.notify {
        crate::service::Notify::Mention => "choice-pings-mention",
        crate::service::Notify::DirectMessage => "choice-pings-direct",
        crate::service::Notify::Off => "choice-pings-off",
    };
    let rows = vec![
        ("prefs-coordinates", yes_no(i18n, lang, p.show_coordinates)),
        ("prefs-highlight", yes_no(i18n, lang, p.highlight_last_move)),
        ("prefs-confirm", yes_no(i18n, lang, p.confirm_move)),
        ("prefs-forbidden", yes_no(i18n, lang, p.show_forbidden)),
        (
            "prefs-language",
            language_name(i18n, lang, p.language.as_deref()),
        ),
        ("prefs-pings", i18n.get(lang, pings)),
    ];
    value_lines(
        i18n,
        lang,
        if changed {
            "prefs-saved"
        } else {
            "prefs-current"
        },
        rows,
    )
}

/// A server's settings in words (after `/settings`).
pub fn settings_text(
    i18n: &I18n,
    lang: Lang,
    s: &crate::service::GuildSettings,
    changed: bool,
) -> String {
    let game = rules_text::preset_name(i18n, lang, s.default_rules.preset);
    let rows = vec![
        (
            "settings-game",
            format!("{game} (`{}`)", s.default_rules.to_spec()),
        ),
        ("settings-time", time_text(i18n, lang, s.default_time)),
        ("settings-threads", yes_no(i18n, lang, s.thread_per_game)),
        (
            "settings-language",
            language_name(i18n, lang, s.locale.as_deref()),
        ),
    ];
    value_lines(
        i18n,
        lang,
        if changed {
            "settings-saved"
        } else {
            "settings-current"
        },
        rows,
    )
}

/// Shortens text to Discord's 2000-character limit, on a character boundary.
pub fn clip(text: String) -> String {
    const LIMIT: usize = 2000;
    if text.chars().count() <= LIMIT {
        return text;
    }
    let mut out: String = text.chars().take(LIMIT - 1).collect();
    out.push('…');
    out
}

/// A review refusal in words.
pub fn review_refusal_text(i18n: &I18n, lang: Lang, e: &ReviewError) -> String {
    match e {
        ReviewError::InProgress => i18n.get(lang, "review-in-progress"),
        ReviewError::TooManyPlayers => i18n.get(lang, "review-two-players"),
        ReviewError::BadRecord(_) => i18n.get(lang, "err-internal"),
    }
}

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
        OfferError::AgainstComputer => i18n.get(lang, "err-offer-computer"),
        OfferError::NotAgainstComputer => i18n.get(lang, "err-offer-not-computer"),
    }
}

/// "10 minutes per move".
pub fn minutes_text(i18n: &I18n, lang: Lang, minutes: u16) -> String {
    i18n.tr(
        lang,
        "clock-minutes-per-move",
        &[("minutes", minutes.into())],
    )
}

/// The refusal of a live time control that is not allowed.
pub fn bad_minutes_text(i18n: &I18n, lang: Lang, minutes: u16) -> String {
    i18n.tr(
        lang,
        "clock-err-bad-minutes",
        &[("minutes", minutes.into())],
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Opening, Point};
    use crate::service::{GameId, StorageError};

    const SOURCES: [&str; 5] = [
        include_str!("mod.rs"),
        include_str!("buttons.rs"),
        include_str!("post.rs"),
        include_str!("commands.rs"),
        include_str!("text.rs"),
    ];
    const PREFIXES: [&str; 20] = [
        "err-",
        "board-",
        "time-",
        "game-",
        "move-",
        "turn-",
        "result-",
        "challenge-",
        "lobby-",
        "games-",
        "colour-",
        "button-",
        "confirm-",
        "moved-",
        "thread-",
        "dm-",
        "export-",
        "prefs-",
        "settings-",
        "value-",
    ];

    #[test]
    fn every_message_key_in_the_code_exists_in_english() {
        let i18n = I18n::load();
        let mut checked = 0;
        for source in SOURCES {
            for literal in source.split('"').skip(1).step_by(2) {
                let is_key = PREFIXES.iter().any(|p| literal.starts_with(p))
                    && literal
                        .bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
                    && !literal.ends_with('-');
                if is_key {
                    assert!(i18n.has(Lang::En, literal), "missing key {literal}");
                    checked += 1;
                }
            }
        }
        assert!(
            checked > 100,
            "only {checked} keys found: the scan is broken"
        );
    }

    #[test]
    fn every_refusal_reads_as_a_sentence_in_every_language() {
        let i18n = I18n::load();
        let p = Point::parse("K10", 19).unwrap();
        let errors = [
            ServiceError::NoSuchGame,
            ServiceError::NoSuchChallenge,
            ServiceError::NotYourTurn,
            ServiceError::GameOver,
            ServiceError::Illegal(PlayError::Occupied(p)),
            ServiceError::Illegal(PlayError::OpeningRule {
                point: p,
                opening: Opening::LongPro,
                why: "",
            }),
            ServiceError::Illegal(PlayError::ForbiddenSelfCapture(p)),
            ServiceError::Illegal(PlayError::OffBoard(p)),
            ServiceError::Illegal(PlayError::NoSuchColour(3)),
            ServiceError::Illegal(PlayError::WrongPhase("")),
            ServiceError::BadPoint(PointError::Malformed("I5".into())),
            ServiceError::BadPoint(PointError::OutOfBounds {
                text: "Z5".into(),
                size: 19,
            }),
            ServiceError::PositionChanged,
            ServiceError::NotAParticipant,
            ServiceError::Ambiguous(vec![GameId(3), GameId(4)]),
            ServiceError::NoActiveGame,
            ServiceError::ChallengeSelf,
            ServiceError::ChallengeBot,
            ServiceError::TooManyOpenGames { max: 3 },
            ServiceError::ChallengeExpired,
            ServiceError::ChallengeClosed(ChallengeStatus::Declined),
            ServiceError::NotChallenged,
            ServiceError::NotChallenger,
            ServiceError::LobbyFull,
            ServiceError::AlreadyJoined,
            ServiceError::NotJoined,
            ServiceError::OpponentInLobby,
            ServiceError::BadTimeControl(99),
            ServiceError::Storage(StorageError {
                kind: StorageErrorKind::Full,
                detail: "disk".into(),
            }),
            ServiceError::Storage(StorageError {
                kind: StorageErrorKind::Busy,
                detail: "lock".into(),
            }),
            ServiceError::Storage(StorageError {
                kind: StorageErrorKind::Corrupt,
                detail: "x".into(),
            }),
        ];
        for lang in Lang::ALL {
            for e in &errors {
                let text = error_text(&i18n, lang, e);
                assert!(
                    text.len() > 8 && !text.starts_with("err-"),
                    "{lang} {e:?}: {text}"
                );
                assert!(!text.contains('{'), "{lang} {e:?}: {text}");
            }
            assert!(error_text(&i18n, lang, &errors[14]).contains("#3, #4"));
            assert!(
                error_text(&i18n, lang, &errors[5]).contains('4'),
                "long pro says 4 points"
            );
            assert!(
                !error_text(&i18n, lang, &errors[28]).contains("disk"),
                "storage details stay in the logs"
            );
        }
        let conflict = RulesError::Conflict(Conflict::TeamsNeedFourPlayers);
        assert_eq!(
            rules_error_text(&i18n, Lang::Fi, &conflict),
            "Joukkueet vaativat täsmälleen 4 pelaajaa."
        );
    }

    #[test]
    fn long_texts_are_clipped_to_discords_limit() {
        let long = "é".repeat(2500);
        let clipped = clip(long);
        assert_eq!(clipped.chars().count(), 2000);
        assert!(clipped.ends_with('…'));
        assert_eq!(clip("short".into()), "short");
    }
}
