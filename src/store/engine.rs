//! Games against the computer: started at once (the engine "accepts" in the same
//! transaction), with the engine's level on the game's row, never rated.

use sqlx::Row as _;

use super::{GameId, NewChallenge, StorageError, Store, UserId, UserInfo, upsert_member};

impl Store {
    /// Starts a game between `new.challenger` and the engine (`engine`, the bot's own user) in
    /// one transaction: a challenge closed as accepted by the engine, the game seated by
    /// `seat_order` (challenger first, then engine), its `engine_level` set, `rated` off
    /// whatever `new` says. `owes_start`: the game's start is owed through the outbox, with
    /// the interaction token whose answer carries its first board, if any.
    ///
    /// # Errors
    /// [`StorageError`]; a bad `seat_order` or a rule set for more than two players is
    /// [`super::StorageErrorKind::Other`] and writes nothing.
    pub async fn start_engine_game(
        &self,
        new: &NewChallenge,
        engine: &UserInfo,
        level: u8,
        seat_order: &[u8],
        owes_start: Option<Option<&str>>,
    ) -> Result<GameId, StorageError> {
        let mut tx = self.begin_write().await?;
        let id: i64 = sqlx::query(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, rules, \
             players, days_per_move, rated, status, seats_taken, created_at, expires_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, FALSE, 'open', 2, $8, $9) RETURNING challenge_id",
        )
        .bind(new.guild.to_db())
        .bind(new.channel.to_db())
        .bind(new.challenger.id.to_db())
        .bind(engine.id.to_db())
        .bind(new.rules.to_spec())
        .bind(i64::from(new.rules.players))
        .bind(new.time.to_db())
        .bind(new.now.0)
        .bind(new.expires_at.0)
        .fetch_one(&mut *tx)
        .await?
        .try_get(0)?;
        for (position, user) in [(1_i64, &new.challenger), (2, engine)] {
            sqlx::query(
                "INSERT INTO challenge_members (challenge_id, user_id, position, joined_at) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(user.id.to_db())
            .bind(position)
            .bind(new.now.0)
            .execute(&mut *tx)
            .await?;
            upsert_member(&mut tx, new.guild, user, new.now).await?;
        }
        let game = self
            .start_game(
                &mut tx,
                super::ChallengeId(id),
                engine.id,
                new.now,
                seat_order,
            )
            .await?;
        sqlx::query("UPDATE games SET engine_level = $1 WHERE game_id = $2")
            .bind(i64::from(level))
            .bind(game.0)
            .execute(&mut *tx)
            .await?;
        // The computer's first move, when it has the first turn, is owed from the start.
        super::engine_jobs::owe_engine_job(&mut tx, game, new.now, &self.appends.job_holder)
            .await?;
        // The game's start (its thread from the answer that carries its first board) is owed
        // in the same commit, with the interaction whose answer that is (issue 16).
        if let Some(reply) = owes_start {
            super::outbox::owe(
                &mut tx,
                &self.appends.boot,
                game,
                0,
                super::outbox::OutboxKind::Start,
                None,
                reply,
                None,
                new.now,
            )
            .await?;
        }
        tx.commit().await?;
        Ok(game)
    }

    /// The engine's level in a game against the computer; `None` for games between members
    /// (and for unknown games).
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn engine_level(&self, id: GameId) -> Result<Option<u8>, StorageError> {
        let row = sqlx::query("SELECT engine_level FROM games WHERE game_id = $1")
            .bind(id.0)
            .fetch_optional(&self.reader)
            .await?;
        let Some(level) = row
            .map(|r| r.try_get::<Option<i64>, _>(0))
            .transpose()?
            .flatten()
        else {
            return Ok(None);
        };
        u8::try_from(level)
            .map(Some)
            .map_err(|_| StorageError::corrupt(format!("engine level {level} in game {}", id.0)))
    }

    /// Active games against the computer where the seat to act is `engine`'s (after a
    /// restart: the moves the engine still owes), oldest first.
    ///
    /// # Errors
    /// [`StorageError`].
    pub async fn engine_games_to_move(&self, engine: UserId) -> Result<Vec<GameId>, StorageError> {
        let rows = sqlx::query(
            "SELECT g.game_id FROM games g \
             JOIN game_seats s ON s.game_id = g.game_id AND s.seat = g.to_act_seat \
             WHERE g.status = 'active' AND g.engine_level IS NOT NULL AND s.user_id = $1 \
             ORDER BY g.updated_at, g.game_id",
        )
        .bind(engine.to_db())
        .fetch_all(&self.reader)
        .await?;
        rows.iter().map(|r| Ok(GameId(r.try_get(0)?))).collect()
    }
}
