"""What the search finds: one entry per section's own text, per example, per defined term
(Appendix B) of the current rules documents; other kinds of documents (cards and their
rulings: `judgekit.cards.search_entries`) add entries of the same shape.

Pure data, no index: `judgekit.rules.index_store` stores the entries with their analysis
and postings, `judgekit.rules.search` ranks them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable

from judgekit.rules.corpus import Block, Corpus
from judgekit.rules.questions import questions_text


@dataclass
class Entry:
    """One searchable unit: a section's own text, one example, one defined term; a card,
    one of its rulings, or a card group's ruling."""

    key: str          # "tournament-rules/3.7.2", "announcements/shortcuts#shortcuts-ex3",
                      # "tournament-rules/B#term-proxy-card"
    doc: str
    section: str
    number: str       # section number ("3.7.2") or "" for unnumbered sections
    title: str        # what a result shows as its title
    context: str      # titles of the enclosing sections
    body: str         # plain text
    url: str
    kind: str         # "section" | "example" | "definition" | "intro"; cards: "card" | "ruling"
    anchors: list[tuple[int, str]]  # (char offset in body, block anchor) to link to a paragraph
    questions: str = ""  # the questions it answers, in people's words, one a line (searched, never shown)
    #: numbers it states beside its text, (value, unit): a vampire's capacity, a library
    #: card's cost (the cards' `search_entries.BESIDE_UNITS`)
    stated: tuple[tuple[float, str], ...] = ()


def section_url(doc: str, section: str, anchor: str | None = None) -> str:
    url = f"/rules/{doc}" if section in ("", "intro") else f"/rules/{doc}/{section}"
    return f"{url}#{anchor}" if anchor else url


def _join_blocks(blocks: Iterable[Block]) -> tuple[str, list[tuple[int, str]]]:
    parts, anchors, offset = [], [], 0
    for b in blocks:
        text = b.plain()
        if not text:
            continue
        anchors.append((offset, b.anchor))
        parts.append(text)
        offset += len(text) + 1
    return "\n".join(parts), anchors


def entries_of(corpus: Corpus) -> list[Entry]:
    """The search entries of the current documents (history editions are not searched).

    A section's examples and its defined terms (Appendix B) are entries of their own, so a
    question about one term or one situation finds that paragraph, titled by it."""
    out: list[Entry] = []
    for doc in corpus.current:
        asked = corpus.questions.get(doc.id, {})

        def questions(key: str) -> str:
            return questions_text(asked.get(key, ()))

        if doc.preamble:
            body, anchors = _join_blocks(doc.preamble)
            out.append(Entry(f"{doc.id}/intro", doc.id, "intro", "", f"{doc.title} — introduction",
                             doc.title, body, section_url(doc.id, "intro"), "intro", anchors,
                             questions("intro")))
        for sec in doc.sections.values():
            context = " ".join(a.title for a in doc.ancestors(sec.id))
            terms = [b for b in sec.blocks if b.kind == "term" and b.term]
            own = [b for b in sec.blocks if b.kind != "example" and b not in terms]
            body, anchors = _join_blocks(own)
            out.append(Entry(f"{doc.id}/{sec.id}", doc.id, sec.id, sec.number or "", sec.label,
                             context, body, section_url(doc.id, sec.id), "section", anchors,
                             questions(sec.id)))
            for ex in sec.examples:
                body, _ = _join_blocks(ex.blocks)
                out.append(Entry(f"{doc.id}/{sec.id}#{ex.anchor}", doc.id, sec.id, sec.number or "",
                                 f"{sec.label} — {ex.label}", f"{context} {sec.title}", body,
                                 section_url(doc.id, sec.id, ex.anchor), "example",
                                 [(0, ex.anchor)], questions(f"{sec.id}#{ex.anchor}")))
            for term in terms:
                out.append(Entry(f"{doc.id}/{sec.id}#{term.anchor}", doc.id, sec.id, sec.number or "",
                                 f"{term.term} — {sec.label}", f"{context} {sec.title}", term.plain(),
                                 section_url(doc.id, sec.id, term.anchor), "definition",
                                 [(0, term.anchor)], questions(f"{sec.id}#{term.anchor}")))
    return out


NUMBER_PREFIX = re.compile(r"^(?:Appendix\s+)?(?:[A-Z]|\d+)(?:\.\d+)*\.\s+")


def plain_title(title: str) -> str:
    """An entry's title as words to search: "3.7.2. Victory Point Scoring" -> "Victory Point
    Scoring"; an example's or a term's, its first part ("Votes and referendum terms")."""
    return NUMBER_PREFIX.sub("", title.split(" — ")[0]).strip()


#: What the results of a source other than a rules document are grouped under.
SOURCE_TITLES = {"cards": "Cards & rulings"}
