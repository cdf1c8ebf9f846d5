"""The hub: one thread that fans the journal's new messages out to the open streams.

A stream, once its first answer is written (`judgekit.live.views`), is a `Sink` (where
bytes go: `judgekit.live.serving`'s queue, which the stream's coroutine sends) and a `Subscription`
(the tournament, the audience, the last message id it has sent). The hub:

- adopts new streams: sends each what was published between its first answer and now
  (read from the journal, so nothing falls between the two);
- watches the database (`PRAGMA data_version`: any commit by another connection, a
  cheap read of the WAL index) every `poll_s` (0.1 s), or at once when woken, and sends each
  stream the new messages its audience may read (`messages.project`), in id order, each
  once (a stream's `last_id` only grows);
- sends every stream a comment line and a `ping` event when it has been quiet for
  `ping_s` (so proxies, sleeping phones and the page's own watchdog notice a dead
  connection; the ping carries the server's time for the room display's clock);
- drops a stream whose connection is gone (the web server's event loop saw it close, or a
  write failed) or whose reader has fallen `max_pending`
  bytes behind (the page reconnects with Last-Event-ID and misses nothing).

No worker thread of the web server waits on a stream. Pure Python, no Flask.
"""
from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Protocol

from judgekit.db import open_db
from judgekit.live import journal, messages

log = logging.getLogger("judgekit.live")


class Sink(Protocol):
    def write(self, data: bytes) -> bool: ...   # False: the connection is gone
    def alive(self) -> bool: ...                # False once the reader has gone
    def pending(self) -> int: ...               # bytes written but not sent yet
    def close(self) -> None: ...                # end the response


@dataclass
class Subscription:
    tournament_id: int
    audience: str
    last_id: int
    last_write: float = field(default_factory=time.monotonic)


def frame(message: journal.Message, audience: str) -> bytes | None:
    """One message as the stream writes it, or None when `audience` may not read it."""
    data = messages.project(message.kind, message.data, audience)
    if data is None:
        return None
    data["kind"] = message.kind
    data["time"] = message.time
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return f"id: {message.id}\nevent: {message.kind}\ndata: {text}\n\n".encode("utf-8")


def control(kind: str, data: dict) -> bytes:
    """A control event (`hello`, `ping`, `reset`): no id, so Last-Event-ID keeps its place."""
    return f"event: {kind}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n".encode("utf-8")


def ping() -> bytes:
    return b": keep-alive\n" + control("ping", {"now": time.time()})


class Hub:
    def __init__(self, database: str, *, poll_s: float = 0.1, ping_s: float = 15.0,
                 max_pending: int = 256 * 1024):
        self.database = database
        self.poll_s = poll_s
        self.ping_s = ping_s
        self.max_pending = max_pending
        self._streams: list[tuple[Sink, Subscription]] = []
        self._new: list[tuple[Sink, Subscription]] = []
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.seen = 0          # the newest message id the hub has read
        self.sent = 0          # frames written (for the bench and the tests)

    # --- outside the hub's thread -----------------------------------------------------------

    def start(self) -> "Hub":
        db = open_db(self.database)
        try:
            self.seen = journal.last_id(db)
        finally:
            db.close()
        self._thread = threading.Thread(target=self._run, name="judgekit-live-hub", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(5)

    def add(self, sink: Sink, sub: Subscription) -> None:
        """A stream whose first answer is written: the hub takes it from here."""
        with self._lock:
            self._new.append((sink, sub))
        self._wake.set()

    def wake(self) -> None:
        """Look at the journal now rather than at the next poll."""
        self._wake.set()

    def count(self) -> int:
        with self._lock:
            return len(self._streams) + len(self._new)

    # --- the hub's thread -----------------------------------------------------------------------

    def _run(self) -> None:
        db = open_db(self.database)
        version = None
        try:
            while not self._stop.is_set():
                self._wake.wait(self.poll_s)
                self._wake.clear()
                try:
                    with self._lock:
                        new, self._new = self._new, []
                    for sink, sub in new:
                        self._adopt(db, sink, sub)
                    now_version = db.conn.execute("PRAGMA data_version").fetchone()[0]
                    if now_version != version or new:
                        version = now_version
                        self._deliver(db)
                    self._ping()
                    self._streams = [(sink, sub) for sink, sub in self._streams if sink.alive()]
                except Exception:  # a bad row or a broken connection must not stop the hall
                    log.exception("live hub")
                    time.sleep(self.poll_s)
        finally:
            for sink, _ in self._streams:
                try:
                    sink.close()
                except Exception:
                    pass
            db.close()

    def _write(self, sink: Sink, sub: Subscription, data: bytes) -> bool:
        if sink.pending() > self.max_pending:
            sink.close()   # a reader this far behind reconnects with Last-Event-ID
            return False
        ok = sink.write(data)
        if ok:
            sub.last_write = time.monotonic()
            self.sent += 1
        return ok

    def _adopt(self, db, sink: Sink, sub: Subscription) -> None:
        ok = True
        for m in journal.since(db, sub.tournament_id, sub.last_id):
            data = frame(m, sub.audience)
            if data is not None:
                ok = self._write(sink, sub, data)
                if not ok:
                    break
            sub.last_id = m.id
        if ok:
            self._streams.append((sink, sub))

    def _deliver(self, db) -> None:
        while True:
            batch = journal.since(db, None, self.seen, limit=2000)
            if not batch:
                return
            self.seen = batch[-1].id
            by_tournament: dict[int, list[journal.Message]] = {}
            for m in batch:
                by_tournament.setdefault(m.tournament_id, []).append(m)
            keep = []
            cache: dict[tuple[int, str], bytes | None] = {}   # each frame made once per audience
            for sink, sub in self._streams:
                ok = True
                for m in by_tournament.get(sub.tournament_id, ()):
                    if m.id <= sub.last_id:
                        continue
                    key = (m.id, sub.audience)
                    if key not in cache:
                        cache[key] = frame(m, sub.audience)
                    if cache[key] is not None and not self._write(sink, sub, cache[key]):
                        ok = False
                        break
                    sub.last_id = m.id
                if ok:
                    keep.append((sink, sub))
            self._streams = keep
            if len(batch) < 2000:
                return

    def _ping(self) -> None:
        due = time.monotonic() - self.ping_s
        keep = []
        for sink, sub in self._streams:
            if sub.last_write < due:
                if not self._write(sink, sub, ping()):
                    continue
            keep.append((sink, sub))
        self._streams = keep
