"""The final round: seat choice (3.1.3), first player, and the result (3.7.5).

Seat choice: starting with the lowest qualifier, each finalist places a card with their
name in a row, at either end or in a gap between two cards already placed; the row read
left to right gives the seating, and the judge then draws who plays first.

`positions` in this module count gaps in the row as it stands: 0 is the left end, `len(row)`
the right end, and k puts the card between the k-th and (k+1)-th cards.

Result: the most VP in the final wins; a tie goes to the better preliminary rank. Every
other finalist ties for second (3.7.5). Pure functions; problems are returned as values.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Hashable, Sequence

from judgekit.i18n import Message, Said
from judgekit.tournament.scoring import parse_vp


@dataclass(frozen=True)
class FinalProblem:
    code: str
    message: str
    rule: str = "3.1.3"


def placement_order(qualifiers: Sequence[Hashable]) -> list[Hashable]:
    """Who places a card when: the lowest qualifier first (qualifiers are given best first)."""
    return list(reversed(qualifiers))


@dataclass
class SeatChoice:
    """The seat-choice procedure as it stands after some placements."""

    qualifiers: list[Hashable]  # best first
    row: list[Hashable] = field(default_factory=list)
    problems: list[FinalProblem] = field(default_factory=list)

    @property
    def next_to_place(self) -> Hashable | None:
        order = placement_order(self.qualifiers)
        return order[len(self.row)] if len(self.row) < len(order) else None

    @property
    def done(self) -> bool:
        return len(self.row) == len(self.qualifiers)


def place(choice: SeatChoice, player: Hashable, position: int) -> SeatChoice:
    """Place `player`'s card at gap `position`; a wrong turn or gap leaves the row as it was
    and adds a problem."""
    row = list(choice.row)
    expected = choice.next_to_place
    problems = []
    if expected is None:
        problems.append(FinalProblem("seat-choice-done", Said(Message("final.all-placed", "every finalist has "
                                                                      "already placed a card"))))
    elif player != expected:
        problems.append(FinalProblem("seat-choice-order", Said(Message(
            "final.turn", "it is %(player)s's turn to place a card (the lowest qualifier places first)",
            player=expected))))
    elif not isinstance(position, int) or isinstance(position, bool) or not 0 <= position <= len(row):
        problems.append(FinalProblem("seat-choice-position", Said(Message(
            "final.bad-position", "position %(position)s is not a place in the row: choose 0 (left end) to %(last)s "
            "(right end)", position=repr(position), last=len(row)))))
    else:
        row.insert(position, player)
    return SeatChoice(list(choice.qualifiers), row, problems)


def replay(qualifiers: Sequence[Hashable], positions: Sequence[int]) -> SeatChoice:
    """The seat choice after the given placements, in placement order (lowest qualifier first)."""
    choice = SeatChoice(list(qualifiers))
    for pos in positions:
        player = choice.next_to_place
        if player is None:
            choice.problems.append(FinalProblem("seat-choice-done", Said(Message(
                "final.too-many-placements", "more placements than finalists"))))
            break
        nxt = place(choice, player, pos)
        if nxt.problems:
            return SeatChoice(list(qualifiers), choice.row, nxt.problems)
        choice = nxt
    return choice


def draw_first_player(row: Sequence[Hashable], seed: int) -> Hashable:
    """The judge's random draw of who plays first (reproducible from the seed)."""
    return random.Random(seed).choice(list(row))


def seat_order(row: Sequence[Hashable], first: Hashable) -> list[Hashable]:
    """The row turned so that `first` is seat 1; the order around the table is kept."""
    row = list(row)
    k = row.index(first)
    return row[k:] + row[:k]


@dataclass
class FinalResult:
    winner: Hashable | None
    places: dict[Hashable, int]  # 1 for the winner, 2 for every other finalist
    vps: dict[Hashable, float]
    decided_by_rank: bool = False  # the VP were tied and the preliminary rank decided
    problems: list[FinalProblem] = field(default_factory=list)


def final_result(qualifiers: Sequence[Hashable], vps: dict[Hashable, object]) -> FinalResult:
    """The winner of the final (3.7.5). `qualifiers` best first (preliminary ranking)."""
    values: dict[Hashable, float] = {}
    problems = []
    for p in qualifiers:
        v = parse_vp(vps.get(p))
        if v is None:
            problems.append(FinalProblem("final-vp-missing", Said(Message("final.no-vp", "no VP for finalist %(player)s",
                                                                          player=p)), "3.7.5"))
        else:
            values[p] = v
    if problems:
        return FinalResult(None, {}, values, problems=problems)
    best = max(values.values())
    tied = [p for p in qualifiers if values[p] == best]
    winner = tied[0]  # qualifiers are in preliminary order: the best rank wins a tie
    places = {p: (1 if p == winner else 2) for p in qualifiers}
    return FinalResult(winner, places, values, decided_by_rank=len(tied) > 1)
