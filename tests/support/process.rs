//! The bot binary (`gomoku-bot run`, or `worker`) as a child process against the fake
//! Discord, with its output collected line by line: for the tests that kill, stop and restart
//! it, and for the benchmarks that run several processes.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::fake_discord::FakeDiscord;

/// The bot binary running as a child process, with its output collected line by line.
pub struct BotProcess {
    child: Child,
    lines: Arc<Mutex<Vec<String>>>,
}

impl BotProcess {
    /// Starts `gomoku-bot run` against `fake`, with its database and configuration in `dir`.
    pub fn start(fake: &FakeDiscord, dir: &Path, extra_config: &str, env: &[(&str, &str)]) -> Self {
        Self::start_command(fake, dir, &["run"], extra_config, env)
    }

    /// Starts `gomoku-bot <command…> --config dir/config.toml` against `fake` (`run`, or
    /// `worker --engine-threads N`), with `extra_config` as in [`BotProcess::start`].
    pub fn start_command(
        fake: &FakeDiscord,
        dir: &Path,
        command_args: &[&str],
        extra_config: &str,
        env: &[(&str, &str)],
    ) -> Self {
        let config = format!(
            "shutdown_grace_seconds = 15\n{extra_config}\n[discord]\ndev_guild_id = {}\n",
            fake.guild_id().get()
        );
        Self::spawn_args(fake, dir, &config, env, command_args)
    }

    /// Starts `gomoku-bot run ARGS --config DIR/config.toml` with `config` as that file.
    pub fn spawn(
        fake: &FakeDiscord,
        dir: &Path,
        config_text: &str,
        env: &[(&str, &str)],
        args: &[&str],
    ) -> Self {
        let mut all = vec!["run"];
        all.extend_from_slice(args);
        Self::spawn_args(fake, dir, config_text, env, &all)
    }

    /// Starts `gomoku-bot ARGS --config DIR/config.toml` with `config` as that file.
    fn spawn_args(
        fake: &FakeDiscord,
        dir: &Path,
        config_text: &str,
        env: &[(&str, &str)],
        args: &[&str],
    ) -> Self {
        let config = dir.join("config.toml");
        std::fs::write(&config, config_text).unwrap();
        let mut command = Command::new(env!("CARGO_BIN_EXE_gomoku-bot"));
        command
            .args(args)
            .arg("--config")
            .arg(&config)
            .env("DISCORD_TOKEN", fake.token())
            .env("DISCORD_API_URL", fake.base_url())
            .env(
                "DATABASE_URL",
                format!("sqlite://{}", dir.join("bot.db").display()),
            )
            .env("LOG_FORMAT", "json")
            .env("RUST_LOG", "info")
            .env_remove("METRICS_LISTEN")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in env {
            command.env(k, v);
        }
        let mut child = command.spawn().expect("start the bot binary");
        let lines = Arc::new(Mutex::new(Vec::new()));
        for stream in [
            Box::new(child.stdout.take().unwrap()) as Box<dyn std::io::Read + Send>,
            Box::new(child.stderr.take().unwrap()),
        ] {
            let lines = Arc::clone(&lines);
            std::thread::spawn(move || {
                for line in BufReader::new(stream).lines().map_while(Result::ok) {
                    lines.lock().unwrap().push(line);
                }
            });
        }
        BotProcess { child, lines }
    }

    /// Every line it wrote so far, stdout and stderr.
    pub fn output(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    /// Waits for a JSON log line whose message contains `text`; returns it parsed.
    pub async fn log_line(&self, text: &str) -> Value {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let found = self
                .output()
                .iter()
                .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                .find(|v| v["message"].as_str().is_some_and(|m| m.contains(text)));
            if let Some(v) = found {
                return v;
            }
            assert!(
                Instant::now() < deadline,
                "no log line with {text:?}; output:\n{}",
                self.output().join("\n")
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// The address of the operations listener, from its log line.
    pub async fn listen_addr(&self) -> SocketAddr {
        let line = self.log_line("serving /metrics").await;
        line["addr"].as_str().expect("addr field").parse().unwrap()
    }

    /// Its process id (for reading its CPU time in /proc).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Kills the process with SIGKILL (no chance to finish anything) and waits for it.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Sends SIGTERM.
    pub fn terminate(&self) {
        let pid = i32::try_from(self.child.id()).unwrap();
        // SAFETY: kill(2) with a pid of our own child and a valid signal number.
        let sent = unsafe { libc::kill(pid, libc::SIGTERM) };
        assert_eq!(sent, 0, "SIGTERM delivered");
    }

    /// Waits for the process to exit, at most `limit`; returns its status code.
    pub async fn exit_code(&mut self, limit: Duration) -> Option<i32> {
        let deadline = Instant::now() + limit;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.code();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!(
                    "the bot did not exit within {limit:?}; output:\n{}",
                    self.output().join("\n")
                );
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }

    /// Expects the process to stop within a minute with status 2 and exactly one `error:`
    /// line (a refusal at start): that line, and the whole output. `case` prefixes failures.
    pub async fn refused_with_one_line(&mut self, case: &str) -> (String, Vec<String>) {
        let status = self.exit_code(Duration::from_secs(60)).await;
        // Let the readers drain the closed pipes.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let output = self.output();
        assert_eq!(status, Some(2), "{case}{output:?}");
        let errors: Vec<&String> = output.iter().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors.len(), 1, "{case}{output:?}");
        (errors[0].clone(), output)
    }
}

impl Drop for BotProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
