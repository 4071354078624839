-- The players seated on each board, recorded at pairing (a JSON list: the first team's three,
-- then the second's), so a later substitution does not rewrite earlier rounds. Rows written
-- before this migration hold an empty list and show the teams' current players.

ALTER TABLE pairings ADD COLUMN players TEXT NOT NULL DEFAULT '[]';
