"""Serving benchmark: cold start, memory, and /api/search under 16 concurrent clients.

    python bench/serve.py [--requests 6000] [--clients 16] [--threads N] [--paced-seconds 30]

1. Prepares an instance folder with `judgekit build` (index present), starts
   `judgekit serve` (uvicorn, its default settings) and measures the time from process
   start to the first answer of /api/search (target <= 1.5 s).
2. **Uncached (the headline)**: the server runs with its search result cache off
   (JUDGEKIT_SEARCH_CACHE=0) and every request is a query not sent before in the run: the
   words of the judges' query sets (tests/search_queries, tests/search_questions,
   bench/heldout_queries.tsv, and the card sets tests/search_cards, bench/heldout_cards.tsv,
   bench/heldout_card_behaviour.tsv) as the search box sends them while they are typed
   (static/search.js: `/api/search?limit=12&q=…`, one request per prefix).
3. **Cached**: a second server with the cache on (the default), the same sets' whole
   queries sent over and over, as when many judges look up the same few questions.
4. For each: throughput, p50/p95/p99 latency (from sending a request to reading its last
   byte), errors, the server's CPU time per request, and its RSS (target <= 150 MB).
5. **Paced: judges typing** (both servers, after the hammer). 2 and 3 are *closed loops*:
   16 clients each send the next request the moment the last is answered, so the server is
   saturated and the latency is mostly the wait behind the 15 others (the saturation
   figure). Judges do not do that. The paced model follows static/search.js: a request
   90 ms after a keystroke (its debounce; keystrokes 150-250 ms apart, so every keystroke
   that changes the trimmed text sends one, from the first letter), a new request aborting
   the one still in flight (the browser closes its connection; the server still does the
   work), and a pause of 2-8 s between questions (reading the answer). 16 judges type the
   query sets' questions for `--paced-seconds`, each their own, all at once. The latency
   is counted from each request's *scheduled* time (the keystroke + 90 ms), not from when
   the client got round to sending it, so queueing anywhere shows; an aborted request
   counts as answered no sooner than its abort. Not modelled: the venue's Wi-Fi.

The clients are keep-alive connections driven by one thread of this process (non-blocking
sockets and `selectors`, pre-built requests, a minimal HTTP reader), so that the clients
spend as little of the machine's two cores as they can and no client waits for another's
turn at this process's interpreter lock (the bench prints the clients' CPU per request). Figures, not assertions: the lead re-runs it on an idle machine.
"""
from __future__ import annotations

import argparse
import heapq
import http.client
import os
import random
import selectors
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from pathlib import Path

from proctree import describe, descendants

ROOT = Path(__file__).resolve().parents[1]
QUERY_FILES = [ROOT / "tests" / "search_queries", ROOT / "tests" / "search_questions",
               ROOT / "bench" / "heldout_queries.tsv", ROOT / "tests" / "search_cards",
               ROOT / "bench" / "heldout_cards.tsv", ROOT / "bench" / "heldout_card_behaviour.tsv"]
LIMIT = 12          # what static/search.js asks for


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _own_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of a process (its threads) and of the processes it
    started: the server's whole cost."""
    total = _own_cpu(pid)
    for child in descendants(pid):
        try:
            total += _own_cpu(child)
        except OSError:   # ended meanwhile
            pass
    return total


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def whole_queries() -> list[str]:
    out = []
    for path in QUERY_FILES:
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip() and not line.startswith("#"):
                    out.append(line.split("\t")[0].strip())
    return out


def typed_queries(queries: list[str]) -> list[str]:
    """Every distinct state of the search box while the queries are typed (from 2 letters),
    interleaved across queries the way many judges type at once."""
    seen: set[str] = set()
    per_query = []
    for q in queries:
        states = []
        for end in range(2, len(q) + 1):
            state = q[:end].strip()
            if len(state) >= 2 and state not in seen:
                seen.add(state)
                states.append(state)
        per_query.append(states)
    out = []
    for i in range(max(len(s) for s in per_query)):
        out.extend(s[i] for s in per_query if i < len(s))
    return out


def request_bytes(q: str, port: int) -> bytes:
    path = f"/api/search?limit={LIMIT}&q={urllib.parse.quote(q)}"
    return (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: */*\r\n"
            f"User-Agent: judgekit-bench\r\n\r\n").encode()


# --- paced: judges typing (static/search.js) ----------------------------------------------

DEBOUNCE = 0.090            # static/search.js: setTimeout(run, 90) after each input event
KEY_GAP = (0.150, 0.250)    # seconds between keystrokes
PAUSE = (2.0, 8.0)          # seconds between questions (reading the answer, thinking)


def typing_schedule(questions: list[str], seconds: float, rng: random.Random) -> list[tuple[float, str]]:
    """(send time, text) of the requests one judge's search box sends while typing
    `questions` one after the other for `seconds`: search.js sends the trimmed text 90 ms
    after a keystroke, unless it is empty or what it sent last (a space)."""
    out: list[tuple[float, str]] = []
    t = rng.uniform(0, PAUSE[1])       # judges do not all start on the same keystroke
    for q in questions:
        last = ""
        for end in range(1, len(q) + 1):
            t += rng.uniform(*KEY_GAP)
            text = q[:end].strip()
            if text and text != last:
                if t + DEBOUNCE >= seconds:
                    return out
                out.append((t + DEBOUNCE, text))
                last = text
        t += rng.uniform(*PAUSE)
    return out


class Judge:
    """One judge's search box: one keep-alive connection, at most one request in flight."""

    def __init__(self, port: int, sel: selectors.BaseSelector):
        self.port, self.sel = port, sel
        self.sock: socket.socket | None = None
        self.buf = b""
        self.pending: tuple[float, str] | None = None   # (scheduled time, text) in flight

    def connect(self) -> None:
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.sock.setblocking(False)
        self.buf = b""
        self.sel.register(self.sock, selectors.EVENT_READ, self)

    def abort(self) -> None:
        """What fetch's AbortController does to a request in flight: drop its connection."""
        self.sel.unregister(self.sock)
        self.sock.close()
        self.sock, self.pending = None, None

    def send(self, scheduled: float, text: str, raw: bytes | None = None) -> None:
        if self.sock is None:
            self.connect()
        self.pending = (scheduled, text)
        self.sock.sendall(raw or request_bytes(text, self.port))

    def readable(self) -> int | None:
        """Reads what came; the status once the whole response is in, else None."""
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("closed by the server")
        self.buf += chunk
        head, sep, rest = self.buf.partition(b"\r\n\r\n")
        if not sep:
            return None
        lines = head.split(b"\r\n")
        length = next(int(line.split(b":", 1)[1]) for line in lines[1:]
                      if line.lower().startswith(b"content-length:"))
        if len(rest) < length:
            return None
        self.buf = rest[length:]
        return int(lines[0].split()[1])


def run_load(port: int, pid: int, queries: list[str], requests: int, clients: int) -> dict:
    """`requests` GETs from `clients` keep-alive connections, each sending its next request
    (the next query of the list) the moment its last answer is in: a closed loop.

    The clients are one thread over non-blocking sockets (`selectors`), not a thread each:
    16 client threads would contend for this process's interpreter lock, and the time a
    thread waits for it to read an answer that has arrived would count as the server's.
    One thread costs the machine's two cores less CPU, and the latency is from the request's
    send() to reading its last byte."""
    raws = [request_bytes(q, port) for q in queries]
    sel = selectors.DefaultSelector()
    boxes = [Judge(port, sel) for _ in range(clients)]
    for box in boxes:
        box.connect()
    latencies: list[float] = []
    errors: list[str] = []
    sent = 0

    def send_next(box: Judge) -> None:
        nonlocal sent
        i = sent
        sent += 1
        try:
            box.send(time.perf_counter(), queries[i % len(queries)], raws[i % len(raws)])
        except OSError as exc:
            errors.append(repr(exc))
            box.abort()

    cpu0, own0, client0 = cpu_seconds(pid), _own_cpu(pid), time.process_time()
    t0 = time.perf_counter()
    for box in boxes:
        if sent < requests:
            send_next(box)
    while any(box.pending for box in boxes):
        for key, _ in sel.select(10):
            box = key.data
            try:
                status = box.readable()
            except OSError as exc:
                if box.pending is not None:
                    errors.append(repr(exc))
                    latencies.append((time.perf_counter() - box.pending[0]) * 1000)
                box.abort()
                if sent < requests:
                    send_next(box)
                continue
            if status is None:
                continue
            scheduled, text = box.pending
            latencies.append((time.perf_counter() - scheduled) * 1000)
            if status != 200:
                errors.append(f"{status} {text!r}")
            box.pending = None
            if sent < requests:
                send_next(box)
    wall = time.perf_counter() - t0
    cpu, own, client_cpu = cpu_seconds(pid) - cpu0, _own_cpu(pid) - own0, time.process_time() - client0
    for box in boxes:
        if box.sock is not None:
            box.abort()
    sel.close()
    return {"n": len(latencies), "wall": wall, "rps": len(latencies) / wall,
            "p50": statistics.median(latencies), "p95": pct(latencies, 95), "p99": pct(latencies, 99),
            "max": max(latencies), "errors": errors, "cpu_ms": cpu * 1000 / max(1, len(latencies)),
            "own_cpu_ms": own * 1000 / max(1, len(latencies)),
            "rss": rss_mb(pid), "tree": describe(pid),
            "client_cpu_ms": client_cpu * 1000 / max(1, len(latencies))}


def run_paced(port: int, pid: int, questions: list[str], judges: int, seconds: float, seed: int = 15) -> dict:
    """16 judges typing (see the module's 5.): latency from each request's scheduled time."""
    rng = random.Random(seed)
    questions = list(questions)
    rng.shuffle(questions)
    per_judge = [questions[j::judges] for j in range(judges)]
    sel = selectors.DefaultSelector()
    boxes = [Judge(port, sel) for _ in range(judges)]
    for box in boxes:
        box.connect()
    events = [(t, j, text) for j in range(judges)
              for t, text in typing_schedule(per_judge[j], seconds, rng)]
    heapq.heapify(events)
    n_sent = len(events)
    latencies: list[float] = []
    aborted: list[float] = []    # how long an aborted request had been waiting at its abort
    late: list[float] = []       # how late the client sent (its own delay, counted in latency)
    errors: list[str] = []
    cpu0 = cpu_seconds(pid)
    t0 = time.perf_counter()
    while events or any(b.pending for b in boxes):
        now = time.perf_counter() - t0
        while events and events[0][0] <= now:
            t, j, text = heapq.heappop(events)
            box = boxes[j]
            if box.pending is not None:
                aborted.append((now - box.pending[0]) * 1000)
                box.abort()
            late.append((now - t) * 1000)
            try:
                box.send(t, text)
            except OSError as exc:
                errors.append(repr(exc))
                box.abort()
        timeout = max(0.0, events[0][0] - (time.perf_counter() - t0)) if events else 1.0
        for key, _ in sel.select(timeout):
            box = key.data
            try:
                status = box.readable()
            except OSError as exc:
                errors.append(repr(exc))
                box.abort()
                continue
            if status is not None:
                scheduled, text = box.pending
                latencies.append((time.perf_counter() - t0 - scheduled) * 1000)
                if status != 200:
                    errors.append(f"{status} {text!r}")
                box.pending = None
    wall = time.perf_counter() - t0
    cpu = cpu_seconds(pid) - cpu0
    for box in boxes:
        if box.sock is not None:
            box.abort()
    return {"sent": n_sent, "n": len(latencies), "aborted": aborted, "wall": wall,
            "rps": n_sent / wall, "p50": statistics.median(latencies), "p95": pct(latencies, 95),
            "p99": pct(latencies, 99), "max": max(latencies), "late_p99": pct(late, 99),
            "errors": errors, "cpu_ms": cpu * 1000 / max(1, n_sent), "cpu_share": cpu / wall,
            "rss": rss_mb(pid)}


def report_paced(label: str, r: dict, judges: int) -> None:
    print(f"{label}: {judges} judges typing for {r['wall']:.0f} s: {r['sent']} requests ({r['rps']:.0f}/s offered), "
          f"{r['n']} answered, {len(r['aborted'])} aborted by the next keystroke, errors: {len(r['errors'])}"
          f"{' ' + str(r['errors'][:3]) if r['errors'] else ''}")
    print(f"    latency from the scheduled time: p50 {r['p50']:.1f} ms  p95 {r['p95']:.1f} ms  "
          f"p99 {r['p99']:.1f} ms  max {r['max']:.1f} ms; client late p99 {r['late_p99']:.1f} ms; "
          f"server CPU {r['cpu_ms']:.2f} ms/request ({r['cpu_share'] * 100:.0f} % of a core); RSS {r['rss']:.0f} MB")


def serve(instance: str, cache: bool, threads: int | None):
    env = dict(os.environ, JUDGEKIT_INSTANCE=instance)
    env["JUDGEKIT_SEARCH_CACHE"] = "2048" if cache else "0"
    port = free_port()
    cmd = [sys.executable, "-m", "judgekit.cli", "serve", "--port", str(port)]
    if threads:
        cmd += ["--threads", str(threads)]
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while time.perf_counter() - started < 30:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", "/api/search?q=vp+withdraw")
            if conn.getresponse().status == 200:
                return proc, port, time.perf_counter() - started
        except OSError:
            time.sleep(0.01)
    proc.terminate()
    raise SystemExit("the server did not answer within 30 s")


def report(label: str, r: dict, clients: int) -> None:
    print(f"{label}: {r['n']} requests from {clients} clients in {r['wall']:.1f} s, {r['rps']:.0f} req/s, "
          f"errors: {len(r['errors'])}{' ' + str(r['errors'][:3]) if r['errors'] else ''}")
    print(f"    latency p50 {r['p50']:.1f} ms  p95 {r['p95']:.1f} ms  p99 {r['p99']:.1f} ms  "
          f"max {r['max']:.1f} ms  (target p95 <= 20 ms); server CPU {r['cpu_ms']:.2f} ms/request "
          f"({r['own_cpu_ms']:.2f} in its own process); RSS {r['rss']:.0f} MB (target <= 150 MB); "
          f"the process tree: {r['tree']} (target <= 200 MB); "
          f"the clients' own CPU {r['client_cpu_ms']:.2f} ms/request")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=6000, help="requests per run (default 6000)")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--threads", type=int, default=None, help="judgekit serve --threads (default: its own)")
    ap.add_argument("--only", choices=("uncached", "cached"), help="run one of the two servers")
    ap.add_argument("--paced-seconds", type=float, default=30.0,
                    help="how long the judges type in the paced model (0: skip it; default 30)")
    ap.add_argument("--judges", type=int, default=16, help="judges typing in the paced model (default 16)")
    args = ap.parse_args()
    whole = whole_queries()
    typed = typed_queries(whole)
    judgekit = [sys.executable, "-m", "judgekit.cli"]
    results: dict[str, dict] = {}
    paced: dict[str, dict] = {}
    with tempfile.TemporaryDirectory() as instance:
        env = dict(os.environ, JUDGEKIT_INSTANCE=instance)
        subprocess.run(judgekit + ["build"], env=env, check=True, capture_output=True)
        for label, cache, queries in (("uncached", False, typed), ("cached", True, whole)):
            if args.only and args.only != label:
                continue
            proc, port, first = serve(instance, cache, args.threads)
            try:
                if label == "uncached":
                    print(f"cold start to first /api/search answer (index present): {first:.2f} s "
                          f"(target <= 1.5 s; the server's CPU time by then {cpu_seconds(proc.pid):.2f} s: "
                          f"on a busy machine the wall clock waits for a core); "
                          f"RSS after start: {rss_mb(proc.pid):.0f} MB")
                    requests = min(args.requests, len(queries))
                    print(f"uncached: search result cache off, {len(queries)} distinct queries "
                          f"(the query sets as typed, prefix by prefix), each sent once")
                else:
                    requests = args.requests
                    print(f"cached: search result cache on, the {len(queries)} whole queries sent over and over")
                # a second of load first, not counted, so that the figures are the
                # server's for the rest of the day
                warm_until = time.perf_counter() + 1.5
                while time.perf_counter() < warm_until:
                    run_load(port, proc.pid, whole[:200], 200, args.clients)
                results[label] = run_load(port, proc.pid, queries, requests, args.clients)
                report(f"{label}, closed loop (saturation)", results[label], args.clients)
                if args.paced_seconds > 0:
                    paced[label] = run_paced(port, proc.pid, whole, args.judges, args.paced_seconds)
                    report_paced(f"{label}, paced (judges typing, static/search.js)", paced[label], args.judges)
            finally:
                proc.terminate()
                proc.wait(10)
    if len(results) == 2:
        print(f"/api/search p95, closed loop of {args.clients} clients (saturation): uncached "
              f"{results['uncached']['p95']:.1f} ms (headline, target <= 20 ms), cached {results['cached']['p95']:.1f} ms; "
              f"server CPU {results['uncached']['cpu_ms']:.2f} / {results['cached']['cpu_ms']:.2f} ms per request")
    if len(paced) == 2:
        print(f"/api/search p95, paced ({args.judges} judges typing): uncached {paced['uncached']['p95']:.1f} ms, "
              f"cached {paced['cached']['p95']:.1f} ms")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores at the end: figures from a busy "
          f"machine are not the server's")


if __name__ == "__main__":
    main()
