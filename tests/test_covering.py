"""The covering entries found on bit sets (judgekit/rules/covering.py) are those the plain
sum finds: the same entries, in the same order, ties by entry number."""
import random

import pytest

from judgekit.rules.covering import docs_mask, lowest, most_held


def summed(pool: set[int], weights: list[float], sets: list[set[int]], n: int) -> list[int]:
    """The plain way: each pool entry's worth summed word by word, in the words' order."""
    held = dict.fromkeys(pool, 0.0)
    for w, docs in zip(weights, sets):
        for d in docs & pool:
            held[d] += w
    return [d for _, d in sorted((-v, d) for d, v in held.items())[:n]]


def test_a_bit_set_holds_exactly_its_entries():
    docs = [0, 7, 8, 63, 64, 1000]
    mask = docs_mask(docs)
    assert [d for d in range(1100) if mask >> d & 1] == docs
    assert lowest(mask, 3) == [0, 7, 8]
    assert lowest(mask, 10) == docs
    assert docs_mask([]) == 0 and lowest(0, 5) == []


@pytest.mark.parametrize("seed", range(60))
def test_the_most_held_entries_are_those_the_plain_sum_finds(seed):
    rng = random.Random(seed)
    n_docs = rng.choice([20, 300, 3000])
    n_words = rng.randint(1, 24)
    # weights with repeats, so that many entries tie (the order then is the entry number's)
    choices = [round(rng.uniform(0.1, 6.0), rng.choice([0, 1, 3])) for _ in range(5)]
    weights = [rng.choice(choices) if rng.random() < 0.5 else rng.uniform(0.05, 8.0)
               for _ in range(n_words)]
    sets = [set(rng.sample(range(n_docs), rng.randint(0, n_docs // rng.choice([1, 3, 20])))) for _ in range(n_words)]
    pool = set().union(*rng.sample(sets, min(len(sets), 5)))
    n = rng.choice([1, 5, 30])
    expected = summed(pool, weights, sets, n)
    assert most_held(docs_mask(pool), weights, [docs_mask(s) for s in sets], n) == expected
    assert len(expected) == min(n, len(pool))


def test_an_empty_pool_holds_nothing():
    assert most_held(0, [1.0, 2.0], [docs_mask([1, 2]), docs_mask([3])], 30) == []
