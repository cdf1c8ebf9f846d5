"""The recorder's JSON API and pages over Flask: happy paths and every kind of bad input."""
from __future__ import annotations

import json

import pytest

from recorder_helpers import SEATS

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)


@pytest.fixture
def game(client):
    r = client.post("/api/games", json={"seats": SEATS, "label": "Final", "time_limit_min": 150})
    assert r.status_code == 201
    return r.get_json()["id"]


def post(client, gid, body, **kw):
    return client.post(f"/api/games/{gid}/events", json=body, **kw)


def test_create_get_and_list(client, game):
    r = client.get(f"/api/games/{game}")
    body = r.get_json()
    assert r.status_code == 200 and set(body) >= {"state", "events", "findings"}
    assert body["game"]["seats"] == SEATS and body["state"]["clock"]["limit_min"] == 150
    assert any(g["id"] == game for g in client.get("/api/games").get_json()["games"])


def test_post_one_and_a_list_with_findings_and_links(client, game):
    r = post(client, game, {"type": "turn.start", "seat": 1})
    assert r.status_code == 201 and r.get_json()["events"][0]["seq"] == 1
    r = post(client, game, [{"type": "action.declare", "seat": 1, "action": "hunt", "minion": "Modius"},
                            {"type": "block.declare", "seat": 5, "minion": "Alice Chen"}])
    body = r.get_json()
    assert sorted(f["code"] for f in body["findings"]) == ["action-pass-missing", "block-out-of-order"]
    assert all(f["url"] == "/rules/announcements/forbidden-shortcuts" for f in body["findings"])
    got = client.get(f"/api/games/{game}").get_json()
    assert [e["seq"] for e in got["events"]] == [1, 2, 3]
    assert got["events"][2]["findings"] and got["events"][2]["summary"] == "Eve blocks with Alice Chen"


def test_events_wrapper_object_is_accepted(client, game):
    r = post(client, game, {"events": [{"type": "turn.start", "seat": 1}]})
    assert r.status_code == 201


@pytest.mark.parametrize("body, status, field", [
    ({"type": "teleport", "seat": 1}, 400, "type"),
    ({"seat": 1}, 400, "type"),
    ({"type": "action.pass"}, 400, "seat"),
    ({"type": "action.pass", "seat": "one"}, 400, "seat"),
    ({"type": "action.pass", "seat": 6}, 400, "seat"),
    ({"type": "action.declare", "seat": 1, "action": "bleed", "amount": "2"}, 400, "amount"),
    ({"type": "card.play", "seat": 1, "card": "Govern the Unalined"}, 422, "card"),
    ([], 400, "events"),
    ("just a string", 400, "event"),
    ([{"type": "turn.start", "seat": 1}, {"type": "x"}], 400, "type"),
])
def test_bad_events_are_refused_and_nothing_is_stored(client, game, body, status, field):
    post(client, game, {"type": "note", "text": "before"})
    r = post(client, game, body)
    assert r.status_code == status
    err = r.get_json()
    assert err["field"] == field and err["error"]
    events = client.get(f"/api/games/{game}").get_json()["events"]
    assert [e["type"] for e in events] == ["note"]


def test_unknown_card_error_carries_suggestions(client, game):
    r = post(client, game, {"type": "card.play", "seat": 1, "card": "Govern the Unalined"})
    assert "Govern the Unaligned" in r.get_json()["suggestions"]


@pytest.mark.parametrize("body, field, message, suggestions", [
    ({"type": "card.play", "seat": 1, "card": "Govern the Unalined"}, "card",
     "No card named 'Govern the Unalined' — did you mean Govern the Unaligned?", ["Govern the Unaligned"]),
    ({"type": "card.play", "seat": 1, "card": "Deflectoin"}, "card",
     "No card named 'Deflectoin' — did you mean Deflection or Detection?", ["Deflection", "Detection"]),
    ({"type": "block.declare", "seat": 2, "minion": "Modus"}, "minion",
     "No vampire or minion named 'Modus' — did you mean Modius or Mouse?", ["Modius", "Mouse"]),
    ({"type": "card.play", "seat": 1, "card": "Zzzqqq"}, "card",
     "No card named 'Zzzqqq' in the card list — check the spelling (a card missing from the "
     "list: add !unlisted to the line to record it anyway).", None),
])
def test_an_unknown_name_is_a_422_with_field_reason_suggestions_and_words_for_the_judge(
        client, game, body, field, message, suggestions):
    for payload, index in ((body, None), ([{"type": "note", "text": "x"}, body], 1)):
        r = post(client, game, payload)
        err = r.get_json()
        assert r.status_code == 422 and err["field"] == field and "unknown" in err["error"]
        assert err["message"] == message and err.get("suggestions") == suggestions
        assert err.get("index") == index
    r = client.post(f"/api/games/{game}/parse", json={"line": "1 start; 1 +Deflectoin"})
    assert r.status_code == 422 and r.get_json()["message"] == (
        "No card named 'Deflectoin' — did you mean Deflection or Detection?")
    # an amend naming an unknown card: the same words
    post(client, game, {"type": "card.play", "seat": 1, "card": "Deflection"})
    r = post(client, game, {"type": "amend", "target": 1, "fields": {"card": "Deflectoin"}})
    assert r.status_code == 422 and r.get_json()["field"] == "fields.card"
    assert r.get_json()["message"].startswith("No card named 'Deflectoin'")
    assert [e["type"] for e in client.get(f"/api/games/{game}").get_json()["events"]] == ["card.play"]


def test_nonexistent_game(client):
    assert post(client, 4242, {"type": "turn.start", "seat": 1}).status_code == 404
    r = client.get("/api/games/4242")
    assert r.status_code == 404 and r.get_json()["error"]
    assert client.get("/games/4242").status_code == 404


HUGE = 10 ** 30  # more than SQLite's INTEGER holds


@pytest.mark.parametrize("method, path", [
    ("get", "/api/games/{id}"), ("get", "/games/{id}"), ("get", "/api/games/{id}/outcome"),
    ("post", "/api/games/{id}/events"), ("post", "/api/games/{id}/parse"),
])
@pytest.mark.parametrize("game_id", [str(HUGE), "9223372036854775808", "1" * 5000, "٣"])
def test_game_ids_beyond_sqlite_or_not_ascii_are_404(client, method, path, game_id):
    r = getattr(client, method)(path.format(id=game_id), json={"type": "note", "text": "x", "line": "1 go"})
    assert r.status_code == 404


@pytest.mark.parametrize("value", [str(HUGE), "-1", "abc", "٣", "1" * 5000])
def test_tournament_id_in_the_query_must_be_a_whole_number(client, value):
    r = client.get(f"/api/games?tournament_id={value}")
    assert r.status_code == 400 and r.get_json()["field"] == "tournament_id"


@pytest.mark.parametrize("field", ["tournament_id", "round_no", "table_no", "time_limit_min"])
def test_create_game_refuses_huge_numbers(client, field):
    r = client.post("/api/games", json={"seats": SEATS, field: HUGE})
    assert r.status_code == 400 and r.get_json()["field"] == field


@pytest.mark.parametrize("event, field", [
    ({"type": "note", "text": "x", "seat": HUGE}, "seat"),
    ({"type": "ruling", "finding_seq": HUGE}, "finding_seq"),
    ({"type": "cancel", "seat": 1, "target_seq": HUGE}, "target_seq"),
    ({"type": "retract", "target": HUGE}, "target"),
    ({"type": "time.extend", "minutes": HUGE}, "minutes"),
    ({"type": "sync", "seat": 1, "phase": "minion", "turn": HUGE}, "turn"),
    ({"type": "sync", "seat": 1, "phase": "minion", "time_left_min": float(HUGE)}, "time_left_min"),
])
def test_events_refuse_huge_numbers(client, game, event, field):
    r = post(client, game, event)
    assert r.status_code == 400 and r.get_json()["field"] == field
    assert client.get(f"/api/games/{game}").get_json()["events"] == []


def test_parse_refuses_an_undo_of_a_huge_event_number(client, game):
    r = client.post(f"/api/games/{game}/parse", json={"line": "undo", "last_seq": HUGE})
    assert r.status_code == 400 and r.get_json()["field"] == "target"


def test_broken_json_and_wrong_content_type(client, game):
    r = client.post(f"/api/games/{game}/events", data='{"type": "turn.start",',
                    content_type="application/json")
    assert r.status_code == 400 and "JSON" in r.get_json()["error"]
    r = client.post(f"/api/games/{game}/events", data="type=turn.start", content_type="text/plain")
    assert r.status_code == 415 and "JSON" in r.get_json()["error"]  # before the CSRF check


def test_one_megabyte_body_is_refused(client, game):
    big = json.dumps({"type": "note", "text": "x" * (1024 * 1024)})
    r = client.post(f"/api/games/{game}/events", data=big, content_type="application/json")
    assert r.status_code == 413 and r.get_json()["error"]
    assert client.get(f"/api/games/{game}").get_json()["events"] == []


def test_duplicate_client_id_is_stored_once(client, game):
    e = {"type": "turn.start", "seat": 1, "client_id": "tab-1:0001"}
    assert post(client, game, e).status_code == 201
    r = post(client, game, e)
    assert r.status_code == 200 and r.get_json()["new"] == 0
    r = post(client, game, dict(e, seat=2))
    assert r.status_code == 409 and r.get_json()["field"] == "client_id"
    assert len(client.get(f"/api/games/{game}").get_json()["events"]) == 1


@pytest.mark.parametrize("batch, status, field", [
    # the third reuses c2 with other words: the first two must not be stored either
    ([{"type": "note", "text": "one", "client_id": "c1"}, {"type": "note", "text": "two", "client_id": "c2"},
      {"type": "note", "text": "other", "client_id": "c2"}], 409, "client_id"),
    # the retract points past the end of the game: the note before it must not be stored
    ([{"type": "note", "text": "one"}, {"type": "retract", "target": 5}], 400, "target"),
])
def test_a_refused_batch_stores_nothing(client, game, batch, status, field):
    r = post(client, game, batch)
    assert r.status_code == status and r.get_json()["field"] == field
    assert client.get(f"/api/games/{game}").get_json()["events"] == []
    r = post(client, game, batch[:1])  # the game goes on from seq 1
    assert r.status_code == 201 and r.get_json()["events"][0]["seq"] == 1


BLEED = [{"type": "turn.start", "seat": 1},
         {"type": "action.declare", "seat": 1, "action": "bleed", "minion": "Modius", "amount": 1}]


@pytest.mark.parametrize("fields, field", [
    ({"seat": "x"}, "fields.seat"), ({"seat": None}, "fields.seat"), ({"seat": 9}, "fields.seat"),
    ({"amount": "lots"}, "fields.amount"), ({"action": "fly"}, "fields.action"),
    ({"minion": "Modiuss Prime"}, "fields.minion"), ({"target_seat": 10 ** 30}, "fields.target_seat"),
    ({"colour": "red"}, "fields.colour"), ({"type": "note"}, "fields.type"),
])
def test_an_amend_is_checked_as_part_of_the_event_it_corrects(client, game, fields, field):
    """The replay applies an amend's fields as they are: a bad one broke every later read."""
    post(client, game, BLEED)
    r = post(client, game, {"type": "amend", "target": 2, "fields": fields})
    assert r.status_code in (400, 422) and r.get_json()["field"] == field
    got = client.get(f"/api/games/{game}")
    assert got.status_code == 200 and len(got.get_json()["events"]) == 2


def test_an_amend_is_stored_normalized_and_may_correct_an_event_of_its_batch(client, game):
    r = post(client, game, BLEED + [{"type": "amend", "target": 2, "fields": {"minion": "modius", "amount": 2}}])
    assert r.status_code == 201 and r.get_json()["events"][2]["fields"] == {"minion": "Modius", "amount": 2}
    assert client.get(f"/api/games/{game}").get_json()["state"]["action"]["amount"] == 2
    r = post(client, game, {"type": "amend", "target": 3, "fields": {"amount": 3}})
    assert r.status_code == 400 and r.get_json()["field"] == "target"


def test_an_amended_event_reads_as_corrected_and_the_amend_says_what_it_changes(client, game):
    post(client, game, BLEED + [{"type": "note", "text": "x"}])
    post(client, game, {"type": "amend", "target": 2, "fields": {"amount": 2, "stealth": 1}})
    post(client, game, {"type": "amend", "target": 2, "fields": {"stealth": None, "discipline": ["obf", "PRE"]}})
    events = client.get(f"/api/games/{game}").get_json()["events"]
    bleed, note, first, second = events[1:]
    assert bleed["amount"] == 1                               # the stored event is unchanged
    assert bleed["amended_by"] == [4, 5] and bleed["corrected"]["amount"] == 2
    assert bleed["corrected"]["stealth"] is None and bleed["corrected"]["discipline"] == ["obf", "PRE"]
    assert bleed["summary"] == "Ann: Modius bleeds Ben for 2 (inferior Obfuscate and superior Presence)"
    assert bleed["original_summary"] == "Ann: Modius bleeds Ben for 1"
    assert "amended_by" not in note and "corrected" not in note
    assert first["summary"] == "Correction of #2: amount → 2, stealth → 1"
    assert second["summary"] == "Correction of #2: stealth removed, discipline → obf/PRE"
    assert not any(c in first["summary"] + second["summary"] for c in "{}[]\"")
    # a retracted amend no longer counts
    post(client, game, {"type": "retract", "target": 5})
    bleed = client.get(f"/api/games/{game}").get_json()["events"][1]
    assert bleed["amended_by"] == [4] and bleed["summary"] == "Ann: Modius bleeds Ben for 2 (stealth 1)"


def test_create_game_bad_input(client):
    for body, field in (({"seats": ["A", "B"]}, "seats"), ({}, "seats"),
                        ({"seats": ["Ann", "Ben", "Cid", "ann"]}, "seats"),
                        ({"seats": SEATS, "colour": 1}, "colour"),
                        ({"seats": SEATS, "time_limit_min": "long"}, "time_limit_min")):
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and r.get_json()["field"] == field


def test_parse_notation_and_post_the_same_events(client, game):
    r = client.post(f"/api/games/{game}/parse", json={"line": "1 start; 1 bleed catalina vega =2 +Govern the Unaligned :dom"})
    body = r.get_json()
    assert r.status_code == 200
    assert body["events"][1] == {"type": "action.declare", "seat": 1, "action": "bleed",
                                 "minion": "Catalina Vega", "amount": 2, "card": "Govern the Unaligned",
                                 "discipline": "dom", "judge": "anonymous"}
    assert post(client, game, body["events"]).status_code == 201
    r = client.post(f"/api/games/{game}/parse", json={"line": "7 go"})
    assert r.status_code == 400 and r.get_json()["field"] == "line"
    r = client.post(f"/api/games/{game}/parse", json={"line": "1 +Govern the Unalined"})
    assert r.status_code == 422 and r.get_json()["suggestions"]


@pytest.mark.parametrize("line", ["² go", "٣ go", "1 bleed Modius *²", "undo #٣"])
def test_parse_refuses_other_digits_with_400(client, game, line):
    r = client.post(f"/api/games/{game}/parse", json={"line": line})
    assert r.status_code == 400 and r.get_json()["field"] == "line"


@pytest.mark.parametrize("line", ["² go", "1 hunt Modius *²", "٣ go", "undo #٣"])
def test_trainer_check_takes_other_digits_as_a_wrong_line(client, line):
    """The public trainer parses lines with the recorder's notation."""
    resp = client.post("/api/trainer/check", json={"prompt": "hunt-and-wait", "line": line})
    assert resp.status_code == 200 and resp.get_json()["ok"] is False


def test_complete_names(client):
    names = client.get("/api/cards/complete?q=Govern&kind=library").get_json()["names"]
    assert "Govern the Unaligned" in names
    assert "Modius" in client.get("/api/cards/complete?q=modi&kind=crypt").get_json()["names"]
    assert client.get("/api/cards/complete?q=x&kind=bogus").status_code == 400


def test_outcome_endpoint(client, game):
    post(client, game, [{"type": "oust", "seat": 3}])
    assert client.get(f"/api/games/{game}/outcome").get_json()["events"] == [
        {"type": "oust", "seat": 3, "seq": 1}]


def test_pages(client, game):
    r = client.get(f"/games/{game}")
    html = r.get_data(as_text=True)
    assert r.status_code == 200 and "recorder.js" in html and "recorder.css" in html
    assert 'name="csrf-token"' in html
    assert client.get("/games").status_code == 200


def test_new_practice_game_form(client):
    client.get("/games")
    with client.session_transaction() as s:
        token = s["csrf"]
    r = client.post("/games", data={"seat1": "A", "seat2": "B", "seat3": "C", "seat4": "D",
                                    "time_limit_min": "120", "csrf_token": token})
    assert r.status_code == 303 and "/games/" in r.headers["Location"]
    r = client.post("/games", data={"seat1": "A", "csrf_token": token})
    assert r.status_code == 400 and "seats" in r.get_data(as_text=True)
    assert client.post("/games", data={"seat1": "A"}).status_code == 400  # no CSRF token


def test_new_practice_game_form_refuses_two_seats_with_one_name(client):
    client.get("/games")
    with client.session_transaction() as s:
        token = s["csrf"]
    before = len(client.get("/api/games").get_json()["games"])
    r = client.post("/games", data={"seat1": "Ann", "seat2": "Ben", "seat3": " ann ", "seat4": "Dee",
                                    "time_limit_min": "120", "csrf_token": token})
    html = r.get_data(as_text=True)
    assert r.status_code == 400
    assert 'data-field="seats"' in html and "Seats: seats 1 and 3 have the same name" in html
    assert html.count('aria-invalid="true"') == 2          # seat 1 and seat 3 are marked
    assert len(client.get("/api/games").get_json()["games"]) == before


@pytest.mark.parametrize("body", [{"type": "note", "text": ""}, {"type": "note", "text": "   "},
                                  {"type": "note"}])
def test_an_empty_note_is_refused_with_its_field(client, game, body):
    r = post(client, game, body)
    assert r.status_code == 400 and r.get_json()["field"] == "text"
    assert client.get(f"/api/games/{game}").get_json()["events"] == []


def test_an_empty_note_is_refused_by_the_notation_and_an_amend(client, game):
    r = client.post(f"/api/games/{game}/parse", json={"line": "note"})
    assert r.status_code == 400 and r.get_json()["field"] == "text"
    post(client, game, {"type": "note", "text": "Ann calls a judge"})
    r = post(client, game, {"type": "amend", "target": 1, "fields": {"text": " "}})
    assert r.status_code == 400 and r.get_json()["field"] == "fields.text"
