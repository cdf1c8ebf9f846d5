"""Standings Adjustments on the pages (issue 18), on a 360 px phone and a laptop: the table
keeps its VP as played and shows the VP that count, the SA's penalty record says which
game it applies to (linked) and the head judge can move it, a paper slip that only a
withdrawal explains is fixed in one tap, the standings say when a toss was discarded and
which SAs count nowhere yet, the final can be undone until seated and shows its SA.
Screenshots: screenshots/sa-*.png."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from judgekit.auth import store as auth_store
from judgekit.db import open_db
from judgekit.tournament import store as tstore
from judgekit.tournament.penalties import store as pstore

LONG = "MaximilianAlexanderBartholomewFeatherstonehaughTheThirdOfKent"
NAMES = [LONG, "Ana", "Bruno", "Carla", "Dario", "Elsa", "Filip", "Gina", "Hugo", "Ines"]


def hj(db, tid, data):
    res = pstore.issue(db, tid, data, judge="Hal", role="head_judge")
    assert isinstance(res, pstore.Stored), res
    return res


@pytest.fixture(scope="module")
def event(own_app):
    """Two rounds announced. Round 1: the long name wins table 1 3–2 and gets an SA during the
    game (a 2–2 tie now); round 2 open, table 2 waiting for its result."""
    db = open_db(own_app.config["DATABASE"])
    try:
        tid = tstore.create_tournament(db, {"name": "SA Cup", "rounds_planned": 2})
        ids = [tstore.add_player(db, tid, {"name": n, "vekn": str(8200000 + k)})["id"] for k, n in enumerate(NAMES)]
        tstore.start_round(db, tid, tables=[ids[:5], ids[5:]])
        sa = hj(db, tid, {"player": ids[0], "infraction": "Outside Assistance", "round": 1, "table": 1,
                          "description": "a friend pointed at the card to play"})
        tstore.enter_result(db, tid, 1, 1, [3, 0, 0, 0, 2], by="Jo")
        tstore.enter_result(db, tid, 1, 2, [0.5] * 5, by="Jo")
        tstore.close_round(db, tid, 1)
        tstore.start_round(db, tid, tables=[[ids[0], ids[6], ids[2], ids[8], ids[4]],
                                            [ids[5], ids[1], ids[7], ids[3], ids[9]]])
        tstore.enter_result(db, tid, 2, 1, [0.5] * 5, by="Jo")
        return {"tid": tid, "ids": ids, "sa": sa.record["id"], "codes": auth_store.issue_codes(db, tid)}
    finally:
        db.close()


def sign_in(page, base, tid, name, code):
    page.goto(f"{base}/tournaments/{tid}/sign-in")
    page.fill("#si-name", name)
    page.fill("#si-code", code)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash").first).to_contain_text("Signed in to SA Cup as")


def fits(page, what, width):
    page.wait_for_load_state("load")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{what}: the page is {scroll} px wide at {width}"


def test_adjusted_scores_on_a_phone(page, own_server, event, shot):
    base, tid, ids = own_server, event["tid"], event["ids"]
    sign_in(page, base, tid, "Hal", event["codes"]["head_judge"])

    # the table: VP as played in the form, the VP that count beside, the SA listed and linked
    page.goto(f"{base}/tournaments/{tid}/rounds/1/tables/1")
    expect(page.locator("#vp1")).to_have_value("3")
    expect(page.locator(".vp-table td.adjusted")).to_contain_text("2")
    expect(page.locator("#sa-list")).to_contain_text("(seat 1): -1 VP")
    expect(page.locator("#sa-list")).to_contain_text("the game it was given in")
    rows = page.locator(".score-table tbody tr")
    expect(rows.nth(0)).to_contain_text("54")
    expect(rows.nth(4)).to_contain_text("54")
    fits(page, "table with an SA", 360)
    shot(page, "sa-phone-table")

    # the SA's record: which game (linked), and the head judge's move form
    page.locator("#sa-list a").first.click()
    expect(page.locator(f"[data-applies='{event['sa']}']")).to_contain_text("round 1, table 1")
    page.locator(f"#record-{event['sa']} summary", has_text="Move to another game").click()
    expect(page.locator(f"#mv-g-{event['sa']}")).to_be_visible()
    fits(page, "penalty record", 360)
    shot(page, "sa-phone-record")

    # a paper slip that only a withdrawal explains: one tap ticks it
    page.goto(f"{base}/tournaments/{tid}/rounds/2/tables/2")
    for k, v in enumerate(["1", "3.5", "0", "0", "0"], 1):
        page.fill(f"#vp{k}", v)
    page.get_by_role("button", name="Save result").click()
    expect(page.locator("#withdrawal-offer")).to_contain_text("Seat 2 (Ana)")
    fits(page, "withdrawal offer", 360)
    shot(page, "sa-phone-withdrawal-offer")
    page.get_by_role("button", name="Seat 2 withdrew: tick W and save").click()
    expect(page.locator(".flash").first).to_contain_text("result stored")
    expect(page.locator("input[name=wd2]")).to_be_checked()
    expect(page.locator("#withdrawal-offer")).to_have_count(0)

    # after the last round: L and Dario tie (2.5 VP, 90 TP), as do Filip and Hugo for 5th:
    # tossed; then an SA to Dario's previous game (round 2) breaks the first tie, visibly
    page.goto(f"{base}/tournaments/{tid}/rounds/2")
    page.get_by_role("button", name="Close round 2").click()
    page.goto(f"{base}/tournaments/{tid}/standings")
    expect(page.locator("#toss-needed")).to_contain_text("Dario")
    for _ in range(2):
        page.get_by_role("button", name="Draw the toss").click()
        expect(page.locator(".flash").first).to_contain_text("Toss drawn")
    expect(page.get_by_role("button", name="Draw the toss")).to_have_count(0)
    page.goto(f"{base}/tournaments/{tid}/penalties/new?player={ids[4]}&infraction=outside-assistance")
    page.fill("#pf-description", "coached from the side")
    page.locator("#pf-submit").click()
    expect(page.locator(".flash", has_text="It applies to round 2, table 1")).to_be_visible()
    page.goto(f"{base}/tournaments/{tid}/standings")
    expect(page.locator("#toss-discarded")).to_contain_text("Toss discarded")
    expect(page.locator("#toss-discarded")).to_contain_text("no longer tied")
    fits(page, "standings with a discarded toss", 360)
    shot(page, "sa-phone-standings")


def test_adjusted_scores_on_a_laptop(desktop_page, own_server, event, shot):
    page, base, tid = desktop_page, own_server, event["tid"]
    sign_in(page, base, tid, "Hal", event["codes"]["head_judge"])
    for path, name in ((f"/tournaments/{tid}/rounds/1/tables/1", "sa-laptop-table"),
                       (f"/tournaments/{tid}/rounds/1", "sa-laptop-round"),
                       (f"/tournaments/{tid}/penalties", "sa-laptop-penalties"),
                       (f"/tournaments/{tid}/standings", "sa-laptop-standings")):
        page.goto(base + path)
        expect(page.locator("main h1")).to_be_visible()
        fits(page, name, 1280)
        shot(page, name)
    expect(page.locator("table.standings")).to_contain_text("SA -1 VP")
