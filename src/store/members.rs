//! Guild settings, player preferences, and the names members go by.

use sqlx::Row as _;

use super::model::{GuildId, GuildSettings, Notify, Preferences, Timestamp, UserId, UserInfo};
use super::rows::{flag, rules_from, time_from};
use super::{StorageError, Store, Tx};

pub(crate) async fn upsert_member(
    tx: &mut Tx,
    guild: GuildId,
    user: &UserInfo,
    now: Timestamp,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO members (guild_id, user_id, display_name, is_bot, updated_at) \
         VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (guild_id, user_id) DO UPDATE SET display_name = excluded.display_name, \
         is_bot = excluded.is_bot, updated_at = excluded.updated_at",
    )
    .bind(guild.to_db())
    .bind(user.id.to_db())
    .bind(&user.name)
    .bind(user.is_bot)
    .bind(now.0)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Saves several members in one transaction, in user-id order: two transactions saving the
/// same two members (A challenges B while B challenges A) then take their row locks in the same
/// order, so PostgreSQL never has to break a deadlock between them.
pub(crate) async fn upsert_members(
    tx: &mut Tx,
    guild: GuildId,
    users: &[&UserInfo],
    now: Timestamp,
) -> Result<(), sqlx::Error> {
    let mut sorted = users.to_vec();
    sorted.sort_by_key(|u| u.id.0);
    sorted.dedup_by_key(|u| u.id.0);
    for user in sorted {
        upsert_member(tx, guild, user, now).await?;
    }
    Ok(())
}

impl Store {
    /// A guild's settings, if it ever saved any.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn guild_settings(
        &self,
        guild: GuildId,
    ) -> Result<Option<GuildSettings>, StorageError> {
        let row = sqlx::query(
            "SELECT default_rules, days_per_move, minutes_per_move, thread_per_game, locale \
             FROM guild_settings WHERE guild_id = $1",
        )
        .bind(guild.to_db())
        .fetch_optional(&self.reader)
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(GuildSettings {
            default_rules: rules_from(row.try_get("default_rules")?)?,
            default_time: time_from(&row)?,
            thread_per_game: flag(&row, "thread_per_game")?,
            locale: row.try_get("locale")?,
        }))
    }

    /// Saves a guild's settings.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn put_guild_settings(
        &self,
        guild: GuildId,
        settings: &GuildSettings,
        now: Timestamp,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "INSERT INTO guild_settings \
             (guild_id, default_rules, days_per_move, thread_per_game, locale, updated_at, \
             minutes_per_move) VALUES ($1, $2, $3, $4, $5, $6, $7) \
             ON CONFLICT (guild_id) DO UPDATE SET default_rules = excluded.default_rules, \
             days_per_move = excluded.days_per_move, thread_per_game = excluded.thread_per_game, \
             minutes_per_move = excluded.minutes_per_move, \
             locale = excluded.locale, updated_at = excluded.updated_at",
        )
        .bind(guild.to_db())
        .bind(settings.default_rules.to_spec())
        .bind(settings.default_time.to_db())
        .bind(settings.thread_per_game)
        .bind(&settings.locale)
        .bind(now.0)
        .bind(settings.default_time.minutes_to_db())
        .execute(&self.writer)
        .await?;
        self.notify_now(&super::Change::Guild(guild)).await;
        Ok(())
    }

    /// A user's preferences, if they ever saved any.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn preferences(&self, user: UserId) -> Result<Option<Preferences>, StorageError> {
        let row = sqlx::query(
            "SELECT confirm_move, highlight_last_move, show_coordinates, show_forbidden, \
             language, notify FROM user_preferences WHERE user_id = $1",
        )
        .bind(user.to_db())
        .fetch_optional(&self.reader)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let notify: String = row.try_get("notify")?;
        Ok(Some(Preferences {
            confirm_move: flag(&row, "confirm_move")?,
            highlight_last_move: flag(&row, "highlight_last_move")?,
            show_coordinates: flag(&row, "show_coordinates")?,
            show_forbidden: flag(&row, "show_forbidden")?,
            language: row.try_get("language")?,
            notify: Notify::parse(&notify)
                .ok_or_else(|| StorageError::corrupt(format!("notify `{notify}`")))?,
        }))
    }

    /// Saves a user's preferences.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn put_preferences(
        &self,
        user: UserId,
        prefs: &Preferences,
        now: Timestamp,
    ) -> Result<(), StorageError> {
        sqlx::query(
            "INSERT INTO user_preferences (user_id, confirm_move, highlight_last_move, \
             show_coordinates, show_forbidden, language, notify, updated_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
             ON CONFLICT (user_id) DO UPDATE SET confirm_move = excluded.confirm_move, \
             highlight_last_move = excluded.highlight_last_move, \
             show_coordinates = excluded.show_coordinates, \
             show_forbidden = excluded.show_forbidden, language = excluded.language, \
             notify = excluded.notify, updated_at = excluded.updated_at",
        )
        .bind(user.to_db())
        .bind(prefs.confirm_move)
        .bind(prefs.highlight_last_move)
        .bind(prefs.show_coordinates)
        .bind(prefs.show_forbidden)
        .bind(&prefs.language)
        .bind(prefs.notify.name())
        .bind(now.0)
        .execute(&self.writer)
        .await?;
        self.notify_now(&super::Change::User(user)).await;
        Ok(())
    }

    /// Remembers the names members go by in a guild.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn remember_members(
        &self,
        guild: GuildId,
        users: &[&UserInfo],
        now: Timestamp,
    ) -> Result<(), StorageError> {
        let mut tx = self.begin_write().await?;
        for user in users {
            upsert_member(&mut tx, guild, user, now).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The last known display name of a member.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn member_name(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> Result<Option<String>, StorageError> {
        Ok(
            sqlx::query("SELECT display_name FROM members WHERE guild_id = $1 AND user_id = $2")
                .bind(guild.to_db())
                .bind(user.to_db())
                .fetch_optional(&self.reader)
                .await?
                .map(|r| r.try_get("display_name"))
                .transpose()?,
        )
    }
}
