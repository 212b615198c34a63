//! CPU time of processes and the machine's load, read from /proc (Linux; zero or "unknown"
//! elsewhere), for the end-to-end benchmarks that split a run's CPU between the bot, the fake
//! Discord and the PostgreSQL server.
//!
//! Include with `#[path = "e2e/procs.rs"] mod procs;`.

use std::time::Duration;

/// USER_HZ is 100 on every Linux this runs on.
const TICK: Duration = Duration::from_millis(10);

/// The command name and the CPU time (user + system) of a `/proc/…/stat` line.
pub(crate) fn parse_stat(stat: &str) -> Option<(String, Duration)> {
    let (open, close) = (stat.find('(')?, stat.rfind(')')?);
    let name = stat.get(open + 1..close)?.to_owned();
    let fields: Vec<&str> = stat.get(close + 2..)?.split(' ').collect();
    // utime and stime are fields 14 and 15 of stat; 3 is the first after the name.
    let ticks: u64 = [11, 12]
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    Some((name, TICK * u32::try_from(ticks).unwrap_or(u32::MAX)))
}

/// The CPU time a process (all its threads) has used so far; zero when it cannot be read.
pub(crate) fn process_cpu(pid: u32) -> Duration {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| parse_stat(&s))
        .map_or(Duration::ZERO, |(_, t)| t)
}

/// CPU time used so far by the PostgreSQL server's processes (every process named
/// `postgres`).
pub(crate) fn postgres_cpu() -> Duration {
    let Ok(procs) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    procs
        .flatten()
        .filter_map(|entry| std::fs::read_to_string(entry.path().join("stat")).ok())
        .filter_map(|stat| parse_stat(&stat))
        .filter(|(name, _)| name == "postgres")
        .map(|(_, t)| t)
        .sum()
}

/// The load averages over 1, 5 and 15 minutes.
pub(crate) fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|l| l.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".to_owned())
}
