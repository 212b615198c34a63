-- Level 6 (correspondence, issue 12) is a level of the computer like the others, but the
-- column's CHECK from 20261129190300 allows 1-5 only, so a level-6 game could not start.
-- SQLite cannot alter a CHECK in place: a new column with the wider check takes the values,
-- the old column (nothing indexes or references it) is dropped, and the new one renamed.
ALTER TABLE games ADD COLUMN engine_level_new INTEGER CHECK (engine_level_new BETWEEN 1 AND 6);
UPDATE games SET engine_level_new = engine_level;
ALTER TABLE games DROP COLUMN engine_level;
ALTER TABLE games RENAME COLUMN engine_level_new TO engine_level;
