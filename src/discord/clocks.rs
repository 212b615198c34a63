//! Clocks on Discord: what the deadline sweeper's events say (reminders, vacation notices,
//! losses on time posted in the game's thread), `/vacation`, and the time options of
//! `/challenge`.
//!
//! Low in the Discord layer: the outbox's poster and tournaments use it. The sweep itself,
//! which starts a tournament's next round after a loss on time, is `clock_sweep`'s.

use super::rest::{Op, counted};
use super::text::{self, mention};
use super::{Context, Error};
use crate::i18n::{I18n, Lang};
use crate::service::{
    ClockEvent, GameStatus, GameView, Notify, ResultReason, Service, TimeControl, UserId,
};

/// Why the time options of a command do not make a time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeChoiceError {
    /// Both days and minutes per move were given.
    Both,
}

/// The time control chosen by a command's `days_per_move` and `minutes_per_move` options:
/// `None` when neither is given (the server's default applies); `days_per_move: 0` means no
/// time limit. The values themselves are checked by the service.
///
/// # Errors
/// [`TimeChoiceError::Both`] when both are given.
pub fn time_choice(
    days: Option<u16>,
    minutes: Option<u16>,
) -> Result<Option<TimeControl>, TimeChoiceError> {
    match (days, minutes) {
        (Some(_), Some(_)) => Err(TimeChoiceError::Both),
        (Some(0), None) => Ok(Some(TimeControl::Unlimited)),
        (Some(d), None) => Ok(Some(TimeControl::DaysPerMove(d))),
        (None, Some(m)) => Ok(Some(TimeControl::MinutesPerMove(m))),
        (None, None) => Ok(None),
    }
}

/// The words for a time-choice refusal.
pub fn time_choice_error_text(i18n: &I18n, lang: Lang, e: TimeChoiceError) -> String {
    match e {
        TimeChoiceError::Both => i18n.get(lang, "clock-err-days-and-minutes"),
    }
}

/// `<t:UNIX:R>`: Discord shows it in each reader's own time zone ("in 3 hours").
pub fn relative_time(t: crate::service::Timestamp) -> String {
    format!("<t:{}:R>", t.unix_seconds())
}

/// A message of the sweeper: where it goes, what it says, who it pings, who gets a DM.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// The game's thread (or channel).
    pub channel: crate::service::ChannelId,
    /// The text.
    pub content: String,
    /// The users mentioned with a ping.
    pub pings: Vec<UserId>,
    /// Direct messages: (user, text).
    pub direct: Vec<(UserId, String)>,
}

fn seat_name(view: &GameView, user: UserId) -> String {
    view.seat_of(user)
        .map_or_else(|| user.0.to_string(), |s| s.name.clone())
}

/// The player shown as a mention (pinging them) unless they turned pings off.
fn addressed(view: &GameView, user: UserId, notify: Notify, pings: &mut Vec<UserId>) -> String {
    if notify == Notify::Off {
        format!("**{}**", seat_name(view, user))
    } else {
        pings.push(user);
        mention(user)
    }
}

/// What to post for a clock event, in the guild's `lang`. `notify_of` gives each player's
/// notification preference, `dm_lang` the language of their direct messages.
pub fn notice(
    i18n: &I18n,
    lang: Lang,
    event: &ClockEvent,
    notify_of: impl Fn(UserId) -> Notify,
    dm_lang: impl Fn(UserId) -> Lang,
) -> Option<Notice> {
    let mut pings = Vec::new();
    let mut direct = Vec::new();
    match event {
        ClockEvent::Failed { .. } => None,
        ClockEvent::Reminder { game, user, .. } => {
            let deadline = game.deadline?;
            let notify = notify_of(*user);
            let who = addressed(game, *user, notify, &mut pings);
            let when = relative_time(deadline);
            if notify == Notify::DirectMessage {
                direct.push((
                    *user,
                    i18n.tr(
                        dm_lang(*user),
                        "clock-reminder-dm",
                        &[
                            ("id", game.id.0.into()),
                            ("place", format!("<#{}>", game.home().0).into()),
                            ("when", when.clone().into()),
                        ],
                    ),
                ));
            }
            Some(Notice {
                channel: game.home(),
                content: i18n.tr(
                    lang,
                    "clock-reminder",
                    &[
                        ("player", who.into()),
                        ("id", game.id.0.into()),
                        ("when", when.into()),
                    ],
                ),
                pings,
                direct,
            })
        }
        ClockEvent::VacationUsed {
            game,
            user,
            left,
            first_of_turn,
            ..
        } => {
            // One notice when vacation starts to run, not one an hour.
            if !first_of_turn {
                return None;
            }
            let who = addressed(game, *user, notify_of(*user), &mut pings);
            Some(Notice {
                channel: game.home(),
                content: i18n.tr(
                    lang,
                    "clock-vacation-started",
                    &[
                        ("player", who.into()),
                        ("id", game.id.0.into()),
                        ("left", (*left).into()),
                        ("when", relative_time(game.deadline?).into()),
                    ],
                ),
                pings,
                direct,
            })
        }
        ClockEvent::TimedOut { game, user, .. } => {
            let GameStatus::Finished(result) = game.status else {
                // 3-4 players: they are out and the others play on; the next player is told.
                let out = format!("**{}**", seat_name(game, *user));
                let mut lines =
                    vec![i18n.tr(lang, "clock-move-retired", &[("player", out.into())])];
                let next = game.to_act().map(|s| s.user);
                let ping = next.is_some_and(|u| notify_of(u) != Notify::Off);
                if ping && let Some(u) = next {
                    pings.push(u);
                }
                lines.push(text::board_caption(i18n, lang, game, ping));
                return Some(Notice {
                    channel: game.home(),
                    content: text::clip(lines.join("\n")),
                    pings,
                    direct,
                });
            };
            let loser = seat_name(game, *user);
            let mut winners = Vec::new();
            for seat in &game.seats {
                let notify = notify_of(seat.user);
                if result.winners.contains(game.game.colour_of_seat(seat.seat)) {
                    winners.push(addressed(game, seat.user, notify, &mut pings));
                } else if notify != Notify::Off {
                    pings.push(seat.user);
                }
                if notify == Notify::DirectMessage {
                    direct.push((
                        seat.user,
                        i18n.tr(
                            dm_lang(seat.user),
                            "clock-timeout-dm",
                            &[
                                ("id", game.id.0.into()),
                                ("place", format!("<#{}>", game.home().0).into()),
                                ("player", loser.clone().into()),
                            ],
                        ),
                    ));
                }
            }
            let mut lines = vec![i18n.tr(
                lang,
                "clock-timeout",
                &[
                    ("id", game.id.0.into()),
                    ("player", addressed_loser(game, *user, &pings).into()),
                ],
            )];
            if matches!(result.reason, ResultReason::Timeout { .. }) && !winners.is_empty() {
                lines.push(i18n.tr(
                    lang,
                    "result-timeout",
                    &[
                        ("winners", winners.join(", ").into()),
                        ("count", winners.len().into()),
                    ],
                ));
            }
            Some(Notice {
                channel: game.home(),
                content: text::clip(lines.join("\n")),
                pings,
                direct,
            })
        }
    }
}

/// The loser as a mention when they are pinged, else their name in bold.
fn addressed_loser(game: &GameView, user: UserId, pings: &[UserId]) -> String {
    if pings.contains(&user) {
        mention(user)
    } else {
        format!("**{}**", seat_name(game, user))
    }
}

/// The notice of one clock event in the guild's language, with each player's notification
/// preference and direct-message language (`None` when the event says nothing).
pub(super) async fn notice_of(
    service: &Service,
    i18n: &I18n,
    event: &ClockEvent,
) -> Option<Notice> {
    let game = match event {
        ClockEvent::Reminder { game, .. }
        | ClockEvent::VacationUsed { game, .. }
        | ClockEvent::TimedOut { game, .. } => game,
        ClockEvent::Failed { .. } => return None,
    };
    let lang = super::guild_lang(service, game.guild, None).await;
    let mut prefs = Vec::new();
    for seat in &game.seats {
        let p = service.preferences(seat.user).await.unwrap_or_default();
        // Direct messages have no guild: the player's own language, else the guild's.
        let own = p
            .language
            .as_deref()
            .and_then(Lang::from_code)
            .unwrap_or(lang);
        prefs.push((seat.user, p.notify, own));
    }
    let pref = |u: UserId| prefs.iter().find(|(p, _, _)| *p == u);
    let notify_of = |u: UserId| pref(u).map_or(Notify::default(), |p| p.1);
    let dm_lang = |u: UserId| pref(u).map_or(lang, |p| p.2);
    notice(i18n, lang, event, notify_of, dm_lang)
}

/// The words of `/vacation`.
pub fn vacation_text(i18n: &I18n, lang: Lang, b: &crate::service::VacationBalance) -> String {
    let left = b.left_hours();
    [
        i18n.tr(
            lang,
            "clock-vacation-left",
            &[
                ("year", b.year.into()),
                ("days", (left / 24).into()),
                ("hours", (left % 24).into()),
                ("allowance", (b.allowance_hours / 24).into()),
            ],
        ),
        i18n.tr(
            lang,
            "clock-vacation-used",
            &[("used", b.used_hours.into())],
        ),
    ]
    .join("\n")
}

/// Your vacation time left this year (spent automatically when a deadline passes).
#[poise::command(slash_command)]
pub async fn vacation(ctx: Context<'_>) -> Result<(), Error> {
    let data = ctx.data();
    let user = UserId(ctx.author().id.get());
    let lang = data.private_lang(user, ctx.locale().unwrap_or("en")).await;
    let text = match data.service.vacation(user).await {
        Ok(b) => vacation_text(&data.i18n, lang, &b),
        Err(e) => text::error_text(&data.i18n, lang, &e),
    };
    counted(
        Op::Answer,
        ctx.send(
            poise::CreateReply::default()
                .content(text::clip(text))
                .ephemeral(true),
        ),
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::rules::{Action, Colours, Game, RuleSet};
    use crate::service::{
        ChannelId, GameId, GameResult, GuildId, SeatView, Timestamp, VacationBalance,
    };

    fn view(spec: &str, status: GameStatus) -> GameView {
        let game = Game::new(RuleSet::from_spec(spec).unwrap());
        let players = game.rules().players;
        GameView {
            id: GameId(7),
            guild: GuildId(1),
            channel: ChannelId(100),
            thread: Some(ChannelId(200)),
            board_message: None,
            challenge: None,
            game,
            seats: (1..=players)
                .map(|s| SeatView {
                    seat: s,
                    user: UserId(10 + u64::from(s)),
                    name: format!("P{s}"),
                    colour: s,
                })
                .collect(),
            time: TimeControl::DaysPerMove(1),
            deadline: Some(Timestamp(1_700_000_000_000)),
            rated: false,
            against_computer: false,
            status,
            ply: 0,
            created_at: Timestamp(0),
            updated_at: Timestamp(0),
        }
    }

    fn reminder(notify: Notify) -> Notice {
        let i18n = I18n::load();
        let event = ClockEvent::Reminder {
            game: view("gomoku", GameStatus::Active),
            user: UserId(11),
            seat: 1,
        };
        notice(&i18n, Lang::En, &event, |_| notify, |_| Lang::Fi).expect("a notice")
    }

    #[test]
    fn reminders_ping_as_each_player_asked_in_the_games_thread() {
        let n = reminder(Notify::Mention);
        assert_eq!(n.channel, ChannelId(200));
        assert!(n.content.contains("<@11>"), "{}", n.content);
        assert!(n.content.contains("<t:1700000000:R>"), "{}", n.content);
        assert_eq!(n.pings, vec![UserId(11)]);
        assert!(n.direct.is_empty());
        let n = reminder(Notify::Off);
        assert!(!n.content.contains("<@"), "{}", n.content);
        assert!(n.content.contains("**P1**"), "{}", n.content);
        assert!(n.pings.is_empty());
        let n = reminder(Notify::DirectMessage);
        assert_eq!(n.pings, vec![UserId(11)]);
        assert_eq!(n.direct.len(), 1);
        assert!(n.direct[0].1.contains("#7") && n.direct[0].1.contains("<#200>"));
        assert!(
            n.direct[0].1.contains("Siirtosi"),
            "the direct message is in the player's language: {}",
            n.direct[0].1
        );
        assert!(
            n.content.contains("your move"),
            "the thread's is the guild's"
        );
    }

    #[test]
    fn vacation_is_announced_when_it_starts_only() {
        let i18n = I18n::load();
        let event = |first_of_turn| ClockEvent::VacationUsed {
            game: view("gomoku", GameStatus::Active),
            user: UserId(11),
            hours: 1,
            left: 239,
            first_of_turn,
        };
        assert_eq!(
            notice(
                &i18n,
                Lang::En,
                &event(false),
                |_| Notify::Mention,
                |_| Lang::En
            ),
            None
        );
        let n = notice(
            &i18n,
            Lang::Fi,
            &event(true),
            |_| Notify::Mention,
            |_| Lang::Fi,
        )
        .unwrap();
        assert!(n.content.contains("239"), "{}", n.content);
        assert_eq!(n.pings, vec![UserId(11)]);
    }

    #[test]
    fn a_loss_on_time_names_loser_and_winners_or_the_next_player_when_the_game_goes_on() {
        let i18n = I18n::load();
        let finished = GameStatus::Finished(GameResult {
            winners: Colours::one(2),
            reason: crate::service::ResultReason::Timeout { seat: 1 },
        });
        let event = ClockEvent::TimedOut {
            game: view("gomoku", finished),
            user: UserId(11),
            seat: 1,
        };
        let n = notice(
            &i18n,
            Lang::En,
            &event,
            |u| {
                if u == UserId(11) {
                    Notify::Off
                } else {
                    Notify::Mention
                }
            },
            |_| Lang::En,
        )
        .unwrap();
        assert!(
            n.content.contains("**P1** ran out of time"),
            "{}",
            n.content
        );
        assert!(n.content.contains("<@12> wins on time"), "{}", n.content);
        assert_eq!(n.pings, vec![UserId(12)]);

        let mut three = view("gomoku players=3", GameStatus::Active);
        three.game.apply(Action::Retire(1)).unwrap();
        let event = ClockEvent::TimedOut {
            game: three,
            user: UserId(11),
            seat: 1,
        };
        let n = notice(&i18n, Lang::Es, &event, |_| Notify::Mention, |_| Lang::Es).unwrap();
        assert!(n.content.contains("**P1**"), "{}", n.content);
        assert!(
            n.content.contains("<@12>"),
            "the next player: {}",
            n.content
        );
        assert_eq!(n.pings, vec![UserId(12)]);
    }

    #[test]
    fn time_options_make_a_time_control() {
        assert_eq!(time_choice(None, None), Ok(None));
        assert_eq!(time_choice(Some(0), None), Ok(Some(TimeControl::Unlimited)));
        assert_eq!(
            time_choice(Some(3), None),
            Ok(Some(TimeControl::DaysPerMove(3)))
        );
        assert_eq!(
            time_choice(None, Some(10)),
            Ok(Some(TimeControl::MinutesPerMove(10)))
        );
        assert_eq!(time_choice(Some(1), Some(1)), Err(TimeChoiceError::Both));
    }

    #[test]
    fn clock_texts_exist_in_every_language() {
        let i18n = I18n::load();
        for lang in Lang::ALL {
            for text in [
                text::minutes_text(&i18n, lang, 5),
                text::bad_minutes_text(&i18n, lang, 4),
                time_choice_error_text(&i18n, lang, TimeChoiceError::Both),
                vacation_text(
                    &i18n,
                    lang,
                    &VacationBalance {
                        year: 2026,
                        allowance_hours: 240,
                        used_hours: 27,
                    },
                ),
            ] {
                assert!(
                    !text.contains("clock-") && !text.contains('{'),
                    "{lang}: {text}"
                );
            }
            let v = vacation_text(
                &i18n,
                lang,
                &VacationBalance {
                    year: 2026,
                    allowance_hours: 240,
                    used_hours: 27,
                },
            );
            assert!(v.contains("2026") && v.contains("8") && v.contains("21") && v.contains("27"));
        }
    }
}
