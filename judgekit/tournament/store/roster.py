"""The players of an event after registration: editing a record (the change is kept),
bulk registration from a pasted or uploaded list (all or nothing), checking everyone in,
and each player's history (edits and check-ins, with who and how)."""
from __future__ import annotations

import json
from typing import Any

from judgekit.db import transaction
from judgekit.tournament import roster as roster_mod
from judgekit.tournament.store import base, registration
from judgekit.tournament.store.base import (
    MAX_LEN,
    T_PLAYER_CHANGES,
    T_PLAYERS,
    T_SEATS,
    T_TABLES,
    TournamentError,
    _clean_bool,
    _seats_of_round,
    _unique,
    get_player,
    get_tournament,
    players,
)
from judgekit.i18n import Message

EDITABLE = ("name", "first_name", "last_name", "vekn", "city", "country")


def edit_player(db, tournament_id: Any, player_id: Any, data: Any, *, by: str | None = None) -> dict:
    """Change a player's record: `name` (split on its first space) or `first_name` /
    `last_name`, `vekn`, `city`, `country` — only the fields given. The change is kept
    (`player_history`: each field's old and new value, who, when); a VEKN number taken by
    another player here is a 409 that changes nothing. The tables the player sits at (their
    recorder games) show the new name."""
    t = get_tournament(db, tournament_id)
    if not isinstance(data, dict):
        raise TournamentError(400, "send an object with the fields to change: " + ", ".join(EDITABLE))
    unknown = [k for k in data if k not in EDITABLE]
    if unknown:
        raise TournamentError(400, Message("tournament.cannot-edited-here-one", "%(value)s cannot be edited here (one of %(value2)s)", value=repr(unknown[0]), value2=', '.join(EDITABLE)),
                              str(unknown[0])[:40])
    if "name" not in data and ("first_name" in data) != ("last_name" in data):
        # one part given: the other stays as it is
        current = get_player(db, t["id"], player_id)
        data = {"first_name": current["first_name"], "last_name": current["last_name"], **data}
    new = registration.clean_person(data, partial=True)
    with _unique(f"VEKN number {new.get('vekn')} is already registered here", "vekn"), transaction(db):
        p = get_player(db, t["id"], player_id)
        if "vekn" in new:
            registration._refuse_taken_vekn(db, t["id"], new["vekn"], p["id"])
        changes = {k: [p.get(k), v] for k, v in new.items() if (p.get(k) or None) != (v or None)}
        if not changes:
            return get_player(db, t["id"], p["id"])
        db[T_PLAYERS].update(p["id"], {k: v for k, (_, v) in changes.items()})
        registration.log_change(db, t["id"], p["id"], "edit", changes, by=by)
        if "name" in changes:
            _rename_in_games(db, t["id"], p["id"])
    return get_player(db, t["id"], p["id"])


def _rename_in_games(db, tournament_id: int, player_id: int) -> None:
    """The recorder keeps each game's seat names: give the games of this player's tables
    the new name."""
    names = {p["id"]: p["name"] for p in players(db, tournament_id)}
    rows = db.execute(f"select distinct t.round_id from {T_SEATS} s join {T_TABLES} t on t.id = s.table_id "
                      "where s.player_id = ?", [player_id]).fetchall()
    for (round_id,) in rows:
        for tb in _seats_of_round(db, round_id).values():
            if player_id in tb["players"] and tb["game_id"] is not None:
                base.recorder_store.set_seat_names(db, tb["game_id"], [names[x] for x in tb["players"]])


def player_history(db, tournament_id: Any, player_id: Any) -> list[dict]:
    """A player's edits and check-ins, oldest first: `{"kind", "changes", "how", "by",
    "created_at"}`."""
    t = get_tournament(db, tournament_id)
    p = get_player(db, t["id"], player_id)
    out = []
    for row in db[T_PLAYER_CHANGES].rows_where("tournament_id = ? and player_id = ?", [t["id"], p["id"]],
                                               order_by="id"):
        row["changes"] = json.loads(row["changes"] or "{}")
        out.append(row)
    return out


def check_in_all(db, tournament_id: Any, *, by: str | None = None) -> list[dict]:
    """Check in every registered player who is not checked in yet (dropped and
    disqualified players aside): one transaction, so a refusal (3.1.6) changes nothing.
    Returns the players checked in."""
    t = get_tournament(db, tournament_id)
    out = []
    with transaction(db):
        dq = base.disqualified_players(db, t["id"])
        for p in players(db, t["id"]):
            if not p["checked_in"] and not p["dropped"] and p["id"] not in dq:
                out.append(registration.set_checked_in(db, t["id"], p["id"], True, by=by, how="all"))
    return out


def preview_roster(db, tournament_id: Any, data: bytes | str) -> roster_mod.Roster:
    """A pasted or uploaded list read against the players registered here: every row with
    its problems (a number taken already, a duplicate in the list, no name...). Stores
    nothing."""
    t = get_tournament(db, tournament_id)
    everyone = players(db, t["id"])
    existing = {p["vekn"]: p["name"] for p in everyone if p["vekn"]}
    return roster_mod.parse_roster(data, existing=existing, max_name=MAX_LEN["player"],
                                   max_place=MAX_LEN["place"], registered=everyone)


def register_roster(db, tournament_id: Any, data: bytes | str, *, checked_in: Any = False,
                    by: str | None = None) -> list[dict]:
    """Register every player of a pasted or uploaded list, all or nothing: a list with any
    problem (`preview_roster`) is a 400 naming each row at fault (`problems`), and nothing
    is stored. `checked_in`: whether they are present now (default: not yet)."""
    checked_in = _clean_bool(checked_in, "checked_in", False)
    roster = preview_roster(db, tournament_id, data)
    if not roster.ok:
        problems = [{"line": None, "message": m} for m in roster.problems] + \
                   [{"line": r.line, "message": m} for r in roster.bad_rows for m in r.problems]
        raise TournamentError(400, roster.summary().msg, "players", problems=problems[:200])
    out = []
    with transaction(db):
        for row in roster.rows:
            out.append(registration.add_player(db, tournament_id, {**row.player(), "checked_in": checked_in},
                                               by=by))
    return out
