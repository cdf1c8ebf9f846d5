"""Standings after the preliminary rounds (tournament rules 3.1, 3.7).

Players are ranked on game wins, then victory points, then tournament points; remaining
ties that touch the top five are broken by a recorded toss (3.1: "any fair random
method"). Standings Adjustment penalties take 1 VP each; dropped and disqualified players
are listed with their scores but not ranked, so they cannot reach the final.

Inputs are plain data so that the penalties area can feed its records in unchanged:
`adjustments` is a list of `{"player_id": ..., "vp": -1}` and `disqualified` a set of
player ids. Pure functions, no I/O.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable, Sequence

from judgekit.tournament.scoring import score_table

FINALISTS = 5


@dataclass(frozen=True)
class Entrant:
    id: Hashable
    name: str
    vekn: str | None = None
    dropped: bool = False


@dataclass
class Row:
    player_id: Hashable
    name: str
    vekn: str | None
    gw: int = 0
    vp: float = 0.0
    tp: int = 0
    rounds: int = 0
    adjustment: float = 0.0  # VP taken by Standings Adjustments (negative)
    rank: int | None = None  # None: not ranked (dropped or disqualified)
    toss: int | None = None  # position drawn in a tie-break toss (1 = best)
    dropped: bool = False
    disqualified: bool = False
    finalist: int | None = None  # qualifying place 1..5 for the final

    @property
    def status(self) -> str:
        if self.disqualified:
            return "disqualified"
        if self.dropped:
            return "dropped"
        return "active"

    def key(self) -> tuple[float, float, float]:
        return (-self.gw, -self.vp, -self.tp)

    def to_dict(self) -> dict[str, Any]:
        out = dict(vars(self))  # shallow: every field is a plain value (asdict deep-copies)
        out["status"] = self.status
        return out


@dataclass
class Standings:
    rows: list[Row]
    # groups of tied player ids (in the top five) that still need a toss
    needs_toss: list[list[Hashable]] = field(default_factory=list)
    # the qualifiers for the final, best first; empty while a toss that decides who
    # qualifies (or in what order) is missing
    finalists: list[Hashable] = field(default_factory=list)

    def row(self, player_id: Hashable) -> Row | None:
        return next((r for r in self.rows if r.player_id == player_id), None)


def compute(players: Sequence[Entrant | dict], rounds: Iterable[Iterable[Sequence[tuple[Hashable, float]]]],
            *, adjustments: Iterable[dict] = (), disqualified: Iterable[Hashable] = (),
            toss: dict[Hashable, int] | None = None, finalists: int = FINALISTS) -> Standings:
    """The standings.

    `rounds` is, for each counted round, its scored tables, each a list of
    `(player_id, vp)` in seating order (only tables whose result stands: valid or
    overridden). `toss` maps a player id to the place drawn in a tie-break toss (1 best);
    it only orders players who are otherwise tied.
    """
    toss = dict(toss or {})
    dq = set(disqualified)
    rows: dict[Hashable, Row] = {}
    for p in players:
        e = p if isinstance(p, Entrant) else Entrant(p["id"], p.get("name", ""), p.get("vekn"),
                                                    bool(p.get("dropped")))
        rows[e.id] = Row(e.id, e.name, e.vekn, dropped=e.dropped, disqualified=e.id in dq)

    for round_ in rounds:
        for table in round_:
            ids = [pid for pid, _ in table]
            vps = [vp for _, vp in table]
            for pid, score in zip(ids, score_table(vps)):
                row = rows.get(pid)
                if row is None:
                    continue
                row.gw += score.gw
                row.vp += score.vp
                row.tp += score.tp
                row.rounds += 1
    for adj in adjustments:
        row = rows.get(adj.get("player_id"))
        if row is not None:
            delta = float(adj.get("vp", -1))
            row.vp += delta
            row.adjustment += delta

    ranked = [r for r in rows.values() if not r.dropped and not r.disqualified]
    unranked = [r for r in rows.values() if r.dropped or r.disqualified]
    ranked.sort(key=lambda r: (r.key(), toss.get(r.player_id, 10**9), str(r.name)))
    unranked.sort(key=lambda r: (r.disqualified, r.key(), str(r.name)))

    needs: list[list[Hashable]] = []
    i = 0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and ranked[j + 1].key() == ranked[i].key():
            j += 1
        group = ranked[i:j + 1]
        if len(group) > 1:
            tossed = all(r.player_id in toss for r in group)
            if tossed:
                for k, r in enumerate(sorted(group, key=lambda r: toss[r.player_id]), i):
                    r.rank = k + 1
                    r.toss = toss[r.player_id]
            else:
                for r in group:
                    r.rank = i + 1
                if i < finalists:
                    needs.append([r.player_id for r in group])
        else:
            group[0].rank = i + 1
        i = j + 1

    qualified: list[Hashable] = []
    if not needs:
        qualified = [r.player_id for r in ranked[:finalists]]
        for place, r in enumerate(ranked[:finalists], 1):
            r.finalist = place
    return Standings(ranked + unranked, needs, qualified)


def draw_toss(group: Sequence[Hashable], seed: int) -> dict[Hashable, int]:
    """A reproducible random order for a tied group: player id -> place (1 best)."""
    order = sorted(group, key=repr)
    random.Random(seed).shuffle(order)
    return {pid: k for k, pid in enumerate(order, 1)}
