"""Memory of the whole server: the PSS of `judgekit serve`'s process tree after a big
event's day (issue 28; target <= 200 MB).

    python bench/memory.py [--games 480] [--events 1000] [--pregrown FILE] [--requests 4000]
                           [--repo DIR]

1. A database as late in a round (bench/recorder.py's `pregrow`: --games games of --events
   events and one of 2,000; --pregrown FILE keeps it for later runs).
2. `judgekit serve` (its default settings) with the search result cache off
   (JUDGEKIT_SEARCH_CACHE=0), from the code in --repo (default: this repository; give an
   older checkout to compare).
3. Every game opened as the recorder page opens one (GET /games/<id>, GET /api/games/<id>),
   by 8 judges signed in with the judge code, 4 at a time.
4. The uncached search load: --requests distinct queries (the query sets as typed, prefix
   by prefix, bench/serve.py's `typed_queries`) from 16 keep-alive clients, closed loop.
5. After each step: the PSS of the server and of every process it started
   (/proc/<pid>/smaps_rollup, `bench/proctree.py`), and the server's RSS.

PSS counts a page shared by n processes as 1/n in each, so the tree's sum is what the
laptop pays. Figures, not assertions.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from proctree import describe, tree_pss  # noqa: E402
from recorder import Phone, free_port, launch_serve, load_cards, pregrown, stop_serve  # noqa: E402
from serve import rss_mb, run_load, typed_queries, whole_queries  # noqa: E402


def start(repo: Path, instance: Path) -> tuple[subprocess.Popen, int]:
    port = free_port()
    env = dict(os.environ, JUDGEKIT_INSTANCE=str(instance), JUDGEKIT_SEARCH_CACHE="0",
               PYTHONPATH=str(repo))
    proc, _ = launch_serve(port, env, instance / "serve.log", "/api/search?q=vp+withdraw", cwd=repo)
    return proc, port


def line(step: str, pid: int) -> None:
    print(f"{step}: {describe(pid)}; server RSS {rss_mb(pid):.0f} MB", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=480)
    ap.add_argument("--events", type=int, default=1000)
    ap.add_argument("--pregrown", default=None, metavar="FILE")
    ap.add_argument("--requests", type=int, default=4000, help="uncached searches (default 4000)")
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--repo", default=str(HERE.parent), help="the judgekit checkout to serve")
    args = ap.parse_args()
    cards = load_cards().warm()
    with tempfile.TemporaryDirectory(prefix="judgekit-memory-") as d:
        instance = Path(d) / "serve"
        instance.mkdir()
        games, _, tid, code = pregrown(instance / "judgekit.db", cards, args)
        proc, port = start(Path(args.repo), instance)
        try:
            time.sleep(3)   # anything the server starts after its first answer (older code: workers)
            line("after start", proc.pid)
            judges = []
            for k in range(8):
                judge = Phone(port, games[k], False)
                judge.sign_in(tid, code, f"Judge {k + 1}")
                judge.open_page()
                judge.hang_up()
                judges.append(judge)
            phones = {gid: Phone(port, gid, False) for gid in games}
            for k, gid in enumerate(games):
                phones[gid].same_judge_as(judges[k % len(judges)])
            todo, lock = list(games), threading.Lock()

            def opener():
                while True:
                    with lock:
                        if not todo:
                            return
                        gid = todo.pop()
                    phones[gid].open_page()
                    phones[gid].hang_up()
            t0 = time.perf_counter()
            threads = [threading.Thread(target=opener) for _ in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            line(f"after opening {len(games)} games of {args.events} events ({time.perf_counter() - t0:.0f} s)",
                 proc.pid)
            queries = typed_queries(whole_queries())
            r = run_load(port, proc.pid, queries, min(args.requests, len(queries)), args.clients)
            line(f"after {r['n']} uncached searches from {args.clients} clients (p95 {r['p95']:.1f} ms, "
                 f"errors {len(r['errors'])})", proc.pid)
            total = sum(tree_pss(proc.pid).values())
            print(f"whole server: {total:.0f} MB PSS (target <= 200 MB); load average "
                  f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores", flush=True)
        finally:
            stop_serve(proc)


if __name__ == "__main__":
    main()
