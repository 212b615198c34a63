-- Games against the computer: the engine's level (1-5), NULL for games between members.
-- The engine's seat is the seat whose user is the bot's own user. Additive only.
ALTER TABLE games ADD COLUMN engine_level INTEGER CHECK (engine_level BETWEEN 1 AND 5);
