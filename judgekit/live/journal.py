"""The live journal: the live stream's messages read back from the outbox (`live_events`).

Every write the hall must hear of writes one row to the outbox (`judgekit.outbox.publish`,
the bottom layer every area uses), inside the write's own transaction: the message is
stored if and only if the change is. This module reads the rows back by id, so a page that
reconnects with `Last-Event-ID` gets exactly what it missed, across a restart of the server
too; the id is the stream's event id.

Pure domain code: no Flask.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from judgekit.outbox import T_EVENTS


@dataclass(frozen=True)
class Message:
    id: int
    tournament_id: int
    kind: str
    data: dict[str, Any]
    time: float  # epoch seconds, the server's


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
