"""Works in the hall: the app keeps the rules, the search and the recorder usable with the
network cut (Playwright takes the browser context offline once the service worker holds
its copy), and entries made offline reach the server once each, in order."""
from __future__ import annotations

import json
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from judgekit.offline.compare import compare, read_queries
from helpers import eventually, line, recorder_game


def _one(events):
    assert len(events) == 1, events

ROOT = Path(__file__).resolve().parents[2]
POLL_MS = 5000   # how often a recorder page asks for other judges' entries (recorder-sync.js)
SEATS = ["Ann", "Ben", "Cid", "Dee", "Eve"]

# The tests that use the saved copy (they wait for it, then cut the network) run with the
# service worker (`service_worker`); the others (the offline search's code, the outbox)
# block it: installing it fetches the whole copy from the test server behind the test.


def wait_until_saved(page):
    """The service worker has filled its cache and controls the page."""
    page.wait_for_function(
        "() => document.querySelector('[data-offline-badge]').classList.contains('is-saved')",
        timeout=60_000)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=10_000)


def new_game(live_app):
    return recorder_game(live_app, SEATS, label="Hall")


def api_game(live_server, gid):
    with urllib.request.urlopen(f"{live_server}/api/games/{gid}") as r:
        return json.loads(r.read())


def note(page, text):
    page.get_by_role("button", name="Note…").click()
    page.fill("#rec-ask input[name=text]", text)
    page.click("#rec-ask button[type=submit]")
    expect(page.locator("#rec-ask")).to_be_hidden()


# --- search ----------------------------------------------------------------------------------

def test_offline_search_agrees_with_the_server_on_the_query_set(page, live_server, live_app):
    queries = read_queries(ROOT / "tests" / "search_queries") + read_queries(ROOT / "tests" / "search_questions")
    page.goto(live_server + "/offline")
    # the queries before any text file is read but those the answers shown need, as on a
    # phone (a step reading an entry's text too early would fail here)
    offline = page.evaluate("async qs => { const out = [], search = (await import('/static/offline-search.js')).default;"
                            " for (const q of qs) out.push((await search(q, 10)).results);"
                            " return out; }", queries)
    stats = page.evaluate("import('/static/offline-search.js').then(m => m.default.stats())")
    # the browser tokenizes the rules exactly as the server's analyzer did
    assert stats["token_totals"] == stats["expected_totals"]
    svc = live_app.extensions["rules"]
    server = [svc.search_payload(q, limit=10)["results"] for q in queries]
    report = compare(queries, server, offline)
    # the same ranking: every one of the server's first three results, on keywords and on
    # judges' whole questions (question words, numbers, definitions)
    assert report.overlap == 1.0, [(q.query, q.server, q.offline) for q in report.differing()]
    # and the snippets are cut and marked the same way
    assert offline[0][0]["snippet"] == server[0][0]["snippet"]


@pytest.mark.service_worker
def test_search_and_rules_pages_work_with_the_network_cut(page, live_server, shot):
    page.goto(live_server + "/")
    wait_until_saved(page)
    badge = page.locator("[data-offline-badge]")
    expect(badge).to_contain_text("Online")
    expect(badge).to_contain_text("Rules 2025")

    page.context.set_offline(True)
    expect(badge).to_contain_text("Offline")
    page.reload()                                      # the page itself comes from this device
    badge = page.locator("[data-offline-badge]")
    expect(badge).to_contain_text("Offline")
    expect(badge).to_have_class("net-badge is-offline is-saved")
    page.fill("#q", "vp withdraw")
    first = page.locator("#live-results li a").first
    expect(first).to_contain_text("3.7.2")
    expect(page.locator("#live-results .search-meta")).to_contain_text("offline")
    expect(page.locator("#live-results mark").first).to_be_visible()
    shot(page, "offline-search-phone", full_page=False)
    first.click()
    expect(page.locator("h1")).to_contain_text("Victory Point Scoring")

    # the header's search form goes to /search: offline, the saved home page runs it here
    page.goto(live_server + "/search?q=proxy")
    expect(page.locator("#live-results li a").first).to_contain_text("4.5")
    # older editions and the quick reference were saved too
    page.goto(live_server + "/rules/tournament-rules-2007")
    expect(page.locator("h1")).to_contain_text("V:EKN Tournament Rules")
    expect(page.locator("main")).to_contain_text("2007")
    page.goto(live_server + "/reference")
    expect(page.locator("h1")).to_contain_text("Quick reference")
    # an address never saved: the offline page says so instead of the browser's error
    page.goto(live_server + "/games")
    expect(page.locator("[data-offline-missed]")).to_be_visible()
    page.context.set_offline(False)


# --- recorder ----------------------------------------------------------------------------------

LINES = ["1 start", "1 unlock", "1 master", "1 +Villein @Modius =2", "1 r", "1 minion",
         "1 bleed Modius =1", "1 go", "ok"]        # "ok" before the prey passed: a finding
TYPES = ["turn.start", "phase", "phase", "card.play", "note", "card.replace", "phase",
         "action.declare", "action.pass", "action.result"]


@pytest.mark.service_worker
def test_ten_entries_made_offline_arrive_once_and_in_order(page, live_server, live_app, shot):
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    wait_until_saved(page)
    page.reload()                                  # now through the service worker: kept
    expect(page.locator("#rec-next button").first).to_have_text("Start turn: Ann (seat 1)")

    page.context.set_offline(True)
    page.reload()                                  # reopening the game offline works
    expect(page.locator("#rec-next button").first).to_have_text("Start turn: Ann (seat 1)")
    for text in LINES[:4]:
        line(page, text)
    note(page, "Ann asked for a judge about Villein")
    for text in LINES[4:]:
        line(page, text)
    queued = page.locator("#rec-log li.is-queued")
    expect(queued).to_have_count(10)
    expect(queued.first).to_contain_text("not yet sent")
    expect(queued.first).to_contain_text("“ok”")             # newest on top
    expect(page.locator("#rec-queue")).to_contain_text("10 entries not yet sent")
    expect(page.locator("#rec-msg")).to_contain_text("not yet sent")
    shot(page, "offline-recorder-queued-phone", full_page=False)
    page.locator("#rec-queue").scroll_into_view_if_needed()
    shot(page, "offline-recorder-queued-log-phone", full_page=False)
    assert api_game(live_server, gid)["events"] == []         # nothing reached the server

    page.reload()                                  # still offline: the entries are kept
    expect(page.locator("#rec-log li.is-queued")).to_have_count(10)

    page.context.set_offline(False)
    expect(page.locator("#rec-log li.is-queued")).to_have_count(0, timeout=30_000)
    expect(page.locator("#rec-queue")).to_be_hidden()
    data = api_game(live_server, gid)
    events = data["events"]
    assert [e["type"] for e in events] == TYPES
    assert [e["seq"] for e in events] == list(range(1, 11))
    assert len({e["client_id"] for e in events}) == 10
    assert events[4]["text"] == "Ann asked for a judge about Villein"
    # the server checked them on arrival; the page shows what it found
    codes = [(f["seq"], f["code"]) for f in data["findings"]]
    assert (10, "block-pass-missing") in codes
    for seq, code in codes:
        expect(page.locator(f"#rec-log [data-finding='{seq}:{code}']").first).to_be_visible()
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(10)
    shot(page, "offline-recorder-synced-phone", full_page=False)


def _context(browser, judge, **kw):
    """A judge's phone. No service worker (the session's browser blocks it): these tests
    reload nothing and read nothing from the saved copy; they cut the network under the
    page's outbox."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, **kw)
    ctx.add_init_script(f"localStorage.setItem('judgekit.judge', {json.dumps(judge)})")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return ctx, page, errors


def test_two_judges_keep_both_logs_in_server_order(browser, live_server, live_app):
    gid = new_game(live_app)
    url = f"{live_server}/games/{gid}"
    a_ctx, a, a_errors = _context(browser, "Alice")
    b_ctx, b, b_errors = _context(browser, "Bob")
    b.clock.install()   # B's page asks for others' entries every 5 s: the test moves its clock on
    try:
        a.goto(url)
        b.goto(url)
        line(a, "1 start")
        expect(a.locator("#rec-log li[data-seq]")).to_have_count(1)       # stored
        b.clock.run_for(POLL_MS)
        expect(b.locator("#rec-log li[data-seq]")).to_have_count(1, timeout=15_000)   # B sees A's

        a_ctx.set_offline(True)
        line(a, "1 unlock")
        line(a, "1 master")
        expect(a.locator("#rec-log li.is-queued")).to_have_count(2)
        note(b, "seat 3 asks about the clock")                 # B, online, meanwhile
        expect(b.locator("#rec-log li[data-seq]")).to_have_count(2)

        a_ctx.set_offline(False)
        expect(a.locator("#rec-log li.is-queued")).to_have_count(0, timeout=30_000)
        events = api_game(live_server, gid)["events"]
        assert [(e["type"], e["judge"]) for e in events] == [
            ("turn.start", "Alice"), ("note", "Bob"), ("phase", "Alice"), ("phase", "Alice")]
        expect(a.locator("#rec-log li[data-seq]")).to_have_count(4)        # A sees B's note
        expect(a.locator("#rec-log")).to_contain_text("seat 3 asks about the clock")
        b.clock.run_for(POLL_MS)
        expect(b.locator("#rec-log li[data-seq]")).to_have_count(4, timeout=15_000)
    finally:
        a_ctx.close()
        b_ctx.close()
    assert not a_errors and not b_errors, (a_errors, b_errors)


def test_a_reply_lost_on_the_way_back_does_not_double_the_entry(browser, live_server, live_app):
    gid = new_game(live_app)
    # the test cuts one reply on its way back to the page
    ctx, page, errors = _context(browser, "Carol")
    lost = []

    def lose_first_reply(route):
        if route.request.method == "POST" and not lost:
            route.fetch()                       # the server stores the entry…
            lost.append(route.request.post_data)
            route.abort("connectionreset")      # …and the page never hears back
        else:
            route.continue_()

    try:
        page.route(f"**/api/games/{gid}/events", lose_first_reply)
        page.goto(f"{live_server}/games/{gid}")
        expect(page.locator("#rec-next button").first).to_have_text("Start turn: Ann (seat 1)")
        line(page, "1 start")
        expect(page.locator("#rec-log li.is-queued")).to_have_count(1)
        eventually(lambda: _one(api_game(live_server, gid)["events"]))   # stored, reply lost
        page.evaluate("window.dispatchEvent(new Event('online'))")  # try again now
        expect(page.locator("#rec-log li.is-queued")).to_have_count(0, timeout=15_000)
        events = api_game(live_server, gid)["events"]
        assert [e["type"] for e in events] == ["turn.start"]
        assert json.loads(lost[0])[0]["client_id"] == events[0]["client_id"]
    finally:
        ctx.close()
    assert not errors, errors


def test_a_step_tapped_offline_waits_in_the_words_tapped(page, live_server, live_app, shot):
    """The log shows an entry waiting to be sent in the words of the button tapped, never by
    the name the program gives its type ("turn.start")."""
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    step = page.locator("#rec-next button").first
    expect(step).to_have_text("Start turn: Ann (seat 1)")
    page.context.set_offline(True)
    step.click()
    queued = page.locator("#rec-log li.is-queued")
    expect(queued).to_have_count(1)
    expect(queued.locator(".rec-sum")).to_have_text("not yet sent Start turn: Ann (seat 1)")
    # (the log is redrawn as the page polls: scroll whichever line is there now, not a
    # handle that a redraw may have replaced)
    page.evaluate("document.querySelector('#rec-log li.is-queued')?.scrollIntoView({block: 'center'})")
    shot(page, "offline-recorder-step-queued-phone", full_page=False)
    page.context.set_offline(False)
    expect(queued).to_have_count(0, timeout=30_000)
    expect(page.locator("#rec-log li[data-seq='1'] .rec-sum")).to_contain_text("Ann")
    assert [e["type"] for e in api_game(live_server, gid)["events"]] == ["turn.start"]


def test_a_line_refused_on_arrival_stays_marked_and_the_rest_is_sent(page, live_server, live_app):
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    expect(page.locator("#rec-next button").first).to_have_text("Start turn: Ann (seat 1)")
    page.context.set_offline(True)
    for text in ("1 start", "1 frobnicate Modius", "1 unlock"):   # the middle one is no verb
        line(page, text)
    expect(page.locator("#rec-log li.is-queued")).to_have_count(3)
    page.context.set_offline(False)
    refused = page.locator("#rec-log li.is-refused")
    expect(refused).to_have_count(1, timeout=30_000)
    expect(refused).to_contain_text("frobnicate")
    expect(page.locator("#rec-log li.is-queued")).to_have_count(1)      # only the refused one
    assert [e["type"] for e in api_game(live_server, gid)["events"]] == ["turn.start", "phase"]
    refused.get_by_role("button", name="Discard").click()
    expect(page.locator("#rec-log li.is-queued")).to_have_count(0)
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(2)


def test_the_browser_stems_unknown_words_like_the_server(page, live_server):
    """Porter2 in offline-search.js against whoosh's, on words the offline map does not hold."""
    import re

    from whoosh.lang.porter2 import stem
    words = set()
    for path in list((ROOT / "content" / "rules" / "history").glob("*.md")) + list((ROOT / "docs").glob("*.md")):
        words.update(w.lower() for w in re.findall(r"[A-Za-z]+", path.read_text(encoding="utf-8")))
    words |= {"generously", "communism", "arsenal", "skies", "dying", "inning", "proceed", "kiwis",
              "hopping", "hoping", "agreed", "feed", "luxuriated", "tiebraker", "fluently", "geology",
              "conditional", "yelling", "sayings", "cried", "ties", "eerily", "news", "dyed"}
    words = sorted(words)
    page.goto(live_server + "/offline")
    got = page.evaluate("async ws => { const {internals} = await import('/static/offline-search.js');"
                        " return ws.map(w => internals.porter2(w)); }", words)
    differ = [(w, stem(w), g) for w, g in zip(words, got) if stem(w) != g]
    assert len(words) > 1500 and differ == []
