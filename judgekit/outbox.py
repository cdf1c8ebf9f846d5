"""The outbox: one row per "something changed" that the hall must hear of (`live_events`).

Every area writes here, from the one function that makes the change and inside that
change's own transaction where it has one, so the row is stored if and only if the change
is: the tournament store (a round seated or closed, a result), the penalties area, the
judge calls, and the recorder's appends (`judgekit.live.feed`, which adds the table's
clock). Nobody here knows who reads it: the live package (`judgekit.live.journal`, the hub,
the stream) reads the rows back by id, so a page that reconnects with `Last-Event-ID` gets
exactly what it missed, across a restart of the server too.

Bottom layer: imports no area of judgekit; no Flask. The table is created by the live
area's migrations (`judgekit/live/migrations.py`).
"""
from __future__ import annotations

import json
import time
from typing import Any

T_EVENTS = "live_events"

#: What can change, one name each (`judgekit.live.messages.VISIBLE` says who reads what of
#: each, and holds exactly these names).
KINDS = (
    "round.started", "round.closed",                   # a round is seated / every table done
    "table.result",                                    # a result entered, overridden, corrected
    "table.finished",                                  # the recorder: the game is over (or no longer)
    "clock.changed", "extension.recorded",             # a table's clock
    "call.opened", "call.claimed", "call.reassigned", "call.closed",   # judge calls
    "penalty.pending", "penalty.approved", "penalty.recorded",          # penalties
)


def publish(db, tournament_id: int, kind: str, data: dict[str, Any], *,
            subject: str | None = None, now: float | None = None) -> int:
    """Store one row in the caller's transaction; returns its id. `subject` ("game:12",
    "call:3") names what changed, so a writer can find the last row about one thing
    (`judgekit.live.journal.last_about`)."""
    if kind not in KINDS:
        raise ValueError(f"unknown outbox kind {kind!r}")
    at = time.time() if now is None else now
    cur = db.conn.execute(
        f"INSERT INTO {T_EVENTS} (tournament_id, kind, subject, data, time) VALUES (?, ?, ?, ?, ?)",
        [int(tournament_id), kind, subject, json.dumps(data, ensure_ascii=False, separators=(",", ":")), at])
    return int(cur.lastrowid)

