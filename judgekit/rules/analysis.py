"""How text becomes search terms, shared by the index, the query and the offline index.

- `analyze`: the analyzer whoosh indexes with (words, lower case, accents folded, stop
  words dropped, Porter2 stems), with each word's character offsets.
- `numbers_in`: the numbers a text states, in digits or in words ("ninety cards",
  "twenty-eight days", "15 minutes"), each with the word that follows it (its unit).
- `within_one_edit`: the typo test.
"""
from __future__ import annotations

import re
from functools import lru_cache

from whoosh.analysis import (CharsetFilter, LowercaseFilter, RegexTokenizer,
                             StemFilter, StopFilter)
from whoosh.lang.porter2 import stem as porter2
from whoosh.support.charset import accent_map

WORD = r"\w+(?:[.'’]\w+)*"


def make_analyzer():
    return (RegexTokenizer(WORD) | LowercaseFilter() | CharsetFilter(accent_map)
            | StopFilter(minsize=1) | StemFilter(stemfn=porter2, cachesize=-1))


ANALYZER = make_analyzer()


def analyze(text: str) -> list[tuple[str, int, int]]:
    """(stem, start char, end char) of each indexed word of `text`."""
    return [(t.text, t.startchar, t.endchar)
            for t in ANALYZER(text, positions=False, chars=True)]


@lru_cache(maxsize=65536)
def stem_word(word: str) -> tuple[str, ...]:
    """The indexed stem(s) of one query word (usually one; none for a stop word)."""
    return tuple(s for s, _, _ in analyze(word))


WORD_RE = re.compile(WORD)


@lru_cache(maxsize=64)
def query_tokens(text: str) -> tuple[tuple[str, int, int], ...]:
    """`analyze(text)` for a query, each word's stem taken from the cache of `stem_word`
    (the analyzer treats every word alone, so the two agree). Kept for the last queries:
    one search reads a query's words four times (each part of the index, twice)."""
    return tuple((st, m.start(), m.end()) for m in WORD_RE.finditer(text) for st in stem_word(m.group()))


def query_stems(text: str) -> list[str]:
    return [st for st, _, _ in query_tokens(text)]


# --- numbers ---------------------------------------------------------------------------------

UNITS = {"zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
         "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
         "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
         "nineteen": 19}
TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70,
        "eighty": 80, "ninety": 90}
NUMBER_WORDS = {**UNITS, **TENS, "hundred": 100}
DIGITS = re.compile(r"[0-9]{1,6}")


def number_value(word: str) -> float | None:
    """The value of a word that is a whole number ("91", "ninety"), else None (section
    numbers such as "7.6" and decimals are not counts)."""
    low = word.lower()
    if DIGITS.fullmatch(low):
        return float(low)
    value = NUMBER_WORDS.get(low)
    return float(value) if value is not None else None


def numbers_in(text: str, tokens: list[tuple[str, int, int]]) -> list[tuple[int, int, float]]:
    """(first token index, number of tokens, value) of each number `text` states, from its
    analysed `tokens`: "twenty-eight" and "twenty eight" are one number (28) of two tokens."""
    out: list[tuple[int, int, float]] = []
    i = 0
    while i < len(tokens):
        _, a, b = tokens[i]
        value = number_value(text[a:b])
        if value is None:
            i += 1
            continue
        if text[a:b].lower() in TENS and i + 1 < len(tokens):
            _, a2, b2 = tokens[i + 1]
            unit = UNITS.get(text[a2:b2].lower(), 0)
            if 1 <= unit <= 9 and text[b:a2] in ("-", " ", "‑"):
                out.append((i, 2, value + unit))
                i += 2
                continue
        out.append((i, 1, value))
        i += 1
    return out


def phrase_item(word: str, stem: str) -> str:
    """How a word takes part in a synonym phrase: its stem, or its value for a number, so
    that "2 cards" and "two cards" are the same phrase; a stem without its apostrophes, so
    that "can't prevent" is the phrase "cant prevent" (phones type the apostrophe for us)."""
    value = number_value(word)
    return str(int(value)) if value is not None else stem.replace("'", "").replace("\u2019", "")


def closeness(a: float, b: float) -> float:
    """1 for the same number, falling to 0 when they differ by half the larger one."""
    if a == b:
        return 1.0
    big = max(abs(a), abs(b))
    return max(0.0, 1.0 - 2.0 * abs(a - b) / big) if big else 0.0


# --- typos -----------------------------------------------------------------------------------

def within_one_edit(a: str, b: str) -> bool:
    """True when `a` and `b` differ by one insertion, deletion, substitution or swap."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la > lb:
        a, b, la, lb = b, a, lb, la
    i = 0
    while i < la and a[i] == b[i]:
        i += 1
    if la == lb:
        if a[i + 1:] == b[i + 1:]:
            return True
        return i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:]
    return a[i:] == b[i + 1:]


def stated_numbers(text: str, tokens: list[tuple[str, int, int]]) -> list[tuple[float, frozenset[str]]]:
    """The numbers a text states, each with the stems of the (up to) two words after it
    that are not numbers themselves: "ninety cards" -> (90, {card}); "15 minutes of" ->
    (15, {minut})."""
    out = []
    for i, width, value in numbers_in(text, tokens):
        after = range(i + width, min(len(tokens), i + width + 3))
        units = [tokens[j][0] for j in after if number_value(text[tokens[j][1]:tokens[j][2]]) is None][:2]
        out.append((value, frozenset(units)))
    return out
