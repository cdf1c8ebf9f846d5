"""Search worker processes, so that the search box uses every core.

The search is pure Python: in the server's one process, every search holds the
interpreter lock, so searches run one at a time on one core and share it with everything
else the server does (recorder entries, pages, the live hall). `judgekit serve` therefore
starts `SearchPool`: one or more worker processes, each with its own copy of the search
index (opened from the index file the server has just checked or built), answering
`(query, limit)` on a pipe with the JSON of the results. The server's event loop hands
them the search box's requests (`judgekit.live.search_loop`).

This module is the workers' side and their lives:
- A worker opens the same `Search` over the same index file as the server, so it gives
  the same answers; one that would search other content refuses to start.
- The pool starts them in the background, hands each to `on_ready` once it has its index,
  replaces one that failed (`replace`), and stops them all on `close()`. A worker also
  ends when its pipe closes (the server stopped, even by SIGKILL).

The pool starts its workers with `spawn` on every platform (a fork of a server with
threads running is unsafe), so a worker costs an interpreter start and an index open
(about 0.7 s, in the background) and its own memory (about 110 MB): see docs/search.md.
"""
from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from pathlib import Path

log = logging.getLogger("judgekit.search")

TIMEOUT = 10.0          # seconds a worker may take over one search before it is replaced
READY_TIMEOUT = 60.0    # seconds a new worker may take to open the index


def default_workers() -> int:
    """Worker processes for this machine: one per core beyond the server's own, at most 4,
    and 2 from two cores up (on two cores, 2 workers answer more searches than one, though
    they slow each other: docs/search.md)."""
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


def decode_answer(raw: bytes) -> tuple[str, str]:
    """(kind, text) of a worker's answer: "o" and the results' JSON, "q" and a QueryError's
    message, "x" and what went wrong."""
    return raw[:1].decode("ascii", "replace"), raw[1:].decode("utf-8", "surrogatepass")


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

class WorkerFailed(Exception):
    """A worker did not start."""


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
                 stamp: str | None = None, on_ready=None):
        self.content_dir, self.index_dir, self.stamp = str(content_dir), str(index_dir), stamp
        self.size = default_workers() if size is None else size
        self._ctx = multiprocessing.get_context("spawn")
        self._lock = threading.Lock()
        self._workers: set[_Worker] = set()
        self._ready = 0          # workers that have their index
        self._closed = False
        self.replaced = 0        # workers replaced after a failure
        # given each worker (`_Worker`: its process and its pipe) once it has its index
        self.on_ready = on_ready

    def start(self) -> "SearchPool":
        """Start the workers in the background: each goes to `on_ready` once it has its index."""
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
        if self.on_ready is not None:
            self.on_ready(worker)

    def replace(self, worker: _Worker, why: str) -> None:
        """`worker` failed (`why`): stop it and start another."""
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
