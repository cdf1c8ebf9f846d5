"""Phrases in an entry's text: its words' places, whether a phrase's words stand in a
row there (a synonym phrase, two adjacent query words), and the entries of a part of the
index holding a phrase (`PhraseFinder`)."""
from __future__ import annotations

from typing import Iterable


def word_positions(tokens: list[tuple[str, int, int]]) -> dict[str, list[int]]:
    """Each stem of an analysed text -> the places it stands at (word count from 0)."""
    out: dict[str, list[int]] = {}
    for i, (stem, _, _) in enumerate(tokens):
        out.setdefault(stem, []).append(i)
    return out


def has_phrase(positions: dict[str, list[int]], stems: tuple[str, ...]) -> bool:
    """Whether the stems stand one after the other in the text of `positions`."""
    first = positions.get(stems[0])
    if not first:
        return False
    if len(stems) == 2:   # the common case: adjacent query words
        second = positions.get(stems[1])
        if not second:
            return False
        if len(first) * len(second) <= 64:    # a word or two each, as most are: the lists walked
            for p in first:
                if p + 1 in second:
                    return True
            return False
        return not set(second).isdisjoint(map((1).__add__, first))
    rest = [set(positions.get(s, ())) for s in stems[1:]]
    return any(all(p + i + 1 in r for i, r in enumerate(rest)) for p in first)


class PhraseFinder:
    """The entries of one part of the index holding a phrase, in their body and in their
    title (`SearchIndex` keeps what it finds per phrase: a phrase comes back in question
    after question).

    `df`: each stem's entry count; `postings`: the part's (its keys and idf); `positions`,
    `title_positions`: entry key -> `word_positions` of its body, of its title; `body_docs`,
    `title_docs`: term -> the entries holding it there; `kept`: field -> term -> the entries
    kept for a term whose postings were cut (`max_postings`), in entry order."""

    def __init__(self, df, postings, positions, title_positions, body_docs, title_docs,
                 kept: dict[str, dict[str, list[int]]]):
        self.df, self.postings = df, postings
        self._positions = {"body": positions, "title": title_positions}
        self._held = {"body": body_docs, "title": title_docs}
        self._kept = kept

    def __call__(self, stems: tuple[str, ...]) -> tuple[float, tuple[int, ...], tuple[int, ...]] | None:
        """The sum of the phrase's words' idf, and the entries (in entry order) holding it
        in their body and in their title; None when a word of it is in no entry."""
        if not all(a in self.df for a in stems):
            return None
        return (sum(self.postings.idf("body", a) for a in stems),
                self.find("body", stems), self.find("title", stems))

    def find(self, fname: str, stems: tuple[str, ...]) -> tuple[int, ...]:
        """The entries (in entry order) holding the phrase `stems` in field `fname`."""
        rarest = min(stems, key=self.df.__getitem__)
        # an entry holds the phrase in a field only if that field's postings have each of
        # its other words (they are counted from the same words): a set look-up spares
        # most entries the positions
        others = {a for a in stems if a != rarest}
        positions = self._positions[fname]
        keys = self.postings.keys
        return tuple(d for d in self.candidates(fname, rarest, others)
                     if has_phrase(positions[keys[d]], stems))

    def candidates(self, fname: str, term: str, others) -> Iterable[int]:
        """The entries a phrase is looked for in: those holding `term` and each of `others`
        in field `fname`, in entry order (the order of the postings: the order they are
        scored in). Only the entries kept for `term` when its postings were cut
        (`max_postings`); else the sets of the words' entries intersected (in C, the
        smaller set walked), not the postings of a common word walked one by one."""
        held = self._held[fname]
        kept = self._kept[fname].get(term)
        if kept is not None:
            for a in others:      # filter(): in C, in the kept entries' order
                kept = filter(held[a].__contains__, kept)
            return kept
        docs = held[term]
        for a in others:
            docs = docs & held[a]
        return sorted(docs)
