"""The table judge's page on a phone-size screen: record a whole turn with the buttons and
the quick-entry line, see a finding inline with its rule link, undo it, watch the clock."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from judgekit.db import open_db
from judgekit.recorder import store
from helpers import append_events as append, eventually, line, recorder_game, stored_events as stored, wait_inside, wait_texts


def _expect_equal(got, want):
    assert got == want, (got, want)

SEATS = ["Ann", "Ben", "Cid", "Dee", "Eve"]


def new_game(live_app, **kw):
    return recorder_game(live_app, SEATS, label="Final", **kw)


def test_record_a_whole_turn_on_a_phone(page, live_server, live_app, shot):
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    next_ = page.locator("#rec-next button")
    expect(next_.first).to_have_text("Start turn: Ann (seat 1)")
    next_.first.click()
    expect(page.locator(".rec-seat[data-seat='1']")).to_have_class(re.compile("is-acting"))

    # A master card by quick entry, then the replace button the engine offers.
    line(page, "1 +Villein @Modius =2")
    page.get_by_role("button", name="Ann: replace Villein").click()
    expect(page.get_by_role("button", name="Ann: replace Villein")).to_have_count(0)

    # A bleed with the buttons: declare (form with name completion under the field, the
    # amount from the card facts), pass, no block, success.
    page.get_by_role("button", name="Ann declares an action…").click()
    # Modius was named as Villein's target: heard at the table, a chip (nothing typed)
    page.locator("#rec-ask [data-field=minion]").get_by_role("button", name="Modius").click()
    expect(page.locator("#rec-ask input[name=minion]")).to_have_value("Modius")
    expect(page.locator("#rec-ask input[name=amount]")).to_have_value("1")
    page.get_by_role("button", name="Bleed 1 → Ben ✓").click()
    expect(page.locator("#rec-ask")).to_be_hidden()
    page.get_by_role("button", name=re.compile("Ann \\(seat 1\\): pass")).click()
    expect(page.locator(".rec-seat[data-seat='2']")).to_have_class(re.compile("is-waiting"))
    page.get_by_role("button", name="Ben (seat 2): no block").click()
    page.get_by_role("button", name="Bleed for 1 succeeds").click()

    # A hunt in one line, then influence, discard and the end of the turn.
    line(page, "1 hunt Alice Chen; 1 go; 2 nb; 5 nb; ok")
    page.get_by_role("button", name="Next phase: influence").click()
    line(page, "1 transfer =4; 1 discard")
    page.get_by_role("button", name="Ann: end of turn").click()
    expect(next_.first).to_have_text("Start turn: Ben (seat 2)")

    def all_stored():
        events = stored(live_app, gid)
        assert [e["type"] for e in events] == [
            "turn.start", "card.play", "card.replace", "action.declare", "action.pass", "block.pass",
            "action.result", "action.declare", "action.pass", "block.pass", "block.pass",
            "action.result", "phase", "transfer", "discard", "turn.end"]
        return events
    events = eventually(all_stored)
    assert events[3]["minion"] == "Modius" and events[3]["amount"] == 1
    assert len({e["client_id"] for e in events}) == len(events)
    expect(page.locator("#rec-log li")).to_have_count(16)
    expect(page.locator(".rec-f")).to_have_count(0)       # a clean turn: no findings
    shot(page, "recorder-turn-360")


def test_finding_inline_with_rule_link_and_one_tap_undo(page, live_server, live_app, shot):
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    line(page, "1 start; 1 bleed catalina vega =1")
    finding = page.locator(".rec-f[data-code='misrepresented']")
    expect(finding).to_have_count(1)
    expect(finding.locator("a", has_text="rule ›")).to_have_attribute("href", "/rules/announcements/action-declaration")
    expect(finding).to_have_attribute("data-finding", "2:misrepresented")
    expect(finding.locator(".rec-f-title")).to_have_text("Misrepresented declaration")
    expect(page.locator("#rec-msg")).to_have_text(
        "Misrepresented declaration: Ann (seat 1) declares a bleed for 1 with Catalina Vega, who "
        "bleeds for 2. The declaration binds; it is a misrepresentation.")
    shot(page, "recorder-finding-360", full_page=False)

    page.click("#rec-undo")          # the whole line: its two events
    expect(page.locator("#rec-log li.is-retracted")).to_have_count(2)
    expect(page.locator(".rec-f")).to_have_count(0)
    eventually(lambda: _expect_equal([(e["type"], e.get("target")) for e in stored(live_app, gid)[2:]],
                                     [("retract", 1), ("retract", 2)]))


def test_one_undo_takes_back_everything_the_last_line_stored_in_one_request(page, live_server, live_app, shot):
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    line(page, "1 start")
    line(page, "1 bleed Modius =2; 1 go; 2 nb")
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(4)
    posts = []
    page.on("request", lambda r: posts.append(json.loads(r.post_data))
            if r.method == "POST" and r.url.endswith("/events") else None)
    page.click("#rec-undo")
    expect(page.locator("#rec-msg")).to_have_text(re.compile(   # the log lines (the prey when known)
        r"^Undone: #2 Ann: Modius bleeds (Ben )?for 2; #3 Ann: any blocks\?; #4 Ben: no block\.$"))
    expect(page.locator("#rec-log li.is-retracted")).to_have_count(3)
    eventually(lambda: _expect_equal(len(posts), 1), page=page)
    assert posts == [[{**p, "type": "retract", "target": t, "reason": "undo"} for p, t in zip(posts[0], (2, 3, 4))]]
    eventually(lambda: _expect_equal([e["type"] for e in stored(live_app, gid)],
                                     ["turn.start", "action.declare", "action.pass", "block.pass",
                                      "retract", "retract", "retract"]))   # nothing deleted
    expect(page.locator("#rec-next button").first).to_have_text("Ann declares an action…")
    shot(page, "recorder-undo-line-360", full_page=False)
    # a button's entry is one event: the next Undo takes back the turn start alone
    page.click("#rec-undo")
    expect(page.locator("#rec-msg")).to_have_text(re.compile(r"^Undone: #1 Ann starts (a turn|turn 1)\.$"))
    expect(page.locator("#rec-log li.is-retracted")).to_have_count(4)
    eventually(lambda: _expect_equal(len(posts), 2), page=page)
    page.click("#rec-undo")
    expect(page.locator("#rec-msg")).to_have_text("Nothing to undo.")
    assert len(posts) == 2          # nothing sent for nothing to undo


def test_an_unknown_name_is_told_in_words_for_the_judge(page, live_server, live_app, shot):
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    msg = page.locator("#rec-msg")
    page.fill("#rec-input", "1 +Govern the Unalined")
    page.click(".rec-send")
    expect(msg).to_have_text("No card named 'Govern the Unalined' — did you mean Govern the Unaligned?")
    expect(msg).to_have_class(re.compile("is-error"))
    expect(page.locator("#rec-input")).to_have_value("1 +Govern the Unalined")   # kept to fix
    # picked in the Card… form: the same words, the form stays open
    page.get_by_role("button", name="Card…").click()
    page.fill("#rec-ask input[name=card]", "Deflectoin")
    page.click("#rec-ask button[type=submit]")
    expect(msg).to_have_text("No card named 'Deflectoin' — did you mean Deflection or Detection?")
    expect(page.locator("#rec-ask")).to_be_visible()
    shot(page, "recorder-unknown-name-360", full_page=False)
    assert stored(live_app, gid) == []


def test_clock_counts_down_and_time_call_banner(page, live_server, live_app, shot):
    gid = new_game(live_app, time_limit_min=120)
    page.clock.install()            # the test moves the page's clock on by the second it ticks
    page.goto(f"{live_server}/games/{gid}")
    expect(page.locator(".rec-clock-note")).to_have_text("not started")
    page.get_by_role("button", name="Start clock").click()
    clock = page.locator(".rec-clock-time")
    expect(page.locator(".rec-clock-note")).not_to_have_text("not started")   # the start is stored
    page.clock.run_for(1000)
    expect(clock).to_have_text(re.compile(r"^1:59:5\d$"))
    shown = clock.inner_text()
    page.clock.run_for(1000)
    expect(clock).not_to_have_text(shown, timeout=15_000)  # it ticks every second
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Time call").click()
    expect(page.locator("#rec-banner")).to_contain_text("Time called")
    shot(page, "recorder-time-360", full_page=False)


def fits_the_phone(page):
    """Nothing is wider than the 360 px screen (no sideways scrolling), once laid out."""
    page.wait_for_function("() => document.documentElement.scrollWidth <= 360")


def test_new_game_form_fits_a_phone_and_refuses_two_seats_with_one_name(page, live_server, shot):
    page.goto(f"{live_server}/games")
    fits_the_phone(page)
    boxes = page.locator(".rec-seat-fields input")
    expect(boxes).to_have_count(5)
    wait_inside(page, ".rec-seat-fields input", 0, 360)
    for i, name in enumerate(["Ann", "Ben", "ann", "Dee"], 1):
        page.fill(f"input[name=seat{i}]", name)
    page.get_by_role("button", name="Start recording").click()
    error = page.locator("#new-error")
    expect(error).to_have_text(re.compile(r"Seats: seats 1 and 3 have the same name"))
    expect(page.locator("input[aria-invalid=true]")).to_have_count(2)
    expect(page.locator("input[name=seat3]")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("input[name=seat3]")).to_have_value("ann")   # what was typed is kept
    fits_the_phone(page)
    shot(page, "recorder-new-game-360")


def test_the_status_line_speaks_in_titles_and_messages_not_codes(page, live_server, live_app, shot):
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    line(page, "1 start; 1 bleed Modius")
    msg = page.locator("#rec-msg")
    expect(msg).to_have_text("Bleed amount not stated: Ann (seat 1) bleeds without stating the amount.")
    expect(msg).to_have_class(re.compile("is-error"))
    # two findings from one line: their titles
    line(page, "1 go; 3 block Alice Chen; 4 end")
    expect(msg).to_have_text("2 findings: Block by a player who cannot block · Not this player's turn")
    titles = page.locator("#rec-log .rec-f-title")
    expect(titles).to_have_count(3)
    wait_texts(page, "#rec-log .rec-f-title", {"Bleed amount not stated", "Block by a player who cannot block",
                                               "Not this player's turn"})
    shot(page, "recorder-status-titles-360", full_page=False)


def test_an_amend_shows_as_the_correction_of_the_line_it_amends(page, live_server, live_app, shot):
    gid = new_game(live_app)
    append(live_app, gid, [{"type": "turn.start", "seat": 1},
                           {"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Modius",
                            "amount": 1, "judge": "Jo"}])
    append(live_app, gid, {"type": "amend", "target": 2, "fields": {"amount": 2}, "judge": "Jo"})
    page.goto(f"{live_server}/games/{gid}")
    amended = page.locator("#rec-log li[data-seq='2']")
    expect(amended.locator(".rec-sum")).to_have_text(re.compile(r"^#2Ann: Modius bleeds (Ben )?for 2$"))
    expect(amended).to_have_class(re.compile("is-amended"))
    expect(amended.locator(".rec-was")).to_have_text(re.compile(r"^was: Ann: Modius bleeds (Ben )?for 1$"))
    expect(amended.locator(".rec-meta")).to_contain_text("amended by #3")
    correction = page.locator("#rec-log li[data-seq='3']")
    expect(correction.locator(".rec-sum")).to_have_text("#3Correction of #2: amount → 2")
    expect(page.locator("#rec-log")).not_to_contain_text("{")
    expect(page.locator("#rec-center")).to_contain_text("Modius bleeds Ben for 2")   # the state, as corrected
    page.locator("#rec-log").scroll_into_view_if_needed()
    shot(page, "recorder-amended-360", full_page=False)


def test_a_signed_in_judge_records_under_their_name_without_being_asked(page, own_server, own_app, shot):
    from judgekit.auth import store as auth_store
    from judgekit.tournament import store as tstore
    db = open_db(own_app.config["DATABASE"])
    try:
        tid = tstore.create_tournament(db, {"name": "Name Open"})
        for k, name in enumerate(SEATS + ["Fay", "Gus", "Hal"]):
            tstore.add_player(db, tid, {"name": name, "vekn": str(7200000 + k)})
        gid = tstore.start_round(db, tid, seed=3)["tables"][0]["game_id"]
        codes = auth_store.issue_codes(db, tid)
    finally:
        db.close()
    page.add_init_script("localStorage.setItem('judgekit.judge', 'Someone Else')")  # a name kept earlier
    page.on("dialog", lambda d: (d.dismiss(), pytest.fail(f"the page asked: {d.message}")))
    posted = []
    page.on("request", lambda r: posted.append(json.loads(r.post_data))
            if r.method == "POST" and r.url.endswith("/events") else None)
    page.goto(f"{own_server}/tournaments/{tid}/sign-in")
    page.fill("#si-name", "Jo Floor")
    page.fill("#si-code", codes["judge"])
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash").first).to_contain_text("Signed in to Name Open")

    page.goto(f"{own_server}/games/{gid}")
    expect(page.locator("#rec-judge")).to_have_text("Recording as Jo Floor (signed in)")
    expect(page.get_by_role("button", name=re.compile("^Judge"))).to_have_count(0)   # nothing to ask
    line(page, "1 start")
    page.get_by_role("button", name="Note…").click()
    page.fill("#rec-ask input[name=text]", "asked about the clock")
    page.click("#rec-ask button[type=submit]")
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(2)
    expect(page.locator("#rec-log .rec-meta").first).to_contain_text("Jo Floor")
    eventually(lambda: _expect_equal([e["judge"] for batch in posted for e in batch], ["Jo Floor", "Jo Floor"]),
               page=page)
    eventually(lambda: _expect_equal([e["judge"] for e in stored(own_app, gid)], ["Jo Floor", "Jo Floor"]))
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "recorder-signed-in-judge-360", full_page=False)


def test_a_practice_game_keeps_the_name_set_on_the_device(page, live_server, live_app):
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    expect(page.locator("#rec-judge")).to_have_count(0)
    page.once("dialog", lambda d: d.accept("Pat Practice"))
    page.get_by_role("button", name="Judge: anonymous").click()
    expect(page.get_by_role("button", name="Judge: Pat Practice")).to_be_visible()
    line(page, "1 start")
    eventually(lambda: _expect_equal([e["judge"] for e in stored(live_app, gid)], ["Pat Practice"]))


def test_a_tapped_seat_is_the_one_the_next_button_acts_for(page, live_server, live_app, shot):
    gid = new_game(live_app)
    page.goto(f"{live_server}/games/{gid}")
    line(page, "1 start; 1 bleed Modius =1; 1 go")
    next_ = page.locator("#rec-next button")
    expect(next_.first).to_have_text("Ben (seat 2): no block")
    chip = page.locator("#rec-chosen")
    expect(chip).to_be_hidden()

    # seat 3, then "blocks with…": Cid blocks
    cid = page.locator(".rec-seat[data-seat='3']")
    cid.click()
    expect(cid).to_have_class(re.compile("is-chosen"))
    expect(cid).to_have_attribute("aria-pressed", "true")
    expect(chip).to_be_visible()
    expect(chip).to_contain_text("Next button for Cid (seat 3)")
    expect(next_.first).to_have_text("Cid (seat 3): no block")
    shot(page, "recorder-seat-chosen-360", full_page=False)
    page.get_by_role("button", name="Cid blocks with…").click()
    page.fill("#rec-ask input[name=minion]", "Andi Liu")
    page.click("#rec-ask button[type=submit]")
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(4)
    eventually(lambda: _expect_equal([(e["type"], e["seat"], e.get("minion")) for e in stored(live_app, gid)][-1:],
                                     [("block.declare", 3, "Andi Liu")]))
    # it lasted one entry: nothing chosen now
    expect(chip).to_be_hidden()
    expect(page.locator(".rec-seat.is-chosen")).to_have_count(0)

    # seat 2, then "Card…": the form is Ben's
    page.locator(".rec-seat[data-seat='2']").click()
    page.locator("#rec-more").get_by_role("button", name="Card…").click()
    expect(page.locator("#rec-ask input[name=seat]")).to_have_value("2")
    expect(page.locator("#rec-ask [data-field=seat] .rec-chip.is-on")).to_have_text("Ben")
    page.fill("#rec-ask input[name=card]", "Deflection")
    page.click("#rec-ask button[type=submit]")
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(5)
    eventually(lambda: _expect_equal([(e["type"], e["seat"], e.get("card")) for e in stored(live_app, gid)][-1:],
                                     [("card.play", 2, "Deflection")]))

    # clearing: the Clear button, or a second tap on the seat
    dee = page.locator(".rec-seat[data-seat='4']")
    dee.click()
    expect(chip).to_contain_text("Dee (seat 4)")
    page.get_by_role("button", name="✕ Clear").click()
    expect(chip).to_be_hidden()
    expect(dee).to_have_attribute("aria-pressed", "false")
    dee.click()
    dee.click()
    expect(chip).to_be_hidden()
    expect(page.locator(".rec-seat.is-chosen")).to_have_count(0)
    expect(page.locator("#rec-next button.is-for-chosen")).to_have_count(0)


def test_every_seat_of_a_table_of_four_or_five_is_on_the_phone_screen(page, live_server, live_app):
    for seats in (SEATS, SEATS[:4]):
        db = open_db(live_app.config["DATABASE"])
        try:
            gid = store.create_game(db, seats)
        finally:
            db.close()
        page.goto(f"{live_server}/games/{gid}")
        expect(page.locator("#rec-next button").first).to_be_visible()
        expect(page.locator(".rec-seat")).to_have_count(len(seats))
        wait_inside(page, ".rec-seat", 0, 360)
        fits_the_phone(page)
