"""Bad input never ends in a 500: unknown rounds on the clocks pages, one error shape for
every area (`judgekit.errors.AppError`)."""
from __future__ import annotations

import pytest

from judgekit.errors import AppError
from judgekit.tournament.store import TournamentError
from judgekit.views import ApiError


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
                                                         "status": 404}
    assert client.get(f"/api/tournaments/{tid}/clocks?round=1").status_code == 200


def test_a_tournament_error_keeps_its_field_and_extras(client, world):
    r = client.post(f"/api/tournaments/{world['tid']}/rounds/1/close", json={})
    assert r.status_code == 409 and r.get_json()["open_tables"] == [1, 2]
    page = client.get(f"/tournaments/{world['tid']}/rounds/9")
    assert page.status_code == 404 and page.mimetype == "text/html"
