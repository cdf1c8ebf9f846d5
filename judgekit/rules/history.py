"""Older editions: what changed in each section, as a word-level diff.

Editions are compared section by section on the same id (the numbering is shared); the
compared text is the section's own blocks (examples included, subsections excluded).

Two kinds of difference are not changes of a rule and are not shown as such:
- how a cross-reference is written ("see section 3.7.1" in 2007, a link reading "3.7.
  Determining a Game Winner" today; "(section 7.2.2)", "the following section"), and where
  a paragraph breaks;
- text the older edition lost in extraction (a table, a list, a seating row). The
  content marks each such place with an editorial note; a section whose only difference
  is what its older text lost is an *extraction gap* (status "gap"), shown as such, and
  in a section with both, the additions that may be the lost text are left out and the
  box says why.
"""
from __future__ import annotations

import difflib
import html
import re
from dataclasses import dataclass, field

from judgekit.rules.corpus import Block, Corpus, Document, Section, strip_inline


@dataclass
class Change:
    edition: str           # edition label of the older document ("2007")
    old_doc: str           # id of the older document
    status: str            # "changed" | "new" (the section did not exist then) | "gap" (the
                           # only difference is text the older edition lost in extraction)
    diff_html: str = ""    # word diff of the whole section, <del>old</del><ins>new</ins>
    similarity: float = 1.0
    title_html: str = ""   # word diff of the title, when it changed
    parts: list[str] = field(default_factory=list)   # word diff of each changed block
    unchanged: int = 0     # blocks that read the same (not shown)
    also: list[tuple[str, str]] = field(default_factory=list)   # (edition, doc) with the same change
    gaps: list[str] = field(default_factory=list)   # editorial notes on text lost in extraction

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


# --- cross-references: however an edition writes one, it reads "REF" when compared --------

REF = "REF"


class References:
    """Rewrites the cross-references of a text to one token, so that "see section 3.7.1",
    "(section 7.2.2)", "section 3.7.4 - Scoring Examples", "3.7. Determining a Game Winner"
    and "the following section" compare equal. Knows the section numbers and titles of the
    current document (the link texts of today's edition)."""

    def __init__(self, doc: Document):
        labels = sorted({normalise(s.label) for s in doc.sections.values() if s.number}, key=len, reverse=True)
        titled = "|".join(re.escape(lb) for lb in labels)
        titles = "|".join(re.escape(normalise(s.title)) for s in
                          sorted(doc.sections.values(), key=lambda s: -len(s.title)) if s.number)
        num = r"\d+(?:\.\d+)*\.?"
        self.patterns = [
            # "3.7. Determining a Game Winner" (today's link text)
            re.compile(r"(?:\bthe\s+)?(?:" + titled + r")"),
            # "Recursion (section 7.2.2)", "the Table Draft procedure (see section 7.7)": a
            # title (today's or the edition's own) followed by its reference
            re.compile(r"(?:\bthe\s+)?(?:" + titles + r"|(?:[A-Z][\w'-]*\s+){1,3}procedure)\s*"
                       r"\((?:see\s+)?sec(?:tion|\.)?\s*" + num + r"\)"),
            # "sections 7.5, 7.6, 7.7, and 7.8"
            re.compile(r"\bsections?\s+" + num + r"(?:,\s*" + num + r")*,?\s+and\s+" + num, re.I),
            # "section 3.7.4 - Scoring Examples", "section 2.5 -", "sec 3.7.2"
            re.compile(r"\bsec(?:tions?|\.)?\s+" + num + r"(?:\s*-\s*(?:[A-Z][^().]*)?)?", re.I),
            re.compile(r"\b(?:the\s+)?(?:following|previous)\s+section\b", re.I),
            # a bare number where a reference is expected: "(as defined in 3.7.5)"
            re.compile(r"(?<=\bin )" + num + r"(?=\))"),
        ]

    def mentions(self, text: str) -> bool:
        """Whether the text holds a cross-reference."""
        text = normalise(text)
        return any(p.search(text) for p in self.patterns)

    def __call__(self, text: str) -> str:
        text = normalise(text)
        for pattern in self.patterns:
            text = pattern.sub(REF, text)
        text = re.sub(r"\s*\((?:see\s+)?" + REF + r"(?:\s*-)?\s*(?:" + REF + r")?\s*\.?\)", "", text)
        text = re.sub(r"\b(?:see|the)\s+(?=" + REF + r")", "", text)
        text = re.sub(REF + r"\s*\.", REF, text)       # "section 7.2.1." ends a sentence too
        return re.sub(r"\s+", " ", text).strip()


def _item_texts(items) -> list[str]:
    out = []
    for item in items:
        out.append(item.text)
        out.extend(_item_texts(item.children))
    return out


def compared(block: Block, refs: "References | None") -> str:
    """A block's text as compared: normalised, references as one token; a list item that is
    a reference ("Sealed (standard) (see section 7.3)", today's "7.3. Standard Sealed Deck
    Tournament Rules") reads as the reference alone."""
    if refs is None:
        return normalise(block.plain())
    if block.kind == "list":
        items = [strip_inline(t) for t in _item_texts(block.items)]
        return " ".join(REF if refs.mentions(it) else refs(it) for it in items)
    return refs(block.plain())


def block_diffs(old: list[str], new: list[str], old_keys: list[str] | None = None,
                new_keys: list[str] | None = None) -> tuple[list[str], int]:
    """The word diffs of the blocks (paragraphs, lists, examples) that changed, and how many
    read the same. Blocks are matched in order; an added or dropped block is shown whole.
    `old_keys`/`new_keys`, when given, are the texts compared (references rewritten);
    the texts shown are always `old`/`new`."""
    a = old_keys if old_keys is not None else [normalise(t) for t in old]
    b = new_keys if new_keys is not None else [normalise(t) for t in new]
    sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
    parts: list[str] = []
    same = 0
    for op, i1, i2, j1, j2 in sm.get_opcodes():
        if op == "equal":
            same += i2 - i1
            continue
        # pair each old block with the most alike new block after the last pair (a list lost
        # in extraction must not pair the paragraph after it with the list)
        pairs: list[tuple[int | None, int | None]] = []
        j = j1
        if i2 - i1 == j2 - j1:     # as many blocks each side: they pair in order
            pairs = list(zip(range(i1, i2), range(j1, j2)))
            j = j2
        for i in range(i1, i2) if not pairs else ():
            best, score = None, 0.5
            for k in range(j, j2):
                ratio = difflib.SequenceMatcher(a=_words(a[i]), b=_words(b[k]), autojunk=False).ratio()
                if ratio > score:
                    best, score = k, ratio
            if best is None:
                pairs.append((i, None))
                continue
            pairs += [(None, k) for k in range(j, best)] + [(i, best)]
            j = best + 1
        pairs += [(None, k) for k in range(j, j2)]
        for i, k in pairs:
            if i is not None and k is not None:
                if a[i] == b[k]:
                    same += 1
                else:
                    parts.append(word_diff(old[i], new[k])[0])
            elif i is not None:
                parts.append(f"<del>{html.escape(normalise(old[i]))}</del>")
            else:
                parts.append(f"<ins>{html.escape(normalise(new[k]))}</ins>")
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


# An editorial note that says the older text lost something in extraction.
LOST = re.compile(r"\b(?:missing|lost|blank)\b", re.I)


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

    _refs: dict[tuple[str, str], References] = {}

    def compare(self, old: Document, doc: Document, sec: Section) -> Change | None:
        """How `sec` of `doc` differs from the same section of `old` (cached), or None."""
        key = (self.corpus.content_hash, old.id, f"{doc.id}/{sec.id}")
        if key not in self._cache:
            self._cache[key] = self._compare(old, doc, sec)
        return self._cache[key]

    def references(self, doc: Document) -> References:
        key = (self.corpus.content_hash, doc.id)
        if key not in self._refs:
            self._refs[key] = References(doc)
        return self._refs[key]

    def changes(self, doc: Document, sec: Section) -> list[Change]:
        if doc.is_history:
            return []
        out: list[Change] = []
        for old in self.corpus.editions_of(doc.id):
            change = self.compare(old, doc, sec)
            if change is None:
                continue
            # two editions that differ from today's text in the same way: one box
            twin = next((c for c in out if (c.status, c.diff_html, c.parts, c.gaps)
                         == (change.status, change.diff_html, change.parts, change.gaps)), None)
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
        refs = self.references(doc)
        olds = [x for x in before.blocks if x.kind != "note"]
        news = [x for x in sec.blocks if x.kind != "note"]
        old_keys, new_keys = [compared(x, refs) for x in olds], [compared(x, refs) for x in news]
        same_title = normalise(before.title).casefold() == normalise(sec.title).casefold()
        # the same words, whatever the references say and wherever the paragraphs break
        if " ".join(old_keys) == " ".join(new_keys) and same_title:
            return None
        gaps = [x.text for x in before.blocks if x.kind == "note" and LOST.search(x.text)]
        a, b = before.plain(), sec.plain()
        diff, ratio = word_diff(f"{before.title}. {a}", f"{sec.title}. {b}")
        title = "" if same_title else word_diff(before.title, sec.title)[0]
        parts, same = block_diffs([x.plain() for x in olds], [x.plain() for x in news], old_keys, new_keys)
        edition = old.meta.get("edition", old.id)
        if gaps:
            # additions only may be the text the older edition lost: not shown as changes
            kept = [p for p in parts if "<del>" in p]
            if not kept and not title:
                return Change(edition, old.id, "gap", diff, ratio, unchanged=same, gaps=gaps)
            parts = kept
        return Change(edition, old.id, "changed", diff, ratio,
                      title_html=title, parts=parts, unchanged=same, gaps=gaps)


@dataclass
class EditionReport:
    old: Document
    current: Document
    changed: list[tuple[Section, Change]] = field(default_factory=list)
    new: list[Section] = field(default_factory=list)
    removed: list[Section] = field(default_factory=list)
    gaps: list[tuple[Section, Change]] = field(default_factory=list)   # extraction gaps only
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
            # each edition on its own: a change another edition shares still counts here
            change = finder.compare(old, current, sec)
            if change is None:
                rep.unchanged += 1
            elif change.status == "new":
                rep.new.append(sec)
            elif change.status == "gap":
                rep.gaps.append((sec, change))
            else:
                rep.changed.append((sec, change))
        rep.removed = [s for sid, s in old.sections.items() if sid not in current.sections]
        reports.append(rep)
    return reports
