"""Issue 28, item 4: creating or importing an event stores the event and its sign-in codes
in ONE transaction (a crash between them left an event nobody could sign in to), and a
retry with the same client id answers with the first event (the client, having no answer,
imported again and made a duplicate)."""
from __future__ import annotations

import base64
import io
import re

import pytest

from judgekit.auth import store as auth_store
from judgekit.db import open_db


def count(app, table="tournaments") -> int:
    db = open_db(app.config["DATABASE"])
    try:
        return db.execute(f"select count(*) from {table}").fetchone()[0]
    finally:
        db.close()


def workbook() -> bytes:
    from judgekit.tournament import archon
    ev = archon.ArchonEvent(name="Retry Cup", level="Standard Constructed")
    ev.players = [archon.ArchonPlayer(number=k, first=f"P{k}", last="X", vekn=str(100 + k)) for k in range(1, 9)]
    ev.rounds = [[[archon.ArchonSeat(k, vp) for k, vp in zip(range(1, 5), (4, 0, 0, 0))],
                  [archon.ArchonSeat(k, vp) for k, vp in zip(range(5, 9), (1.5, 0, 0.5, 0.5))]]]
    return archon.write_workbook(ev)


class Crash(Exception):
    """The process dying between storing the event and storing its codes."""


@pytest.fixture
def crash_on_codes(monkeypatch):
    def crash(*args, **kwargs):
        raise Crash()
    monkeypatch.setattr(auth_store, "issue_codes", crash)


@pytest.mark.parametrize("how", ["api", "form", "import-api", "import-form"])
def test_a_crash_before_the_codes_leaves_no_event(app, client, crash_on_codes, how):
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/tournaments").get_data(as_text=True)).group(1)
    if how == "api":
        r = client.post("/api/tournaments", json={"name": "Half Open", "client_id": "c-1"})
    elif how == "form":
        r = client.post("/tournaments", data={"csrf_token": token, "name": "Half Open", "client_id": "c-1"})
    elif how == "import-api":
        r = client.post("/api/tournaments/import-archon",
                        json={"workbook": base64.b64encode(workbook()).decode(), "client_id": "c-1"})
    else:
        r = client.post("/tournaments/import-archon", content_type="multipart/form-data",
                        data={"csrf_token": token, "client_id": "c-1", "file": (io.BytesIO(workbook()), "a.xlsx")})
    assert r.status_code == 500                                # the crash, answered as one
    assert count(app) == 0 and count(app, "tournament_players") == 0      # and nothing of the event is left


def test_a_retried_create_answers_with_the_first_event(app, client):
    first = client.post("/api/tournaments", json={"name": "Once Open", "client_id": "c-42"})
    assert first.status_code == 201 and first.get_json()["duplicate"] is False
    again = app.test_client().post("/api/tournaments", json={"name": "Once Open", "client_id": "c-42"})
    assert again.status_code == 200 and again.get_json()["duplicate"] is True
    assert again.get_json()["id"] == first.get_json()["id"] and count(app) == 1
    tid = again.get_json()["id"]
    code = again.get_json()["codes"]["judge"]                # the retry's codes are the ones that work
    r = app.test_client().post(f"/api/tournaments/{tid}/tokens", json={"code": code, "name": "Jo"})
    assert r.status_code == 201, r.get_json()
    other = client.post("/api/tournaments", json={"name": "Once Open", "client_id": "c-43"})
    assert other.status_code == 201 and other.get_json()["id"] != tid and count(app) == 2
    assert client.post("/api/tournaments", json={"name": "X", "client_id": 5}).status_code == 400
    # a retry signs its sender in as organizer: the client id is never shown to anyone
    assert "client_id" not in first.get_json()
    assert all("client_id" not in t for t in client.get("/api/tournaments").get_json()["tournaments"])


def test_a_retried_import_answers_with_the_first_event(app, client):
    body = {"workbook": base64.b64encode(workbook()).decode(), "client_id": "imp-1"}
    first = client.post("/api/tournaments/import-archon", json=body)
    again = app.test_client().post("/api/tournaments/import-archon", json=body)
    assert first.status_code == 201 and again.status_code == 200 and again.get_json()["duplicate"] is True
    assert again.get_json()["id"] == first.get_json()["id"] and count(app) == 1 and count(app, "tournament_players") == 8


def test_a_form_sent_twice_makes_one_event(app, client):
    page = client.get("/tournaments").get_data(as_text=True)
    token = re.search(r'name="csrf-token" content="([^"]+)"', page).group(1)
    cid = re.search(r'name="client_id" value="([^"]+)"', page).group(1)
    r = client.post("/tournaments", data={"csrf_token": token, "name": "Twice Open", "client_id": cid})
    assert r.status_code == 302
    # the answer (and its cookie) was lost: the browser sends the form again, as it was
    client = app.test_client()
    token = re.search(r'name="csrf-token" content="([^"]+)"', client.get("/tournaments").get_data(as_text=True)).group(1)
    r = client.post("/tournaments", data={"csrf_token": token, "name": "Twice Open", "client_id": cid})
    assert r.status_code == 302
    assert count(app) == 1
    assert "created already" in client.get(r.location).get_data(as_text=True)
