-- Level 6 (correspondence, issue 12) is a level of the computer like the others, but the
-- column's CHECK from the baseline allows 1-5 only, so a level-6 game could not start.
ALTER TABLE games DROP CONSTRAINT games_engine_level_check;
ALTER TABLE games ADD CONSTRAINT games_engine_level_check CHECK (engine_level BETWEEN 1 AND 6);
