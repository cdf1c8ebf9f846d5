"""The engines that check games, kept in step with the database at a bounded cost.

The database's events are the only truth; everything here is derived from them and can be
thrown away:

- **The cache** holds the engine of recently used games (`MAX_ENGINES` at most, least
  recently used dropped first; a game idle for `IDLE_S` is dropped, a finished one after
  `FINISHED_IDLE_S`). Each game has a lock (`game_lock`): whoever feeds or reads a game's
  engine holds it.
- **Snapshots**: every `SNAPSHOT_EVERY` events the engine is saved (pickled, without the
  card index) in `engine_snapshots`, the newest `SNAPSHOTS_KEPT` per game. A game missing
  from the cache (a restart, an eviction) and a correction (`retract`, `amend`) are
  replayed from the newest snapshot before the first event they change, never from the
  first event of a long game again. A snapshot carries `derived_version()`: a new version
  of the recorder's code or of the card facts ignores the old ones.
- **Corrections** of the whole game (which events are retracted, which amended and how)
  come from the retract and amend events alone (`load_corrections`), so a partial replay
  does not read the whole game.

Pure domain code: no Flask.
"""
from __future__ import annotations

import hashlib
import json
import pickle
import threading
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from judgekit.inputs import loads_stored
from judgekit.recorder import engine as enginemod

MAX_ENGINES = 96            # engines kept in memory (60 busy tables and some slack)
IDLE_S = 15 * 60            # a game nobody touched for this long leaves the cache
FINISHED_IDLE_S = 60        # ... a finished game, after this long
SNAPSHOT_EVERY = 100        # events between two snapshots of a game's engine
SNAPSHOTS_KEPT = 3          # per game: a correction further back replays from the start
CORRECTIONS = ("retract", "amend")


# --- the version of derived data ----------------------------------------------------------

_versions: dict[int, tuple[Any, str]] = {}   # id(cards) -> (cards, version)
_source_hash: list[str] = []


def _sources() -> str:
    """A hash of the recorder's code (every module of the package but the web views):
    findings, summaries and snapshots made by other code are not reused."""
    if not _source_hash:
        h = hashlib.sha256()
        root = Path(__file__).resolve().parent
        for path in sorted(root.rglob("*.py")):
            if path.name != "views.py":
                h.update(path.relative_to(root).as_posix().encode())
                h.update(path.read_bytes())
        _source_hash.append(h.hexdigest())
    return _source_hash[0]


def derived_version(cards) -> str:
    """The version of everything derived from a game's events with this card index: the
    recorder's code and the card facts (their source and counts)."""
    key = id(cards)
    kept = _versions.get(key)
    version = kept[1] if kept is not None and kept[0] is cards else None
    if version is None:
        h = hashlib.sha256(_sources().encode())
        if cards is not None:
            h.update(json.dumps(getattr(cards, "source", {}), sort_keys=True, default=str).encode())
            h.update(f"{len(getattr(cards, '_crypt', ()))}/{len(getattr(cards, '_library', ()))}".encode())
        version = h.hexdigest()[:16]
        _versions[key] = (cards, version)   # the index itself: its id is not reused while kept
    return version


# --- the cache -------------------------------------------------------------------------------

@dataclass
class Entry:
    engine: enginemod.Engine
    last: int                  # the game's last seq the engine is in step with
    cards: Any
    seats: tuple[str, ...]
    snapshot_seq: int = 0      # the newest snapshot known for the game
    used: float = field(default_factory=time.monotonic)
    lines_ok: bool = False     # the game's log lines are of this version (see lines.py)


_lock = threading.Lock()
_entries: "OrderedDict[tuple[str, int], Entry]" = OrderedDict()
_finished: set[tuple[str, int]] = set()   # keys of cached games that have ended
_locks: "weakref.WeakValueDictionary[tuple[str, int], Any]" = weakref.WeakValueDictionary()


def db_key(db) -> str:
    """Which database `db` is (its file), so that games of two databases never share an
    engine; remembered on the connection object."""
    key = getattr(db, "_judgekit_db_key", None)
    if key is None:
        try:
            row = db.conn.execute("PRAGMA database_list").fetchone()
            key = row[2] or f"memory:{id(db.conn)}"
        except Exception:  # pragma: no cover
            key = f"conn:{id(db.conn)}"
        try:
            db._judgekit_db_key = key
        except AttributeError:  # pragma: no cover
            pass
    return key


def game_lock(key: tuple[str, int]):
    """The lock of one game (the same object for as long as anyone holds or waits on it)."""
    with _lock:
        lock = _locks.get(key)
        if lock is None:
            lock = threading.Lock()
            _locks[key] = lock
        return lock


def cached(key: tuple[str, int], cards, seats) -> Entry | None:
    """The game's cached engine if it was built from these card facts and seat names."""
    with _lock:
        entry = _entries.get(key)
        if entry is None:
            return None
        if entry.cards is not cards or entry.seats != tuple(seats):
            del _entries[key]
            return None
        entry.used = time.monotonic()
        _entries.move_to_end(key)
        return entry


def keep(key: tuple[str, int], entry: Entry) -> None:
    """Put (or refresh) a game's engine in the cache; drop idle, finished and the least
    recently used games beyond the limit.

    Every entry and read calls it, so it does not look at every cached game: the cache is
    in order of last use (`move_to_end`), so the idle games are at its front, and the
    finished games are listed in `_finished` (a game's end is seen when it is kept)."""
    now = time.monotonic()
    entry.used = now
    with _lock:
        _entries[key] = entry
        _entries.move_to_end(key)
        if entry.engine.finished:
            _finished.add(key)
        else:
            _finished.discard(key)
        for k in list(_finished):
            e = _entries.get(k)
            if e is None:
                _finished.discard(k)
            elif k != key and now - e.used > FINISHED_IDLE_S:
                del _entries[k]
                _finished.discard(k)
        while _entries:
            k, e = next(iter(_entries.items()))
            if k == key or not (len(_entries) > MAX_ENGINES or now - e.used > IDLE_S):
                break
            del _entries[k]
            _finished.discard(k)


def forget(key: tuple[str, int]) -> None:
    with _lock:
        _entries.pop(key, None)


def cached_count() -> int:
    with _lock:
        return len(_entries)


def clear() -> None:
    with _lock:
        _entries.clear()
        _finished.clear()


# --- snapshots -------------------------------------------------------------------------------

def freeze(engine: enginemod.Engine) -> bytes:
    """The engine as bytes, without its card index and card cache (shared, reattached by
    `thaw`). Call it while holding the game's lock."""
    cards, cache = engine.cards, engine._card_cache
    engine.cards, engine._card_cache = None, {}
    try:
        return pickle.dumps(engine, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        engine.cards, engine._card_cache = cards, cache


def thaw(data: bytes, cards) -> enginemod.Engine:
    engine = pickle.loads(data)  # our own database's bytes, written by `freeze`
    engine.cards = cards
    engine._card_cache = {}
    return engine


def latest_snapshot(conn, game_id: int, version: str, below: int) -> tuple[int, bytes] | None:
    """(seq, bytes) of the newest snapshot of this version taken before event `below`."""
    return conn.execute("SELECT seq, data FROM engine_snapshots WHERE game_id = ? AND version = ? "
                        "AND seq < ? ORDER BY seq DESC LIMIT 1", [game_id, version, below]).fetchone()


def drop_snapshots(conn, game_id: int, from_seq: int = 0) -> None:
    """Forget the snapshots at or after `from_seq` (a correction changed what they hold).
    Run it in the transaction that stores the correction."""
    conn.execute("DELETE FROM engine_snapshots WHERE game_id = ? AND seq >= ?", [game_id, from_seq])


def save_snapshot(db, game_id: int, entry: Entry, version: str) -> bool:
    """Save the engine of `entry` if it is still in step with the game's last event (a
    correction stored meanwhile would make it wrong); keep the newest few. Derived data:
    committed at the connection's usual (not fsync'd) level."""
    conn = db.conn
    if conn.in_transaction:
        return False
    try:
        data = freeze(entry.engine)
    except Exception:  # an engine that cannot be pickled is checked without snapshots
        return False
    conn.execute("BEGIN IMMEDIATE")
    try:
        last = conn.execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                            [game_id]).fetchone()[0]
        if last != entry.last:
            conn.execute("ROLLBACK")
            return False
        conn.execute("INSERT OR REPLACE INTO engine_snapshots (game_id, seq, version, data) "
                     "VALUES (?, ?, ?, ?)", [game_id, entry.last, version, data])
        conn.execute("DELETE FROM engine_snapshots WHERE game_id = ? AND seq NOT IN (SELECT seq FROM "
                     "engine_snapshots WHERE game_id = ? ORDER BY seq DESC LIMIT ?)",
                     [game_id, game_id, SNAPSHOTS_KEPT])
        conn.execute("COMMIT")
    except Exception:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    entry.snapshot_seq = entry.last
    return True


# --- corrections and replays ------------------------------------------------------------------

@dataclass
class Corrections:
    """The effect of a game's retracts and amends (see `engine.corrections`)."""
    retracted: set[int]
    amended_by: dict[int, list[int]]           # target seq -> standing amend seqs
    corrected: dict[int, dict[str, Any]]       # target seq -> the event as corrected
    targets: dict[int, int]                    # correction seq -> its target

    def touched_from(self, seqs: list[int]) -> int:
        """The first event whose replay the corrections `seqs` can change: each one's target,
        and the target's target when that is itself a correction, and so on."""
        low = min(seqs)
        for seq in seqs:
            while seq in self.targets:
                seq = self.targets[seq]
                low = min(low, seq)
        return low


def load_corrections(conn, game_id: int) -> Corrections:
    """The game's corrections from its retract and amend events and the events they aim at
    only; the rules are the engine's (`engine.corrections`)."""
    rows = conn.execute("SELECT seq, time, data FROM events WHERE game_id = ? AND type IN ('retract', 'amend') "
                        "ORDER BY seq", [game_id]).fetchall()
    fixes = [_event(r) for r in rows]
    targets = {e["seq"]: e["target"] for e in fixes if isinstance(e.get("target"), int)}
    have = {e["seq"] for e in fixes}
    wanted = sorted(set(targets.values()) - have)
    aimed: list[dict[str, Any]] = []
    for i in range(0, len(wanted), 500):
        chunk = wanted[i:i + 500]
        aimed += [_event(r) for r in conn.execute(
            f"SELECT seq, time, data FROM events WHERE game_id = ? AND seq IN ({','.join('?' * len(chunk))})",
            [game_id, *chunk])]
    events = sorted(fixes + aimed, key=lambda e: e["seq"])
    out, retracted, amended_by = enginemod.corrections(events)
    corrected = {e["seq"]: e for e in out if e["seq"] in amended_by}
    by_seq = {e["seq"]: e for e in events}
    for seq in set(amended_by) - set(corrected):  # amended, then retracted: the line still shows it
        fixed = dict(by_seq[seq])
        for amend in amended_by[seq]:
            fixed.update(by_seq[amend].get("fields") or {})
        corrected[seq] = fixed
    return Corrections(retracted, amended_by, corrected, targets)


def _event(row) -> dict[str, Any]:
    event = loads_stored(row[2])
    event["seq"] = row[0]
    event["time"] = row[1]
    return event


def stored_events(conn, game_id: int, after: int, upto: int) -> Iterator[tuple[dict[str, Any], int]]:
    """(event, batch) for the game's events after `after` up to `upto`, in order."""
    rows = conn.execute("SELECT seq, time, data, batch FROM events WHERE game_id = ? AND seq > ? "
                        "AND seq <= ? ORDER BY seq", [game_id, after, upto])
    loads = loads_stored   # text stored before the edge checks comes back well-formed
    for seq, at, data, batch in rows:
        event = loads(data)
        event["seq"] = seq
        event["time"] = at
        yield event, batch or seq


def replay(conn, game: dict[str, Any], cards, upto: int, corrections: Corrections,
           start: tuple[enginemod.Engine, int] | None = None,
           on_event: Callable[[dict[str, Any], dict[str, Any] | None, int, enginemod.Engine, int], None] | None = None,
           version: str | None = None, before: int | None = None) -> tuple[enginemod.Engine, int]:
    """An engine fed every effective event up to `upto`, and the seq it started after.

    Starts from `start` (an engine and the seq it is in step with), else from the newest
    snapshot before event `before` (default: any up to `upto`), else from nothing.
    `on_event(event, fed, batch, engine, before)` is called for every stored event
    replayed: `fed` is the event as fed (corrected), or None for a retracted event or a
    correction; `engine.findings[before:]` are the findings its feeding reported."""
    if start is None:
        snap = latest_snapshot(conn, game["id"], version, (before or upto + 1)) if version else None
        if snap is not None:
            try:
                start = (thaw(snap[1], cards), snap[0])
            except Exception:  # unreadable: replay from the start
                start = None
    if start is None:
        start = (enginemod.Engine(game["seats"], cards=cards, time_limit_min=game.get("time_limit_min")), 0)
    engine, base = start
    retracted, corrected = corrections.retracted, corrections.corrected
    for event, batch in stored_events(conn, game["id"], base, upto):
        seq = event["seq"]
        fed = None
        before = len(engine.findings)
        if seq not in retracted and event["type"] not in CORRECTIONS:
            fed = corrected.get(seq, event)
            engine.feed(fed)
        if on_event is not None:
            on_event(event, fed, batch, engine, before)
    return engine, base
