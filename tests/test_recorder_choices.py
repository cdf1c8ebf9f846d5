"""`engine.missing_choices`: which required card choices a play leaves unsaid.

The trainer's practice mode uses it to say exactly what to add; the engine's
card-choice-missing finding is built from the same function.
"""
from __future__ import annotations

from recorder_helpers import cards, codes, ev, run

from judgekit.recorder.engine import CHOICE_WORDS, missing_choices


def miss(card, minion=None, **fields):
    lib = cards().library(card)
    vampire = cards().crypt(minion) if minion else None
    event = dict({"type": "card.play", "seat": 1, "card": card}, **fields)
    return missing_choices(lib, event, vampire)


def test_level_counts_only_when_the_minion_has_the_superior():
    assert miss("Govern the Unaligned", "Alexa Draper") == ["level"]        # superior DOM
    assert miss("Govern the Unaligned", "Alice Chen") == []                 # inferior dom only
    assert miss("Govern the Unaligned", "Alexa Draper", level="inferior") == []
    assert miss("Govern the Unaligned", "Alexa Draper", discipline="DOM") == []


def test_target_amount_x_and_discipline_choice():
    assert miss("Telepathic Misdirection", "Donny Kowalczyk") == ["level", "target"]
    assert miss("Telepathic Misdirection", "Donny Kowalczyk", level="inferior", target_seat=3) == []
    assert miss("Minion Tap") == ["amount"]
    assert miss("Minion Tap", amount=3) == []
    assert miss("Awe", "Alexa Draper", level="superior") == ["x"]
    assert miss("The Platinum Protocol", "Alice Chen") == ["discipline"]
    assert miss("The Platinum Protocol", "Alice Chen", discipline="obf") == []


def test_the_targets_of_a_political_action_are_its_terms_not_a_choice_of_the_play():
    # chosen when the referendum is called: confirmed then (terms-unconfirmed), whether the
    # play is the declaration, a card.play of the card, with or without terms
    lib = cards().library("Parity Shift")
    declare = {"type": "action.declare", "seat": 1, "action": "political", "card": "Parity Shift"}
    assert missing_choices(lib, declare) == []
    assert missing_choices(lib, dict(declare, terms="Vera")) == []
    assert missing_choices(lib, {"type": "card.play", "seat": 1, "card": "Parity Shift"}) == []
    kine = cards().library("Kine Resources Contested")
    assert missing_choices(kine, dict(declare, card=kine.name)) == []


def test_the_finding_message_names_the_same_choices():
    found = run([ev("turn.start", 1), ev("reaction", 2, card="Telepathic Misdirection",
                                         minion="Donny Kowalczyk")])
    assert [f["code"] for f in found] == ["card-choice-missing"]
    assert f"{CHOICE_WORDS['level']} and {CHOICE_WORDS['target']}" in found[0]["message"]
    assert found[0]["message"].startswith("Ben (seat 2) plays Telepathic Misdirection without announcing")
    assert codes([ev("turn.start", 1), ev("card.play", 1, card="Minion Tap", amount=2)]) == []
