"""The decklist side of a whole event, in the browser (issue 29's flow, part 1): 20 players
register their lists by paste from their own links on a phone (one list breaks the size rules
and the banned list and is received with its problems named; one names a card that does not
exist and is refused with the nearest names, then sent fixed); three rounds, each with a deck
check from the head judge's page (round 2's differs and becomes a penalty in two taps); after
the final the organizer publishes the winner's and the finalists' lists, exported in the
TWDA's format. The results, the toss and the final's seating go through the store (part 2,
tables reporting, is elsewhere)."""
from __future__ import annotations

from playwright.sync_api import expect

from judgekit.auth import store as auth_store
from judgekit.db import open_db
from judgekit.decks import store as dstore
from judgekit.tournament.store import finals, ranking, registration, round_flow
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
        links = [f"/tournaments/{tid}/decks/mine/{p}/{dstore.player_token(db, tid, p)}" for p in pids]
        return tid, pids, links, auth_store.issue_codes(db, tid)
    return with_db(app, go)


def play_round(app, tid, n, winner):
    """Round n: the winner's table is theirs (a sweep), every other table seat 1's."""
    def go(db):
        r = table_store.round_detail(db, tid, n, games=False)
        for t in r["tables"]:
            seats = [s["player_id"] for s in t["seats"]]
            top = winner if winner in seats else seats[0]
            table_store.enter_result(db, tid, n, t["number"], [len(seats) if p == top else 0 for p in seats])
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


def test_twenty_lists_three_rounds_of_checks_a_penalty_and_the_winners_list(page, own_server, own_app, shot):
    base = own_server
    tid, pids, links, codes = seed(own_app)

    for k, link in enumerate(links):
        page.goto(base + link)
        if k == 3:
            page.fill("#deck-text", SHORT_AND_BANNED)
            page.get_by_role("button", name="Check it").click()
            expect(page.locator(".deck-problems li[data-code='banned-card']")).to_contain_text("Dramatic Upheaval")
            expect(page.locator(".deck-problems li[data-code='library-too-small']")).to_be_visible()
        elif k == 7:
            page.fill("#deck-text", UNKNOWN)
            page.get_by_role("button", name="Send it").click()
            expect(page.locator("#deck-error")).to_contain_text("Nothing was stored")
            expect(page.locator(".deck-problems li[data-code='unknown-card']")).to_contain_text("Did you mean")
            shot(page, "decks-unknown-card-phone")
            page.fill("#deck-text", legal(k))
        else:
            page.fill("#deck-text", legal(k))
        page.get_by_role("button", name="Send it").click()
        expect(page.locator("#deck-answer")).to_contain_text("It is locked")

    sign_in(page, base, tid, "Hal Head", codes["head_judge"])
    page.goto(f"{base}/tournaments/{tid}/decks")
    expect(page.locator("#missing")).to_contain_text("Every player has registered a list")
    expect(page.locator(f"tr[data-player='{pids[3]}']")).to_contain_text("banned-card")
    shot(page, "decks-overview-phone")
    page.get_by_role("link", name=PLAYERS[3]).click()           # a judge reads the list with problems
    expect(page.locator(".deck-problems li[data-code='crypt-too-small']")).to_contain_text("at least 12")
    expect(page.locator(".deck-entries")).to_contain_text("Dramatic Upheaval")
    shot(page, "decks-player-list-phone")

    winner = pids[0]
    checked = []
    for n in (1, 2, 3):
        with_db(own_app, lambda db: round_flow.start_round(db, tid, seed=n))
        page.goto(f"{base}/tournaments/{tid}/decks/checks/{n}")
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
        play_round(own_app, tid, n, winner)

    page.goto(f"{base}/tournaments/{tid}/decks/published")
    expect(page.locator("main")).to_contain_text("No decklist of this event is published")  # not before the end
    play_final(own_app, tid, winner)
    sign_in(page, base, tid, "Olga Org", codes["organizer"])
    page.goto(f"{base}/tournaments/{tid}/decks")
    page.get_by_role("button", name="Publish the winner's and finalists' lists").click()
    expect(page.locator(".flash").first).to_contain_text("5 decklists published")
    page.get_by_role("link", name="Published lists (5)").click()
    expect(page.locator(".published-deck")).to_have_count(5)
    expect(page.locator(".published-deck h2").first).to_contain_text(PLAYERS[0])
    expect(page.locator(".published-deck h2").first).to_contain_text("winner")
    expect(page.locator(".published-deck pre").first).to_contain_text("Crypt (12 cards")
    shot(page, "decks-published-phone")
    text = page.request.get(f"{base}/tournaments/{tid}/decks/published.txt").text()
    assert text.startswith("Deck Event") and "20 players" in text and PLAYERS[0] in text
    assert "20x Blood Doll" in text and "Library (60 cards)" in text
