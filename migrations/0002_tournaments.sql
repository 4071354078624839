-- Tournaments (RULINGS §2): signups, teams, rounds of pairings and match results.
-- Written in SQL that SQLite and PostgreSQL both accept.

CREATE TABLE tournaments (
    thread TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    settings TEXT NOT NULL,
    seed BIGINT NOT NULL,
    version BIGINT NOT NULL,
    finished BIGINT NOT NULL,
    created_at BIGINT NOT NULL
);

CREATE TABLE signups (
    tournament TEXT NOT NULL,
    player TEXT NOT NULL,
    mates TEXT NOT NULL,
    withdrawn BIGINT NOT NULL,
    time BIGINT NOT NULL,
    PRIMARY KEY (tournament, player)
);

CREATE TABLE teams (
    tournament TEXT NOT NULL,
    number BIGINT NOT NULL,
    players TEXT NOT NULL,
    withdrawn BIGINT NOT NULL,
    PRIMARY KEY (tournament, number)
);

CREATE TABLE pairings (
    tournament TEXT NOT NULL,
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    white BIGINT NOT NULL,
    black BIGINT NOT NULL,
    thread TEXT,
    PRIMARY KEY (tournament, round, board)
);

CREATE TABLE results (
    tournament TEXT NOT NULL,
    round BIGINT NOT NULL,
    board BIGINT NOT NULL,
    result TEXT NOT NULL,
    set_by TEXT NOT NULL,
    time BIGINT NOT NULL,
    PRIMARY KEY (tournament, round, board)
);
