"""Standings Adjustments in the store: which game each applies to, and each table's VP as
played and adjusted with its GW and TP.

This is the one place the adjusted figures come from: the table pages and the rounds
(`tables.round_detail`), the standings and the toss (`ranking`), the final and the event's
result with rating points (`finals`), the exports (`summary`) and the VEKN report all read
them through here; the arithmetic itself is `scoring.score_table(vps, adjustments)` and the
choice of game is `adjustments.resolve`.
"""
from __future__ import annotations

from typing import Any, Iterable

from judgekit.i18n import Said
from judgekit.tournament import adjustments as adj_mod
from judgekit.tournament.store.base import (
    T_ROUNDS,
    T_SEATS,
    T_TABLES,
    disqualified_players,
    get_tournament,
    players,
    rounds,
    standing_adjustments,
)


def player_games(db, tournament_id: int, only: Iterable[int] | None = None) -> dict[int, dict[int, int]]:
    """player id -> {round number: table number} of every game the player was seated at
    (preliminary rounds and the final), from the seating as it stands; `only`: just these
    players."""
    out: dict[int, dict[int, int]] = {}
    where, params = "r.tournament_id = ?", [tournament_id]
    if only is not None:
        ids = sorted({p for p in only if isinstance(p, int)})
        if not ids:
            return out
        where += f" and s.player_id in ({','.join('?' * len(ids))})"
        params += ids
    for row in db.query(
            f"select s.player_id, r.number as round, t.number as tbl from {T_SEATS} s "
            f"join {T_TABLES} t on t.id = s.table_id join {T_ROUNDS} r on r.id = t.round_id "
            f"where {where}", params):
        out.setdefault(row["player_id"], {})[row["round"]] = row["tbl"]
    return out


def sa_phase(db, tournament_id: Any, player_id: int | None) -> str:
    """The event's phase now for `player_id` (`adjustments.Phase`, as stored on a penalty
    record when it is given)."""
    t = get_tournament(db, tournament_id)
    games = player_games(db, t["id"], [player_id]).get(player_id, {}) if player_id is not None else {}
    return adj_mod.phase_when_given(rounds(db, t["id"]), games, rounds_planned=t["rounds_planned"],
                                    finalists=t["finalists"], player=player_id).encode()


def _round_names(all_rounds: list[dict]) -> dict[int, str]:
    return {r["number"]: Said(adj_mod.round_name(r["number"], r["kind"] == "final")) for r in all_rounds}


def resolve_records(db, tournament_id: int, records: Iterable[dict]) -> dict[Any, adj_mod.Target]:
    """record id -> the game it applies to (`adjustments.Target`), for penalty records as
    replayed (`player`, `player_name`, `phase`, `moved_to`, `move_reason`)."""
    records = list(records)
    if not records:
        return {}
    t = get_tournament(db, tournament_id)
    all_rounds = rounds(db, t["id"])
    names = _round_names(all_rounds)
    games = player_games(db, t["id"], [r.get("player") for r in records])
    everyone = {p["id"]: p for p in players(db, t["id"])}
    dq = disqualified_players(db, t["id"])
    prelims = [r for r in all_rounds if r["kind"] == "prelim"]
    prelims_done = len(prelims) >= t["rounds_planned"] and all(r["status"] == "closed" for r in prelims)
    final_seated = any(r["kind"] == "final" for r in all_rounds)
    out: dict[Any, adj_mod.Target] = {}
    for rec in records:
        pid = rec.get("player")
        p = everyone.get(pid)
        name = (p or {}).get("name") or rec.get("player_name") or "the player"
        gone = None
        if pid in dq:
            gone = adj_mod.GONE_DISQUALIFIED
        elif p is not None and p["dropped"]:
            gone = adj_mod.GONE_DROPPED
        elif prelims_done and (not t["has_final"] or final_seated or pid not in (t["finalists"] or [])):
            gone = adj_mod.GONE_DONE
        out[rec.get("id")] = adj_mod.resolve(
            adj_mod.Phase.decode(rec.get("phase")), games.get(pid, {}), moved_to=rec.get("moved_to"),
            move_reason=rec.get("move_reason"), name=name, gone=gone, round_names=names)
    return out


def sa_targets(db, tournament_id: int) -> list[dict]:
    """Every approved Standings Adjustment in force with the game it applies to:
    `[{"record", "player_id", "vp", "round", "table", "how", "note"}]` (`round` None: no
    game, so no effect on the standings)."""
    adjs = standing_adjustments(db, tournament_id)
    found = resolve_records(db, tournament_id, [{"id": a.get("record"), "player": a.get("player_id"), **a}
                                                for a in adjs])
    out = []
    for a in adjs:
        target = found[a.get("record")]
        out.append({"record": a.get("record"), "player_id": a["player_id"], "vp": a.get("vp", -1),
                    "round": target.round, "table": target.table, "how": target.how, "note": target.note})
    return out


def table_adjustments(db, tournament_id: int, targets: list[dict] | None = None
                      ) -> dict[tuple[int, int], dict[str, Any]]:
    """(round, table) -> {"deltas": one VP change per seat, "records": the SAs} for the
    tables an SA applies to (two SAs in one game: −2 for that seat)."""
    targets = sa_targets(db, tournament_id) if targets is None else targets
    placed = [x for x in targets if x["round"] is not None]
    if not placed:
        return {}
    seats: dict[tuple[int, int], list[int]] = {}
    keys = sorted({(x["round"], x["table"]) for x in placed})
    values = ",".join("(?, ?)" for _ in keys)
    for row in db.query(
            f"select r.number as round, t.number as tbl, s.player_id, s.seat from {T_SEATS} s "
            f"join {T_TABLES} t on t.id = s.table_id join {T_ROUNDS} r on r.id = t.round_id "
            f"where r.tournament_id = ? and (r.number, t.number) in (values {values}) "
            f"order by r.number, t.number, s.seat", [tournament_id] + [v for k in keys for v in k]):
        seats.setdefault((row["round"], row["tbl"]), []).append(row["player_id"])
    deltas = adj_mod.seat_deltas(((x["round"], x["table"], x["player_id"], x["vp"]) for x in placed), seats)
    out: dict[tuple[int, int], dict[str, Any]] = {}
    for key, row in deltas.items():
        out[key] = {"deltas": row, "records": [x for x in placed if (x["round"], x["table"]) == key]}
    return out
