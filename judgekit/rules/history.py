"""Older editions: what changed in each section, as a word-level diff.

Editions are compared section by section on the same id (the numbering is shared); the
compared text is the section's own blocks (examples included, subsections excluded).
"""
from __future__ import annotations

import difflib
import html
import re
from dataclasses import dataclass, field

from judgekit.rules.corpus import Corpus, Document, Section


@dataclass
class Change:
    edition: str           # edition label of the older document ("2007")
    old_doc: str           # id of the older document
    status: str            # "changed" | "new" (the section did not exist then)
    diff_html: str = ""    # word diff, <del>old</del><ins>new</ins>
    similarity: float = 1.0


def _words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


def normalise(text: str) -> str:
    """Text as compared: typography and spacing do not count as changes."""
    text = text.replace("’", "'").replace("“", '"').replace("”", '"').replace("–", "-").replace("—", "-")
    return re.sub(r"\s+", " ", text).strip()


def word_diff(old: str, new: str) -> tuple[str, float]:
    a, b = _words(normalise(old)), _words(normalise(new))
    sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    out = []
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            out.append(html.escape(" ".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(f"<del>{html.escape(' '.join(a[i1:i2]))}</del>")
        if j2 > j1:
            out.append(f"<ins>{html.escape(' '.join(b[j1:j2]))}</ins>")
    return " ".join(out), sm.ratio()


def covers(old: Document, section_id: str) -> bool:
    """Whether an (possibly partial) older edition covers the part holding this section."""
    if "partial" not in old.meta:
        return True
    top = section_id.split(".")[0]
    return any(s.split(".")[0] == top for s in old.sections)


class ChangeFinder:
    """Changes of current sections since each older edition (computed once, cached)."""

    _cache: dict[tuple[str, str, str], Change | None] = {}

    def __init__(self, corpus: Corpus):
        self.corpus = corpus

    def changes(self, doc: Document, sec: Section) -> list[Change]:
        if doc.is_history:
            return []
        out = []
        for old in self.corpus.editions_of(doc.id):
            key = (self.corpus.content_hash, old.id, f"{doc.id}/{sec.id}")
            if key not in self._cache:
                self._cache[key] = self._compare(old, doc, sec)
            change = self._cache[key]
            if change is not None:
                out.append(change)
        return out

    def _compare(self, old: Document, doc: Document, sec: Section) -> Change | None:
        before = old.section(sec.id)
        if before is None:
            if covers(old, sec.id) and "partial" not in old.meta:
                return Change(old.meta.get("edition", old.id), old.id, "new")
            return None
        a, b = before.plain(), sec.plain()
        if normalise(a) == normalise(b) and normalise(before.title) == normalise(sec.title):
            return None
        diff, ratio = word_diff(f"{before.title}. {a}", f"{sec.title}. {b}")
        return Change(old.meta.get("edition", old.id), old.id, "changed", diff, ratio)


@dataclass
class EditionReport:
    old: Document
    current: Document
    changed: list[tuple[Section, Change]] = field(default_factory=list)
    new: list[Section] = field(default_factory=list)
    removed: list[Section] = field(default_factory=list)
    unchanged: int = 0


def edition_reports(corpus: Corpus) -> list[EditionReport]:
    finder = ChangeFinder(corpus)
    reports = []
    for old in corpus.history:
        current = corpus.get(old.history_of)
        rep = EditionReport(old, current)
        for sec in current.sections.values():
            if not covers(old, sec.id):
                continue
            found = [c for c in finder.changes(current, sec) if c.old_doc == old.id]
            if not found:
                rep.unchanged += 1
            elif found[0].status == "new":
                rep.new.append(sec)
            else:
                rep.changed.append((sec, found[0]))
        rep.removed = [s for sid, s in old.sections.items() if sid not in current.sections]
        reports.append(rep)
    return reports
