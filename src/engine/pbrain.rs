//! The Gomocup "pbrain" text protocol, so the engine plays in Gomocup managers (piskvork,
//! gomocup's `pbrain` tools) and against Gomocup engines.
//!
//! One command per line on the input, answers on the output (see README.md, "pbrain"). The
//! loop never panics and never stops on bad input: a malformed or refused line is answered
//! with `ERROR <why>`, an unknown command with `UNKNOWN <command>`; only `END` (or the end of
//! the input) stops it.
//!
//! # Coordinates
//! Gomocup's `x,y` are 0-based, `x` the column from the left and `y` the row from the TOP.
//! The rules core counts rows from 1 at the bottom (`Point::row()` 0 at the bottom), so
//! `x,y` is the point with column `x` and row `size - 1 - y`: `0,0` is `A19` on 19x19 and
//! `7,7` is `H8` (the centre) on 15x15.
//!
//! # Rules
//! `INFO rule` sets Gomocup's rule bits: 0 freestyle, 1 exactly five, 4 Renju (the `renju`
//! preset without an opening rule, on `START`'s board; the bit 1 that may come with it is
//! implied).
//! Continuous games (2) and Caro (8) are refused. A Renju rule set on the command line is
//! played without its tournament opening too: pbrain cannot express swap decisions.
//!
//! # Captures
//! With a rule set that captures (pente, keryo), `TURN` applies the opponent's stone through
//! the rules core, captures included, and `BOARD` lists the whole game in the order it was
//! played, stones captured later included: it is replayed move by move from an empty board.

use std::io::{BufRead, Write};
use std::time::Duration;

use super::{Level, Player, player_for};
use crate::rules::{Action, Game, Opening, Point, Preset, RuleSet, RulesError};

/// What a pbrain session is set up with (from the command line).
#[derive(Clone, Debug)]
pub struct Setup {
    /// The preset.
    pub preset: Preset,
    /// Options as `key=value` (`START n` replaces `size`, `INFO rule` replaces `overline`).
    pub options: Vec<String>,
    /// The engine's level.
    pub level: Level,
}

/// Why a setup cannot be played over pbrain.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The rule set itself is refused.
    #[error(transparent)]
    Rules(#[from] RulesError),
    /// pbrain is a two-player protocol.
    #[error("the pbrain protocol is for two players (players={0} given)")]
    Players(u8),
    /// pbrain has no way to express colour choices.
    #[error("the pbrain protocol has no colour choices: opening={0} cannot be played")]
    Opening(Opening),
}

/// The rule chosen with `INFO rule`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GomocupRule {
    /// 0: five or more wins.
    Freestyle,
    /// 1: exactly five wins.
    ExactFive,
    /// 4 (with or without 1): Renju.
    Renju,
}

impl GomocupRule {
    /// The rule of `INFO rule` bits, or why they are refused.
    fn of_bits(bits: u32) -> Result<GomocupRule, String> {
        match bits {
            0 => Ok(GomocupRule::Freestyle),
            1 => Ok(GomocupRule::ExactFive),
            4 | 5 => Ok(GomocupRule::Renju),
            _ => Err(format!(
                "ERROR INFO rule {bits}: only 0 (freestyle), 1 (exactly five) and 4 (Renju) \
                 are supported"
            )),
        }
    }
}

impl Setup {
    /// The rule set with the session's overrides.
    fn rules(&self, size: Option<u8>, rule: Option<GomocupRule>) -> Result<RuleSet, SetupError> {
        let renju =
            rule == Some(GomocupRule::Renju) || (rule.is_none() && self.preset == Preset::Renju);
        if renju {
            // Renju's own options are fixed; the board side comes from START.
            let mut options = vec!["opening=none".to_string()];
            if let Some(n) = size {
                options.push(format!("size={n}"));
            }
            return Ok(RuleSet::with_options(Preset::Renju, &options)?);
        }
        let overline_wins = match rule {
            Some(GomocupRule::Freestyle) => Some(true),
            Some(GomocupRule::ExactFive) => Some(false),
            _ => None,
        };
        let mut options: Vec<String> = self.options.clone();
        let mut replace = |key: &str, value: String| {
            options.retain(|o| {
                let k = o.split('=').next().unwrap_or("").trim().replace('-', "_");
                !k.eq_ignore_ascii_case(key)
            });
            options.push(format!("{key}={value}"));
        };
        if let Some(n) = size {
            replace("size", n.to_string());
        }
        if let Some(w) = overline_wins {
            replace("overline", if w { "wins" } else { "no" }.to_string());
        }
        let rules = RuleSet::with_options(self.preset, &options)?;
        if rules.players != 2 {
            return Err(SetupError::Players(rules.players));
        }
        if matches!(rules.opening, Opening::Swap | Opening::Swap2) {
            return Err(SetupError::Opening(rules.opening));
        }
        Ok(rules)
    }

    /// Checks that the setup can be played (before any input is read).
    ///
    /// # Errors
    /// [`SetupError`].
    pub fn check(&self) -> Result<RuleSet, SetupError> {
        self.rules(None, None)
    }
}

/// Limits the manager sent with `INFO`, in milliseconds.
#[derive(Clone, Copy, Debug, Default)]
struct Limits {
    timeout_turn: Option<u64>,
    timeout_match: Option<u64>,
    time_left: Option<u64>,
}

/// One pbrain session: the game, the player, and the manager's settings.
pub struct Session {
    setup: Setup,
    player: Box<dyn Player>,
    game: Option<Game>,
    limits: Limits,
    /// From `INFO rule`: freestyle, exactly five or Renju.
    rule: Option<GomocupRule>,
    /// The board side of the last `START`.
    size: Option<u8>,
    /// `x, y, who` of a `BOARD` command being read, until `DONE`.
    board: Option<Vec<(u8, u8, u8)>>,
}

/// What the loop does after a line.
enum Flow {
    Continue,
    Stop,
}

impl Session {
    /// A session for a checked setup.
    ///
    /// # Errors
    /// [`SetupError`] when the setup cannot be played over pbrain.
    pub fn new(setup: Setup) -> Result<Session, SetupError> {
        let rules = setup.check()?;
        Ok(Session {
            player: player_for(&rules, setup.level),
            setup,
            game: None,
            limits: Limits::default(),
            rule: None,
            size: None,
            board: None,
        })
    }

    /// Runs the protocol until `END` or the end of the input.
    ///
    /// # Errors
    /// Only failures to read the input or write the output.
    pub fn run<R: BufRead, W: Write>(&mut self, input: R, mut output: W) -> std::io::Result<()> {
        for line in input.lines() {
            let line = line?;
            let mut answers = Vec::new();
            let flow = self.handle(&line, &mut answers);
            for a in answers {
                writeln!(output, "{a}")?;
            }
            output.flush()?;
            if let Flow::Stop = flow {
                break;
            }
        }
        Ok(())
    }

    fn handle(&mut self, line: &str, out: &mut Vec<String>) -> Flow {
        let line = line.trim();
        if line.is_empty() {
            return Flow::Continue;
        }
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let command = word.to_ascii_uppercase();
        if let Some(stones) = self.board.as_mut() {
            if command == "DONE" {
                let stones = self.board.take().unwrap_or_default();
                self.finish_board(&stones, out);
            } else {
                match parse_board_line(line) {
                    Ok(s) => stones.push(s),
                    Err(e) => {
                        self.board = None;
                        out.push(format!("ERROR {e}; the BOARD command is dropped"));
                    }
                }
            }
            return Flow::Continue;
        }
        match command.as_str() {
            "START" => self.start(rest, out),
            "RESTART" => match self.size {
                Some(n) => self.start(&n.to_string(), out),
                None => out.push("ERROR RESTART before START".into()),
            },
            "BEGIN" => match self.game.as_ref() {
                None => out.push("ERROR BEGIN before START".into()),
                Some(g) if g.record().is_empty() => self.reply_move(out),
                Some(_) => out.push("ERROR BEGIN in a game already started".into()),
            },
            "TURN" => self.turn(rest, out),
            "BOARD" => {
                if self.game.is_none() {
                    out.push("ERROR BOARD before START".into());
                } else {
                    self.board = Some(Vec::new());
                }
            }
            "INFO" => self.info(rest, out),
            "TAKEBACK" => self.takeback(rest, out),
            "END" => return Flow::Stop,
            "ABOUT" => out.push(format!(
                "name=\"gomoku-bot\", version=\"{}\", author=\"gomoku-bot contributors\", \
                 country=\"Finland\"",
                env!("CARGO_PKG_VERSION")
            )),
            _ => out.push(format!("UNKNOWN command {word}")),
        }
        Flow::Continue
    }

    fn start(&mut self, rest: &str, out: &mut Vec<String>) {
        let Ok(n) = rest.parse::<u8>() else {
            out.push(format!("ERROR `{rest}` is not a board size"));
            return;
        };
        match self.setup.rules(Some(n), self.rule) {
            Ok(rules) => {
                self.size = Some(n);
                self.player = player_for(&rules, self.setup.level);
                self.player.reset();
                self.game = Some(Game::new(rules));
                out.push("OK".into());
            }
            Err(e) => out.push(format!("ERROR unsupported size {n}: {e}")),
        }
    }

    /// The game and the point `rest` names (`x,y`), for a command about one stone (`TURN`,
    /// `TAKEBACK`); `None` once the error is answered (no game started yet, or no point).
    fn game_and_point(
        &mut self,
        command: &str,
        rest: &str,
        out: &mut Vec<String>,
    ) -> Option<(&mut Game, Point)> {
        let Some(game) = self.game.as_mut() else {
            out.push(format!("ERROR {command} before START"));
            return None;
        };
        match parse_xy(rest, game.size()) {
            Ok(point) => Some((game, point)),
            Err(e) => {
                out.push(format!("ERROR {e}"));
                None
            }
        }
    }

    fn turn(&mut self, rest: &str, out: &mut Vec<String>) {
        let Some((game, point)) = self.game_and_point("TURN", rest, out) else {
            return;
        };
        if let Err(e) = game.apply(Action::Place(point)) {
            out.push(format!("ERROR {rest}: {e}"));
            return;
        }
        self.reply_move(out);
    }

    fn finish_board(&mut self, stones: &[(u8, u8, u8)], out: &mut Vec<String>) {
        let Some(current) = self.game.as_ref() else {
            out.push("ERROR BOARD before START".into());
            return;
        };
        let rules = *current.rules();
        // After the listed moves it is our turn: the stone before ours was the opponent's.
        let own_colour = if stones.len().is_multiple_of(2) { 1 } else { 2 };
        let mut game = Game::new(rules);
        for (i, &(x, y, who)) in stones.iter().enumerate() {
            let p = match parse_xy(&format!("{x},{y}"), rules.size) {
                Ok(p) => p,
                Err(e) => {
                    out.push(format!("ERROR BOARD line {}: {e}", i + 1));
                    return;
                }
            };
            let own = game.to_move() == own_colour;
            match who {
                1 | 2 if (who == 1) != own => {
                    out.push(format!(
                        "ERROR BOARD line {}: stones must alternate in the order played, \
                         ending with the opponent's",
                        i + 1
                    ));
                    return;
                }
                1 | 2 => {}
                _ => {
                    out.push(format!(
                        "ERROR BOARD line {}: field type {who} (continuous games) is not supported",
                        i + 1
                    ));
                    return;
                }
            }
            if let Err(e) = game.apply(Action::Place(p)) {
                out.push(format!("ERROR BOARD line {}: {e}", i + 1));
                return;
            }
        }
        self.game = Some(game);
        self.reply_move(out);
    }

    fn info(&mut self, rest: &str, out: &mut Vec<String>) {
        let (key, value) = match rest.split_once(char::is_whitespace) {
            Some((k, v)) => (k.to_ascii_lowercase(), v.trim()),
            None => (rest.to_ascii_lowercase(), ""),
        };
        let number = || value.parse::<u64>();
        match key.as_str() {
            "timeout_turn" | "timeout_match" | "time_left" => match number() {
                Ok(ms) => match key.as_str() {
                    "timeout_turn" => self.limits.timeout_turn = Some(ms),
                    "timeout_match" => self.limits.timeout_match = Some(ms),
                    _ => self.limits.time_left = Some(ms),
                },
                Err(_) => out.push(format!("ERROR INFO {key}: `{value}` is not a number")),
            },
            "rule" => match value.parse::<u32>().map(GomocupRule::of_bits) {
                Ok(Ok(rule)) => {
                    self.rule = Some(rule);
                    // Takes effect at once between games, else at the next START.
                    if let (Some(g), Some(n)) = (self.game.as_ref(), self.size)
                        && g.record().is_empty()
                    {
                        match self.setup.rules(Some(n), self.rule) {
                            Ok(rules) => {
                                self.player = player_for(&rules, self.setup.level);
                                self.player.reset();
                                self.game = Some(Game::new(rules));
                            }
                            Err(e) => out.push(format!("ERROR INFO rule on a {n}x{n} board: {e}")),
                        }
                    }
                }
                Ok(Err(e)) => out.push(e),
                Err(_) => out.push(format!("ERROR INFO rule: `{value}` is not a number")),
            },
            // Accepted and not needed: memory, game type, evaluation requests, a folder.
            _ => {}
        }
    }

    fn takeback(&mut self, rest: &str, out: &mut Vec<String>) {
        let Some((game, point)) = self.game_and_point("TAKEBACK", rest, out) else {
            return;
        };
        if game.record().last() != Some(&Action::Place(point)) {
            out.push(format!("ERROR TAKEBACK {rest}: not the last move"));
            return;
        }
        game.undo();
        out.push("OK".into());
    }

    /// The time for this move: the level's budget, capped by the turn limit (0: as fast as
    /// possible) and by an even share of the match time left over the moves still to come
    /// (unless `timeout_match` is 0, which means no match limit).
    fn budget(&self, game: &Game) -> Duration {
        let mut ms = self.setup.level.budget().as_millis() as u64;
        match self.limits.timeout_turn {
            // The protocol's "play as fast as possible".
            Some(0) => ms = 0,
            // Leave a margin for the answer to reach the manager.
            Some(t) => ms = ms.min(t.saturating_sub(t / 10 + 20).max(1)),
            None => {}
        }
        if let Some(left) = self.limits.time_left
            && self.limits.timeout_match != Some(0)
        {
            let moves_to_come = (game.empty_count() as u64 / 4).max(8);
            ms = ms.min(left / moves_to_come);
        }
        Duration::from_millis(ms)
    }

    fn reply_move(&mut self, out: &mut Vec<String>) {
        let budget = match self.game.as_ref() {
            None => {
                out.push("ERROR no game".into());
                return;
            }
            Some(g) if g.is_over() => {
                out.push("ERROR the game is over".into());
                return;
            }
            Some(g) => self.budget(g),
        };
        let Some(game) = self.game.as_mut() else {
            return;
        };
        match self.player.choose(game, budget) {
            Some(Action::Place(p)) if game.apply(Action::Place(p)).is_ok() => {
                out.push(format_xy(p, game.size()));
            }
            Some(other) => out.push(format!(
                "ERROR the engine chose {other}, which is not a stone"
            )),
            None => out.push("ERROR no move".into()),
        }
    }
}

/// `x,y` as the rules core's point (see the module documentation).
///
/// # Errors
/// A reason when the text is not two numbers on the board.
pub fn parse_xy(text: &str, size: u8) -> Result<Point, String> {
    let mut parts = text.split(',').map(str::trim);
    let (Some(x), Some(y), None) = (parts.next(), parts.next(), parts.next()) else {
        return Err(format!("`{text}` is not x,y"));
    };
    let (Ok(x), Ok(y)) = (x.parse::<u8>(), y.parse::<u8>()) else {
        return Err(format!("`{text}` is not x,y"));
    };
    if x >= size || y >= size {
        return Err(format!("{x},{y} is outside the {size}x{size} board"));
    }
    Point::new(x, size - 1 - y, size).map_err(|e| e.to_string())
}

/// The point as Gomocup's `x,y`.
pub fn format_xy(p: Point, size: u8) -> String {
    format!("{},{}", p.col(), size - 1 - p.row())
}

/// One `x,y,who` line of `BOARD` (checked against the board when `DONE` arrives).
fn parse_board_line(line: &str) -> Result<(u8, u8, u8), String> {
    let bad = || format!("`{line}` is not x,y,who");
    let parts: Vec<&str> = line.split(',').map(str::trim).collect();
    let [x, y, who] = parts.as_slice() else {
        return Err(bad());
    };
    match (x.parse(), y.parse(), who.parse()) {
        (Ok(x), Ok(y), Ok(who)) => Ok((x, y, who)),
        _ => Err(bad()),
    }
}

pub mod client;

#[cfg(test)]
mod tests;
