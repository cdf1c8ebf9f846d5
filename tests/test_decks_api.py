"""Decklists over the API and the pages: registration from the player's own link (the one
`player_links` gives: `/tournaments/<id>/me/<token>/deck`) and by the organizer, the lock, corrections, bad input, deck checks with their penalty and extension,
privacy and publication."""
from __future__ import annotations

import re

import pytest

from tests import decks_lists as L

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)


@pytest.fixture
def world(client):
    r = client.post("/api/tournaments", json={"name": "Deck Cup"})
    tid, org = r.get_json()["id"], {"Authorization": "Bearer " + r.get_json()["token"]}
    players = client.post(f"/api/tournaments/{tid}/players", headers=org,
                          json=[{"name": f"P{k}", "vekn": str(500 + k)} for k in range(8)]).get_json()["players"]
    return {"tid": tid, "org": org, "pids": [p["id"] for p in players]}


def link_of(client, world, pid):
    """The player's own link (the desk gives it), as the organizer's Decklists page no longer
    lists links: `/tournaments/<id>/me/<token>`."""
    r = client.post(f"/api/tournaments/{world['tid']}/players/{pid}/link", headers=world["org"])
    assert r.status_code == 201
    return r.get_json()["path"]


def deck_of(link):
    return link + "/deck"


def api_of(link):
    return "/api" + link + "/deck"


def rows(app, sql, args=()):
    from judgekit.db import open_db
    db = open_db(app.config["DATABASE"])
    try:
        return db.execute(sql, args).fetchall()
    finally:
        db.close()


def test_player_submits_from_their_link_then_it_is_locked(app, client, world):
    pid = world["pids"][0]
    link = link_of(client, world, pid)
    r = client.post(api_of(link), json={"text": L.TWDA, "client_id": "a1"})
    assert r.status_code == 201 and r.get_json()["decklist"]["problems"] == []
    assert r.headers["Cache-Control"] == "private, no-store"
    assert client.get(deck_of(link)).headers["Cache-Control"] == "private, no-store"
    assert client.get(link).headers["Cache-Control"] == "private, no-store"
    state = client.get(api_of(link)).get_json()
    assert state["open"] is True and state["decklist"]["client_id"] == "a1"
    again = client.post(api_of(link), json={"text": L.TWDA, "client_id": "a1"})   # a retried POST
    assert again.status_code == 200 and again.get_json()["duplicate"] is True
    second = client.post(api_of(link), json={"text": L.legal(3)})
    assert second.status_code == 409 and second.get_json()["code"] == "locked"
    assert rows(app, "select count(*) from decklists where player_id = ?", [pid])[0][0] == 1


@pytest.mark.own_app  # it counts the decklists of the whole database
@pytest.mark.parametrize("token", ["0" * 22, "abc", "x" * 200])
def test_a_guessed_link_is_refused_and_stores_nothing(app, client, world, token):
    r = client.post(f"/api/tournaments/{world['tid']}/me/{token}/deck", json={"text": L.legal()})
    assert r.status_code == 404 and "not known" in r.get_json()["error"]
    page = client.get(f"/tournaments/{world['tid']}/me/{token}/deck")
    assert page.status_code == 404 and "not known" in page.get_data(as_text=True)
    assert rows(app, "select count(*) from decklists")[0][0] == 0


@pytest.mark.own_app  # it counts the decklists of the whole database
def test_a_replaced_link_no_longer_takes_a_list(app, client, world):
    pid = world["pids"][1]
    old = link_of(client, world, pid)
    new = link_of(client, world, pid)            # a lost phone: the desk gives a new link
    r = client.post(api_of(old), json={"text": L.legal()})
    assert r.status_code == 410 and "replaced" in r.get_json()["error"]
    assert client.get(deck_of(old)).status_code == 410
    assert rows(app, "select count(*) from decklists")[0][0] == 0
    assert client.post(api_of(new), json={"text": L.legal()}).status_code == 201


def test_a_device_guessing_links_is_slowed_down(client, world):
    codes = [client.post(f"/api/tournaments/{world['tid']}/me/guess{k}/deck", json={"text": L.legal()}).status_code
             for k in range(30)]
    assert codes[0] == 404 and codes[-1] == 429


def test_a_refused_list_does_not_count_as_a_wrong_link(client, world):
    link = link_of(client, world, world["pids"][6])
    codes = [client.post(api_of(link), json={"text": "hello"}).status_code for _ in range(30)]
    assert set(codes) == {422}


@pytest.mark.parametrize("text, status, code", [
    ("12x Nathan Turner\n" * 10_000, 413, "too-long"),
    ("hello\nthis is not a list", 422, "unknown-format"),
    (L.UNKNOWN, 422, "unknown-card"),
])
@pytest.mark.own_app  # it counts the decklists of the whole database
def test_bad_lists_are_refused_with_the_reason(app, client, world, text, status, code):
    link = link_of(client, world, world["pids"][2])
    r = client.post(api_of(link), json={"text": text})
    assert r.status_code == status and r.get_json()["code"] == code
    if code == "unknown-card":
        assert r.get_json()["unknown"][0]["line"] == 5
    assert rows(app, "select count(*) from decklists")[0][0] == 0


def test_a_list_with_rule_problems_is_received_and_its_problems_named(client, world):
    pid = world["pids"][3]
    r = client.post(f"/api/tournaments/{world['tid']}/decks/{pid}", headers=world["org"],
                    json={"text": L.SHORT_AND_BANNED})
    assert r.status_code == 201
    assert {p["code"] for p in r.get_json()["decklist"]["problems"]} == {
        "banned-card", "library-too-small", "crypt-too-small"}
    ov = client.get(f"/api/tournaments/{world['tid']}/decks", headers=world["org"]).get_json()
    assert len(ov["missing"]) == 7 and pid not in {p["player_id"] for p in ov["missing"]}


def test_a_judge_corrects_with_a_reason_and_the_history_keeps_both(client, world, signed_in):
    tid, pid = world["tid"], world["pids"][4]
    client.post(f"/api/tournaments/{tid}/decks/{pid}", headers=world["org"], json={"text": L.legal(0)})
    signed_in(client, tid, "judge", name="Jo")
    no_reason = client.post(f"/api/tournaments/{tid}/decks/{pid}/correct", json={"text": L.legal(1)})
    assert no_reason.status_code == 400 and no_reason.get_json()["field"] == "reason"
    ok = client.post(f"/api/tournaments/{tid}/decks/{pid}/correct",
                     json={"text": L.legal(1), "reason": "player wrote 20 Blood Doll, deck had 21"})
    assert ok.status_code == 201
    hist = client.get(f"/api/tournaments/{tid}/decks/{pid}").get_json()["history"]
    assert [h["kind"] for h in hist] == ["submit", "correct"] and hist[1]["refers_to"] == hist[0]["id"]
    assert hist[1]["by"] == "Jo"


def test_lists_are_for_judges_only_until_published(client, world):
    tid, pid = world["tid"], world["pids"][0]
    client.post(f"/api/tournaments/{tid}/decks/{pid}", headers=world["org"], json={"text": L.legal()})
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    assert client.get(f"/api/tournaments/{tid}/decks").status_code == 401
    assert client.get(f"/api/tournaments/{tid}/decks/{pid}").status_code == 401
    assert client.get(f"/api/tournaments/{tid}/decks/published").get_json() == {"published": []}
    pub = client.post(f"/api/tournaments/{tid}/decks/publish", headers=world["org"])
    assert pub.status_code == 409 and "not over" in pub.get_json()["error"]


def test_player_link_closes_when_round_one_starts(client, world):
    link = link_of(client, world, world["pids"][5])
    client.post(f"/api/tournaments/{world['tid']}/rounds", headers=world["org"], json={"seed": 1})
    r = client.post(api_of(link), json={"text": L.legal()})
    assert r.status_code == 409 and r.get_json()["code"] == "closed"


def test_deck_check_penalty_and_extension(app, client, world, signed_in):
    tid, org = world["tid"], world["org"]
    for k, pid in enumerate(world["pids"]):
        assert client.post(f"/api/tournaments/{tid}/decks/{pid}", headers=org, json={"text": L.legal(k)}).status_code == 201
    client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 1})
    signed_in(client, tid, "head_judge", name="Hanna")
    prop = client.get(f"/api/tournaments/{tid}/decks/checks/1").get_json()
    assert len(prop["proposed"]) == 3 and len(prop["players"]) == 8
    assert client.get(f"/api/tournaments/{tid}/decks/checks/1").get_json()["proposed"] == prop["proposed"]
    target = prop["proposed"][0]
    missing = client.post(f"/api/tournaments/{tid}/decks/checks/1",
                          json={"player": target["player_id"], "outcome": "differs"})
    assert missing.status_code == 400 and missing.get_json()["field"] == "differences"
    r = client.post(f"/api/tournaments/{tid}/decks/checks/1",
                    json={"player": target["player_id"], "outcome": "differs", "minutes": 6,
                          "differences": "2 Bum's Rush missing", "client_id": "c1"})
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["extension"]["extended_min"] == 6
    cid = body["check"]["id"]
    again = client.post(f"/api/tournaments/{tid}/decks/checks/1",
                        json={"player": target["player_id"], "outcome": "differs", "minutes": 6,
                              "differences": "2 Bum's Rush missing", "client_id": "c1"})
    assert again.status_code == 200 and again.get_json()["duplicate"] is True
    pen = client.post(f"/api/tournaments/{tid}/decks/checks/1/{cid}/penalty",
                      json={"infraction": "illegal-main-deck-legal-decklist"})
    assert pen.status_code == 201
    rec = pen.get_json()["penalty"]
    assert rec["player"] == target["player_id"] and rec["round"] == 1 and "Bum's Rush" in rec["description"]
    twice = client.post(f"/api/tournaments/{tid}/decks/checks/1/{cid}/penalty",
                        json={"infraction": "illegal-main-deck-legal-decklist"})
    assert twice.status_code == 200
    assert rows(app, "select count(*) from penalty_records where client_id like 'deck-check:%'")[0][0] == 1
    after = client.get(f"/api/tournaments/{tid}/decks/checks/1").get_json()
    assert target["player_id"] not in {p["player_id"] for p in after["proposed"]}
    assert after["checks"][0]["penalties"] == [rec["id"]]


def test_a_plain_judge_cannot_run_checks(client, world, signed_in):
    client.post(f"/api/tournaments/{world['tid']}/rounds", headers=world["org"], json={"seed": 1})
    signed_in(client, world["tid"], "judge")
    assert client.get(f"/api/tournaments/{world['tid']}/decks/checks/1").status_code == 403


def test_after_the_event_the_winners_list_is_published_in_twda_format(client):
    created = client.post("/api/tournaments", json={"name": "One Table", "rounds_planned": 2, "has_final": False,
                                                     "date": "2026-11-28"})
    assert created.status_code == 201, created.get_json()
    tid, org = created.get_json()["id"], {"Authorization": "Bearer " + created.get_json()["token"]}
    pids = [p["id"] for p in client.post(f"/api/tournaments/{tid}/players", headers=org, json=[
        {"name": f"Q{k}", "vekn": str(700 + k)} for k in range(5)]).get_json()["players"]]
    for k, pid in enumerate(pids):
        client.post(f"/api/tournaments/{tid}/decks/{pid}", headers=org, json={"text": L.legal(k)})
    rnd = client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 1}).get_json()
    winner = rnd["tables"][0]["seats"][0]["player_id"]
    assert client.post(f"/api/tournaments/{tid}/rounds/1/tables/1/result", headers=org,
                       json={"vps": [5, 0, 0, 0, 0]}).status_code == 201
    closed = client.post(f"/api/tournaments/{tid}/rounds/1/close", headers=org, json={})
    assert closed.status_code == 200, closed.get_json()
    seats = [s["player_id"] for s in client.post(f"/api/tournaments/{tid}/rounds", headers=org,
                                                 json={"seed": 2}).get_json()["tables"][0]["seats"]]
    assert client.post(f"/api/tournaments/{tid}/rounds/2/tables/1/result", headers=org,
                       json={"vps": [5 if p == winner else 0 for p in seats]}).status_code == 201
    assert client.post(f"/api/tournaments/{tid}/rounds/2/close", headers=org, json={}).status_code == 200
    pub = client.post(f"/api/tournaments/{tid}/decks/publish", headers=org)
    assert pub.status_code == 200
    lists = pub.get_json()["published"]
    assert [x["player_id"] for x in lists] == [winner] and lists[0]["finish"] == "winner"
    assert lists[0]["twda"].startswith("One Table\nNovember 28th 2026\n5 players") and "Crypt (12 cards" in lists[0]["twda"]
    client.environ_base.pop("HTTP_AUTHORIZATION", None)
    text = client.get(f"/tournaments/{tid}/decks/published.txt")
    assert text.status_code == 200 and "Library (60 cards)" in text.get_data(as_text=True)
    loser = next(p for p in pids if p != winner)
    assert client.get(f"/api/tournaments/{tid}/decks/{loser}").status_code == 401


def csrf_of(client, path) -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).get_data(as_text=True)).group(1)


@pytest.mark.own_app  # it counts the decklists of the whole database
def test_check_in_by_phone_hands_the_player_one_link_for_their_decklist(app, client, world, signed_in):
    tid = world["tid"]
    late = client.post(f"/api/tournaments/{tid}/players", headers=world["org"],
                       json=[{"name": "Late Lia", "vekn": "599", "checked_in": False}]).get_json()["players"][0]
    token = signed_in(client, tid, "organizer", how="session")
    client.post(f"/tournaments/{tid}/check-in/open", data={"csrf_token": token})
    state = client.get(f"/api/tournaments/{tid}/check-in", headers=world["org"]).get_json()
    phone = app.test_client()
    tok = csrf_of(phone, state["path"])
    r = phone.post(f"/tournaments/{tid}/check-in", data={"csrf_token": tok, "code": state["code"],
                                                         "w": state["window"], "who": "599"})
    html = r.get_data(as_text=True)
    assert 'id="deck-link"' not in html and "/decks/mine/" not in html      # one link, not two
    link = re.search(r'href="([^"]+)" id="own-link-url"', html).group(1)
    assert link.startswith(f"/tournaments/{tid}/me/")
    me = phone.get(link).get_data(as_text=True)
    assert 'id="me-deck"' in me and "Not registered yet" in me
    assert f'action="{link}/deck"' in me                                   # the paste form is on the page
    page = phone.post(deck_of(link), data={"csrf_token": tok, "text": L.GROUPS, "action": "check"})
    assert page.status_code == 200 and 'data-code="crypt-groups"' in page.get_data(as_text=True)
    assert rows(app, "select count(*) from decklists")[0][0] == 0           # a check stores nothing
    sent = phone.post(deck_of(link), data={"csrf_token": tok, "text": L.legal(), "action": "submit", "client_id": "9"})
    assert sent.status_code == 302 and sent.headers["Location"].endswith(link + "#me-deck")
    again = phone.post(deck_of(link), data={"csrf_token": tok, "text": L.legal(2), "action": "submit", "client_id": "10"})
    assert again.status_code == 409 and "locked" in again.get_data(as_text=True)
    assert rows(app, "select count(*) from decklists")[0][0] == 1
    assert rows(app, "select player_id, how, by from decklists")[0] == (late["id"], "player-link", "Late Lia")
    me = phone.get(link).get_data(as_text=True)
    assert 'id="me-deck-state"' in me and "Received" in me and 'id="deck-text"' not in me


def test_the_decklists_page_lists_no_links_and_points_to_the_player_links_page(client, world):
    html = client.get(f"/tournaments/{world['tid']}/decks", headers=world["org"]).get_data(as_text=True)
    assert "/me/" not in html and "/decks/mine/" not in html
    assert f'href="/tournaments/{world["tid"]}/player-links"' in html


def test_a_counted_deck_is_compared_card_by_card(client, world, signed_in):
    tid, org, pid = world["tid"], world["org"], world["pids"][0]
    client.post(f"/api/tournaments/{tid}/decks/{pid}", headers=org, json={"text": L.legal(0)})   # 20 Doll, 40 Rush
    client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 1})
    signed_in(client, tid, "head_judge")
    same = client.post(f"/api/tournaments/{tid}/decks/checks/1", json={"player": pid, "counted": L.legal(0)})
    assert same.status_code == 201 and same.get_json()["check"]["outcome"] == "matches"
    counted = "12x Nathan Turner\n20x Blood Doll\n38x Bum's Rush\n2x Deflection"
    r = client.post(f"/api/tournaments/{tid}/decks/checks/1", json={"player": pid, "counted": counted})
    c = r.get_json()["check"]
    assert r.status_code == 201 and c["outcome"] == "differs"
    assert c["differences"] == "Bum's Rush: 40 on the list, 38 in the deck; Deflection: 0 on the list, 2 in the deck"
    bad = client.post(f"/api/tournaments/{tid}/decks/checks/1", json={"player": pid, "counted": "nothing here"})
    assert bad.status_code == 422 and bad.get_json()["field"] == "counted"


def test_limited_a_deck_is_checked_against_the_cards_received(client, world, signed_in):
    tid, org, pid = world["tid"], world["org"], world["pids"][0]
    received = "20x Nathan Turner\n30x Blood Doll\n62x Bum's Rush\n2x Dramatic Upheaval"
    store_mode = client.post(f"/api/tournaments/{tid}/decks/{pid}", headers=org, json={"text": received})
    assert store_mode.status_code == 201
    assert {p["code"] for p in store_mode.get_json()["decklist"]["problems"]} == {"banned-card", "library-too-big"}
    from judgekit.db import open_db
    from judgekit.decks import store as dstore
    db = open_db(client.application.config["DATABASE"])
    dstore.set_mode(db, tid, "limited")
    db.close()
    pid2 = world["pids"][1]
    r = client.post(f"/api/tournaments/{tid}/decks/{pid2}", headers=org, json={"text": received})
    assert [p["code"] for p in r.get_json()["decklist"]["problems"]] == ["banned-card"]   # no sizes: a pool
    client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 1})
    signed_in(client, tid, "head_judge")
    subset = client.post(f"/api/tournaments/{tid}/decks/checks/1",
                         json={"player": pid2, "counted": "12x Nathan Turner\n20x Blood Doll\n30x Bum's Rush"})
    assert subset.get_json()["check"]["outcome"] == "matches"
    extra = client.post(f"/api/tournaments/{tid}/decks/checks/1",
                        json={"player": pid2, "counted": "12x Nathan Turner\n31x Blood Doll\n2x Deflection"})
    c = extra.get_json()["check"]
    assert c["outcome"] == "differs"
    assert c["differences"] == "Blood Doll: 30 on the list, 31 in the deck; Deflection: 0 on the list, 2 in the deck"
