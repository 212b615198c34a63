//! Which outbox rows a process posts when several processes share one database: every row
//! (one process, the default), the rows it wrote itself (a process without a gateway, such as
//! an engine worker), or those plus the rows of the games in the guilds of its gateway shards.
//!
//! Why guilds: Discord sends a guild's events on one shard only, `(guild_id >> 22) % total`,
//! so the process running that shard is the one answering the guild's interactions, and the
//! one whose crash leaves the guild's rows behind; after its restart it takes them up again.
//! A row another process wrote is left to it for a while (the service's hold): that process
//! may still be answering the interaction with that very board (see [`super::outbox`]).

/// A range of gateway shards of a total: the guilds whose events they carry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GuildShards {
    /// The first shard.
    pub first: u32,
    /// The last shard (inclusive).
    pub last: u32,
    /// How many shards the bot has (at least 1).
    pub total: u32,
}

impl GuildShards {
    /// Whether `guild`'s events come on these shards.
    pub fn has(&self, guild: u64) -> bool {
        let shard = (guild >> 22) % u64::from(self.total.max(1));
        (u64::from(self.first)..=u64::from(self.last)).contains(&shard)
    }

    /// The SQL condition that `column` (a guild id) is on these shards. The numbers are
    /// ours (not input), so they are written into the text; `/ 4194304` is `>> 22` in a form
    /// both stores read alike (guild ids are positive).
    pub(crate) fn condition(&self, column: &str) -> String {
        format!(
            "(({column} / 4194304) % {}) BETWEEN {} AND {}",
            self.total.max(1),
            self.first,
            self.last
        )
    }
}

/// Which outbox rows this process's poster takes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutboxScope {
    /// Every row: the one process of the bot (and the tests' in-process bots).
    #[default]
    All,
    /// Only the rows this process wrote (a process without a gateway connection).
    Own,
    /// The rows this process wrote, and those of the games in these shards' guilds that
    /// another process wrote and left unsent for a while (it died, or could not send them):
    /// a live writer posts its own rows within moments, and must not be raced.
    Shards(GuildShards),
}

impl OutboxScope {
    /// The SQL condition on an outbox row aliased `o`: its writer's mark is bound as `boot`,
    /// and `before` is the time before which another process's row counts as left behind.
    pub(crate) fn condition(&self, boot: &str, before: &str) -> Option<String> {
        match self {
            OutboxScope::All => None,
            OutboxScope::Own => Some(format!("o.boot = {boot}")),
            // A challenge's own rows queue on minus its id, a tournament's on minus 2^40 and
            // its id (no game).
            OutboxScope::Shards(shards) => Some(format!(
                "(o.boot = {boot} OR (o.created_at <= {before} AND (EXISTS \
                 (SELECT 1 FROM games g WHERE g.game_id = o.game_id AND {}) OR EXISTS \
                 (SELECT 1 FROM challenges c WHERE c.challenge_id = -o.game_id AND {}) OR EXISTS \
                 (SELECT 1 FROM tournaments t WHERE t.tournament_id = -o.game_id - {} AND {}))))",
                shards.condition("g.guild_id"),
                shards.condition("c.guild_id"),
                super::outbox_notices::TOURNAMENT_QUEUES,
                shards.condition("t.guild_id")
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guilds_fall_on_the_shard_discord_names() {
        let odd = GuildShards {
            first: 1,
            last: 1,
            total: 2,
        };
        assert!(odd.has(3 << 22));
        assert!(!odd.has(4 << 22));
        assert_eq!(
            odd.condition("g.guild_id"),
            "((g.guild_id / 4194304) % 2) BETWEEN 1 AND 1"
        );
        assert_eq!(OutboxScope::All.condition("$2", "$3"), None);
        assert_eq!(
            OutboxScope::Own.condition("$2", "$3").as_deref(),
            Some("o.boot = $2")
        );
    }
}
