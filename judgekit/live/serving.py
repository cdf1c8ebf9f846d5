"""`judgekit serve`: waitress, with the live streams handed over to the hub.

waitress gives each response one of its worker threads until the response ends (8 by
default). A live page keeps its stream open for hours, so a stream written as an ordinary
long response would hold a thread for as long as the page is open: 8 open pages would
stop the server. Here a stream costs no thread:

1. The stream's request is served like any other, by a worker thread: the Flask view
   (`judgekit.live.views.stream`) checks who asks, reads what the page missed, writes the
   first answer (headers, `retry:`, `hello`, the missed messages) and, because the
   request's environ offers it (`judgekit.live.adopt`), asks for the stream to go on.
2. When the view's answer is written, the task (`LiveTask.finish`) does not end the
   response: it hands the connection to the hub (`judgekit.live.hub`), and the worker
   thread is free again — after a few milliseconds, as for any request.
3. From then on the connection lives in waitress's own event loop (the main thread's
   `select`/`poll` over every socket, as for any idle keep-alive connection), and the
   hub's one thread writes new messages and pings into it, as chunks of the same chunked
   response. A page that goes away is seen by the event loop (the socket reads as closed)
   or by the next write, and dropped.

So the cost of an open stream is one socket and a few hundred bytes, and the only limit is
waitress's `connection_limit` (100 unless set): `serve` sets it above the hall's peak
(`CONNECTION_LIMIT`: a hundred open pages and sixty recorder phones with a spare
connection each, and room to spare) and uses `poll()` where there is one (`select()` is
limited to 1,024 descriptors). The figures are in bench/live.py and docs/live.md.

This relies on four things of waitress 3 (its channel's `task_class`, `write_soon`,
`outbuf_lock` and `_flush_some`, and its task's `finish`): `supported()` checks they are
there, and without them streams fall back to the answer that ends (the page then polls
through the same stream, `retry:` seconds apart). tests/test_live_serving.py runs the real
thing.
"""
from __future__ import annotations

import json
import logging
import sys
import threading
from typing import Any, Callable

from judgekit.live.devices import Devices
from judgekit.live.hub import Hub, Subscription

log = logging.getLogger("judgekit.live")

CONNECTION_LIMIT = 1000
ADOPT_KEY = "judgekit.live.adopt"

try:  # waitress is a dependency; the hand-over needs its internals (see `supported`)
    from waitress import create_server as _create_server
    from waitress.channel import ClientDisconnected, HTTPChannel
    from waitress.task import WSGITask
except ImportError:  # pragma: no cover
    HTTPChannel = WSGITask = None  # type: ignore


def supported() -> bool:
    """Whether this waitress has what the hand-over uses."""
    return (HTTPChannel is not None and hasattr(HTTPChannel, "task_class")
            and all(hasattr(HTTPChannel, name) for name in ("write_soon", "_flush_some", "_flush_exception"))
            and all(hasattr(WSGITask, name) for name in ("finish", "get_environment")))


class ChannelSink:
    """Where the hub writes one stream: a waitress channel whose response goes on."""

    def __init__(self, channel, chunked: bool):
        self.channel = channel
        self.chunked = chunked

    def write(self, data: bytes) -> bool:
        ch = self.channel
        if not ch.connected or ch.will_close or ch.close_when_flushed:
            return False
        if self.chunked:
            data = b"%X\r\n%s\r\n" % (len(data), data)
        try:
            ch.write_soon(data)   # sends what the socket takes now; the event loop sends the rest
        except ClientDisconnected:
            return False
        except OSError:
            return False
        if ch.total_outbufs_len:
            ch.server.pull_trigger()
        return True

    def pending(self) -> int:
        return int(self.channel.total_outbufs_len)

    def alive(self) -> bool:
        ch = self.channel
        return bool(ch.connected) and not ch.will_close and not ch.close_when_flushed

    def close(self) -> None:
        ch = self.channel
        if ch.connected and not ch.will_close:
            if self.chunked:
                try:
                    ch.write_soon(b"0\r\n\r\n")
                except (ClientDisconnected, OSError):
                    pass
            ch.close_when_flushed = True
            ch.server.pull_trigger()


class _Gather:
    """Stands for a channel while a task writes a response's header and first piece of
    body: both are then sent as one (`LiveTask.write`). Everything else goes to the channel."""

    def __init__(self, channel):
        self.channel = channel
        self.parts: list[bytes] = []

    def write_soon(self, data) -> int:
        self.parts.append(data)
        return len(data)

    def __getattr__(self, name):
        return getattr(self.channel, name)


#: A first piece of body up to this size is sent with the header in one write (larger ones
#: are not copied: their header goes first, as waitress does).
GATHER_BYTES = 256 * 1024


def busy_answering(channel) -> bool:
    """Whether the event loop should leave this connection's output to the task answering
    on it.

    waitress asks the event loop to watch a connection for writing whenever its output
    buffer holds a byte, also while a worker thread is writing a response there. Then the
    loop does not write (the task holds the buffer's lock, or its `handle_write` declines
    to write under a running task) but `poll()` says "writable" at once, again and again:
    the main thread spins and holds the interpreter lock, and the worker that would finish
    the response waits for it — up to the 5 ms switch interval per request, measured as a
    trivial WSGI answer costing 1.1 ms of CPU instead of 0.2 (bench/serve.py).

    The task needs no help meanwhile: with waitress's `send_bytes` of 1 each of its writes
    sends what the socket takes, and the end of every task pulls the trigger, which wakes
    the loop to send the rest. Beyond the high-water mark the task waits for the loop to
    drain the buffer below it, so the loop must write then, down to the mark itself
    (waitress wakes the task only below it); the task pulls the trigger first."""
    return bool(channel.requests) and not (channel.will_close or channel.close_when_flushed) \
        and channel.total_outbufs_len < channel.adj.outbuf_high_watermark


if HTTPChannel is not None:
    class LiveTask(WSGITask):
        """A request task that can leave its response open for the hub (see the module)."""

        subscription: Subscription | None = None

        def write(self, data):
            """waitress sends a response's header and its body with a send() each (and the
            client reads them as two segments): an API answer comes in one piece, so the
            header and that piece go out together, one system call and one packet."""
            if self.wrote_header or not data or len(data) > GATHER_BYTES:
                return super().write(data)
            channel = self.channel
            gather = self.channel = _Gather(channel)
            try:
                super().write(data)
            finally:
                self.channel = channel
            if gather.parts:
                channel.write_soon(b"".join(gather.parts))

        def get_environment(self):
            environ = super().get_environment()
            if getattr(self.channel.server, "judgekit_hub", None) is not None:
                environ[ADOPT_KEY] = self._adopt
            return environ

        def _adopt(self, subscription: Subscription) -> bool:
            """Let the response go on as a stream; False when its device holds as many
            streams as it may (`judgekit.live.devices`): the view answers 429 then."""
            if not self.channel.count_stream():
                return False
            self.subscription = subscription
            return True

        def finish(self):
            sub = self.subscription
            if sub is None or not self.wrote_header or not str(self.status).startswith("200"):
                return super().finish()
            # the response goes on: no last chunk, the connection is not closed; the hub
            # writes the rest from its own thread, and this worker thread is free
            self.close_on_finish = False
            self.channel.hand_over(sub, self.chunked_response)

    class LiveChannel(HTTPChannel):
        """A connection that may turn into a stream (`hand_over`): then what the client
        sends is ignored (a stream's client has nothing more to say; its close is read as
        usual), and every flush takes the output lock, since the hub's thread writes."""

        task_class = LiveTask
        streaming = False
        device = "?"
        refused = False      # over its device's cap: answered 429 at once, then closed
        _counted = False     # counted in the server's `Devices` (released when closed)
        _stream_counted = False
        _release_lock = threading.Lock()

        def __init__(self, server, sock, addr, adj, map=None):
            super().__init__(server, sock, addr, adj, map)
            self.device = device_of(addr)
            devices = getattr(server, "judgekit_devices", None)
            if devices is None:
                return
            if devices.connect(self.device):
                self._counted = True
            else:
                self.refused = True
                self.write_soon(refusal(f"This device has {devices.per_device} connections open to the server "
                                        "(the most one device may hold): close some pages and try again."))
                self.close_when_flushed = True

        def count_stream(self) -> bool:
            devices = getattr(self.server, "judgekit_devices", None)
            if devices is None or self._stream_counted:
                return True
            if not devices.open_stream(self.device):
                return False
            self._stream_counted = True
            return True

        def del_channel(self, map=None):
            super().del_channel(map)
            devices = getattr(self.server, "judgekit_devices", None)
            with self._release_lock:
                counted, stream, self._counted, self._stream_counted = self._counted, self._stream_counted, False, False
            if devices is not None:
                if counted:
                    devices.disconnect(self.device)
                if stream:
                    devices.close_stream(self.device)

        def hand_over(self, sub: Subscription, chunked: bool) -> None:
            self.streaming = True
            self.server.judgekit_hub.add(ChannelSink(self, chunked), sub)

        def received(self, data):
            if self.streaming or self.refused:
                return True
            return super().received(data)

        def writable(self):
            """Not while a task is answering on this connection (see `busy_answering`):
            waitress's own test asks for POLLOUT as soon as the task has put a byte in the
            output buffer, and the event loop then spins on a socket it will not write to."""
            if busy_answering(self):
                return False
            return super().writable()

        def handle_write(self):
            if not self.streaming:
                return super().handle_write()
            with self.outbuf_lock:
                self._flush_exception(self._flush_some)
            if self.close_when_flushed and not self.total_outbufs_len:
                self.close_when_flushed = False
                self.will_close = True
            if self.will_close:
                self.handle_close()


def device_of(addr) -> str:
    """The device a connection comes from: its peer's address (a venue's phones each have
    their own on its network)."""
    if isinstance(addr, tuple) and addr:
        return str(addr[0])
    return str(addr or "?")


def refusal(message: str, retry_after: int = 30) -> bytes:
    """A whole 429 response that closes its connection (sent before the request is read)."""
    body = json.dumps({"error": message, "status": 429, "retry_after": retry_after}).encode("utf-8")
    return (b"HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\n"
            b"Retry-After: %d\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s"
            % (retry_after, len(body), body))


def _raise_file_limit(wanted: int) -> None:
    """Let the process hold `wanted` sockets (POSIX: raise the soft limit toward the hard one)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit for sockets
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted + 64
    if soft != resource.RLIM_INFINITY and soft < target:
        new = target if hard == resource.RLIM_INFINITY else min(target, hard)
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))
        except (ValueError, OSError):
            pass


def connection_limit(wanted: int | None = None) -> int:
    """The connection limit to serve with: `wanted` (default `CONNECTION_LIMIT`), within
    what the platform's event loop takes (Windows' `select()`: 512 sockets)."""
    limit = wanted or CONNECTION_LIMIT
    if sys.platform.startswith("win"):
        limit = min(limit, 500)
    return limit


def _listeners(server) -> list:
    """The servers that accept connections: `server` itself, or each of a multi-socket
    server's (waitress makes one per address it listens on)."""
    if hasattr(server, "channel_class"):
        return [server]
    return [s for s in server.map.values() if hasattr(s, "channel_class")]


def create_server(app, *, host: str = "127.0.0.1", port: int = 5000, threads: int = 8,
                  connections: int | None = None, devices: Devices | None = None, **kw: Any):
    """A waitress server for `app` whose live streams hold no worker thread (see the
    module). `server.judgekit_hub` is its hub; `server.judgekit_devices` counts what each
    device holds (`devices`: its caps; default `Devices(limit)`); `server.run()` serves
    until interrupted."""
    limit = connection_limit(connections)
    _raise_file_limit(limit)
    # waitress logs a line for every request that waits for a thread: a flood under load
    logging.getLogger("waitress.queue").setLevel(logging.ERROR)
    kw.setdefault("channel_timeout", 60)
    server = _create_server(app, host=host, port=port, threads=threads, ident="judgekit",
                            connection_limit=limit, asyncore_use_poll=True, **kw)
    if not supported():
        log.warning("this waitress cannot hand streams over: live pages poll instead")
        return server
    hub = Hub(app.config["DATABASE"]).start()
    devices = devices or Devices(limit)
    for s in _listeners(server):
        s.channel_class = LiveChannel
        s.judgekit_hub = hub
        s.judgekit_devices = devices
    server.judgekit_hub = hub
    server.judgekit_devices = devices
    return server


def serve(app, *, host: str, port: int, threads: int = 8, connections: int | None = None,
          ready: Callable[[Any], None] | None = None) -> None:
    """Serve `app` until interrupted (what `judgekit serve` runs). `ready(server)` is called
    once the address is bound, before the first request: a port in use raises OSError
    before anything says "ready"."""
    server = create_server(app, host=host, port=port, threads=threads, connections=connections)
    hub = getattr(server, "judgekit_hub", None)
    try:
        if ready is not None:
            ready(server)
        server.run()
    finally:
        if hub is not None:
            hub.stop()


def run_in_thread(app, **kw: Any):
    """Start a server in a daemon thread (tests, benches): returns (server, base URL).
    Stop it with `stop(server)`."""
    kw.setdefault("port", 0)
    server = create_server(app, **kw)
    thread = threading.Thread(target=server.run, name="judgekit-waitress", daemon=True)
    thread.start()
    host = kw.get("host", "127.0.0.1")
    return server, f"http://{host}:{server.effective_port}"


def stop(server) -> None:
    hub = getattr(server, "judgekit_hub", None)
    if hub is not None:
        hub.stop()
    server.close()
    server.task_dispatcher.shutdown(timeout=5)
