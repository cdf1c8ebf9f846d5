"""The search box's requests handed to the search workers by waitress's event loop.

The search box sends a request per keystroke, and a search costs about a millisecond of
Python in a worker process (`judgekit.rules.search_pool`). Handed over by a thread of the
server, each search also cost the thread's wake-up, the interpreter lock passed between
that thread and the event loop, and a worker left idle while the thread took its answer
and fetched the next request: half as much again as the search (bench/serve.py). So here
the event loop, which has parsed the request anyway, does it all itself:

1. `SearchLoop.add_task` (waitress's hand-over of a connection's next request) takes a
   plain `GET /api/search` (`search_api.plain_args`), and writes it to the pipe of the
   worker with the fewest searches (up to `DEPTH` each: one it works on, the next already
   in its pipe, so a worker never waits for the server between two searches), or queues it
   in arrival order until a worker has room.
2. The workers' pipes are in the event loop's map, beside the sockets: an answer wakes the
   loop, which hands the worker the next queued search, and writes the answer on the
   connection the way waitress answers any request (`channel.service()`: its task and
   headers, keep-alive, the request after it), through the app's fast path, which takes
   the answer from the environ (`search_api.ANSWERED`) instead of searching.
3. Everything else goes to the server's threads as before: other requests, searches with
   bad arguments (Flask words the error), and every search while no worker is ready (the
   first second after start) or whose worker failed, died or took longer than
   `search_pool.TIMEOUT` (that worker is replaced; the search is answered in process).

Only the event loop's thread reads the pipes and answers; `add_task` is also called from
a thread that has just answered a connection's earlier request (pipelining), so the
queue and the pipes' bookkeeping are under one lock.
"""
from __future__ import annotations

import collections
import logging
import threading
import time

from judgekit.rules.search_api import PATH, plain_args
from judgekit.rules.search_pool import TIMEOUT, decode_answer, encode_request
from judgekit.rules.service import search_cache_size

log = logging.getLogger("judgekit.search")

#: Bytes waiting to be sent on a connection beyond which its answer is written by a thread
#: (or half the server's high-water mark, if less: past the mark, a write waits for the
#: event loop to send, which the event loop itself must not do).
BACKLOG = 1 << 20

#: Searches a worker holds at once: the one it works on and the next, already in its pipe.
DEPTH = 2


class _Search:
    __slots__ = ("channel", "request", "query", "limit", "started")

    def __init__(self, channel, request, query: str, limit: int):
        self.channel, self.request, self.query, self.limit = channel, request, query, limit
        self.started = time.perf_counter()


class WorkerPipe:
    """A search worker as an entry of the event loop's map (what `wasyncore.poll2` asks of
    one): readable while it is alive, its answers read by `handle_read_event`."""

    accepting = False

    def __init__(self, loop: "SearchLoop", worker):
        self.loop = loop
        self.worker = worker
        self.conn = worker.conn
        self._fileno = worker.conn.fileno()
        self.sent: collections.deque[_Search] = collections.deque()   # in the worker's order
        self.since = 0.0      # when the worker began its current search (monotonic)
        self.failed = False

    def send(self, search: _Search) -> None:
        if not self.sent:
            self.since = time.monotonic()
        self.sent.append(search)
        self.conn.send_bytes(encode_request(search.query, search.limit))

    def readable(self) -> bool:
        # asked on every turn of the loop: where a worker that takes too long is seen
        if self.sent and time.monotonic() - self.since > TIMEOUT:
            self.loop.failed(self, f"no answer in {TIMEOUT:.0f} s")
            return False
        return not self.failed

    def writable(self) -> bool:
        return False

    def handle_read_event(self) -> None:
        self.loop.answered(self)

    def handle_write_event(self) -> None:   # pragma: no cover (never asked: not writable)
        pass

    def handle_expt_event(self) -> None:
        self.loop.failed(self, "its pipe failed")

    def handle_close(self) -> None:
        self.loop.failed(self, "its pipe closed")

    def handle_error(self) -> None:
        log.exception("reading a search worker's answer")
        self.loop.failed(self, "an error reading its answer")

    def close(self) -> None:
        """Out of the event loop's map (the worker itself is the pool's to stop)."""
        self.loop.server_map.pop(self._fileno, None)


class SearchLoop:
    """Searches answered from the event loop (see the module). `others`: the dispatcher
    (the server's threads) for everything the loop does not answer."""

    def __init__(self, listener, pool, others):
        self.trigger = listener.trigger
        self.server_map = listener._map
        self.pool = pool
        self.others = others
        self._lock = threading.Lock()
        self._pipes: list[WorkerPipe] = []
        self._queue: collections.deque[_Search] = collections.deque()
        self._loop_thread = None   # the event loop's thread, once it has answered a search
        # the workers' answers to the last queries ((query, limit) -> results' JSON, least
        # recently asked first), as the server's own cache (`search_cache_size`): asked
        # again, a search is answered without a worker, written by a thread, as `add_task`
        # may be called where the event loop must not write (waitress holds the
        # connection's request lock there)
        self._answers: collections.OrderedDict[tuple[str, int], str] = collections.OrderedDict()
        self._cache_size = search_cache_size()
        self.cached = 0       # searches answered from `_answers`
        self.served = 0       # searches the workers answered
        self.fallbacks = 0    # searches handed to the threads after a worker's failure
        pool.on_ready = self.adopt

    def pull_trigger(self) -> None:
        """The listeners' `pull_trigger` (how waitress wakes its event loop after a thread
        wrote): not when the event loop itself answered (`channel.service()` ends with it),
        which polls again anyway — a system call and a turn of the loop fewer per search."""
        if threading.get_ident() != self._loop_thread:
            self.trigger.pull_trigger()

    # a worker joins: from the pool's starting thread, registered by the event loop
    def adopt(self, worker) -> None:
        self.trigger.pull_trigger(lambda: self._register(worker))

    def _register(self, worker) -> None:
        pipe = WorkerPipe(self, worker)
        self.server_map[pipe._fileno] = pipe
        with self._lock:
            self._pipes.append(pipe)
            self._fill(pipe)

    @property
    def ready(self) -> int:
        return len(self._pipes)

    # a search comes in: from the event loop, or from a thread that answered the request before
    def add_task(self, channel) -> None:
        requests = channel.requests
        request = requests[0] if requests else None
        args = plain_args(request.query) if self._pipes and is_search(request) else None
        if args is None:
            self.others.add_task(channel)
            return
        search = _Search(channel, request, *args)
        with self._lock:
            known = self._answers.get(args)
            if known is not None:      # asked before: a thread writes it (see `_answers`)
                self._answers.move_to_end(args)
                self.cached += 1
                request.judgekit_answered = (search.query, (time.perf_counter() - search.started) * 1000, known)
            elif self._pipes:          # (none: the last worker failed meanwhile)
                pipe = min(self._pipes, key=lambda p: len(p.sent))
                if len(pipe.sent) >= DEPTH:
                    self._queue.append(search)
                    return
                try:
                    pipe.send(search)
                    return
                except OSError:        # the worker is gone: the loop sees its pipe close
                    pipe.sent.pop()
        self.others.add_task(channel)

    def _fill(self, pipe: WorkerPipe) -> None:
        """Give `pipe` queued searches up to `DEPTH` (under the lock)."""
        while self._queue and len(pipe.sent) < DEPTH:
            pipe.send(self._queue.popleft())

    # an answer comes back: on the event loop
    def answered(self, pipe: WorkerPipe) -> None:
        try:
            raw = pipe.conn.recv_bytes()
        except (EOFError, OSError) as exc:
            self.failed(pipe, repr(exc))
            return
        with self._lock:
            search = pipe.sent.popleft()
            pipe.since = time.monotonic()
            try:
                self._fill(pipe)
            except OSError as exc:
                failure = exc
            else:
                failure = None
        kind, text = decode_answer(raw)
        if kind == "o":
            self.served += 1
            if self._cache_size:
                with self._lock:
                    self._answers[(search.query, search.limit)] = text
                    if len(self._answers) > self._cache_size:
                        self._answers.popitem(last=False)
            took = (time.perf_counter() - search.started) * 1000
            search.request.judgekit_answered = (search.query, took, text)
            channel = search.channel
            if channel.total_outbufs_len > min(BACKLOG, channel.adj.outbuf_high_watermark // 2):
                # a client that does not read its answers: a thread writes this one, as it
                # may wait for room where the event loop must not
                self.others.add_task(channel)
            else:
                self._loop_thread = threading.get_ident()
                channel.service()    # waitress writes it, as it answers any request
        else:                            # refused or failed there: the threads say how
            self.fallbacks += 1
            self.others.add_task(search.channel)
        if failure is not None:
            self.failed(pipe, repr(failure))

    def failed(self, pipe: WorkerPipe, why: str) -> None:
        """A worker that died, failed or timed out: out of the loop, replaced by the pool;
        its searches (and, without another worker, the queued ones) go to the threads."""
        if pipe.failed:
            return
        pipe.failed = True
        pipe.close()
        with self._lock:
            if pipe in self._pipes:
                self._pipes.remove(pipe)
            orphans = list(pipe.sent)
            pipe.sent.clear()
            if not self._pipes:
                orphans += self._queue
                self._queue.clear()
        self.fallbacks += len(orphans)
        for search in orphans:
            self.others.add_task(search.channel)
        # stopping a worker waits for it to end: not on the event loop
        threading.Thread(target=self.pool.replace, args=(pipe.worker, why),
                         name="judgekit-search-replace", daemon=True).start()

    def close(self) -> None:
        with self._lock:
            pipes, self._pipes = self._pipes, []
        for pipe in pipes:
            pipe.failed = True
            pipe.close()


def is_search(request) -> bool:
    """Whether a parsed request is the search box's (`GET /api/search`). A request waitress
    could not parse has an error and may lack the rest (no method, no path)."""
    return request is not None and not request.error and getattr(request, "command", None) == "GET" \
        and getattr(request, "path", None) == PATH
