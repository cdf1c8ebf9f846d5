"""Searches answered by worker processes, so that the search box uses every core.

The search is pure Python: in the server's one process, every search holds the
interpreter lock, so searches run one at a time on one core and share it with everything
else the server does (recorder entries, pages, the live hall). `judgekit serve` therefore
starts `SearchPool`: one or more worker processes, each with its own copy of the search
index (opened from the index file the server has just checked or built), answering
`(query, limit)` with the JSON of the results. The server's thread that asked waits on a
pipe without the interpreter lock, so the server goes on with other requests meanwhile.

- Fair: a search waits for an idle worker in arrival order: a worker that becomes idle
  is handed to the longest waiting search (a shared queue would let a search that just
  came take it first, and the waiting ones would wait longer: the tail of the latency).
- Never in the way: while no worker is ready (the first second after start, or after a
  worker died) the server searches in its own process, as it does without a pool. A worker
  that dies or does not answer within `TIMEOUT` seconds is replaced; that search is
  answered in process. Nothing is lost: a search changes nothing.
- Same answers: a worker runs the same `Search` over the same index file; only the
  time taken differs (`took_ms` counts the hand-over too).
- A worker ends when its pipe closes (the server stopped, even by SIGKILL) or on `close()`.

The pool starts its workers with `spawn` on every platform (a fork of a server with
threads running is unsafe), so a worker costs an interpreter start and an index open
(about 0.7 s, in the background) and its own memory (about 110 MB): see docs/search.md.
"""
from __future__ import annotations

import collections
import logging
import multiprocessing
import os
import select
import threading
import time
from pathlib import Path

log = logging.getLogger("judgekit.search")

TIMEOUT = 10.0          # seconds a worker may take over one search before it is replaced
READY_TIMEOUT = 60.0    # seconds a new worker may take to open the index


def default_workers() -> int:
    """Worker processes for this machine: one per core beyond the server's own, at most 4,
    and 2 from two cores up (on two cores, 2 workers keep one searching while the other
    hands its answer over: p50 17 ms instead of 24 in bench/serve.py's closed loop)."""
    cores = os.cpu_count() or 1
    return 1 if cores < 2 else max(2, min(4, cores - 1))


# --- the worker process ------------------------------------------------------------------

def _open_search(content_dir: str, index_dir: str, stamp: str | None = None):
    """The search as `RulesService` opens it, without the renderer (pages are not built
    here). `stamp`: the server's index stamp; a worker that would search other content (the
    files changed since the server started) or finds no stored index refuses to start, and
    the server searches itself, so every answer comes from the same index."""
    from judgekit.rules.card_ranking import Search
    from judgekit.rules.search import index_is_current
    from judgekit.rules.service import cached_corpus, content_stamps
    corpus = cached_corpus(content_dir)
    own, _ = content_stamps(content_dir, corpus)
    if stamp is not None and own != stamp:
        raise RuntimeError("the content changed since the server started")
    if not index_is_current(own, index_dir):
        raise RuntimeError("no current search index in " + index_dir)
    return Search.open(corpus, index_dir, own)


def encode_request(query: str, limit: int) -> bytes:
    return b"%d\n%s" % (limit, query.encode("utf-8", "surrogatepass"))


def decode_request(raw: bytes) -> tuple[str, int]:
    head, _, text = raw.partition(b"\n")
    return text.decode("utf-8", "surrogatepass"), int(head)


def _worker(conn, content_dir: str, index_dir: str, stamp: str | None = None) -> None:  # pragma: no cover
    """A worker's life: open the index, say b"ready", then answer each request with b"o" and
    the results' JSON, b"q" and a QueryError's message, or b"x" and what went wrong (the
    server then searches in process, where the same failure is reported as it would be)."""
    import gc
    import signal

    # Ctrl+C in the terminal reaches the whole process group: the server stops its workers
    # itself (and a worker ends when its pipe closes), so no traceback from here
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    from judgekit.rules.search import QueryError
    from judgekit.rules.service import results_json
    try:
        search = _open_search(content_dir, index_dir, stamp)
    except Exception as exc:  # the server searches in process; it logs why
        conn.send_bytes(b"x" + repr(exc).encode("utf-8", "replace"))
        return
    gc.freeze()   # the index's objects are kept for good: the collector need not walk them
    conn.send_bytes(b"ready")
    while True:
        try:
            raw = conn.recv_bytes()
        except (EOFError, OSError):   # the server is gone
            return
        try:
            query, limit = decode_request(raw)
            answer = b"o" + results_json(search, query, limit).encode("utf-8", "surrogatepass")
        except QueryError as exc:
            answer = b"q" + str(exc).encode("utf-8", "surrogatepass")
        except Exception as exc:
            answer = b"x" + repr(exc).encode("utf-8", "replace")
        try:
            conn.send_bytes(answer)
        except (EOFError, OSError):
            return


# --- the server's side ---------------------------------------------------------------------

def _answered(conn, timeout: float) -> bool:
    """Whether the worker's answer is there within `timeout` seconds: a `poll()` on the
    pipe where there is one (`Connection.poll` builds a selector each time, a tenth of the
    server's own work on a search); `Connection.poll` elsewhere (Windows)."""
    if hasattr(select, "poll"):
        try:
            watch = select.poll()
            watch.register(conn.fileno(), select.POLLIN)
            return bool(watch.poll(timeout * 1000))
        except (OSError, ValueError):
            return True   # recv_bytes says what is wrong
    return conn.poll(timeout)


class WorkerFailed(Exception):
    """A worker could not answer (it died, timed out or failed): search in process."""


class _Worker:
    def __init__(self, process, conn):
        self.process = process
        self.conn = conn

    def stop(self) -> None:
        try:
            self.conn.close()
        except OSError:
            pass
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(1)
        if self.process.is_alive():   # stuck, or stopped (SIGTERM waits for a stopped one)
            self.process.kill()
        self.process.join(2)


class SearchPool:
    """`size` worker processes answering searches (see the module)."""

    def __init__(self, content_dir: str | Path, index_dir: str | Path, size: int | None = None,
                 stamp: str | None = None):
        self.content_dir, self.index_dir, self.stamp = str(content_dir), str(index_dir), stamp
        self.size = default_workers() if size is None else size
        self._ctx = multiprocessing.get_context("spawn")
        self._idle: list[_Worker] = []
        self._waiting: collections.deque = collections.deque()   # [lock, worker] per waiter
        self._lock = threading.Lock()
        self._workers: set[_Worker] = set()
        self._ready = 0          # workers answering (idle or busy)
        self._closed = False
        self.served = 0          # searches the workers answered
        self.fallbacks = 0       # searches answered in process because of a worker's failure
        self.replaced = 0        # workers replaced after a failure

    def start(self) -> "SearchPool":
        """Start the workers in the background: `ready` turns true as each has its index."""
        for _ in range(self.size):
            self._spawn()
        return self

    @property
    def ready(self) -> int:
        return self._ready

    def _spawn(self) -> None:
        threading.Thread(target=self._start_one, name="judgekit-search-start", daemon=True).start()

    def _start_one(self) -> None:
        if self._closed:
            return
        ours, theirs = self._ctx.Pipe()
        process = self._ctx.Process(target=_worker, args=(theirs, self.content_dir, self.index_dir, self.stamp),
                                    name="judgekit-search", daemon=True)
        try:
            process.start()
        except Exception as exc:   # no processes here (a sandbox): search in process
            log.warning("search workers unavailable, searching in process: %r", exc)
            return
        theirs.close()
        worker = _Worker(process, ours)
        try:
            if not ours.poll(READY_TIMEOUT):
                raise WorkerFailed("did not open the index in time")
            hello = ours.recv_bytes()
            if hello != b"ready":
                raise WorkerFailed(hello[1:].decode("utf-8", "replace"))
        except (WorkerFailed, EOFError, OSError) as exc:
            log.warning("a search worker did not start (%s): searching in process", exc)
            worker.stop()
            return
        with self._lock:
            if self._closed:
                worker.stop()
                return
            self._workers.add(worker)
            self._ready += 1
        self._release(worker)

    def _take(self) -> _Worker | None:
        """An idle worker, waiting for one in arrival order (the first to wait is the first
        served: a search that comes later cannot take a worker from one waiting)."""
        with self._lock:
            if self._idle and not self._waiting:
                return self._idle.pop()
            slot = [threading.Lock(), None]
            slot[0].acquire()
            self._waiting.append(slot)
        if slot[0].acquire(timeout=TIMEOUT):
            return slot[1]
        with self._lock:
            if slot in self._waiting:
                self._waiting.remove(slot)
                return None
        return slot[1]   # handed over meanwhile

    def _release(self, worker: _Worker) -> None:
        """`worker` is idle: it goes to the longest waiting search, or waits itself."""
        with self._lock:
            if self._waiting:
                slot = self._waiting.popleft()
                slot[1] = worker
                slot[0].release()
            else:
                self._idle.append(worker)

    def search_json(self, query: str, limit: int) -> tuple[str, str] | None:
        """(kind, text) from a worker — kind "o": the results' JSON, "q": a QueryError's
        message — or None when no worker can answer: the caller searches in process."""
        if not self._ready:
            return None
        worker = self._take()
        if worker is None:
            return None
        try:
            conn = worker.conn
            conn.send_bytes(encode_request(query, limit))
            if not _answered(conn, TIMEOUT):
                raise WorkerFailed(f"no answer in {TIMEOUT:.0f} s")
            answer = conn.recv_bytes()
        except (WorkerFailed, EOFError, OSError) as exc:
            self._replace(worker, exc)
            self.fallbacks += 1
            return None
        self._release(worker)
        if answer[:1] == b"x":   # the search itself failed: the in-process search says how
            self.fallbacks += 1
            return None
        self.served += 1
        return answer[:1].decode(), answer[1:].decode("utf-8", "surrogatepass")

    def _replace(self, worker: _Worker, why: BaseException) -> None:
        log.warning("a search worker failed (%s): replacing it", why)
        with self._lock:
            if worker in self._workers:
                self._workers.discard(worker)
                self._ready -= 1
        worker.stop()
        self.replaced += 1
        self._spawn()

    def pids(self) -> list[int]:
        with self._lock:
            return [w.process.pid for w in self._workers]

    def close(self) -> None:
        with self._lock:
            self._closed = True
            workers, self._workers = list(self._workers), set()
            self._ready = 0
        for worker in workers:
            worker.stop()

    def wait_ready(self, timeout: float = READY_TIMEOUT) -> bool:
        """Wait until every worker has its index (tests, benches)."""
        deadline = time.monotonic() + timeout
        while self._ready < self.size and time.monotonic() < deadline:
            time.sleep(0.02)
        return self._ready >= self.size
