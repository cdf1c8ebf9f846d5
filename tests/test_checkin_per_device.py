"""Issue 28, item 5: one phone with the venue's check-in code could check in every player
(no-shows included). A device checks in one player; a second needs that player's own
phone or a judge; the organizer sees who checked in from where."""
from __future__ import annotations

import re

import pytest

from judgekit.db import open_db
from judgekit.tournament import store


@pytest.fixture
def org(client):
    body = client.post("/api/tournaments", json={"name": "Check-in Cup"}).get_json()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {body['token']}"
    return {"tid": body["id"], "token": body["token"]}


def csrf(client, path) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).get_data(as_text=True)).group(1)


def test_one_phone_checks_in_one_player(client, org, signed_in, app):
    tid = org["tid"]
    client.post(f"/api/tournaments/{tid}/players/bulk", json={"text": "Ana Silva;100\nBo Dias;101\nCy Reis;102"})
    token = signed_in(client, tid, "organizer", how="session")
    client.post(f"/tournaments/{tid}/check-in/open", data={"csrf_token": token})
    state = client.get(f"/api/tournaments/{tid}/check-in").get_json()
    page, link = f"/tournaments/{tid}/check-in", state["path"]
    form = {"code": state["code"], "w": state["window"]}

    photo = app.test_client()                        # someone with a photo of the QR code
    photo.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    tok = csrf(photo, link)
    r = photo.post(page, data={"csrf_token": tok, **form, "who": "100"})
    assert "<b>Ana Silva</b> is checked in" in r.get_data(as_text=True)
    for who in ("101", "102"):                       # the no-shows: refused, nothing stored
        r = photo.post(page, data={"csrf_token": tok, **form, "who": who})
        text = r.get_data(as_text=True)
        assert r.status_code == 409 and "This phone has already checked in Ana Silva" in text
    r = photo.post(page, data={"csrf_token": tok, **form, "who": "100"})   # its own player again: fine
    assert "is already checked in" in r.get_data(as_text=True)

    bo = app.test_client()                           # Bo, on his own phone
    bo.environ_base["REMOTE_ADDR"] = "10.0.0.10"
    r = bo.post(page, data={"csrf_token": csrf(bo, link), **form, "who": "101"})
    assert "<b>Bo Dias</b> is checked in" in r.get_data(as_text=True)

    judge = app.test_client()                        # a judge's phone checks in anyone
    judge.environ_base["REMOTE_ADDR"] = "10.0.0.9"
    signed_in(judge, tid, "judge", how="session")
    r = judge.post(page, data={"csrf_token": csrf(judge, link), **form, "who": "102"})
    assert "<b>Cy Reis</b> is checked in" in r.get_data(as_text=True)

    db = open_db(app.config["DATABASE"])
    try:
        present = {p["name"]: p["checked_in"] for p in store.players(db, tid)}
        log = store.phone_check_ins(db, tid)
    finally:
        db.close()
    assert present == {"Ana Silva": True, "Bo Dias": True, "Cy Reis": True}
    assert [(c["name"], c["device"], c["shared"]) for c in log] == [
        ("Ana Silva", "10.0.0.9", 2), ("Bo Dias", "10.0.0.10", 1), ("Cy Reis", "10.0.0.9", 2)]
    assert log[2]["by"] != "Cy Reis"                 # the judge's check-in, logged as theirs
    # the organizer sees who checked in from where
    dash = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    assert "Checked in by phone: 3" in dash and "10.0.0.9" in dash and "10.0.0.10" in dash
    assert client.get(f"/api/tournaments/{tid}/check-in").get_json()["by_phone"][0]["device"] == "10.0.0.9"
