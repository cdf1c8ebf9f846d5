"""Shared helpers for the recorder tests: seats, the card index, event builders."""
from __future__ import annotations

from judgekit.recorder import engine
from judgekit.game.cards import load_cards
from judgekit.recorder.events import validate_event

# Five seats: 1 acts first; 2 is 1's prey, 5 is 1's predator, 3 and 4 are cross-table.
SEATS = ["Ann", "Ben", "Cid", "Dee", "Eve"]


def cards():
    # not kept here: load_cards() keeps it, and a test that clears its cache (test_cards)
    # must not leave these tests with an index the store no longer uses
    return load_cards()


def ev(type_, seat=None, **fields):
    out = {"type": type_}
    if seat is not None:
        out["seat"] = seat
    out.update(fields)
    return out


def validated(events, seats=SEATS):
    """Run each event through validation (as the API does): names become canonical."""
    out = []
    for e in events:
        result = validate_event(e, len(seats), cards())
        assert isinstance(result, dict), f"{e}: {result}"
        out.append(result)
    return out


def run(events, seats=SEATS, **kw):
    """Findings of a transcript, after validation."""
    return engine.check(validated(events, seats), seats, cards=cards(), **kw)


def codes(events, seats=SEATS, **kw):
    return [f["code"] for f in run(events, seats, **kw)]


def state(events, seats=SEATS, **kw):
    numbered = [dict(e, seq=i) for i, e in enumerate(validated(events, seats), 1)]
    return engine.replay(numbered, seats, cards=cards(), **kw).state


def resolved_bleed(seat=1, minion="Modius", amount=1, prey=2):
    """A full clean bleed: declared, passed, not blocked, successful."""
    return [ev("action.declare", seat, action="bleed", minion=minion, amount=amount),
            ev("action.pass", seat), ev("block.pass", prey),
            ev("action.result", outcome="success", amount=amount)]


def resolved_hunt(seat=1, minion="Modius", prey=2, predator=5):
    return [ev("action.declare", seat, action="hunt", minion=minion),
            ev("action.pass", seat), ev("block.pass", prey), ev("block.pass", predator),
            ev("action.result", outcome="success")]
