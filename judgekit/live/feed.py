"""What the recorder's appends tell the hall: a table's clock changed (an extension, a
pause, the time call, an undo of one), or its game ended (or, after an undo, no longer
has). Registered as a listener of `judgekit.recorder.store` (`install`); the recorder
does not know of the hall. The table's end time comes from the one place it is worked
out (`judgekit.tournament.penalties.extensions`), so the room shows what the clocks page
shows.

Pure domain code: no Flask.
"""
from __future__ import annotations

import threading
from typing import Any

from judgekit import outbox
from judgekit.live import journal
from judgekit.recorder import clock as clockmod
from judgekit.recorder import checked
from judgekit.recorder import store as recorder_store
from judgekit.tournament.penalties import extensions

CORRECTIONS = ("retract", "amend")
_finished: dict[tuple[str, int], bool] = {}   # (database, game) -> what the hall was last told
_lock = threading.Lock()


def install() -> None:
    """Listen to the recorder's appends (once per process)."""
    if on_append not in recorder_store.APPEND_LISTENERS:
        recorder_store.APPEND_LISTENERS.append(on_append)


def _touches_clock(db, game_id: int, events: list[dict[str, Any]]) -> bool:
    if any(e["type"] in clockmod.CLOCK_TYPES for e in events):
        return True
    targets = [e.get("target") for e in events if e["type"] in CORRECTIONS and e.get("target")]
    if not targets:
        return False
    marks = ",".join("?" * len(targets))
    row = db.conn.execute(f"SELECT COUNT(*) FROM events WHERE game_id = ? AND seq IN ({marks}) AND type IN "
                          f"({','.join('?' * len(clockmod.CLOCK_TYPES))})",
                          [game_id, *targets, *sorted(clockmod.CLOCK_TYPES)]).fetchone()
    return bool(row[0])


def _clock_fields(clock: dict) -> dict[str, Any]:
    return {"ends_at": clock["ends_at"], "extended_min": clock["extended_min"],
            "paused": clock["paused"], "called": clock["called"]}


def on_append(db, game: dict[str, Any], new_events: list[dict[str, Any]], state: dict[str, Any]) -> None:
    tid, round_no, table_no = game.get("tournament_id"), game.get("round_no"), game.get("table_no")
    if tid is None or round_no is None or table_no is None:
        return
    base = {"round": round_no, "table": table_no, "game": game["id"]}
    if _touches_clock(db, game["id"], new_events):
        clock = extensions.table_clock(db, tid, round_no, table_no)
        if clock is not None:
            extends = [e for e in new_events if e["type"] == "time.extend"]
            if extends:
                for e in extends:
                    outbox.publish(db, tid, "extension.recorded", {
                        **base, **_clock_fields(clock), "minutes": e.get("minutes"), "reason": e.get("reason"),
                        "judge": e.get("judge"), "judge_minutes": e.get("judge_minutes")},
                        subject=f"game:{game['id']}")
            else:
                outbox.publish(db, tid, "clock.changed", {**base, **_clock_fields(clock)},
                                subject=f"game:{game['id']}")
    finished = bool(state.get("finished"))
    key = (checked.db_key(db), game["id"])
    with _lock:
        known = _finished.get(key)
    if known is None:
        last = journal.last_about(db, f"game:{game['id']}", "table.finished")
        known = bool(last and last.data.get("finished"))
    if finished != known:
        outbox.publish(db, tid, "table.finished", {**base, "finished": finished}, subject=f"game:{game['id']}")
    with _lock:
        if len(_finished) > 4096:
            _finished.clear()
        _finished[key] = finished
