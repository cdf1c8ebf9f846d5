"""A small demo tournament for trying the pages: 12 players, three preliminary rounds with
results, the final's qualifiers set. Uses the store's write functions only."""
from __future__ import annotations

import random

from judgekit.tournament import store
from judgekit.game.outcome import derive_vp

NAMES = ["Ana Souza", "Ben Carter", "Chloé Martin", "Dmitri Volkov", "Eva Novak", "Femi Adeyemi",
         "Greta Lind", "Hiro Tanaka", "Inés García", "Jonas Weber", "Kasia Nowak", "Luca Rossi"]


def random_outcome(size: int, rng: random.Random) -> list[dict]:
    alive = list(range(1, size + 1))
    events = []
    while len(alive) > 1 and rng.random() < 0.55:
        seat = rng.choice(alive)
        events.append({"type": "oust", "seat": seat, "seq": len(events) + 1})
        alive.remove(seat)
    if len(alive) > 1:
        events.append({"type": "time-out", "seq": len(events) + 1})
    return events


def create_demo(db, seed: int = 2024, rounds: int = 3, final: bool = True) -> int:
    """Create the demo tournament and return its id."""
    rng = random.Random(seed)
    tid = store.create_tournament(db, {"name": "Demo Open", "date": "2025-05-17", "location": "Lisbon",
                                       "rounds_planned": rounds, "time_limit_min": 120})
    for k, name in enumerate(NAMES):
        store.add_player(db, tid, {"name": name, "vekn": None if k == 11 else str(3200100 + k)})
    for n in range(1, rounds + 1):
        r = store.start_round(db, tid, seed=seed + n)
        for tb in r["tables"]:
            res = derive_vp(tb["size"], random_outcome(tb["size"], rng))
            store.enter_result(db, tid, n, tb["number"], res.vps, withdrawn=res.withdrawn, by="demo")
        store.close_round(db, tid, n)
    if final:
        while store.standings(db, tid).needs_toss:
            store.record_toss(db, tid, seed=rng.randrange(2**31), by="demo")
        store.start_final(db, tid)
    return tid
