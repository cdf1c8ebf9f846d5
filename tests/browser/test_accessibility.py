"""Accessibility of the pages judges and players use (issue 15 §5).

axe-core (vendored under tests/browser/vendor/axe-core, MPL-2.0) runs its WCAG 2 A/AA and
best-practice rules on every main page, light and dark; a violation fails with axe's own
words, the page's name and the theme. A page is loaded once for both themes (the colour
scheme is switched on it), and pages are loaded eight at a time (`loaded`), each batch in
the pages the previous one used. Beside it, checks of our own for what the QA walk-through found: links nested in a
<summary> (axe: nested-interactive), a home page without an <h1>, the dark-mode DQ chip's
contrast, the recorder's back link told apart by colour only, <summary> elements that lost
their disclosure marker, the "Play a final" checkbox stretched across its form, and the
offline badge's "Rules 2025 …" while the copy is being saved.

Every layout or style read waits for its condition (`expect`, `wait_for_function`).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

AXE = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"]


@pytest.fixture(scope="module")
def event(own_app):
    """The demo tournament (players, rounds, penalties), its organizer code, an empty
    tournament and a practice game."""
    from judgekit.auth.store import issue_codes
    from judgekit.db import open_db
    from judgekit.recorder import store as rstore
    from judgekit.tournament import store as tstore
    from judgekit.tournament.demo import create_demo
    db = open_db(own_app.config["DATABASE"])
    try:
        tid = create_demo(db, seed=2024)   # its final has begun: check-in by phone is closed
        codes = issue_codes(db, tid)
        empty = tstore.create_tournament(db, {"name": "Empty Cup"})
        tstore.open_checkin(db, empty)  # that dashboard shows the check-in code and its QR code
        game = rstore.create_game(db, ["Ann", "Ben", "Cid", "Dee"], label="Practice")
    finally:
        db.close()
    return {"tid": tid, "code": codes["organizer"], "empty": empty, "game": game}


def sign_in(page, base, tid, code):
    page.goto(f"{base}/tournaments/{tid}/sign-in")
    page.fill("#si-name", "Olga")
    page.fill("#si-code", code)
    page.click("form.sign-in button[type=submit]")
    expect(page.locator(".flash-ok").first).to_contain_text("Signed in to")


@pytest.fixture(scope="module")
def contexts(browser, own_server, event):
    """One signed-in phone-sized context per colour scheme, for the module."""
    out = {}
    for scheme in ("light", "dark"):
        # axe is injected as an inline script, which the app's Content-Security-Policy refuses
        ctx = browser.new_context(viewport={"width": 375, "height": 800}, color_scheme=scheme, bypass_csp=True)
        sign_in(ctx.new_page(), own_server, event["tid"], event["code"])
        out[scheme] = ctx
    yield out
    for ctx in out.values():
        ctx.close()


def pages_to_check(event):
    t = event["tid"]
    return {
        "home": "/", "tournaments": "/tournaments", "dashboard": f"/tournaments/{t}",
        "empty dashboard": f"/tournaments/{event['empty']}",
        "round": f"/tournaments/{t}/rounds/1", "table": f"/tournaments/{t}/rounds/1/tables/1",
        "standings": f"/tournaments/{t}/standings", "public standings": f"/tournaments/{t}/public",
        "final": f"/tournaments/{t}/final", "clocks": f"/tournaments/{t}/time",
        "penalties": f"/tournaments/{t}/penalties", "penalty form": f"/tournaments/{t}/penalties/new",
        "games": "/games", "recorder": f"/games/{event['game']}",
        "trainer": "/trainer", "practice": "/trainer/practice/bleed-with-an-action-card",
        "question": "/trainer/q/votes-no-side", "rules section": "/rules/tournament-rules/3.7.2",
        "guidelines": "/rules/announcements", "reference": "/reference", "history": "/history",
        "search": "/search?q=withdraw",
        "vekn report": f"/tournaments/{t}/vekn", "add players": f"/tournaments/{t}/players/import",
        "edit player": f"/tournaments/{t}/players/1/edit", "check-in": f"/tournaments/{t}/check-in",
        "check-in screen": f"/tournaments/{t}/check-in/show",
        "room display": f"/tournaments/{t}/room", "floor": f"/tournaments/{t}/floor",
        "calls": f"/tournaments/{t}/calls", "call a judge": f"/tournaments/{t}/call/1",
        "table cards": f"/tournaments/{t}/rounds/1/cards",
    }


PAGES = ["home", "tournaments", "dashboard", "empty dashboard", "round", "table", "standings",
         "public standings", "final", "clocks", "penalties", "penalty form", "games", "recorder",
         "trainer", "practice", "question", "rules section", "guidelines", "reference", "history",
         "search", "vekn report", "add players", "edit player", "check-in", "check-in screen",
         "room display", "floor", "calls", "call a judge", "table cards"]
DARK = ["home", "dashboard", "vekn report", "standings", "penalties", "recorder", "trainer", "question",
        "rules section", "history", "room display", "floor"]


def axe_violations(page, tries: int = 3) -> list[dict]:
    """axe's violations on the page as it settles: a run that meets a passing state (a colour
    still fading in, the offline badge changing its words) is run again, and only what
    every run finds is reported."""
    if not page.evaluate("() => typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
        page.wait_for_function("() => typeof window.axe === 'object'")
    found = _axe_run(page)
    for _ in range(tries - 1):
        if not found:
            break
        page.wait_for_load_state("networkidle")
        again = {v["id"] for v in _axe_run(page)}
        found = [v for v in found if v["id"] in again]
    return found


def _axe_run(page) -> list[dict]:
    return page.evaluate(
        """async tags => {
             const r = await axe.run(document, {runOnly: {type: 'tag', values: tags}});
             return r.violations.map(v => ({id: v.id, help: v.help,
               nodes: v.nodes.slice(0, 5).map(n => n.target.join(' ') + ': ' + n.failureSummary)}));
           }""", AXE_TAGS)


BATCH = 8   # pages loaded at once: their waits for a quiet network overlap


@pytest.fixture(scope="module")
def loaded(contexts, own_server, event):
    """`loaded(name)`: (the page, its answer's status), loaded in the light context and settled
    (no request for half a second: Playwright's "networkidle"). The first ask of a page loads
    it and the next ones of PAGES together, so that their half-seconds of quiet run at once
    rather than one after the other. Each test gives its page back (`loaded.done(page)`):
    the next batch is loaded in the pages given back (a navigation costs less than a new
    page: docs/development.md), in the light scheme again; the last ones are closed."""
    paths = pages_to_check(event)
    ready: dict = {}
    spare: list = []

    def load(name):
        if name not in ready:
            start = PAGES.index(name)
            batch = [n for n in PAGES[start:start + BATCH] if n not in ready]
            for n in batch:
                if spare:
                    page = spare.pop()
                    page.emulate_media(color_scheme="light")
                else:
                    page = contexts["light"].new_page()
                ready[n] = (page, page.goto(own_server + paths[n], wait_until="commit").status)
            for n in batch:
                ready[n][0].wait_for_load_state("networkidle")
        return ready.pop(name)

    load.done = spare.append
    yield load
    for page in spare + [page for page, _ in ready.values()]:
        page.close()


def to_dark(page):
    """The page as a dark-mode phone shows it: the colour scheme switched on the loaded page
    (the pages choose their colours by `prefers-color-scheme` only), once no colour is still
    changing."""
    page.emulate_media(color_scheme="dark")
    page.wait_for_function("() => matchMedia('(prefers-color-scheme: dark)').matches")
    page.wait_for_function("() => document.getAnimations().every(a => a.playState !== 'running')")


@pytest.mark.parametrize("name", PAGES)
def test_axe_finds_no_violation(loaded, name):
    """Light, and dark too for the pages of DARK (on the same load)."""
    page, status = loaded(name)
    try:
        assert status == 200, name
        for scheme in ("light", "dark") if name in DARK else ("light",):
            if scheme == "dark":
                to_dark(page)
            found = axe_violations(page)
            assert found == [], f"{name}, {scheme}: " + json.dumps(found, indent=1, ensure_ascii=False)
    finally:
        loaded.done(page)


# --- the findings of the walk-through, one by one --------------------------------------------

def test_home_has_its_h1_and_no_link_inside_a_summary(page, own_server):
    page.goto(own_server + "/")
    expect(page.locator("h1")).to_have_count(1)
    expect(page.locator("h1")).to_contain_text("Search the tournament rules")
    # the h1 is the search box's label: a tap on it focuses the box
    expect(page.locator("h1 label[for=q]")).to_have_count(1)
    expect(page.locator("summary a, summary button, summary input, summary select")).to_have_count(0)
    # each section with subsections: its link, and a disclosure beside it that opens them
    branch = page.locator(".toc li.toc-branch").filter(has_text="Tournament Mechanics")
    expect(branch.locator("> a")).to_have_attribute("href", "/rules/tournament-rules/3")
    toggle = branch.locator("summary")
    expect(toggle).to_have_attribute("aria-label", re.compile(r"Subsections of 3\. Tournament Mechanics"))
    expect(branch.get_by_role("link", name=re.compile("Round Structure"))).to_be_hidden()
    toggle.click()
    expect(branch.get_by_role("link", name=re.compile("Round Structure"))).to_be_visible()


CONTRAST = """sel => {
  const el = document.querySelector(sel); if (!el) return 0;
  const rgb = s => (s.match(/[\\d.]+/g) || []).slice(0, 3).map(Number);
  const lum = c => { const v = c.map(x => { x /= 255; return x <= 0.03928 ? x / 12.92 : Math.pow((x + 0.055) / 1.055, 2.4); });
                     return 0.2126 * v[0] + 0.7152 * v[1] + 0.0722 * v[2]; };
  const st = getComputedStyle(el);
  const a = lum(rgb(st.color)), b = lum(rgb(st.backgroundColor));
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_dq_chip_reads_at_4_5_to_1(contexts, own_server, event, scheme):
    page = contexts[scheme].new_page()
    try:
        page.goto(f"{own_server}/tournaments/{event['tid']}/penalties")
        expect(page.locator(".pen-level-dq").first).to_be_visible()
        page.wait_for_function(f"() => ({CONTRAST})('.pen-level-dq') >= 4.5")
    finally:
        page.close()


def test_the_recorders_back_link_has_a_shape_not_only_a_colour(page, own_server, event):
    page.goto(f"{own_server}/games/{event['game']}")
    back = page.get_by_role("link", name="All games")
    expect(back).to_be_visible()
    page.wait_for_function("""() => { const s = getComputedStyle(document.querySelector('.rec-title a'));
        return parseFloat(s.borderTopWidth) >= 1 && s.borderTopStyle === 'solid'; }""")
    page.wait_for_function("""() => { const r = document.querySelector('.rec-title a').getBoundingClientRect();
        return r.width >= 40 && r.height >= 40; }""")


MARKER = "sel => getComputedStyle(document.querySelector(sel), '::before').content"


def test_summaries_show_they_open(page, own_server, contexts, event):
    page.goto(own_server + "/tournaments")
    summary = page.locator("details.panel > summary", has_text="New tournament")
    expect(summary).to_be_visible()
    page.wait_for_function(f"() => ({MARKER})('details.panel > summary') === '\"▸\"'")
    summary.click()
    page.wait_for_function(f"() => ({MARKER})('details.panel > summary') === '\"▾\"'")
    expect(page.locator("#t-name")).to_be_visible()


@pytest.mark.parametrize("width", [360, 1280])
def test_play_a_final_is_a_box_and_a_line(browser, own_server, width):
    ctx = browser.new_context(viewport={"width": width, "height": 900})
    page = ctx.new_page()
    try:
        page.goto(own_server + "/tournaments")
        panel = page.locator("details.panel", has_text="New tournament")
        if not panel.evaluate("d => d.open"):
            panel.locator("summary").click()
        box = page.locator("input[name=has_final]")
        expect(box).to_be_visible()
        page.wait_for_function("""() => { const b = document.querySelector('input[name=has_final]').getBoundingClientRect();
            return b.width > 0 && b.width <= 32; }""")
        # the 3.1.6 link is on one line, not broken into "3." "1." "6"
        page.wait_for_function("""() => { const a = [...document.querySelectorAll('label.check a')]
            .find(x => x.textContent.trim() === '3.1.6'); return a && a.getClientRects().length === 1; }""")
    finally:
        ctx.close()


def test_the_offline_badge_says_it_is_saving(browser, own_server):
    """While the service worker saves the offline copy the badge said "Rules 2025 …", which
    looked cut off: it says what it is doing, then ✓ once saved."""
    ctx = browser.new_context(viewport={"width": 375, "height": 800}, service_workers="allow")
    # watched from the document's first node: the deferred offline.js can show "saving" before
    # DOMContentLoaded (the browser runs other tasks while it waits for the next deferred script),
    # so an observer set up at DOMContentLoaded missed it on a busy machine
    ctx.add_init_script("""
      window.__badgeTexts = [];
      new MutationObserver(() => {
        const el = document.querySelector('[data-offline-badge] .net-saved');
        const seen = window.__badgeTexts;
        if (el && seen[seen.length - 1] !== el.textContent) seen.push(el.textContent);
      }).observe(document, {childList: true, characterData: true, subtree: true});""")
    page = ctx.new_page()
    try:
        page.goto(own_server + "/")
        page.wait_for_function(
            "() => document.querySelector('[data-offline-badge]').classList.contains('is-saved')", timeout=60_000)
        texts = page.evaluate("window.__badgeTexts")
        assert "saving offline copy…" in texts, texts
        assert "…" not in texts, texts                  # never a lone ellipsis
        expect(page.locator("[data-offline-badge] .net-saved")).to_have_text("✓")
        expect(page.locator("[data-offline-badge]")).to_have_attribute("aria-label", re.compile("Offline copy: saved"))
    finally:
        ctx.close()


def test_the_organizers_small_buttons_tabs_and_boxes_are_full_size_on_a_phone(contexts, own_server, event):
    """QA: a phone's dashboard had 36 px "Check in" / "Drop" / "Result" buttons and 38 px
    Dashboard / Floor / Penalties tabs (the house's tap targets are at least 40 px)."""
    page = contexts["light"].new_page()
    try:
        page.goto(f"{own_server}/tournaments/{event['tid']}")
        expect(page.locator("main .small-btn").first).to_be_visible()
        page.wait_for_function("""() => { const els = [...document.querySelectorAll('main .small-btn, main .pen-tabs a')]
            .filter(e => e.getClientRects().length);
            return els.length > 3 && els.every(e => e.getBoundingClientRect().height >= 40); }""")
        # a table's "History (n)" was a 26 px high line
        page.goto(f"{own_server}/tournaments/{event['tid']}/rounds/1/tables/1")
        expect(page.locator(".tb-history > summary")).to_be_visible()
        page.wait_for_function("() => document.querySelector('.tb-history > summary').getBoundingClientRect().height >= 40")
        # the add-many page's "check them in as well" box was 13 x 24 px (a squashed box)
        page.goto(f"{own_server}/tournaments/{event['tid']}/players/import")
        expect(page.locator("input[name=checked_in]")).to_be_visible()
        page.wait_for_function("""() => { const b = document.querySelector('input[name=checked_in]').getBoundingClientRect();
            return b.width >= 24 && b.height >= 24; }""")
    finally:
        page.close()


def test_the_rules_links_on_a_line_of_their_own_are_a_fingers_height(contexts, own_server):
    """A phone walk-through (2 Dec 2026): the home page's document titles, "Introduction",
    "Quick reference" and "Cards & rulings", and a section's "older editions and changes",
    were 20 px high links. Links inside a sentence stay as they are."""
    page = contexts["light"].new_page()
    try:
        for path, selector in (("/", ".toc h2 a, .toc-intro a, .home-links a"),
                               ("/rules/tournament-rules/5.3", ".doc-meta a")):
            page.goto(own_server + path)
            expect(page.locator(selector).first).to_be_visible()
            page.wait_for_function("""sel => { const els = [...document.querySelectorAll(sel)]
                .filter(e => e.getClientRects().length);
                return els.length > 0 && els.every(e => e.getBoundingClientRect().height >= 40); }""", arg=selector)
    finally:
        page.close()
