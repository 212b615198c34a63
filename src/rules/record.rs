//! Game records: pente.org's PGN-like text and SGF FF[4], written and read back.
//!
//! PGN follows pente.org: the first player is called White there (pente.org lets White move
//! first), moves are numbered per round (`1. K10 L9 2. ...`), and `[Result "1-0"]` means
//! the first player won. Two headers of our own, `[Rules]` (the exact rule set) and
//! `[Winners]` (for games of 3-4 players), make the record complete.
//!
//! SGF uses `GM[4]` (five in a row) with the rule set in `RU[]`; colour 1 is `B`, colour 2
//! `W`, colours 3 and 4 use the private properties `RD` and `BU`, and swap choices `SW`.

use std::fmt::Write as _;

use thiserror::Error;

use super::game::{Action, Game, PlayError, Status};
use super::point::{Point, PointError};
use super::ruleset::{Opening, Preset, RuleSet, RulesError};

/// The outcome a record states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordResult {
    /// Not finished.
    Ongoing,
    /// Won by these colours (one, or several when shared).
    Won(Vec<u8>),
    /// Drawn.
    Draw,
}

/// A game as written in a record: rules, actions, player names and a result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The rule set.
    pub rules: RuleSet,
    /// Every action in order.
    pub actions: Vec<Action>,
    /// Player names by seat (seat 1 first); may be shorter than the number of players.
    pub players: Vec<String>,
    /// Free text naming the event (a server, a tournament).
    pub event: Option<String>,
    /// The date, `YYYY.MM.DD`.
    pub date: Option<String>,
    /// The result (a resignation makes it differ from what the board says).
    pub result: RecordResult,
}

/// Why a record could not be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RecordError {
    /// The text does not have the expected structure.
    #[error("not a valid {format} record: {why}")]
    Syntax {
        /// PGN or SGF.
        format: &'static str,
        /// What was wrong.
        why: String,
    },
    /// The rule set in the record is not valid.
    #[error("the record's rules are not valid: {0}")]
    Rules(#[from] RulesError),
    /// A move token is not a point or choice.
    #[error("move {index} `{token}` cannot be read: {error}")]
    Token {
        /// Index of the action (from 0).
        index: usize,
        /// The token.
        token: String,
        /// Why.
        error: PointError,
    },
    /// A move is illegal in the game so far.
    #[error("move {index} ({action}) is illegal: {error}")]
    Illegal {
        /// Index of the action (from 0).
        index: usize,
        /// The action.
        action: Action,
        /// Why.
        error: PlayError,
    },
}

impl GameRecord {
    /// The record of a game, with the result the board shows.
    pub fn from_game(game: &Game, players: &[String]) -> GameRecord {
        let result = match game.status() {
            Status::Ongoing => RecordResult::Ongoing,
            Status::Draw => RecordResult::Draw,
            Status::Won { winners, .. } => RecordResult::Won(winners.iter().collect()),
        };
        GameRecord {
            rules: *game.rules(),
            actions: game.record().to_vec(),
            players: players.to_vec(),
            event: None,
            date: None,
            result,
        }
    }

    /// Replays the actions.
    ///
    /// # Errors
    /// [`RecordError::Illegal`] for the first action the rules refuse.
    pub fn replay(&self) -> Result<Game, RecordError> {
        Game::from_record(self.rules, &self.actions).map_err(|(index, error)| {
            RecordError::Illegal {
                index,
                action: self.actions[index],
                error,
            }
        })
    }

    fn pgn_game_name(&self) -> &'static str {
        let r = &self.rules;
        match r.preset {
            Preset::Gomoku | Preset::GomokuStandard => "Gomoku",
            Preset::Pente if r.opening == Opening::Swap2 => "Swap2-Pente",
            Preset::Pente if r.extra_time_capture => "Boat-Pente",
            Preset::Pente if r.self_capture == super::ruleset::SelfCapture::Capture => "Poof-Pente",
            Preset::Pente => "Pente",
            Preset::Keryo if r.opening == Opening::Swap2 => "Swap2-Keryo",
            Preset::Keryo => "Keryo-Pente",
            Preset::Renju => "Renju",
        }
    }

    /// Writes pente.org's PGN-like text.
    pub fn to_pgn(&self) -> String {
        let mut s = String::new();
        let header = |s: &mut String, k: &str, v: &str| {
            let _ = writeln!(s, "[{k} \"{}\"]", pgn_escape(v));
        };
        header(&mut s, "Event", self.event.as_deref().unwrap_or("-"));
        header(&mut s, "Site", "Discord (gomoku-bot)");
        header(&mut s, "Date", self.date.as_deref().unwrap_or("????.??.??"));
        header(&mut s, "Round", "-");
        let seat_names = ["White", "Black", "Player3", "Player4"];
        for (k, name) in seat_names
            .iter()
            .take(usize::from(self.rules.players))
            .enumerate()
        {
            header(
                &mut s,
                name,
                self.players.get(k).map_or("?", String::as_str),
            );
        }
        header(&mut s, "Game", self.pgn_game_name());
        header(&mut s, "Rules", &self.rules.to_spec());
        let result = self.pgn_result();
        if let RecordResult::Won(w) = &self.result {
            let list: Vec<String> = w.iter().map(u8::to_string).collect();
            header(&mut s, "Winners", &list.join(","));
        }
        header(&mut s, "Result", result);
        s.push('\n');
        let per_round = usize::from(self.rules.players);
        let mut line = String::new();
        for (k, a) in self.actions.iter().enumerate() {
            if k % per_round == 0 {
                let _ = write!(line, "{}. ", k / per_round + 1);
            }
            let _ = write!(line, "{a} ");
            if line.len() > 70 {
                s.push_str(line.trim_end());
                s.push('\n');
                line.clear();
            }
        }
        line.push_str(result);
        s.push_str(&line);
        s.push('\n');
        s
    }

    fn pgn_result(&self) -> &'static str {
        match &self.result {
            RecordResult::Ongoing => "*",
            RecordResult::Draw => "1/2-1/2",
            RecordResult::Won(w) if self.rules.players == 2 && w.as_slice() == [1] => "1-0",
            RecordResult::Won(w) if self.rules.players == 2 && w.as_slice() == [2] => "0-1",
            RecordResult::Won(_) if self.rules.players == 2 => "1/2-1/2",
            RecordResult::Won(_) => "*",
        }
    }

    /// Reads pente.org's PGN-like text (as written by [`GameRecord::to_pgn`] or by pente.org).
    ///
    /// # Errors
    /// [`RecordError`] for bad structure, unknown rules, unreadable or illegal moves.
    pub fn from_pgn(text: &str) -> Result<GameRecord, RecordError> {
        let syntax = |why: &str| RecordError::Syntax {
            format: "PGN",
            why: why.to_string(),
        };
        let mut headers: Vec<(String, String)> = Vec::new();
        let mut body = String::new();
        for line in text.lines() {
            let t = line.trim();
            if let Some(inner) = t.strip_prefix('[') {
                let inner = inner
                    .strip_suffix(']')
                    .ok_or_else(|| syntax("a header line lacks its closing ]"))?;
                let (key, rest) = inner
                    .split_once(' ')
                    .ok_or_else(|| syntax("a header has no value"))?;
                let value = rest
                    .trim()
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .ok_or_else(|| syntax("a header value is not quoted"))?;
                headers.push((key.to_string(), pgn_unescape(value)));
            } else {
                body.push_str(t);
                body.push(' ');
            }
        }
        let get = |k: &str| {
            headers
                .iter()
                .find(|(hk, _)| hk.eq_ignore_ascii_case(k))
                .map(|(_, v)| v.as_str())
        };
        let rules = match (get("Rules"), get("Game")) {
            (Some(spec), _) => RuleSet::from_spec(spec)?,
            (None, Some(game)) => rules_for_pente_org_game(game)?,
            (None, None) => return Err(syntax("neither a [Rules] nor a [Game] header")),
        };
        let mut players = Vec::new();
        for name in ["White", "Black", "Player3", "Player4"]
            .iter()
            .take(usize::from(rules.players))
        {
            players.push(get(name).unwrap_or("?").to_string());
        }
        while players.last().is_some_and(|p| p == "?") {
            players.pop();
        }
        let mut actions = Vec::new();
        let mut result_token = None;
        let body = strip_braced_comments(&body);
        for token in body.split_whitespace() {
            if let Some(num) = token.strip_suffix('.')
                && num.chars().all(|c| c.is_ascii_digit())
                && !num.is_empty()
            {
                continue;
            }
            if ["1-0", "0-1", "1/2-1/2", "*"].contains(&token) {
                result_token = Some(token);
                continue;
            }
            let index = actions.len();
            let action = Action::parse(token, rules.size).map_err(|error| RecordError::Token {
                index,
                token: token.to_string(),
                error,
            })?;
            actions.push(action);
        }
        let result = match (get("Winners"), result_token.or(get("Result"))) {
            (Some(w), _) => RecordResult::Won(
                winner_colours(w, rules.players)
                    .ok_or_else(|| syntax("[Winners] is not a list of colours"))?,
            ),
            (None, Some("1-0")) => RecordResult::Won(vec![1]),
            (None, Some("0-1")) => RecordResult::Won(vec![2]),
            (None, Some("1/2-1/2")) => RecordResult::Draw,
            _ => RecordResult::Ongoing,
        };
        let record = GameRecord {
            rules,
            actions,
            players,
            event: get("Event").filter(|e| *e != "-").map(str::to_string),
            date: get("Date")
                .filter(|d| *d != "????.??.??")
                .map(str::to_string),
            result,
        };
        record.replay()?;
        Ok(record)
    }

    /// Writes SGF FF[4].
    pub fn to_sgf(&self) -> String {
        let size = self.rules.size;
        let mut s = String::from("(;FF[4]GM[4]CA[UTF-8]AP[gomoku-bot:");
        s.push_str(env!("CARGO_PKG_VERSION"));
        let _ = write!(s, "]SZ[{size}]RU[{}]", sgf_escape(&self.rules.to_spec()));
        // SGF names players by colour; after a swap choice, seat 1 may play colour 2.
        let seating = self.replay().ok();
        for (k, prop) in SGF_NAME_PROPS
            .iter()
            .enumerate()
            .take(usize::from(self.rules.players))
        {
            let colour = k as u8 + 1;
            let seat = seating
                .as_ref()
                .map_or(colour, |g| g.seat_of_colour(colour));
            if let Some(name) = self.players.get(usize::from(seat - 1)) {
                let _ = write!(s, "{prop}[{}]", sgf_escape(name));
            }
        }
        if let Some(e) = &self.event {
            let _ = write!(s, "EV[{}]", sgf_escape(e));
        }
        if let Some(d) = &self.date {
            let _ = write!(s, "DT[{}]", sgf_escape(&d.replace('.', "-")));
        }
        match &self.result {
            RecordResult::Ongoing => {}
            RecordResult::Draw => s.push_str("RE[0]"),
            RecordResult::Won(w) if self.rules.players == 2 && w.len() == 1 => {
                let _ = write!(s, "RE[{}+]", if w[0] == 1 { 'B' } else { 'W' });
            }
            RecordResult::Won(w) => {
                let list: Vec<String> = w.iter().map(u8::to_string).collect();
                let _ = write!(s, "RE[?]WN[{}]", list.join(","));
            }
        }
        let _ = write!(s, "C[{}]", sgf_escape(&self.rules.describe()));
        let mut colour = 1u8;
        let mut retired = crate::rules::Colours::EMPTY;
        let next = |mut c: u8, retired: crate::rules::Colours| {
            for _ in 0..self.rules.players {
                c = self.rules.next_colour(c);
                if !retired.contains(c) {
                    break;
                }
            }
            c
        };
        for a in &self.actions {
            match a {
                Action::Place(p) => {
                    let prop = ["B", "W", "RD", "BU"][usize::from(colour - 1)];
                    let _ = write!(s, "\n;{prop}[{}]", p.sgf(size));
                    colour = next(colour, retired);
                }
                Action::Retire(c) => {
                    retired.insert(*c);
                    colour = next(colour, retired);
                    let _ = write!(s, "\n;SW[{a}]");
                }
                // The chosen fifth move is a black stone for every viewer; SW says it was chosen.
                Action::Choose(p) => {
                    let _ = write!(s, "\n;B[{}]SW[{a}]", p.sgf(size));
                    colour = next(colour, retired);
                }
                // Offered fifth moves are labelled 1, 2, ... for viewers that show labels.
                Action::Offer(c) => {
                    let _ = write!(s, "\n;SW[{a}]LB");
                    for (k, p) in c.as_slice().iter().enumerate() {
                        let _ = write!(s, "[{}:{}]", p.sgf(size), k + 1);
                    }
                }
                other => {
                    let _ = write!(s, "\n;SW[{other}]");
                }
            }
        }
        s.push_str(")\n");
        s
    }

    /// Reads SGF (the main line of the first game tree).
    ///
    /// # Errors
    /// [`RecordError`] for bad structure, a game other than GM[4], unknown rules, bad moves.
    pub fn from_sgf(text: &str) -> Result<GameRecord, RecordError> {
        let syntax = |why: &str| RecordError::Syntax {
            format: "SGF",
            why: why.to_string(),
        };
        let nodes = parse_sgf_main_line(text).map_err(|w| syntax(&w))?;
        let root = nodes.first().ok_or_else(|| syntax("no node"))?;
        let get = |k: &str| root.iter().find(|(pk, _)| pk == k).map(|(_, v)| v.as_str());
        if let Some(gm) = get("GM")
            && gm.trim() != "4"
        {
            return Err(syntax("GM is not 4 (five in a row)"));
        }
        let size: u8 = match get("SZ") {
            Some(sz) => sz
                .trim()
                .parse()
                .map_err(|_| syntax("SZ is not a number"))?,
            None => 19,
        };
        let rules = match get("RU") {
            Some(spec) => RuleSet::from_spec(spec).or_else(|_| rules_for_pente_org_game(spec))?,
            None => RuleSet::with_options(Preset::Gomoku, &[format!("size={size}")])?,
        };
        if rules.size != size {
            return Err(syntax("SZ differs from the size in RU"));
        }
        let by_colour: Vec<Option<String>> = SGF_NAME_PROPS
            .iter()
            .take(usize::from(rules.players))
            .map(|k| get(k).map(str::to_string))
            .collect();
        let result = match (get("WN"), get("RE")) {
            (Some(w), _) => RecordResult::Won(
                winner_colours(w, rules.players)
                    .ok_or_else(|| syntax("WN is not a list of colours"))?,
            ),
            (None, Some(r)) if r.starts_with('B') => RecordResult::Won(vec![1]),
            (None, Some(r)) if r.starts_with('W') => RecordResult::Won(vec![2]),
            (None, Some("0" | "Draw" | "draw")) => RecordResult::Draw,
            _ => RecordResult::Ongoing,
        };
        let mut actions = Vec::new();
        for node in &nodes {
            // A chosen fifth move's node carries its stone too: the choice alone is the action.
            let chosen = node.iter().any(|(k, v)| {
                k == "SW"
                    && v.get(..7)
                        .is_some_and(|p| p.eq_ignore_ascii_case("choose:"))
            });
            for (k, v) in node {
                if chosen && k != "SW" {
                    continue;
                }
                let index = actions.len();
                let action = match k.as_str() {
                    "B" | "W" | "RD" | "BU" => Point::from_sgf(v, size).map(Action::Place),
                    "SW" => Action::parse(v, size),
                    _ => continue,
                }
                .map_err(|error| RecordError::Token {
                    index,
                    token: v.clone(),
                    error,
                })?;
                actions.push(action);
            }
        }
        let mut record = GameRecord {
            rules,
            actions,
            players: Vec::new(),
            event: get("EV").map(str::to_string),
            date: get("DT").map(|d| d.replace('-', ".")),
            result,
        };
        let game = record.replay()?;
        let mut players: Vec<Option<String>> = vec![None; by_colour.len()];
        for (k, name) in by_colour.into_iter().enumerate() {
            players[usize::from(game.seat_of_colour(k as u8 + 1) - 1)] = name;
        }
        record.players = players.into_iter().map_while(|n| n).collect();
        Ok(record)
    }
}

/// Why a game cannot be written as PSQ.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PsqError {
    /// PSQ lists stones, never removes any: games with captures do not fit.
    #[error("PSQ records Gomoku only: stones are never captured in it")]
    Captures,
    /// PSQ has two players.
    #[error("PSQ records two-player games; this one has {0} players")]
    Players(u8),
}

/// The first line of a PSQ file, as Piskvork writes it (the last number names the player who
/// started: 0 or 1; we always write 0, the first player is black).
fn psq_header(size: u8) -> String {
    format!("Piskvorky {size}x{size}, 11:11, 0")
}

impl GameRecord {
    /// Writes Piskvork's PSQ (the Gomocup format): a header line, then one line per stone,
    /// `x,y,ms` with `x` the column from 1 at the left and `y` the row from 1 at the top,
    /// then `-1`, the players' names and `-1`; a Renju game adds a last line, `Renju`, which
    /// [`GameRecord::from_psq`] reads back as Renju without an opening rule.
    ///
    /// Stones alternate colours in every opening this bot knows (swap choices only decide who
    /// plays which colour), so swap and swap2 choices, and the Renju openings' decisions and
    /// offers, are left out: the stones are all there (a chosen fifth move is a stone).
    /// No thinking times are kept, so each is 0.
    ///
    /// # Errors
    /// [`PsqError::Captures`] for rule sets with captures (PSQ cannot show a stone leaving
    /// the board), [`PsqError::Players`] for games of 3 or 4 players.
    pub fn to_psq(&self) -> Result<String, PsqError> {
        if self.rules.players != 2 {
            return Err(PsqError::Players(self.rules.players));
        }
        if self.rules.captures != super::ruleset::Captures::None {
            return Err(PsqError::Captures);
        }
        let size = self.rules.size;
        let mut s = psq_header(size);
        s.push('\n');
        for a in &self.actions {
            if let Action::Place(p) | Action::Choose(p) = a {
                let _ = writeln!(s, "{},{},0", p.col() + 1, size - p.row());
            }
        }
        s.push_str("-1\n");
        for k in 0..2 {
            let name = self.players.get(k).map_or("?", String::as_str);
            // One line each: a name must not break the file's lines.
            let name: String = name.chars().filter(|c| !c.is_control()).collect();
            let _ = writeln!(s, "{name}");
        }
        s.push_str("-1\n");
        if self.rules.is_renju() {
            s.push_str(PSQ_RENJU);
            s.push('\n');
        }
        Ok(s)
    }

    /// Reads PSQ (as written by [`GameRecord::to_psq`], Piskvork or the Gomocup tools).
    ///
    /// PSQ names no rules: the stones are read as freestyle Gomoku without an opening rule
    /// on the file's (square) board (see [`GameRecord::from_psq_as`] to read them under
    /// other rules), and the result is what the board shows. The lines after the moves are
    /// read as the players' names when they are the two lines between `-1`s.
    ///
    /// # Errors
    /// [`RecordError::Syntax`] for a bad header or board size, [`RecordError::Token`] for a
    /// stone off the board, [`RecordError::Illegal`] for a stone on an occupied point or
    /// after the game ended.
    pub fn from_psq(text: &str) -> Result<GameRecord, RecordError> {
        GameRecord::read_psq(text, None)
    }

    /// Reads PSQ under known rules (a standard-Gomoku game read as freestyle could end at
    /// an overline that did not win). PSQ keeps no colour choices, so rules with a swap
    /// opening cannot be replayed from it: read those with [`GameRecord::from_psq`].
    ///
    /// # Errors
    /// As [`GameRecord::from_psq`], and [`RecordError::Syntax`] when the file's board size
    /// differs from the rules'.
    pub fn from_psq_as(text: &str, rules: RuleSet) -> Result<GameRecord, RecordError> {
        GameRecord::read_psq(text, Some(rules))
    }

    fn read_psq(text: &str, known: Option<RuleSet>) -> Result<GameRecord, RecordError> {
        let syntax = |why: &str| RecordError::Syntax {
            format: "PSQ",
            why: why.to_string(),
        };
        let mut lines = text.lines().map(str::trim);
        let header = lines.next().ok_or_else(|| syntax("the file is empty"))?;
        let dims = header
            .strip_prefix("Piskvorky")
            .and_then(|rest| rest.trim_start().split([',', ' ']).next())
            .ok_or_else(|| syntax("the first line does not start with `Piskvorky WxH`"))?;
        let (w, h) = dims
            .split_once('x')
            .ok_or_else(|| syntax("the board size is not written WxH"))?;
        let (w, h): (u8, u8) = match (w.parse(), h.parse()) {
            (Ok(w), Ok(h)) => (w, h),
            _ => return Err(syntax("the board size is not a number")),
        };
        if w != h {
            return Err(syntax("the board is not square"));
        }
        if known.is_some_and(|r| r.size != w) {
            return Err(syntax("the board size differs from the rules'"));
        }
        let mut actions = Vec::new();
        let mut rest: Vec<&str> = Vec::new();
        for line in lines.by_ref() {
            if line.is_empty() {
                continue;
            }
            let fields: Vec<&str> = line.split(',').map(str::trim).collect();
            let numbers: Option<Vec<i64>> = fields.iter().map(|f| f.parse().ok()).collect();
            match numbers.as_deref() {
                Some([x, y, ..]) if fields.len() <= 3 => {
                    let index = actions.len();
                    let off = || RecordError::Token {
                        index,
                        token: line.to_string(),
                        error: PointError::OutOfBounds {
                            text: line.to_string(),
                            size: w,
                        },
                    };
                    // From 1; any i64 may stand there (i64::MIN - 1 would overflow).
                    let from_one = |v: i64| v.checked_sub(1).and_then(|v| u8::try_from(v).ok());
                    let col = from_one(*x).ok_or_else(off)?;
                    let from_top = from_one(*y).ok_or_else(off)?;
                    if from_top >= w {
                        return Err(off());
                    }
                    let p = Point::new(col, w - 1 - from_top, w).map_err(|_| off())?;
                    actions.push(Action::Place(p));
                }
                _ => {
                    rest.push(line);
                    break;
                }
            }
        }
        rest.extend(lines.filter(|l| !l.is_empty()));
        let rules = match known {
            Some(r) => r,
            // Our own files name Renju on a line after the players (see `to_psq`).
            None if rest.iter().any(|l| l.eq_ignore_ascii_case(PSQ_RENJU)) => {
                RuleSet::with_options(Preset::Renju, &[format!("size={w}"), "opening=none".into()])?
            }
            None => RuleSet::with_options(Preset::Gomoku, &[format!("size={w}")])?,
        };
        let players = match rest.as_slice() {
            ["-1", a, b, "-1", ..] => vec![a.to_string(), b.to_string()],
            _ => Vec::new(),
        };
        let mut record = GameRecord {
            rules,
            actions,
            players,
            event: None,
            date: None,
            result: RecordResult::Ongoing,
        };
        let game = record.replay()?;
        record.result = GameRecord::from_game(&game, &[]).result;
        Ok(record)
    }
}

/// The line after the players that marks a PSQ file as Renju (PSQ itself names no rules; the
/// Gomocup tools name the rule of a tournament, not of a file). Readers of PSQ skip it.
const PSQ_RENJU: &str = "Renju";

/// SGF properties naming the player of colours 1-4 (`PB`, `PW`, then private ones).
const SGF_NAME_PROPS: [&str; 4] = ["PB", "PW", "RN", "UN"];

/// The winners written as colours separated by commas (`1,3`), as both PGN's `[Winners]` and
/// SGF's `WN` hold them; `None` unless each is a colour of a game of `players`.
fn winner_colours(list: &str, players: u8) -> Option<Vec<u8>> {
    list.split(',')
        .map(|c| {
            c.trim()
                .parse::<u8>()
                .ok()
                .filter(|c| (1..=players).contains(c))
        })
        .collect()
}

/// Rule sets of pente.org's game names.
fn rules_for_pente_org_game(name: &str) -> Result<RuleSet, RulesError> {
    let (preset, options): (Preset, &[&str]) = match name.trim().to_ascii_lowercase().as_str() {
        "pente" => (Preset::Pente, &[]),
        "keryo-pente" | "keryo" => (Preset::Keryo, &[]),
        "gomoku" => (Preset::Gomoku, &[]),
        "renju" => (Preset::Renju, &[]),
        "boat-pente" => (Preset::Pente, &["extra_time_capture=on"]),
        "poof-pente" => (Preset::Pente, &["self_capture=capture"]),
        "swap2-pente" => (Preset::Pente, &["opening=swap2"]),
        "swap2-keryo" => (Preset::Keryo, &["opening=swap2"]),
        _ => return Err(RulesError::UnknownPreset(name.to_string())),
    };
    RuleSet::with_options(preset, options)
}

fn pgn_escape(v: &str) -> String {
    v.chars()
        .filter(|c| !c.is_control())
        .flat_map(|c| match c {
            '"' => vec!['\\', '"'],
            '\\' => vec!['\\', '\\'],
            c => vec![c],
        })
        .collect()
}

fn pgn_unescape(v: &str) -> String {
    let mut out = String::new();
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(n) = chars.next() {
                out.push(n);
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn strip_braced_comments(body: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in body.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            c if depth == 0 => out.push(c),
            _ => {}
        }
    }
    out
}

fn sgf_escape(v: &str) -> String {
    let mut out = String::new();
    for c in v.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

type SgfNode = Vec<(String, String)>;

/// Parses the main line (first variation at every branch) of the first game tree.
fn parse_sgf_main_line(text: &str) -> Result<Vec<SgfNode>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut i = chars.iter().position(|&c| c == '(').ok_or("no game tree")? + 1;
    let mut nodes: Vec<SgfNode> = Vec::new();
    let mut depth = 1usize;
    // Once the first variation of a branch closes, the rest of that branch is skipped.
    let mut skipping_from: Option<usize> = None;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '(' => {
                depth += 1;
                i += 1;
            }
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(nodes);
                }
                if skipping_from.is_none() {
                    skipping_from = Some(depth);
                }
                i += 1;
            }
            ';' => {
                i += 1;
                if skipping_from.is_none_or(|d| depth < d) {
                    skipping_from = None;
                    nodes.push(Vec::new());
                }
            }
            c if c.is_ascii_uppercase() => {
                let start = i;
                while i < chars.len() && chars[i].is_ascii_alphabetic() {
                    i += 1;
                }
                let ident: String = chars[start..i]
                    .iter()
                    .filter(|c| c.is_ascii_uppercase())
                    .collect();
                let mut any = false;
                loop {
                    while i < chars.len() && chars[i].is_whitespace() {
                        i += 1;
                    }
                    if i >= chars.len() || chars[i] != '[' {
                        break;
                    }
                    any = true;
                    i += 1;
                    let mut value = String::new();
                    loop {
                        let ch = *chars.get(i).ok_or("a value is not closed")?;
                        i += 1;
                        match ch {
                            '\\' => {
                                let next = *chars.get(i).ok_or("a value is not closed")?;
                                i += 1;
                                if next != '\n' {
                                    value.push(next);
                                }
                            }
                            ']' => break,
                            ch => value.push(ch),
                        }
                    }
                    if skipping_from.is_none() {
                        nodes
                            .last_mut()
                            .ok_or("a property outside a node")?
                            .push((ident.clone(), value));
                    }
                }
                if !any {
                    return Err(format!("property {ident} has no value"));
                }
            }
            c if c.is_whitespace() => i += 1,
            other => return Err(format!("unexpected character {other:?}")),
        }
    }
    Err("the game tree is not closed".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(spec: &str, moves: &str) -> Game {
        let rules = RuleSet::from_spec(spec).unwrap();
        let mut g = Game::new(rules);
        for t in moves.split_whitespace() {
            g.apply_token(t).unwrap();
        }
        g
    }

    #[test]
    fn pgn_looks_like_pente_org() {
        let g = game("pente", "K10 L9 N10 L10 L11");
        let r = GameRecord::from_game(&g, &["Ann".into(), "Bo \"B\"".into()]);
        let pgn = r.to_pgn();
        assert!(pgn.contains("[Game \"Pente\"]"), "{pgn}");
        assert!(pgn.contains("[White \"Ann\"]"), "{pgn}");
        assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
        assert!(pgn.contains("1. K10 L9 2. N10 L10 3. L11 *"), "{pgn}");
        let back = GameRecord::from_pgn(&pgn).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn finished_games_carry_their_result() {
        let g = game("gomoku", "A1 B1 A2 B2 A3 B3 A4 B4 A5");
        let r = GameRecord::from_game(&g, &["a".into(), "b".into()]);
        assert!(r.to_pgn().contains("[Result \"1-0\"]"));
        assert!(r.to_pgn().trim_end().ends_with("5. A5 1-0"));
        assert!(r.to_sgf().contains("RE[B+]"));
        assert_eq!(GameRecord::from_sgf(&r.to_sgf()).unwrap(), r);
    }

    #[test]
    fn pente_org_files_without_our_headers_are_read() {
        let text = "[Event \"x\"]\n[Game \"Keryo-Pente\"]\n[White \"a\"]\n[Black \"b\"]\n[Result \"*\"]\n\n1. K10 {centre} L9 2. O10 *\n";
        let r = GameRecord::from_pgn(text).unwrap();
        assert_eq!(r.rules, RuleSet::preset(Preset::Keryo));
        assert_eq!(r.actions.len(), 3);
    }

    #[test]
    fn sgf_keeps_rules_names_and_choices() {
        let g = game(
            "pente opening=swap2 size=15",
            "H8 J9 K10 place G6 F5 take:2 E4",
        );
        let r = GameRecord::from_game(&g, &["Ann]".into(), "Bo\\".into()]);
        let sgf = r.to_sgf();
        assert!(sgf.starts_with("(;FF[4]GM[4]"), "{sgf}");
        assert!(sgf.contains("RU[pente size=15 opening=swap2]"), "{sgf}");
        assert!(sgf.contains(";SW[place]"), "{sgf}");
        assert_eq!(GameRecord::from_sgf(&sgf).unwrap(), r);
    }

    #[test]
    fn sgf_names_each_stone_by_its_colour_after_a_retirement() {
        let g = game("pente players=3", "K10 A1 retire:3 B2 C3");
        let r = GameRecord::from_game(&g, &["A".into(), "B".into(), "C".into()]);
        let sgf = r.to_sgf();
        let props: Vec<&str> = sgf
            .split("\n;")
            .skip(1)
            .filter_map(|n| n.split('[').next())
            .collect();
        assert_eq!(props, ["B", "W", "SW", "B", "W"], "{sgf}");
        assert!(sgf.contains(";SW[retire:3]"), "{sgf}");
        assert_eq!(GameRecord::from_sgf(&sgf).unwrap(), r);
    }

    #[test]
    fn sgf_variations_follow_the_main_line() {
        let text = "(;FF[4]GM[4]SZ[15]RU[gomoku];B[hh](;W[ii];B[jj])(;W[aa]))";
        let r = GameRecord::from_sgf(text).unwrap();
        let names: Vec<String> = r.actions.iter().map(Action::to_string).collect();
        assert_eq!(names, ["H8", "J7", "K6"]);
    }

    #[test]
    fn psq_counts_columns_from_the_left_and_rows_from_the_top() {
        let g = game("gomoku", "A1 P15 H8 B2 J8 C3 K8 D4 L8 E5 M8");
        let r = GameRecord::from_game(&g, &["Ann".into(), "Bo\nb".into()]);
        let psq = r.to_psq().unwrap();
        let lines: Vec<&str> = psq.lines().collect();
        assert_eq!(lines[0], "Piskvorky 15x15, 11:11, 0");
        // A1 is the bottom-left corner: column 1, row 15 from the top; P15 the top-right.
        assert_eq!(&lines[1..4], ["1,15,0", "15,1,0", "8,8,0"]);
        assert_eq!(&lines[lines.len() - 4..], ["-1", "Ann", "Bob", "-1"]);
        let back = GameRecord::from_psq(&psq).unwrap();
        assert_eq!(back.actions, r.actions);
        assert_eq!(back.players, ["Ann", "Bob"]);
        assert_eq!(back.result, RecordResult::Won(vec![1]));
        assert_eq!(back.replay().unwrap().stones(), g.stones());
    }

    #[test]
    fn psq_keeps_the_stones_of_swap_openings_and_refuses_captures() {
        let g = game("gomoku opening=swap2", "H8 J9 K10 take:1 L11 M12");
        let psq = GameRecord::from_game(&g, &[]).to_psq().unwrap();
        assert!(!psq.contains("take"), "{psq}");
        let back = GameRecord::from_psq(&psq).unwrap();
        assert_eq!(back.actions.len(), 5);
        assert_eq!(back.replay().unwrap().stones(), g.stones());
        let pente = GameRecord::from_game(&game("pente", "K10"), &[]);
        assert_eq!(pente.to_psq(), Err(PsqError::Captures));
        let three = GameRecord::from_game(&game("gomoku players=3", "K10"), &[]);
        assert_eq!(three.to_psq(), Err(PsqError::Players(3)));
    }

    #[test]
    fn psq_read_under_known_rules_keeps_an_overline_that_did_not_win() {
        // Standard Gomoku: colour 1's six in a row (A1-A6, the gap at A4 filled last) does
        // not win there, but would in freestyle.
        let moves = "A1 O1 A2 O3 A3 O5 A5 O7 A6 O9 A4";
        let g = game("gomoku-standard", moves);
        assert!(!g.is_over());
        let psq = GameRecord::from_game(&g, &[]).to_psq().unwrap();
        let exact = GameRecord::from_psq_as(&psq, *g.rules()).unwrap();
        assert_eq!(exact.actions, g.record());
        assert_eq!(exact.result, RecordResult::Ongoing);
        assert_eq!(
            GameRecord::from_psq(&psq).unwrap().result,
            RecordResult::Won(vec![1])
        );
        let other_size = RuleSet::from_spec("gomoku-standard size=19").unwrap();
        assert!(GameRecord::from_psq_as(&psq, other_size).is_err());
    }

    #[test]
    fn psq_from_other_tools_and_broken_files() {
        let gomocup = "Piskvorky 15x15, 11:11, 1\n8,8,1063\n9,9,200\n7,7,17\nFreestyle\n";
        let r = GameRecord::from_psq(gomocup).unwrap();
        assert_eq!(r.actions.len(), 3);
        assert!(r.players.is_empty());
        for bad in [
            "",
            "Gomoku 15x15",
            "Piskvorky 15y15, 1:1, 0",
            "Piskvorky 20x15, 1:1, 0",
            "Piskvorky 20x20, 1:1, 0\n1,1,0",
            "Piskvorky 15x15, 1:1, 0\n0,1,0",
            "Piskvorky 15x15, 1:1, 0\n16,1,0",
            "Piskvorky 15x15, 1:1, 0\n1,16,0",
            "Piskvorky 15x15, 1:1, 0\n1,-3,0",
            "Piskvorky 15x15, 1:1, 0\n1,1,0\n1,1,0",
            // Found by the fuzzer (tests/fuzz): the smallest i64 overflowed on the way to 0-based.
            "Piskvorky 15x15, 11:11, 0\n8,-9223372036854775808,0",
            "Piskvorky 15x15, 11:11, 0\n-9223372036854775808,8,0",
        ] {
            assert!(GameRecord::from_psq(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn broken_records_are_refused_not_panicked() {
        for t in [
            "",
            "(",
            "(;",
            "(;B[",
            "(;FF[4]GM[1]SZ[19])",
            "(;SZ[19]RU[chess])",
            "(;SZ[x])",
            "(;SZ[19]RU[pente];B[zz])",
            "(;SZ[19]RU[pente];B[aa])",
            ";B[aa]",
            "(;B)",
        ] {
            assert!(GameRecord::from_sgf(t).is_err(), "{t:?}");
        }
        for t in [
            "",
            "[Game \"Chess\"]",
            "[Game Pente]",
            "[Game \"Pente\"]\n1. K10 K10",
            "[Game \"Pente\"]\n1. Z99",
            "[Rules \"pente size=7\"]",
            "[Game \"Pente\"\n1. K10",
        ] {
            assert!(GameRecord::from_pgn(t).is_err(), "{t:?}");
        }
    }
}
