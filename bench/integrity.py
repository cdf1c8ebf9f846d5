"""What the integrity checks of issue 16 cost a write: results with a client id and
`based_on` (read inside the write's transaction), overrides, the toss and the final's
qualifiers decided inside one transaction, time extensions with the cap checked inside it,
and the headers every response now carries.

    python bench/integrity.py [--players 300] [--dir DIR]

A 300-player event late in the day (two rounds closed, the third being entered: 60
tables), through the store functions the views call, as the views call them (every
result says what it was based on and carries a client id). Each kind of write is timed
per call (p50 / p95 / max, ms), beside the same write without the checks (no based_on,
no client id: what a store caller such as the demo does) where there is one. A toss and
setting the final's qualifiers read the standings of 300 players inside their transaction
(they did before too; now the read and the write cannot interleave). Then the result API
through the app (test client: routing, sign-in, CSRF, JSON, the security headers).
Target: write p95 <= 10 ms. The database goes beside this script unless --dir says where.
Not a test: prints.
"""
from __future__ import annotations

import argparse
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from judgekit.db import migrate, open_db  # noqa: E402
from judgekit.tournament import store  # noqa: E402
from judgekit.tournament.penalties import extensions  # noqa: E402
from judgekit.game.outcome import derive_vp  # noqa: E402
from recorder import pct  # noqa: E402
from tournament import random_outcome  # noqa: E402


class Timer:
    def __init__(self):
        self.times: dict[str, list[float]] = {}

    def __call__(self, kind: str, fn, *args, **kw):
        t0 = time.perf_counter()
        try:
            return fn(*args, **kw)
        finally:
            self.times.setdefault(kind, []).append((time.perf_counter() - t0) * 1000)


def event(db, players: int, rng: random.Random, tied: bool = False) -> tuple[int, list[dict]]:
    """A tournament with two closed rounds and the third seated; its third round's tables.
    `tied`: every table times out with ½ each, so everyone is tied (a toss is needed)."""
    tid = store.create_tournament(db, {"name": "Integrity Cup", "rounds_planned": 3})
    for p in range(players):
        store.add_player(db, tid, {"name": f"Player {p}", "vekn": str(4100000 + p)})
    for n in (1, 2, 3):
        r = store.start_round(db, tid, seed=n)
        if n == 3:
            return tid, r["tables"]
        for t in r["tables"]:
            d = derive_vp(t["size"], [{"type": "time-out"}] if tied else random_outcome(t["size"], rng))
            store.enter_result(db, tid, n, t["number"], d.vps, withdrawn=d.withdrawn)
        store.close_round(db, tid, n)
    raise AssertionError


def results(db, tid: int, tables: list[dict], timed: Timer, rng: random.Random, checks: bool) -> None:
    """Round 3 being entered: each table's result, a retry of it (lost reply), a second
    judge's different numbers on a stale form (409), then that judge replacing it; every
    tenth table overridden by the head judge."""
    suffix = "" if checks else " (no checks)"
    for t in tables:
        n, size = t["number"], t["size"]
        d = derive_vp(size, random_outcome(size, rng))
        guard = {"client_id": f"r{n}", "based_on": None} if checks else {}
        first = timed("result" + suffix, store.enter_result, db, tid, 3, n, d.vps, withdrawn=d.withdrawn,
                      by="Ann", **guard)
        if not checks:
            timed("result again" + suffix, store.enter_result, db, tid, 3, n, list(reversed(d.vps)), by="Sam")
            continue
        timed("result retry", store.enter_result, db, tid, 3, n, d.vps, withdrawn=d.withdrawn, by="Ann", **guard)
        other = list(reversed(d.vps))
        try:
            timed("result stale 409", store.enter_result, db, tid, 3, n, other, by="Sam",
                  client_id=f"s{n}", based_on=None)
        except store.TournamentError as exc:
            assert exc.status == 409 or other == d.vps, exc
        timed("result replace", store.enter_result, db, tid, 3, n, other, by="Sam", client_id=f"s2{n}",
              based_on=first["result_id"])
    for t in tables[::10]:
        latest = store.table_detail(db, tid, 3, t["number"])["result_id"]
        guard = {"client_id": f"o{t['number']}", "based_on": latest} if checks else {}
        timed("override" + suffix, store.override_result, db, tid, 3, t["number"], [0] * t["size"],
              "players agreed, head judge confirmed", by="Hal", **guard)


def extend_all(db, tid: int, tables: list[dict], timed: Timer) -> None:
    for t in tables:
        for k, minutes in enumerate((3, 4, 5)):  # the third passes the cap: confirmed
            res = timed("extension", extensions.extend, db, tid, 3, t["number"],
                        {"minutes": minutes, "reason": "ruling at the table", "client_id": f"x{t['number']}-{k}",
                         "confirm_over_cap": k == 2}, judge="Jo")
            assert isinstance(res, extensions.Extended), res


def tosses_and_final(db, tid: int, timed: Timer, samples: int) -> None:
    """Everyone tied: draw the top tie, then (bench only) remove the draw and draw again;
    likewise set the final's qualifiers and undo them."""
    conn = db.conn
    for k in range(samples):
        timed("toss", store.record_toss, db, tid, seed=k)
        if k < samples - 1:
            conn.execute("DELETE FROM tournament_tosses WHERE tournament_id = ?", [tid])
    for k in range(samples):
        timed("final qualifiers", store.start_final, db, tid)
        store.undo_final(db, tid, by="bench")


def http_results(folder: Path, players: int, rng: random.Random, timed: Timer) -> None:
    """The result API through the app, as a signed-in judge's client sends it."""
    from judgekit import create_app
    app = create_app({"INSTANCE": folder / "app", "INDEX_DIR": str(folder / "index")})
    db = open_db(app.config["DATABASE"])
    tid, tables = event(db, players, rng)
    from judgekit.auth import store as auth_store
    auth_store.issue_codes(db, tid)
    token = auth_store.issue_token(db, tid, "judge", "Jo")
    db.close()
    client = app.test_client()
    headers = {"Authorization": f"Bearer {token}"}
    for t in tables:
        d = derive_vp(t["size"], random_outcome(t["size"], rng))
        url = f"/api/tournaments/{tid}/rounds/3/tables/{t['number']}/result"
        r = timed("HTTP result", client.post, url, headers=headers,
                  json={"vps": d.vps, "withdrawn": d.withdrawn, "client_id": f"h{t['number']}", "based_on": None})
        assert r.status_code == 201, r.get_json()
        r = timed("HTTP result 409", client.post, url, headers=headers,
                  json={"vps": list(reversed(d.vps)), "client_id": f"g{t['number']}", "based_on": None})
        assert r.status_code in (200, 409), r.get_json()
        assert r.headers["X-Frame-Options"] == "DENY"


def headers_cost(n: int = 20000) -> float:
    """Microseconds the security headers add to one response."""
    from flask import Response

    from judgekit.views import security_headers
    responses = [Response("x") for _ in range(n)]
    t0 = time.perf_counter()
    for r in responses:
        security_headers(r)
    return (time.perf_counter() - t0) / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--samples", type=int, default=20, help="tosses and final set-ups timed")
    ap.add_argument("--dir", default=None, help="where the databases go (default: beside this script)")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="integrity-", dir=args.dir or Path(__file__).parent))
    timed = Timer()
    from judgekit.tournament.store import result_guard
    real_check = result_guard.check

    def check(*a, **kw):  # the checks alone, inside the writes timed above
        t0 = time.perf_counter()
        try:
            return real_check(*a, **kw)
        finally:
            if kw.get("client_id"):
                timed.times.setdefault("  of which the checks", []).append((time.perf_counter() - t0) * 1000)
    result_guard.check = check
    try:
        rng = random.Random(11)
        for checks in (False, True):
            db = open_db(folder / f"results-{checks}.db")
            migrate(db)
            tid, tables = event(db, args.players, rng)
            results(db, tid, tables, timed, rng, checks)
            if checks:
                extend_all(db, tid, tables, timed)
            db.close()
        db = open_db(folder / "tied.db")
        migrate(db)
        tid, tables = event(db, args.players, rng, tied=True)
        for t in tables:
            store.enter_result(db, tid, 3, t["number"], [0.5] * t["size"])
        store.close_round(db, tid, 3)
        tosses_and_final(db, tid, timed, args.samples)
        db.close()
        http_results(folder, args.players, rng, timed)
        print(f"writes of a {args.players}-player event, round 3 of 3 (ms per call), in {folder.parent}")
        print(f"{'write':<26}{'p50':>8}{'p95':>8}{'max':>8}{'n':>6}")
        for kind, t in timed.times.items():
            print(f"{kind:<26}{statistics.median(t):8.2f}{pct(t, 95):8.2f}{max(t):8.2f}{len(t):6d}")
        print(f"security headers: {headers_cost():.2f} µs per response")
        print("target: write p95 <= 10 ms (toss and final qualifiers read the 300 players' standings)")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
