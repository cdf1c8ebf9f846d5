"""Bad input never ends in a 500: unknown rounds on the clocks pages, one error shape for
every area (`judgekit.errors.AppError`)."""
from __future__ import annotations

import pytest

from judgekit.errors import AppError
from judgekit.tournament.store import TournamentError
from judgekit.views import ApiError

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)


@pytest.fixture
def world(client, signed_in):
    """Tournament with 8 players and round 1 open; the client is the organizer (token)."""
    r = client.post("/api/tournaments", json={"name": "Edge Cup"})
    body = r.get_json()
    tid = body["id"]
    client.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + body["token"]
    players = client.post(f"/api/tournaments/{tid}/players",
                          json=[{"name": f"P{k}", "vekn": str(700 + k)} for k in range(8)]).get_json()["players"]
    rnd = client.post(f"/api/tournaments/{tid}/rounds", json={"seed": 3}).get_json()
    return {"tid": tid, "pids": [p["id"] for p in players], "round": rnd}


# --- one error shape ----------------------------------------------------------------------------

def test_api_and_tournament_errors_share_one_base():
    assert issubclass(ApiError, AppError) and issubclass(TournamentError, AppError)
    for cls in (ApiError, TournamentError):
        exc = cls(409, "no", "field", open_tables=[1])
        assert exc.body() == {"error": "no", "status": 409, "field": "field", "open_tables": [1]}


def test_unknown_round_on_the_clocks_pages_is_404(client, world):
    tid = world["tid"]
    page = client.get(f"/tournaments/{tid}/time?round=7")
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "no round 7" in page.get_data(as_text=True)
    api = client.get(f"/api/tournaments/{tid}/clocks?round=7")
    assert api.status_code == 404 and api.get_json() == {"error": f"no round 7 in tournament {tid}",
                                                         "status": 404, "code": "tournament.no-round"}
    assert client.get(f"/api/tournaments/{tid}/clocks?round=1").status_code == 200


def test_a_tournament_error_keeps_its_field_and_extras(client, world):
    r = client.post(f"/api/tournaments/{world['tid']}/rounds/1/close", json={})
    assert r.status_code == 409 and r.get_json()["open_tables"] == [1, 2]
    page = client.get(f"/tournaments/{world['tid']}/rounds/9")
    assert page.status_code == 404 and page.mimetype == "text/html"


# --- huge numbers, infinities: bounded, never a 500 ------------------------------------------------

HUGE = "9" * 30
BIG = 10 ** 30

# (method, path, JSON body or None); {tid} is the tournament, {game} a table's recorder game
NEVER_500 = [
    ("get", f"/tournaments/{HUGE}/public", None),
    ("get", f"/tournaments/{HUGE}", None),
    ("get", f"/api/tournaments/{HUGE}", None),
    ("get", f"/api/tournaments/{HUGE}/me", None),
    ("get", f"/tournaments/{{tid}}/rounds/{HUGE}", None),
    ("get", f"/api/tournaments/{{tid}}/rounds/1/tables/{HUGE}", None),
    ("get", f"/games/{HUGE}/penalty", None),
    ("get", f"/games/{{game}}/penalty?event={HUGE}&code=x", None),
    ("get", f"/tournaments/{{tid}}/penalties/players/{HUGE}", None),
    ("get", f"/api/tournaments/{{tid}}/players/{HUGE}/penalties", None),
    ("get", f"/tournaments/{{tid}}/penalties/new?player={HUGE}&round={HUGE}&table=1", None),
    ("get", f"/tournaments/{{tid}}/penalties/new?player=1&round=1&table={HUGE}&game={HUGE}&event={HUGE}"
            "&finding=x&infraction=slow+play", None),
    ("get", f"/tournaments/{{tid}}/export/seating.csv?round={HUGE}", None),
    ("get", f"/tournaments/{{tid}}/export/seating.json?round={HUGE}", None),
    ("get", f"/api/tournaments/{{tid}}/penalties/propose?player={HUGE}&infraction=slow+play", None),
    ("get", f"/tournaments/{{tid}}/time?round={HUGE}&table={HUGE}", None),
    ("get", f"/api/tournaments/{{tid}}/clocks?round={HUGE}", None),
    ("get", f"/api/time/suggest?judge_minutes={HUGE}", None),
    ("post", "/api/tournaments/{tid}/rounds/1/swap", '{"a": Infinity, "b": 1}'),
    ("post", "/api/tournaments/{tid}/rounds/1/swap", {"a": BIG, "b": 1}),
    ("post", "/api/tournaments/{tid}/rounds/1/swap", {"a": 1, "b": -BIG}),
    ("post", "/api/tournaments/{tid}/rounds/1/tables/1/result", {"vps": [10 ** 400, 0, 0, 0]}),
    ("post", "/api/tournaments/{tid}/rounds/1/tables/1/result", '{"vps": [Infinity, 0, 0, NaN]}'),
    ("post", "/api/tournaments/{tid}/rounds/1/tables/1/result", {"vps": [4, 0, 0, 0], "withdrawn": [BIG]}),
    ("post", "/api/tournaments/{tid}/rounds/1/tables/1/override", {"vps": [BIG, 0, 0, 0], "reason": "agreed by all"}),
    ("post", "/api/tournaments/{tid}/toss", {"seed": BIG}),
    ("post", "/api/tournaments/{tid}/toss", {"players": [BIG, 1]}),
    ("post", "/api/tournaments/{tid}/rounds", {"seed": BIG}),
    ("post", "/api/tournaments/{tid}/final/seat", {"seed": BIG}),
    ("post", "/api/tournaments/{tid}/final/place", {"player_id": BIG, "position": BIG}),
    ("post", "/api/tournaments/{tid}/players", {"name": "Zed", "vekn": BIG}),
    ("patch", f"/api/tournaments/{{tid}}/players/{HUGE}", {"dropped": True}),
    ("post", "/api/tournaments", {"name": "X", "rounds_planned": BIG}),
    ("post", "/api/tournaments", '{"name": "X", "time_limit_min": Infinity}'),
    ("post", "/api/tournaments/{tid}/penalties", {"player": BIG, "infraction": "slow play"}),
    ("post", "/api/tournaments/{tid}/penalties", {"player": 1, "infraction": "slow play", "round": BIG,
                                                  "table": BIG, "game": BIG, "event": BIG}),
    ("post", f"/api/tournaments/{{tid}}/penalties/{HUGE}/approve", {}),
    ("post", "/api/tournaments/{tid}/rounds/1/tables/1/extend", {"minutes": BIG, "reason": "ruling"}),
    ("post", "/api/tournaments/{tid}/rounds/1/tables/1/extend", {"judge_minutes": 10 ** 400, "reason": "ruling"}),
    ("post", f"/api/tournaments/{{tid}}/rounds/{HUGE}/tables/1/extend", {"minutes": 2, "reason": "ruling"}),
]


@pytest.mark.parametrize("method,path,body", NEVER_500, ids=[f"{m} {p[:60]}" for m, p, _ in NEVER_500])
def test_huge_numbers_are_never_a_500(client, world, method, path, body):
    url = path.format(tid=world["tid"], game=world["round"]["tables"][0]["game_id"])
    kwargs = {}
    if isinstance(body, str):
        kwargs = {"data": body, "content_type": "application/json"}
    elif body is not None:
        kwargs = {"json": body}
    r = client.open(url, method=method.upper(), **kwargs)
    assert r.status_code < 500, (r.status_code, r.get_data(as_text=True)[:300])


@pytest.mark.parametrize("method,path,body,status,field", [
    ("post", "/api/tournaments/{tid}/rounds/1/swap", '{"a": Infinity, "b": 1}', 400, "a"),  # not JSON's
    ("post", "/api/tournaments/{tid}/rounds/1/tables/1/result", {"vps": [10 ** 400, 0, 0, 0]}, 400, "vps"),
    ("post", "/api/tournaments/{tid}/toss", {"seed": BIG}, 400, "seed"),
    ("post", "/api/tournaments/{tid}/rounds", {"seed": BIG}, 400, "seed"),
    ("post", "/api/tournaments/{tid}/final/seat", {"seed": BIG}, 400, "seed"),
    ("post", "/api/tournaments/{tid}/penalties", {"player": BIG, "infraction": "slow play"}, 400, "player"),
    ("get", f"/api/tournaments/{{tid}}/penalties/propose?player={HUGE}&infraction=slow+play", None, 404, "player"),
    ("get", f"/api/tournaments/{HUGE}/me", None, 404, None),
    ("get", f"/tournaments/{{tid}}/export/seating.json?round={HUGE}", None, 404, None),
])
def test_huge_numbers_get_the_right_answer(client, world, method, path, body, status, field):
    url = path.format(tid=world["tid"])
    kwargs = {"data": body, "content_type": "application/json"} if isinstance(body, str) else \
        ({"json": body} if body is not None else {})
    r = client.open(url, method=method.upper(), **kwargs)
    assert r.status_code == status, r.get_data(as_text=True)[:300]
    if field:
        assert r.get_json()["field"] == field


def test_a_huge_seed_on_the_round_form_is_refused(client, world, signed_in):
    created = client.post("/api/tournaments", json={"name": "Seed Cup"}).get_json()
    tid = created["id"]
    client.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + created["token"]
    client.post(f"/api/tournaments/{tid}/players", json=[{"name": f"S{k}"} for k in range(8)])
    csrf = signed_in(client, tid, "organizer", how="session")
    for seed in (HUGE, "²", "-1", "1.5"):
        r = client.post(f"/tournaments/{tid}/rounds", data={"csrf_token": csrf, "seed": seed})
        assert r.status_code == 302 and r.location.endswith(f"/tournaments/{tid}")
        assert client.get(f"/api/tournaments/{tid}").get_json()["rounds"] == []
    r = client.post(f"/tournaments/{tid}/rounds", data={"csrf_token": csrf, "seed": "12"})
    assert r.status_code == 302 and client.get(f"/api/tournaments/{tid}").get_json()["rounds"][0]["seed"] == 12


def test_cli_export_of_a_huge_tournament_id_fails_in_one_line(tmp_path):
    from click.testing import CliRunner

    from judgekit.cli import main
    for args in (["export", "standings", "--tournament", HUGE[:20]],
                 ["export", "seating", "--tournament", HUGE[:20]],
                 ["export", "penalties", "--tournament", HUGE[:20]],
                 ["codes", "--tournament", HUGE[:20]]):
        r = CliRunner().invoke(main, ["--instance", str(tmp_path / "i"), *args])
        assert r.exit_code == 1, (args, r.output)
        assert r.output == f"judgekit: no tournament {HUGE[:20]}\n"


# --- values of the wrong type are refused, naming the field ------------------------------------------

def test_an_extension_reason_must_be_text(client, world):
    tid = world["tid"]
    for reason in (["a"], {"why": "ruling"}, 5):
        r = client.post(f"/api/tournaments/{tid}/rounds/1/tables/1/extend", json={"minutes": 2, "reason": reason})
        assert r.status_code == 400 and r.get_json()["field"] == "reason", r.get_json()
    for minutes in (["2"], True, 2.5):
        r = client.post(f"/api/tournaments/{tid}/rounds/1/tables/1/extend", json={"minutes": minutes, "reason": "x"})
        assert r.status_code == 400 and r.get_json()["field"] == "minutes", r.get_json()
    clocks = client.get(f"/api/tournaments/{tid}/clocks").get_json()["clocks"]
    assert clocks["tables"][0]["extensions"] == []


@pytest.mark.parametrize("body,field", [
    ({"checked_in": "false"}, "checked_in"), ({"checked_in": 0}, "checked_in"), ({"checked_in": ["x"]}, "checked_in"),
    ({"dropped": "no"}, "dropped"), ({"checked_in": False, "dropped": "yes"}, "dropped"),
])
def test_player_flags_must_be_booleans(client, world, body, field):
    pid = world["pids"][0]
    r = client.patch(f"/api/tournaments/{world['tid']}/players/{pid}", json=body)
    assert r.status_code == 400 and r.get_json()["field"] == field
    p = next(p for p in client.get(f"/api/tournaments/{world['tid']}/players").get_json()["players"] if p["id"] == pid)
    assert p["checked_in"] is True and p["dropped"] is False  # nothing written, not even half
    r = client.patch(f"/api/tournaments/{world['tid']}/players/{pid}", json={"checked_in": False})
    assert r.status_code == 200 and r.get_json()["checked_in"] is False


def test_new_players_and_tournaments_take_booleans_only(client, world):
    tid = world["tid"]
    for bad in (["x"], "false", 1):
        r = client.post(f"/api/tournaments/{tid}/players", json={"name": "Zed", "checked_in": bad})
        assert r.status_code == 400 and r.get_json()["field"] == "checked_in"
        r = client.post("/api/tournaments", json={"name": "Cup", "has_final": bad})
        assert r.status_code == 400 and r.get_json()["field"] == "has_final"
    r = client.post(f"/api/tournaments/{tid}/players", json={"name": "Zed", "checked_in": False})
    assert r.status_code == 201 and r.get_json()["checked_in"] is False
