"""Seating of the preliminary rounds (tournament rules 3.1.2).

- Tables of 5 and 4, as many of 5 as possible (`table_sizes`).
- 6, 7 and 11 players cannot be split that way: some players sit out each round, so that
  every player plays the same number of games (`staggered_plan`; between rounds, with
  drops and late arrivals, `remaining_plan` and `round_sit_outs`).
- Random and impartial: a seeded shuffle, so the same seed gives the same seating; the
  seed is recorded with the round.
- The VEKN's nine seating criteria (R1 no repeated predator-prey pair ... R9), in their
  order of priority, one round at a time: `seat_round` searches the seating
  (`seating_search`), `seating_criteria.measure` gives a round's figures (krcg's `Score`).

Player ids are any hashable values (the store uses integers). A round is a list of tables,
each a list of player ids in seat order (seat 1 first). Pure functions, no I/O.
"""
from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Hashable, Iterable, Sequence

from judgekit.i18n import Message, Said
from judgekit.tournament.seating_search import search_round

Player = Hashable
Table = list
Round = list


@dataclass
class SeatingProblem:
    """A reason a round cannot be seated, for the UI to show (`message`: a `Said`, worded in
    the reader's language where shown)."""

    code: str
    message: str
    rule: str = "3.1.2"


def table_sizes(players: int) -> list[int] | None:
    """Table sizes for `players` players: as many 5s as possible, the rest 4s.

    None when it cannot be done (fewer than 4 players, or 6, 7 or 11 players).
    """
    if players < 4:
        return None
    tables = -(-players // 5)
    fours = 5 * tables - players
    if fours > tables:
        return None
    return [5] * (tables - fours) + [4] * fours


def needs_sit_outs(players: int) -> bool:
    """True for the counts (6, 7, 11) that cannot be split into tables of 4 and 5."""
    return players >= 4 and table_sizes(players) is None


def staggered_plan(players: int, rounds: int) -> list[int] | None:
    """How many players play in each round when some must sit out (3.1.2).

    Every player plays the same number of games: the largest number below `rounds` that
    can be reached. Returns the number of players seated per round (each a count that
    `table_sizes` accepts), or None if no such plan exists (e.g. 7 players over 4 rounds).
    For 6 players and 4 rounds: [5, 5, 4, 4] — everyone plays 3 games and sits out once.
    Plans that keep as many tables as the players fill come first (`round_sit_outs`).
    """
    if rounds < 2:
        return None
    start = {p: 0 for p in range(players)}
    plan = (remaining_plan(start, rounds, most=rounds - 1, counts=full_table_counts(players))
            or remaining_plan(start, rounds, most=rounds - 1))
    return plan[0] if plan else None


def _realisable(need: Sequence[int], counts: Sequence[int]) -> bool:
    """Whether players needing `need` more games can fill rounds seating `counts` players,
    nobody twice in a round (Gale–Ryser for a bipartite degree sequence)."""
    if sum(need) != sum(counts):
        return False
    running = 0
    for k, c in enumerate(sorted(counts, reverse=True), 1):
        running += c
        if running > sum(min(n, k) for n in need):
            return False
    return True


def full_table_counts(players: int) -> list[int]:
    """The numbers of players (of `players` present) that can be seated at as many tables
    as `players` can fill: 11 present fill two tables with 8, 9 or 10 of them, never one."""
    tables = players // 4
    return [k for k in range(4 * tables, min(5 * tables, players) + 1) if table_sizes(k) is not None]


def remaining_plan(played: dict[Player, int], rounds_left: int, most: int | None = None,
                   counts: Sequence[int] | None = None) -> tuple[list[int], dict[Player, int]] | None:
    """Seat counts for the remaining rounds so that every present player ends with the same
    number of games, given the games each has played so far (drops and late arrivals
    change who is present between rounds).

    Returns (players seated in each remaining round, largest first; games each player
    still plays), or None when no such plan exists. `most` caps the final number of games;
    `counts` limits the seat counts a round may use (default: any that makes tables).
    """
    n = len(played)
    if n < 4 or rounds_left < 1:
        return None
    seatable = sorted((k for k in range(4, n + 1) if table_sizes(k) is not None
                       and (counts is None or k in counts)), reverse=True)
    top = max(played.values(), default=0)
    highest = top + rounds_left if most is None else min(most, top + rounds_left)
    for total in range(highest, top - 1, -1):
        need = {p: total - g for p, g in played.items()}
        if any(v < 0 or v > rounds_left for v in need.values()):
            continue
        wanted = sum(need.values())
        best: tuple[int, ...] | None = None
        for combo in itertools.combinations_with_replacement(seatable, rounds_left):
            if sum(combo) != wanted or not _realisable(list(need.values()), combo):
                continue
            if best is None or (max(combo) - min(combo)) < (max(best) - min(best)):
                best = combo
        if best is not None:
            return sorted(best, reverse=True), need
    return None


def round_sit_outs(played: dict[Player, int], rounds_left: int,
                   late: Iterable[Player] = ()) -> tuple[int, dict[Player, int], bool]:
    """How many present players sit out this round, a priority for choosing them (the
    lowest sit out first, for `seat_round(sit_out=..., sat_out=...)`), and whether every
    player can still end with the same number of games.

    Sit-outs only where 6, 7 or 11 present players force them. When the players can still
    end with equal games (`remaining_plan`) and every round keeps as many tables as the
    players fill (11 players: 8 to 10 seated), this round seats the plan's largest count
    and those who need the fewest further games sit out. Without such a plan, the
    staggered plans of 3.1.2 may seat fewer (11 players over 3 rounds: 9, 8, 5) — unless
    someone is `late` (missed a round without being made to sit out it: a late arrival, a
    player marked absent): a late player is not caught up at the others' expense. Then, as
    when no plan fits (a drop left 11 players with two rounds to go), as many as possible
    play and those who have played most sit out.
    """
    n = len(played)
    if table_sizes(n) is not None:
        return 0, {}, len(set(played.values())) <= 1
    plan = remaining_plan(played, rounds_left, counts=full_table_counts(n))
    if plan is None and not set(late) & set(played):
        plan = remaining_plan(played, rounds_left)
    if plan is not None:
        counts, need = plan
        return n - counts[0], need, True
    seatable = [k for k in range(4, n + 1) if table_sizes(k) is not None]
    seat = max(seatable, default=0)
    return n - seat, {p: -g for p, g in played.items()}, False


def choose_sit_outs(players: Sequence[Player], count: int, sat_out: dict[Player, int],
                    rng: random.Random) -> list[Player]:
    """The `count` players who sit out: the lowest `sat_out` values first (e.g. those who sat
    out least so far, or who need the fewest further games), at random among equals."""
    if count <= 0:
        return []
    pool = list(players)
    rng.shuffle(pool)
    pool.sort(key=lambda p: sat_out.get(p, 0))
    return pool[:count]


def predator_prey_pairs(table: Sequence[Player]) -> list[tuple[Player, Player]]:
    """The (predator, prey) pairs of a table: each seat preys on the next, the last on the first."""
    n = len(table)
    if n < 2:
        return []
    return [(table[i], table[(i + 1) % n]) for i in range(n)]


@dataclass
class History:
    """What earlier rounds did: their tables (seat order kept: the criteria need it),
    predator→prey pairs and how often two players shared a table."""

    pp: set[tuple[Player, Player]] = field(default_factory=set)
    met: Counter = field(default_factory=Counter)
    rounds: list[list[list[Player]]] = field(default_factory=list)

    @classmethod
    def of(cls, rounds: Iterable[Sequence[Sequence[Player]]]) -> "History":
        h = cls()
        for round_ in rounds:
            h.add_round(round_)
        return h

    def add_round(self, round_: Sequence[Sequence[Player]]) -> None:
        self.rounds.append([list(table) for table in round_])
        for table in round_:
            self.pp.update(predator_prey_pairs(table))
            for a, b in itertools.combinations(table, 2):
                self.met[_pair(a, b)] += 1


def _pair(a: Player, b: Player) -> tuple[Player, Player]:
    return (a, b) if repr(a) <= repr(b) else (b, a)


@dataclass
class Seating:
    """A seated round: tables in order (table 1 first), who sat out, the seed, what repeats."""

    tables: list[list[Player]]
    sit_outs: list[Player]
    seed: int
    repeated_pp: list[tuple[Player, Player]]
    repeated_mates: int
    problems: list[SeatingProblem] = field(default_factory=list)


def repeats(round_: Sequence[Sequence[Player]], history: History) -> tuple[list[tuple[Player, Player]], int]:
    """The predator→prey pairs of `round_` already seen, and the count of table-mate repeats."""
    pp = [p for table in round_ for p in predator_prey_pairs(table) if p in history.pp]
    mates = sum(history.met[_pair(a, b)] for table in round_
                for a, b in itertools.combinations(table, 2))
    return pp, mates


def seat_round(players: Sequence[Player], history: History | Iterable = (), *, seed: int,
               sit_out: int = 0, sat_out: dict[Player, int] | None = None,
               rounds_planned: int | None = None, iterations: int | None = None) -> Seating:
    """Seat one round.

    `players` are those present (not dropped), in any order: the result depends only on
    the set of players, the history and the seed. `sit_out` players sit out this round,
    chosen among those who sat out least (`sat_out` counts earlier sit-outs).
    `rounds_planned`: the event's preliminary rounds (R2 counts a pair that sat together
    in all of them; without it, in all the rounds seated so far).

    Method (`seating_search`): a seeded shuffle into tables of 5 and 4, then a search that
    minimises the nine criteria's weighted total (krcg's weights) over the earlier rounds
    and this one, looking ahead to the rounds still to come for each player's seats and
    transfers. Deterministic for a given seed; `iterations` overrides its length.
    """

    rng = random.Random(seed)
    if not isinstance(history, History):
        history = History.of(history)
    players = list(players)
    roster = sorted(set(players), key=repr)
    if len(roster) != len(players):
        dupes = [p for p, c in Counter(players).items() if c > 1]
        return Seating([], [], seed, [], 0, [SeatingProblem(
            "duplicate-player", Said(Message("seating.listed-twice", "player(s) listed twice: %(players)s",
                                             players=", ".join(map(str, dupes)))))])
    out = choose_sit_outs(roster, sit_out, sat_out or {}, rng)
    playing = [p for p in roster if p not in set(out)]
    sizes = table_sizes(len(playing))
    if sizes is None:
        if len(playing) < 4:
            msg = Said(Message("seating.too-few", "%(n)s players cannot make a table: a table needs 4 or 5 players",
                               n=len(playing)))
        else:
            msg = Said(Message("seating.cannot-split", "%(n)s players cannot be split into tables of 4 and 5: some "
                               "must sit out this round (6, 7 and 11 players)", n=len(playing)))
        return Seating([], out, seed, [], 0, [SeatingProblem("cannot-seat", msg)])
    rng.shuffle(playing)
    seated = len(history.rounds) + 1
    tables = search_round(playing, sizes, history.rounds, rng,
                          rounds_count=max(seated, rounds_planned or 0),
                          plan_ahead=not out, iterations=iterations)
    pp, mates = repeats(tables, history)
    return Seating(tables, out, seed, pp, mates)


def swap_seats(tables: Sequence[Sequence[Player]], a: Player, b: Player) -> list[list[Player]]:
    """A copy of the round with players `a` and `b` exchanging seats (a sitting-out player
    may be swapped in: pass him as `b` and he takes `a`'s seat)."""
    out = [list(t) for t in tables]
    pos = {p: (ti, si) for ti, t in enumerate(out) for si, p in enumerate(t)}
    if a not in pos:
        raise KeyError(a)
    ta, sa = pos[a]
    if b in pos:
        tb, sb = pos[b]
        out[ta][sa], out[tb][sb] = b, a
    else:
        out[ta][sa] = b
    return out


def swap_warnings(tables: Sequence[Sequence[Player]], history: History) -> list[tuple[Player, Player]]:
    """For a seating changed by hand: its (predator, prey) pairs already seen in earlier rounds."""
    return repeats(tables, history)[0]
