"""Issue 28: one device cannot take every request the server serves at once. Per device (its
address): at most `per_device` requests open (being sent, answered, or streaming),
`streams` of them live streams, and the last `reserve` of the server's go only to devices
holding few; over a cap, a clear 429 (the page then polls). A request whose body is sent
slowly holds no worker thread. Runs the real server (uvicorn, the Flask app through a2wsgi,
the hub); each device is a loopback address of its own (127.0.0.x)."""
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
    srv, _ = serving.run_in_thread(app, devices=devices, connections=60, threads=2)
    try:
        yield srv, srv.port, tid, devices
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
    assert head.startswith(b"HTTP/1.1 429") and b"retry-after: 30" in head.lower()
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
    while sum(devices.held(d)[0] for d in names) != total and time.monotonic() < deadline:
        time.sleep(0.02)
    assert sum(devices.held(d)[0] for d in names) == total


def refused(sock) -> str:
    data = b""
    while chunk := sock.recv(65536):      # the answer closes its connection
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 429") and b"connection: close" in head.lower(), head
    return json.loads(body)["error"]


def slow_post(port, device, path="/api/tournaments"):
    """A request whose head is sent and whose body is not (yet): it stays open."""
    sock = connect(port, device)
    sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 "Content-Length: 40\r\n\r\n{\"name\": ".encode())
    return sock


def test_slow_requests_are_capped_per_device_with_a_reserve_and_hold_no_thread(server):
    srv, port, tid, devices = server
    slow = [slow_post(port, "127.0.0.7") for _ in range(6)]   # more than the 2 worker threads
    wait_held(devices, ["127.0.0.7"], 6)
    over = slow_post(port, "127.0.0.7")
    assert "requests open" in refused(over)
    crowd = {f"127.0.1.{k}": [slow_post(port, f"127.0.1.{k}") for _ in range(6)] for k in range(1, 7)}
    # 6 + 36 asked for: at 40 the reserve starts (the last 20 of 60), and the last two of
    # the crowd, whose devices hold `fair` or more already, are refused
    wait_held(devices, ["127.0.0.7", *crowd], 40)
    assert "requests open" in refused(crowd["127.0.1.6"][-1])
    few = [slow_post(port, "127.0.0.8") for _ in range(3)]    # a device holding fewer than `fair`: served
    wait_held(devices, ["127.0.0.8"], 3)
    greedy = slow_post(port, "127.0.0.8")                     # holds `fair` already: not from the reserve
    assert "requests open" in refused(greedy)
    fresh = connect(port, "127.0.0.9")                        # 49 slow bodies, 2 threads: still answered
    assert answer(fresh, "/api/tournaments", b"}").startswith(b"HTTP/1.1 200")
    done = slow[0]
    done.sendall(b'"Slow Cup"}' + b" " * 29)                  # the body completes: the request is answered
    assert answer_of(done).startswith(b"HTTP/1.1 201")
    for s in slow + [over, greedy, fresh] + few + [c for cs in crowd.values() for c in cs]:
        s.close()
    wait_held(devices, ["127.0.0.7", "127.0.0.8", *crowd], 0)


def answer_of(sock) -> bytes:
    data = b""
    deadline = time.monotonic() + 10
    while b"\r\n\r\n" not in data and time.monotonic() < deadline:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    return data
