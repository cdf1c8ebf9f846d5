"""Every write that answers 2xx is durable: the connections the app writes with commit with
synchronous=FULL (an fsync of the WAL at each COMMIT), decided in one place
(`judgekit.db.open_db`), read back from SQLite. The kill test (tools/kill_test.py) checks
the same under load, with the server killed and the fsyncs traced."""
from __future__ import annotations

import pytest

from judgekit import db as dbmod
from judgekit.recorder import store as recorder_store
from judgekit.views import get_db


def test_every_connection_opened_commits_with_full_sync(tmp_path):
    d = dbmod.open_db(tmp_path / "x.db")
    assert dbmod.synchronous_level(d) == "FULL"
    assert d.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    d.close()


def test_the_requests_connection_is_full(app):
    with app.app_context():
        assert dbmod.synchronous_level(get_db()) == "FULL"


def test_tournament_writes_through_the_api_leave_the_connection_full(app, client, signed_in):
    r = client.post("/api/tournaments", json={"name": "Durable Cup"})
    tid = r.get_json()["id"]
    client.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + r.get_json()["token"]
    assert client.post(f"/api/tournaments/{tid}/players",
                       json=[{"name": f"P{k}"} for k in range(4)]).status_code in (200, 201)
    with app.app_context():
        assert dbmod.synchronous_level(get_db()) == "FULL"


def test_the_recorder_opt_out_is_for_its_own_commit_only(db):
    gid = recorder_store.create_game(db, ["A", "B", "C", "D"])
    out = recorder_store.append_events(db, gid, {"type": "note", "text": "x"}, durable=False)
    assert out.new == 1
    assert dbmod.synchronous_level(db) == "FULL"  # restored after the relaxed commit
    recorder_store.append_events(db, gid, {"type": "note", "text": "y"})
    assert dbmod.synchronous_level(db) == "FULL"


def test_the_level_is_checked(tmp_path):
    with pytest.raises(ValueError):
        dbmod.open_db(tmp_path / "y.db", synchronous="SOMETIMES")
    d = dbmod.open_db(tmp_path / "z.db", synchronous="normal")
    assert dbmod.synchronous_level(d) == "NORMAL"
    with dbmod.synchronous(d, "FULL"):
        assert dbmod.synchronous_level(d) == "FULL"
    assert dbmod.synchronous_level(d) == "NORMAL"
    d.close()
