"""Transcripts: a game as a JSON Lines file, one event per line (`judgekit check FILE`).

Blank lines and lines starting with `#` are skipped. The first record may describe the
game: `{"type": "game", "seats": ["Ann", "Ben", ...], "time_limit_min": 120}`; without it
the table has five seats (or the number given to `check_transcript`). Every other line is
an event in the API's format; `seq` is the line's order among the events.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable

from judgekit.recorder import engine
from judgekit.recorder.events import EventError, validate_event
from judgekit.recorder.store import GameError, check_seats


@dataclass
class TranscriptError:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


def check_transcript(lines: Iterable[str], cards=None, seats: int = 5) -> list[dict[str, Any]] | TranscriptError:
    """The findings of a transcript, or the first malformed line."""
    names: list[str] = [f"seat {i}" for i in range(1, seats + 1)]
    limit = None
    events: list[dict[str, Any]] = []
    first = True
    for number, raw in enumerate(lines, 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        try:
            record = json.loads(text)
        except json.JSONDecodeError as exc:
            return TranscriptError(number, f"not valid JSON ({exc.msg} at column {exc.colno})")
        if first and isinstance(record, dict) and record.get("type") == "game":
            first = False
            try:
                names = check_seats(record.get("seats"))
            except GameError as exc:
                return TranscriptError(number, f"{exc.field}: {exc.reason}")
            limit = record.get("time_limit_min")
            if limit is not None and (not isinstance(limit, int) or isinstance(limit, bool) or limit < 1):
                return TranscriptError(number, "time_limit_min: must be a whole number of minutes")
            continue
        first = False
        result = validate_event(record, len(names), cards)
        if isinstance(result, EventError):
            return TranscriptError(number, str(result))
        result["seq"] = len(events) + 1
        result.setdefault("time", record.get("time"))
        events.append(result)
    return engine.replay(events, names, cards=cards, time_limit_min=limit).findings
