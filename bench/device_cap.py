"""One device against the hall: can it take every connection? (issue 28, item 2)

    python bench/device_cap.py [--flood 995] [--pages 100] [--requests 300]

Starts `judgekit serve` (its defaults: 1,000 connections) on a fresh instance with one
event (from the code in --repo: default this repository), then:
1. --pages devices (127.0.1.x, one loopback address each) open a live stream each: how many
   are served (200) and how long the first answer took;
2. one device (127.0.0.66) opens --flood streams, then another (127.0.0.67) --flood idle
   connections, and a third (127.0.0.68) --flood connections that send half a request
   head: how many of each were served, answered 429, or left without an answer;
3. meanwhile and after, another device (127.0.0.99) reads the hall's state
   (`GET /api/tournaments/<id>/hall`) --requests times over fresh connections: p50/p95/max
   and failures (the probe's: "another device's request then timed out");
4. the server's open file descriptors and RSS.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from proctree import describe  # noqa: E402
from recorder import free_port, launch_serve, pct, stop_serve  # noqa: E402

REPO = HERE.parent


def start(instance: Path, repo: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = dict(os.environ, JUDGEKIT_INSTANCE=str(instance), PYTHONPATH=str(repo))
    proc, _ = launch_serve(port, env, instance / "serve.log", "/api/tournaments", cwd=repo, timeout=120)
    return proc, port


def connect(port: int, device: str) -> socket.socket | None:
    try:
        return socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(device, 0))
    except OSError:
        return None


def first_answer(sock: socket.socket, timeout: float = 5) -> bytes:
    sock.settimeout(timeout)
    data = b""
    try:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    return data


def outcome(data: bytes) -> str:
    if data.startswith(b"HTTP/1.1 200"):
        return "200"
    if data.startswith(b"HTTP/1.1 429"):
        return "429"
    return "no answer" if not data else data[:12].decode("latin-1")


def flood(port: int, device: str, n: int, send: bytes | None) -> tuple[list[socket.socket], dict]:
    socks, counts = [], {}
    for _ in range(n):
        s = connect(port, device)
        if s is None:
            counts["refused by the system"] = counts.get("refused by the system", 0) + 1
            continue
        if send:
            try:
                s.sendall(send)
            except OSError:
                pass
        socks.append(s)
    for s in socks:
        got = outcome(first_answer(s, 0.5 if send is None or b"\r\n\r\n" not in send else 5))
        counts[got] = counts.get(got, 0) + 1
    return socks, counts


def reads(port: int, path: str, n: int) -> tuple[list[float], int]:
    took, failed = [], 0
    for _ in range(n):
        t = time.perf_counter()
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=("127.0.0.99", 0))
            c.request("GET", path, headers={"Accept": "application/json"})
            ok = c.getresponse().status == 200
            c.close()
        except OSError:
            ok = False
        if ok:
            took.append((time.perf_counter() - t) * 1000)
        else:
            failed += 1
    return took, failed


def fds(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--flood", type=int, default=995)
    ap.add_argument("--pages", type=int, default=100)
    ap.add_argument("--requests", type=int, default=300)
    ap.add_argument("--repo", default=str(REPO), help="the judgekit checkout to serve (an older one to compare)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="judgekit-cap-") as d:
        instance = Path(d)
        proc, port = start(instance, Path(args.repo))
        held: list[socket.socket] = []
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.request("POST", "/api/tournaments", json.dumps({"name": "Cap Open"}),
                      {"Content-Type": "application/json"})
            tid = json.loads(c.getresponse().read())["id"]
            live = f"/api/tournaments/{tid}/live"
            stream_head = f"GET {live} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n".encode()
            hall = f"/api/tournaments/{tid}/hall"

            base, failed = reads(port, hall, args.requests)
            print(f"another device's reads, nothing else open: p50 {pct(base, 50):.1f} ms  p95 {pct(base, 95):.1f} ms  "
                  f"max {max(base):.1f} ms, failed {failed}", flush=True)

            t0 = time.perf_counter()
            pages, counts = [], {}
            for k in range(args.pages):
                s = connect(port, f"127.0.{1 + k // 250}.{1 + k % 250}")
                s.sendall(stream_head)
                pages.append(s)
            for s in pages:
                got = outcome(first_answer(s))
                counts[got] = counts.get(got, 0) + 1
            held += pages
            print(f"{args.pages} devices open a stream each: {counts} in {time.perf_counter() - t0:.1f} s", flush=True)

            during: list[float] = []
            failed_during = [0]

            def reader():
                took, bad = reads(port, hall, args.requests)
                during.extend(took)
                failed_during[0] += bad
            t = threading.Thread(target=reader)
            t.start()
            for device, what, send in (("127.0.0.66", "streams", stream_head),
                                       ("127.0.0.67", "idle connections", None),
                                       ("127.0.0.68", "half-sent request heads", b"GET /api/tourn")):
                t1 = time.perf_counter()
                socks, counts = flood(port, device, args.flood, send)
                held += socks
                print(f"one device ({device}) opens {args.flood} {what}: {counts} "
                      f"({time.perf_counter() - t1:.1f} s); server fds {fds(proc.pid)}", flush=True)
            t.join()
            print(f"another device's reads during the floods: p50 {pct(during, 50):.1f} ms  "
                  f"p95 {pct(during, 95):.1f} ms  max {max(during):.1f} ms, failed {failed_during[0]}", flush=True)
            after, failed = reads(port, hall, args.requests)
            print(f"another device's reads with the floods still open: p50 {pct(after, 50):.1f} ms  "
                  f"p95 {pct(after, 95):.1f} ms  max {max(after):.1f} ms, failed {failed}", flush=True)
            s = connect(port, "127.0.0.98")
            s.sendall(stream_head)
            print(f"a new device's stream with the floods open: {outcome(first_answer(s))}", flush=True)
            held.append(s)
            print(f"server: {describe(proc.pid)}; fds {fds(proc.pid)}; load average {os.getloadavg()[0]:.1f} "
                  f"on {os.cpu_count()} cores", flush=True)
        finally:
            for s in held:
                s.close()
            stop_serve(proc)


if __name__ == "__main__":
    main()
