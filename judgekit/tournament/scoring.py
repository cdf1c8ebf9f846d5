"""Victory points, game wins and tournament points of one table (tournament rules 3.5–3.7).

This module is the one place where the scoring facts live: how a game's outcome turns into
each seat's VP (`derive_vp`), whether a table's reported VP are possible (`check_table`),
and the game win and tournament points of a table (`game_wins`, `tournament_points`,
`score_table`). Everything here is a pure function over plain data; problems are returned
as `TableError` values for the UI to show, never raised.

Seats are numbered from 1 in seating order, clockwise. A seat's prey is the next surviving
seat (seat 1 preys on seat 2, the last seat on seat 1); its predator is the previous
surviving seat.
"""
from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from itertools import combinations
from typing import Any, Iterable, Sequence

# the table and the points (3.7.1-3.7.3) are facts of the game layer; scored here
from judgekit.game.scoring import GW_MIN_VP, TABLE_SIZES, TIME_OUT_VP, TP_BY_PLACE, WITHDRAW_VP

OUTCOME_TYPES = ("oust", "withdraw", "concede", "time-out", "draw")


@dataclass(frozen=True)
class TableError:
    """A reason why a table's numbers or outcome cannot stand; `rule` is a section id."""

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
    "withdrew", "conceded to seat 1"); `finished` is true once the game is over (one player
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


def _num(vp: float) -> float:
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
            "table-size", f"a table has 4 or 5 seats, not {n}", rule="3.1.2"))
    if n < 1:
        result.finished = True
        return result

    ordered = sorted(enumerate(events), key=lambda ie: (_seq_key(ie[1]), ie[0]))
    conceding: list[int] = []

    def add(seat: int, vp: float) -> None:
        result.vps[seat - 1] = _num(result.vps[seat - 1] + vp)

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

    def drop_pending(reason: str) -> None:
        if conceding:
            seats = ", ".join(str(s) for s in conceding)
            result.errors.append(TableError(
                "concession-incomplete",
                f"seat(s) {seats} conceded, but a concession needs all players but one "
                f"to agree ({reason}); it was not scored",
                seat=conceding[0], rule="3.5"))
            conceding.clear()

    for _, event in ordered:
        kind = event.get("type") if isinstance(event, dict) else None
        if kind not in OUTCOME_TYPES:
            result.errors.append(TableError(
                "event-unknown", f"unknown outcome event {kind!r}", rule="3.7.2"))
            continue
        if result.finished:
            result.errors.append(TableError(
                "event-after-end", f"'{kind}' recorded after the game had ended; ignored",
                seat=_seat_or_none(event)))
            continue
        if kind in ("time-out", "draw"):
            drop_pending(f"'{kind}' came first")
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
                "seat-unknown", f"'{kind}' names seat {event.get('seat')!r}, "
                f"but the table has seats 1 to {n}"))
            continue
        if seat not in result.survivors:
            result.errors.append(TableError(
                "seat-already-out", f"seat {seat} is already out of the game "
                f"({result.out.get(seat, 'out')}); '{kind}' ignored", seat=seat))
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
                    result.out[prey] = f"conceded to seat {remaining}"
                    result.ended_by = "concession"
                    leave(prey)
            continue

        drop_pending(f"'{kind}' of seat {seat} came first")
        if kind == "oust":
            if len(result.survivors) < 2:  # pragma: no cover - the game would be over
                continue
            predator = predator_of(seat)
            add(predator, 1)
            result.out[seat] = f"ousted by seat {predator}"
            leave(seat)
        elif kind == "withdraw":
            add(seat, WITHDRAW_VP)
            result.out[seat] = "withdrew"
            result.withdrawn.append(seat)
            leave(seat)

    drop_pending("the others played on")
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


# --- checking reported VP ----------------------------------------------------------------

#: VP as people type them: digits, at most one decimal mark ("." or ","), "½" for a half.
#: Parsed here, not by Python's float(): float() also takes "0_5" (5), "1e3", "inf", "nan".
_VP_TEXT = re.compile(r"([+-]?)([0-9]{0,6})(?:[.,]([0-9]{0,6}))?(½?)")


def parse_vp(value: Any) -> float | None:
    """A VP value from user input ("1.5", "1,5", "½", "1½", 2) or None if it is not a
    finite number written as VP are (no exponents, no "_" separators, no inf/nan)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        try:
            number = float(value)  # an int too large for a float overflows (10**400)
        except OverflowError:
            return None
        return number if math.isfinite(number) else None
    if isinstance(value, str):
        m = _VP_TEXT.fullmatch(value.strip())
        if m is None:
            return None
        sign, whole, frac, half = m.groups()
        if not whole and not frac and not half:
            return None
        if half and frac:  # "1.5½"
            return None
        number = float(f"{whole or 0}.{frac or 0}") + (0.5 if half else 0.0)
        return -number if sign == "-" else number
    return None


def seat_errors(vps: Sequence[Any]) -> list[TableError]:
    """What is wrong with each seat's VP on its own (every seat at fault, each with its
    `seat`): not a number, negative, not a multiple of ½, more than the table can give.
    These are malformed input; `check_table` then checks the numbers together."""
    n = len(vps)
    errors: list[TableError] = []
    for seat, raw in enumerate(vps, 1):
        vp = parse_vp(raw)
        if vp is None and (raw is None or (isinstance(raw, str) and not raw.strip())):
            errors.append(TableError("vp-not-number", f"seat {seat}: no VP given (type 0 for none)", seat))
        elif vp is None:
            shown = raw if isinstance(raw, str) else repr(raw)
            errors.append(TableError("vp-not-number", f"seat {seat}: '{shown}' is not a number", seat))
        elif vp < 0:
            errors.append(TableError("vp-negative", f"seat {seat}: VP cannot be negative ({_fmt(vp)})", seat))
        elif vp > n:  # before the halves: 1e308 * 2 is no number
            errors.append(TableError("vp-too-many", f"seat {seat}: {_fmt(vp)} VP is more than a "
                                                    f"{n}-player table can give", seat))
        elif vp * 2 != int(vp * 2):
            errors.append(TableError("vp-not-half", f"seat {seat}: VP come in halves, {_fmt(vp)} is not one", seat))
    return errors


def check_table(vps: Sequence[Any], withdrawn: Iterable[int] = ()) -> list[TableError]:
    """Whether the VP reported for a table, in seating order, are possible.

    Returns the list of reasons they are not (empty when they are). The checks, in order:
    4 or 5 seats; every VP a non-negative multiple of ½; the VP rounded up add up to the
    number of players (fewer: the game looks unfinished; more: impossible); and some order
    of ousts around the table, ended by the last player standing or by the time limit,
    gives exactly these VP. `withdrawn` names the seats that withdrew (their ½ VP is then
    not read as a survivor's): without it, a withdrawal usually looks like a time-out.
    """
    n = len(vps)
    if n not in TABLE_SIZES:
        return [TableError("table-size", f"a table has 4 or 5 players, not {n}", rule="3.1.2")]
    errors = seat_errors(vps)
    if errors:
        return errors
    values = [parse_vp(raw) or 0.0 for raw in vps]

    seats = [s for s in withdrawn if isinstance(s, int) and not isinstance(s, bool)]
    if len(seats) != len(list(withdrawn)):
        return [TableError("seat-unknown", "a withdrawn seat is not a seat number")]
    withdrawn_set = frozenset(seats)
    bad = sorted(s for s in withdrawn_set if not 1 <= s <= n)
    if bad:
        return [TableError("seat-unknown", f"withdrawn seat {bad[0]} is not at this {n}-player table", bad[0])]

    total = sum(math.ceil(v) for v in values)
    if total < n:
        return [TableError(
            "vp-unfinished",
            f"the VP rounded up add up to {total}, not {n}: the game looks unfinished "
            f"(is a survivor's ½ VP or an oust missing?)")]
    if total > n:
        return [TableError(
            "vp-too-many",
            f"the VP rounded up add up to {total}, more than the {n} players: "
            f"there are more VP than the table can give")]

    key = tuple(_num(v) for v in values)
    if key in _reachable(n, withdrawn_set):
        return []
    halves = [s for s, v in enumerate(key, 1) if v % 1 and s not in withdrawn_set]
    explains = withdrawals_explaining(key, withdrawn_set)
    if explains:
        seats = " and ".join(f"seat {s}" for s in explains)
        offer = (f" If {seats} withdrew, tick the withdrawal (W): "
                 f"{'that makes' if len(explains) == 1 else 'those make'} these numbers possible.")
    else:
        offer = ""
    if len(halves) == 1 and not withdrawn_set:
        return [TableError(
            "vp-lone-half",
            f"seat {halves[0]} has a lone ½ VP: a single survivor at the time limit scores "
            f"1 VP, not ½.{offer or ' No withdrawal makes these numbers possible either.'}",
            halves[0], suggest_withdrawn=explains)]
    return [TableError(
        "vp-oust-order",
        "no order of ousts around this table gives these VP: each whole VP must be the oust "
        "of the scorer's next surviving prey, and at the time limit every survivor has ½."
        + offer, explains[0] if len(explains) == 1 else None, suggest_withdrawn=explains)]


def withdrawals_explaining(vps: Sequence[float], withdrawn: Iterable[int] = ()) -> tuple[int, ...]:
    """The fewest further seats (each with a ½ in its VP) whose withdrawal would make these
    VP possible, in seat order; () when none would. A scorekeeper typing a paper slip
    (1, 2.5, 0, 0) often forgets the withdrawal box: this is the seat to tick."""
    n = len(vps)
    if n not in TABLE_SIZES:
        return ()
    key = tuple(_num(v) for v in vps)
    already = frozenset(int(s) for s in withdrawn)
    halves = [s for s, v in enumerate(key, 1) if v % 1 and s not in already]
    for size in range(1, len(halves) + 1):
        for extra in combinations(halves, size):
            if key in _reachable(n, already | frozenset(extra)):
                return tuple(extra)
    return ()


@lru_cache(maxsize=64)
def _reachable(n: int, withdrawn: frozenset[int]) -> frozenset[tuple[float, ...]]:
    """Every VP vector a game of `n` seats can end with, given which seats withdrew.

    Enumerates every sequence of ousts (and the given withdrawals) and every way the game
    can end; at most a few thousand sequences for five seats.
    """
    found: set[tuple[float, ...]] = set()

    def walk(alive: tuple[int, ...], vps: tuple[float, ...], pending: frozenset[int]) -> None:
        if len(alive) == 1:
            if not pending:
                v = list(vps)
                v[alive[0] - 1] += 1
                found.add(tuple(v))
            return
        if not pending:  # time limit or intentional draw
            v = list(vps)
            for s in alive:
                v[s - 1] += TIME_OUT_VP
            found.add(tuple(v))
        for i, seat in enumerate(alive):
            rest = alive[:i] + alive[i + 1:]
            v = list(vps)
            if seat in pending:
                v[seat - 1] += WITHDRAW_VP
                walk(rest, tuple(v), pending - {seat})
            else:
                predator = alive[(i - 1) % len(alive)]
                v[predator - 1] += 1
                walk(rest, tuple(v), pending)

    walk(tuple(range(1, n + 1)), (0.0,) * n, withdrawn)
    return frozenset(found)


def differences(recorded: Sequence[float], reported: Sequence[Any]) -> list[int]:
    """Seats (from 1) whose reported VP differ from the VP derived from the record."""
    out = []
    for seat, (a, b) in enumerate(zip(recorded, reported), 1):
        vb = parse_vp(b)
        if vb is None or _num(a) != _num(vb):
            out.append(seat)
    return out


# --- game wins and tournament points ------------------------------------------------------

def game_wins(vps: Sequence[float]) -> list[int]:
    """1 for the seat that wins the game (3.7.1): at least 2 VP and more than anyone else."""
    out = [0] * len(vps)
    if not vps:
        return out
    best = max(vps)
    if best >= GW_MIN_VP and sum(1 for v in vps if v == best) == 1:
        out[list(vps).index(best)] = 1
    return out


def places(vps: Sequence[float]) -> list[list[int]]:
    """The table places (1-based, as in 3.7.3) each seat occupies, tied seats sharing them.

    At a four-player table place 3 is the table bye and is skipped.
    """
    n = len(vps)
    slots = [1, 2, 4, 5] if n == 4 else list(range(1, n + 1))
    order = sorted(range(n), key=lambda i: -vps[i])
    out: list[list[int]] = [[] for _ in range(n)]
    i = 0
    while i < n:
        j = i
        while j + 1 < n and vps[order[j + 1]] == vps[order[i]]:
            j += 1
        shared = slots[i:j + 1]
        for k in range(i, j + 1):
            out[order[k]] = shared
        i = j + 1
    return out


def tournament_points(vps: Sequence[float]) -> list[int]:
    """Tournament points of each seat (3.7.3): by place on VP, ties share the average."""
    n = len(vps)
    if n not in TP_BY_PLACE:
        raise ValueError(f"tournament points are defined for tables of 4 or 5, not {n}")
    by_place = dict(zip([1, 2, 3, 4, 5] if n == 5 else [1, 2, 4, 5], TP_BY_PLACE[n]))
    out = []
    for shared in places(vps):
        total = sum(by_place[p] for p in shared)
        # TP steps are multiples of 12, so every average of consecutive places is whole.
        out.append(total // len(shared) if total % len(shared) == 0 else total / len(shared))
    return out


@dataclass(frozen=True)
class SeatScore:
    """One seat's score. `vp` counts for the standings: the VP as played plus the seat's
    Standings Adjustments in this game (`adjustment`, 0 or negative); `vp_played` is the
    VP as played (the table check, the recorder and the players' report are about that)."""

    vp: float
    gw: int
    tp: int
    place: float  # average place at the table (1.5 for a tie for first and second)
    vp_played: float = 0.0
    adjustment: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def score_table(vps: Sequence[float], adjustments: Sequence[float] | None = None) -> list[SeatScore]:
    """VP, GW, TP and place of each seat of a finished table (VP assumed valid).

    `adjustments`, when given, has one VP change per seat in seat order (0 for none, −1
    per Standings Adjustment the seat's player got in this game: the judges' guide v2
    §1.1.3). The game's GW and TP are then worked out from the adjusted VP for every seat:
    a 3–2 win where the winner has an SA is a 2–2 tie with no game win; a player on 0 VP
    with an SA is alone last (−1 VP). This is the one place where an SA meets GW and TP:
    the standings, the table page, the exports and the final all call it.
    """
    played = [_num(v) for v in vps]
    if adjustments is None:
        adjustments = [0.0] * len(played)
    if len(adjustments) != len(played):
        raise ValueError(f"one adjustment per seat: {len(played)} seats, {len(adjustments)} adjustments")
    deltas = [_num(a) for a in adjustments]
    values = [_num(v + a) for v, a in zip(played, deltas)]
    gws = game_wins(values)
    tps = tournament_points(values)
    out = []
    for vp, gw, tp, shared, was, delta in zip(values, gws, tps, places(values), played, deltas):
        out.append(SeatScore(vp=vp, gw=gw, tp=tp, place=sum(shared) / len(shared),
                             vp_played=was, adjustment=delta))
    return out


def _fmt(vp: float) -> str:
    return format_vp(vp)


def format_vp(vp: float | None) -> str:
    """1.5 -> '1.5', 2.0 -> '2', None -> '–'."""
    if vp is None:
        return "–"
    if not isinstance(vp, (int, float)) or isinstance(vp, bool) or not math.isfinite(vp):
        return "?"  # never stored by the app (its input is checked); a page still shows
    if abs(vp) >= 1e6:
        return f"{vp:.3g}"
    return str(int(vp)) if float(vp).is_integer() else f"{vp:g}"
