"""Where a card is named: the announcement guidelines' examples and the trainer's questions
(pure Python, no Flask).

- In prose (an example of the guidelines, a question's situation), a card is named in title
  case: runs of capitalised words (small words such as "the", "of" inside) are looked up
  as card names, longest first ("Govern the Unaligned", "Donny Kowalczyk"). Players' names
  of a trainer question are never taken for cards.
- In a trainer question's recorder events, the `card` and `minion` fields name cards exactly.

`find_mentions(catalog, corpus, trainer)` returns, per card id, the places naming it.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from judgekit.game.cards import DISCIPLINES, VOTES_BY_TITLE

WORD = re.compile(r"[\w'’.-]+", re.U)
SMALL = frozenset(("the", "of", "de", "la", "le", "du", "von", "van", "and", "in", "on", "a", "to",
                   "for", "des", "del", "di", "al", "el", "at", "from", "with"))
MAX_WORDS = 7
#: Single title-case words of the prose that are also card names but are not meant as cards
#: there: disciplines ("superior Dominate"), titles ("a Baron", "Inner Circle"), words.
NOT_CARDS = frozenset(
    [n.lower() for n in DISCIPLINES.values()]
    + list(VOTES_BY_TITLE) + ["circle", "inner", "princes", "barons", "example", "the", "they",
                              "it", "this", "sorry", "ok", "yes", "no", "judge", "methuselah",
                              "predator", "prey", "edge", "the edge"])


@dataclass(frozen=True)
class Mention:
    kind: str      # "example" | "question" | "practice"
    title: str     # "Card declaration — Example 1", a question's title
    url: str


def name_spans(text: str, catalog, skip: frozenset[str] = frozenset()) -> list[tuple[int, int, object]]:
    """(start, end, card) of each card named in `text`: title-case runs looked up as names,
    longest first; words in `skip` (players' names) are never a card."""
    words = []
    for m in WORD.finditer(text):
        raw = m.group(0)
        stripped = raw.strip(".'’-")
        if not stripped:
            continue
        lead = raw.index(stripped[0])
        words.append((stripped, m.start() + lead, m.start() + lead + len(stripped)))
    out: list[tuple[int, int, object]] = []
    i = 0
    while i < len(words):
        w = words[i][0]
        if not w[:1].isupper() or w.lower() in skip:
            i += 1
            continue
        found, length = None, 0
        for n in range(min(MAX_WORDS, len(words) - i), 0, -1):
            run = [x for x, _, _ in words[i:i + n]]
            last = run[-1]
            if not last[:1].isupper() and not last[:1].isdigit():
                continue
            if any(not x[:1].isupper() and x.lower() not in SMALL and not x[:1].isdigit()
                   for x in run[1:-1]):
                continue
            if any(x.lower() in skip for x in run):
                continue
            if n <= 2 and (" ".join(run).lower() in NOT_CARDS or len(w) < 3):
                continue
            card = catalog.find(" ".join(run))
            if card is not None:
                found, length = card, n
                break
        if found is not None:
            out.append((words[i][1], words[i + length - 1][2], found))
            i += length
        else:
            i += 1
    return out


def names_in(text: str, catalog, skip: frozenset[str] = frozenset()) -> list[int]:
    """Card ids named in `text`, in order, once each."""
    out: list[int] = []
    for _, _, card in name_spans(text, catalog, skip):
        if card.id not in out:
            out.append(card.id)
    return out


def linked_html(text: str, catalog, skip=()) -> str:
    """`text` as escaped HTML with every card it names linked to its page."""
    import html
    skip = frozenset(s.lower() for s in skip)
    out, pos = [], 0
    for start, end, card in name_spans(text, catalog, skip):
        out.append(html.escape(text[pos:start]))
        out.append(f'<a class="card-link" href="{card.url}">{html.escape(text[start:end])}</a>')
        pos = end
    out.append(html.escape(text[pos:]))
    return "".join(out)


def find_mentions(catalog, corpus=None, trainer=None) -> dict[int, list[Mention]]:
    """card id -> the guideline examples and trainer questions that name it."""
    out: dict[int, list[Mention]] = {}

    def add(ids, mention):
        for cid in ids:
            bucket = out.setdefault(cid, [])
            if mention not in bucket:
                bucket.append(mention)

    if corpus is not None:
        doc = corpus.get("announcements")
        if doc is not None:
            for sec in doc.sections.values():
                for ex in sec.examples:
                    add(names_in(ex.plain(), catalog),
                        Mention("example", f"{sec.title} — {ex.label.rstrip('.')}",
                                f"/rules/{doc.id}/{sec.id}#{ex.anchor}"))
    if trainer is not None:
        for s in trainer.catalog.scenarios:
            skip = frozenset(n.lower() for n in s.seats)
            ids = names_in(f"{s.situation}\n{s.statement}", catalog, skip)
            ids += _event_names(s.events, catalog)
            add(ids, Mention("question", s.title, f"/trainer/q/{s.id}"))
        for p in getattr(trainer, "prompts", ()):
            skip = frozenset(n.lower() for n in getattr(p, "seats", ()))
            ids = names_in(f"{p.situation}\n{p.task}", catalog, skip)
            add(ids, Mention("practice", p.title, f"/trainer/practice/{p.id}"))
    return out


def _event_names(events, catalog) -> list[int]:
    ids = []
    for ev in events:
        for key in ("card", "minion"):
            value = ev.get(key)
            if isinstance(value, str):
                card = catalog.find(value)
                if card is not None and card.id not in ids:
                    ids.append(card.id)
    return ids
