-- Renju pictures mark black's forbidden points (issue 13); a player may turn the marks off
-- with /prefs. On by default, also for the preferences saved before.
ALTER TABLE user_preferences ADD COLUMN show_forbidden INTEGER NOT NULL DEFAULT 1;
