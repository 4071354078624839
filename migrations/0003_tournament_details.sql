-- Details the tournament code needs beyond 0002: who organises, the order of signups, when a
-- team joined (late entries), a log of tournament commands (with Discord interaction ids, so a
-- repeated delivery applies once) and the lookup from a match thread to its tournament.

ALTER TABLE tournaments ADD COLUMN organiser TEXT NOT NULL DEFAULT '';
ALTER TABLE signups ADD COLUMN seq BIGINT NOT NULL DEFAULT 0;
ALTER TABLE teams ADD COLUMN joined BIGINT NOT NULL DEFAULT 0;

CREATE INDEX pairings_thread ON pairings (thread);

CREATE TABLE tournament_log (
    tournament TEXT NOT NULL,
    seq BIGINT NOT NULL,
    actor TEXT NOT NULL,
    time BIGINT NOT NULL,
    command TEXT NOT NULL,
    reply TEXT NOT NULL,
    interaction TEXT,
    PRIMARY KEY (tournament, seq)
);

CREATE UNIQUE INDEX tournament_log_interaction ON tournament_log (interaction);
