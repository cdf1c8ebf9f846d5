"""Decklists on phones (360 px): a player opens their own link (their page, the one link they
get: `player_links`), pastes a list whose crypt breaks the grouping rule (the check names the
rule), pastes a legal one and sends it (then it is locked, and their page says so); round 1 starts; the head judge opens the round's deck checks, records that a
deck differs from its list (the table gets the check's time), and links the finding to a
penalty from the catalog in two taps."""
from __future__ import annotations

from playwright.sync_api import expect

from judgekit.auth import store as auth_store
from judgekit.db import open_db
from judgekit.decks import store as dstore
from judgekit.tournament.store import player_links, registration, round_flow

NAMES = ["Ana", "Bruno", "Carla", "Dario", "Elsa", "Filip", "Gina", "Hugo"]
GROUPS = "Crypt (12)\n6x Nathan Turner\n6x Anson (G1)\nLibrary (60)\n60x Bum's Rush"
LEGAL = "Crypt (12)\n12x Nathan Turner\n\nLibrary (60)\n20x Blood Doll\n40x Bum's Rush"


def seed(app):
    db = open_db(app.config["DATABASE"])
    try:
        tid = registration.create_tournament(db, {"name": "Deck Open"})
        pids = [registration.add_player(db, tid, {"name": n, "vekn": str(7200000 + k)})["id"]
                for k, n in enumerate(NAMES)]
        for pid in pids[1:]:
            dstore.submit(db, tid, pid, LEGAL, by="organizer", how="organizer")
        link = player_links.issue(db, tid, pids[0], by="desk")["path"]
        return tid, pids, link, auth_store.issue_codes(db, tid)
    finally:
        db.close()


def start_round(app, tid):
    db = open_db(app.config["DATABASE"])
    try:
        round_flow.start_round(db, tid, seed=5)
    finally:
        db.close()


def test_register_validate_check_penalty(page, own_server, own_app, shot):
    base = own_server
    tid, pids, link, codes = seed(own_app)

    page.goto(base + link)
    expect(page.locator("#me-deck-state")).to_contain_text("Not registered yet")
    shot(page, "decks-player-page-phone")
    page.fill("#deck-text", GROUPS)
    page.get_by_role("button", name="Check it").click()
    problem = page.locator(".deck-problems li[data-code='crypt-groups']")
    expect(problem).to_contain_text("at most two consecutive groups")
    shot(page, "decks-player-check-phone")
    page.fill("#deck-text", LEGAL)
    page.get_by_role("button", name="Send it").click()
    expect(page).to_have_url(f"{base}{link}#me-deck")                 # back on their page
    expect(page.locator("#me-deck-state")).to_contain_text("It is locked")
    shot(page, "decks-player-received-phone")
    page.locator("#me-deck-link").click()
    expect(page.locator("#deck-answer")).to_contain_text("It is locked")
    expect(page.locator(".deck-entries")).to_contain_text("Blood Doll")

    start_round(own_app, tid)
    page.goto(f"{base}/tournaments/{tid}/sign-in")
    page.fill("#si-name", "Hal Head")
    page.fill("#si-code", codes["head_judge"])
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator(".flash").first).to_contain_text("Signed in")
    page.goto(f"{base}/tournaments/{tid}/decks")
    expect(page.locator("#missing")).to_contain_text("Every player has registered a list")
    page.get_by_role("link", name="Round 1").click()
    expect(page.locator("#proposed li")).to_have_count(3)
    shot(page, "decks-checks-phone")
    page.select_option("#chk-player", str(pids[0]))
    page.get_by_label("It differs").check()
    page.fill("#chk-diff", "2 Bum's Rush missing from the library")
    page.fill("#chk-min", "6")
    page.get_by_role("button", name="Record the check").click()
    expect(page.locator(".flash").first).to_contain_text("extended by 6 min")
    check = page.locator("article.deck-check[data-outcome='differs']")
    expect(check).to_contain_text("Ana")
    check.get_by_text("Penalty…").click()                                         # tap 1
    check.get_by_role("button", name="Illegal Main Deck (Legal Decklist)").click()  # tap 2
    expect(page.locator(".flash").first).to_contain_text("Penalty recorded")
    expect(page.locator("article.deck-check[data-outcome='differs']")).to_contain_text("Penalty recorded")
    shot(page, "decks-check-penalty-phone")
