"""The recorder's schema, as numbered migrations (see `judgekit.db`).

A released migration is history: never edit it, add the next number.
"""
from __future__ import annotations

from judgekit.db import Migration

# games and events are the record; event_lines, recorder_derived and engine_snapshots are
# derived from the events (log lines, engine snapshots) and rebuilt when their version changes
TABLES_0_1_0 = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    label TEXT,
    seats TEXT NOT NULL,
    tournament_id INTEGER,
    round_no INTEGER,
    table_no INTEGER,
    time_limit_min INTEGER,
    created TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS games_tournament ON games (tournament_id, round_no, table_no);

CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    client_id TEXT,
    type TEXT NOT NULL,
    seat INTEGER,
    judge TEXT,
    time TEXT NOT NULL,
    data TEXT NOT NULL,
    batch INTEGER                              -- the entry it came in with (NULL: its own)
);
CREATE UNIQUE INDEX IF NOT EXISTS events_game_seq ON events (game_id, seq);
CREATE UNIQUE INDEX IF NOT EXISTS events_game_client ON events (game_id, client_id);

CREATE TABLE IF NOT EXISTS event_lines (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    batch INTEGER NOT NULL,
    retracted INTEGER NOT NULL,
    rev INTEGER NOT NULL,
    line TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX IF NOT EXISTS event_lines_rev ON event_lines (game_id, rev);

CREATE TABLE IF NOT EXISTS recorder_derived (
    game_id INTEGER PRIMARY KEY,
    version TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS engine_snapshots (
    game_id INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    version TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""

MIGRATIONS = [
    Migration(1, "the recorder tables of release 0.1.0", TABLES_0_1_0),
]
