"""Two judges on phones enter a result for the same table: the second is shown what the
first stored, keeps their own numbers, and replaces it only by saying so; a judge sees the
head judge's override as standing."""
from __future__ import annotations

from playwright.sync_api import expect

from judgekit.auth import store as auth_store
from judgekit.db import open_db
from judgekit.tournament import store as tstore


def seed(app):
    db = open_db(app.config["DATABASE"])
    try:
        tid = tstore.create_tournament(db, {"name": "Conflict Open"})
        for k, name in enumerate(["Ana", "Bruno", "Carla", "Dario"]):
            tstore.add_player(db, tid, {"name": name, "vekn": str(9100000 + k)})
        tstore.start_round(db, tid, seed=4)
        return tid, auth_store.issue_codes(db, tid)
    finally:
        db.close()


def phone(browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2)
    page = context.new_page()
    page.set_default_timeout(10_000)
    return context, page


def sign_in(page, base, tid, name, code):
    page.goto(f"{base}/tournaments/{tid}/sign-in")
    page.fill("#si-name", name)
    page.fill("#si-code", code)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash").first).to_contain_text("Signed in to Conflict Open")


def fill(page, vps):
    for k, v in enumerate(vps, 1):
        page.fill(f"#vp{k}", v)


def test_the_second_judge_sees_the_stored_result_and_replaces_it_knowingly(browser, own_server, own_app, shot):
    tid, codes = seed(own_app)
    url = f"{own_server}/tournaments/{tid}/rounds/1/tables/1"
    (ca, ann), (cs, sam) = phone(browser), phone(browser)
    try:
        sign_in(ann, own_server, tid, "Ann", codes["judge"])
        sign_in(sam, own_server, tid, "Sam", codes["judge"])
        ann.goto(url)
        sam.goto(url)  # both forms open on the empty table
        fill(ann, ["4", "0", "0", "0"])
        ann.get_by_role("button", name="Save result").click()
        expect(ann.locator(".flash")).to_contain_text("result stored")
        fill(sam, ["0", "4", "0", "0"])
        sam.get_by_role("button", name="Save result").click()
        box = sam.locator("#result-conflict")
        expect(box).to_contain_text("Stored now (entered by Ann")
        expect(sam.locator("#vp2")).to_have_value("4")  # Sam's numbers kept, not saved
        shot(sam, "table-result-conflict-phone")
        sam.get_by_role("button", name="Replace it with these numbers").click()
        expect(sam.locator(".flash")).to_contain_text("result stored")
        expect(sam.locator("#vp2")).to_have_value("4")
        # Ann's page is now stale in turn: her next save is refused the same way
        fill(ann, ["3", "1", "0", "0"])
        ann.get_by_role("button", name="Save result").click()
        expect(ann.locator("#result-conflict")).to_contain_text("by Sam")
    finally:
        ca.close()
        cs.close()


def test_a_judge_sees_the_override_standing(browser, own_server, own_app, shot):
    tid, codes = seed(own_app)
    url = f"{own_server}/tournaments/{tid}/rounds/1/tables/1"
    db = open_db(own_app.config["DATABASE"])
    try:
        tstore.override_result(db, tid, 1, 1, [2, 0, 0, 2], "split agreed after a misplay", by="Hal")
    finally:
        db.close()
    c, page = phone(browser)
    try:
        sign_in(page, own_server, tid, "Jo", codes["judge"])
        page.goto(url)
        expect(page.locator(".overridden-note")).to_contain_text("The override stands until the head judge replaces it")
        expect(page.locator("#vp1")).to_be_disabled()
        expect(page.get_by_role("button", name="Save result")).to_have_count(0)
        shot(page, "table-override-stands-phone")
    finally:
        c.close()
