"""Issue 29 figure: reading and validating 1,000 pasted decklists (target: <= 2 s).

    python bench/decks.py [--decks 1000] [--seed 1] [--pages] [--requests 200]

Makes --decks realistic lists (a crypt of 12-16 cards from 2-5 vampires of one group, a
library of 60-90 cards over 25-40 different cards, one line per card "3x Name", with the
TWDA's section headers), then times, in one process:
1. loading krcg's card list once (what the first decklist of a server's life pays);
2. read + validate every list (`decks.parse.parse` then `decks.validate.validate`): what a
   submission costs, and the issue's figure;
3. validate alone on the lists already read;
4. with --pages: an event of 200 players with a list each (a fresh instance, Flask's test
   client, a head judge's bearer token): the judges' Decklists page, one player's list and
   the round's deck-check page, p50/p95 of --requests GETs each; and a player's own page.
   Not under the recorder's 60-table load (bench/recorder.py): the app alone.
Prints one line per figure; not a test.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judgekit.decks import parse as parse_mod  # noqa: E402
from judgekit.decks import validate as validate_mod  # noqa: E402


def make_lists(n: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    cards = list(parse_mod.vtes())
    by_group: dict[str, list[str]] = {}
    library: list[str] = []
    for c in cards:
        if c.banned:
            continue
        if c.crypt and c.group and c.group.isdigit():
            by_group.setdefault(c.group, []).append(c.name)
        elif c.library:
            library.append(c.name)
    groups = sorted(by_group)
    out = []
    for _ in range(n):
        g = rng.choice(groups)
        vamps = rng.sample(by_group[g], rng.randint(2, 5))
        crypt_size = rng.randint(12, 16)
        counts = [1] * len(vamps)
        for _ in range(crypt_size - len(vamps)):
            counts[rng.randrange(len(vamps))] += 1
        names = rng.sample(library, rng.randint(25, 40))
        size = rng.randint(60, 90)
        lib = [1] * len(names)
        for _ in range(size - len(names)):
            lib[rng.randrange(len(names))] += 1
        lines = [f"Crypt ({crypt_size} cards)", "-" * 20]
        lines += [f"{k}x {v}" for k, v in zip(counts, vamps)]
        lines += ["", f"Library ({size} cards)"]
        lines += [f"{k}x {v}" for k, v in zip(lib, names)]
        out.append("\n".join(lines))
    return out


def pages(texts: list[str], requests: int) -> None:
    import statistics
    import tempfile

    from judgekit import create_app
    from judgekit.db import open_db
    from judgekit.decks import store as dstore
    from judgekit.tournament.store import player_links, registration, round_flow

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"INSTANCE": Path(tmp) / "instance"})
        client = app.test_client()
        r = client.post("/api/tournaments", json={"name": "Bench Decks"})
        tid, token = r.get_json()["id"], r.get_json()["token"]
        db = open_db(app.config["DATABASE"])
        pids = [registration.add_player(db, tid, {"name": f"Player {k}", "vekn": str(8000000 + k)})["id"]
                for k in range(200)]
        for k, pid in enumerate(pids):
            dstore.submit(db, tid, pid, texts[k % len(texts)], by="bench", how="organizer")
        round_flow.start_round(db, tid, seed=1)
        me = player_links.issue(db, tid, pids[7])["path"]     # the player's own link
        db.close()
        auth = {"Authorization": f"Bearer {token}"}
        for label, url, headers in (("Decklists page (200 players)", f"/tournaments/{tid}/decks", auth),
                                    ("one player's list", f"/tournaments/{tid}/decks/{pids[3]}", auth),
                                    ("deck checks of round 1", f"/tournaments/{tid}/decks/checks/1", auth),
                                    ("a player's own page (its decklist part)", me, {}),
                                    ("a player's decklist page, from their link", me + "/deck", {})):
            times = []
            for _ in range(requests):
                t0 = time.perf_counter()
                got = client.get(url, headers=headers)
                times.append((time.perf_counter() - t0) * 1000)
                assert got.status_code == 200, (url, got.status_code)
            times.sort()
            print(f"{label}: p50 {statistics.median(times):.1f} ms, p95 {times[int(len(times) * 0.95) - 1]:.1f} ms "
                  f"({requests} GETs, test client)")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--pages", action="store_true", help="also time the decklist pages")
    ap.add_argument("--requests", type=int, default=200)
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    parse_mod.vtes()
    print(f"krcg card list loaded once: {time.perf_counter() - t0:.2f} s")
    texts = make_lists(args.decks, args.seed)
    lines = sum(t.count("\n") + 1 for t in texts)
    t0 = time.perf_counter()
    parsed = [parse_mod.parse(t) for t in texts]
    problems = [validate_mod.validate(p) for p in parsed]
    total = time.perf_counter() - t0
    bad = sum(1 for p in problems if p)
    unknown = sum(len(p.unknown) for p in parsed)
    print(f"read + validate {args.decks} decklists ({lines} lines): {total:.2f} s "
          f"({total / args.decks * 1000:.2f} ms a list; target <= 2 s) — {bad} with a problem, {unknown} unknown lines")
    t0 = time.perf_counter()
    for p in parsed:
        validate_mod.validate(p)
    print(f"validate alone, {args.decks} lists already read: {time.perf_counter() - t0:.3f} s")
    if args.pages:
        pages(texts, args.requests)


if __name__ == "__main__":
    main()
