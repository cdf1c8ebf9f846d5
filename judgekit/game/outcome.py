"""A game's outcome: each seat's VP from the ousts, withdrawals, concessions, the time
limit and an intentional draw, in the order they happened (`derive_vp`; the rules and the
½ VP are tournament rules 3.7.2, the facts in `judgekit.game.scoring`). The recorder shows
it when a game ends; the tournament scores the table from it (`judgekit.tournament.scoring`,
which also checks reported VP and gives GW and TP). Pure: problems are `TableError` values.

Seats are numbered from 1 in seating order, clockwise. A seat's prey is the next surviving
seat (seat 1 preys on seat 2, the last seat on seat 1); its predator is the previous
surviving seat.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

from judgekit.game.scoring import TABLE_SIZES, TIME_OUT_VP, WITHDRAW_VP
from judgekit.i18n import Message, Said

OUTCOME_TYPES = ("oust", "withdraw", "concede", "time-out", "draw")


@dataclass(frozen=True)
class TableError:
    """A reason why a table's numbers or outcome cannot stand; `rule` is a section id.
    `message` is a `Said` where the code words it (the English text, worded in the reader's
    language where shown)."""

    code: str
    message: str
    seat: int | None = None
    rule: str = "3.7.2"
    # seats whose withdrawal (3.7.2: ½ VP) would make the numbers possible: the form offers
    # to tick them in one tap, the API returns them (`vp-lone-half`, `vp-oust-order`)
    suggest_withdrawn: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["suggest_withdrawn"] = list(self.suggest_withdrawn)
        return out


@dataclass
class VpResult:
    """Each seat's VP derived from a game's outcome events.

    `vps[i]` is seat i+1's VP. `out` says how each seat left the game ("ousted by seat 3",
    "withdrew", "conceded to seat 1": `Said` values); `finished` is true once the game is over (one player
    left, time limit, or intentional draw); `ended_by` names how it ended.
    """

    vps: list[float]
    survivors: list[int]
    out: dict[int, str] = field(default_factory=dict)
    withdrawn: list[int] = field(default_factory=list)
    finished: bool = False
    ended_by: str | None = None
    errors: list[TableError] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "vps": list(self.vps),
            "survivors": list(self.survivors),
            "out": {str(k): v for k, v in self.out.items()},
            "withdrawn": list(self.withdrawn),
            "finished": self.finished,
            "ended_by": self.ended_by,
            "errors": [e.to_dict() for e in self.errors],
        }


def snap_vp(vp: float) -> float:
    """A VP value as a float, snapped to the nearest half when it is one (halves are exact
    in binary floating point, so sums of VP stay exact)."""
    x = float(vp)
    h = round(x * 2)
    return h / 2 if abs(x * 2 - h) < 1e-9 else x


# --- deriving VP from the outcome ------------------------------------------------------

def derive_vp(seat_count: int, events: Iterable[dict[str, Any]]) -> VpResult:
    """Each seat's VP from a game's outcome events, in the order they happened.

    Events are dicts with a `type` among `oust`, `withdraw`, `concede` (these carry the
    `seat` concerned), `time-out` and `draw` (intentional draw); an optional `seq` orders
    them. Rules applied:

    - oust of seat X: X's predator (the previous surviving seat) scores 1 VP (3.7.2);
    - withdrawal of seat X: X scores ½ VP and leaves; nobody scores for it (3.7.2);
    - concession (3.5): once all players but one have conceded, the result is recorded as if
      the remaining player had ousted the conceders in sequence, starting with its prey;
      a concession that is not joined by all but one player is reported and ignored;
    - time-out, intentional draw (3.6): each player not ousted scores ½ VP (a lone
      survivor would score 1);
    - when a single player is left, that player scores 1 VP for being the last standing.

    Events that make no sense (an unknown seat, a seat already out, anything after the end)
    are reported in `errors` and skipped; the rest is still scored.
    """
    n = int(seat_count)
    result = VpResult(vps=[0.0] * n, survivors=list(range(1, n + 1)))
    if n not in TABLE_SIZES:
        result.errors.append(TableError(
            "table-size", Said(Message("game.table-size", "a table has 4 or 5 seats, not %(n)s", n=n)), rule="3.1.2"))
    if n < 1:
        result.finished = True
        return result

    ordered = sorted(enumerate(events), key=lambda ie: (_seq_key(ie[1]), ie[0]))
    conceding: list[int] = []

    def add(seat: int, vp: float) -> None:
        result.vps[seat - 1] = snap_vp(result.vps[seat - 1] + vp)

    def predator_of(seat: int) -> int:
        alive = result.survivors
        return alive[(alive.index(seat) - 1) % len(alive)]

    def leave(seat: int) -> None:
        result.survivors.remove(seat)
        if len(result.survivors) == 1 and not result.finished:
            last = result.survivors[0]
            add(last, 1)
            result.finished = True
            result.ended_by = result.ended_by or "last-standing"

    def drop_pending(reason: Message) -> None:
        if conceding:
            seats = ", ".join(str(s) for s in conceding)
            result.errors.append(TableError(
                "concession-incomplete",
                Said(Message("game.concession-incomplete", "seat(s) %(seats)s conceded, but a concession needs all "
                             "players but one to agree (%(reason)s); it was not scored", seats=seats, reason=reason)),
                seat=conceding[0], rule="3.5"))
            conceding.clear()

    for _, event in ordered:
        kind = event.get("type") if isinstance(event, dict) else None
        if kind not in OUTCOME_TYPES:
            result.errors.append(TableError(
                "event-unknown", Said(Message("game.event-unknown", "unknown outcome event %(kind)s", kind=repr(kind))),
                rule="3.7.2"))
            continue
        if result.finished:
            result.errors.append(TableError(
                "event-after-end", Said(Message("game.event-after-end", "'%(kind)s' recorded after the game had "
                                                "ended; ignored", kind=kind)),
                seat=_seat_or_none(event)))
            continue
        if kind in ("time-out", "draw"):
            drop_pending(Message("game.came-first", "'%(kind)s' came first", kind=kind))
            alive = list(result.survivors)
            if len(alive) == 1:
                add(alive[0], 1)
            else:
                for seat in alive:
                    add(seat, TIME_OUT_VP)
            result.finished = True
            result.ended_by = kind
            continue

        seat = _seat_or_none(event)
        if seat is None or not 1 <= seat <= n:
            result.errors.append(TableError(
                "seat-unknown", Said(Message("game.seat-unknown", "'%(kind)s' names seat %(seat)s, but the table has "
                                             "seats 1 to %(n)s", kind=kind, seat=repr(event.get("seat")), n=n))))
            continue
        if seat not in result.survivors:
            result.errors.append(TableError(
                "seat-already-out", Said(Message("game.seat-already-out", "seat %(seat)s is already out of the game "
                                                 "(%(how)s); '%(kind)s' ignored", seat=seat,
                                                 how=result.out.get(seat) or Message("game.out", "out"), kind=kind)),
                seat=seat))
            continue

        if kind == "concede":
            if seat in conceding:
                continue
            conceding.append(seat)
            if len(conceding) == len(result.survivors) - 1:
                remaining = next(s for s in result.survivors if s not in conceding)
                conceders = set(conceding)
                conceding.clear()
                while len(result.survivors) > 1:
                    alive = result.survivors
                    prey = alive[(alive.index(remaining) + 1) % len(alive)]
                    assert prey in conceders
                    add(remaining, 1)
                    result.out[prey] = Said(Message("game.conceded-to", "conceded to seat %(seat)s", seat=remaining))
                    result.ended_by = "concession"
                    leave(prey)
            continue

        drop_pending(Message("game.seat-came-first", "'%(kind)s' of seat %(seat)s came first", kind=kind, seat=seat))
        if kind == "oust":
            if len(result.survivors) < 2:  # pragma: no cover - the game would be over
                continue
            predator = predator_of(seat)
            add(predator, 1)
            result.out[seat] = Said(Message("game.ousted-by", "ousted by seat %(seat)s", seat=predator))
            leave(seat)
        elif kind == "withdraw":
            add(seat, WITHDRAW_VP)
            result.out[seat] = Said(Message("game.withdrew", "withdrew"))
            result.withdrawn.append(seat)
            leave(seat)

    drop_pending(Message("game.played-on", "the others played on"))
    return result


def _seq_key(event: Any) -> float:
    if isinstance(event, dict) and isinstance(event.get("seq"), (int, float)):
        return float(event["seq"])
    return math.inf


def _seat_or_none(event: dict[str, Any]) -> int | None:
    seat = event.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, (int, str)):
        return None
    try:
        return int(seat)
    except ValueError:
        return None
