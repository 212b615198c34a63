-- Renju is rated as a family of its own (issue 13): 'renju' joins the families allowed in
-- ratings and rating_changes. PostgreSQL changes the CHECK constraints in place.

ALTER TABLE ratings DROP CONSTRAINT ratings_family_check,
    ADD CONSTRAINT ratings_family_check
        CHECK (family IN ('gomoku', 'gomoku-standard', 'pente', 'keryo', 'renju'));

ALTER TABLE rating_changes DROP CONSTRAINT rating_changes_family_check,
    ADD CONSTRAINT rating_changes_family_check
        CHECK (family IN ('gomoku', 'gomoku-standard', 'pente', 'keryo', 'renju'));
