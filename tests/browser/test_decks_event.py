"""A whole event in the browser (issue 29's combined flow, both parts): 20 players register
their lists by paste from their own links (`player_links`: the one page a player has, for their
decklist and their table's result) on a phone — one list breaks the size rules and the banned
list and is received with its problems named; one names a card that does not exist and is
refused with the nearest names, then sent fixed (those two and the first in the browser; the
17 plain lists through the same page and form as HTTP, `send_list_by_http`). Three rounds, each with a deck check from the
head judge's page (round 2's counted deck differs and becomes a penalty in two taps). Round 1's
tables report their own VP on the players' phone-sized pages: one player of each table
proposes, the others confirm (tables 1 and 4 in the browser, 2 and 3 on the same pages and
forms as HTTP, `report_a_table_by_http`); at one table a player disagrees, the call reaches the judges'
queue and the head judge accepts the players' VP from it. Rounds 2 and 3 report through the
store (`self_report`, the same steps, to keep the test short). After the final the organizer
publishes the winner's and the finalists' lists and the winner's is exported in the TWDA's
format. The tosses and the final's seating go through the store."""
from __future__ import annotations

import re

from helpers import flashes, post_form, text_of
from playwright.sync_api import expect

from judgekit.auth import store as auth_store
from judgekit.db import open_db
from judgekit.tournament.store import base, finals, player_links, ranking, registration, round_flow, self_report
from judgekit.tournament.store import tables as table_store

PLAYERS = [f"Player {chr(65 + k)}" for k in range(20)]
SHORT_AND_BANNED = "Crypt (10)\n10x Nathan Turner\nLibrary (58)\n56x Bum's Rush\n2x Dramatic Upheaval"
UNKNOWN = "Crypt (12)\n12x Nathan Turner\nLibrary (60)\n57x Bum's Rush\n3x Govern the Unalined Quorble"


def legal(k: int) -> str:
    return f"Crypt (12)\n12x Nathan Turner\n\nLibrary (60)\n{20 + k % 7}x Blood Doll\n{40 - k % 7}x Bum's Rush"


def with_db(app, fn):
    db = open_db(app.config["DATABASE"])
    try:
        return fn(db)
    finally:
        db.close()


def seed(app):
    def go(db):
        tid = registration.create_tournament(db, {"name": "Deck Event", "rounds_planned": 3})
        pids = [registration.add_player(db, tid, {"name": n, "vekn": str(7300000 + k)})["id"]
                for k, n in enumerate(PLAYERS)]
        given = {p: player_links.issue(db, tid, p, by="desk") for p in pids}
        return tid, pids, given, auth_store.issue_codes(db, tid)
    return with_db(app, go)


def sweep(seats, winner):
    """The VP of a table where one player ousts everyone: the winner if seated here, else seat 1."""
    top = winner if winner in seats else seats[0]
    return [len(seats) if p == top else 0 for p in seats]


def report_through_the_store(app, tid, n, winner, given):
    """Round n's tables report their own result (seat 1 proposes, the others confirm), then
    the round closes."""
    def go(db):
        for seats in base.round_tables(db, tid, n):
            report = self_report.propose(db, tid, given[seats[0]]["token"], sweep(seats, winner))["report"]
            for pid in seats[1:]:
                after = self_report.confirm(db, tid, given[pid]["token"], report["id"])
            assert after["report"]["status"] == "counted"
        round_flow.close_round(db, tid, n)
    with_db(app, go)


def play_final(app, tid, winner):
    """Tosses for the ties, the finalists place their cards (3.1.3's example), the winner sweeps."""
    def go(db):
        while ranking.standings(db, tid).needs_toss:
            ranking.record_toss(db, tid, seed=7)
        quals = [q["player_id"] for q in finals.start_final(db, tid)["qualifiers"]]
        assert winner in quals
        for who, pos in zip(reversed(quals), [0, 1, 0, 2, 3]):
            finals.place_final_card(db, tid, who, pos)
        state = finals.seat_final(db, tid, seed=1)
        seats = [s["player_id"] for s in state["table"]["seats"]]
        table_store.enter_result(db, tid, state["round"], 1, [5 if p == winner else 0 for p in seats])
        return quals
    return with_db(app, go)


def sign_in(page, base, tid, name, code):
    page.goto(f"{base}/tournaments/{tid}/sign-in")
    page.fill("#si-name", name)
    page.fill("#si-code", code)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash").first).to_contain_text("Signed in")


def report_round_one_on_phones(phone, judge, base_url, app, tid, winner, given, shot):
    """Round 1's tables on the players' pages: seat 1 proposes, the others confirm; at the last
    table seat 2 disagrees, and the judge accepts the players' VP from the judges' queue."""
    seating = with_db(app, lambda db: base.round_tables(db, tid, 1))
    assert len(seating) == 4
    disputed = len(seating)
    for number, seats in enumerate(seating, 1):
        vps = sweep(seats, winner)
        if number not in (1, disputed):    # tables 2 and 3: the same pages and forms, without the browser
            report_a_table_by_http(phone.request, base_url, number, seats, vps, given)
            continue
        phone.goto(base_url + given[seats[0]]["path"])
        expect(phone.locator("h1")).to_have_text(f"Round 1, table {number}")
        for k, vp in enumerate(vps, 1):
            phone.fill(f"#vp{k}", str(vp))
        phone.get_by_role("button", name="Send to the table").click()
        expect(phone.locator(".flash")).to_contain_text("Your proposal is sent")
        if number == disputed:
            phone.goto(base_url + given[seats[1]]["path"])
            phone.get_by_text("These numbers are wrong").click()
            phone.fill("#me-note", "I ousted my prey before the time limit")
            phone.get_by_role("button", name="Disagree and call a judge").click()
            expect(phone.locator("#me-disputed")).to_contain_text(f"{PLAYERS_BY_ID[seats[1]]} disagreed")
            shot(phone, "event-disputed-phone")
            continue
        for k, pid in enumerate(seats[1:], 1):
            phone.goto(base_url + given[pid]["path"])
            expect(phone.locator("#me-report h2")).to_have_text(f"{PLAYERS_BY_ID[seats[0]]} proposes")
            phone.get_by_role("button", name="Confirm these VP").click()
            if k < len(seats) - 1:
                expect(phone.locator("#me-you-confirmed")).to_be_visible()
        expect(phone.locator("#me-result")).to_contain_text("Result in: every player confirmed it.")
        if number == 1:
            shot(phone, "event-table-counted-phone")
    # the head judge: the call is in the queue; its link opens the table, where they accept
    judge.goto(f"{base_url}/tournaments/{tid}/calls")
    item = judge.locator(".calls-item.is-open")
    expect(item).to_contain_text(f"Table {disputed}")
    expect(item).to_contain_text("Result disagreement")
    item.locator(".calls-settle").click()
    expect(judge.locator("#players-report")).to_contain_text("I ousted my prey before the time limit")
    judge.get_by_role("button", name="Accept the players' VP and lock the table").click()
    expect(judge.locator(".flash").first).to_contain_text("accepted and the table locked")
    judge.goto(f"{base_url}/tournaments/{tid}/calls")
    expect(judge.locator(".calls-item.is-open")).to_have_count(0)
    phone.goto(base_url + given[seating[-1][2]]["path"])
    expect(phone.locator("#me-result")).to_contain_text("the table is locked")
    with_db(app, lambda db: round_flow.close_round(db, tid, 1))


def send_list_by_http(request, url, text):
    """What the phone does for a plain list, as HTTP: the player's page says "Not registered
    yet", its paste form is posted as the browser posts it (its hidden fields, "Send it"), and
    the page it lands on says the list is locked. (The page itself is driven in the browser
    for three players: the first, the one whose list breaks the rules, the unknown card.)"""
    page = request.get(url)
    assert page.ok
    html = page.text()
    assert "Not registered yet" in text_of(html, 'id="me-deck-state"')
    sent = post_form(request, url, html, "deck-form", {"text": text, "action": "submit"})
    assert "It is locked" in text_of(sent, 'id="me-deck-state"')


def report_a_table_by_http(request, base_url, number, seats, vps, given):
    """Round 1's table `number` as the phones do it, as HTTP on the same pages and forms: seat 1
    proposes, the others confirm, each page read for what the browser checks on the tables
    driven in it (the first, and the disputed last)."""
    url = base_url + given[seats[0]]["path"]
    html = request.get(url).text()
    assert re.search(r"<h1>\s*Round 1, table %d\s*</h1>" % number, html), number
    html = post_form(request, url, html, 'id="me-propose"',
                     {f"vp{k}": str(vp) for k, vp in enumerate(vps, 1)})
    assert "Your proposal is sent" in flashes(html)
    for k, pid in enumerate(seats[1:], 1):
        url = base_url + given[pid]["path"]
        html = request.get(url).text()
        assert re.search(r'id="me-report"[^>]*>\s*<h2>(.*?)</h2>', html).group(1) == f"{PLAYERS_BY_ID[seats[0]]} proposes"
        html = post_form(request, url, html, "/confirm", {})
        if k < len(seats) - 1:
            assert 'id="me-you-confirmed"' in html
    assert "Result in: every player confirmed it." in text_of(html, r'id="me-result"')


PLAYERS_BY_ID: dict[int, str] = {}


def test_twenty_lists_three_rounds_tables_reporting_a_penalty_and_the_winners_list(
        browser, page, own_server, own_app, shot):
    base_url = own_server
    tid, pids, given, codes = seed(own_app)
    PLAYERS_BY_ID.update(zip(pids, PLAYERS))
    phone_context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    phone = phone_context.new_page()
    errors: list[str] = []
    phone.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        for k, pid in enumerate(pids):
            if k not in (0, 3, 7):       # the 17 plain lists: the same page and form, without the browser
                send_list_by_http(phone.request, base_url + given[pid]["path"], legal(k))
                continue
            phone.goto(base_url + given[pid]["path"])                 # the player's own page
            expect(phone.locator("#me-deck-state")).to_contain_text("Not registered yet")
            if k == 0:
                shot(phone, "event-player-page-phone")
            if k == 3:
                phone.fill("#deck-text", SHORT_AND_BANNED)
                phone.get_by_role("button", name="Check it").click()
                expect(phone.locator(".deck-problems li[data-code='banned-card']")).to_contain_text("Dramatic Upheaval")
                expect(phone.locator(".deck-problems li[data-code='library-too-small']")).to_be_visible()
            elif k == 7:
                phone.fill("#deck-text", UNKNOWN)
                phone.get_by_role("button", name="Send it").click()
                expect(phone.locator("#deck-error")).to_contain_text("Nothing was stored")
                expect(phone.locator(".deck-problems li[data-code='unknown-card']")).to_contain_text("Did you mean")
                shot(phone, "decks-unknown-card-phone")
                phone.fill("#deck-text", legal(k))
            else:
                phone.fill("#deck-text", legal(k))
            phone.get_by_role("button", name="Send it").click()
            expect(phone.locator("#me-deck-state")).to_contain_text("It is locked")
        shot(phone, "event-player-received-phone")

        sign_in(page, base_url, tid, "Hal Head", codes["head_judge"])
        page.goto(f"{base_url}/tournaments/{tid}/decks")
        expect(page.locator("#missing")).to_contain_text("Every player has registered a list")
        expect(page.locator(f"tr[data-player='{pids[3]}']")).to_contain_text("banned-card")
        expect(page.locator("#deck-links-note a")).to_have_text("Player links")   # no second link
        shot(page, "decks-overview-phone")
        page.get_by_role("link", name=PLAYERS[3]).click()           # a judge reads the list with problems
        expect(page.locator(".deck-problems li[data-code='crypt-too-small']")).to_contain_text("at least 12")
        expect(page.locator(".deck-entries")).to_contain_text("Dramatic Upheaval")
        shot(page, "decks-player-list-phone")

        winner = pids[0]
        checked = []
        for n in (1, 2, 3):
            with_db(own_app, lambda db: round_flow.start_round(db, tid, seed=n))
            page.goto(f"{base_url}/tournaments/{tid}/decks/checks/{n}")
            first = page.locator("#proposed li").first
            expect(first).to_be_visible()
            pid = int(first.get_attribute("data-player"))
            assert pid not in checked                       # never the same player twice unless chosen
            checked.append(pid)
            page.select_option("#chk-player", str(pid))
            if n == 2:
                page.get_by_text("Or paste the deck as counted").click()
                page.fill("#chk-counted", "12x Nathan Turner\n20x Blood Doll\n38x Bum's Rush")
            page.fill("#chk-min", "4")
            page.get_by_role("button", name="Record the check").click()
            expect(page.locator(".flash").first).to_contain_text("Deck check of")
            check = page.locator("#done article.deck-check")
            expect(check).to_have_count(1)
            if n == 2:
                expect(check).to_have_attribute("data-outcome", "differs")
                check.get_by_text("Penalty…").click()
                check.get_by_role("button", name="Illegal Main Deck (Legal Decklist)").click()
                expect(page.locator(".flash").first).to_contain_text("Penalty recorded")
                expect(page.locator("#done article.deck-check")).to_contain_text("Penalty recorded")
            else:
                expect(check).to_have_attribute("data-outcome", "matches")
            if n == 1:
                report_round_one_on_phones(phone, page, base_url, own_app, tid, winner, given, shot)
            else:
                report_through_the_store(own_app, tid, n, winner, given)
        sources = with_db(own_app, lambda db: [r[0] for r in db.execute(
            "select kind from tournament_results order by id").fetchall()])
        assert sources.count("reported") == 11 and sources.count("entered") == 1   # 12 tables; 1 by the judge

        page.goto(f"{base_url}/tournaments/{tid}/decks/published")
        expect(page.locator("main")).to_contain_text("No decklist of this event is published")  # not before the end
        play_final(own_app, tid, winner)
        sign_in(page, base_url, tid, "Olga Org", codes["organizer"])
        page.goto(f"{base_url}/tournaments/{tid}/decks")
        page.get_by_role("button", name="Publish the winner's and finalists' lists").click()
        expect(page.locator(".flash").first).to_contain_text("5 decklists published")
        page.get_by_role("link", name="Published lists (5)").click()
        expect(page.locator(".published-deck")).to_have_count(5)
        expect(page.locator(".published-deck h2").first).to_contain_text(PLAYERS[0])
        expect(page.locator(".published-deck h2").first).to_contain_text("winner")
        expect(page.locator(".published-deck pre").first).to_contain_text("Crypt (12 cards")
        shot(page, "decks-published-phone")
        text = page.request.get(f"{base_url}/tournaments/{tid}/decks/published.txt").text()
        assert text.startswith("Deck Event") and "20 players" in text and PLAYERS[0] in text
        assert "20x Blood Doll" in text and "Library (60 cards)" in text
        assert not errors, errors
    finally:
        phone_context.close()
