"""Players find their seat, at the size of a big event: what the server spends when the
whole room looks itself up at once.

    python bench/seats.py [--players 300] [--typists 300]

On a fresh instance (a temporary folder), through the app (Flask's test client, signed
out, as a player's phone), for an event of --players players with round 1 seated:
1. The page a player opens from the QR code (GET /tournaments/<id>/seats): time and size.
2. What seats.js asks as a player types (GET …/seats?q=…&part=results): --typists players
   each type their first name, a space and the start of their last name, one request per
   key press after the first two letters (the script waits 150 ms after the last key, so a
   fast typist sends fewer: this counts every key); median and 95th percentile per answer,
   and the total server time for the whole room.
3. The list by name for the wall (GET …/rounds/1/seats/list): time and size.

Prints one line per figure; not a test. Single-threaded, uncached: on a busy machine the
figures are higher.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judgekit import create_app  # noqa: E402
from judgekit.db import open_db  # noqa: E402
from judgekit.tournament import store  # noqa: E402

FIRST = ["Ana", "Anaïs", "Bruno", "Chloé", "Dmitri", "Eva", "Femi", "Greta", "Hiro", "Inés", "Jonas", "Kasia",
         "Luca", "Marta", "Nils", "Oskar", "Paula", "Quim", "Rosa", "Sven"]
LAST = ["Silva", "Costa", "Martin", "Volkov", "Novak", "Adeyemi", "Lind", "Tanaka", "García", "Weber",
        "Dubois", "de la Tour", "Ångström", "O'Brien", "Kowalczyk"]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--typists", type=int, default=300)
    args = ap.parse_args()
    rng = random.Random(12)
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"INSTANCE": Path(tmp) / "instance", "TESTING": True})
        db = open_db(app.config["DATABASE"])
        tid = store.create_tournament(db, {"name": "Seat Bench Open", "rounds_planned": 3})
        names = [f"{rng.choice(FIRST)} {rng.choice(LAST)}" for _ in range(args.players)]
        for k, name in enumerate(names):
            store.add_player(db, tid, {"name": name, "vekn": str(5000000 + k)})
        store.start_round(db, tid, seed=1)
        db.close()
        client = app.test_client()

        def get(url: str, **query):
            start = time.perf_counter()
            r = client.get(url, query_string=query)
            took = time.perf_counter() - start
            assert r.status_code == 200, (url, r.status_code)
            return took, len(r.data)

        get(f"/tournaments/{tid}/seats")  # warm the templates
        took, size = get(f"/tournaments/{tid}/seats")
        print(f"seat page, {args.players} players: {ms(took)}, {size / 1024:.0f} KB")

        times, requests = [], 0
        start_all = time.perf_counter()
        for name in rng.sample(names, min(args.typists, len(names))):
            first, _, last = name.partition(" ")
            typed = f"{first} {last[:3]}"
            for end in range(2, len(typed) + 1):
                if typed[end - 1] == " ":
                    continue
                took, _ = get(f"/tournaments/{tid}/seats", q=typed[:end], part="results")
                times.append(took)
                requests += 1
        total = time.perf_counter() - start_all
        times.sort()
        print(f"as-you-type answers: {requests} requests from {args.typists} players; median {ms(statistics.median(times))}, "
              f"95th percentile {ms(times[int(len(times) * 0.95)])}, total server time {total:.1f} s")

        took, size = get(f"/tournaments/{tid}/rounds/1/seats/list")
        print(f"list by name, {args.players} players: {ms(took)}, {size / 1024:.0f} KB")


if __name__ == "__main__":
    main()
