"""The decklists and the player's own page go through the catalogs: with a second catalog
("xx"), the player's page, a construction problem, a refusal and an unknown link are worded
in it; the JSON body keeps its short `code` ("locked"); English is unchanged."""
from __future__ import annotations

import json
import re

import pytest

from judgekit import i18n
from tests import decks_lists as L
from tests.conftest import app_with_language

XX = {
    "Your decklist": "XX-Deckliste",
    "Check it": "XX-Prüfen",
    "decks.problem.library-too-small": "XX-Bibliothek %(count)s < %(min)s",
    "decks.problem.banned-card": "XX-verboten %(card)s",
    "decks.locked": "XX-gesperrt %(player)s",
    "links.unknown": "XX-unbekannter Link",
    "Report your table's result": "XX-Ergebnis melden",
}


@pytest.fixture
def xx_app(tmp_path, template_db, shared_index):
    return app_with_language(tmp_path, template_db, shared_index, XX)


def test_the_catalog_has_every_id_the_test_translates():
    english = json.loads((i18n.CATALOG_DIR / "en.json").read_text(encoding="utf-8"))
    assert [k for k in XX if k not in english] == []


def test_the_players_page_problems_and_refusals_are_worded_in_the_readers_language(xx_app):
    client = xx_app.test_client()
    r = client.post("/api/tournaments", json={"name": "Cup"})
    tid, org = r.get_json()["id"], {"Authorization": "Bearer " + r.get_json()["token"]}
    pid = client.post(f"/api/tournaments/{tid}/players", headers=org,
                      json=[{"name": "Ana", "vekn": "501"}]).get_json()["players"][0]["id"]
    link = client.post(f"/api/tournaments/{tid}/players/{pid}/link", headers=org).get_json()["path"]
    xx = {"Accept-Language": "xx"}

    me = client.get(link, headers=xx).get_data(as_text=True)
    assert "XX-Deckliste" in me and "XX-Prüfen" in me
    assert "Your decklist" in client.get(link).get_data(as_text=True)

    # a construction problem is stored without words: each reader gets it in their language
    assert client.post("/api" + link + "/deck", json={"text": L.SHORT_AND_BANNED}).status_code == 201
    page = client.get(link + "/deck", headers=xx).get_data(as_text=True)
    assert "XX-verboten Dramatic Upheaval" in page and "XX-Bibliothek 58 &lt; 60" in page
    english = client.get(link + "/deck").get_data(as_text=True)
    assert "Dramatic Upheaval is banned in VEKN tournaments." in english and "XX-" not in english

    again = client.post("/api" + link + "/deck", json={"text": L.legal()}, headers=xx)
    assert again.status_code == 409
    assert again.get_json()["code"] == "locked" and again.get_json()["error"] == "XX-gesperrt Ana"
    assert re.match(r"Ana's decklist was received on .* and is locked",
                    client.post("/api" + link + "/deck", json={"text": L.legal()}).get_json()["error"])

    unknown = client.get(f"/tournaments/{tid}/me/{'0' * 22}", headers=xx)
    assert unknown.status_code == 404 and "XX-unbekannter Link" in unknown.get_data(as_text=True)
