-- Games can also end on time (the seat to act ran out of its clock) and by an agreed draw.
--
-- SQLite cannot change a CHECK constraint in place: the table is rebuilt, the documented way
-- (https://www.sqlite.org/lang_altertable.html#otheralter). Store::open runs migrations with
-- foreign keys off, as that procedure requires, and checks every reference afterwards: those
-- from game_seats and moves name the table, so they hold again once the copy is renamed.

CREATE TABLE games_new (
    game_id            INTEGER PRIMARY KEY,
    guild_id           INTEGER NOT NULL,
    channel_id         INTEGER NOT NULL,
    thread_id          INTEGER,
    board_channel_id   INTEGER,
    board_message_id   INTEGER,
    challenge_id       INTEGER REFERENCES challenges (challenge_id),
    rules              TEXT    NOT NULL,
    players            INTEGER NOT NULL CHECK (players BETWEEN 2 AND 4),
    days_per_move      INTEGER,
    rated              INTEGER NOT NULL,
    status             TEXT    NOT NULL CHECK (status IN ('active', 'finished')),
    ply                INTEGER NOT NULL,
    to_act_seat        INTEGER,
    result             TEXT CHECK (result IN
        ('line', 'captures', 'board_full', 'resignation', 'timeout', 'draw')),
    winners            INTEGER,                      -- bit c set: colour c won
    loser_seat         INTEGER,                      -- the seat that resigned or ran out of time
    deadline           INTEGER,
    sweep_lease        INTEGER,
    created_at         INTEGER NOT NULL,
    updated_at         INTEGER NOT NULL,
    finished_at        INTEGER
);
INSERT INTO games_new SELECT
    game_id, guild_id, channel_id, thread_id, board_channel_id, board_message_id,
    challenge_id, rules, players, days_per_move, rated, status, ply, to_act_seat, result,
    winners, loser_seat, deadline, sweep_lease, created_at, updated_at, finished_at
FROM games;
DROP TABLE games;
ALTER TABLE games_new RENAME TO games;
CREATE INDEX games_by_channel ON games (guild_id, status, channel_id);
CREATE INDEX games_by_deadline ON games (status, deadline);
