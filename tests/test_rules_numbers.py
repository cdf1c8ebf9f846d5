"""The entries stating a number near the one a question asks (`judgekit.rules.numbers`): the
grouped look-up (`StatedNumbers.near`, made once per stated number) finds what reading every
place the number is stated finds, entry by entry, in the same order, on the real index."""
from __future__ import annotations

import random

import pytest

from judgekit.rules.analysis import closeness
from judgekit.cards.search_entries import CAPACITY_UNIT
from judgekit.rules.numbers import NUMBER_EXACT, NUMBER_NEAR, UNIT_MISS, StatedNumbers, query_units

pytestmark = pytest.mark.shared_app   # read only: one app for the module (tests/conftest.py)


def near_place_by_place(numbers: StatedNumbers, value: float, units: frozenset[str]):
    """`near` as the rule says it: each place a near number is stated, its closeness (x
    UNIT_MISS when it counts something else), the best of an entry's places; a place
    stating only a capacity when the query's number is one."""
    out: dict[int, float] = {}
    close: set[int] = set()
    for stated in sorted(numbers._places):
        near = closeness(value, stated)
        if near < NUMBER_NEAR:
            continue
        for doc, stated_units in numbers._places[stated]:
            if stated_units == {CAPACITY_UNIT} and CAPACITY_UNIT not in units:
                continue
            if near >= NUMBER_EXACT:
                close.add(doc)
            score = near if not units or not stated_units or units & stated_units else near * UNIT_MISS
            if score > out.get(doc, 0.0):
                out[doc] = score
    return out, len(close)


def test_near_finds_what_every_place_stated_finds(app):
    search = app.extensions["rules"].search
    rng = random.Random(20261129)
    assert len(search.cards._numbers._places[1.0]) > 1000     # "1": thousands of card entries
    for part in (search.rules, search.cards):
        numbers = part._numbers
        units = sorted({u for places in numbers._places.values() for _, us in places for u in us})
        assert units
        for value in [*numbers._values, 0.5, 2.5, 23.0, 1e6]:
            for asked in (frozenset(), frozenset(rng.sample(units, 1)), frozenset(rng.sample(units, 3)),
                          frozenset((CAPACITY_UNIT,)), frozenset((CAPACITY_UNIT, "blood"))):
                found, close = numbers.near(value, asked)
                expected, expected_close = near_place_by_place(numbers, value, asked)
                assert close == expected_close
                assert list(found.items()) == list(expected.items()), (value, asked)


def test_a_vampire_s_capacity_is_found_only_as_a_capacity(app):
    """A vampire's card states its capacity (`Entry.stated`): "5 cap" and "cap 5" find the
    vampires of capacity 5, and no other number does ("5 damage", a plain "5")."""
    cards = app.extensions["rules"].search.cards
    legba = cards.postings.docnum["cards/201093"]       # Papa Legba, a Ravnos of capacity 5
    assert "5" not in cards.entries["cards/201093"].body     # his text states no 5
    assert query_units(["cap", "who"], None) == {"cap", "who", CAPACITY_UNIT}
    assert query_units(["ravno", "who"], "cap") == {"ravno", "who", CAPACITY_UNIT}
    assert query_units(["capac"], None) >= {CAPACITY_UNIT}
    assert CAPACITY_UNIT not in query_units(["damag"], None) | query_units([], "the")
    for units in (query_units(["cap", "who"], None), query_units(["ravno"], "cap")):
        found, _ = cards._numbers.near(5.0, units)
        assert found.get(legba) == 1.0
    for units in (frozenset(), query_units(["damag"], None), frozenset(("blood",))):
        found, _ = cards._numbers.near(5.0, units)
        assert legba not in found
