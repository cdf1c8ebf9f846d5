"""The second reference sequence (tests/reference_turns_b.py) is clean for the engine, and the
state before its declarations offers what the page's taps rely on: the answer to a press to
continue, the minions that came into play, a refused target that left the table."""
from __future__ import annotations

from recorder_helpers import run, state
import reference_turns_b as B


def test_the_second_reference_sequence_is_recorded_without_a_finding():
    assert run(B.BEFORE + B.turn_events(), B.SEATS) == []


def before(key):
    events = list(B.BEFORE) + B.turn_events()
    n = len(B.BEFORE)
    for d in B.TURNS:
        if d.key == key:
            return state(events[:n], B.SEATS)
        n += len(d.events)
    raise KeyError(key)


def test_after_a_press_to_continue_the_opponent_may_answer_it():
    st = before("press answered")
    answer = [s for s in st["next"] if s["event"]["type"] == "press"]
    assert [(s["event"]["seat"], s["event"]["press"]) for s in answer] == [(2, "end")]
    assert answer[0]["label"] == "Gus (seat 2): press to end (cancels the press)"
    assert st["combat"]["continued_by"] == 1
    # answered: the round it opened never began; the combat ends next
    st = before("combat ends")
    assert st["combat"]["round"] == 1 and st["next"][0]["label"] == "End of combat"


def test_a_press_to_continue_not_answered_opens_the_next_round():
    events = list(B.BEFORE) + B.turn_events()
    cut = len(B.BEFORE) + sum(len(d.events) for d in B.TURNS[:[d.key for d in B.TURNS].index("press answered")])
    st = state(events[:cut] + [{"type": "strike", "seat": 1, "strike": "hand strike", "damage": 1}], B.SEATS)
    assert st["combat"]["round"] == 2 and st["combat"]["continued_by"] is None
    assert not [s for s in st["next"] if s["event"]["type"] == "press"]


def test_the_minion_heard_and_the_vampire_that_came_out_are_on_the_table():
    st = before("hunt")
    assert [m["name"] for m in st["seats"][0]["minions"]] == ["Anson", "Dominique"]
    st = before("vote (two titled vampires)")
    assert st["seats"][0]["votes"] == 5          # Anson 2 + Lucinde 3
    assert [m["name"] for m in st["seats"][2]["minions"]] == ["Cardano", "Alexa Draper"]


def test_an_action_aimed_at_a_seat_that_left_the_table_is_refused(client):
    """Bad input (issue 31): a bleed at a seat that is out of the game is a 4xx naming the
    field, in words; nothing is stored; a double POST of the same entry is stored once."""
    gid = client.post("/api/games", json={"seats": B.SEATS}).get_json()["id"]
    r = client.post(f"/api/games/{gid}/events", json=B.BEFORE + [{"type": "oust", "seat": 2},
                                                                  {"type": "turn.start", "seat": 1}])
    assert r.status_code == 201
    count = len(client.get(f"/api/games/{gid}").get_json()["events"])
    bleed = {"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Anson", "amount": 1,
             "target_seat": 2, "client_id": "tap-1"}
    r = client.post(f"/api/games/{gid}/events", json=bleed)
    body = r.get_json()
    assert r.status_code == 422 and body["field"] == "target_seat", body
    assert "Gus" in body["message"] and "out of the game" in body["message"]
    assert len(client.get(f"/api/games/{gid}").get_json()["events"]) == count
    ok = dict(bleed, target_seat=3)
    first = client.post(f"/api/games/{gid}/events", json=ok)
    again = client.post(f"/api/games/{gid}/events", json=ok)      # the same tap, sent twice
    assert first.status_code == 201 and again.status_code in (200, 201), again.get_json()
    assert len(client.get(f"/api/games/{gid}").get_json()["events"]) == count + 1
