"""The Content-Security-Policy holds on every page: each page is loaded (and its script
used) while the browser reports any violation — an inline script, style attribute or
event handler the policy refuses would show here, not in a user's console."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from judgekit.auth import store as auth_store
from judgekit.db import open_db
from judgekit.tournament import store as tstore

LISTEN = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


def seed(app):
    db = open_db(app.config["DATABASE"])
    try:
        tid = tstore.create_tournament(db, {"name": "Policy Open", "rounds_planned": 2})
        for k in range(8):
            tstore.add_player(db, tid, {"name": f"Player {k}", "vekn": str(8100000 + k)})
        table = tstore.start_round(db, tid, seed=3)["tables"][0]
        tstore.open_checkin(db, tid)  # the dashboard's check-in code, its QR code and checkin.js
        codes = auth_store.issue_codes(db, tid)
        return tid, table, codes
    finally:
        db.close()


@pytest.fixture
def watched(browser):
    """A phone-sized page with the policy in force (other tests' pages bypass it)."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True,
                                  has_touch=True, bypass_csp=False)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script(LISTEN)
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text) if "Content Security Policy" in m.text else None)
    page.csp_console = messages
    yield page
    context.close()
    assert errors == []


def violations(page) -> list[str]:
    return page.evaluate("window.__csp || []") + page.csp_console


def test_no_page_breaks_the_policy(watched, own_server, own_app):
    page, base = watched, own_server
    tid, table, codes = seed(own_app)
    page.goto(f"{base}/tournaments/{tid}/sign-in")
    page.fill("#si-name", "Hal Head")
    page.fill("#si-code", codes["head_judge"])
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash").first).to_contain_text("Signed in to Policy Open")
    paths = [
        "/", "/rules/tournament-rules/3.7.2", "/reference", "/search?q=withdraw", "/history", "/trainer",
        "/trainer/practice", "/cards", "/cards/groups/G00107", "/cards/direct-intervention",
        "/games", f"/games/{table['game_id']}", "/offline",
        f"/tournaments/{tid}", f"/tournaments/{tid}/rounds/1", f"/tournaments/{tid}/rounds/1/tables/1",
        f"/tournaments/{tid}/standings", f"/tournaments/{tid}/public", f"/tournaments/{tid}/final",
        f"/tournaments/{tid}/penalties", f"/tournaments/{tid}/penalties/new", f"/tournaments/{tid}/time",
        f"/tournaments/{tid}/penalties/report", "/tournaments",
        f"/tournaments/{tid}/vekn", f"/tournaments/{tid}/check-in", f"/tournaments/{tid}/check-in/show",
        f"/tournaments/{tid}/seats?q=player", f"/tournaments/{tid}/rounds/1/seats/list", f"/tournaments/{tid}/seats/poster",
        f"/tournaments/{tid}/room", f"/tournaments/{tid}/floor", f"/tournaments/{tid}/calls",
        f"/tournaments/{tid}/call/1", f"/tournaments/{tid}/rounds/1/cards",
    ]
    for path in paths:
        page.goto(base + path)
        expect(page.locator("main")).to_be_visible()
        page.wait_for_load_state("load")
        assert violations(page) == [], path
    # find your table as you type (seats.js fetches the answer)
    page.goto(f"{base}/tournaments/{tid}/seats")
    page.locator("#seat-q").press_sequentially("player 3", delay=30)
    expect(page.locator(".seat-card")).to_have_count(1)
    assert violations(page) == []
    # a trainer question (its progress bar) through the session's start
    page.goto(f"{base}/trainer")
    page.locator("form[data-start-session] button[type=submit]").first.click()
    expect(page.locator(".tr-meter")).to_be_visible()
    assert violations(page) == []


def test_print_buttons_work_without_inline_handlers(watched, own_server, own_app):
    page, base = watched, own_server
    tid, _, codes = seed(own_app)
    page.goto(f"{base}/tournaments/{tid}/sign-in")
    page.fill("#si-name", "Hal Head")
    page.fill("#si-code", codes["head_judge"])
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash").first).to_contain_text("Signed in to Policy Open")
    page.goto(f"{base}/tournaments/{tid}/rounds/1")
    page.evaluate("window.print = function () { document.body.setAttribute('data-printed', 'yes'); }")
    page.get_by_role("button", name="Print").click()
    expect(page.locator("body")).to_have_attribute("data-printed", "yes")
    assert violations(page) == []
