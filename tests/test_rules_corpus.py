"""The content loader: section tree, stable anchors, examples, glossary, errors with file and line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from judgekit import paths
from judgekit.rules.corpus import ContentError, load_corpus, parse_document

CONTENT = paths.content_dir()


@pytest.fixture(scope="module")
def corpus():
    return load_corpus(CONTENT)


def test_both_current_documents_and_history_editions_load(corpus):
    ids = {d.id for d in corpus.current}
    assert ids == {"tournament-rules", "announcements"}
    assert [d.id for d in corpus.current][0] == "tournament-rules"  # reading order from front matter
    old = corpus.editions_of("tournament-rules")
    assert len(old) >= 2 and all(d.is_history for d in old)


def test_tournament_rules_are_complete(corpus):
    doc = corpus.get("tournament-rules")
    for sid in ["1.1", "2.9", "3.1.3", "3.7.4", "4.1.1", "4.9", "5.4", "6.3", "7.2.2", "7.9",
                "8.2", "9.8", "A", "A.2.1", "B"]:
        assert doc.section(sid) is not None, sid
    assert [s for s in doc.top] == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B"]
    assert doc.section("3.7.2").parent == "3.7"
    assert doc.section("3.7").children[:2] == ["3.7.1", "3.7.2"]
    assert "©" in doc.copyright and "Black Chantry" in doc.copyright


def test_recursion_table_is_a_real_table(corpus):
    table = next(b for b in corpus.get("tournament-rules").section("7.2.2").blocks if b.kind == "table")
    assert [h.lower() for h in table.header][:2] == ["boosters", "minimum crypt"]
    rows = {r[0]: r for r in table.rows}
    assert rows["7"][1:] == ["7", "35", "1"]   # 7 boosters: crypt 7, library 35, 1 recursion
    assert rows["1"][-1] == "11"


def test_banned_list_is_a_list(corpus):
    block = next(b for b in corpus.get("tournament-rules").section("4.1.1").blocks if b.kind == "list")
    names = " ".join(i.text for i in block.items)
    assert "Succubus Club" in names and "Return to Innocence" in names


def test_announcement_sections_have_the_required_ids_in_order(corpus):
    doc = corpus.get("announcements")
    assert list(doc.sections) == ["card-declaration", "action-declaration", "votes", "shortcuts",
                                  "forbidden-shortcuts", "cancellation", "table-talk", "pace",
                                  "hypotheticals"]
    shortcuts = doc.section("shortcuts")
    anchors = [b.anchor for b in shortcuts.examples]
    assert anchors[:3] == ["shortcuts-ex1", "shortcuts-ex2", "shortcuts-ex3"]
    assert "Homunculus" in shortcuts.examples[3].plain()
    assert doc.preamble and "Touching a card" in " ".join(b.plain() for b in doc.preamble)


def test_every_block_has_a_unique_anchor_and_loading_twice_gives_the_same_ids(corpus):
    again = load_corpus(CONTENT)
    for doc in corpus.documents.values():
        anchors = [b.anchor for _, b in doc.blocks()]
        assert len(anchors) == len(set(anchors)), doc.id
        other = again.get(doc.id)
        assert list(other.sections) == list(doc.sections)
        assert [b.anchor for _, b in other.blocks()] == anchors
    assert again.content_hash == corpus.content_hash


def test_previous_and_next_follow_document_order(corpus):
    doc = corpus.get("tournament-rules")
    assert doc.section("3.7.2").prev == "3.7.1"
    assert doc.section("3.7.2").next == "3.7.3"
    assert doc.section("1").prev is None


def test_glossary_terms_come_from_appendix_b(corpus):
    terms = corpus.glossary()
    for term in ("Proxy Card", "Public Information", "Cutting", "Scorekeeper"):
        doc, sec, block = terms[term]
        assert sec.id == "B" and block.anchor == "term-" + term.lower().replace(" ", "-")


def test_history_documents_keep_their_numbering_and_say_what_they_are(corpus):
    old = corpus.get("tournament-rules-2007")
    assert old.edition == "2007" and old.history_of == "tournament-rules"
    text = old.section("3.1.5").plain()
    assert "fewer than 12 players" in text


def test_editorial_notes_are_not_rules_text(corpus):
    old = corpus.get("tournament-rules-2007")
    notes = [b for _, b in old.blocks() if b.kind == "note"]
    assert notes
    assert all(b.plain() == "" for b in notes)  # not searched, not diffed


GOOD = """---
id: sample
title: Sample
edition: "1"
kind: current
copyright: © nobody
---

Intro text.

# 1. First

Some text with a list:

- one
  - nested
- two

> **Example.** An example.
>
> Its second paragraph.

## 1.1. Sub

| a | b |
|---|---|
| 1 | 2 |
"""


def test_a_small_document_parses_into_blocks(tmp_path):
    doc = parse_document(tmp_path / "sample.md", GOOD)
    first = doc.section("1")
    assert [b.kind for b in first.blocks] == ["paragraph", "list", "example"]
    assert first.blocks[1].items[0].children[0].text == "nested"
    assert first.examples[0].anchor == "1-ex1" and len(first.examples[0].blocks) == 2
    assert doc.section("1.1").blocks[0].rows == [["1", "2"]]
    assert doc.preamble[0].anchor == "intro-p1"


@pytest.mark.parametrize("mutation, line, message", [
    (lambda t: t.replace("kind: current\n", ""), 6, "lacks kind"),
    (lambda t: t.replace("## 1.1. Sub", "### 1.1.1. Deep"), 23, "skips a level"),
    (lambda t: t.replace("## 1.1. Sub", "## 2.1. Sub"), 23, "not inside its parent"),
    (lambda t: t.replace("| 1 | 2 |", "| 1 | 2 | 3 |"), 27, "3 cells"),
    (lambda t: t.replace("## 1.1. Sub", "# 1. Again"), 23, "duplicate section id"),
    (lambda t: t.replace("Intro text.", "Intro <b>bold</b>."), 9, "raw HTML"),
    (lambda t: t.replace("Intro text.", "Intro {{ jinja }}."), 9, "template markup"),
    (lambda t: t.replace("---\nid", "id", 1), 1, "front matter"),
])
def test_malformed_files_name_the_file_and_line(tmp_path, mutation, line, message):
    path = tmp_path / "broken.md"
    with pytest.raises(ContentError) as err:
        parse_document(path, mutation(GOOD))
    assert err.value.path == str(path)
    assert err.value.line == line
    assert message in str(err.value)
    assert str(err.value).startswith(f"{path}:{line}:")


def test_duplicate_document_ids_are_refused(tmp_path):
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "a.md").write_text(GOOD)
    (rules / "b.md").write_text(GOOD)
    with pytest.raises(ContentError, match="already used"):
        load_corpus(tmp_path)


def test_content_has_no_html_or_jinja_leftovers():
    for path in sorted(Path(CONTENT, "rules").rglob("*.md")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"</?(a|p|div|span|strong|em|br|li|ul|h\d)\b", text), path
        assert "{%" not in text and "{{" not in text and "&amp;" not in text, path


def test_announcements_are_attributed_as_their_source_is(corpus):
    # the source text of the guidelines carries no copyright or publisher line: we say so,
    # and name what judgekit added, instead of inventing a "© ... Published with" line
    line = corpus.get("announcements").copyright
    assert "©" not in line and "Published with" not in line
    assert "VEKN" in line and "no copyright" in line and "supplied by judgekit" in line
