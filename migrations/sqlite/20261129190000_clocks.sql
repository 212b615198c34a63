-- Clocks (issue 7): live games in minutes per move, one reminder per turn, vacation time.
-- Additive only: new nullable columns and a new table.

-- Live time control: minutes per move. At most one of days_per_move and minutes_per_move is
-- set; both NULL means no time limit.
ALTER TABLE guild_settings ADD COLUMN minutes_per_move INTEGER;
ALTER TABLE challenges ADD COLUMN minutes_per_move INTEGER;
ALTER TABLE games ADD COLUMN minutes_per_move INTEGER;

-- The ply whose turn the player to act was reminded of (claimed by a conditional UPDATE
-- before the reminder is posted, so a restart or a second sweeper never repeats it).
ALTER TABLE games ADD COLUMN reminded_ply INTEGER;

-- Vacation time spent, per player and calendar year (UTC), in hours.
CREATE TABLE vacation_usage (
    user_id    INTEGER NOT NULL,
    year       INTEGER NOT NULL,
    hours_used INTEGER NOT NULL CHECK (hours_used >= 0),
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (user_id, year)
);
