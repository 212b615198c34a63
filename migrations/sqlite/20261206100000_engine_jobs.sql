-- Engine jobs (issue 11): each move the computer owes is a row, written in the transaction of
-- the action that made it owe the move (the game's start, a member's move, a take-back...),
-- and deleted in the transaction of the engine's move (or dropped when the game moved on).
-- `ply`: the ply the engine's move follows. A process thinking about a job holds it under a
-- lease (`lease_holder`, `lease_until` in ms); a lapsed lease lets another process take it.
CREATE TABLE engine_jobs (
    game_id      INTEGER NOT NULL,
    ply          INTEGER NOT NULL,
    level        INTEGER NOT NULL,
    lease_holder TEXT,
    lease_until  INTEGER,
    attempts     INTEGER NOT NULL DEFAULT 0,
    created_at   INTEGER NOT NULL,
    PRIMARY KEY (game_id, ply)
);
CREATE INDEX engine_jobs_by_age ON engine_jobs (created_at, game_id);

-- A database from before: the games waiting for the computer get their job now.
INSERT INTO engine_jobs (game_id, ply, level, created_at)
SELECT g.game_id, g.ply, g.engine_level, g.updated_at
FROM games g
JOIN game_seats s ON s.game_id = g.game_id AND s.seat = g.to_act_seat
JOIN members m ON m.user_id = s.user_id AND m.guild_id = g.guild_id
WHERE g.status = 'active' AND g.engine_level IS NOT NULL AND m.is_bot = TRUE;
