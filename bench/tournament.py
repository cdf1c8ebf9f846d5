"""Tournament figures: the seating criteria, seating a big round, computing the standings.

    python bench/tournament.py [--players 300] [--repeat 5] [--no-store]
                               [--sizes 20,50,120,300] [--krcg-iterations 20000]
                               [--krcg-runs 1] [--seeds 2] [--criteria-only | --no-criteria]

0. The VEKN's nine seating criteria (issue 12): for each size, three rounds seated one
   round at a time by `seat_round` (each round timed, wall clock and the process's CPU
   time, which a busy machine inflates less; target ≤ 2 s at 300 players), and
   krcg's own optimiser (`krcg.seating.optimise`) given --krcg-iterations over all three
   rounds at once (no round fixed). Both measured by krcg's `Score`: the weighted total
   (krcg's weights) and the nine figures. Target: our worst seed's total ≤ krcg's best
   run. krcg takes about 4 minutes at 300 players on an idle laptop.

1. Seat round 4 of a 300-player event (60 tables) whose three earlier rounds were seated
   by the same code: time, and predator→prey pairs repeated from earlier rounds
   (target: 0 repeats, ≤ 2 s).
2. The standings after 4 rounds with a random, valid result at every table and five
   Standings Adjustments in force (each −1 VP in one game, whose GW and TP follow):
   time (target ≤ 100 ms) — the pure computation, and (unless --no-store) the same through
   the SQLite store (rounds 1-3 seated from the same tables, round 4 seated by the store),
   then with the results and rating points the standings page shows.

Prints one line per figure; not a test.
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

from krcg import seating as krcg_seating  # noqa: E402

from judgekit.game.outcome import derive_vp  # noqa: E402
from judgekit.tournament.seating import History, seat_round  # noqa: E402
from judgekit.tournament.standings import Entrant, compute  # noqa: E402


def random_outcome(n: int, rng: random.Random) -> list[dict]:
    """A random finished game: ousts (and now and then a withdrawal), then the time limit."""
    alive = list(range(1, n + 1))
    events = []
    while len(alive) > 1 and rng.random() < 0.6:
        seat = rng.choice(alive)
        events.append({"type": "withdraw" if rng.random() < 0.05 else "oust", "seat": seat,
                       "seq": len(events) + 1})
        alive.remove(seat)
    if len(alive) > 1:
        events.append({"type": "time-out", "seq": len(events) + 1})
    return events


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def figures(score) -> str:
    return " ".join(f"{code} {value:.3f}" if isinstance(value, float) else f"{code} {value}"
                    for (code, _label, _weight), value in zip(krcg_seating.RULES, score.rules))


def criteria_bench(sizes: list[int], seeds: int, krcg_iterations: int, krcg_runs: int) -> None:
    """Three rounds seated one at a time against krcg's optimiser over all three rounds."""
    print(f"seating criteria, 3 rounds (krcg's Score: weighted total, then R1..R9; "
          f"krcg: optimise, {krcg_iterations} iterations, all three rounds free)")
    for n in sizes:
        players = list(range(1, n + 1))
        ours = []
        for seed in range(seeds):
            history, rounds, times, cpu = History(), [], [], []
            for r in range(3):
                t0, c0 = time.perf_counter(), time.process_time()
                seating = seat_round(players, history, seed=1000 * seed + r, rounds_planned=3)
                times.append(time.perf_counter() - t0)
                cpu.append(time.process_time() - c0)
                rounds.append(seating.tables)
                history.add_round(seating.tables)
            score = krcg_seating.Score([krcg_seating.Round(r) for r in rounds])
            ours.append(score.total)
            print(f"  {n:>3} players  judgekit seed {seed}: total {score.total:,.1f}  [{figures(score)}]  "
                  f"per round: {', '.join(f'{x:.2f} s' for x in times)} "
                  f"(CPU {', '.join(f'{x:.2f} s' for x in cpu)})", flush=True)
        theirs = []
        for run in range(krcg_runs):
            t0 = time.perf_counter()
            _best, score = krcg_seating.optimise(krcg_seating.get_rounds(players, 3), krcg_iterations, fixed=0)
            theirs.append(score.total)
            print(f"  {n:>3} players  krcg run {run}:        total {score.total:,.1f}  [{figures(score)}]  "
                  f"({time.perf_counter() - t0:.0f} s)", flush=True)
        if theirs:
            verdict = "meets the target" if max(ours) <= min(theirs) + 1e-6 else "MISSES the target"
            print(f"  {n:>3} players  judgekit worst {max(ours):,.1f} vs krcg best {min(theirs):,.1f}: {verdict}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=300)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--no-store", action="store_true")
    ap.add_argument("--sizes", default="20,50,120,300", help="players, for the seating criteria")
    ap.add_argument("--seeds", type=int, default=2, help="our seatings per size")
    ap.add_argument("--krcg-iterations", type=int, default=20000)
    ap.add_argument("--krcg-runs", type=int, default=1)
    ap.add_argument("--criteria-only", action="store_true")
    ap.add_argument("--no-criteria", action="store_true")
    args = ap.parse_args()
    players = list(range(1, args.players + 1))
    if not args.no_criteria:
        criteria_bench([int(x) for x in args.sizes.split(",")], args.seeds, args.krcg_iterations,
                       args.krcg_runs)
        if args.criteria_only:
            return

    # --- seating ----------------------------------------------------------------------
    history = History()
    rounds = []
    for r in range(1, 4):
        seating = seat_round(players, history, seed=r, rounds_planned=4)
        rounds.append(seating.tables)
        history.add_round(seating.tables)
    times, repeats, mates = [], [], []
    for k in range(args.repeat):
        t0 = time.perf_counter()
        s4 = seat_round(players, History.of(rounds), seed=1000 + k, rounds_planned=4)
        times.append(time.perf_counter() - t0)
        repeats.append(len(s4.repeated_pp))
        mates.append(s4.repeated_mates)
    print(f"seat round 4 of {args.players} players ({len(s4.tables)} tables), 3 earlier rounds, "
          f"{args.repeat} seeds: median {ms(statistics.median(times))}, max {ms(max(times))}; "
          f"repeated predator->prey pairs: max {max(repeats)}; repeated table-mates: max {max(mates)}")

    # --- standings -----------------------------------------------------------------------
    rounds.append(s4.tables)
    rng = random.Random(4)
    derived = [[(table, derive_vp(len(table), random_outcome(len(table), rng))) for table in round_]
               for round_ in rounds]
    results = [[list(zip(table, d.vps)) for table, d in round_] for round_ in derived]
    entrants = [Entrant(p, f"Player {p}", str(3000000 + p)) for p in players]
    # five Standings Adjustments, each −1 VP in one game (a random round of the player's):
    # that game's GW and TP are worked out again for every seat
    adjustments = [{"player_id": p, "vp": -1, "round": rng.randint(1, 4)} for p in rng.sample(players, 5)]
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        standings = compute(entrants, results, adjustments=adjustments, disqualified={players[0]})
        times.append(time.perf_counter() - t0)
    print(f"standings after 4 rounds, {args.players} players (pure): median {ms(statistics.median(times))}, "
          f"max {ms(max(times))}; ties to toss in the top 5: {len(standings.needs_toss)}")

    if args.no_store:
        return
    try:
        from judgekit.db import migrate, open_db
        from judgekit.tournament import store
    except ImportError as exc:  # pragma: no cover
        print(f"store figure skipped: {exc}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = open_db(Path(tmp) / "bench.db")
        migrate(db)
        tid = store.create_tournament(db, {"name": "Bench", "rounds_planned": 4})
        ids = {}
        for p in players:
            ids[p] = store.add_player(db, tid, {"name": f"Player {p}", "vekn": str(3000000 + p)})["id"]
        seat_time = None
        for r, round_ in enumerate(results, 1):
            if r < 4:
                rnd = store.start_round(db, tid, tables=[[ids[pid] for pid, _ in t] for t in round_], seed=r)
            else:  # round 4 seated by the store itself, as the dashboard's button does
                t0 = time.perf_counter()
                rnd = store.start_round(db, tid, seed=4)
                seat_time = time.perf_counter() - t0
                rnd_repeats = len(rnd["warnings"])
            for table_no, (table, d) in enumerate(derived[r - 1], 1):
                store.enter_result(db, tid, rnd["number"], table_no, d.vps, withdrawn=d.withdrawn, by="bench")
            store.close_round(db, tid, rnd["number"])
        print(f"seat round 4 through the store (history read from SQLite, tables written): "
              f"{ms(seat_time)}; repeated predator->prey pairs: {rnd_repeats}")
        # five approved SAs given after the last round (each −1 VP in the player's round-4 game)
        from judgekit.tournament.penalties import store as pstore
        for p in rng.sample(players, 5):
            pstore.issue(db, tid, {"player": ids[p], "infraction": "Outside Assistance", "description": "bench"},
                         judge="Hal", role="head_judge")
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            store.standings(db, tid)
            times.append(time.perf_counter() - t0)
        print(f"standings after 4 rounds, {args.players} players (read from SQLite): "
              f"median {ms(statistics.median(times))}, max {ms(max(times))}")
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            s = store.standings(db, tid)
            store.results(db, tid, s)
            times.append(time.perf_counter() - t0)
        print(f"standings + results with rating points (what the standings page computes): "
              f"median {ms(statistics.median(times))}, max {ms(max(times))}")
        db.close()


if __name__ == "__main__":
    main()
