"""The numbers the entries state, found near a number a query asks about ("91 cards",
"twenty-eight", "a table of 4"): what `judgekit.rules.search` scores a number group with."""
from __future__ import annotations

import bisect
from typing import NamedTuple

from judgekit.cards.descriptions import DESCRIBE_CAPACITY
from judgekit.cards.search_entries import CAPACITY_UNIT
from judgekit.rules.analysis import closeness, stem_word

NUMBER_NEAR = 0.5       # least closeness for a stated number to count (91 ~ ninety: 0.98)
NUMBER_EXACT = 0.75     # closeness of the stated numbers that make a number common
UNIT_MISS = 0.5         # share kept when the stated number counts something else
#: A vampire's capacity is a number its entry states beside its text, with the unit
#: `CAPACITY_UNIT` (`Entry.stated`; no stem is spelt so). Such a number counts only for a
#: query's number that says it is a capacity ("5 cap", "cap 5", "capacity of 8":
#: `query_units`), and then as any number does; any other "5" does not find the card's
#: capacity ("5 damage").
#: The stems that say a query's number is a capacity, after it or just before it: those of
#: the words a described vampire's capacity is said with (`DESCRIBE_CAPACITY`)
CAPACITY_WORDS = frozenset(s for word in DESCRIBE_CAPACITY for s in stem_word(word))


def query_units(after: list[str], before: str | None) -> frozenset[str]:
    """The units a query's number counts: the stems of the (up to two) words after it that
    are not numbers (`after`), and `CAPACITY_UNIT` when one of them, or the word just before it
    (`before`), is a capacity's word."""
    units = frozenset(after)
    if not CAPACITY_WORDS.isdisjoint(units) or before in CAPACITY_WORDS:
        units |= {CAPACITY_UNIT}
    return units


class Stating(NamedTuple):
    """The entries stating one number: all of them (in their order), those where it counts
    nothing (a table cell), those where it counts each unit (a stem: "blood"), those
    stating it only as a `CAPACITY_UNIT` (`capacity_only`), and all but those (`plain`, in
    their order)."""
    docs: tuple[int, ...]
    unitless: frozenset[int]
    by_unit: dict[str, frozenset[int]]
    capacity_only: frozenset[int]
    plain: tuple[int, ...]


class StatedNumbers:
    """Each entry's stated numbers (by docnum: [(value, the stems of what it counts)]),
    looked up by value."""

    def __init__(self, stated: list[list[tuple[float, frozenset[str]]]]):
        self._places: dict[float, list[tuple[int, frozenset[str]]]] = {}
        for doc, numbers in enumerate(stated):
            for value, units in numbers:
                self._places.setdefault(value, []).append((doc, units))
        self._values = sorted(self._places)
        self._stating: dict[float, Stating] = {}     # made on first use (`_stating_of`)

    def _stating_of(self, value: float) -> "Stating":
        """The entries stating `value`, grouped for `near` (made once per value: "1" is
        stated by thousands of card entries, and a question asking it comes back)."""
        found = self._stating.get(value)
        if found is None:
            docs: dict[int, None] = {}
            plain: dict[int, None] = {}
            unitless: set[int] = set()
            by_unit: dict[str, set[int]] = {}
            for doc, units in self._places[value]:
                docs[doc] = None
                if units != {CAPACITY_UNIT}:
                    plain[doc] = None
                if not units:
                    unitless.add(doc)
                for unit in units:
                    by_unit.setdefault(unit, set()).add(doc)
            found = self._stating[value] = Stating(tuple(docs), frozenset(unitless),
                                                   {u: frozenset(ds) for u, ds in by_unit.items()},
                                                   frozenset(d for d in docs if d not in plain),
                                                   tuple(plain))
        return found

    def _near_values(self, value: float) -> list[float]:
        """The stated numbers that may be near `value`, ascending: closeness >= NUMBER_NEAR
        (0.5) only between 3/4 and 4/3 of it."""
        values = self._values
        return values[bisect.bisect_left(values, value * 0.74):bisect.bisect_right(values, value * 1.35)]

    def states_near(self, value: float) -> bool:
        """Whether an entry states `value` or a number near it."""
        return any(closeness(value, stated) >= NUMBER_NEAR for stated in self._near_values(value))

    def near(self, value: float, units: frozenset[str]) -> tuple[dict[int, float], int]:
        """The entries stating `value` or a number near it, docnum -> closeness (x UNIT_MISS
        when the number there counts something else than the query's `units`), and how many
        state it or one close to it (closeness >= NUMBER_EXACT), whatever they count. An
        entry's closeness is the best of its stated numbers'; the entries come in the order
        of the stated numbers, ascending, each in its entries' order. A number stated only as a
        `CAPACITY_UNIT` counts only when `units` say the query's is one."""
        out: dict[int, float] = {}
        close: set[int] = set()
        capacity = CAPACITY_UNIT in units
        for stated in self._near_values(value):
            near = closeness(value, stated)
            if near < NUMBER_NEAR:
                continue
            found = self._stating_of(stated)
            hidden = frozenset() if capacity else found.capacity_only
            docs = found.plain if hidden else found.docs
            if near >= NUMBER_EXACT:
                close.update(docs)
            # each entry at `near` where the number counts what the query's does, or nothing
            # (a table cell), or the query counts nothing; else at near x UNIT_MISS
            scores = dict.fromkeys(docs, near if not units else near * UNIT_MISS)
            if units:
                same = found.unitless.union(*(found.by_unit.get(u, ()) for u in units))
                scores.update(dict.fromkeys(same - hidden, near))
            if not out:
                out = scores
                continue
            for doc, score in scores.items():
                if score > out.get(doc, 0.0):
                    out[doc] = score
        return out, len(close)
