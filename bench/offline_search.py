#!/usr/bin/env python3
"""Offline search vs server search: overlap of the top-3 results.

Starts the app on a temporary instance, opens a page in headless Chromium (Debian's
/usr/bin/chromium through Playwright; never `playwright install`), runs every query
through the default export of static/offline-search.js (imported in the page) and through the server's
search (`RulesService.search_payload`, the code behind GET /api/search), and prints the
share of the server's top 3 that the offline search also returns in its top 3.

    python bench/offline_search.py                 # tests/search_queries, tests/search_questions, bench/heldout_queries.tsv
    python bench/offline_search.py --show 10       # and the queries that differ
    python bench/offline_search.py FILE ...        # other query files (query<TAB>…)
    python bench/offline_search.py --random 500    # also 500 made-up queries (seeded)
    python bench/offline_search.py --first-search  # the phone figures only (below)

It also prints what a phone pays (`--first-search` prints only that): the size over the
wire of the index and its text files (gzip, as the server and any static host send them),
and the first search on a CPU slowed 4x (Chrome's CPU throttling through the DevTools
protocol), median of 7 runs, on the copy `judgekit publish` writes, served by a plain static
server and installed (its service worker has saved every file, as on a judge's phone that
opened it once): a fresh page (nothing of the index in memory) opened with the CPU already
slowed, the query typed the moment the page's scripts have run (the page starts reading the
index as it opens; the query waits for the rest). It prints the time from the query to the
results (`cold`), from opening the page to the results and to the page's first paint (so that
reading the index early is seen not to delay the page), then a search with the index in
memory and the next one.
"""
from __future__ import annotations

import argparse
import json
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

    from judgekit.rules.analysis import WORD
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
            # the queries first, as a phone asks them: the text files are read as the answers
            # shown need them (a step reading an entry's text before they are would fail
            # here), then all of them for the tokenizer's counts
            started = time.perf_counter()
            payloads = page.evaluate(
                "async ([qs, limit]) => { const out = [], search = (await import('/static/offline-search.js')).default;"
                " for (const q of qs) out.push(await search(q, limit)); return out; }",
                [queries, LIMIT])
            took = (time.perf_counter() - started) * 1000 / max(1, len(queries))
            stats = page.evaluate("import('/static/offline-search.js').then(m => m.default.stats())")
        finally:
            browser.close()
    errors = [(q, p.get("error")) for q, p in zip(queries, payloads) if p.get("error")]
    if errors:
        raise SystemExit(f"offline search failed: {errors[:3]}")
    return payloads, took, stats


FIRST = """
window.__firstSearch = new Promise(function (resolve) {
  document.addEventListener("DOMContentLoaded", function () {
    // the judge types at once: the query goes in as soon as the page's scripts have run
    var t0 = performance.now();
    // the page's own module (it has run by now): importing it again costs no fetch
    import("/static/offline-search.js").then(function (m) { return m.default(%s, 12); }).then(function (r) {
      var t1 = performance.now();
      var marks = {};
      performance.getEntriesByType("mark").forEach(function (m) {
        if (!(m.name in marks)) marks[m.name.replace("judgekit-index-", "")] = m.startTime;
      });
      var paint = performance.getEntriesByType("paint").filter(function (e) { return e.name === "first-contentful-paint"; });
      resolve({ first: t1 - t0, opened: t1, results: r.results.length, error: r.error || null, t0: t0, marks: marks,
                painted: paint.length ? paint[0].startTime : null,
                fromSw: !!(navigator.serviceWorker && navigator.serviceWorker.controller) });
    });
  });
});
"""


def published_site(tmp: Path) -> str:
    """`judgekit publish` into `tmp` (the card pages of one card: the search files are whole),
    served by a plain static file server; its address."""
    import functools
    import http.server

    from judgekit import create_app
    from judgekit.offline.publish import publish, site_config
    app = create_app({"INSTANCE": tmp / "instance"})
    app.config["STATIC_SITE"] = site_config("/", edition="bench")
    publish(app, tmp / "site", "/", cards=[100518])

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(tmp / "site")))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}"


def first_search(site: str, rate: float = 4, runs: int = 7) -> dict:
    """Median milliseconds of the first search on a CPU slowed `rate` times, on the published
    copy installed (its service worker holds every file, as on a judge's phone): a fresh page
    opened with the CPU already slowed, the query typed as soon as its scripts have run
    (`cold`: from the query to the results; `opened`: from opening the page to the results);
    then a search with the index in memory (`warm`) and the next one."""
    import statistics

    from playwright.sync_api import sync_playwright
    cold, opened, warm, nxt, steps, painted = [], [], [], [], [], []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                                     args=["--no-sandbox", "--disable-background-networking",
                                           "--disable-component-update", "--no-first-run", "--disable-gpu"])
        try:
            context = browser.new_context()
            page = context.new_page()
            page.goto(site + "/")
            # installed: the worker saved every file (the badge's check mark)
            page.wait_for_function("() => document.querySelector('[data-offline-badge]')"
                                   ".classList.contains('is-saved')", timeout=180_000)
            page.close()
            for i in range(runs):
                q = FIRST_QUERIES[i % len(FIRST_QUERIES)]
                page = context.new_page()
                context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})
                page.add_init_script(FIRST % json.dumps(q))
                page.goto(site + "/", wait_until="commit")
                got = page.evaluate("window.__firstSearch")
                if got["error"] or not got["results"] or not got["fromSw"]:
                    raise SystemExit(f"first search failed: {got}")
                cold.append(got["first"])
                m = got["marks"]
                if {"fetch", "read", "parsed", "ready", "ranked", "texts"} <= set(m):   # an older page has none
                    # the index may be read and parsed before the page's scripts have run (the
                    # home page starts as it opens): setting up starts when the search script has it
                    setup = m.get("setup", max(m["parsed"], got["t0"]))
                    steps.append([m["fetch"], m["read"] - m["fetch"], m["parsed"] - m["read"], m["ready"] - setup,
                                  m["ranked"] - max(m["ready"], got["t0"]), m["texts"] - m["ranked"],
                                  got["t0"] + got["first"] - m["texts"], got["t0"]])
                opened.append(got["opened"])
                if got["painted"] is not None:
                    painted.append(got["painted"])
                took = page.evaluate("""async ([q, q2]) => {
                    const search = (await import('/static/offline-search.js')).default;
                    const t0 = performance.now();
                    await search(q); const t1 = performance.now();
                    await search(q2); return [t1 - t0, performance.now() - t1]; }""",
                                     [FIRST_QUERIES[(i + 1) % len(FIRST_QUERIES)], FIRST_QUERIES[(i + 2) % len(FIRST_QUERIES)]])
                warm.append(took[0])
                nxt.append(took[1])
                page.close()
        finally:
            browser.close()
    med = statistics.median
    return {"cold": med(cold), "opened": med(opened), "warm": med(warm), "next": med(nxt),
            "painted": med(painted) if painted else None,
            "cold_all": [round(x) for x in cold],
            "steps": [round(med(s[k] for s in steps)) for k in range(len(steps[0]))] if steps else None}


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
            from judgekit.offline.views import cards_data_url, text_urls
            with app.test_request_context("/"):
                cards_url = cards_data_url()
            sent, raw = wire_size(base, f"/offline/search-index.json?v={index_version(svc.search)}")
            texts = [wire_size(base, u) for u in text_urls(svc.search)]
            cards_sent, cards_raw = wire_size(base, cards_url)
            total = sent + sum(t[0] for t in texts)
            print(f"offline index: {total / 1e6:.2f} MB over the wire (gzip; target <= 3 MB): the index "
                  f"{sent / 1e6:.2f} MB ({raw / 1e6:.2f} MB of JSON) and {len(texts)} text files "
                  f"{sum(t[0] for t in texts) / 1e6:.2f} MB ({sum(t[1] for t in texts) / 1e6:.2f} MB); "
                  f"the card pages' data: {cards_sent / 1e6:.2f} MB ({cards_raw / 1e6:.2f} MB)")
            site = published_site(Path(tmp))
            first = first_search(site)
            print(f"first search, CPU slowed 4x, the published copy installed, a fresh page, typed at once: "
                  f"cold {first['cold']:.0f} ms from the query to the results (runs {first['cold_all']}, the fastest "
                  f"{min(first['cold_all'])}; "
                  f"target <= 300 ms), {first['opened']:.0f} ms from opening the page (first paint at "
                  f"{first['painted'] or 0:.0f} ms, before the search); "
                  f"with the index in memory {first['warm']:.0f} ms; the next search {first['next']:.0f} ms")
            st = first["steps"]
            if st:
                print(f"  where the cold search goes (medians, ms): the page asks for the index at {st[0]} "
                      f"after opening (the query is typed at {st[7]}); reading it {st[1]}, JSON.parse {st[2]}, "
                      f"setting up {st[3]}, ranking "
                      f"{st[4]}, reading the shown entries' text files {st[5]}, snippets {st[6]}")
            if args.first_search:
                return 0
            for name, queries in sets:
                started = time.perf_counter()
                server_answers = [svc.search_payload(q, limit=LIMIT) for q in queries]
                server_ms = (time.perf_counter() - started) * 1000 / max(1, len(queries))
                offline_answers, offline_ms, stats = offline_results(base, queries)
                server_side = [a["results"] for a in server_answers]
                offline_side = [a["results"] for a in offline_answers]
                said = [(a["match"], a["suggestions"], [p["question"] for p in a["parts"]]) for a in server_answers]
                said_offline = [(a["match"], a["suggestions"], [p["question"] for p in a["parts"]])
                                for a in offline_answers]
                same_said = sum(x == y for x, y in zip(said, said_offline))
                if stats["token_totals"] != stats["expected_totals"]:
                    print(f"warning: browser tokens {stats['token_totals']} != server {stats['expected_totals']}")
                report = compare(queries, server_side, offline_side)
                pairs = [(a, b) for s, o in zip(server_side, offline_side) for a, b in zip(s[:3], o[:3])
                         if (a["doc"], a["section"], a["title"]) == (b["doc"], b["section"], b["title"])]
                same_snippet = sum(a["snippet"] == b["snippet"] and a["url"] == b["url"] for a, b in pairs)
                print(f"{name}: {len(queries)} queries — top-3 overlap {report.overlap:.1%}; "
                      f"same top-3 in order {report.identical:.1%}; same first result {report.same_first:.1%}; "
                      f"same snippet and link for {same_snippet}/{len(pairs)} shared results; "
                      f"same match, suggestions and sub-questions {same_said}/{len(queries)}; "
                      f"{server_ms:.2f} ms/query server, {offline_ms:.2f} ms/query browser (index v{stats['version']})")
                for q in report.differing()[:args.show]:
                    print(f"  {q.query!r}: overlap {q.overlap:.2f}\n    server  {q.server}\n    offline {q.offline}")
        finally:
            server.shutdown()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
