//! Following the other processes' commits (PostgreSQL `LISTEN`/`NOTIFY`, `store::notify`):
//! the games and settings they change are dropped from this process's memory as soon as the
//! notice arrives, instead of when an action meets a conflict in the move log (which still
//! guards every move: a notice can be late, or lost while the listener reconnects) or when a
//! memo entry expires.

use std::sync::Arc;

use super::{GameId, Service, ServiceError};
use crate::store::{Change, Heard};

impl Service {
    /// On PostgreSQL, starts a task that drops from this service's memory whatever other
    /// processes' commits change (games, guild settings, preferences); after the listener
    /// lost the server, everything. Nothing on SQLite (one process). The task holds the
    /// service weakly and ends once the service is gone.
    ///
    /// # Errors
    /// [`ServiceError::Storage`] when the listener cannot connect.
    pub async fn follow_changes(self: &Arc<Self>) -> Result<(), ServiceError> {
        let Some(mut heard) = self.store.listen_changes().await? else {
            return Ok(());
        };
        let service = Arc::downgrade(self);
        tokio::spawn(async move {
            while let Some(heard) = heard.recv().await {
                let Some(service) = service.upgrade() else {
                    return;
                };
                service.forget_changed(heard);
            }
        });
        Ok(())
    }

    /// Whether a game is held in memory (for tests and monitoring).
    pub fn holds_game(&self, id: GameId) -> bool {
        let slot = self.slots.lock().map(|s| s.get(&id).cloned());
        match slot {
            Ok(Some(slot)) => slot.try_lock().map_or(true, |cached| cached.is_some()),
            _ => false,
        }
    }

    fn forget_changed(self: &Arc<Self>, heard: Heard) {
        match heard {
            Heard::Changed(Change::Games(games)) => {
                for id in games {
                    self.forget_game(id);
                }
            }
            Heard::Changed(Change::Guild(guild)) => self.settings.forget(guild),
            Heard::Changed(Change::User(user)) => self.prefs.forget(user),
            Heard::Lost => {
                let games: Vec<GameId> = self
                    .slots
                    .lock()
                    .map(|s| s.keys().copied().collect())
                    .unwrap_or_default();
                for id in games {
                    self.forget_game(id);
                }
                self.settings.clear();
                self.prefs.clear();
            }
        }
    }

    /// Drops a game from memory: the next action loads it from the database.
    fn forget_game(self: &Arc<Self>, id: GameId) {
        let slot = self.slots.lock().map(|s| s.get(&id).cloned());
        let Ok(Some(slot)) = slot else {
            return;
        };
        if let Ok(mut cached) = slot.try_lock() {
            *cached = None;
            self.settle(id, cached);
            return;
        }
        // An action holds the game now: drop it once that action is done (the listener does
        // not wait for it).
        let service = Arc::clone(self);
        tokio::spawn(async move {
            let mut cached = slot.lock().await;
            *cached = None;
            service.settle(id, cached);
        });
    }
}
