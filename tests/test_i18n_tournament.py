"""Translations of the tournament side: a penalty's refusal, a pasted list's problems, a
judge call's reason, a table's state and the words built from parts go through the
reader's catalog, end to end; English stays the text it was."""
from __future__ import annotations

import io

import pytest

from judgekit.errors import worded
from judgekit.i18n import Catalog, Message, Said
from judgekit.tournament.roster import parse_roster
from tests.conftest import app_with_language

XX = {
    "penalties.unknown-infraction": "XX-unbekannte Regelverletzung '%(query)s'",
    "penalties.unknown-infraction-hint": "XX-unbekannte Regelverletzung '%(query)s', vielleicht %(names)s?",
    "roster.vekn-registered": "XX-VEKN %(vekn)s ist schon hier (%(name)s)",
    "roster.summary-bad-one": "XX-1 von %(rows)s Zeilen hat ein Problem.",
    "Deck problem": "XX-Deckproblem",
    "in-progress": "XX-läuft",
    "archon.file-pdf": "XX-ein PDF, keine Arbeitsmappe",
}


@pytest.fixture
def xx_app(tmp_path, template_db, shared_index):
    """An app whose catalogs folder has English and a fake second language "xx"."""
    return app_with_language(tmp_path, template_db, shared_index, XX)


@pytest.fixture
def event(xx_app):
    client = xx_app.test_client()
    r = client.post("/api/tournaments", json={"name": "Babel Cup"})
    tid, org = r.get_json()["id"], {"Authorization": "Bearer " + r.get_json()["token"]}
    players = client.post(f"/api/tournaments/{tid}/players", headers=org,
                          json=[{"name": n, "vekn": str(500 + k)} for k, n in
                                enumerate(["Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hu"])]).get_json()["players"]
    client.post(f"/api/tournaments/{tid}/rounds", headers=org, json={"seed": 3})
    return {"client": client, "tid": tid, "org": org, "ana": players[0]["id"]}


XX_HEADERS = {"Accept-Language": "xx"}


def test_a_penalty_refusal_is_worded_in_the_readers_language_with_its_code(event):
    client, tid = event["client"], event["tid"]
    body = {"player": event["ana"], "infraction": "Qwzzv Xyq"}
    xx = client.post(f"/api/tournaments/{tid}/penalties", headers={**event["org"], **XX_HEADERS}, json=body)
    en = client.post(f"/api/tournaments/{tid}/penalties", headers=event["org"], json=body)
    assert xx.status_code == en.status_code and xx.status_code in (400, 422)
    got, english = xx.get_json(), en.get_json()
    assert got["error"].startswith("XX-unbekannte Regelverletzung 'Qwzzv Xyq'")
    assert english["error"].startswith("Unknown infraction 'Qwzzv Xyq' in the ")
    assert got["code"] == english["code"] and got["code"].startswith("penalties.unknown-infraction")
    assert got["problems"][0]["message"] == got["error"] and got["problems"][0]["code"] == got["code"]
    assert english["problems"][0]["message"] == english["error"]


def test_a_pasted_lists_problems_are_worded_in_the_readers_language(event):
    client, tid, org = event["client"], event["tid"], event["org"]
    text = "Zed Zero;500\nYan Young;777"          # 500 is Ana's
    dry = client.post(f"/api/tournaments/{tid}/players/bulk", headers={**org, **XX_HEADERS},
                      json={"text": text, "dry_run": True}).get_json()
    assert dry["rows"][0]["problems"] == ["XX-VEKN 500 ist schon hier (Ana)"]
    assert dry["summary"] == "XX-1 von 2 Zeilen hat ein Problem."
    refused = client.post(f"/api/tournaments/{tid}/players/bulk", headers={**org, **XX_HEADERS}, json={"text": text})
    assert refused.status_code == 400
    assert refused.get_json()["problems"] == [{"line": 1, "message": "XX-VEKN 500 ist schon hier (Ana)"}]
    assert refused.get_json()["error"] == "XX-1 von 2 Zeilen hat ein Problem."
    english = client.post(f"/api/tournaments/{tid}/players/bulk", headers=org, json={"text": text}).get_json()
    assert english["problems"] == [{"line": 1, "message": "VEKN number 500 is already registered here (Ana)"}]
    assert english["error"] == "1 of 2 rows has a problem: fix it and try again. Nothing was registered."


def test_a_workbook_refusal_on_the_import_page_is_worded_in_the_readers_language(event, xx_app):
    client = event["client"]
    from tests.conftest import sign_in_client
    sign_in_client(xx_app, client, event["tid"], "organizer")
    page = client.post("/tournaments/import-archon", headers=XX_HEADERS,
                       data={"file": (io.BytesIO(b"%PDF-1.4 not a workbook"), "x.xlsx")},
                       content_type="multipart/form-data")
    html = page.get_data(as_text=True)
    assert page.status_code == 400 and "XX-ein PDF, keine Arbeitsmappe" in html
    assert "This is a PDF" not in html


def test_a_calls_reason_and_a_tables_state_are_worded_where_shown(event):
    client, tid, org = event["client"], event["tid"], event["org"]
    client.post(f"/api/tournaments/{tid}/calls", json={"table": 1, "reason": "deck"})
    hall = client.get(f"/api/tournaments/{tid}/hall", headers={**org, **XX_HEADERS}).get_json()
    assert hall["calls"][0]["reason"] == "deck" and hall["calls"][0]["reason_label"] == "XX-Deckproblem"
    assert hall["round"]["tables"][0]["state"] == "in-progress"          # the stored value, for code
    english = client.get(f"/api/tournaments/{tid}/hall", headers=org).get_json()
    assert english["calls"][0]["reason_label"] == "Deck problem"
    dashboard = client.get(f"/tournaments/{tid}", headers={**org, **XX_HEADERS}).get_data(as_text=True)
    assert "Table 1: XX-läuft" in dashboard
    assert "Table 1: in-progress" in client.get(f"/tournaments/{tid}", headers=org).get_data(as_text=True)


def test_said_is_its_english_text_and_words_its_parts_in_the_same_language():
    inner = Message("x.no-name", "no name")
    said = Said(Message("x.twice", "VEKN number %(vekn)s is also on line %(line)s (%(name)s)",
                        vekn="100", line=2, name=inner))
    assert said == "VEKN number 100 is also on line 2 (no name)" and said.code == "x.twice"
    xx = Catalog("xx", {"x.twice": "XX-%(vekn)s zweimal (%(name)s)", "x.no-name": "XX-kein Name"})
    assert said.render(xx) == "XX-100 zweimal (XX-kein Name)"
    assert worded({"a": [said, "plain"], "n": 3}, xx) == {"a": ["XX-100 zweimal (XX-kein Name)", "plain"], "n": 3}
    rows = parse_roster("Ana;100\nBo;100\n").rows
    assert rows[0].problems == ["VEKN number 100 is also on line 2 (Bo)"]
    assert rows[0].problems[0].code == "roster.vekn-twice"
