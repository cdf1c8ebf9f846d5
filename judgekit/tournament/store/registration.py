"""Creating a tournament (and its details for the VEKN's report) and registering players:
the player record, check-in, drops, VEKN numbers."""
from __future__ import annotations

import json
from typing import Any

from judgekit.db import transaction
from judgekit.game.clock import DEFAULT_LIMIT_MIN
from judgekit.tournament import levels as levels_mod
from judgekit.tournament import players as players_mod
from judgekit.tournament.store import base
from judgekit.tournament.store.base import (
    MAX_LEN,
    MIN_TIME_LIMIT,
    T_PLAYER_CHANGES,
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
from judgekit.i18n import Message


def create_tournament(db, data: dict, *, client_id: str | None = None) -> int:
    """A new tournament. `data`: name, date, location, level (a key of `levels.LEVELS` or
    its VEKN name: "standard", "National Championship"...), rounds_planned (2-10
    preliminary rounds), time_limit_min (≥ 120, 3.1.1), final_time_limit_min, has_final
    (3.1.6 allows none below 8 players), catalog (the penalty catalog id, default: the
    default catalog), and the details the VEKN's report needs (`EVENT_FIELDS`: the VEKN
    event id, city, format, head judge, assistant judges, organizer). `client_id`: the
    creating client's id for the request (`event_by_client_id` finds the event again)."""
    if not isinstance(data, dict):
        raise TournamentError(400, Message("tournament.send-object-with-tournament-s", "send an object with the tournament's fields"))
    name = _clean_text(data.get("name"), "name", required=True, max_len=MAX_LEN["tournament"])
    row = {
        "name": name,
        "date": _clean_text(data.get("date"), "date", max_len=40),
        "location": _clean_text(data.get("location"), "location"),
        "level": clean_level(data.get("level")) or "standard",
        "rounds_planned": _clean_int(data.get("rounds_planned"), "rounds_planned", 2, 10, 3),
        "time_limit_min": _clean_int(data.get("time_limit_min"), "time_limit_min", MIN_TIME_LIMIT, 600,
                                     DEFAULT_LIMIT_MIN),
        "final_time_limit_min": _clean_int(data.get("final_time_limit_min"), "final_time_limit_min",
                                           MIN_TIME_LIMIT, 900, None),
        "has_final": int(_clean_bool(data.get("has_final"), "has_final", True)),
        "catalog": _clean_catalog(data.get("catalog")),
        "created_at": now(),
    }
    row.update(_event_fields(data, partial=False))
    # one place, two names: the place given at creation is the report's city, and an
    # import's city (the workbook's B7) is the event's place, unless each is given
    if row["city"] is None and row["location"] and len(row["location"]) <= MAX_LEN["place"]:
        row["city"] = row["location"]
    if row["location"] is None and row["city"]:
        row["location"] = row["city"]
    if client_id is not None:
        row["client_id"] = client_id
    return db[T_TOURNAMENTS].insert(row).last_pk


def event_by_client_id(db, client_id: str | None) -> dict | None:
    """The event a create (or an import) with this client id made, or None."""
    if not client_id:
        return None
    rows = list(db[T_TOURNAMENTS].rows_where("client_id = ?", [client_id], limit=1))
    return rows[0] if rows else None


# The event's details for the VEKN's report and the Archon workbook (Tournament Info)
EVENT_FIELDS = ("vekn_event_id", "city", "format", "head_judge", "assistant_judges", "organizer")


def clean_level(value: Any) -> str | None:
    """A level's key from its key or its VEKN/Archon name (None when not given), or a 400."""
    if value is None or value == "":
        return None
    found = levels_mod.find(value)
    if found is None:
        shown = value if isinstance(value, str) and len(value) <= 60 else "that"
        raise TournamentError(400, Message("tournament.unknown-event-level-one", "unknown event level %(shown)s: one of %(value)s", shown=repr(shown), value=levels_mod.names_list()), "level")
    return found.key


def _event_fields(data: dict, *, partial: bool) -> dict:
    """The VEKN details present in `data` (all of them, None when absent, unless `partial`)."""
    out: dict[str, Any] = {}
    for field in EVENT_FIELDS:
        if partial and field not in data:
            continue
        value = data.get(field)
        if field == "vekn_event_id":
            n = _clean_int(value, "vekn_event_id", 1, 10**9)
            out[field] = str(n) if n is not None else None
        elif field == "format":
            text = _clean_text(value, "format", max_len=20)
            if text is not None:
                match = next((f for f in levels_mod.FORMATS if f.casefold() == text.casefold()), None)
                if match is None:
                    raise TournamentError(400, Message("tournament.format-must-one", "format must be one of %(value)s", value=', '.join(levels_mod.FORMATS)), "format")
                text = match
            out[field] = text
        else:
            limit = MAX_LEN["judges"] if field == "assistant_judges" else MAX_LEN["place"]
            out[field] = _clean_text(value, field, max_len=limit)
    return out


def update_event(db, tournament_id: Any, data: Any, *, by: str | None = None) -> dict:
    """Change the event's details: date, location, level and the VEKN report's
    (`EVENT_FIELDS`). Only the fields given change; the name, rounds and time limits stay
    (they are announced before play)."""
    t = get_tournament(db, tournament_id)
    if not isinstance(data, dict):
        raise TournamentError(400, Message("tournament.send-object-with-fields-change", "send an object with the fields to change"))
    changes: dict[str, Any] = _event_fields(data, partial=True)
    if "date" in data:
        changes["date"] = _clean_text(data.get("date"), "date", max_len=40)
    if "location" in data:
        changes["location"] = _clean_text(data.get("location"), "location")
    if "level" in data:
        changes["level"] = clean_level(data.get("level")) or "standard"
    if changes:
        db[T_TOURNAMENTS].update(t["id"], changes)
    return get_tournament(db, t["id"])


def _clean_catalog(value: Any) -> str | None:
    """The penalty catalog id (None: the default one); checked against the catalogs the
    penalties area knows."""
    if value in (None, ""):
        return None
    known = base.penalties().catalog_ids()
    if not isinstance(value, str) or value not in known:
        raise TournamentError(400, Message("tournament.catalog-must-one", "catalog must be one of %(value)s", value=', '.join(known) or 'the default'), "catalog")
    return value


def clean_vekn(value: Any) -> str | None:
    """A VEKN number: digits (spaces and a leading '#' are ignored) or a temporary number,
    P and digits ("P123"); None when not given (`players.parse_vekn`)."""
    number, problem = players_mod.parse_vekn(value)
    if problem:
        raise TournamentError(400, problem.msg, "vekn")   # a `Said`: its code goes with it
    return number


def clean_person(data: dict, *, partial: bool = False) -> dict:
    """The player record's fields from `data`: `name` (the display name) or `first_name` /
    `last_name`, `vekn`, `city`, `country`. Given a single name, first and last are its
    split on the first space; given parts, the display name is "first last". With
    `partial`, only the fields present are returned (an edit)."""
    out: dict[str, Any] = {}
    limit = MAX_LEN["player"]
    has_parts = any(k in data for k in ("first_name", "last_name"))
    if has_parts:
        first = _clean_text(data.get("first_name"), "first_name", max_len=limit) or ""
        last = _clean_text(data.get("last_name"), "last_name", max_len=limit) or ""
        name = players_mod.join_name(first, last)
        if not name:
            raise TournamentError(400, Message("tournament.player-s-first-or-last", "the player's first or last name is required"), "first_name")
        if len(name) > limit:
            raise TournamentError(400, Message("tournament.name-too-long-at-most", "the name is too long (at most %(limit)s characters)", limit=limit), "last_name")
        out.update(name=name, first_name=first, last_name=last)
    elif "name" in data or not partial:
        name = _clean_text(data.get("name"), "name", required=True, max_len=limit)
        first, last = players_mod.split_name(name)
        out.update(name=name, first_name=first, last_name=last)
    if "vekn" in data or not partial:
        out["vekn"] = clean_vekn(data.get("vekn"))
    for field in ("city", "country"):
        if field in data or not partial:
            out[field] = _clean_text(data.get(field), field, max_len=MAX_LEN["place"])
    return out


def _refuse_taken_vekn(db, tournament_id: int, vekn: str | None, player_id: int | None = None) -> None:
    if not vekn:
        return
    other = _row(db, T_PLAYERS, "tournament_id = ? and vekn = ?", [tournament_id, vekn])
    if other and other["id"] != player_id:
        raise TournamentError(409, Message("tournament.vekn-number-already-registered-here", "VEKN number %(vekn)s is already registered here (%(name)s)", vekn=vekn, name=other['name']), "vekn")


def add_player(db, tournament_id: Any, data: dict, *, added_by: str | None = None,
               by: str | None = None) -> dict:
    """Register a player: `name` (or `first_name` and `last_name`), VEKN number, city,
    country, checked_in (default true: the JSON API's players are present; the dashboard's
    form and the bulk registration say). A player without a number is added but is not
    rated (9.6); a temporary number (P123) is flagged until replaced. Added after round 1
    began, the player is a late arrival (3.3.1) and is seated from the next round on.
    `added_by` records what added the player when it was not a registration ("penalty")."""
    t = get_tournament(db, tournament_id)
    if not isinstance(data, dict):
        raise TournamentError(400, Message("tournament.send-object-with-player-s", "send an object with the player's name and vekn"))
    person = clean_person(data)
    name, vekn = person["name"], person["vekn"]
    checked_in = _clean_bool(data.get("checked_in"), "checked_in", True)
    if _final_started(db, t):
        raise TournamentError(409, Message("tournament.final-has-begun-no-more", "the final has begun: no more players can join"))
    with _unique(f"VEKN number {vekn} is already registered here", "vekn"), transaction(db):
        _refuse_taken_vekn(db, t["id"], vekn)
        last = _last_round_number(db, t["id"])
        if last and checked_in:
            base._refuse_no_final_at(t, _present(db, t["id"]) + 1, f"admitting {name}")
        pid = db[T_PLAYERS].insert({
            "tournament_id": t["id"], **person,
            "checked_in": int(checked_in), "dropped": 0,
            "joined_after_round": last or None, "added_by": added_by, "created_at": now(),
        }).last_pk
        if checked_in:
            log_change(db, t["id"], pid, "check-in", how="registration", by=by)
    return get_player(db, t["id"], pid)


def log_change(db, tournament_id: int, player_id: int, kind: str, changes: dict | None = None, *,
               how: str | None = None, by: str | None = None, device: str | None = None) -> None:
    """One row of a player's history: `kind` "edit" (with `changes` {field: [old, new]}),
    "check-in" or "absent" (`how`: "desk", "all", "phone", "registration"; `device`: the
    address a phone check-in came from)."""
    row = {"tournament_id": tournament_id, "player_id": player_id, "kind": kind,
           "changes": json.dumps(changes or {}, ensure_ascii=False), "how": how, "by": by, "created_at": now()}
    if device is not None:
        row["device"] = device
    db[T_PLAYER_CHANGES].insert(row)


def _present(db, tournament_id: int) -> int:
    """Players who would be seated next round: checked in, not dropped (DQ aside)."""
    ids = {row[0] for row in db.execute(f"select id from {T_PLAYERS} where tournament_id = ? and "
                                         "checked_in = 1 and dropped = 0", [tournament_id])}
    return len(ids - base.disqualified_players(db, tournament_id))


def set_checked_in(db, tournament_id: Any, player_id: Any, checked_in: bool, *,
                   by: str | None = None, how: str = "desk", device: str | None = None,
                   before: Any = None) -> dict:
    """Mark a player present (seated by the next round) or absent (not seated).
    `checked_in` must be a bool (400 otherwise). A change is logged with who and `how`
    ("desk", "all": the dashboard's check in all, "phone": the player's own, from `device`).
    `before(db, player)`: a check run in the same write transaction, before the change
    (it raises to refuse)."""
    checked_in = _clean_bool(checked_in, "checked_in")
    t = get_tournament(db, tournament_id)
    with transaction(db):
        p = get_player(db, t["id"], player_id)
        if before is not None:
            before(db, p)
        if checked_in and not p["checked_in"] and not p["dropped"] and _last_round_number(db, t["id"]):
            base._refuse_no_final_at(t, _present(db, t["id"]) + 1, f"checking {p['name']} in")
        if p["checked_in"] != checked_in:
            db[T_PLAYERS].update(p["id"], {"checked_in": int(checked_in)})
            log_change(db, t["id"], p["id"], "check-in" if checked_in else "absent", how=how, by=by, device=device)
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
