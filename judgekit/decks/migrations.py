"""The decklists area's schema, as numbered migrations (see `judgekit.db`).

A released migration is history: never edit it, add the next number.
"""
from __future__ import annotations

from judgekit.db import Migration

TABLES_1 = """
-- one row per event that registers decklists: the secret the players' links are made from,
-- and the rules the lists are checked against
CREATE TABLE IF NOT EXISTS deck_settings (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments (id),
    secret TEXT NOT NULL,
    mode TEXT NOT NULL DEFAULT 'constructed',   -- 'constructed' (6.3) | 'limited' (7.2.3)
    created_at TEXT NOT NULL
);

-- append-only: a submission, then corrections that point at the row they replace
CREATE TABLE IF NOT EXISTS decklists (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    player_id INTEGER NOT NULL,
    kind TEXT NOT NULL,                          -- 'submit' | 'correct'
    refers_to INTEGER,                           -- the list a correction replaces
    text TEXT NOT NULL,                          -- as pasted
    entries TEXT NOT NULL,                       -- JSON: the cards read
    problems TEXT NOT NULL,                      -- JSON: the construction problems found then
    by TEXT NOT NULL,                            -- the player's name, or the judge's
    how TEXT NOT NULL,                           -- 'player-link' | 'organizer' | 'judge'
    reason TEXT,
    time TEXT NOT NULL,
    client_id TEXT
);
CREATE INDEX IF NOT EXISTS idx_decklists_player ON decklists (tournament_id, player_id, id);
CREATE UNIQUE INDEX IF NOT EXISTS idx_decklists_first ON decklists (tournament_id, player_id)
    WHERE kind = 'submit';
CREATE UNIQUE INDEX IF NOT EXISTS idx_decklists_client_id ON decklists (tournament_id, client_id);

-- append-only: each deck check, its outcome, and what it led to
CREATE TABLE IF NOT EXISTS deck_checks (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    table_no INTEGER,
    player_id INTEGER NOT NULL,
    decklist_id INTEGER,                         -- the list checked against
    outcome TEXT NOT NULL,                       -- 'matches' | 'differs'
    differences TEXT,
    minutes INTEGER,                             -- judge time the check took
    extension_seq INTEGER,                       -- the table's time.extend event, when given
    chosen INTEGER NOT NULL DEFAULT 0,           -- 1: chosen by the judge, not proposed
    judge TEXT NOT NULL,
    time TEXT NOT NULL,
    client_id TEXT
);
CREATE INDEX IF NOT EXISTS idx_deck_checks ON deck_checks (tournament_id, round);
CREATE UNIQUE INDEX IF NOT EXISTS idx_deck_checks_client_id ON deck_checks (tournament_id, client_id);

CREATE TABLE IF NOT EXISTS deck_check_penalties (
    check_id INTEGER NOT NULL REFERENCES deck_checks (id),
    penalty_id INTEGER NOT NULL,                 -- penalty_records.id
    time TEXT NOT NULL,
    PRIMARY KEY (check_id, penalty_id)
);

-- append-only: the lists the organizer published once the event was over
CREATE TABLE IF NOT EXISTS deck_publications (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    player_id INTEGER NOT NULL,
    decklist_id INTEGER NOT NULL,
    finish TEXT NOT NULL,                        -- 'winner' | 'finalist'
    by TEXT NOT NULL,
    time TEXT NOT NULL,
    UNIQUE (tournament_id, player_id)
);
"""

MIGRATIONS = [
    Migration(1, "decklists, their corrections, deck checks and publications", TABLES_1),
]
