//! Challenges and lobbies: made, accepted or joined, declined, cancelled, left, expired.

use super::{
    Acceptance, Actor, Challenge, ChallengeId, ChallengeRequest, ChallengeStatus, ChannelId,
    GuildId, MessageId, Service, ServiceError, Timestamp, UserId, check_time,
};
use crate::ops::metrics;
use crate::store::Family;
use crate::store::{NewChallenge, Seated};

impl Service {
    /// Makes a challenge to a member, an open challenge, or (3-4 players) a lobby.
    ///
    /// # Errors
    /// [`ServiceError::ChallengeSelf`], [`ServiceError::ChallengeBot`],
    /// [`ServiceError::TooManyOpenGames`], [`ServiceError::OpponentInLobby`],
    /// [`ServiceError::BadTimeControl`], [`ServiceError::Storage`].
    pub async fn challenge(
        &self,
        actor: &Actor,
        request: ChallengeRequest,
    ) -> Result<Challenge, ServiceError> {
        let now = self.now();
        if actor.user.is_bot {
            return Err(ServiceError::ChallengeBot);
        }
        let (rules, time) = self
            .rules_and_time(actor.guild, request.rules, request.time)
            .await?;
        check_time(time)?;
        if let Some(opponent) = &request.opponent {
            if rules.players > 2 {
                return Err(ServiceError::OpponentInLobby);
            }
            if opponent.id == actor.user.id {
                return Err(ServiceError::ChallengeSelf);
            }
            if opponent.is_bot {
                return Err(ServiceError::ChallengeBot);
            }
            self.check_pair(actor.guild, actor.user.id, opponent.id, now)
                .await?;
        }
        let new = NewChallenge {
            guild: actor.guild,
            channel: actor.channel,
            challenger: actor.user.clone(),
            opponent: request.opponent,
            rules,
            time,
            rated: request.rated,
            now,
            expires_at: now.plus(self.config.challenge_ttl),
        };
        let made = self.store.insert_challenge(&new).await?;
        metrics::challenge("created");
        Ok(made)
    }

    pub(super) async fn check_pair(
        &self,
        guild: GuildId,
        a: UserId,
        b: UserId,
        now: Timestamp,
    ) -> Result<(), ServiceError> {
        let max = self.config.max_open_games_per_pair;
        if self.store.open_games_between(guild, a, b, now).await? >= max {
            return Err(ServiceError::TooManyOpenGames { max });
        }
        Ok(())
    }

    /// A challenge or lobby of this guild.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::Storage`].
    pub async fn challenge_info(
        &self,
        guild: GuildId,
        id: ChallengeId,
    ) -> Result<Challenge, ServiceError> {
        self.store
            .challenge(id)
            .await?
            .filter(|c| c.guild == guild)
            .ok_or(ServiceError::NoSuchChallenge)
    }

    /// Refuses a challenge that is not open; marks it expired if its time has run out.
    async fn check_open(&self, c: &Challenge, now: Timestamp) -> Result<(), ServiceError> {
        match c.status {
            ChallengeStatus::Open if c.expires_at <= now => {
                self.store
                    .close_challenge(c.id, ChallengeStatus::Expired, None, now)
                    .await?;
                Err(ServiceError::ChallengeExpired)
            }
            ChallengeStatus::Open => Ok(()),
            ChallengeStatus::Expired => Err(ServiceError::ChallengeExpired),
            other => Err(ServiceError::ChallengeClosed(other)),
        }
    }

    /// After a conditional update found a challenge no longer open: says why.
    async fn explain_closed(&self, id: ChallengeId, now: Timestamp) -> ServiceError {
        match self.store.challenge(id).await {
            Err(e) => e.into(),
            Ok(None) => ServiceError::NoSuchChallenge,
            Ok(Some(c)) => match self.check_open(&c, now).await {
                Err(e) => e,
                Ok(()) if c.is_lobby() && c.free_seats() == 0 => ServiceError::LobbyFull,
                Ok(()) => ServiceError::NotChallenged,
            },
        }
    }

    /// Records the message that shows a challenge (so it can be edited later).
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::Storage`].
    pub async fn set_challenge_message(
        &self,
        id: ChallengeId,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<(), ServiceError> {
        if self
            .store
            .set_challenge_message(id, channel, message)
            .await?
        {
            Ok(())
        } else {
            Err(ServiceError::NoSuchChallenge)
        }
    }

    /// Accepts a two-player challenge, or joins a lobby; the game starts when the last seat
    /// is taken, with seats drawn at random.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::ChallengeExpired`],
    /// [`ServiceError::ChallengeClosed`], [`ServiceError::ChallengeSelf`],
    /// [`ServiceError::ChallengeBot`], [`ServiceError::NotChallenged`],
    /// [`ServiceError::TooManyOpenGames`], [`ServiceError::AlreadyJoined`],
    /// [`ServiceError::LobbyFull`], [`ServiceError::Storage`].
    pub async fn accept(&self, actor: &Actor, id: ChallengeId) -> Result<Acceptance, ServiceError> {
        let now = self.now();
        let c = self.challenge_info(actor.guild, id).await?;
        self.check_open(&c, now).await?;
        let me = actor.user.id;
        if c.is_lobby() {
            if c.members.contains(&me) {
                return Err(ServiceError::AlreadyJoined);
            }
        } else if me == c.challenger {
            return Err(ServiceError::ChallengeSelf);
        }
        if actor.user.is_bot {
            return Err(ServiceError::ChallengeBot);
        }
        match c.opponent {
            Some(named) if named != me => return Err(ServiceError::NotChallenged),
            None if !c.is_lobby() => self.check_pair(c.guild, c.challenger, me, now).await?,
            _ => {}
        }
        if c.free_seats() == 0 {
            return Err(ServiceError::LobbyFull);
        }
        let order = self.seat_order_for(&c).await?;
        // The game's thread and first board are owed in the commit that starts it.
        let owes_start = actor.owes_posts && self.outbox_on();
        match self
            .store
            .take_seat(id, &actor.user, now, &order, owes_start)
            .await?
        {
            Seated::Waiting => Ok(Acceptance {
                challenge: self.challenge_info(actor.guild, id).await?,
                game: None,
            }),
            Seated::Started(game) => {
                metrics::challenge("accepted");
                metrics::game_started(Family::of(&c.rules).name());
                let view = self.view_of(game).await?;
                Ok(Acceptance {
                    challenge: self.challenge_info(actor.guild, id).await?,
                    game: Some(view),
                })
            }
            Seated::AlreadyJoined => Err(ServiceError::AlreadyJoined),
            Seated::NotOpen => Err(self.explain_closed(id, now).await),
        }
    }

    /// Declines a challenge addressed to the caller.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::NotChallenged`] (also for open
    /// challenges and lobbies, which are simply not accepted), [`ServiceError::ChallengeExpired`],
    /// [`ServiceError::ChallengeClosed`], [`ServiceError::Storage`].
    pub async fn decline(&self, actor: &Actor, id: ChallengeId) -> Result<Challenge, ServiceError> {
        let now = self.now();
        let c = self.challenge_info(actor.guild, id).await?;
        self.check_open(&c, now).await?;
        if c.opponent != Some(actor.user.id) {
            return Err(ServiceError::NotChallenged);
        }
        self.close_as(actor, id, ChallengeStatus::Declined, now)
            .await
    }

    /// Withdraws the caller's own challenge or lobby.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::NotChallenger`],
    /// [`ServiceError::ChallengeExpired`], [`ServiceError::ChallengeClosed`],
    /// [`ServiceError::Storage`].
    pub async fn cancel(&self, actor: &Actor, id: ChallengeId) -> Result<Challenge, ServiceError> {
        let now = self.now();
        let c = self.challenge_info(actor.guild, id).await?;
        self.check_open(&c, now).await?;
        if c.challenger != actor.user.id {
            return Err(ServiceError::NotChallenger);
        }
        self.close_as(actor, id, ChallengeStatus::Cancelled, now)
            .await
    }

    async fn close_as(
        &self,
        actor: &Actor,
        id: ChallengeId,
        status: ChallengeStatus,
        now: Timestamp,
    ) -> Result<Challenge, ServiceError> {
        if !self
            .store
            .close_challenge(id, status, Some(actor.user.id), now)
            .await?
        {
            return Err(self.explain_closed(id, now).await);
        }
        metrics::challenge(status.metric_name());
        self.challenge_info(actor.guild, id).await
    }

    /// Leaves a lobby the caller joined; the lobby's creator leaving cancels it.
    ///
    /// # Errors
    /// [`ServiceError::NoSuchChallenge`], [`ServiceError::NotJoined`],
    /// [`ServiceError::ChallengeExpired`], [`ServiceError::ChallengeClosed`],
    /// [`ServiceError::Storage`].
    pub async fn leave(&self, actor: &Actor, id: ChallengeId) -> Result<Challenge, ServiceError> {
        let now = self.now();
        let c = self.challenge_info(actor.guild, id).await?;
        self.check_open(&c, now).await?;
        if c.challenger == actor.user.id {
            return self.cancel(actor, id).await;
        }
        if !c.is_lobby() || !c.members.contains(&actor.user.id) {
            return Err(ServiceError::NotJoined);
        }
        if !self.store.leave_lobby(id, actor.user.id).await? {
            return Err(self.explain_closed(id, now).await);
        }
        self.challenge_info(actor.guild, id).await
    }

    /// Closes every open challenge and lobby whose time has run out and returns them (so
    /// the front can update their messages). Safe to run from several processes at once.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn expire_challenges(&self) -> Result<Vec<Challenge>, ServiceError> {
        self.expire_challenges_for(false).await
    }

    /// [`Service::expire_challenges`] for a front that posts: with the outbox on, each
    /// expired challenge shown in a message owes the edit of that message in the transaction
    /// that closes it, and the poster makes it (the front then edits nothing itself).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn expire_challenges_for(
        &self,
        owes_edits: bool,
    ) -> Result<Vec<Challenge>, ServiceError> {
        let owes = owes_edits && self.outbox_on();
        let ids = self.store.expire_challenges(self.now(), owes).await?;
        if owes && !ids.is_empty() {
            self.outbox_wake();
        }
        for _ in &ids {
            metrics::challenge("expired");
        }
        let mut out = Vec::with_capacity(ids.len());
        for id in ids {
            if let Some(c) = self.store.challenge(id).await? {
                out.push(c);
            }
        }
        Ok(out)
    }
}
