"""Penalties over the web: the form (pre-filled from a recorder finding, escalation, bad
input), the head judge's list and approvals, the player's record, the report, the exports."""
from __future__ import annotations

import csv
import io
import json
import re

import pytest

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)


@pytest.fixture
def world(client, signed_in):
    """A tournament of its own with 8 players, round 1 open (tables of 4, each a recorder game). The
    client is signed in as a judge through the session; returns ids and the CSRF token."""
    r = client.post("/api/tournaments", json={"name": "Penalty Cup", "organizer": "Ola"})
    tid, org = r.get_json()["id"], {"Authorization": "Bearer " + r.get_json()["token"]}
    players = client.post(f"/api/tournaments/{tid}/players", headers=org,
                          json=[{"name": n, "vekn": str(300 + k)} for k, n in
                                enumerate(["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"])]).get_json()["players"]
    rnd = client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 5}).get_json()
    csrf = signed_in(client, tid, "judge", name="Jo", how="session")
    table = rnd["tables"][0]
    return {"tid": tid, "org": org, "csrf": csrf, "players": {p["name"]: p["id"] for p in players},
            "game": table["game_id"], "seat1": table["seats"][0], "table": table}


def post_form(client, world, **data):
    return client.post(f"/tournaments/{world['tid']}/penalties/new", data={"csrf_token": world["csrf"], **data})


def api(client, world, method, path, body=None, headers=None):
    return client.open(f"/api/tournaments/{world['tid']}{path}", method=method, json=body,
                       headers={"X-CSRF-Token": world["csrf"], **(headers or {})})


def flashes(resp):
    return " ".join(re.findall(r'class="flash[^"]*"[^>]*>([^<]+)', resp.get_data(as_text=True)))


# --- from a recorder finding -------------------------------------------------------------------------

def record_end_of_turn_missing(client, world):
    r = client.post(f"/api/games/{world['game']}/events", headers={"X-CSRF-Token": world["csrf"]},
                    json=[{"type": "game.start"}, {"type": "turn.start", "seat": 1}, {"type": "turn.start", "seat": 2}])
    assert r.status_code == 201, r.get_json()
    codes = [f["code"] for f in r.get_json()["findings"]]
    assert "end-of-turn-missing" in codes
    return 3


def test_a_finding_opens_the_form_pre_filled(client, world):
    seq = record_end_of_turn_missing(client, world)
    page = client.get(f"/games/{world['game']}").get_data(as_text=True)
    assert f'data-penalty="/games/{world["game"]}/penalty"' in page
    r = client.get(f"/games/{world['game']}/penalty?event={seq}&code=end-of-turn-missing")
    assert r.status_code == 302
    url = r.location
    for part in (f"player={world['seat1']['player_id']}", "infraction=Game+Rule+Violation",
                 "rule=announcements/forbidden-shortcuts", f"game={world['game']}", "round=1", "table=1",
                 f"event={seq}", "finding=end-of-turn-missing"):
        assert part in url, part
    html = client.get(url).get_data(as_text=True)
    assert "did not declare the end of their turn" in html                      # the finding, shown
    assert re.search(rf'<option value="{world["seat1"]["player_id"]}" selected>Seat 1 · ', html)
    assert '<option value="game-rule-violation" data-default="Caution" selected>' in html
    assert 'Proposed: <b id="pf-proposed">Caution</b>' in html
    assert 'href="/rules/announcements/forbidden-shortcuts"' in html
    assert f'name="next" value="/games/{world["game"]}"' in html


def test_practice_games_have_no_penalty_link(client, world):
    gid = client.post("/api/games", json={"seats": ["A", "B", "C", "D"]},
                      headers={"X-CSRF-Token": world["csrf"]}).get_json()["id"]
    assert "data-penalty" not in client.get(f"/games/{gid}").get_data(as_text=True)
    r = client.get(f"/games/{gid}/penalty?event=1")
    assert r.status_code == 404 and "practice game" in r.get_data(as_text=True)


def test_issue_from_the_form_then_escalate(client, world):
    seq = record_end_of_turn_missing(client, world)
    pid = world["seat1"]["player_id"]
    base = dict(player=str(pid), infraction="game-rule-violation", rule="announcements/forbidden-shortcuts",
                round="1", table="1", game=str(world["game"]), event=str(seq), next=f"/games/{world['game']}")
    r = post_form(client, world, **base, description="no end of turn", client_id="a1", proposed_seen="Caution")
    assert r.status_code == 302 and r.location == f"/games/{world['game']}"
    again = post_form(client, world, **base, description="no end of turn", client_id="a1", proposed_seen="Caution")
    assert again.status_code == 302  # a double tap: stored once
    listing = api(client, world, "GET", f"/players/{pid}/penalties").get_json()
    assert [r["penalty"] for r in listing["records"]] == ["Caution"]
    assert listing["records"][0]["judge"] == "Jo" and listing["records"][0]["event"] == seq
    # the second one: still Caution (v2: C, C, W, ...); the third: Warning, with the history shown
    assert post_form(client, world, **dict(base, client_id="a2", proposed_seen="Caution")).status_code == 302
    page = client.get(f"/tournaments/{world['tid']}/penalties/new?player={pid}&infraction=game-rule-violation")
    html = page.get_data(as_text=True)
    assert 'Proposed: <b id="pf-proposed">Warning</b>' in html and "3× in this event" in html
    assert "Third Game Rule Violation in this event: the ladder moves from Caution to Warning" in html
    assert html.count("<li>Caution · R1 T1") == 2
    r = post_form(client, world, **dict(base, client_id="a3", proposed_seen="Warning"))
    assert r.status_code == 302
    follow = client.get(f"/tournaments/{world['tid']}/penalties/players/{pid}")
    text = follow.get_data(as_text=True)
    assert follow.status_code == 200 and text.count('class="pen-card"') == 3
    assert '<span class="pen-level pen-level-w">W</span> 1' in text


def test_form_refresh_shows_the_proposal_without_storing(client, world):
    r = post_form(client, world, player=str(world["players"]["Bo"]), infraction="outside-assistance", action="refresh")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "Standings Adjustment</b>" in html
    assert "must reach the head judge" in html and "waits in the head judge's list" in html
    assert api(client, world, "GET", f"/players/{world['players']['Bo']}/penalties").get_json()["records"] == []


# --- bad input ----------------------------------------------------------------------------------

def test_unknown_infraction_is_refused_with_suggestions(client, world):
    r = post_form(client, world, player=str(world["players"]["Ana"]), infraction="Slow Ply")
    html = r.get_data(as_text=True)
    assert r.status_code == 422 and "Unknown infraction" in html
    assert 'data-pick-infraction="Slow Play"' in html
    j = api(client, world, "POST", "/penalties", {"player": world["players"]["Ana"], "infraction": "insufficent shufling"})
    assert j.status_code == 422 and j.get_json()["field"] == "infraction"
    assert "Insufficient Shuffling" in j.get_json()["problems"][0]["suggestions"]


def test_description_required_is_said_next_to_the_field(client, world):
    r = post_form(client, world, player=str(world["players"]["Ana"]),
                  infraction="unsportsmanlike-conduct-minor", description=" ")
    html = r.get_data(as_text=True)
    assert r.status_code == 400 and "A description is required for Unsportsmanlike Conduct" in html
    assert 'id="pf-description" name="description" rows="3" maxlength="2000" aria-invalid="true"' in html


def test_someone_not_registered(client, world):
    r = post_form(client, world, player="other", player_name="Zed Nobody", infraction="slow-play")
    assert r.status_code == 400 and "not registered in the event" in r.get_data(as_text=True)
    r = api(client, world, "POST", "/penalties", {"player_name": "Zed Nobody", "vekn": "777",
                                                  "infraction": "Outside Assistance",
                                                  "description": "played a game without registering"})
    added = r.get_json()["added_player"]
    assert r.status_code == 201 and added["name"] == "Zed Nobody"
    # a judge does not manage players: the organizer decides whether Zed plays
    assert added["checked_in"] is False and added["added_by"] == "penalty"
    players = api(client, world, "GET", "/players").get_json()["players"]  # a judge may view
    assert "Zed Nobody" in [p["name"] for p in players]
    dashboard = client.get(f"/tournaments/{world['tid']}").get_data(as_text=True)
    assert "added with a penalty record: check them in if they play" in dashboard
    for table in (1, 2):
        client.post(f"/api/tournaments/{world['tid']}/rounds/1/tables/{table}/result", headers=world["org"],
                    json={"vps": [4, 0, 0, 0]})
    assert client.post(f"/api/tournaments/{world['tid']}/rounds/1/close", headers=world["org"]).status_code == 200
    r2 = client.post(f"/api/tournaments/{world['tid']}/rounds", headers=world["org"], json={"seed": 1}).get_json()
    assert added["id"] not in [s["player_id"] for tb in r2["tables"] for s in tb["seats"]]


def test_public_standings_show_no_penalty_outcome(client, world, signed_in):
    ana, bo = world["players"]["Ana"], world["players"]["Bo"]
    signed_in(client, world["tid"], "head_judge")
    r = api(client, world, "POST", "/penalties", {"player": ana, "infraction": "cheating",
                                                  "description": "stacked the deck"})
    assert r.status_code == 201 and r.get_json()["record"]["approved_by"]
    assert client.patch(f"/api/tournaments/{world['tid']}/players/{bo}", headers=world["org"],
                        json={"dropped": True}).status_code == 200
    judges = client.get(f"/tournaments/{world['tid']}/standings").get_data(as_text=True)
    assert "(disqualified)" in judges and "(dropped)" in judges
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    with client.session_transaction() as s:
        s.clear()
    public = client.get(f"/tournaments/{world['tid']}/public").get_data(as_text=True)
    assert "disqualified" not in public.lower() and "dropped" not in public.lower()
    assert public.count("(not ranked)") == 2


FIRST = "the tournament's first player"


@pytest.mark.parametrize("body,status,field", [
    ({"player": 999, "infraction": "slow play"}, 404, "player"),
    ({"player": "x", "infraction": "slow play"}, 400, "player"),
    ({"player": FIRST, "infraction": "slow play", "rule": "http://evil"}, 400, "rule"),
    ({"player": FIRST, "infraction": "slow play", "penalty": "Banishment"}, 400, "penalty"),
    ({"player": FIRST}, 400, "infraction"),
    (["not", "an", "object"], 400, None),
])
def test_bad_api_input_is_a_clear_4xx(client, world, body, status, field):
    if isinstance(body, dict) and body.get("player") == FIRST:      # the tournament's first player
        body = {**body, "player": world["players"]["Ana"]}
    r = api(client, world, "POST", "/penalties", body)
    assert r.status_code == status and r.get_json()["error"]
    assert r.get_json().get("field") == field


def test_not_json_is_415(client, world):
    r = client.post(f"/api/tournaments/{world['tid']}/penalties", data="player=1",
                    headers={"X-CSRF-Token": world["csrf"], "Content-Type": "text/plain"})
    assert r.status_code == 415


def test_lift_of_a_record_that_does_not_exist(client, world, signed_in):
    signed_in(client, world["tid"], "head_judge")
    r = api(client, world, "POST", "/penalties/42/lift", {"reason": "typo"})
    assert r.status_code == 404 and "no penalty record 42" in r.get_json()["error"]
    r = client.post(f"/tournaments/{world['tid']}/penalties/42/lift", data={"reason": "typo"})
    assert r.status_code == 404 and "no penalty record 42" in r.get_data(as_text=True)
    # a record id that is not one (the route takes ids only) is no address at all
    assert api(client, world, "POST", "/penalties/abc/lift", {"reason": "typo"}).status_code == 404


# --- where a form goes next ----------------------------------------------------------------------------

EVIL_NEXT = ["/\t/evil.example", "//evil.example", "https://evil.example", "/\\evil", "/\n/evil.example"]


@pytest.mark.parametrize("target", EVIL_NEXT)
def test_next_never_leaves_the_site(target):
    from judgekit.auth.views import safe_next
    assert safe_next(target) is None
    assert safe_next("/tournaments/1/penalties") == "/tournaments/1/penalties"


@pytest.mark.parametrize("target", EVIL_NEXT)
def test_issue_form_does_not_redirect_off_site(client, world, target):
    ana = world["players"]["Ana"]
    r = post_form(client, world, player=str(ana), infraction="slow-play", client_id="n-" + str(len(target)),
                  next=target)
    assert r.status_code == 302
    assert r.location == f"/tournaments/{world['tid']}/penalties/players/{ana}"


@pytest.mark.parametrize("target", EVIL_NEXT)
def test_follow_up_form_does_not_redirect_off_site(client, world, signed_in, target):
    ana = world["players"]["Ana"]
    rid = api(client, world, "POST", "/penalties", {"player": ana, "infraction": "slow play"}).get_json()["record"]["id"]
    csrf = signed_in(client, world["tid"], "head_judge", how="session")
    r = client.post(f"/tournaments/{world['tid']}/penalties/{rid}/amend",
                    data={"csrf_token": csrf, "penalty": "Caution", "reason": "body text", "next": target})
    assert r.status_code == 302 and r.location == f"/tournaments/{world['tid']}/penalties"


# --- the head judge ------------------------------------------------------------------------------------

def test_head_judge_approves_an_sa_and_the_standings_follow(client, world, signed_in):
    ana = world["players"]["Ana"]
    r = api(client, world, "POST", "/penalties", {"player": ana, "infraction": "Outside Assistance",
                                                  "description": "her friend told her to bleed"})
    body = r.get_json()
    assert r.status_code == 201 and body["needs_head_judge"] and body["record"]["approved_by"] is None
    rid = body["record"]["id"]
    # a judge cannot approve it
    assert api(client, world, "POST", f"/penalties/{rid}/approve", {}).status_code == 403
    signed_in(client, world["tid"], "head_judge", name="Hal", how="session")
    hj_csrf = client.get("/").get_data(as_text=True)
    hj_csrf = re.search(r'name="csrf-token" content="([^"]+)"', hj_csrf).group(1)
    page = client.get(f"/tournaments/{world['tid']}/penalties").get_data(as_text=True)
    assert "Waiting for approval (1)" in page and f'data-record="{rid}"' in page
    r = client.post(f"/tournaments/{world['tid']}/penalties/{rid}/approve",
                    data={"csrf_token": hj_csrf, "reason": "confirmed with the spectator"})
    assert r.status_code == 302 and "approved" in flashes(client.get(r.location))
    page = client.get(f"/tournaments/{world['tid']}/penalties").get_data(as_text=True)
    assert "Waiting for approval (0)" in page and "approved by Hal" in page
    # play the round: Ana sweeps her table, then loses 1 VP to the SA
    org = world["org"]
    client.environ_base["HTTP_AUTHORIZATION"] = org["Authorization"]
    rnd = client.get(f"/api/tournaments/{world['tid']}/rounds/1").get_json()
    for tb in rnd["tables"]:
        ids = [s["player_id"] for s in tb["seats"]]
        vps = [4 if p == ana else 0 for p in ids] if ana in ids else [4, 0, 0, 0]
        assert client.post(f"/api/tournaments/{world['tid']}/rounds/1/tables/{tb['number']}/result",
                           json={"vps": vps}).status_code == 201
    assert client.post(f"/api/tournaments/{world['tid']}/rounds/1/close", json={}).status_code == 200
    rows = client.get(f"/api/tournaments/{world['tid']}/standings").get_json()["standings"]
    row = next(x for x in rows if x["player_id"] == ana)
    assert row["vp"] == 3 and row["adjustment"] == -1


def test_repeat_offenders_and_the_report(client, world, signed_in):
    ana, bo = world["players"]["Ana"], world["players"]["Bo"]
    for body in ({"player": ana, "infraction": "slow play"}, {"player": ana, "infraction": "slow play"},
                 {"player": ana, "infraction": "card access error"}, {"player": bo, "infraction": "slow play"}):
        assert api(client, world, "POST", "/penalties", body).status_code == 201
    signed_in(client, world["tid"], "head_judge", name="Hal")
    page = client.get(f"/tournaments/{world['tid']}/penalties").get_data(as_text=True)
    offenders = page.split('id="offenders-h"')[1].split("</section>")[0]
    assert "Ana" in offenders and "2× Slow Play" in offenders and "Bo" not in offenders
    report = client.get(f"/tournaments/{world['tid']}/penalties/report").get_data(as_text=True)
    assert report.index("<h2>Ana") < report.index("<h2>Bo")
    totals = report.split("<caption>Totals in this event</caption>")[1].split("</table>")[0]
    assert re.findall(r"<td>(\d+)</td>", totals) == ["1", "3", "0", "0"]  # C, W, SA, DQ
    assert "Caution: 1 · Warning: 2 · Standings Adjustment: 0 · Disqualification: 0" in report
    rep = client.get(f"/api/tournaments/{world['tid']}/penalties/report").get_json()
    assert rep["totals"] == {"Caution": 1, "Warning": 3, "Standings Adjustment": 0, "Disqualification": 0}


def test_amend_and_lift_from_the_player_page(client, world, signed_in):
    ana = world["players"]["Ana"]
    rid = api(client, world, "POST", "/penalties", {"player": ana, "infraction": "slow play"}).get_json()["record"]["id"]
    csrf = signed_in(client, world["tid"], "head_judge", how="session")
    r = client.post(f"/tournaments/{world['tid']}/penalties/{rid}/amend",
                    data={"csrf_token": csrf, "penalty": "Caution", "reason": "the body text says Caution",
                          "next": f"/tournaments/{world['tid']}/penalties/players/{ana}"})
    assert r.status_code == 302 and r.location.endswith(f"/penalties/players/{ana}")
    assert "amended (was Warning)" in client.get(r.location).get_data(as_text=True)
    r = client.post(f"/tournaments/{world['tid']}/penalties/{rid}/lift", data={"csrf_token": csrf, "reason": ""})
    assert "Say why" in flashes(client.get(r.location))
    r = client.post(f"/tournaments/{world['tid']}/penalties/{rid}/lift",
                    data={"csrf_token": csrf, "reason": "wrong player"})
    page = client.get(f"/tournaments/{world['tid']}/penalties/players/{ana}").get_data(as_text=True)
    assert "Lifted" in page and "wrong player" in page and 'class="pen-card"' not in page
    log = api(client, world, "GET", "/penalties").get_json()["log"]
    assert [x["kind"] for x in log] == ["issue", "amend", "lift"]


# --- exports -------------------------------------------------------------------------------------------

def test_csv_and_json_exports_are_safe_and_stable(client, world, signed_in):
    for name in ("=cmd|' /C calc'!A0", "+44 20", "-minus-", "@at", "Zoë Ünicode"):
        r = api(client, world, "POST", "/penalties", {"player_name": name, "infraction": "Outside Assistance",
                                                       "description": f"{name} again"})
        assert r.status_code == 201, r.get_json()
    assert client.get(f"/tournaments/{world['tid']}/export/penalties.csv").status_code == 302  # a judge: no
    signed_in(client, world["tid"], "organizer")
    r = client.get(f"/tournaments/{world['tid']}/export/penalties.csv")
    assert r.status_code == 200 and r.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert r.headers["Content-Disposition"] == f'attachment; filename="penalties-{world["tid"]}.csv"'
    assert r.headers["Cache-Control"] == "no-store"  # a record of people: no cache keeps it
    text = r.data.decode("utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:5] == ["id", "time", "kind", "refers_to", "status"] and len(rows) == 6
    names = [row[rows[0].index("player_name")] for row in rows[1:]]
    assert names == ["'=cmd|' /C calc'!A0", "'+44 20", "'-minus-", "'@at", "Zoë Ünicode"]
    assert all(not cell.startswith(("=", "+", "-", "@")) for row in rows[1:] for cell in row)
    excel = client.get(f"/tournaments/{world['tid']}/export/penalties.csv?excel=1").data
    assert excel.startswith("\ufeff".encode("utf-8"))
    j = client.get(f"/tournaments/{world['tid']}/export/penalties.json")
    body = json.loads(j.data.decode("utf-8"))
    assert j.status_code == 200 and body["columns"] == rows[0] and body["catalog"] == "v2"
    assert [p["player_name"] for p in body["penalties"]][0] == "=cmd|' /C calc'!A0"  # raw in JSON
    assert "Zoë" in j.data.decode("utf-8")
    assert j.mimetype == "application/json" and j.headers["Cache-Control"] == "no-store"
    assert j.headers["Content-Disposition"] == f'attachment; filename="penalties-{world["tid"]}.json"'
    assert client.get(f"/tournaments/{world['tid']}/export/penalties.xml").status_code == 404


def test_catalog_api_and_a_v1_tournament(client, signed_in):
    r = client.post("/api/tournaments", json={"name": "Retro", "catalog": "v1"})
    assert r.status_code == 201 and r.get_json()["catalog"] == "v1"
    signed_in(client, r.get_json()["id"], "judge")
    cat = client.get(f"/api/tournaments/{r.get_json()['id']}/catalog").get_json()
    assert cat["id"] == "v1" and "Game Loss" in cat["levels"]
    bad = client.post("/api/tournaments", json={"name": "X", "catalog": "v7"})
    assert bad.status_code == 400 and bad.get_json()["field"] == "catalog"


def test_propose_api(client, world):
    ana = world["players"]["Ana"]
    assert api(client, world, "POST", "/penalties", {"player": ana, "infraction": "marked cards",
                                                     "description": "one sleeve marked"}).status_code == 201
    r = api(client, world, "GET", f"/penalties/propose?player={ana}&infraction=marked+cards")
    body = r.get_json()
    assert body["proposal"]["penalty"] == "Warning" and body["proposal"]["repeat"] == 2
    assert body["player_record"]["totals"]["Warning"] == 1 and len(body["options"]) == 2
    r = api(client, world, "GET", f"/penalties/propose?player={ana}&infraction=marked+cards&penalty=Caution")
    assert r.get_json()["needs_head_judge"] is True
    assert api(client, world, "GET", "/penalties/propose?player=999&infraction=slow+play").status_code == 404
    assert api(client, world, "GET", "/penalties/propose?infraction=nope").status_code == 400


# --- a seat swap reaches the recorder ------------------------------------------------------------------

def test_after_a_swap_the_recorder_and_the_penalty_form_name_the_new_player(client, world):
    from urllib.parse import parse_qs, urlsplit
    seat1, other = world["seat1"], next(s for s in client.get(
        f"/api/tournaments/{world['tid']}/rounds/1", headers=world["org"]).get_json()["tables"][1]["seats"])
    r = client.post(f"/api/tournaments/{world['tid']}/rounds/1/swap", headers=world["org"],
                    json={"a": seat1["player_id"], "b": other["player_id"]})
    assert r.status_code == 200, r.get_json()
    tables = r.get_json()["tables"]
    for tb in tables:  # every game's names are the tournament's seating
        game = client.get(f"/api/games/{tb['game_id']}").get_json()
        assert game["game"]["seats"] == [s["name"] for s in tb["seats"]]
        assert [s["name"] for s in game["state"]["seats"]] == [s["name"] for s in tb["seats"]]
    assert tables[0]["seats"][0]["player_id"] == other["player_id"]
    seq = record_end_of_turn_missing(client, world)
    r = client.get(f"/games/{world['game']}/penalty?event={seq}&code=end-of-turn-missing")
    query = parse_qs(urlsplit(r.location).query)
    assert query["player"] == [str(other["player_id"])]
    assert f"{other['name']} (seat 1)" in query["description"][0] and seat1["name"] not in query["description"][0]
    html = client.get(r.location).get_data(as_text=True)
    assert re.search(rf'<option value="{other["player_id"]}" selected>Seat 1 · {other["name"]}', html)


def test_one_finding_one_penalty(client, world, signed_in):
    """From the recorder's Penalty… link a second penalty for the same finding (game, event,
    code) is refused with a link to the first; the form warns before anyone types."""
    seq = record_end_of_turn_missing(client, world)
    pid = world["seat1"]["player_id"]
    url = client.get(f"/games/{world['game']}/penalty?event={seq}&code=end-of-turn-missing").location
    base = dict(player=str(pid), infraction="game-rule-violation", round="1", table="1", game=str(world["game"]),
                event=str(seq), finding="end-of-turn-missing", description="no end of turn")
    assert 'id="pf-already"' not in client.get(url).get_data(as_text=True)
    assert post_form(client, world, **base, client_id="f1", proposed_seen="Caution").status_code == 302
    first = api(client, world, "GET", f"/players/{pid}/penalties").get_json()["records"][0]
    assert first["finding"] == "end-of-turn-missing"
    link = f'href="/tournaments/{world["tid"]}/penalties/players/{pid}#record-{first["id"]}"'
    # the form, opened again from the finding, says so and offers no Issue button
    html = client.get(url).get_data(as_text=True)
    assert 'id="pf-already"' in html and link in html and 'id="pf-submit"' not in html
    # posting anyway (another tab, another judge): refused, nothing stored
    r = post_form(client, world, **base, client_id="f2", proposed_seen="Caution")
    assert r.status_code == 409 and link in r.get_data(as_text=True)
    r = api(client, world, "POST", "/penalties", dict(base, client_id="f3", proposed_seen="Caution"))
    assert r.status_code == 409 and r.get_json()["field"] == "finding" and r.get_json()["existing"] == first["id"]
    assert len(api(client, world, "GET", f"/players/{pid}/penalties").get_json()["records"]) == 1
    # the same double tap is still the stored row, not a refusal
    assert post_form(client, world, **base, client_id="f1", proposed_seen="Caution").status_code == 302
    # another finding of the same event, or none: a penalty like any other
    assert post_form(client, world, **dict(base, finding="", client_id="f4", proposed_seen="Caution")).status_code == 302
    # once the first is lifted, the finding may get its penalty
    hj = client.application.test_client()
    hcsrf = signed_in(hj, world["tid"], "head_judge", how="session")
    lifted = hj.post(f"/api/tournaments/{world['tid']}/penalties/{first['id']}/lift", json={"reason": "wrong player"},
                     headers={"X-CSRF-Token": hcsrf})
    assert lifted.status_code == 201, lifted.get_json()
    assert 'id="pf-already"' not in client.get(url).get_data(as_text=True)


def test_the_list_counts_in_words_that_agree_with_the_number(client, world, signed_in):
    """QA: "1 penalties, 1 records in the log" after the first penalty of the event."""
    ana = world["players"]["Ana"]
    assert api(client, world, "POST", "/penalties", {"player": ana, "infraction": "slow play"}).status_code == 201
    signed_in(client, world["tid"], "head_judge", name="Hal")
    page = client.get(f"/tournaments/{world['tid']}/penalties").get_data(as_text=True)
    assert "1 penalty, 1 record in the log" in page
    assert api(client, world, "POST", "/penalties", {"player": ana, "infraction": "slow play"}).status_code == 201
    page = client.get(f"/tournaments/{world['tid']}/penalties").get_data(as_text=True)
    assert "2 penalties, 2 records in the log" in page
