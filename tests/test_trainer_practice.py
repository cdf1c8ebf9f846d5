"""Free practice: phrases -> events -> the recorder engine -> advice in plain words."""
from __future__ import annotations

from functools import lru_cache

import pytest

from judgekit import paths
from judgekit.game.cards import load_cards
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
    r = check("bleed-with-an-action-card", ["alexa-bleeds", "with-govern", "inferior", "for-3", "replace"])
    assert codes(r) == ["action-pass-missing"]
    assert "Any blocks?" in r.advice[0].tip
    assert r.advice[0].url == "/rules/announcements/forbidden-shortcuts"
    assert r.advice[0].rule == "Forbidden shortcuts"


def test_missing_pass_speaks_to_the_learner_about_what_they_left_out():
    """QA: the advice read "Recorder: Bram (seat 2) passes on blocking before Ana (seat 1)
    passed", about a pass the learner never made (Bram's "No block" is the table's reply)."""
    r = check("bleed-with-an-action-card", ["alexa-bleeds", "with-govern", "inferior", "for-3", "replace"])
    tip = r.advice[0].tip
    assert tip.startswith("You did not pass the action (“Any blocks?”) before Bram answered “No block”")
    assert r.advice[0].detail == ""          # the recorder's line narrates Bram's event
    shown = " ".join(a.tip + " " + a.detail for a in r.advice)
    assert "seat" not in shown and "passes on blocking" not in shown
    # An undirected action: the prey answers first, and is the one named.
    r = check("hunt-and-wait", ["hunt", "wait-bram", "wait-elin", "take"])
    assert r.advice[0].tip.startswith("You did not pass the action (“Any blocks?”) before Bram")
    # Forgetting the end of the turn: Bram starting his turn is not the learner's doing either.
    r = check("finish-your-turn", ["transfers", "discard"])
    assert r.advice[0].tip.startswith("You did not say that your turn is over")
    assert r.advice[0].detail == ""


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
    ("bleed-with-an-action-card", ["alexa-bleeds", "with-govern", "for-3", "replace", "any-blocks"],
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
    r = check("two-cards-one-action", ["lucinde-bleeds", "with-govern", "inferior", "for-4", "threats",
                                       "inferior", "replace", "total-5", "any-blocks"])
    assert codes(r) == ["replace-missing"]
    assert "before you play Threats" in r.advice[0].tip
    assert "Govern the Unaligned" in r.advice[0].detail


def test_replacement_advice_cites_forbidden_shortcuts_in_every_prompt():
    """Replacing a card before the next one is a forbidden shortcut: the advice about it
    links there, even in a prompt that practises action declaration (QA)."""
    r = check("bleed-with-an-action-card", ["alexa-bleeds", "with-govern", "inferior", "for-3", "any-blocks"])
    assert codes(r) == ["goal"] and "Replace" in r.advice[0].tip
    assert r.advice[0].url == "/rules/announcements/forbidden-shortcuts#forbidden-shortcuts-p2"
    assert r.advice[0].rule == "Forbidden shortcuts"
    for prompt in prompts().values():
        for goal in prompt.goals:
            if goal.match.get("type") == "card.replace":
                assert goal.cite(prompt)[1] == "Forbidden shortcuts", prompt.id
    # a goal without its own rule cites the prompt's section
    r = check("bleed-with-an-action-card", ["alexa-bleeds", "for-1", "any-blocks"])
    assert r.advice[0].rule == "Action declaration"


def test_votes_need_the_voter_and_the_side():
    assert codes(check("vote-with-one-vampire", ["three", "against"])) == ["vote-vampire-missing", "goal"]
    assert codes(check("vote-with-one-vampire", ["anneke", "three"])) == ["vote-incomplete", "goal"]
    # Phrase order does not matter inside one vote: "3 votes, Anneke, against" is one vote.
    assert check("vote-with-one-vampire", ["three", "anneke", "against"]).ok


def test_undirected_action_waits_for_both_and_for_the_prey_first():
    assert codes(check("hunt-and-wait", ["hunt", "any-blocks", "wait-bram", "take"])) == ["block-pass-missing"]
    # the predator's "no block" before the prey answered is not the forbidden shortcut (the
    # guidelines forbid the predator *blocking* first: docs/recorder.md); the prey's block
    # opportunity is untouched
    assert codes(check("hunt-and-wait", ["hunt", "any-blocks", "wait-elin", "wait-bram", "take"])) == []


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
    r = check("bleed-with-an-action-card", ["nope", "alexa-bleeds", "with-govern", "inferior", "for-3",
                                            "replace", "any-blocks"])
    assert r.ok and r.said[0] == "Alexa Draper bleeds Bram"


def test_typed_notation_goes_through_the_same_checks():
    if P.notation_parser() is None:
        pytest.skip("the recorder's notation module is not available")
    prompt = prompts()["bleed-with-an-action-card"]
    good = P.check_line(prompt, "1 bleed Alexa Draper =3 +Govern the Unaligned :dom; 1 r; 1 go", load_cards())
    assert good.ok, good.to_dict()
    # Without a seat, a statement is the player's own.
    bad = P.check_line(prompt, "bleed Alexa Draper +Govern the Unaligned; r", load_cards())
    assert [a.code for a in bad.advice] == ["bleed-amount-missing", "card-choice-missing",
                                            "action-pass-missing", "goal"]
    assert P.check_line(prompt, "1 fly", load_cards()).error


# Every prompt: a declaration tapped as phrases and the same declaration typed in the
# notation get the same advice, and that advice is the one expected. (QA: typing "=1", "=3"
# or ":DOM" on the Govern the Unaligned bleed said "nothing missing" while tapping "for 1"
# said misrepresentation: the real bleed amount rode on a phrase, so typing lost it.)
SAME_ADVICE = {
    "bleed-with-an-action-card": [
        ("model answer", "alexa-bleeds with-govern inferior for-3 replace any-blocks",
         "bleed Alexa Draper =3 +Govern the Unaligned :dom; r; go", []),
        ("seats typed out", "alexa-bleeds with-govern inferior for-3 replace any-blocks",
         "1 bleed Alexa Draper =3 +Govern the Unaligned :dom; 1 r; 1 go", []),
        ("for 2, the true total is 3 (inferior Govern is +2 bleed)",
         "alexa-bleeds with-govern inferior for-2 replace any-blocks",
         "bleed Alexa Draper =2 +Govern the Unaligned :dom; r; go", ["misrepresented"]),
        ("for 1, the true total is 3", "alexa-bleeds with-govern inferior for-1 replace any-blocks",
         "bleed Alexa Draper =1 +Govern the Unaligned :dom; r; go", ["misrepresented"]),
        ("superior, the task says inferior", "alexa-bleeds with-govern superior for-3 replace any-blocks",
         "bleed Alexa Draper =3 +Govern the Unaligned :DOM; r; go", ["goal"]),
        ("superior for 1: the task's total is for inferior only",
         "alexa-bleeds with-govern superior for-1 replace any-blocks",
         "bleed Alexa Draper =1 +Govern the Unaligned :DOM; r; go", ["goal"]),
        ("no amount", "alexa-bleeds with-govern inferior replace any-blocks",
         "bleed Alexa Draper +Govern the Unaligned :dom; r; go", ["bleed-amount-missing"]),
        ("no pass", "alexa-bleeds with-govern inferior for-3 replace",
         "bleed Alexa Draper =3 +Govern the Unaligned :dom; r", ["action-pass-missing"]),
        ("no level", "alexa-bleeds with-govern for-3 replace any-blocks",
         "bleed Alexa Draper =3 +Govern the Unaligned; r; go", ["card-choice-missing", "goal"]),
        ("no card", "alexa-bleeds for-1 any-blocks", "bleed Alexa Draper =1; go", ["goal", "goal"]),
        ("no replacement", "alexa-bleeds with-govern inferior for-3 any-blocks",
         "bleed Alexa Draper =3 +Govern the Unaligned :dom; go", ["goal"]),
    ],
    "two-cards-one-action": [
        ("model answer", "lucinde-bleeds with-govern inferior for-4 replace threats inferior replace total-5 any-blocks",
         "bleed Lucinde, Alastor =4 +Govern the Unaligned :dom; r; "
         "play Lucinde, Alastor +Threats :dom =+1; r; total =5; go", []),
        ("Threats at superior, the task says inferior",
         "lucinde-bleeds with-govern inferior for-4 replace threats superior replace total-5 any-blocks",
         "bleed Lucinde, Alastor =4 +Govern the Unaligned :dom; r; "
         "play Lucinde, Alastor +Threats :DOM =+1; r; total =5; go", ["goal"]),
        ("for 3, the true total is 4", "lucinde-bleeds with-govern inferior for-3 replace threats inferior replace total-5 any-blocks",
         "bleed Lucinde, Alastor =3 +Govern the Unaligned :dom; r; "
         "play Lucinde, Alastor +Threats :dom =+1; r; total =5; go", ["misrepresented"]),
        ("superior, the task says inferior", "lucinde-bleeds with-govern superior for-4 replace threats inferior replace total-5 any-blocks",
         "bleed Lucinde, Alastor =4 +Govern the Unaligned :DOM; r; "
         "play Lucinde, Alastor +Threats :dom =+1; r; total =5; go", ["goal"]),
        ("second card before replacing", "lucinde-bleeds with-govern inferior for-4 threats inferior replace total-5 any-blocks",
         "bleed Lucinde, Alastor =4 +Govern the Unaligned :dom; "
         "play Lucinde, Alastor +Threats :dom =+1; r; total =5; go", ["replace-missing"]),
        ("the new total not said", "lucinde-bleeds with-govern inferior for-4 replace threats inferior replace any-blocks",
         "bleed Lucinde, Alastor =4 +Govern the Unaligned :dom; r; "
         "play Lucinde, Alastor +Threats :dom =+1; r; go", ["bleed-total-not-restated"]),
        ("no amount", "lucinde-bleeds with-govern inferior replace threats inferior replace total-5 any-blocks",
         "bleed Lucinde, Alastor +Govern the Unaligned :dom; r; "
         "play Lucinde, Alastor +Threats :dom =+1; r; total =5; go", ["bleed-amount-missing"]),
        ("no pass", "lucinde-bleeds with-govern inferior for-4 replace threats inferior replace total-5",
         "bleed Lucinde, Alastor =4 +Govern the Unaligned :dom; r; "
         "play Lucinde, Alastor +Threats :dom =+1; r; total =5", ["action-pass-missing"]),
    ],
    "redirect-a-bleed": [
        ("model answer", "no-block deflection inferior to-dario", "nb; react Andi Liu +Deflection :dom @4", []),
        ("superior, the task says inferior", "no-block deflection superior to-dario",
         "nb; react Andi Liu +Deflection :DOM @4", ["goal"]),
        ("no block pass", "deflection inferior to-dario", "react Andi Liu +Deflection :dom @4",
         ["block-pass-missing", "goal"]),
        ("no target", "no-block deflection inferior", "nb; react Andi Liu +Deflection :dom",
         ["card-choice-missing"]),
        ("a block instead", "block", "block Andi Liu", ["goal", "goal"]),
    ],
    "vote-with-one-vampire": [
        ("model answer", "anneke three against", "vote 3 against Anneke", []),
        ("no voter", "three against", "vote 3 against", ["vote-vampire-missing", "goal"]),
        ("no side", "anneke three", "vote 3 Anneke", ["vote-incomplete", "goal"]),
        ("the other vampire", "alice two against", "vote 2 against Alice Chen", ["goal"]),
    ],
    "hunt-and-wait": [
        ("model answer", "hunt any-blocks wait-bram wait-elin take", "hunt Nathan Turner; go; 2 nb; 5 nb; ok", []),
        ("no pass", "hunt wait-bram wait-elin take", "hunt Nathan Turner; 2 nb; 5 nb; ok",
         ["action-pass-missing"]),
        ("predator not waited for", "hunt any-blocks wait-bram take", "hunt Nathan Turner; go; 2 nb; ok",
         ["block-pass-missing"]),
        ("predator first", "hunt any-blocks wait-elin wait-bram take", "hunt Nathan Turner; go; 5 nb; 2 nb; ok",
         []),
    ],
    "master-card-amount": [
        ("model answer", "tap alexa three replace", "play +Minion Tap @Alexa Draper =3; r", []),
        ("no amount", "tap alexa replace", "play +Minion Tap @Alexa Draper; r", ["card-choice-missing"]),
        ("no replacement", "tap alexa three", "play +Minion Tap @Alexa Draper =3", ["goal"]),
    ],
    "finish-your-turn": [
        ("model answer", "transfers discard end", "transfer =4 Theo Bell; discard; end", []),
        ("no end of turn", "transfers discard", "transfer =4 Theo Bell; discard", ["end-of-turn-missing"]),
        ("discard before influence", "discard transfers end", "discard; transfer =4 Theo Bell; end",
         ["phase-passed"]),
    ],
}


def test_the_same_advice_table_covers_every_prompt_and_its_model():
    assert set(SAME_ADVICE) == set(prompts())
    for prompt_id, cases in SAME_ADVICE.items():
        assert cases[0][1].split() == list(prompts()[prompt_id].model), prompt_id


@pytest.mark.parametrize("prompt_id, label, said, line, expected", [
    pytest.param(prompt_id, *case, id=f"{prompt_id}: {case[0]}")
    for prompt_id, cases in SAME_ADVICE.items() for case in cases
])
def test_tapped_and_typed_declarations_get_the_same_advice(prompt_id, label, said, line, expected):
    if P.notation_parser() is None:
        pytest.skip("the recorder's notation module is not available")
    prompt = prompts()[prompt_id]
    assert all(prompt.phrase(p) for p in said.split()), said
    tapped = P.check(prompt, said.split(), load_cards())
    typed = P.check_line(prompt, line, load_cards())
    assert tapped.error is None and typed.error is None, (tapped.error, typed.error)
    assert codes(tapped) == codes(typed) == expected, label
    assert [a.tip for a in tapped.advice] == [a.tip for a in typed.advice]
    assert tapped.ok is typed.ok is (expected == [])


def test_situate_gives_the_level_a_discipline_says_and_the_situation_facts():
    prompt = prompts()["bleed-with-an-action-card"]
    bleed = {"type": "action.declare", "action": "bleed", "minion": "alexa draper",
             "card": "govern the unaligned", "amount": 1}
    inferior, = P.situate(prompt, [dict(bleed, discipline="dom")], load_cards())
    assert inferior["seat"] == prompt.you and inferior["card"] == "Govern the Unaligned"
    assert inferior["level"] == "inferior" and inferior["actual_amount"] == 3
    superior, = P.situate(prompt, [dict(bleed, discipline="DOM")], load_cards())
    assert superior["level"] == "superior" and "actual_amount" not in superior
    # The situation is what it is: a fact overrides whatever came with the declaration.
    tapped, = P.situate(prompt, [dict(bleed, level="inferior", actual_amount=1)], load_cards())
    assert tapped["actual_amount"] == 3
    assert P.situate(prompt, [{"type": "vote", "seat": 9}], load_cards()) \
        == "statement 1: seat: seat 9 is out of range 1..5"


def test_a_situation_fact_on_a_phrase_is_refused(tmp_path):
    (tmp_path / "p.toml").write_text('''
[[prompt]]
id = "x"
section = "action-declaration"
title = "t"
situation = "s"
task = "t"
seats = ["A", "B", "C", "D"]
you = 1
model = ["a"]
[[prompt.fact]]
match = {type = "action.declare", action = "bleed", card = "Govern the Unalligned"}
adds = {actual_amount = 2}
[[prompt.fact]]
match = {type = "action.declare", action = "bleed"}
adds = {actual_amount = "two"}
[[prompt.fact]]
match = {type = "action.declare", action = "bleed"}
adds = {amount = 2}
[[prompt.phrase]]
id = "a"
text = "A bleeds"
event = {type = "action.declare", seat = 1, action = "bleed"}
adds = {actual_amount = 2}
to = ["action.declare"]
''')
    with pytest.raises(ValueError) as info:
        P.load_prompts(tmp_path, load_cards())
    message = str(info.value)
    assert "phrase 'a': actual_amount is a fact of the situation" in message
    assert "fact 1: card: unknown card name 'Govern the Unalligned'" in message
    assert "fact 2: actual_amount: must be a whole number" in message
    assert "fact 3: adds may only set actual_amount, actual_stealth" in message


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
