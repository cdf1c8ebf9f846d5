"""The entries stating a number near the one a question asks (`judgekit.rules.numbers`): the
grouped look-up (`StatedNumbers.near`, made once per stated number) finds what reading every
place the number is stated finds, entry by entry, in the same order, on the real index."""
from __future__ import annotations

import random

import pytest

from judgekit.rules.analysis import closeness
from judgekit.cards.search_entries import BESIDE_UNITS, CAPACITY_UNIT, COST_UNITS
from judgekit.rules.numbers import NUMBER_EXACT, NUMBER_NEAR, UNIT_MISS, StatedNumbers, query_units

pytestmark = pytest.mark.shared_app   # read only: one app for the module (tests/conftest.py)


def near_place_by_place(numbers: StatedNumbers, value: float, units: frozenset[str]):
    """`near` as the rule says it: each place a near number is stated, its closeness (x
    UNIT_MISS when it counts something else), the best of an entry's places; a place
    stating it only beside the text (a capacity, a cost) when the query's number counts the
    same."""
    out: dict[int, float] = {}
    close: set[int] = set()
    for stated in sorted(numbers._places):
        near = closeness(value, stated)
        if near < NUMBER_NEAR:
            continue
        for doc, stated_units in numbers._places[stated]:
            if stated_units and stated_units <= BESIDE_UNITS and stated_units.isdisjoint(units):
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
                          frozenset((CAPACITY_UNIT,)), frozenset((CAPACITY_UNIT, "blood")),
                          query_units(["pool"], None), query_units(["blood", "cost"], None)):
                found, close = numbers.near(value, asked)
                expected, expected_close = near_place_by_place(numbers, value, asked)
                assert close == expected_close
                assert list(found.items()) == list(expected.items()), (value, asked)


def test_the_units_near_tells_apart_give_what_the_question_s_own_give(app):
    """A question's number is looked up with only the units an entry's number near it counts
    (`units_that_count`, the key of the part's cache): the same entries at the same
    closeness as with every word that follows it, words no entry counts included."""
    search = app.extensions["rules"].search
    rng = random.Random(20261201)
    for part in (search.rules, search.cards):
        numbers = part._numbers
        units = sorted({u for places in numbers._places.values() for _, us in places for u in us})
        for value in [*rng.sample(numbers._values, min(40, len(numbers._values))), 1.0, 2.0, 0.5, 23.0]:
            for asked in (frozenset(), frozenset(("whenev",)), frozenset(("whenev", "zzz")),
                          frozenset(("whenev", rng.choice(units))), frozenset(rng.sample(units, 2)) | {"the"},
                          frozenset((CAPACITY_UNIT, "vamp")), query_units(["pool", "when"], None)):
                kept = numbers.units_that_count(asked, value)
                assert kept <= asked or not (asked & numbers._units_near(value)), (asked, kept)
                assert numbers.near(value, kept) == numbers.near(value, asked), (value, asked)
                assert list(numbers.near(value, kept)[0]) == list(numbers.near(value, asked)[0])
    # a number counting only words no entry counts reads as one counting something else
    numbers = search.cards._numbers
    assert numbers.units_that_count(frozenset(("qqq",)), 1.0) == numbers.units_that_count(frozenset(("zzz",)), 1.0) \
        != frozenset()
    assert numbers.units_that_count(frozenset(), 1.0) == frozenset()
    # the units are kept per run of stated numbers, not per number asked: a thousand numbers
    # typed past every stated one add one run
    top = max(numbers._values)
    before = len(numbers._units_by_run)
    for k in range(1000):
        numbers.units_that_count(frozenset(("blood",)), top * 2 + 1 + k)
    assert len(numbers._units_by_run) <= before + 1
    # a unit that only the entries' other numbers count tells nothing apart near this one
    for value in (1.0, 5.0, 23.0):
        near_units = numbers._units_near(value)
        for unit in ("blood", "pool", "damag", "vote", "card", "minut"):
            kept = numbers.units_that_count(frozenset((unit,)), value)
            assert kept == (frozenset((unit,)) if unit in near_units else frozenset(("",))), (value, unit)


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


def test_a_library_card_s_cost_is_found_only_as_a_cost(app):
    """A library card's entry states its cost in pool and in blood beside its text: "a
    2-pool master", "costs 1 blood" find the cards of that cost; a plain number ("3R", "3
    damage") does not find every card costing it."""
    cards = app.extensions["rules"].search.cards
    hunter = cards.postings.docnum["cards/100014"]     # Abyssal Hunter, an ally costing 2 pool
    assert "2" not in cards.entries["cards/100014"].body
    assert query_units(["pool", "master"], None) == {"pool", "master", COST_UNITS["pool"]}
    assert query_units(["blood"], "cost") == {"blood", COST_UNITS["blood"]}
    assert not set(COST_UNITS.values()) & (query_units(["damag"], None) | query_units([], "pool"))
    found, _ = cards._numbers.near(2.0, query_units(["pool"], None))
    assert found.get(hunter) == 1.0
    for units in (frozenset(), query_units(["damag"], None), query_units(["blood"], None)):
        found, _ = cards._numbers.near(2.0, units)
        assert hunter not in found


def test_a_card_described_by_its_cost_is_found(app):
    """"werewolf ally 2 pool, 3 life, …": High Top and Ohoyo Hopoksia share the werewolf's
    life, strength and unlock-phase healing; Double Deuce is the one that costs 2 pool."""
    hits, _ = app.extensions["rules"].search.search(
        "werewolf ally 2 pool, 3 life, 1 str 1 bleed, +1 stealth, gets 1 life back in unlock phase if hes at 2 "
        "or less. name pls", limit=3)
    assert hits[0].entry.key == "cards/102220"


def test_a_number_stated_beside_the_text_counts_only_in_its_unit():
    """The same entries as the browser's test (tests/js/offline-index.test.js): entry 0
    costs 2 pool, entry 1's text says "2 pool", entry 2 costs 2 pool and 2 blood."""
    pool, blood = COST_UNITS["pool"], COST_UNITS["blood"]
    numbers = StatedNumbers([[(2.0, frozenset((pool,)))], [(2.0, frozenset(("pool",)))],
                             [(2.0, frozenset((pool,))), (2.0, frozenset((blood,)))]])

    def found(after: list[str]) -> dict[int, float]:
        return numbers.near(2.0, query_units(after, None))[0]

    assert found([]) == {1: 1.0}                     # a plain "2": no cost
    assert found(["damag"]) == {1: UNIT_MISS}         # "2 damage": the text's, half
    assert found(["pool"]) == {0: 1.0, 1: 1.0, 2: 1.0}
    assert found(["blood"]) == {1: UNIT_MISS, 2: 1.0}


def test_a_number_said_to_be_more_or_less_counts_the_word_before_it(app):
    """"bleed for one more", "hit for one less", "bleeds for one extra": the word before the
    number is what it counts (`COMPARATIVES`), as a card's "+1 bleed" says it, so a card
    stating 1 beside "bleed" is as close as can be, not half as close."""
    assert query_units(["more"], "bleed") == {"more", "bleed"}
    assert query_units(["extra", "vote"], "get") == {"extra", "vote", "get"}
    assert query_units(["damag"], "bleed") == {"damag"}
    cards = app.extensions["rules"].search.cards
    key = "cards/100031"      # a Presence card: "+1 bleed" during a bleed
    assert "+1 bleed" in cards.entries[key].body
    d = cards.postings.docnum[key]
    with_unit, _ = cards._numbers.near(1.0, query_units(["more"], "bleed"))
    without, _ = cards._numbers.near(1.0, query_units(["more"], None))
    assert with_unit[d] == 1.0 and without[d] < 1.0
    group = next(g for g in cards.groups_of("the card that makes him bleed for one more") if g.number is not None)
    assert "bleed" in group.units
