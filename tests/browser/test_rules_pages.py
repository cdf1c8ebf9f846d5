"""The rules pages in a real browser: live search, landing on the anchor, copy links, 404."""
from __future__ import annotations

import re

import pytest

from playwright.sync_api import expect

from helpers import eventually, wait_no_sideways_scroll, wait_until


def test_typing_a_query_shows_results_and_opens_the_anchored_section(page, live_server, shot):
    page.goto(live_server + "/")
    box = page.locator("#q")
    expect(box).to_be_focused()  # the search box has focus on arrival
    box.type("vp withdraw", delay=30)
    first = page.locator("#live-results li a").first
    expect(first).to_contain_text("3.7.2")
    expect(page.locator("#live-results mark").first).to_be_visible()
    expect(page).to_have_url(re.compile(r"\?q=vp(\+|%20)withdraw$"))  # the page is shareable
    shot(page, "home-search-phone", full_page=False)
    first.click()
    expect(page).to_have_url(re.compile(r"/rules/tournament-rules/3\.7\.2(#3\.7\.2-p\d+)?$"))
    expect(page.locator("h1")).to_contain_text("Victory Point Scoring")
    anchor = page.url.split("#", 1)[1] if "#" in page.url else "3.7.2"
    expect(page.locator(f"[id='{anchor}']")).to_be_in_viewport()
    shot(page, "section-3.7.2-phone", full_page=False)


def test_slash_focuses_search_and_section_numbers_go_straight_there(desktop_page, live_server):
    page = desktop_page
    page.goto(live_server + "/rules/tournament-rules/1.1")
    page.keyboard.press("/")
    expect(page.locator("#top-q")).to_be_focused()
    page.keyboard.type("4.9")
    page.keyboard.press("Enter")
    first = page.locator(".search-results li a").first
    expect(first).to_contain_text("4.9")
    expect(first).to_contain_text("Infinite Loops")


def test_copy_link_button_copies_the_block_url(desktop_page, live_server):
    page = desktop_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page.goto(live_server + "/rules/announcements/shortcuts")
    example = page.locator("#shortcuts-ex3")
    expect(example).to_contain_text("Example 3")
    example.hover()
    example.locator(".copy-link").click()
    want = live_server + "/rules/announcements/shortcuts#shortcuts-ex3"

    def copied():
        got = page.evaluate("navigator.clipboard.readText()")
        assert got == want, got
    eventually(copied, page=page)       # the clipboard is written after the click returns


def test_unknown_section_offers_the_nearest(page, live_server, shot):
    response = page.goto(live_server + "/rules/tournament-rules/3.7.9")
    assert response.status == 404
    expect(page.locator("h1")).to_contain_text("No such section")
    expect(page.locator(".suggestions")).to_contain_text("3.7")
    shot(page, "404-phone", full_page=False)


def test_glossary_term_shows_its_definition_on_tap(page, live_server):
    page.goto(live_server + "/rules/tournament-rules/4.5")
    term = page.locator("a.term", has_text=re.compile("proxy card", re.I)).first
    term.tap()
    expect(page.locator(".term-pop")).to_contain_text("represent another card")


# --- QA: focus, tap targets, long queries, dark-mode contrast, copy feedback, key hints ---

# Contrast of an element's text on the background it is drawn on (the first ancestor with
# an opaque background), and of a colour against that background; WCAG formula.
CONTRAST_JS = """
(args) => {
  const [sel, what] = args;
  const el = document.querySelector(sel);
  if (!el) return null;
  const rgb = s => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = c => { const [r, g, b] = c.slice(0, 3).map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  let bgEl = el, bg = null;
  while (bgEl) { const c = rgb(getComputedStyle(bgEl).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0.9)) { bg = c; break; } bgEl = bgEl.parentElement; }
  bg = bg || [255, 255, 255];
  const cs = getComputedStyle(el);
  const fg = rgb(what === "outline" ? cs.outlineColor : cs.color);
  const a = lum(fg), b = lum(bg);
  return { ratio: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), fg: fg, bg: bg };
}
"""


def _tab_to(page, selector, limit=40):
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def _focus_ring(page):
    """The focused element's outline, its contrast on the header, and whether all of the
    ring is inside every ancestor that clips (overflow other than visible)."""
    return page.evaluate(_FOCUS_RING_JS)


_FOCUS_RING_JS = ("""() => {
      const el = document.activeElement, cs = getComputedStyle(el), r = el.getBoundingClientRect();
      const w = parseFloat(cs.outlineWidth) || 0, off = parseFloat(cs.outlineOffset) || 0;
      const grow = Math.max(0, w + off);
      const ring = {top: r.top - grow, bottom: r.bottom + grow, left: r.left - grow, right: r.right + grow};
      let clipped = [];
      for (let p = el.parentElement; p; p = p.parentElement) {
        const pc = getComputedStyle(p);
        if (pc.overflowX === "visible" && pc.overflowY === "visible") continue;
        const q = p.getBoundingClientRect();
        if (ring.top < q.top - 0.5 || ring.bottom > q.bottom + 0.5) clipped.push(p.className || p.tagName);
      }
      return {style: cs.outlineStyle, width: w, clipped: clipped};
    }""")


RING_SEEN_JS = """(bg) => { const c = (getComputedStyle(document.activeElement).outlineColor
    .match(/[\\d.]+/g) || []).map(Number);
  const lum = x => { const [r, g, b] = x.slice(0, 3).map(v => { v /= 255;
    return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const a = lum(c), b = lum(bg); return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); }"""


def test_header_focus_ring_is_visible_and_not_clipped(page, live_server):
    """QA: a dark blue ring (1.2:1 on the dark red header), top and bottom cut off by the
    scrolling nav row."""
    page.goto(live_server + "/rules/tournament-rules/3.7.2")
    header = page.evaluate(CONTRAST_JS, [".top", "color"])["bg"]
    for selector in (".brand", ".top-nav a[href='/']", ".top-nav a[href='/trainer']", "#top-q"):
        _tab_to(page, selector)
        # the ring as drawn once the focus styles apply (a read right after Tab may come first)
        wait_until(page, f"""() => {{ const r = ({_FOCUS_RING_JS})();
                                      return r.style !== 'none' && r.width >= 2 && r.clipped.length === 0; }}""",
                   explain=lambda: (selector, _focus_ring(page)))
        wait_until(page, f"bg => ({RING_SEEN_JS})(bg) >= 3", header,
                   explain=lambda: (selector, page.evaluate(RING_SEEN_JS, header)))


SIZES_JS = """(s) => [...document.querySelectorAll(s)]
      .filter(e => e.offsetParent !== null)
      .map(e => { const r = e.getBoundingClientRect(); return [Math.round(r.width * 10) / 10, Math.round(r.height * 10) / 10,
                                                               (e.textContent || '').trim().slice(0, 30)]; })"""


def _sizes(page, selector):
    return page.evaluate(SIZES_JS, selector)


def wait_sizes(page, selector, *, at_least: int, width: float = 0, height: float = 0):
    """At least `at_least` visible elements match, each `width` x `height` or more, once
    laid out (fails with the sizes seen)."""
    wait_until(page, f"""([s, n, w, h]) => {{ const xs = ({SIZES_JS})(s);
                         return xs.length >= n && xs.every(([a, b]) => a >= w && b >= h); }}""",
               [selector, at_least, width, height], explain=lambda: _sizes(page, selector))


def test_tap_targets_on_a_360_px_phone(page, live_server, shot):
    """QA: '#' buttons 32 x 32, breadcrumb links 18 px tall, top nav links 36 px, the rule
    chips on /reference 18 px."""
    page.goto(live_server + "/rules/tournament-rules/3.7.2")
    wait_sizes(page, ".copy-link", at_least=1, width=40, height=40)
    wait_sizes(page, ".crumbs a", at_least=3, height=40)
    wait_sizes(page, ".top-nav a", at_least=5, height=40)
    wait_no_sideways_scroll(page)
    page.goto(live_server + "/reference")
    wait_sizes(page, ".ref-cite", at_least=10, height=32)
    wait_no_sideways_scroll(page)
    shot(page, "reference-phone", full_page=False)


def test_a_long_query_without_spaces_wraps(page, live_server):
    """QA: a 300-character query made the home page 2592 px wide and /search 3051 px."""
    long = "x" * 300
    page.goto(live_server + "/search?q=" + long)
    expect(page.locator("main")).to_contain_text("Nothing in the rules or the cards answers")
    wait_no_sideways_scroll(page)
    page.goto(live_server + "/")
    page.fill("#q", long)
    expect(page.locator("#live-results")).to_contain_text("Nothing in the rules or the cards answers")
    wait_no_sideways_scroll(page)


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_highlights_keep_4_5_to_1(browser, live_server, scheme):
    """QA (dark mode): highlighted search words 3.0:1; 'Example 3' and '#' on a linked
    example 3.6:1 and 3.0:1."""
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme=scheme)
    page = context.new_page()
    try:
        page.goto(live_server + "/search?q=vp+withdraw")
        expect(page.locator(".search-results mark").first).to_be_visible()
        for sel in (".search-results .snippet mark", ".search-results .title mark"):
            if page.locator(sel).count():      # the results are the server's page: no more come
                wait_until(page, f"a => ({CONTRAST_JS})(a).ratio >= 4.5", [sel, "color"],
                           explain=lambda: (scheme, sel, page.evaluate(CONTRAST_JS, [sel, "color"])))
        page.goto(live_server + "/rules/announcements/shortcuts#shortcuts-ex3")
        expect(page.locator("#shortcuts-ex3")).to_be_visible()
        for sel in ("#shortcuts-ex3 .example-label", "#shortcuts-ex3 > .copy-link"):
            # the :target background fades in: wait for the colours it ends with
            wait_until(page, f"a => ({CONTRAST_JS})(a).ratio >= 4.5", [sel, "color"],
                       explain=lambda: (scheme, sel, page.evaluate(CONTRAST_JS, [sel, "color"])))
    finally:
        context.close()


def test_copied_button_says_copied_then_hash_again(desktop_page, live_server):
    """QA: after copying, the button read '#copied', like a hashtag."""
    page = desktop_page
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server)
    page.clock.install()            # the label comes back 2 s after: the test moves the clock on
    page.goto(live_server + "/rules/tournament-rules/3.7.2")
    button = page.locator(".section-head .copy-link").first
    label = button.get_attribute("aria-label")
    button.click()
    expect(button).to_have_text("Copied ✓")
    expect(button).to_have_attribute("aria-label", "Link copied")
    expect(page.locator("[role=status]")).to_have_text("Link copied")
    page.clock.run_for(2000)
    expect(button).to_have_text("#", timeout=4000)
    expect(button).to_have_attribute("aria-label", label)


def test_slash_hint_only_where_a_keyboard_is_likely(page, desktop_page, live_server):
    """QA: "Press / anywhere to come back here" was shown on phones."""
    page.goto(live_server + "/")
    expect(page.locator(".kbd-hint")).to_be_hidden()
    expect(page.locator("#top-q")).not_to_have_attribute("placeholder", re.compile("/"))
    desktop_page.goto(live_server + "/")
    expect(desktop_page.locator(".kbd-hint")).to_be_visible()
    desktop_page.goto(live_server + "/reference")
    expect(desktop_page.locator("#top-q")).to_have_attribute("placeholder", re.compile(r"\( / \)"))
