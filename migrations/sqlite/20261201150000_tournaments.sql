-- Tournaments in a server (issue 15): round robin and Swiss, a game per pairing, rounds that
-- advance by themselves. Additive only: three new tables, nothing existing changes.
--
-- The PostgreSQL twin is migrations/postgres/20261201150000_tournaments.sql. Ids and times
-- are integers, booleans INTEGER 0/1.

CREATE TABLE tournaments (
    tournament_id      INTEGER PRIMARY KEY,
    guild_id           INTEGER NOT NULL,
    channel_id         INTEGER NOT NULL,                 -- where it was created and posts
    message_channel_id INTEGER,                          -- the announcement with Join / Leave
    message_id         INTEGER,
    creator_id         INTEGER NOT NULL,
    name               TEXT    NOT NULL,
    format             TEXT    NOT NULL CHECK (format IN ('round-robin', 'swiss')),
    rules              TEXT    NOT NULL,                 -- RuleSet::to_spec(), two players
    days_per_move      INTEGER,                          -- at most one of the two is set
    minutes_per_move   INTEGER,
    rated              INTEGER NOT NULL,
    max_players        INTEGER NOT NULL CHECK (max_players >= 3),
    rounds             INTEGER,                          -- Swiss as asked; NULL: ceil(log2(n))
    games_per_pairing  INTEGER NOT NULL CHECK (games_per_pairing IN (1, 2)),
    status             TEXT    NOT NULL
        CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    entrants           INTEGER NOT NULL,                 -- players who joined (and did not leave)
    total_rounds       INTEGER,                          -- fixed at the start
    -- The round being played: 0 before the start, total_rounds + 1 once finished. Advancing
    -- is a conditional UPDATE on (round, revision), so exactly one process advances a round.
    round              INTEGER NOT NULL,
    -- Bumped by every change of the field (join, leave, withdrawal): a pairing computed from
    -- an older field is refused and computed again.
    revision           INTEGER NOT NULL,
    -- The last round whose start (or, past the last, the final result) was posted, and the
    -- lease of the process posting the next one.
    announced_round    INTEGER NOT NULL,
    announce_lease     INTEGER,
    created_at         INTEGER NOT NULL,
    started_at         INTEGER,
    finished_at        INTEGER
);
CREATE INDEX tournaments_by_guild ON tournaments (guild_id, status);
CREATE INDEX tournaments_by_status ON tournaments (status, announced_round, round);

-- Who plays. Leaving before the start deletes the row; withdrawing after it keeps the row.
CREATE TABLE tournament_players (
    tournament_id   INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    user_id         INTEGER NOT NULL,
    joined_at       INTEGER NOT NULL,
    seed            INTEGER,                             -- 1 = highest rated at the start
    rating          REAL,                                -- server rating at the start
    withdrawn_round INTEGER,                             -- NULL: still playing
    PRIMARY KEY (tournament_id, user_id)
);

-- The boards of every round: a game between two players, or a bye (second_id NULL). The
-- result is written in the transaction that ends the board's game (or at once for a bye or
-- a forfeit).
CREATE TABLE tournament_boards (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (tournament_id),
    round         INTEGER NOT NULL CHECK (round >= 1),
    board         INTEGER NOT NULL CHECK (board >= 1),
    first_id      INTEGER NOT NULL,                      -- seat 1
    second_id     INTEGER,                               -- seat 2; NULL for a bye
    game_id       INTEGER REFERENCES games (game_id),
    result        TEXT CHECK (result IN ('first', 'second', 'draw', 'first-forfeit',
                                         'second-forfeit', 'double-forfeit', 'bye')),
    PRIMARY KEY (tournament_id, round, board)
);
CREATE UNIQUE INDEX tournament_boards_by_game ON tournament_boards (game_id);
