"""How good an answer is, and what to say about it (pure Python, no Flask).

A judge in a hurry trusts the top line, so the search says when it is only a guess:

- `match`: "good" (the first result holds most of the question, a word that names something
  among it, or the question names a section or a card), "weak" (the first result holds less
  than `WEAK_COVERAGE` of the question's weight, or only its numbers and question words:
  "No section matches all of your words — closest:"), or "none"
  (nothing found, or a question of filler words only, "what happens if": no result is
  shown as an answer).
- `suggestions`: for a weak answer, the rules' words for the everyday words typed, as
  searches a tap away: the synonym table's phrases for a word ("scoop" -> "conceding"), else
  the titles of the few sections whose questions use the word ("ditched" -> "Early
  Departure"). A word the rules' own text holds gets none, and so does a word of the game
  that many cards hold (`GAME_WORD_ENTRIES`: "burn", "control", "location" are the cards'
  words, and a judge call about a card burned in play was offered "Pre-Game Procedure"),
  and so does an answer whose first result is a card's entry: a question describing a
  card ("the vampire who hunts from the ash heap…") is weak as often as not, and the
  rules' sections are no help to it.
- `split_questions`: a pasted message with numbered sub-questions ("1) … 2) …") is answered
  part by part: the best result of each part comes first, then the whole message's.

The browser's offline search (`static/offline-search.js`) says the same with the same
numbers, shipped in the offline index's `params`.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from judgekit.rules.hits import Hit
from judgekit.rules.query import check_query
from judgekit.rules.search import SearchIndex
from judgekit.rules.synonyms import SYNONYMS

WEAK_COVERAGE = 0.6    # below this share of the question's weight, the first result is a guess
MAX_SUGGESTIONS = 4
EVERYDAY_WORDS = 2     # the rarest everyday words of a question given the rules' words
TITLES_PER_WORD = 2
#: a word that more of the cards' entries hold is the game's, not a player's everyday word:
#: the sections whose questions use it are no suggestion ("burn", "control", "gain",
#: "location"; the everyday words of the rules' questions are in three entries at most)
GAME_WORD_ENTRIES = 20
MAX_PARTS = 6          # numbered sub-questions answered one by one
PART_RESULTS = 1       # results of each part shown first

# "1) … 2) …", "1. … 2. …", "a) … b) …", at the start or after a space or a line break
PART_MARK = re.compile(r"(?:^|(?<=\s))\(?(?:\d{1,2}|[a-hA-H])[).]\s+")


@dataclass
class Answer:
    hits: list[Hit]
    stems: list[str]
    match: str = "good"                                   # "good" | "weak" | "none"
    suggestions: list[str] = field(default_factory=list)  # searches in the rules' words
    parts: list[tuple[str, list[Hit]]] = field(default_factory=list)  # (sub-question, its best)


def split_questions(text: str) -> list[str]:
    """The numbered sub-questions of a message, when it has at least two ("1) … 2) …");
    else []. Text before the first number is left to the whole message's search."""
    marks = list(PART_MARK.finditer(text))
    if len(marks) < 2:
        return []
    parts = []
    for m, nxt in zip(marks, marks[1:] + [None]):
        part = text[m.end():nxt.start() if nxt else len(text)].strip()
        if part:
            parts.append(part)
    return parts[:MAX_PARTS] if len(parts) >= 2 else []


def informative(index: SearchIndex, text: str) -> bool:
    """Whether the question holds a word that names something (not only question words,
    stop words and filler: "what happens if", "can I")."""
    return any(g.factor == 1.0 for g in index.groups_of(text))


def says_a_word(search, hit: Hit, text: str) -> bool:
    """Whether the hit's entry holds a word of the question `text` that names something (not
    a question word, not a number), as its part of the index reads it (`Search.read`): a
    number stated by many entries, or a question word, may be most of a question's weight
    when its other words are in no entry ("<script>alert(1)</script>": every section saying
    "1"; "what does kridd do": the card declaration, which says "what" and "do"), and such a
    first result is a guess, not an answer."""
    part = search.part_of(hit)
    rules_text, card_text, _ = search.read(text)
    return any(part.holds(g, hit.entry.key)
               for g in part.groups_of(card_text if part is not search.rules else rules_text)
               if g.number is None and g.factor == 1.0)


def match_of(search, hits: list[Hit], text: str) -> str:
    """How good the first of `hits` (the answer to `text`) is (see the module)."""
    if not hits:
        return "none"
    first = hits[0]
    if first.direct or (first.coverage >= WEAK_COVERAGE and says_a_word(search, first, text)):
        return "good"
    return "weak"


@lru_cache(maxsize=4)
def everyday_tables(rules: SearchIndex, cards: SearchIndex | None = None) -> dict[str, dict[str, list[str]]]:
    """What `suggestions` reads, made once per index (and shipped to the browser):
    `synonyms`, a judge's word (lower case) -> the synonym table's phrases for it that the
    rules' own text holds; `titles`, a stem of the questions -> the titles of the sections
    whose questions use it (`SearchIndex.titles_asked_with`), for the stems that at most
    `GAME_WORD_ENTRIES` of the `cards`' entries hold."""
    synonyms = {}
    for word, phrases in SYNONYMS.items():
        held = [p for p in phrases if rules.in_own_text_phrase(p)]
        if held:
            synonyms[word] = held
    titles = {}
    for stem in sorted(rules.postings.terms.get("questions", {})):
        if cards is not None and cards.df.get(stem, 0) > GAME_WORD_ENTRIES:
            continue
        found = rules.titles_asked_with(stem, TITLES_PER_WORD)
        if found:
            titles[stem] = found
    return {"synonyms": synonyms, "titles": titles}


def suggestions(rules: SearchIndex, text: str, cards: SearchIndex | None = None) -> list[str]:
    """The rules' words for the everyday words of `text` (see the module), as searches: for
    its `EVERYDAY_WORDS` rarest words that the rules' own text does not hold (`cards`: the
    cards' part, whose common words are the game's: `everyday_tables`)."""
    tables = everyday_tables(rules, cards)
    out: list[str] = []
    groups = [g for g in rules.groups_of(text) if g.number is None and g.factor == 1.0]
    words = 0
    for g in sorted(groups, key=lambda g: -g.weight):     # stable: ties in the question's order
        own = next(iter(g.alts))                            # the typed word's (or phrase's) stems
        if all(rules.in_own_text(s) for s in own):
            continue
        found = tables["synonyms"].get(g.words.lower()) or \
            (tables["titles"].get(own[0], []) if len(own) == 1 else [])
        if not found:
            continue
        words += 1
        for p in found:
            if p.lower() not in (x.lower() for x in out) and p.lower() != g.words.lower():
                out.append(p)
        if words >= EVERYDAY_WORDS:
            break
    return out[:MAX_SUGGESTIONS]


def answer(search, text: str, limit: int = 10) -> Answer:
    """The search's answer to `text` (`judgekit.rules.card_ranking.Search`), with what is
    said about it (see the module). Raises `QueryError` for an unusable query."""
    text = check_query(text)
    hits, stems = search.search(text, limit)
    named = bool(hits) and hits[0].direct     # a section number, a card's name
    if not named and not informative(search.rules, text):
        return Answer([], stems, "none")
    parts: list[tuple[str, list[Hit]]] = []
    for part in split_questions(text):
        if informative(search.rules, part):
            parts.append((part, search.search(part, PART_RESULTS)[0]))
    if parts:
        first = [h for _, found in parts for h in found]
        keys = {h.entry.key for h in first}
        hits = (first + [h for h in hits if h.entry.key not in keys])[:limit]
        matches = [match_of(search, found, part) for part, found in parts]
        match = "good" if all(m == "good" for m in matches) else "weak"
    else:
        match = match_of(search, hits, text)
    card_first = bool(hits) and hits[0].entry.doc == "cards"
    said = suggestions(search.rules, text, search.cards) if match != "good" and not card_first else []
    return Answer(hits, stems, match, said, parts)
