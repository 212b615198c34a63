//! The top-level `docker-compose.yml` matches the code: every `command:` in it is run through
//! the real binary, which must accept its options (the argument parser and the checks made
//! before the database is opened) and stop only at the database, unreachable here. So the
//! example in the README cannot drift from the options the code has.

use std::process::Command;

/// The `command:` lines of the compose file, each parsed as its list of arguments.
fn commands(compose: &str) -> Vec<(String, Vec<String>)> {
    let mut service = String::new();
    let mut found = Vec::new();
    for line in compose.lines() {
        // A service is a key indented by two spaces under `services:`.
        if let Some(name) = line.strip_prefix("  ")
            && !name.starts_with(' ')
            && !name.starts_with('#')
            && name.trim_end().ends_with(':')
        {
            service = name.trim_end().trim_end_matches(':').to_string();
        }
        let Some(rest) = line.trim_start().strip_prefix("command:") else {
            continue;
        };
        let args: Vec<String> = serde_json::from_str(rest.trim()).unwrap_or_else(|e| {
            panic!(
                "docker-compose.yml: the command of {service} must be one bracketed line of \
                 quoted arguments (`command: [\"run\", ...]`): {e}"
            )
        });
        found.push((service.clone(), args));
    }
    found
}

#[test]
fn every_command_of_docker_compose_is_accepted_by_the_binary() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/docker-compose.yml");
    let compose = std::fs::read_to_string(path).expect("docker-compose.yml at the top level");
    let commands = commands(&compose);
    let names: Vec<&str> = commands.iter().map(|(s, _)| s.as_str()).collect();
    assert!(
        commands.iter().filter(|(_, a)| a[0] == "run").count() >= 2,
        "two bot processes: {names:?}"
    );
    assert!(
        commands.iter().any(|(_, a)| a[0] == "worker"),
        "one worker: {names:?}"
    );
    assert!(
        compose.contains("DATABASE_URL: postgres://"),
        "the processes share one PostgreSQL database"
    );
    let dir = tempfile::tempdir().unwrap();
    for (service, args) in &commands {
        // Nothing listens on port 1: the command gets as far as opening the database.
        let out = Command::new(env!("CARGO_BIN_EXE_gomoku-bot"))
            .args(args)
            .current_dir(dir.path())
            .env("DISCORD_TOKEN", "compose-check")
            .env("DATABASE_URL", "postgres://gomoku@127.0.0.1:1/gomoku")
            .env("DISCORD_API_URL", "http://127.0.0.1:1")
            .env_remove("METRICS_LISTEN")
            .output()
            .expect("run the binary");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{service}: {args:?}: {stderr}");
        assert!(
            stderr.contains("error: the database postgres://")
                && stderr.contains("@127.0.0.1:1/gomoku cannot be reached"),
            "{service}: {args:?} must be accepted and stop only at the database: {stderr}"
        );
    }
}

#[test]
fn the_command_reader_sees_every_service() {
    let compose = "services:\n  a:\n    command: [\"run\"]\n  # note\n  b:\n    image: x\n    command: [\"worker\", \"--engine-threads\", \"2\"]\n";
    assert_eq!(
        commands(compose),
        [
            ("a".to_string(), vec!["run".to_string()]),
            (
                "b".to_string(),
                vec![
                    "worker".to_string(),
                    "--engine-threads".to_string(),
                    "2".to_string()
                ]
            ),
        ]
    );
}
