-- Renju is rated as a family of its own (issue 13): 'renju' joins the families allowed in
-- ratings and rating_changes. SQLite cannot change a CHECK constraint in place, so both
-- tables are rebuilt with the same columns, their rows copied, and the index recreated.

CREATE TABLE ratings_new (
    scope      INTEGER NOT NULL,
    family     TEXT    NOT NULL
        CHECK (family IN ('gomoku', 'gomoku-standard', 'pente', 'keryo', 'renju')),
    user_id    INTEGER NOT NULL,
    rating     REAL    NOT NULL,
    deviation  REAL    NOT NULL,
    volatility REAL    NOT NULL,
    games      INTEGER NOT NULL,
    wins       INTEGER NOT NULL,
    losses     INTEGER NOT NULL,
    draws      INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    PRIMARY KEY (scope, family, user_id)
);
INSERT INTO ratings_new (scope, family, user_id, rating, deviation, volatility, games, wins,
                         losses, draws, updated_at)
    SELECT scope, family, user_id, rating, deviation, volatility, games, wins, losses, draws,
           updated_at
    FROM ratings;
DROP TABLE ratings;
ALTER TABLE ratings_new RENAME TO ratings;
CREATE INDEX ratings_by_rank ON ratings (scope, family, rating DESC);

CREATE TABLE rating_changes_new (
    game_id       INTEGER NOT NULL REFERENCES games (game_id),
    user_id       INTEGER NOT NULL,
    family        TEXT    NOT NULL
        CHECK (family IN ('gomoku', 'gomoku-standard', 'pente', 'keryo', 'renju')),
    score         REAL    NOT NULL CHECK (score IN (0, 0.5, 1)),
    server_before REAL    NOT NULL,
    server_after  REAL    NOT NULL,
    global_before REAL    NOT NULL,
    global_after  REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
INSERT INTO rating_changes_new (game_id, user_id, family, score, server_before, server_after,
                                global_before, global_after)
    SELECT game_id, user_id, family, score, server_before, server_after, global_before,
           global_after
    FROM rating_changes;
DROP TABLE rating_changes;
ALTER TABLE rating_changes_new RENAME TO rating_changes;
CREATE INDEX rating_changes_by_user ON rating_changes (user_id, game_id);
