//! Ratings for the front: leaderboards, a member's ratings, their recent games.
//!
//! Ratings themselves change in the store, in the transaction that finishes a game
//! ([`crate::store::ratings`]); this module only reads them.

use super::{GameId, GameStatus, GuildId, PlayerEntry, ResultReason, Service, ServiceError};
use super::{Timestamp, UserId, display_name};
use crate::rules::RuleSet;
pub use crate::store::ratings::{MIN_STONES_EACH, START_RATING};
use crate::store::ratings::{final_actions, stones_by_seat};
pub use crate::store::{Family, Ranked, Rating, RatingChange, Unrated};

/// Players per leaderboard page.
pub const LEADERBOARD_PAGE: u32 = 10;

/// Games per history.
pub const HISTORY_LENGTH: u32 = 10;

/// One page of a server's leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct LeaderboardPage {
    /// The family ranked.
    pub family: Family,
    /// The page shown, from 1 (a page past the end shows the last page).
    pub page: u32,
    /// How many pages there are (at least 1, even when nobody is ranked).
    pub pages: u32,
    /// How many players are ranked.
    pub players: u32,
    /// The players of this page, best first.
    pub entries: Vec<Ranked>,
}

impl LeaderboardPage {
    /// Whether there is a page before this one.
    pub fn has_previous(&self) -> bool {
        self.page > 1
    }

    /// Whether there is a page after this one.
    pub fn has_next(&self) -> bool {
        self.page < self.pages
    }
}

/// A member's ratings, per family, in one server and across all servers.
#[derive(Clone, Debug, PartialEq)]
pub struct PlayerRatings {
    /// Whose.
    pub user: UserId,
    /// In this server (families they have played rated games of, in family order).
    pub server: Vec<Rating>,
    /// Across all servers.
    pub global: Vec<Rating>,
}

/// How a finished game went for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameOutcome {
    /// They won (alone, with their team, or sharing a multiplayer victory).
    Won,
    /// They lost.
    Lost,
    /// Nobody won, or everybody did.
    Drawn,
}

/// One finished game in a member's history.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryEntry {
    /// The game.
    pub game: GameId,
    /// Its rules.
    pub rules: RuleSet,
    /// The family its rules are rated in.
    pub family: Family,
    /// When it ended.
    pub finished_at: Timestamp,
    /// How it went for the member.
    pub outcome: GameOutcome,
    /// Why it ended.
    pub reason: ResultReason,
    /// The other players, seat order.
    pub opponents: Vec<PlayerEntry>,
    /// What it did to the member's ratings; `None` for a game that did not count.
    pub change: Option<RatingChange>,
}

impl Service {
    /// The family of a server's default game (what `/leaderboard` shows when none is named).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn default_family(&self, guild: GuildId) -> Result<Family, ServiceError> {
        Ok(Family::of(&self.guild_settings(guild).await?.default_rules))
    }

    /// Page `page` (from 1) of a server's leaderboard for a family. Pages past the end show
    /// the last page, page 0 the first.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn leaderboard(
        &self,
        guild: GuildId,
        family: Family,
        page: u32,
    ) -> Result<LeaderboardPage, ServiceError> {
        let players = self.store.ranked_players(guild, family).await?;
        let pages = players.div_ceil(LEADERBOARD_PAGE).max(1);
        let page = page.clamp(1, pages);
        let offset = (page - 1).saturating_mul(LEADERBOARD_PAGE);
        let entries = self
            .store
            .leaderboard(guild, family, offset, LEADERBOARD_PAGE)
            .await?;
        Ok(LeaderboardPage {
            family,
            page,
            pages,
            players,
            entries,
        })
    }

    /// A member's ratings in a server and across all servers.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn ratings(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> Result<PlayerRatings, ServiceError> {
        let (server, global) = self.store.ratings_of(guild, user).await?;
        Ok(PlayerRatings {
            user,
            server,
            global,
        })
    }

    /// A member's last [`HISTORY_LENGTH`] finished games in a server, the latest first.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn history(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> Result<Vec<HistoryEntry>, ServiceError> {
        let ids = self
            .store
            .finished_games_of(guild, user, HISTORY_LENGTH)
            .await?;
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            let Some(stored) = self.store.load_game(id).await? else {
                continue;
            };
            let GameStatus::Finished(result) = stored.meta.status else {
                continue;
            };
            let rules = stored.meta.rules;
            // Which colour each seat ended up with (swap openings) needs the final position;
            // read leniently, as the rating update does, so every kind of log row is fine.
            let tokens = stored.actions.iter().map(|a| a.token.as_str());
            let game = stones_by_seat(rules, &final_actions(rules.size, tokens)).map(|(_, g)| g);
            let colour = |seat: u8| game.as_ref().map_or(seat, |g| g.colour_of_seat(seat));
            let won = |seat: u8| result.winners.contains(colour(seat));
            let mine = stored.seats.iter().find(|s| s.user == user).map(|s| s.seat);
            let winners = stored.seats.iter().filter(|s| won(s.seat)).count();
            let outcome = if winners == 0 || winners == stored.seats.len() {
                GameOutcome::Drawn
            } else if mine.is_some_and(won) {
                GameOutcome::Won
            } else {
                GameOutcome::Lost
            };
            out.push(HistoryEntry {
                game: id,
                rules,
                family: Family::of(&rules),
                finished_at: stored.meta.updated_at,
                outcome,
                reason: result.reason,
                opponents: stored
                    .seats
                    .iter()
                    .filter(|s| s.user != user)
                    .map(|s| PlayerEntry {
                        seat: s.seat,
                        user: s.user,
                        name: display_name(s),
                    })
                    .collect(),
                change: self.store.rating_change(id, user).await?,
            });
        }
        Ok(out)
    }
}
