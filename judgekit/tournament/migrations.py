"""The tournament area's schema, as numbered migrations (see `judgekit.db`).

A released migration is history: never edit it, add the next number.
"""
from __future__ import annotations

import sqlite3

from judgekit.db import Migration
from judgekit.tournament.players import split_name

# Migration 1: the tables as release 0.1.0 left them. The column order is that release's
# (columns it added later come last), so a database it made is adopted as it is.
TABLES_0_1_0 = """
CREATE TABLE IF NOT EXISTS tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    date TEXT,
    location TEXT,
    level TEXT DEFAULT 'standard',
    rounds_planned INTEGER DEFAULT 3,
    time_limit_min INTEGER DEFAULT 120,        -- the recorder clock's default limit then
    final_time_limit_min INTEGER,
    has_final INTEGER DEFAULT 1,
    finalists TEXT,
    final_seed INTEGER,
    created_at TEXT,
    catalog TEXT,                              -- the penalty catalog's id (NULL: the default)
    vekn_event_id TEXT,                        -- the event's details for the VEKN report
    city TEXT,
    format TEXT,
    head_judge TEXT,
    assistant_judges TEXT,
    organizer TEXT,
    checkin_secret TEXT,
    client_id TEXT                             -- the creating client's: a retry gets its event
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_tournaments_client_id ON tournaments (client_id);

CREATE TABLE IF NOT EXISTS tournament_players (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments (id),
    name TEXT,                                 -- the display name
    vekn TEXT,
    checked_in INTEGER DEFAULT 1,
    dropped INTEGER DEFAULT 0,
    dropped_after_round INTEGER,
    joined_after_round INTEGER,
    created_at TEXT,
    added_by TEXT,                             -- what added the player if not a registration
    first_name TEXT,
    last_name TEXT,
    city TEXT,
    country TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_tournament_players_tournament_id_vekn
    ON tournament_players (tournament_id, vekn);

CREATE TABLE IF NOT EXISTS tournament_rounds (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments (id),
    number INTEGER,
    kind TEXT,
    seed INTEGER,
    status TEXT,
    sit_outs TEXT,
    time_limit_min INTEGER,
    started_at TEXT,
    closed_at TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_tournament_rounds_tournament_id_number
    ON tournament_rounds (tournament_id, number);

CREATE TABLE IF NOT EXISTS tournament_tables (
    id INTEGER PRIMARY KEY,
    round_id INTEGER REFERENCES tournament_rounds (id),
    number INTEGER,
    size INTEGER,
    game_id INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_tournament_tables_round_id_number
    ON tournament_tables (round_id, number);

CREATE TABLE IF NOT EXISTS tournament_seats (
    id INTEGER PRIMARY KEY,
    table_id INTEGER REFERENCES tournament_tables (id),
    seat INTEGER,
    player_id INTEGER REFERENCES tournament_players (id)
);
CREATE UNIQUE INDEX IF NOT EXISTS idx_tournament_seats_table_id_seat
    ON tournament_seats (table_id, seat);

CREATE TABLE IF NOT EXISTS tournament_results (
    id INTEGER PRIMARY KEY,
    table_id INTEGER REFERENCES tournament_tables (id),
    kind TEXT,
    vps TEXT,
    withdrawn TEXT,
    reason TEXT,
    note TEXT,
    "by" TEXT,
    created_at TEXT,
    client_id TEXT,                            -- a retried post is stored once
    based_on INTEGER                           -- the result row the form showed
);
CREATE INDEX IF NOT EXISTS idx_tournament_results_table_id_id
    ON tournament_results (table_id, id);
CREATE UNIQUE INDEX IF NOT EXISTS idx_tournament_results_table_id_client_id
    ON tournament_results (table_id, client_id);

CREATE TABLE IF NOT EXISTS tournament_seat_changes (
    id INTEGER PRIMARY KEY,
    round_id INTEGER REFERENCES tournament_rounds (id),
    player_a INTEGER,
    player_b INTEGER,
    warnings TEXT,
    "by" TEXT,
    created_at TEXT
);

CREATE TABLE IF NOT EXISTS tournament_tosses (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments (id),
    players TEXT,
    seed INTEGER,
    places TEXT,
    "by" TEXT,
    created_at TEXT
);

CREATE TABLE IF NOT EXISTS tournament_final_choices (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments (id),
    kind TEXT,
    player_id INTEGER,
    position INTEGER,
    "by" TEXT,
    created_at TEXT
);

CREATE TABLE IF NOT EXISTS tournament_player_changes (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments (id),
    player_id INTEGER REFERENCES tournament_players (id),
    kind TEXT,
    changes TEXT,
    how TEXT,
    "by" TEXT,
    created_at TEXT,
    device TEXT                                -- where a phone check-in came from
);
CREATE INDEX IF NOT EXISTS idx_tournament_player_changes_tournament_id_player_id
    ON tournament_player_changes (tournament_id, player_id);
"""


def split_stored_names(conn: sqlite3.Connection) -> None:
    """A name stored before first and last names existed (releases before first_name was
    added) is split on its first space, as the VEKN's tools do; `name` stays the display
    name. Every release since stores both, so this finds rows only in an adopted database."""
    rows = conn.execute("SELECT id, name FROM tournament_players WHERE first_name IS NULL").fetchall()
    for pid, name in rows:
        first, last = split_name(name or "")
        conn.execute("UPDATE tournament_players SET first_name = ?, last_name = ? WHERE id = ?",
                     [first, last, pid])


# Migration 2: tables report their own result (docs/tournament.md). A player's own link is
# a row per link given (the token's hash only; a newer row for the player replaces the
# older link); a table's report is a proposal row and its steps (confirm, dispute, accept,
# counted), all append-only.
SELF_REPORT = """
CREATE TABLE tournament_player_links (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
    player_id INTEGER NOT NULL REFERENCES tournament_players (id),
    token_hash TEXT NOT NULL UNIQUE,
    how TEXT,                                  -- 'check-in' (the player's phone) or 'desk'
    "by" TEXT,
    created_at TEXT
);
CREATE INDEX idx_tournament_player_links_player ON tournament_player_links (tournament_id, player_id);

CREATE TABLE tournament_result_reports (
    id INTEGER PRIMARY KEY,
    table_id INTEGER NOT NULL REFERENCES tournament_tables (id),
    player_id INTEGER NOT NULL REFERENCES tournament_players (id),   -- who proposed
    vps TEXT NOT NULL,
    withdrawn TEXT NOT NULL,
    client_id TEXT,
    created_at TEXT
);
CREATE INDEX idx_tournament_result_reports_table ON tournament_result_reports (table_id);
CREATE UNIQUE INDEX idx_tournament_result_reports_client ON tournament_result_reports (table_id, client_id);

CREATE TABLE tournament_result_report_steps (
    id INTEGER PRIMARY KEY,
    report_id INTEGER NOT NULL REFERENCES tournament_result_reports (id),
    kind TEXT NOT NULL,                        -- confirm | dispute | accept | counted
    player_id INTEGER,                         -- the player (confirm, dispute); NULL for a judge
    "by" TEXT,
    note TEXT,
    result_id INTEGER,                         -- accept, counted: the result row it stored
    created_at TEXT
);
CREATE INDEX idx_tournament_result_report_steps_report ON tournament_result_report_steps (report_id);
"""

MIGRATIONS = [
    Migration(1, "the tournament tables of release 0.1.0", TABLES_0_1_0, then=split_stored_names),
    Migration(2, "tables report their own result: player links, reports and their steps", SELF_REPORT),
]
