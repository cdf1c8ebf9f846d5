"""The seating search: one preliminary round, the VEKN's nine seating criteria in order.

The criteria (Archon's, as `krcg.seating.Score` measures them; docs/tournament.md):

    R1 no repeated predator-prey pair          R6 no pair in the same relative position twice
    R2 no pair at one table in every round     R7 nobody in the same seat twice
    R3 available VPs equitably distributed     R8 starting transfers equitably distributed
    R4 no pair at one table more than once     R9 no pair in the same position group twice
    R5 nobody in the fifth seat twice

Their weights are krcg's (`seating_criteria.WEIGHTS`, checked against `krcg.seating.RULES`): each outweighs every
lower one, so minimising the weighted total honours them in order of priority. The search
minimises the total that krcg's `Score` gives the earlier rounds plus this one, with R2
counted over the rounds the event plans (a pair is "at one table in every round" only once
it has been in all of them). It never moves earlier rounds.

Method: the players are shuffled into the tables (a `random.Random(seed)`: the same seed,
history and players give the same seating), then a simulated annealing of seat swaps, each
scored by what it changes — the two tables' pairs and seats, and the two players' share of
the R3/R8 deviations — so a move costs a few microseconds. Pairs who never met cost nothing,
so only the history's pairs are looked up. A steepest-descent polish follows (`polish`).
Small events get several searches, the best kept; up to `LOOKAHEAD_PLAYERS` each is judged
by krcg's total after a quick seating of the next round behind it.
`tests/test_tournament_seating_criteria.py` checks the increments against krcg's `Score`.

Pure: no I/O, players are any hashable values.
"""
from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Hashable, Sequence

from judgekit.tournament.seating_criteria import WEIGHTS, measure

Player = Hashable

#: The nine criteria's weights, R1 first (krcg's: `seating_criteria.WEIGHTS`).
W1, W2, W3, W4, W5, W6, W7, W8, W9 = WEIGHTS

# relative positions, from one player's point of view (krcg's order)
PREY, GRAND_PREY, GRAND_PREDATOR, PREDATOR, CROSS = range(5)
#: relation of the player `d` seats further round the table (d = 1 is the prey)
RELATION = {4: (None, PREY, CROSS, PREDATOR), 5: (None, PREY, GRAND_PREY, GRAND_PREDATOR, PREDATOR)}
#: a table's pairs by its size: (i, ((j, relation of seat j to seat i), ...)) for i < j
PAIRS = {n: [(i, tuple((j, RELATION[n][j - i]) for j in range(i + 1, n))) for i in range(n - 1)]
         for n in RELATION}
#: R9's groups: 0 adjacent (prey or predator), 1 not adjacent
GROUP = (0, 1, 1, 0, 1)
#: starting transfers by seat (R8): 1, 2, 3, 4 — and 4 for a fifth seat
TRANSFERS = {4: (1, 2, 3, 4), 5: (1, 2, 3, 4, 4)}

#: Annealing temperatures (in weight units): from above an R7 violation down to well
#: below R9's, so that the end of the run only descends.
T_START = 3000.0
T_END = 0.05
#: The most table seat orders whose pairs cost `run` keeps (about 15 MB).
PAIR_MEMO_SIZE = 100_000
#: The polish's passes at most, and the players of each class it tries per exchange.
POLISH_PASSES = 20
POLISH_TRIES = 12


def iterations_for(players: int) -> int:
    """The search's length (moves) for a round of `players`: 30,000 from 13 players (the
    small events, where the criteria are hardest to meet) to 30,000 at 300 (about half a
    second); up to 12 players, where there is less to search, 2,500 a player."""
    return max(30000, 100 * players) if players > 12 else 2500 * players


#: Up to this many players, each candidate round is judged by a quick seating of the next
#: round after it (`_next_round_total`) rather than by its own plan.
LOOKAHEAD_PLAYERS = 40
LOOKAHEAD_ITERATIONS = 30000


def restarts_for(players: int) -> int:
    """Independent searches (the best is kept): small events, where the criteria are
    hardest to meet and a search is quick, get several."""
    return 3 if players <= 12 else 6 if players <= 30 else 3 if players <= 60 else 2 if players <= 150 else 1


@dataclass
class _Tally:
    """What the earlier rounds did, per player and per pair (the players are indexes)."""

    seats: list[list[int]]          # times in each seat 1-5
    vps: list[int]                  # sum of table sizes (R3's available VPs)
    transfers: list[int]            # sum of starting transfers
    played: list[int]               # games
    met: dict[tuple[int, int], int]  # (a, b), both ways: games together
    rel: dict[tuple[int, int], list[int]]  # (a, b): times b sat in each relative position to a


def _tally(rounds: Sequence[Sequence[Sequence[int]]], size: int) -> _Tally:
    t = _Tally([[0] * 5 for _ in range(size)], [0] * size, [0] * size, [0] * size, {}, {})
    for round_ in rounds:
        for table in round_:
            n = len(table)
            if n not in RELATION:
                continue
            relation = RELATION[n]
            for i, a in enumerate(table):
                t.seats[a][i] += 1
                t.vps[a] += n
                t.transfers[a] += TRANSFERS[n][i]
                t.played[a] += 1
                for d in range(1, n):
                    b = table[(i + d) % n]
                    t.met[a, b] = t.met.get((a, b), 0) + 1
                    rel = t.rel.setdefault((a, b), [0] * 5)
                    rel[relation[d]] += 1
    return t


def _pair_costs(met: int, rel: list[int], rounds_count: int) -> tuple[float, ...]:
    """What seating b in each relative position to a adds to the total, for a pair that has
    met `met` times, in relative positions `rel` (from a's point of view)."""
    base = (W4 if met == 1 else 0) + (W2 if met == rounds_count - 1 else 0)
    groups = (rel[PREY] + rel[PREDATOR], rel[GRAND_PREY] + rel[GRAND_PREDATOR] + rel[CROSS])
    out = []
    for r in range(5):
        cost = base
        if rel[r] == 1:
            cost += W6 + (W1 if r in (PREY, PREDATOR) else 0)
        if groups[GROUP[r]] == 1:
            cost += W9
        out.append(cost)
    return tuple(out)


class Search:
    """One round's search state.

    `tables` holds player indexes per table, in seat order. With `ahead` > 0 rounds still
    to come, the search also keeps a plan of the seat each player takes in each of them
    (a permutation of this round's seats, changed by its own swaps): the per-player
    criteria (R3, R5, R7, R8) are then counted over the whole event as planned, so that
    this round leaves every player a way to even out their starting transfers and to sit
    in a new seat later. The pairs (R1, R2, R4, R6, R9) are counted for this round only;
    the plan is not kept: the next round is searched afresh, from what was really seated.
    """

    def __init__(self, playing: int, everyone: int, earlier: Sequence[Sequence[Sequence[int]]],
                 rounds_count: int, ahead: int = 0):
        tally = _tally(earlier, everyone)
        self.rounds_count = rounds_count
        self.ahead = ahead
        # pairs that met before, both ways: hist[a][b] = cost of b in each relative position to a
        self.hist: list[dict[int, tuple[float, ...]]] = [{} for _ in range(playing)]
        for (a, b), met in tally.met.items():
            if a < playing and b < playing:
                self.hist[a][b] = _pair_costs(met, tally.rel[a, b], rounds_count)
        self.seats0 = tally.seats[:playing]
        #: what a player's per-player criteria depend on, besides his slots (`polish`)
        self.hkey = [(tuple(tally.seats[p]), tally.vps[p], tally.transfers[p], tally.played[p])
                     for p in range(playing)]
        self.vps0 = tally.vps[:playing]
        self.transfers0 = tally.transfers[:playing]
        self.played0 = tally.played[:playing]
        fixed = [p for p in range(playing, everyone) if tally.played[p]]
        self.count = playing + len(fixed)
        self.vp_fixed = (sum(tally.vps[p] / tally.played[p] for p in fixed),
                         sum((tally.vps[p] / tally.played[p]) ** 2 for p in fixed))
        self.tr_fixed = (sum(tally.transfers[p] / tally.played[p] for p in fixed),
                         sum((tally.transfers[p] / tally.played[p]) ** 2 for p in fixed))
        # the annealing's memos (`run`): a table's pairs cost by its seat order, and a
        # player's costs by his past (`hkey`, numbered) and his slots; both are pure
        classes: dict[tuple, int] = {}
        self.hclass = [classes.setdefault(k, len(classes)) for k in self.hkey]
        self.pair_memo: dict[tuple, float] = {}
        self.player_memo: dict[tuple, tuple[float, float, float]] = {}

    # --- costs -------------------------------------------------------------------------
    def pair_cost(self, table: Sequence[int]) -> float:
        """R1, R2, R4, R6, R9 for the pairs of one table."""
        hist = self.hist
        cost = 0
        for i, later in PAIRS[len(table)]:
            h = hist[table[i]]
            if h:
                for j, relation in later:
                    v = h.get(table[j])
                    if v is not None:
                        cost += v[relation]
        return cost

    def player(self, p: int, slots: Sequence[tuple[int, int]]) -> tuple[float, float, float]:
        """One player's R5 and R7 cost, and mean VPs and transfers, over the earlier rounds
        and `slots` (table size, seat index) in this round and the planned ones."""
        counts = self.seats0[p][:]
        vps, transfers = self.vps0[p], self.transfers0[p]
        for n, i in slots:
            counts[i] += 1
            vps += n
            transfers += TRANSFERS[n][i]
        games = self.played0[p] + len(slots)
        seat = W7 * (counts[0] > 1) + W7 * (counts[1] > 1) + W7 * (counts[2] > 1) + W7 * (counts[3] > 1)
        if counts[4] > 1:
            seat += W7 + W5
        return seat, vps / games, transfers / games

    def _deviation(self, total: float, squares: float) -> float:
        n = self.count
        return math.sqrt(max(0.0, squares / n - (total / n) ** 2)) if n else 0.0

    def spread_cost(self, sums: Sequence[float]) -> float:
        """R3 and R8: the deviations of the players' mean VPs and transfers."""
        return W3 * self._deviation(sums[0], sums[1]) + W8 * self._deviation(sums[2], sums[3])

    def _players(self, tables, plan):
        slot = {}
        for table in tables:
            for i, p in enumerate(table):
                slot[p] = (len(table), i)
        return {p: self.player(p, [s] + [r[p] for r in plan]) for p, s in slot.items()}

    def _sums(self, per_player) -> list[float]:
        v, v2 = self.vp_fixed
        t, t2 = self.tr_fixed
        for _seat, mv, mt in per_player.values():
            v += mv
            v2 += mv * mv
            t += mt
            t2 += mt * mt
        return [v, v2, t, t2]

    def total(self, tables: Sequence[Sequence[int]], plan: Sequence[dict] = ()) -> float:
        """The part of the weighted total that this round (and the plan) can change."""
        per_player = self._players(tables, plan)
        return (sum(self.pair_cost(t) for t in tables) + sum(c[0] for c in per_player.values())
                + self.spread_cost(self._sums(per_player)))

    # --- the search ----------------------------------------------------------------------
    def run(self, tables: list[list[int]], rng: random.Random,
            iterations: int) -> tuple[float, list[list[int]]]:
        """Anneal `tables` (changed in place), then polish the best seating met (`polish`);
        returns it with its cost.

        Each move costs a few microseconds: a table's pairs cost and a player's costs come
        from memos (`pair_memo`, `player_memo`: pure functions of the seat order, and of the
        player's past and slots), and the random draws are `randrange`'s own (`below`: the
        bits of the bound's length, drawn again while not below it, without randrange's
        checks), so a seed gives the same seating as the plain `randrange` calls did."""
        places = [(ti, si) for ti, t in enumerate(tables) for si in range(len(t))]
        if len(places) < 2:
            return self.total(tables), [t[:] for t in tables]
        slots = [(len(t), si) for t in tables for si in range(len(t))]
        plan = []
        for _ in range(self.ahead):
            order = slots[:]
            rng.shuffle(order)
            plan.append({p: order[k] for k, p in enumerate(p for t in tables for p in t)})
        cur = {p: (len(t), si) for t in tables for si, p in enumerate(t)}
        per = {p: self.player(p, [cur[p]] + [r[p] for r in plan]) for p in cur}
        costs = [self.pair_cost(t) for t in tables]
        sums = self._sums(per)
        spread = self.spread_cost(sums)
        current = sum(costs) + sum(c[0] for c in per.values()) + spread
        best, best_tables, best_plan = current, [t[:] for t in tables], [dict(r) for r in plan]
        players = list(cur)
        count, ahead = len(places), self.ahead
        decay = math.log(T_END / T_START) / max(1, iterations)
        rand, getrandbits, exp = rng.random, rng.getrandbits, math.exp
        spread_cost, player, pair_cost = self.spread_cost, self.player, self.pair_cost
        pair_memo, player_memo, hclass = self.pair_memo, self.player_memo, self.hclass

        def below(bound: int) -> int:
            bits = bound.bit_length()
            k = getrandbits(bits)
            while k >= bound:
                k = getrandbits(bits)
            return k

        def table_cost(table: list[int]) -> float:
            key = tuple(table)
            cost = pair_memo.get(key)
            if cost is None:
                if len(pair_memo) >= PAIR_MEMO_SIZE:   # a big event's orders rarely come back
                    pair_memo.clear()
                cost = pair_memo[key] = pair_cost(table)
            return cost

        def player_cost(p: int, slot: tuple[int, int], later_slots: tuple) -> tuple[float, float, float]:
            key = (hclass[p], slot, later_slots)
            cost = player_memo.get(key)
            if cost is None:
                cost = player_memo[key] = player(p, [slot, *later_slots])
            return cost

        # each player's slots in the plan's rounds, kept as the plan changes
        later = {p: tuple(x[p] for x in plan) for p in players}
        s0, s1, s2, s3 = sums

        for step in range(iterations):
            if ahead and rand() < 0.4:
                # a change to the plan: two players trade their seats in a coming round
                r = plan[below(ahead)]
                a, b = players[below(count)], players[below(count)]
                if a == b or r[a] == r[b]:
                    continue
                r[a], r[b] = r[b], r[a]
                slot_a, slot_b = cur[a], cur[b]
                later_a, later_b = tuple(x[a] for x in plan), tuple(x[b] for x in plan)
                pair_delta, ta = 0, None
            else:
                ta, sa = places[below(count)]
                if rand() < 0.3:   # a seat change at the same table
                    tb, sb = ta, below(len(tables[ta]))
                    if sb == sa:
                        continue
                else:
                    tb, sb = places[below(count)]
                    if ta == tb:
                        continue
                A, B = tables[ta], tables[tb]
                a, b = A[sa], B[sb]
                A[sa], B[sb] = b, a
                slot_a, slot_b = (len(B), sb), (len(A), sa)
                later_a, later_b = later[a], later[b]
                ca = table_cost(A)
                cb = table_cost(B) if tb != ta else 0
                pair_delta = ca + cb - costs[ta] - (costs[tb] if tb != ta else 0)
            new_a, new_b = player_cost(a, slot_a, later_a), player_cost(b, slot_b, later_b)
            old_a, old_b = per[a], per[b]
            n0 = s0 - old_a[1] - old_b[1] + new_a[1] + new_b[1]
            n1 = s1 - old_a[1] ** 2 - old_b[1] ** 2 + new_a[1] ** 2 + new_b[1] ** 2
            n2 = s2 - old_a[2] - old_b[2] + new_a[2] + new_b[2]
            n3 = s3 - old_a[2] ** 2 - old_b[2] ** 2 + new_a[2] ** 2 + new_b[2] ** 2
            new_spread = spread_cost((n0, n1, n2, n3))
            delta = pair_delta + new_a[0] + new_b[0] - old_a[0] - old_b[0] + new_spread - spread
            if delta <= 0 or rand() < exp(-delta / (T_START * exp(decay * step))):
                per[a], per[b] = new_a, new_b
                s0, s1, s2, s3 = n0, n1, n2, n3
                spread = new_spread
                current += delta
                if ta is not None:
                    cur[a], cur[b] = slot_a, slot_b
                    costs[ta] = ca
                    if tb != ta:
                        costs[tb] = cb
                else:
                    later[a], later[b] = later_a, later_b
                if current < best - 1e-9:
                    best = current
                    best_tables = [t[:] for t in tables]
                    best_plan = [dict(r) for r in plan]
            elif ta is None:
                r[a], r[b] = r[b], r[a]
            else:
                A[sa], B[sb] = a, b
        self.polish(best_tables, best_plan)
        return self.total(best_tables, best_plan), best_tables

    def polish(self, tables: list[list[int]], plan: list[dict]) -> None:
        """A steepest-descent finish on the per-player criteria (R3, R5, R7, R8), in place.

        A player's share of those criteria depends only on his past seats and the slots
        (table size, seat) he takes now and in the plan, so the players fall into a few
        classes: every exchange of slots between two classes that lowers the per-player
        figures is tried, with the pairs' cost (R1, R2, R4, R6, R9) of the tables it
        touches, and made when the whole total drops. Ends when no exchange helps.
        """
        where = {p: (ti, si) for ti, t in enumerate(tables) for si, p in enumerate(t)}
        cur = {p: (len(tables[ti]), si) for p, (ti, si) in where.items()}
        per = {p: self.player(p, [cur[p]] + [r[p] for r in plan]) for p in cur}
        sums = self._sums(per)
        spread = self.spread_cost(sums)
        costs = [self.pair_cost(t) for t in tables]
        memo: dict[tuple, tuple[float, float, float]] = {}

        def cost_of(p: int, slots: tuple) -> tuple[float, float, float]:
            key = (self.hkey[p], slots)
            got = memo.get(key)
            if got is None:
                got = memo[key] = self.player(p, list(slots))
            return got

        for _pass in range(POLISH_PASSES):
            improved = False
            for r in range(-1, len(plan)):          # -1: this round, then the plan's rounds
                def slots_of(p: int, r=r) -> tuple:
                    return (cur[p],) + tuple(x[p] for x in plan)
                groups: dict[tuple, list[int]] = {}
                for p in cur:
                    groups.setdefault((self.hkey[p], slots_of(p)), []).append(p)
                keys = list(groups)
                for i, k1 in enumerate(keys):
                    for k2 in keys[i + 1:]:
                        s1, s2 = k1[1], k2[1]
                        at = r + 1
                        if s1[at] == s2[at] or not groups[k1] or not groups[k2]:
                            continue
                        a0, b0 = groups[k1][0], groups[k2][0]
                        na = cost_of(a0, s1[:at] + (s2[at],) + s1[at + 1:])
                        nb = cost_of(b0, s2[:at] + (s1[at],) + s2[at + 1:])
                        oa, ob = per[a0], per[b0]
                        new_sums = [sums[0] - oa[1] - ob[1] + na[1] + nb[1],
                                    sums[1] - oa[1] ** 2 - ob[1] ** 2 + na[1] ** 2 + nb[1] ** 2,
                                    sums[2] - oa[2] - ob[2] + na[2] + nb[2],
                                    sums[3] - oa[2] ** 2 - ob[2] ** 2 + na[2] ** 2 + nb[2] ** 2]
                        new_spread = self.spread_cost(new_sums)
                        gain = na[0] + nb[0] - oa[0] - ob[0] + new_spread - spread
                        if gain >= -1e-9:
                            continue
                        done = None
                        if r >= 0:                     # the plan: no pairs to count
                            done = (groups[k1][0], groups[k2][0], 0.0, None)
                        else:
                            for a in groups[k1][:POLISH_TRIES]:
                                for b in groups[k2][:POLISH_TRIES]:
                                    (ta, sa), (tb, sb) = where[a], where[b]
                                    A, B = tables[ta], tables[tb]
                                    A[sa], B[sb] = b, a
                                    ca = self.pair_cost(A)
                                    cb = self.pair_cost(B) if tb != ta else 0.0
                                    A[sa], B[sb] = a, b
                                    pair_delta = ca + cb - costs[ta] - (costs[tb] if tb != ta else 0.0)
                                    if pair_delta + gain < -1e-9:
                                        done = (a, b, pair_delta, (ca, cb))
                                        break
                                if done:
                                    break
                        if done is None:
                            continue
                        a, b, _delta, new_costs = done
                        if r >= 0:
                            plan[r][a], plan[r][b] = plan[r][b], plan[r][a]
                        else:
                            (ta, sa), (tb, sb) = where[a], where[b]
                            tables[ta][sa], tables[tb][sb] = b, a
                            where[a], where[b] = (tb, sb), (ta, sa)
                            cur[a], cur[b] = cur[b], cur[a]
                            costs[ta] = new_costs[0]
                            if tb != ta:
                                costs[tb] = new_costs[1]
                        per[a], per[b] = na, nb
                        sums, spread = new_sums, new_spread
                        groups[k1].remove(a)
                        groups[k2].remove(b)
                        groups.setdefault((self.hkey[a], slots_of(a)), []).append(a)
                        groups.setdefault((self.hkey[b], slots_of(b)), []).append(b)
                        keys.extend(k for k in (( self.hkey[a], slots_of(a)), (self.hkey[b], slots_of(b)))
                                    if k not in keys)
                        improved = True
            # a player at a table whose pairs cost something, swapped with anyone
            for ta, A in enumerate(tables):
                for sa in range(len(A)):
                    if not costs[ta]:
                        break
                    for tb, B in enumerate(tables):
                        if tb == ta:
                            continue
                        for sb in range(len(B)):
                            a, b = A[sa], B[sb]
                            na = cost_of(a, ((len(B), sb),) + tuple(x[a] for x in plan))
                            nb = cost_of(b, ((len(A), sa),) + tuple(x[b] for x in plan))
                            oa, ob = per[a], per[b]
                            new_sums = [sums[0] - oa[1] - ob[1] + na[1] + nb[1],
                                        sums[1] - oa[1] ** 2 - ob[1] ** 2 + na[1] ** 2 + nb[1] ** 2,
                                        sums[2] - oa[2] - ob[2] + na[2] + nb[2],
                                        sums[3] - oa[2] ** 2 - ob[2] ** 2 + na[2] ** 2 + nb[2] ** 2]
                            new_spread = self.spread_cost(new_sums)
                            A[sa], B[sb] = b, a
                            ca, cb = self.pair_cost(A), self.pair_cost(B)
                            delta = (ca + cb - costs[ta] - costs[tb] + na[0] + nb[0] - oa[0] - ob[0]
                                     + new_spread - spread)
                            if delta < -1e-9:
                                costs[ta], costs[tb] = ca, cb
                                per[a], per[b] = na, nb
                                sums, spread = new_sums, new_spread
                                where[a], where[b] = (tb, sb), (ta, sa)
                                cur[a], cur[b] = (len(B), sb), (len(A), sa)
                                improved = True
                            else:
                                A[sa], B[sb] = a, b
            # every seat order of each table: its pairs' relative positions and its seats
            for ti, table in enumerate(tables):
                n, before = len(table), table[:]
                old_players = sum(per[p][0] for p in before)
                best_delta, best = -1e-9, None
                for order in itertools.permutations(before):
                    new = [cost_of(p, ((n, i),) + tuple(x[p] for x in plan)) for i, p in enumerate(order)]
                    s0, s1, s2, s3 = sums
                    for p, nv in zip(order, new):
                        ov = per[p]
                        s0 += nv[1] - ov[1]
                        s1 += nv[1] * nv[1] - ov[1] * ov[1]
                        s2 += nv[2] - ov[2]
                        s3 += nv[2] * nv[2] - ov[2] * ov[2]
                    new_sums = [s0, s1, s2, s3]
                    new_spread = self.spread_cost(new_sums)
                    pairs = self.pair_cost(order)
                    delta = pairs - costs[ti] + sum(v[0] for v in new) - old_players + new_spread - spread
                    if delta < best_delta:
                        best_delta, best = delta, (list(order), new, new_sums, new_spread, pairs)
                if best is None:
                    continue
                order, new, sums, spread, costs[ti] = best
                table[:] = order
                for i, (p, nv) in enumerate(zip(order, new)):
                    where[p], cur[p], per[p] = (ti, i), (n, i), nv
                improved = True
            if not improved:
                return


def search_round(playing: Sequence[Player], sizes: Sequence[int],
                 earlier: Sequence[Sequence[Sequence[Player]]], rng: random.Random, *,
                 rounds_count: int, plan_ahead: bool = True,
                 iterations: int | None = None) -> list[list[Player]]:
    """Seat `playing` (already in the order the seed gave them) at tables of `sizes`,
    minimising the nine criteria over `earlier` rounds and this one; R2 counts pairs who
    sat together in all `rounds_count` rounds. With `plan_ahead`, the per-player criteria
    look ahead to the rounds still to come (`Search`); a round with sit-outs, whose later
    rounds seat other players, does not."""
    index: dict[Player, int] = {p: i for i, p in enumerate(playing)}
    for round_ in earlier:
        for table in round_:
            for p in table:
                index.setdefault(p, len(index))
    earlier_ix = [[[index[p] for p in table] for table in round_] for round_ in earlier]
    ahead = max(0, rounds_count - len(earlier) - 1) if plan_ahead else 0
    if not earlier:
        # the first round: every seating is as good as any other (nobody has a past)
        return [list(playing[i:i + size]) for i, size in zip(_starts(sizes), sizes)]
    search = Search(len(playing), len(index), earlier_ix, rounds_count, ahead)
    if iterations is None:
        iterations = iterations_for(len(playing))
    best = None
    for attempt in range(restarts_for(len(playing))):
        order = list(range(len(playing)))
        if attempt:
            rng.shuffle(order)
        cost, tables = search.run([order[i:i + size] for i, size in zip(_starts(sizes), sizes)], rng, iterations)
        if ahead and len(playing) <= LOOKAHEAD_PLAYERS:
            cost = _next_round_total(earlier_ix + [tables], len(playing), len(index), sizes, rounds_count, rng,
                                     min(iterations, LOOKAHEAD_ITERATIONS))
        if best is None or cost < best[0] - 1e-9:
            best = (cost, tables)
    return [[playing[i] for i in table] for table in best[1]]


def _next_round_total(rounds: list, playing: int, everyone: int, sizes: Sequence[int],
                      rounds_count: int, rng: random.Random, iterations: int) -> float:
    """krcg's weighted total after `rounds` and a quick seating of the next round with the
    same players: how much room a candidate round leaves the next one (small events,
    where the criteria are tight)."""

    ahead = max(0, rounds_count - len(rounds) - 1)
    search = Search(playing, everyone, rounds, rounds_count, ahead)
    order = list(range(playing))
    rng.shuffle(order)
    _cost, tables = search.run([order[i:i + size] for i, size in zip(_starts(sizes), sizes)], rng, iterations)
    return measure(rounds + [tables], rounds_count).total


def _starts(sizes: Sequence[int]) -> list[int]:
    out, i = [], 0
    for size in sizes:
        out.append(i)
        i += size
    return out
