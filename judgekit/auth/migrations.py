"""The auth area's schema, as numbered migrations (see `judgekit.db`).

A released migration is history: never edit it, add the next number.
"""
from __future__ import annotations

from judgekit.db import Migration

TABLES_0_1_0 = """
CREATE TABLE IF NOT EXISTS auth_codes (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    role TEXT NOT NULL,
    code_hash TEXT NOT NULL,
    generation INTEGER,
    created_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_auth_codes_tournament_id_role ON auth_codes (tournament_id, role);

CREATE TABLE IF NOT EXISTS auth_tokens (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    role TEXT NOT NULL,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    generation INTEGER,
    created_at TEXT,
    revoked_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_auth_tokens_token_hash ON auth_tokens (token_hash);
"""

MIGRATIONS = [
    Migration(1, "the sign-in codes and tokens of release 0.1.0", TABLES_0_1_0),
]
