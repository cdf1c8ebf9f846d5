"""The trainer's scenarios: every one replayed through the recorder engine, plus the file
format's validation.

The engine must report exactly the finding codes a scenario expects, and those codes must
support the scenario's answer (`scenarios.agreement`): the trainer can never teach what the
recorder contradicts.
"""
from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

import pytest

from judgekit import paths
from judgekit.game.cards import load_cards
from judgekit.rules.corpus import load_corpus
from judgekit.trainer import scenarios as S

FOLDER = paths.content_dir() / "trainer"


@lru_cache(maxsize=1)
def catalog() -> S.Catalog:
    return S.load_scenarios(FOLDER, load_cards())


@lru_cache(maxsize=1)
def guidelines():
    return load_corpus(paths.content_dir()).get("announcements")


def all_ids():
    return [s.id for s in catalog().scenarios]


# --- the content ------------------------------------------------------------------------

def test_at_least_forty_scenarios_covering_every_section():
    counts = catalog().counts()
    assert len(catalog()) >= 40
    assert set(counts) == set(S.SECTIONS)
    missing = [sec for sec, n in counts.items() if n == 0]
    assert not missing, f"sections without scenarios: {missing}"
    for sec in ("table-talk", "pace", "hypotheticals"):
        assert counts[sec] >= 3, sec


def test_every_guideline_section_is_a_trainer_section():
    doc = guidelines()
    assert set(doc.sections) | {"intro"} == set(S.SECTIONS)


@pytest.mark.parametrize("scenario_id", all_ids())
def test_engine_reports_the_expected_codes_and_agrees_with_the_answer(scenario_id):
    scenario = catalog().get(scenario_id)
    codes = [f["code"] for f in S.replay(scenario, load_cards())]
    assert codes == list(scenario.expect), f"{scenario.file}: {scenario_id}"
    assert S.agreement(scenario, codes) == []
    if scenario.answer == "correct":
        assert not S.faults(codes)


def test_answers_are_varied():
    answers = {s.answer for s in catalog().scenarios}
    # Every answer of the fixed set is right at least once.
    assert answers == set(S.ANSWERS)
    # The right answer is not always in the same position among the choices.
    positions = [s.shown_choices.index(s.answer) for s in catalog().scenarios]
    assert min(positions.count(p) for p in range(3)) >= 8
    s = catalog().scenarios[0]
    assert sorted(s.shown_choices) == sorted(s.choices) and s.shown_choices == s.shown_choices


def test_anchors_exist_in_the_rules_corpus():
    doc = guidelines()
    anchors = {b.anchor for b in doc.preamble}
    for sec in doc.sections.values():
        anchors |= {b.anchor for b in sec.blocks}
    bad = [(s.id, s.anchor) for s in catalog().scenarios if s.anchor and s.anchor not in anchors]
    assert not bad


def test_links_point_at_the_section_and_example():
    s = catalog().get("cd-superior-wake-without-superior")
    assert s.url == "/rules/announcements/card-declaration#card-declaration-ex1"
    assert s.example_label == "Example 1"
    intro = catalog().get("intro-lock-after-announcing")
    assert intro.url == "/rules/announcements#intro-p5"
    assert intro.example_label is None


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower().replace("’", "'"))


def test_texts_are_our_own_words():
    """No run of 8 words of a scenario's text appears in the guidelines."""
    doc = guidelines()
    source = " ".join(b.plain() for b in doc.preamble)
    source += " " + " ".join(sec.plain() for sec in doc.sections.values())
    words = _words(source)
    grams = {tuple(words[i:i + 8]) for i in range(len(words) - 7)}
    copied = []
    for s in catalog().scenarios:
        for field in ("situation", "statement", "explanation"):
            w = _words(getattr(s, field))
            for i in range(len(w) - 7):
                if tuple(w[i:i + 8]) in grams:
                    copied.append((s.id, field, " ".join(w[i:i + 8])))
                    break
    assert not copied


def test_scenarios_do_not_reuse_a_guideline_example_unchanged():
    """A scenario echoing an example changes the names: none uses the example's vampires."""
    doc = guidelines()
    examples = {b.anchor: b.plain() for sec in doc.sections.values() for b in sec.examples}
    names = {"Andi Liu", "Victoria Ash", "Modius", "Donny Kowalczyk", "Catalina Vega",
             "Mkhokheli", "Alice Chen", "Alexa Draper", "Carlton van Wyk"}
    reused = []
    for s in catalog().scenarios:
        if not s.anchor or s.anchor not in examples:
            continue
        text = examples[s.anchor]
        mine = " ".join(str(e.get(k, "")) for e in s.events for k in ("minion", "card", "vampire"))
        same = [n for n in names if n in text and n in mine]
        if len(same) >= 2:
            reused.append((s.id, same))
    assert not reused


# Sessions mix questions from every section in any order, so a question may not lean on
# another one ("Same table.", "Same bleed: …", "as before"): each names its own table.
ANOTHER_QUESTION = re.compile(
    r"^\W*same\b|\bsame (table|bleed|game|situation|action|referendum|players|seats|turn|combat"
    r"|vote|deal|negotiation)\b|\bas before\b|\b(previous|earlier|other) (question|scenario)"
    r"|\bagain\b", re.IGNORECASE)


def refers_to_another_question(text: str) -> bool:
    return bool(ANOTHER_QUESTION.search(" ".join(text.split())))


def test_the_check_for_references_to_another_question_catches_them():
    assert refers_to_another_question("Same table. Sam's Alexa Draper calls Parity Shift.")
    assert refers_to_another_question("Same bleed: Uma's Catalina Vega bleeds Viktor for 2.")
    assert refers_to_another_question("Uma bleeds Viktor again, as before.")
    assert refers_to_another_question("Olga plays the same deal as in the previous question.")
    assert not refers_to_another_question("Wake effects use the same window as cancellations.")
    assert not refers_to_another_question("Viktor is entitled to one last question and one answer.")


@pytest.mark.parametrize("scenario_id", all_ids())
def test_each_question_stands_alone(scenario_id):
    s = catalog().get(scenario_id)
    for field in ("title", "situation", "statement", "question"):
        text = getattr(s, field)
        assert not refers_to_another_question(text), f"{s.file}: {s.id}: {field}: {text!r}"
    # The situation sets its own table: the players it names are seated in it.
    names = [n for n in s.seats if re.search(rf"\b{re.escape(n)}\b", s.situation + s.statement)]
    assert names, f"{s.id}: the situation names none of its players"


def test_a_player_inviting_a_bleed_is_the_acting_players_prey():
    """Bleeds go to the prey: "bleed me" is said by the acting player's prey (QA: Olga, the
    predator, told Pavel "bleed me and you'll just be bleeding yourself")."""
    checked = 0
    for s in catalog().scenarios:
        if not re.search(r"\bbleed me\b", s.statement, re.IGNORECASE):
            continue
        acting = next(e["seat"] for e in s.events if e["type"] == "sync")
        speaker = next(e["seat"] for e in s.events if e["type"] == "talk")
        prey = acting % len(s.seats) + 1
        assert speaker == prey, f"{s.id}: seat {speaker} is not the prey of seat {acting}"
        assert "bleeding yourself" not in s.statement   # Deflection never sends it back
        checked += 1
    assert checked >= 1


# --- the format --------------------------------------------------------------------------

GOOD = '''
section = "votes"
seats = ["A", "B", "C", "D", "E"]

[[scenario]]
id = "v-one"
title = "t"
situation = "s"
statement = "st"
choices = ["correct", "incomplete"]
answer = "incomplete"
explanation = "e"
events = [{type = "vote", seat = 2, votes = 2}]
expect = ["vote-incomplete"]
'''


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_a_good_file_loads(tmp_path):
    write(tmp_path, "votes.toml", GOOD)
    cat = S.load_scenarios(tmp_path, load_cards())
    (s,) = cat.scenarios
    assert (s.id, s.section, s.question, s.seats[0], s.file) == \
        ("v-one", "votes", "What would the judge say?", "A", "votes.toml")
    assert s.events[0]["judge"] == "anonymous"       # validated like the API does


@pytest.mark.parametrize("change, words", [
    (('answer = "incomplete"', 'answer = "maybe"'), "answer 'maybe' is not one of"),
    (('choices = ["correct", "incomplete"]', 'choices = ["correct", "too-late"]'),
     "the answer 'incomplete' is not among the choices"),
    (('choices = ["correct", "incomplete"]', 'choices = ["correct", "incomplete", "nope"]'),
     "unknown choice"),
    (('expect = ["vote-incomplete"]', 'expect = ["vote-missing"]'), "unknown finding code"),
    (('{type = "vote", seat = 2, votes = 2}', '{type = "vote", seat = 9, votes = 2}'),
     "event 1: seat: seat 9 is out of range"),
    (('{type = "vote", seat = 2, votes = 2}', '{type = "vote", seat = 2, votes = 2, minion = "Nobody Atall"}'),
     "event 1: minion: unknown field"),
    (('title = "t"\n', ''), "title is missing"),
    (('id = "v-one"', 'id = "V One"'), "not a slug"),
    (('id = "v-one"', 'id = "v-one"\nanchor = "shortcuts-ex1"'), "anchor 'shortcuts-ex1' must be"),
    (('id = "v-one"', 'id = "v-one"\ncolour = "red"'), "unknown field(s): colour"),
    (('events = [{type = "vote", seat = 2, votes = 2}]', 'events = []'), "events must be"),
])
def test_a_malformed_scenario_names_the_file_and_the_scenario(tmp_path, change, words):
    write(tmp_path, "votes.toml", GOOD.replace(*change))
    with pytest.raises(S.ScenarioFileError) as info:
        S.load_scenarios(tmp_path, load_cards())
    message = str(info.value)
    assert words in message
    assert message.startswith("votes.toml: scenario ")
    expected_label = "'V One'" if "V One" in change[1] else "'v-one'"
    assert expected_label in message


def test_invalid_toml_names_the_file(tmp_path):
    write(tmp_path, "pace.toml", "[[scenario]\nid = 1")
    with pytest.raises(S.ScenarioFileError) as info:
        S.load_scenarios(tmp_path)
    assert str(info.value).startswith("pace.toml: not valid TOML")


def test_a_scenario_without_id_is_named_by_its_position(tmp_path):
    write(tmp_path, "votes.toml", GOOD + GOOD.split("\n", 3)[3].replace('id = "v-one"\n', ""))
    with pytest.raises(S.ScenarioFileError) as info:
        S.load_scenarios(tmp_path, load_cards())
    assert "votes.toml: scenario '#2': id is missing" in str(info.value)


def test_duplicate_ids_across_files(tmp_path):
    write(tmp_path, "a.toml", GOOD)
    write(tmp_path, "b.toml", GOOD)
    with pytest.raises(S.ScenarioFileError) as info:
        S.load_scenarios(tmp_path, load_cards())
    assert "b.toml: scenario 'v-one': id already used in a.toml" in str(info.value)


def test_every_problem_is_reported_not_just_the_first(tmp_path):
    write(tmp_path, "votes.toml", GOOD.replace('answer = "incomplete"', 'answer = "x"')
          .replace('title = "t"\n', ''))
    _, problems = S.check_file(tmp_path / "votes.toml", load_cards())
    assert len(problems) >= 2 and all(p.scenario == "v-one" for p in problems)


def test_an_empty_folder_is_an_error(tmp_path):
    with pytest.raises(S.ScenarioFileError):
        S.load_scenarios(tmp_path)


# --- agreement -------------------------------------------------------------------------------

def _scenario(answer, choices, expect=()):
    return S.Scenario(id="x", section="votes", title="t", situation="s", statement="s",
                      choices=tuple(choices), answer=answer, explanation="e",
                      events=({"type": "note", "text": "x"},), expect=tuple(expect),
                      seats=("A", "B", "C", "D"))


def test_agreement_rejects_a_correct_answer_with_a_fault():
    s = _scenario("correct", ["correct", "incomplete"])
    assert S.agreement(s, ["vote-incomplete"])
    assert S.agreement(s, ["shortcut-voided"]) == []       # informative only


def test_agreement_needs_a_code_of_the_answer():
    s = _scenario("too-late", ["too-late", "correct"])
    assert S.agreement(s, []) and S.agreement(s, ["vote-incomplete"])
    assert S.agreement(s, ["cancel-too-late"]) == []


def test_agreement_rejects_two_right_choices():
    s = _scenario("incomplete", ["incomplete", "forbidden-shortcut"])
    assert S.agreement(s, ["terms-unconfirmed", "action-pass-missing"])
    # A fault of an answer that is not offered does not make the question ambiguous.
    s2 = _scenario("incomplete", ["incomplete", "correct"])
    assert S.agreement(s2, ["terms-unconfirmed", "action-pass-missing"]) == []
