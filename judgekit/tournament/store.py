"""The tournament's records in SQLite: tournaments, players, rounds, tables, results.

Every write is one function here (`create_tournament`, `add_player`, `set_checked_in`,
`drop_player`, `start_round`, `swap_seats`, `enter_result`, `override_result`,
`correct_result`, `close_round`, `record_toss`, `start_final`, `place_final_card`,
`reset_final_choices`, `seat_final`) so that the views can put one permission check in
front of each. Reads return plain dicts and the pure domain objects of `scoring`,
`standings`, `final`.

Append-only where it matters: a table's result is never updated; a correction is a new row
in `tournament_results`, the latest row counts, and an override is a row of kind `override`
that carries the head judge's written reason (as does a `correction`: the head judge's
change to a table of a closed round). Seat-choice placements for the final are rows too
(a reset is a row). Closing a round writes the VP derived from each recorded game
as a row of kind `recorded`, so the standings read only this table.

Bad input raises `TournamentError(status, message, field)`; nothing is written then.
"""
from __future__ import annotations

import json
import re
import secrets
import sqlite3
from contextlib import contextmanager
from datetime import datetime, timezone
from typing import Any, Iterable, Sequence

import sqlite_utils

from judgekit.db import transaction
from judgekit.errors import MAX_INT, AppError, parse_int
from judgekit.recorder import store as recorder_store
from judgekit.recorder.clock import DEFAULT_LIMIT_MIN, MIN_ROUND_MIN
from judgekit.tournament import final as final_mod
from judgekit.tournament import rating as rating_mod
from judgekit.tournament import seating as seating_mod
from judgekit.tournament import standings as standings_mod
from judgekit.tournament.scoring import (TABLE_SIZES, VpResult, check_table, derive_vp,
                                         differences, parse_vp, score_table, seat_errors)

MIN_TIME_LIMIT = MIN_ROUND_MIN  # minutes (3.1.1), the recorder's clock's fact
#: Longest texts the store takes (the pages' maxlength attributes read them from here).
MAX_LEN = {"tournament": 200, "player": 80, "note": 500, "reason": 1000}
MIN_REASON = 5  # characters: an override's or a correction's written reason
LEVELS = tuple(rating_mod.LEVEL_BONUS)
STATES = ("in-progress", "finished", "invalid", "overridden")

T_TOURNAMENTS = "tournaments"
T_PLAYERS = "tournament_players"
T_ROUNDS = "tournament_rounds"
T_TABLES = "tournament_tables"
T_SEATS = "tournament_seats"
T_RESULTS = "tournament_results"
T_SEAT_CHANGES = "tournament_seat_changes"
T_TOSSES = "tournament_tosses"
T_FINAL = "tournament_final_choices"


class TournamentError(AppError):
    """Bad input or a request that cannot be carried out; `status` is the HTTP status (the
    fields of `judgekit.errors.AppError`: the app answers it like any other)."""


@contextmanager
def _unique(message: str, field: str | None = None):
    """Turn a unique-index violation (two clicks racing) into a 409 with `message`."""
    try:
        yield
    except sqlite3.IntegrityError as exc:
        if "UNIQUE" not in str(exc):
            raise
        raise TournamentError(409, message, field)


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


# --- schema -------------------------------------------------------------------------------

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


# --- the recorder: each table is a recorder game ----------------------------------------------

def create_game(db, seats: list[str], **kw) -> int:
    """The recorder game of one table."""
    if kw.get("label"):
        kw["label"] = kw["label"][:200]
    try:
        return recorder_store.create_game(db, seats, **kw)
    except recorder_store.GameError as exc:  # bad arguments
        raise TournamentError(400, f"the recorder refused the table: {exc}")


def game_outcome(db, game_id: int | None) -> dict | None:
    """`{"seats", "finished", "events"}` of a recorder game, or None if there is none."""
    if game_id is None:
        return None
    try:
        return recorder_store.game_outcome(db, game_id)
    except LookupError:
        return None


# --- what penalties do to the standings and the seating ----------------------------------------

def _penalties():
    """The penalties area's store (imported on use: it imports this module)."""
    from judgekit.tournament.penalties import store as penalties_store
    return penalties_store


def standing_adjustments(db, tournament_id: int) -> list[dict]:
    """Approved VP penalties in force: `[{"player_id": id, "vp": -1, "record": id}, ...]`."""
    return list(_penalties().standing_adjustments(db, tournament_id))


def disqualified_players(db, tournament_id: int) -> set[int]:
    """Ids of players an approved penalty in force removed from the event."""
    return set(_penalties().disqualified_players(db, tournament_id))


# --- reading helpers -------------------------------------------------------------------------

def _row(db, table: str, where: str, params: Sequence[Any]) -> dict | None:
    rows = list(db[table].rows_where(where, list(params), limit=1))
    return rows[0] if rows else None


def _int_id(value: Any, what: str) -> int:
    """An id (`errors.parse_int`), or a 404: nothing can have a malformed or huge id."""
    n = parse_int(value)
    if n is None:
        raise TournamentError(404, f"no {what} {value!r}")
    return n


def get_tournament(db, tournament_id: Any) -> dict:
    tid = _int_id(tournament_id, "tournament")
    row = _row(db, T_TOURNAMENTS, "id = ?", [tid])
    if row is None:
        raise TournamentError(404, f"no tournament {tournament_id}")
    row["has_final"] = bool(row["has_final"])
    row["finalists"] = json.loads(row["finalists"]) if row.get("finalists") else None
    return row


def list_tournaments(db) -> list[dict]:
    if not db[T_TOURNAMENTS].exists():
        return []
    return list(db.query(
        f"select t.*, (select count(*) from {T_PLAYERS} p where p.tournament_id = t.id) as players "
        f"from {T_TOURNAMENTS} t order by t.id desc"))


def _player(row: dict) -> dict:
    """A player row as the area shows it: flags as bools, `rated` (has a VEKN number)."""
    row["checked_in"] = bool(row["checked_in"])
    row["dropped"] = bool(row["dropped"])
    row["rated"] = bool(row["vekn"])
    return row


def players(db, tournament_id: int) -> list[dict]:
    return [_player(p) for p in db[T_PLAYERS].rows_where("tournament_id = ?", [tournament_id], order_by="id")]


def get_player(db, tournament_id: int, player_id: Any) -> dict:
    pid = _int_id(player_id, "player")
    row = _row(db, T_PLAYERS, "id = ? and tournament_id = ?", [pid, tournament_id])
    if row is None:
        raise TournamentError(404, f"no player {player_id} in tournament {tournament_id}")
    return _player(row)


def rounds(db, tournament_id: int) -> list[dict]:
    out = []
    for r in db[T_ROUNDS].rows_where("tournament_id = ?", [tournament_id], order_by="number"):
        r["sit_outs"] = json.loads(r["sit_outs"] or "[]")
        out.append(r)
    return out


def get_round(db, tournament_id: int, number: Any) -> dict:
    n = _int_id(number, "round")
    r = _row(db, T_ROUNDS, "tournament_id = ? and number = ?", [tournament_id, n])
    if r is None:
        raise TournamentError(404, f"no round {number} in tournament {tournament_id}")
    r["sit_outs"] = json.loads(r["sit_outs"] or "[]")
    return r


def _seats_of_round(db, round_id: int) -> dict[int, dict]:
    """Tables of a round by id: {table_id: {"number", "size", "game_id", "players": [...]}}."""
    tables: dict[int, dict] = {}
    for t in db[T_TABLES].rows_where("round_id = ?", [round_id], order_by="number"):
        tables[t["id"]] = {**t, "players": []}
    if tables:
        marks = ",".join("?" * len(tables))
        for s in db.query(f"select * from {T_SEATS} where table_id in ({marks}) order by table_id, seat",
                          list(tables)):
            tables[s["table_id"]]["players"].append(s["player_id"])
    return tables


def round_tables(db, tournament_id: int, number: Any) -> list[list[int]]:
    """The seating of a round: player ids per table, in seat order."""
    r = get_round(db, tournament_id, number)
    return [t["players"] for t in _seats_of_round(db, r["id"]).values()]


def _latest_results(db, table_ids: Iterable[int]) -> dict[int, dict]:
    ids = list(table_ids)
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    out = {}
    for row in db.query(
            f"select r.* from {T_RESULTS} r join (select table_id, max(id) as id from {T_RESULTS} "
            f"where table_id in ({marks}) group by table_id) m on r.id = m.id", ids):
        row["vps"] = json.loads(row["vps"])
        row["withdrawn"] = json.loads(row["withdrawn"] or "[]")
        out[row["table_id"]] = row
    return out


def table_status(size: int, entry: dict | None, outcome: dict | None) -> dict:
    """The state of one table from its latest result row and its recorded game.

    - an override row: "overridden", its VP count;
    - an entered, corrected (closed round, with the head judge's `reason`) or
      recorded-at-close row: "finished" if the table check passes, else "invalid" with the
      reasons;
    - no row but a recorded game the recorder calls finished: its derived VP, checked the
      same way (an outcome that does not add up, e.g. a game ended without a time call,
      shows as invalid);
    - otherwise "in-progress".
    When both an entry and a finished record exist and differ, `differs` lists the seats.
    """
    recorded: VpResult | None = None
    done = False
    if outcome is not None:
        recorded = derive_vp(size, outcome.get("events") or [])
        # the recorder says when the game is over (after a time call, play goes on to the
        # end of the action or phase); a game it calls over is scored and checked
        done = bool(outcome.get("finished", recorded.finished))
    out: dict[str, Any] = {
        "state": "in-progress", "vps": None, "source": None, "errors": [],
        "recorded_vps": recorded.vps if recorded else None,
        "recorded_finished": done,
        "recorded_errors": [e.to_dict() for e in recorded.errors] if recorded else [],
        "reported_vps": None, "differs": [], "reason": None, "withdrawn": [],
    }
    if entry is not None:
        out["vps"] = entry["vps"]
        out["source"] = entry["kind"]
        out["withdrawn"] = entry.get("withdrawn") or []
        if entry["kind"] != "recorded":
            out["reported_vps"] = entry["vps"]
        if entry["kind"] in ("override", "correction"):
            out["reason"] = entry.get("reason")
        if entry["kind"] == "override":
            out["state"] = "overridden"
        else:
            errors = check_table(entry["vps"], out["withdrawn"])
            out["errors"] = [e.to_dict() for e in errors]
            out["state"] = "invalid" if errors else "finished"
        if recorded and done and entry["kind"] != "recorded":
            out["differs"] = differences(recorded.vps, entry["vps"])
    elif recorded is not None and done:
        out["vps"] = recorded.vps
        out["source"] = "recorder"
        out["withdrawn"] = recorded.withdrawn
        errors = list(recorded.errors) + check_table(recorded.vps, recorded.withdrawn)
        out["errors"] = [e.to_dict() for e in errors]
        out["state"] = "invalid" if errors else "finished"
    return out


def round_detail(db, tournament_id: int, number: Any, *, games: bool = True) -> dict:
    """A round with its tables: seats (with names), game, state, VP, GW/TP when scored.
    `games=False` leaves the recorder's games out (no replay): enough for a closed round's
    state, where every table has its result row, but without `recorded_vps`/`differs`."""
    r = get_round(db, tournament_id, number)
    names = {p["id"]: p for p in players(db, tournament_id)}
    tables = _seats_of_round(db, r["id"])
    latest = _latest_results(db, tables)
    out_tables = []
    for tid, t in tables.items():
        outcome = game_outcome(db, t["game_id"]) if games else None
        status = table_status(t["size"], latest.get(tid), outcome)
        scores = score_table(status["vps"]) if status["vps"] is not None and \
            status["state"] in ("finished", "overridden") and len(status["vps"]) in TABLE_SIZES else None
        seats = []
        for k, pid in enumerate(t["players"]):
            p = names.get(pid, {})
            seat = {"seat": k + 1, "player_id": pid, "name": p.get("name", f"#{pid}"),
                    "vekn": p.get("vekn"), "dropped": bool(p.get("dropped"))}
            if status["vps"] is not None and k < len(status["vps"]):
                seat["vp"] = status["vps"][k]
            if status["recorded_vps"] is not None:
                seat["recorded_vp"] = status["recorded_vps"][k]
            if scores:
                seat["gw"], seat["tp"] = scores[k].gw, scores[k].tp
            seats.append(seat)
        out_tables.append({"number": t["number"], "size": t["size"], "game_id": t["game_id"],
                           "seats": seats, **status})
    r["tables"] = out_tables
    r["sit_out_players"] = [{"player_id": p, "name": names.get(p, {}).get("name", f"#{p}")}
                            for p in r["sit_outs"]]
    r["open_tables"] = [t["number"] for t in out_tables if t["state"] not in ("finished", "overridden")]
    return r


def result_history(db, tournament_id: int, number: Any, table_no: Any) -> list[dict]:
    t = _get_table(db, tournament_id, number, table_no)
    rows = []
    for row in db[T_RESULTS].rows_where("table_id = ?", [t["id"]], order_by="id"):
        row["vps"] = json.loads(row["vps"])
        row["withdrawn"] = json.loads(row["withdrawn"] or "[]")
        rows.append(row)
    return rows


def _get_table(db, tournament_id: int, number: Any, table_no: Any) -> dict:
    r = get_round(db, tournament_id, number)
    tn = _int_id(table_no, "table")
    t = _row(db, T_TABLES, "round_id = ? and number = ?", [r["id"], tn])
    if t is None:
        raise TournamentError(404, f"no table {table_no} in round {r['number']}")
    t["round"] = r
    t["players"] = [s["player_id"] for s in db[T_SEATS].rows_where("table_id = ?", [t["id"]], order_by="seat")]
    return t


# --- tournaments and players -------------------------------------------------------------------

def _clean_text(value: Any, field: str, *, required: bool = False, max_len: int = 200) -> str | None:
    if value is None or (isinstance(value, str) and not value.strip()):
        if required:
            raise TournamentError(400, f"{field} is required", field)
        return None
    if not isinstance(value, (str, int)):
        raise TournamentError(400, f"{field} must be text", field)
    text = " ".join(str(value).split())
    if len(text) > max_len:
        raise TournamentError(400, f"{field} is too long (at most {max_len} characters)", field)
    return text


def _clean_int(value: Any, field: str, lo: int, hi: int, default: int | None = None) -> int | None:
    """A whole number from `lo` to `hi` (`errors.parse_int`), `default` when not given, or a
    400 naming the field."""
    if value is None or value == "":
        return default
    n = parse_int(value, lo, hi)
    if n is None:
        raise TournamentError(400, f"{field} must be a whole number from {lo} to {hi}", field)
    return n


def _seed(value: Any) -> int:
    """A random seed as given (0 to 2**63 - 1: it is stored), or a fresh one."""
    if value is None or value == "":
        return secrets.randbelow(2**31)
    return _clean_int(value, "seed", 0, MAX_INT)


def _clean_bool(value: Any, field: str, default: bool | None = None) -> bool:
    """A JSON true/false (`default` when not given), or a 400 naming the field: "false",
    0 or ["x"] are not booleans (the web forms turn their text into bools first)."""
    if value is None and default is not None:
        return default
    if not isinstance(value, bool):
        raise TournamentError(400, f"{field} must be true or false, not {value!r}", field)
    return value


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
    known = _penalties().catalog_ids()
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
        pid = db[T_PLAYERS].insert({
            "tournament_id": t["id"], "name": name, "vekn": vekn,
            "checked_in": int(checked_in), "dropped": 0,
            "joined_after_round": last or None, "added_by": added_by, "created_at": now(),
        }).last_pk
    return get_player(db, t["id"], pid)


def set_checked_in(db, tournament_id: Any, player_id: Any, checked_in: bool) -> dict:
    """Mark a player present (seated by the next round) or absent (not seated).
    `checked_in` must be a bool (400 otherwise)."""
    checked_in = _clean_bool(checked_in, "checked_in")
    t = get_tournament(db, tournament_id)
    p = get_player(db, t["id"], player_id)
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
    db[T_PLAYERS].update(p["id"], {
        "dropped": int(dropped),
        "dropped_after_round": (_last_round_number(db, t["id"]) or 0) if dropped else None,
    })
    return get_player(db, t["id"], p["id"])


def _last_round_number(db, tournament_id: int) -> int:
    row = db.execute(f"select max(number) from {T_ROUNDS} where tournament_id = ?", [tournament_id]).fetchone()
    return row[0] or 0


# --- rounds -------------------------------------------------------------------------------------

def _prelims_done(db, t: dict) -> bool:
    """All planned preliminary rounds are played and closed."""
    prelims = _prelim_rounds(db, t["id"])
    return len(prelims) >= t["rounds_planned"] and all(r["status"] == "closed" for r in prelims)


def _prelim_rounds(db, tournament_id: int) -> list[dict]:
    return [r for r in rounds(db, tournament_id) if r["kind"] == "prelim"]


def _final_started(db, t: dict) -> bool:
    return bool(t.get("finalists"))


def start_round(db, tournament_id: Any, *, seed: Any = None,
                tables: list[list[Any]] | None = None) -> dict:
    """Seat and open the next preliminary round.

    Without `tables`, the round is seated by `seating.seat_round` with `seed` (random when
    not given; it is recorded). `tables` (player ids per table, in seat order) seats the
    round by hand instead. Each table becomes a recorder game.
    """
    t = get_tournament(db, tournament_id)
    seed = _seed(seed)
    if _final_started(db, t):
        raise TournamentError(409, "the final has begun: no more preliminary rounds")
    prelims = _prelim_rounds(db, t["id"])
    if any(r["status"] == "open" for r in prelims):
        open_no = next(r["number"] for r in prelims if r["status"] == "open")
        raise TournamentError(409, f"round {open_no} is still open: close it first")
    number = len(prelims) + 1
    everyone = players(db, t["id"])
    by_id = {p["id"]: p for p in everyone}
    active = [p["id"] for p in everyone if not p["dropped"] and p["checked_in"]]
    dq = disqualified_players(db, t["id"])
    active = [p for p in active if p not in dq]
    earlier = [round_tables(db, t["id"], r["number"]) for r in prelims]
    history = seating_mod.History.of(earlier)

    if tables is not None:
        if not isinstance(tables, list) or not all(isinstance(tb, list) for tb in tables):
            raise TournamentError(400, "tables must be a list of lists of player ids", "tables")
        seated: list[int] = []
        clean_tables = []
        for k, tb in enumerate(tables, 1):
            if len(tb) not in TABLE_SIZES:
                raise TournamentError(400, f"table {k} has {len(tb)} players: a table has 4 or 5 (3.1.2)",
                                      "tables")
            ids = []
            for pid in tb:
                p = by_id.get(_int_id(pid, "player"))
                if p is None:
                    raise TournamentError(404, f"no player {pid} in this tournament", "tables")
                if p["dropped"] or p["id"] in dq:
                    raise TournamentError(409, f"{p['name']} has dropped out: they cannot be seated", "tables")
                ids.append(p["id"])
            seated += ids
            clean_tables.append(ids)
        if len(set(seated)) != len(seated):
            raise TournamentError(400, "a player is seated twice", "tables")
        sit_outs = [p for p in active if p not in set(seated)]
        plan_tables = clean_tables
    else:
        # Games each present player has played so far: with drops and late arrivals the
        # sit-outs are planned over the rounds left, not from the first round's numbers.
        played = {p: 0 for p in active}
        for round_ in earlier:
            for table in round_:
                for p in table:
                    if p in played:
                        played[p] += 1
        rounds_left = max(1, t["rounds_planned"] - number + 1)
        sit_out, sat_out, equal = seating_mod.round_sit_outs(played, rounds_left)
        if sit_out and not equal and number == 1:
            raise TournamentError(409, f"{len(active)} players cannot be split into tables of 4 and 5, and "
                                  f"no sit-out plan fits {t['rounds_planned']} rounds (3.1.2): change the "
                                  "number of rounds or of players")
        result = seating_mod.seat_round(active, history, seed=seed, sit_out=sit_out, sat_out=sat_out)
        if result.problems:
            raise TournamentError(409, result.problems[0].message)
        plan_tables = result.tables
        sit_outs = result.sit_outs

    warnings = seating_mod.swap_warnings(plan_tables, history)
    with _unique(f"round {number} was started meanwhile: reload the page"), transaction(db):
        rid = db[T_ROUNDS].insert({
            "tournament_id": t["id"], "number": number, "kind": "prelim", "seed": seed,
            "status": "open", "sit_outs": json.dumps(sit_outs), "time_limit_min": t["time_limit_min"],
            "started_at": now(),
        }).last_pk
        for k, tb in enumerate(plan_tables, 1):
            _insert_table(db, t, rid, number, k, tb, by_id, t["time_limit_min"])
    out = round_detail(db, t["id"], number)
    out["warnings"] = [_pp_warning(a, b, by_id) for a, b in warnings]
    return out


def _insert_table(db, t: dict, round_id: int, round_no: int, table_no: int, ids: list[int],
                  by_id: dict, time_limit: int | None, label: str | None = None) -> int:
    game_id = create_game(db, [by_id[p]["name"] for p in ids], tournament_id=t["id"],
                          round_no=round_no, table_no=table_no, time_limit_min=time_limit,
                          label=label or f"{t['name']} · round {round_no} · table {table_no}")
    table_id = db[T_TABLES].insert({"round_id": round_id, "number": table_no, "size": len(ids),
                                    "game_id": game_id}).last_pk
    db[T_SEATS].insert_all({"table_id": table_id, "seat": s, "player_id": p}
                           for s, p in enumerate(ids, 1))
    return table_id


def _pp_warning(pred: int, prey: int, by_id: dict) -> str:
    a = by_id.get(pred, {}).get("name", f"#{pred}")
    b = by_id.get(prey, {}).get("name", f"#{prey}")
    return f"{a} was already the predator of {b} in an earlier round (3.1.2)"


def swap_seats(db, tournament_id: Any, number: Any, player_a: Any, player_b: Any, *,
               by: str | None = None) -> dict:
    """The head judge swaps two players' seats in an open round (or seats a player who sat
    out in place of another). Returns the round with `warnings` when the new seating
    repeats a predator→prey pair of an earlier round; the swap is made all the same.
    The checks (round open, no result at either table) and the swap are one transaction,
    so a result entered meanwhile either comes first (and the swap is refused) or after."""
    t = get_tournament(db, tournament_id)
    with transaction(db):
        r = get_round(db, t["id"], number)
        if r["status"] != "open":
            raise TournamentError(409, f"round {r['number']} is closed: seats can no longer change")
        a = get_player(db, t["id"], player_a)
        b = get_player(db, t["id"], player_b)
        if a["id"] == b["id"]:
            raise TournamentError(400, "choose two different players")
        tables = _seats_of_round(db, r["id"])
        where = {pid: (tid, k) for tid, tb in tables.items() for k, pid in enumerate(tb["players"], 1)}
        if a["id"] not in where and b["id"] not in where:
            raise TournamentError(409, "neither player is seated in this round")
        if a["id"] not in where:
            a, b = b, a
        if b["id"] not in where and (b["dropped"] or b["id"] in disqualified_players(db, t["id"])):
            raise TournamentError(409, f"{b['name']} has dropped out: they cannot be seated")
        latest = _latest_results(db, [where[a["id"]][0]] + ([where[b["id"]][0]] if b["id"] in where else []))
        if latest:
            raise TournamentError(409, "a result is already entered for that table: seats can no longer change")
        by_id = {p["id"]: p for p in players(db, t["id"])}
        grid = [tb["players"] for tb in tables.values()]
        new_grid = seating_mod.swap_seats(grid, a["id"], b["id"])
        history = seating_mod.History.of(round_tables(db, t["id"], x["number"])
                                         for x in _prelim_rounds(db, t["id"]) if x["number"] < r["number"])
        old = set(seating_mod.swap_warnings(grid, history))
        new_pairs = [p for p in seating_mod.swap_warnings(new_grid, history) if p not in old]
        warnings = [_pp_warning(x, y, by_id) for x, y in new_pairs]
        ta, sa = where[a["id"]]
        db.execute(f"update {T_SEATS} set player_id = ? where table_id = ? and seat = ?", [b["id"], ta, sa])
        if b["id"] in where:
            tb_, sb = where[b["id"]]
            db.execute(f"update {T_SEATS} set player_id = ? where table_id = ? and seat = ?", [a["id"], tb_, sb])
        else:
            sit = [p for p in r["sit_outs"] if p != b["id"]] + [a["id"]]
            db[T_ROUNDS].update(r["id"], {"sit_outs": json.dumps(sit)})
        db[T_SEAT_CHANGES].insert({"round_id": r["id"], "player_a": a["id"], "player_b": b["id"],
                                   "warnings": json.dumps(warnings), "by": by, "created_at": now()})
        # the recorder's games keep their own list of names (its findings, the penalty form)
        changed = {where[a["id"]][0]} | ({where[b["id"]][0]} if b["id"] in where else set())
        for table_id, tb in _seats_of_round(db, r["id"]).items():
            if table_id in changed and tb["game_id"] is not None:
                recorder_store.set_seat_names(db, tb["game_id"], [by_id[p]["name"] for p in tb["players"]])
    out = round_detail(db, t["id"], r["number"])
    out["warnings"] = warnings
    return out


def _clean_vps(vps: Any, size: int) -> list[float]:
    """One VP per seat, each well formed (`scoring.seat_errors`), or a 400 whose `problems`
    name every seat at fault (`[{"seat", "message", "code"}]`, for the form's fields)."""
    if not isinstance(vps, list):
        raise TournamentError(400, "vps must be a list with one VP per seat, in seat order", "vps")
    if len(vps) != size:
        raise TournamentError(400, f"this table has {size} seats: give {size} VP values, not {len(vps)}", "vps")
    errors = seat_errors(vps)
    if errors:
        raise TournamentError(400, "; ".join(e.message for e in errors), "vps", seat=errors[0].seat,
                              problems=[e.to_dict() for e in errors])
    return [float(parse_vp(v)) for v in vps]


def _clean_withdrawn(withdrawn: Any, size: int) -> list[int]:
    if withdrawn in (None, ""):
        return []
    if not isinstance(withdrawn, list):
        raise TournamentError(400, "withdrawn must be a list of seat numbers", "withdrawn")
    out = []
    for s in withdrawn:
        n = _clean_int(s, "withdrawn", 1, size)
        if n not in out:
            out.append(n)
    return sorted(out)


def enter_result(db, tournament_id: Any, number: Any, table_no: Any, vps: Any, *,
                 withdrawn: Any = None, note: str | None = None, by: str | None = None) -> dict:
    """Store the VP reported for a table of an open round (seat order), as a new row.
    Malformed numbers (not numbers, negative, not halves, wrong count) are refused; numbers
    that are well formed but impossible are stored and the table shows as invalid with the
    reasons, until corrected or overridden. A closed round's table is corrected by the head
    judge (`correct_result`), not here (409). Returns the table's state."""
    t = get_tournament(db, tournament_id)
    table = _get_table(db, t["id"], number, table_no)
    clean = _clean_vps(vps, table["size"])
    wd = _clean_withdrawn(withdrawn, table["size"])
    text = _clean_text(note, "note", max_len=MAX_LEN["note"])
    with transaction(db):
        _refuse_if_closed(db, table)
        db[T_RESULTS].insert({"table_id": table["id"], "kind": "entered", "vps": json.dumps(clean),
                              "withdrawn": json.dumps(wd), "note": text, "by": by, "created_at": now()})
    return _table_detail(db, t["id"], table)


def _refuse_if_closed(db, table: dict) -> None:
    """Inside the write's transaction: the round must still be open."""
    r = db[T_ROUNDS].get(table["round"]["id"])
    if r["status"] == "closed":
        raise TournamentError(409, f"round {r['number']} is closed: only the head judge can correct "
                                   "this table's result, with a reason", "round", closed=True)


def _clean_reason(reason: Any, what: str) -> str:
    why = _clean_text(reason, "reason", required=True, max_len=MAX_LEN["reason"])
    if len(why) < MIN_REASON:
        raise TournamentError(400, f"write the reason for the {what} (a few words at least)", "reason")
    return why


def override_result(db, tournament_id: Any, number: Any, table_no: Any, vps: Any, reason: Any, *,
                    by: str | None = None) -> dict:
    """The head judge accepts a table's VP that the table check refuses, with a written
    reason (kept with the row)."""
    t = get_tournament(db, tournament_id)
    table = _get_table(db, t["id"], number, table_no)
    clean = _clean_vps(vps, table["size"])
    why = _clean_reason(reason, "override")
    db[T_RESULTS].insert({"table_id": table["id"], "kind": "override", "vps": json.dumps(clean),
                          "withdrawn": "[]", "reason": why, "by": by, "created_at": now()})
    return _table_detail(db, t["id"], table)


def correct_result(db, tournament_id: Any, number: Any, table_no: Any, vps: Any, reason: Any, *,
                   withdrawn: Any = None, by: str | None = None) -> dict:
    """The head judge corrects the result of a table in a closed round: a new row of kind
    `correction` with the written reason, who and when. The numbers must pass the table
    check (400 with the reasons, each with its seat where one is at fault; numbers the
    check refuses are an override). The standings read the latest row, so they follow."""
    t = get_tournament(db, tournament_id)
    table = _get_table(db, t["id"], number, table_no)
    clean = _clean_vps(vps, table["size"])
    wd = _clean_withdrawn(withdrawn, table["size"])
    why = _clean_reason(reason, "correction")
    errors = check_table(clean, wd)
    if errors:
        raise TournamentError(400, "; ".join(e.message for e in errors), "vps", seat=errors[0].seat,
                              problems=[e.to_dict() for e in errors])
    with transaction(db):
        r = db[T_ROUNDS].get(table["round"]["id"])
        if r["status"] != "closed":
            raise TournamentError(409, f"round {r['number']} is open: enter the result instead", "round")
        db[T_RESULTS].insert({"table_id": table["id"], "kind": "correction", "vps": json.dumps(clean),
                              "withdrawn": json.dumps(wd), "reason": why, "by": by, "created_at": now()})
    return _table_detail(db, t["id"], table)


def _table_detail(db, tournament_id: int, table: dict) -> dict:
    detail = round_detail(db, tournament_id, table["round"]["number"])
    return next(x for x in detail["tables"] if x["number"] == table["number"])


def table_detail(db, tournament_id: Any, number: Any, table_no: Any) -> dict:
    t = get_tournament(db, tournament_id)
    table = _get_table(db, t["id"], number, table_no)
    out = _table_detail(db, t["id"], table)
    out["round"] = table["round"]["number"]
    out["round_status"] = table["round"]["status"]
    out["round_kind"] = table["round"]["kind"]
    out["history"] = result_history(db, t["id"], number, table_no)
    return out


def close_round(db, tournament_id: Any, number: Any) -> dict:
    """Close a round once every table is finished or overridden. VP that came from the
    recorder are written as `recorded` rows so the standings no longer depend on the game.
    The table states are read inside the closing transaction: a result entered meanwhile
    is either seen here or comes after the close, never superseded by a stale row."""
    t = get_tournament(db, tournament_id)
    with transaction(db):
        detail = round_detail(db, t["id"], number)
        if detail["status"] == "closed":
            raise TournamentError(409, f"round {detail['number']} is already closed")
        if detail["open_tables"]:
            states = {x["number"]: x["state"] for x in detail["tables"]}
            listing = ", ".join(f"table {n} ({states[n]})" for n in detail["open_tables"])
            raise TournamentError(409, f"round {detail['number']} still has open tables: {listing}",
                                  open_tables=detail["open_tables"])
        tables = _seats_of_round(db, detail["id"])
        by_number = {x["number"]: x for x in detail["tables"]}
        for tid, tb in tables.items():
            st = by_number[tb["number"]]
            if st["source"] == "recorder":
                db[T_RESULTS].insert({"table_id": tid, "kind": "recorded", "vps": json.dumps(st["vps"]),
                                      "withdrawn": json.dumps(st["withdrawn"]), "by": "recorder",
                                      "created_at": now()})
        db[T_ROUNDS].update(detail["id"], {"status": "closed", "closed_at": now()})
    return round_detail(db, t["id"], number)


# --- standings ----------------------------------------------------------------------------------

def _scored_rounds(db, tournament_id: int, kind: str = "prelim") -> list[list[list[tuple[int, float]]]]:
    """For every closed round of `kind`: each table's (player_id, vp) in seat order."""
    out = []
    for r in rounds(db, tournament_id):
        if r["kind"] != kind or r["status"] != "closed":
            continue
        tables = _seats_of_round(db, r["id"])
        latest = _latest_results(db, tables)
        round_out = []
        for tid, tb in tables.items():
            entry = latest.get(tid)
            if entry is None or len(entry["vps"]) != len(tb["players"]):
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


# --- the final ---------------------------------------------------------------------------------

def start_final(db, tournament_id: Any) -> dict:
    """Freeze the five qualifiers (best first) and open the seat choice (3.1.3)."""
    t = get_tournament(db, tournament_id)
    if not t["has_final"]:
        raise TournamentError(409, "this tournament is played without a final (3.1.6)")
    if t["finalists"]:
        raise TournamentError(409, "the final's qualifiers are already set")
    prelims = _prelim_rounds(db, t["id"])
    if not prelims:
        raise TournamentError(409, "no preliminary round has been played")
    if any(r["status"] == "open" for r in prelims):
        raise TournamentError(409, "close the last preliminary round first")
    s = standings(db, t["id"])
    if s.needs_toss:
        raise TournamentError(409, "ties in the top five need a toss first", needs_toss=s.needs_toss)
    if len(s.finalists) < 4:
        raise TournamentError(409, f"only {len(s.finalists)} players can qualify: a final needs 4 or 5")
    db[T_TOURNAMENTS].update(t["id"], {"finalists": json.dumps(s.finalists)})
    return final_state(db, t["id"])


def _final_choice(db, t: dict) -> final_mod.SeatChoice:
    positions: list[int] = []
    for row in db[T_FINAL].rows_where("tournament_id = ?", [t["id"]], order_by="id"):
        if row["kind"] == "reset":
            positions = []
        else:
            positions.append(row["position"])
    return final_mod.replay(t["finalists"] or [], positions)


def _final_round(db, tournament_id: int) -> dict | None:
    return next((r for r in rounds(db, tournament_id) if r["kind"] == "final"), None)


def _unseated_final(db, tournament_id: int) -> dict:
    """Inside a write's transaction: the tournament, whose final is set up and not yet seated."""
    t = get_tournament(db, tournament_id)
    if not t["finalists"]:
        raise TournamentError(409, "the final has not been set up: start it from the standings")
    if _final_round(db, t["id"]):
        raise TournamentError(409, "the final is already seated")
    return t


def place_final_card(db, tournament_id: Any, player_id: Any, position: Any, *, by: str | None = None) -> dict:
    """One finalist places their card at gap `position` of the row (0 = left end). The row
    is read and the card placed in one transaction: two taps at once cannot both place."""
    t = get_tournament(db, tournament_id)
    pos = _clean_int(position, "position", 0, 10)
    if pos is None:
        raise TournamentError(400, "position is required", "position")
    with transaction(db):
        t = _unseated_final(db, t["id"])
        pid = get_player(db, t["id"], player_id)["id"]
        choice = _final_choice(db, t)
        after = final_mod.place(choice, pid, pos)
        if after.problems:
            names = {p["id"]: p["name"] for p in players(db, t["id"])}
            msg = after.problems[0].message
            for k, v in names.items():
                msg = msg.replace(f"it is {k}'s", f"it is {v}'s")
            raise TournamentError(409, msg, "position")
        db[T_FINAL].insert({"tournament_id": t["id"], "kind": "place", "player_id": pid, "position": pos,
                            "by": by, "created_at": now()})
    return final_state(db, t["id"])


def reset_final_choices(db, tournament_id: Any, *, by: str | None = None) -> dict:
    t = get_tournament(db, tournament_id)
    with transaction(db):
        t = _unseated_final(db, t["id"])
        db[T_FINAL].insert({"tournament_id": t["id"], "kind": "reset", "by": by, "created_at": now()})
    return final_state(db, t["id"])


def seat_final(db, tournament_id: Any, *, seed: Any = None) -> dict:
    """Draw the first player at random and open the final as a table (a recorder game)."""
    t = get_tournament(db, tournament_id)
    seed = _seed(seed)
    with _unique("the final was opened meanwhile: reload the page"), transaction(db):
        t = _unseated_final(db, t["id"])
        choice = _final_choice(db, t)
        if not choice.done:
            raise TournamentError(409, "every finalist must place a card first")
        first = final_mod.draw_first_player(choice.row, seed)
        order = final_mod.seat_order(choice.row, first)
        by_id = {p["id"]: p for p in players(db, t["id"])}
        number = _last_round_number(db, t["id"]) + 1
        limit = t["final_time_limit_min"] or t["time_limit_min"]
        rid = db[T_ROUNDS].insert({"tournament_id": t["id"], "number": number, "kind": "final",
                                   "seed": seed, "status": "open", "sit_outs": "[]",
                                   "time_limit_min": limit, "started_at": now()}).last_pk
        _insert_table(db, t, rid, number, 1, order, by_id, limit, label=f"{t['name']} · final")
        db[T_TOURNAMENTS].update(t["id"], {"final_seed": seed})
    return final_state(db, t["id"])


def final_state(db, tournament_id: Any, final_round: dict | None = None) -> dict:
    """The final: qualifiers, the row as it forms, whose turn, the table and the winner.
    `final_round`: the final round's `round_detail` when the caller has it already."""
    t = get_tournament(db, tournament_id)
    names = {p["id"]: p["name"] for p in players(db, t["id"])}
    out: dict[str, Any] = {"has_final": t["has_final"], "qualifiers": [], "row": [], "next": None,
                           "done": False, "round": None, "table": None, "result": None}
    if not t["finalists"]:
        return out
    choice = _final_choice(db, t)
    out["qualifiers"] = [{"player_id": p, "name": names.get(p), "place": k}
                         for k, p in enumerate(t["finalists"], 1)]
    out["row"] = [{"player_id": p, "name": names.get(p)} for p in choice.row]
    nxt = choice.next_to_place
    out["next"] = {"player_id": nxt, "name": names.get(nxt),
                   "place": t["finalists"].index(nxt) + 1} if nxt is not None else None
    out["done"] = choice.done
    fr = _final_round(db, t["id"])
    if fr:
        detail = final_round if final_round is not None else round_detail(db, t["id"], fr["number"])
        table = detail["tables"][0]
        out["round"] = fr["number"]
        out["round_status"] = fr["status"]
        out["table"] = table
        out["first_player"] = table["seats"][0]["player_id"]
        if table["state"] in ("finished", "overridden"):
            vps = {s["player_id"]: s["vp"] for s in table["seats"]}
            res = final_mod.final_result(t["finalists"], vps)
            out["result"] = {"winner": res.winner, "winner_name": names.get(res.winner),
                             "places": res.places, "vps": res.vps,
                             "decided_by_rank": res.decided_by_rank}
    return out


def results(db, tournament_id: Any, computed: standings_mod.Standings | None = None) -> dict:
    """Final ranking of the event: the final's winner first, the other finalists tied 2nd,
    then everyone else in preliminary order (3.7.5); without a final, the preliminary
    standings (3.1.6). Includes rating points (Appendix A)."""
    t = get_tournament(db, tournament_id)
    s = computed if computed is not None else standings(db, t["id"])
    fs = final_state(db, t["id"])
    final_vps: dict[int, float] = {}
    winner = None
    finalists: list[int] = []
    if t["has_final"] and fs["result"]:
        winner = fs["result"]["winner"]
        finalists = list(t["finalists"])
        final_vps = fs["result"]["vps"]
    elif not t["has_final"] and _prelims_done(db, t):
        # 3.1.6: the preliminary standings are the result; the winner is known once the
        # first place is not shared (a toss may still order places below)
        ranked = [r for r in s.rows if r.rank]
        tied = {p for g in s.needs_toss for p in g}
        if ranked and ranked[0].player_id not in tied:
            winner = ranked[0].player_id
    count = len(players(db, t["id"]))
    rows = []
    for r in s.rows:
        finish = None
        place = r.rank
        if winner is not None and r.player_id == winner:
            finish, place = "winner", 1
        elif r.player_id in finalists:
            finish, place = "finalist", 2
        # the final's winner counts a game win (Appendix A: "GW or final round victory")
        gw = r.gw + (1 if finish == "winner" and t["has_final"] else 0)
        vp = r.vp + final_vps.get(r.player_id, 0)
        rp = rating_mod.event_rating(vp, gw, count, finish if t["has_final"] else None, t["level"])
        rows.append({**r.to_dict(), "place": place, "finish": finish, "final_vp": final_vps.get(r.player_id),
                     "total_vp": vp, "total_gw": gw, "rating": rp.to_dict()})
    if winner is not None:
        rows.sort(key=lambda x: {"winner": 0, "finalist": 1}.get(x["finish"], 2))  # stable
    return {"winner": winner, "finished": winner is not None, "rows": rows}


# --- summary for the dashboard -----------------------------------------------------------------------

def dashboard(db, tournament_id: Any) -> dict:
    t = get_tournament(db, tournament_id)
    everyone = players(db, t["id"])
    # the recorder's games are replayed for the open round only: a closed round's tables
    # all have their result rows; the final round's detail serves the final's state too
    rs = [round_detail(db, t["id"], r["number"], games=r["status"] != "closed") for r in rounds(db, t["id"])]
    prelims = [r for r in rs if r["kind"] == "prelim"]
    active = [p for p in everyone if not p["dropped"] and p["checked_in"]]
    n = len(active)
    sizes = seating_mod.table_sizes(n)
    plan = seating_mod.staggered_plan(n, t["rounds_planned"]) if seating_mod.needs_sit_outs(n) else None
    return {
        "tournament": t, "players": everyone, "rounds": rs, "active_count": n,
        "table_sizes": sizes, "staggered_plan": plan,
        "open_round": next((r for r in prelims if r["status"] == "open"), None),
        "prelims_done": len([r for r in prelims if r["status"] == "closed"]),
        "final": final_state(db, t["id"], next((r for r in rs if r["kind"] == "final"), None)),
    }


SEATING_COLUMNS = ("round", "table", "seat", "player_id", "name", "vekn")
STANDINGS_COLUMNS = ("place", "rank", "player_id", "name", "vekn", "gw", "vp", "tp", "rounds",
                     "status", "finish", "final_vp", "rating_points")


def seating_rows(db, tournament_id: Any, number: Any) -> list[dict]:
    """Flat seating of a round for export (`SEATING_COLUMNS`): round, table, seat, player
    id, name, VEKN."""
    detail = round_detail(db, tournament_id, number)
    rows = []
    for tb in detail["tables"]:
        for s in tb["seats"]:
            rows.append({"round": detail["number"], "table": tb["number"], "seat": s["seat"],
                         "player_id": s["player_id"], "name": s["name"], "vekn": s["vekn"] or ""})
    for p in detail["sit_out_players"]:
        rows.append({"round": detail["number"], "table": "", "seat": "sits out",
                     "player_id": p["player_id"], "name": p["name"], "vekn": ""})
    return rows


def standings_rows(db, tournament_id: Any) -> list[dict]:
    """Flat standings for export (`STANDINGS_COLUMNS`; after the final, the event's final
    ranking)."""
    res = results(db, tournament_id)
    out = []
    for r in res["rows"]:
        out.append({"place": r["place"] if r["place"] is not None else "", "rank": r["rank"] or "",
                    "player_id": r["player_id"], "name": r["name"], "vekn": r["vekn"] or "",
                    "gw": r["gw"], "vp": r["vp"], "tp": r["tp"], "rounds": r["rounds"],
                    "status": r["status"], "finish": r["finish"] or "",
                    "final_vp": "" if r["final_vp"] is None else r["final_vp"],
                    "rating_points": r["rating"]["total"]})
    return out
