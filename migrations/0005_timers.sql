-- Load on demand (issue 22): each game keeps the time its next timer falls due (lock expiry,
-- turn limit…), indexed, so the timer sweep loads only the games whose timers fall due, and
-- the time up to which its timers were swept. Games stored before this migration are swept
-- once (next_due 0) to compute theirs.

ALTER TABLE games ADD COLUMN next_due BIGINT;
ALTER TABLE games ADD COLUMN swept BIGINT NOT NULL DEFAULT 0;
UPDATE games SET next_due = 0 WHERE finished = 0;
CREATE INDEX games_next_due ON games (next_due);
