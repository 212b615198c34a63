-- The durable outbox (issue 16): what a committed action owes Discord, written in the
-- action's own transaction and sent afterwards by the poster, in order per game, with retries.
-- `kind`: 'board' (the board after `ply`, with the direct-message ping of the player to act),
-- 'timeout' (the loss on time at `ply`), 'reminder' (the reminder of the turn after `ply`).
-- `message_id` is the board's message once it went out (0: the interaction's own answer
-- carried it); `state`: 'pending', 'sent', 'stale' (moot when its turn came), 'failed'.
CREATE TABLE outbox (
    outbox_id    INTEGER PRIMARY KEY,
    game_id      INTEGER NOT NULL,
    ply          INTEGER NOT NULL,
    kind         TEXT    NOT NULL,
    seat         INTEGER,
    nonce        TEXT    NOT NULL,
    boot         TEXT    NOT NULL,
    reply_token  TEXT,
    lead         TEXT,
    lang         TEXT,
    state        TEXT    NOT NULL DEFAULT 'pending',
    attempts     INTEGER NOT NULL DEFAULT 0,
    not_before   INTEGER NOT NULL,
    message_id   INTEGER,
    error        TEXT,
    created_at   INTEGER NOT NULL,
    done_at      INTEGER
);
CREATE INDEX outbox_pending ON outbox (state, game_id, outbox_id);
CREATE INDEX outbox_by_game ON outbox (game_id, ply, kind);
