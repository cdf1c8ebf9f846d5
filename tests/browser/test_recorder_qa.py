"""The QA walk-through of the recorder page on a 390 x 844 phone (issue 11): a Deflection
through the card form, a form recorded with a required field left empty, a game that has
ended, the last oust typed or tapped, the transfer chips, and the bad input of the issue
(a double tap on a chip, an amend of a line another judge took back)."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from judgekit.db import open_db
from helpers import append_events as append, line, recorder_game, stored_events as stored
from reference_turn import BEFORE, SEATS

# Ana (1) bleeds Bruno (2), her prey, with Catalina Vega; Ana has passed: Bruno is to answer
BLEED = BEFORE + [{"type": "turn.start", "seat": 1},
                  {"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Catalina Vega", "amount": 2},
                  {"type": "action.pass", "seat": 1}]
DECK, FORM = "#rec-next", "#rec-ask"


def new_game(app, events=(), seats=SEATS):
    return recorder_game(app, seats, events, label="QA walk")


def open_game(page, server, app, events):
    gid = new_game(app, events)
    page.goto(f"{server}/games/{gid}")
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(len(events))
    expect(page.locator("#rec")).to_have_attribute("data-ready", "")
    return gid


def api_game(server, gid):
    import json
    import urllib.request
    with urllib.request.urlopen(f"{server}/api/games/{gid}") as answer:
        return json.load(answer)


def findings_of(page, seq):
    return page.locator(f"#rec-log li[data-seq='{seq}'] .rec-f")


# --- 1. a Deflection through the generic card form ------------------------------------------------

def test_deflection_through_the_card_form_asks_for_the_new_target(phone, live_server, live_app, shot):
    page = phone
    gid = open_game(page, live_server, live_app, BLEED)
    page.locator(".rec-seat[data-seat='2']").click()                 # Bruno, the target, plays it
    page.locator(DECK).get_by_role("button", name=re.compile(r"^(A|Other) card…$")).click()
    form = page.locator(FORM)
    expect(form.locator("input[name=card]")).to_be_focused()
    page.keyboard.type("Deflec")
    form.locator("[role=option]", has_text="Deflection").first.click()
    new_target = form.locator("[data-field=target_seat]")
    expect(new_target.locator(".rec-field-label")).to_have_text("New target")
    expect(form.locator(".rec-ask-title")).to_have_text("Reaction")
    # the seats it may go to: not Bruno (who plays it), not Ana (who acts)
    expect(new_target.locator(".rec-chip")).to_have_text(["Cid", "Dee", "Eve"])
    expect(form.locator("[data-field=target]")).to_be_hidden()       # no minion target asked
    expect(form.locator(".rec-ask-hint")).to_contain_text("Deflection redirects")
    form.locator("[data-field=discipline]").get_by_role("button", name=re.compile(r"^dom")).click()
    form.locator("[data-field=minion]").get_by_role("button", name="Theo Bell").click()
    page.evaluate("() => document.getElementById('rec-ask').scrollIntoView()")
    shot(page, "recorder-390-deflection-card-form", full_page=False)
    new_target.get_by_role("button", name="Dee ✓").click()
    expect(form).to_be_hidden()
    seq = len(BLEED) + 1
    expect(page.locator(f"#rec-log li[data-seq='{seq}'] .rec-sum")).to_contain_text("Dee")
    expect(page.locator("#rec-center")).to_contain_text("Dee")         # the new target in the drawing
    expect(page.locator(".rec-seat[data-seat='4'] .rec-seat-tags")).to_contain_text("target")
    got = stored(live_app, gid)[-1]
    assert (got["type"], got["seat"], got["card"], got["target_seat"]) == ("reaction", 2, "Deflection", 4)
    # no false "card-choice-missing": the new target is the card's target
    expect(findings_of(page, seq).and_(page.locator("[data-code='card-choice-missing']"))).to_have_count(0)
    assert [f["code"] for f in api_game(live_server, gid)["findings"] if f["seq"] == seq
            and f["code"] == "card-choice-missing"] == []
    # and the new target is the one to answer the block opportunity
    expect(page.locator(DECK).get_by_role("button", name="Dee (seat 4): no block")).to_be_visible()


def test_a_reaction_by_a_seat_that_is_not_the_target_keeps_its_minion_target(phone, live_server, live_app):
    """Only the target's reaction redirects (the engine's `redirect_by`): Cid's Deflection
    form asks for a target as before, with no new-target seat choice."""
    page = phone
    open_game(page, live_server, live_app, BLEED)
    page.locator(".rec-seat[data-seat='3']").click()
    page.locator(DECK).get_by_role("button", name=re.compile(r"^(A|Other) card…$")).click()
    form = page.locator(FORM)
    page.keyboard.type("Deflec")
    form.locator("[role=option]", has_text="Deflection").first.click()
    expect(form.locator("[data-field=target]")).to_be_visible()
    expect(form.locator("[data-field=target_seat]")).to_be_hidden()
    # the seat changed to Bruno (the target) in the form: now it is a redirect
    form.locator("[data-field=seat]").get_by_role("button", name="Bruno").click()
    expect(form.locator("[data-field=target_seat]")).to_be_visible()
    expect(form.locator("[data-field=target]")).to_be_hidden()


# --- 2. a required field left empty; a server refusal in words ------------------------------------

def test_record_without_an_action_says_so_next_to_the_field_and_sends_nothing(phone, live_server, live_app, shot):
    page = phone
    gid = open_game(page, live_server, live_app, BEFORE + [{"type": "turn.start", "seat": 1}])
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" and r.url.endswith("/events") else None)
    page.locator(DECK).get_by_role("button", name="Catalina Vega").click()
    form = page.locator(FORM)
    form.get_by_role("button", name="Record", exact=True).click()
    error = form.locator("[data-field=action] .rec-field-error")
    expect(error).to_have_text("Choose what the minion does (Bleed, Hunt, …) before recording.")
    expect(error).to_have_attribute("role", "alert")
    expect(form.locator("[data-field=action] .rec-chip").first).to_be_focused()
    expect(page.locator("#rec-msg")).not_to_contain_text("missing")
    page.evaluate("() => document.getElementById('rec-ask').scrollIntoView()")
    shot(page, "recorder-390-missing-action", full_page=False)
    # choosing one clears the message; the entry is recorded once
    form.locator("[data-field=action]").get_by_role("button", name="Hunt ✓").click()
    expect(form).to_be_hidden()
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(len(BEFORE) + 2)
    assert len(posts) == 1
    assert stored(live_app, gid)[-1]["action"] == "hunt"


def test_the_server_refusing_a_line_is_said_in_words(phone, live_server, live_app):
    """A refusal without words of its own ("event 1: minion: missing") names the field in
    words; the API answer stays a 4xx JSON with the field."""
    import json
    import urllib.request
    page = phone
    gid = open_game(page, live_server, live_app, BEFORE + [{"type": "turn.start", "seat": 1}])
    page.fill("#rec-input", "1 out")
    page.click(".rec-send")
    msg = page.locator("#rec-msg")
    expect(msg).to_have_text("Not recorded — Minion: missing.")
    expect(msg).to_have_class(re.compile("is-error"))
    req = urllib.request.Request(f"{live_server}/api/games/{gid}/events", method="POST",
                                 data=json.dumps({"type": "action.declare", "seat": 1}).encode(),
                                 headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as err:
        urllib.request.urlopen(req)
    assert err.value.code == 400
    body = json.loads(err.value.read())
    assert body["field"] == "action" and body["status"] == 400 and body["error"]


# --- 3. a game that has ended is read-only -------------------------------------------------------

def test_a_finished_game_is_read_only_but_for_corrections(phone, live_server, live_app, shot):
    page = phone
    ended = BEFORE + [{"type": "turn.start", "seat": 1}, {"type": "oust", "seat": 2}, {"type": "oust", "seat": 3},
                      {"type": "oust", "seat": 4}, {"type": "oust", "seat": 5}]
    gid = new_game(live_app, ended[:-1])
    append(live_app, gid, ended[-1:])          # the last oust: the last entry (Undo's)
    page.goto(f"{live_server}/games/{gid}")
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(len(ended))
    banner = page.locator("#rec-banner")
    expect(banner).to_contain_text("This game is over")
    expect(page.locator("#rec-status")).to_have_text("Game over — one player left: Ana (seat 1)")
    expect(page.locator("#rec-more")).to_be_hidden()
    expect(page.locator("#rec-input")).to_be_hidden()
    expect(page.locator(".rec-send")).to_be_hidden()
    expect(page.locator(f"{DECK} button")).to_have_count(0)
    expect(page.locator(".rec-seat[data-seat='1']")).to_be_disabled()
    expect(page.locator(".rec-seat.is-acting")).to_have_count(0)       # no one acts any more
    expect(page.locator("#rec-undo")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "recorder-390-game-over-read-only", full_page=False)
    # a line can still be corrected; Undo takes back the last oust and the game goes on
    page.locator(f"#rec-log li[data-seq='{len(ended)}'] .rec-sum").click()
    expect(page.locator("#rec-log #rec-ask")).to_be_visible()
    page.locator("#rec-log #rec-ask").get_by_role("button", name="Cancel").click()
    page.locator("#rec-undo").click()
    expect(page.locator("#rec-log li.is-retracted")).to_have_count(1)
    expect(banner).to_be_hidden()
    expect(page.locator("#rec-more")).to_be_visible()
    expect(page.locator("#rec-input")).to_be_visible()
    expect(page.locator(".rec-seat[data-seat='1']")).to_be_enabled()
    expect(page.locator(".rec-seat.is-acting")).to_have_count(1)
    assert stored(live_app, gid)[-1]["type"] == "retract"


def test_a_game_over_by_time_offers_only_its_end(phone, live_server, live_app, shot):
    page = phone
    events = BEFORE + [{"type": "turn.start", "seat": 1}, {"type": "phase", "seat": 1, "phase": "minion"},
                       {"type": "time.call"}]
    gid = open_game(page, live_server, live_app, events)
    expect(page.locator(f"{DECK} button")).to_have_text(["Game over — score this table"])
    expect(page.locator("#rec-banner")).to_contain_text("tap “Game over — score this table”")
    expect(page.locator("#rec-more")).to_be_hidden()
    expect(page.locator("#rec-input")).to_be_hidden()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "recorder-390-game-over-by-time", full_page=False)
    page.locator(DECK).get_by_role("button", name="Game over — score this table").click()
    expect(page.locator(f"{DECK} button")).to_have_count(0)
    expect(page.locator("#rec-banner")).to_contain_text("Nothing more is recorded at this table")
    assert stored(live_app, gid)[-1]["type"] == "game.end"


# --- 4. the last oust, typed or tapped ----------------------------------------------------------

def _after_last_oust(page):
    return page.evaluate("""() => ({
      deck: [...document.querySelectorAll('#rec-next button')].map(b => b.textContent),
      status: document.getElementById('rec-status').textContent,
      banner: document.getElementById('rec-banner').hidden ? null : document.getElementById('rec-banner').textContent,
      more: document.getElementById('rec-more').hidden, input: document.getElementById('rec-input').hidden,
      centre: document.getElementById('rec-center').textContent})""")


def test_the_last_oust_typed_or_tapped_ends_the_game_alike(phone, live_server, live_app):
    page = phone
    three_out = BEFORE + [{"type": "turn.start", "seat": 1}, {"type": "oust", "seat": 2},
                          {"type": "oust", "seat": 3}, {"type": "oust", "seat": 4}]
    typed = open_game(page, live_server, live_app, three_out)
    line(page, "5 oust")
    expect(page.locator("#rec-banner")).to_contain_text("This game is over")
    by_line = _after_last_oust(page)
    tapped = open_game(page, live_server, live_app, three_out)
    page.locator("#rec-more").get_by_role("button", name="Oust…").click()
    page.locator(f"{FORM} [data-field=seat]").get_by_role("button", name="Eve").click()
    page.locator(FORM).get_by_role("button", name="Record", exact=True).click()
    expect(page.locator("#rec-banner")).to_contain_text("This game is over")
    by_form = _after_last_oust(page)
    assert by_line == by_form
    assert by_line["more"] and by_line["input"] and "Game over" in by_line["status"]
    for gid in (typed, tapped):
        assert [(e["type"], e["seat"]) for e in stored(live_app, gid)[len(three_out):]] == [("oust", 5)]


# --- 5. the transfer chips, in words --------------------------------------------------------------

def test_transfer_chips_say_what_and_whose_and_a_double_tap_stores_once(phone, live_server, live_app, shot):
    page = phone
    gid = open_game(page, live_server, live_app, BEFORE + [{"type": "turn.start", "seat": 1},
                                                           {"type": "phase", "seat": 1, "phase": "influence"}])
    row = page.locator(f"{DECK} .rec-step-row", has=page.get_by_role("button", name="Ana transfers…"))
    expect(row.locator(".rec-chips")).to_have_attribute("aria-label", "Pool Ana transfers:")
    chips = row.locator(".rec-chip")
    expect(chips).to_have_text(["1 pool ✓", "2 pool ✓", "3 pool ✓", "4 pool ✓", "5 pool ✓"])
    # a screen reader hears what each does and for whom
    expect(row.get_by_role("button", name="Ana transfers 2 pool (records it)")).to_have_count(1)
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "recorder-390-transfer-chips", full_page=False)
    # both taps in one task: the second surely comes while the first is on its way (a
    # dblclick left that to timing on a busy machine)
    row.get_by_role("button", name="Ana transfers 2 pool (records it)").evaluate("b => { b.click(); b.click(); }")
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(len(BEFORE) + 3)
    expect(page.locator("#rec-msg")).to_contain_text("twice")
    expect(page.locator(f"#rec-log li[data-seq='{len(BEFORE) + 3}'] .rec-sum")).to_contain_text("2")
    transfers = [e for e in stored(live_app, gid) if e["type"] == "transfer"]
    assert [(e["seat"], e["amount"]) for e in transfers] == [(1, 2)]


# --- bad input: an amend of a line another judge took back -----------------------------------------

def test_an_amend_of_a_line_taken_back_meanwhile_is_refused_in_words(phone, live_server, live_app):
    page = phone
    gid = open_game(page, live_server, live_app, BEFORE)
    page.locator("#rec-log li[data-seq='4'] .rec-sum").click()
    form = page.locator("#rec-log #rec-ask")
    expect(form.locator("input[name=amount]")).to_have_value("2")
    append(live_app, gid, [{"type": "retract", "target": 4, "judge": "Other judge"}])   # meanwhile
    form.locator("[data-field=amount]").get_by_role("button", name="3", exact=True).click()
    form.get_by_role("button", name="Record the correction").click()
    expect(page.locator("#rec-msg")).to_have_text("#4 was already taken back.")
    expect(form.locator(".rec-field-error")).to_have_text("#4 was already taken back.")
    assert [e["type"] for e in stored(live_app, gid)[len(BEFORE):]] == ["retract"]


def test_a_tournament_tables_last_oust_typed_or_tapped_finishes_the_table_alike(phone, own_server, own_app):
    """The same on a tournament's tables (two tables of four): the last oust typed on one,
    tapped on the other; both tables are finished with the same VP and the pages alike."""
    from judgekit.auth import store as auth_store
    from judgekit.tournament import store as tstore
    from test_recorder_table_speed import sign_in
    page = phone
    db = open_db(own_app.config["DATABASE"])
    try:
        tid = tstore.create_tournament(db, {"name": "Oust Open"})
        for k in range(8):
            tstore.add_player(db, tid, {"name": f"Q{k + 1}", "vekn": str(7400000 + k)})
        tables = tstore.start_round(db, tid, seed=3)["tables"]
        codes = auth_store.issue_codes(db, tid)
    finally:
        db.close()
    sign_in(page, own_server, tid, codes)
    seen = []
    for table, how in zip(tables, ("typed", "tapped")):
        gid = table["game_id"]
        append(own_app, gid, [{"type": "sync", "seat": 1, "phase": "minion", "turn": 9},
                              {"type": "oust", "seat": 2}, {"type": "oust", "seat": 3}])
        page.goto(f"{own_server}/games/{gid}")
        expect(page.locator("#rec-log li[data-seq]")).to_have_count(3)
        expect(page.locator("#rec")).to_have_attribute("data-ready", "")
        if how == "typed":
            line(page, "4 oust")
        else:
            page.locator(".rec-seat[data-seat='4']").click()
            page.locator("#rec-more").get_by_role("button", name="Oust…").click()
            page.locator(FORM).get_by_role("button", name="Record", exact=True).click()
        expect(page.locator("#rec-banner")).to_contain_text("This game is over")
        state = _after_last_oust(page)
        seen.append({k: v for k, v in state.items() if k not in ("status", "centre")})
    assert seen[0] == seen[1]
    db = open_db(own_app.config["DATABASE"])
    try:
        scored = tstore.round_detail(db, tid, 1)["tables"]
    finally:
        db.close()
    assert [t["state"] for t in scored] == ["finished", "finished"], scored
    assert [sorted(t["vps"]) for t in scored] == [[0, 0, 0, 4]] * 2   # Ana ousts her preys one by one, then stands alone


def test_a_time_call_typed_or_tapped_offers_the_same_end(phone, live_server, live_app):
    """Time called in the minion phase between actions ends the game at once: typed or
    tapped, the page offers "Game over — score this table" and nothing else."""
    page = phone
    minion = BEFORE + [{"type": "turn.start", "seat": 1}, {"type": "phase", "seat": 1, "phase": "minion"}]
    seen = []
    for how in ("typed", "tapped"):
        open_game(page, live_server, live_app, minion)
        if how == "typed":
            line(page, "time call")
        else:
            page.once("dialog", lambda d: d.accept())
            page.locator("#rec-more").get_by_role("button", name="Time call").click()
        expect(page.locator(f"{DECK} button")).to_have_text(["Game over — score this table"])
        seen.append(_after_last_oust(page))
    assert seen[0] == seen[1]
