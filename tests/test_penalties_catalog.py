"""The infraction catalogs in content/penalties: facts, validation, lookup."""
from __future__ import annotations

import pytest

from judgekit.tournament.penalties.catalog import (
    CatalogError, check_catalog, default_catalog, load_catalog, load_catalogs, normalise,
    parse_catalog,
)


@pytest.fixture(scope="module")
def catalogs():
    return load_catalogs()


@pytest.fixture(scope="module")
def v2(catalogs):
    return catalogs["v2"]


@pytest.fixture(scope="module")
def v1(catalogs):
    return catalogs["v1"]


# --- the facts of ../shared/reference/penalties.md -------------------------------------

C, W, SA, DQ, GL = "Caution", "Warning", "Standings Adjustment", "Disqualification", "Game Loss"
DQNP = "Disqualification without prize"

# (category, infraction, default, {variant penalty, ...}, escalates)
V2_TABLE = [
    ("Procedural Error", "Missed Mandatory Effect", C, {W}, True),
    ("Procedural Error", "Card Access Error", C, set(), True),
    ("Procedural Error", "Game Rule Violation", C, {W}, True),
    ("Procedural Error", "Failure to Maintain Game State", SA, set(), False),
    ("Tournament Error", "Illegal Decklist", W, {SA}, True),
    ("Tournament Error", "Illegal Main Deck (Legal Decklist)", SA, set(), True),
    ("Tournament Error", "Illegal Main Deck (No Decklist Used)", SA, set(), True),
    ("Tournament Error", "Outside Assistance", SA, set(), True),
    ("Tournament Error", "Slow Play", W, {C}, True),
    ("Tournament Error", "Limited Procedure Violation", C, set(), True),
    ("Tournament Error", "Public Information Miscommunication", W, {W}, False),
    ("Tournament Error", "Obscuring Game State", C, set(), True),
    ("Tournament Error", "Marked Cards", W, {SA}, True),
    ("Tournament Error", "Insufficient Shuffling", W, set(), True),
    ("Unsportsmanlike Conduct", "Minor", W, set(), True),
    ("Unsportsmanlike Conduct", "Major", SA, set(), True),
    ("Unsportsmanlike Conduct", "Aggressive Behaviour", DQ, set(), True),
    ("Unsportsmanlike Conduct", "Bribery and Wagering", DQ, set(), True),
    ("Unsportsmanlike Conduct", "Theft of Tournament Material", DQ, set(), True),
    ("Unsportsmanlike Conduct", "Stalling", DQ, set(), True),
    ("Unsportsmanlike Conduct", "Cheating", DQ, set(), True),
    ("Unsportsmanlike Conduct", "Fraud", DQ, set(), True),
    ("Unsportsmanlike Conduct", "Collusion", DQ, set(), True),
    ("Unsportsmanlike Conduct", "Health & Safety Disruption", W, set(), True),
    ("Unsportsmanlike Conduct", "Rage-Quitting", DQ, set(), True),
    ("Unsportsmanlike Conduct", "Failure to Play to Win", W, {SA}, True),
]

V1_TABLE = [
    ("Deck Problems", "Illegal Decklist", W, set(), True),
    ("Deck Problems", "Illegal Main Deck (Legal Decklist)", GL, set(), True),
    ("Deck Problems", "Illegal Main Deck (No Decklist Used)", GL, set(), True),
    ("Procedural Error", "Minor", C, {GL}, True),
    ("Procedural Error", "Major", W, {GL}, True),
    ("Procedural Error", "Severe", GL, set(), True),
    ("Procedural Error", "Misrepresentation", C, set(), True),
    ("Card Drawing", "Drawing Extra Cards", W, set(), True),
    ("Card Drawing", "Looking at Extra Cards", C, {GL}, True),
    ("Card Drawing", "Improper Drawing at Start of Game", None, set(), False),
    ("Card Drawing", "Failure to Draw", C, set(), True),
    ("Marked Cards", "No Pattern", C, set(), True),
    ("Marked Cards", "Observable Pattern", GL, set(), True),
    ("Slow Play", "Playing Slowly", C, set(), True),
    ("Slow Play", "Exceeding Pre-Game Time Limit", C, set(), True),
    ("Unsportsmanlike Conduct", "Minor", W, set(), True),
    ("Unsportsmanlike Conduct", "Major", GL, set(), True),
    ("Unsportsmanlike Conduct", "Severe", DQNP, set(), False),
    ("Cheating", "Bribery / Fraud / Collusion", DQNP, set(), False),
    ("Cheating", "Stalling", GL, set(), True),
]


def _entry(catalog, category, infraction):
    hits = [i for i in catalog.infractions if i.category == category and i.infraction == infraction]
    assert len(hits) == 1, (category, infraction)
    return hits[0]


@pytest.mark.parametrize("category,infraction,default,variants,escalates", V2_TABLE)
def test_v2_entries(v2, category, infraction, default, variants, escalates):
    inf = _entry(v2, category, infraction)
    assert inf.default == default
    assert {v.penalty for v in inf.variants} == variants
    assert inf.escalates is escalates
    if default in (SA, DQ):
        assert inf.requires_description
        assert inf.head_judge_only or inf.floor_judge_may_issue


@pytest.mark.parametrize("category,infraction,default,variants,escalates", V1_TABLE)
def test_v1_entries(v1, category, infraction, default, variants, escalates):
    inf = _entry(v1, category, infraction)
    assert inf.default == default
    assert {v.penalty for v in inf.variants} == variants
    assert inf.escalates is escalates
    if default in (GL, DQ, DQNP):
        assert inf.requires_description


def test_tables_are_complete(v2, v1):
    assert len(v2.infractions) == len(V2_TABLE)
    assert len(v1.infractions) == len(V1_TABLE)


def test_catalog_metadata(catalogs, v2, v1):
    assert default_catalog(catalogs).id == "v2"
    assert v2.name == "Tournament Conduct & Infraction Guide"
    assert v1.name == "Judges' Guide"
    assert str(v1.effective) == "2004-01-01"
    assert v2.level_names() == [C, W, SA, DQ]
    assert v1.level_names() == [C, W, GL, DQ, DQNP]
    assert list(v2.ladder) == [C, C, W, W, SA, SA, DQ]
    assert list(v1.ladder) == [C, W, GL, DQ]
    assert v2.ladder_text() == "v2: C, C, W, W, SA, SA, DQ"
    assert v1.ladder_text() == "v1: C, W, GL, DQ"
    assert set(v2.head_judge_levels) == {SA, DQ}
    assert v2.escalation == "repeat-ladder" and v1.escalation == "step-up"
    assert "accumulation" in v2.accumulation_note


def test_every_entry_has_an_id_slug_and_our_description(catalogs):
    for catalog in catalogs.values():
        for inf in catalog.infractions:
            assert inf.id == normalise(inf.id).replace(" ", "-")
            assert 20 <= len(inf.description) <= 400, inf.id
            assert inf.description.endswith("."), inf.id


def test_variants_special_cases(v2, v1):
    slow = v2.get("slow-play")
    assert slow.default == W and slow.variant("body-text").penalty == C
    assert "Caution" in slow.note and "Warning" in slow.note
    pim = v2.get("public-information-miscommunication")
    assert pim.escalates is False and "significantly" in pim.escalation_note
    assert pim.variant("significant").escalates is True
    fmgs = v2.get("failure-to-maintain-game-state")
    assert fmgs.escalates is False and fmgs.default == SA
    grv = v2.get("game-rule-violation")
    assert grv.default_when == "a roll-back fixes it"
    assert grv.options() == [
        {"variant": None, "when": "a roll-back fixes it", "penalty": C, "escalates": True},
        {"variant": "no-rollback", "when": "a roll-back does not fix it", "penalty": W,
         "escalates": True},
    ]
    assert v2.get("illegal-decklist").variant("Major").penalty == SA
    assert v2.get("illegal-decklist").floor_judge_may_issue
    assert v1.get("improper-drawing-at-start-of-game").remedy.startswith("Redraw")
    assert v1.get("exceeding-pre-game-time-limit").addition == "+1 minute"


def test_head_judge_only_in_v2(v2):
    for inf in v2.infractions:
        expected = inf.default in (SA, DQ) and inf.id not in {
            "illegal-main-deck-legal-decklist", "illegal-main-deck-no-decklist"}
        assert inf.head_judge_only is expected, inf.id


# --- lookup ---------------------------------------------------------------------------

@pytest.mark.parametrize("query,expected", [
    ("game-rule-violation", "game-rule-violation"),
    ("Game Rule Violation", "game-rule-violation"),
    ("GAME rule violation", "game-rule-violation"),
    ("  game rule   violation ", "game-rule-violation"),
    ("Unsportsmanlike Conduct — Minor", "unsportsmanlike-conduct-minor"),
    ("unsportsmanlike conduct - major", "unsportsmanlike-conduct-major"),
    ("Health and Safety Disruption", "health-and-safety-disruption"),
    ("health & safety disruption", "health-and-safety-disruption"),
    ("rage quitting", "rage-quitting"),
    ("Aggressive Behavior", "aggressive-behaviour"),
    ("illegal main deck (no decklist used)", "illegal-main-deck-no-decklist"),
    ("Tournament Error: Slow Play", "slow-play"),
])
def test_lookup_v2(v2, query, expected):
    found = v2.lookup(query)
    assert found.ok and found.infraction.id == expected


@pytest.mark.parametrize("query,expected", [
    ("Fraud", "bribery-fraud-collusion"),
    ("collusion", "bribery-fraud-collusion"),
    ("Marked Cards — Observable Pattern", "marked-cards-observable-pattern"),
    ("procedural error minor", "procedural-error-minor"),
    ("Stalling", "stalling"),
])
def test_lookup_v1(v1, query, expected):
    assert v1.lookup(query).infraction.id == expected


@pytest.mark.parametrize("query,suggestion", [
    ("Game Rule Violaton", "Game Rule Violation"),
    ("slow", "Slow Play"),
    ("insuficient shuffling", "Insufficient Shuffling"),
    ("outside assistence", "Outside Assistance"),
])
def test_unknown_infraction_gives_suggestions(v2, query, suggestion):
    found = v2.lookup(query)
    assert not found.ok
    assert suggestion in found.suggestions
    assert query in found.message and suggestion in found.message


def test_unknown_without_suggestion_and_empty(v2):
    found = v2.lookup("juggling")
    assert not found.ok and found.suggestions == () and "juggling" in found.message
    assert not v2.lookup("").ok and not v2.lookup(None).ok


def test_ambiguous_bare_name_in_v1(v1):
    found = v1.lookup("Minor")
    assert not found.ok
    assert set(found.suggestions) == {"Procedural Error — Minor", "Unsportsmanlike Conduct — Minor"}
    assert "ambiguous" in found.message


def test_levels(v2, v1):
    assert v2.level("sa").name == SA
    assert v2.level("standings adjustment").name == SA
    assert v2.level("Game Loss") is None
    assert v1.level("DQ-NP").name == DQNP
    assert v2.rank(C) < v2.rank(W) < v2.rank(SA) < v2.rank(DQ)
    assert v2.rank("nonsense") == -1
    assert v2.is_head_judge_level("DQ") and not v2.is_head_judge_level(W)


def test_categories_keep_file_order(v2):
    assert list(v2.categories()) == ["Procedural Error", "Tournament Error", "Unsportsmanlike Conduct"]


# --- validation -----------------------------------------------------------------------

GOOD = """
[catalog]
name = "Test Guide"
edition = "t"
default = true
escalation = "repeat-ladder"
ladder = ["Caution", "Warning"]
head_judge_levels = ["Warning"]

[[level]]
name = "Caution"
abbr = "C"

[[level]]
name = "Warning"
abbr = "W"

[[infraction]]
id = "thing"
category = "Things"
infraction = "Thing"
default = "Caution"
escalates = true
requires_description = false
head_judge_only = false
description = "A thing happened at the table."
"""


def test_minimal_catalog_parses():
    catalog, problems = parse_catalog(GOOD, "t.toml", "t")
    assert problems == [] and catalog.id == "t" and catalog.get("thing").name == "Thing"


@pytest.mark.parametrize("change,entry,words", [
    (('default = "Caution"', 'default = "Cauton"'), "infraction #1 (thing)", "'Cauton' is not a level"),
    (('id = "thing"', 'id = "Thing Two"'), "infraction #1 (Thing Two)", "slug"),
    (('description = "A thing happened at the table."', 'description = ""'), "infraction #1 (thing)", "'description' is empty"),
    (('escalates = true', 'escalates = "yes"'), "infraction #1 (thing)", "'escalates' must be a bool"),
    (('escalates = true', 'escalates = true\nescalats = false'), "infraction #1 (thing)", "unknown key 'escalats'"),
    (('requires_description = false\n', ''), "infraction #1 (thing)", "missing key 'requires_description'"),
    (('default = "Caution"', 'default = "Warning"'), "infraction #1 (thing)", "requires_description = true"),
    (('default = "Caution"', 'variants = [{id = "big", when = "big", penalty = "Huge"}]\ndefault = "Caution"'),
     "infraction #1 (thing) variant #1", "'Huge' is not a level"),
    (('escalation = "repeat-ladder"', 'escalation = "sideways"'), "[catalog]", "escalation 'sideways'"),
    (('ladder = ["Caution", "Warning"]', 'ladder = ["Warning", "Caution"]'), "[catalog]", "never go down"),
    (('name = "Test Guide"\n', ''), "[catalog]", "missing key 'name'"),
    (('default = "Caution"', 'remedy = ""'), "infraction #1 (thing)", "needs a 'default' penalty"),
])
def test_malformed_entry_names_file_and_entry(change, entry, words):
    old, new = change
    assert old in GOOD
    catalog, problems = parse_catalog(GOOD.replace(old, new, 1), "content/penalties/t.toml", "t")
    assert catalog is None
    text = "\n".join(str(p) for p in problems)
    assert any(p.entry == entry and words in p.message for p in problems), text
    assert "content/penalties/t.toml" in text


def test_duplicate_ids_and_names():
    extra = GOOD.split("[[infraction]]")[1]
    catalog, problems = parse_catalog(GOOD + "\n[[infraction]]" + extra, "t.toml", "t")
    assert catalog is None
    assert any("used twice" in p.message and p.entry == "infraction #2 (thing)" for p in problems)


def test_id_must_match_file_name():
    _, problems = parse_catalog(GOOD.replace('name = "Test Guide"', 'id = "other"\nname = "Test Guide"'),
                                "t.toml", "t")
    assert any("does not match the file name" in p.message for p in problems)


def test_malformed_toml_names_the_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text(GOOD.replace('abbr = "C"', 'abbr = "C'))
    problems = check_catalog(path)
    assert len(problems) == 1
    assert str(path) in str(problems[0]) and "not valid TOML" in str(problems[0])
    assert "line" in str(problems[0])
    with pytest.raises(CatalogError) as err:
        load_catalog(path)
    assert str(path) in str(err.value)


def test_load_catalogs_needs_exactly_one_default(tmp_path):
    (tmp_path / "a.toml").write_text(GOOD)
    (tmp_path / "b.toml").write_text(GOOD)
    with pytest.raises(CatalogError, match="exactly one catalog"):
        load_catalogs(tmp_path)
    (tmp_path / "b.toml").write_text(GOOD.replace("default = true", "default = false"))
    assert set(load_catalogs(tmp_path)) == {"a", "b"}


def test_load_catalogs_reports_every_bad_file(tmp_path):
    (tmp_path / "a.toml").write_text(GOOD.replace('default = "Caution"', 'default = "X"'))
    (tmp_path / "b.toml").write_text("not toml = = =")
    with pytest.raises(CatalogError) as err:
        load_catalogs(tmp_path)
    files = {p.file for p in err.value.problems}
    assert files == {str(tmp_path / "a.toml"), str(tmp_path / "b.toml")}


def test_shipped_files_check_clean(catalogs):
    for catalog in catalogs.values():
        assert check_catalog(catalog.source) == []


# --- what a level does to the standings ----------------------------------------------------------

def test_levels_carry_their_effect(v1, v2):
    assert {lv.name: lv.effect for lv in v2.levels} == {C: None, W: None, SA: "vp-1", DQ: "remove"}
    assert {lv.name: lv.effect for lv in v1.levels} == {C: None, W: None, GL: "vp-1", DQ: "remove",
                                                         DQNP: "remove"}
    assert v2.effect("sa") == "vp-1" and v1.effect("GL") == "vp-1" and v2.effect(None) is None


def test_unknown_effect_is_a_problem():
    bad = GOOD.replace('abbr = "W"', 'abbr = "W"\neffect = "minus-two"', 1)
    catalog, problems = parse_catalog(bad, "t.toml", "t")
    assert catalog is None
    assert any(p.entry == "level #2 (Warning)" and "effect 'minus-two'" in p.message for p in problems)


# --- the recorder's suggestions resolve ------------------------------------------------------------

def _recorder_suggestions():
    """Every infraction the recorder may suggest with a finding: the `CODES` table, and the
    ones the engine picks per case (what was said at the table)."""
    from judgekit.recorder import engine, findings
    from judgekit.recorder.events import TALK_KINDS, validate_batch
    out = {c.infraction for c in findings.CODES.values() if c.infraction}
    for kind in TALK_KINDS:
        events = validate_batch([{"type": "game.start"}, {"type": "talk", "seat": 1, "kind": kind}], 4, None)
        replayed = engine.replay([dict(e, seq=k) for k, e in enumerate(events, 1)], ["A", "B", "C", "D"])
        out |= {f["infraction"] for f in replayed.findings if f["infraction"]}
    return sorted(out)


UNRESOLVED: set[str] = set()  # known, owned by the recorder (engine.py): none left


@pytest.mark.parametrize("name", [
    pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="the recorder suggests two infractions at once"))
    if n in UNRESOLVED else n for n in _recorder_suggestions()])
def test_every_infraction_the_recorder_suggests_is_in_the_v2_catalog(v2, name):
    found = v2.lookup(name)
    assert found.ok, found.message
