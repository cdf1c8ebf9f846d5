"""Tables report their own result, on phones (issue 29 part 2): at a table of 5 one player
proposes the VP from their own link, the four others confirm on their phones and the result
counts; at a table of 4 a player disagrees, the call appears in the judges' queue, and a
judge accepts the proposal, which locks the table."""
from __future__ import annotations

from playwright.sync_api import expect

from judgekit.auth import store as auth_store
from judgekit.db import open_db
from judgekit.tournament.store import base, player_links, registration, round_flow

EVERY_S = 4   # how often a player's page asks whether the table's report changed (me.js, data-every)


def seed(app):
    db = open_db(app.config["DATABASE"])
    try:
        tid = registration.create_tournament(db, {"name": "Phone Report Open"})
        for k, name in enumerate(["Ana", "Bruno", "Carla", "Dario", "Eva", "Filip", "Greta", "Hugo", "Ines"]):
            registration.add_player(db, tid, {"name": name, "vekn": str(9300000 + k)})
        round_flow.start_round(db, tid, seed=11)
        seating = base.round_tables(db, tid, 1)
        names = {p["id"]: p["name"] for p in base.players(db, tid)}
        links = {pid: player_links.issue(db, tid, pid, by="desk")["path"] for pid in names}
        return tid, seating, names, links, auth_store.issue_codes(db, tid)
    finally:
        db.close()


def phone(browser, bypass_csp=False):
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True,
                                  device_scale_factor=2, bypass_csp=bypass_csp)   # the pages' CSP in force
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if "Content Security Policy" in m.text else None)
    page.js_errors = errors
    return context, page


def test_a_table_of_five_reports_and_confirms_its_own_result(browser, own_server, own_app, shot):
    tid, seating, names, links, _ = seed(own_app)
    five = next(t for t in seating if len(t) == 5)
    phones = [phone(browser) for _ in five]
    try:
        proposer = phones[0][1]
        proposer.goto(own_server + links[five[0]])
        expect(proposer.locator("h1")).to_have_text("Round 1, table 1")
        shot(proposer, "self-report-propose-phone")
        for k, vp in enumerate(["3", "1", "1", "0", "0"], 1):
            proposer.fill(f"#vp{k}", vp)
        proposer.get_by_role("button", name="Send to the table").click()
        expect(proposer.locator(".flash")).to_contain_text("Your proposal is sent")
        expect(proposer.locator("#me-you-confirmed")).to_be_visible()
        expect(proposer.locator("#me-waiting")).to_contain_text(f"Waiting for {names[five[1]]}")
        for k, pid in enumerate(five[1:], 1):
            page = phones[k][1]
            page.goto(own_server + links[pid])
            expect(page.locator("#me-report h2")).to_have_text(f"{names[five[0]]} proposes")
            if k == 1:
                shot(page, "self-report-confirm-phone")
            page.get_by_role("button", name="Confirm these VP").click()
            if k < 4:
                expect(page.locator("#me-you-confirmed")).to_be_visible()
        last = phones[4][1]
        expect(last.locator(".flash")).to_contain_text("every player confirmed it")
        expect(last.locator("#me-result")).to_contain_text("Result in: every player confirmed it.")
        shot(last, "self-report-counted-phone")
        # the proposer's page, left open, follows by itself (it asks every EVERY_S, in real time)
        expect(proposer.locator("#me-result")).to_contain_text("Result in", timeout=EVERY_S * 5000)
        expect(proposer.locator("#me-result li").first).to_contain_text("3 VP")
        assert not proposer.get_by_role("button", name="Send to the table").count()
        for _, p in phones:
            assert not p.js_errors, p.js_errors
    finally:
        for context, _ in phones:
            context.close()


def test_a_disagreement_reaches_the_judges_queue_and_a_judge_settles_it(browser, own_server, own_app, shot):
    tid, seating, names, links, codes = seed(own_app)
    four = next(t for t in seating if len(t) == 4)
    table_no = seating.index(four) + 1
    # c: the third player, on a phone of their own (b's page, left open, reloads by itself
    # once the judge has stored the result, and a navigation of it then was cut short in a CI run)
    (ca, a), (cb, b), (cj, judge), (cc, c) = phone(browser), phone(browser), phone(browser), phone(browser)
    try:
        a.goto(own_server + links[four[0]])
        for k, vp in enumerate(["2", "1", "1", "0"], 1):
            a.fill(f"#vp{k}", vp)
        a.get_by_role("button", name="Send to the table").click()
        expect(a.locator("#me-you-confirmed")).to_be_visible()
        b.goto(own_server + links[four[1]])
        b.get_by_text("These numbers are wrong").click()
        b.fill("#me-note", "I ousted my prey: 2 VP")
        b.get_by_role("button", name="Disagree and call a judge").click()
        expect(b.locator(".flash")).to_contain_text("A judge is called")
        expect(b.locator("#me-disputed")).to_contain_text(f"{names[four[1]]} disagreed")
        shot(b, "self-report-disputed-phone")
        # a second proposal while this one waits is refused, saying why
        expect(b.get_by_role("button", name="Send to the table")).to_have_count(0)
        # the judge: the call is in the queue, the table page shows the report
        judge.goto(f"{own_server}/tournaments/{tid}/sign-in")
        judge.fill("#si-name", "Jo Judge")
        judge.fill("#si-code", codes["judge"])
        judge.get_by_role("button", name="Sign in").click()
        expect(judge.locator(".flash").first).to_contain_text("Signed in")
        judge.goto(f"{own_server}/tournaments/{tid}/rounds/1")
        expect(judge.locator(f'[aria-label="Table {table_no}"] [data-players-report]')).to_have_text("players disagree")
        judge.goto(f"{own_server}/tournaments/{tid}/calls")
        item = judge.locator(".calls-item.is-open")
        expect(item).to_contain_text(f"Table {table_no}")
        expect(item).to_contain_text("Result disagreement")
        shot(judge, "self-report-judges-queue-phone")
        item.locator(".calls-settle").click()
        expect(judge).to_have_url(f"{own_server}/tournaments/{tid}/rounds/1/tables/{table_no}")
        expect(judge.locator("#players-report")).to_contain_text("I ousted my prey: 2 VP")
        shot(judge, "self-report-judge-table-phone")
        judge.get_by_role("button", name="Accept the players' VP and lock the table").click()
        expect(judge.locator(".flash")).to_contain_text("accepted and the table locked")
        judge.goto(f"{own_server}/tournaments/{tid}/calls")
        expect(judge.locator(".calls-item.is-open")).to_have_count(0)
        # the players' pages follow: locked by the judge, nothing more to send (a's page, left
        # open, asks every EVERY_S, in real time)
        expect(a.locator("#me-result")).to_contain_text("Result stored by a judge (Jo Judge)", timeout=EVERY_S * 5000)
        c.goto(own_server + links[four[2]])
        expect(c.locator("#me-result")).to_contain_text("the table is locked")
        expect(c.get_by_role("button", name="Confirm these VP")).to_have_count(0)
        shot(c, "self-report-locked-phone")
        assert not a.js_errors and not b.js_errors and not c.js_errors and not judge.js_errors
    finally:
        # each page left first for a blank one, then its context closed: a fresh-clone CI run
        # (6 Dec 2026) hung 300 s in `context.close()` here, most likely on a player's page
        # reloading itself (its poll) as it closed; a navigation has a timeout, a close none
        for context, page in ((ca, a), (cb, b), (cj, judge), (cc, c)):
            try:
                page.goto("about:blank", timeout=5_000)
            except Exception:       # (cleanup: the test's own assertions have been made)
                pass
            context.close()


def test_the_desk_gives_a_player_their_link(browser, own_server, own_app, shot):
    tid, seating, names, links, codes = seed(own_app)
    context, page = phone(browser)
    try:
        page.goto(f"{own_server}/tournaments/{tid}/sign-in")
        page.fill("#si-name", "Desk Judge")
        page.fill("#si-code", codes["judge"])
        page.get_by_role("button", name="Sign in").click()
        expect(page.locator(".flash").first).to_contain_text("Signed in")
        page.goto(f"{own_server}/tournaments/{tid}")
        page.locator("#player-links-note a").click()
        expect(page.locator("h1")).to_have_text("Player links")
        pid = seating[0][2]
        page.get_by_role("button", name=f"New link for {names[pid]}").click()
        expect(page.locator("#link-given")).to_contain_text(f"{names[pid]}'s link")
        shot(page, "self-report-player-links-phone")
        page.locator("#link-url").click()
        expect(page.locator("h1")).to_have_text("Round 1, table 1")
        expect(page.get_by_text(f"You: {names[pid]}")).to_be_visible()
        page.goto(own_server + links[pid])   # the link given before stops working
        expect(page.locator("#me-error")).to_contain_text("replaced by a newer one")
        shot(page, "self-report-replaced-link-phone")
        assert not page.js_errors, page.js_errors
    finally:
        context.close()


def test_a_player_gets_their_own_link_when_checking_in_on_their_phone(browser, own_server, own_app, shot):
    from judgekit.tournament.store import checkin as checkin_store
    db = open_db(own_app.config["DATABASE"])
    try:
        tid = registration.create_tournament(db, {"name": "Check-in Link Cup"})
        registration.add_player(db, tid, {"name": "Zoe Late", "vekn": "9400001", "checked_in": False})
        state = checkin_store.open_checkin(db, tid)
    finally:
        db.close()
    context, page = phone(browser)
    try:
        page.goto(own_server + state["path"])
        page.fill("#ci-who", "9400001")
        page.get_by_role("button", name="Check in").click()
        expect(page.locator("#checkin-answer")).to_contain_text("Zoe Late is checked in")
        expect(page.locator("#own-link")).to_contain_text("Your own link")
        shot(page, "self-report-checkin-link-phone")
        page.locator("#own-link-url").click()
        expect(page.locator("#me-idle")).to_contain_text("not seated in a round being played")
        assert not page.js_errors, page.js_errors
    finally:
        context.close()


def test_the_self_report_pages_pass_axe(browser, own_server, own_app):
    import json

    from test_accessibility import axe_violations
    tid, seating, names, links, codes = seed(own_app)
    four = next(t for t in seating if len(t) == 4)
    context, page = phone(browser, bypass_csp=True)   # axe is injected as an inline script
    try:
        checked = {}
        page.goto(own_server + links[four[0]])
        page.wait_for_load_state("networkidle")
        checked["propose"] = axe_violations(page)
        for k, vp in enumerate(["2", "1", "1", "0"], 1):
            page.fill(f"#vp{k}", vp)
        page.get_by_role("button", name="Send to the table").click()
        expect(page.locator("#me-you-confirmed")).to_be_visible()
        page.goto(own_server + links[four[1]])
        expect(page.get_by_role("button", name="Confirm these VP")).to_be_visible()
        page.wait_for_load_state("networkidle")
        checked["confirm"] = axe_violations(page)
        page.goto(own_server + "/tournaments/%d/me/unknown" % tid)
        checked["unknown link"] = axe_violations(page)
        assert {k: v for k, v in checked.items() if v} == {}, json.dumps(checked, indent=1)
    finally:
        context.close()
