"""Live hall benchmark: 100 open live pages on `judgekit serve`'s default threads while 60
tables record (issue 13's budget). Prints its figures; run it on an idle machine for the
record. One command: `python bench/live.py [--port 8500]`.

1. An event as late in a round: --tables tables of five (60: 300 players), round 1 seated,
   each table's recorder game pre-grown with --events events (as bench/recorder.py grows
   them), the sign-in codes; 8 judges and the head judge signed in.
2. `judgekit serve` in a subprocess (its default threads unless --threads) on --port.
3. Phase A — the recorder's load: bench/recorder.py's load generator (`load`: every
   table's phone enters what a judge enters every --interval s, polls every --poll s,
   resends 3 % of its posts) for --duration s, while the hall writes what a round brings,
   one write every --every s in turn: an extension, a judge call opened, claimed, closed,
   a penalty. No live page is open.
4. Phase B — the same, with --pages live pages open (100), each doing what its script does
   (bench/live_pages.py: static/live.js, hall.js, call.js read): the players' call pages,
   the room display, the judges' floor views, the head judge's dashboard, clocks page,
   penalty list and calls list (`live_pages.MIX` gives the shares); each opens with its
   HTML and what its script reads, holds its stream, and fetches what its script fetches
   on a message (the regions' page, the head judge's notifications). Unless --no-badges,
   each recorder phone also holds its header badge's stream, as on a phone (60 more).
   --drops of the streams (10 %) are cut once and come back 3 s later with Last-Event-ID.

Prints, for each phase, the recorder's figures (entry p50/p95, errors, count check, server
CPU) and the server's threads and sockets (from /proc); for phase B: the pages' opening
(time, server CPU), the messages each stream was owed (the journal, filtered by its
audience as `live.messages.project` does) against those it got — missing, doubled, sent to
an audience that may not read them —, publication -> arrival (p50/p95/max), the pages'
own fetches, and the pages' CPU (phase B's server CPU minus phase A's).
Targets: the recorder's (entry p95 <= 50 ms, 0 errors) with the pages open; threads do not
grow with the pages; every stream gets every message it is owed once, within 2 s.

Usage: python bench/live.py [--pages 100] [--tables 60] [--events 300] [--duration 60]
       [--interval 3] [--poll 5] [--every 2] [--drops 0.1] [--threads N] [--port P]
       [--no-badges]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from live_pages import MIX, Pages, mix, open_page  # noqa: E402
from recorder import (Phone, end_server, figures, game_events, load, pct, proc_figures,  # noqa: E402
                      start_server)

from judgekit.auth import store as auth_store  # noqa: E402
from judgekit.db import migrate, open_db  # noqa: E402
from judgekit.live import journal, messages  # noqa: E402
from judgekit.recorder import store as rstore  # noqa: E402
from judgekit.game.cards import load_cards  # noqa: E402
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
    return {"tid": tid, "games": games, "code": codes["judge"], "head": codes["head_judge"], "token": token}


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


def hall_writes(port: int, ev: dict, every: float, stop_at: float, judge: Phone, tables: int,
                tag: str) -> list[str]:
    """What a round brings besides the recorder's entries, one write every `every` s, in
    turn: an extension (the organizer), a judge call opened, claimed, closed (a judge), a
    penalty (a judge: Slow Play, which waits for no one) — each a message to the pages.
    A write that gets no answer (a timeout, a dropped connection) is counted as refused
    ("extend TimeoutError") and the writes go on."""
    org = Phone(port, 0, False)
    done = []

    def tried(name, phone, *a, **kw):
        try:
            status, data, h = phone.request(*a, **kw)
        except (OSError, http.client.HTTPException) as exc:
            done.append(f"{name} {type(exc).__name__}")
            return None, b"", {}
        done.append(f"{name} {status}")
        return status, data, h
    api = f"/api/tournaments/{ev['tid']}"
    k = 0
    call = None
    next_at = time.time()
    while time.time() < stop_at:
        now = time.time()
        if now < next_at:
            time.sleep(next_at - now)
        step = k % 5
        table = (k // 5) % tables + 1
        if step == 0:
            tried("extend", org, "POST", f"{api}/rounds/1/tables/{table}/extend",
                  {"minutes": 1, "reason": "ruling", "confirm_over_cap": True},
                  extra={"Authorization": f"Bearer {ev['token']}"})
        elif step == 1:
            # a judge calls for the table (players' phones would each have their own address:
            # the per-device limit counts addresses, and every request here comes from one)
            status, data, _ = tried("call", judge, "POST", f"{api}/calls", {"table": table, "reason": "ruling"})
            call = json.loads(data)["call"]["call"] if status in (200, 201) else None
        elif step in (2, 3) and call is not None:
            what = "claim" if step == 2 else "close"
            tried(what, judge, "POST", f"{api}/calls/{call}/{what}", {})
        elif step == 4:
            tried("penalty", judge, "POST", f"{api}/penalties",
                  {"player": (k * 7) % (tables * 5) + 1, "infraction": "Slow Play",
                   "client_id": f"{tag}pen{k}"})
        k += 1
        next_at += every
    return done


def expected(db_path: Path, tid: int, page, upto: int) -> set[int]:
    """The ids of the messages `page` must get: after where it started, up to `upto`,
    of the kinds its audience reads (messages.project)."""
    db = open_db(db_path)
    try:
        return {m.id for m in journal.since(db, tid, page.after, 1_000_000)
                if m.id <= upto and messages.project(m.kind, m.data, page.audience) is not None}
    finally:
        db.close()


def main() -> None:
    ap = argparse.ArgumentParser(description="The live hall's budget: open live pages while the tables "
                                             "record (see the module's docstring); prints its figures.")
    ap.add_argument("--pages", type=int, default=100, help="live pages open in phase B")
    ap.add_argument("--tables", type=int, default=60, help="tables recording (five players each)")
    ap.add_argument("--events", type=int, default=300, help="events already in each table's game")
    ap.add_argument("--duration", type=float, default=60.0, help="seconds of each phase")
    ap.add_argument("--interval", type=float, default=3.0, help="seconds between a table's entries")
    ap.add_argument("--poll", type=float, default=5.0, help="seconds between a recorder phone's polls")
    ap.add_argument("--every", type=float, default=2.0, help="seconds between the hall's own writes")
    ap.add_argument("--drops", type=float, default=0.1,
                    help="share of the streams whose connection is cut once in phase B and comes back 3 s later")
    ap.add_argument("--threads", type=int, default=None, help="the server's threads (default: judgekit serve's)")
    ap.add_argument("--port", type=int, default=None, help="the server's port (default: a free one)")
    ap.add_argument("--badges", action=argparse.BooleanOptionalAction, default=True,
                    help="in phase B every recorder phone also holds its header badge's stream (as on a phone)")
    args = ap.parse_args()
    cards = load_cards().warm()
    with tempfile.TemporaryDirectory(prefix="judgekit-live-bench-") as d:
        tmp = Path(d)
        (tmp / "serve").mkdir()
        db_path = tmp / "serve" / "judgekit.db"
        print(f"building the event: {args.tables * 5} players, {args.tables} tables ...", flush=True)
        ev = build_event(db_path, args.tables * 5, args.events, cards)
        server, port, log = start_server(tmp, args.threads, True, port=args.port)
        try:
            pid = server.pid
            judges = []
            for k in range(8):
                j = Phone(port, ev["games"][k % len(ev["games"])], False)
                j.sign_in(ev["tid"], ev["code"], f"Judge {k + 1}")
                j.open_page()
                j.hang_up()
                judges.append(j)
            head = Phone(port, ev["games"][0], False)
            head.sign_in(ev["tid"], ev["head"], "Hal Head")
            head.open_page()
            head.hang_up()
            phones = {gid: Phone(port, gid, False) for gid in ev["games"]}
            for k, gid in enumerate(ev["games"]):
                phones[gid].same_judge_as(judges[k % len(judges)])
                phones[gid].open_page()
                phones[gid].hang_up()
            kinds = mix(args.pages)
            # the players whose call page is open called earlier in the round; a judge came
            api = f"/api/tournaments/{ev['tid']}"
            player_calls = []
            for n in range(kinds.count("call")):
                table = n % args.tables + 1
                if n < args.tables:
                    status, data, _ = judges[2].request("POST", f"{api}/calls", {"table": table, "reason": "time"})
                    assert status in (200, 201), (status, data[:200])
                    cid = json.loads(data)["call"]["call"]
                    for what in ("claim", "close"):
                        status, data, _ = judges[2].request("POST", f"{api}/calls/{cid}/{what}", {})
                        assert status == 200, (what, status, data[:200])
                player_calls.append((table, player_calls[n - args.tables][1] if n >= args.tables else cid))
            judges[2].hang_up()
            print(f"server pid {pid} ({'--threads ' + str(args.threads) if args.threads else 'default threads'}, "
                  f"port {port}): {server_threads(pid)} threads, {server_sockets(pid)} sockets at rest", flush=True)

            sampler_stop = threading.Event()

            def sample(into):
                while not sampler_stop.is_set():
                    into.append((server_threads(pid), server_sockets(pid)))
                    sampler_stop.wait(1.0)

            def run_phase(tag: str, offset: int) -> tuple[dict, list[str], list]:
                samples: list = []
                sampler_stop.clear()
                s = threading.Thread(target=sample, args=(samples,), daemon=True)
                s.start()
                writes: list[str] = []
                stop_at = time.time() + 1.0 + args.duration
                writer = threading.Thread(target=lambda: writes.extend(
                    hall_writes(port, ev, args.every, stop_at, judges[1], args.tables, tag)), daemon=True)
                writer.start()
                r = load(port, pid, phones, ev["games"][:args.tables], judges[0], args, tag=tag, offset=offset)
                writer.join()
                sampler_stop.set()
                s.join()
                bad = [w for w in writes if not re.search(r" 20[01]$", w)]
                print(f"  hall writes: {len(writes)} ({', '.join(sorted(set(w.split()[0] for w in writes)))}); "
                      f"refused {len(bad)}{' ' + str(bad[:3]) if bad else ''}", flush=True)
                print(f"  server: threads max {max(t for t, _ in samples)}, sockets max {max(c for _, c in samples)}",
                      flush=True)
                return r, bad, samples

            print("\nphase A: the recorder's load and the hall's writes, no live page open", flush=True)
            a, bad_a, samples_a = run_phase("a", 0)

            print(f"\nphase B: the same with {args.pages} live pages open "
                  f"({', '.join(f'{kinds.count(k)} {k}' for k, _ in MIX)})"
                  f"{' and the ' + str(args.tables) + ' recorder phones header badges' if args.badges else ''}",
                  flush=True)
            reader = Pages()
            reader.start()
            _, cpu0 = proc_figures(pid)
            t0 = time.time()
            pages = []
            calls_left = list(player_calls)
            for k, kind in enumerate(kinds):
                cookie = (head.cookie if kind in ("dashboard", "clocks", "penalties", "calls")
                          else judges[k % len(judges)].cookie if kind == "floor" else "")
                table, cid = calls_left.pop(0) if kind == "call" else (0, 0)
                page = open_page(port, ev["tid"], kind, cookie, table=table, call=cid)
                reader.add(page)
                pages.append(page)
            if args.badges:
                for gid in ev["games"][:args.tables]:
                    page = open_page(port, ev["tid"], "recorder", phones[gid].cookie, gid=gid)
                    reader.add(page)
                    pages.append(page)
            deadline = time.time() + 60
            while time.time() < deadline and not all(p.hello_at for p in pages):
                time.sleep(0.05)
            _, cpu1 = proc_figures(pid)
            opened = [(p.hello_at - p.sent_at) * 1000 for p in pages if p.hello_at]
            print(f"  {len(opened)} of {len(pages)} pages open in {time.time() - t0:.1f} s (each its HTML, what its "
                  f"script reads, its stream; one after another), server CPU {cpu1 - cpu0:.1f} s; "
                  f"stream's first answer: {figures(opened)}", flush=True)
            rnd = random.Random(13)
            start = time.time() + 1.0
            for page in rnd.sample(pages, int(len(pages) * args.drops)):
                reader.drop(page, start + rnd.uniform(5, max(6, args.duration - 10)), 3.0)
            b, bad_b, samples_b = run_phase("b", 400)
            time.sleep(3)   # the last messages and refetches arrive
            reader.stop.set()
            reader.join()
            upto = max((p.last_id or 0) for p in pages)
            db = open_db(db_path)
            upto = max(upto, journal.last_id(db))
            db.close()
            got = sent = missing = doubled = leaked = 0
            delays = []
            per_kind_missing: dict[str, int] = {}
            for p in pages:
                ids = [i for i, _, _, _, _ in p.events if i is not None]
                want = expected(db_path, ev["tid"], p, upto)
                got += len(ids)
                sent += len(want)
                doubled += len(ids) - len(set(ids))
                lost = len(want - set(ids))
                missing += lost
                if lost:
                    per_kind_missing[p.kind] = per_kind_missing.get(p.kind, 0) + lost
                leaked += len(set(ids) - want)
                # live deliveries only: a message published after its connection opened
                # (a replay after a cut arrives late by design and is counted above)
                delays += [(arrived - data["time"]) * 1000 for i, kind, data, arrived, conn in p.events
                           if i is not None and "time" in data and data["time"] >= p.opened[conn - 1]]
            alive = sum(1 for p in pages if not p.closed)
            print(f"  messages: {sent} owed to the {len(pages)} streams, {got} delivered; missing {missing}"
                  f"{' ' + str(per_kind_missing) if per_kind_missing else ''}, doubled {doubled}, "
                  f"not for that audience {leaked}; {reader.reconnected} streams cut and reconnected with "
                  f"Last-Event-ID; open at the end: {alive} of {len(pages)}", flush=True)
            if delays:
                print(f"  publication -> arrival (live, not replayed after a cut): p50 {statistics.median(delays):.0f} ms, "
                      f"p95 {pct(delays, 95):.0f} ms, max {max(delays):.0f} ms (n={len(delays)})  [target <= 2000 ms]",
                      flush=True)
            for what, values in sorted(reader.fetch_ms.items()):
                print(f"  the pages' fetches on messages, {what}: {figures(values)}")
            if reader.fetch_errors:
                print(f"  fetch errors: {len(reader.fetch_errors)} {sorted(set(reader.fetch_errors))[:5]}")
            for p in pages:
                if not p.closed:
                    p.sock.close()

            def line(name, r):
                return (f"  {name}: entry p50 {statistics.median(r['entry_ms']):.1f} ms, p95 {pct(r['entry_ms'], 95):.1f} ms, "
                        f"max {max(r['entry_ms']):.1f} ms (n={len(r['entry_ms'])}), errors {len(r['errors'])}, count check "
                        f"{'OK' if r['count_ok'] else 'FAILED'}, server CPU {r['cpu_s']:.1f} s")
            print("\nsummary  [targets: entry p95 <= 50 ms, 0 errors; threads flat; every message once within 2 s]")
            print(line("A recorder + hall writes".ljust(34), a))
            print(line(f"B the same + {len(pages)} open streams".ljust(34), b))
            print(f"  server threads max: {max(t for t, _ in samples_a)} (A) / {max(t for t, _ in samples_b)} (B); "
                  f"sockets max {max(c for _, c in samples_a)} / {max(c for _, c in samples_b)}")
            print(f"  the pages' CPU: {b['cpu_s'] - a['cpu_s']:+.1f} s of server CPU over the {args.duration:g} s "
                  f"(B - A), {cpu1 - cpu0:.1f} s to open them")
            print(f"  messages: missing {missing}, doubled {doubled}, leaked {leaked}; "
                  f"delivery p95 {pct(delays, 95) if delays else float('nan'):.0f} ms")
            print(f"  load average at the end: {os.getloadavg()[0]:.1f} {os.getloadavg()[1]:.1f} {os.getloadavg()[2]:.1f} "
                  f"({os.cpu_count()} CPUs)")
        finally:
            end_server(server, log)


if __name__ == "__main__":
    main()
