"""The versioned schema: numbered migrations per area, recorded in `schema_migrations`, run
only when the database is behind; a database made by release 0.1.0 (before versions) is
adopted as it is, nothing lost."""
from __future__ import annotations

import sqlite3
import sys
import types
from pathlib import Path

import pytest

from tests.conftest import sign_in_client
from judgekit import create_app, db as dbmod
from judgekit.db import Migration, SchemaError, migrate, open_db, schema_versions

FIXTURE = Path(__file__).parent / "fixtures" / "release-0.1.0.sql"


def latest() -> dict[str, int]:
    return {area: len(steps) for area, steps in dbmod.area_migrations().items()}


def shape(conn: sqlite3.Connection) -> dict:
    """Every table's columns (in order, with type, NOT NULL, default, primary key), foreign
    keys and indexes (name, unique, columns): what a rebuilt or altered table would change."""
    out = {}
    names = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' "
                                        "AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    for name in names:
        columns = [tuple(r[1:]) for r in conn.execute(f'PRAGMA table_info("{name}")')]
        keys = sorted(tuple(r[2:5]) for r in conn.execute(f'PRAGMA foreign_key_list("{name}")'))
        indexes = sorted(
            (r[1], r[2], tuple(c[2] for c in conn.execute(f'PRAGMA index_info("{r[1]}")')))
            for r in conn.execute(f'PRAGMA index_list("{name}")'))
        out[name] = (columns, keys, indexes)
    return out


def rows(conn: sqlite3.Connection, tables) -> dict:
    return {t: sorted(map(tuple, conn.execute(f'SELECT * FROM "{t}"')), key=repr) for t in tables}


def release_db(path: Path) -> Path:
    """A database as release 0.1.0 made it (tests/fixtures/make_release_db.py)."""
    conn = sqlite3.connect(path)
    conn.executescript(FIXTURE.read_text(encoding="utf-8"))
    conn.close()
    return path


def test_a_new_database_gets_every_area_at_its_latest_number(tmp_path):
    db = open_db(tmp_path / "new.db")
    assert schema_versions(db) == {}
    applied = migrate(db)
    assert applied == {area: list(range(1, n + 1)) for area, n in latest().items()}
    assert schema_versions(db) == latest()
    assert set(applied) == {"tournament", "auth", "recorder", "penalties", "live", "decks"}
    db.close()


def test_a_second_start_runs_no_ddl(tmp_path):
    db = open_db(tmp_path / "twice.db")
    migrate(db)
    seen: list[str] = []
    db.conn.set_trace_callback(seen.append)
    assert migrate(db) == {}
    db.conn.set_trace_callback(None)
    assert seen == ["SELECT area, max(number) FROM schema_migrations GROUP BY area"]
    db.close()


def test_the_app_factory_migrates_once(tmp_path, shared_index):
    config = {"INSTANCE": tmp_path / "instance", "INDEX_DIR": str(shared_index), "TESTING": True}
    create_app(config)
    db = open_db(tmp_path / "instance" / "judgekit.db")
    first = db.execute("SELECT area, number, applied_at FROM schema_migrations").fetchall()
    db.close()
    create_app(config)
    db = open_db(tmp_path / "instance" / "judgekit.db")
    assert db.execute("SELECT area, number, applied_at FROM schema_migrations").fetchall() == first
    assert len(first) == sum(latest().values())
    db.close()


def test_a_release_0_1_0_database_is_adopted_with_nothing_lost(tmp_path):
    path = release_db(tmp_path / "judgekit.db")
    conn = sqlite3.connect(path)
    tables = [n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    before = rows(conn, tables)
    conn.close()
    assert all(before[t] for t in tables if t != "sqlite_sequence"), "the fixture fills every table"

    db = open_db(path)
    assert schema_versions(db) == {}
    assert migrate(db) == {area: list(range(1, n + 1)) for area, n in latest().items()}
    assert rows(db.conn, tables) == before            # no row lost or changed
    adopted = shape(db.conn)
    db.close()

    fresh = open_db(tmp_path / "fresh.db")
    migrate(fresh)
    assert adopted == shape(fresh.conn)              # the same schema as a new database
    fresh.close()


def test_the_app_serves_an_adopted_release_database(tmp_path, shared_index):
    instance = tmp_path / "instance"
    instance.mkdir()
    release_db(instance / "judgekit.db")
    app = create_app({"INSTANCE": instance, "INDEX_DIR": str(shared_index), "TESTING": True})
    client = app.test_client()
    sign_in_client(app, client, 1, "organizer", how="session")
    page = client.get("/tournaments/1/standings")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Demo Open" in html and "Ana Souza" in html
    public = client.get("/tournaments/1/public")
    assert public.status_code == 200 and "Ana Souza" in public.get_data(as_text=True)


def test_an_older_unversioned_database_gets_the_columns_it_lacks(tmp_path):
    """Releases before 0.1.0 made fewer columns (names in one piece, events without their
    entry): adopting adds them, and the names are split once, not at every start."""
    path = tmp_path / "older.db"
    conn = sqlite3.connect(path)
    conn.executescript("""
        CREATE TABLE tournaments (id INTEGER PRIMARY KEY, name TEXT NOT NULL, date TEXT);
        CREATE TABLE tournament_players (id INTEGER PRIMARY KEY, tournament_id INTEGER, name TEXT,
            vekn TEXT, checked_in INTEGER DEFAULT 1, dropped INTEGER DEFAULT 0);
        CREATE TABLE games (id INTEGER PRIMARY KEY, label TEXT, seats TEXT NOT NULL, created TEXT NOT NULL);
        CREATE TABLE events (id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL, seq INTEGER NOT NULL,
            client_id TEXT, type TEXT NOT NULL, seat INTEGER, judge TEXT, time TEXT NOT NULL, data TEXT NOT NULL);
        INSERT INTO tournaments VALUES (1, 'Old Cup', '2019-03-02');
        INSERT INTO tournament_players (tournament_id, name, vekn) VALUES
            (1, 'Jean-Pierre de la Tour', '100'), (1, 'Cher', NULL);
        INSERT INTO games VALUES (1, '', '["A","B","C","D"]', 'x');
        INSERT INTO events VALUES (1, 1, 1, 'a:1', 'note', NULL, 'j', 't', '{"type": "note"}');
    """)
    conn.close()
    db = open_db(path)
    migrate(db)
    players = db.execute("SELECT name, first_name, last_name, checked_in FROM tournament_players "
                         "ORDER BY id").fetchall()
    assert players == [("Jean-Pierre de la Tour", "Jean-Pierre", "de la Tour", 1), ("Cher", "Cher", "", 1)]
    assert db.execute("SELECT name, date, level, catalog FROM tournaments").fetchall() == [
        ("Old Cup", "2019-03-02", "standard", None)]   # a column added with its default
    assert db.execute("SELECT id, seq, type, batch FROM events").fetchall() == [(1, 1, "note", None)]
    # an edited split is the organizer's: a later start leaves it alone
    db.execute("UPDATE tournament_players SET first_name = 'Jean-Pierre de', last_name = 'la Tour' "
               "WHERE vekn = '100'")
    migrate(db)
    assert db.execute("SELECT first_name FROM tournament_players WHERE vekn = '100'").fetchone() == (
        "Jean-Pierre de",)
    fresh = open_db(tmp_path / "fresh.db")
    migrate(fresh)
    new_columns = {t: [c[0] for c in s[0]] for t, s in shape(fresh.conn).items()}
    old_columns = {t: [c[0] for c in s[0]] for t, s in shape(db.conn).items()}
    assert {t: set(c) for t, c in old_columns.items()} == {t: set(c) for t, c in new_columns.items()}
    db.close()
    fresh.close()


@pytest.fixture
def extra_area(monkeypatch):
    """A test area `scratch` after the real ones; its MIGRATIONS list is returned to edit."""
    module = types.ModuleType("judgekit_test_scratch_migrations")
    module.MIGRATIONS = [Migration(1, "a table", "CREATE TABLE scratch (id INTEGER PRIMARY KEY, a TEXT)")]
    monkeypatch.setitem(sys.modules, module.__name__, module)
    monkeypatch.setattr(dbmod, "AREAS", {**dbmod.AREAS, "scratch": module.__name__})
    return module.MIGRATIONS


def test_a_new_migration_runs_once_on_a_database_that_is_behind(tmp_path, extra_area):
    db = open_db(tmp_path / "behind.db")
    assert migrate(db)["scratch"] == [1]
    db.execute("INSERT INTO scratch (a) VALUES ('kept')")
    extra_area.append(Migration(2, "a column with a backfill", "ALTER TABLE scratch ADD COLUMN b TEXT",
                                then=lambda c: c.execute("UPDATE scratch SET b = upper(a)")))
    assert migrate(db) == {"scratch": [2]}
    assert db.execute("SELECT a, b FROM scratch").fetchall() == [("kept", "KEPT")]
    assert migrate(db) == {}
    assert schema_versions(db)["scratch"] == 2
    db.close()


def test_a_failing_migration_leaves_nothing_behind(tmp_path, extra_area):
    db = open_db(tmp_path / "fails.db")
    migrate(db)
    extra_area.append(Migration(2, "half good", "CREATE TABLE half (id INTEGER); ALTER TABLE nowhere ADD COLUMN x"))
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        migrate(db)
    assert "half" not in db.table_names()
    assert schema_versions(db)["scratch"] == 1
    assert not db.conn.in_transaction
    db.close()


def test_migrations_are_numbered_without_gaps(extra_area):
    extra_area.append(Migration(3, "skips 2", "SELECT 1"))
    with pytest.raises(SchemaError, match="numbered 1, 2"):
        dbmod.area_migrations()


def test_a_database_from_a_newer_release_is_refused(tmp_path):
    db = open_db(tmp_path / "newer.db")
    migrate(db)
    db.execute("INSERT INTO schema_migrations VALUES ('recorder', 99, 'from the future', 'x')")
    with pytest.raises(SchemaError, match="newer judgekit.*recorder is at 99"):
        migrate(db)
    db.close()


def test_the_command_line_refuses_a_newer_database_in_one_line(tmp_path):
    from click.testing import CliRunner

    from judgekit.cli import main
    db = open_db(tmp_path / "judgekit.db")
    migrate(db)
    db.execute("INSERT INTO schema_migrations VALUES ('live', 7, 'from the future', 'x')")
    db.close()
    for command in (["build"], ["demo"], ["serve", "--port", "1"]):
        r = CliRunner().invoke(main, ["--instance", str(tmp_path), *command])
        assert r.exit_code == 1, (command, r.output)
        assert r.stderr.strip().splitlines() == [
            "judgekit: the database was made by a newer judgekit (live is at 7, this release knows 1): "
            "run that release, or restore a copy made with this one"]


def test_statements_are_cut_outside_strings_and_comments():
    sql = "CREATE TABLE a (x TEXT DEFAULT 'a;b'); -- it's a comment; with semicolons\nCREATE INDEX i ON a (x);"
    assert len(dbmod.statements(sql)) == 2
    assert dbmod.statements(sql)[0] == "CREATE TABLE a (x TEXT DEFAULT 'a;b');"
    assert dbmod.statements("CREATE TABLE b (y);\n-- the end; nothing after\n") == ["CREATE TABLE b (y);"]
    with pytest.raises(SchemaError, match="incomplete"):
        dbmod.statements("CREATE TABLE c (z TEXT DEFAULT 'never closed)")
