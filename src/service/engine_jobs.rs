//! Engine jobs on the service's floor (issue 11): taking the moves the computer owes under a
//! lease, turning a job into the position to think about (or dropping it when its game moved
//! on), renewing and handing back leases.
//!
//! The jobs themselves are written and completed by the store in the actions' transactions
//! (see [`crate::store::EngineJob`]); committing the engine's move goes through
//! [`Service::play_engine_move`] with the job's ply, so a job taken twice (a lease that lapsed
//! while its first taker still thought) is played at most once.

use std::time::Duration;

use super::{EngineTurn, GameStatus, Service, ServiceError, UserInfo};

pub use crate::store::EngineJob;

/// What became of a taken job once its game was read.
#[derive(Clone, Debug)]
pub enum JobTurn {
    /// The computer must act: the position, and the computer's seat.
    Play(Box<EngineTurn>, UserInfo),
    /// The game moved on (finished, resigned, taken back, another ply): the job was dropped.
    Dropped,
}

impl Service {
    /// Takes the oldest job nobody holds for `holder`, leased for `lease`.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn claim_engine_job(
        &self,
        holder: &str,
        lease: Duration,
    ) -> Result<Option<EngineJob>, ServiceError> {
        let now = self.now();
        Ok(self
            .store
            .claim_engine_job(holder, now, now.plus(lease))
            .await?)
    }

    /// Writes the jobs this process's actions make leased to `holder` for `lease` (this
    /// process thinks, and answers them itself), or, with `None`, for anyone.
    pub fn set_engine_job_holder(&self, holder: Option<(&str, Duration)>) {
        self.store.set_engine_job_holder(holder);
    }

    /// Takes the job at `ply` of `game` written leased to `holder` by this process's action;
    /// `None` when it is not `holder`'s any more (its lease lapsed and another took it).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn claim_own_engine_job(
        &self,
        game: crate::store::GameId,
        ply: u32,
        holder: &str,
        lease: Duration,
    ) -> Result<Option<EngineJob>, ServiceError> {
        let until = self.now().plus(lease);
        Ok(self
            .store
            .claim_own_engine_job(game, ply, holder, until)
            .await?)
    }

    /// The position a taken job asks the computer to answer; a job whose game moved on (not
    /// active, another ply, not the computer's turn, not a game against the computer) is
    /// dropped.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn engine_job_turn(&self, job: &EngineJob) -> Result<JobTurn, ServiceError> {
        let view = match self.view_of(job.game).await {
            Ok(v) => v,
            Err(ServiceError::NoSuchGame) => {
                self.drop_engine_job(job).await?;
                return Ok(JobTurn::Dropped);
            }
            Err(e) => return Err(e),
        };
        let engine = self.store.engine_player(job.game).await?;
        let level = self.engine_level(job.game).await?;
        let (Some(engine), Some(level)) = (engine, level) else {
            self.drop_engine_job(job).await?;
            return Ok(JobTurn::Dropped);
        };
        if view.status != GameStatus::Active
            || view.ply != job.ply
            || view.to_act().map(|s| s.user) != Some(engine.id)
        {
            self.drop_engine_job(job).await?;
            return Ok(JobTurn::Dropped);
        }
        // The game's row keeps the level; the job's copy is for the operator's eyes.
        Ok(JobTurn::Play(
            Box::new(EngineTurn {
                id: job.game,
                guild: view.guild,
                home: view.home(),
                ply: view.ply,
                game: view.game,
                level,
            }),
            engine,
        ))
    }

    /// Extends `holder`'s lease on `job` by `lease`; `false` when the job is no longer
    /// `holder`'s.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn renew_engine_job(
        &self,
        job: &EngineJob,
        holder: &str,
        lease: Duration,
    ) -> Result<bool, ServiceError> {
        let until = self.now().plus(lease);
        Ok(self.store.renew_engine_job(job, holder, until).await?)
    }

    /// Hands a job back for anyone to take at once (this process could not finish it).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn release_engine_job(
        &self,
        job: &EngineJob,
        holder: &str,
    ) -> Result<(), ServiceError> {
        Ok(self.store.release_engine_job(job, holder).await?)
    }

    /// Hands back every job `holder` holds (a process stopping); returns how many.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn release_engine_jobs_of(&self, holder: &str) -> Result<u64, ServiceError> {
        Ok(self.store.release_engine_jobs_of(holder).await?)
    }

    /// At start-up, on SQLite (one process): hands back the jobs an earlier run of this
    /// process held when it died, so they are played at once rather than after their leases.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn release_engine_jobs_of_the_dead(&self) -> Result<u64, ServiceError> {
        Ok(self.store.release_engine_jobs_of_the_dead().await?)
    }

    /// Drops a job that will never be played (its game moved on, or no legal action).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn drop_engine_job(&self, job: &EngineJob) -> Result<(), ServiceError> {
        Ok(self.store.drop_engine_job(job.game, job.ply).await?)
    }

    /// Jobs nobody holds now, over the whole database.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn engine_jobs_waiting(&self) -> Result<u64, ServiceError> {
        Ok(self.store.engine_jobs_waiting(self.now()).await?)
    }

    /// Every job, oldest first (tests and diagnostics).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn engine_jobs(&self) -> Result<Vec<EngineJob>, ServiceError> {
        Ok(self.store.engine_jobs().await?)
    }

    /// Writes a job for every game waiting for the computer without one (start-up's safety
    /// net); returns how many.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn owe_missing_engine_jobs(&self) -> Result<u64, ServiceError> {
        Ok(self.store.owe_missing_engine_jobs(self.now()).await?)
    }
}
