"""One-handed entry at table speed (issue 11 §1): the reference five-seat turn
(tests/reference_turn.py) recorded on a 390 x 844 phone page, counting the taps and the
typed characters of each declaration.

Targets (a count, not a timing): median ≤ 2 taps, no declaration over 4 taps, and no typing
for a minion already in play or a card already played at this table. The figures are
printed (run with -s to see them):

    python -m pytest tests/browser/test_recorder_quick_entry.py -s -k reference

A tap is a click the browser reports as the user's (trusted) or an Enter key; a typed
character is any other key that makes a character.
"""
from __future__ import annotations

import re
import statistics

import pytest
from playwright.sync_api import expect

from judgekit.db import open_db
from judgekit.recorder import store
from reference_turn import BEFORE, SEATS, TURN

COUNT = """
window.__taps = 0; window.__typed = 0;
document.addEventListener("click", function (e) { if (e.isTrusted) window.__taps++; }, true);
document.addEventListener("keydown", function (e) {
  if (!e.isTrusted) return;
  if (e.key === "Enter") window.__taps++; else if (e.key.length === 1) window.__typed++;
}, true);
"""


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script(COUNT)
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def new_game(app, events=(), seats=SEATS, **kw):
    db = open_db(app.config["DATABASE"])
    try:
        gid = store.create_game(db, seats, label="Reference turn", **kw)
        if events:
            assert not isinstance(store.append_events(db, gid, list(events)), store.StoreError)
        return gid
    finally:
        db.close()


def stored(app, gid):
    db = open_db(app.config["DATABASE"])
    try:
        return store.load_events(db, gid)
    finally:
        db.close()


# --- the judge's gestures for each declaration of the reference turn -------------------------
# Each is what a judge does on the page: tap a button or chip by its visible words, type a
# few letters. `deck` is the next steps; `form` the open form.

def tap(where, name, exact=True):
    def run(page):
        scope = page.locator(where) if where else page
        target = scope.get_by_role("button", name=name, exact=exact).first
        expect(target).to_be_visible()
        target.click()
    return run


def seat(n):
    return lambda page: page.locator(f".rec-seat[data-seat='{n}']").click()


def type_(text, field=None):
    def run(page):
        if field:
            expect(page.locator(f"#rec-ask [name={field}]")).to_be_focused()
        page.keyboard.type(text)
    return run


def pick(name):
    """Tap a suggestion shown under the field being typed."""
    return lambda page: page.locator("#rec-ask [role=option]", has_text=name).first.click()


DECK, FORM = "#rec-next", "#rec-ask"
VOTE = "#rec-next .rec-vote[data-seat='{}']"
GESTURES = {
    "turn start": [tap(DECK, "Start turn: Ana (seat 1)")],
    "master card": [tap(DECK, "Villein"), tap(FORM, "Catalina Vega"), tap(FORM, "2 ✓")],
    "replace": [tap(DECK, "Ana: replace Villein")],
    "bleed": [tap(DECK, "Catalina Vega bleed 2"), tap(FORM, "Bleed 2 → Bruno ✓")],
    "any blocks (bleed)": [tap(DECK, "Ana (seat 1): pass (“any blocks?”)")],
    "prey passes (bleed)": [tap(DECK, "Bruno (seat 2): no block")],
    "predator passes (bleed)": [seat(5), tap(DECK, "Eve (seat 5): no block")],
    "bleed succeeds": [tap(DECK, "Action succeeds")],
    "hunt": [tap(DECK, "Sigrid Bekker"), tap(FORM, "Hunt ✓")],
    "any blocks (hunt)": [tap(DECK, "Ana (seat 1): pass (“any blocks?”)")],
    "block attempt": [tap(DECK, "Bruno blocks with…"), type_("Vict", "minion"), pick("Victoria Ash")],
    "block succeeds": [tap(DECK, "Blocked → combat")],
    "strike 1 (acting)": [tap(DECK, "Hand strike · 1 ✓")],
    "strike 1 (blocker)": [tap(DECK, "Hand strike · 1 ✓")],
    "press": [tap(DECK, "Ana (seat 1): press to continue")],
    "strike 2 (acting)": [tap(DECK, "Hand strike · 1 ✓")],
    "strike 2 (blocker)": [tap(DECK, "Dodge ✓")],
    "combat ends": [tap(DECK, "End of combat")],
    "political action": [tap(DECK, "Anson"), tap(FORM, "Political…"), type_("Kine", "card"),
                         pick("Kine Resources Contested"), tap(FORM, "Record")],
    "replace (political)": [tap(DECK, "Ana: replace Kine Resources Contested")],
    "any blocks (political)": [tap(DECK, "Ana (seat 1): pass (“any blocks?”)")],
    "prey passes (political)": [tap(DECK, "Bruno (seat 2): no block")],
    "predator passes (political)": [tap(DECK, "Eve (seat 5): no block")],
    "terms": [tap(DECK, "Terms confirmed"), type_("Bruno 2, Cid 2", "terms"), tap(FORM, "Record")],
    "vote (two titled vampires)": [tap(VOTE.format(1), "For 4 ✓")],
    "vote": None,   # by seat, below
    "referendum": [tap(DECK, "Referendum passes (6 for, 2 against)")],
    "influence": [tap(DECK, "4 ✓")],
    "discard": [tap(DECK, "Ana discards a card")],
    "end of turn": [tap(DECK, "Ana: end of turn")],
}
VOTES = {3: [tap(VOTE.format(3), "Against 2 ✓")], 4: [tap(VOTE.format(4), "For 2 ✓")]}


def gestures(d):
    if d.key == "vote":
        return VOTES[d.events[0]["seat"]]
    return GESTURES[d.key]


def same(expected, got):
    """`got` (a stored event) says what `expected` says (it may say more: the minion who
    strikes, the judge, the device's time...)."""
    return all(got.get(k) == v for k, v in expected.items())


def test_the_reference_turn_meets_the_tap_targets(phone, live_server, live_app, shot):
    page = phone
    gid = new_game(live_app, BEFORE)
    page.goto(f"{live_server}/games/{gid}")
    lines = page.locator("#rec-log li[data-seq]")
    expect(lines).to_have_count(len(BEFORE))
    count = len(BEFORE)
    figures = []
    for d in TURN:
        page.evaluate("window.__taps = 0; window.__typed = 0")
        for gesture in gestures(d):
            gesture(page)
        count += len(d.events)
        try:
            expect(lines).to_have_count(count)
        except AssertionError:
            raise AssertionError(f"{d.key}: not recorded ({page.locator('#rec-msg').inner_text()})")
        taps, typed = page.evaluate("[window.__taps, window.__typed]")
        figures.append((d, taps, typed))
        got = stored(live_app, gid)[-len(d.events):]
        for want, have in zip(d.events, got):
            assert same(want, have), (d.key, want, have)
        if d.key in ("bleed", "political action", "terms"):
            shot(page, f"recorder-reference-{d.key.replace(' ', '-')}", full_page=False)

    taps = [t for _, t, _ in figures]
    print("\nReference turn on a 390 x 844 page: taps and typed characters per declaration")
    for i, (d, t, typed) in enumerate(figures, 1):
        print(f"{i:2d}. {d.key:<28} {t} tap{'s' if t != 1 else ' '} {typed:3d} typed   {d.said}")
    print(f"declarations {len(taps)}, taps {sum(taps)}, median {statistics.median(taps)}, "
          f"max {max(taps)}, typed {sum(x for _, _, x in figures)} "
          f"(names new at the table: {', '.join(n for d in TURN for n in d.new)})")
    assert statistics.median(taps) <= 2
    assert max(taps) <= 4, [(d.key, t) for d, t, _ in figures if t > 4]
    for d, t, typed in figures:
        # nothing typed for a name already on the table; a new name takes a few letters
        assert typed <= len(d.words) + 4 * len(d.new), (d.key, typed)
        if not d.new and not d.words:
            assert typed == 0, (d.key, typed)
    assert [e["type"] for e in stored(live_app, gid)[len(BEFORE):]] == [e["type"] for d in TURN for e in d.events]
    expect(page.locator(".rec-f")).to_have_count(0)   # a clean turn: no finding
