"""What a write to the recorder brings in, decided before anything is written: the
refusal value (`StoreError`), the checks of a new game's seats, and the plan of a batch of
events (which are new, which repeat a stored one by client id, which are refused, and a
double tap). Nothing here writes; `judgekit.recorder.store` writes what the plan says.

Pure domain code: no Flask.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from judgekit.errors import MAX_INT
from judgekit.i18n import Catalog, Message, as_message
from judgekit.inputs import loads_stored, text_problem
from judgekit.recorder import checked
from judgekit.recorder import clock as clockmod
from judgekit.recorder.clock import now_iso
from judgekit.recorder.events import UNKNOWN_NAME_CODES, EventError, refusal_words, validate_amend
from judgekit.game.scoring import TABLE_SIZES


@dataclass
class StoreError:
    """Why a write was refused: HTTP-like status, the field, the reason. The reason and the
    message for people are given as `Message`s (kept in `why` and `said`); `reason` and
    `message` hold their English text."""
    status: int
    field: str | None
    reason: str
    index: int | None = None
    suggestions: list[str] = field(default_factory=list)
    message: str | None = None      # for people at the table (see EventError.message)
    extra: dict[str, Any] = field(default_factory=dict)   # more keys for the answer
    why: Message = field(init=False, repr=False, compare=False)
    said: Message | None = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.why, self.reason, self.said, self.message = refusal_words(self.reason, self.message)

    def to_dict(self, catalog: Catalog | None = None) -> dict[str, Any]:
        """The answer's JSON body, its words in `catalog`'s language (English without one)."""
        out: dict[str, Any] = {"error": self.why.render(catalog), "status": self.status}
        if self.field:
            out["field"] = self.field
        if self.index is not None:
            out["index"] = self.index
        if self.suggestions:
            out["suggestions"] = self.suggestions
        if self.said is not None:
            out["message"] = self.said.render(catalog)
        out.update(self.extra)
        return out

    @classmethod
    def from_event_error(cls, err: EventError, status: int = 400) -> "StoreError":
        if err.suggestions or err.why.code in UNKNOWN_NAME_CODES:
            status = 422
        return cls(status, err.field, err.text() if err.index is not None else err.why,
                   err.index, list(err.suggestions), err.said)


class GameError(ValueError):
    """Bad arguments to `create_game` (the field and the reason: a `Message`, kept in
    `why`; `reason` is its English text)."""

    def __init__(self, field: str, reason: str | Message):
        self.why = as_message(reason)
        self.reason = self.why.render()
        super().__init__(f"{field}: {self.reason}")
        self.field = field


# --- a new game's seats ------------------------------------------------------------

def _or(items) -> Message | str:
    """"4 or 5": the " or " a message of its own."""
    if len(items) == 1:
        return str(items[0])
    return Message("recorder.or", "%(first)s or %(rest)s", first=items[0], rest=_or(items[1:]))


def check_seats(seats: Any) -> list[str]:
    if not isinstance(seats, list):
        raise GameError("seats", Message("recorder.seats-not-list", "must be a list of player names in seat order"))
    if len(seats) not in TABLE_SIZES:
        raise GameError("seats", Message("recorder.seats-count", "a table has %(sizes)s seats, not %(n)s",
                                         sizes=_or(TABLE_SIZES), n=len(seats)))
    names = []
    for name in seats:
        if not isinstance(name, str) or not name.strip():
            raise GameError("seats", Message("recorder.seat-needs-name", "each seat needs a player name"))
        if text_problem(name):
            raise GameError("seats", Message("recorder.seat-name-problem", "a player name %(problem)s",
                                             problem=text_problem(name)))
        if len(name) > 80:
            raise GameError("seats", Message("recorder.seat-name-too-long", "a player name is at most %(max)s characters",
                                             max=80))
        names.append(" ".join(name.split()))
    return names


def check_distinct(names: list[str]) -> list[str]:
    """`names` (as `check_seats` returns them) if no two are the same (ignoring case);
    raises GameError("seats") naming the two seats otherwise. The recorder's own forms and
    API require it: a judge must tell the seats apart in the log and the findings."""
    seen: dict[str, int] = {}
    for i, name in enumerate(names, 1):
        first = seen.setdefault(name.casefold(), i)
        if first != i:
            raise GameError("seats", Message("recorder.seats-same-name",
                                             "seats %(first)s and %(second)s have the same name, %(name)s: "
                                             "tell the players apart (e.g. add an initial)",
                                             first=first, second=i, name=repr(name)))
    return names


def check_whole(key: str, value: Any) -> int | None:
    """`value` if it is None or a whole number from 0 to MAX_INT (what SQLite can store);
    raises GameError otherwise."""
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                              or not 0 <= value <= MAX_INT):
        raise GameError(key, Message("recorder.field-not-whole", "must be a whole number"))
    return value


# --- a batch of events ---------------------------------------------------------------

def event_from_row(row: dict[str, Any]) -> dict[str, Any]:
    event = loads_stored(row["data"])
    event["seq"] = row["seq"]
    event["time"] = row["time"]
    return event


def _content(event: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in event.items() if k not in ("seq", "time", "judge")},
                      sort_keys=True)


def _tap(event: dict[str, Any]) -> str:
    """What two taps of one button share (for the double-tap check)."""
    return json.dumps({k: v for k, v in event.items()
                       if k not in ("seq", "time", "judge", "client_id", "device_time")}, sort_keys=True)


def field_of(path: str) -> tuple[int | None, str]:
    """(event index, field) named by a path into the request: "[1].judge" -> (1, "judge"),
    "text" -> (None, "text"), "[0].fields.text" -> (0, "fields")."""
    index = None
    if path.startswith("["):
        head, _, path = path[1:].partition("]")
        index = int(head)
        path = path.lstrip(".")
    return index, (path.split(".", 1)[0].split("[", 1)[0] or "event")


def plan_batch(conn, game: dict[str, Any], events: list[dict[str, Any]], last: int, is_list: bool,
                cards) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | StoreError:
    """Decide every event of a batch before anything is written: (the events as answered,
    in order — earlier duplicates as stored —, the new ones numbered from `last` + 1), or
    the refusal of the whole batch. Nothing is written here, so a refusal leaves no trace
    even when the caller's transaction goes on and commits."""
    game_id = game["id"]
    stored: list[dict[str, Any]] = []
    new_events: list[dict[str, Any]] = []
    seen_ids: dict[str, dict[str, Any]] = {}
    fixes: checked.Corrections | None = None
    for i, event in enumerate(events):
        where = i if is_list else None
        cid = event.get("client_id")
        row = None if cid is None or cid in seen_ids else conn.execute(
            "SELECT seq, time, data FROM events WHERE game_id = ? AND client_id = ?", [game_id, cid]).fetchone()
        if event["type"] in ("retract", "amend"):
            if event["target"] > last:
                return StoreError(400, "target", Message("recorder.no-such-event", "there is no event %(seq)s in this game",
                                                         seq=event["target"]), where)
            fixes = fixes or checked.load_corrections(conn, game_id)
            gone = fixes.retracted | {e["target"] for e in new_events if e["type"] == "retract"}
            # a correction sent again (its client id stored: a lost answer) is judged by its id below
            if row is None and event["target"] in gone:
                why = Message("recorder.retract-retracted", "event %(seq)s is already retracted: nothing to "
                              "retract (record it again instead)", seq=event["target"]) \
                    if event["type"] == "retract" else \
                    Message("recorder.amend-retracted", "event %(seq)s is already retracted: nothing to "
                            "amend (record it again instead)", seq=event["target"])
                return StoreError(409, "target", why, where,
                                  message=Message("recorder.already-taken-back", "#%(seq)s was already taken back.",
                                                  seq=event["target"]))
        if event["type"] == "amend":  # its fields are checked as part of the event they correct
            target = next((e for e in new_events if e["seq"] == event["target"]), None) \
                or _stored_event(conn, game_id, event["target"])
            fields = validate_amend(target, event["fields"], len(game["seats"]), cards)
            if isinstance(fields, EventError):
                fields.index = where
                return StoreError.from_event_error(fields)
            event = dict(event, fields=fields)
        if cid is not None:
            if cid in seen_ids:
                if _content(seen_ids[cid]) != _content(event):
                    return StoreError(409, "client_id", Message("recorder.client-id-twice",
                                                                "client_id %(id)s is used twice with different content",
                                                                id=repr(cid)), where)
                stored.append(seen_ids[cid])
                continue
            if row is not None:
                earlier = event_from_row({"seq": row[0], "time": row[1], "data": row[2]})
                if _content(earlier) != _content(event):
                    return StoreError(409, "client_id",
                                      Message("recorder.client-id-stored",
                                              "client_id %(id)s was already stored (event %(seq)s) with different content",
                                              id=repr(cid), seq=row[0]),
                                      where)
                stored.append(dict(earlier, duplicate=True))
                continue
        last += 1
        event = dict(event, seq=last, time=now_iso())
        stored.append(event)
        new_events.append(event)
        if cid is not None:
            seen_ids[cid] = event
    if new_events and len(new_events) == len(stored):
        twice = _double_tap(conn, game_id, new_events)
        if twice:
            return StoreError(409, "events", Message("recorder.double-tap",
                                                     "the same entry as events %(seqs)s, made within %(s)s s: "
                                                     "taken as a double tap, not stored again",
                                                     seqs=", ".join(map(str, twice)), s=f"{DOUBLE_TAP_S:g}"),
                              message=Message("recorder.double-tap-words", "Already recorded (tapped twice)."),
                              extra={"double_tap": True, "duplicate_of": twice})
    return stored, new_events


def _double_tap(conn, game_id: int, new_events: list[dict[str, Any]]) -> list[int]:
    """The seqs of the game's last entry if `new_events` repeat it, tapped on a device
    within DOUBLE_TAP_S of it (both with client ids and device times: what the recorder
    page sends); else []."""
    if not all(e.get("client_id") and e.get("device_time") for e in new_events):
        return []
    row = conn.execute("SELECT batch, seq FROM events WHERE game_id = ? ORDER BY seq DESC LIMIT 1",
                       [game_id]).fetchone()
    if row is None:
        return []
    rows = conn.execute("SELECT seq, time, data FROM events WHERE game_id = ? AND seq >= ? ORDER BY seq",
                        [game_id, row[0] or row[1]]).fetchall()
    earlier = [event_from_row({"seq": r[0], "time": r[1], "data": r[2]}) for r in rows]
    if len(earlier) != len(new_events) or any(_tap(a) != _tap(b) for a, b in zip(earlier, new_events)):
        return []
    then, now = clockmod.to_epoch(earlier[-1].get("device_time")), clockmod.to_epoch(new_events[-1]["device_time"])
    if then is None or now is None or not 0 <= now - then < DOUBLE_TAP_S:
        return []
    return [e["seq"] for e in earlier]


DOUBLE_TAP_S = 1.5


def _stored_event(conn, game_id: int, seq: int) -> dict[str, Any]:
    row = conn.execute("SELECT seq, time, data FROM events WHERE game_id = ? AND seq = ?",
                       [game_id, seq]).fetchone()
    return event_from_row({"seq": row[0], "time": row[1], "data": row[2]})
