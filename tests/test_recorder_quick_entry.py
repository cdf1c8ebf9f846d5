"""The server pieces of one-tap entry on the recorder page: name suggestions that know what
a field takes, card facts to pre-fill forms from, and the steps the page shows."""
from __future__ import annotations

import pytest

from recorder_helpers import cards, ev, state

pytestmark = pytest.mark.module_app  # each test writes only its own rows: one app for the module (tests/conftest.py)


def complete(client, q, kind=None, **extra):
    params = {"q": q, "limit": 8, **({"kind": kind} if kind else {}), **extra}
    r = client.get("/api/cards/complete", query_string=params)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_a_minion_field_suggests_vampires_and_allies_not_library_cards(client):
    assert "Victoria Ash" in complete(client, "Vict", "minion")["names"]
    assert "Victim of Habit" not in complete(client, "Vict", "minion")["names"]   # a library card
    assert "Victim of Habit" in complete(client, "Vict")["names"]                 # any kind: it is
    allies = complete(client, "Carlton", "minion")["names"]
    assert allies == ["Carlton Van Wyk"]                                         # an ally is a minion
    assert complete(client, "Carlton", "crypt")["names"] == []
    assert complete(client, "Kine", "minion")["names"] == []
    assert complete(client, "Kine", "library")["names"][0] == "Kine Resources Contested"


def test_every_minion_suggestion_is_a_vampire_an_imbued_or_an_ally():
    for prefix in ("a", "ca", "gr", "th", "vi"):
        for name in cards().complete(prefix, 30, "minion"):
            crypt, lib = cards().crypt(name), cards().library(name)
            assert crypt is not None or (lib is not None and "Ally" in lib.types), name


def test_suggestions_carry_the_facts_a_form_is_filled_from(client):
    body = complete(client, "Catalina", "minion", facts=1)
    vega = body["facts"]["Catalina Vega"]
    assert (vega["kind"], vega["bleed"], vega["title"], vega["votes"]) == ("vampire", 2, "prince", 2)
    body = complete(client, "Kine Res", "library", facts=1)
    krc = body["facts"]["Kine Resources Contested"]
    assert krc["action"] == "political" and krc["types"] == ["Political Action"]
    assert "facts" not in complete(client, "Kine", "library")   # only when asked


def test_card_facts_for_names_already_on_the_table(client):
    r = client.get("/api/cards/facts", query_string=[("name", "Villein"), ("name", "Deflection"),
                                                     ("name", "No Such Card"), ("kind", "library")])
    got = r.get_json()["facts"]
    assert got["Villein"]["needs"] == ["target", "amount"] and got["Villein"]["types"] == ["Master"]
    assert got["Deflection"]["levels"] == {"dom": ["inferior", "superior"]}
    assert got["Deflection"]["types"] == ["Reaction"] and got["No Such Card"] is None
    ally = client.get("/api/cards/facts?name=Carlton Van Wyk&kind=minion").get_json()["facts"]
    assert ally["Carlton Van Wyk"]["kind"] == "ally"


@pytest.mark.parametrize("query,field", [
    ("", "name"), ("name=x&kind=crypts", "kind"), ("name=" + "x" * 121, "name"),
    ("&".join(["name=x"] * 41), "name")])
def test_bad_facts_requests_are_400_with_the_field(client, query, field):
    r = client.get(f"/api/cards/facts?{query}")
    assert r.status_code == 400 and r.get_json()["field"] == field


def test_a_bad_suggestion_kind_is_a_400(client):
    r = client.get("/api/cards/complete?q=ab&kind=ally")
    assert r.status_code == 400 and r.get_json()["field"] == "kind"


def test_influence_and_discard_are_next_steps_for_the_acting_seat():
    st = state([ev("turn.start", 1), ev("phase", 1, phase="influence")])
    labels = {s["label"]: s for s in st["next"]}
    transfer = labels["Ann transfers…"]
    assert transfer["event"] == {"type": "transfer", "seat": 1} and transfer["ask"] == ["amount"]
    assert transfer["kind"] == "primary" and transfer["for_seat"] == "{name} transfers…"
    assert labels["Ann discards a card"]["event"] == {"type": "discard", "seat": 1}
    st = state([ev("turn.start", 1)])
    assert "Ann discards a card" not in [s["label"] for s in st["next"]]   # not before influence


POLITICAL = [ev("turn.start", 1), ev("action.declare", 1, action="political", minion="Anson"),
             ev("action.pass", 1), ev("block.pass", 2), ev("block.pass", 5)]


def test_a_seat_may_abstain_and_the_vote_goes_on_to_the_next_seat():
    from recorder_helpers import run
    from judgekit.recorder.words import describe
    events = POLITICAL + [ev("vote", 1, votes=2, side="for", vampire="Anson"), ev("vote", 2, side="abstain")]
    st = state(events)
    assert run(events) == []                        # no side, no number: nothing missing
    votes = st["action"]["votes"]
    assert (votes["for"], votes["against"], votes["seats"]) == (2, 0, [1, 2])
    assert votes["ballots"]["2"] == [{"votes": None, "side": "abstain", "vampire": None}]
    assert votes["ballots"]["1"] == [{"votes": 2, "side": "for", "vampire": "Anson"}]
    assert [s["seat"] for s in st["next"] if s["event"]["type"] == "vote"] == [3]
    assert describe({"type": "vote", "seat": 2, "side": "abstain"}, ["Ann", "Ben", "Cid", "Dee"]) == "Ben abstains"


def test_abstain_in_quick_entry():
    from judgekit.recorder.notation import parse_line
    assert parse_line("3 vote abstain", 5) == [{"type": "vote", "seat": 3, "side": "abstain"}]


# --- one clock ------------------------------------------------------------------------------------

def test_a_tournament_table_clock_is_the_round_start_limit_and_its_extensions(db):
    from judgekit.recorder import clock, store
    from judgekit.tournament import store as tstore
    from judgekit.tournament.penalties import extensions
    tid = tstore.create_tournament(db, {"name": "One Clock"})
    for k in range(8):
        tstore.add_player(db, tid, {"name": f"P{k}", "vekn": str(7400000 + k)})
    tables = tstore.start_round(db, tid, seed=2)["tables"]
    game = store.get_game(db, tables[1]["game_id"])
    extensions.extend(db, tid, 1, tables[1]["number"], {"minutes": 3, "reason": "ruling"}, judge="Jo")
    got = extensions.game_table_clock(db, game)
    start = clock.to_epoch(tstore.get_round(db, tid, 1)["started_at"])
    assert got["source"] == "round" and got["round_started_at"] == start
    assert got["ends_at"] == start + (got["limit_min"] + 3) * 60 and got["extended_min"] == 3
    assert got["table"] == tables[1]["number"]
    # a practice game has none; its page keeps its own clock
    practice = store.get_game(db, store.create_game(db, ["A", "B", "C", "D"]))
    assert extensions.game_table_clock(db, practice) is None


def test_the_clock_endpoint_answers_null_for_a_practice_game(client):
    gid = client.post("/api/games", json={"seats": ["A", "B", "C", "D"]}).get_json()["id"]
    r = client.get(f"/api/games/{gid}/clock")
    assert r.status_code == 200 and r.get_json() == {"clock": None}
    assert client.get("/api/games/999999/clock").status_code == 404


# --- defect 11: free words after a card name are not part of the name ---------------------------

def parse(client, line):
    gid = client.post("/api/games", json={"seats": ["Ana", "Bruno", "Cid", "Dee", "Eve"]}).get_json()["id"]
    return client.post(f"/api/games/{gid}/parse", json={"line": line})


@pytest.mark.parametrize("line", ['2 pol Lodin (Olaf Holte) +Kine Resources Contested "Hal 2, Ivy 2"',
                                  "2 pol Lodin (Olaf Holte) +Kine Resources Contested Hal 2, Ivy 2"])
def test_terms_after_a_political_card_are_its_terms_quoted_or_not(client, line):
    r = parse(client, line)
    assert r.status_code == 200, r.get_json()
    [event] = r.get_json()["events"]
    assert (event["card"], event["terms"]) == ("Kine Resources Contested", "Hal 2, Ivy 2")


def test_free_words_after_a_card_are_the_entrys_text():
    from judgekit.recorder.notation import parse_line, split_card_words
    [event] = split_card_words(parse_line("1 +Villein said at once @Modius =2"), cards().library)
    assert (event["card"], event["text"], event["target"], event["amount"]) == \
        ("Villein", "said at once", "Modius", 2)
    # a name that is a card keeps its words; one whose start is no card is left for the refusal
    assert split_card_words(parse_line("1 +Govern the Unaligned"), cards().library)[0]["card"] == \
        "Govern the Unaligned"
    assert split_card_words(parse_line("1 +Vilein now"), cards().library)[0] == \
        {"seat": 1, "type": "card.play", "card": "Vilein now"}


def test_a_misspelt_card_with_words_after_it_is_still_refused_with_a_suggestion(client):
    r = parse(client, "1 +Govern the Unalined now")
    assert r.status_code == 422
    assert "Govern the Unaligned" in r.get_json()["message"]
