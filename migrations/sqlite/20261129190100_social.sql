-- Between the players: take-back and draw offers, and rematches.
--
-- Additive only (new tables). An offer is tied to the ply of the game it was made at: it can
-- be answered only while the game is still at that ply, so the next action on the game
-- (a move, a resignation, a timeout, another accepted offer) makes it stale.

CREATE TABLE offers (
    offer_id           INTEGER PRIMARY KEY,
    game_id            INTEGER NOT NULL REFERENCES games (game_id),
    kind               TEXT    NOT NULL CHECK (kind IN ('undo', 'draw')),
    ply                INTEGER NOT NULL,                 -- the game's ply when it was made
    seat               INTEGER NOT NULL CHECK (seat BETWEEN 1 AND 4),  -- who offers
    user_id            INTEGER NOT NULL,
    status             TEXT    NOT NULL
        CHECK (status IN ('open', 'accepted', 'declined', 'withdrawn', 'expired')),
    -- Bit s set: seat s has accepted (3-4 player take-backs need every other player).
    approvals          INTEGER NOT NULL DEFAULT 0,
    message_channel_id INTEGER,                          -- the message that shows it
    message_id         INTEGER,
    created_at         INTEGER NOT NULL,
    closed_at          INTEGER,
    closed_by          INTEGER
);
-- One open offer of a kind per player and game; stale ones are closed before a new one.
CREATE UNIQUE INDEX offers_one_open ON offers (game_id, kind, seat) WHERE status = 'open';
CREATE INDEX offers_by_game ON offers (game_id, status);

-- A challenge that is the rematch of a finished game: accepting it seats the players with
-- their seats swapped.
CREATE TABLE rematches (
    challenge_id INTEGER PRIMARY KEY REFERENCES challenges (challenge_id),
    game_id      INTEGER NOT NULL REFERENCES games (game_id)
);
CREATE INDEX rematches_by_game ON rematches (game_id);
