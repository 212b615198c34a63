//! Listings: a member's active games.

use super::{GameSummary, GuildId, PlayerEntry, Service, ServiceError, UserId, display_name};

impl Service {
    /// A member's active games in a guild: those where it is their turn first, then by
    /// nearest deadline, then by number.
    ///
    /// # Errors
    /// [`ServiceError::Storage`].
    pub async fn active_games(
        &self,
        guild: GuildId,
        user: UserId,
    ) -> Result<Vec<GameSummary>, ServiceError> {
        let mut out: Vec<GameSummary> = self
            .store
            .active_games_of(guild, user)
            .await?
            .into_iter()
            .map(|l| {
                let to_act = l
                    .meta
                    .to_act
                    .and_then(|seat| l.seats.iter().find(|s| s.seat == seat))
                    .map(|s| s.user);
                GameSummary {
                    id: l.meta.id,
                    channel: l.meta.channel,
                    thread: l.meta.thread,
                    rules: l.meta.rules,
                    time: l.meta.time,
                    players: l
                        .seats
                        .iter()
                        .map(|s| PlayerEntry {
                            seat: s.seat,
                            user: s.user,
                            name: display_name(s),
                        })
                        .collect(),
                    to_act,
                    your_turn: to_act == Some(user),
                    ply: l.meta.ply,
                    deadline: crate::store::shown_deadline(&l.meta, &l.seats),
                }
            })
            .collect();
        out.sort_by_key(|g| (!g.your_turn, g.deadline.is_none(), g.deadline, g.id));
        Ok(out)
    }
}
