"""The tournament tables and their migrations (idempotent)."""
from __future__ import annotations

import sqlite_utils

from judgekit.db import transaction
from judgekit.recorder.clock import DEFAULT_LIMIT_MIN
from judgekit.tournament.store.base import (
    T_FINAL,
    T_PLAYER_CHANGES,
    T_PLAYERS,
    T_RESULTS,
    T_ROUNDS,
    T_SEAT_CHANGES,
    T_SEATS,
    T_TABLES,
    T_TOSSES,
    T_TOURNAMENTS,
)


def migrate(db: sqlite_utils.Database) -> None:
    """Create the tournament tables if they are missing (idempotent)."""
    db[T_TOURNAMENTS].create({
        "id": int, "name": str, "date": str, "location": str, "level": str,
        "rounds_planned": int, "time_limit_min": int, "final_time_limit_min": int,
        "has_final": int, "finalists": str, "final_seed": int, "created_at": str,
    }, pk="id", not_null={"name"}, defaults={"level": "standard", "rounds_planned": 3,
                                              "time_limit_min": DEFAULT_LIMIT_MIN, "has_final": 1},
        if_not_exists=True)
    db[T_PLAYERS].create({
        "id": int, "tournament_id": int, "name": str, "vekn": str, "checked_in": int,
        "dropped": int, "dropped_after_round": int, "joined_after_round": int,
        "created_at": str,
    }, pk="id", foreign_keys=[("tournament_id", T_TOURNAMENTS, "id")],
        defaults={"checked_in": 1, "dropped": 0}, if_not_exists=True)
    db[T_PLAYERS].create_index(["tournament_id", "vekn"], unique=True, if_not_exists=True)
    db[T_ROUNDS].create({
        "id": int, "tournament_id": int, "number": int, "kind": str, "seed": int,
        "status": str, "sit_outs": str, "time_limit_min": int, "started_at": str,
        "closed_at": str,
    }, pk="id", foreign_keys=[("tournament_id", T_TOURNAMENTS, "id")], if_not_exists=True)
    db[T_ROUNDS].create_index(["tournament_id", "number"], unique=True, if_not_exists=True)
    db[T_TABLES].create({
        "id": int, "round_id": int, "number": int, "size": int, "game_id": int,
    }, pk="id", foreign_keys=[("round_id", T_ROUNDS, "id")], if_not_exists=True)
    db[T_TABLES].create_index(["round_id", "number"], unique=True, if_not_exists=True)
    db[T_SEATS].create({
        "id": int, "table_id": int, "seat": int, "player_id": int,
    }, pk="id", foreign_keys=[("table_id", T_TABLES, "id"), ("player_id", T_PLAYERS, "id")],
        if_not_exists=True)
    db[T_SEATS].create_index(["table_id", "seat"], unique=True, if_not_exists=True)
    db[T_RESULTS].create({
        "id": int, "table_id": int, "kind": str, "vps": str, "withdrawn": str,
        "reason": str, "note": str, "by": str, "created_at": str,
    }, pk="id", foreign_keys=[("table_id", T_TABLES, "id")], if_not_exists=True)
    db[T_RESULTS].create_index(["table_id", "id"], if_not_exists=True)
    # issue 16: a result's client id (a retried post is stored once) and the result row the
    # form showed (`based_on`: a stale form is refused)
    for column, kind in (("client_id", str), ("based_on", int)):
        if column not in db[T_RESULTS].columns_dict:
            db[T_RESULTS].add_column(column, kind)
    db[T_RESULTS].create_index(["table_id", "client_id"], unique=True, if_not_exists=True)
    db[T_SEAT_CHANGES].create({
        "id": int, "round_id": int, "player_a": int, "player_b": int, "warnings": str,
        "by": str, "created_at": str,
    }, pk="id", foreign_keys=[("round_id", T_ROUNDS, "id")], if_not_exists=True)
    db[T_TOSSES].create({
        "id": int, "tournament_id": int, "players": str, "seed": int, "places": str,
        "by": str, "created_at": str,
    }, pk="id", foreign_keys=[("tournament_id", T_TOURNAMENTS, "id")], if_not_exists=True)
    db[T_FINAL].create({
        "id": int, "tournament_id": int, "kind": str, "player_id": int, "position": int,
        "by": str, "created_at": str,
    }, pk="id", foreign_keys=[("tournament_id", T_TOURNAMENTS, "id")], if_not_exists=True)
    # added by the penalties area: the id of the penalty catalog the event uses (None: default)
    if "catalog" not in db[T_TOURNAMENTS].columns_dict:
        db[T_TOURNAMENTS].add_column("catalog", str)
    # who added a player other than by registration ("penalty": a penalty to someone who was
    # not registered); such a player waits, not checked in, for the organizer
    if "added_by" not in db[T_PLAYERS].columns_dict:
        db[T_PLAYERS].add_column("added_by", str)
    # issue 12: the player record (first and last name, city, country) and the event's
    # details for the VEKN report (its VEKN event id, city, format, judges); self check-in
    for column in ("first_name", "last_name", "city", "country"):
        if column not in db[T_PLAYERS].columns_dict:
            db[T_PLAYERS].add_column(column, str)
    # a name stored before first and last names existed is split on its first space, as
    # the VEKN's tools do (`players.split_name`); `name` stays the display name
    rows = db.execute(f"select id, name from {T_PLAYERS} where first_name is null").fetchall()
    if rows:
        from judgekit.tournament.players import split_name
        with transaction(db):
            for pid, name in rows:
                first, last = split_name(name or "")
                db.execute(f"update {T_PLAYERS} set first_name = ?, last_name = ? where id = ?",
                           [first, last, pid])
    for column in ("vekn_event_id", "city", "format", "head_judge", "assistant_judges", "organizer",
                   "checkin_secret", "client_id"):
        if column not in db[T_TOURNAMENTS].columns_dict:
            db[T_TOURNAMENTS].add_column(column, str)
    # the creating client's id: a retried create answers with the event the first one made
    db[T_TOURNAMENTS].create_index(["client_id"], unique=True, if_not_exists=True)
    db[T_PLAYER_CHANGES].create({
        "id": int, "tournament_id": int, "player_id": int, "kind": str, "changes": str, "how": str,
        "by": str, "created_at": str,
    }, pk="id", foreign_keys=[("tournament_id", T_TOURNAMENTS, "id"), ("player_id", T_PLAYERS, "id")],
        if_not_exists=True)
    db[T_PLAYER_CHANGES].create_index(["tournament_id", "player_id"], if_not_exists=True)
    if "device" not in db[T_PLAYER_CHANGES].columns_dict:   # where a phone check-in came from
        db[T_PLAYER_CHANGES].add_column("device", str)
