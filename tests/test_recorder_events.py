"""Event validation (malformed input is refused with the field and the reason) and the clock."""
from __future__ import annotations

import pytest

from judgekit.recorder import clock
from judgekit.recorder.events import EventError, validate_batch, validate_event
from recorder_helpers import cards


def check(raw, n=5):
    return validate_event(raw, n, cards())


@pytest.mark.parametrize("raw, field, words", [
    ("bleed", "event", "JSON object"),
    ({}, "type", "missing"),
    ({"type": 3}, "type", "string"),
    ({"type": "fly"}, "type", "unknown event type"),
    ({"type": "action.pass"}, "seat", "missing"),
    ({"type": "action.pass", "seat": "1"}, "seat", "seat number"),
    ({"type": "action.pass", "seat": True}, "seat", "seat number"),
    ({"type": "action.pass", "seat": 6}, "seat", "out of range"),
    ({"type": "action.pass", "seat": 0}, "seat", "out of range"),
    ({"type": "action.declare", "seat": 1}, "action", "missing"),
    ({"type": "action.declare", "seat": 1, "action": "fly"}, "action", "one of"),
    ({"type": "action.declare", "seat": 1, "action": "bleed", "amount": "two"}, "amount", "whole number"),
    ({"type": "action.declare", "seat": 1, "action": "bleed", "amount": -1}, "amount", "negative"),
    ({"type": "action.declare", "seat": 1, "action": "bleed", "colour": "red"}, "colour", "unknown field"),
    ({"type": "card.play", "seat": 1}, "card", "missing"),
    ({"type": "card.play", "seat": 1, "card": "Govern the Unalined"}, "card", "unknown card"),
    ({"type": "card.play", "seat": 1, "card": "Villein", "discipline": "xyz"}, "discipline", "not a discipline"),
    ({"type": "block.declare", "seat": 2, "minion": "Modiuss Prime"}, "minion", "unknown"),
    ({"type": "retract"}, "target", "missing"),
    ({"type": "retract", "target": 0}, "target", "event number"),
    ({"type": "time.extend", "minutes": 0}, "minutes", "from 1 to"),
    ({"type": "time.extend", "minutes": clock.MAX_EXTENSION_MIN + 1}, "minutes", "from 1 to"),
    ({"type": "loop.mark", "state": [1, 2]}, "state", "JSON object"),
    ({"type": "note", "text": "x" * 3000}, "text", "too long"),
    ({"type": "judge.call", "unlisted": "yes"}, "unlisted", "true or false"),
])
def test_malformed_events_are_refused_with_field_and_reason(raw, field, words):
    result = check(raw)
    assert isinstance(result, EventError), result
    assert result.field == field
    assert words in result.reason


def test_unknown_card_names_come_with_suggestions_and_can_be_forced():
    result = check({"type": "card.play", "seat": 1, "card": "Govern the Unalined"})
    assert "Govern the Unaligned" in result.suggestions
    forced = check({"type": "card.play", "seat": 1, "card": "Brand New Card 2031", "unlisted": True})
    assert forced["card"] == "Brand New Card 2031"


def test_names_are_canonicalized_and_judge_defaults():
    out = check({"type": "card.play", "seat": 1, "card": "cats guidance", "minion": "catalina vega",
                 "discipline": "superior Animalism"})
    assert out["card"] == "Cats' Guidance" and out["minion"] == "Catalina Vega"
    assert out["discipline"] == "ANI"
    assert out["judge"] == "anonymous"


def test_server_fields_from_the_client_are_ignored():
    out = check({"type": "time.call", "seq": 99, "time": "1999-01-01T00:00:00Z"})
    assert "seq" not in out and "time" not in out


def test_batch_reports_the_index_of_the_bad_event():
    result = validate_batch([{"type": "time.call"}, {"type": "nope"}], 5, cards())
    assert isinstance(result, EventError) and result.index == 1
    assert "event 2" in str(result)
    assert isinstance(validate_batch([], 5), EventError)
    assert len(validate_batch({"type": "time.call"}, 5)) == 1


@pytest.mark.parametrize("minutes, expected", [
    (0.5, (0, 0)), (1, (2, 2)), (3, (2, 2)), (4, (3, 5)), (5, (3, 5)), (6, (5, 10)), (20, (5, 10)),
])
def test_extension_guidance(minutes, expected):
    assert clock.suggest_extension(minutes) == expected


def test_extension_cap():
    assert clock.EXTENSION_CAP_MIN == 10
    assert not clock.over_cap(10) and clock.over_cap(11)


def test_the_clock_facts_are_the_tournaments_too(db):
    """One place for the round time, the extension limit and the table sizes: the recorder
    and the tournament take the same values."""
    from judgekit.recorder import store
    from judgekit.tournament import scoring
    from judgekit.tournament import store as tstore
    from judgekit.tournament.penalties import extensions
    assert isinstance(check({"type": "time.extend", "minutes": clock.MAX_EXTENSION_MIN}), dict)
    assert extensions.MAX_MINUTES == clock.MAX_EXTENSION_MIN
    assert tstore.MIN_TIME_LIMIT == clock.MIN_ROUND_MIN
    tid = tstore.create_tournament(db, {"name": "Clock Cup"})
    assert tstore.get_tournament(db, tid)["time_limit_min"] == clock.DEFAULT_LIMIT_MIN
    with pytest.raises(tstore.TournamentError):
        tstore.create_tournament(db, {"name": "Short", "time_limit_min": clock.MIN_ROUND_MIN - 1})
    for n in range(1, 8):
        names = [f"P{k}" for k in range(n)]
        if n in scoring.TABLE_SIZES:
            assert store.check_seats(names) == names
        else:
            with pytest.raises(store.GameError):
                store.check_seats(names)


def test_round_clock_counts_pauses_and_extensions():
    t0 = 1_700_000_000.0
    events = [{"type": "game.start", "time": t0, "limit_min": 120},
              {"type": "time.pause", "time": t0 + 600},
              {"type": "time.resume", "time": t0 + 900},
              {"type": "time.extend", "minutes": 2, "time": t0 + 1000, "seq": 4}]
    c = clock.clock_from_events(events)
    # 1200 s elapsed on the wall, 300 s paused: 900 s used of 122 minutes.
    assert c.remaining(t0 + 1200) == pytest.approx(122 * 60 - 900)
    assert c.ends_at() == pytest.approx(t0 + 300 + 122 * 60)
    called = clock.clock_from_events(events + [{"type": "time.call", "time": t0 + 2000}])
    assert called.remaining(t0 + 5000) == called.remaining(t0 + 2000)


def test_clock_from_iso_times_and_sync():
    start = "2025-03-01T10:00:00.000Z"
    c = clock.clock_from_events([{"type": "game.start", "time": start}])
    assert c.remaining(clock.to_epoch("2025-03-01T11:00:00Z")) == pytest.approx(3600)
    c = clock.clock_from_events([{"type": "sync", "time": start, "time_left_min": 30}])
    assert c.remaining(clock.to_epoch(start)) == pytest.approx(1800)


def test_off_board_types_are_one_list():
    """The types outside the game sequence are defined once (events.OFF_BOARD): the engine
    and the loop detection use that same set."""
    from judgekit.recorder import engine, events, loops
    assert engine.OFF_BOARD is events.OFF_BOARD and loops.OFF_BOARD is events.OFF_BOARD
    assert "OFF_BOARD =" not in open(engine.__file__).read()
    assert "OFF_BOARD =" not in open(loops.__file__).read()
    # every one is a type of the vocabulary ("penalty": older stored events only)
    assert events.OFF_BOARD - {"penalty"} <= set(events.VOCABULARY)
