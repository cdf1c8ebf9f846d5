"""Phrases in an entry's text: its words' places, and whether a phrase's words stand in a
row there (a synonym phrase, two adjacent query words)."""
from __future__ import annotations


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
