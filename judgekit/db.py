"""The SQLite database (one file in the instance folder, WAL mode) and its migrations.

The schema is versioned. Each area that stores data owns a `migrations` module holding
`MIGRATIONS`, a numbered list of `Migration`s (plain SQL, then an optional data step);
`AREAS` names them in the order they run. The table `schema_migrations` records which
numbers each area has applied; `migrate()` applies the missing ones, each in a transaction
of its own, and does nothing else (one query) when the database is current. Migrations are
history: a released migration is never edited; a change is a new number. docs/development.md
says how to add one. Nothing here imports Flask: the per-request connection lives in
`judgekit.views.get_db`.
"""
from __future__ import annotations

import importlib
import os
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable


def _import_sqlite_utils():
    """sqlite-utils imports numpy whenever it is installed (krcg brings it), only to map
    numpy's number types to column types. judgekit never stores a numpy value (seating turns
    krcg's numbers into ints), and numpy would hold memory from the server's start: importing
    sqlite-utils costs 25.2 MB of RSS with numpy, 13.3 MB without (28 Nov 2026). So numpy is
    hidden while sqlite-utils loads (`sys.modules[name] = None` makes `import name` raise
    ImportError: the import system's documented rule, and sqlite-utils treats numpy as
    optional); krcg still imports it when a seating is first measured."""
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

# Each area with tables, and the module holding its `MIGRATIONS`, in the order they run
# (the tournament first: the other areas' rows refer to its tournaments).
AREAS = {
    "tournament": "judgekit.tournament.migrations",
    "auth": "judgekit.auth.migrations",
    "recorder": "judgekit.recorder.migrations",
    "penalties": "judgekit.tournament.penalties.migrations",
    "live": "judgekit.live.migrations",
    "decks": "judgekit.decks.migrations",
}

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


# --- versioned migrations ------------------------------------------------------------------

@dataclass(frozen=True)
class Migration:
    """One numbered step of an area's schema. `sql`: statements run in order (written as
    plain SQL: `CREATE TABLE`, `CREATE INDEX`, `ALTER TABLE … ADD COLUMN`); `then`: a
    data step run after them in the same transaction (a backfill), given the connection."""
    number: int
    what: str
    sql: str = ""
    then: Callable[[sqlite3.Connection], None] | None = None


class SchemaError(Exception):
    """The database cannot be brought to this release's schema (one made by a newer
    release, a table an older release made that cannot be adopted): the message says why."""


LEDGER = "schema_migrations"
_LEDGER_SQL = (f"CREATE TABLE IF NOT EXISTS {LEDGER} (area TEXT NOT NULL, number INTEGER NOT NULL, "
               "what TEXT NOT NULL, applied_at TEXT NOT NULL, PRIMARY KEY (area, number))")


def area_migrations() -> dict[str, list[Migration]]:
    """{area: its migrations}, in the order they run; each list numbered 1, 2, … n."""
    out = {}
    for area, module in AREAS.items():
        steps = list(importlib.import_module(module).MIGRATIONS)
        numbers = [m.number for m in steps]
        if numbers != list(range(1, len(steps) + 1)):
            raise SchemaError(f"{module}: migrations must be numbered 1, 2, … without gaps, not {numbers}")
        out[area] = steps
    return out


def schema_versions(db: sqlite_utils.Database | sqlite3.Connection) -> dict[str, int]:
    """{area: the highest migration number applied}; {} for a database without the ledger
    (new, or made before the schema was versioned)."""
    conn = getattr(db, "conn", db)
    try:
        rows = conn.execute(f"SELECT area, max(number) FROM {LEDGER} GROUP BY area").fetchall()
    except sqlite3.OperationalError:   # no ledger yet
        return {}
    return dict(rows)


def migrate(db: sqlite_utils.Database) -> dict[str, list[int]]:
    """Apply the migrations the database lacks, each in one transaction; returns
    {area: [numbers applied]} ({} when the database was current: then the only statement
    run is the ledger's read). A database made by a newer release is refused (SchemaError)."""
    wanted = area_migrations()
    have = schema_versions(db)
    ahead = [f"{area} is at {n}, this release knows {len(wanted.get(area, []))}"
             for area, n in have.items() if n > len(wanted.get(area, []))]
    if ahead:
        raise SchemaError("the database was made by a newer judgekit (" + "; ".join(ahead) + "): "
                          "run that release, or restore a copy made with this one")
    done: dict[str, list[int]] = {}
    for area, steps in wanted.items():
        for step in steps[have.get(area, 0):]:
            if _apply(db.conn, area, step):
                done.setdefault(area, []).append(step.number)
    return done


def statements(sql: str) -> list[str]:
    """`sql` cut into complete statements (semicolons inside strings and comments are kept;
    a piece that is only comments is dropped)."""
    def code(text: str) -> str:   # without whole-line comments
        return " ".join(line for line in text.splitlines() if not line.strip().startswith("--")).strip(" \t;")

    out, buf = [], ""
    for piece in sql.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):
            if code(buf):
                out.append(buf.strip())
            buf = ""
    if code(buf):
        raise SchemaError(f"an incomplete SQL statement: {code(buf)[:80]}")
    return out


def _apply(conn: sqlite3.Connection, area: str, step: Migration) -> bool:
    """Run one migration in its own write transaction and record it; False when another
    process applied it first (checked again under the write lock)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute(_LEDGER_SQL)
        if conn.execute(f"SELECT 1 FROM {LEDGER} WHERE area = ? AND number = ?",
                        [area, step.number]).fetchone():
            conn.execute("ROLLBACK")
            return False
        if step.number == 1:
            _adopt(conn, area, step.sql)
        for sql in statements(step.sql):
            conn.execute(sql)
        if step.then is not None:
            step.then(conn)
        conn.execute(f"INSERT INTO {LEDGER} (area, number, what, applied_at) VALUES (?, ?, ?, ?)",
                     [area, step.number, step.what,
                      time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())])
        conn.execute("COMMIT")
        return True
    except BaseException:
        conn.execute("ROLLBACK")
        raise


def _adopt(conn: sqlite3.Connection, area: str, sql: str) -> None:
    """Before an area's migration 1 on a database made before the schema was versioned
    (releases up to 0.1.0 created the tables at every start and only ever added columns):
    the tables that already exist keep their rows; a column they lack is added. Migration 1
    itself only creates what is missing (`IF NOT EXISTS`), so it then finds the schema
    whole. A new database has none of the tables: nothing to do."""
    scratch = sqlite3.connect(":memory:")
    try:
        for statement in statements(sql):
            scratch.execute(statement)
        tables = [name for (name,) in scratch.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        for table in tables:
            existing = {row[1] for row in conn.execute(f'PRAGMA table_info("{table}")')}
            if not existing:
                continue
            for _, name, kind, notnull, default, pk in scratch.execute(f'PRAGMA table_info("{table}")'):
                if name in existing:
                    continue
                if pk or (notnull and default is None):
                    raise SchemaError(f"{area}: the table {table} made by an older release lacks "
                                      f"{name}, which cannot be added to existing rows")
                clause = " NOT NULL" if notnull else ""
                clause += f" DEFAULT {default}" if default is not None else ""
                conn.execute(f'ALTER TABLE "{table}" ADD COLUMN "{name}" {kind}{clause}')
    finally:
        scratch.close()


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
