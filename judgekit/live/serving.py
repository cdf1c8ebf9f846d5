"""`judgekit serve`: uvicorn (ASGI) in front, the Flask app behind it through a2wsgi, and the
live streams as native async endpoints fed by the hub.

Every request reaches `LiveApp`, a small ASGI app:

- a request for the event's stream (`GET /api/tournaments/<id>/live`) is first served by
  the Flask view like any other (`judgekit.live.views.stream`, on one of the WSGI worker
  threads): the view checks who asks, reads what the page missed and writes the first
  answer (`retry:`, `hello`, the missed messages). Because the request offers it
  (`ADOPT_KEY` in its environ), the view asks for the stream to go on; the device's stream
  cap decides (`judgekit.live.devices`: a 429 from the view otherwise). The worker thread
  is free again once that first answer is written, after a few milliseconds.
- From then on the stream is a coroutine on uvicorn's event loop: it sends what the hub
  (`judgekit.live.hub`, one thread for every stream) puts in its queue — new messages,
  pings — as chunks of the same response, and ends when the page goes away (uvicorn says
  `http.disconnect`), when the hub drops it, or when the server stops.
- every other request goes to the Flask app through a2wsgi's `WSGIMiddleware` (a pool of
  `threads` worker threads, 8 by default), once its body, if it has one, is read whole on
  the event loop: a body sent slowly holds no worker thread.

So an open stream costs a socket, a coroutine and a queue, no thread. Only public
interfaces are used: the ASGI specification, uvicorn's documented `Config` settings and
`Server.serve(sockets=...)`, a2wsgi's `WSGIMiddleware` and its documented
`environ["asgi.scope"]`. To stop from code (tests, SIGTERM is uvicorn's own) the server's
public `should_exit` flag is set: uvicorn documents no stop method, and this flag is what
its maintainers point to (encode/uvicorn discussion #1103). tests/test_public_apis.py holds
that no internal module of a dependency is imported. uvicorn and a2wsgi are pure Python
and run on Windows.

Per device (the peer's address) `Devices` counts the requests in flight (a stream is one
for as long as it is open) and the streams: over a cap the answer is a 429 that closes its
connection. The figures are in bench/live.py and docs/live.md.
"""
from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
import sys
import threading
from typing import Any, Callable

import uvicorn
from a2wsgi import WSGIMiddleware

from judgekit.live.devices import Devices
from judgekit.live.hub import Hub, Subscription

log = logging.getLogger("judgekit.live")

CONNECTION_LIMIT = 1000
ADOPT_KEY = "judgekit.live.adopt"
STREAM_PATH = re.compile(r"/api/tournaments/[^/]+/live")
#: A stream whose reader takes nothing for this long while the hub has more for it is let
#: go (the page reconnects with Last-Event-ID): a phone asleep with a full socket buffer.
SEND_TIMEOUT_S = 30.0
#: An idle keep-alive connection is closed after this (uvicorn's default is 5 s; a recorder
#: page polls every 5 s and would open a connection for almost every poll).
KEEP_ALIVE_S = 20
#: A request body up to this size is read whole before a worker thread takes the request
#: (the app's largest upload, an Archon workbook or a players list, is 5 MB).
BUFFER_BYTES = 8 * 1024 * 1024


class QueueSink:
    """Where the hub writes one stream (`judgekit.live.hub.Sink`): an asyncio queue on the
    server's loop, which the stream's coroutine sends from. Called from the hub's thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._pending = 0
        self._open = True
        self._lock = threading.Lock()

    def _put(self, item: bytes | None) -> bool:
        try:
            self.loop.call_soon_threadsafe(self.queue.put_nowait, item)
        except RuntimeError:   # the loop is closed: the server has stopped
            self._open = False
            return False
        return True

    def write(self, data: bytes) -> bool:
        if not self._open:
            return False
        with self._lock:
            self._pending += len(data)
        return self._put(data)

    def pending(self) -> int:
        return self._pending

    def alive(self) -> bool:
        return self._open

    def close(self) -> None:
        if self._open:
            self._open = False
            self._put(None)

    def sent(self, size: int) -> None:
        with self._lock:
            self._pending -= size

    def gone(self) -> None:
        """The reader went away: the hub lets the stream go at its next round."""
        self._open = False


class _Adoption:
    """One stream request's offer to go on: the view calls it (in a worker thread) with the
    stream's subscription; it says whether the device may hold one more stream."""

    def __init__(self, devices: Devices, device: str):
        self.devices = devices
        self.device = device
        self.subscription: Subscription | None = None

    def __call__(self, subscription: Subscription) -> bool:
        if not self.devices.open_stream(self.device):
            return False
        self.subscription = subscription
        return True

    def release(self) -> None:
        if self.subscription is not None:
            self.subscription = None
            self.devices.close_stream(self.device)


def device_of(scope: dict) -> str:
    """The device a request comes from: its peer's address (a venue's phones each have their
    own on its network)."""
    client = scope.get("client")
    return str(client[0]) if client else "?"


def refusal(message: str, retry_after: int = 30) -> tuple[dict, dict]:
    """A whole 429 answer that closes its connection, as the two ASGI messages to send."""
    body = json.dumps({"error": message, "status": 429, "retry_after": retry_after}).encode("utf-8")
    start = {"type": "http.response.start", "status": 429,
             "headers": [(b"content-type", b"application/json"), (b"retry-after", str(retry_after).encode()),
                         (b"connection", b"close"), (b"content-length", str(len(body)).encode())]}
    return start, {"type": "http.response.body", "body": body, "more_body": False}


def _has_body(scope) -> bool:
    """Whether a request has a body to read first (one larger than `BUFFER_BYTES` by its
    Content-Length goes on at once: the app refuses it without reading it)."""
    for name, value in scope["headers"]:
        if name == b"transfer-encoding":
            return True
        if name == b"content-length":
            return value.strip().isdigit() and 0 < int(value) <= BUFFER_BYTES
    return False


async def _disconnected(receive) -> None:
    """Return once the client has gone (what it sends meanwhile is read and ignored)."""
    while (await receive())["type"] != "http.disconnect":
        pass


class LiveApp:
    """The ASGI app `judgekit serve` runs (see the module): the streams here, the rest to
    the Flask app through a2wsgi."""

    def __init__(self, app, hub: Hub, devices: Devices, threads: int = 8):
        self.flask = app
        self.hub = hub
        self.devices = devices
        self.wsgi = WSGIMiddleware(self._wsgi_app, workers=threads)
        self.streams = 0                      # open now (tests, benches)
        self._closing: asyncio.Event | None = None

    def _wsgi_app(self, environ, start_response):
        """The Flask app, told (through a2wsgi's documented `asgi.scope`) that a stream
        request may go on."""
        adopt = environ["asgi.scope"].get(ADOPT_KEY)
        if adopt is not None:
            environ[ADOPT_KEY] = adopt
        return self.flask(environ, start_response)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":   # no websockets; uvicorn runs without lifespan events
            return await self.wsgi(scope, receive, send)
        device = device_of(scope)
        if not self.devices.connect(device):
            for message in refusal(f"This device has {self.devices.per_device} requests open on the server (the "
                                   "most one device may hold): close some pages and try again."):
                await send(message)
            return
        try:
            if scope["method"] == "GET" and STREAM_PATH.fullmatch(scope["path"]):
                await self._stream(scope, receive, send, device)
                return
            if _has_body(scope):
                receive = await self._whole_body(receive)
                if receive is None:
                    return
            await self.wsgi(scope, receive, send)
        finally:
            self.devices.disconnect(device)

    @staticmethod
    async def _whole_body(receive):
        """A request's body read on the event loop before a worker thread takes the request
        (a body sent slowly holds a coroutine, not a thread), up to `BUFFER_BYTES` (the app
        refuses larger ones by their Content-Length, unread): a `receive` that gives what
        was read in one piece, then the rest; None when the client went away."""
        parts: list[bytes] = []
        size, more = 0, True
        while more and size <= BUFFER_BYTES:
            message = await receive()
            if message["type"] == "http.disconnect":
                return None
            parts.append(message.get("body", b""))
            size += len(parts[-1])
            more = message.get("more_body", False)
        first = [{"type": "http.request", "body": b"".join(parts), "more_body": more}]

        async def replay():
            return first.pop() if first else await receive()
        return replay

    async def _stream(self, scope, receive, send, device: str) -> None:
        adoption = _Adoption(self.devices, device)
        first: list[dict] = []

        async def keep(message):
            first.append(message)

        try:
            await self.wsgi(dict(scope, **{ADOPT_KEY: adoption}), receive, keep)
            sub = adoption.subscription
            if sub is None or not first or first[0].get("status") != 200:
                for message in first:   # an answer that ends: an error, or a refused stream
                    await send(message)
                return
            await send(first[0])
            await send({"type": "http.response.body", "more_body": True,
                        "body": b"".join(m.get("body", b"") for m in first[1:])})
            sink = QueueSink(asyncio.get_running_loop())
            self.hub.add(sink, sub)
            self.streams += 1
            try:
                await self._pump(sink, receive, send)
            finally:
                self.streams -= 1
                sink.gone()
        finally:
            adoption.release()

    async def _pump(self, sink: QueueSink, receive, send) -> None:
        """Send what the hub queues until the page goes, the hub lets go, or the server stops."""
        gone = asyncio.ensure_future(_disconnected(receive))
        closing = asyncio.ensure_future(self._closing_event().wait())
        try:
            while True:
                get = asyncio.ensure_future(sink.queue.get())
                done, _ = await asyncio.wait({get, gone, closing}, return_when=asyncio.FIRST_COMPLETED)
                if get not in done:
                    get.cancel()
                    break
                data = get.result()
                parts = [data]
                while data is not None and not sink.queue.empty():   # what came meanwhile, in one chunk
                    data = sink.queue.get_nowait()
                    parts.append(data)
                body = b"".join(p for p in parts if p is not None)
                if body:
                    try:
                        await asyncio.wait_for(send({"type": "http.response.body", "body": body,
                                                     "more_body": True}), SEND_TIMEOUT_S)
                    except asyncio.TimeoutError:
                        return   # a reader that takes nothing: uvicorn closes the connection
                    sink.sent(len(body))
                if parts[-1] is None:   # the hub let the stream go
                    break
            if not gone.done():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            gone.cancel()
            closing.cancel()

    def _closing_event(self) -> asyncio.Event:
        if self._closing is None:
            self._closing = asyncio.Event()
        return self._closing

    def close_streams(self) -> None:
        """End every open stream's answer (the server is stopping). On the server's loop."""
        self._closing_event().set()


#: The open-file limit `serve` asks for at least (POSIX): a connection that never sends a
#: whole request head reaches no app code, so no device cap counts it; it costs a socket,
#: and this many keep a flood of them from taking the sockets others need.
FILE_LIMIT = 65536


def _raise_file_limit(wanted: int) -> None:
    """Let the process hold `wanted` sockets and up to `FILE_LIMIT` (POSIX: raise the soft
    limit toward the hard one)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit for sockets
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = max(wanted + 64, FILE_LIMIT)
    if soft != resource.RLIM_INFINITY and soft < target:
        new = target if hard == resource.RLIM_INFINITY else min(target, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        except (ValueError, OSError):
            pass


def connection_limit(wanted: int | None = None) -> int:
    """How many requests may be open at once, streams included: `wanted` (default
    `CONNECTION_LIMIT`; 500 at most on Windows)."""
    limit = wanted or CONNECTION_LIMIT
    if sys.platform.startswith("win"):
        limit = min(limit, 500)
    return limit


def listen(host: str, port: int) -> socket.socket:
    """The listening socket (bound here, so a port in use raises OSError before anything
    starts, and port 0 picks a free one)."""
    family, kind, proto, _, address = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                                         flags=socket.AI_PASSIVE)[0]
    sock = socket.socket(family, kind, proto)
    try:
        if not sys.platform.startswith("win"):   # Windows' SO_REUSEADDR would share a port in use
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


class Served:
    """A server for the app: `port` once bound, `hub`, `devices`, `live` (the ASGI app);
    `run()` serves until stopped (`should_exit`, Ctrl-C or SIGTERM)."""

    def __init__(self, app, *, host: str = "127.0.0.1", port: int = 5000, threads: int = 8,
                 connections: int | None = None, devices: Devices | None = None):
        limit = connection_limit(connections)
        _raise_file_limit(limit)
        self.sock = listen(host, port)
        self.port = self.sock.getsockname()[1]
        self.hub = Hub(app.config["DATABASE"])
        self.devices = devices or Devices(limit)
        self.live = LiveApp(app, self.hub, self.devices, threads=threads)
        self.server = uvicorn.Server(uvicorn.Config(
            self.live, http="h11", ws="none", loop="asyncio", lifespan="off",
            log_config=None, access_log=False,        # judgekit.logs writes the lines (--verbose)
            server_header=False, headers=[("server", "judgekit")],
            proxy_headers=False,                      # the peer is the device (the app reads proxies itself)
            timeout_keep_alive=KEEP_ALIVE_S, timeout_graceful_shutdown=5))

    @property
    def should_exit(self) -> bool:
        return self.server.should_exit

    def run(self) -> None:
        self.hub.start()
        try:
            asyncio.run(self._serve())
        finally:
            self.hub.stop()
            self.sock.close()

    async def _serve(self) -> None:
        watch = asyncio.ensure_future(self._end_streams_on_exit())
        try:
            await self.server.serve(sockets=[self.sock])
        finally:
            watch.cancel()

    async def _end_streams_on_exit(self) -> None:
        """uvicorn waits for open answers to end before it stops: the streams end once it is
        asked to stop."""
        while not self.server.should_exit:
            await asyncio.sleep(0.2)
        self.live.close_streams()

    def stop(self) -> None:
        self.server.should_exit = True


def serve(app, *, host: str, port: int, threads: int = 8, connections: int | None = None,
          ready: Callable[[Any], None] | None = None) -> None:
    """Serve `app` until interrupted (what `judgekit serve` runs). `ready(served)` is called
    once the address is bound, before the first request: a port in use raises OSError
    before anything says "ready"."""
    served = Served(app, host=host, port=port, threads=threads, connections=connections)
    if ready is not None:
        ready(served)
    served.run()


def run_in_thread(app, **kw: Any) -> tuple[Served, str]:
    """Start a server in a daemon thread (tests, benches): returns (served, base URL).
    Stop it with `stop(served)`."""
    kw.setdefault("port", 0)
    served = Served(app, **kw)
    thread = threading.Thread(target=served.run, name="judgekit-serve", daemon=True)
    served.thread = thread  # type: ignore[attr-defined]
    thread.start()
    host = kw.get("host", "127.0.0.1")
    return served, f"http://{host}:{served.port}"


def stop(served: Served) -> None:
    served.stop()
    thread = getattr(served, "thread", None)
    if thread is not None:
        thread.join(10)
