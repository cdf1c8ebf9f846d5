"""Time extensions at tournament tables.

One place for the record: an extension is the recorder's `time.extend` event on the
table's game (minutes, reason, judge_minutes, the judge, server time, client id). An
extension entered on the recorder page and one entered from the tournament side are the
same kind of row in the same table; the tournament side only appends that event and reads
the game's clock back. The amounts and the cap come from `judgekit.recorder.clock`
(`suggest_extension`, `EXTENSION_CAP_MIN`, `over_cap`): nothing is copied here.

A table's end time: the game's clock when a judge has started it on the recorder
(`game.start`, `sync`, pauses), else the round's start + the round's time + the table's
extensions.

No Flask. Bad input returns `Refused` (from the penalty store), never raises.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

from judgekit.db import transaction
from judgekit.errors import parse_int
from judgekit.i18n import Message
from judgekit.recorder import clock as clockmod
from judgekit.recorder import store as recorder_store
from judgekit.tournament.store import base as tbase
from judgekit.tournament.store import tables as table_store
from judgekit.tournament.penalties.cleaning import Refused
from judgekit.tournament.penalties.cleaning import refused as _refused

MAX_MINUTES = clockmod.MAX_EXTENSION_MIN  # the recorder's time.extend takes the same
MAX_JUDGE_MINUTES = 600  # judge time at one table a suggestion is asked for (a round at most)
MAX_REASON = 300         # characters of an extension's reason (the form's maxlength reads it)


def suggestion(judge_minutes: Any) -> dict | Refused:
    """The extension for `judge_minutes` of judge time at a table (v2 §1.2.4); its `text`
    is a `Message` (the view words it for the reader)."""
    try:
        minutes = float(str(judge_minutes).replace(",", "."))
    except (TypeError, ValueError):
        return _refused(400, "judge_minutes", Message(
            "penalties.judge-minutes-number", "judge_minutes must be a number of minutes."))
    if not 0 <= minutes <= MAX_JUDGE_MINUTES or minutes != minutes:
        return _refused(400, "judge_minutes", Message(
            "penalties.judge-minutes-range", "judge_minutes must be between 0 and %(max)s.", max=MAX_JUDGE_MINUTES))
    low, high = clockmod.suggest_extension(minutes)
    if high == 0:
        text = Message("penalties.suggest-none", "Under about a minute of judge time: no extension.")
    elif low == high:
        text = Message("penalties.suggest-one", "%(minutes)s minutes of judge time: extend by %(low)s minutes.",
                       minutes=f"{minutes:g}", low=low)
    else:
        text = Message("penalties.suggest-range",
                       "%(minutes)s minutes of judge time: extend by %(low)s to %(high)s minutes.",
                       minutes=f"{minutes:g}", low=low, high=high)
    return {"judge_minutes": minutes, "low": low, "high": high, "text": text,
            "cap_min": clockmod.EXTENSION_CAP_MIN}


def _epoch(iso: str | None) -> float | None:
    return clockmod.to_epoch(iso) if iso else None


def iso(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, timezone.utc).isoformat(timespec="seconds")


def _table_clock(db, round_row: dict, table: dict, now: float) -> dict:
    limit = round_row.get("time_limit_min") or clockmod.DEFAULT_LIMIT_MIN
    out: dict[str, Any] = {"round": round_row["number"], "table": table["number"],
                           "game_id": table.get("game_id"), "limit_min": limit, "extended_min": 0,
                           "extensions": [], "cap_min": clockmod.EXTENSION_CAP_MIN,
                           "over_cap": False, "ends_at": None, "source": None, "paused": False,
                           "called": False, "remaining_s": None}
    clock = None
    if table.get("game_id") is not None:
        view = recorder_store.game_clock(db, table["game_id"], now=now)  # the clock only: no checks
        if view is not None:
            clock = view["clock"]
            out["extensions"] = [
                {"seq": e["seq"], "minutes": e.get("minutes"), "reason": e.get("reason", ""),
                 "judge": e.get("judge") or "anonymous", "judge_minutes": e.get("judge_minutes"),
                 "time": e.get("time"), "client_id": e.get("client_id")}
                for e in view["extensions"]]
    if clock is not None:
        out["extended_min"] = clock["extended_min"]
        out["over_cap"] = clock["over_cap"]
        out["paused"] = clock["paused"]
        out["called"] = clock["called"]
        if clock.get("started_at") is not None:
            out["limit_min"] = clock["limit_min"]
            out["ends_at"] = clock["ends_at"]
            out["remaining_s"] = clock.get("remaining_s")
            out["source"] = "game"
    if out["source"] is None and round_row.get("started_at"):
        start = _epoch(round_row["started_at"])
        if start is not None:
            out["ends_at"] = start + (limit + out["extended_min"]) * 60
            out["remaining_s"] = out["ends_at"] - now
            out["source"] = "round"
    out["ends_at_iso"] = iso(out["ends_at"])
    return out


def table_clock(db, tournament_id: int, round_no: int, table_no: int, now: float | None = None) -> dict | None:
    """One table's clock (as a table of `round_clocks`), None when there is no such table:
    what the hall is told when a table's clock changes (`judgekit.live.feed`)."""
    now = time.time() if now is None else now
    row = db.execute(
        f"select r.id, r.number, r.time_limit_min, r.started_at, t.number, t.game_id "
        f"from {tbase.T_ROUNDS} r join {tbase.T_TABLES} t on t.round_id = r.id "
        "where r.tournament_id = ? and r.number = ? and t.number = ?",
        [tournament_id, round_no, table_no]).fetchone()
    if row is None:
        return None
    round_row = {"id": row[0], "number": row[1], "time_limit_min": row[2], "started_at": row[3]}
    return _table_clock(db, round_row, {"number": row[4], "game_id": row[5]}, now)


def game_table_clock(db, game: dict, now: float | None = None) -> dict | None:
    """The clock of the tournament table that plays `game` (a recorder game row), as
    `round_clocks` gives each table, plus `round_started_at` (epoch, or None before the round
    starts): what the recorder page shows on a tournament's table, so the table judge and
    the organizer read one clock. None for a practice game, or when its round is gone."""
    if game.get("tournament_id") is None or game.get("round_no") is None:
        return None
    now = time.time() if now is None else now
    try:
        r = tbase.get_round(db, game["tournament_id"], game["round_no"])
    except tbase.TournamentError:
        return None
    out = _table_clock(db, r, {"number": game.get("table_no"), "game_id": game["id"]}, now)
    out["round_started_at"] = _epoch(r.get("started_at"))
    out["round_status"] = r.get("status")
    return out


def round_clocks(db, tournament_id: Any, number: Any = None, now: float | None = None) -> dict | None:
    """The clocks of a round's tables (default: the open preliminary or final round):
    `{"round", "status", "tables": [{table, game_id, limit_min, extended_min, extensions,
    over_cap, ends_at (epoch), ends_at_iso, source ("game" | "round"), remaining_s}]}`,
    or None when there is no such round."""
    now = time.time() if now is None else now
    t = tbase.get_tournament(db, tournament_id)
    rounds = tbase.rounds(db, t["id"])
    if number is None:
        chosen = next((r for r in reversed(rounds) if r["status"] == "open"), None)
    else:
        chosen = tbase.get_round(db, t["id"], number)
    if chosen is None:
        return None
    detail = table_store.round_detail(db, t["id"], chosen["number"])
    tables = [_table_clock(db, chosen, tb, now) for tb in detail["tables"]]
    for tb, d in zip(tables, detail["tables"]):
        tb["players"] = [s["name"] for s in d["seats"]]
        tb["player_ids"] = [s["player_id"] for s in d["seats"]]
        tb["state"] = d["state"]  # in-progress, finished, invalid, overridden (the room's "still playing")
    return {"round": chosen["number"], "kind": chosen["kind"], "status": chosen["status"],
            "tables": tables, "cap_min": clockmod.EXTENSION_CAP_MIN}


@dataclass
class Extended:
    clock: dict          # the table's clock after the extension
    event: dict          # the recorder event as stored
    duplicate: bool
    warning: Message | None  # past the cap (stored all the same, confirmed)


def extend(db, tournament_id: Any, number: Any, table_no: Any, data: dict, *, judge: str,
           now: float | None = None) -> Extended | Refused:
    """Record an extension at one table: appends `time.extend` to the table's game.

    `data`: minutes (whole, 1-60; default: the low end of the suggestion for
    judge_minutes), reason (required), judge_minutes (optional), client_id, confirm_over_cap
    (needed when the table's extensions would pass the per-round cap)."""
    if not isinstance(data, dict):
        return _refused(400, None, Message(
            "penalties.extension-object", "Send the extension as an object: minutes, reason, judge_minutes."))
    try:
        t = tbase.get_tournament(db, tournament_id)
        r = tbase.get_round(db, t["id"], number)
        detail = table_store.table_detail(db, t["id"], number, table_no)
    except tbase.TournamentError as exc:
        return _refused(exc.status, exc.field, exc.msg)
    if r["status"] != "open":
        return _refused(409, None, Message(
            "penalties.round-closed", "Round %(round)s is closed: its tables' time can no longer change.",
            round=r["number"]))
    if detail.get("game_id") is None:
        return _refused(409, None, Message(
            "penalties.no-game-for-extension", "This table has no recorded game to hold the extension."))
    judge_minutes = None
    if data.get("judge_minutes") not in (None, ""):
        s = suggestion(data.get("judge_minutes"))
        if isinstance(s, Refused):
            return s
        judge_minutes = s["judge_minutes"]
    minutes = data.get("minutes")
    if minutes in (None, ""):
        if judge_minutes is None:
            return _refused(400, "minutes", Message(
                "penalties.extension-minutes", "Give the minutes of the extension (or the judge time at "
                "the table, to use the suggested amount)."))
        minutes = clockmod.suggest_extension(judge_minutes)[0]
        if minutes == 0:
            return _refused(400, "minutes", Message(
                "penalties.extension-too-little", "Under about a minute of judge time gives no extension "
                "(v2 §1.2.4); give the minutes if there is another reason."))
    minutes = parse_int(minutes, 1, MAX_MINUTES)
    if minutes is None:
        return _refused(400, "minutes", Message(
            "penalties.extension-minutes-range", "minutes must be a whole number from 1 to %(max)s.", max=MAX_MINUTES))
    reason = data.get("reason")
    if reason is not None and not isinstance(reason, str):
        return _refused(400, "reason", Message("penalties.reason-text", "The reason must be text."))
    reason = (reason or "").strip()
    if not reason:
        return _refused(400, "reason", Message(
            "penalties.extension-why", "Say why (e.g. \"ruling on Direct Intervention, 4 minutes\")."))
    if len(reason) > MAX_REASON:
        return _refused(400, "reason", Message(
            "penalties.reason-too-long", "The reason is at most %(max)s characters.", max=MAX_REASON))
    client_id = data.get("client_id") or None
    if client_id is not None and (not isinstance(client_id, str) or len(client_id) > 100):
        return _refused(400, "client_id", Message("penalties.client-id", "client_id must be a short text."))
    now = time.time() if now is None else now
    event = {"type": "time.extend", "minutes": minutes, "reason": reason}
    if judge_minutes is not None:
        event["judge_minutes"] = judge_minutes
    if client_id:
        event["client_id"] = client_id
    # the cap is checked and the extension appended in one transaction: two extensions
    # posted at once cannot both pass the check on the same total
    with transaction(db):  # committed with the connection's level (FULL: judgekit.db)
        before = _table_clock(db, r, detail, now)
        total = before["extended_min"] + minutes
        warning = None
        retry = client_id is not None and any(e["client_id"] == client_id for e in before["extensions"])
        if clockmod.over_cap(total) and not retry:
            warning = Message("penalties.over-cap",
                              "Table %(table)s would have %(total)s minutes of extensions this round. %(cap)s",
                              table=detail["number"], total=total, cap=clockmod.CAP_SENTENCE)
            confirmed = data.get("confirm_over_cap") in (True, "1", "true", "on", "yes")
            if not confirmed:
                return _refused(409, "confirm_over_cap", warning, over_cap=True, total_min=total,
                                cap_min=clockmod.EXTENSION_CAP_MIN)
        res = recorder_store.append_events(db, detail["game_id"], event, judge=judge, now=now)
        if isinstance(res, recorder_store.StoreError):
            return _refused(res.status, res.field, res.why)  # refused before any write
    after = _table_clock(db, r, detail, now)
    return Extended(after, res.events[0], duplicate=res.new == 0, warning=warning)
