-- Engine reviews of finished games (issue 14): one row per game. 'running' while the engine
-- analyses (claimed_at is the lease; the message that shows the progress is kept so that a
-- restart can finish it), 'done' with the review as JSON. `method` names the analysis (node
-- budget and mapping); a review made by another method is made again.
CREATE TABLE reviews (
    game_id     INTEGER NOT NULL PRIMARY KEY REFERENCES games (game_id),
    method      TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('running', 'done')),
    review      TEXT,
    lang        TEXT    NOT NULL,
    channel_id  INTEGER,
    message_id  INTEGER,
    claimed_at  INTEGER NOT NULL,
    finished_at INTEGER
);
CREATE INDEX reviews_running ON reviews (status);
