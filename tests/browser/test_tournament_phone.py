"""The organizer's and judges' pages on a 360 px phone (QA walk-through): a 60-character
name without spaces wraps on every page (no sideways scroll), times read "Sat 14:05", the
head judge corrects a closed round's table with a reason, the result form puts each
message next to its field, a judge sees no control the server would refuse, a finding's
second penalty is refused with a link, and the dashboard's share link is never 127.0.0.1.
Screenshots: screenshots/phone-*.png."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from judgekit.auth import store as auth_store
from judgekit.db import open_db
from judgekit.tournament import store as tstore
from judgekit.tournament.penalties import store as pstore
from helpers import wait_until

LONG = "MaximilianAlexanderBartholomewFeatherstonehaughTheThirdOfKent"  # 60 characters, no space or hyphen
NAMES = [LONG, "Ana", "Bruno", "Carla", "Dario", "Elsa", "Filip", "Gina"]
TIME_RE = re.compile(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d\d:\d\d\b")
ISO_RE = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d")


@pytest.fixture(scope="module")
def event(own_app):
    """Round 1 played and closed (the long name sweeps table 1), a penalty from a finding
    for the long name, round 2 open; the sign-in codes."""
    db = open_db(own_app.config["DATABASE"])
    try:
        tid = tstore.create_tournament(db, {"name": "Phone Cup"})
        ids = {n: tstore.add_player(db, tid, {"name": n, "vekn": str(8100000 + k)})["id"] for k, n in enumerate(NAMES)}
        r1 = tstore.start_round(db, tid, seed=3)
        for tb in r1["tables"]:
            vps = [4 if s["player_id"] == ids[LONG] else 0 for s in tb["seats"]]
            if 4 not in vps:
                vps[0] = 4
            tstore.enter_result(db, tid, 1, tb["number"], vps, by="Jo")
        tstore.close_round(db, tid, 1)
        where = next((tb, s) for tb in r1["tables"] for s in tb["seats"] if s["player_id"] == ids[LONG])
        res = pstore.issue(db, tid, {"player": ids[LONG], "infraction": "game-rule-violation", "round": 1,
                                     "table": where[0]["number"], "game": where[0]["game_id"], "event": 3,
                                     "finding": "end-of-turn-missing", "description": "no end of turn"},
                           judge="Jo", role="judge")
        assert isinstance(res, pstore.Stored), res
        tstore.start_round(db, tid, seed=4)
        return {"tid": tid, "ids": ids, "codes": auth_store.issue_codes(db, tid), "long_table": where[0]["number"],
                "long_seat": where[1]["seat"], "game": where[0]["game_id"]}
    finally:
        db.close()


def sign_in(page, base, tid, name, code):
    page.goto(f"{base}/tournaments/{tid}/sign-in")
    page.fill("#si-name", name)
    page.fill("#si-code", code)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash").first).to_contain_text("Signed in to Phone Cup as")


WIDE_JS = """() => Array.from(document.querySelectorAll('main *')).filter(e => e.getBoundingClientRect().right > 361)
    .slice(0, 3).map(e => e.tagName + '.' + e.className + ': ' + (e.innerText || '').slice(0, 40))"""
INNER_JS = """() => Array.from(document.querySelectorAll('.table-scroll, table'))
    .filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className || e.tagName)"""


def fits(page, what):
    """No sideways scroll at 360 px, and no table that scrolls inside its box, once the page
    (its stylesheets too) is laid out."""
    page.wait_for_load_state("load")
    wait_until(page, "() => document.documentElement.scrollWidth <= 360",
               explain=lambda: f"{what}: the page is {page.evaluate('document.documentElement.scrollWidth')} px "
                               f"wide ({page.evaluate(WIDE_JS)})")
    wait_until(page, f"() => ({INNER_JS})().length === 0",
               explain=lambda: f"{what}: scrolls sideways inside {page.evaluate(INNER_JS)}")


def readable_times(page, what):
    # the times the server wrote ("Sat 14:05"), before any script rewrites one
    expect(page.locator("main")).to_contain_text(TIME_RE)
    text = page.locator("main").inner_text()
    assert not ISO_RE.search(text), f"{what}: an ISO time is shown: {ISO_RE.search(text).group(0)}"
    return TIME_RE.findall(text)


def test_organizer_and_judges_pages_on_a_phone(page, own_server, event, shot):
    base, tid = own_server, event["tid"]
    sign_in(page, base, tid, "Hal", event["codes"]["head_judge"])

    page.goto(f"{base}/tournaments/{tid}")
    fits(page, "dashboard")
    link = page.locator(".share-url")
    if link.count():            # the dashboard is the server's page: the link is there or not
        expect(link).not_to_contain_text("127.0.0.1")
    else:
        expect(page.locator("#share-none")).to_contain_text("No venue-network address is known")
    expect(page.locator("form[action$='/players']")).to_have_count(0)  # the head judge does not register
    shot(page, "phone-dashboard-head-judge")

    page.goto(f"{base}/tournaments/{tid}/rounds/1")
    fits(page, "closed round")
    expect(page.get_by_text(LONG).first).to_be_visible()
    shot(page, "phone-round-closed")

    # the head judge corrects the closed round's table: the reason is required, then it counts
    page.goto(f"{base}/tournaments/{tid}/rounds/1/tables/{event['long_table']}")
    expect(page.locator("#closed-note")).to_contain_text("As head judge you can correct")
    seat = event["long_seat"]
    other = 2 if seat == 1 else 1
    page.fill(f"#vp{seat}", "0")
    page.fill(f"#vp{other}", "4")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator("#err-reason")).to_contain_text("reason is required")
    expect(page.locator(f"#vp{other}")).to_have_value("4")  # what was typed is kept
    fits(page, "correction refused")
    shot(page, "phone-table-correction-refused")
    page.fill("#reason", "seat order was misread")
    page.get_by_role("button", name="Save the correction").click()
    expect(page.locator(".flash").first).to_contain_text("correction recorded")
    expect(page.locator(".overridden-note")).to_contain_text("seat order was misread")
    assert readable_times(page, "table history"), "the history shows its times"
    fits(page, "corrected table")
    shot(page, "phone-table-corrected")

    # an open round's table: each wrong value is explained next to its seat
    page.goto(f"{base}/tournaments/{tid}/rounds/2/tables/1")
    for k, v in enumerate(["abc", "1", "9", ""], 1):
        page.fill(f"#vp{k}", v)
    page.get_by_role("button", name="Save result").click()
    expect(page.locator("#err-vp1")).to_contain_text("'abc' is not a number")
    expect(page.locator("#err-vp3")).to_contain_text("more than a")
    expect(page.locator("#err-vp4")).to_contain_text("no VP given")
    expect(page.locator("#vp1")).to_have_value("abc")
    fits(page, "result form with errors")
    shot(page, "phone-table-errors")

    for path, name in ((f"/tournaments/{tid}/standings", "phone-standings"),
                       (f"/tournaments/{tid}/public", "phone-public-standings")):
        page.goto(base + path)
        fits(page, name)
        shot(page, name)

    page.goto(f"{base}/tournaments/{tid}/penalties/players/{event['ids'][LONG]}")
    fits(page, "a player's penalties")
    assert readable_times(page, "a player's penalties")
    shot(page, "phone-penalty-player")
    page.goto(f"{base}/tournaments/{tid}/penalties")
    fits(page, "penalties list")
    assert readable_times(page, "penalties list")
    shot(page, "phone-penalty-list")

    # the same finding again: the form warns, links the record, and has no Issue button
    page.goto(f"{base}/tournaments/{tid}/penalties/new?player={event['ids'][LONG]}&game={event['game']}"
              f"&event=3&finding=end-of-turn-missing&round=1&table={event['long_table']}&infraction=game-rule-violation")
    expect(page.locator("#pf-already")).to_contain_text("already recorded for this finding")
    expect(page.locator("#pf-submit")).to_have_count(0)
    fits(page, "penalty form")
    shot(page, "phone-penalty-form-already")

    # a table judge: no close or swap on the open round, a read-only closed table
    sign_in(page, base, tid, "Jo", event["codes"]["judge"])
    page.goto(f"{base}/tournaments/{tid}/rounds/2")
    expect(page.get_by_role("button", name=re.compile("Close round"))).to_have_count(0)
    expect(page.get_by_text("Swap two seats")).to_have_count(0)
    expect(page.get_by_text("the head judge closes the round")).to_be_visible()
    fits(page, "open round, judge")
    shot(page, "phone-round-judge")
    page.goto(f"{base}/tournaments/{tid}/rounds/1/tables/{event['long_table']}")
    expect(page.locator("#closed-note")).to_contain_text("Only the head judge can correct")
    expect(page.locator(f"#vp{seat}")).to_be_disabled()
    shot(page, "phone-table-closed-judge")
