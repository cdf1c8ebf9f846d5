"""The live stream under the server `judgekit serve` runs (uvicorn, the Flask app through
a2wsgi, the streams as coroutines fed by the hub): open streams hold no worker thread, every stream gets each message once,
closed pages are let go, quiet streams are pinged, a reconnect with Last-Event-ID misses
nothing. Waits are for conditions (a deadline, never a fixed sleep)."""
from __future__ import annotations

import http.client
import itertools
import json
import socket
import time

import pytest

from judgekit.live import serving


def until(condition, timeout=20.0, what="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


_devices = itertools.count(1)


class Reader:
    """One open stream over a raw socket: what arrived so far, its events by kind. Each
    reader is its own device (a loopback address of its own: 127.0.1.x, ...), as each page
    of a venue is on a phone of its own (a device may hold a few streams only)."""

    def __init__(self, port: int, path: str, headers: dict | None = None, device: str | None = None):
        n = next(_devices)
        device = device or f"127.0.{1 + n // 250}.{1 + n % 250}"
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=20, source_address=(device, 0))
        self.sock.setblocking(False)
        extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n{extra}\r\n".encode())
        self.raw = b""

    def read(self) -> bytes:
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                self.raw += chunk
        except BlockingIOError:
            pass
        return self.raw

    @property
    def head(self) -> str:
        return self.raw.split(b"\r\n\r\n", 1)[0].decode("latin-1")

    def body(self) -> str:
        """The body with the chunked framing taken off."""
        raw = self.read()
        rest = raw.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in raw else b""
        out = b""
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            if not size_line:
                break
            size = int(size_line, 16)
            if len(rest) < size + 2:
                break
            out += rest[:size]
            rest = rest[size + 2:]
        return out.decode("utf-8")

    def events(self, kind: str | None = None) -> list[tuple[str | None, str, dict]]:
        out = []
        for block in self.body().split("\n\n"):
            fields = dict(line.split(": ", 1) for line in block.split("\n") if ": " in line and not line.startswith(":"))
            if "event" in fields and (kind is None or fields["event"] == kind):
                out.append((fields.get("id"), fields["event"], json.loads(fields["data"])))
        return out

    def close(self):
        self.sock.close()


@pytest.fixture
def served(tmp_path, shared_index):
    """`judgekit serve`'s server on a free port, 2 worker threads, with an event whose round 1
    is open: (server, port, tournament id, the organizer's headers)."""
    from judgekit import create_app
    app = create_app({"INSTANCE": tmp_path / "instance", "INDEX_DIR": str(shared_index)})
    server, _ = serving.run_in_thread(app, threads=2)
    port = server.port
    status, body = request(port, "POST", "/api/tournaments", {"name": "Served Cup"})
    tid, org = body["id"], {"Authorization": f"Bearer {body['token']}"}
    request(port, "POST", f"/api/tournaments/{tid}/players",
            [{"name": f"P{k}", "vekn": str(500 + k)} for k in range(8)], org)
    request(port, "POST", f"/api/tournaments/{tid}/rounds", {"seed": 2}, org)
    yield server, port, tid, org
    serving.stop(server)


def request(port, method, path, body=None, headers=None):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    h = dict(headers or {})
    if body is not None:
        h["Content-Type"] = "application/json"
    conn.request(method, path, json.dumps(body) if body is not None else None, h)
    r = conn.getresponse()
    data = r.read()
    conn.close()
    return r.status, (json.loads(data) if data and r.getheader("Content-Type", "").startswith("application/json") else data)


def test_open_streams_hold_no_worker_thread_and_each_gets_every_message_once(served):
    server, port, tid, org = served
    hub = server.hub
    readers = [Reader(port, f"/api/tournaments/{tid}/live") for _ in range(30)]
    until(lambda: all(r.events("hello") for r in readers), what="30 hellos")
    until(lambda: hub.count() == 30, what="the hub to hold 30 streams")
    head = readers[0].head.lower()
    assert head.startswith("http/1.1 200") and "transfer-encoding: chunked" in head
    assert "content-length" not in head and "content-encoding" not in head
    assert "content-security-policy: default-src 'self'" in head and "x-content-type-options: nosniff" in head
    assert all(r.events("hello")[0][2]["mode"] == "push" for r in readers)
    # 30 open streams on 2 worker threads (each stream's first answer took one for a moment),
    # and a page is served at once
    assert server.live.streams == 30
    status, body = request(port, "GET", f"/api/tournaments/{tid}/hall")
    assert status == 200 and body["event"] == "Served Cup"
    status, call = request(port, "POST", f"/api/tournaments/{tid}/calls", {"table": 1, "reason": "ruling"})
    assert status == 201
    until(lambda: all(r.events("call.opened") for r in readers), what="the call on every stream")
    ids = {r.events("call.opened")[0][0] for r in readers}
    assert len(ids) == 1 and all(len(r.events("call.opened")) == 1 for r in readers)
    assert "reason" not in readers[0].events("call.opened")[0][2]   # the public stream
    for r in readers:
        r.close()


def test_closed_pages_are_let_go_and_quiet_streams_pinged(served):
    server, port, tid, org = served
    hub = server.hub
    hub.ping_s = 0.3
    readers = [Reader(port, f"/api/tournaments/{tid}/live") for _ in range(12)]
    until(lambda: hub.count() == 12, what="12 streams")
    for r in readers[:8]:
        r.close()
    until(lambda: hub.count() == 4, what="the closed streams to be dropped")
    until(lambda: all(r.events("ping") for r in readers[8:]), what="pings")
    assert ": keep-alive\n" in readers[8].body()
    until(lambda: server.live.streams == 4, what="the closed streams' answers ended")
    until(lambda: sum(server.devices.held(f"127.0.{1 + n // 250}.{1 + n % 250}")[1] for n in range(1, 1000)) == 4,
          what="the closed streams no longer counted against their devices")


def test_a_reconnect_with_last_event_id_misses_nothing_and_doubles_nothing(served):
    server, port, tid, org = served
    first = Reader(port, f"/api/tournaments/{tid}/live", {"Cookie": ""})
    until(lambda: first.events("hello"), what="hello")
    request(port, "POST", f"/api/tournaments/{tid}/calls", {"table": 1})
    until(lambda: first.events("call.opened"), what="the first call")
    seen = first.events("call.opened")[0][0]
    first.close()   # the Wi-Fi drops; meanwhile:
    request(port, "POST", f"/api/tournaments/{tid}/calls", {"table": 2})
    request(port, "POST", f"/api/tournaments/{tid}/rounds/1/tables/1/extend", {"minutes": 2, "reason": "ruling"}, org)
    again = Reader(port, f"/api/tournaments/{tid}/live", {"Last-Event-ID": seen})
    until(lambda: len([e for e in again.events() if e[0]]) == 2, what="the two missed messages")
    request(port, "POST", f"/api/tournaments/{tid}/rounds/1/tables/2/extend", {"minutes": 3, "reason": "deck"}, org)
    until(lambda: len(again.events("extension.recorded")) == 2, what="the next message, pushed")
    got = [(i, k) for i, k, _ in again.events() if i]
    assert [k for _, k in got] == ["call.opened", "extension.recorded", "extension.recorded"]
    assert len({i for i, _ in got}) == 3 and min(int(i) for i, _ in got) > int(seen)
    again.close()


def test_each_audience_on_its_own_stream(served):
    server, port, tid, org = served
    public = Reader(port, f"/api/tournaments/{tid}/live")
    head = Reader(port, f"/api/tournaments/{tid}/live", org)
    room = Reader(port, f"/api/tournaments/{tid}/live?audience=public", org)
    until(lambda: public.events("hello") and head.events("hello") and room.events("hello"), what="hellos")
    status, players = request(port, "GET", f"/api/tournaments/{tid}/players", headers=org)
    request(port, "POST", f"/api/tournaments/{tid}/penalties",
            {"player": players["players"][0]["id"], "infraction": "slow play", "description": "slow"}, org)
    request(port, "POST", f"/api/tournaments/{tid}/calls", {"table": 2, "reason": "deck"})
    until(lambda: all(r.events("call.opened") for r in (public, head, room)), what="the call everywhere")
    assert head.events("penalty.recorded") and head.events("call.opened")[0][2]["reason"] == "deck"
    for r in (public, room):
        assert not [e for e in r.events() if e[1].startswith("penalty.")]
        assert "reason" not in r.events("call.opened")[0][2]
    for r in (public, head, room):
        r.close()


def test_a_head_request_is_answered_and_ends(served):
    server, port, tid, org = served
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    conn.request("HEAD", f"/api/tournaments/{tid}/live")
    r = conn.getresponse()
    assert r.status == 200 and r.getheader("Content-Type").startswith("text/event-stream")
    assert r.read() == b""
    conn.close()
    assert server.hub.count() == 0 and server.live.streams == 0


def test_the_server_holds_a_hall_of_connections(served):
    server, port, tid, org = served
    assert server.devices.limit == serving.connection_limit() >= 500
    resource = pytest.importorskip("resource")          # POSIX: sockets count as open files
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = serving.FILE_LIMIT if hard == resource.RLIM_INFINITY else min(hard, serving.FILE_LIMIT)
    assert soft == resource.RLIM_INFINITY or soft >= wanted


def test_stopping_the_server_ends_the_open_streams(tmp_path, shared_index):
    from judgekit import create_app
    app = create_app({"INSTANCE": tmp_path / "instance", "INDEX_DIR": str(shared_index)})
    server, _ = serving.run_in_thread(app, threads=2)
    status, body = request(server.port, "POST", "/api/tournaments", {"name": "Short Cup"})
    readers = [Reader(server.port, f"/api/tournaments/{body['id']}/live") for _ in range(3)]
    until(lambda: server.live.streams == 3, what="3 streams")
    serving.stop(server)
    assert not server.thread.is_alive()                       # stopped, not waiting on the streams
    for r in readers:                                         # each answer ended with the last chunk
        until(lambda: r.read().endswith(b"0\r\n\r\n"), what="the end of the answer")
        r.close()
