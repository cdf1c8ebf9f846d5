"""The numbers the entries state, found near a number a query asks about ("91 cards",
"twenty-eight", "a table of 4"): what `judgekit.rules.search` scores a number group with."""
from __future__ import annotations

import bisect

from judgekit.rules.analysis import closeness

NUMBER_NEAR = 0.5       # least closeness for a stated number to count (91 ~ ninety: 0.98)
NUMBER_EXACT = 0.75     # closeness of the stated numbers that make a number common
UNIT_MISS = 0.5         # share kept when the stated number counts something else


class StatedNumbers:
    """Each entry's stated numbers (by docnum: [(value, the stems of what it counts)]),
    looked up by value."""

    def __init__(self, stated: list[list[tuple[float, frozenset[str]]]]):
        self._places: dict[float, list[tuple[int, frozenset[str]]]] = {}
        for doc, numbers in enumerate(stated):
            for value, units in numbers:
                self._places.setdefault(value, []).append((doc, units))
        self._values = sorted(self._places)

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
        state it or one close to it (closeness >= NUMBER_EXACT), whatever they count."""
        out: dict[int, float] = {}
        close: set[int] = set()
        for stated in self._near_values(value):
            near = closeness(value, stated)
            if near < NUMBER_NEAR:
                continue
            for doc, stated_units in self._places[stated]:
                if near >= NUMBER_EXACT:
                    close.add(doc)
                same = not units or not stated_units or units & stated_units  # a table cell has none
                score = near if same else near * UNIT_MISS
                if score > out.get(doc, 0.0):
                    out[doc] = score
        return out, len(close)
