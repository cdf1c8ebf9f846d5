"""Victory points, game wins and tournament points of one table (tournament rules 3.5–3.7).

This module scores a table: whether its reported VP are possible (`check_table`), and its
game win and tournament points (`game_wins`, `tournament_points`, `score_table`). How a
game's outcome turns into each seat's VP (`derive_vp`) is the game layer's
(`judgekit.game.outcome`), as are the facts (`judgekit.game.scoring`). Everything here is a pure function over plain data; problems are returned
as `TableError` values for the UI to show, never raised.

Seats are numbered from 1 in seating order, clockwise. A seat's prey is the next surviving
seat (seat 1 preys on seat 2, the last seat on seat 1); its predator is the previous
surviving seat.
"""
from __future__ import annotations

import math
import re
from dataclasses import asdict, dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, Iterable, Sequence

# the table and the points (3.7.1-3.7.3) are facts of the game layer; scored here
from judgekit.game.outcome import TableError
from judgekit.game.outcome import snap_vp as _num
from judgekit.game.scoring import GW_MIN_VP, TABLE_SIZES, TIME_OUT_VP, TP_BY_PLACE, WITHDRAW_VP
from judgekit.i18n import Message, Said, chained

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
            errors.append(TableError("vp-not-number", Said(Message(
                "scoring.vp-none", "seat %(seat)s: no VP given (type 0 for none)", seat=seat)), seat))
        elif vp is None:
            shown = raw if isinstance(raw, str) else repr(raw)
            errors.append(TableError("vp-not-number", Said(Message(
                "scoring.vp-not-number", "seat %(seat)s: '%(shown)s' is not a number", seat=seat, shown=shown)), seat))
        elif vp < 0:
            errors.append(TableError("vp-negative", Said(Message(
                "scoring.vp-negative", "seat %(seat)s: VP cannot be negative (%(vp)s)", seat=seat, vp=_fmt(vp))), seat))
        elif vp > n:  # before the halves: 1e308 * 2 is no number
            errors.append(TableError("vp-too-many", Said(Message(
                "scoring.vp-too-many-seat", "seat %(seat)s: %(vp)s VP is more than a %(n)s-player table can give",
                seat=seat, vp=_fmt(vp), n=n)), seat))
        elif vp * 2 != int(vp * 2):
            errors.append(TableError("vp-not-half", Said(Message(
                "scoring.vp-not-half", "seat %(seat)s: VP come in halves, %(vp)s is not one", seat=seat, vp=_fmt(vp))),
                seat))
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
        return [TableError("table-size", Said(Message("scoring.table-size", "a table has 4 or 5 players, not %(n)s",
                                                      n=n)), rule="3.1.2")]
    errors = seat_errors(vps)
    if errors:
        return errors
    values = [parse_vp(raw) or 0.0 for raw in vps]

    seats = [s for s in withdrawn if isinstance(s, int) and not isinstance(s, bool)]
    if len(seats) != len(list(withdrawn)):
        return [TableError("seat-unknown", Said(Message("scoring.withdrawn-not-number",
                                                        "a withdrawn seat is not a seat number")))]
    withdrawn_set = frozenset(seats)
    bad = sorted(s for s in withdrawn_set if not 1 <= s <= n)
    if bad:
        return [TableError("seat-unknown", Said(Message(
            "scoring.withdrawn-not-here", "withdrawn seat %(seat)s is not at this %(n)s-player table", seat=bad[0], n=n)),
            bad[0])]

    total = sum(math.ceil(v) for v in values)
    if total < n:
        return [TableError("vp-unfinished", Said(Message(
            "scoring.vp-unfinished", "the VP rounded up add up to %(total)s, not %(n)s: the game looks unfinished "
            "(is a survivor's ½ VP or an oust missing?)", total=total, n=n)))]
    if total > n:
        return [TableError("vp-too-many", Said(Message(
            "scoring.vp-too-many", "the VP rounded up add up to %(total)s, more than the %(n)s players: there are "
            "more VP than the table can give", total=total, n=n)))]

    key = tuple(_num(v) for v in values)
    if key in _reachable(n, withdrawn_set):
        return []
    halves = [s for s, v in enumerate(key, 1) if v % 1 and s not in withdrawn_set]
    explains = withdrawals_explaining(key, withdrawn_set)
    offer = None
    if len(explains) == 1:
        offer = Message("scoring.offer-one", "If %(seats)s withdrew, tick the withdrawal (W): that makes these "
                        "numbers possible.", seats=_seats(explains))
    elif explains:
        offer = Message("scoring.offer-many", "If %(seats)s withdrew, tick the withdrawal (W): those make these "
                        "numbers possible.", seats=_seats(explains))
    if len(halves) == 1 and not withdrawn_set:
        return [TableError("vp-lone-half", Said(Message(
            "scoring.vp-lone-half", "seat %(seat)s has a lone ½ VP: a single survivor at the time limit scores 1 VP, "
            "not ½. %(offer)s", seat=halves[0],
            offer=offer or Message("scoring.no-withdrawal-helps", "No withdrawal makes these numbers possible either."))),
            halves[0], suggest_withdrawn=explains)]
    oust_order = Message("scoring.vp-oust-order-offer", "no order of ousts around this table gives these VP: each "
                         "whole VP must be the oust of the scorer's next surviving prey, and at the time limit every "
                         "survivor has ½. %(offer)s", offer=offer) if offer else \
        Message("scoring.vp-oust-order", "no order of ousts around this table gives these VP: each whole VP must be "
                "the oust of the scorer's next surviving prey, and at the time limit every survivor has ½.")
    return [TableError("vp-oust-order", Said(oust_order), explains[0] if len(explains) == 1 else None,
                       suggest_withdrawn=explains)]


def _seats(seats) -> Message:
    """"seat 1 and seat 3"."""
    return chained([Message("scoring.seat", "seat %(seat)s", seat=s) for s in seats],
                   Message("scoring.and", "%(first)s and %(rest)s"))


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
