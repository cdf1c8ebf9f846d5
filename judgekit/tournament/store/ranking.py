"""Standings after the closed preliminary rounds, and the toss that orders a tie."""
from __future__ import annotations

import json
from typing import Any

from judgekit.tournament import standings as standings_mod
from judgekit.tournament.store import tables as table_store
from judgekit.tournament.store.base import (
    T_TOSSES,
    TournamentError,
    _seats_of_round,
    _seed,
    disqualified_players,
    get_player,
    get_tournament,
    now,
    players,
    rounds,
    standing_adjustments,
)


def _scored_rounds(db, tournament_id: int, kind: str = "prelim") -> list[list[list[tuple[int, float]]]]:
    """For every closed round of `kind`: each table's (player_id, vp) in seat order."""
    out = []
    for r in rounds(db, tournament_id):
        if r["kind"] != kind or r["status"] != "closed":
            continue
        tables = _seats_of_round(db, r["id"])
        latest = table_store._latest_results(db, tables)
        round_out = []
        for tid, tb in tables.items():
            entry = latest.get(tid)
            if entry is None or entry["vps"] is None or len(entry["vps"]) != len(tb["players"]):
                continue
            round_out.append(list(zip(tb["players"], entry["vps"])))
        out.append(round_out)
    return out


def tosses(db, tournament_id: int) -> dict[int, int]:
    """Tie-break places drawn so far: player id -> place within its group (latest draw wins)."""
    out: dict[int, int] = {}
    for row in db[T_TOSSES].rows_where("tournament_id = ?", [tournament_id], order_by="id"):
        for pid, place in json.loads(row["places"]).items():
            out[int(pid)] = place
    return out


def standings(db, tournament_id: Any) -> standings_mod.Standings:
    """Standings after the closed preliminary rounds (penalty hooks and tosses applied)."""
    t = get_tournament(db, tournament_id)
    entrants = [standings_mod.Entrant(p["id"], p["name"], p["vekn"], p["dropped"])
                for p in players(db, t["id"])]
    return standings_mod.compute(entrants, _scored_rounds(db, t["id"]),
                                 adjustments=standing_adjustments(db, t["id"]),
                                 disqualified=disqualified_players(db, t["id"]),
                                 toss=tosses(db, t["id"]))


def record_toss(db, tournament_id: Any, group: Any = None, *, seed: Any = None,
                by: str | None = None) -> dict:
    """Draw the order of a group of players tied in the top five (3.1), recording the seed.
    Without `group`, the first tie that still needs a toss is drawn."""
    t = get_tournament(db, tournament_id)
    seed = _seed(seed)
    s = standings(db, t["id"])
    if group is None:
        if not s.needs_toss:
            raise TournamentError(409, "no tie in the top five needs a toss")
        ids = list(s.needs_toss[0])
    else:
        if not isinstance(group, list) or len(group) < 2:
            raise TournamentError(400, "give the ids of two or more tied players", "players")
        ids = [get_player(db, t["id"], p)["id"] for p in group]
        rows = {r.player_id: r for r in s.rows}
        keys = {rows[p].key() if p in rows else None for p in ids}
        if len(keys) != 1 or None in keys:
            raise TournamentError(409, "these players are not tied on GW, VP and TP", "players")
    places = standings_mod.draw_toss(ids, seed)
    db[T_TOSSES].insert({"tournament_id": t["id"], "players": json.dumps(ids), "seed": seed,
                         "places": json.dumps({str(k): v for k, v in places.items()}), "by": by,
                         "created_at": now()})
    return {"players": ids, "seed": seed, "places": places}
