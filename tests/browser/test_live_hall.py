"""The live hall in the browser, against the server `judgekit serve` runs (uvicorn, the streams
as coroutines fed by the hub: judgekit/live/serving.py):

- a player's phone calls a judge from the table's link; a judge's phone, on the floor view,
  has it within 2 s without a reload (and its badge, and the chime), claims it (the
  player's page says a judge is coming) and closes it with a note (the extension form is
  offered the judge's time);
- the room display counts down, shows an extension within 2 s of its recording, keeps
  counting with the network cut, and catches up when it comes back;
- a penalty waiting for approval appears on the head judge's list without a reload.

Every wait is for a condition (`expect`, `wait_for_function` with a function); the 2 s of
the issue are the deadline of those waits (LIVE_MS)."""
from __future__ import annotations

import os
import re

import pytest
from playwright.sync_api import expect

from judgekit.auth import store as auth_store
from judgekit.db import open_db
from judgekit.live import serving
from judgekit.tournament import store as tstore

LIVE_MS = int(os.environ.get("JUDGEKIT_LIVE_MS", "2000"))   # the issue's "within 2 s"
NAMES = ["Ana", "Bruno", "Carla", "Dario", "Elsa", "Filip", "Gina", "Hugo", "Ines"]


@pytest.fixture(scope="module")
def hall_server(own_app):
    """`judgekit serve`'s server (uvicorn + the hub) for this module's app."""
    server, base = serving.run_in_thread(own_app, threads=4)
    yield base
    serving.stop(server)


_count = [0]


def new_event(app) -> tuple[int, dict]:
    """A tournament with round 1 open (table 1 of five, table 2 of four) and its codes."""
    _count[0] += 1
    db = open_db(app.config["DATABASE"])
    try:
        tid = tstore.create_tournament(db, {"name": f"Hall Open {_count[0]}"})
        for k, name in enumerate(NAMES):
            tstore.add_player(db, tid, {"name": name, "vekn": str(7300000 + 10 * _count[0] + k)})
        tstore.start_round(db, tid, seed=5)
        return tid, auth_store.issue_codes(db, tid)
    finally:
        db.close()


def token_for(app, tid, role, name):
    db = open_db(app.config["DATABASE"])
    try:
        return {"Authorization": f"Bearer {auth_store.issue_token(db, tid, role, name)}"}
    finally:
        db.close()


def sign_in(page, base, tid, name, code):
    page.goto(f"{base}/tournaments/{tid}/sign-in")
    page.fill("#si-name", name)
    page.fill("#si-code", code)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash").first).to_contain_text("Signed in to")


def mark(page):
    """A mark on the page's window: still there later means the page was not reloaded."""
    page.evaluate("() => { window.__notReloaded = true; }")


def not_reloaded(page):
    page.wait_for_function("() => window.__notReloaded === true", timeout=1000)


def live(page):
    """The page's stream is open (its hello came)."""
    page.wait_for_function("() => document.documentElement.getAttribute('data-live') === 'live'")


def test_a_player_calls_and_a_judge_on_the_floor_claims_and_closes(browser, hall_server, own_app, shot):
    base = hall_server
    tid, codes = new_event(own_app)
    judge_ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                    bypass_csp=True)
    player_ctx = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                     bypass_csp=True)
    try:
        judge = judge_ctx.new_page()
        errors = []
        judge.on("pageerror", lambda e: errors.append(str(e)))
        sign_in(judge, base, tid, "Jo Floor", codes["judge"])
        judge.goto(f"{base}/tournaments/{tid}/floor")
        expect(judge.locator("[data-no-calls]")).to_be_visible()
        expect(judge.locator("[data-floor-tables] li")).to_have_count(2)
        live(judge)
        mark(judge)

        player = player_ctx.new_page()
        player.on("pageerror", lambda e: errors.append(str(e)))
        player.goto(f"{base}/tournaments/{tid}/call/2")
        player.get_by_label("Rules question").check()
        player.get_by_role("button", name="Call a judge").click()
        expect(player.locator(".call-status")).to_contain_text("A judge is called to table 2")

        card = judge.locator(".fcall").filter(has_text="Table 2")
        expect(card).to_be_visible(timeout=LIVE_MS)                      # live, within 2 s
        expect(card).to_contain_text("Rules question")
        expect(card).to_contain_text("Nobody has it yet")
        expect(judge.locator("[data-live-count]")).to_have_text("1")    # the header badge
        judge.wait_for_function("() => Number(document.documentElement.getAttribute('data-live-chimes')) >= 1")
        expect(card.get_by_role("link", name="Recorder")).to_have_attribute("href", re.compile(r"^/games/\d+$"))
        expect(card.get_by_role("link", name="Clock")).to_have_attribute("href", re.compile(r"/time\?table=2#table-2$"))
        expect(card.locator(".fcall-links a[href*='/penalties/players/']")).to_have_count(4)
        not_reloaded(judge)
        shot(judge, "live-floor-call-phone")

        card.get_by_role("button", name="Claim").click()
        expect(card).to_contain_text("You have it")
        expect(player.locator(".call-status")).to_contain_text("A judge is on the way")   # the player's page follows
        card.get_by_placeholder("Note (optional)").fill("ruled: the block stands")
        card.get_by_role("button", name="Close").click()
        expect(judge.locator(".fcall")).to_have_count(0)
        expect(judge.locator("[data-no-calls]")).to_be_visible()
        extend = judge.locator("[data-floor-done] a", has_text="Extend table 2")
        expect(extend).to_have_attribute("href", re.compile(r"/time\?table=2&judge_minutes=[0-9.]+#table-2$"))
        # closed within seconds: "under a minute", not "0.1 min at the table" (QA)
        expect(judge.locator("[data-floor-done] li").first).to_contain_text("Table 2: under a minute at the table.")
        expect(judge.locator("[data-live-count]")).to_have_text("0")
        expect(player.locator(".call-status")).to_contain_text("This call is closed")
        not_reloaded(judge)

        extend.click()                                                    # the extension form, offered the time
        expect(judge.locator("#jm-2")).to_have_value(re.compile(r"^[0-9.]+$"))
        judge.goto(f"{base}/tournaments/{tid}/calls")
        expect(judge.locator(".calls-item").first).to_contain_text("ruled: the block stands")
        assert not errors, errors
    finally:
        judge_ctx.close()
        player_ctx.close()


def test_two_judges_claim_the_same_call_and_the_second_is_told(browser, hall_server, own_app):
    base = hall_server
    tid, codes = new_event(own_app)
    pages = []
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True) for _ in range(2)]
    try:
        for ctx, name in zip(contexts, ("Jo", "Al")):
            p = ctx.new_page()
            sign_in(p, base, tid, name, codes["judge"])
            p.goto(f"{base}/tournaments/{tid}/floor")
            live(p)
            pages.append(p)
        player = contexts[0].new_page()
        player.goto(f"{base}/tournaments/{tid}/call/1")
        player.get_by_role("button", name="Call a judge").click()
        cards = [p.locator(".fcall").filter(has_text="Table 1") for p in pages]
        for c in cards:
            expect(c.get_by_role("button", name="Claim")).to_be_visible()
        # Al's phone stops hearing (a dead spot in the hall) just before Jo claims
        pages[1].evaluate("async () => (await import('/static/live.js')).live.page().es.close()")
        cards[0].get_by_role("button", name="Claim").click()
        expect(cards[0]).to_contain_text("You have it")
        cards[1].get_by_role("button", name="Claim").click()
        expect(cards[1].locator(".fcall-error")).to_contain_text("Jo has already taken this call")
        expect(cards[1]).to_contain_text("Jo has it")
        expect(cards[1].get_by_role("button", name="Claim")).to_have_count(0)
    finally:
        for ctx in contexts:
            ctx.close()


def test_the_room_display_counts_down_follows_extensions_and_keeps_counting_offline(browser, hall_server, own_app, shot):
    import http.client
    import json
    base = hall_server
    tid, codes = new_event(own_app)
    head = token_for(own_app, tid, "head_judge", "Hal")
    port = int(base.rsplit(":", 1)[1])

    def extend(table, minutes):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        conn.request("POST", f"/api/tournaments/{tid}/rounds/1/tables/{table}/extend",
                     json.dumps({"minutes": minutes, "reason": "ruling"}),
                     {**head, "Content-Type": "application/json"})
        assert conn.getresponse().status == 201
        conn.close()

    ctx = browser.new_context(viewport={"width": 1920, "height": 1080}, bypass_csp=True)
    try:
        room = ctx.new_page()
        errors = []
        room.on("pageerror", lambda e: errors.append(str(e)))
        room.clock.install()     # the countdown ticks each second: the test moves the display's clock on
        room.goto(f"{base}/tournaments/{tid}/room")
        expect(room.locator(".room-event")).to_have_text(f"Hall Open {_count[0]}")
        expect(room.locator("[data-round]")).to_have_text("Round 1")
        clock = room.locator("[data-clock]")
        expect(clock).to_have_text(re.compile(r"^1:59:\d\d$|^2:00:00$"))
        live(room)
        mark(room)
        first = clock.inner_text()
        room.clock.run_for(1000)
        room.wait_for_function("v => document.querySelector('[data-clock]').textContent !== v", arg=first)

        extend(2, 5)
        ext = room.locator("[data-room-ext] li").filter(has_text="Table 2")
        expect(ext).to_be_visible(timeout=LIVE_MS)                       # within 2 s of the recording
        expect(ext).to_contain_text("(+5 min)")
        not_reloaded(room)

        # the network drops: the countdown goes on from the display's own clock
        ctx.set_offline(True)
        expect(room.locator("[data-net]")).to_contain_text("connection lost")
        for _ in range(2):
            now = clock.inner_text()
            room.clock.run_for(1000)
            room.wait_for_function("v => document.querySelector('[data-clock]').textContent !== v", arg=now)
        expect(clock).to_have_text(re.compile(r"^1:5\d:\d\d$"))
        extend(1, 3)                                                     # recorded while the display is offline
        ctx.set_offline(False)
        expect(room.locator("[data-room-ext] li").filter(has_text="Table 1")).to_contain_text("(+3 min)")
        expect(room.locator("[data-net]")).to_have_text("live")
        expect(room.locator("[data-room-ext] li")).to_have_count(2)      # nothing doubled
        not_reloaded(room)
        assert not errors, errors
    finally:
        ctx.close()


def test_a_penalty_waiting_for_approval_appears_on_the_head_judges_list(browser, hall_server, own_app):
    import http.client
    import json
    base = hall_server
    tid, codes = new_event(own_app)
    judge = token_for(own_app, tid, "judge", "Jo Floor")
    port = int(base.rsplit(":", 1)[1])
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    try:
        page = ctx.new_page()
        sign_in(page, base, tid, "Hal Head", codes["head_judge"])
        page.goto(f"{base}/tournaments/{tid}/penalties")
        expect(page.locator("#pending")).to_contain_text("Nothing waits for you")
        live(page)
        mark(page)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        conn.request("GET", f"/api/tournaments/{tid}/players", headers=judge)
        player = json.loads(conn.getresponse().read())["players"][2]
        conn.request("POST", f"/api/tournaments/{tid}/penalties",
                     json.dumps({"player": player["id"], "infraction": "marked cards", "variant": "pattern",
                                 "description": "bent corners on the crypt"}),
                     {**judge, "Content-Type": "application/json"})
        assert conn.getresponse().status == 201
        conn.close()
        card = page.locator("#pending .pen-card")
        expect(card).to_contain_text(player["name"], timeout=LIVE_MS + 2000)   # the page reads its list again
        expect(card.get_by_role("button", name="Approve")).to_be_visible()
        expect(page.locator("[data-live-alerts]")).to_have_text("1")           # the badge's notification
        not_reloaded(page)
    finally:
        ctx.close()



class HeldPost:
    """WSGI middleware: the first POST to `path` waits (at most `limit` seconds) until
    `release()`; every request's method and path is logged with whether it came before
    that POST was let go (`early`), and a GET of `MARK` is answered at once (204: the page says it did
    something). Nothing in the browser is intercepted, so nothing can hang there: the
    worst case is a slow answer after `limit` seconds."""

    MARK = "/__test-mark"

    def __init__(self, app, path, limit=20.0):
        import threading
        self.app, self.path, self.limit = app, path, limit
        self.arrived, self.released = threading.Event(), threading.Event()
        self.log = []

    def release(self):
        self.released.set()

    def __call__(self, environ, start_response):
        method, path = environ["REQUEST_METHOD"], environ.get("PATH_INFO", "")
        self.log.append((method, path, not self.released.is_set()))
        if path == self.MARK:
            start_response("204 No Content", [("Cache-Control", "no-store")])
            return [b""]
        if method == "POST" and path == self.path and not self.arrived.is_set():
            self.arrived.set()
            self.released.wait(self.limit)
        return self.app(environ, start_response)


def test_a_form_sent_from_a_live_page_is_not_replaced_by_its_reload(browser, hall_server, own_app):
    """The dashboard reloads itself when a round starts or closes. A form the organizer has
    just sent must win over that reload: a message arriving while the form's answer is on
    its way (the organizer taps "Seat round 2", the round.started message comes back
    first) once reloaded the dashboard and the organizer never saw the new round.

    The registration's answer is held on the server (bounded: HeldPost), not by a browser
    route (holding a route hung Playwright and stalled the suite). While a navigation is
    pending Playwright's evaluate waits for it, so the page itself hands the stream its
    messages once the form is sent, and tells the server it did (HeldPost.MARK)."""
    from helpers import eventually
    base = hall_server
    tid, codes = new_event(own_app)
    dashboard = f"/tournaments/{tid}"
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                              bypass_csp=True)
    ctx.set_default_timeout(20_000)
    ctx.set_default_navigation_timeout(20_000)
    held = HeldPost(own_app.wsgi_app, f"{dashboard}/players")

    def reloads():   # the dashboard asked for before the registration's answer went
        return [e for e in held.log if e[:2] == ("GET", dashboard) and e[2]]

    def sent_or_reloaded():   # the page handed the stream its messages; the POST waits (or the page reloaded)
        assert ("GET", held.MARK, True) in held.log
        assert held.arrived.is_set() or reloads()

    def why():
        return [e[:2] for e in held.log if not e[1].startswith(("/rules", "/static", "/offline"))]
    try:
        page = ctx.new_page()
        sign_in(page, base, tid, "Olga Org", codes["organizer"])
        page.goto(f"{base}{dashboard}")
        live(page)
        # once the form is sent: the messages the dashboard reloads on, then the mark
        page.evaluate("""async mark => { const {live} = await import('/static/live.js');
          document.getElementById('register').addEventListener('submit', () =>
            setTimeout(() => { live.page().emit({kind: 'round.closed'});
                               live.page().emit({kind: 'round.started'});
                               fetch(mark, {cache: 'no-store'}).catch(() => null); }, 0)); }""", held.MARK)
        own_app.wsgi_app = held
        page.fill("#p-first", "Zed")
        page.get_by_role("button", name="Register").click(no_wait_after=True)
        eventually(sent_or_reloaded, timeout=20)          # server side only: no call into the page meanwhile
        assert not reloads(), f"the dashboard reloaded while the registration was on its way: {why()}"
        held.release()
        expect(page).to_have_url(re.compile(r"/tournaments/%d\?focus=register$" % tid))   # the form's answer
        expect(page.locator(".flash").first).to_contain_text("Zed registered")
        assert not reloads(), f"the dashboard reloaded while the registration was on its way: {why()}"
    finally:
        held.release()
        own_app.wsgi_app = held.app
        try:   # leave whatever navigation is pending first: closing on it could wait for ever
            ctx.pages[0].goto("about:blank", timeout=10_000)
        except Exception:   # noqa: BLE001 — cleanup only; the test's own outcome stands
            pass
        ctx.close()
