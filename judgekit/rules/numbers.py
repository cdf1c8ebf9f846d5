"""The numbers the entries state, found near a number a query asks about ("91 cards",
"twenty-eight", "a table of 4"): what `judgekit.rules.search` scores a number group with."""
from __future__ import annotations

import bisect
from typing import NamedTuple

from judgekit.cards.descriptions import DESCRIBE_CAPACITY
from judgekit.cards.search_entries import BESIDE_UNITS, CAPACITY_UNIT, COST_UNITS
from judgekit.rules.analysis import closeness, stem_word

NUMBER_NEAR = 0.5       # least closeness for a stated number to count (91 ~ ninety: 0.98)
NUMBER_EXACT = 0.75     # closeness of the stated numbers that make a number common
UNIT_MISS = 0.5         # share kept when the stated number counts something else
NO_UNIT = frozenset({""})  # a query's number counting only units no entry counts
#: A vampire's capacity is a number its entry states beside its text, with the unit
#: `CAPACITY_UNIT` (`Entry.stated`; no stem is spelt so). Such a number counts only for a
#: query's number that says it is a capacity ("5 cap", "cap 5", "capacity of 8":
#: `query_units`), and then as any number does; any other "5" does not find the card's
#: capacity ("5 damage").
#: The stems that say a query's number is a capacity, after it or just before it: those of
#: the words a described vampire's capacity is said with (`DESCRIBE_CAPACITY`)
CAPACITY_WORDS = frozenset(s for word in DESCRIBE_CAPACITY for s in stem_word(word))
#: A number said to be more or less of something ("bleed for one more", "hit for one less",
#: "bleeds for one extra"): the word before it is what it counts, as the cards' "+1 bleed"
#: says it (`query_units`)
COMPARATIVES = frozenset(s for word in ("more", "less", "extra", "fewer", "additional") for s in stem_word(word))
# A library card's cost is stated beside its text too (`COST_UNITS`), and counts only for a
# query's number followed by "pool" or "blood" ("the 2-pool master", "costs 1 blood"): a
# plain "3" ("3R", "3 damage") does not find every card costing 3. Chosen on the development
# sets (30 Nov 2026): seven card sets one question more each (22, 23, 26, 28, 29, 30, 33), none
# fewer; counted for any number as a plain "pool" or "blood" (no unit of its own), three
# sets lost one ("1 blood" then stated by a thousand more cards weighs less).


def query_units(after: list[str], before: str | None) -> frozenset[str]:
    """The units a query's number counts: the stems of the (up to two) words after it that
    are not numbers (`after`), `CAPACITY_UNIT` when one of them, or the word just before it
    (`before`), is a capacity's word, a cost's unit (`COST_UNITS`) for "pool" or "blood", and
    the word before it when one after it says more or less (`COMPARATIVES`: "bleed for one
    more" counts bleed)."""
    units = frozenset(after)
    if before is not None and not COMPARATIVES.isdisjoint(units):
        units |= {before}
    if not CAPACITY_WORDS.isdisjoint(units) or before in CAPACITY_WORDS:
        units |= {CAPACITY_UNIT}
    costs = [unit for stem, unit in COST_UNITS.items() if stem in units]
    return units | frozenset(costs) if costs else units


class Stating(NamedTuple):
    """The entries stating one number: all of them (in their order), those where it counts
    nothing (a table cell), those where it counts each unit (a stem: "blood"), those
    stating it only beside their text (`BESIDE_UNITS`: a capacity, a cost) with those units
    (`beside_only`), and all but those (`plain`, in their order)."""
    docs: tuple[int, ...]
    unitless: frozenset[int]
    by_unit: dict[str, frozenset[int]]
    beside_only: dict[int, frozenset[str]]
    plain: tuple[int, ...]

    def counted(self, units: frozenset[str]) -> tuple[tuple[int, ...], frozenset[int]]:
        """The entries where it counts for a query's number counting `units` (in their
        order), and those hidden: stating it only beside their text, in units the query's
        does not count."""
        if not self.beside_only:
            return self.docs, frozenset()
        if units.isdisjoint(BESIDE_UNITS):
            return self.plain, frozenset(self.beside_only)
        hidden = frozenset(d for d, us in self.beside_only.items() if us.isdisjoint(units))
        return tuple(d for d in self.docs if d not in hidden), hidden


class StatedNumbers:
    """Each entry's stated numbers (by docnum: [(value, the stems of what it counts)]),
    looked up by value."""

    def __init__(self, stated: list[list[tuple[float, frozenset[str]]]]):
        self._places: dict[float, list[tuple[int, frozenset[str]]]] = {}
        for doc, numbers in enumerate(stated):
            for value, units in numbers:
                self._places.setdefault(value, []).append((doc, units))
        self._values = sorted(self._places)
        # per run of stated numbers, every unit an entry's number in it counts (`_units_near`)
        self._units_by_run: dict[tuple[int, int], frozenset[str]] = {}
        self._stating: dict[float, Stating] = {}     # made on first use (`_stating_of`)

    def units_that_count(self, units: frozenset[str], value: float) -> frozenset[str]:
        """The units of a query's number `value` that `near` can tell apart: those an entry's
        number near it counts (`_units_near`); when it counts none of them, a unit no entry
        counts (`NO_UNIT`). `near` gives the same for both, and a question's number ("2
        blood", "1 vote") comes back with the same few, whatever words follow it ("1 blood
        each", "1 blood per": the part's cache holds one "1 blood")."""
        kept = units & self._units_near(value)
        return kept if kept or not units else NO_UNIT

    def _units_near(self, value: float) -> frozenset[str]:
        """Every unit that the entries' numbers near `value` count (`_near_values`), and
        those of a number beside a text (made once per run of stated numbers near a value:
        bounded by the numbers the entries state, whatever numbers the questions type)."""
        run = self._near_run(value)
        found = self._units_by_run.get(run)
        if found is None:
            found = self._units_by_run[run] = frozenset(
                u for stated in self._values[run[0]:run[1]] for _, units in self._places[stated] for u in units) \
                | BESIDE_UNITS
        return found

    def _stating_of(self, value: float) -> "Stating":
        """The entries stating `value`, grouped for `near` (made once per value: "1" is
        stated by thousands of card entries, and a question asking it comes back)."""
        found = self._stating.get(value)
        if found is None:
            docs: dict[int, None] = {}
            plain: dict[int, None] = {}
            beside: dict[int, set[str]] = {}
            unitless: set[int] = set()
            by_unit: dict[str, set[int]] = {}
            for doc, units in self._places[value]:
                docs[doc] = None
                if units and units <= BESIDE_UNITS:
                    beside.setdefault(doc, set()).update(units)
                else:
                    plain[doc] = None
                if not units:
                    unitless.add(doc)
                for unit in units:
                    by_unit.setdefault(unit, set()).add(doc)
            found = self._stating[value] = Stating(tuple(docs), frozenset(unitless),
                                                   {u: frozenset(ds) for u, ds in by_unit.items()},
                                                   {d: frozenset(us) for d, us in beside.items() if d not in plain},
                                                   tuple(plain))
        return found

    def _near_run(self, value: float) -> tuple[int, int]:
        """Where the stated numbers that may be near `value` are in `_values` (from, to):
        closeness >= NUMBER_NEAR (0.5) only between 3/4 and 4/3 of it."""
        values = self._values
        return bisect.bisect_left(values, value * 0.74), bisect.bisect_right(values, value * 1.35)

    def _near_values(self, value: float) -> list[float]:
        """The stated numbers that may be near `value`, ascending (`_near_run`)."""
        start, end = self._near_run(value)
        return self._values[start:end]

    def states_near(self, value: float) -> bool:
        """Whether an entry states `value` or a number near it."""
        return any(closeness(value, stated) >= NUMBER_NEAR for stated in self._near_values(value))

    def near(self, value: float, units: frozenset[str]) -> tuple[dict[int, float], int]:
        """The entries stating `value` or a number near it, docnum -> closeness (x UNIT_MISS
        when the number there counts something else than the query's `units`), and how many
        state it or one close to it (closeness >= NUMBER_EXACT), whatever they count. An
        entry's closeness is the best of its stated numbers'; the entries come in the order
        of the stated numbers, ascending, each in its entries' order. A number stated only
        beside an entry's text (a capacity, a cost: `Stating.counted`) counts only when `units`
        say the query's counts the same."""
        out: dict[int, float] = {}
        close: set[int] = set()
        for stated in self._near_values(value):
            near = closeness(value, stated)
            if near < NUMBER_NEAR:
                continue
            found = self._stating_of(stated)
            docs, hidden = found.counted(units)
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
