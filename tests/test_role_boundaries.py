"""Role boundaries, table-driven over the app's URL map.

Every write endpoint (POST, PUT, PATCH, DELETE) is either guarded by an action of the roles
table (`@requires`, read from the view function) or listed here as open with the reason.
A signed-out client gets 401 on every guarded write, a plain judge 403 on every head-judge
or organizer write, a head judge 403 on every organizer write — and the database is
byte-for-byte unchanged afterwards. Pages and read APIs are checked the same way (a page
redirects to the sign-in page instead)."""
from __future__ import annotations

import hashlib
import re

import pytest

from judgekit.auth import roles
from judgekit.db import open_db

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)

# Writes anyone may make, and why.
OPEN_WRITES = {
    "tournament.create_form": "creating a tournament makes you its organizer",
    "tournament_api.api_create": "same, over the API",
    "auth.sign_in": "the sign-in form itself",
    "auth.sign_out": "signing out",
    "auth.api_token": "exchanging a code for a token",
    "auth.api_revoke": "revoking the token you present",
    "recorder.games_create": "practice games (no tournament) are open",
    "trainer.start_session": "the trainer is public; progress stays in the browser",
    "trainer.session_answer": "trainer",
    "trainer.question_answer": "trainer",
    "trainer.practice_page": "trainer",
    "trainer.api_check": "trainer",
    "trainer.api_progress": "trainer",
    "live.call_form": "a player calls a judge from the table's link, without signing in (rate-limited)",
    "live.api_call": "same, over the API",
    "players.self_check_in": "a player at the venue checks in with the code shown there (wrong codes are slowed)",
    "reports.propose_form": "a player's own link is the key: the player proposes their table's VP",
    "reports.confirm_form": "same: the player confirms their own table's proposal",
    "reports.dispute_form": "same: the player disagrees, which calls a judge",
    "reports.api_propose": "same, over the API",
    "reports.api_confirm": "same, over the API",
    "reports.api_dispute": "same, over the API",
    "report.import_form": "importing an Archon workbook creates a tournament, whose importer is its organizer",
    "report.api_import": "same, over the API",
    "reports.deck_page": "a player's own link is the key: the player sends their own decklist (unknown links slowed)",
    "reports.api_deck_send": "same, over the API",
}
# Writes whose guard depends on the request (checked inside the view): endpoint -> action.
CONDITIONAL = {
    "tournament.table_page": "results.enter",     # action=override needs results.override
    "recorder.api_append": "events.record",       # on a tournament's game; practice games open
    "recorder.api_create_game": "events.record",  # with a tournament_id
    "recorder.api_parse": "events.record",        # on a tournament's game (stores nothing)
}
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}

# Bodies that would succeed (or at least reach the store) if the guard were missing.
BODIES = {
    "tournament.add_player_form": {"name": "Zed", "vekn": "999"},
    "players.import_page": {"text": "Zed Zee;999", "action": "register"},
    "players.api_bulk": {"text": "Zed Zee;999"},
    "players.edit_page": {"first_name": "Zed"},
    "report.event_form": {"vekn_event_id": "12"},
    "report.api_event": {"vekn_event_id": 12},
    "tournament_api.api_add_player": {"name": "Zed", "vekn": "999"},
    "tournament_api.api_update_player": {"dropped": True},
    "tournament.drop_form": {"dropped": "1"},
    "tournament.checkin_form": {"checked_in": "0"},
    "tournament.table_page": {"vp1": "4", "vp2": "0", "vp3": "0", "vp4": "0"},
    "tournament_api.api_result": {"vps": [4, 0, 0, 0]},
    "tournament_api.api_override": {"vps": [4, 0, 0, 0], "reason": "the players agreed"},
    "tournament_api.api_swap": {"a": 1, "b": 2},
    "tournament.swap_form": {"a": "1", "b": "2"},
    "penalties.issue_form": {"player": "1", "infraction": "slow-play"},
    "penalties.api_issue": {"player": 1, "infraction": "slow play"},
    "penalties.approve_form": {"reason": "ok"},
    "penalties.api_approve": {"reason": "ok"},
    "penalties.lift_form": {"reason": "wrong player"},
    "penalties.api_lift": {"reason": "wrong player"},
    "penalties.amend_form": {"penalty": "Caution", "reason": "changed my mind"},
    "penalties.api_amend": {"penalty": "Caution", "reason": "changed my mind"},
    "penalties.extend_form": {"minutes": "3", "reason": "ruling"},
    "penalties.api_extend": {"minutes": 3, "reason": "ruling"},
    "auth.codes_issue": {"role": "all"},
    "auth.api_codes_issue": {},
    "recorder.api_append": {"type": "note", "text": "hello"},
    "live.api_reassign": {"judge": "Zed"},
    "live.reassign_form": {"judge": "Zed"},
    "live.api_close": {"note": "done"},
    "decks.api_enter": {"text": "12x Nathan Turner\n60x Bum's Rush"},
    "decks.enter_form": {"text": "12x Nathan Turner\n60x Bum's Rush"},
    "decks.api_correct": {"text": "12x Nathan Turner\n60x Bum's Rush", "reason": "a typo"},
    "decks.correct_form": {"text": "12x Nathan Turner\n60x Bum's Rush", "reason": "a typo"},
    "decks.mode_form": {"mode": "limited"},
}


@pytest.fixture
def world(app, client):
    """A tournament with 8 players, round 1 open (two tables, each a recorder game) and one
    pending Standings Adjustment (record 1)."""
    r = client.post("/api/tournaments", json={"name": "Boundary Cup"})
    tid, token = r.get_json()["id"], r.get_json()["token"]
    org = {"Authorization": f"Bearer {token}"}
    players = client.post(f"/api/tournaments/{tid}/players", headers=org,
                          json=[{"name": f"P{k}", "vekn": str(100 + k)} for k in range(8)]).get_json()["players"]
    rnd = client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 1}).get_json()
    sa = client.post(f"/api/tournaments/{tid}/penalties", headers=org,
                     json={"player": players[0]["id"], "infraction": "marked cards", "variant": "pattern",
                           "description": "bent", "approve": False})
    assert sa.status_code == 201
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    return {"tid": tid, "game": rnd["tables"][0]["game_id"], "pid": players[0]["id"],
            "args": {"tid": tid, "n": 1, "table": 1, "pid": players[0]["id"], "rid": 1,
                     "game_id": rnd["tables"][0]["game_id"], "prompt_id": "x", "scenario_id": "x",
                     "fmt": "csv", "cid": 1}}


def snapshot(app) -> str:
    db = open_db(app.config["DATABASE"])
    try:
        h = hashlib.sha256()
        for (name,) in db.execute("select name from sqlite_master where type = 'table' order by name").fetchall():
            h.update(name.encode())
            for row in db.execute(f'select * from "{name}" order by rowid').fetchall():
                h.update(repr(row).encode())
        return h.hexdigest()
    finally:
        db.close()


def write_rules(app):
    for rule in app.url_map.iter_rules():
        for method in sorted(rule.methods & WRITE_METHODS):
            yield rule, method


def required(app, endpoint):
    view = app.view_functions[endpoint]
    return getattr(view, "required_action", None) or CONDITIONAL.get(endpoint)


def url_of(rule, args):
    return re.sub(r"<(?:[^:<>]+:)?([^<>]+)>", lambda m: str(args[m.group(1)]), rule.rule)


def send(client, method, url, endpoint, csrf=None, extra=None):
    body = dict(BODIES.get(endpoint, {}), **(extra or {}))
    if url.startswith("/api/"):
        headers = {"X-CSRF-Token": csrf} if csrf else {}
        return client.open(url, method=method, json=body, headers=headers)
    return client.open(url, method=method, data=dict(body, csrf_token=csrf or ""))


def session_csrf(client):
    html = client.get("/").get_data(as_text=True)
    return re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)


def test_every_write_endpoint_is_guarded_or_listed_as_open(app):
    unguarded = []
    for rule, method in write_rules(app):
        if required(app, rule.endpoint) is None and rule.endpoint not in OPEN_WRITES:
            unguarded.append(f"{method} {rule.rule} ({rule.endpoint})")
    assert not unguarded, "write endpoints with no role check: " + ", ".join(unguarded)
    for endpoint in OPEN_WRITES:
        assert endpoint in app.view_functions, f"stale entry {endpoint}"
    for rule, _ in write_rules(app):
        action = required(app, rule.endpoint)
        assert action is None or action in roles.ACTIONS


def guarded(app, lowest_above=None):
    """(rule, method, action) for guarded writes, optionally only those above a role."""
    out = []
    for rule, method in write_rules(app):
        action = required(app, rule.endpoint)
        if action is None:
            continue
        if lowest_above is not None and roles.allows(lowest_above, action):
            continue
        out.append((rule, method, action))
    return out


def test_signed_out_gets_401_on_every_guarded_write_and_nothing_changes(app, client, world):
    csrf = session_csrf(client)
    before = snapshot(app)
    checked = []
    for rule, method, action in guarded(app):
        url = url_of(rule, world["args"])
        extra = {"tournament_id": world["tid"], "seats": ["A", "B", "C", "D"]} \
            if rule.endpoint == "recorder.api_create_game" else None
        r = send(client, method, url, rule.endpoint, csrf=None if url.startswith("/api/") else csrf, extra=extra)
        assert r.status_code == 401, (method, url, r.status_code, r.get_data(as_text=True)[:300])
        assert snapshot(app) == before, f"{method} {url} changed the database"
        checked.append(rule.endpoint)
    assert len(checked) >= 35
    assert {"penalties.api_approve", "tournament_api.api_override", "recorder.api_append",
            "recorder.api_create_game", "penalties.issue_form", "auth.codes_issue"} <= set(checked)


@pytest.mark.parametrize("how", ["token", "session"])
def test_a_plain_judge_gets_403_on_head_judge_and_organizer_writes(app, client, world, signed_in, how):
    csrf = signed_in(client, world["tid"], "judge", how=how)
    if how == "token":
        csrf = None
    before = snapshot(app)
    denied = []
    for rule, method, action in guarded(app, lowest_above="judge"):
        url = url_of(rule, world["args"])
        r = send(client, method, url, rule.endpoint, csrf=csrf)
        assert r.status_code == 403, (method, url, r.status_code, r.get_data(as_text=True)[:300])
        assert snapshot(app) == before, f"{method} {url} changed the database"
        denied.append(rule.endpoint)
    # the override of a table's score goes through the table form too
    r = send(client, "POST", f"/tournaments/{world['tid']}/rounds/1/tables/1", "tournament.table_page",
             csrf=csrf, extra={"action": "override", "reason": "the players agreed"})
    assert r.status_code == 403 and snapshot(app) == before
    assert {"penalties.api_approve", "penalties.approve_form", "penalties.api_lift", "tournament_api.api_override",
            "tournament_api.api_close", "tournament_api.api_add_player", "auth.api_codes_issue"} <= set(denied)


def test_a_head_judge_gets_403_on_organizer_writes(app, client, world, signed_in):
    signed_in(client, world["tid"], "head_judge")
    before = snapshot(app)
    denied = []
    for rule, method, action in guarded(app, lowest_above="head_judge"):
        r = send(client, method, url_of(rule, world["args"]), rule.endpoint)
        assert r.status_code == 403, (method, rule.rule, r.status_code)
        denied.append(rule.endpoint)
    assert snapshot(app) == before
    assert {"tournament_api.api_add_player", "tournament_api.api_start_round", "auth.api_codes_issue"} <= set(denied)
    assert "penalties.api_approve" not in denied


def test_judges_of_another_tournament_get_401(app, client, world, signed_in):
    other = client.post("/api/tournaments", json={"name": "Other"}).get_json()["id"]
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    signed_in(client, other, "organizer")
    before = snapshot(app)
    for rule, method, action in guarded(app):
        r = send(client, method, url_of(rule, world["args"]), rule.endpoint,
                 extra={"tournament_id": world["tid"], "seats": ["A", "B", "C", "D"]}
                 if rule.endpoint == "recorder.api_create_game" else None)
        assert r.status_code == 401, (method, rule.rule, r.status_code)
    assert snapshot(app) == before


QUERY = {"penalties.api_propose": "?player=1&infraction=slow-play"}


def reads(app):
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        action = getattr(app.view_functions[rule.endpoint], "required_action", None)
        if action:
            yield rule, action


@pytest.mark.own_app  # it names player ids (player=1)
def test_guarded_pages_and_reads(app, client, world, signed_in):
    api = lambda url: url.startswith("/api/") or url.endswith(".json")  # noqa: E731
    for rule, action in reads(app):
        url = url_of(rule, world["args"])
        r = client.get(url)
        if api(url):
            assert r.status_code == 401, url
        else:
            assert r.status_code == 302 and "/sign-in?next=" in r.location, url
    signed_in(client, world["tid"], "judge", how="session")
    for rule, action in reads(app):
        url = url_of(rule, world["args"]) + QUERY.get(rule.endpoint, "")
        r = client.get(url)
        if roles.allows("judge", action):
            assert r.status_code == 200, (url, r.status_code)
        elif api(url):
            assert r.status_code == 403, url
        else:
            assert r.status_code == 302 and "/sign-in" in r.location, url


# Tournament reads anyone may make (no sign-in), and why. Each is checked below for what it
# must never show.
PUBLIC_TOURNAMENT_READS = {
    "tournament.index": "the list of events",
    "tournament_api.api_list": "same, over the API",
    "tournament.public_standings": "the published standings (no penalty outcome, no adjustment)",
    "auth.sign_in": "the judges' sign-in form",
    "auth.api_me": "who the caller is signed in as (nobody: nothing)",
    "players.self_check_in": "a player checks in with the code shown at the venue",
    "decks.published_page": "the lists the organizer published after the event (nothing before)",
    "decks.published_text": "same, as TWDA text",
    "decks.api_published": "same, over the API",
    "live.stream": "the event's live messages (what the audience may see: docs/live.md)",
    "live.api_hall": "the hall's state for the audience asking",
    "live.api_call_state": "a judge call's state, for the player who made it",
    "live.call_page": "a player calls a judge from the table's QR code",
    "reports.me_page": "a player's own page: the link (a secret token) is the key; their table and its report",
    "reports.api_me": "same, over the API",
    "reports.deck_page": "a player's own decklist, from their own link (404/410 for any other link)",
    "reports.api_deck": "same, over the API",
    "live.call_qr": "the QR code on a table card",
    "live.room": "the room display (no penalty, no note)",
    "seats.current": "find your table, round seated last (names, tables, seats only)",
    "seats.lookup": "find your table in round n (names, tables, seats only)",
    "seats.by_name": "the list by name for the wall (names, tables, seats only)",
}


def test_every_public_tournament_read_is_listed(app):
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()
                 if "GET" in rule.methods and "tournaments" in rule.rule
                 and not getattr(app.view_functions[rule.endpoint], "required_action", None)}
    assert endpoints == set(PUBLIC_TOURNAMENT_READS)


def test_penalty_records_never_reach_the_public(app, client, world):
    secret = "bent corners on every master"
    tid = world["tid"]
    pages = [f"/tournaments/{tid}/public", "/tournaments", "/api/tournaments",
             "/api/games", "/games", "/api/search?q=marked+cards",
             f"/tournaments/{tid}/seats", f"/tournaments/{tid}/rounds/1/seats?q=p0",
             f"/tournaments/{tid}/rounds/1/seats?q=p&part=results", f"/tournaments/{tid}/rounds/1/seats/list"]
    for url in pages:
        r = client.get(url)
        assert r.status_code == 200 and secret not in r.get_data(as_text=True) and "bent" not in \
            r.get_data(as_text=True), url


# Recorder reads: a tournament's game is its judges' (tournament.view); practice games are open.
GAME_READS = {"recorder.api_game": "/api/games/{game}", "recorder.game_page": "/games/{game}",
              "recorder.api_outcome": "/api/games/{game}/outcome",
              "recorder.api_table_clock": "/api/games/{game}/clock",
              "recorder.api_list_games": "/api/games?tournament_id={tid}"}
# Recorder reads that show no game, and why.
OPEN_RECORDER_READS = {"recorder.api_complete": "card-name completion (public card facts)",
                       "recorder.api_facts": "card facts by name (public, as completion)",
                       "recorder.api_vocabulary": "the event vocabulary",
                       "recorder.games_page": "lists practice games only"}


def test_every_recorder_read_is_listed(app):
    endpoints = {rule.endpoint for rule in app.url_map.iter_rules()
                 if rule.endpoint.startswith("recorder.") and "GET" in rule.methods}
    assert endpoints == set(GAME_READS) | set(OPEN_RECORDER_READS)


def game_reads(world):
    return [url.format(game=world["game"], tid=world["tid"]) for url in GAME_READS.values()]


def assert_refused(client, world, status):
    for url in game_reads(world):
        r = client.get(url)
        if url.startswith("/api/"):
            assert r.status_code == status and "bent" not in r.get_data(as_text=True), url
        else:
            assert r.status_code == 302 and "/sign-in?next=" in r.location, url
    r = client.post(f"/api/games/{world['game']}/parse", json={"line": "1 go"})
    assert r.status_code == status


def test_tournament_games_are_not_readable_signed_out(client, world):
    assert_refused(client, world, 401)
    listed = client.get("/api/games").get_json()["games"]
    assert all(g["tournament_id"] is None for g in listed)
    assert f"/games/{world['game']}\"" not in client.get("/games").get_data(as_text=True)


def test_tournament_games_are_not_readable_by_judges_of_another_tournament(client, world, signed_in):
    other = client.post("/api/tournaments", json={"name": "Other"}).get_json()["id"]
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    signed_in(client, other, "organizer")  # every role of its own tournament, none here
    assert_refused(client, world, 401)
    client.environ_base["HTTP_AUTHORIZATION"] = "Bearer jk_not-a-token"
    assert_refused(client, world, 401)


@pytest.mark.parametrize("how", ["token", "session"])
def test_tournament_games_are_readable_by_its_judges(client, world, signed_in, how):
    """tournament.view is the lowest signed-in role: every role of the tournament reads."""
    signed_in(client, world["tid"], "judge", how=how)
    for url in game_reads(world):
        assert client.get(url).status_code == 200, url
    games = client.get(f"/api/games?tournament_id={world['tid']}").get_json()["games"]
    assert world["game"] in [g["id"] for g in games]
    assert all(g["tournament_id"] is None for g in client.get("/api/games").get_json()["games"])


@pytest.mark.own_app  # it reads the list of every practice game
def test_practice_games_are_readable_by_anyone(client, world):
    gid = client.post("/api/games", json={"seats": ["A", "B", "C", "D"], "label": "Open table"}).get_json()["id"]
    for url in (f"/api/games/{gid}", f"/games/{gid}", f"/api/games/{gid}/outcome"):
        assert client.get(url).status_code == 200, url
    assert client.post(f"/api/games/{gid}/parse", json={"line": "1 go"}).status_code == 200
    assert [g["id"] for g in client.get("/api/games").get_json()["games"]] == [gid]
    assert "Open table" in client.get("/games").get_data(as_text=True)


def test_the_recorder_has_no_penalty_event(client):
    """Penalties live in the penalty records only (no second, unvalidated copy in a game)."""
    gid = client.post("/api/games", json={"seats": ["A", "B", "C", "D"]}).get_json()["id"]
    r = client.post(f"/api/games/{gid}/events", json={"type": "penalty", "infraction": "x", "penalty": "DQ"})
    assert r.status_code == 400 and r.get_json()["field"] == "type"
    assert "penalty" not in client.get("/api/recorder/vocabulary").get_json()


def test_practice_games_stay_open(client):
    r = client.post("/api/games", json={"seats": ["A", "B", "C", "D"]})
    assert r.status_code == 201
    gid = r.get_json()["id"]
    r = client.post(f"/api/games/{gid}/events", json={"type": "note", "text": "hi", "judge": "Pat"})
    assert r.status_code == 201 and r.get_json()["events"][0]["judge"] == "Pat"


def test_tournament_games_record_the_signed_in_judge(client, world, signed_in):
    signed_in(client, world["tid"], "judge", name="Jo Judge")
    r = client.post(f"/api/games/{world['game']}/events", json={"type": "note", "text": "hi", "judge": "Mallory"})
    assert r.status_code == 201 and r.get_json()["events"][0]["judge"] == "Jo Judge"
