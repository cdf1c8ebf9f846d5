"""A seating's figures on the VEKN's nine criteria, as krcg measures them.

`measure(rounds, rounds_planned)` scores the preliminary rounds seated so far with
`krcg.seating.Score` (krcg is what Archon's seating is built on: the reference, not a copy
of it): for each criterion the number of violations — pairs or players at fault — and, for
R3 and R8, the standard deviation of the players' mean available VPs and mean starting
transfers. R2 ("no pair at one table in all rounds") counts the rounds the event plans, so
after round 2 of 3 no pair can break it yet.

Pure: plain data in, plain data out (player ids are any hashable values).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Hashable, Sequence

Player = Hashable

# krcg (and numpy under it, ~0.3 s) is imported when a seating is first measured, not when
# the app starts: `rules()` and `measure` import it.
#: What each criterion asks, in our words (the pages' legend).
ASKS = {
    "R1": "no predator–prey pair repeated",
    "R2": "no pair at one table in every round",
    "R3": "available VPs spread evenly (tables of 4 and 5)",
    "R4": "no pair at one table more often than necessary",
    "R5": "nobody in the fifth seat twice",
    "R6": "no pair in the same relative position twice",
    "R7": "nobody in the same seat twice",
    "R8": "starting transfers spread evenly (seat order)",
    "R9": "no pair in the same position group (adjacent or not) twice",
}
#: The codes, R1 first: the VEKN's order of priority (krcg's, `rules()`; a test checks it).
CODES = tuple(ASKS)
#: Each criterion's weight, R1 first: each outweighs every later one together (krcg's,
#: `rules()`; a test checks they are the same). Written here so that the seating search
#: needs no krcg (nor numpy under it) when the app starts.
WEIGHTS = (10**10, 10**9, 10**8, 10**6, 10**5, 10**4, 10**3, 10**2, 1)
#: The criteria given as a spread (a standard deviation), not a count.
SPREADS = ("R3", "R8")


@dataclass
class Criteria:
    """The figures of the rounds measured: `figures[code]` a count (a spread for R3, R8),
    `total` krcg's weighted total, `faults[code]` who is at fault (player ids: a pair,
    or a player and a seat) for the counted criteria."""

    figures: dict[str, float]
    total: float
    rounds: int
    faults: dict[str, list[tuple]] = field(default_factory=dict)

    def text(self) -> str:
        """"R1 0 · R2 0 · R3 0 · … · R8 0.27 · R9 0"."""
        return " · ".join(f"{code} {format_figure(code, self.figures[code])}" for code in CODES)

    def page(self, names: dict) -> dict:
        """For the round page: the figures line, and per criterion what it asks, its
        figure and who is at fault (`names`: player id → name)."""
        rows = []
        for code in CODES:
            faults = []
            for f in self.faults.get(code, []):
                if code in ("R5", "R7"):       # a player (and the seat he repeats)
                    who = str(names.get(f[0], f[0]))
                    faults.append(f"{who} (seat {f[1]})" if len(f) > 1 else who)
                else:                          # a pair
                    faults.append(" & ".join(str(names.get(x, x)) for x in f[:2]))
            rows.append({"code": code, "asks": ASKS[code], "figure": format_figure(code, self.figures[code]),
                         "faults": faults})
        return {"text": self.text(), "rows": rows, "rounds": self.rounds}

    def to_dict(self) -> dict:
        return {"figures": dict(self.figures), "total": self.total, "text": self.text(),
                "rounds": self.rounds,
                "faults": {code: [list(f) for f in faults] for code, faults in self.faults.items()}}


def format_figure(code: str, value: float) -> str:
    if code in SPREADS:
        return "0" if value < 0.005 else f"{value:.2f}"
    return str(int(value))


def rules() -> tuple[tuple[str, str, int], ...]:
    """(code, krcg's label, weight) per criterion, R1 first: `krcg.seating.RULES`."""
    from krcg import seating as krcg_seating
    return tuple(tuple(r) for r in krcg_seating.RULES)


def measure(rounds: Sequence[Sequence[Sequence[Player]]], rounds_planned: int = 0) -> Criteria:
    """The nine criteria over `rounds` (each a list of tables in seat order), R2 counted
    over `rounds_planned` rounds when more are planned than seated."""
    from krcg import seating as krcg_seating
    seated = [krcg_seating.Round([list(t) for t in r if t]) for r in rounds]
    seated = [r for r in seated if r]
    if not seated:
        return Criteria({code: 0 for code in CODES}, 0.0, 0, {})
    padding = [krcg_seating.Round() for _ in range(max(0, rounds_planned - len(seated)))]
    score = krcg_seating.Score(seated + padding)
    figures = {}
    for code, value in zip(CODES, score.rules):
        figures[code] = round(float(value), 6) if code in SPREADS else int(value)
    faults = {code: [tuple(_plain(x) for x in v) for v in getattr(score, code)]
              for code in CODES if code not in SPREADS}
    return Criteria(figures, float(score.total), len(seated), faults)


def _plain(value):
    """numpy integers (krcg's seat numbers) as Python ints, player ids as they are."""
    return int(value) if hasattr(value, "item") and not isinstance(value, (str, bytes)) else value
