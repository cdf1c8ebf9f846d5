"""Search benchmark: in-process latency (snippets included) against an SQLite FTS5 baseline,
over the rules, every card and every ruling.

    python bench/search.py [--rounds 20]

Prints, over the queries of tests/search_queries, tests/search_questions,
bench/heldout_queries.tsv and tests/search_cards:
- index build time from content (rules + 4,149 cards + their rulings: about 6,600 entries),
  and the time to open it;
- judgekit search p50/p95 (the served path: the rules' and the cards' parts ranked and
  merged, snippets), wall clock and CPU time (CPU time is the figure to read on a busy
  machine: other processes' time is not in it);
- SQLite FTS5 (porter tokenizer) over the same entries, OR of the query words, bm25 ranking
  with snippet(): p50/p95, and the ratio judgekit/FTS5;
- hit@3 on each query set.
Figures, not assertions: run it on an idle machine.
"""
from __future__ import annotations

import argparse
import os
import re
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judgekit import paths  # noqa: E402
from judgekit.rules.corpus import load_corpus  # noqa: E402
from judgekit.rules.service import _card_entries, _cards_stamp  # noqa: E402
from judgekit.rules.card_ranking import Search  # noqa: E402
from judgekit.rules.search import build_index, entries_of, index_stamp  # noqa: E402


def load_queries(path: Path) -> list[tuple[str, list[str]]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            q, exp = line.split("\t")
            out.append((q, [e.strip() for e in exp.split(",")]))
    return out


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def timed(fn, queries: list[str], rounds: int, clock=time.perf_counter) -> list[float]:
    for q in queries:  # warm caches
        fn(q)
    out = []
    for _ in range(rounds):
        for q in queries:
            t = clock()
            fn(q)
            out.append((clock() - t) * 1000)
    return out


def fts5(entries):
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE e USING fts5(key UNINDEXED, title, body, tokenize='porter unicode61 remove_diacritics 2')")
    db.executemany("INSERT INTO e(key, title, body) VALUES (?, ?, ?)",
                   [(x.key, x.title, x.body) for x in entries])

    def search(q: str):
        words = re.findall(r"\w+", q.lower())
        if not words:
            return []
        match = " OR ".join(f'"{w}"' for w in words)
        return db.execute(
            "SELECT key, snippet(e, 2, '<mark>', '</mark>', ' … ', 28) FROM e WHERE e MATCH ? "
            "ORDER BY bm25(e, 3.0, 1.0) LIMIT 10", (match,)).fetchall()

    return search


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=20)
    args = ap.parse_args()

    content = paths.content_dir()
    corpus = load_corpus(content)
    with tempfile.TemporaryDirectory() as tmp:
        t, c = time.perf_counter(), time.process_time()
        cards, extra = _card_entries(content, corpus)
        entries_s, entries_cpu = time.perf_counter() - t, time.process_time() - c
        stamp = _cards_stamp(content)
        builds, builds_cpu = [], []
        for i in range(3):
            t, c = time.perf_counter(), time.process_time()
            build_index(corpus, Path(tmp) / f"ix{i}", cards=cards, cards_stamp=stamp, extra=extra)
            builds.append(time.perf_counter() - t)
            builds_cpu.append(time.process_time() - c)
        t, c = time.perf_counter(), time.process_time()
        search = Search.open(corpus, Path(tmp) / "ix0", index_stamp(corpus, stamp))
        open_s, open_cpu = time.perf_counter() - t, time.process_time() - c
        print(f"entries: {len(search.rules.entries)} rules + {len(search.cards.entries)} cards and rulings "
              f"(card entries made from content/cards in {entries_s:.2f} s, CPU {entries_cpu:.2f} s)")
        print(f"index build: best {min(builds):.2f} s, worst {max(builds):.2f} s (CPU best "
              f"{min(builds_cpu):.2f} s); with the card entries {entries_s + min(builds):.2f} s "
              f"(target <= 5 s); open: {open_s * 1000:.0f} ms (CPU {open_cpu * 1000:.0f} ms)")

        sets = [("tests/search_queries", ROOT / "tests" / "search_queries"),
                ("tests/search_questions", ROOT / "tests" / "search_questions"),
                ("bench/heldout_queries.tsv", ROOT / "bench" / "heldout_queries.tsv"),
                ("tests/search_cards", ROOT / "tests" / "search_cards"),
                ("bench/heldout_cards.tsv", ROOT / "bench" / "heldout_cards.tsv"),
                ("tests/search_card_behaviour", ROOT / "tests" / "search_card_behaviour"),
                ("bench/heldout_card_behaviour.tsv", ROOT / "bench" / "heldout_card_behaviour.tsv")]
        sets = [(name, load_queries(p)) for name, p in sets if p.exists()]
        queries = [q for _, qs in sets for q, _ in qs]

        ours = timed(lambda q: search.search(q, limit=10), queries, args.rounds)
        # the same in CPU time of this thread: what the search costs, whatever else the
        # machine is running (wall-clock tails grow when other processes take the cores)
        ours_cpu = timed(lambda q: search.search(q, limit=10), queries, args.rounds, time.thread_time)
        base = fts5(entries_of(corpus) + cards)
        fts = timed(base, queries, args.rounds)
        fts_cpu = timed(base, queries, args.rounds, time.thread_time)

        print(f"queries: {len(queries)} x {args.rounds} rounds, limit 10, snippets included, "
              f"over {search.doc_count()} entries")
        print(f"judgekit search : p50 {statistics.median(ours):.3f} ms  p95 {pct(ours, 95):.3f} ms  (target p95 <= 3 ms)")
        print(f"  in CPU time   : p50 {statistics.median(ours_cpu):.3f} ms  p95 {pct(ours_cpu, 95):.3f} ms  "
              f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)")
        print(f"SQLite FTS5     : p50 {statistics.median(fts):.3f} ms  p95 {pct(fts, 95):.3f} ms  "
              f"(CPU p50 {statistics.median(fts_cpu):.3f} ms  p95 {pct(fts_cpu, 95):.3f} ms)")
        print(f"ratio judgekit/FTS5: p50 {statistics.median(ours) / statistics.median(fts):.1f}x  "
              f"p95 {pct(ours, 95) / pct(fts, 95):.1f}x  (CPU p95 {pct(ours_cpu, 95) / pct(fts_cpu, 95):.1f}x; "
              f"target <= 3x)")
        for name, qs in sets:
            hits = alone = 0
            for q, expected in qs:
                got = [f"{h.entry.doc}/{h.entry.section}" for h in search.search(q, limit=3)[0]]
                hits += any(e in got for e in expected)
                rules = [f"{h.entry.doc}/{h.entry.section}" for h in search.rules.search(q, limit=3)[0]]
                alone += any(e in rules for e in expected)
            print(f"hit@3 on {name}: {hits}/{len(qs)} = {hits / len(qs):.3f}  (rules alone: {alone / len(qs):.3f})")


if __name__ == "__main__":
    main()
