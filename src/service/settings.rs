//! Preferences (per member) and guild settings, read through a short-lived memo.

use super::{GuildId, GuildSettings, Preferences, Service, ServiceError, TimeControl, UserId};
use crate::rules::RuleSet;

impl Service {
    /// A user's preferences (the defaults if they never set any).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn preferences(&self, user: UserId) -> Result<Preferences, ServiceError> {
        let ticket = match self.prefs.get(user) {
            Ok(p) => return Ok(p),
            Err(ticket) => ticket,
        };
        let prefs = self.store.preferences(user).await?.unwrap_or_default();
        self.prefs.put_read(user, prefs.clone(), ticket);
        Ok(prefs)
    }

    /// Saves a user's preferences (an empty language means "follow the client").
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn set_preferences(
        &self,
        user: UserId,
        mut prefs: Preferences,
    ) -> Result<Preferences, ServiceError> {
        prefs.language = prefs
            .language
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty());
        let written = self.store.put_preferences(user, &prefs, self.now()).await;
        // Whatever happened, the next read asks the database.
        self.prefs.forget(user);
        written?;
        Ok(prefs)
    }

    /// A guild's settings (the defaults if it never set any).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn guild_settings(&self, guild: GuildId) -> Result<GuildSettings, ServiceError> {
        let ticket = match self.settings.get(guild) {
            Ok(s) => return Ok(s),
            Err(ticket) => ticket,
        };
        let settings = self.store.guild_settings(guild).await?.unwrap_or_default();
        self.settings.put_read(guild, settings.clone(), ticket);
        Ok(settings)
    }

    /// The rules and time control a new game or tournament asked for, the guild's defaults
    /// standing in for what it left out. The settings are read only when something is left
    /// out, so a request that names both never waits for them.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub(super) async fn rules_and_time(
        &self,
        guild: GuildId,
        rules: Option<RuleSet>,
        time: Option<TimeControl>,
    ) -> Result<(RuleSet, TimeControl), ServiceError> {
        match (rules, time) {
            (Some(r), Some(t)) => Ok((r, t)),
            (r, t) => {
                let defaults = self.guild_settings(guild).await?;
                Ok((
                    r.unwrap_or(defaults.default_rules),
                    t.unwrap_or(defaults.default_time),
                ))
            }
        }
    }

    /// Saves a guild's settings.
    ///
    /// # Errors
    /// [`ServiceError::BadTimeControl`], [`ServiceError::Storage`].
    pub async fn set_guild_settings(
        &self,
        guild: GuildId,
        mut settings: GuildSettings,
    ) -> Result<GuildSettings, ServiceError> {
        check_time(settings.default_time)?;
        settings.locale = settings
            .locale
            .map(|l| l.trim().to_string())
            .filter(|l| !l.is_empty());
        let written = self
            .store
            .put_guild_settings(guild, &settings, self.now())
            .await;
        // Whatever happened, the next read asks the database.
        self.settings.forget(guild);
        written?;
        Ok(settings)
    }
}

pub(super) fn check_time(time: TimeControl) -> Result<(), ServiceError> {
    match time {
        _ if time.is_allowed() => Ok(()),
        TimeControl::MinutesPerMove(m) => Err(ServiceError::BadMinutesPerMove(m)),
        TimeControl::DaysPerMove(d) => Err(ServiceError::BadTimeControl(d)),
        TimeControl::Unlimited => Ok(()),
    }
}
