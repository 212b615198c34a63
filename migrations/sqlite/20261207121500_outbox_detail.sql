-- More outbox kinds (issue 16): 'vacation' (the notice that vacation started on the turn after
-- `ply`, `detail` the hours left), 'offers' (the messages of the offers the action at `ply`
-- made stale, edited), 'challenge' (an expired challenge's message, edited; `detail` its id),
-- 'tournament' (a tournament round's post; `detail` is `tournament:round`).
-- Rows about no game queue on their own: `game_id` is then minus the challenge's id, or
-- minus (2^40 + the tournament's id).
ALTER TABLE outbox ADD COLUMN detail TEXT;
