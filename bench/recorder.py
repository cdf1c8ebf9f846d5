"""Recorder benchmarks: what 60 table judges cost the server late in a round.

In-process figures (no HTTP):
1. append one event with checks and a durable commit (`store.append_events`), p50/p95
   over N appends to a fresh game. Target p95 <= 10 ms.
2. replay a 2,000-event game from the database with no cache (`store.replay_game`).
   Target <= 100 ms.

Against `judgekit serve` (uvicorn, its default worker threads unless --threads), on a
database pre-grown as late in a round: a tournament with --games games of --events events
each (default 480 x 1,000: a big event's day) and one game of 2,000 events, recorded by
judges signed in with the judge code (a session cookie, as on a phone):
3. memory: the server's RSS after opening every game the way the recorder page opens one
   (GET /games/<id>, then GET /api/games/<id>). Target <= 150 MB.
4. delta read of the 2,000-event game: another judge's entry arrives (POST), then the
   page's poll (GET /api/games/<id>?after=<seq> with If-None-Match) reads it; and the
   next poll, unchanged (304). Target <= 5 ms.
5. load: --tables tables (default 60), each one phone doing what static/recorder.js and
   static/offline-queue.js do: an entry every --interval s (3 s) — a button (one POST of
   the events) or, for about one entry in four, a quick-entry line (POST /parse, then the
   POST of its events) —, 3 % of the POSTs sent a second time with the same client ids
   (a reply lost on the way: the outbox resends), and a poll every 5 s. Requests carry
   the page's headers (Accept, X-CSRF-Token, its session cookie) over keep-alive
   connections (a small pool per phone, like a browser's). Latency is counted from each
   entry's scheduled time until the page can redraw, so queueing shows. Prints entry
   p50/p95/max, per-request figures, errors, the server's CPU per entry and a count
   check (every acknowledged event stored exactly once). Target: 0 errors, p95 <= 50 ms.

--page legacy models the page before issue 11 (a full GET /api/games/<id> after every
entry and on every poll, no ETag), to compare with the server it was written for.

Usage: python bench/recorder.py [--games 480] [--events 1000] [--tables 60] [--interval 3]
       [--poll 5] [--duration 60] [--threads N] [--page current|legacy] [--skip-http]
       [--skip-inprocess] [--appends 1000] [--not-durable] [--pregrown FILE] [--port N]

--pregrown FILE keeps the pre-grown database (about a minute to grow) in FILE and reuses it
when it was grown with the same --games and --events: each run serves a fresh copy of it.
"""
from __future__ import annotations

import argparse
import http.client
import itertools
import json
import os
import random
import re
import shutil
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
from judgekit.recorder import checked, store  # noqa: E402
from judgekit.game.cards import load_cards  # noqa: E402

SEATS = ["Ann", "Ben", "Cid", "Dee", "Eve"]
MINIONS = ["Modius", "Alice Chen", "Andi Liu", "Mkhokheli", "Alexa Draper"]


def turn_events(seat: int, turn: int) -> list[dict]:
    """One plausible turn (about 20 events) for `seat` at a 5-player table. Every fourth
    turn has a slip a real table makes (the prey answers before "any blocks?"), so the
    games carry findings as recorded games do."""
    prey, predator = seat % 5 + 1, (seat - 2) % 5 + 1
    m = MINIONS[seat - 1]
    bleed = [{"type": "action.declare", "seat": seat, "action": "bleed", "minion": m, "amount": 1}]
    if turn % 4 != 3:
        bleed.append({"type": "action.pass", "seat": seat})
    bleed += [{"type": "block.pass", "seat": prey},
              {"type": "action.result", "outcome": "success", "amount": 1}]
    return [
        {"type": "turn.start", "seat": seat},
        {"type": "card.play", "seat": seat, "card": "Villein", "target": m, "amount": 2},
        {"type": "card.replace", "seat": seat},
        *bleed,
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
    seat, turn = 1, 0
    while len(out) < n:
        out += turn_events(seat, turn)
        seat, turn = seat % 5 + 1, turn + 1
    return out[:n]


def as_line(event: dict) -> str | None:
    """The quick-entry line a judge would type for `event`, where one is short."""
    seat, t = event.get("seat"), event["type"]
    words = {"turn.start": "start", "action.pass": "go", "block.pass": "nb", "turn.end": "end",
             "discard": "discard", "card.replace": "r"}
    if t in words:
        return f"{seat} {words[t]}"
    if t == "transfer":
        return f"{seat} transfer ={event['amount']}"
    if t == "phase":
        return f"{seat} {event['phase']}"
    return None


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = max(0, min(len(values) - 1, int(round(p / 100 * (len(values) - 1)))))
    return values[k]


def figures(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"p50 {statistics.median(values):.1f} ms, p95 {pct(values, 95):.1f} ms, "
            f"max {max(values):.1f} ms (n={len(values)})")


# --- in-process --------------------------------------------------------------------------------

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
          f"max {max(times):.2f} ms  [target p95 <= 10 ms]", flush=True)


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
    print(f"replay a {n}-event game from the database (load + full replay, no cache): "
          f"median {statistics.median(runs):.1f} ms wall ({statistics.median(cpu):.1f} ms CPU), "
          f"best {min(runs):.1f} ms over {len(runs)} runs; "
          f"{len(replay.findings)} findings  [target <= 100 ms]", flush=True)


# --- the server ------------------------------------------------------------------------------------

def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pregrow(path: Path, cards, games: int, events: int, long_game: int) -> tuple[list[int], int, int, str]:
    """A database as late in a round: a tournament with `games` games of `events` events
    (and one of `long_game`), stored through the recorder's own store as the server would
    have. Returns (game ids, the long game, the tournament, its judge code)."""
    from judgekit.auth import store as auth_store
    from judgekit.tournament.store import create_tournament
    db = open_db(path)
    migrate(db)
    tid = create_tournament(db, {"name": "Bench Open", "rounds_planned": 3})
    code = auth_store.issue_codes(db, tid)["judge"]
    t0 = time.perf_counter()
    ids = []
    for g in range(games + 1):
        n = events if g < games else long_game
        gid = store.create_game(db, SEATS, label=f"Table {g + 1}", table_no=g + 1, tournament_id=tid,
                                round_no=3)
        evs = game_events(n)
        for i in range(0, n, 100):
            batch = [dict(e, client_id=f"pre{g}:{i + k}", judge="Pre Grown")
                     for k, e in enumerate(evs[i:i + 100])]
            result = store.append_events(db, gid, batch, cards=cards, durable=False)
            assert not isinstance(result, store.StoreError), result
        ids.append(gid)
        if g % 50 == 49:
            print(f"  pre-grown {g + 1} games ({time.perf_counter() - t0:.0f} s)", flush=True)
    db.close()
    return ids[:-1], ids[-1], tid, code


def pregrown(path: Path, cards, args) -> tuple[list[int], int, int, str]:
    """`pregrow` into `path`, or a copy of the database kept by an earlier run (--pregrown)."""
    kept = Path(args.pregrown) if args.pregrown else None
    meta_path = kept.with_name(kept.name + ".json") if kept else None
    version = checked.derived_version(cards)
    if kept and kept.exists() and meta_path.exists():
        meta = json.loads(meta_path.read_text())
        # derived data (log lines, engine snapshots) of other recorder code would be rebuilt
        if (meta["games"], meta["events"], meta.get("version")) == (args.games, args.events, version):
            shutil.copyfile(kept, path)
            print(f"pre-grown database: a copy of {kept} ({args.games} games of {args.events} events "
                  f"and one of 2,000)", flush=True)
            return meta["ids"], meta["long"], meta["tid"], meta["code"]
    print(f"pre-growing {args.games} games of {args.events} events and one of 2,000 ...", flush=True)
    t0 = time.perf_counter()
    ids, long_game, tid, code = pregrow(path, cards, args.games, args.events, 2000)
    print(f"  done in {time.perf_counter() - t0:.0f} s", flush=True)
    if kept:
        shutil.copyfile(path, kept)
        meta_path.write_text(json.dumps({"games": args.games, "events": args.events, "ids": ids,
                                         "long": long_game, "tid": tid, "code": code, "version": version}))
    return ids, long_game, tid, code


def proc_figures(pid: int) -> tuple[float, float]:
    """(RSS in MB, CPU seconds user+system) of a process, from /proc."""
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return rss, (int(fields[11]) + int(fields[12])) / ticks


_DEVICES = itertools.count(1)


def next_device() -> str:
    """A loopback address of its own (127.0.x.y): each phone is its own device to the
    server, which caps what one device may hold (judgekit/live/devices.py)."""
    n = next(_DEVICES)
    return f"127.0.{1 + n // 250}.{1 + n % 250}"


class Phone:
    """One recorder page: its session cookie and CSRF token, a keep-alive connection pool
    (a browser opens a second connection when the first is busy), what it knows of the game.
    Each phone connects from an address of its own (`next_device`)."""

    def __init__(self, port: int, gid: int, legacy: bool):
        self.port, self.gid, self.legacy = port, gid, legacy
        self.device = next_device()
        self.api = f"/api/games/{gid}"
        self.pool: list[http.client.HTTPConnection] = []
        self.lock = threading.Lock()
        self.cookie = ""
        self.csrf = ""
        self.last_seq = 0
        self.etag = None

    def request(self, method: str, path: str, body=None, extra=None, raw: str | None = None) -> tuple[int, bytes, dict]:
        with self.lock:
            reused = bool(self.pool)
            conn = self.pool.pop() if reused else http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                                                       source_address=(self.device, 0))
        headers = {"Accept": "application/json", "X-CSRF-Token": self.csrf}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if body is not None:
            headers["Content-Type"] = "application/json"
            body = json.dumps(body)
        elif raw is not None:
            body = raw
        headers.update(extra or {})
        try:
            conn.request(method, path, body, headers)
            r = conn.getresponse()
            data = r.read()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            conn.close()
            if not reused:
                raise
            # a kept-alive connection the server closed while it sat idle (its keep-alive
            # timeout): a browser sends the request again on a new one, so do we
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=(self.device, 0))
            try:
                conn.request(method, path, body, headers)
                r = conn.getresponse()
                data = r.read()
            except Exception:
                conn.close()
                raise
        except Exception:
            conn.close()
            raise
        with self.lock:
            self.pool.append(conn)
        cookie = r.getheader("Set-Cookie")
        if cookie and cookie.startswith("session="):   # the browser keeps the session up to date
            self.cookie = cookie.split(";", 1)[0]
        return r.status, data, dict(r.getheaders())

    def sign_in(self, tid: int, code: str, name: str) -> None:
        """The judge signs in with the tournament's judge code (the sign-in form)."""
        from urllib.parse import urlencode
        status, html, _ = self.request("GET", f"/tournaments/{tid}/sign-in", extra={"Accept": "text/html"})
        token = re.search(rb'name="csrf_token" value="([^"]*)"', html).group(1).decode()
        status, html, _ = self.request("POST", f"/tournaments/{tid}/sign-in", None, extra={
            "Accept": "text/html", "Content-Type": "application/x-www-form-urlencoded"},
            raw=urlencode({"name": name, "code": code, "csrf_token": token}))
        assert status in (302, 303), (status, html[:300])

    def same_judge_as(self, other: "Phone") -> None:
        self.cookie, self.csrf = other.cookie, other.csrf

    def open_page(self) -> None:
        """GET /games/<id> (the page: its CSRF token) and the game's first load."""
        status, html, headers = self.request("GET", f"/games/{self.gid}", extra={"Accept": "text/html"})
        assert status == 200, status
        m = re.search(rb'name="csrf-token" content="([^"]*)"', html)
        self.csrf = m.group(1).decode() if m else ""
        status, data, headers = self.request("GET", self.api)
        assert status == 200, status
        self.took(json.loads(data), headers)

    def hang_up(self) -> None:
        """Close the connections (a phone that opened its game earlier in the day is gone)."""
        with self.lock:
            for conn in self.pool:
                conn.close()
            self.pool = []

    def took(self, body: dict, headers: dict) -> None:
        """What the page keeps of an answer: the last seq it has seen and the ETag."""
        if "last_seq" in body:
            self.last_seq = max(self.last_seq, body["last_seq"])
        elif body.get("events"):
            self.last_seq = max(self.last_seq, body["events"][-1]["seq"])
        self.etag = headers.get("ETag") or body.get("etag") or self.etag


def table_phones(port: int, tid: int, code: str, games: list[int], judges: int = 8) -> tuple[list, dict]:
    """The recorder phones of a round as `load` drives them: `judges` judges signed in with
    the judge code (a session each), and one phone per game on a judge's session, its page
    opened once (then hung up, as a phone that opened its game earlier). Returns (judges,
    {game id: Phone})."""
    signed = []
    for k in range(judges):
        j = Phone(port, games[k % len(games)], False)
        j.sign_in(tid, code, f"Judge {k + 1}")
        j.open_page()
        j.hang_up()
        signed.append(j)
    phones = {gid: Phone(port, gid, False) for gid in games}
    for k, gid in enumerate(games):
        phones[gid].same_judge_as(signed[k % len(signed)])
        phones[gid].open_page()
        phones[gid].hang_up()
    return signed, phones


def launch_serve(port: int, env: dict, log_path: Path, probe: str, extra=(), cwd: Path = REPO,
                 timeout: float = 300, probe_timeout: float = 5):
    """`judgekit serve` on `port` (its stderr into `log_path`: a file, not a pipe nobody reads
    while it runs), once GET `probe` answers 200: (the process, the log file). Ends the bench
    with the log's tail when it does not start. The benches that start a server use it."""
    log = open(log_path, "w+b")
    proc = subprocess.Popen([sys.executable, "-m", "judgekit.cli", "serve", "--port", str(port), *extra],
                            cwd=str(cwd), env=env, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.time() + timeout
    while True:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=probe_timeout)
            c.request("GET", probe)
            if c.getresponse().status == 200:
                return proc, log
        except OSError:
            pass
        if proc.poll() is not None or time.time() > deadline:
            log.seek(0)
            raise SystemExit("judgekit serve did not start: " + log.read().decode()[-2000:])
        time.sleep(0.3)


def stop_serve(proc: subprocess.Popen) -> None:
    """End a server `launch_serve` started (killed if it does not stop in 10 s)."""
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()


def end_server(proc: subprocess.Popen, log) -> None:
    """Stop a server `start_server` started and print the tracebacks its log holds, if any."""
    stop_serve(proc)
    log.seek(0)
    text = log.read().decode(errors="replace")
    if "Traceback" in text:
        print("  server errors:\n" + text[-3000:])
    log.close()


def start_server(tmp: Path, threads: int | None, durable: bool,
                 port: int | None = None) -> tuple[subprocess.Popen, int, object]:
    port = port or free_port()
    env = dict(os.environ, JUDGEKIT_INSTANCE=str(tmp / "serve"),
               JUDGEKIT_RECORDER_DURABLE="1" if durable else "0")
    extra = ["--threads", str(threads)] if threads else []
    server, log = launch_serve(port, env, tmp / "serve.log", "/api/cards/complete?q=modius",  # the card index loads once
                               extra, probe_timeout=2)
    # the first page of a process computes the offline copy's version (and may build the
    # search index): done once before anything is measured
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    c.request("GET", "/", headers={"Accept": "text/html"})
    assert c.getresponse().read() and True
    c.close()
    return server, port, log


def load(port: int, server_pid: int, phones: dict, tables: list[int], judge: "Phone", args, *,
         legacy: bool = False, tag: str = "", offset: int = 0) -> dict:
    """5. the load of `tables` recording at once (see the module): prints its figures and
    returns them (bench/live.py runs it with and without open live streams). `tag` makes
    the client ids of a second run new; `offset` moves on in the games' events."""
    lock = threading.Lock()
    entry_ms: list[float] = []
    request_ms: dict[str, list[float]] = {}
    errors: list[str] = []
    acked: dict[int, set[str]] = {g: set() for g in tables}
    tried: dict[int, set[str]] = {g: set() for g in tables}   # sent, answer lost or not
    entries = [0]
    stop_at = [0.0]

    def timed(phone: Phone, kind: str, method: str, path: str, body=None, extra=None):
        t = time.perf_counter()
        try:
            status, data, headers = phone.request(method, path, body, extra)
        except (OSError, http.client.HTTPException) as exc:
            with lock:
                errors.append(f"{kind}: {type(exc).__name__}")
            return None, None, None
        ms = (time.perf_counter() - t) * 1000
        with lock:
            request_ms.setdefault(kind, []).append(ms)
            if status not in (200, 201, 304):
                errors.append(f"{kind}: {status} {data[:120]!r}")
        return status, data, headers

    def table(idx: int, gid: int):
        phone = phones[gid]
        rnd = random.Random(idx)
        todo = game_events(args.events + offset + 400)[args.events + offset:]
        tab = f"{tag}tab{idx}"
        n = 0
        next_at = start + rnd.random() * args.interval
        while True:
            now = time.time()
            if now < next_at:
                time.sleep(next_at - now)
            if time.time() >= stop_at[0]:
                return
            event = todo[n % len(todo)]
            line = as_line(event) if rnd.random() < 0.3 else None
            ok = True
            if line:   # the outbox: POST /parse, then the events with ids made from the item's
                status, data, _ = timed(phone, "parse", "POST", f"{phone.api}/parse",
                                        {"line": line, "last_seq": phone.last_seq or None})
                ok = status == 200
                events = []
                if ok:
                    uid = f"{tab}-{n}"
                    for i, e in enumerate(json.loads(data)["events"]):
                        e = dict(e, client_id=f"{uid}:{i}", judge="Bench Judge")
                        events.append(e)
            else:
                events = [dict(event, client_id=f"{tab}:{n}", judge="Bench Judge")]
            sends = 0 if not ok else 2 if rnd.random() < 0.03 else 1
            for attempt in range(sends):
                with lock:
                    tried[gid].update(e["client_id"] for e in events)
                status, data, headers = timed(phone, "post", "POST", f"{phone.api}/events", events)
                if status in (200, 201):
                    with lock:
                        acked[gid].update(e["client_id"] for e in events)
                    body = json.loads(data)
                    first_new = body["events"][0]["seq"]
                    gap = body.get("new") and first_new > phone.last_seq + 1 and attempt == 0
                    phone.took(body, headers)
                    if gap and not legacy:   # another judge's entries came in between: read them
                            timed(phone, "delta", "GET", f"{phone.api}?after={first_new - 1}")
            if legacy and ok:   # the old page read the whole game again after each entry
                timed(phone, "reload", "GET", phone.api)
            with lock:
                entry_ms.append((time.time() - next_at) * 1000)
                entries[0] += 1
            n += 1
            next_at += args.interval

    def poller(idx: int, gid: int):
        phone = phones[gid]
        next_at = start + random.Random(1000 + idx).random() * args.poll
        while True:
            now = time.time()
            if now < next_at:
                time.sleep(next_at - now)
            if time.time() >= stop_at[0]:
                return
            if legacy:
                timed(phone, "poll", "GET", phone.api)
            else:
                extra = {"If-None-Match": phone.etag} if phone.etag else {}
                status, data, headers = timed(phone, "poll", "GET", f"{phone.api}?after={phone.last_seq}", extra=extra)
                if status == 200:
                    phone.took(json.loads(data), headers)
            next_at += args.poll

    _, cpu0 = proc_figures(server_pid)
    start = time.time() + 1.0
    stop_at[0] = start + args.duration
    threads = [threading.Thread(target=table, args=(k, g)) for k, g in enumerate(tables)]
    threads += [threading.Thread(target=poller, args=(k, g)) for k, g in enumerate(tables)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    rss2, cpu1 = proc_figures(server_pid)
    # Count check: every acknowledged client id is stored exactly once, nothing else new.
    missing = doubled = extra = 0
    checker = Phone(port, 0, legacy)
    checker.same_judge_as(judge)
    for gid in tables:
        status, data, _ = checker.request("GET", f"/api/games/{gid}")
        stored = json.loads(data)["events"]
        ids = [e.get("client_id") for e in stored if str(e.get("client_id", "")).startswith(f"{tag}tab")]
        doubled += len(ids) - len(set(ids))
        missing += len(acked[gid] - set(ids))
        extra += len(set(ids) - tried[gid])
    n = entries[0]
    print(f"load ({'old page' if legacy else 'page'}): {len(tables)} tables x 1 entry per {args.interval:g} s, "
          f"poll every {args.poll:g} s, {args.duration:g} s: {n} entries; entry latency from its scheduled "
          f"time: {figures(entry_ms)}; errors {len(errors)}"
          f"{' ' + str(sorted(set(errors))[:5]) if errors else ''}; count check: "
          f"{'OK' if not (missing or doubled or extra) else 'FAILED'} "
          f"(missing {missing}, stored twice {doubled}, unexpected {extra})  [target 0 errors, p95 <= 50 ms]",
          flush=True)
    for kind, values in sorted(request_ms.items()):
        print(f"  {kind:6} {figures(values)}")
    print(f"  server CPU {cpu1 - cpu0:.1f} s for {n} entries: {(cpu1 - cpu0) / max(n, 1) * 1000:.1f} ms "
          f"per entry (its polls included); RSS {rss2:.0f} MB at the end", flush=True)
    return {"entries": n, "entry_ms": entry_ms, "errors": errors, "request_ms": request_ms,
            "count_ok": not (missing or doubled or extra), "cpu_s": cpu1 - cpu0, "rss_mb": rss2}


def bench_http(tmp: Path, cards, args) -> None:
    legacy = args.page == "legacy"
    (tmp / "serve").mkdir()
    games, long_game, tid, code = pregrown(tmp / "serve" / "judgekit.db", cards, args)
    server, port, log = start_server(tmp, args.threads, not args.not_durable, args.port)
    try:
        rss0, _ = proc_figures(server.pid)
        print(f"server ({'--threads ' + str(args.threads) if args.threads else 'default threads'}, "
              f"{'durable: synchronous=FULL' if not args.not_durable else 'synchronous=NORMAL'}): "
              f"RSS {rss0:.0f} MB after start", flush=True)

        # --- 3. memory: open every game as the page does --------------------------------------
        judges = []   # the tables' judges, signed in with the judge code (a session each)
        for k in range(8):
            judge = Phone(port, games[k], legacy)
            judge.sign_in(tid, code, f"Judge {k + 1}")
            judge.open_page()
            judge.hang_up()
            judges.append(judge)
        rss_signed, _ = proc_figures(server.pid)
        print(f"  {len(judges)} judges signed in (the code's hash is memory-hard): RSS {rss_signed:.0f} MB", flush=True)
        phones = {gid: Phone(port, gid, legacy) for gid in games}
        for k, gid in enumerate(games):
            phones[gid].same_judge_as(judges[k % len(judges)])
        todo = list(games)
        lock = threading.Lock()
        opened: list[float] = []

        def opener():
            while True:
                with lock:
                    if not todo:
                        return
                    gid = todo.pop()
                t = time.perf_counter()
                phones[gid].open_page()
                phones[gid].hang_up()   # as a phone does when its judge moves on (idle sockets add nothing here)
                with lock:
                    opened.append((time.perf_counter() - t) * 1000)
        t0 = time.perf_counter()
        workers = [threading.Thread(target=opener) for _ in range(4)]
        for w in workers:
            w.start()
        for w in workers:
            w.join()
        rss1, _ = proc_figures(server.pid)
        print(f"opened {len(games)} games of {args.events} events (page + first load, 4 at a time) "
              f"in {time.perf_counter() - t0:.1f} s: {figures(opened)}; server RSS {rss1:.0f} MB  "
              f"[target <= 150 MB]", flush=True)

        # --- 4. delta read of the 2,000-event game -------------------------------------------
        reader, writer = Phone(port, long_game, legacy), Phone(port, long_game, legacy)
        reader.same_judge_as(judges[0])
        writer.same_judge_as(judges[1])
        reader.open_page()
        writer.open_page()
        for phone in phones.values():
            phone.hang_up()
        changed, unchanged = [], []
        for i in range(60):
            status, data, headers = writer.request("POST", f"{writer.api}/events",
                                                   [{"type": "note", "text": f"other judge {i}",
                                                     "client_id": f"w:{i}", "judge": "Other"}])
            assert status == 201, (status, data[:200])
            for bucket in (changed, unchanged):
                path = reader.api if legacy else f"{reader.api}?after={reader.last_seq}"
                extra = {} if legacy or not reader.etag else {"If-None-Match": reader.etag}
                t = time.perf_counter()
                status, data, headers = reader.request("GET", path, extra=extra)
                ms = (time.perf_counter() - t) * 1000
                assert status in (200, 304), (status, data[:200])
                if status == 200:
                    reader.took(json.loads(data), headers)
                if i >= 10:  # warm
                    bucket.append(ms)
        if legacy:
            print(f"poll of the 2,000-event game (the old page: the full game every time): "
                  f"{figures(changed + unchanged)}", flush=True)
        else:
            print(f"delta read of the 2,000-event game after another judge's entry (200, one new line): "
                  f"{figures(changed)}; unchanged (304): {figures(unchanged)}  [target <= 5 ms]", flush=True)

        # --- 5. load ---------------------------------------------------------------------------
        load(port, server.pid, phones, games[:args.tables], judges[0], args, legacy=legacy)
    finally:
        end_server(server, log)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--appends", type=int, default=1000)
    ap.add_argument("--games", type=int, default=480)
    ap.add_argument("--events", type=int, default=1000)
    ap.add_argument("--tables", type=int, default=60)
    ap.add_argument("--interval", type=float, default=3.0, help="seconds between a table's entries")
    ap.add_argument("--poll", type=float, default=5.0, help="seconds between a page's polls")
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--threads", type=int, default=None, help="the server's worker threads (default: judgekit serve's)")
    ap.add_argument("--page", choices=("current", "legacy"), default="current")
    ap.add_argument("--skip-http", action="store_true")
    ap.add_argument("--skip-inprocess", action="store_true")
    ap.add_argument("--not-durable", action="store_true",
                    help="serve with JUDGEKIT_RECORDER_DURABLE=0 (WAL synchronous=NORMAL)")
    ap.add_argument("--port", type=int, default=None, help="the server's port (default: a free one)")
    ap.add_argument("--pregrown", default=None, metavar="FILE",
                    help="keep the pre-grown database in FILE and reuse it in later runs")
    args = ap.parse_args()
    cards = load_cards().warm()
    with tempfile.TemporaryDirectory(prefix="judgekit-bench-") as d:
        tmp = Path(d)
        if not args.skip_inprocess:
            bench_append(tmp, cards, args.appends)
            bench_replay(tmp, cards)
        if not args.skip_http:
            bench_http(tmp, cards, args)


if __name__ == "__main__":
    main()
