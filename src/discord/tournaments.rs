//! Tournaments on Discord: `/tournament` and its subcommands, the Join / Leave buttons of the
//! announcement, and the posts of each round (a thread and a board per game, the pairings,
//! the standings picture), owed through the outbox in the commit that starts the round and
//! made by the poster (or, for a round owed before the outbox, by whichever process claims it:
//! see [`crate::service::Service::claim_announcements`]).
//!
//! Buttons are routed by their `custom_id` alone (`gt:join:3`, `gt:leave:3`), so they keep
//! working after a restart. Rounds advance after any action that ends a tournament game, and
//! a sweep (every [`crate::service::ServiceConfig::clock_sweep_every`], and at start-up)
//! catches what a crash or another process left undone.

use std::sync::{Arc, Weak};
use std::time::Duration;

use fluent_bundle::FluentValue;
use poise::CreateReply;
use poise::serenity_prelude as serenity;
use serenity::{
    AutocompleteChoice, ButtonStyle, CreateActionRow, CreateAllowedMentions, CreateAttachment,
    CreateAutocompleteResponse, CreateButton, CreateInteractionResponse,
    CreateInteractionResponseMessage, CreateMessage, EditMessage, Http,
};
use tracing::warn;

use super::choices::{
    CapturesChoice, GameChoice, LineChoice, OpeningChoice, OverlineChoice, PlayersChoice,
    RuleChoices, SelfCaptureChoice, SizeChoice, chosen_time_and_rules,
};
use super::context::{actor_of, interaction, private_lang, public_lang, say_private};
use super::post;
use super::rest::{Op, counted, edit_message};
use super::text::{self, mention};
use super::{Context, Data, Error};
use crate::i18n::{I18n, Lang, rules_text};
use crate::render::{StandingsRow, StandingsTable, Theme, render_standings_png};
use crate::rules::Opening;
use crate::service::{
    Announcement, ChannelId, GameId, GameView, GuildId, MessageId, Preferences, Service,
    StandingsView, Tournament, TournamentError, TournamentId, TournamentRequest, TournamentStatus,
    UserId,
};
use crate::tournament::{BoardResult, Format};

/// How long a process owns the posting of a round it claimed.
const LEASE: Duration = Duration::from_secs(300);
/// The largest picture posted outside an interaction (Discord's smallest upload limit).
const UPLOAD_LIMIT: usize = 8 << 20;
/// Lines of the text standings under the picture.
const TEXT_STANDINGS_LINES: usize = 10;
const PREFIX: &str = "gt";

/// A button of a tournament's announcement.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentButton {
    /// Join the tournament.
    Join(TournamentId),
    /// Leave it (before the start).
    Leave(TournamentId),
}

impl TournamentButton {
    /// Its `custom_id`.
    pub fn custom_id(self) -> String {
        match self {
            TournamentButton::Join(t) => format!("{PREFIX}:join:{}", t.0),
            TournamentButton::Leave(t) => format!("{PREFIX}:leave:{}", t.0),
        }
    }

    /// Reads a `custom_id`; `None` for anything else.
    pub fn parse(id: &str) -> Option<TournamentButton> {
        let mut parts = id.split(':');
        if parts.next()? != PREFIX {
            return None;
        }
        let verb = parts.next()?;
        let t = TournamentId(parts.next()?.parse().ok()?);
        if parts.next().is_some() {
            return None;
        }
        match verb {
            "join" => Some(TournamentButton::Join(t)),
            "leave" => Some(TournamentButton::Leave(t)),
            _ => None,
        }
    }
}

/// Tournament formats.
#[derive(Debug, Clone, Copy, poise::ChoiceParameter)]
pub enum FormatChoice {
    /// Everyone plays everyone.
    #[name = "round-robin"]
    RoundRobin,
    /// Swiss.
    #[name = "swiss"]
    Swiss,
}

// ----- words --------------------------------------------------------------------------------

/// A user-given name fit for a message: Discord's markdown characters are escaped, so that a
/// tournament's name cannot format or link the text around it.
pub fn plain(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().filter(|c| !c.is_control()) {
        if matches!(
            c,
            '\\' | '*'
                | '_'
                | '~'
                | '`'
                | '|'
                | '>'
                | '<'
                | '['
                | ']'
                | '('
                | ')'
                | '#'
                | '-'
                | '@'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Half points as a player reads them: `2`, `2½`, `½`.
pub fn half_points_text(halves: u32) -> String {
    quarters_text(halves * 2)
}

/// Quarter points as a player reads them: `2¼`, `2½`, `2¾`.
pub fn quarters_text(quarters: u32) -> String {
    let (whole, frac) = (quarters / 4, quarters % 4);
    let f = ["", "¼", "½", "¾"][frac as usize];
    if whole == 0 && frac != 0 {
        f.to_string()
    } else {
        format!("{whole}{f}")
    }
}

fn format_text(i18n: &I18n, lang: Lang, t: &Tournament) -> String {
    match t.row.format {
        Format::RoundRobin => i18n.tr(
            lang,
            "tournament-format-round-robin",
            &[("games", t.row.games_per_pairing.into())],
        ),
        Format::Swiss => match t.row.total_rounds.or(t.row.rounds) {
            Some(r) => i18n.tr(lang, "tournament-format-swiss", &[("rounds", r.into())]),
            None => i18n.get(lang, "tournament-format-swiss-default"),
        },
    }
}

fn status_text(i18n: &I18n, lang: Lang, status: TournamentStatus) -> String {
    i18n.get(
        lang,
        match status {
            TournamentStatus::Open => "tournament-state-open",
            TournamentStatus::Running => "tournament-state-running",
            TournamentStatus::Finished => "tournament-state-finished",
            TournamentStatus::Cancelled => "tournament-state-cancelled",
        },
    )
}

fn mentions(users: &[UserId]) -> String {
    users
        .iter()
        .map(|u| mention(*u))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The swap openings decide colours in the game: the pairing only says who places the stones.
fn swap_note(i18n: &I18n, lang: Lang, t: &Tournament) -> Option<String> {
    matches!(t.row.rules.opening, Opening::Swap | Opening::Swap2)
        .then(|| i18n.get(lang, "tournament-swap-note"))
}

/// The announcement: what the tournament is, who is in, and where it stands.
pub fn announcement_text(
    i18n: &I18n,
    lang: Lang,
    t: &Tournament,
    winners: Option<&[UserId]>,
) -> String {
    let game = rules_text::preset_name(i18n, lang, t.row.rules.preset);
    let mut lines = vec![i18n.tr(
        lang,
        "tournament-title",
        &[
            ("name", plain(&t.row.name).into()),
            ("id", t.row.id.0.into()),
            ("format", format_text(i18n, lang, t).into()),
            ("game", game.into()),
        ],
    )];
    for line in rules_text::describe(i18n, lang, &t.row.rules) {
        lines.push(format!("• {line}"));
    }
    lines.push(format!("• {}", text::time_text(i18n, lang, t.row.time)));
    if t.row.rated {
        lines.push(format!("• {}", i18n.get(lang, "challenge-rated")));
    }
    if let Some(note) = swap_note(i18n, lang, t) {
        lines.push(format!("• {note}"));
    }
    lines.push(String::new());
    let players: Vec<UserId> = t.players.iter().map(|p| p.user).collect();
    lines.push(if players.is_empty() {
        i18n.get(lang, "tournament-no-players")
    } else {
        i18n.tr(
            lang,
            "tournament-players",
            &[
                ("count", players.len().into()),
                ("max", t.row.max_players.into()),
                ("players", mentions(&players).into()),
            ],
        )
    });
    lines.push(match t.row.status {
        TournamentStatus::Open => i18n.tr(
            lang,
            "tournament-open-hint",
            &[
                ("creator", mention(t.row.creator).into()),
                ("min", crate::service::MIN_PLAYERS.into()),
            ],
        ),
        TournamentStatus::Running => i18n.tr(
            lang,
            "tournament-running",
            &[
                ("round", t.row.round.into()),
                ("total", t.row.total_rounds.unwrap_or(0).into()),
            ],
        ),
        TournamentStatus::Finished => i18n.tr(
            lang,
            "tournament-finished",
            &[
                ("winners", mentions(winners.unwrap_or_default()).into()),
                ("count", winners.map_or(0, <[UserId]>::len).into()),
            ],
        ),
        TournamentStatus::Cancelled => i18n.get(lang, "tournament-cancelled"),
    });
    text::clip(lines.join("\n"))
}

/// The picture's table of the standings.
pub fn standings_table(i18n: &I18n, lang: Lang, view: &StandingsView) -> StandingsTable {
    let t = &view.tournament;
    let total = t.row.total_rounds.unwrap_or(0);
    let subtitle = match t.row.status {
        TournamentStatus::Finished => i18n.get(lang, "tournament-table-final"),
        TournamentStatus::Open | TournamentStatus::Cancelled => {
            i18n.get(lang, "tournament-table-open")
        }
        TournamentStatus::Running => i18n.tr(
            lang,
            "tournament-table-round",
            &[
                ("round", view.rounds_complete.into()),
                ("total", total.into()),
            ],
        ),
    };
    let swiss = t.row.format == Format::Swiss;
    let mut headings = vec![
        i18n.get(lang, "tournament-col-rank"),
        i18n.get(lang, "tournament-col-player"),
        i18n.get(lang, "tournament-col-points"),
    ];
    if swiss {
        headings.push(i18n.get(lang, "tournament-col-buchholz"));
    }
    headings.push(i18n.get(lang, "tournament-col-sb"));
    headings.push(i18n.get(lang, "tournament-col-games"));
    let finished = t.row.status == TournamentStatus::Finished;
    let rows = view
        .lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let s = &l.standing;
            let shared = view
                .lines
                .iter()
                .enumerate()
                .any(|(j, o)| j != i && o.standing.rank == s.rank);
            let mut cells = vec![half_points_text(s.half_points)];
            if swiss {
                cells.push(half_points_text(s.buchholz_halves));
            }
            cells.push(quarters_text(s.sonneborn_berger_quarters));
            cells.push(s.played.to_string());
            let mut name = l.name.clone();
            if s.withdrawn {
                name = format!("{name} ({})", i18n.get(lang, "tournament-withdrawn"));
            }
            StandingsRow {
                rank: if shared {
                    format!("={}", s.rank)
                } else {
                    s.rank.to_string()
                },
                name,
                cells,
                winner: finished && s.rank == 1,
                withdrawn: s.withdrawn,
            }
        })
        .collect();
    StandingsTable {
        title: t.row.name.clone(),
        subtitle,
        headings,
        rows,
    }
}

/// The short text standings: the first `max` lines.
pub fn standings_text(i18n: &I18n, lang: Lang, view: &StandingsView, max: usize) -> String {
    let swiss = view.tournament.row.format == Format::Swiss;
    let mut lines: Vec<String> = view
        .lines
        .iter()
        .take(max)
        .map(|l| {
            let s = &l.standing;
            let tiebreak = if swiss {
                i18n.tr(
                    lang,
                    "tournament-tiebreak-swiss",
                    &[
                        ("bh", half_points_text(s.buchholz_halves).into()),
                        ("sb", quarters_text(s.sonneborn_berger_quarters).into()),
                    ],
                )
            } else {
                i18n.tr(
                    lang,
                    "tournament-tiebreak-rr",
                    &[("sb", quarters_text(s.sonneborn_berger_quarters).into())],
                )
            };
            let mut line = i18n.tr(
                lang,
                "tournament-standing-line",
                &[
                    ("rank", s.rank.into()),
                    ("player", mention(UserId(s.player)).into()),
                    ("points", half_points_text(s.half_points).into()),
                    ("tiebreak", tiebreak.into()),
                    ("games", s.played.into()),
                ],
            );
            if s.withdrawn {
                line.push_str(&format!(" ({})", i18n.get(lang, "tournament-withdrawn")));
            }
            line
        })
        .collect();
    if view.lines.len() > max {
        lines.push(i18n.tr(
            lang,
            "tournament-more-players",
            &[("count", (view.lines.len() - max).into())],
        ));
    }
    lines.join("\n")
}

/// The lines of a round's pairings.
fn pairing_lines(i18n: &I18n, lang: Lang, t: &Tournament, round: u32) -> Vec<String> {
    t.round_boards(round)
        .into_iter()
        .map(|b| match (b.second, b.result, b.game) {
            (None, _, _) => i18n.tr(
                lang,
                "tournament-bye-line",
                &[("player", mention(b.first).into())],
            ),
            (Some(second), Some(r), None) => {
                let winner = match r {
                    BoardResult::FirstWonByForfeit => mention(b.first),
                    BoardResult::SecondWonByForfeit => mention(second),
                    _ => "-".to_string(),
                };
                i18n.tr(
                    lang,
                    "tournament-forfeit-line",
                    &[
                        ("board", b.board.into()),
                        ("first", mention(b.first).into()),
                        ("second", mention(second).into()),
                        ("winner", winner.into()),
                    ],
                )
            }
            (Some(second), _, game) => i18n.tr(
                lang,
                "tournament-board-line",
                &[
                    ("board", b.board.into()),
                    ("first", mention(b.first).into()),
                    ("second", mention(second).into()),
                    ("game", game.map_or(0, |g| g.0).into()),
                    (
                        "place",
                        b.home
                            .map_or_else(String::new, |h| format!("<#{}>", h.0))
                            .into(),
                    ),
                ],
            ),
        })
        .collect()
}

/// Splits lines into messages of at most 2000 characters.
fn chunks(lines: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut current = String::new();
    for line in lines {
        let line = text::clip(line);
        if !current.is_empty() && current.chars().count() + 1 + line.chars().count() > 2000 {
            out.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push('\n');
        }
        current.push_str(&line);
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}

/// A refused tournament action, in words.
pub fn error_text(i18n: &I18n, lang: Lang, e: &TournamentError) -> String {
    use TournamentError as E;
    match e {
        E::NoSuchTournament => i18n.get(lang, "tournament-err-unknown"),
        E::NoTournament => i18n.get(lang, "tournament-err-none-here"),
        E::Ambiguous(ids) => i18n.tr(
            lang,
            "tournament-err-ambiguous",
            &[(
                "list",
                ids.iter()
                    .map(|t| format!("#{t}"))
                    .collect::<Vec<_>>()
                    .join(", ")
                    .into(),
            )],
        ),
        E::BadName => i18n.tr(
            lang,
            "tournament-err-name",
            &[("max", crate::service::MAX_NAME_CHARS.into())],
        ),
        E::BadMaxPlayers { min, max } => i18n.tr(
            lang,
            "tournament-err-max-players",
            &[("min", (*min).into()), ("max", (*max).into())],
        ),
        E::RoundsForRoundRobin => i18n.get(lang, "tournament-err-rounds-round-robin"),
        E::GamesPerPairingForSwiss => i18n.get(lang, "tournament-err-games-swiss"),
        E::BadRounds { max } => i18n.tr(lang, "tournament-err-rounds", &[("max", (*max).into())]),
        E::BadGamesPerPairing => i18n.get(lang, "tournament-err-games"),
        E::Multiplayer => i18n.get(lang, "tournament-err-multiplayer"),
        E::Bot => i18n.get(lang, "tournament-err-bot"),
        E::AlreadyJoined => i18n.get(lang, "tournament-err-already-joined"),
        E::Full => i18n.get(lang, "tournament-err-full"),
        E::NotOpen(s) => i18n.get(
            lang,
            match s {
                TournamentStatus::Running => "tournament-err-started",
                TournamentStatus::Finished => "tournament-err-finished",
                TournamentStatus::Cancelled => "tournament-err-cancelled",
                TournamentStatus::Open => "tournament-err-open",
            },
        ),
        E::NotJoined => i18n.get(lang, "tournament-err-not-joined"),
        E::AlreadyWithdrawn => i18n.get(lang, "tournament-err-withdrawn"),
        E::NotCreator => i18n.get(lang, "tournament-err-not-creator"),
        E::TooFewPlayers { min, have } => i18n.tr(
            lang,
            "tournament-err-too-few",
            &[("min", (*min).into()), ("have", (*have).into())],
        ),
        E::TooManyRounds {
            asked,
            players,
            max,
        } => i18n.tr(
            lang,
            "tournament-err-too-many-rounds",
            &[
                ("asked", (*asked).into()),
                ("players", (*players).into()),
                ("max", (*max).into()),
            ],
        ),
        E::Changed => i18n.get(lang, "tournament-err-changed"),
        E::Service(s) => text::error_text(i18n, lang, s),
    }
}

/// Join / Leave while entries are open; nothing afterwards.
pub fn announcement_buttons(i18n: &I18n, lang: Lang, t: &Tournament) -> Vec<CreateActionRow> {
    if t.row.status != TournamentStatus::Open {
        return Vec::new();
    }
    vec![CreateActionRow::Buttons(vec![
        CreateButton::new(TournamentButton::Join(t.row.id).custom_id())
            .label(i18n.get(lang, "button-join"))
            .style(ButtonStyle::Success),
        CreateButton::new(TournamentButton::Leave(t.row.id).custom_id())
            .label(i18n.get(lang, "button-leave"))
            .style(ButtonStyle::Secondary),
    ])]
}

// ----- commands -----------------------------------------------------------------------------

/// Whether the command's member may manage the server (and so start others' tournaments).
fn may_manage(ctx: Context<'_>) -> bool {
    interaction(ctx)
        .and_then(|i| i.member.as_deref())
        .and_then(|m| m.permissions)
        .is_some_and(|p| p.manage_guild())
}

/// Resolves the tournament a command names (or the server's only one, when it names none)
/// and hands its id to `act` with the service: the refusal of either step is the result.
async fn on_tournament<T>(
    ctx: Context<'_>,
    guild: GuildId,
    tournament: Option<i64>,
    act: impl AsyncFnOnce(&Service, TournamentId) -> Result<T, TournamentError>,
) -> Result<T, TournamentError> {
    let service = &ctx.data().service;
    let t = service
        .resolve_tournament(guild, tournament.map(TournamentId))
        .await?;
    act(service, t.row.id).await
}

/// Tells the member (only them) that what they asked of tournament `t` is done, in the
/// message `key` (which names it), and brings its announcement up to date.
async fn confirm(ctx: Context<'_>, key: &str, t: &Tournament) -> Result<(), Error> {
    let data = ctx.data();
    let lang = private_lang(ctx).await;
    let name = plain(&t.row.name).into();
    say_private(ctx, data.i18n.tr(lang, key, &[("name", name)])).await?;
    refresh_announcement(ctx.http(), &data.service, &data.i18n, t).await;
    Ok(())
}

async fn say_refusal(ctx: Context<'_>, e: &TournamentError) -> Result<(), Error> {
    let lang = private_lang(ctx).await;
    say_private(ctx, error_text(&ctx.data().i18n, lang, e)).await
}

/// The guild's tournaments matching what was typed (number or name), newest first.
async fn autocomplete_tournament(ctx: Context<'_>, partial: &str) -> CreateAutocompleteResponse {
    let Some(actor) = actor_of(ctx) else {
        return CreateAutocompleteResponse::new();
    };
    let data = ctx.data();
    let lang = private_lang(ctx).await;
    let Ok(list) = data.service.tournaments(actor.guild, true).await else {
        return CreateAutocompleteResponse::new();
    };
    let typed = partial.trim().trim_start_matches('#').to_lowercase();
    let choices = list
        .iter()
        .filter(|t| {
            t.id.0.to_string().starts_with(&typed) || t.name.to_lowercase().contains(&typed)
        })
        .take(25)
        .map(|t| {
            let mut label = format!(
                "#{} {} ({})",
                t.id.0,
                t.name,
                status_text(&data.i18n, lang, t.status)
            );
            if label.chars().count() > 100 {
                label = label.chars().take(99).collect::<String>() + "…";
            }
            AutocompleteChoice::new(label, t.id.0)
        })
        .collect();
    CreateAutocompleteResponse::new().set_choices(choices)
}

/// Tournaments in this server: create, join, leave, start, standings.
#[poise::command(
    slash_command,
    guild_only,
    subcommands("create", "join", "leave", "start", "cancel", "standings", "list"),
    subcommand_required
)]
pub async fn tournament(_ctx: Context<'_>) -> Result<(), Error> {
    Ok(())
}

/// Create a tournament; members join with its button.
#[poise::command(slash_command, guild_only)]
#[allow(clippy::too_many_arguments)]
pub async fn create(
    ctx: Context<'_>,
    #[max_length = 60] name: String,
    format: FormatChoice,
    game: Option<GameChoice>,
    size: Option<SizeChoice>,
    opening: Option<OpeningChoice>,
    #[min = 0]
    #[max = 14]
    days_per_move: Option<u16>,
    #[min = 1]
    #[max = 60]
    minutes_per_move: Option<u16>,
    rated: Option<bool>,
    #[min = 3]
    #[max = 256]
    max_players: Option<u32>,
    #[min = 1]
    #[max = 20]
    rounds: Option<u32>,
    #[min = 1]
    #[max = 2]
    games_per_pairing: Option<u8>,
    players: Option<PlayersChoice>,
    teams: Option<bool>,
    captures: Option<CapturesChoice>,
    #[min = 0]
    #[max = 100]
    capture_win: Option<u16>,
    line: Option<LineChoice>,
    overline: Option<OverlineChoice>,
    self_capture: Option<SelfCaptureChoice>,
    extra_time_capture: Option<bool>,
    mixed_captures: Option<bool>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let choices = RuleChoices {
        game,
        size,
        opening,
        players,
        teams,
        captures,
        capture_win,
        line,
        overline,
        self_capture,
        extra_time_capture,
        mixed_captures,
    };
    let chosen = chosen_time_and_rules(ctx, actor.guild, days_per_move, minutes_per_move, choices);
    let (time, rules) = match chosen.await {
        Ok(chosen) => chosen,
        Err(refusal) => return say_private(ctx, refusal).await,
    };
    let request = TournamentRequest {
        name,
        format: match format {
            FormatChoice::RoundRobin => Format::RoundRobin,
            FormatChoice::Swiss => Format::Swiss,
        },
        rules: Some(rules),
        time,
        rated: rated.unwrap_or(true),
        max_players,
        rounds,
        games_per_pairing,
    };
    let t = match data.service.create_tournament(&actor, request).await {
        Ok(t) => t,
        Err(e) => return say_refusal(ctx, &e).await,
    };
    let lang = public_lang(ctx).await;
    let handle = counted(
        Op::Answer,
        ctx.send(
            CreateReply::default()
                .content(announcement_text(&data.i18n, lang, &t, None))
                .components(announcement_buttons(&data.i18n, lang, &t))
                .allowed_mentions(CreateAllowedMentions::new()),
        ),
    )
    .await?;
    match handle.message().await {
        Ok(m) => {
            if let Err(e) = data
                .service
                .set_tournament_message(
                    t.row.id,
                    ChannelId(m.channel_id.get()),
                    MessageId(m.id.get()),
                )
                .await
            {
                warn!(%e, tournament = t.row.id.0, "could not record the tournament's message");
            }
        }
        Err(e) => warn!(%e, "could not read back the tournament's message"),
    }
    Ok(())
}

/// Rewrites the announcement to show the tournament as it now stands.
async fn refresh_announcement(http: &Http, service: &Service, i18n: &I18n, t: &Tournament) {
    let Some((channel, message)) = t.row.message else {
        return;
    };
    let lang = super::guild_lang(service, t.row.guild, None).await;
    let winners = (t.row.status == TournamentStatus::Finished)
        .then(|| service.standings_of(t.clone()).winners());
    let edit = EditMessage::new()
        .content(announcement_text(i18n, lang, t, winners.as_deref()))
        .components(announcement_buttons(i18n, lang, t))
        .allowed_mentions(CreateAllowedMentions::new());
    if let Err(e) = edit_message(http, channel.0, message.0, edit).await {
        warn!(%e, tournament = t.row.id.0, "could not update the tournament's announcement");
    }
}

/// Join a tournament that is still open.
#[poise::command(slash_command, guild_only)]
pub async fn join(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_tournament"] tournament: Option<i64>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let result = on_tournament(ctx, actor.guild, tournament, async |s, id| {
        s.join_tournament(&actor, id).await
    })
    .await;
    match result {
        Ok(t) => confirm(ctx, "tournament-joined", &t).await,
        Err(e) => say_refusal(ctx, &e).await,
    }
}

/// After a withdrawal resigned a game: the board goes to the game's thread, and the round may
/// be over.
fn after_resignation(
    http: Arc<Http>,
    service: Arc<Service>,
    i18n: Arc<I18n>,
    view: Option<GameView>,
) {
    let Some(view) = view else { return };
    tokio::spawn(async move {
        let lang = super::guild_lang(&service, view.guild, None).await;
        let board = post::board_message_with(
            &i18n,
            lang,
            &view,
            &Preferences::default(),
            None,
            false,
            UPLOAD_LIMIT as u32,
        );
        if let Err(e) = counted(
            Op::Post,
            serenity::ChannelId::new(view.home().0.max(1)).send_message(&http, board.message()),
        )
        .await
        {
            warn!(%e, game = view.id.0, "could not post a withdrawal's resignation");
        }
        advance_and_announce(&http, &service, &i18n, view.id).await;
    });
}

/// Leave a tournament (after its start: withdraw, resigning your running game).
#[poise::command(slash_command, guild_only)]
pub async fn leave(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_tournament"] tournament: Option<i64>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let result = on_tournament(ctx, actor.guild, tournament, async |s, id| {
        s.leave_tournament(&actor, id).await
    })
    .await;
    match result {
        Ok(left) => {
            let lang = private_lang(ctx).await;
            say_private(ctx, left_text(&data.i18n, lang, &left)).await?;
            refresh_announcement(ctx.http(), &data.service, &data.i18n, &left.tournament).await;
            after_resignation(
                Arc::clone(&ctx.serenity_context().http),
                Arc::clone(&data.service),
                Arc::clone(&data.i18n),
                left.resigned,
            );
            Ok(())
        }
        Err(e) => say_refusal(ctx, &e).await,
    }
}

fn left_text(i18n: &I18n, lang: Lang, left: &crate::service::Left) -> String {
    let name: FluentValue<'_> = plain(&left.tournament.row.name).into();
    match (&left.resigned, left.withdrew) {
        (Some(g), _) => i18n.tr(
            lang,
            "tournament-withdrew-resigned",
            &[("name", name), ("game", g.id.0.into())],
        ),
        (None, true) => i18n.tr(lang, "tournament-withdrew", &[("name", name)]),
        (None, false) => i18n.tr(lang, "tournament-left", &[("name", name)]),
    }
}

/// Start a tournament: entries close and round 1 begins (its creator or a server manager).
#[poise::command(slash_command, guild_only)]
pub async fn start(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_tournament"] tournament: Option<i64>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let manager = may_manage(ctx);
    let result = on_tournament(ctx, actor.guild, tournament, async |s, id| {
        s.start_tournament(&actor, id, manager).await
    })
    .await;
    let t = match result {
        Ok(t) => t,
        Err(e) => return say_refusal(ctx, &e).await,
    };
    let lang = public_lang(ctx).await;
    let mut lines = vec![data.i18n.tr(
        lang,
        "tournament-started",
        &[
            ("name", plain(&t.row.name).into()),
            ("total", t.row.total_rounds.unwrap_or(0).into()),
            ("players", t.players.len().into()),
        ],
    )];
    if let Some(note) = swap_note(&data.i18n, lang, &t) {
        lines.push(note);
    }
    counted(
        Op::Answer,
        ctx.send(
            CreateReply::default()
                .content(text::clip(lines.join("\n")))
                .allowed_mentions(CreateAllowedMentions::new()),
        ),
    )
    .await?;
    refresh_announcement(ctx.http(), &data.service, &data.i18n, &t).await;
    let (http, service, i18n) = (
        Arc::clone(&ctx.serenity_context().http),
        Arc::clone(&data.service),
        Arc::clone(&data.i18n),
    );
    let id = t.row.id;
    tokio::spawn(async move { announce_pending(&http, &service, &i18n, Some(id)).await });
    Ok(())
}

/// Cancel a tournament before its start (its creator or a server manager).
#[poise::command(slash_command, guild_only)]
pub async fn cancel(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_tournament"] tournament: Option<i64>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let manager = may_manage(ctx);
    let result = on_tournament(ctx, actor.guild, tournament, async |s, id| {
        s.cancel_tournament(&actor, id, manager).await
    })
    .await;
    match result {
        Ok(t) => confirm(ctx, "tournament-cancelled-by-you", &t).await,
        Err(e) => say_refusal(ctx, &e).await,
    }
}

/// The standings picture and text (only to you).
#[poise::command(slash_command, guild_only)]
pub async fn standings(
    ctx: Context<'_>,
    #[autocomplete = "autocomplete_tournament"] tournament: Option<i64>,
) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let view = match data
        .service
        .resolve_tournament(actor.guild, tournament.map(TournamentId))
        .await
    {
        Ok(t) => data.service.standings_of(t),
        Err(e) => return say_refusal(ctx, &e).await,
    };
    let lang = private_lang(ctx).await;
    let limit = interaction(ctx).map_or(UPLOAD_LIMIT, |i| i.attachment_size_limit as usize);
    let png = render_standings_png(&standings_table(&data.i18n, lang, &view), Theme::Light);
    let content = text::clip(format!(
        "{}\n{}",
        standings_heading(&data.i18n, lang, &view),
        standings_text(&data.i18n, lang, &view, TEXT_STANDINGS_LINES)
    ));
    let mut reply = CreateReply::default()
        .content(content)
        .ephemeral(true)
        .allowed_mentions(CreateAllowedMentions::new());
    if png.len() <= limit {
        reply = reply.attachment(CreateAttachment::bytes(png, "standings.png"));
    }
    counted(Op::Answer, ctx.send(reply)).await?;
    Ok(())
}

fn standings_heading(i18n: &I18n, lang: Lang, view: &StandingsView) -> String {
    let t = &view.tournament;
    i18n.tr(
        lang,
        "tournament-standings-heading",
        &[
            ("name", plain(&t.row.name).into()),
            ("id", t.row.id.0.into()),
            ("round", view.rounds_complete.into()),
            ("total", t.row.total_rounds.unwrap_or(0).into()),
            ("status", status_text(i18n, lang, t.row.status).into()),
        ],
    )
}

/// This server's tournaments (only to you).
#[poise::command(slash_command, guild_only)]
pub async fn list(ctx: Context<'_>) -> Result<(), Error> {
    let Some(actor) = actor_of(ctx) else {
        return Ok(());
    };
    let data = ctx.data();
    let lang = private_lang(ctx).await;
    let list = match data.service.tournaments(actor.guild, true).await {
        Ok(l) => l,
        Err(e) => return say_refusal(ctx, &e).await,
    };
    let text = if list.is_empty() {
        data.i18n.get(lang, "tournament-list-empty")
    } else {
        list.iter()
            .take(20)
            .map(|t| {
                data.i18n.tr(
                    lang,
                    "tournament-list-line",
                    &[
                        ("id", t.id.0.into()),
                        ("name", plain(&t.name).into()),
                        ("status", status_text(&data.i18n, lang, t.status).into()),
                        ("count", t.entrants.into()),
                    ],
                )
            })
            .collect::<Vec<_>>()
            .join("\n")
    };
    say_private(ctx, text).await
}

// ----- buttons ------------------------------------------------------------------------------

/// Handles a click on Join or Leave: the announcement is rewritten, a refusal is private.
///
/// # Errors
/// Only when Discord cannot be answered.
pub async fn handle_click(
    ctx: &serenity::Context,
    data: &Data,
    click: &serenity::ComponentInteraction,
    button: TournamentButton,
) -> Result<(), Error> {
    let user = UserId(click.user.id.get());
    let lang = data.private_lang(user, &click.locale).await;
    let Some(guild) = click.guild_id else {
        return super::components::reply_private(ctx, click, data.i18n.get(lang, "err-guild-only"))
            .await;
    };
    let who = super::actor(guild, click.channel_id, &click.user, click.member.as_ref());
    let result = match button {
        TournamentButton::Join(id) => data.service.join_tournament(&who, id).await,
        TournamentButton::Leave(id) => data.service.leave_tournament(&who, id).await.map(|left| {
            after_resignation(
                Arc::clone(&ctx.http),
                Arc::clone(&data.service),
                Arc::clone(&data.i18n),
                left.resigned,
            );
            left.tournament
        }),
    };
    match result {
        Ok(t) => {
            let public = data
                .public_lang(GuildId(guild.get()), click.guild_locale.as_deref())
                .await;
            let update = CreateInteractionResponseMessage::new()
                .content(announcement_text(&data.i18n, public, &t, None))
                .components(announcement_buttons(&data.i18n, public, &t))
                .allowed_mentions(CreateAllowedMentions::new());
            counted(
                Op::Answer,
                click.create_response(&ctx.http, CreateInteractionResponse::UpdateMessage(update)),
            )
            .await?;
            Ok(())
        }
        Err(e) => {
            super::components::reply_private(ctx, click, error_text(&data.i18n, lang, &e)).await
        }
    }
}

// ----- rounds -------------------------------------------------------------------------------

/// What posting outside an interaction needs.
struct Poster<'a> {
    http: &'a Http,
    service: &'a Service,
    i18n: &'a I18n,
    lang: Lang,
}

/// Whether Discord may take a refused request later (no answer, a 429, a 5xx).
fn transient(e: &serenity::Error) -> bool {
    matches!(super::rest::error_status(e), 0 | 429 | 500..=599)
}

/// `message` with `nonce` (a row's, plus what tells this message from the row's others),
/// which Discord enforces, when the post is owed through the outbox.
fn with_nonce(message: CreateMessage, nonce: Option<&str>, part: &str) -> CreateMessage {
    match nonce {
        Some(n) => message
            .nonce(serenity::Nonce::String(format!("{n}{part}")))
            .enforce_nonce(true),
        None => message,
    }
}

/// Opens a game's thread (when the server wants threads) and posts its first board there,
/// pinging the player to move as their preferences say. A game whose board was posted
/// before (a post interrupted and claimed again) is left alone.
///
/// The thread opens from a first message in the tournament's channel that names the game:
/// Discord opens one thread per message, so an attempt after a lost answer (or a crash) takes
/// the thread already opened, and with `nonce` (the outbox's) neither that message nor the
/// board is posted twice.
///
/// # Errors
/// A refusal Discord may lift (no answer, 429, 5xx), for the caller to retry; others are
/// logged and the game goes on without what was refused (in the channel without a thread).
async fn start_game(
    p: &Poster<'_>,
    t: &Tournament,
    round: u32,
    view: &GameView,
    threads: bool,
    nonce: Option<&str>,
) -> Result<(), serenity::Error> {
    let (http, service, i18n, lang) = (p.http, p.service, p.i18n, p.lang);
    if view.board_message.is_some() {
        return Ok(());
    }
    let mut view = view.clone();
    let board_no = t
        .boards
        .iter()
        .find(|b| b.game == Some(view.id))
        .map_or(0, |b| b.board);
    let lead = i18n.tr(
        lang,
        "tournament-game-lead",
        &[
            ("name", plain(&t.row.name).into()),
            ("round", round.into()),
            ("board", board_no.into()),
        ],
    );
    if threads && view.thread.is_none() {
        let names: Vec<String> = view.seats.iter().map(|s| mention(s.user)).collect();
        let first = with_nonce(
            CreateMessage::new()
                .content(text::clip(format!("{lead}: {}", names.join(" · "))))
                .allowed_mentions(CreateAllowedMentions::new()),
            nonce,
            &format!("s{board_no}"),
        );
        let channel = t.row.channel.0;
        let posted = counted(
            Op::Post,
            serenity::ChannelId::new(channel.max(1)).send_message(http, first),
        )
        .await;
        let opened = match posted {
            Ok(m) => super::outbox::open_thread_from(http, &view, channel, m.id.get()).await,
            Err(e) => Err(e),
        };
        match opened {
            Ok(thread) => match service.set_game_thread(view.id, thread).await {
                Ok(()) => view.thread = Some(thread),
                Err(e) => {
                    warn!(%e, game = view.id.0, "could not record a tournament game's thread")
                }
            },
            Err(e) if transient(&e) => return Err(e),
            Err(e) => warn!(%e, game = view.id.0, "could not open a tournament game's thread"),
        }
    }
    let prefs = match view.to_act() {
        Some(s) => service.preferences(s.user).await.unwrap_or_default(),
        None => Preferences::default(),
    };
    let ping = post::wants_ping(&view, &prefs);
    let board = post::board_message_with(
        i18n,
        lang,
        &view,
        &prefs,
        Some(lead),
        ping,
        UPLOAD_LIMIT as u32,
    );
    let home = view.home();
    let message = with_nonce(board.message(), nonce, &format!("b{board_no}"));
    match counted(
        Op::Post,
        serenity::ChannelId::new(home.0.max(1)).send_message(http, message),
    )
    .await
    {
        Ok(m) => {
            if let Err(e) = service
                .set_board_message(view.id, home, MessageId(m.id.get()))
                .await
            {
                warn!(%e, game = view.id.0, "could not record a tournament game's board");
            }
            post::direct_ping_with(http, i18n, &view, &prefs, lang).await;
        }
        Err(e) if transient(&e) => return Err(e),
        Err(e) => warn!(%e, game = view.id.0, "could not post a tournament game's board"),
    }
    Ok(())
}

/// Posts one claimed round (its games, pairings and standings) or the final result; with
/// `nonce` (an outbox row's) every message carries a nonce of its own made from it, so that
/// posting the round again after a lost answer or a crash makes nothing twice.
///
/// # Errors
/// A refusal Discord may lift (no answer, 429, 5xx), for the caller to retry; others are
/// logged.
pub(super) async fn post_announcement(
    http: &Http,
    service: &Service,
    i18n: &I18n,
    a: &Announcement,
    nonce: Option<&str>,
) -> Result<(), serenity::Error> {
    let t0 = &a.standings.tournament;
    let (id, guild, channel) = (t0.row.id, t0.row.guild, t0.row.channel);
    let lang = super::guild_lang(service, guild, None).await;
    let threads = super::guild_threads(service, guild).await;
    let poster = Poster {
        http,
        service,
        i18n,
        lang,
    };
    for view in &a.games {
        start_game(&poster, t0, a.round, view, threads, nonce).await?;
    }
    // Read it again: the games' threads are known now.
    let t = service
        .tournament(guild, id)
        .await
        .unwrap_or_else(|_| t0.clone());
    let standings = service.standings_of(t.clone());
    let mut lines = Vec::new();
    let final_post = a.is_final();
    if final_post {
        let winners = standings.winners();
        lines.push(i18n.tr(
            lang,
            "tournament-final-title",
            &[
                ("name", plain(&t.row.name).into()),
                ("rounds", t.row.round.saturating_sub(1).into()),
            ],
        ));
        lines.push(i18n.tr(
            lang,
            "tournament-winners",
            &[
                ("winners", mentions(&winners).into()),
                ("count", winners.len().into()),
            ],
        ));
    } else {
        lines.push(i18n.tr(
            lang,
            "tournament-round-title",
            &[
                ("name", plain(&t.row.name).into()),
                ("round", a.round.into()),
                ("total", t.row.total_rounds.unwrap_or(0).into()),
            ],
        ));
        if let Some(note) = swap_note(i18n, lang, &t) {
            lines.push(note);
        }
        lines.extend(pairing_lines(i18n, lang, &t, a.round));
    }
    let show_table = final_post || a.round > 1;
    if show_table {
        lines.push(String::new());
        lines.push(standings_heading(i18n, lang, &standings));
        lines.push(standings_text(i18n, lang, &standings, TEXT_STANDINGS_LINES));
    }
    if final_post {
        lines.push(String::new());
        lines.push(i18n.get(lang, "tournament-all-games"));
        for r in 1..t.row.round {
            let games: Vec<String> = t
                .round_boards(r)
                .iter()
                .filter_map(|b| {
                    let g = b.game?;
                    Some(match b.home {
                        Some(h) => format!("#{} <#{}>", g.0, h.0),
                        None => format!("#{}", g.0),
                    })
                })
                .collect();
            if !games.is_empty() {
                lines.push(i18n.tr(
                    lang,
                    "tournament-round-games",
                    &[("round", r.into()), ("games", games.join(" · ").into())],
                ));
            }
        }
    }
    let target = serenity::ChannelId::new(channel.0.max(1));
    for (i, content) in chunks(lines).into_iter().enumerate() {
        let mut message = with_nonce(
            CreateMessage::new()
                .content(content)
                .allowed_mentions(CreateAllowedMentions::new()),
            nonce,
            &format!("p{i}"),
        );
        if i == 0 && show_table {
            let png = render_standings_png(&standings_table(i18n, lang, &standings), Theme::Light);
            if png.len() <= UPLOAD_LIMIT {
                message = message.add_file(CreateAttachment::bytes(png, "standings.png"));
            }
        }
        if let Err(e) = counted(Op::Post, target.send_message(http, message)).await {
            if transient(&e) {
                return Err(e);
            }
            warn!(%e, tournament = id.0, "could not post a tournament round");
            break;
        }
    }
    refresh_announcement(http, service, i18n, &t).await;
    Ok(())
}

/// Posts every round claimed now (of one tournament, or of all) and confirms each. Best
/// effort: failures are logged; a round whose post was interrupted is claimed again later.
pub async fn announce_pending(
    http: &Http,
    service: &Service,
    i18n: &I18n,
    only: Option<TournamentId>,
) {
    let claimed = match service.claim_announcements(only, LEASE).await {
        Ok(c) => c,
        Err(e) => {
            warn!(%e, "could not claim tournament rounds to post");
            return;
        }
    };
    for a in &claimed {
        if let Err(e) = post_announcement(http, service, i18n, a, None).await {
            warn!(%e, "could not post a tournament round");
        }
        let id = a.standings.tournament.row.id;
        if let Err(e) = service.mark_announced(id, a.round).await {
            warn!(%e, tournament = id.0, "could not record a posted round");
        }
    }
}

/// After an action that ended `game`: its tournament (if any) moves on, and the next round
/// (or the final result) is posted.
pub async fn advance_and_announce(http: &Http, service: &Service, i18n: &I18n, game: GameId) {
    match service.advance_after_game(game).await {
        // Rounds owed through the outbox are the poster's; the others are posted here.
        Ok(Some((id, rounds))) if !rounds.is_empty() => {
            announce_pending(http, service, i18n, Some(id)).await;
        }
        Ok(_) => {}
        Err(e) => warn!(%e, game = game.0, "could not advance a tournament"),
    }
}

/// [`advance_and_announce`] in a task of its own, when `view` is a finished game (so that the
/// interaction that ended it is answered first).
pub fn after_game(http: Arc<Http>, service: Arc<Service>, i18n: Arc<I18n>, view: &GameView) {
    if !view.is_over() {
        return;
    }
    let game = view.id;
    tokio::spawn(async move { advance_and_announce(&http, &service, &i18n, game).await });
}

/// Advances complete rounds and posts what is due, at start-up and then every
/// [`crate::service::ServiceConfig::clock_sweep_every`]. It holds only weak handles, so it
/// ends with the client that started it.
pub async fn sweep_tournaments(http: Weak<Http>, service: Weak<Service>, i18n: Arc<I18n>) {
    let Some(period) = service.upgrade().map(|s| s.config().clock_sweep_every) else {
        return;
    };
    let mut tick = tokio::time::interval(period.max(Duration::from_millis(10)));
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        let (Some(http), Some(service)) = (http.upgrade(), service.upgrade()) else {
            return;
        };
        if let Err(e) = service.advance_tournaments().await {
            warn!(%e, "tournament sweep failed");
        }
        announce_pending(&http, &service, &i18n, None).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip_and_garbage_is_refused() {
        for b in [
            TournamentButton::Join(TournamentId(1)),
            TournamentButton::Leave(TournamentId(i64::MAX)),
        ] {
            assert_eq!(TournamentButton::parse(&b.custom_id()), Some(b));
            assert!(b.custom_id().len() <= 100);
        }
        for id in [
            "",
            "gt",
            "gt:join",
            "gt:join:x",
            "gt:join:1:2",
            "gt:zap:1",
            "gb:join:1",
        ] {
            assert_eq!(TournamentButton::parse(id), None, "{id}");
        }
    }

    #[test]
    fn names_cannot_format_or_ping() {
        assert_eq!(plain("**Cup** @everyone"), "\\*\\*Cup\\*\\* \\@everyone");
        assert_eq!(plain("[x](http://a)"), "\\[x\\]\\(http://a\\)");
        assert_eq!(plain("Winter Cup 2026"), "Winter Cup 2026");
    }

    #[test]
    fn points_read_as_fractions() {
        assert_eq!(half_points_text(0), "0");
        assert_eq!(half_points_text(1), "½");
        assert_eq!(half_points_text(5), "2½");
        assert_eq!(quarters_text(9), "2¼");
        assert_eq!(quarters_text(3), "¾");
        assert_eq!(quarters_text(8), "2");
    }

    #[test]
    fn long_posts_are_split_under_discords_limit() {
        let lines: Vec<String> = (0..300)
            .map(|i| format!("#{i} <#123456789012345678>"))
            .collect();
        let parts = chunks(lines);
        assert!(parts.len() > 1);
        assert!(parts.iter().all(|p| p.chars().count() <= 2000));
        assert_eq!(parts.join("\n").lines().count(), 300);
    }

    #[test]
    fn every_refusal_has_words_in_every_language() {
        let i18n = I18n::load();
        let all = [
            TournamentError::NoSuchTournament,
            TournamentError::NoTournament,
            TournamentError::Ambiguous(vec![TournamentId(1), TournamentId(2)]),
            TournamentError::BadName,
            TournamentError::BadMaxPlayers { min: 3, max: 32 },
            TournamentError::RoundsForRoundRobin,
            TournamentError::GamesPerPairingForSwiss,
            TournamentError::BadRounds { max: 20 },
            TournamentError::BadGamesPerPairing,
            TournamentError::Multiplayer,
            TournamentError::Bot,
            TournamentError::AlreadyJoined,
            TournamentError::Full,
            TournamentError::NotOpen(TournamentStatus::Open),
            TournamentError::NotOpen(TournamentStatus::Running),
            TournamentError::NotOpen(TournamentStatus::Finished),
            TournamentError::NotOpen(TournamentStatus::Cancelled),
            TournamentError::NotJoined,
            TournamentError::AlreadyWithdrawn,
            TournamentError::NotCreator,
            TournamentError::TooFewPlayers { min: 3, have: 2 },
            TournamentError::TooManyRounds {
                asked: 5,
                players: 3,
                max: 2,
            },
            TournamentError::Changed,
        ];
        for lang in Lang::ALL {
            let mut seen = std::collections::HashSet::new();
            for e in &all {
                let t = error_text(&i18n, lang, e);
                assert!(
                    !t.contains("tournament-") && !t.contains('{'),
                    "{lang}: {t}"
                );
                assert!(
                    seen.insert(t.clone()),
                    "{lang}: {e:?} says the same as another: {t}"
                );
            }
        }
    }
}
