"""Standings Adjustments by the judges' guide (v2 §1.1.3): −1 VP in one game, whose GW and TP
are worked out again for every seat — through the JSON API, the way the pages and the
exports read them. Also the issue-12 scoring corrections that go with it (toss, final,
tournaments without a final, rating points, overrides, a withdrawal that explains a slip)."""
from __future__ import annotations

import csv
import io

import pytest

from judgekit.tournament import adjustments
from judgekit.tournament.scoring import check_table, score_table

OA = "Outside Assistance"  # v2: a Standings Adjustment by default


# --- helpers -----------------------------------------------------------------------------------

def new_event(client, n, rounds=3, **fields):
    created = client.post("/api/tournaments", json={"name": "SA Cup", "rounds_planned": rounds, **fields})
    assert created.status_code == 201, created.get_json()
    client.environ_base["HTTP_AUTHORIZATION"] = "Bearer " + created.get_json()["token"]  # the organizer
    tid = created.get_json()["id"]
    if n:
        r = client.post(f"/api/tournaments/{tid}/players",
                        json=[{"name": f"P{i}", "vekn": str(3000000 + i)} for i in range(1, n + 1)])
        assert r.status_code == 201, r.get_json()
    return tid


def seat_round(client, tid, tables):
    r = client.post(f"/api/tournaments/{tid}/rounds", json={"tables": tables})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def result(client, tid, n, table, vps, **extra):
    r = client.post(f"/api/tournaments/{tid}/rounds/{n}/tables/{table}/result", json={"vps": vps, **extra})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def close(client, tid, n):
    r = client.post(f"/api/tournaments/{tid}/rounds/{n}/close", json={})
    assert r.status_code == 200, r.get_json()


def sa(client, tid, player, **extra):
    """A Standings Adjustment given by the organizer (approved by issuing it)."""
    r = client.post(f"/api/tournaments/{tid}/penalties",
                    json={"player": player, "infraction": OA, "description": "a spectator told them what to play",
                          **extra})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["record"]["penalty"] == "Standings Adjustment" and body["record"]["approved_by"]
    return body


def table(client, tid, n, t):
    return client.get(f"/api/tournaments/{tid}/rounds/{n}/tables/{t}").get_json()


def standings(client, tid):
    body = client.get(f"/api/tournaments/{tid}/standings").get_json()
    return body, {r["player_id"]: r for r in body["standings"]}


def scores(tb):
    return [(s["vp"], s["vp_adjusted"], s["gw"], s["tp"]) for s in tb["seats"]]


def applies(client, tid, record_id):
    body = client.get(f"/api/tournaments/{tid}/penalties").get_json()
    return next(p for p in body["penalties"] if p["id"] == record_id)["applies_to"]


# --- the pure function ----------------------------------------------------------------------------

def test_score_table_is_the_one_function_vp_gw_tp_for_every_seat():
    assert [(s.vp, s.gw, s.tp) for s in score_table([3, 0, 0, 0, 2], [-1, 0, 0, 0, 0])] == [
        (2, 0, 54), (0, 0, 24), (0, 0, 24), (0, 0, 24), (2, 0, 54)]
    assert [(s.vp, s.tp) for s in score_table([5, 0, 0, 0, 0], [0, 0, 0, 0, -1])] == [
        (5, 60), (0, 36), (0, 36), (0, 36), (-1, 12)]
    # without adjustments, the table as played (3.7.4's worked example)
    assert [s.tp for s in score_table([1.5, 0, 1.5, 0, 0.5])] == [54, 18, 54, 18, 36]
    with pytest.raises(ValueError):
        score_table([1, 1, 1, 1], [-1])


def test_the_game_an_sa_applies_to_follows_when_it_was_given():
    rounds = [{"number": 1, "kind": "prelim", "status": "closed"},
              {"number": 2, "kind": "prelim", "status": "open"}]
    phase = adjustments.phase_when_given
    assert phase([], {}, rounds_planned=3, finalists=None, player=1).encode() == "next:0"
    assert phase(rounds, {1: 2, 2: 3}, rounds_planned=3, finalists=None, player=1).encode() == "game:2:3"
    assert phase(rounds, {1: 2}, rounds_planned=3, finalists=None, player=1).encode() == "next:2"  # sits out
    done = [dict(r, status="closed") for r in rounds]
    assert phase(done, {1: 2, 2: 3}, rounds_planned=2, finalists=None, player=1).encode() == "previous:2"
    assert phase(done, {1: 2, 2: 3}, rounds_planned=2, finalists=[1, 4], player=1).encode() == "next:2"
    assert phase(done, {1: 2, 2: 3}, rounds_planned=2, finalists=[4, 5], player=1).encode() == "previous:2"
    resolve = adjustments.resolve
    assert resolve(adjustments.Phase("next", 1), {1: 2, 3: 1}).round == 3
    assert resolve(adjustments.Phase("next", 1), {1: 2}).how == "waiting"
    assert resolve(adjustments.Phase("next", 1), {1: 2}, gone="has dropped out").how == "none"
    assert resolve(adjustments.Phase("previous", 3), {1: 2, 2: 1}).round == 2
    assert resolve(adjustments.Phase("next", 1), {1: 2, 2: 4}, moved_to=[1, 2]).how == "moved"
    assert resolve(adjustments.Phase("previous", 1), {}).how == "none"


# --- the guide's two worked examples, through the API -------------------------------------------

def test_guide_example_a_three_two_win_becomes_a_two_two_tie(client):
    tid = new_event(client, 5)
    seat_round(client, tid, [[1, 2, 3, 4, 5]])
    body = sa(client, tid, 1)                      # given during the game P1 is in
    assert body["applies_to"]["round"] == 1 and body["applies_to"]["table"] == 1
    assert body["applies_to"]["how"] == "during"
    tb = result(client, tid, 1, 1, [3, 0, 0, 0, 2])
    assert tb["state"] == "finished" and tb["errors"] == []   # the game as played is checked
    assert scores(tb) == [(3, 2, 0, 54), (0, 0, 0, 24), (0, 0, 0, 24), (0, 0, 0, 24), (2, 2, 0, 54)]
    assert [(a["player_id"], a["seat"], a["vp"]) for a in tb["adjustments"]] == [(1, 1, -1)]
    close(client, tid, 1)
    _, rows = standings(client, tid)
    assert [(rows[p]["gw"], rows[p]["vp"], rows[p]["tp"]) for p in (1, 5, 2)] == [(0, 2, 54), (0, 2, 54), (0, 0, 24)]
    assert rows[1]["adjustment"] == -1


def test_guide_example_a_sweep_where_the_player_on_zero_gets_an_sa(client):
    tid = new_event(client, 5)
    seat_round(client, tid, [[1, 2, 3, 4, 5]])
    result(client, tid, 1, 1, [5, 0, 0, 0, 0])
    sa(client, tid, 5)                             # still during the round: P5's game
    tb = table(client, tid, 1, 1)
    assert [(s["gw"], s["tp"]) for s in tb["seats"]] == [(1, 60), (0, 36), (0, 36), (0, 36), (0, 12)]
    assert tb["vps"] == [5, 0, 0, 0, 0] and tb["seats"][4]["vp_adjusted"] == -1  # kept as played


# --- the four timing cases, and the final ---------------------------------------------------------

def test_before_round_one_is_seated_it_applies_to_round_one(client):
    tid = new_event(client, 4)
    body = sa(client, tid, 2)
    assert body["applies_to"]["how"] == "waiting" and "not sat at a table yet" in body["applies_to"]["note"]
    assert any("no game for now" in n for n in body["notes"])
    seat_round(client, tid, [[1, 2, 3, 4]])
    assert applies(client, tid, body["record"]["id"])["round"] == 1
    tb = result(client, tid, 1, 1, [0, 4, 0, 0])
    assert [s["vp_adjusted"] for s in tb["seats"]] == [0, 3, 0, 0] and tb["seats"][1]["gw"] == 1


def test_between_rounds_it_applies_to_the_next_game(client):
    tid = new_event(client, 4)
    seat_round(client, tid, [[1, 2, 3, 4]])
    result(client, tid, 1, 1, [4, 0, 0, 0])
    close(client, tid, 1)
    body = sa(client, tid, 1)
    assert body["applies_to"]["how"] == "waiting"
    _, rows = standings(client, tid)
    assert (rows[1]["gw"], rows[1]["vp"]) == (1, 4)            # round 1 is not touched
    seat_round(client, tid, [[4, 3, 2, 1]])
    target = applies(client, tid, body["record"]["id"])
    assert (target["round"], target["table"], target["how"]) == (2, 1, "next")
    result(client, tid, 2, 1, [0, 0, 0, 4])
    close(client, tid, 2)
    _, rows = standings(client, tid)
    assert (rows[1]["gw"], rows[1]["vp"], rows[1]["tp"]) == (2, 7, 120)  # 3 VP in round 2 is still a win


def test_after_the_last_preliminary_round_it_applies_to_the_previous_game(client):
    tid = new_event(client, 4, rounds=2, has_final=False)
    seat_round(client, tid, [[1, 2, 3, 4]])
    result(client, tid, 1, 1, [4, 0, 0, 0])
    close(client, tid, 1)
    seat_round(client, tid, [[2, 1, 4, 3]])
    tb = result(client, tid, 2, 1, [2, 0, 0, 2])   # P2 and P3 tie on 2 VP: no game win
    assert tb["state"] == "finished" and [s["gw"] for s in tb["seats"]] == [0, 0, 0, 0]
    close(client, tid, 2)
    body = sa(client, tid, 3)
    assert (body["applies_to"]["round"], body["applies_to"]["how"]) == (2, "previous")
    tb = table(client, tid, 2, 1)
    # P3 down to 1 VP: P2 alone on 2 VP now wins the game; round 1 is untouched
    assert [(s["vp_adjusted"], s["gw"], s["tp"]) for s in tb["seats"]] == [(2, 1, 60), (0, 0, 18), (0, 0, 18), (1, 0, 48)]
    _, rows = standings(client, tid)
    assert (rows[2]["gw"], rows[3]["vp"], rows[3]["adjustment"]) == (1, 1, -1)


def test_between_the_last_round_and_the_final_a_finalist_s_sa_goes_to_the_final_and_can_change_the_winner(client):
    tid = new_event(client, 10, rounds=2)
    # two rounds where P1..P5 each win a game: they are the top five
    seat_round(client, tid, [[1, 6, 7, 8, 9], [2, 10, 3, 4, 5]])
    result(client, tid, 1, 1, [5, 0, 0, 0, 0])
    result(client, tid, 1, 2, [5, 0, 0, 0, 0])
    close(client, tid, 1)
    seat_round(client, tid, [[3, 6, 7, 8, 9], [4, 1, 10, 5, 2]])
    result(client, tid, 2, 1, [4, 1, 0, 0, 0])
    result(client, tid, 2, 2, [3, 2, 0, 0, 0])
    close(client, tid, 2)
    s, rows = standings(client, tid)
    assert s["finalists"] == [1, 2, 3, 4, 6] and s["needs_toss"] == []
    final = client.post(f"/api/tournaments/{tid}/final", json={})
    assert final.status_code == 201
    quals = [q["player_id"] for q in final.get_json()["qualifiers"]]
    for who in reversed(quals):
        assert client.post(f"/api/tournaments/{tid}/final/place", json={"player_id": who, "position": 0}).status_code == 200
    body = sa(client, tid, quals[0])                 # set up, not seated: the finalist's next game
    assert body["applies_to"]["how"] == "waiting"
    seated = client.post(f"/api/tournaments/{tid}/final/seat", json={"seed": 3}).get_json()
    n = seated["round"]
    order = [x["player_id"] for x in seated["table"]["seats"]]
    assert applies(client, tid, body["record"]["id"])["round"] == n
    # as played, the best qualifier wins the final with 2 VP; the SA leaves 1 and the 1.5 wins
    k = order.index(quals[0])
    vps = [0.0] * 5
    vps[k], vps[(k + 3) % 5], vps[(k + 4) % 5] = 2, 0.5, 1.5
    assert check_table(vps) == []
    result(client, tid, n, 1, vps)
    fs = client.get(f"/api/tournaments/{tid}/final").get_json()
    runner = order[(k + 4) % 5]
    assert fs["result"]["winner"] == runner
    assert fs["result"]["vps"][str(quals[0])] == 1 and fs["result"]["vps_played"][str(quals[0])] == 2
    res = client.get(f"/api/tournaments/{tid}/results").get_json()
    assert res["rows"][0]["player_id"] == runner and res["rows"][0]["final_vp"] == 1.5
    top = next(r for r in res["rows"] if r["player_id"] == quals[0])
    assert top["final_vp"] == 1 and top["finish"] == "finalist"


def test_an_sa_in_the_final_that_ties_goes_to_the_better_preliminary_rank(client):
    from judgekit.tournament import final
    res = final.final_result([7, 8, 9, 10, 11], {7: 1.5, 8: 0, 9: 0, 10: 0.5, 11: 1.5})
    assert res.winner == 7 and res.decided_by_rank  # after an SA took the 2.5 to 1.5


# --- downstream: toss, lifting, rating points, exports -------------------------------------------

def test_a_toss_that_an_sa_no_longer_matches_is_discarded_and_asked_for_again(client):
    tid = new_event(client, 10, rounds=2)
    for n in (1, 2):
        seat_round(client, tid, [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]] if n == 1 else [[1, 7, 3, 9, 5], [6, 2, 8, 4, 10]])
        for t in (1, 2):
            result(client, tid, n, t, [0.5] * 5)          # time-out everywhere: all ten tied
        close(client, tid, n)
    s, _ = standings(client, tid)
    assert [sorted(g) for g in s["needs_toss"]] == [list(range(1, 11))]
    assert client.post(f"/api/tournaments/{tid}/toss", json={"players": [1, 2]}).status_code == 409  # not the tie
    toss = client.post(f"/api/tournaments/{tid}/toss", json={"seed": 4})
    assert toss.status_code == 201
    s, _ = standings(client, tid)
    assert s["needs_toss"] == [] and len(s["finalists"]) == 5
    body = sa(client, tid, 3)                              # after the last round: round 2, table 1
    assert (body["applies_to"]["round"], body["applies_to"]["table"]) == (2, 1)
    s, rows = standings(client, tid)
    # P3 alone last there; P1, P7, P9, P5 lead on TP (42 in round 2): a new tie, a new toss
    assert [sorted(g) for g in s["needs_toss"]] == [[1, 5, 7, 9], [2, 4, 6, 8, 10]] and s["finalists"] == []
    assert all(r["toss"] is None for r in s["standings"])
    assert [sorted(d["players"]) for d in s["discarded_tosses"]] == [list(range(1, 11))]
    page = client.get(f"/tournaments/{tid}/standings").get_data(as_text=True)
    assert "Toss discarded" in page and "Draw the toss" in page
    # lifting the SA restores everything, the first toss included
    lifted = client.post(f"/api/tournaments/{tid}/penalties/{body['record']['id']}/lift", json={"reason": "wrong player"})
    assert lifted.status_code == 201
    s, rows = standings(client, tid)
    assert s["needs_toss"] == [] and len(s["finalists"]) == 5 and rows[3]["vp"] == 1 and rows[3]["adjustment"] == 0
    again = client.post(f"/api/tournaments/{tid}/penalties/{body['record']['id']}/lift", json={"reason": "twice"})
    assert again.status_code == 409 and "already been lifted" in again.get_json()["error"]
    assert rows[3]["vp"] == 1


def test_rating_points_and_exports_use_the_adjusted_figures(client):
    tid = new_event(client, 5, rounds=2)
    seat_round(client, tid, [[1, 2, 3, 4, 5]])
    result(client, tid, 1, 1, [3, 0, 0, 0, 2])
    sa(client, tid, 1)
    close(client, tid, 1)
    res = client.get(f"/api/tournaments/{tid}/results").get_json()
    p1 = next(r for r in res["rows"] if r["player_id"] == 1)
    # 5 players: no final yet. 2 VP (3 − 1), no GW: 5 + 4 × 2 + 0
    assert p1["rating"] == {"attendance": 5, "vp_points": 8, "gw_points": 0, "finalist_bonus": 0, "total": 13}
    rows = list(csv.DictReader(io.StringIO(client.get(f"/tournaments/{tid}/export/standings.csv").get_data(as_text=True))))
    row = next(r for r in rows if r["player_id"] == "1")
    assert (row["gw"], row["vp"], row["tp"], row["rating_points"]) == ("0", "2.0", "54", "13.0")


def test_two_sas_in_one_game_are_minus_two_and_a_v1_game_loss_follows_the_same_rule(client):
    tid = new_event(client, 4, catalog="v1")
    seat_round(client, tid, [[1, 2, 3, 4]])
    for _ in range(2):
        r = client.post(f"/api/tournaments/{tid}/penalties",
                        json={"player": 1, "infraction": "illegal-main-deck-legal-decklist",
                              "penalty": "Game Loss", "description": "sideboard card", "reason": "again"})
        assert r.status_code == 201, r.get_json()
        assert r.get_json()["record"]["penalty"] == "Game Loss"
        assert r.get_json()["applies_to"]["round"] == 1
    tb = result(client, tid, 1, 1, [3, 1, 0, 0])
    assert [(s["vp_adjusted"], s["gw"], s["tp"]) for s in tb["seats"]] == [(1, 0, 54), (1, 0, 54), (0, 0, 18), (0, 0, 18)]
    assert tb["seats"][0]["adjustment"] == -2 and len(tb["adjustments"]) == 2


# --- moving an SA, and bad input -------------------------------------------------------------------

def test_the_head_judge_moves_an_sa_of_a_player_who_dropped(client):
    tid = new_event(client, 5)
    seat_round(client, tid, [[1, 2, 3, 4, 5]])
    result(client, tid, 1, 1, [3, 0, 0, 0, 2])
    close(client, tid, 1)
    assert client.patch(f"/api/tournaments/{tid}/players/1", json={"dropped": True}).status_code == 200
    body = sa(client, tid, 1)
    assert body["applies_to"]["how"] == "none" and "has dropped out" in body["applies_to"]["note"]
    rid = body["record"]["id"]
    _, rows = standings(client, tid)
    assert rows[1]["vp"] == 3 and rows[1]["adjustment"] == 0          # no game: no effect, and said so
    page = client.get(f"/tournaments/{tid}/standings").get_data(as_text=True)
    assert "Standings Adjustments not counted yet" in page and "has dropped out" in page
    # to a game the player did not play, or without a reason: refused, nothing stored
    bad = client.post(f"/api/tournaments/{tid}/penalties/{rid}/move", json={"round": 1, "table": 2, "reason": "no next game"})
    assert bad.status_code == 409 and "did not play round 1, table 2" in bad.get_json()["error"]
    assert client.post(f"/api/tournaments/{tid}/penalties/{rid}/move", json={"round": 1, "table": 1}).status_code == 400
    assert client.post(f"/api/tournaments/{tid}/penalties/{rid}/move", json={"round": "x", "table": 1,
                                                                             "reason": "typo"}).status_code == 400
    moved = client.post(f"/api/tournaments/{tid}/penalties/{rid}/move",
                        json={"round": 1, "table": 1, "reason": "dropped: no next game", "client_id": "mv-1"})
    assert moved.status_code == 201 and moved.get_json()["applies_to"]["how"] == "moved"
    retry = client.post(f"/api/tournaments/{tid}/penalties/{rid}/move",
                        json={"round": 1, "table": 1, "reason": "dropped: no next game", "client_id": "mv-1"})
    assert retry.status_code == 200 and retry.get_json()["duplicate"]
    assert client.post(f"/api/tournaments/{tid}/penalties/{rid}/move",
                       json={"round": 1, "table": 1, "reason": "once more"}).status_code == 409
    _, rows = standings(client, tid)
    assert (rows[1]["vp"], rows[1]["gw"], rows[1]["tp"], rows[5]["tp"]) == (2, 0, 54, 54)  # applied once
    # a warning cannot be moved: it applies to no game
    w = client.post(f"/api/tournaments/{tid}/penalties", json={"player": 2, "infraction": "Slow Play"}).get_json()
    nope = client.post(f"/api/tournaments/{tid}/penalties/{w['record']['id']}/move",
                       json={"round": 1, "table": 1, "reason": "wrong game"})
    assert nope.status_code == 409 and "only a Standings Adjustment" in nope.get_json()["error"]
    assert client.post(f"/api/tournaments/{tid}/penalties/99999/move",
                       json={"round": 1, "table": 1, "reason": "nothing"}).status_code == 404


def test_an_sa_for_a_player_who_never_sat_or_was_disqualified_is_stored_and_says_so(client):
    tid = new_event(client, 4, rounds=2, has_final=False)
    seat_round(client, tid, [[1, 2, 3, 4]])
    result(client, tid, 1, 1, [4, 0, 0, 0])
    close(client, tid, 1)
    seat_round(client, tid, [[2, 1, 4, 3]])
    result(client, tid, 2, 1, [4, 0, 0, 0])
    close(client, tid, 2)
    late = client.post(f"/api/tournaments/{tid}/players", json={"name": "Late", "vekn": "3999999", "checked_in": False})
    assert late.status_code == 201
    body = sa(client, tid, late.get_json()["id"])
    assert body["applies_to"]["how"] == "none" and "never sat at a table" in body["applies_to"]["note"]
    dq = client.post(f"/api/tournaments/{tid}/penalties", json={"player": 3, "infraction": "Cheating",
                                                                 "description": "marked cards"})
    assert dq.status_code == 201
    body = sa(client, tid, 3)
    assert any("disqualified" in n for n in body["notes"]) and body["applies_to"]["round"] == 2


# --- a withdrawal that explains a paper slip ------------------------------------------------------

def test_a_lone_half_says_which_withdrawal_explains_it_and_ticks_it_in_one_tap(client, signed_in):
    tid = new_event(client, 4)
    seat_round(client, tid, [[1, 2, 3, 4]])
    tb = result(client, tid, 1, 1, [1, 2.5, 0, 0])
    assert tb["state"] == "invalid"
    err = tb["errors"][0]
    assert err["code"] == "vp-lone-half" and err["suggest_withdrawn"] == [2] and "If seat 2 withdrew" in err["message"]
    page = client.get(f"/tournaments/{tid}/rounds/1/tables/1").get_data(as_text=True)
    assert 'name="tick_wd" value="2"' in page and "Seat 2 withdrew: tick W and save" in page
    # the form's one tap: the same numbers with seat 2's W ticked
    csrf = signed_in(client, tid, "judge", how="session")
    r = client.post(f"/tournaments/{tid}/rounds/1/tables/1",
                    data={"csrf_token": csrf, "vp1": "1", "vp2": "2.5", "vp3": "0", "vp4": "0", "tick_wd": "2",
                          "based_on": tb["result_id"]})
    assert r.status_code == 302
    after = client.get(f"/api/tournaments/{tid}/rounds/1/tables/1").get_json()
    assert after["state"] == "finished" and after["withdrawn"] == [2]


# --- issue 12 §5: the toss, the final, no final, rating points, overrides -------------------------

def test_no_toss_before_a_round_is_played(client):
    tid = new_event(client, 10)
    s, _ = standings(client, tid)
    assert s["needs_toss"] == []
    r = client.post(f"/api/tournaments/{tid}/toss", json={})
    assert r.status_code == 409 and "no round has been played" in r.get_json()["error"]


def test_the_final_waits_for_the_announced_rounds_and_can_be_undone_until_seated(client):
    tid = new_event(client, 10, rounds=3)
    seat_round(client, tid, [[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]])
    result(client, tid, 1, 1, [5, 0, 0, 0, 0])
    result(client, tid, 1, 2, [5, 0, 0, 0, 0])
    close(client, tid, 1)
    early = client.post(f"/api/tournaments/{tid}/final", json={})
    assert early.status_code == 409 and "3 preliminary rounds were announced" in early.get_json()["error"]
    for n, tables in ((2, [[2, 7, 4, 9, 1], [3, 8, 5, 10, 6]]), (3, [[4, 6, 2, 10, 3], [5, 9, 1, 8, 7]])):
        seat_round(client, tid, tables)
        result(client, tid, n, 1, [4, 1, 0, 0, 0])
        result(client, tid, n, 2, [4, 1, 0, 0, 0])
        close(client, tid, n)
    while standings(client, tid)[0]["needs_toss"]:
        assert client.post(f"/api/tournaments/{tid}/toss", json={}).status_code == 201
    assert client.post(f"/api/tournaments/{tid}/final", json={}).status_code == 201
    undone = client.delete(f"/api/tournaments/{tid}/final")
    assert undone.status_code == 200 and undone.get_json()["qualifiers"] == []
    assert client.delete(f"/api/tournaments/{tid}/final").status_code == 409   # nothing to undo
    assert client.post(f"/api/tournaments/{tid}/final", json={}).status_code == 201
    quals = client.get(f"/api/tournaments/{tid}/final").get_json()["qualifiers"]
    for q in reversed(quals):
        client.post(f"/api/tournaments/{tid}/final/place", json={"player_id": q["player_id"], "position": 0})
    assert client.post(f"/api/tournaments/{tid}/final/seat", json={}).status_code == 201
    late = client.delete(f"/api/tournaments/{tid}/final")
    assert late.status_code == 409 and "already seated" in late.get_json()["error"]


def test_a_tournament_without_final_is_refused_at_eight_players(client):
    tid = new_event(client, 8, has_final=False)
    r = client.post(f"/api/tournaments/{tid}/rounds", json={})
    assert r.status_code == 409 and r.get_json()["rule"] == "3.1.6" and "fewer than 8 players" in r.get_json()["error"]
    tid = new_event(client, 7, has_final=False)
    client.post(f"/api/tournaments/{tid}/rounds", json={"seed": 1})
    more = client.post(f"/api/tournaments/{tid}/players", json={"name": "Eighth", "vekn": "3888888"})
    assert more.status_code == 409 and "3.1.6" in more.get_json()["error"]
    absent = client.post(f"/api/tournaments/{tid}/players", json={"name": "Eighth", "vekn": "3888888",
                                                                   "checked_in": False})
    assert absent.status_code == 201   # registered, not playing: no round of 8
    back = client.patch(f"/api/tournaments/{tid}/players/{absent.get_json()['id']}", json={"checked_in": True})
    assert back.status_code == 409 and "3.1.6" in back.get_json()["error"]


def test_rating_points_count_only_players_who_played(client):
    tid = new_event(client, 5, rounds=2, has_final=False)
    no_show = client.post(f"/api/tournaments/{tid}/players", json={"name": "No show", "vekn": "3777777",
                                                                    "checked_in": False}).get_json()["id"]
    for n in (1, 2):
        seat_round(client, tid, [[1, 2, 3, 4, 5]])
        result(client, tid, n, 1, [5, 0, 0, 0, 0])
        close(client, tid, n)
    res = client.get(f"/api/tournaments/{tid}/results").get_json()
    rows = {r["player_id"]: r for r in res["rows"]}
    assert rows[no_show]["rating"] is None
    assert rows[1]["rating"]["total"] == 5 + 4 * 10 + 8 * 2


def test_an_override_keeps_the_table_check_s_warning(client):
    tid = new_event(client, 4)
    seat_round(client, tid, [[1, 2, 3, 4]])
    r = client.post(f"/api/tournaments/{tid}/rounds/1/tables/1/override",
                    json={"vps": [4, 4, 0, 0], "reason": "the players insist"})
    assert r.status_code == 201
    tb = r.get_json()
    assert tb["state"] == "overridden" and tb["warnings"][0]["code"] == "vp-too-many"
    page = client.get(f"/tournaments/{tid}/rounds/1/tables/1").get_data(as_text=True)
    assert "The table check still says" in page


@pytest.mark.parametrize("body", [
    {"round": 0, "table": 1, "reason": "a reason"},
    {"round": 10 ** 30, "table": 1, "reason": "a reason"},
    {"round": True, "table": 1, "reason": "a reason"},
    {"round": 1, "table": "1; drop table", "reason": "a reason"},
    {"round": 1, "table": 1, "reason": ["a", "list"]},
    {"round": 1.5, "table": 1, "reason": "a reason"},
    {"round": 1, "table": 1, "reason": "x" * 5000},
    [1, 2],
    "move it",
    {},
])
def test_bad_moves_are_clear_4xx_and_change_nothing(client, body):
    tid = new_event(client, 4)
    seat_round(client, tid, [[1, 2, 3, 4]])
    rid = sa(client, tid, 1)["record"]["id"]
    result(client, tid, 1, 1, [4, 0, 0, 0])
    r = client.post(f"/api/tournaments/{tid}/penalties/{rid}/move", json=body)
    assert 400 <= r.status_code < 500 and r.get_json()["error"], r.get_json()
    assert applies(client, tid, rid)["how"] == "during"
    assert [s["vp_adjusted"] for s in table(client, tid, 1, 1)["seats"]] == [3, 0, 0, 0]
