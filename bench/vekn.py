"""Issue 12 figures at the size of a big event: registration, the dashboard, the report.

    python bench/vekn.py [--players 300] [--repeat 3]

On a fresh instance (a temporary folder), through the app as a browser uses it (Flask's
test client, an organizer's session), for an event of --players players:
1. Bulk registration: preview then register a pasted list of every player (the page's two
   POSTs), the list as an organizer pastes it (first;last;vekn;city;country).
2. The dashboard (GET /tournaments/<id>) with every player registered and checked in, and
   again after three rounds: time, and size of the HTML.
3. After three rounds and the final: the VEKN results string (GET …/export/vekn.txt), the
   Archon workbook (GET …/export/archon.xlsx, its size), the results per round
   (GET …/export/results.csv), and importing that workbook as a new event
   (POST /tournaments/import-archon).

Prints one line per figure (median of --repeat runs where it repeats); not a test.
"""
from __future__ import annotations

import argparse
import io
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judgekit import create_app  # noqa: E402
from judgekit.db import open_db  # noqa: E402
from judgekit.tournament import final as final_mod  # noqa: E402
from judgekit.tournament import store  # noqa: E402
from judgekit.game.outcome import derive_vp  # noqa: E402

FIRST = ["Ana", "Bruno", "Chloé", "Dmitri", "Eva", "Femi", "Greta", "Hiro", "Inés", "Jonas", "Kasia", "Luca"]
LAST = ["Silva", "Costa", "Martin", "Volkov", "Novak", "Adeyemi", "Lind", "Tanaka", "García", "Weber"]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms"


def timed(fn, repeat: int = 1):
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), out


def random_outcome(n: int, rng: random.Random) -> list[dict]:
    alive = list(range(1, n + 1))
    events = []
    while len(alive) > 1 and rng.random() < 0.6:
        seat = rng.choice(alive)
        events.append({"type": "oust", "seat": seat})
        alive.remove(seat)
    if len(alive) > 1:
        events.append({"type": "time-out"})
    return events


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    rng = random.Random(12)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"INSTANCE": Path(tmp) / "instance"})
        client = app.test_client()
        home = client.get("/tournaments").get_data(as_text=True)
        csrf = re.search(r'name="csrf-token" content="([^"]+)"', home).group(1)
        r = client.post("/tournaments", data={"csrf_token": csrf, "name": "Bench Open", "organizer": "Olga",
                                              "rounds_planned": "3", "has_final_present": "1", "has_final": "1"})
        tid = int(re.search(r"/tournaments/(\d+)", r.location).group(1))
        # signing in renews the session: the forms' token is the new one
        csrf = re.search(r'name="csrf-token" content="([^"]+)"',
                         client.get(f"/tournaments/{tid}").get_data(as_text=True)).group(1)
        text = "\n".join(f"{rng.choice(FIRST)};{rng.choice(LAST)} {k};{5000000 + k};Lyon;France"
                         for k in range(args.players))
        url = f"/tournaments/{tid}/players/import"

        t_preview, r = timed(lambda: client.post(url, data={"csrf_token": csrf, "text": text, "action": "preview"}))
        assert "players ready to register" in r.get_data(as_text=True), r.status_code
        t_register, r = timed(lambda: client.post(url, data={"csrf_token": csrf, "text": text, "action": "register",
                                                             "checked_in": "1"}))
        assert r.status_code == 302, r.status_code
        print(f"bulk registration of {args.players} players: preview {ms(t_preview)}, register {ms(t_register)}")

        t_dash, r = timed(lambda: client.get(f"/tournaments/{tid}"), args.repeat)
        assert r.status_code == 200
        print(f"dashboard, {args.players} players registered: {ms(t_dash)}, {len(r.data) / 1024:.0f} KB of HTML")

        db = open_db(app.config["DATABASE"])
        try:
            for n in (1, 2, 3):
                rd = store.start_round(db, tid, seed=n)
                for tb in rd["tables"]:
                    res = derive_vp(tb["size"], random_outcome(tb["size"], rng))
                    store.enter_result(db, tid, n, tb["number"], res.vps, withdrawn=res.withdrawn)
                store.close_round(db, tid, n)
            while store.standings(db, tid).needs_toss:
                store.record_toss(db, tid, seed=rng.randrange(1000))
            store.start_final(db, tid)
            for p in final_mod.placement_order(store.get_tournament(db, tid)["finalists"]):
                store.place_final_card(db, tid, p, 0)
            store.seat_final(db, tid, seed=1)
            store.enter_result(db, tid, 4, 1, [0, 3, 1, 1, 0])
        finally:
            db.close()
        t_dash, r = timed(lambda: client.get(f"/tournaments/{tid}"), args.repeat)
        print(f"dashboard after three rounds and the final: {ms(t_dash)}, {len(r.data) / 1024:.0f} KB of HTML")

        t_vekn, r = timed(lambda: client.get(f"/tournaments/{tid}/export/vekn.txt"), args.repeat)
        assert r.status_code == 200, r.get_data(as_text=True)[:200]
        print(f"VEKN results string: {ms(t_vekn)} ({len(r.data)} bytes)")
        t_csv, r = timed(lambda: client.get(f"/tournaments/{tid}/export/results.csv"), args.repeat)
        print(f"results per round (CSV, {r.get_data(as_text=True).count(chr(10)) - 1} seats): {ms(t_csv)}")
        t_xlsx, r = timed(lambda: client.get(f"/tournaments/{tid}/export/archon.xlsx"), args.repeat)
        workbook = r.data
        print(f"Archon workbook export: {ms(t_xlsx)} ({len(workbook) / 1024:.0f} KB)")

        def do_import():
            out = client.post("/tournaments/import-archon", content_type="multipart/form-data",
                              data={"csrf_token": csrf, "organizer": "Olga",
                                    "file": (io.BytesIO(workbook), "bench.xlsx")})
            assert out.status_code == 302, out.get_data(as_text=True)[:300]
            return out
        t_import, _ = timed(do_import)
        print(f"Archon workbook import as a new event ({args.players} players, 3 rounds, the final): {ms(t_import)}")


if __name__ == "__main__":
    main()
