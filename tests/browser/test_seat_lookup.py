"""Players see their seat (issue 12 §2) on a 390 x 844 phone: typing part of a name shows
the table, the seat and the others in seat order as you type (and the same without
JavaScript, a plain GET form); the list by name prints on A4 in big type; the organizer's
QR code poster. Screenshots: screenshots/seats-*.png."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from judgekit.auth import store as auth_store
from judgekit.db import open_db
from judgekit.tournament import store as tstore
from conftest import SCREENSHOTS as SHOTS, SCREENSHOTS_ON
from helpers import wait_no_sideways_scroll

FIRST = ["Wilma", "Bruno", "Carla", "Dario", "Élodie", "Filip", "Gina", "Hugo", "Inès", "Jean-Pierre", "Karin",
         "Luca", "Mona", "Nils", "Oona", "Pavel", "Quentin", "Rosa", "Sven", "Tereza"]
LAST = ["Dubois", "Lopez", "Nowak", "Rossi", "Schmidt", "de la Tour", "Ångström", "Kowalczyk", "Novák",
        "Van der Berg", "O'Brien", "Müller"]
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def event(own_app):
    """120 players (24 tables), round 1 seated; the sign-in codes."""
    db = open_db(own_app.config["DATABASE"])
    try:
        tid = tstore.create_tournament(db, {"name": "Grand Prix de Lyon — Seat Test", "rounds_planned": 3})
        # 120 different names (namesakes get a distinction of their own: test_organizer_edges)
        names = [f"{FIRST[k % 20]} {LAST[(k % 20 + k // 20) % 12]}" for k in range(120)]
        names[0], names[1] = "Anaïs Dubois", "Ana Lopez"
        names[2] = "MaximilianAlexanderBartholomewFeatherstonehaughTheThirdOfKent"   # 60 letters: it wraps
        ids = {tstore.add_player(db, tid, {"name": n, "vekn": str(4100000 + k)})["id"]: n for k, n in enumerate(names)}
        rnd = tstore.start_round(db, tid, seed=12)
        tables = {tb["number"]: [ids[s["player_id"]] for s in tb["seats"]] for tb in rnd["tables"]}
        codes = auth_store.issue_codes(db, tid)
        return {"tid": tid, "tables": tables, "codes": codes}
    finally:
        db.close()


def where(event, name):
    for number, seats in event["tables"].items():
        if name in seats:
            return number, seats.index(name) + 1, seats
    raise AssertionError(name)


def test_a_player_types_part_of_a_name_and_sees_table_seat_and_the_others(phone, own_server, event, shot):
    page = phone
    page.goto(f"{own_server}/tournaments/{event['tid']}/seats")
    expect(page.locator("h1")).to_have_text("Find your table")
    expect(page.locator(".room-table")).to_have_count(24)
    wait_no_sideways_scroll(page, PHONE["width"])
    shot(page, "seats-phone-room", full_page=False)

    box = page.locator("#seat-q")
    box.press_sequentially("ana", delay=60)                  # as you type: no Enter, no reload
    cards = page.locator(".seat-card")
    expect(cards).to_have_count(2)
    expect(cards.locator(".seat-who")).to_have_text(["Ana Lopez", "Anaïs Dubois"])
    box.press_sequentially("is", delay=60)                   # "anais": accents aside
    expect(cards).to_have_count(1)
    table, seat, seats = where(event, "Anaïs Dubois")
    expect(cards.locator(".seat-where")).to_have_text(f"Table {table} Seat {seat}")
    expect(cards.locator(".seat-name")).to_have_text(seats)  # the others, in seat order
    expect(cards.locator(".is-you .seat-no")).to_have_text(str(seat))
    expect(page).to_have_url(f"{own_server}/tournaments/{event['tid']}/seats?q=anais")   # a reload keeps it
    wait_no_sideways_scroll(page, PHONE["width"])
    shot(page, "seats-phone-found", full_page=False)

    box.fill("")
    box.press_sequentially("zzq", delay=40)
    expect(page.locator(".seat-problem")).to_contain_text("Nobody in round 1 matches “zzq”")
    box.fill("")
    box.press_sequentially("van der", delay=40)               # several words of a last name
    expect(cards.first).to_be_visible()
    expect(cards.locator(".seat-who")).to_contain_text(["Van der Berg"] * cards.count())


def test_the_lookup_works_without_javascript(browser, own_server, event):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{own_server}/tournaments/{event['tid']}/rounds/1/seats")
        page.fill("#seat-q", "DUBOIS")
        with page.expect_navigation():
            page.press("#seat-q", "Enter")
        expect(page).to_have_url(f"{own_server}/tournaments/{event['tid']}/rounds/1/seats?q=DUBOIS")
        table, seat, seats = where(event, "Anaïs Dubois")
        card = page.locator(".seat-card").filter(has=page.locator(".seat-who", has_text=re.compile(r"^Anaïs Dubois$")))
        expect(card.locator(".seat-where")).to_have_text(f"Table {table} Seat {seat}")
        expect(card.locator(".seat-name")).to_have_text(seats)
    finally:
        context.close()


def test_the_list_by_name_prints_on_a4_in_big_type(browser, own_server, event, shot):
    # A4 at 96 dpi less the 12 mm margins: 718 x 1032 CSS pixels of printable area
    context = browser.new_context(viewport={"width": 718, "height": 1032})
    page = context.new_page()
    try:
        page.goto(f"{own_server}/tournaments/{event['tid']}/rounds/1/seats/list")
        expect(page.locator(".by-name li")).to_have_count(120)
        first = page.locator(".by-name li").first
        expect(first.locator(".bn-name")).to_have_text("Ana Lopez")
        table, seat, _ = where(event, "Ana Lopez")
        expect(first.locator(".bn-where")).to_have_text(f"Table {table} seat {seat}")
        page.set_viewport_size(PHONE)
        wait_no_sideways_scroll(page, PHONE["width"])       # on a phone too
        shot(page, "seats-list-phone", full_page=False)
        page.set_viewport_size({"width": 718, "height": 1032})
        page.emulate_media(media="print")
        expect(page.locator("header.top")).to_be_hidden()
        # two columns, names at 14 pt (18.67 px) at least, nothing wider than the page
        page.wait_for_function("""() => { const list = document.querySelector('.by-name');
            const li = document.querySelector('.by-name li');
            return getComputedStyle(list).columnCount === '2' && parseFloat(getComputedStyle(li).fontSize) >= 18.6; }""")
        wait_no_sideways_scroll(page, 718)
        shot(page, "seats-list-print")
        pdf = page.pdf(format="A4", margin={"top": "0", "bottom": "0", "left": "0", "right": "0"})
        if SCREENSHOTS_ON:                 # beside the screenshots, to look at
            SHOTS.mkdir(exist_ok=True)
            (SHOTS / "seats-list-print.pdf").write_bytes(pdf)
        pages = pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages")
        assert 1 <= pages <= 3, pages     # 120 players in big type: a few sheets, not a scroll
    finally:
        context.close()


def test_the_organizer_prints_the_qr_code_poster(browser, own_server, event, shot):
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    try:
        page.goto(f"{own_server}/tournaments/{event['tid']}/sign-in")
        page.fill("#si-name", "Ola Org")
        page.fill("#si-code", event["codes"]["organizer"])
        page.get_by_role("button", name="Sign in").click()
        expect(page.locator(".flash").first).to_contain_text("Signed in")
        page.goto(f"{own_server}/tournaments/{event['tid']}/rounds/1")
        page.get_by_role("link", name="QR code poster").click()
        expect(page.locator(".poster h1")).to_have_text("Find your table")
        img = page.locator(".poster-qr")
        page.wait_for_function("img => img.complete && img.naturalWidth > 0", arg=img.element_handle())
        wait_no_sideways_scroll(page, PHONE["width"])
        shot(page, "seats-poster-phone")
        page.set_viewport_size({"width": 718, "height": 1032})
        page.emulate_media(media="print")
        expect(page.locator(".poster-tools")).to_be_hidden()
        shot(page, "seats-poster-print")
        pdf = page.pdf(format="A4")
        assert pdf.count(b"/Type /Page") - pdf.count(b"/Type /Pages") == 1    # one sheet
    finally:
        context.close()
