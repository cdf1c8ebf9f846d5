"""What the room display, the judges' floor view and the head judge's notifications show,
read from the stores (pure: no Flask).

`state(db, tid, audience)` is the hall as the room display draws it (the event, the round
being played and its clock, each table's end time and whether it still plays, the open
judge calls) with, for judges, the names, games and calls' reasons; the pages then follow
the stream's messages. `last_id` is read before anything else, so a page that subscribes
after it misses nothing (a message it already reflects is applied twice, to the same
effect). `notifications(db, tid)` is the head judge's list. The words in them (a call's
reason, a notification's text) are `Said` values: English, with their catalog id, for the
web layer to word in the reader's language (`errors.worded`).
"""
from __future__ import annotations

import time
from typing import Any

from judgekit.i18n import Message, Said
from judgekit.live import calls as calls_mod
from judgekit.live import journal, messages
from judgekit.timetext import to_epoch
from judgekit.tournament import store as tstore
from judgekit.tournament.penalties import extensions
from judgekit.tournament.penalties import store as pstore

PLAYING = ("in-progress",)


def _call(call: dict, audience: str) -> dict:
    out = {"call": call["id"], "round": call["round"], "table": call["table"], "opened_at": call["opened"],
           "status": call["status"]}
    if messages.rank(audience) >= messages.rank(messages.JUDGE):
        out.update(reason=call["reason"], reason_label=call["reason_label"], claimed_by=call["claimed_by"],
                   claimed_at=call["claimed"])
    return out


def _round(db, t: dict, audience: str) -> dict | None:
    clocks = extensions.round_clocks(db, t["id"])
    if clocks is None:
        return None
    r = tstore.get_round(db, t["id"], clocks["round"])
    started = to_epoch(r["started_at"])
    limit = r["time_limit_min"]
    judge = messages.rank(audience) >= messages.rank(messages.JUDGE)
    tables = []
    for c in clocks["tables"]:
        row = {"table": c["table"], "ends_at": c["ends_at"], "extended_min": c["extended_min"],
               "paused": c["paused"], "called": c["called"], "state": c["state"],
               "playing": c["state"] in PLAYING}
        if judge:
            row.update(game=c["game_id"], players=[{"id": i, "name": n} for i, n in zip(c["player_ids"], c["players"])],
                       over_cap=c["over_cap"], source=c["source"])
        tables.append(row)
    return {"round": r["number"], "kind": r["kind"], "status": r["status"], "started_at": started,
            "limit_min": limit, "ends_at": started + limit * 60 if started is not None and limit else None,
            "tables": tables}


def state(db, tournament_id: Any, audience: str, now: float | None = None) -> dict:
    """The hall for `audience` (`messages.AUDIENCES`)."""
    last = journal.last_id(db)
    t = tstore.get_tournament(db, tournament_id)
    out = {"tournament": t["id"], "event": t["name"], "audience": audience,
           "server_now": time.time() if now is None else now, "last_id": last,
           "round": _round(db, t, audience),
           "calls": [_call(c, audience) for c in calls_mod.open_calls(db, t["id"])]}
    return out


def notifications(db, tournament_id: Any, now: float | None = None) -> dict:
    """What waits for the head judge: penalties to approve, results entered as invalid,
    tables past their end time with no result. `{"items": [{"kind", "key", "text",
    "round", "table", "record", "since"}], "next_check"}`: `next_check` is the next end
    time of a table still playing (the page asks again then), None when there is none."""
    now = time.time() if now is None else now
    t = tstore.get_tournament(db, tournament_id)
    items: list[dict] = []
    for rec in pstore.pending(db, t["id"]):
        items.append({"kind": "penalty-pending", "key": f"penalty:{rec['id']}", "record": rec["id"],
                      "text": Said(Message("live.pending-penalty", "%(penalty)s for %(player)s waits for your "
                                           "approval (issued by %(judge)s).",
                                           penalty=rec.get("penalty") or Message("live.a-penalty", "A penalty"),
                                           player=rec.get("player_name") or Message("live.a-player", "a player"),
                                           judge=rec.get("judge"))),
                      "since": to_epoch(rec.get("time")), "round": rec.get("round"), "table": rec.get("table")})
    next_check = None
    clocks = extensions.round_clocks(db, t["id"])
    if clocks is not None and clocks["status"] == "open":
        for c in clocks["tables"]:
            where = {"round": clocks["round"], "table": c["table"]}
            if c["state"] == "invalid":
                items.append({"kind": "result-invalid", "key": f"invalid:{clocks['round']}:{c['table']}",
                              "text": Said(Message("live.result-invalid", "Table %(table)s: the result entered is not "
                                                   "possible — check it with the table.", table=c["table"])),
                              "since": None, **where})
            elif c["state"] in PLAYING and c["ends_at"] is not None and not c["paused"]:
                if c["ends_at"] <= now:
                    items.append({"kind": "table-overdue", "key": f"overdue:{clocks['round']}:{c['table']}",
                                  "text": Said(Message("live.table-overdue", "Table %(table)s is past its end time "
                                                       "with no result.", table=c["table"])),
                                  "since": c["ends_at"], **where})
                elif next_check is None or c["ends_at"] < next_check:
                    next_check = c["ends_at"]
    return {"items": items, "next_check": next_check, "server_now": now}
