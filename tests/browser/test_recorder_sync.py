"""The recorder page keeps pace at a cost that does not grow with the game (issue 11 §3),
and its outbox keeps the table's time and never jams (issue 16 §3): the page redraws from
the answers to its entries, polls only what changed (304 when nothing did), times each
entry at the tap, and sends the rest when one entry is refused for good."""
from __future__ import annotations

import json
import urllib.request

import pytest
from playwright.sync_api import expect

from judgekit.recorder import clock
from helpers import eventually, line, recorder_game

SEATS = ["Ann", "Ben", "Cid", "Dee", "Eve"]


def new_game(live_app, **kw):
    return recorder_game(live_app, SEATS, label="Sync", **kw)


def api_game(live_server, gid):
    with urllib.request.urlopen(f"{live_server}/api/games/{gid}") as r:
        return json.loads(r.read())


def api_post(live_server, gid, events):
    req = urllib.request.Request(f"{live_server}/api/games/{gid}/events", data=json.dumps(events).encode(),
                                 headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(req) as r:
        return json.loads(r.read())


def context(browser, judge=None, **kw):
    """A phone of its own (no service worker unless asked: these tests cut the network
    themselves); `judge`: JavaScript text for the name kept on the device."""
    ctx = browser.new_context(viewport={"width": 360, "height": 740}, **kw)
    if judge is not None:
        ctx.add_init_script(f"localStorage.setItem('judgekit.judge', {judge})")
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return ctx, page, errors


def reads_of(page, gid):
    """Every GET of the game's API the page makes: (url, If-None-Match sent, status)."""
    seen = []
    page.on("response", lambda r: seen.append((r.url.split(f"/api/games/{gid}", 1)[1], r.request.headers.get("if-none-match"),
                                               r.status))
            if f"/api/games/{gid}" in r.url and r.request.method == "GET" else None)
    return seen


def test_entries_redraw_from_their_answers_and_polls_read_only_what_changed(browser, live_server, live_app):
    gid = new_game(live_app)
    ctx, page, errors = context(browser, service_workers="block")
    try:
        reads = reads_of(page, gid)
        page.goto(f"{live_server}/games/{gid}")
        expect(page.locator("#rec-next button").first).to_have_text("Start turn: Ann (seat 1)")
        page.locator("#rec-next button").first.click()           # a button
        expect(page.locator("#rec-next button").first).not_to_have_text("Start turn: Ann (seat 1)")
        line(page, "1 unlock")                                    # a line
        expect(page.locator("#rec-log li[data-seq]")).to_have_count(2)
        expect(page.locator("#rec-log li[data-seq='2']")).to_contain_text("unlock")
        assert [url for url, _, _ in reads] == [""]               # only the first load read the game
        # nothing changed: the poll asks with the game's ETag and gets 304
        with page.expect_response(lambda r: f"/api/games/{gid}?after=2" in r.url, timeout=15_000) as polled:
            page.evaluate("window.dispatchEvent(new Event('focus'))")
        assert polled.value.status == 304 and polled.value.request.headers.get("if-none-match")
        # another judge's entry: the next poll brings that line only
        api_post(live_server, gid, [{"type": "note", "text": "from the other judge"}])
        page.evaluate("window.dispatchEvent(new Event('focus'))")
        expect(page.locator("#rec-log li[data-seq='3']")).to_contain_text("from the other judge", timeout=15_000)
        assert any(r[0] == "?after=2" and r[2] == 200 for r in reads)
        assert all(url.startswith("?after=") for url, _, _ in reads[1:])   # never the whole game again
        # Undo: the retracted line is redrawn from the answer, struck out
        page.click("#rec-undo")
        expect(page.locator("#rec-log li[data-seq='3']")).to_have_class("is-retracted")
        expect(page.locator("#rec-log li[data-seq]")).to_have_count(4)
        assert all(url.startswith("?after=") for url, _, _ in reads[1:])
    finally:
        ctx.close()
    assert not errors, errors


def test_a_double_tap_on_a_button_records_one_entry(browser, live_server, live_app):
    gid = new_game(live_app)
    ctx, page, errors = context(browser, service_workers="block")
    try:
        page.goto(f"{live_server}/games/{gid}")
        start = page.locator("#rec-next button").first
        expect(start).to_have_text("Start turn: Ann (seat 1)")
        start.evaluate("b => { b.click(); b.click(); }")    # both taps in one task: surely a double tap
        expect(page.locator("#rec-log li[data-seq]")).to_have_count(1)
        expect(page.locator("#rec-next button").first).not_to_have_text("Start turn: Ann (seat 1)")
        assert [e["type"] for e in api_game(live_server, gid)["events"]] == ["turn.start"]
    finally:
        ctx.close()
    assert not errors, errors


def test_an_entry_made_offline_is_timed_at_the_tap_so_the_clock_is_not_late(browser, live_server, live_app):
    gid = new_game(live_app)
    ctx, page, errors = context(browser, service_workers="block")
    try:
        page.goto(f"{live_server}/games/{gid}")
        expect(page.locator("#rec-next button").first).to_have_text("Start turn: Ann (seat 1)")
        ctx.set_offline(True)
        tapped = page.evaluate("Date.now()") / 1000
        page.get_by_role("button", name="Start clock").click()
        expect(page.locator("#rec-log li.is-queued")).to_have_count(1)
        while page.evaluate("Date.now()") / 1000 < tapped + 2.5:           # the outage lasts 2.5 s
            page.evaluate("new Promise(ok => requestAnimationFrame(ok))")
        ctx.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        expect(page.locator("#rec-log li.is-queued")).to_have_count(0, timeout=15_000)
        data = api_game(live_server, gid)
        start = data["events"][0]
        arrived, at_tap = clock.to_epoch(start["time"]), clock.to_epoch(start["device_time"])
        assert arrived - at_tap >= 2.0            # both kept: the server's arrival and the tap
        assert abs(at_tap - tapped) < 1.0
        assert data["state"]["clock"]["started_at"] == at_tap    # the clock runs from the tap
        expect(page.locator("#rec-clock .rec-clock-note")).to_contain_text("120 min")
    finally:
        ctx.close()
    assert not errors, errors


def test_an_entry_the_server_fails_on_again_and_again_does_not_block_the_rest(browser, live_server, live_app):
    gid = new_game(live_app)
    ctx, page, errors = context(browser, service_workers="block")

    def failing(route):
        if "boom" in (route.request.post_data or ""):
            route.fulfill(status=500, content_type="application/json", body='{"error": "it broke"}')
        else:
            route.continue_()
    try:
        page.goto(f"{live_server}/games/{gid}")
        expect(page.locator("#rec-next button").first).to_have_text("Start turn: Ann (seat 1)")
        page.route(f"**/api/games/{gid}/events", failing)
        ctx.set_offline(True)
        for text in ('note "boom"', 'note "after one"', 'note "after two"'):
            line(page, text)
        expect(page.locator("#rec-log li.is-queued")).to_have_count(3)
        ctx.set_offline(False)
        for _ in range(3):    # the connection is back: each try fails on the first entry
            page.evaluate("window.dispatchEvent(new Event('online'))")
        refused = page.locator("#rec-log li.is-refused")
        expect(refused).to_have_count(1, timeout=30_000)
        expect(refused).to_contain_text("boom")
        expect(refused).to_contain_text("the server failed 3 times (HTTP 500): it broke")
        expect(page.locator("#rec-log li[data-seq]")).to_have_count(2)          # the rest went out
        assert [e["text"] for e in api_game(live_server, gid)["events"]] == ["after one", "after two"]
        for name in ("Fix", "Send again", "Discard"):
            expect(refused.get_by_role("button", name=name)).to_be_visible()
        page.unroute(f"**/api/games/{gid}/events")                              # the server is fixed
        refused.get_by_role("button", name="Send again").click()
        expect(page.locator("#rec-log li.is-queued")).to_have_count(0, timeout=15_000)
        assert [e["text"] for e in api_game(live_server, gid)["events"]] == ["after one", "after two", "boom"]
    finally:
        ctx.close()
    assert not errors, errors


def test_a_refused_line_can_be_fixed_in_the_box(browser, live_server, live_app):
    gid = new_game(live_app)
    ctx, page, errors = context(browser, service_workers="block")
    try:
        page.goto(f"{live_server}/games/{gid}")
        expect(page.locator("#rec-next button").first).to_have_text("Start turn: Ann (seat 1)")
        ctx.set_offline(True)
        line(page, "1 frobnicate")
        line(page, "1 start")
        ctx.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        refused = page.locator("#rec-log li.is-refused")
        expect(refused).to_have_count(1, timeout=15_000)
        refused.get_by_role("button", name="Fix").click()
        expect(page.locator("#rec-input")).to_have_value("1 frobnicate")      # back in the box
        expect(page.locator("#rec-log li.is-queued")).to_have_count(0)
        line(page, "1 unlock")
        assert [e["type"] for e in api_game(live_server, gid)["events"]] == ["turn.start", "phase"]
    finally:
        ctx.close()
    assert not errors, errors


BROKEN = "'Jo ' + '\\ud83e'"    # a name cut in the middle of an emoji, as the page once kept it


def test_a_judge_name_cut_inside_an_emoji_never_jams_the_entries(browser, live_server, live_app):
    gid = new_game(live_app)
    ctx, page, errors = context(browser, judge=BROKEN, service_workers="block")
    try:
        page.goto(f"{live_server}/games/{gid}")
        expect(page.locator("#rec-next button").first).to_have_text("Start turn: Ann (seat 1)")
        ctx.set_offline(True)
        line(page, "1 start")
        line(page, "1 unlock")
        ctx.set_offline(False)
        page.evaluate("window.dispatchEvent(new Event('online'))")
        expect(page.locator("#rec-log li.is-queued")).to_have_count(0, timeout=15_000)
        events = api_game(live_server, gid)["events"]
        assert [e["type"] for e in events] == ["turn.start", "phase"]
        assert {e["judge"] for e in events} == {"Jo"}          # the broken half is not kept

        # a new name is cut at 80 characters, never inside one
        name = "Ω" * 79 + "🦇🦇"
        page.once("dialog", lambda d: d.accept(name))
        page.get_by_role("button", name="Judge: Jo").click()
        page.wait_for_function("() => localStorage.getItem('judgekit.judge') !== 'Jo'")
        kept = page.evaluate("localStorage.getItem('judgekit.judge')")
        assert kept == "Ω" * 79 + "🦇"
        page.get_by_role("button", name="Note…").click()
        page.fill("#rec-ask input[name=text]", "named")
        page.click("#rec-ask button[type=submit]")
        expect(page.locator("#rec-log li[data-seq]")).to_have_count(3)

        def third_is_named():
            events = api_game(live_server, gid)["events"]
            assert len(events) == 3 and events[2]["judge"] == kept, events
        eventually(third_is_named)
    finally:
        ctx.close()
    assert not errors, errors


@pytest.mark.service_worker
def test_a_reload_offline_opens_the_game_as_the_page_last_knew_it(page, live_server, live_app):
    """The page reads the whole game only once: it keeps the service worker's copy up to
    date itself (at the latest when it goes away), so a reload with the network cut shows
    the entries made since."""
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    page.wait_for_function("() => document.querySelector('[data-offline-badge]').classList.contains('is-saved')",
                           timeout=60_000)
    page.reload()                                     # now through the service worker
    expect(page.locator("#rec-next button").first).to_have_text("Start turn: Ann (seat 1)")
    for text in ("1 start", "1 unlock", "1 master"):
        line(page, text)
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(3)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(3)
    expect(page.locator("#rec-log li[data-seq='3']")).to_contain_text("master")
    page.context.set_offline(False)


def test_a_line_sent_while_the_page_still_loads_is_not_lost(browser, live_server, live_app):
    """A slow phone: the page shows before its script has run. A line typed and sent then
    (Enter) must not go out as a plain form (a reload that loses it): Send waits, says why,
    and the line stays in the box; once the game is loaded it is sent and stored."""
    gid = new_game(live_app)
    ctx, page, errors = context(browser, judge="'Jo'", service_workers="block")
    held, released = [], []

    def hold(route):   # the recorder's script is late (a slow network, a busy phone)
        if released:
            route.continue_()
        else:
            held.append(route)
    try:
        page.route("**/static/recorder.js*", hold)
        page.goto(f"{live_server}/games/{gid}", wait_until="commit")
        box = page.locator("#rec-input")
        expect(box).to_be_editable()
        box.fill("1 start; 1 end")
        box.press("Enter")
        page.locator(".rec-send").click(force=True)              # and a tap on Send
        expect(box).to_have_value("1 start; 1 end")
        assert "line=" not in page.url                           # no plain-form reload
        expect(page.locator(".rec-send")).to_be_disabled()
        expect(page.locator("#rec-msg")).to_contain_text("Loading the game")
        released.append(True)
        for route in held:
            route.continue_()
        expect(page.locator("#rec[data-ready]")).to_have_count(1)
        expect(page.locator("#rec-msg")).not_to_contain_text("Loading the game")
        expect(box).to_have_value("1 start; 1 end")                  # still there to send
        page.click(".rec-send")
        expect(box).to_have_value("")
        expect(page.locator("#rec-log li[data-seq]")).to_have_count(2)
        assert [e["type"] for e in api_game(live_server, gid)["events"]] == ["turn.start", "turn.end"]
        assert errors == []
    finally:
        ctx.close()


def _undo_while_on_its_way(page, live_server, gid, text):
    """A turn start recorded, then the line `text` sent and held on its way (a slow
    connection: its route waits until the test lets it go, the entries after it pass) and
    Undo tapped meanwhile. Returns the held route."""
    page.goto(f"{live_server}/games/{gid}")
    line(page, "1 start")
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(1)
    held = []

    def hold(route):
        if route.request.method == "POST" and not held:
            held.append(route)
        else:
            route.continue_()
    page.route(f"**/api/games/{gid}/events", hold)
    page.fill("#rec-input", text)
    page.click(".rec-send")
    eventually(lambda: _expect(len(held) == 1), page=page)
    page.click("#rec-undo")
    return held[0]


def test_undo_tapped_while_the_entry_is_on_its_way_takes_that_entry_back(browser, live_server, live_app):
    # The entry has left the phone but its answer is not back when Undo is tapped: once it
    # lands, Undo takes it back from the record (before, the tap did nothing and said nothing).
    gid = new_game(live_app)
    ctx, page, errors = context(browser, service_workers="block")
    try:
        _undo_while_on_its_way(page, live_server, gid, 'note "late answer"').continue_()
        expect(page.locator("#rec-msg")).to_have_text("Undone: #2 Note: late answer.", timeout=15_000)
        expect(page.locator("#rec-log li.is-retracted")).to_have_count(1)
        eventually(lambda: _expect([(e["type"], e.get("target")) for e in api_game(live_server, gid)["events"]]
                                   == [("turn.start", None), ("note", None), ("retract", 2)]), page=page)
        assert errors == []
    finally:
        ctx.close()


def test_undo_tapped_while_the_entry_is_on_its_way_leaves_the_one_before_if_it_is_refused(browser, live_server, live_app):
    # The entry on its way is refused: Undo leaves the entry before it alone (the refused line
    # is back in the box to correct, its refusal on the status line).
    gid = new_game(live_app)
    ctx, page, errors = context(browser, service_workers="block")
    try:
        _undo_while_on_its_way(page, live_server, gid, 'note "refused"').fulfill(
            status=400, content_type="application/json", body='{"error": "not today"}')
        expect(page.locator("#rec-msg")).to_contain_text("not today")
        expect(page.locator("#rec-input")).to_have_value('note "refused"')
        line(page, 'note "after"')      # entries go out in order: after any retract
        expect(page.locator("#rec-log li[data-seq]")).to_have_count(2)
        expect(page.locator("#rec-log li.is-retracted")).to_have_count(0)
        assert [e["type"] for e in api_game(live_server, gid)["events"]] == ["turn.start", "note"]
        assert errors == []
    finally:
        ctx.close()


def _expect(ok):
    assert ok
