//! Clocks: the reminder before a deadline, vacation time, and the loss on time.
//!
//! A front calls [`Service::sweep_clocks`] every minute or so (and once at start-up, for what
//! ran out while it was down). Everything is read from the database and claimed there before
//! anything is done (DESIGN.md section 4b), so two sweepers at once do no harm, and a restart
//! neither repeats a reminder nor forgets a deadline. Time comes from the service's
//! [`super::Clock`], so tests move a manual clock instead of waiting.
//!
//! # Reminders
//! Once per turn, at 80% of the time per move or 24 hours before the deadline, whichever
//! comes first. The 24-hour rule only counts when it falls after the turn began (with 1 day
//! per move, or in live games, the 80% rule alone applies).
//!
//! # Vacation
//! Each player has [`super::ServiceConfig::vacation_days_per_year`] days per calendar year
//! (UTC). When a deadline of a game counted in days passes, an hour of the player's vacation is
//! spent and the deadline moves by one hour, as long as hours are left; after a downtime, as
//! many hours as it takes to bring the deadline past now are spent at once. Live games (minutes
//! per move) never use vacation.
//!
//! # Loss on time
//! When the deadline passes and no vacation is left, the player to act loses on time.
//! - In a three- or four-player free-for-all with at least three players still in, that
//!   player is out and the others play on: the rules core's [`Action::Retire`] (`retire:C` in
//!   the move log) skips their colour from then on and leaves their stones on the board.
//! - Otherwise (two players, teams, or only two players left) the game ends and every other
//!   side wins, as after a resignation; the last row of the move log is `timeout`.
//!
//! Both go through [`crate::store::Store::append_action`] like every other action, so what
//! hooks on finished games (ratings) sees losses on time too.

use std::time::Duration;

use super::{Loaded, Service, ServiceError};
use crate::rules::{Action, Colours};
use crate::service::GameView;
use crate::store::{
    AppendError, GameId, GameResult, GameStatus, NewAction, Owed, ResultReason, TimeControl,
    Timestamp, UserId,
};

/// The record token of a loss on time in the move log.
pub(super) const TIMEOUT: &str = "timeout";

/// How long a sweep owns an overdue game it claimed.
const LEASE: Duration = Duration::from_secs(300);
/// How many overdue games a sweep claims at a time (it claims again until none are left).
const BATCH: u32 = 200;
const HOUR_MS: i64 = 3_600_000;
const DAY_MS: i64 = 24 * HOUR_MS;

/// Something a clock sweep did that the players should hear about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClockEvent {
    /// The player to act was reminded that their time runs out soon.
    Reminder {
        /// The game (its deadline is the one they were reminded of).
        game: GameView,
        /// Who must move.
        user: UserId,
        /// Their seat.
        seat: u8,
    },
    /// A deadline passed and vacation time moved it.
    VacationUsed {
        /// The game, with its new deadline.
        game: GameView,
        /// Whose vacation was spent.
        user: UserId,
        /// How many hours were spent now.
        hours: u32,
        /// Hours left this year afterwards.
        left: u32,
        /// Whether this is the first vacation spent on this turn (the deadline had not
        /// moved before): fronts announce that one, not every hour after it.
        first_of_turn: bool,
    },
    /// The player to act ran out of time and lost: the game is over, or (3-4 players) they
    /// are out and the others play on (the game is then still active).
    TimedOut {
        /// The game afterwards.
        game: GameView,
        /// Who lost on time.
        user: UserId,
        /// Their seat.
        seat: u8,
    },
    /// A game the sweep could not handle (a damaged move log, say); the others were handled,
    /// and this one is tried again once its lease runs out. For the logs.
    Failed {
        /// The game.
        game: GameId,
        /// Why.
        error: ServiceError,
    },
}

/// Whether a failure concerns one game only (the sweep goes on with the others) rather than
/// the database as a whole (the sweep stops and is retried).
fn is_local(e: &ServiceError) -> bool {
    match e {
        ServiceError::Storage(s) => s.kind == crate::store::StorageErrorKind::Corrupt,
        _ => true,
    }
}

/// A player's vacation time this year.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VacationBalance {
    /// The calendar year (UTC).
    pub year: i32,
    /// Hours granted per year.
    pub allowance_hours: u32,
    /// Hours spent this year.
    pub used_hours: u32,
}

impl VacationBalance {
    /// Hours still available this year.
    pub fn left_hours(&self) -> u32 {
        self.allowance_hours.saturating_sub(self.used_hours)
    }
}

/// The calendar year (UTC) of a moment.
pub fn utc_year(t: Timestamp) -> i32 {
    // Howard Hinnant's civil-from-days: exact for the proleptic Gregorian calendar.
    let days = t.0.div_euclid(DAY_MS) + 719_468;
    let era = days.div_euclid(146_097);
    let doe = days.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    i32::try_from(year).unwrap_or(if year < 0 { i32::MIN } else { i32::MAX })
}

/// When the player to act should be reminded of a turn that began at `turn_started` and runs
/// out at `deadline`: at 80% of the time per move, or 24 hours before the deadline when that
/// comes first (and after the turn began). `None` without a time limit.
pub fn reminder_time(
    time: TimeControl,
    turn_started: Timestamp,
    deadline: Timestamp,
) -> Option<Timestamp> {
    let per_move = i64::try_from(time.per_move()?.as_millis()).unwrap_or(i64::MAX);
    let at_80 = turn_started.0.saturating_add(per_move / 5 * 4);
    let day_before = deadline.0.saturating_sub(DAY_MS);
    Some(Timestamp(if day_before > turn_started.0 {
        at_80.min(day_before)
    } else {
        at_80
    }))
}

/// Every side but the seat's own (and its teammate's) wins, except colours already out.
fn others_win(loaded: &Loaded, seat: u8) -> Colours {
    let rules = loaded.game.rules();
    let colour = loaded.game.colour_of_seat(seat);
    let side = [Some(colour), rules.teammate(colour)];
    let out = loaded.game.retired();
    let mut winners = Colours::EMPTY;
    for c in (1..=rules.players).filter(|c| !side.contains(&Some(*c)) && !out.contains(*c)) {
        winners.insert(c);
    }
    winners
}

/// The furthest ahead a reminder can be due: 20% of the longest time per move allowed, or a day.
fn reminder_horizon() -> Duration {
    let longest = TimeControl::DaysPerMove(TimeControl::MAX_DAYS)
        .per_move()
        .unwrap_or_default();
    (longest / 5).max(Duration::from_secs(86_400))
}

impl Service {
    /// A player's vacation time in the current year.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn vacation(&self, user: UserId) -> Result<VacationBalance, ServiceError> {
        let year = utc_year(self.now());
        Ok(VacationBalance {
            year,
            allowance_hours: self.config.vacation_days_per_year.saturating_mul(24),
            used_hours: self.store.vacation_hours_used(user, year).await?,
        })
    }

    /// Handles every deadline due now: first the games whose time ran out (vacation, or loss
    /// on time), then the reminders. Returns what the players should hear about.
    ///
    /// # Errors
    /// [`ServiceError::Storage`]; events of games handled before the failure are lost to the
    /// caller, but what was committed stays committed and is not repeated.
    pub async fn sweep_clocks(&self) -> Result<Vec<ClockEvent>, ServiceError> {
        let mut events = self.expire_overdue().await?;
        events.extend(self.send_reminders().await?);
        Ok(events)
    }

    /// Claims the turns whose reminder is due and returns them (each turn once, ever).
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn send_reminders(&self) -> Result<Vec<ClockEvent>, ServiceError> {
        let now = self.now();
        let candidates = self
            .store
            .reminder_candidates(now, now.plus(reminder_horizon()))
            .await?;
        let mut events = Vec::new();
        for c in candidates {
            let due = reminder_time(c.time, c.turn_started, c.deadline);
            if due.is_none_or(|t| t > now) {
                continue;
            }
            // The reminder's message is owed in the claim's transaction (the outbox).
            if !self
                .store
                .claim_reminder_owed(c.game, c.ply, c.seat, now)
                .await?
            {
                continue;
            }
            let game = match self.view_of(c.game).await {
                Ok(g) => g,
                Err(error) if is_local(&error) => {
                    events.push(ClockEvent::Failed {
                        game: c.game,
                        error,
                    });
                    continue;
                }
                Err(e) => return Err(e),
            };
            if let Some(seat) = game.seats.iter().find(|s| s.seat == c.seat) {
                events.push(ClockEvent::Reminder {
                    user: seat.user,
                    seat: c.seat,
                    game,
                });
            }
        }
        Ok(events)
    }

    /// Claims the games whose deadline has passed and spends vacation on them, or ends them
    /// as a loss on time.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn expire_overdue(&self) -> Result<Vec<ClockEvent>, ServiceError> {
        let mut events = Vec::new();
        loop {
            let claimed = self.claim_overdue_games(LEASE, BATCH).await?;
            let more = claimed.len() == BATCH as usize;
            self.expire_claimed(claimed, &mut events).await?;
            // Every game handled here leaves the overdue set (or keeps its lease), so this ends.
            if !more {
                return Ok(events);
            }
        }
    }

    async fn expire_claimed(
        &self,
        claimed: Vec<(GameId, Timestamp)>,
        events: &mut Vec<ClockEvent>,
    ) -> Result<(), ServiceError> {
        for (id, _) in claimed {
            let slot = self.slot(id);
            let mut cached = slot.lock().await;
            let result = self.expire_locked(&mut cached, id).await;
            self.settle(id, cached);
            match result {
                Ok(Some(event)) => events.push(event),
                Ok(None) => {}
                Err(error) if is_local(&error) => {
                    events.push(ClockEvent::Failed { game: id, error })
                }
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    async fn expire_locked(
        &self,
        cached: &mut Option<Loaded>,
        id: GameId,
    ) -> Result<Option<ClockEvent>, ServiceError> {
        // Another process may have moved since this copy was cached: read the game afresh.
        *cached = None;
        let now = self.now();
        let loaded = self.ensure_loaded(cached, id).await?;
        let deadline = match (loaded.meta.status, loaded.meta.deadline) {
            (GameStatus::Active, Some(d)) if d <= now => d,
            _ => return Ok(None),
        };
        let Some(seat) = loaded.game.seat_to_act() else {
            return Ok(None);
        };
        let Some(user) = loaded.seat_of_seat(seat) else {
            return Ok(None);
        };
        if let TimeControl::DaysPerMove(_) = loaded.meta.time {
            let year = utc_year(now);
            let allowance = self.config.vacation_days_per_year.saturating_mul(24);
            let used = self.store.vacation_hours_used(user, year).await?;
            let left = allowance.saturating_sub(used);
            // Enough whole hours to bring the deadline past now.
            let needed = u32::try_from((now.0 - deadline.0) / HOUR_MS + 1).unwrap_or(u32::MAX);
            let hours = needed.min(left);
            if hours > 0 {
                let moved = Timestamp(deadline.0.saturating_add(i64::from(hours) * HOUR_MS));
                let ply = loaded.meta.ply;
                let first_of_turn =
                    loaded.meta.time.deadline_after(loaded.meta.updated_at) == Some(deadline);
                // The notice that vacation started is owed in the same commit (issue 16),
                // like reminders and losses on time, when vacation outlasts this instant.
                let notice = (first_of_turn && moved > now).then_some(seat);
                if !self
                    .store
                    .spend_vacation(id, ply, user, year, hours, allowance, moved, now, notice)
                    .await?
                {
                    // The player moved, or another sweeper spent it first: nothing to do now.
                    *cached = None;
                    return Ok(None);
                }
                loaded.meta.deadline = Some(moved);
                if moved > now {
                    return Ok(Some(ClockEvent::VacationUsed {
                        game: loaded.view(),
                        user,
                        hours,
                        left: left - hours,
                        first_of_turn,
                    }));
                }
            }
        }
        let colour = loaded.game.colour_of_seat(seat);
        let retire = Action::Retire(colour);
        if loaded.game.check(retire).is_ok() {
            return self.retire_locked(cached, seat, user, now).await;
        }
        let new = NewAction {
            game: id,
            ply: loaded.meta.ply + 1,
            seat,
            token: TIMEOUT.to_string(),
            at: now,
            to_act: None,
            deadline: None,
            finished: Some(GameResult {
                winners: others_win(loaded, seat),
                reason: ResultReason::Timeout { seat },
            }),
            rename: None,
            owed: Owed::Timeout,
            computer: loaded.meta.against_computer,
        };
        match self.store.append_action(&new).await {
            Ok(()) => {}
            Err(AppendError::Conflict) => {
                // The player moved at the last moment: their move stands.
                *cached = None;
                return Ok(None);
            }
            Err(AppendError::Storage(s)) => return Err(s.into()),
        }
        Self::committed(loaded, &new);
        Ok(Some(ClockEvent::TimedOut {
            game: loaded.view(),
            user,
            seat,
        }))
    }
}

impl Service {
    /// Takes the seat to act out of a 3-4 player game; the others play on.
    async fn retire_locked(
        &self,
        cached: &mut Option<Loaded>,
        seat: u8,
        user: UserId,
        now: Timestamp,
    ) -> Result<Option<ClockEvent>, ServiceError> {
        let Some(loaded) = cached.as_mut() else {
            return Ok(None);
        };
        let action = Action::Retire(loaded.game.colour_of_seat(seat));
        let report = loaded.game.apply(action).map_err(ServiceError::Illegal)?;
        let new = loaded.entry_for_applied(seat, action, report.status, now, None, Owed::Timeout);
        match self.store.append_action(&new).await {
            Ok(()) => {}
            Err(e) => {
                loaded.game.undo();
                *cached = None;
                return match e {
                    AppendError::Conflict => Ok(None),
                    AppendError::Storage(s) => Err(s.into()),
                };
            }
        }
        Self::committed(loaded, &new);
        Ok(Some(ClockEvent::TimedOut {
            game: loaded.view(),
            user,
            seat,
        }))
    }
}

impl Loaded {
    fn seat_of_seat(&self, seat: u8) -> Option<UserId> {
        self.seats.iter().find(|s| s.seat == seat).map(|s| s.user)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: i64 = HOUR_MS;

    #[test]
    fn years_are_read_in_utc() {
        assert_eq!(utc_year(Timestamp(0)), 1970);
        // 2023-12-31T23:59:59.999Z and 2024-01-01T00:00:00Z.
        assert_eq!(utc_year(Timestamp(1_704_067_199_999)), 2023);
        assert_eq!(utc_year(Timestamp(1_704_067_200_000)), 2024);
        // 2024-02-29 (a leap day) and 2100-03-01.
        assert_eq!(utc_year(Timestamp(1_709_164_800_000)), 2024);
        assert_eq!(utc_year(Timestamp(4_107_542_400_000)), 2100);
        assert_eq!(utc_year(Timestamp(-1)), 1969);
    }

    #[test]
    fn reminders_come_at_80_percent_or_a_day_before_whichever_is_first() {
        let start = Timestamp(1_000 * H);
        let at = |t: TimeControl| {
            let deadline = t.deadline_after(start).unwrap();
            (reminder_time(t, start, deadline).unwrap().0 - start.0) as f64 / H as f64
        };
        // 3 days: 24 h before (48 h) comes before 80% (57.6 h).
        assert_eq!(at(TimeControl::DaysPerMove(3)), 48.0);
        // 7 days: 80% (134.4 h) comes before 24 h before (144 h).
        assert_eq!(at(TimeControl::DaysPerMove(7)), 134.4);
        // 5 days: both at 96 h.
        assert_eq!(at(TimeControl::DaysPerMove(5)), 96.0);
        // 1 day: a day before is the start of the turn, so 80% alone.
        assert_eq!(at(TimeControl::DaysPerMove(1)), 19.2);
        // Live: 80% of 10 minutes.
        assert_eq!(at(TimeControl::MinutesPerMove(10)), 8.0 / 60.0);
        assert_eq!(reminder_time(TimeControl::Unlimited, start, start), None);
    }

    #[test]
    fn the_reminder_horizon_covers_every_allowed_time_control() {
        let horizon = i64::try_from(reminder_horizon().as_millis()).unwrap();
        let start = Timestamp(0);
        for d in TimeControl::ALLOWED_DAYS {
            let t = TimeControl::DaysPerMove(d);
            let deadline = t.deadline_after(start).unwrap();
            let due = reminder_time(t, start, deadline).unwrap();
            assert!(deadline.0 - due.0 <= horizon, "{d} days");
        }
    }

    #[test]
    fn vacation_balances_never_go_negative() {
        let b = VacationBalance {
            year: 2026,
            allowance_hours: 240,
            used_hours: 250,
        };
        assert_eq!(b.left_hours(), 0);
    }
}
