"""The SQLite database (one file in the instance folder, WAL mode) and its migrations.

Each area that stores data owns a `migrate(db)` function in its `store` module that
creates or upgrades its tables idempotently; `migrate()` runs them all in order. Nothing
here imports Flask: the per-request connection lives in `judgekit.views.get_db`.
"""
from __future__ import annotations

import importlib
import os
import sqlite3
from contextlib import contextmanager
from pathlib import Path


def _import_sqlite_utils():
    """sqlite-utils imports numpy whenever it is installed (krcg brings it), only to map
    numpy's number types to column types. judgekit never stores a numpy value (seating turns
    krcg's numbers into ints), and numpy would hold ~15 MB of the server's memory from its
    start. So numpy is hidden while sqlite-utils loads; krcg still imports it when a seating
    is first measured."""
    import sys
    if "sqlite_utils" in sys.modules or "numpy" in sys.modules:
        return importlib.import_module("sqlite_utils")
    sys.modules["numpy"] = None  # type: ignore[assignment]  # `import numpy` raises ImportError
    try:
        return importlib.import_module("sqlite_utils")
    finally:
        if sys.modules.get("numpy", 0) is None:
            del sys.modules["numpy"]


sqlite_utils = _import_sqlite_utils()

# Modules exposing `migrate(db: sqlite_utils.Database) -> None`, run in this order.
STORES = [
    "judgekit.tournament.store",
    "judgekit.auth.store",
    "judgekit.recorder.store",
    "judgekit.tournament.penalties.store",
    "judgekit.live.journal",
    "judgekit.live.calls",
]

# How a commit reaches the disk: the one place that decides it for every write (results,
# corrections, overrides, penalties, approvals, extensions, registrations, check-ins,
# recorder appends). FULL: SQLite fsyncs the WAL at every COMMIT, before the commit
# returns, so a write the app has answered 2xx survives a crash of the app *and* a power
# cut. (WAL's NORMAL level fsyncs only at checkpoints: it survives a crash of the app but a
# power cut can lose the last commits.) Cost measured by bench/durability.py.
SYNCHRONOUS = "FULL"
LEVELS = {"OFF": 0, "NORMAL": 1, "FULL": 2, "EXTRA": 3}


def first_row(db: sqlite_utils.Database, sql: str, params=()) -> dict | None:
    """The first row `sql` gives, as a dict, or None: a plain query, without sqlite-utils'
    table look-ups (for the reads every signed-in request makes)."""
    cursor = db.conn.execute(sql, list(params))
    row = cursor.fetchone()
    return dict(zip([c[0] for c in cursor.description], row)) if row is not None else None


def open_db(path: str | Path, synchronous: str | None = None) -> sqlite_utils.Database:
    """Open (creating if needed) the database with the settings every connection needs.
    A new database file is created readable by its owner only (0600); SQLite gives its WAL
    and SHM files the same mode.

    `synchronous` (default `SYNCHRONOUS`, FULL) is for benches that compare the levels."""
    level = (synchronous or SYNCHRONOUS).upper()
    if level not in LEVELS:
        raise ValueError(f"synchronous must be one of {', '.join(LEVELS)}, not {synchronous!r}")
    _create_private(path)
    conn = sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute(f"PRAGMA synchronous={level}")
    conn.execute("PRAGMA foreign_keys=ON")
    conn.execute("PRAGMA busy_timeout=30000")
    return sqlite_utils.Database(conn)


def synchronous_level(db: sqlite_utils.Database) -> str:
    """The level in force on this connection, read back from SQLite ("FULL", "NORMAL"...)."""
    value = db.conn.execute("PRAGMA synchronous").fetchone()[0]
    return next((name for name, n in LEVELS.items() if n == value), str(value))


@contextmanager
def synchronous(db: sqlite_utils.Database, level: str):
    """`with synchronous(db, "NORMAL"): ...` — commits inside use `level`; the connection's
    own level is restored after (for an explicit opt-out such as RECORDER_DURABLE=0). Inside
    a caller's transaction nothing changes: that transaction's commit decides (SQLite refuses
    to change the level mid-transaction)."""
    if db.conn.in_transaction:
        yield
        return
    before = synchronous_level(db)
    db.conn.execute(f"PRAGMA synchronous={LEVELS[level.upper()]}")
    try:
        yield
    finally:
        db.conn.execute(f"PRAGMA synchronous={LEVELS[before]}")


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
