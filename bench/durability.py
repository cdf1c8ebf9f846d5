"""What durable commits cost: every kind of write, timed with WAL's NORMAL level and with
FULL (an fsync of the WAL at each commit: what `judgekit.db.SYNCHRONOUS` sets).

    python bench/durability.py [--players 300] [--appends 600] [--dir DIR] [--levels NORMAL,FULL]

A 300-player event late in the day, through the same store functions the views call:
registrations, check-ins, penalties (issue, then the head judge's approval), time
extensions, recorder appends (tables being recorded), table results (with a few
overrides), then the round closed and a few results corrected. Each write kind is timed
per call (p50, p95, max); a call includes its reads (e.g. a result answers with the
table's state), as a request would. Target: every write p95 <= 10 ms at FULL.

The database goes in a temporary folder next to this script unless --dir says where
(not /tmp, which may be a RAM disk where an fsync costs nothing). Not a test: prints.
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

from judgekit.db import migrate, open_db, synchronous_level  # noqa: E402
from judgekit.recorder import store as recorder_store  # noqa: E402
from judgekit.game.cards import load_cards  # noqa: E402
from judgekit.tournament import store  # noqa: E402
from judgekit.tournament.penalties import extensions  # noqa: E402
from judgekit.tournament.penalties import store as pstore  # noqa: E402
from judgekit.game.outcome import derive_vp  # noqa: E402

sys.path.insert(0, str(REPO / "bench"))
from recorder import game_events, pct  # noqa: E402
from tournament import random_outcome  # noqa: E402


def run(folder: Path, level: str, players: int, appends: int, cards) -> dict[str, list[float]]:
    db = open_db(folder / f"{level.lower()}.db", synchronous=level)
    assert synchronous_level(db) == level, synchronous_level(db)
    migrate(db)
    times: dict[str, list[float]] = {}

    def timed(kind: str, fn, *args, **kw):
        t0 = time.perf_counter()
        out = fn(*args, **kw)
        times.setdefault(kind, []).append((time.perf_counter() - t0) * 1000)
        return out

    rng = random.Random(7)
    tid = store.create_tournament(db, {"name": "Durability Cup", "rounds_planned": 3})
    ids = []
    for p in range(players):
        ids.append(timed("registration", store.add_player, db, tid,
                         {"name": f"Player {p}", "vekn": str(3100000 + p), "checked_in": False})["id"])
    for pid in ids:
        timed("check-in", store.set_checked_in, db, tid, pid, True)
    rnd = store.start_round(db, tid, seed=1)
    tables = store.round_detail(db, tid, 1, games=False)["tables"]
    for t in tables:  # one penalty per table, every third needing the head judge's approval
        pid = t["seats"][0]["player_id"]
        infraction = "game-rule-violation" if t["number"] % 3 else "unsportsmanlike-conduct-major"
        res = timed("penalty", pstore.issue, db, tid, {"player": pid, "infraction": infraction,
                                                       "description": "bench", "round": 1,
                                                       "table": t["number"]},
                    judge="Jo Judge", role="judge")
        assert isinstance(res, pstore.Stored), res
        if res.needs_head_judge:
            ok = timed("approval", pstore.approve, db, tid, res.record["id"], {"reason": "bench"},
                       judge="Hal Head", role="head_judge")
            assert isinstance(ok, pstore.Stored), ok
    for t in tables:
        res = timed("extension", extensions.extend, db, tid, 1, t["number"],
                    {"minutes": 3, "reason": "ruling at the table", "client_id": f"x{t['number']}"},
                    judge="Jo Judge")
        assert isinstance(res, extensions.Extended), res
    events = game_events(appends)
    for i, e in enumerate(events):
        t = tables[i % len(tables)]
        res = timed("recorder append", recorder_store.append_events, db, t["game_id"],
                    dict(e, client_id=f"a{i}"), cards=cards)
        assert not isinstance(res, recorder_store.StoreError), res
    for t in tables:
        d = derive_vp(t["size"], random_outcome(t["size"], rng))
        if t["number"] % 10 == 0:
            timed("override", store.override_result, db, tid, 1, t["number"], [0] * t["size"],
                  "players agreed, head judge confirmed", by="Hal Head")
        else:
            timed("result", store.enter_result, db, tid, 1, t["number"], d.vps,
                  withdrawn=d.withdrawn, by="Jo Judge")
    store.close_round(db, tid, rnd["number"])
    for t in tables[::3]:
        d = derive_vp(t["size"], random_outcome(t["size"], rng))
        timed("correction", store.correct_result, db, tid, 1, t["number"], d.vps,
              "score sheet misread", withdrawn=d.withdrawn, by="Hal Head")
    db.close()
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--appends", type=int, default=600)
    ap.add_argument("--dir", default=None, help="where the databases go (default: beside this script)")
    ap.add_argument("--levels", default="NORMAL,FULL")
    args = ap.parse_args()
    cards = load_cards().warm()
    folder = Path(tempfile.mkdtemp(prefix="durability-", dir=args.dir or Path(__file__).parent))
    try:
        results = {}
        for level in args.levels.upper().split(","):
            results[level] = run(folder, level, args.players, args.appends, cards)
        kinds = list(next(iter(results.values())))
        print(f"writes of a {args.players}-player event (ms per call: p50 / p95 / max), in {folder.parent}")
        print(f"{'write':<16}" + "".join(f"{level + ' (n)':>30}" for level in results))
        worst = 0.0
        for kind in kinds:
            cells = []
            for level, times in results.items():
                t = times[kind]
                cells.append(f"{statistics.median(t):7.2f} /{pct(t, 95):6.2f} /{max(t):7.2f} ({len(t):4d})")
                if level == "FULL":
                    worst = max(worst, pct(t, 95))
            print(f"{kind:<16}" + "".join(f"{c:>30}" for c in cells))
        if "FULL" in results:
            print(f"worst write p95 at FULL: {worst:.2f} ms  [target <= 10 ms]")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
