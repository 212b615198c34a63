-- Glicko-2 ratings per game family, in each server and across all servers (issue 7).
-- Additive only: two new tables, nothing existing changes.
--
-- A family is what a rule set is rated as: 'gomoku', 'gomoku-standard', 'pente' or 'keryo'
-- (see store::ratings::Family for how customised rule sets are placed).

-- A player's current rating in one family and one scope. No row: never rated there (the
-- Glicko-2 defaults apply: 1500, deviation 350, volatility 0.06).
CREATE TABLE ratings (
    scope      INTEGER NOT NULL,                 -- the guild id, or 0 for all servers together
    family     TEXT    NOT NULL
        CHECK (family IN ('gomoku', 'gomoku-standard', 'pente', 'keryo')),
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
CREATE INDEX ratings_by_rank ON ratings (scope, family, rating DESC);

-- What one rated game did to each of its players' ratings, written in the transaction that
-- finished the game. Unrated games have no rows.
CREATE TABLE rating_changes (
    game_id       INTEGER NOT NULL REFERENCES games (game_id),
    user_id       INTEGER NOT NULL,
    family        TEXT    NOT NULL
        CHECK (family IN ('gomoku', 'gomoku-standard', 'pente', 'keryo')),
    score         REAL    NOT NULL CHECK (score IN (0, 0.5, 1)),   -- loss, draw, win
    server_before REAL    NOT NULL,
    server_after  REAL    NOT NULL,
    global_before REAL    NOT NULL,
    global_after  REAL    NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_changes_by_user ON rating_changes (user_id, game_id);
