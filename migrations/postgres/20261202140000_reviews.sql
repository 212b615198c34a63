-- Engine reviews of finished games (issue 14): one row per game. 'running' while the engine
-- analyses (claimed_at is the lease; the message that shows the progress is kept so that a
-- restart can finish it), 'done' with the review as JSON. `method` names the analysis (node
-- budget and mapping); a review made by another method is made again.
CREATE TABLE reviews (
    game_id     BIGINT  NOT NULL PRIMARY KEY REFERENCES games (game_id),
    method      TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('running', 'done')),
    review      TEXT,
    lang        TEXT    NOT NULL,
    channel_id  BIGINT,
    message_id  BIGINT,
    claimed_at  BIGINT  NOT NULL,
    finished_at BIGINT
);
CREATE INDEX reviews_running ON reviews (status);
