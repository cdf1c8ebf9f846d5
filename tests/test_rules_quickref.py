"""The quick reference says only what the section it links to (or the source it names) says."""
from __future__ import annotations

import re

import pytest

from judgekit import paths
from judgekit.rules import quickref
from judgekit.rules.corpus import load_corpus


@pytest.fixture(scope="module")
def cards():
    corpus = load_corpus(paths.content_dir())
    return corpus, {c.id: c for c in quickref.build(corpus)}


def section_text(corpus, doc, section) -> str:
    sec = corpus.get(doc).section(section)
    return " ".join(b.plain() for b in sec.blocks).lower()


def test_concession_needs_all_but_one_and_the_one_remaining_player_scores(cards):
    corpus, by_id = cards
    line = next(l for l in by_id["vp"].lines if l.section == "3.5")
    assert "all players but one" in line.text and "the one remaining player" in line.text
    rule = section_text(corpus, "tournament-rules", "3.5")
    assert "all but one of the players" in rule and "the remaining player" in rule


def test_stealth_names_not_in_the_guidelines_say_they_come_from_the_rulebook(cards):
    corpus, by_id = cards
    guideline = section_text(corpus, "announcements", "action-declaration")
    stealth = [l.text for l in by_id["stealth"].lines if "stealth:" in l.text]
    named = [n.strip(" .") for text in stealth for n in text.split("stealth:", 1)[1].split(",")]
    assert any(n.endswith("(rulebook)") for n in named)         # become anarch, diablerie
    for name in named:
        if name.endswith("(rulebook)") or name.startswith("action cards") or name == "other actions":
            continue
        first = re.split(r"\W+", name)[0]
        assert first in guideline, f"{name!r} is not in the guidelines' stealth list"


def test_the_extension_cap_names_its_source(cards):
    _, by_id = cards
    cap = [l for l in by_id["time"].lines if "minutes a round" in l.text]
    assert len(cap) == 1 and "Infraction Guide" in cap[0].text
    sections = {l.section for l in by_id["time"].lines}
    assert {"2.8", "3.3.3"} <= sections
