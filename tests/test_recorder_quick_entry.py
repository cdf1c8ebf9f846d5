"""The server pieces of one-tap entry on the recorder page: name suggestions that know what
a field takes, card facts to pre-fill forms from, and the steps the page shows."""
from __future__ import annotations

import pytest

from recorder_helpers import cards, ev, state


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
