"""The questions an entry answers, one phrasing at a time: the nearest phrasing re-orders a
part's ranked entries (the rules').

BM25F reads an entry's questions (`content/rules/questions/`) as one field: a word of one
phrasing and a word of another count as if they were said together, and a section with many
phrasings holds a little of every question about its subject. A question that says nearly
what one phrasing says ("judge took 5 minutes to decide, extra time?") is a stronger sign
than that: the entry whose phrasing the question holds the most of is the one it asks.

A phrasing's **nearness** to a question is the share of the phrasing's weight that the
question holds (each stem weighs its idf, `log(1 + n / df)`), times the square root of the
share of the question's weight that the phrasing holds (the question's words that count,
`Group.weight`; question words and numbers left out). A group is held by a phrasing when one
of its alternatives (its stems, a synonym, a typo, a longer form; whatever its boost) is all
in it; the first such alternative gives the phrasing's stems it holds. An entry's nearness
is its nearest phrasing's. `SearchIndex.search` orders the first `NEAREST_AMONG` of its
candidates by their order key times `1 + factor x nearness`; the scores keep their places
(the n-th entry shown gets the n-th best score of the order before), so the merge with the
cards compares the same scores.

Everything is summed in a fixed order (the groups' order; a phrasing's stems in the order
they first appear) so that the browser's copy (static/offline-phrasings.js) gets the same
floats."""
from __future__ import annotations

import math
from typing import Iterable

from judgekit.rules.analysis import analyze
from judgekit.rules.lazy import Lazy
from judgekit.rules.query import Group

#: How much the nearest phrasing counts: an entry with a phrasing the question holds all of
#: (and that holds all of the question) is ordered as if it scored (1 + this) times as much.
#: 15: the rules' sets +10 questions in the first three, the held-out and unread sets +3,
#: no set fewer (3: +6 and +2; 8: +10 and +2; 30 as 15); `search_phone13`, written after
#: it, lost one (docs/search.md). Not for the cards: their groups' rulings and the cards'
#: own texts are ranked by other steps (`CardFactors`), and there it lost more development
#: questions than it found (3 against 2).
PHRASING_FACTOR = 15.0


def phrasing_stems(questions: str, little: frozenset[str]) -> list[tuple[str, ...]]:
    """Each phrasing (a line of an entry's `questions`) as its stems, each once in the order
    they first appear, the question words' stems (`little`) left out; phrasings of none left
    out."""
    out = []
    for line in questions.splitlines():
        stems = tuple(dict.fromkeys(st for st, _, _ in analyze(line) if st not in little))
        if stems:
            out.append(stems)
    return out


class Phrasings:
    """The phrasings of a part's entries, made when a query first ranks an entry."""

    def __init__(self, questions: dict[str, str], df: dict[str, int], n: int, question: frozenset[str]):
        """`questions`: entry key -> its questions (one phrasing a line); `df`: stem -> the
        entries holding it; `n`: how many entries the part has; `question`: the stems of the
        words that count little (left out of the phrasings)."""
        self._questions = questions
        self._little = question
        self._idf = Lazy(lambda st: math.log(1 + n / df[st]) if df.get(st) else math.log(1 + n))
        # key -> (stem -> the bits of the phrasings holding it, [(stems, their idf summed)])
        self._of = Lazy(self._make)

    def _make(self, key: str):
        text = self._questions.get(key)
        if not text:
            return None
        bits: dict[str, int] = {}
        phrasings = []
        for i, stems in enumerate(phrasing_stems(text, self._little)):
            total = 0.0
            for st in stems:
                bits[st] = bits.get(st, 0) | (1 << i)
                total += self._idf[st]
            phrasings.append((stems, total))
        return (bits, phrasings) if phrasings else None

    def idf(self, stem: str) -> float:
        """The weight of a phrasing's stem: `log(1 + n / df)` (`log(1 + n)` for a stem no
        entry holds)."""
        return self._idf[stem]

    def of(self, key: str) -> list[tuple[str, ...]]:
        """The entry's phrasings as their stems (`phrasing_stems`), none when it has none."""
        made = self._of[key]
        return [stems for stems, _ in made[1]] if made else []

    def nearness(self, key: str, asked: Asked) -> float:
        """The nearness of the entry's nearest phrasing to the question (`asked`, module doc);
        0 when it has none."""
        made = self._of[key]
        if made is None:
            return 0.0
        bits, phrasings = made
        common = asked.stems.intersection(bits)
        if not common:
            return 0.0
        held: dict[str, int] = {}         # stem -> the phrasings where a group holds it
        weight = [0.0] * len(phrasings)   # per phrasing: the question's weight it holds
        holding = {}                      # group -> the phrasings holding it: each by the first
        # alternative it holds (the typed word before a synonym), the groups in their order
        for gi, _, alt in sorted(p for st in common for p in asked.by_first[st]):
            b = bits[alt[0]] & ~holding.get(gi, 0)
            for st in alt[1:]:
                b &= bits.get(st, 0)
            if b:
                holding[gi] = holding.get(gi, 0) | b
                for st in alt:
                    held[st] = held.get(st, 0) | b
        for gi, b in holding.items():     # in the groups' order (dicts keep it)
            w, i = asked.weights[gi], 0
            while b:
                if b & 1:
                    weight[i] += w
                b >>= 1
                i += 1
        best, total = 0.0, asked.total
        for i, (stems, whole) in enumerate(phrasings):
            if not weight[i]:
                continue
            got = 0.0
            for st in stems:
                if held.get(st, 0) >> i & 1:
                    got += self._idf[st]
            best = max(best, got / whole * math.sqrt(weight[i] / total))
        return best


class Asked:
    """A question as `Phrasings.nearness` reads it: its groups that count (no question word,
    no number), their weights and total, and each alternative by its first stem."""

    def __init__(self, groups: Iterable[Group]):
        plain = [g for g in groups if g.number is None and g.factor == 1.0]
        self.weights = [g.weight for g in plain]
        self.total = 0.0
        for w in self.weights:      # left to right, as the browser sums (not `sum`: exact
            self.total += w         # from Python 3.12, it may differ in the last bit)
        # first stem -> [(group, alternative, its stems)], in the groups' and alternatives' order
        self.by_first: dict[str, list[tuple[int, int, tuple[str, ...]]]] = {}
        for gi, g in enumerate(plain):
            for ai, alt in enumerate(g.alts):
                if alt:
                    self.by_first.setdefault(alt[0], []).append((gi, ai, alt))
        self.stems = frozenset(self.by_first)
