-- The first schema of gomoku-bot (SQLite).
--
-- Conventions: Discord ids (u64) are stored as INTEGER holding the same 64 bits read as a
-- signed number (lossless); times are INTEGER milliseconds since the Unix epoch (UTC);
-- booleans are INTEGER 0/1; rule sets are RuleSet::to_spec() text ("pente size=15").
-- Plain SQL types and no SQLite-only functions, so a PostgreSQL copy of this file stays easy.

-- A guild's defaults. No row: the built-in defaults.
CREATE TABLE guild_settings (
    guild_id        INTEGER PRIMARY KEY,
    default_rules   TEXT    NOT NULL,
    days_per_move   INTEGER,                         -- NULL: no time limit
    thread_per_game INTEGER NOT NULL,
    locale          TEXT,
    updated_at      INTEGER NOT NULL
);

-- A player's preferences. No row: the built-in defaults.
CREATE TABLE user_preferences (
    user_id             INTEGER PRIMARY KEY,
    confirm_move        INTEGER NOT NULL,
    highlight_last_move INTEGER NOT NULL,
    show_coordinates    INTEGER NOT NULL,
    language            TEXT,
    notify              TEXT    NOT NULL CHECK (notify IN ('mention', 'direct', 'off')),
    updated_at          INTEGER NOT NULL
);

-- The names members go by in a guild, kept up to date from every call (board footers).
CREATE TABLE members (
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL,
    display_name TEXT    NOT NULL,
    is_bot       INTEGER NOT NULL,
    updated_at   INTEGER NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);

-- Challenges to a member, open challenges (opponent_id NULL) and lobbies (players > 2).
CREATE TABLE challenges (
    challenge_id       INTEGER PRIMARY KEY,
    guild_id           INTEGER NOT NULL,
    channel_id         INTEGER NOT NULL,
    message_channel_id INTEGER,
    message_id         INTEGER,
    challenger_id      INTEGER NOT NULL,
    opponent_id        INTEGER,
    rules              TEXT    NOT NULL,
    players            INTEGER NOT NULL CHECK (players BETWEEN 2 AND 4),
    days_per_move      INTEGER,
    rated              INTEGER NOT NULL,
    status             TEXT    NOT NULL
        CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
    -- Members so far (the challenger counts). Joining increments it with a conditional
    -- UPDATE, which is how two simultaneous joiners of the last seat are told apart.
    seats_taken        INTEGER NOT NULL,
    created_at         INTEGER NOT NULL,
    expires_at         INTEGER NOT NULL,
    closed_at          INTEGER,
    closed_by          INTEGER,
    game_id            INTEGER
);
CREATE INDEX challenges_by_status ON challenges (status, expires_at);
CREATE INDEX challenges_by_pair ON challenges (guild_id, challenger_id, opponent_id);

-- Who is in a challenge or lobby, in joining order.
CREATE TABLE challenge_members (
    challenge_id INTEGER NOT NULL REFERENCES challenges (challenge_id),
    user_id      INTEGER NOT NULL,
    position     INTEGER NOT NULL,                   -- seats_taken when they joined
    joined_at    INTEGER NOT NULL,
    PRIMARY KEY (challenge_id, user_id)
);

CREATE TABLE games (
    game_id            INTEGER PRIMARY KEY,
    guild_id           INTEGER NOT NULL,
    channel_id         INTEGER NOT NULL,
    thread_id          INTEGER,                      -- the game's own thread, if any
    board_channel_id   INTEGER,                      -- the last board message posted
    board_message_id   INTEGER,
    challenge_id       INTEGER REFERENCES challenges (challenge_id),
    rules              TEXT    NOT NULL,
    players            INTEGER NOT NULL CHECK (players BETWEEN 2 AND 4),
    days_per_move      INTEGER,
    rated              INTEGER NOT NULL,
    status             TEXT    NOT NULL CHECK (status IN ('active', 'finished')),
    -- Snapshots of the move log, written in the same transaction as each move: the
    -- number of actions, and the seat to act (for listings without replaying games).
    ply                INTEGER NOT NULL,
    to_act_seat        INTEGER,
    result             TEXT CHECK (result IN ('line', 'captures', 'board_full', 'resignation')),
    winners            INTEGER,                      -- bit c set: colour c won
    loser_seat         INTEGER,                      -- the seat that resigned
    deadline           INTEGER,                      -- when the seat to act runs out of time
    sweep_lease        INTEGER,                      -- a deadline sweep owns the row until then
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    finished_at        INTEGER
);
CREATE INDEX games_by_channel ON games (guild_id, status, channel_id);
CREATE INDEX games_by_deadline ON games (status, deadline);

CREATE TABLE game_seats (
    game_id INTEGER NOT NULL REFERENCES games (game_id),
    seat    INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 4),
    user_id INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX game_seats_by_user ON game_seats (user_id, game_id);

-- The move log: the truth every position is rebuilt from. One row per action, appended
-- with the ply its player saw plus one, so two writers can never both append the same ply.
CREATE TABLE moves (
    game_id   INTEGER NOT NULL REFERENCES games (game_id),
    ply       INTEGER NOT NULL CHECK (ply >= 1),       -- 1 for the first action
    seat      INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 4),
    action    TEXT    NOT NULL,                        -- K10, take:1, take:2, place, resign
    played_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);

-- Append-only, enforced by the database itself.
CREATE TRIGGER moves_no_update BEFORE UPDATE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;
CREATE TRIGGER moves_no_delete BEFORE DELETE ON moves
BEGIN
    SELECT RAISE(ABORT, 'the move log is append-only');
END;
