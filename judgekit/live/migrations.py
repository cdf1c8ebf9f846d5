"""The live area's schema (the journal pages follow, judge calls), as numbered migrations
(see `judgekit.db`).

A released migration is history: never edit it, add the next number.
"""
from __future__ import annotations

from judgekit.db import Migration

# live_events: AUTOINCREMENT, so an id is never given twice, even if old rows were ever
# removed: a page's Last-Event-ID always means one message
TABLES_0_1_0 = """
CREATE TABLE IF NOT EXISTS live_events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    tournament_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    subject TEXT,
    data TEXT NOT NULL,
    time REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS live_events_tournament ON live_events (tournament_id, id);
CREATE INDEX IF NOT EXISTS live_events_subject ON live_events (subject, kind, id);

CREATE TABLE IF NOT EXISTS judge_calls (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    reason TEXT,
    opened_at TEXT NOT NULL,
    client_id TEXT,
    origin TEXT
);
CREATE INDEX IF NOT EXISTS idx_judge_calls_tournament_id_id ON judge_calls (tournament_id, id);
CREATE UNIQUE INDEX IF NOT EXISTS idx_judge_calls_tournament_id_client_id
    ON judge_calls (tournament_id, client_id);

CREATE TABLE IF NOT EXISTS judge_call_steps (
    id INTEGER PRIMARY KEY,
    call_id INTEGER NOT NULL REFERENCES judge_calls (id),
    kind TEXT NOT NULL,
    judge TEXT,
    note TEXT,
    time TEXT NOT NULL,
    "by" TEXT,
    bogus INTEGER                              -- a close that says nobody needed a judge
);
CREATE INDEX IF NOT EXISTS idx_judge_call_steps_call_id_id ON judge_call_steps (call_id, id);
"""

MIGRATIONS = [
    Migration(1, "the live journal and the judge calls of release 0.1.0", TABLES_0_1_0),
]
