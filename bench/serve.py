"""Serving benchmark: cold start, memory, and /api/search under 16 concurrent clients.

    python bench/serve.py [--requests 6000] [--clients 16] [--threads N]

1. Prepares an instance folder with `judgekit build` (index present), starts
   `judgekit serve` (waitress, its default settings) and measures the time from process
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

The clients are threads of this process over keep-alive connections, with pre-built
requests and a minimal HTTP reader, so that the client spends as little of the machine's
CPU as it can. Figures, not assertions: the lead re-runs it on an idle machine.
"""
from __future__ import annotations

import argparse
import http.client
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (and its threads) so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


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


class Connection:
    """A keep-alive HTTP/1.1 connection that reads responses with Content-Length only."""

    def __init__(self, port: int):
        self.port = port
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def get(self, raw: bytes) -> int:
        self.sock.sendall(raw)
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed by the server")
            self.buf += chunk
        head, _, rest = self.buf.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split()[1])
        length = next(int(line.split(b":", 1)[1]) for line in lines[1:]
                      if line.lower().startswith(b"content-length:"))
        while len(rest) < length:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed by the server")
            rest += chunk
        self.buf = rest[length:]
        return status

    def close(self) -> None:
        self.sock.close()


def run_load(port: int, pid: int, queries: list[str], requests: int, clients: int) -> dict:
    """`requests` GETs from `clients` threads, each taking the next query of the list."""
    raws = [request_bytes(q, port) for q in queries]
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    counter = iter(range(requests))
    start = threading.Barrier(clients + 1)

    def client() -> None:
        conn = Connection(port)
        mine = []
        start.wait()
        while True:
            with lock:
                i = next(counter, None)
            if i is None:
                break
            raw = raws[i % len(raws)]
            t = time.perf_counter()
            try:
                status = conn.get(raw)
                if status != 200:
                    with lock:
                        errors.append(f"{status} {queries[i % len(queries)]!r}")
            except OSError as exc:
                with lock:
                    errors.append(repr(exc))
                conn.close()
                conn = Connection(port)
            mine.append((time.perf_counter() - t) * 1000)
        conn.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for th in threads:
        th.start()
    cpu0 = cpu_seconds(pid)
    start.wait()
    t0 = time.perf_counter()
    for th in threads:
        th.join()
    wall = time.perf_counter() - t0
    cpu = cpu_seconds(pid) - cpu0
    return {"n": len(latencies), "wall": wall, "rps": len(latencies) / wall,
            "p50": statistics.median(latencies), "p95": pct(latencies, 95), "p99": pct(latencies, 99),
            "max": max(latencies), "errors": errors, "cpu_ms": cpu * 1000 / max(1, len(latencies)),
            "rss": rss_mb(pid)}


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
          f"max {r['max']:.1f} ms  (target p95 <= 20 ms); server CPU {r['cpu_ms']:.2f} ms/request; "
          f"RSS {r['rss']:.0f} MB (target <= 150 MB)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=6000, help="requests per run (default 6000)")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--threads", type=int, default=None, help="judgekit serve --threads (default: its own)")
    ap.add_argument("--only", choices=("uncached", "cached"), help="run one of the two loads")
    args = ap.parse_args()
    whole = whole_queries()
    typed = typed_queries(whole)
    judgekit = [sys.executable, "-m", "judgekit.cli"]
    results = {}
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
                results[label] = run_load(port, proc.pid, queries, requests, args.clients)
                report(label, results[label], args.clients)
            finally:
                proc.terminate()
                proc.wait(10)
    if len(results) == 2:
        print(f"/api/search p95 with {args.clients} clients: uncached {results['uncached']['p95']:.1f} ms "
              f"(headline, target <= 20 ms), cached {results['cached']['p95']:.1f} ms "
              f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores: figures from a busy "
              f"machine are not the server's)")


if __name__ == "__main__":
    main()
