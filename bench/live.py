"""Live hall benchmark: 100 open live pages on `judgekit serve`'s default threads while 60
tables record (issue 13's budget). Prints its figures; run it on an idle machine for the
record.

1. An event as late in a round: --players players (300), round 1 seated (60 tables of
   five, each a recorder game pre-grown with --events events, as bench/recorder.py grows
   them), the sign-in codes.
2. `judgekit serve` in a subprocess (its default threads unless --threads) on --port.
3. Phase A — the recorder's load alone: bench/recorder.py's load generator (`load`: every
   table's phone enters what a judge enters every --interval s, polls every --poll s,
   resends 3 % of its posts), for --duration s.
4. Phase B — the same load with --pages live pages open (100): each page does what the room
   display and the floor view do when they open (GET …/hall, then the stream from the
   hall's `last_id`); nine in ten are public pages, one in ten a judge's (signed in with the
   judge code). On top of them (unless --no-badges) each recorder phone holds the stream of
   its header badge, as live.js opens it on every judge page (60 more streams, judges').
   One thread holds every page's socket and notes when each message arrives.
   Meanwhile the hall writes what a round brings, one write every --every s: an extension,
   a judge call opened, claimed, closed — each a message to every page.

Prints, for each phase: the recorder's figures (entry p50/p95, errors, count check); the
server's threads and open sockets (from /proc); for phase B: the pages' first answer
(p50/p95), the messages each page got (each exactly once, the same on every page), the
delivery time from the message's publication to its arrival on the pages (p50/p95/max),
and whether every page still holds its stream at the end.
Targets: the recorder's (entry p95 <= 50 ms, 0 errors) with the pages open; threads do not
grow with the pages; every page gets every message once, within 2 s.

Usage: python bench/live.py [--pages 100] [--tables 60] [--events 300] [--duration 60]
       [--interval 3] [--poll 5] [--every 2] [--threads N] [--port 5910] [--no-badges]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from recorder import (Phone, figures, game_events, load, pct, proc_figures,  # noqa: E402
                      start_server)

from judgekit.auth import store as auth_store  # noqa: E402
from judgekit.db import migrate, open_db  # noqa: E402
from judgekit.recorder import store as rstore  # noqa: E402
from judgekit.recorder.cards import load_cards  # noqa: E402
from judgekit.tournament import store as tstore  # noqa: E402


def build_event(path: Path, players: int, events: int, cards) -> dict:
    """The event late in round 1: its id, the games of its tables, the judge code, an
    organizer's token."""
    db = open_db(path)
    migrate(db)
    tid = tstore.create_tournament(db, {"name": "Bench Grand Prix", "rounds_planned": 3})
    for k in range(players):
        tstore.add_player(db, tid, {"name": f"Player {k + 1}", "vekn": str(4000000 + k)})
    rnd = tstore.start_round(db, tid, seed=7)
    games = [t["game_id"] for t in rnd["tables"]]
    t0 = time.perf_counter()
    evs = game_events(events)
    for g, gid in enumerate(games):
        for i in range(0, events, 100):
            batch = [dict(e, client_id=f"pre{g}:{i + k}", judge="Pre Grown") for k, e in enumerate(evs[i:i + 100])]
            res = rstore.append_events(db, gid, batch, cards=cards, durable=False)
            assert not isinstance(res, rstore.StoreError), res
    codes = auth_store.issue_codes(db, tid)
    token = auth_store.issue_token(db, tid, "organizer", "Bench Org")
    db.close()
    print(f"  {len(games)} tables of {events} events pre-grown in {time.perf_counter() - t0:.0f} s", flush=True)
    return {"tid": tid, "games": games, "code": codes["judge"], "token": token}


def server_sockets(pid: int) -> int:
    n = 0
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            if os.readlink(f"/proc/{pid}/fd/{fd}").startswith("socket:"):
                n += 1
        except OSError:
            pass
    return n


def server_threads(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("Threads:"))


class Page:
    """One live page's stream over a raw socket: the chunked body decoded, its events with
    the time each arrived."""

    def __init__(self, port: int, path: str, cookie: str = ""):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        self.sock.setblocking(False)
        head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if cookie:
            head += f"Cookie: {cookie}\r\n"
        self.sent_at = time.time()
        self.sock.sendall((head + "\r\n").encode())
        self.raw = b""
        self.headers_done = False
        self.body = b""
        self.events: list[tuple[str | None, str, dict, float]] = []   # (id, kind, data, arrived)
        self.hello_at: float | None = None
        self.closed = False

    def feed(self, data: bytes, now: float) -> None:
        self.raw += data
        if not self.headers_done:
            if b"\r\n\r\n" not in self.raw:
                return
            head, self.raw = self.raw.split(b"\r\n\r\n", 1)
            assert head.startswith(b"HTTP/1.1 200"), head[:200]
            self.headers_done = True
        while True:   # chunks
            line, sep, rest = self.raw.partition(b"\r\n")
            if not sep:
                break
            size = int(line, 16)
            if len(rest) < size + 2:
                break
            self.body += rest[:size]
            self.raw = rest[size + 2:]
        while b"\n\n" in self.body:
            block, self.body = self.body.split(b"\n\n", 1)
            fields = dict(ln.split(": ", 1) for ln in block.decode().split("\n") if ": " in ln and not ln.startswith(":"))
            if "event" in fields:
                self.events.append((fields.get("id"), fields["event"], json.loads(fields["data"]), now))
                if fields["event"] == "hello" and self.hello_at is None:
                    self.hello_at = now


class Pages(threading.Thread):
    """Every page's socket, read by one thread (selectors)."""

    def __init__(self):
        super().__init__(daemon=True)
        self.sel = selectors.DefaultSelector()
        self.pages: list[Page] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()

    def add(self, page: Page) -> None:
        with self.lock:
            self.pages.append(page)
            self.sel.register(page.sock, selectors.EVENT_READ, page)

    def run(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                ready = self.sel.select(timeout=0.05) if self.pages else []
            now = time.time()
            for key, _ in ready:
                page = key.data
                try:
                    data = page.sock.recv(1 << 16)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    page.closed = True
                    with self.lock:
                        self.sel.unregister(page.sock)
                    continue
                page.feed(data, now)
            if not ready:
                time.sleep(0.01)


def open_pages(port: int, tid: int, n: int, judge_cookie: str, pages: Pages) -> list[Page]:
    """`n` pages open as the room display / the floor view do: the hall's state, then the stream."""
    out = []
    for k in range(n):
        judge = k % 10 == 9
        phone = Phone(port, 0, False)
        if judge:
            phone.cookie = judge_cookie
        status, data, _ = phone.request("GET", f"/api/tournaments/{tid}/hall" + ("" if judge else "?audience=public"))
        assert status == 200, status
        last = json.loads(data)["last_id"]
        phone.hang_up()
        path = f"/api/tournaments/{tid}/live?after={last}" + ("" if judge else "&audience=public")
        page = Page(port, path, judge_cookie if judge else "")
        pages.add(page)
        out.append(page)
    return out


def open_badges(port: int, tid: int, phones: list, pages: Pages) -> list[Page]:
    """The header badge of every recorder phone (a judge page): live.js reads the open calls
    and opens the event's stream (the judges' audience) after the page's `data-after`."""
    out = []
    for phone in phones:
        status, data, _ = phone.request("GET", f"/api/tournaments/{tid}/calls?status=open")
        assert status == 200, status
        status, data, _ = phone.request("GET", f"/api/tournaments/{tid}/hall")   # its last_id, as the page's data-after
        last = json.loads(data)["last_id"]
        page = Page(port, f"/api/tournaments/{tid}/live?after={last}", phone.cookie)
        pages.add(page)
        out.append(page)
    return out


def hall_writes(port: int, ev: dict, every: float, stop_at: float, judge: Phone, tables: int) -> list[str]:
    """What a round brings, one write every `every` s: extensions, calls opened, claimed, closed."""
    org = Phone(port, 0, False)
    done = []
    k = 0
    call = None
    next_at = time.time()
    while time.time() < stop_at:
        now = time.time()
        if now < next_at:
            time.sleep(next_at - now)
        step = k % 4
        table = (k // 4) % tables + 1
        if step == 0:
            status, _, _ = org.request("POST", f"/api/tournaments/{ev['tid']}/rounds/1/tables/{table}/extend",
                                       {"minutes": 1, "reason": "ruling", "confirm_over_cap": True},
                                       extra={"Authorization": f"Bearer {ev['token']}"})
            done.append(f"extend {status}")
        elif step == 1:
            # a judge calls for the table (players' phones would each have their own address:
            # the per-device limit counts addresses, and every request here comes from one)
            status, data, _ = judge.request("POST", f"/api/tournaments/{ev['tid']}/calls",
                                            {"table": table, "reason": "ruling"})
            call = json.loads(data)["call"]["call"] if status in (200, 201) else None
            done.append(f"call {status}")
        elif call is not None:
            what = "claim" if step == 2 else "close"
            status, _, _ = judge.request("POST", f"/api/tournaments/{ev['tid']}/calls/{call}/{what}", {})
            done.append(f"{what} {status}")
        k += 1
        next_at += every
    return done


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pages", type=int, default=100)
    ap.add_argument("--tables", type=int, default=60)
    ap.add_argument("--events", type=int, default=300, help="events already in each table's game")
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--interval", type=float, default=3.0)
    ap.add_argument("--poll", type=float, default=5.0)
    ap.add_argument("--every", type=float, default=2.0, help="seconds between the hall's own writes")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--port", type=int, default=None)
    ap.add_argument("--badges", action=argparse.BooleanOptionalAction, default=True,
                    help="in phase B every recorder phone also holds its header badge's stream (as on a phone)")
    args = ap.parse_args()
    cards = load_cards().warm()
    with tempfile.TemporaryDirectory(prefix="judgekit-live-bench-") as d:
        tmp = Path(d)
        (tmp / "serve").mkdir()
        print(f"building the event: {args.tables * 5} players, {args.tables} tables ...", flush=True)
        ev = build_event(tmp / "serve" / "judgekit.db", args.tables * 5, args.events, cards)
        server, port, log = start_server(tmp, args.threads, True, port=args.port)
        try:
            pid = server.pid
            judges = []
            for k in range(8):
                j = Phone(port, ev["games"][k], False)
                j.sign_in(ev["tid"], ev["code"], f"Judge {k + 1}")
                j.open_page()
                j.hang_up()
                judges.append(j)
            phones = {gid: Phone(port, gid, False) for gid in ev["games"]}
            for k, gid in enumerate(ev["games"]):
                phones[gid].same_judge_as(judges[k % len(judges)])
                phones[gid].open_page()
                phones[gid].hang_up()
            print(f"server pid {pid} ({'--threads ' + str(args.threads) if args.threads else 'default threads'}): "
                  f"{server_threads(pid)} threads, {server_sockets(pid)} sockets at rest", flush=True)

            print("\nphase A: the recorder's load, no live page open", flush=True)
            threads_a = []
            sampler_stop = threading.Event()

            def sample(into):
                while not sampler_stop.is_set():
                    into.append((server_threads(pid), server_sockets(pid)))
                    sampler_stop.wait(1.0)
            s = threading.Thread(target=sample, args=(threads_a,), daemon=True)
            s.start()
            a = load(port, pid, phones, ev["games"][:args.tables], judges[0], args, tag="a")
            sampler_stop.set()
            s.join()
            print(f"  server during phase A: threads max {max(t for t, _ in threads_a)}, "
                  f"sockets max {max(c for _, c in threads_a)}", flush=True)

            print(f"\nphase B: the same load with {args.pages} live pages open", flush=True)
            reader = Pages()
            reader.start()
            t0 = time.time()
            pages = open_pages(port, ev["tid"], args.pages, judges[0].cookie, reader)
            deadline = time.time() + 30
            while time.time() < deadline and not all(p.hello_at for p in pages):
                time.sleep(0.05)
            first = [(p.hello_at - p.sent_at) * 1000 for p in pages if p.hello_at]
            print(f"  {len(first)} of {args.pages} pages open in {time.time() - t0:.1f} s (hall state + stream, "
                  f"one after another); first answer of a stream: {figures(first)}", flush=True)
            if args.badges:
                t0 = time.time()
                badges = open_badges(port, ev["tid"], [phones[g] for g in ev["games"][:args.tables]], reader)
                deadline = time.time() + 30
                while time.time() < deadline and not all(p.hello_at for p in badges):
                    time.sleep(0.05)
                print(f"  + the header badge's stream of each of the {len(badges)} recorder phones "
                      f"({sum(1 for p in badges if p.hello_at)} open in {time.time() - t0:.1f} s): "
                      f"{len(pages) + len(badges)} streams", flush=True)
                pages = pages + badges
            threads_b = []
            sampler_stop = threading.Event()
            s = threading.Thread(target=sample, args=(threads_b,), daemon=True)
            s.start()
            stop_at = time.time() + 1.0 + args.duration
            writes: list[str] = []
            writer = threading.Thread(target=lambda: writes.extend(
                hall_writes(port, ev, args.every, stop_at, judges[1], args.tables)), daemon=True)
            writer.start()
            b = load(port, pid, phones, ev["games"][:args.tables], judges[0], args, tag="b", offset=400)
            writer.join()
            sampler_stop.set()
            s.join()
            time.sleep(3)   # the last messages arrive
            reader.stop.set()
            reader.join()
            print(f"  server during phase B: threads max {max(t for t, _ in threads_b)}, "
                  f"sockets max {max(c for _, c in threads_b)}", flush=True)
            bad = [w for w in writes if not re.search(r" 20[01]$", w)]
            print(f"  hall writes: {len(writes)} ({', '.join(sorted(set(w.split()[0] for w in writes)))}); "
                  f"refused {len(bad)}{' ' + str(bad[:3]) if bad else ''}", flush=True)
            ids = [[i for i, k, _, _ in p.events if i] for p in pages]
            doubled = sum(len(x) - len(set(x)) for x in ids)
            same = all(set(x) == set(ids[0]) for x in ids)
            delays = [(arrived - data["time"]) * 1000 for p in pages for i, k, data, arrived in p.events
                      if i and "time" in data]
            pings = [sum(1 for _, k, _, _ in p.events if k == "ping") for p in pages]
            alive = sum(1 for p in pages if not p.closed)
            print(f"  messages: {len(ids[0])} per page, {sum(len(x) for x in ids)} delivered; every page the same: "
                  f"{'yes' if same else 'NO'}; doubled: {doubled}; pages still open at the end: {alive} of {len(pages)}; "
                  f"pings per page: {min(pings)}-{max(pings)}", flush=True)
            if delays:
                print(f"  delivery, publication -> page: p50 {statistics.median(delays):.0f} ms, "
                      f"p95 {pct(delays, 95):.0f} ms, max {max(delays):.0f} ms (n={len(delays)})  [target <= 2000 ms]",
                      flush=True)
            for p in pages:
                p.sock.close()

            def line(name, r):
                return (f"  {name}: entry p50 {statistics.median(r['entry_ms']):.1f} ms, p95 {pct(r['entry_ms'], 95):.1f} ms, "
                        f"max {max(r['entry_ms']):.1f} ms (n={len(r['entry_ms'])}), errors {len(r['errors'])}, count check "
                        f"{'OK' if r['count_ok'] else 'FAILED'}, server CPU {r['cpu_s']:.1f} s")
            print("\nsummary  [target: entry p95 <= 50 ms, 0 errors; threads flat; every message once within 2 s]")
            print(line(f"recorder alone                  ", a))
            print(line(f"recorder + {args.pages} live pages{' + badges' if args.badges else '        '}", b))
            print(f"  server threads: {max(t for t, _ in threads_a)} without the pages, "
                  f"{max(t for t, _ in threads_b)} with them; sockets max {max(c for _, c in threads_a)} / "
                  f"{max(c for _, c in threads_b)}")
        finally:
            server.terminate()
            try:
                server.wait(10)
            except Exception:
                server.kill()
            log.seek(0)
            text = log.read().decode(errors="replace")
            if "Traceback" in text:
                print("  server errors:\n" + text[-3000:])
            log.close()


if __name__ == "__main__":
    main()
