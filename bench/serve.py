"""Serving benchmark: cold start, memory, and /api/search under 16 concurrent clients.

    python bench/serve.py [--requests 4000] [--clients 16]

1. Prepares an instance folder with `judgekit build` (index present), then starts
   `judgekit serve` (waitress) and measures the time from process start to the first
   answer of /api/search (target <= 1.5 s).
2. Sends the queries of tests/search_queries from --clients threads over keep-alive
   connections and prints throughput, p50/p95/p99 latency and errors (target p95 <= 20 ms).
3. Prints the serving process's RSS after the load (target <= 150 MB).
"""
from __future__ import annotations

import argparse
import http.client
import os
import shutil
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=4000)
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=int, default=15, help="wrk run length")
    ap.add_argument("--no-cache", action="store_true", help="serve with the search result cache off")
    ap.add_argument("--python-client", action="store_true", help="use the threaded Python client even if wrk exists")
    args = ap.parse_args()
    queries = [line.split("\t")[0] for line in (ROOT / "tests" / "search_queries").read_text().splitlines()
               if line.strip() and not line.startswith("#")]
    judgekit = [sys.executable, "-m", "judgekit.cli"]
    with tempfile.TemporaryDirectory() as instance:
        env = dict(os.environ, JUDGEKIT_INSTANCE=instance)
        if args.no_cache:
            env["JUDGEKIT_SEARCH_CACHE"] = "0"
            print("search result cache: off (every request runs the search)")
        else:
            print("search result cache: on (the default; repeated queries are answered from memory)")
        subprocess.run(judgekit + ["build"], env=env, check=True, capture_output=True)
        port = free_port()
        started = time.perf_counter()
        proc = subprocess.Popen(judgekit + ["serve", "--port", str(port)], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            first = None
            while time.perf_counter() - started < 30:
                try:
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                    conn.request("GET", "/api/search?q=vp+withdraw")
                    if conn.getresponse().status == 200:
                        first = time.perf_counter() - started
                        break
                except OSError:
                    time.sleep(0.01)
            if first is None:
                raise SystemExit("the server did not answer within 30 s")
            print(f"cold start to first /api/search answer (index present): {first:.2f} s (target <= 1.5 s)")
            print(f"RSS after start: {rss_mb(proc.pid):.0f} MB")

            if shutil.which("wrk") and not args.python_client:
                run_wrk(port, queries, args)
            else:
                run_python_client(port, queries, args)
            print(f"RSS after load: {rss_mb(proc.pid):.0f} MB (target <= 150 MB)")
        finally:
            proc.terminate()
            proc.wait(10)


WRK_SCRIPT = """
local queries = {%s}
local i = 0
request = function()
  i = i + 1
  return wrk.format("GET", "/api/search?q=" .. queries[(i %% #queries) + 1])
end
done = function(summary, latency, requests)
  io.write(string.format("WRK %%d %%d %%d %%.3f %%.3f %%.3f %%.3f\\n", summary.requests,
    summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.duration, latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000))
end
"""


def run_wrk(port: int, queries: list[str], args) -> None:
    """Load from wrk (a C client, so the 2 cores go to the server rather than the client)."""
    lua = WRK_SCRIPT % ", ".join('"%s"' % urllib.parse.quote(q) for q in queries)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as fh:
        fh.write(lua)
    out = subprocess.run(["wrk", "-t", "2", "-c", str(args.clients), "-d", f"{args.seconds}s",
                          "-s", fh.name, f"http://127.0.0.1:{port}"], capture_output=True, text=True)
    os.unlink(fh.name)
    line = next((l for l in out.stdout.splitlines() if l.startswith("WRK ")), None)
    if line is None:
        raise SystemExit(f"wrk failed: {out.stdout} {out.stderr}")
    _, n, errors, micros, p50, p95, p99, worst = line.split()
    secs = int(micros) / 1e6
    print(f"/api/search with wrk, {args.clients} concurrent connections for {secs:.0f} s: "
          f"{int(n)} requests, {int(n) / secs:.0f} req/s, errors: {errors}")
    print(f"latency p50 {float(p50):.1f} ms  p95 {float(p95):.1f} ms  p99 {float(p99):.1f} ms  "
          f"max {float(worst):.1f} ms  (target p95 <= 20 ms)")


def run_python_client(port: int, queries: list[str], args) -> None:
    if True:
        if True:
            latencies: list[float] = []
            errors: list[str] = []
            lock = threading.Lock()
            per_client = args.requests // args.clients

            def client(n: int) -> None:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                mine = []
                for i in range(per_client):
                    q = queries[(n * 7 + i) % len(queries)]
                    path = "/api/search?q=" + urllib.parse.quote(q)
                    t = time.perf_counter()
                    try:
                        conn.request("GET", path)
                        resp = conn.getresponse()
                        resp.read()
                        if resp.status != 200:
                            with lock:
                                errors.append(f"{resp.status} {q}")
                    except OSError as exc:
                        with lock:
                            errors.append(repr(exc))
                        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    mine.append((time.perf_counter() - t) * 1000)
                with lock:
                    latencies.extend(mine)

            threads = [threading.Thread(target=client, args=(n,)) for n in range(args.clients)]
            t0 = time.perf_counter()
            for th in threads:
                th.start()
            for th in threads:
                th.join()
            wall = time.perf_counter() - t0
            print(f"/api/search, {args.clients} concurrent clients, {len(latencies)} requests in {wall:.1f} s: "
                  f"{len(latencies) / wall:.0f} req/s")
            print(f"latency p50 {statistics.median(latencies):.1f} ms  p95 {pct(latencies, 95):.1f} ms  "
                  f"p99 {pct(latencies, 99):.1f} ms  (target p95 <= 20 ms); errors: {len(errors)}")
            if errors:
                print("first errors:", errors[:5])


if __name__ == "__main__":
    main()
