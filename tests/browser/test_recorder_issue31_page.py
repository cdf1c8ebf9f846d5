"""The recorder page's remaining defects of issue 31, on a 390 x 844 phone: a finished game
shows its result and no action buttons (the last oust typed), the log's last line can be
corrected without scrolling, a minion locked with no action named (`minion.lock`) from the
acting seat's row, a Deflection through "A card…" with its new target, and the one-tap
chips kept apart from the chips that open a form."""
from __future__ import annotations

import re

from playwright.sync_api import expect

from helpers import line, recorder_game, stored_events as stored
from reference_turn import BEFORE, SEATS

DECK, FORM = "#rec-next", "#rec-ask"


def open_game(page, server, app, events, seats=SEATS):
    gid = recorder_game(app, seats, events, label="Issue 31")
    page.goto(f"{server}/games/{gid}")
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(len(events))
    expect(page.locator("#rec")).to_have_attribute("data-ready", "")
    return gid


def oust_by_form(page, name):
    page.locator("#rec-more").get_by_role("button", name="Oust…").click()
    page.locator(f"{FORM} [data-field=seat]").get_by_role("button", name=name, exact=True).click()
    page.locator(FORM).get_by_role("button", name="Record", exact=True).click()
    expect(page.locator(FORM)).to_be_hidden()


# --- 1. a finished game: the Game over step (result, VP) and no action buttons -------------------

def test_a_fresh_game_ended_by_a_typed_oust_shows_the_result_and_no_action_buttons(phone, live_server, live_app, shot):
    """A fresh practice game of five seats, made on the games page: three seats ousted with
    Oust…, then Ana bleeds Bruno and the last oust is typed while her bleed is still open.
    The old page kept the bleed's "Bleed now 2 ✓" chips (and a referendum's vote panel) and
    showed no Game over step: now the step is the result, each seat's VP, and nothing else."""
    page = phone
    page.goto(f"{live_server}/games")
    for k, name in enumerate(SEATS, 1):
        page.fill(f"input[name=seat{k}]", name)
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#rec")).to_have_attribute("data-ready", "")
    gid = int(re.search(r"/games/(\d+)", page.url).group(1))
    page.locator(DECK).get_by_role("button", name=re.compile("^Start turn: Ana")).click()
    expect(page.locator(".rec-seat.is-acting")).to_have_count(1)
    for name in ("Cid", "Dee", "Eve"):
        oust_by_form(page, name)
    line(page, "1 bleed Catalina Vega =2; 1 go; 2 nb")
    expect(page.locator(f"{DECK} .rec-chip", has_text="Bleed now 2 ✓")).to_be_visible()
    line(page, "2 oust")                                        # the last oust, typed
    over = page.locator(f"{DECK} .rec-over")
    expect(over).to_be_visible()
    expect(page.locator("#rec-status")).to_have_text("Game over — one player left: Ana (seat 1)")
    # Ana ousted Bruno and stands alone (1 + 1); Bruno scored 1 for each of Cid, Dee and Eve
    expect(over.locator(".rec-over-score li")).to_have_text([
        re.compile(r"^Ana \(seat 1\).*2 VP$"), re.compile(r"^Bruno \(seat 2\).*ousted.*3 VP$"),
        re.compile(r"^Cid \(seat 3\).*0 VP$"), re.compile(r"^Dee \(seat 4\).*0 VP$"),
        re.compile(r"^Eve \(seat 5\).*0 VP$")])
    # no action buttons: no step, no chip, no vote or card row, no more entries, no quick entry
    expect(page.locator(f"{DECK} button")).to_have_count(0)
    expect(page.locator(f"{DECK} .rec-chip")).to_have_count(0)
    expect(page.locator("#rec-more")).to_be_hidden()
    expect(page.locator("#rec-input")).to_be_hidden()
    expect(page.locator("#rec-banner")).to_contain_text("This game is over")
    page.evaluate("() => document.getElementById('rec-status').scrollIntoView()")
    shot(page, "recorder-390-game-over-result", full_page=False)
    from test_accessibility import axe_violations
    assert axe_violations(page) == [], "the Game over step"
    assert [(e["type"], e.get("seat")) for e in stored(live_app, gid)][-1] == ("oust", 2)


def test_a_referendum_open_when_the_game_ends_leaves_no_vote_panel(phone, live_server, live_app):
    events = BEFORE + [{"type": "turn.start", "seat": 1}, {"type": "oust", "seat": 3}, {"type": "oust", "seat": 4},
                       {"type": "oust", "seat": 5}, {"type": "phase", "seat": 1, "phase": "minion"},
                       {"type": "action.declare", "seat": 1, "action": "political", "minion": "Catalina Vega"},
                       {"type": "action.pass", "seat": 1}, {"type": "block.pass", "seat": 2},
                       {"type": "action.result", "outcome": "success"}]
    open_game(page := phone, live_server, live_app, events)
    expect(page.locator(".rec-vote-panel, .rec-votes").first).to_be_visible()
    line(page, "2 oust")
    expect(page.locator(f"{DECK} .rec-over")).to_be_visible()
    expect(page.locator(f"{DECK} button")).to_have_count(0)
    expect(page.locator(f"{DECK} .rec-chip")).to_have_count(0)


def test_a_game_over_by_time_shows_the_half_points_and_its_one_step(phone, live_server, live_app):
    events = BEFORE + [{"type": "turn.start", "seat": 1}, {"type": "oust", "seat": 2},
                       {"type": "phase", "seat": 1, "phase": "minion"}, {"type": "time.call"}]
    open_game(page := phone, live_server, live_app, events)
    over = page.locator(f"{DECK} .rec-over")
    expect(over.locator(".rec-over-vp")).to_have_text(["1½ VP", "0 VP", "½ VP", "½ VP", "½ VP"])
    expect(over.get_by_role("button")).to_have_text(["Game over — score this table"])


# --- 2. the last log lines under the status line: a correction needs no scrolling ---------------

def test_the_last_line_is_corrected_from_the_first_screen(phone, live_server, live_app, shot):
    """Defect 9: the log began about 1.5 screens below the top of a 390 x 844 page. After an
    entry, the control that corrects its line is on the first screen; the correction opens
    there and is stored as an amend."""
    page = phone
    gid = open_game(page, live_server, live_app, BEFORE)
    line(page, "2 start; 2 minion; 2 bleed Theo Bell =1")
    last = len(BEFORE) + 3
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(last)
    page.evaluate("window.scrollTo(0, 0)")
    fix = page.locator(f"li[data-seq='{last}'] > .rec-sum").first    # the first such control on the page
    expect(fix).to_contain_text("Theo Bell bleeds Cid for 1")
    expect(fix).to_be_in_viewport(ratio=1)
    shot(page, "recorder-390-last-lines", full_page=False)
    fix.click()
    form = page.locator(FORM)
    expect(form.locator(".rec-ask-title")).to_contain_text(f"Correct #{last}")
    expect(form.locator(".rec-ask-title")).to_be_in_viewport()
    form.locator("[data-field=amount]").get_by_role("button", name="2", exact=True).click()
    shot(page, "recorder-390-last-line-correction", full_page=False)
    from test_accessibility import axe_violations
    assert axe_violations(page) == [], "a last line being corrected"
    form.get_by_role("button", name="Record the correction").click()
    expect(form).to_be_hidden()
    page.evaluate("window.scrollTo(0, 0)")
    expect(fix).to_contain_text("Theo Bell bleeds Cid for 2")
    expect(fix).to_be_in_viewport(ratio=1)
    got = stored(live_app, gid)[-1]
    assert (got["type"], got["target"], got["fields"]) == ("amend", last, {"amount": 2})
    # Undo takes the correction back, then the entry: its lines leave the strip
    page.locator("#rec-undo").click()
    expect(fix).to_contain_text("Theo Bell bleeds Cid for 1")
    page.locator("#rec-undo").click()
    expect(page.locator("#rec-recent-list li")).to_have_count(2)
    expect(page.locator("#rec-recent-list li").first).to_have_attribute("data-seq", str(len(BEFORE)))


# --- 3. defect 10: chips that record at once apart from chips that open more ---------------------

def _groups_apart(group, record_count):
    """The chips of `group` that record (✓, marked is-record) are its own; those that open a
    form are in a group of their own inside it, unmarked."""
    ones = group.locator(":scope > .rec-chip")
    opens = group.locator(":scope > .rec-chips[role=group] .rec-chip")
    expect(ones).to_have_count(record_count)
    for k in range(record_count):
        expect(ones.nth(k)).to_have_class(re.compile(r"\bis-record\b"))
        expect(ones.nth(k)).to_have_text(re.compile(r"✓"))
    expect(opens.first).to_be_visible()
    for k in range(opens.count()):
        expect(opens.nth(k)).not_to_have_class(re.compile(r"\bis-record\b"))
        expect(opens.nth(k)).not_to_have_text(re.compile(r"✓"))
    return ones, opens


def test_one_tap_chips_are_a_group_apart_from_chips_that_open_a_form(phone, live_server, live_app, shot):
    page = phone
    open_game(page, live_server, live_app, BEFORE + [{"type": "turn.start", "seat": 2},
                                                     {"type": "phase", "seat": 2, "phase": "minion"}])
    page.locator(DECK).get_by_role("button", name="Theo Bell", exact=True).click()
    what = page.locator(f"{FORM} [data-field=action] .rec-field-chips")
    ones, opens = _groups_apart(what, 7)
    expect(ones).to_have_text([re.compile(r"^Bleed \d+ → Cid ✓"), "Hunt ✓", "Leave torpor ✓", "Rescue ✓",
                               "Diablerie ✓", "Anarch ✓", "Other ✓"])
    expect(opens).to_have_text(["Political…", "Action card…", "Equip…", "Recruit…", "Employ…"])
    expect(what.locator(":scope > .rec-chips[role=group]")).to_have_attribute("aria-label", re.compile("Opens more"))
    page.evaluate("() => document.querySelector('#rec-ask [data-field=action]').scrollIntoView()")
    shot(page, "recorder-390-action-chips-apart", full_page=False)
    # a tap on an opening chip records nothing: it chooses, the form stays
    before = page.locator("#rec-log li[data-seq]").count()
    opens.first.click()
    expect(page.locator(FORM)).to_be_visible()
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(before)


def test_a_strike_rows_opening_chips_are_a_group_of_their_own(phone, live_server, live_app):
    page = phone
    open_game(page, live_server, live_app, BEFORE + [
        {"type": "turn.start", "seat": 2}, {"type": "phase", "seat": 2, "phase": "minion"},
        {"type": "action.declare", "seat": 2, "action": "hunt", "minion": "Theo Bell"},
        {"type": "action.pass", "seat": 2}, {"type": "block.declare", "seat": 3, "minion": "Cardano"},
        {"type": "block.result", "blocked": True}])
    row = page.locator(f"{DECK} .rec-step-row", has=page.locator(".rec-chip", has_text="Dodge ✓"))
    groups = row.locator(":scope > .rec-chips[role=group]")
    expect(groups).to_have_count(2)
    expect(groups.nth(0).locator(".rec-chip")).to_have_text(["Hand strike · 1 ✓", "Dodge ✓", "Combat ends ✓"])
    expect(groups.nth(0).locator(".rec-chip:not(.is-record)")).to_have_count(0)
    expect(groups.nth(1)).to_have_attribute("aria-label", "opens a form:")
    expect(groups.nth(1).locator(".rec-chip")).to_have_text(["With a card…"])
    expect(groups.nth(1).locator(".rec-chip.is-record")).to_have_count(0)


# --- 3. defect 11: a three-letter start of a name heard at the table is suggested ---------------

def test_three_letters_of_a_minion_at_the_table_bring_it_up_in_quick_entry(phone, live_server, live_app):
    page = phone
    open_game(page, live_server, live_app, BEFORE + [{"type": "turn.start", "seat": 2},
                                                     {"type": "phase", "seat": 2, "phase": "minion"}])
    page.locator("#rec-input").click()
    page.keyboard.type("2 hunt The")
    expect(page.locator("#rec-suggest [role=option]").first).to_have_text("Theo Bell")
    page.locator("#rec-input").fill("")
    page.keyboard.type("5 vote 2 for Bec")                       # Beckett, seat 5's, seen on the board
    expect(page.locator("#rec-suggest [role=option]").first).to_have_text("Beckett")


# --- 4. a minion locked with no action named, from the acting seat's row ------------------------

def test_a_lock_with_no_action_named_takes_two_taps_and_any_blocks_after_it_is_reported(phone, live_server, live_app, shot):
    page = phone
    page.add_init_script("""window.__taps = 0;
      document.addEventListener("click", function (e) { if (e.isTrusted) window.__taps++; }, true);""")
    gid = open_game(page, live_server, live_app, BEFORE + [{"type": "turn.start", "seat": 2},
                                                           {"type": "phase", "seat": 2, "phase": "minion"}])
    n = len(BEFORE) + 2
    page.evaluate("window.__taps = 0")
    row = page.locator(f"{DECK} .rec-step-row", has=page.get_by_role("button", name="Bruno declares an action…"))
    row.get_by_role("button", name="Theo Bell", exact=True).click()                  # 1: the minion
    lock = page.locator(FORM).get_by_role("button", name="Locked, no action named ✓")
    expect(lock).to_be_visible()
    lock.scroll_into_view_if_needed()
    shot(page, "recorder-390-lock-button", full_page=False)
    lock.click()                                                                    # 2: locked
    expect(page.locator("#rec-log li[data-seq]")).to_have_count(n + 1)
    assert page.evaluate("window.__taps") == 2
    got = stored(live_app, gid)[-1]
    assert (got["type"], got["seat"], got["minion"]) == ("minion.lock", 2, "Theo Bell")
    # then "any blocks?" with no action named: one tap, recorded as said and reported
    ask = page.locator(DECK).get_by_role("button", name="Bruno (seat 2): “any blocks?” with no action named")
    expect(ask).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    shot(page, "recorder-390-locked-no-action", full_page=False)
    ask.click()
    expect(page.locator(f"#rec-log li[data-seq='{n + 2}'] [data-code='action-not-announced']")).to_have_count(1)
    assert [e["type"] for e in stored(live_app, gid)[-2:]] == ["minion.lock", "action.pass"]


# --- 5. a Deflection through "A card…" from the acting seat's row asks for the new target --------

def test_a_deflection_from_the_acting_seats_card_row_is_the_targets_and_asks_the_new_target(phone, live_server, live_app, shot):
    """No seat tapped: "Other card…" in Ana's row, Deflection; it becomes Bruno's play (the
    target of the bleed) and asks for the new target's seat, whose chip records it."""
    page = phone
    bleed = BEFORE + [{"type": "turn.start", "seat": 1}, {"type": "phase", "seat": 1, "phase": "minion"},
                      {"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Catalina Vega", "amount": 2},
                      {"type": "action.pass", "seat": 1}]
    gid = open_game(page, live_server, live_app, bleed)
    expect(page.locator(".rec-seat.is-chosen")).to_have_count(0)
    row = page.locator(f"{DECK} .rec-card-row")
    expect(row.locator(".rec-chips-label")).to_have_text("Ana plays")
    row.get_by_role("button", name=re.compile(r"^(Other|A) card…$")).click()
    form = page.locator(FORM)
    page.keyboard.type("Deflec")
    form.locator("[role=option]", has_text="Deflection").first.click()
    new_target = form.locator("[data-field=target_seat]")
    expect(new_target.locator(".rec-field-label")).to_have_text("New target")
    expect(form.locator("[data-field=seat] .rec-chip.is-on")).to_have_text("Bruno")   # the target plays it
    expect(new_target.locator(".rec-chip")).to_have_text(["Cid", "Dee", "Eve"])        # not Ana, not Bruno
    expect(form.locator("[data-field=target]")).to_be_hidden()
    form.locator("[data-field=discipline]").get_by_role("button", name=re.compile(r"^dom")).click()
    form.locator("[data-field=minion]").get_by_role("button", name="Theo Bell").click()
    expect(new_target.locator(".rec-chip")).to_have_text(["Cid ✓", "Dee ✓", "Eve ✓"])
    form.scroll_into_view_if_needed()
    shot(page, "recorder-390-deflection-from-acting-row", full_page=False)
    new_target.get_by_role("button", name="Cid ✓").click()
    expect(form).to_be_hidden()
    got = stored(live_app, gid)[-1]
    assert (got["type"], got["seat"], got["card"], got["target_seat"]) == ("reaction", 2, "Deflection", 3)
    expect(page.locator("#rec-center")).to_contain_text("Cid")
