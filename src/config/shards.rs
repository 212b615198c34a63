//! Which gateway shards one process runs: `--shards A-B --shard-total N` on the command line,
//! or `discord.shards` and `discord.shard_total` in `config.toml`; without either, every shard
//! Discord recommends (`GET /gateway/bot`).

use std::fmt;

/// A range of shards of a fixed total, checked: `first <= last < total`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardRange {
    /// The first shard this process runs.
    pub first: u32,
    /// The last shard this process runs (inclusive).
    pub last: u32,
    /// How many shards the whole bot has (every process must give the same total).
    pub total: u32,
}

impl ShardRange {
    /// How many shards this process runs.
    pub fn count(&self) -> u32 {
        self.last - self.first + 1
    }

    /// Whether this process runs the shard whose events carry `guild` (Discord's rule:
    /// `(guild_id >> 22) % total`).
    pub fn has_guild(&self, guild: u64) -> bool {
        let shard = (guild >> 22) % u64::from(self.total);
        (u64::from(self.first)..=u64::from(self.last)).contains(&shard)
    }
}

impl fmt::Display for ShardRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{} of {}", self.first, self.last, self.total)
    }
}

/// The shards of one process.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shards {
    /// Every shard Discord recommends for the bot, all in this process (the default).
    Recommended,
    /// These shards only (other processes run the rest).
    Range(ShardRange),
}

/// Parses a shard range (`A-B`, or `A` alone for one shard) and a total; `None` for both is
/// [`Shards::Recommended`], a total alone is every shard of that total.
///
/// # Errors
/// A sentence saying what is wrong: a malformed range, `A > B`, a total of 0, a range outside
/// the total, or a range without a total.
pub fn parse(range: Option<&str>, total: Option<u32>) -> Result<Shards, String> {
    let total = match (range, total) {
        (None, None) => return Ok(Shards::Recommended),
        (Some(r), None) => {
            return Err(format!(
                "the shard range {r} needs the shard total (how many shards the whole bot has)"
            ));
        }
        (_, Some(0)) => return Err("the shard total must be at least 1".to_string()),
        (_, Some(t)) => t,
    };
    let Some(text) = range else {
        return Ok(Shards::Range(ShardRange {
            first: 0,
            last: total - 1,
            total,
        }));
    };
    let number = |s: &str| s.trim().parse::<u32>().ok();
    let (first, last) = match text.split_once('-') {
        Some((a, b)) => (number(a), number(b)),
        None => (number(text), number(text)),
    };
    let (Some(first), Some(last)) = (first, last) else {
        return Err(format!(
            "`{text}` is not a shard range: write FIRST-LAST, e.g. 0-3 (shards are numbered from 0)"
        ));
    };
    if first > last {
        return Err(format!(
            "the shard range {text} is reversed: its first shard {first} is after its last {last}"
        ));
    }
    if last >= total {
        return Err(format!(
            "the shard range {text} is outside the shard total {total} (its shards are 0-{})",
            total - 1
        ));
    }
    Ok(Shards::Range(ShardRange { first, last, total }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn range(first: u32, last: u32, total: u32) -> Shards {
        Shards::Range(ShardRange { first, last, total })
    }

    #[test]
    fn ranges_parse_and_default_to_discords_recommendation() {
        assert_eq!(parse(None, None), Ok(Shards::Recommended));
        assert_eq!(parse(Some("0-3"), Some(8)), Ok(range(0, 3, 8)));
        assert_eq!(parse(Some(" 4 - 7 "), Some(8)), Ok(range(4, 7, 8)));
        assert_eq!(parse(Some("1"), Some(2)), Ok(range(1, 1, 2)));
        assert_eq!(parse(None, Some(3)), Ok(range(0, 2, 3)));
    }

    #[test]
    fn bad_ranges_are_refused_with_the_reason() {
        for (r, t, why) in [
            (Some("0-3"), Some(0), "at least 1"),
            (Some("0-8"), Some(8), "outside the shard total 8"),
            (Some("8"), Some(8), "outside"),
            (Some("3-1"), Some(8), "reversed"),
            (Some("a-b"), Some(8), "not a shard range"),
            (Some("0-"), Some(8), "not a shard range"),
            (Some("-1-2"), Some(8), "not a shard range"),
            (Some(""), Some(8), "not a shard range"),
            (Some("0-1"), None, "needs the shard total"),
            (None, Some(0), "at least 1"),
        ] {
            let e = parse(r, t).expect_err(&format!("{r:?} of {t:?}"));
            assert!(e.contains(why), "{r:?} {t:?}: {e}");
        }
    }

    #[test]
    fn a_guild_belongs_to_the_shard_discord_sends_its_events_on() {
        let Shards::Range(odd) = range(1, 1, 2) else {
            unreachable!()
        };
        assert!(odd.has_guild(1 << 22));
        assert!(!odd.has_guild(2 << 22));
        assert!(!odd.has_guild((1 << 22) - 1));
        assert_eq!(odd.count(), 1);
        let Shards::Range(all) = range(0, 7, 8) else {
            unreachable!()
        };
        assert!((0..64u64).all(|g| all.has_guild(g << 22)));
        assert_eq!(all.to_string(), "0-7 of 8");
    }
}
