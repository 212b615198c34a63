//! The other side of the pbrain protocol: a [`Player`] that spawns an external Gomocup engine
//! (a command) and asks it for moves, so the arena can match our levels against other engines.
//!
//! The engine learns the position with `START` and `BOARD` when a game (re)starts or the
//! position is not the one it last saw plus the opponent's move, and with `TURN` otherwise.
//! The turn limit goes with `INFO timeout_turn` when the board is sent (a new limit sends the
//! board again: some engines, Rapfi among them, misread an `INFO` that arrives between two
//! moves); the match limit is switched off (`timeout_match 0`, `time_left 2147483647`, the
//! protocol's "unlimited"). An engine that
//! does not answer within a grace period, exits, or answers something that is not a legal
//! point gives `None`: the arena counts it as a forfeit, it never stalls.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use super::{format_xy, parse_xy};
use crate::engine::Player;
use crate::rules::{Action, Game};

/// How long past its turn limit an external engine may take before it forfeits.
const GRACE: Duration = Duration::from_secs(5);
/// The least time between an engine's move and our next command: some engines (Rapfi) still
/// count themselves as thinking for a moment after printing their move and drop a command
/// that arrives then; a manager driven by people is never that fast.
const SETTLE: Duration = Duration::from_millis(50);

/// A running external pbrain engine.
pub struct PbrainClient {
    command: String,
    child: Option<Child>,
    stdin: Option<ChildStdin>,
    lines: Option<Receiver<String>>,
    /// The placements (in order) the engine knows, with the colour it plays.
    known: Vec<Action>,
    colour: u8,
    /// The turn limit last sent.
    turn: Duration,
    /// When the engine's last move arrived.
    answered: Option<Instant>,
    /// Lines the engine sent that were not moves (MESSAGE, DEBUG, ERROR…), the last few.
    pub chatter: Vec<String>,
}

/// Why an external engine cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The command is empty.
    #[error("empty pbrain command")]
    Empty,
    /// Spawning or talking to it failed.
    #[error("pbrain engine `{0}`: {1}")]
    Io(String, std::io::Error),
    /// It did not answer as the protocol says.
    #[error("pbrain engine `{0}`: {1}")]
    Protocol(String, String),
}

impl PbrainClient {
    /// A client for `command` (a program and its arguments, split on whitespace). The program
    /// is started at once and must answer `ABOUT`, so a wrong path fails here, not mid-match.
    ///
    /// # Errors
    /// [`ClientError`].
    pub fn spawn(command: &str) -> Result<PbrainClient, ClientError> {
        if command.split_whitespace().next().is_none() {
            return Err(ClientError::Empty);
        }
        let mut client = PbrainClient {
            command: command.to_string(),
            child: None,
            stdin: None,
            lines: None,
            known: Vec::new(),
            colour: 0,
            turn: Duration::ZERO,
            answered: None,
            chatter: Vec::new(),
        };
        client.start_process()?;
        client.send("ABOUT")?;
        client
            .answer(Duration::from_secs(10), |l| l.contains('='))
            .map_err(|e| ClientError::Protocol(command.to_string(), e))?;
        Ok(client)
    }

    fn start_process(&mut self) -> Result<(), ClientError> {
        let mut parts = self.command.split_whitespace();
        let program = parts.next().ok_or(ClientError::Empty)?;
        let mut child = Command::new(program)
            .args(parts)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| ClientError::Io(self.command.clone(), e))?;
        let stdout = child.stdout.take().ok_or_else(|| {
            ClientError::Protocol(self.command.clone(), "no standard output".into())
        })?;
        let (tx, rx) = channel();
        // A reader thread, so a silent engine is noticed by a timeout instead of blocking us.
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.stdin = child.stdin.take();
        self.child = Some(child);
        self.lines = Some(rx);
        Ok(())
    }

    fn send(&mut self, line: &str) -> Result<(), ClientError> {
        if let Some(at) = self.answered.take() {
            let since = at.elapsed();
            if since < SETTLE {
                std::thread::sleep(SETTLE - since);
            }
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| ClientError::Protocol(self.command.clone(), "not running".into()))?;
        writeln!(stdin, "{line}")
            .and_then(|()| stdin.flush())
            .map_err(|e| ClientError::Io(self.command.clone(), e))
    }

    /// The first line within `wait` that `wanted` accepts; other lines are kept as chatter.
    fn answer(&mut self, wait: Duration, wanted: impl Fn(&str) -> bool) -> Result<String, String> {
        let deadline = Instant::now() + wait;
        let rx = self.lines.as_ref().ok_or("not running")?;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    let line = line.trim().to_string();
                    if wanted(&line) {
                        return Ok(line);
                    }
                    if line.starts_with("ERROR") {
                        self.chatter.push(line.clone());
                        return Err(line);
                    }
                    self.chatter.push(line);
                    if self.chatter.len() > 20 {
                        self.chatter.remove(0);
                    }
                }
                Err(RecvTimeoutError::Timeout) => return Err("no answer in time".into()),
                Err(RecvTimeoutError::Disconnected) => return Err("the engine exited".into()),
            }
        }
    }

    /// Gomocup's rule number for a rule set (captures are not Gomocup's; freestyle is sent).
    fn rule_bits(game: &Game) -> u32 {
        let r = game.rules();
        if r.is_renju() {
            4
        } else if r.overline_wins {
            0
        } else {
            1
        }
    }

    /// Sets the engine up for `game` from scratch: `START`, the rule, `BOARD` of every stone.
    fn sync_board(&mut self, game: &Game, budget: Duration) -> Result<String, String> {
        self.send(&format!("START {}", game.size()))
            .map_err(|e| e.to_string())?;
        self.answer(Duration::from_secs(10), |l| l == "OK")?;
        for info in [
            format!("INFO rule {}", Self::rule_bits(game)),
            "INFO timeout_match 0".to_string(),
            "INFO time_left 2147483647".to_string(),
            "INFO max_memory 268435456".to_string(),
            format!("INFO timeout_turn {}", budget.as_millis()),
        ] {
            self.send(&info).map_err(|e| e.to_string())?;
        }
        let me = game.to_move();
        let mut replay = Game::new(*game.rules());
        let mut lines = vec!["BOARD".to_string()];
        for &a in game.record() {
            let mover = replay.to_move();
            if let Action::Place(p) = a {
                let who = if mover == me { 1 } else { 2 };
                lines.push(format!("{},{who}", format_xy(p, game.size())));
            }
            replay.apply(a).map_err(|e| e.to_string())?;
        }
        lines.push("DONE".to_string());
        for l in lines {
            self.send(&l).map_err(|e| e.to_string())?;
        }
        self.colour = me;
        self.turn = budget;
        self.wait_move(game, budget)
    }

    fn wait_move(&mut self, game: &Game, budget: Duration) -> Result<String, String> {
        let size = game.size();
        let line = self.answer(budget + GRACE, |l| parse_xy(l, size).is_ok());
        self.answered = Some(Instant::now());
        line
    }

    fn ask(&mut self, game: &Game, budget: Duration) -> Result<Action, String> {
        let record = game.record();
        let places = record.iter().all(|a| matches!(a, Action::Place(_)));
        if !places {
            return Err("only games of placed stones can be played over pbrain".into());
        }
        let follows = self.colour == game.to_move()
            && self.turn == budget
            && record.len() == self.known.len() + 1
            && record[..self.known.len()] == self.known[..];
        let line = if follows {
            let Some(Action::Place(p)) = record.last() else {
                return Err("no last move".into());
            };
            self.send(&format!("TURN {}", format_xy(*p, game.size())))
                .map_err(|e| e.to_string())?;
            self.wait_move(game, budget)?
        } else {
            self.sync_board(game, budget)?
        };
        let p = parse_xy(&line, game.size())?;
        let action = Action::Place(p);
        if !game.is_legal(action) {
            return Err(format!("illegal move {line}"));
        }
        self.known = record.to_vec();
        self.known.push(action);
        Ok(action)
    }
}

impl Player for PbrainClient {
    fn choose(&mut self, game: &Game, budget: Duration) -> Option<Action> {
        if game.is_over() {
            return None;
        }
        match self.ask(game, budget) {
            Ok(a) => Some(a),
            Err(e) => {
                // The arena's only way to say why an external engine forfeited.
                eprintln!(
                    "pbrain client `{}`: {e}; its last lines: {:?}",
                    self.command, self.chatter
                );
                self.chatter.push(format!("client: {e}"));
                // A confused engine starts over from the board next time.
                self.known.clear();
                None
            }
        }
    }

    fn reset(&mut self) {
        self.known.clear();
    }
}

impl Drop for PbrainClient {
    fn drop(&mut self) {
        let _ = self.send("END");
        self.stdin = None;
        if let Some(mut child) = self.child.take() {
            // Give it a moment to leave on its own, then make sure it does.
            let until = Instant::now() + Duration::from_millis(500);
            while Instant::now() < until {
                if let Ok(Some(_)) = child.try_wait() {
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
