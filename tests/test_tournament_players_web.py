"""The players' pages and API (issue 12, section 1): the dashboard's form (focus kept, a
duplicate number keeps what was typed), the 300-player list and its filter, bulk
registration by paste or upload (bad files, a 10 MB file), editing, check in all, and
check-in from a phone (wrong code, expired link, already checked in, throttled guesses)."""
from __future__ import annotations

import io
import re

import pytest

from judgekit.db import open_db
from judgekit.tournament import checkin as checkin_mod
from judgekit.tournament import store

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)


@pytest.fixture
def org(client):
    r = client.post("/api/tournaments", json={"name": "Players Cup"})
    body = r.get_json()
    client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {body['token']}"
    return {"tid": body["id"], "token": body["token"]}


def csrf(client, url):
    return re.search(r'name="csrf-token" content="([^"]+)"', client.get(url).get_data(as_text=True)).group(1)


def count_players(app, tid):
    db = open_db(app.config["DATABASE"])
    try:
        return len(store.players(db, tid))
    finally:
        db.close()


def test_the_form_registers_and_gives_the_name_field_the_focus_again(client, org, signed_in):
    tid = org["tid"]
    token = signed_in(client, tid, "organizer", how="session")
    r = client.post(f"/tournaments/{tid}/players", data={
        "csrf_token": token, "first_name": "Ana", "last_name": "Silva", "vekn": "1234567", "city": "Lyon",
        "country": "France", "checked_in_present": "1"})
    assert r.status_code == 302 and r.location.endswith(f"/tournaments/{tid}?focus=register")
    html = client.get(r.location).get_data(as_text=True)
    assert "Ana Silva registered (not checked in yet)" in html
    assert re.search(r'id="p-first" name="first_name"[^>]*autofocus', html)
    p = client.get(f"/api/tournaments/{tid}/players").get_json()["players"][0]
    assert (p["first_name"], p["last_name"], p["city"], p["country"], p["checked_in"]) == \
        ("Ana", "Silva", "Lyon", "France", False)


def test_a_duplicate_number_keeps_what_was_typed(client, org, signed_in):
    tid = org["tid"]
    client.post(f"/api/tournaments/{tid}/players", json={"name": "Ana Silva", "vekn": "1234567"})
    token = signed_in(client, tid, "organizer", how="session")
    r = client.post(f"/tournaments/{tid}/players", data={
        "csrf_token": token, "first_name": "Bruno", "last_name": "Costa", "vekn": "1234567", "city": "Porto",
        "country": "Portugal", "checked_in_present": "1", "checked_in": "1"})
    html = r.get_data(as_text=True)
    assert r.status_code == 409
    for field, value in (("first_name", "Bruno"), ("last_name", "Costa"), ("vekn", "1234567"), ("city", "Porto"),
                         ("country", "Portugal")):
        assert re.search(rf'name="{field}"[^>]*value="{value}"', html), field
    assert re.search(r'id="p-vekn" name="vekn"[^>]*autofocus[^>]*aria-invalid="true"', html)
    assert 'id="err-vekn" role="alert">VEKN number 1234567 is already registered here (Ana Silva)' in html
    assert count_players(client.application, tid) == 1


def test_a_300_player_dashboard_shows_a_filter_and_the_first_40(client, org, app):
    tid = org["tid"]
    text = "\n".join(f"Zoë{k};Ünal {k};{3000000 + k};Lyon" for k in range(300))
    assert client.post(f"/api/tournaments/{tid}/players/bulk", json={"text": text}).status_code == 201
    html = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    rows = re.findall(r'<li class="p-row[^"]*" id="player-\d+" data-status="out"\s+data-search="([^"]*)"\s*(hidden)?',
                      html)
    assert len(rows) == 300 and sum(1 for _, h in rows if h) == 260
    assert rows[0][0] == "zoe0 unal 0 3000000 lyon"  # folded: the filter finds "zoe" and "Zoë"
    assert 'id="p-filter"' in html and "Showing 40 of 300" in html
    assert "Check in all 300 not checked in" in html
    everyone = client.get(f"/tournaments/{tid}?all=1").get_data(as_text=True)
    assert len(re.findall(r'id="player-\d+"[^>]*hidden', everyone)) == 0


def test_bulk_registration_page_previews_then_registers(client, org, signed_in, app):
    tid = org["tid"]
    token = signed_in(client, tid, "organizer", how="session")
    url = f"/tournaments/{tid}/players/import"
    r = client.post(url, data={"csrf_token": token, "text": "Ana Silva;100\nBruno;100\n;5", "action": "preview"})
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "3 of 3 rows have a problem" in html
    assert "Line 1: VEKN number 100 is also on line 2 (Bruno)" in html and "Line 3: no name" in html
    assert "Ana Silva;100\nBruno;100\n;5</textarea>" in html  # the text stays to be fixed
    r = client.post(url, data={"csrf_token": token, "text": "Ana Silva;100\nBruno;100", "action": "register"})
    assert r.status_code == 400 and count_players(app, tid) == 0
    r = client.post(url, data={"csrf_token": token, "text": "Ana Silva;100\nBruno;101", "action": "preview"})
    assert "2 players ready to register." in r.get_data(as_text=True) and "Register these 2 players" in r.get_data(as_text=True)
    r = client.post(url, data={"csrf_token": token, "text": "Ana Silva;100\nBruno;101", "action": "register",
                               "checked_in": "1"})
    assert r.status_code == 302 and count_players(app, tid) == 2
    assert "2 players registered and checked in" in client.get(r.location).get_data(as_text=True)


@pytest.mark.parametrize("content,words", [
    (b"", "The file is empty."),
    (b"PK\x03\x04\x14\x00", "not a CSV"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "not a text file"),
    (b"First;Last;VEKN\nAna;Silva;1\nBruno;S\xe9;2\n", "Line 3 is not UTF-8"),
])
def test_bad_uploads_get_a_clear_message_and_store_nothing(client, org, signed_in, app, content, words):
    tid = org["tid"]
    token = signed_in(client, tid, "organizer", how="session")
    r = client.post(f"/tournaments/{tid}/players/import", content_type="multipart/form-data",
                    data={"csrf_token": token, "action": "register", "file": (io.BytesIO(content), "players.csv")})
    assert r.status_code == 400 and words in r.get_data(as_text=True)
    assert count_players(app, tid) == 0


def test_an_upload_with_bom_registers(client, org, signed_in, app):
    tid = org["tid"]
    token = signed_in(client, tid, "organizer", how="session")
    data = "\ufeffprénom;nom;vekn;ville\nZoë;Ünal;42;Köln\n".encode()
    r = client.post(f"/tournaments/{tid}/players/import", content_type="multipart/form-data",
                    data={"csrf_token": token, "action": "register", "file": (io.BytesIO(data), "p.csv")})
    assert r.status_code == 302
    p = client.get(f"/api/tournaments/{tid}/players").get_json()["players"][0]
    assert (p["first_name"], p["last_name"], p["vekn"], p["city"]) == ("Zoë", "Ünal", "42", "Köln")


def test_a_10_mb_file_is_refused_with_a_message(client, org, signed_in, app):
    tid = org["tid"]
    token = signed_in(client, tid, "organizer", how="session")
    big = b"Ana;1\n" * (10 * 1024 * 1024 // 6)
    r = client.post(f"/tournaments/{tid}/players/import", content_type="multipart/form-data",
                    data={"csrf_token": token, "file": (io.BytesIO(big), "big.csv")})
    assert r.status_code == 413 and "too large: at most 5.0 MB" in r.get_data(as_text=True)
    r = client.post(f"/api/tournaments/{tid}/players/bulk", json={"text": "x" * (6 * 1024 * 1024)})
    assert r.status_code == 413 and r.get_json()["field"] == "file"
    assert count_players(app, tid) == 0


def test_the_bulk_api_dry_run_and_its_refusal(client, org, app):
    tid = org["tid"]
    r = client.post(f"/api/tournaments/{tid}/players/bulk", json={"text": "Ana;1\nBo;1", "dry_run": True})
    body = r.get_json()
    assert r.status_code == 200 and body["ok"] is False and body["rows"][0]["problems"]
    r = client.post(f"/api/tournaments/{tid}/players/bulk", json={"text": "Ana;1\nBo;1"})
    assert r.status_code == 400 and r.get_json()["problems"][0] == {"line": 1, "message": "VEKN number 1 is also on line 2 (Bo)"}
    for bad in ({"text": 5}, {"text": ["Ana"]}, {}, {"text": "Ana;1", "checked_in": "yes"}):
        r = client.post(f"/api/tournaments/{tid}/players/bulk", json=bad)
        assert r.status_code == 400 and r.get_json()["error"], bad
    assert client.post(f"/api/tournaments/{tid}/players/bulk", data="x", content_type="text/plain").status_code == 415
    assert count_players(app, tid) == 0


def test_the_edit_page_and_the_api_keep_the_change(client, org, signed_in):
    tid = org["tid"]
    a = client.post(f"/api/tournaments/{tid}/players", json={"name": "Ana Silva", "vekn": "P12"}).get_json()
    client.post(f"/api/tournaments/{tid}/players", json={"name": "Bo", "vekn": "13"})
    r = client.patch(f"/api/tournaments/{tid}/players/{a['id']}", json={"vekn": "1234567", "city": "Lyon"})
    assert r.status_code == 200 and r.get_json()["vekn"] == "1234567" and not r.get_json()["vekn_temporary"]
    r = client.patch(f"/api/tournaments/{tid}/players/{a['id']}", json={"vekn": "13"})
    assert r.status_code == 409 and r.get_json()["field"] == "vekn"
    r = client.patch(f"/api/tournaments/{tid}/players/{a['id']}", json={"deck": "x"})
    assert r.status_code == 400
    token = signed_in(client, tid, "organizer", how="session")
    url = f"/tournaments/{tid}/players/{a['id']}/edit"
    r = client.post(url, data={"csrf_token": token, "first_name": "Ana Maria", "last_name": "Silva", "vekn": "13",
                               "city": "Lyon", "country": ""})
    html = r.get_data(as_text=True)
    assert r.status_code == 409 and 'value="Ana Maria"' in html and "already registered here (Bo)" in html
    r = client.post(url, data={"csrf_token": token, "first_name": "Ana Maria", "last_name": "Silva",
                               "vekn": "1234567", "city": "Lyon", "country": "France"})
    assert r.status_code == 302
    html = client.get(url).get_data(as_text=True)
    assert "<h1>Ana Maria Silva</h1>" in html and "<b>VEKN number</b> from “P12” to “1234567”" in html
    hist = client.get(f"/api/tournaments/{tid}/players/{a['id']}/history").get_json()["history"]
    assert [h["kind"] for h in hist] == ["check-in", "edit", "edit"]


def test_check_in_all_from_the_dashboard(client, org, signed_in):
    tid = org["tid"]
    client.post(f"/api/tournaments/{tid}/players/bulk", json={"text": "Ana;1\nBo;2\nCy;3"})
    token = signed_in(client, tid, "organizer", how="session")
    r = client.post(f"/tournaments/{tid}/players/check-in-all", data={"csrf_token": token}, follow_redirects=True)
    assert "3 players checked in" in r.get_data(as_text=True)
    assert all(p["checked_in"] for p in client.get(f"/api/tournaments/{tid}/players").get_json()["players"])


def test_the_players_own_check_in(client, org, signed_in, app):
    tid = org["tid"]
    client.post(f"/api/tournaments/{tid}/players/bulk", json={"text": "Ana Silva;100\nBo Dias;101"})
    page = f"/tournaments/{tid}/check-in"
    assert "not open for this event" in client.get(page).get_data(as_text=True)
    token = signed_in(client, tid, "organizer", how="session")
    client.post(f"/tournaments/{tid}/check-in/open", data={"csrf_token": token})
    dash = client.get(f"/tournaments/{tid}").get_data(as_text=True)
    code = re.search(r'data-checkin-code aria-live="polite">([A-Z0-9]{5})<', dash).group(1)
    state = client.get(f"/api/tournaments/{tid}/check-in").get_json()
    assert state["code"] == code and state["open"]
    qr = client.get(f"/tournaments/{tid}/check-in/qr.svg")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml" and b"<path" in qr.data
    assert client.get(f"/tournaments/{tid}/check-in/show").status_code == 200
    # a player's phone: no session of the event
    phone = app.test_client()
    link = state["path"]
    form = phone.get(link).get_data(as_text=True)
    assert f'name="code" value="{code}"' in form
    tok = csrf(phone, link)
    r = phone.post(page, data={"csrf_token": tok, "code": code, "w": state["window"], "who": "100"})
    assert r.status_code == 200 and "<b>Ana Silva</b> is checked in" in r.get_data(as_text=True)
    r = phone.post(page, data={"csrf_token": tok, "code": code, "w": state["window"], "who": "100"})
    assert "<b>Ana Silva</b> is already checked in" in r.get_data(as_text=True)
    r = phone.post(page, data={"csrf_token": tok, "code": "QQQQQ", "who": "101"})
    assert r.status_code == 403 and "not the check-in code shown at the venue" in r.get_data(as_text=True)
    # a link from half an hour ago (opened again, or passed on): its code was right then
    db = open_db(app.config["DATABASE"])
    secret = store.get_tournament(db, tid)["checkin_secret"]
    db.close()
    old = checkin_mod.code_for(secret, tid, state["window"] - 3)
    r = phone.post(page, data={"csrf_token": tok, "code": old, "w": str(state["window"] - 3), "who": "101"})
    assert r.status_code == 403 and "This check-in link has expired" in r.get_data(as_text=True)
    # Bo on his own phone (another device: a phone checks in one player)
    bo = app.test_client()
    bo.environ_base["REMOTE_ADDR"] = "10.0.0.22"
    tok = csrf(bo, link)
    r = bo.post(page, data={"csrf_token": tok, "code": code, "w": state["window"], "who": "dias"})
    assert "Which one are you?" in r.get_data(as_text=True)
    pid = re.search(r'name="player_id" value="(\d+)"', r.get_data(as_text=True)).group(1)
    r = bo.post(page, data={"csrf_token": tok, "code": code, "w": state["window"], "player_id": pid})
    assert "<b>Bo Dias</b> is checked in" in r.get_data(as_text=True)


@pytest.mark.own_app  # it reads the public list of every event
def test_the_check_in_secret_is_never_sent(client, org, signed_in, app):
    """QA: the public list of events (GET /api/tournaments, no sign-in) carried each event's
    `checkin_secret`, from which anyone anywhere computes the code shown at the venue and
    checks any player in; the event's own API answer carried it too."""
    tid = org["tid"]
    token = signed_in(client, tid, "organizer", how="session")
    client.post(f"/tournaments/{tid}/check-in/open", data={"csrf_token": token})
    db = open_db(app.config["DATABASE"])
    secret = store.get_tournament(db, tid)["checkin_secret"]
    db.close()
    assert secret
    anyone = app.test_client()
    listing = anyone.get("/api/tournaments")
    assert listing.status_code == 200 and [t["id"] for t in listing.get_json()["tournaments"]] == [tid]
    assert secret not in listing.get_data(as_text=True)
    assert "checkin_secret" not in listing.get_json()["tournaments"][0]
    signed_in(client, tid, "judge")
    mine = client.get(f"/api/tournaments/{tid}")
    assert mine.status_code == 200 and mine.get_json()["id"] == tid
    assert secret not in mine.get_data(as_text=True) and "checkin_secret" not in mine.get_json()
    signed_in(client, tid, "organizer")
    edited = client.patch(f"/api/tournaments/{tid}", json={"location": "Lisbon"})
    assert edited.status_code == 200 and edited.get_json()["location"] == "Lisbon"
    assert "checkin_secret" not in edited.get_json()
    created = anyone.post("/api/tournaments", json={"name": "Other Cup"})
    assert created.status_code == 201 and "checkin_secret" not in created.get_json()


def test_wrong_codes_are_slowed_down(client, org, signed_in, app):
    tid = org["tid"]
    client.post(f"/api/tournaments/{tid}/players/bulk", json={"text": "Ana Silva;100"})
    token = signed_in(client, tid, "organizer", how="session")
    client.post(f"/tournaments/{tid}/check-in/open", data={"csrf_token": token})
    phone = app.test_client()
    tok = csrf(phone, f"/tournaments/{tid}/check-in")
    statuses = [phone.post(f"/tournaments/{tid}/check-in", data={"csrf_token": tok, "code": f"AAAA{c}", "who": "100"}
                           ).status_code for c in "BCDEFGH"]
    assert statuses[:5] == [403] * 5 and 429 in statuses[5:]
    r = phone.post(f"/tournaments/{tid}/check-in", data={"csrf_token": tok, "code": "AAAAZ", "who": "100"})
    assert r.status_code == 429 and "Too many wrong codes" in r.get_data(as_text=True)
    assert not client.get(f"/api/tournaments/{tid}/players").get_json()["players"][0]["checked_in"]
