-- Conditional moves (issue 43): each game's players' lines (`/premove`), as JSON, written in
-- the same transaction as the game's actions so that a line is played once and a restart
-- keeps it. Empty for a game without any.
ALTER TABLE games ADD COLUMN premoves TEXT NOT NULL DEFAULT '';
