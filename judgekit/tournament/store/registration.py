"""Creating a tournament and registering players: check-in, drops, VEKN numbers."""
from __future__ import annotations

import re
from typing import Any

from judgekit.db import transaction
from judgekit.recorder.clock import DEFAULT_LIMIT_MIN
from judgekit.tournament.store import base
from judgekit.tournament.store.base import (
    LEVELS,
    MAX_LEN,
    MIN_TIME_LIMIT,
    T_PLAYERS,
    T_TOURNAMENTS,
    TournamentError,
    _clean_bool,
    _clean_int,
    _clean_text,
    _final_started,
    _last_round_number,
    _row,
    _unique,
    get_player,
    get_tournament,
    now,
)


def create_tournament(db, data: dict) -> int:
    """A new tournament. `data`: name, date, location, level (standard | national |
    continental), rounds_planned (2-10 preliminary rounds), time_limit_min (≥ 120, 3.1.1),
    final_time_limit_min, has_final (3.1.6 allows none below 8 players), catalog (the
    penalty catalog id, default: the default catalog)."""
    if not isinstance(data, dict):
        raise TournamentError(400, "send an object with the tournament's fields")
    name = _clean_text(data.get("name"), "name", required=True, max_len=MAX_LEN["tournament"])
    level = data.get("level") or "standard"
    if level not in LEVELS:
        raise TournamentError(400, f"level must be one of {', '.join(LEVELS)}", "level")
    row = {
        "name": name,
        "date": _clean_text(data.get("date"), "date", max_len=40),
        "location": _clean_text(data.get("location"), "location"),
        "level": level,
        "rounds_planned": _clean_int(data.get("rounds_planned"), "rounds_planned", 2, 10, 3),
        "time_limit_min": _clean_int(data.get("time_limit_min"), "time_limit_min", MIN_TIME_LIMIT, 600,
                                     DEFAULT_LIMIT_MIN),
        "final_time_limit_min": _clean_int(data.get("final_time_limit_min"), "final_time_limit_min",
                                           MIN_TIME_LIMIT, 900, None),
        "has_final": int(_clean_bool(data.get("has_final"), "has_final", True)),
        "catalog": _clean_catalog(data.get("catalog")),
        "created_at": now(),
    }
    return db[T_TOURNAMENTS].insert(row).last_pk


def _clean_catalog(value: Any) -> str | None:
    """The penalty catalog id (None: the default one); checked against the catalogs the
    penalties area knows."""
    if value in (None, ""):
        return None
    known = base._penalties().catalog_ids()
    if not isinstance(value, str) or value not in known:
        raise TournamentError(400, f"catalog must be one of {', '.join(known) or 'the default'}", "catalog")
    return value


def clean_vekn(value: Any) -> str | None:
    """A VEKN number: digits only (spaces and a leading '#' are ignored), or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise TournamentError(400, "the VEKN number must be digits", "vekn")
    text = str(value).strip().lstrip("#").replace(" ", "")
    if not text:
        return None
    if not re.fullmatch(r"\d{1,10}", text):
        raise TournamentError(400, f"the VEKN number must be digits only, not {value!r}", "vekn")
    return text


def add_player(db, tournament_id: Any, data: dict, *, added_by: str | None = None) -> dict:
    """Register a player (name, VEKN number, checked_in: default true). A player without a
    number is added but is not rated (9.6). Added after round 1 began, the player is a late
    arrival (3.3.1) and is seated from the next round on. `added_by` records what added the
    player when it was not a registration ("penalty")."""
    t = get_tournament(db, tournament_id)
    if not isinstance(data, dict):
        raise TournamentError(400, "send an object with the player's name and vekn")
    name = _clean_text(data.get("name"), "name", required=True, max_len=MAX_LEN["player"])
    vekn = clean_vekn(data.get("vekn"))
    checked_in = _clean_bool(data.get("checked_in"), "checked_in", True)
    if _final_started(db, t):
        raise TournamentError(409, "the final has begun: no more players can join")
    with _unique(f"VEKN number {vekn} is already registered here", "vekn"), transaction(db):
        if vekn and _row(db, T_PLAYERS, "tournament_id = ? and vekn = ?", [t["id"], vekn]):
            other = _row(db, T_PLAYERS, "tournament_id = ? and vekn = ?", [t["id"], vekn])
            raise TournamentError(409, f"VEKN number {vekn} is already registered here ({other['name']})",
                                  "vekn")
        last = _last_round_number(db, t["id"])
        if last and checked_in:
            base._refuse_no_final_at(t, _present(db, t["id"]) + 1, f"admitting {name}")
        pid = db[T_PLAYERS].insert({
            "tournament_id": t["id"], "name": name, "vekn": vekn,
            "checked_in": int(checked_in), "dropped": 0,
            "joined_after_round": last or None, "added_by": added_by, "created_at": now(),
        }).last_pk
    return get_player(db, t["id"], pid)


def _present(db, tournament_id: int) -> int:
    """Players who would be seated next round: checked in, not dropped (DQ aside)."""
    ids = {row[0] for row in db.execute(f"select id from {T_PLAYERS} where tournament_id = ? and "
                                         "checked_in = 1 and dropped = 0", [tournament_id])}
    return len(ids - base.disqualified_players(db, tournament_id))


def set_checked_in(db, tournament_id: Any, player_id: Any, checked_in: bool) -> dict:
    """Mark a player present (seated by the next round) or absent (not seated).
    `checked_in` must be a bool (400 otherwise)."""
    checked_in = _clean_bool(checked_in, "checked_in")
    t = get_tournament(db, tournament_id)
    p = get_player(db, t["id"], player_id)
    if checked_in and not p["checked_in"] and not p["dropped"] and _last_round_number(db, t["id"]):
        base._refuse_no_final_at(t, _present(db, t["id"]) + 1, f"checking {p['name']} in")
    db[T_PLAYERS].update(p["id"], {"checked_in": int(checked_in)})
    return get_player(db, t["id"], p["id"])


def drop_player(db, tournament_id: Any, player_id: Any, dropped: bool = True) -> dict:
    """A player leaves the event (3.1.4): not seated in later rounds, shown in the standings
    but not ranked for the final. Dropping during an open round keeps the current seat (the
    round is played or scored as a loss); `dropped=False` reinstates the player. `dropped`
    must be a bool (400 otherwise)."""
    dropped = _clean_bool(dropped, "dropped")
    t = get_tournament(db, tournament_id)
    p = get_player(db, t["id"], player_id)
    if not dropped and p["dropped"] and p["checked_in"] and _last_round_number(db, t["id"]):
        base._refuse_no_final_at(t, _present(db, t["id"]) + 1, f"reinstating {p['name']}")
    db[T_PLAYERS].update(p["id"], {
        "dropped": int(dropped),
        "dropped_after_round": (_last_round_number(db, t["id"]) or 0) if dropped else None,
    })
    return get_player(db, t["id"], p["id"])
