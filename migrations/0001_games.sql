-- Games, their append-only action log, fired timers and the moderator audit log.
-- Written in SQL that SQLite and PostgreSQL both accept.

CREATE TABLE games (
    thread TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    users TEXT NOT NULL,
    settings TEXT NOT NULL,
    version BIGINT NOT NULL,
    finished BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE actions (
    thread TEXT NOT NULL,
    seq BIGINT NOT NULL,
    number BIGINT,
    actor TEXT NOT NULL,
    time BIGINT NOT NULL,
    command TEXT NOT NULL,
    action TEXT NOT NULL,
    reply TEXT NOT NULL,
    interaction TEXT,
    reverted_by TEXT,
    reverted_reason TEXT,
    PRIMARY KEY (thread, seq)
);

CREATE UNIQUE INDEX actions_interaction ON actions (interaction);

CREATE TABLE timers_fired (
    thread TEXT NOT NULL,
    seat BIGINT NOT NULL,
    due BIGINT NOT NULL,
    fired_at BIGINT NOT NULL,
    PRIMARY KEY (thread, seat, due)
);

CREATE TABLE audit (
    thread TEXT NOT NULL,
    seq BIGINT NOT NULL,
    moderator TEXT NOT NULL,
    what TEXT NOT NULL,
    reason TEXT NOT NULL,
    time BIGINT NOT NULL,
    PRIMARY KEY (thread, seq)
);

CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
