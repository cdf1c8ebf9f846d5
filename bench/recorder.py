"""Recorder benchmarks: prints three figures.

1. Append one event with checks and a durable commit (store.append_events: validation,
   BEGIN IMMEDIATE / INSERT / COMMIT with synchronous=FULL, incremental engine check):
   p50/p95 latency over N appends. Target p95 <= 10 ms.
2. Replay a 2,000-event game from the database (load + full replay, no cache): time.
   Target <= 100 ms.
3. 60 tables recording at once over HTTP against `judgekit serve` (waitress), 2 events/s
   each for a minute: throughput, p95, errors, and a count check that every event sent
   is stored exactly once (10% of posts are sent twice with the same client id, as a
   client retrying would). Target: 0 errors, p95 <= 50 ms.

Usage: python bench/recorder.py [--appends 1000] [--tables 60] [--rate 2] [--duration 60]
       [--skip-http]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from judgekit.db import migrate, open_db  # noqa: E402
from judgekit.recorder import store  # noqa: E402
from judgekit.recorder.cards import load_cards  # noqa: E402

SEATS = ["Ann", "Ben", "Cid", "Dee", "Eve"]
MINIONS = ["Modius", "Alice Chen", "Andi Liu", "Mkhokheli", "Alexa Draper"]


def turn_events(seat: int) -> list[dict]:
    """One plausible turn (about 20 events) for `seat` at a 5-player table."""
    prey, predator = seat % 5 + 1, (seat - 2) % 5 + 1
    m = MINIONS[seat - 1]
    return [
        {"type": "turn.start", "seat": seat},
        {"type": "card.play", "seat": seat, "card": "Villein", "target": m, "amount": 2},
        {"type": "card.replace", "seat": seat},
        {"type": "action.declare", "seat": seat, "action": "bleed", "minion": m, "amount": 1},
        {"type": "action.pass", "seat": seat},
        {"type": "block.pass", "seat": prey},
        {"type": "action.result", "outcome": "success", "amount": 1},
        {"type": "action.declare", "seat": seat, "action": "hunt", "minion": MINIONS[prey - 1]},
        {"type": "action.pass", "seat": seat},
        {"type": "block.pass", "seat": prey},
        {"type": "block.declare", "seat": predator, "minion": MINIONS[predator - 1]},
        {"type": "block.result", "blocked": True},
        {"type": "strike", "seat": seat, "strike": "hand strike", "damage": 1},
        {"type": "strike", "seat": predator, "strike": "hand strike", "damage": 1},
        {"type": "press", "seat": seat, "press": "none"},
        {"type": "combat.step", "step": "end"},
        {"type": "phase", "seat": seat, "phase": "influence"},
        {"type": "transfer", "seat": seat, "amount": 4},
        {"type": "discard", "seat": seat},
        {"type": "turn.end", "seat": seat},
    ]


def game_events(n: int) -> list[dict]:
    out: list[dict] = []
    seat = 1
    while len(out) < n:
        out += turn_events(seat)
        seat = seat % 5 + 1
    return out[:n]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    k = max(0, min(len(values) - 1, int(round(p / 100 * (len(values) - 1)))))
    return values[k]


def bench_append(tmp: Path, cards, n: int) -> None:
    db = open_db(tmp / "append.db")
    migrate(db)
    gid = store.create_game(db, SEATS)
    events = game_events(n)
    times = []
    for i, e in enumerate(events):
        t0 = time.perf_counter()
        result = store.append_events(db, gid, dict(e, client_id=f"b{i}"), cards=cards)
        times.append((time.perf_counter() - t0) * 1000)
        assert not isinstance(result, store.StoreError), result
    db.close()
    print(f"append (validate + durable commit + incremental check), {n} events: "
          f"p50 {statistics.median(times):.2f} ms, p95 {pct(times, 95):.2f} ms, "
          f"max {max(times):.2f} ms  [target p95 <= 10 ms]")


def bench_replay(tmp: Path, cards, n: int = 2000) -> None:
    db = open_db(tmp / "replay.db")
    migrate(db)
    gid = store.create_game(db, SEATS, label="long final")
    events = game_events(n)
    for i in range(0, n, 500):
        result = store.append_events(db, gid, events[i:i + 500], cards=cards)
        assert not isinstance(result, store.StoreError), result
    runs, cpu = [], []
    for _ in range(9):
        t0, c0 = time.perf_counter(), time.process_time()
        replay = store.replay_game(db, gid, cards=cards)
        runs.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    db.close()
    print(f"replay a {n}-event game from the database (load + full replay): "
          f"median {statistics.median(runs):.1f} ms wall ({statistics.median(cpu):.1f} ms CPU), "
          f"best {min(runs):.1f} ms over {len(runs)} runs; "
          f"{len(replay.findings)} findings  [target <= 100 ms]")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bench_http(tmp: Path, tables: int, rate: float, duration: float, durable: bool = True) -> None:
    port = free_port()
    env = dict(os.environ, JUDGEKIT_INSTANCE=str(tmp / "serve"),
               JUDGEKIT_RECORDER_DURABLE="1" if durable else "0")
    command = os.environ.get("BENCH_SERVER")  # e.g. a wrapper that adds faulthandler
    argv = ([sys.executable, command, str(port)] if command else
            [sys.executable, "-m", "judgekit.cli", "serve", "--port", str(port), "--threads", "16"])
    log = open(tmp / "serve.log", "w+b")  # a file, not a pipe: nobody reads a pipe while it runs
    server = subprocess.Popen(argv, cwd=str(REPO), env=env, stdout=subprocess.DEVNULL, stderr=log)
    try:
        deadline = time.time() + 180
        while True:
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                c.request("GET", "/api/games")
                if c.getresponse().status == 200:
                    break
            except OSError:
                pass
            if server.poll() is not None or time.time() > deadline:
                log.seek(0)
                raise SystemExit("judgekit serve did not start: " + log.read().decode()[-2000:])
            time.sleep(0.3)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        conn.request("GET", "/api/cards/complete?q=modius")  # warm up: the card index loads once
        conn.getresponse().read()
        games = []
        for t in range(tables):
            conn.request("POST", "/api/games", json.dumps({"seats": SEATS, "table_no": t + 1}),
                         {"Content-Type": "application/json"})
            r = conn.getresponse()
            games.append(json.loads(r.read())["id"])
        latencies: list[float] = []
        errors: list[str] = []
        sent: dict[int, set[str]] = {g: set() for g in games}
        lock = threading.Lock()
        start = time.time() + 0.5
        stop = start + duration

        def table(gid: int, idx: int) -> None:
            rnd = random.Random(idx)
            events = game_events(int(duration * rate) + 5)
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            i = 0
            next_at = start + rnd.random() / rate
            while True:
                now = time.time()
                if now < next_at:
                    time.sleep(next_at - now)
                if time.time() >= stop:
                    break
                cid = f"t{idx}:{i}"
                body = json.dumps(dict(events[i % len(events)], client_id=cid))
                repeats = 2 if rnd.random() < 0.1 else 1
                for _ in range(repeats):
                    t0 = time.perf_counter()
                    try:
                        c.request("POST", f"/api/games/{gid}/events", body,
                                  {"Content-Type": "application/json"})
                        r = c.getresponse()
                        r.read()
                        ms = (time.perf_counter() - t0) * 1000
                        with lock:
                            latencies.append(ms)
                            if r.status not in (200, 201):
                                errors.append(f"{r.status}")
                            else:
                                sent[gid].add(cid)
                    except (OSError, http.client.HTTPException) as exc:
                        with lock:
                            errors.append(type(exc).__name__)
                        c.close()
                        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                i += 1
                next_at += 1 / rate
            c.close()

        threads = [threading.Thread(target=table, args=(g, k)) for k, g in enumerate(games)]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        # Count check: every acknowledged client id is stored exactly once, nothing else.
        missing = doubled = extra = 0
        for gid in games:
            try:
                conn.request("GET", f"/api/games/{gid}")
                stored = json.loads(conn.getresponse().read())["events"]
            except TimeoutError:
                if os.environ.get("BENCH_SERVER"):
                    server.send_signal(signal.SIGUSR1)  # the wrapper dumps its threads
                    time.sleep(1)
                raise
            ids = [e.get("client_id") for e in stored]
            doubled += len(ids) - len(set(ids))
            missing += len(sent[gid] - set(ids))
            extra += len(set(ids) - sent[gid])
        total_sent = sum(len(s) for s in sent.values())
        print(f"HTTP ({'durable: synchronous=FULL' if durable else 'synchronous=NORMAL'}), {tables} tables x {rate:g} events/s for {duration:g} s against judgekit serve "
              f"(waitress): {len(latencies)} requests ({len(latencies) / duration:.1f}/s, "
              f"{total_sent} distinct events, the rest retries), p50 {statistics.median(latencies):.1f} ms, "
              f"p95 {pct(latencies, 95):.1f} ms, max {max(latencies):.1f} ms, errors {len(errors)}"
              f"{' ' + str(sorted(set(errors))) if errors else ''}; count check: "
              f"{'OK' if not (missing or doubled or extra) else 'FAILED'} "
              f"(missing {missing}, stored twice {doubled}, unexpected {extra})  "
              f"[target 0 errors, p95 <= 50 ms]")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        log.seek(0)
        queued = log.read().decode(errors="replace").count("Task queue depth")
        if queued:
            print(f"  (waitress warned {queued} times that requests queued behind its worker threads)")
        log.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--appends", type=int, default=1000)
    ap.add_argument("--tables", type=int, default=60)
    ap.add_argument("--rate", type=float, default=2.0)
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--skip-http", action="store_true")
    ap.add_argument("--not-durable", action="store_true",
                    help="serve with JUDGEKIT_RECORDER_DURABLE=0 (WAL synchronous=NORMAL)")
    args = ap.parse_args()
    cards = load_cards().warm()
    with tempfile.TemporaryDirectory(prefix="judgekit-bench-") as d:
        tmp = Path(d)
        bench_append(tmp, cards, args.appends)
        bench_replay(tmp, cards)
        if not args.skip_http:
            bench_http(tmp, args.tables, args.rate, args.duration, durable=not args.not_durable)


if __name__ == "__main__":
    main()
