"""A round's seating for the public pages (find your table, the room, the list for the
wall): names, tables and seats only (`seat_lookup.Seating`), read without replaying any
recorded game and without reading results."""
from __future__ import annotations

from typing import Any

from judgekit.tournament import seat_lookup
from judgekit.tournament.store.base import (T_PLAYERS, T_ROUNDS, T_SEATS, T_TABLES, TournamentError,
                                            _int_id, get_round, get_tournament, rounds)
from judgekit.i18n import Message


def public_round(r: dict) -> dict:
    """What the public pages say about a round: its number, kind and whether it is over."""
    return {"number": r["number"], "kind": r["kind"], "status": r["status"],
            "title": "Final" if r["kind"] == "final" else f"Round {r['number']}"}


def round_seating(db, tournament_id: Any, number: Any) -> tuple[dict, seat_lookup.Seating]:
    """(the round as `public_round`, its seating). A round that does not exist raises
    TournamentError 404 (see `unseated_round` for one that is still to come)."""
    r = get_round(db, tournament_id, number)
    names = {row["id"]: row["name"] for row in db.query(
        f"select id, name from {T_PLAYERS} where tournament_id = ?", [tournament_id])}
    tables: dict[int, tuple[int, list]] = {}
    for row in db.query(f"select t.id as tid, t.number as tno, s.seat, s.player_id from {T_TABLES} t "
                        f"join {T_SEATS} s on s.table_id = t.id where t.round_id = ? order by t.number, s.seat",
                        [r["id"]]):
        tables.setdefault(row["tid"], (row["tno"], []))[1].append(
            (row["player_id"], names.get(row["player_id"], f"#{row['player_id']}")))
    sit_outs = [(pid, names.get(pid, f"#{pid}")) for pid in r["sit_outs"]]
    return public_round(r), seat_lookup.seating(list(tables.values()), sit_outs)


def latest_round(db, tournament_id: Any) -> int | None:
    """The number of the round seated last (the final included), or None before round 1."""
    tid = _int_id(tournament_id, "tournament")
    row = db.execute(f"select max(number) from {T_ROUNDS} where tournament_id = ?", [tid]).fetchone()
    return row[0] if row and row[0] is not None else None


def unseated_round(db, tournament_id: Any, number: Any) -> dict | None:
    """A round still to come, as `public_round` says it (status "unseated"), when `number`
    is the next round or a later preliminary round the event announced (or its final);
    None when the round exists. Any other number raises TournamentError 404."""
    t = get_tournament(db, tournament_id)
    n = _int_id(number, "round")
    all_rounds = rounds(db, t["id"])
    if any(r["number"] == n for r in all_rounds):
        return None
    last = max((r["number"] for r in all_rounds), default=0)
    finished = any(r["kind"] == "final" for r in all_rounds)
    planned = (t["rounds_planned"] or 0) + (1 if t["has_final"] else 0)
    if finished or n > max(planned, last + 1):
        raise TournamentError(404, Message("tournament.has-no-round", "%(name)s has no round %(n)s", name=t['name'], n=n))
    kind = "final" if t["has_final"] and n == planned and n > last else "prelim"
    return {"number": n, "kind": kind, "status": "unseated",
            "title": "Final" if kind == "final" else f"Round {n}"}
