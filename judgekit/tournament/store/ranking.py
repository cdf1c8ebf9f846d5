"""Standings after the closed preliminary rounds, and the toss that orders a tie."""
from __future__ import annotations

import json
from typing import Any

from judgekit.db import transaction

from judgekit.tournament import standings as standings_mod
from judgekit.tournament.store import adjusted
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
)
from judgekit.i18n import Message


def _scored_rounds(db, tournament_id: int, kind: str = "prelim") -> tuple[list[list[list[tuple[int, float]]]], list[int]]:
    """For every closed round of `kind`: each table's (player_id, vp) in seat order, VP as
    played; and the numbers of those rounds, in the same order."""
    out = []
    numbers = []
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
        numbers.append(r["number"])
    return out, numbers


def tosses(db, tournament_id: int) -> list[dict]:
    """The draws made so far, oldest first: `{"id", "players", "places": {id: place}, "seed",
    "by", "created_at"}` (`standings.compute` applies a draw only while its players are
    exactly the players tied)."""
    out = []
    for row in db[T_TOSSES].rows_where("tournament_id = ?", [tournament_id], order_by="id"):
        out.append({"id": row["id"], "players": json.loads(row["players"]),
                    "places": {int(k): v for k, v in json.loads(row["places"]).items()},
                    "seed": row["seed"], "by": row["by"], "created_at": row["created_at"]})
    return out


def standings(db, tournament_id: Any, targets: list[dict] | None = None) -> standings_mod.Standings:
    """Standings after the closed preliminary rounds: Standings Adjustments in the games
    they apply to (`adjusted.sa_targets`; pass `targets` when the caller has them),
    disqualifications and tosses applied."""
    t = get_tournament(db, tournament_id)
    entrants = [standings_mod.Entrant(p["id"], p["name"], p["vekn"], p["dropped"])
                for p in players(db, t["id"])]
    scored, numbers = _scored_rounds(db, t["id"])
    position = {n: k for k, n in enumerate(numbers, 1)}
    targets = adjusted.sa_targets(db, t["id"]) if targets is None else targets
    adjustments = [{"player_id": x["player_id"], "vp": x["vp"], "round": position[x["round"]]}
                   for x in targets if x["round"] in position]
    return standings_mod.compute(entrants, scored, adjustments=adjustments,
                                 disqualified=disqualified_players(db, t["id"]),
                                 toss=tosses(db, t["id"]))


def _drawn_meanwhile(db, tournament_id: int, ids: list[int] | None) -> dict:
    """The latest toss of exactly these players (any toss when `ids` is None), as a 409's
    `toss`: what the head judge who lost the race is shown."""
    rows = list(db[T_TOSSES].rows_where("tournament_id = ?", [tournament_id], order_by="id desc"))
    for row in rows:
        players_ = json.loads(row["players"])
        if ids is None or set(players_) == set(ids):
            return {"toss": {"players": players_, "seed": row["seed"], "by": row["by"],
                             "created_at": row["created_at"],
                             "places": {int(k): v for k, v in json.loads(row["places"]).items()}}}
    return {}


def record_toss(db, tournament_id: Any, group: Any = None, *, seed: Any = None,
                by: str | None = None) -> dict:
    """Draw the order of a group of players tied in the top five (3.1), recording the seed.
    Without `group`, the first tie that still needs a toss is drawn; a `group` must be
    exactly the players tied now for a place in the top five (never before a round has
    been played)."""
    t = get_tournament(db, tournament_id)
    seed = _seed(seed)
    if group is not None:
        if not isinstance(group, list) or len(group) < 2:
            raise TournamentError(400, Message("tournament.give-ids-two-or-more", "give the ids of two or more tied players"), "players")
        ids = [get_player(db, t["id"], p)["id"] for p in group]
        if len(set(ids)) != len(ids):
            raise TournamentError(400, Message("tournament.player-named-twice", "a player is named twice"), "players")
    # the tie is read and its order written in one transaction: two head judges drawing
    # the same tie at once record one order, and the second is told what was drawn
    with transaction(db):
        if not any(r["kind"] == "prelim" and r["status"] == "closed" for r in rounds(db, t["id"])):
            raise TournamentError(409, Message("tournament.no-round-has-been-played", "no round has been played yet: nobody is tied for a place (3.1)"))
        s = standings(db, t["id"])
        if group is None:
            if not s.needs_toss:
                raise TournamentError(409, Message("tournament.no-tie-in-top-five", "no tie in the top five needs a toss"), **_drawn_meanwhile(db, t["id"], None))
            ids = list(s.needs_toss[0])
        else:
            if not any(set(ids) == set(g) for g in s.needs_toss):
                drawn = _drawn_meanwhile(db, t["id"], ids)
                if drawn:
                    raise TournamentError(409, Message("tournament.toss-for-these-players-was", "the toss for these players was drawn already (%(value)s, seed %(seed)s): it stands", value=drawn['toss']['by'] or Message("tournament.someone", "someone"), seed=drawn['toss']['seed']), "players", **drawn)
                names = {r.player_id: r.name for r in s.rows}
                ties = "; ".join(", ".join(names.get(p, str(p)) for p in g) for g in s.needs_toss) or \
                    Message("tournament.no-ties", "none")
                raise TournamentError(409, Message("tournament.toss-drawn-among-exactly-players", "a toss is drawn among exactly the players tied now for a place in the top five (3.1); ties needing a toss: %(ties)s", ties=ties), "players",
                                      needs_toss=s.needs_toss)
        places = standings_mod.draw_toss(ids, seed)
        db[T_TOSSES].insert({"tournament_id": t["id"], "players": json.dumps(ids), "seed": seed,
                             "places": json.dumps({str(k): v for k, v in places.items()}), "by": by,
                             "created_at": now()})
    return {"players": ids, "seed": seed, "places": places}
