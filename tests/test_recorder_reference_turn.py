"""The reference turn (tests/reference_turn.py) is a clean turn for the engine, and the
state after each of its declarations offers what the page's one-tap entry relies on:
the next step for the right seat, the minions and cards on the table with their facts."""
from __future__ import annotations

from recorder_helpers import cards, run, state
from reference_turn import BEFORE, SEATS, TURN, turn_events


def test_the_reference_turn_is_recorded_without_a_finding():
    assert run(BEFORE + turn_events(), SEATS) == []


def states():
    """The state before each declaration of the turn."""
    events = list(BEFORE)
    for d in TURN:
        yield d, state(events, SEATS)
        events += d.events


def step(st, type_):
    """The seat of the first next step that records `type_`."""
    return next(s["seat"] for s in st["next"] if s["event"]["type"] == type_)


def test_what_the_table_shows_before_each_declaration():
    seen = {d.key: st for d, st in states()}
    first = seen["turn start"]
    assert first["next"][0]["label"] == "Start turn: Ana (seat 1)"
    ana = first["seats"][0]
    assert [m["name"] for m in ana["minions"]] == ["Catalina Vega", "Anson", "Sigrid Bekker"]
    assert ana["cards"] == ["Villein"] and ana["votes"] == 4
    vega = ana["minions"][0]
    assert (vega["bleed"], vega["title"], vega["votes"], vega["strength"]) == (2, "prince", 2, 1)
    # the next step is for the seat who answers: the prey, then (undirected) the predator
    assert step(seen["prey passes (political)"], "block.pass") == 2
    assert step(seen["predator passes (political)"], "block.pass") == 5
    # strikes alternate, the acting minion first; the press is the acting player's first
    assert step(seen["strike 1 (acting)"], "strike") == 1
    assert step(seen["strike 1 (blocker)"], "strike") == 2
    assert step(seen["strike 2 (acting)"], "strike") == 1
    assert step(seen["press"], "press") == 1
    # votes go round the table from the acting seat
    assert [s["seat"] for s in seen["vote (two titled vampires)"]["next"] if s["event"]["type"] == "vote"] == [1]
    assert [s["seat"] for s in seen["referendum"]["next"] if s["event"]["type"] == "vote"] == [2]
    # the influence phase and the discard phase action are steps too
    assert "Ana transfers…" in [s["label"] for s in seen["influence"]["next"]]
    assert "Ana discards a card" in [s["label"] for s in seen["discard"]["next"]]


def test_every_name_the_turn_says_is_in_the_card_list():
    for d in TURN:
        for name in d.names:
            assert cards().find(name) is not None, name
