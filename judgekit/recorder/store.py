"""The recorder's tables (`games`, `events`) and the functions that read and write them.

Append-only: an event is never updated or deleted; a correction is a new `retract` or
`amend` event. Each event has a per-game `seq` (1, 2, ...) and an optional client-made
`client_id`, unique per game, so a retried request is stored once (same content: the
stored event is returned; different content under the same id: refused).

Checking is incremental: a per-process cache keeps each game's engine in step with the
database, so appending an event replays only that event (a retract or amend, or an engine
out of step with the database, replays the whole game). The database stays the only
truth: the cache is dropped whenever its last seq does not match.

Card facts: a caller that passes no card index gets the package's (`load_cards()`, loaded
once per process), so every caller sees the same findings and shares the cached engines.

Pure domain code: no Flask. Errors are returned as values (`StoreError`).
"""
from __future__ import annotations

import json
import threading
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, TypeVar

import sqlite_utils

from judgekit.db import synchronous, transaction
from judgekit.errors import MAX_INT
from judgekit.inputs import loads_stored
from judgekit.recorder import clock as clockmod
from judgekit.recorder import engine as enginemod
from judgekit.recorder.cards import load_cards
from judgekit.recorder.clock import now_iso
from judgekit.recorder.events import EventError, validate_amend, validate_batch
from judgekit.tournament.scoring import TABLE_SIZES

T = TypeVar("T")


def migrate(db: sqlite_utils.Database) -> None:
    """Create the recorder's tables and indexes if they are missing (idempotent)."""
    if "games" not in db.table_names():
        db["games"].create({
            "id": int, "label": str, "seats": str, "tournament_id": int, "round_no": int,
            "table_no": int, "time_limit_min": int, "created": str,
        }, pk="id", not_null={"seats", "created"})
    if "events" not in db.table_names():
        db["events"].create({
            "id": int, "game_id": int, "seq": int, "client_id": str, "type": str,
            "seat": int, "judge": str, "time": str, "data": str, "batch": int,
        }, pk="id", not_null={"game_id", "seq", "type", "time", "data"},
            foreign_keys=[("game_id", "games", "id")])
    if "batch" not in db["events"].columns_dict:
        # the entry an event came in with (see `append_events`); older rows: NULL, each its own
        db["events"].add_column("batch", int)
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS events_game_seq ON events (game_id, seq)")
    db.execute("CREATE UNIQUE INDEX IF NOT EXISTS events_game_client ON events (game_id, client_id)")
    db.execute("CREATE INDEX IF NOT EXISTS games_tournament ON games (tournament_id, round_no, table_no)")


@dataclass
class StoreError:
    """Why a write was refused: HTTP-like status, the field, the reason."""
    status: int
    field: str | None
    reason: str
    index: int | None = None
    suggestions: list[str] = field(default_factory=list)
    message: str | None = None      # for people at the table (see EventError.message)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.reason, "status": self.status}
        if self.field:
            out["field"] = self.field
        if self.index is not None:
            out["index"] = self.index
        if self.suggestions:
            out["suggestions"] = self.suggestions
        if self.message:
            out["message"] = self.message
        return out

    @classmethod
    def from_event_error(cls, err: EventError, status: int = 400) -> "StoreError":
        if err.suggestions or "unknown card" in err.reason or "unknown vampire" in err.reason:
            status = 422
        return cls(status, err.field, str(err) if err.index is not None else err.reason,
                   err.index, list(err.suggestions), err.message)


class GameError(ValueError):
    """Bad arguments to `create_game` (the field and the reason)."""

    def __init__(self, field: str, reason: str):
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


# --- games ----------------------------------------------------------------------------

def check_seats(seats: Any) -> list[str]:
    if not isinstance(seats, list):
        raise GameError("seats", "must be a list of player names in seat order")
    if len(seats) not in TABLE_SIZES:
        raise GameError("seats", f"a table has {' or '.join(map(str, TABLE_SIZES))} seats, not {len(seats)}")
    names = []
    for name in seats:
        if not isinstance(name, str) or not name.strip():
            raise GameError("seats", "each seat needs a player name")
        if len(name) > 80:
            raise GameError("seats", "a player name is at most 80 characters")
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
            raise GameError("seats", f"seats {first} and {i} have the same name, {name!r}: "
                                     "tell the players apart (e.g. add an initial)")
    return names


def check_whole(key: str, value: Any) -> int | None:
    """`value` if it is None or a whole number from 0 to MAX_INT (what SQLite can store);
    raises GameError otherwise."""
    if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                              or not 0 <= value <= MAX_INT):
        raise GameError(key, "must be a whole number")
    return value


def create_game(db, seats: list[str], *, tournament_id: int | None = None,
                round_no: int | None = None, table_no: int | None = None,
                time_limit_min: int | None = None, label: str | None = None,
                distinct_names: bool = False) -> int:
    """Create a game (one table) and return its id. Raises GameError on bad arguments.

    `distinct_names`: refuse two seats with the same name (`check_distinct`), as the
    recorder's form and API do; a tournament seats registered players, who are told apart
    by their records and may share a name."""
    names = check_seats(seats)
    if distinct_names:
        check_distinct(names)
    for key, value in (("tournament_id", tournament_id), ("round_no", round_no),
                       ("table_no", table_no), ("time_limit_min", time_limit_min)):
        check_whole(key, value)
    if time_limit_min is not None and not 1 <= time_limit_min <= 24 * 60:
        raise GameError("time_limit_min", "must be between 1 and 1440 minutes")
    if label is not None and (not isinstance(label, str) or len(label) > 200):
        raise GameError("label", "must be a string of at most 200 characters")
    row = {"label": label or "", "seats": json.dumps(names), "tournament_id": tournament_id,
           "round_no": round_no, "table_no": table_no, "time_limit_min": time_limit_min,
           "created": now_iso()}
    with transaction(db):
        return db["games"].insert(row).last_pk


def _game_row(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    out["seats"] = loads_stored(out["seats"])  # a lone surrogate stored before the edge checks
    return out


def get_game(db, game_id: int) -> dict[str, Any] | None:
    rows = list(db.query("SELECT * FROM games WHERE id = ?", [game_id]))
    return _game_row(rows[0]) if rows else None


def list_games(db, tournament_id: int | None = None, limit: int = 200) -> list[dict[str, Any]]:
    """The games of one tournament, or the practice games (no tournament) when
    `tournament_id` is None; newest first."""
    where, args = "WHERE g.tournament_id IS NULL", []
    if tournament_id is not None:
        where, args = "WHERE g.tournament_id = ?", [tournament_id]
    sql = (f"SELECT g.*, (SELECT COUNT(*) FROM events e WHERE e.game_id = g.id) AS event_count "
           f"FROM games g {where} ORDER BY g.id DESC LIMIT ?")
    return [_game_row(r) for r in db.query(sql, args + [limit])]


# --- events ---------------------------------------------------------------------------

def _event_from_row(row: dict[str, Any]) -> dict[str, Any]:
    event = loads_stored(row["data"])
    event["seq"] = row["seq"]
    event["time"] = row["time"]
    return event


def load_events(db, game_id: int, after_seq: int = 0,
                types: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """A game's events in seq order (after `after_seq`; only the given `types` if any)."""
    sql, args = "SELECT seq, time, data FROM events WHERE game_id = ? AND seq > ?", [game_id, after_seq]
    if types is not None:
        types = list(types)
        sql += f" AND type IN ({', '.join('?' * len(types))})"
        args += types
    rows = db.conn.execute(sql + " ORDER BY seq", args)
    loads = loads_stored
    out = []
    for seq, at, data in rows:
        event = loads(data)
        event["seq"] = seq
        event["time"] = at
        out.append(event)
    return out


def _content(event: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in event.items() if k not in ("seq", "time", "judge")},
                      sort_keys=True)


@dataclass
class Appended:
    events: list[dict[str, Any]]          # as stored (new or earlier duplicates), in order
    new: int                              # how many were newly stored
    findings: list[dict[str, Any]]        # findings of the newly stored events
    state: dict[str, Any]


def append_events(db, game_id: int, raw: Any, cards=None, judge: str | None = None,
                  durable: bool = True, now: float | None = None) -> Appended | StoreError:
    """Validate and append one event or a list (all or nothing); then check them.

    The events newly stored by one call are one **entry** (a quick-entry line, a button):
    they share a `batch`, the seq of the first of them, which the page's Undo retracts as
    a whole (`last_entry`).

    A `client_id` already stored for this game returns the stored event (idempotent); the
    same id with different content is refused (409). `judge`, when given (a signed-in
    judge), is recorded on every event instead of the one the client sent.
    """
    game = get_game(db, game_id)
    if game is None:
        return StoreError(404, None, f"there is no game {game_id}")
    cards = _card_index(cards)
    checked = validate_batch(raw, len(game["seats"]), cards)
    if isinstance(checked, EventError):
        return StoreError.from_event_error(checked)
    # what only the table can refuse (a redirect to a seat out of the game, a vote for a
    # vampire the seat's known board does not hold): `Engine.refusal`, before any write
    refused = _read_checked(db, game, cards, [], lambda eng: eng.refusal(checked))
    if refused is not None:
        return StoreError.from_event_error(refused, 422)
    if judge:
        for event in checked:
            event["judge"] = judge
    conn = db.conn
    # durable: the connection's own level (FULL, judgekit.db.SYNCHRONOUS); else WAL's NORMAL
    with nullcontext() if durable else synchronous(db, "NORMAL"):
        with transaction(db):
            last = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                                [game_id]).fetchone()[0]
            plan = _plan_batch(conn, game, checked, last, isinstance(raw, list), cards)
            if isinstance(plan, StoreError):
                return plan  # decided before the first INSERT: a refused batch writes nothing
            stored, new_events = plan
            batch = new_events[0]["seq"] if new_events else None  # one entry: one request
            for event in new_events:
                data = {k: v for k, v in event.items() if k not in ("seq", "time")}
                conn.execute(
                    "INSERT INTO events (game_id, seq, client_id, type, seat, judge, time, data, batch) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [game_id, event["seq"], event.get("client_id"), event["type"], event.get("seat"),
                     event.get("judge"), event["time"], json.dumps(data, ensure_ascii=False), batch])
    seqs = {e["seq"] for e in new_events}
    new_findings, state = _read_checked(db, game, cards, new_events, lambda eng: (
        [f.to_dict() for f in eng.findings if f.seq in seqs], eng.state(now)))
    by_seq: dict[int, list] = {}
    for f in new_findings:
        by_seq.setdefault(f["seq"], []).append(f)
    out = [dict(e, findings=by_seq.get(e["seq"], [])) for e in stored]
    return Appended(events=out, new=len(new_events), findings=new_findings, state=state)



def _plan_batch(conn, game: dict[str, Any], checked: list[dict[str, Any]], last: int, is_list: bool,
                cards) -> tuple[list[dict[str, Any]], list[dict[str, Any]]] | StoreError:
    """Decide every event of a batch before anything is written: (the events as answered,
    in order — earlier duplicates as stored —, the new ones numbered from `last` + 1), or
    the refusal of the whole batch. Nothing is written here, so a refusal leaves no trace
    even when the caller's transaction goes on and commits."""
    game_id = game["id"]
    stored: list[dict[str, Any]] = []
    new_events: list[dict[str, Any]] = []
    seen_ids: dict[str, dict[str, Any]] = {}
    for i, event in enumerate(checked):
        where = i if is_list else None
        if event["type"] in ("retract", "amend") and event["target"] > last:
            return StoreError(400, "target", f"there is no event {event['target']} in this game", where)
        if event["type"] == "amend":  # its fields are checked as part of the event they correct
            target = next((e for e in new_events if e["seq"] == event["target"]), None) \
                or _stored_event(conn, game_id, event["target"])
            fields = validate_amend(target, event["fields"], len(game["seats"]), cards)
            if isinstance(fields, EventError):
                fields.index = where
                return StoreError.from_event_error(fields)
            event = dict(event, fields=fields)
        cid = event.get("client_id")
        if cid is not None:
            if cid in seen_ids:
                if _content(seen_ids[cid]) != _content(event):
                    return StoreError(409, "client_id", f"client_id {cid!r} is used twice with different content", where)
                stored.append(seen_ids[cid])
                continue
            row = conn.execute("SELECT seq, time, data FROM events WHERE game_id = ? AND client_id = ?",
                               [game_id, cid]).fetchone()
            if row is not None:
                earlier = _event_from_row({"seq": row[0], "time": row[1], "data": row[2]})
                if _content(earlier) != _content(event):
                    return StoreError(409, "client_id",
                                      f"client_id {cid!r} was already stored (event {row[0]}) with different content",
                                      where)
                stored.append(dict(earlier, duplicate=True))
                continue
        last += 1
        event = dict(event, seq=last, time=now_iso())
        stored.append(event)
        new_events.append(event)
        if cid is not None:
            seen_ids[cid] = event
    return stored, new_events


def _stored_event(conn, game_id: int, seq: int) -> dict[str, Any]:
    row = conn.execute("SELECT seq, time, data FROM events WHERE game_id = ? AND seq = ?",
                       [game_id, seq]).fetchone()
    return _event_from_row({"seq": row[0], "time": row[1], "data": row[2]})

# --- checking (engine cache) ---------------------------------------------------------------

_lock = threading.Lock()
_engines: dict[tuple[str, int], tuple[enginemod.Engine, int, threading.Lock]] = {}
_MAX_CACHED = 512


def _db_key(db) -> str:
    try:
        row = db.conn.execute("PRAGMA database_list").fetchone()
        return row[2] or f"memory:{id(db.conn)}"
    except Exception:  # pragma: no cover
        return f"conn:{id(db.conn)}"


def _card_index(cards):
    """The caller's card index, else the package's (see the module's docstring)."""
    return cards if cards is not None else load_cards()


def _full_replay(db, game, cards) -> tuple[enginemod.Engine, int]:
    events = load_events(db, game["id"])
    eng = enginemod.Engine(game["seats"], cards=cards, time_limit_min=game.get("time_limit_min"))
    playable, _ = enginemod.effective_events(events)
    for event in playable:
        eng.feed(event)
    return eng, events[-1]["seq"] if events else 0


def _read_checked(db, game, cards, new_events: list[dict[str, Any]],
                  read: Callable[[enginemod.Engine], T]) -> T:
    """`read(engine)` on the game's engine, in step with the database (fed incrementally
    when it can be). `read` runs under the game's lock and must copy what it returns
    (`findings` as dicts, `state()`): once the lock is released, another request may feed
    the same engine."""
    key = (_db_key(db), game["id"])
    with _lock:
        entry = _engines.get(key) or (None, -1, threading.Lock())
        _engines.setdefault(key, entry)
    glock = entry[2]
    with glock:
        with _lock:
            eng, last, _ = _engines.get(key, entry)
        current = db.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                                  [game["id"]]).fetchone()[0]
        usable = eng is not None and eng.cards is cards  # else built from other card facts
        if usable and last == current:
            pass  # already in step (another request fed these events)
        elif usable and new_events and last == new_events[0]["seq"] - 1 \
                and current == new_events[-1]["seq"] \
                and all(e["type"] not in ("retract", "amend") for e in new_events):
            for event in new_events:
                eng.feed(event)
            last = current
        else:
            eng, last = _full_replay(db, game, cards)
        with _lock:
            if len(_engines) >= _MAX_CACHED and key not in _engines:
                _engines.pop(next(iter(_engines)))
            _engines[key] = (eng, last, glock)
        return read(eng)


def game_view(db, game_id: int, cards=None, now: float | None = None) -> dict[str, Any] | None:
    """{"game", "state", "events", "findings"} — the GET /api/games/<id> body."""
    game = get_game(db, game_id)
    if game is None:
        return None
    events = load_events(db, game_id)
    findings, state = _read_checked(db, game, _card_index(cards), [], lambda eng: (
        [f.to_dict() for f in eng.findings], eng.state(now)))
    _, retracted, amended_by = enginemod.corrections(events)
    by_number = {e["seq"]: e for e in events}
    by_seq: dict[int, list] = {}
    for f in findings:
        by_seq.setdefault(f["seq"], []).append(f)
    batches = dict(db.conn.execute("SELECT seq, batch FROM events WHERE game_id = ?", [game_id]))
    annotated = []
    for e in events:
        out = dict(e, retracted=e["seq"] in retracted, findings=by_seq.get(e["seq"], []),
                   batch=batches.get(e["seq"]) or e["seq"])
        if e["seq"] in amended_by:  # the stored event stays as it was; the correction beside it
            out["amended_by"] = amended_by[e["seq"]]
            fixed = {k: v for k, v in e.items() if k != "findings"}
            for amend in amended_by[e["seq"]]:
                fixed.update(by_number[amend].get("fields") or {})
            out["corrected"] = fixed
        annotated.append(out)
    return {"game": game, "state": state, "events": annotated, "findings": findings,
            "last_entry": last_entry(annotated)}


def last_entry(events: list[dict[str, Any]]) -> list[int]:
    """What one Undo takes back: the standing events (not retracted) of the last entry that
    is not itself a retract, in seq order; [] if there is none. `events` as `game_view`
    annotates them (`batch`, `retracted`). The page posts one retract per seq, in one
    request: all of them or none."""
    standing = [e for e in events if not e["retracted"] and e["type"] != "retract"]
    if not standing:
        return []
    batch = standing[-1]["batch"]
    return [e["seq"] for e in standing if e["batch"] == batch]


def game_clock(db, game_id: int, now: float | None = None) -> dict[str, Any] | None:
    """A game's round clock without the checks (no engine, no card facts; reads only the
    clock's events and the corrections): {"game", "clock" (as `state["clock"]` of
    `game_view`), "extensions" (the standing `time.extend` events, as amended)}, or None."""
    game = get_game(db, game_id)
    if game is None:
        return None
    events = load_events(db, game_id, types=clockmod.CLOCK_TYPES | {"retract", "amend"})
    playable, _ = enginemod.effective_events(events)
    clock = clockmod.clock_from_events(playable, game.get("time_limit_min"))
    return {"game": game, "clock": clock.to_dict(now),
            "extensions": [e for e in playable if e["type"] == "time.extend"]}


def replay_game(db, game_id: int, cards=None) -> enginemod.Replay | None:
    """A full replay from the database (no cache): what the bench times."""
    game = get_game(db, game_id)
    if game is None:
        return None
    return enginemod.replay(load_events(db, game_id), game["seats"], cards=_card_index(cards),
                            time_limit_min=game.get("time_limit_min"))


def game_outcome(db, game_id: int) -> dict[str, Any]:
    """The outcome the tournament scores: seats, finished, ordered outcome events.

    Events: {"type": "oust"|"withdraw"|"concede", "seat": n, "seq": s}, {"type": "time-out",
    "seq": s}, {"type": "draw", "seq": s} (intentional draw), in game order.
    """
    game = get_game(db, game_id)
    if game is None:
        raise LookupError(f"there is no game {game_id}")
    finished, events = _read_checked(db, game, _card_index(None), [], lambda eng: (
        bool(eng.finished), eng.outcome_events()))
    return {"seats": list(game["seats"]), "finished": finished, "events": events}


def set_seat_names(db, game_id: int, names: list[str]) -> None:
    """Rename a game's seats (the tournament swapped players before the table's result): the
    same number of seats, names checked as `create_game` checks them. Joins the caller's
    transaction (`judgekit.tournament.store.swap_seats` calls it inside its own), and drops
    the game's cached engine so that states and finding messages are replayed with the new
    names. Raises GameError for bad names, LookupError for an unknown game."""
    clean = check_seats(names)
    with transaction(db):
        game = get_game(db, game_id)
        if game is None:
            raise LookupError(f"there is no game {game_id}")
        if len(clean) != len(game["seats"]):
            raise GameError("seats", f"this game has {len(game['seats'])} seats, not {len(clean)}")
        db.conn.execute("UPDATE games SET seats = ? WHERE id = ?", [json.dumps(clean), game_id])
    key = (_db_key(db), game_id)
    with _lock:
        entry = _engines.get(key)
    if entry is not None:
        with entry[2]:  # the game's lock: no reader is feeding the old engine meanwhile
            with _lock:
                _engines[key] = (None, -1, entry[2])
