"""Card pages: /cards/<id> (text, facts, rulings with their sources, groups, mentions,
attribution), the name address, card groups, and bad addresses (never a 500)."""
from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.shared_app  # these tests only read (but one, on its own app): they share one app


def test_card_page_shows_text_facts_rulings_sources_and_credits(client):
    page = client.get("/cards/100518").get_data(as_text=True)
    assert "<h1" in page and "Deflection" in page
    assert "Change the target of the bleed to another Methuselah" in page
    # discipline symbols as readable marks, both levels
    assert 'title="Dominate (inferior)">dom</abbr>' in page and 'title="Dominate (superior)">DOM</abbr>' in page
    # every ruling with its anchor and source links
    rulings = re.findall(r'<li class="ruling block" id="(r\d+)">', page)
    assert rulings[:3] == ["r1", "r2", "r3"]
    sources = re.findall(r'<a class="source" href="(https://[^"]+)"', page)
    assert len(sources) >= len(rulings)
    assert 'href="/cards/groups/G00106"' in page and "Change the target of a bleed" in page
    assert 'href="/cards/101857"' in page            # {101857|Spying Mission} in a ruling
    assert 'data-copy-link="/cards/100518"' in page  # copy-link button
    assert 'data-copy-link="/cards/100518#r1"' in page
    # where the guidelines and the trainer use it
    assert "/rules/announcements/forbidden-shortcuts#forbidden-shortcuts-ex" in page
    assert "/trainer/" in page
    assert "Paradox Interactive" in page and "rules team" in page and "krcg" in page


def test_crypt_card_page_has_its_facts_and_other_versions(client):
    page = client.get("/cards/201363").get_data(as_text=True)   # Theo Bell (G2 ADV)
    assert "Brujah" in page and "Capacity" in page and "(G2 ADV)" in page
    assert 'title="Potence (superior)">POT</abbr>' in page
    assert 'href="/cards/201362"' in page and 'href="/cards/201613"' in page


@pytest.mark.parametrize("address, card_id", [
    ("deflection", 100518), ("Deflection", 100518), ("DEFLECTION", 100518),
    ("direct-intervention", 100545), ("Direct%20Intervention", 100545),
    ("platinum-protocol", None), ("the-barrens", None), ("Barrens", None),
    ("theo-bell-adv", 201363), ("Theo%20Bell%20(G2)", 201362), ("etienne-fauberge", None),
    ("Cats%20Guidance", None),
])
def test_a_name_address_redirects_to_the_card(client, address, card_id):
    r = client.get(f"/cards/{address}")
    assert r.status_code == 302
    location = r.headers["Location"]
    assert re.fullmatch(r"/cards/\d+", location)
    if card_id:
        assert location == f"/cards/{card_id}"
    assert client.get(location).status_code == 200


def test_the_name_form_on_the_cards_page(client):
    assert client.get("/cards").status_code == 200
    r = client.get("/cards?name=govern+the+unaligned")
    assert r.status_code == 302 and r.headers["Location"] == "/cards/100845"


@pytest.mark.parametrize("address, words", [
    ("deflektion", ["Deflection"]),
    ("theo-bel", ["Theo Bell"]),
    ("999999", []),
    ("0", []),
    ("99999999999999999999999", []),
    ("%F0%9F%A7%9B%20%E2%84%A2", []),
    ("%3Cscript%3Ealert(1)%3C%2Fscript%3E", []),
    ("x" * 10_000, []),
    ("a/b/c", []),
])
def test_an_unknown_card_is_a_404_with_the_nearest_names(client, address, words):
    r = client.get(f"/cards/{address}")
    assert r.status_code == 404
    page = r.get_data(as_text=True)
    assert "No such card" in page
    assert "<script>alert" not in page
    assert len(page) < 20_000          # a 10,000-character name is not echoed in full
    for w in words:
        assert w in page and "Did you mean" in page


def test_unknown_card_in_json_and_a_long_name_form(client):
    r = client.get("/cards?name=" + "z" * 10_000)
    assert r.status_code == 404
    r = client.get("/cards/nothing-like-it", headers={"Accept": "application/json"})
    assert r.status_code == 404


def test_group_page_lists_its_cards_and_shared_rulings(client):
    page = client.get("/cards/groups/G00106").get_data(as_text=True)
    assert "Change the target of a bleed" in page
    assert 'href="/cards/100518"' in page and 'href="/cards/101949"' in page   # Telepathic Misdirection
    assert re.search(r'<a class="source" href="https://', page)
    assert client.get("/cards/groups/g00106").headers["Location"] == "/cards/groups/G00106"
    assert client.get("/cards/groups/G99999").status_code == 404
    assert client.get("/cards/groups/" + "%F0%9F%A7%9B" * 50).status_code == 404


def test_the_trainer_links_the_cards_it_names(client):
    page = client.get("/trainer/q/cd-reaction-without-choices").get_data(as_text=True)
    assert '<a class="card-link" href="/cards/101949">Telepathic Misdirection</a>' in page
    assert '<a class="card-link" href="/cards/201544">Donny Kowalczyk</a>' in page
    assert ">Bram</a>" not in page and ">Ana</a>" not in page     # players are not cards
    answered = client.get("/trainer/q/cd-reaction-without-choices?answer=correct").get_data(as_text=True)
    explanation = answered.split('class="tr-explanation"', 1)[1].split("</p>", 1)[0]
    assert 'href="/cards/101949"' in explanation
    practice = client.get("/trainer/practice/bleed-with-an-action-card").get_data(as_text=True)
    assert '<a class="card-link" href="/cards/100845">Govern the Unaligned</a>' in practice


def test_recorder_events_name_their_cards_with_their_pages(fresh_app):
    client = fresh_app.test_client()       # it stores a game: not on the shared app
    gid = client.post("/api/games", json={"seats": ["Ann", "Ben", "Cid", "Dee", "Eve"]}).get_json()["id"]
    client.post(f"/api/games/{gid}/events", json=[
        {"type": "sync", "seat": 1, "phase": "minion"},
        {"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Alexa Draper", "amount": 1},
        {"type": "action.pass", "seat": 1},
        {"type": "reaction", "seat": 2, "card": "Telepathic Misdirection", "minion": "Donny Kowalczyk"},
        {"type": "note", "seat": 3, "text": "Deflection was mentioned"},
    ])
    events = client.get(f"/api/games/{gid}").get_json()["events"]
    by_type = {e["type"]: e for e in events}
    assert by_type["action.declare"]["cards"] == [{"name": "Alexa Draper", "id": 201529, "url": "/cards/201529"}]
    reaction = {c["name"]: c["url"] for c in by_type["reaction"]["cards"]}
    assert reaction == {"Telepathic Misdirection": "/cards/101949", "Donny Kowalczyk": "/cards/201544"}
    assert "Telepathic Misdirection" in by_type["reaction"]["summary"]
    assert by_type["note"]["cards"] == []          # free text is not a card field
    assert by_type["sync"]["cards"] == []
