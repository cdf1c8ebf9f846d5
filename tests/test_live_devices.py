"""Issue 28: one device cannot take every connection. Per device (its address): at most
`per_device` connections, `streams` of them live streams, and the last `reserve`
connections of the server go only to devices holding few; over a cap, a clear 429 (the
page then polls). Runs the real server (waitress with the hub); each device is a loopback
address of its own (127.0.0.x)."""
from __future__ import annotations

import json
import socket
import time

import pytest

from judgekit.live import serving
from judgekit.live.devices import Devices


def test_devices_count_per_device_and_keep_a_reserve():
    d = Devices(limit=20, per_device=8, streams=2, reserve=10, fair=2)
    assert all(d.connect("a") for _ in range(8))
    assert not d.connect("a")                       # its own cap
    assert d.connect("b") and d.connect("b")        # total 10: the reserve starts
    assert not d.connect("b")                       # holds `fair` already: the reserve is for others
    assert d.connect("c") and d.connect("c") and not d.connect("c")
    d.disconnect("a")
    assert d.held("a") == (7, 0) and not d.connect("a")   # still in the reserve
    assert d.open_stream("c") and d.open_stream("c") and not d.open_stream("c")
    d.close_stream("c")
    assert d.open_stream("c") and d.refused == 5
    for _ in range(10):
        d.disconnect("zz")                          # never counted: nothing goes negative
    assert d.held("zz") == (0, 0)


def connect(port, device):
    return socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(device, 0))


def answer(sock, path="/api/tournaments/1/live", until=b"\r\n\r\n") -> bytes:
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode())
    data = b""
    deadline = time.monotonic() + 10
    while until not in data and time.monotonic() < deadline:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data


@pytest.fixture
def server(app, client):
    tid = client.post("/api/tournaments", json={"name": "Hall Cup"}).get_json()["id"]
    devices = Devices(limit=60, per_device=6, streams=2, reserve=20, fair=3)
    srv, _ = serving.run_in_thread(app, devices=devices, connections=60)
    try:
        yield srv, srv.effective_port, tid, devices
    finally:
        serving.stop(srv)


def test_a_device_holds_a_few_streams_and_the_next_gets_a_clear_429(server):
    srv, port, tid, devices = server
    path = f"/api/tournaments/{tid}/live"
    first, second = connect(port, "127.0.0.5"), connect(port, "127.0.0.5")
    for s in (first, second):
        assert answer(s, path, b"event: hello").startswith(b"HTTP/1.1 200")
    third = connect(port, "127.0.0.5")
    refused = answer(third, path, b"}")
    head, _, body = refused.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 429") and b"Retry-After: 30" in head
    assert "live pages open" in json.loads(body)["error"]
    other = connect(port, "127.0.0.6")                       # another device: served
    assert answer(other, path, b"event: hello").startswith(b"HTTP/1.1 200")
    first.close()
    deadline = time.monotonic() + 10
    while devices.held("127.0.0.5")[1] > 1 and time.monotonic() < deadline:
        time.sleep(0.02)
    again = connect(port, "127.0.0.5")                      # a page closed: its slot is free again
    assert answer(again, path, b"event: hello").startswith(b"HTTP/1.1 200")
    for s in (second, third, other, again):
        s.close()


def wait_held(devices, names, total):
    deadline = time.monotonic() + 10
    while sum(devices.held(d)[0] for d in names) < total and time.monotonic() < deadline:
        time.sleep(0.02)
    assert sum(devices.held(d)[0] for d in names) == total


def refused(sock) -> str:
    head, _, body = sock.recv(65536).partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 429") and b"Connection: close" in head, head
    return json.loads(body)["error"]


def test_idle_and_slow_connections_are_capped_per_device_with_a_reserve(server):
    srv, port, tid, devices = server
    idle = [connect(port, "127.0.0.7") for _ in range(6)]
    idle[0].sendall(b"GET /api/tourn")                      # slowly sent: still one of its six
    wait_held(devices, ["127.0.0.7"], 6)
    over = connect(port, "127.0.0.7")
    assert "connections open" in refused(over)
    crowd = {f"127.0.1.{k}": [connect(port, f"127.0.1.{k}") for _ in range(6)] for k in range(1, 7)}
    # 6 + 36 asked for: at 40 the reserve starts (the last 20 of 60), and the last two of
    # the crowd, whose devices hold `fair` or more already, are refused
    wait_held(devices, ["127.0.0.7", *crowd], 40)
    assert "connections open" in refused(crowd["127.0.1.6"][-1])
    few = [connect(port, "127.0.0.8") for _ in range(3)]    # a device holding fewer than `fair`: served
    wait_held(devices, ["127.0.0.8"], 3)
    greedy = connect(port, "127.0.0.8")                     # holds `fair` already: not from the reserve
    assert "connections open" in refused(greedy)
    fresh = connect(port, "127.0.0.9")                      # another device still gets in, and an answer
    assert answer(fresh, "/api/tournaments", b"}").startswith(b"HTTP/1.1 200")
    for s in idle + [over, greedy, fresh] + few + [c for cs in crowd.values() for c in cs]:
        s.close()
