"""The live journal: one append-only row per message of the live stream (`live_events`).

Every write the hall must hear of publishes here, from the one function that makes the
write (the tournament store's round and result writes, the penalty store, the judge calls,
the recorder's appends through `judgekit.live.feed`), inside the write's own transaction
where it has one: the message is stored if and only if the change is. The stream reads
the rows back by id, so a page that reconnects with `Last-Event-ID` gets exactly what it
missed, across a restart of the server too; the id is the stream's event id.

Pure domain code: no Flask. `publish` joins the caller's transaction.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any


from judgekit.live.messages import KINDS

T_EVENTS = "live_events"


@dataclass(frozen=True)
class Message:
    id: int
    tournament_id: int
    kind: str
    data: dict[str, Any]
    time: float  # epoch seconds, the server's


def publish(db, tournament_id: int, kind: str, data: dict[str, Any], *,
            subject: str | None = None, now: float | None = None) -> int:
    """Store one message; returns its id. `subject` ("game:12", "call:3") lets a writer
    find the last message it published about one thing (`last_about`)."""
    if kind not in KINDS:
        raise ValueError(f"unknown live message kind {kind!r}")
    at = time.time() if now is None else now
    cur = db.conn.execute(
        f"INSERT INTO {T_EVENTS} (tournament_id, kind, subject, data, time) VALUES (?, ?, ?, ?, ?)",
        [int(tournament_id), kind, subject, json.dumps(data, ensure_ascii=False, separators=(",", ":")), at])
    return int(cur.lastrowid)


def _message(row) -> Message:
    try:
        data = json.loads(row[3])
    except (TypeError, ValueError):
        data = {}
    return Message(int(row[0]), int(row[1]), row[2], data if isinstance(data, dict) else {}, float(row[4]))


def since(db, tournament_id: int | None, after: int, limit: int = 1000) -> list[Message]:
    """Messages with an id above `after`, oldest first: one tournament's, or every
    tournament's when `tournament_id` is None (the hub)."""
    if tournament_id is None:
        rows = db.conn.execute(
            f"SELECT id, tournament_id, kind, data, time FROM {T_EVENTS} WHERE id > ? ORDER BY id LIMIT ?",
            [after, limit])
    else:
        rows = db.conn.execute(
            f"SELECT id, tournament_id, kind, data, time FROM {T_EVENTS} "
            "WHERE tournament_id = ? AND id > ? ORDER BY id LIMIT ?", [tournament_id, after, limit])
    return [_message(r) for r in rows]


def count_since(db, tournament_id: int, after: int) -> int:
    row = db.conn.execute(f"SELECT COUNT(*) FROM {T_EVENTS} WHERE tournament_id = ? AND id > ?",
                          [tournament_id, after]).fetchone()
    return int(row[0])


def last_id(db) -> int:
    """The newest message's id (0 when there is none): a stream starts after it."""
    row = db.conn.execute(f"SELECT COALESCE(MAX(id), 0) FROM {T_EVENTS}").fetchone()
    return int(row[0])


def last_about(db, subject: str, kind: str) -> Message | None:
    """The newest message of `kind` about `subject`, or None."""
    row = db.conn.execute(
        f"SELECT id, tournament_id, kind, data, time FROM {T_EVENTS} WHERE subject = ? AND kind = ? "
        "ORDER BY id DESC LIMIT 1", [subject, kind]).fetchone()
    return _message(row) if row else None
