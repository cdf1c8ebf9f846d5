"""A part's first step in ranking a question: every entry holding some of it scored (each
word's BM25F weights, the numbers it states, the phrases it holds), and the best of them
picked for the re-ranking by coverage (`SearchIndex._candidates`, docs/search.md)."""
from __future__ import annotations

from itertools import repeat
from operator import add, itemgetter, mul

from judgekit.rules.index_store import FIELD_BOOSTS
from judgekit.rules.query import Group

NUMBER_BOOST = 2.0      # a number stated by the entry, per unit of the number's weight
NO_WEIGHTS = ((), ())
#: `best_scored` reads its floor off a sample when there are more than SAMPLE_OVER x n
#: scores, placed for FLOOR_MARGIN x n of them to be kept
SAMPLE_OVER = 8
FLOOR_MARGIN = 3


def score_entries(groups: list[Group], group_docs: list, weights: dict, found: list,
                  big: list[int]) -> dict[int, float]:
    """Each scored entry's score (docnum -> score), in the order entries were first scored.
    `weights`: term -> (docnums, weights); `found`: the phrases (stems, boost, the part's
    record of them: idf, entries holding it in their body, in their title); the number
    groups `big` add only to the entries something else scores (`SearchIndex._candidates`)."""
    scores: dict[int, float] = {}
    touched: set[int] | None = None
    if big:
        touched = set()
        for i, (g, docs) in enumerate(zip(groups, group_docs)):
            if g.number is None:
                for alt in g.alts:
                    if len(alt) == 1:
                        touched.update(weights.get(alt[0], NO_WEIGHTS)[0])
            elif i not in big:
                touched.update(docs)
        for _, _, f in found:
            if f is not None:
                touched.update(f[1])
                touched.update(f[2])
    for i, (g, docs) in enumerate(zip(groups, group_docs)):
        if g.number is not None:
            # scores[doc] += NUMBER_BOOST * weight * closeness for each entry stating the
            # number or one near it, the loop in C, one entry at a time (the same sums)
            get, boost = scores.get, NUMBER_BOOST * g.weight
            near, closeness = docs, docs.values()
            if touched is not None and i in big:
                near = list(filter(touched.__contains__, docs))
                closeness = map(docs.__getitem__, near)
            scores.update(zip(near, map(add, map(get, near, repeat(0.0)), map(mul, repeat(boost), closeness))))
            continue
        get = scores.get
        for alt, boost in g.alts.items():
            if len(alt) == 1:
                b = boost * g.factor
                for doc, w in zip(*weights.get(alt[0], NO_WEIGHTS)):
                    scores[doc] = get(doc, 0.0) + b * w
    for alt, boost, f in found:
        if f is None:
            continue
        idf, in_body, in_title = f
        gain = boost * idf
        for doc in in_body:
            scores[doc] = scores.get(doc, 0.0) + gain
        gain *= FIELD_BOOSTS["title"]
        for doc in in_title:
            scores[doc] = scores.get(doc, 0.0) + gain
    return scores


def number_score(doc: int, numbers: list[tuple[float, dict[int, float]]]) -> float:
    """The score of an entry that holds nothing of a question but numbers (boost, entry ->
    closeness), summed as `score_entries` sums it."""
    score = 0.0
    for boost, near in numbers:
        if doc in near:
            score = score + boost * near[doc]
    return score


def best_scored(scores: dict[int, float], n: int) -> list[tuple[int, float]]:
    """The `n` best (entry, score) pairs, best first, ties in the order entries were first
    scored (a stable sort of those at least as high as the `n`-th: a long question scores
    thousands)."""
    return sorted(_at_least_nth(scores, n), key=itemgetter(1), reverse=True)[:n]


def _at_least_nth(scores: dict[int, float], n: int):
    """The (entry, score) pairs of `scores` scoring at least its `n`-th best, in its order:
    all that a sort for the `n` best needs to see (a long question scores thousands of
    cards, and its 60 best are wanted)."""
    if len(scores) <= n:
        return scores.items()
    values = list(scores.values())
    if len(values) > SAMPLE_OVER * n:
        # a floor read off a sample of about SAMPLE_OVER / 2 x n of the scores, at the rank
        # where about FLOOR_MARGIN x n of all are expected to be above it: when at least n
        # are, the n best are among them (the same pairs, in the same order, as with the
        # exact floor, and a long question's thousands of floats go unsorted)
        step = len(values) * 2 // (SAMPLE_OVER * n)
        sample = sorted(values[::step])
        floor = sample[-min(len(sample), FLOOR_MARGIN * n // step + 1)]
        kept = [(d, v) for d, v in scores.items() if v >= floor]
        if len(kept) >= n:
            return kept
    floor = sorted(values)[-n]     # a sort of floats, in C
    return [(d, v) for d, v in scores.items() if v >= floor]
