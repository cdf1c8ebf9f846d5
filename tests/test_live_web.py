"""The live hall over HTTP (Flask's test client: the stream's answer ends, as under any
server but `judgekit serve`; tests/test_live_serving.py runs the stream that goes on)."""
from __future__ import annotations

import json
import re

import pytest

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)


def events(body: str) -> list[dict]:
    """The server-sent events of a stream's answer: [{"id", "event", "data"}]."""
    out = []
    for block in body.split("\n\n"):
        item: dict = {}
        for line in block.split("\n"):
            if line.startswith(":") or ": " not in line:
                continue
            key, value = line.split(": ", 1)
            item[key] = value
        if "event" in item:
            item["data"] = json.loads(item["data"])
            out.append(item)
    return out


@pytest.fixture
def hall(app, client):
    """An event of 9 players with round 1 open (two tables) and the organizer's token."""
    r = client.post("/api/tournaments", json={"name": "Live Cup"})
    tid, token = r.get_json()["id"], r.get_json()["token"]
    org = {"Authorization": f"Bearer {token}"}
    client.post(f"/api/tournaments/{tid}/players", headers=org,
                json=[{"name": f"P{k}", "vekn": str(100 + k)} for k in range(9)])
    rnd = client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 1}).get_json()
    return {"tid": tid, "org": org, "round": rnd}


def stream(client, tid, headers=None, **query):
    r = client.get(f"/api/tournaments/{tid}/live", headers=headers or {}, query_string=query)
    return r, events(r.get_data(as_text=True))


@pytest.mark.own_app  # its first message's id is the hall's first (1)
def test_the_stream_answers_with_what_was_missed_and_says_how_it_goes_on(client, hall):
    tid = hall["tid"]
    r, evs = stream(client, tid, after=0)
    assert r.status_code == 200 and r.mimetype == "text/event-stream"
    assert r.headers["Cache-Control"] == "no-cache, no-store" and r.headers["X-Accel-Buffering"] == "no"
    assert "Content-Encoding" not in r.headers
    assert r.headers["Content-Security-Policy"].startswith("default-src 'self'")   # the security headers stay
    assert re.match(r"retry: 5000\n", r.get_data(as_text=True))                   # the test client: polling
    assert evs[0]["event"] == "hello" and evs[0]["data"]["mode"] == "poll" and evs[0]["data"]["audience"] == "public"
    assert [(e["id"], e["event"]) for e in evs[1:]] == [("1", "round.started")]
    _, fresh = stream(client, tid)   # no id: from now on, nothing old
    assert [e["event"] for e in fresh] == ["hello"]


def test_reconnecting_with_last_event_id_gets_each_missed_message_once(client, hall):
    tid, org = hall["tid"], hall["org"]
    _, first = stream(client, tid, after=0)
    last = first[-1]["id"]
    client.post(f"/api/tournaments/{tid}/calls", json={"table": 1})
    client.post(f"/api/tournaments/{tid}/rounds/1/tables/2/extend", headers=org, json={"minutes": 2, "reason": "ruling"})
    _, again = stream(client, tid, headers={"Last-Event-ID": last}, after=0)   # the header wins over ?after=
    got = [(e["event"], e["id"]) for e in again if "id" in e]
    assert [k for k, _ in got] == ["call.opened", "extension.recorded"]
    assert len({i for _, i in got}) == 2 and all(int(i) > int(last) for _, i in got)
    _, nothing = stream(client, tid, headers={"Last-Event-ID": got[-1][1]})
    assert [e["event"] for e in nothing] == ["hello"]


@pytest.mark.parametrize("value", ["abc", "-1", "1.5", "9" * 20, "１２"])
def test_a_bad_last_event_id_is_a_clear_400(client, hall, value):
    r = client.get(f"/api/tournaments/{hall['tid']}/live", headers={"Last-Event-ID": value})
    assert r.status_code == 400
    body = r.get_json()
    assert body["field"] == "Last-Event-ID" and "whole number" in body["error"]
    r = client.get(f"/api/tournaments/{hall['tid']}/live", query_string={"after": value})
    assert r.status_code == 400 and r.get_json()["field"] == "after"


def test_an_id_from_another_database_resets_the_page_instead_of_replaying(client, hall):
    r, evs = stream(client, hall["tid"], headers={"Last-Event-ID": "999999"})
    assert r.status_code == 200
    reset = next(e for e in evs if e["event"] == "reset")
    assert reset["id"] == str(reset["data"]["last_id"])   # the page's Last-Event-ID moves to now
    assert "reloads its state" in reset["data"]["reason"]


def test_too_much_missed_is_a_reset(client, hall, monkeypatch):
    from judgekit.live import views
    monkeypatch.setattr(views, "MAX_BACKLOG", 2)
    tid = hall["tid"]
    for table in (1, 2):
        client.post(f"/api/tournaments/{tid}/calls", json={"table": table})
    _, evs = stream(client, tid, after=0)
    assert [e["event"] for e in evs] == ["hello", "reset"]


def test_the_stream_of_an_unknown_tournament_and_a_bad_audience(client, hall):
    assert client.get("/api/tournaments/999/live").status_code == 404
    r = client.get(f"/api/tournaments/{hall['tid']}/live", query_string={"audience": "god"})
    assert r.status_code == 400 and r.get_json()["field"] == "audience"


def test_each_audience_reads_its_own_and_a_page_may_ask_for_less(client, hall, signed_in):
    tid, org = hall["tid"], hall["org"]
    pid = client.get(f"/api/tournaments/{tid}/players", headers=org).get_json()["players"][0]["id"]
    client.post(f"/api/tournaments/{tid}/penalties", headers=org,
                json={"player": pid, "infraction": "marked cards", "variant": "pattern", "description": "bent"})
    call = client.post(f"/api/tournaments/{tid}/calls", json={"table": 1, "reason": "deck"}).get_json()["call"]
    client.post(f"/api/tournaments/{tid}/calls/{call['call']}/claim", headers=org)
    client.post(f"/api/tournaments/{tid}/calls/{call['call']}/close", headers=org, json={"note": "89 cards"})

    def read(headers=None, **query):
        _, evs = stream(client, tid, headers=headers, after=0, **query)
        return {e["event"]: e["data"] for e in evs}
    public = read()
    assert not any(k.startswith("penalty.") for k in public)
    assert "note" not in public["call.closed"] and "reason" not in public["call.opened"]
    assert "by" not in public["call.claimed"]
    head = read(org)
    assert head["penalty.approved"]["player_name"] == "P0"      # the organizer issued it: approved at once
    assert head["call.closed"]["note"] == "89 cards" and head["call.opened"]["reason"] == "deck"
    as_room = read(org, audience="public")
    assert set(as_room) == set(public)
    token = signed_in(client, tid, "judge")
    judge = read({"Authorization": f"Bearer {token}"})
    assert judge["call.closed"]["note"] == "89 cards" and not any(k.startswith("penalty.") for k in judge)


# --- judge calls over HTTP -------------------------------------------------------------------------

def test_a_player_calls_from_the_tables_page_without_signing_in(client, hall):
    tid = hall["tid"]
    page = client.get(f"/tournaments/{tid}/call/2")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Call a judge" in html
    token = re.search(r'name="csrf_token" value="([^"]+)"', html).group(1)
    cid = re.search(r'name="client_id" value="([^"]+)"', html).group(1)
    r = client.post(f"/tournaments/{tid}/call/2", data={"csrf_token": token, "client_id": cid, "reason": "time"})
    assert r.status_code == 302 and "call=" in r.headers["Location"]
    again = client.post(f"/tournaments/{tid}/call/2", data={"csrf_token": token, "client_id": cid, "reason": "time"})
    assert again.headers["Location"] == r.headers["Location"]            # a double tap: the same call
    status = client.get(r.headers["Location"]).get_data(as_text=True)
    assert "A judge is called to table 2" in status and 'data-status="open"' in status
    other_phone = client.get(f"/tournaments/{tid}/call/2").get_data(as_text=True)
    assert 'data-status="open"' in other_phone and "Call a judge</button>" not in other_phone


def test_a_call_for_a_table_not_in_the_round_says_so(client, hall):
    tid = hall["tid"]
    page = client.get(f"/tournaments/{tid}/call/7").get_data(as_text=True)
    assert "There is no table 7 in round 1" in page and "Call a judge</button>" not in page
    r = client.post(f"/api/tournaments/{tid}/calls", json={"table": 7})
    assert r.status_code == 404 and r.get_json() == {"error": "There is no table 7 in round 1: check the "
                                                               "number on your table.", "status": 404, "field": "table",
                                                     "code": "live.there-no-table-in-check"}
    for body in ({"table": None}, {"table": "1; drop"}, {"table": 1, "reason": 5}, {"table": [1]},
                 {"table": 1, "reason": []}, {"table": 1, "reason": {"a": 1}}, {"table": 1, "client_id": [1]}):
        r = client.post(f"/api/tournaments/{tid}/calls", json=body)
        assert r.status_code in (400, 404) and r.get_json()["error"]
    assert client.post(f"/api/tournaments/{tid}/calls", json=[1]).status_code == 400
    assert client.post("/api/tournaments/999/calls", json={"table": 1}).status_code == 404


def test_a_flood_gets_429_with_retry_after(client, hall, monkeypatch):
    from judgekit.live import calls
    monkeypatch.setattr(calls, "PER_TABLE", 1)
    tid, org = hall["tid"], hall["org"]
    call = client.post(f"/api/tournaments/{tid}/calls", json={"table": 1}).get_json()["call"]
    client.post(f"/api/tournaments/{tid}/calls/{call['call']}/close", headers=org, json={})
    r = client.post(f"/api/tournaments/{tid}/calls", json={"table": 1})
    assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    assert "the judges know" in r.get_json()["error"]


def test_a_bogus_call_is_said_so_to_its_phone_only_and_locks_nobody_else_out(client, hall, monkeypatch):
    """Issue 28: one phone's bogus calls locked the table (every phone, the judges) out."""
    from judgekit.live import calls
    tid, org = hall["tid"], hall["org"]
    phone = {"REMOTE_ADDR": "10.0.0.5"}
    other = {"REMOTE_ADDR": "10.0.0.6"}
    for k in range(calls.PER_TABLE):
        call = client.post(f"/api/tournaments/{tid}/calls", json={"table": 1},
                           environ_base=phone).get_json()["call"]
        r = client.post(f"/api/tournaments/{tid}/calls/{call['call']}/close", headers=org, json={"bogus": True})
        assert r.status_code == 200 and r.get_json()["call"]["bogus"] is True
    mine = client.get(f"/api/tournaments/{tid}/calls/{call['call']}", environ_base=phone).get_json()["call"]
    theirs = client.get(f"/api/tournaments/{tid}/calls/{call['call']}", environ_base=other).get_json()["call"]
    assert mine["bogus"] is True and "bogus" not in theirs
    page = client.get(f"/tournaments/{tid}/call/1?call={call['call']}", environ_base=phone).get_data(as_text=True)
    assert "closed this call as not needed" in page and 'data-call-bogus hidden' not in page
    page = client.get(f"/tournaments/{tid}/call/1?call={call['call']}", environ_base=other).get_data(as_text=True)
    assert "data-call-bogus hidden" in page
    r = client.post(f"/api/tournaments/{tid}/calls", json={"table": 1}, environ_base=phone)
    assert r.status_code == 429 and "closed by a judge as not needed" in r.get_json()["error"]
    r = client.post(f"/api/tournaments/{tid}/calls", json={"table": 1}, environ_base=other)
    assert r.status_code == 201
    client.post(f"/api/tournaments/{tid}/calls/{r.get_json()['call']['call']}/close", headers=org, json={})
    r = client.post(f"/api/tournaments/{tid}/calls", json={"table": 1}, headers=org, environ_base=phone)
    assert r.status_code == 201   # a signed-in judge calling for the table from that phone: never refused
    assert client.post(f"/api/tournaments/{tid}/calls/{r.get_json()['call']['call']}/close", headers=org,
                       json={"bogus": "maybe"}).status_code == 400


def test_judges_claim_close_and_the_loser_of_a_claim_is_told(client, hall, signed_in, app):
    tid = hall["tid"]
    call = client.post(f"/api/tournaments/{tid}/calls", json={"table": 1, "reason": "ruling"}).get_json()["call"]
    jo = signed_in(client, tid, "judge", name="Jo")
    al = signed_in(client, tid, "judge", name="Al")
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    base = f"/api/tournaments/{tid}/calls/{call['call']}"
    assert client.post(base + "/claim", json={}).status_code == 401
    r = client.post(base + "/claim", headers={"Authorization": f"Bearer {jo}"})
    assert r.status_code == 200 and r.get_json()["call"]["claimed_by"] == "Jo"
    r = client.post(base + "/claim", headers={"Authorization": f"Bearer {al}"})
    assert r.status_code == 409 and r.get_json()["claimed_by"] == "Jo" and "Jo has already taken" in r.get_json()["error"]
    r = client.post(base + "/reassign", headers={"Authorization": f"Bearer {jo}"}, json={"judge": "Al"})
    assert r.status_code == 403                                      # the head judge's
    r = client.post(base + "/close", headers={"Authorization": f"Bearer {jo}"}, json={"note": "x" * 501})
    assert r.status_code == 400 and r.get_json()["field"] == "note"
    r = client.post(base + "/close", headers={"Authorization": f"Bearer {jo}"}, json={"note": "ruled: no block"})
    assert r.status_code == 200 and r.get_json()["call"]["status"] == "closed"
    assert r.get_json()["call"]["minutes"] is not None
    r = client.post(base + "/claim", headers={"Authorization": f"Bearer {al}"})
    assert r.status_code == 409 and "closed by Jo" in r.get_json()["error"]
    assert client.post(f"/api/tournaments/{tid}/calls/999/claim", headers={"Authorization": f"Bearer {al}"}).status_code == 404
    listing = client.get(f"/api/tournaments/{tid}/calls", headers={"Authorization": f"Bearer {al}"}).get_json()
    assert [c["note"] for c in listing["calls"]] == ["ruled: no block"]
    page = client.get(f"/tournaments/{tid}/calls", headers={"Authorization": f"Bearer {al}"}).get_data(as_text=True)
    assert "(under a minute at the table)" in page and "0.0 min" not in page   # closed within seconds
    assert client.get(f"/api/tournaments/{tid}/calls", headers={"Authorization": f"Bearer {al}"},
                      query_string={"status": "x"}).status_code == 400
    public = client.get(base).get_json()["call"]
    assert public["status"] == "closed" and "note" not in public


def test_the_calls_pages_and_the_forms(client, hall, signed_in):
    tid = hall["tid"]
    call = client.post(f"/api/tournaments/{tid}/calls", json={"table": 2, "reason": "deck"}).get_json()["call"]
    csrf = signed_in(client, tid, "head_judge", name="Hal", how="session")
    page = client.get(f"/tournaments/{tid}/calls").get_data(as_text=True)
    assert "Table 2" in page and "Deck problem" in page and "waiting" in page
    r = client.post(f"/tournaments/{tid}/calls/{call['call']}/reassign", data={"csrf_token": csrf, "judge": "Jo"})
    assert r.status_code == 302
    r = client.post(f"/tournaments/{tid}/calls/{call['call']}/close",
                    data={"csrf_token": csrf, "note": "deck fixed", "next": f"/tournaments/{tid}/calls"})
    assert r.status_code == 302 and r.headers["Location"].endswith(f"/tournaments/{tid}/calls")
    page = client.get(f"/tournaments/{tid}/calls").get_data(as_text=True)
    assert "given to Jo by Hal" in page and "closed by <b>Hal</b>" in page and "deck fixed" in page
    r = client.post(f"/tournaments/{tid}/calls/{call['call']}/close", data={"csrf_token": csrf})
    assert r.status_code == 302   # refused: said on the page it goes back to
    assert "was closed by Hal" in client.get(r.headers["Location"]).get_data(as_text=True)
    floor = client.get(f"/tournaments/{tid}/floor").get_data(as_text=True)
    assert 'data-hall-page="floor"' in floor and 'data-head="1"' in floor and "<option value=\"Jo\">" in floor
    report = client.get(f"/tournaments/{tid}/penalties/report").get_data(as_text=True)
    assert "Judge calls" in report and "deck fixed" in report


def test_the_badge_shows_on_judge_pages_only(client, hall, signed_in):
    tid = hall["tid"]
    client.post(f"/api/tournaments/{tid}/calls", json={"table": 1})
    public = client.get(f"/tournaments/{tid}/public").get_data(as_text=True)
    assert "data-live-badge" not in public and "live.js" not in public
    signed_in(client, tid, "judge", how="session")
    for path in (f"/tournaments/{tid}", f"/tournaments/{tid}/time", f"/games/{hall['round']['tables'][0]['game_id']}"):
        html = client.get(path).get_data(as_text=True)
        badge = re.search(r'<a class="live-badge[^>]*>.*?</a>', html, re.S)
        assert badge, path
        assert re.search(r"data-live-count>1<", badge.group(0)) and "data-notifications" not in badge.group(0)
    assert "data-live-badge" not in client.get(f"/tournaments/{tid}/call/1").get_data(as_text=True)


def test_the_hall_state_and_the_notifications(client, hall, signed_in):
    tid, org = hall["tid"], hall["org"]
    client.post(f"/api/tournaments/{tid}/calls", json={"table": 1, "reason": "ruling"})
    public = client.get(f"/api/tournaments/{tid}/hall").get_json()
    assert public["event"] == "Live Cup" and public["round"]["round"] == 1
    assert public["calls"][0]["table"] == 1 and "reason" not in public["calls"][0]
    head = client.get(f"/api/tournaments/{tid}/hall", headers=org).get_json()
    assert head["calls"][0]["reason"] == "ruling"
    room = client.get(f"/api/tournaments/{tid}/hall", headers=org, query_string={"audience": "public"}).get_json()
    assert room == dict(public, server_now=room["server_now"])
    assert client.get(f"/api/tournaments/{tid}/notifications").status_code == 401
    jo = signed_in(client, tid, "judge")
    assert client.get(f"/api/tournaments/{tid}/notifications", headers={"Authorization": f"Bearer {jo}"}).status_code == 403
    notes = client.get(f"/api/tournaments/{tid}/notifications", headers=org).get_json()
    assert notes["items"] == [] and notes["next_check"] == head["round"]["ends_at"]


def test_the_room_display_is_public_and_has_one_control(client, hall, signed_in):
    tid = hall["tid"]
    signed_in(client, tid, "head_judge", how="session")
    html = client.get(f"/tournaments/{tid}/room", query_string={"theme": "dark"}).get_data(as_text=True)
    assert 'data-theme="dark"' in html and "audience=public" in html
    assert html.count("<button") == 1 and "Full screen" in html and "<form" not in html and "<a " not in html
    assert "data-live-badge" not in html
    assert 'data-theme' not in client.get(f"/tournaments/{tid}/room", query_string={"theme": "x"}).get_data(as_text=True)


@pytest.mark.own_app  # it sets the app's config (LISTEN_HOST)
def test_table_cards_and_the_call_qr_code(client, hall, signed_in, app):
    tid = hall["tid"]
    signed_in(client, tid, "judge")   # a token: the venue address below is another host for cookies
    app.config["LISTEN_HOST"] = "0.0.0.0"
    cards = client.get(f"/tournaments/{tid}/rounds/1/cards", base_url="http://192.168.1.20:5000")
    html = cards.get_data(as_text=True)
    assert cards.status_code == 200 and html.count('class="table-card"') == 2
    assert f"http://192.168.1.20:5000/tournaments/{tid}/call/2" in html
    svg = client.get(f"/tournaments/{tid}/call/2/qr.svg", base_url="http://192.168.1.20:5000")
    assert svg.status_code == 200 and svg.mimetype == "image/svg+xml" and b"<svg" in svg.data
    assert b"call a judge to table 2" in svg.data.lower()
    app.config["LISTEN_HOST"] = "127.0.0.1"
    html = client.get(f"/tournaments/{tid}/rounds/1/cards").get_data(as_text=True)
    assert "judgekit serve --host 0.0.0.0" in html
    assert b"no venue address" in client.get(f"/tournaments/{tid}/call/2/qr.svg").data


def test_the_clocks_page_offers_a_calls_judge_time(client, hall, signed_in):
    tid = hall["tid"]
    signed_in(client, tid, "judge", how="session")
    html = client.get(f"/tournaments/{tid}/time", query_string={"table": 2, "judge_minutes": "4.5"}).get_data(as_text=True)
    assert re.search(r'id="jm-2"[^>]*value="4.5"', html)
    assert re.search(r'id="jm-1"[^>]*value=""', html)
    html = client.get(f"/tournaments/{tid}/time", query_string={"table": 2, "judge_minutes": "lots"}).get_data(as_text=True)
    assert re.search(r'id="jm-2"[^>]*value=""', html)
