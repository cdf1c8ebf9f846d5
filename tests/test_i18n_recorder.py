"""The recorder's words through a second catalog: the messages the engine writes for the
case, the status line, the next steps' buttons and an entry's refusals are worded in the reader's language, and an
English reader gets the same English as before (with the codes beside it)."""
from __future__ import annotations

import json

import pytest

from judgekit import i18n
from judgekit.i18n import Catalog, Message
from tests.conftest import app_with_language

SEATS = ["Ann", "Ben", "Cid", "Dee", "Eve"]
XX = {
    # an engine message written for the case, and the player inside it
    "recorder.finding.bleed-no-amount": "XX-%(who)s blutet ohne Betrag.",
    "recorder.who-name-seat": "%(name)s (Sitz %(seat)s)",
    # the status line (its ids are the English texts, as the log lines')
    "Turn %(n)s, %(who)s: %(window)s": "XX-Zug %(n)s, %(who)s: %(window)s",
    "the minion phase": "XX-Lakaienphase",
    "%(who)s: pass (“any blocks?”)": "%(who)s: XX-weiter („Blocks?“)",   # a next step's button
    # refusals: an event's field, an unknown card name for the judge, a new game's seats
    "recorder.field-not-seat": "XX-muss eine Sitznummer sein",
    "recorder.event-refused-at": "XX-Ereignis %(n)s: %(field)s: %(reason)s%(hint)s",
    "recorder.no-card-named": "XX-Keine Karte namens „%(name)s“",
    "recorder.unknown-name-check-spelling": "%(head)s — XX-Schreibweise prüfen.",
    "recorder.seats-same-name": "XX-Sitze %(first)s und %(second)s heißen gleich (%(name)s)",
}


@pytest.fixture
def app_xx(tmp_path, template_db, shared_index):
    return app_with_language(tmp_path, template_db, shared_index, XX)


XX_HEADERS = {"Accept-Language": "xx"}


def _game(client) -> int:
    r = client.post("/api/games", json={"seats": SEATS})
    assert r.status_code == 201
    return r.get_json()["id"]


def test_every_code_in_the_fake_catalog_is_a_real_one():
    """The fake catalog translates ids the code uses (a renamed id would make the tests
    below pass for the wrong reason: English where the catalog has no entry)."""
    have = json.loads((i18n.CATALOG_DIR / "en.json").read_text(encoding="utf-8"))
    assert sorted(set(XX) - set(have)) == []


def test_an_engine_message_and_the_status_line_in_the_readers_language(app_xx):
    client = app_xx.test_client()
    gid = _game(client)
    bleed = [{"type": "turn.start", "seat": 1}, {"type": "phase", "seat": 1, "phase": "minion"},
             {"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Modius", "target_seat": 2}]
    r = client.post(f"/api/games/{gid}/events", json=bleed, headers=XX_HEADERS)
    assert r.status_code == 201
    found = [f for f in r.get_json()["findings"] if f["code"] == "bleed-amount-missing"]
    assert [f["message"] for f in found] == ["XX-Ann (Sitz 1) blutet ohne Betrag."]
    assert found[0]["message_code"] == "recorder.finding.bleed-no-amount"
    assert r.get_json()["state"]["status"].startswith("XX-Zug 1, Ann: XX-Lakaienphase — ")

    # read again: the stored line is worded for each reader, in their language
    xx = client.get(f"/api/games/{gid}", headers=XX_HEADERS).get_json()
    line = next(e for e in xx["events"] if e["seq"] == 3)
    assert [f["message"] for f in line["findings"] if f["code"] == "bleed-amount-missing"] == \
        ["XX-Ann (Sitz 1) blutet ohne Betrag."]
    assert [f["message"] for f in xx["findings"] if f["code"] == "bleed-amount-missing"] == \
        ["XX-Ann (Sitz 1) blutet ohne Betrag."]
    assert xx["state"]["status"].startswith("XX-Zug 1, Ann: XX-Lakaienphase")
    step = xx["state"]["next"][0]
    assert (step["label"], step["for_seat"]) == ("Ann (Sitz 1): XX-weiter („Blocks?“)", "{who}: XX-weiter („Blocks?“)")

    en = client.get(f"/api/games/{gid}").get_json()
    line = next(e for e in en["events"] if e["seq"] == 3)
    assert [f["message"] for f in line["findings"] if f["code"] == "bleed-amount-missing"] == \
        ["Ann (seat 1) bleeds without stating the amount."]
    assert en["state"]["status"].startswith("Turn 1, Ann: the minion phase — ")
    assert en["state"]["next"][0]["label"] == "Ann (seat 1): pass (“any blocks?”)"
    assert "XX-" not in json.dumps(en)


def test_a_log_line_stores_the_engine_messages_code_and_parameters(db):
    """What is stored is the code and the parameters (the players as messages too), beside
    the English text; a translator given when reading words it."""
    from judgekit.recorder import store
    gid = store.create_game(db, SEATS)
    store.append_events(db, gid, [{"type": "turn.start", "seat": 1},
                                  {"type": "action.declare", "seat": 1, "action": "bleed", "target_seat": 2}])
    [line] = [json.loads(t) for (t,) in db.conn.execute("SELECT line FROM event_lines WHERE game_id = ? AND seq = 2",
                                                         [gid])]
    [f] = [f for f in line["findings"] if f["code"] == "bleed-amount-missing"]
    assert f["message_code"] == "recorder.finding.bleed-no-amount"
    assert f["message_params"] == {"who": {"code": "recorder.who-name-seat", "english": "%(name)s (seat %(seat)s)",
                                           "params": {"name": "Ann", "seat": 1}}}
    xx = Catalog("xx", XX, fallback=Catalog("en", {}))
    read = store.read_game(db, gid, words=xx.render)
    [f] = [f for f in json.loads(read.lines[1])["findings"] if f["code"] == "bleed-amount-missing"]
    assert f["message"] == "XX-Ann (Sitz 1) blutet ohne Betrag."


def test_an_entrys_refusals_in_the_readers_language_with_their_codes(app_xx):
    client = app_xx.test_client()
    gid = _game(client)
    r = client.post(f"/api/games/{gid}/events", json={"type": "turn.start", "seat": "one"}, headers=XX_HEADERS)
    assert r.status_code == 400
    assert r.get_json() == {"error": "XX-muss eine Sitznummer sein", "status": 400,
                            "code": "recorder.field-not-seat", "field": "seat"}
    en = client.post(f"/api/games/{gid}/events", json={"type": "turn.start", "seat": "one"}).get_json()
    assert en == {"error": "must be a seat number", "status": 400, "code": "recorder.field-not-seat", "field": "seat"}
    # in a list: which event, then the reason inside
    batch = [{"type": "note", "text": "x"}, {"type": "turn.start", "seat": "one"}]
    r = client.post(f"/api/games/{gid}/events", json=batch, headers=XX_HEADERS)
    assert r.get_json()["error"] == "XX-Ereignis 2: seat: XX-muss eine Sitznummer sein"
    assert r.get_json()["code"] == "recorder.event-refused-at" and r.get_json()["index"] == 1
    assert client.post(f"/api/games/{gid}/events", json=batch).get_json()["error"] == \
        "event 2: seat: must be a seat number"

    # the words for the judge (`message`), a message with messages inside
    unknown = {"type": "card.play", "seat": 1, "card": "Zzyzx Qwerty"}
    r = client.post(f"/api/games/{gid}/events", json=unknown, headers=XX_HEADERS)
    assert r.status_code == 422 and r.get_json()["message"] == \
        "XX-Keine Karte namens „Zzyzx Qwerty“ — XX-Schreibweise prüfen."
    r = client.post(f"/api/games/{gid}/events", json=unknown)
    assert r.get_json()["message"] == ("No card named 'Zzyzx Qwerty' in the card list — check the spelling "
                                       "(a card missing from the list: add !unlisted to the line to record it anyway).")
    assert client.get(f"/api/games/{gid}").get_json()["events"] == []   # nothing stored

    # a refusal on a page: the new game form
    client.get("/games")
    with client.session_transaction() as s:
        token = s["csrf"]
    r = client.post("/games", data={"seat1": "Ann", "seat2": "Ben", "seat3": "ann", "seat4": "Dee",
                                    "csrf_token": token}, headers=XX_HEADERS)
    assert r.status_code == 400 and "XX-Sitze 1 und 3 heißen gleich (&#39;ann&#39;)" in r.get_data(as_text=True)


def test_a_message_inside_a_message_is_said_in_the_same_language():
    inner = Message("x.who", "%(name)s (seat %(seat)s)", name="Ann", seat=1)
    outer = Message("x.late", "%(who)s is late", who=inner)
    assert str(outer) == "Ann (seat 1) is late"
    xx = Catalog("xx", {"x.late": "%(who)s ist spät", "x.who": "%(name)s (Sitz %(seat)s)"})
    assert outer.render(xx) == "Ann (Sitz 1) ist spät"
    assert outer.render(Catalog("xx", {"x.late": "%(who)s ist spät"})) == "Ann (seat 1) ist spät"
