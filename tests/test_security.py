"""Nothing of another event leaks, and the abuse that costs everyone is bounded (issue 16
§1 and §4): response headers, the session cookie, file modes, the CSRF comparison, the
penalty form and records, practice games' limits."""
from __future__ import annotations

import base64
import json
import os
import re
import stat
import zlib

import pytest

from judgekit import create_app
from judgekit.db import open_db

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)

PAGES = ["/", "/tournaments", "/games", "/trainer", "/rules/tournament-rules/3.7.2", "/offline",
         "/api/search?q=vp", "/static/app.css", "/sw.js", "/nowhere"]


def csrf(client, path="/tournaments"):
    html = client.get(path).get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)


# --- headers -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", PAGES)
def test_every_response_carries_the_security_headers(client, path):
    r = client.get(path)
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "same-origin"
    csp = r.headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp and "style-src 'self'" in csp
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp


def test_errors_and_posts_carry_them_too(client):
    r = client.post("/api/games", data="{", content_type="application/json")
    assert r.status_code == 400 and r.headers["X-Frame-Options"] == "DENY"


def test_templates_have_no_inline_script_style_or_handler():
    """What the CSP refuses: inline <script>/<style>, style="" and on…="" attributes.
    (tests/browser/test_security_headers.py loads the pages and listens for violations.)"""
    root = os.path.join(os.path.dirname(__file__), "..", "judgekit", "templates")
    bad = []
    for folder, _, files in os.walk(root):
        for name in files:
            text = open(os.path.join(folder, name), encoding="utf-8").read()
            # a JSON data block (the published copy's settings) is data the browser never runs
            for pattern in (r"<script(?![^>]*\bsrc=)(?![^>]*\btype=\"application/json\")[^>]*>", r"<style\b",
                            r"\sstyle=\"", r"\son[a-z]+=\"",
                            r"javascript:"):
                for m in re.finditer(pattern, text):
                    bad.append(f"{name}: {m.group(0)}")
    assert bad == []


# --- the session cookie --------------------------------------------------------------------------

def _set_cookie(resp) -> str:
    return next(v for k, v in resp.headers.items() if k == "Set-Cookie" and v.startswith("session="))


def _cookie_payload(set_cookie: str) -> dict:
    value = set_cookie.split(";")[0].split("=", 1)[1]
    compressed = value.startswith(".")
    data = value.lstrip(".").split(".")[0]
    raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
    return json.loads(zlib.decompress(raw) if compressed else raw)


def test_the_cookie_does_not_carry_the_new_codes(client):
    r = client.post("/tournaments", data={"csrf_token": csrf(client), "name": "Cup", "organizer": "Olga"})
    assert r.status_code == 302
    payload = _cookie_payload(_set_cookie(r))
    dump = json.dumps(payload)
    assert not re.search(r"[JHO]-[2-9A-Z]{4}-[2-9A-Z]{4}-[2-9A-Z]{4}", dump), dump
    # ... and the page shows them once all the same
    html = client.get(r.location).get_data(as_text=True)
    assert len(re.findall(r'<code class="pen-code" data-role="\w+">[JHO]-', html)) == 3
    assert "pen-code" not in client.get(r.location).get_data(as_text=True)


def test_fresh_codes_are_for_the_browser_that_made_them(app, client):
    r = client.post("/tournaments", data={"csrf_token": csrf(client), "name": "Cup", "organizer": "Olga"})
    other = app.test_client()
    html = other.get(r.location, follow_redirects=True).get_data(as_text=True)
    assert "pen-code" not in html


@pytest.mark.parametrize("headers,secure", [
    ({}, False),
    ({"X-Forwarded-Proto": "https"}, True),
    ({"X-Forwarded-Proto": "https, http"}, True),
    ({"Forwarded": "for=1.2.3.4;proto=https"}, True),
    ({"X-Forwarded-Proto": "http"}, False),
])
def test_the_session_cookie_is_secure_over_https(client, headers, secure):
    r = client.get("/tournaments", headers=headers)
    cookie = _set_cookie(r)
    assert ("; Secure" in cookie) == secure
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_the_session_cookie_is_secure_on_a_direct_https_request(client):
    cookie = _set_cookie(client.get("/tournaments", base_url="https://localhost"))
    assert "; Secure" in cookie


# --- file modes ----------------------------------------------------------------------------------

def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_the_instance_files_are_the_owners_only(indexed_instance):
    # the session's built index (building one costs ~5 s of CPU) in folders left as umask
    # 022 makes them; the database, its WAL and SHM and the secret key are created here
    inst = indexed_instance
    os.chmod(inst, 0o755)
    os.chmod(inst / "index", 0o755)
    old = os.umask(0o022)
    try:
        app = create_app({"INSTANCE": inst, "INDEX_DIR": str(inst / "index")})
        app.test_client().post("/api/games", json={"seats": ["A", "B", "C", "D"]})  # a write: the WAL
    finally:
        os.umask(old)
    assert _mode(inst) == 0o700
    assert _mode(inst / "index") == 0o700
    for name in ("judgekit.db", "judgekit.db-wal", "judgekit.db-shm", "secret_key"):
        assert (inst / name).exists(), name
        assert _mode(inst / name) == 0o600, name


def test_a_new_database_and_its_wal_are_created_private(tmp_path):
    old = os.umask(0o022)
    try:
        db = open_db(tmp_path / "new.db")
        db["t"].insert({"a": 1})
        assert _mode(tmp_path / "new.db") == 0o600
        assert _mode(tmp_path / "new.db-wal") == 0o600
        assert _mode(tmp_path / "new.db-shm") == 0o600
        db.close()
    finally:
        os.umask(old)


def test_an_older_instance_is_tightened(indexed_instance):
    inst = indexed_instance                 # an older instance: its search index is built
    os.chmod(inst, 0o755)
    db = open_db(inst / "judgekit.db")
    db.close()
    os.chmod(inst / "judgekit.db", 0o644)
    create_app({"INSTANCE": inst, "INDEX_DIR": str(inst / "index")})
    assert _mode(inst) == 0o700 and _mode(inst / "judgekit.db") == 0o600


# --- CSRF ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("token", ["é", "токен", "\u2603" * 40, "x\x00y"])
def test_a_non_ascii_csrf_token_is_just_wrong(client, token):
    csrf(client)
    r = client.post("/tournaments", data={"csrf_token": token, "name": "Cup"})
    assert r.status_code == 400 and "CSRF" in r.get_data(as_text=True)
    r = client.post("/api/games", json={"seats": ["A", "B", "C", "D"]},
                    headers={"X-CSRF-Token": token.encode("utf-8").decode("latin-1")})
    assert r.status_code in (201, 403)  # anonymous JSON needs no token: never a 500


def test_a_non_ascii_csrf_header_of_a_signed_in_session_is_403(app, client, signed_in):
    tid = client.post("/api/tournaments", json={"name": "Cup"}).get_json()["id"]
    signed_in(client, tid, "judge", how="session")
    r = client.post("/api/games", json={"seats": ["A", "B", "C", "D"]},
                    headers={"X-CSRF-Token": "é".encode("utf-8").decode("latin-1")})
    assert r.status_code == 403 and r.get_json()["status"] == 403


# --- the penalty form and records stay inside their tournament ----------------------------------

@pytest.fixture
def two_events(client, signed_in):
    """Tournament A (ours: the client is its organizer) and B (someone else's), each with a
    round seated; B's first table has a finding at event 3."""
    def make(name):
        r = client.post("/api/tournaments", json={"name": name})
        tid, org = r.get_json()["id"], {"Authorization": "Bearer " + r.get_json()["token"]}
        client.post(f"/api/tournaments/{tid}/players", headers=org,
                    json=[{"name": f"{name} player {k}", "vekn": str(1000 + k)} for k in range(4)])
        rnd = client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 1}).get_json()
        return tid, org, rnd["tables"][0]["game_id"]
    a, a_org, a_game = make("Ours")
    b, b_org, b_game = make("Theirs")
    r = client.post(f"/api/games/{b_game}/events", headers=b_org,
                    json=[{"type": "game.start"}, {"type": "turn.start", "seat": 1},
                          {"type": "turn.start", "seat": 2}])
    assert "end-of-turn-missing" in [f["code"] for f in r.get_json()["findings"]]
    csrf_token = signed_in(client, a, "organizer", how="session")
    return {"a": a, "b": b, "a_game": a_game, "b_game": b_game, "csrf": csrf_token, "a_org": a_org}


def test_the_form_does_not_show_another_events_finding(client, two_events):
    w = two_events
    # the direct read of B's game is refused to A's organizer ...
    assert client.get(f"/api/games/{w['b_game']}").status_code in (401, 403)
    # ... and so is its finding through A's form
    r = client.get(f"/tournaments/{w['a']}/penalties/new?game={w['b_game']}&event=3&finding=end-of-turn-missing")
    assert r.status_code == 200
    html = r.get_data(as_text=True)
    assert "Theirs player" not in html and "end-of-turn-missing" not in html.split("<form")[0]


def test_a_penalty_cannot_name_another_tournaments_game(client, two_events):
    w = two_events
    pid = client.get(f"/api/tournaments/{w['a']}/players", headers=w["a_org"]).get_json()["players"][0]["id"]
    r = client.post(f"/api/tournaments/{w['a']}/penalties", headers=w["a_org"],
                    json={"player": pid, "infraction": "Game Rule Violation",
                          "game": w["b_game"], "event": 3, "description": "x", "penalty": "Caution"})
    assert r.status_code == 404 and r.get_json()["field"] == "game"
    ok = client.post(f"/api/tournaments/{w['a']}/penalties", headers=w["a_org"],
                     json={"player": pid, "infraction": "Game Rule Violation",
                           "game": w["a_game"], "event": 3, "description": "x", "penalty": "Caution"})
    assert ok.status_code == 201, ok.get_json()


# --- practice games ------------------------------------------------------------------------------

@pytest.fixture
def slow_clock(monkeypatch):
    """The practice limits' clock, moved by hand."""
    from judgekit.recorder import views as rviews
    now = [5000.0]
    monkeypatch.setattr(rviews.time, "monotonic", lambda: now[0])
    return now


def test_a_practice_game_takes_a_burst_then_slows_down_with_a_clear_message(client, slow_clock):
    from judgekit.recorder import practice
    gid = client.post("/api/games", json={"seats": ["A", "B", "C", "D"]}).get_json()["id"]
    notes = [{"type": "note", "text": f"n{k}"} for k in range(100)]
    for _ in range(practice.BURST // 100):
        assert client.post(f"/api/games/{gid}/events", json=notes).status_code == 201
    r = client.post(f"/api/games/{gid}/events", json=notes)
    assert r.status_code == 429 and "faster than anyone records" in r.get_json()["error"]
    assert int(r.headers["Retry-After"]) >= 1
    slow_clock[0] += 100 / practice.PER_SECOND
    assert client.post(f"/api/games/{gid}/events", json=notes).status_code == 201


def test_a_practice_game_has_a_size_limit(client, slow_clock, monkeypatch):
    from judgekit.recorder import practice
    monkeypatch.setattr(practice, "MAX_EVENTS", 150)
    gid = client.post("/api/games", json={"seats": ["A", "B", "C", "D"]}).get_json()["id"]
    assert client.post(f"/api/games/{gid}/events",
                       json=[{"type": "note", "text": "x"}] * 0 + [{"type": "note", "text": f"{k}"} for k in range(140)]
                       ).status_code == 201
    r = client.post(f"/api/games/{gid}/events", json=[{"type": "note", "text": f"y{k}"} for k in range(20)])
    assert r.status_code == 413 and "full (150 events)" in r.get_json()["error"]
    assert client.get(f"/api/games/{gid}").get_json()["events"][-1]["seq"] == 140


def test_a_tournament_game_is_not_limited(client, signed_in, slow_clock):
    from judgekit.recorder import practice
    r = client.post("/api/tournaments", json={"name": "Cup"})
    tid, org = r.get_json()["id"], {"Authorization": "Bearer " + r.get_json()["token"]}
    client.post(f"/api/tournaments/{tid}/players", headers=org,
                json=[{"name": f"P{k}", "vekn": str(1000 + k)} for k in range(4)])
    gid = client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 1}).get_json()["tables"][0]["game_id"]
    notes = [{"type": "note", "text": f"n{k}"} for k in range(100)]
    for _ in range(practice.BURST // 100 + 2):
        assert client.post(f"/api/games/{gid}/events", json=notes, headers=org).status_code == 201


def test_starting_practice_games_is_rate_limited(client, slow_clock):
    from judgekit.recorder import practice
    for _ in range(practice.GAMES_BURST):
        assert client.post("/api/games", json={"seats": ["A", "B", "C", "D"]}).status_code == 201
    r = client.post("/api/games", json={"seats": ["A", "B", "C", "D"]})
    assert r.status_code == 429 and "practice games started" in r.get_json()["error"]
    slow_clock[0] += 60 / practice.GAMES_PER_MINUTE
    assert client.post("/api/games", json={"seats": ["A", "B", "C", "D"]}).status_code == 201
