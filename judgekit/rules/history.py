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
    diff_html: str = ""    # word diff of the whole section, <del>old</del><ins>new</ins>
    similarity: float = 1.0
    title_html: str = ""   # word diff of the title, when it changed
    parts: list[str] = field(default_factory=list)   # word diff of each changed block
    unchanged: int = 0     # blocks that read the same (not shown)
    also: list[tuple[str, str]] = field(default_factory=list)   # (edition, doc) with the same change

    @property
    def editions(self) -> str:
        """'the 2007 edition', or 'the 2007 and intermediate editions' for a shared change."""
        names = [self.edition] + [e for e, _ in self.also]
        if len(names) == 1:
            return f"the {names[0]} edition"
        return "the " + ", ".join(names[:-1]) + f" and {names[-1]} editions"


def _words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


# Names spelt differently over the years: the same name, not a change of rule.
SPELLINGS = ((re.compile(r"\bV:TES\b"), "VTES"), (re.compile(r"\bV:EKN\b"), "VEKN"))


def normalise(text: str) -> str:
    """Text as compared: typography, spacing and the spelling of names do not count."""
    text = text.replace("’", "'").replace("“", '"').replace("”", '"').replace("–", "-").replace("—", "-")
    text = text.replace("→", " ")   # our arrows in the 3.1.3 seating rows; the sources have none
    for pattern, name in SPELLINGS:
        text = pattern.sub(name, text)
    return re.sub(r"\s+", " ", text).strip()


def block_diffs(old: list[str], new: list[str]) -> tuple[list[str], int]:
    """The word diffs of the blocks (paragraphs, lists, examples) that changed, and how many
    read the same. Blocks are matched in order; an added or dropped block is shown whole."""
    a, b = [normalise(t) for t in old], [normalise(t) for t in new]
    sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    parts: list[str] = []
    same = 0
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            same += i2 - i1
            continue
        olds, news = old[i1:i2], new[j1:j2]
        for k in range(max(len(olds), len(news))):
            if k < len(olds) and k < len(news):
                parts.append(word_diff(olds[k], news[k])[0])
            elif k < len(olds):
                parts.append(f"<del>{html.escape(normalise(olds[k]))}</del>")
            else:
                parts.append(f"<ins>{html.escape(normalise(news[k]))}</ins>")
    return parts, same


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
        out: list[Change] = []
        for old in self.corpus.editions_of(doc.id):
            key = (self.corpus.content_hash, old.id, f"{doc.id}/{sec.id}")
            if key not in self._cache:
                self._cache[key] = self._compare(old, doc, sec)
            change = self._cache[key]
            if change is None:
                continue
            # two editions that differ from today's text in the same way: one box
            twin = next((c for c in out if (c.status, c.diff_html) == (change.status, change.diff_html)), None)
            if twin is not None:
                twin = Change(**{**twin.__dict__, "also": twin.also + [(change.edition, change.old_doc)]})
                out = [twin if c.old_doc == twin.old_doc else c for c in out]
            else:
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
        title = "" if normalise(before.title) == normalise(sec.title) else word_diff(before.title, sec.title)[0]
        parts, same = block_diffs([x.plain() for x in before.blocks], [x.plain() for x in sec.blocks])
        return Change(old.meta.get("edition", old.id), old.id, "changed", diff, ratio,
                      title_html=title, parts=parts, unchanged=same)


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
