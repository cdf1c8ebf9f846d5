"""'Changes since' boxes: what changed, paragraph by paragraph, once per distinct change."""
from __future__ import annotations

import re

import pytest

from judgekit import paths
from judgekit.rules.corpus import load_corpus
from judgekit.rules.history import ChangeFinder, block_diffs, normalise


@pytest.fixture(scope="module")
def current():
    corpus = load_corpus(paths.content_dir())
    return ChangeFinder(corpus), corpus.get("tournament-rules")


def boxes(client, section):
    html = client.get(f"/rules/tournament-rules/{section}").get_data(as_text=True)
    own = html.split(f'id="{section}"', 1)[1]
    own = own.split('<section class="section"', 1)[0]     # this section only, not subsections
    return re.findall(r'<details class="changes">.*?</details>', own, re.S)


def test_a_name_spelt_v_tes_is_not_a_change():
    assert normalise("the V:TES game rules of V:EKN") == normalise("the VTES game rules of VEKN")
    assert normalise("V:TESTER") != normalise("VTESTER")   # whole names only


def test_a_section_whose_only_change_is_the_name_has_no_box(current, client):
    finder, doc = current
    old = finder.corpus.get("tournament-rules-2007").section("3.7.2").plain()
    assert "V:TES" in old or "V:EKN" in old              # the older text does spell it so
    assert finder.changes(doc, doc.section("3.7.2")) == []
    assert boxes(client, "3.7.2") == []


def test_two_editions_with_the_same_difference_share_one_box(current, client):
    finder, doc = current
    changes = finder.changes(doc, doc.section("3.1"))
    assert len(changes) == 1 and changes[0].also
    assert changes[0].editions == "the 2007 and intermediate (V:EKN era) editions"
    (box,) = boxes(client, "3.1")
    assert "Changes since the 2007 and intermediate (V:EKN era) editions" in box
    assert 'href="/rules/tournament-rules-2007/3.1"' in box
    assert 'href="/rules/tournament-rules-intermediate/3.1"' in box


def test_only_the_changed_paragraphs_are_shown_and_the_rest_counted(current, client):
    finder, doc = current
    change = next(c for c in finder.changes(doc, doc.section("3.1.3")) if c.old_doc.endswith("2007"))
    sec = doc.section("3.1.3")
    assert change.unchanged >= 1 and len(change.parts) + change.unchanged <= len(sec.blocks) + 1
    box = next(b for b in boxes(client, "3.1.3") if "2007" in b)
    assert box.count('<p class="diff">') == len(change.parts)
    assert "other paragraph" in box and "unchanged" in box
    assert "Title:" not in box        # the title did not change: no title line glued to the text


def test_block_diffs_pairs_blocks_in_order():
    parts, same = block_diffs(["A stays.", "B was old.", "C goes."], ["A stays.", "B is new.", "D comes."])
    assert same == 1 and len(parts) == 2
    assert "<del>was old.</del>" in parts[0] and "<ins>is new.</ins>" in parts[0]
    parts, same = block_diffs(["A."], ["A.", "Z added."])
    assert same == 1 and parts == ["<ins>Z added.</ins>"]
