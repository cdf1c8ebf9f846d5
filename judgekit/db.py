"""The SQLite database (one file in the instance folder, WAL mode) and its migrations.

Each area that stores data owns a `migrate(db)` function in its `store` module that
creates or upgrades its tables idempotently; `migrate()` runs them all in order. Nothing
here imports Flask: the per-request connection lives in `judgekit.views.get_db`.
"""
from __future__ import annotations

import importlib
import os
import sqlite3
from pathlib import Path

import sqlite_utils

# Modules exposing `migrate(db: sqlite_utils.Database) -> None`, run in this order.
STORES = [
    "judgekit.tournament.store",
    "judgekit.auth.store",
    "judgekit.recorder.store",
    "judgekit.tournament.penalties.store",
]


def open_db(path: str | Path) -> sqlite_utils.Database:
    """Open (creating if needed) the database with the settings every connection needs.
    A new database file is created readable by its owner only (0600); SQLite gives its WAL
    and SHM files the same mode."""
    _create_private(path)
    conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    return sqlite_utils.Database(conn)


def _create_private(path: str | Path) -> None:
    if str(path) == ":memory:" or str(path).startswith("file:"):
        return
    try:
        os.close(os.open(str(path), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    except FileExistsError:
        pass
    except OSError:
        pass  # e.g. a missing folder: sqlite3.connect says so in its own words


def migrate(db: sqlite_utils.Database) -> list[str]:
    """Bring every area's tables up to date. Returns the names of the stores migrated."""
    done = []
    for name in STORES:
        importlib.import_module(name).migrate(db)
        done.append(name)
    return done


class transaction:
    """`with transaction(db): ...` — one write transaction (BEGIN IMMEDIATE … COMMIT).

    Connections are opened in autocommit mode, so multi-statement writes that must be
    atomic (an event and its sequence number, a penalty and its escalation step) use this.
    Nested use joins the outer transaction.
    """

    def __init__(self, db: sqlite_utils.Database):
        self.conn = db.conn
        self.outer = False

    def __enter__(self):
        if self.conn.in_transaction:
            self.outer = True
        else:
            self.conn.execute("BEGIN IMMEDIATE")
        return self

    def __exit__(self, exc_type, exc, tb):
        if self.outer:
            return False
        if exc_type is None:
            self.conn.execute("COMMIT")
        else:
            self.conn.execute("ROLLBACK")
        return False
