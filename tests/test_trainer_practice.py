"""Free practice: phrases -> events -> the recorder engine -> advice in plain words."""
from __future__ import annotations

from functools import lru_cache

import pytest

from judgekit import paths
from judgekit.recorder.cards import load_cards
from judgekit.trainer import practice as P

FOLDER = paths.content_dir() / "trainer" / "practice"


@lru_cache(maxsize=1)
def prompts() -> dict[str, P.Prompt]:
    return {p.id: p for p in P.load_prompts(FOLDER, load_cards())}


def check(prompt_id, said):
    return P.check(prompts()[prompt_id], said, load_cards())


def codes(result):
    return [a.code for a in result.advice]


@pytest.mark.parametrize("prompt_id", sorted(prompts()))
def test_each_model_answer_is_clean_and_meets_every_goal(prompt_id):
    prompt = prompts()[prompt_id]
    result = check(prompt_id, list(prompt.model))
    assert result.ok, [a.to_dict() for a in result.advice]
    assert result.advice == [] and result.error is None
    assert len(result.events) >= 1


def test_missing_pass_after_the_action():
    r = check("bleed-with-an-action-card", ["alexa-bleeds", "with-govern", "inferior", "for-2", "replace"])
    assert codes(r) == ["action-pass-missing"]
    assert "Any blocks?" in r.advice[0].tip
    assert r.advice[0].url == "/rules/announcements/forbidden-shortcuts"
    assert r.advice[0].rule == "Forbidden shortcuts"


def test_missing_block_pass_before_a_reaction():
    r = check("redirect-a-bleed", ["deflection", "inferior", "to-dario"])
    assert codes(r) == ["block-pass-missing", "goal"]
    assert r.advice[0].tip.startswith("Pass on the block first")
    assert "No block" in r.advice[0].tip


def test_missing_bleed_amount():
    r = check("bleed-with-an-action-card", ["alexa-bleeds", "with-govern", "inferior", "replace", "any-blocks"])
    assert codes(r) == ["bleed-amount-missing"]
    assert "bleed amount" in r.advice[0].tip
    assert "without stating the amount" in r.advice[0].detail   # the recorder's own words


def test_wrong_bleed_amount_is_a_misrepresentation():
    r = check("bleed-with-an-action-card", ["alexa-bleeds", "with-govern", "inferior", "for-1", "replace", "any-blocks"])
    assert codes(r) == ["misrepresented"]


@pytest.mark.parametrize("prompt_id, said, words", [
    ("bleed-with-an-action-card", ["alexa-bleeds", "with-govern", "for-2", "replace", "any-blocks"],
     "Name the level (inferior or superior) as you play Govern the Unaligned"),
    ("redirect-a-bleed", ["no-block", "deflection"],
     "Name the level (inferior or superior) and the target as you play Deflection"),
    ("redirect-a-bleed", ["no-block", "deflection", "inferior"], "Name the target as you play Deflection"),
    ("master-card-amount", ["tap", "alexa", "replace"], "Name the amount as you play Minion Tap"),
])
def test_missing_card_choice_says_which(prompt_id, said, words):
    r = check(prompt_id, said)
    assert "card-choice-missing" in codes(r)
    tip = next(a.tip for a in r.advice if a.code == "card-choice-missing")
    assert tip.startswith(words)


def test_second_card_before_replacing_the_first():
    r = check("two-cards-one-action", ["lucinde-bleeds", "with-govern", "inferior", "for-3", "cloak",
                                       "replace", "any-blocks"])
    assert codes(r) == ["replace-missing"]
    assert "before you play Cloak the Gathering" in r.advice[0].tip
    assert "Govern the Unaligned" in r.advice[0].detail


def test_votes_need_the_voter_and_the_side():
    assert codes(check("vote-with-one-vampire", ["three", "against"])) == ["vote-vampire-missing", "goal"]
    assert codes(check("vote-with-one-vampire", ["anneke", "three"])) == ["vote-incomplete", "goal"]
    # Phrase order does not matter inside one vote: "3 votes, Anneke, against" is one vote.
    assert check("vote-with-one-vampire", ["three", "anneke", "against"]).ok


def test_undirected_action_waits_for_both_and_for_the_prey_first():
    assert codes(check("hunt-and-wait", ["hunt", "any-blocks", "wait-bram", "take"])) == ["block-pass-missing"]
    assert codes(check("hunt-and-wait", ["hunt", "any-blocks", "wait-elin", "wait-bram", "take"])) \
        == ["block-out-of-order"]


def test_end_of_turn_and_phase_order():
    assert codes(check("finish-your-turn", ["transfers", "discard"])) == ["end-of-turn-missing"]
    assert codes(check("finish-your-turn", ["discard", "transfers", "end"])) == ["phase-passed"]


def test_a_phrase_out_of_place_is_explained_and_the_engine_still_checks():
    r = check("master-card-amount", ["tap", "alexa", "replace", "three"])
    assert codes(r) == ["order", "card-choice-missing"]
    assert r.advice[0].tip.startswith("“moving 3 blood” has nothing to belong to here")
    # A second amount on the same card is out of place too.
    assert codes(check("bleed-with-an-action-card",
                       ["alexa-bleeds", "for-1", "for-2", "with-govern", "inferior", "replace", "any-blocks"]))[0] == "order"


def test_unmet_goal_gives_its_hint():
    r = check("bleed-with-an-action-card", ["alexa-bleeds", "for-1", "any-blocks"])
    assert r.ok is False and codes(r) == ["goal", "goal"]
    assert "Govern the Unaligned" in r.advice[0].tip


def test_nothing_said_and_unknown_phrases():
    r = check("bleed-with-an-action-card", [])
    assert not r.ok and r.error == "nothing said yet"
    r = check("bleed-with-an-action-card", ["nope", "alexa-bleeds", "with-govern", "inferior", "for-2",
                                            "replace", "any-blocks"])
    assert r.ok and r.said[0] == "Alexa Draper bleeds Bram"


def test_typed_notation_goes_through_the_same_checks():
    if P.notation_parser() is None:
        pytest.skip("the recorder's notation module is not available")
    prompt = prompts()["bleed-with-an-action-card"]
    good = P.check_line(prompt, "1 bleed Alexa Draper =2 +Govern the Unaligned :dom; 1 r; 1 go", load_cards())
    assert good.ok, good.to_dict()
    # Without a seat, a statement is the player's own.
    bad = P.check_line(prompt, "bleed Alexa Draper +Govern the Unaligned; r", load_cards())
    assert [a.code for a in bad.advice] == ["bleed-amount-missing", "card-choice-missing", "action-pass-missing"]
    assert P.check_line(prompt, "1 fly", load_cards()).error


def test_a_malformed_prompt_names_the_file_and_prompt(tmp_path):
    (tmp_path / "p.toml").write_text('''
[[prompt]]
id = "x"
section = "votes"
title = "t"
situation = "s"
task = "t"
seats = ["A", "B", "C", "D"]
you = 7
model = ["nope"]
[[prompt.phrase]]
id = "a"
text = "A"
event = {type = "vote", seat = 9}
''')
    with pytest.raises(ValueError) as info:
        P.load_prompts(tmp_path, load_cards())
    message = str(info.value)
    assert "p.toml: scenario 'x': you must be a seat number" in message
    assert "phrase 'a': seat: seat 9 is out of range" in message
    assert "model must list phrase ids" in message
