"""Tables report their own result (issue 29 part 2): what a confirmation costs while the
round's tables record. Prints its figures; run it on an idle machine for the record.
One command: `python bench/self_report.py [--port 8500]`.

1. An event late in round 1 (bench/live.py's `build_event`): --tables tables of five, each
   table's recorder game pre-grown with --events events, and every player's own link.
2. `judgekit serve` in a subprocess (its default threads unless --threads).
3. For --duration s, at once:
   - the recorder's load (bench/recorder.py's `load`: every table's judge phone enters an
     event every --interval s, polls every --poll s, resends 3 % of its posts);
   - the tables report: at a random moment in the first half of the run, one player of
     each table proposes the VP (POST …/me/<token>/report); the four others, each after a
     pause of 1 to --think s (reading the phone), confirm (POST …/reports/<id>/confirm),
     3 % of them twice (a lost reply: the page sends again); while the report waits, each
     of the table's five pages asks for its state every --page-poll s (static/me.js), and
     each player opens their decklist page once (GET /tournaments/<id>/me/<token>/deck).
First, in process on a copy of the event (no HTTP, no other load): each proposal and
confirmation through `self_report` (what one costs the server, its durable commit included).
Then the recorder's figures, then proposal, confirmation and page-poll latencies
(p50/p95/max), errors and a count check read from the database after the run: every table
has exactly one result, of kind `reported`, with the numbers proposed; five confirmations
per table, none stored twice. Target: confirmation p95 <= 50 ms, 0 errors, count check OK.

Usage: python bench/self_report.py [--tables 60] [--events 300] [--duration 60] [--interval 3]
       [--poll 5] [--think 6] [--page-poll 4] [--threads N] [--port P] [--skip-inprocess]
"""
from __future__ import annotations

import argparse
import json
import random
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from live import build_event  # noqa: E402
from recorder import Phone, end_server, figures, load, start_server, table_phones  # noqa: E402

from judgekit.db import open_db  # noqa: E402
from judgekit.game.cards import load_cards  # noqa: E402
from judgekit.tournament.store import base, player_links, self_report  # noqa: E402

VPS = [3, 1, 1, 0, 0]   # a table of five the table check accepts (as in tests/test_self_report.py)


def give_links(path: Path, tid: int) -> list[list[tuple[int, str]]]:
    """Every player's own link, by table in seat order: [[(player id, token), ...], ...]."""
    db = open_db(path)
    try:
        tokens = {p["id"]: player_links.issue(db, tid, p["id"], by="bench")["token"] for p in base.players(db, tid)}
        return [[(pid, tokens[pid]) for pid in table] for table in base.round_tables(db, tid, 1)]
    finally:
        db.close()


def report_load(port: int, tid: int, tables: list[list[tuple[int, str]]], args) -> dict:
    lock = threading.Lock()
    ms: dict[str, list[float]] = {"propose": [], "confirm": [], "resend": [], "page": [], "deck": []}
    errors: list[str] = []
    start = time.time() + 1.0
    stop_at = start + args.duration
    api = f"/api/tournaments/{tid}/me"

    def timed(phone: Phone, kind: str, method: str, path: str, body=None, ok=(200, 201), parse=True):
        t = time.perf_counter()
        try:
            status, data, _ = phone.request(method, path, body)
        except OSError as exc:
            with lock:
                errors.append(f"{kind}: {type(exc).__name__}")
            return None, None
        with lock:
            ms[kind].append((time.perf_counter() - t) * 1000)
            if status not in ok:
                errors.append(f"{kind}: {status} {data[:160]!r}")
        return status, json.loads(data) if data and parse else None

    def table(idx: int, seats: list[tuple[int, str]]):
        rnd = random.Random(idx)
        phones = [Phone(port, 0, False) for _ in seats]   # each player's own phone (no session)
        time.sleep(max(0.0, start + rnd.random() * args.duration / 2 - time.time()))
        status, state = timed(phones[0], "propose", "POST", f"{api}/{seats[0][1]}/report",
                              {"vps": VPS[:len(seats)], "client_id": f"bench-{idx}"})
        if status not in (200, 201):
            return
        rid = state["report"]["id"]
        done = threading.Event()

        def page(k: int):   # the player's page open while the report waits
            r = random.Random(idx * 10 + k)
            time.sleep(r.random() * args.page_poll)
            # the player's decklist page (issue 29: a decklist page <= 50 ms p95 under this load)
            timed(phones[k], "deck", "GET", f"/tournaments/{tid}/me/{seats[k][1]}/deck", parse=False)
            while not done.is_set() and time.time() < stop_at:
                timed(phones[k], "page", "GET", f"{api}/{seats[k][1]}")
                done.wait(args.page_poll)

        pollers = [threading.Thread(target=page, args=(k,)) for k in range(len(seats))]
        for p in pollers:
            p.start()

        def confirm(k: int):
            time.sleep(1 + rnd.random() * (args.think - 1))
            timed(phones[k], "confirm", "POST", f"{api}/{seats[k][1]}/reports/{rid}/confirm", {})
            if rnd.random() < 0.03:
                timed(phones[k], "resend", "POST", f"{api}/{seats[k][1]}/reports/{rid}/confirm", {})

        confirmers = [threading.Thread(target=confirm, args=(k,)) for k in range(1, len(seats))]
        for c in confirmers:
            c.start()
        for c in confirmers:
            c.join()
        done.set()
        for p in pollers:
            p.join()
        for ph in phones:
            ph.hang_up()

    threads = [threading.Thread(target=table, args=(k, seats)) for k, seats in enumerate(tables)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return {"ms": ms, "errors": errors}


def in_process(path: Path, tid: int, tables: list[list[tuple[int, str]]]) -> None:
    """The same proposals and confirmations on a copy of the event, in process (no HTTP, no
    other load): what one costs the server, its durable commit included."""
    import shutil
    copy = path.with_name("inprocess.db")
    shutil.copyfile(path, copy)
    db = open_db(copy)
    propose, confirm = [], []
    try:
        for idx, seats in enumerate(tables):
            t = time.perf_counter()
            rid = self_report.propose(db, tid, seats[0][1], VPS[:len(seats)], client_id=f"ip-{idx}")["report"]["id"]
            propose.append((time.perf_counter() - t) * 1000)
            for _, token in seats[1:]:
                t = time.perf_counter()
                self_report.confirm(db, tid, token, rid)
                confirm.append((time.perf_counter() - t) * 1000)
    finally:
        db.close()
    print(f"in process (no HTTP, no other load): confirm {figures(confirm)}; propose {figures(propose)}", flush=True)


def count_check(path: Path, tables: list[list[tuple[int, str]]]) -> str:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        results = conn.execute("select table_id, kind, vps from tournament_results").fetchall()
        per_table: dict[int, list] = {}
        for tid, kind, vps in results:
            per_table.setdefault(tid, []).append((kind, json.loads(vps)))
        good = sum(1 for rows in per_table.values()
                   if len(rows) == 1 and rows[0][0] == "reported" and rows[0][1] == [float(v) for v in VPS])
        confirms = conn.execute("select report_id, player_id, count(*) from tournament_result_report_steps "
                                "where kind = 'confirm' group by report_id, player_id").fetchall()
        doubled = sum(1 for r in confirms if r[2] > 1)
        reports = conn.execute("select count(*) from tournament_result_reports").fetchone()[0]
    finally:
        conn.close()
    ok = good == len(tables) and len(per_table) == len(tables) and doubled == 0 and reports == len(tables)
    return (f"{'OK' if ok else 'FAILED'} (tables counted with the proposed VP {good}/{len(tables)}, "
            f"proposals {reports}, confirmations {len(confirms)}, stored twice {doubled})")


def main() -> None:
    ap = argparse.ArgumentParser(description="A table's confirmation under the recorder's load "
                                             "(see the module's docstring); prints its figures.")
    ap.add_argument("--tables", type=int, default=60, help="tables of five, recording and reporting")
    ap.add_argument("--events", type=int, default=300, help="events already in each table's game")
    ap.add_argument("--duration", type=float, default=60.0)
    ap.add_argument("--interval", type=float, default=3.0, help="seconds between a table's recorder entries")
    ap.add_argument("--poll", type=float, default=5.0, help="seconds between a recorder phone's polls")
    ap.add_argument("--think", type=float, default=6.0, help="at most this many seconds before a player confirms")
    ap.add_argument("--page-poll", type=float, default=4.0, help="seconds between a player page's state reads")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--port", type=int, default=None)
    ap.add_argument("--skip-inprocess", action="store_true", help="only the run against the server")
    args = ap.parse_args()
    cards = load_cards().warm()
    with tempfile.TemporaryDirectory(prefix="judgekit-report-bench-") as d:
        tmp = Path(d)
        (tmp / "serve").mkdir()
        db_path = tmp / "serve" / "judgekit.db"
        print(f"building the event: {args.tables * 5} players, {args.tables} tables ...", flush=True)
        ev = build_event(db_path, args.tables * 5, args.events, cards)
        tables = give_links(db_path, ev["tid"])
        if not args.skip_inprocess:
            in_process(db_path, ev["tid"], tables)
        server, port, log = start_server(tmp, args.threads, True, port=args.port)
        try:
            judges, phones = table_phones(port, ev["tid"], ev["code"], ev["games"])
            out: dict = {}
            reporter = threading.Thread(target=lambda: out.update(report_load(port, ev["tid"], tables, args)))
            reporter.start()
            load(port, server.pid, phones, ev["games"][:args.tables], judges[0], args)
            reporter.join()
            ms, errors = out["ms"], out["errors"]
            print(f"tables reporting their own result: {len(tables)} tables, one proposal and "
                  f"{len(ms['confirm'])} confirmations; errors {len(errors)}"
                  f"{' ' + str(sorted(set(errors))[:5]) if errors else ''}", flush=True)
            print(f"  confirm  {figures(ms['confirm'])}  [target p95 <= 50 ms]")
            print(f"  propose  {figures(ms['propose'])}")
            print(f"  resent   {figures(ms['resend'])}")
            print(f"  page     {figures(ms['page'])}")
            print(f"  decklist page (HTML, each player once) {figures(ms['deck'])}  [target p95 <= 50 ms]")
            print(f"  count check: {count_check(db_path, tables)}", flush=True)
        finally:
            end_server(server, log)


if __name__ == "__main__":
    main()
