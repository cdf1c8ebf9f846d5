"""The penalties area's schema, as numbered migrations (see `judgekit.db`).

A released migration is history: never edit it, add the next number.
"""
from __future__ import annotations

from judgekit.db import Migration

# (the tournament's penalty catalog is a column of the tournament area's `tournaments`)
TABLES_0_1_0 = """
CREATE TABLE IF NOT EXISTS penalty_records (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    kind TEXT NOT NULL,
    refers_to INTEGER,
    round INTEGER,
    table_no INTEGER,
    game INTEGER,
    event INTEGER,
    player INTEGER,
    player_name TEXT,
    vekn TEXT,
    judge TEXT NOT NULL,
    judge_role TEXT,
    catalog TEXT,
    infraction TEXT,
    variant TEXT,
    penalty TEXT,
    proposed TEXT,
    description TEXT,
    rule TEXT,
    time TEXT NOT NULL,
    approved_by TEXT,
    approval_reason TEXT,
    reason TEXT,
    client_id TEXT,
    finding TEXT,                              -- the recorder finding's code
    phase TEXT                                 -- when it was given (which game an SA hits)
);
CREATE INDEX IF NOT EXISTS idx_penalty_records_tournament_id_id ON penalty_records (tournament_id, id);
CREATE UNIQUE INDEX IF NOT EXISTS idx_penalty_records_tournament_id_client_id
    ON penalty_records (tournament_id, client_id);
"""

MIGRATIONS = [
    Migration(1, "the penalty records of release 0.1.0", TABLES_0_1_0),
]
