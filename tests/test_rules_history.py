"""'Changes since' boxes: what changed, paragraph by paragraph, once per distinct change."""
from __future__ import annotations

import re

import pytest

from judgekit import paths
from judgekit.rules.corpus import load_corpus
from judgekit.rules.history import ChangeFinder, block_diffs, normalise

pytestmark = pytest.mark.shared_app  # these tests only read: they share one app (tests/conftest.py)


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
    changes = finder.changes(doc, doc.section("3.5"))
    assert len(changes) == 1 and changes[0].also
    assert changes[0].editions == "the 2007 and intermediate (V:EKN era) editions"
    (box,) = boxes(client, "3.5")
    assert "Changes since the 2007 and intermediate (V:EKN era) editions" in box
    assert 'href="/rules/tournament-rules-2007/3.5"' in box
    assert 'href="/rules/tournament-rules-intermediate/3.5"' in box
    assert "<del>VEKN Penalty Guidelines.</del>" in box and "Judge&#x27;s Guide" in box


def test_only_the_changed_paragraphs_are_shown_and_the_rest_counted(current, client):
    finder, doc = current
    change = next(c for c in finder.changes(doc, doc.section("5.1")) if c.old_doc.endswith("2007"))
    sec = doc.section("5.1")
    assert change.unchanged >= 1 and len(change.parts) + change.unchanged <= len(sec.blocks) + 1
    box = next(b for b in boxes(client, "5.1") if "2007" in b)
    assert box.count('<p class="diff">') == len(change.parts)
    assert "other paragraph" in box and "unchanged" in box
    assert "Title:" not in box        # the title did not change: no title line glued to the text


def test_block_diffs_pairs_blocks_in_order():
    parts, same = block_diffs(["A stays.", "B was old.", "C goes."], ["A stays.", "B is new.", "D comes."])
    assert same == 1 and len(parts) == 2
    assert "<del>was old.</del>" in parts[0] and "<ins>is new.</ins>" in parts[0]
    parts, same = block_diffs(["A."], ["A.", "Z added."])
    assert same == 1 and parts == ["<ins>Z added.</ins>"]
    # a block lost on one side: the paragraph after it pairs with its like, not with the list
    parts, same = block_diffs(["When using cards, see the url."],
                              ["A list of sets.", "When using cards, see the page."])
    assert parts[0].startswith("<ins>A list of sets.") and "<del>url.</del>" in parts[1]


# --- not changes: how references are written, paragraph breaks, text lost in extraction ---

REF_ONLY = ["2.6", "3.1", "3.3", "3.3.2", "3.6", "3.7.3", "4.8", "7", "7.2.1", "7.2.4", "7.2.5",
            "7.4", "7.5.4", "7.8"]


@pytest.fixture(scope="module")
def reports():
    from judgekit.rules.history import edition_reports
    corpus = load_corpus(paths.content_dir())
    return {r.old.id: r for r in edition_reports(corpus)}


def test_how_a_reference_is_written_is_not_a_change(current):
    from judgekit.rules.history import References
    finder, doc = current
    refs = References(doc)
    assert refs("ranked by Game Wins (see section 3.7.1).") == refs("ranked by Game Wins (see 3.7. Determining a Game Winner).")
    assert refs("averaged (see section 3.7.4 - Scoring Examples).") == refs("averaged (see following section).")
    assert refs("see Recursion (section 7.2.2) below") == refs("see 7.2.2. Recursion below")
    assert refs("according to the Table Draft procedure (see section 7.7).") == \
        refs("according to the 7.7. Table Draft (Rochester Draft) Procedure.")
    assert refs("the VEKN Penalty Guidelines.") != refs("the Judge's Guide.")
    for section in REF_ONLY:               # the 2007 and intermediate texts differ only so
        assert finder.changes(doc, doc.section(section)) == [], section


def test_text_lost_in_extraction_is_a_gap_not_a_change(current, reports, client):
    finder, doc = current
    old = reports["tournament-rules-2007"]
    assert {s.id for s, _ in old.gaps} == {"1", "3.1.3", "7.2.2"}
    assert not {s.id for s, _ in old.gaps} & {s.id for s, _ in old.changed}
    assert {s.id for s in old.new} == {"4.1.1", "A.1", "A.2", "A.2.1"}     # real additions
    for sec, change in old.gaps:
        assert change.status == "gap" and change.gaps and change.parts == []
        assert any("missing" in g or "lost" in g or "blank" in g for g in change.gaps)
    (box,) = boxes(client, "7.2.2")
    assert "Not compared: text lost in the 2007 edition" in box and "<ins>" not in box
    # the 2007 review counted 36 changed sections, 17 of them noise
    assert len(old.changed) <= 19
    assert {"1.6", "2.3", "3.1.5", "3.5", "4.1", "5.2", "7.1", "B"} <= {s.id for s, _ in old.changed}
    assert not set(REF_ONLY) & {s.id for s, _ in old.changed}


def test_the_intermediate_edition_shows_its_own_changes(reports, client):
    inter = reports["tournament-rules-intermediate"]
    changed = {s.id for s, _ in inter.changed}
    # shared with 2007 or not, each edition's report lists its real changes
    assert {"2.3", "3.4", "3.5", "4.1", "4.2", "7.3.1"} <= changed
    assert not set(REF_ONLY) & changed
    assert {s.id for s, _ in inter.gaps} == {"7.4.3", "7.9"}
    seven_one = dict((s.id, c) for s, c in inter.changed)["7.1"]      # a real word and lost lists
    assert seven_one.gaps and any("alternative" in p for p in seven_one.parts)
    html = client.get("/history").get_data(as_text=True)
    assert "not compared (text lost in extraction)" in html
    assert "Not compared: text lost in extraction" in html
    intermediate = html.split('href="/rules/tournament-rules-intermediate"', 1)[1].split("</section>", 1)[0]
    assert f"{len(changed)} sections changed" in intermediate
    assert "2.3. Player Responsibilities" in intermediate and "3.1. Round Structure" not in intermediate
