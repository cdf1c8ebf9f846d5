#!/usr/bin/env python3
"""Offline search vs server search: overlap of the top-3 results.

Starts the app on a temporary instance, opens a page in headless Chromium (Debian's
/usr/bin/chromium through Playwright; never `playwright install`), runs every query
through `window.judgekitOfflineSearch` (static/offline-search.js) and through the server's
search (`RulesService.search_payload`, the code behind GET /api/search), and prints the
share of the server's top 3 that the offline search also returns in its top 3.

    python bench/offline_search.py                 # tests/search_queries, tests/search_questions, bench/heldout_queries.tsv
    python bench/offline_search.py --show 10       # and the queries that differ
    python bench/offline_search.py FILE ...        # other query files (query<TAB>…)
    python bench/offline_search.py --random 500    # also 500 made-up queries (seeded)
    python bench/offline_search.py --first-search  # the phone figures only (below)

It also prints what a phone pays (`--first-search` prints only that): the index's size over
the wire (gzip, as the server and any static host send it), and the first search on a CPU
slowed 4x (Chrome's CPU throttling through the DevTools protocol): cold (the index read
from the browser's cache, parsed and set up, then the query) and after the page read it
in idle time (what the published copy and a page that went offline do), median of 5 runs.
"""
from __future__ import annotations

import argparse
import logging
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from judgekit.offline.compare import compare, read_queries  # noqa: E402

CHROMIUM = os.environ.get("JUDGEKIT_CHROMIUM", "/usr/bin/chromium")
DEFAULT_FILES = [ROOT / "tests" / "search_queries", ROOT / "tests" / "search_questions",
                 ROOT / "bench" / "heldout_queries.tsv", ROOT / "tests" / "search_cards",
                 ROOT / "bench" / "heldout_cards.tsv", ROOT / "bench" / "heldout_card_behaviour.tsv"]
FIRST_QUERIES = ["is it too late for direct intervention", "vp withdraw", "redirect a bleed to another methuselah"]
LIMIT = 10


def random_queries(index, n: int, seed: int = 7) -> list[str]:
    """Made-up queries: 1-5 words of the rules text, some misspelt, cut short or in capitals."""
    import random
    import re

    from judgekit.rules.search import WORD
    from judgekit.rules.synonyms import SYNONYMS
    rng = random.Random(seed)
    words = sorted({w for e in index.entries.values() for w in re.findall(WORD, e.body)})
    words += sorted(SYNONYMS)
    out = []
    for _ in range(n):
        picked = []
        for w in rng.sample(words, rng.randint(1, 5)):
            roll = rng.random()
            if roll < 0.15 and len(w) > 4:       # one typo
                i = rng.randrange(len(w))
                w = w[:i] + rng.choice("aeiourst") + w[i + 1:]
            elif roll < 0.25 and len(w) > 5:     # cut short
                w = w[:rng.randint(4, len(w) - 1)]
            elif roll < 0.32:
                w = w.upper()
            picked.append(w)
        out.append(" ".join(picked))
    return out


def offline_results(base_url: str, queries: list[str]) -> tuple[list[list[dict]], float, dict]:
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-background-networking",
                                           "--disable-component-update", "--no-first-run",
                                           "--disable-gpu"])
        try:
            page = browser.new_page()
            page.goto(base_url + "/offline")
            page.wait_for_function("typeof window.judgekitOfflineSearch === 'function'")
            stats = page.evaluate("judgekitOfflineSearch.stats()")
            started = time.perf_counter()
            payloads = page.evaluate(
                "async ([qs, limit]) => { const out = [];"
                " for (const q of qs) out.push(await judgekitOfflineSearch(q, limit)); return out; }",
                [queries, LIMIT])
            took = (time.perf_counter() - started) * 1000 / max(1, len(queries))
        finally:
            browser.close()
    errors = [(q, p.get("error")) for q, p in zip(queries, payloads) if p.get("error")]
    if errors:
        raise SystemExit(f"offline search failed: {errors[:3]}")
    return [p["results"] for p in payloads], took, stats


def first_search(base_url: str, rate: float = 4, runs: int = 5) -> dict:
    """Median milliseconds of the first search on a CPU slowed `rate` times: cold, and after
    the idle preload; and the next search."""
    import statistics

    from playwright.sync_api import sync_playwright
    cold, warm, nxt = [], [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-background-networking",
                                           "--disable-component-update", "--no-first-run", "--disable-gpu"])
        try:
            for i in range(runs):
                for preload in (False, True):
                    context = browser.new_context()
                    page = context.new_page()
                    page.goto(base_url + "/offline")
                    url = page.get_attribute("[data-offline-index]", "data-offline-index")
                    page.evaluate("u => fetch(u).then(r => r.arrayBuffer())", url)   # in the HTTP cache
                    page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
                    if preload:
                        page.evaluate("judgekitOfflineSearch.load().then(() => true)")
                    q = FIRST_QUERIES[i % len(FIRST_QUERIES)]
                    took = page.evaluate("""async ([q, q2]) => { const t0 = performance.now();
                        await judgekitOfflineSearch(q); const t1 = performance.now();
                        await judgekitOfflineSearch(q2); return [t1 - t0, performance.now() - t1]; }""",
                                         [q, FIRST_QUERIES[(i + 1) % len(FIRST_QUERIES)]])
                    (warm if preload else cold).append(took[0])
                    nxt.append(took[1])
                    context.close()
        finally:
            browser.close()
    return {"cold": statistics.median(cold), "warm": statistics.median(warm), "next": statistics.median(nxt)}


def wire_size(base_url: str, path: str) -> tuple[int, int]:
    """(bytes sent with gzip, bytes of the JSON) of an offline file."""
    import gzip
    import urllib.request
    req = urllib.request.Request(base_url + path, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(req) as r:
        body = r.read()
        packed = r.headers.get("Content-Encoding") == "gzip"
    return len(body), len(gzip.decompress(body) if packed else body)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path, help="query files (query<TAB>expected)")
    ap.add_argument("--show", type=int, default=0, metavar="N", help="print N differing queries")
    ap.add_argument("--random", type=int, default=0, metavar="N",
                    help="also N random queries from corpus words, with typos and capitals (seed 7)")
    ap.add_argument("--first-search", action="store_true", help="only the phone figures (size, first search)")
    args = ap.parse_args(argv)
    files = args.files or [f for f in DEFAULT_FILES if f.exists()]

    from werkzeug.serving import make_server
    logging.getLogger("werkzeug").setLevel(logging.ERROR)

    from judgekit import create_app
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"INSTANCE": Path(tmp) / "instance"})
        server = make_server("127.0.0.1", 0, app, threaded=True)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_port}"
        svc = app.extensions["rules"]
        sets = [(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path, read_queries(path))
                for path in files]
        if args.random:
            sets.append((f"{args.random} random queries", random_queries(svc.index, args.random)))
        try:
            from judgekit.offline.search_index import index_version
            from judgekit.offline.views import cards_data_url
            with app.test_request_context("/"):
                cards_url = cards_data_url()
            sent, raw = wire_size(base, f"/offline/search-index.json?v={index_version(svc.search)}")
            cards_sent, cards_raw = wire_size(base, cards_url)
            print(f"offline index: {sent / 1e6:.2f} MB over the wire (gzip), {raw / 1e6:.2f} MB of JSON "
                  f"(target <= 3 MB); the card pages' data: {cards_sent / 1e6:.2f} MB ({cards_raw / 1e6:.2f} MB)")
            first = first_search(base)
            print(f"first search, CPU slowed 4x: cold {first['cold']:.0f} ms (index read, parsed, set up, "
                  f"searched), after the idle preload {first['warm']:.0f} ms (target <= 300 ms); "
                  f"the next search {first['next']:.0f} ms")
            if args.first_search:
                return 0
            for name, queries in sets:
                started = time.perf_counter()
                server_side = [svc.search_payload(q, limit=LIMIT)["results"] for q in queries]
                server_ms = (time.perf_counter() - started) * 1000 / max(1, len(queries))
                offline_side, offline_ms, stats = offline_results(base, queries)
                if stats["token_totals"] != stats["expected_totals"]:
                    print(f"warning: browser tokens {stats['token_totals']} != server {stats['expected_totals']}")
                report = compare(queries, server_side, offline_side)
                pairs = [(a, b) for s, o in zip(server_side, offline_side) for a, b in zip(s[:3], o[:3])
                         if (a["doc"], a["section"], a["title"]) == (b["doc"], b["section"], b["title"])]
                same_snippet = sum(a["snippet"] == b["snippet"] and a["url"] == b["url"] for a, b in pairs)
                print(f"{name}: {len(queries)} queries — top-3 overlap {report.overlap:.1%}; "
                      f"same top-3 in order {report.identical:.1%}; same first result {report.same_first:.1%}; "
                      f"same snippet and link for {same_snippet}/{len(pairs)} shared results; "
                      f"{server_ms:.2f} ms/query server, {offline_ms:.2f} ms/query browser (index v{stats['version']})")
                for q in report.differing()[:args.show]:
                    print(f"  {q.query!r}: overlap {q.overlap:.2f}\n    server  {q.server}\n    offline {q.offline}")
        finally:
            server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
