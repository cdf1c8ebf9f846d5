"""Standings after the preliminary rounds (tournament rules 3.1, 3.7).

Players are ranked on game wins, then victory points, then tournament points; remaining
ties that touch the top five are broken by a recorded toss (3.1: "any fair random
method"). A Standings Adjustment is −1 VP in one game, whose GW and TP are then worked out
again for every seat (`scoring.score_table`); dropped and disqualified players are listed
with their scores but not ranked, so they cannot reach the final.

Inputs are plain data so that the penalties area can feed its records in unchanged:
`adjustments` is a list of `{"player_id": ..., "vp": -1, "round": k}` (k: the 1-based
position in `rounds` of the round whose game it applies to; without it, no game: no
effect), `disqualified` a set of player ids, `toss` the draws made so far. Pure
functions, no I/O.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable, Sequence

from judgekit.game.scoring import FINALISTS
from judgekit.tournament.scoring import score_table


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
    adjustment: float = 0.0  # VP taken by Standings Adjustments in this player's games (negative)
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
    # draws that no longer match a tie (the standings changed since): shown, not applied
    discarded_tosses: list[dict] = field(default_factory=list)

    def row(self, player_id: Hashable) -> Row | None:
        return next((r for r in self.rows if r.player_id == player_id), None)


def compute(players: Sequence[Entrant | dict], rounds: Iterable[Iterable[Sequence[tuple[Hashable, float]]]],
            *, adjustments: Iterable[dict] = (), disqualified: Iterable[Hashable] = (),
            toss: Sequence[dict] | dict[Hashable, int] | None = None,
            finalists: int = FINALISTS) -> Standings:
    """The standings.

    `rounds` is, for each counted round, its scored tables, each a list of
    `(player_id, vp)` in seating order (only tables whose result stands: valid or
    overridden), VP as played. `adjustments` put −1 VP in one game each (see the module
    docstring); the game's GW and TP follow for every seat. `toss` is the list of draws,
    each `{"players": [ids], "places": {id: place}}` (1 best; a plain `{id: place}` is one
    draw): a draw orders a tie only when its players are exactly the players tied now —
    after a correction, a new result or an adjustment, a draw that no longer matches is
    listed in `discarded_tosses` and the tie asks for a toss again. Before any table is
    scored nobody is tied for anything: no toss is asked for.
    """
    draws = _draws(toss)
    dq = set(disqualified)
    rows: dict[Hashable, Row] = {}
    for p in players:
        e = p if isinstance(p, Entrant) else Entrant(p["id"], p.get("name", ""), p.get("vekn"),
                                                    bool(p.get("dropped")))
        rows[e.id] = Row(e.id, e.name, e.vekn, dropped=e.dropped, disqualified=e.id in dq)

    deltas: dict[tuple[int, Hashable], float] = {}
    for adj in adjustments:
        k = adj.get("round")
        if isinstance(k, int) and not isinstance(k, bool):
            key = (k, adj.get("player_id"))
            deltas[key] = deltas.get(key, 0.0) + float(adj.get("vp", -1))

    scored = 0
    for k, round_ in enumerate(rounds, 1):
        for table in round_:
            ids = [seat[0] for seat in table]
            vps = [seat[1] for seat in table]
            changes = [deltas.get((k, pid), 0.0) for pid in ids]
            scored += 1
            for pid, score in zip(ids, score_table(vps, changes)):
                row = rows.get(pid)
                if row is None:
                    continue
                row.gw += score.gw
                row.vp += score.vp
                row.tp += score.tp
                row.adjustment += score.adjustment
                row.rounds += 1

    ranked = [r for r in rows.values() if not r.dropped and not r.disqualified]
    unranked = [r for r in rows.values() if r.dropped or r.disqualified]
    ranked.sort(key=lambda r: (r.key(), str(r.name)))
    unranked.sort(key=lambda r: (r.disqualified, r.key(), str(r.name)))

    needs: list[list[Hashable]] = []
    groups: list[frozenset] = []
    used: set[int] = set()
    out_ranked: list[Row] = []
    i = 0
    while i < len(ranked):
        j = i
        while j + 1 < len(ranked) and ranked[j + 1].key() == ranked[i].key():
            j += 1
        group = ranked[i:j + 1]
        if len(group) > 1 and scored:
            ids = frozenset(r.player_id for r in group)
            groups.append(ids)
            draw = next((d for d in reversed(draws) if d["set"] == ids), None)
            if draw is not None:
                used.add(draw["index"])
                group = sorted(group, key=lambda r: draw["places"][r.player_id])
                for k, r in enumerate(group, i):
                    r.rank = k + 1
                    r.toss = draw["places"][r.player_id]
            else:
                for r in group:
                    r.rank = i + 1
                if i < finalists:
                    needs.append([r.player_id for r in group])
        else:
            for r in group:
                r.rank = i + 1  # all tied before any table is scored: no toss for that
        out_ranked += group
        i = j + 1
    ranked = out_ranked

    # a draw is discarded when it orders no tie of today and no later draw took its players
    discarded = []
    for d in draws:
        later = any(e["index"] > d["index"] and e["set"] & d["set"] for e in draws)
        if d["index"] not in used and not later:
            discarded.append({k: v for k, v in d["raw"].items()})

    qualified: list[Hashable] = []
    if not needs and scored:
        qualified = [r.player_id for r in ranked[:finalists]]
        for place, r in enumerate(ranked[:finalists], 1):
            r.finalist = place
    return Standings(ranked + unranked, needs, qualified, discarded)


def _draws(toss: Sequence[dict] | dict | None) -> list[dict]:
    """The draws as `{"index", "set", "places", "raw"}`, oldest first."""
    if not toss:
        return []
    if isinstance(toss, dict):
        toss = [{"players": list(toss), "places": dict(toss)}]
    out = []
    for k, d in enumerate(toss):
        places = dict(d.get("places") or {})
        players = list(d.get("players") or places)
        if set(players) != set(places):
            continue
        out.append({"index": k, "set": frozenset(players), "places": places, "raw": d})
    return out


def draw_toss(group: Sequence[Hashable], seed: int) -> dict[Hashable, int]:
    """A reproducible random order for a tied group: player id -> place (1 best)."""
    order = sorted(group, key=repr)
    random.Random(seed).shuffle(order)
    return {pid: k for k, pid in enumerate(order, 1)}
