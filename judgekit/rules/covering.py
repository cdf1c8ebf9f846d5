"""The entries holding the most of a question's weight, found on bit sets.

A part of the index re-ranks, beside its best-scored entries, the entries that hold the most
of the question's words (`SearchIndex._covering`): each entry of a pool (those holding one of
the question's rarest words) is worth the sum of the weights of the question's words it
holds, and the best few are wanted. Summing word by word into a dict costs a dict operation
per entry and word: a long question's pool is a thousand cards or more, and that was a
quarter of its search.

Here each word's entries are one Python int used as a bit set (bit d: entry d holds the
word), and the pool is split word by word, heaviest word first, into the entries that hold
it and those that do not: each split is two bitwise operations in C over the whole pool.
The splits are taken best first (by the most an entry in them can still be worth), so only
the few branches that reach the top are followed; an entry's worth is summed, when its
branch is done, in the question's word order, as the dict was: the same floats, so the same
entries in the same order (ties by entry number).
"""
from __future__ import annotations

import heapq
from typing import Iterable

#: Slack on the bound a branch is cut at: the bound is summed heaviest word first, an
#: entry's worth in the question's order, and the two may differ in the last bits.
SLACK = 1e-9


def docs_mask(docs: Iterable[int]) -> int:
    """The bit set of the entry numbers `docs`."""
    docs = list(docs)
    if not docs:
        return 0
    bits = bytearray((max(docs) >> 3) + 1)
    for d in docs:
        bits[d >> 3] |= 1 << (d & 7)
    return int.from_bytes(bits, "little")


def alternatives_mask(alts, df, masks) -> int:
    """The entries holding any of a group's alternatives (`alts`: tuples of stems, all of a
    tuple's stems held), as a bit set; `masks`: stem -> its entries' bit set, for the stems
    in `df`."""
    found = 0
    for alt in alts:
        mask = masks[alt[0]] if alt[0] in df else 0
        for a in alt[1:]:
            mask &= masks[a] if a in df else 0
        found |= mask
    return found


def lowest(mask: int, n: int) -> list[int]:
    """The `n` lowest entry numbers of the bit set `mask`, ascending."""
    out = []
    while mask and len(out) < n:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def most_held(pool: int, weights: list[float], masks: list[int], n: int) -> list[int]:
    """The `n` entries of the bit set `pool` holding the most weight, most first, ties by
    entry number: an entry's worth is the sum, in the order given, of `weights[i]` for each
    `masks[i]` that holds it (the bit sets of the question's words)."""
    if not pool:
        return []
    # the words that split the pool, heaviest first (a word none of the pool holds adds
    # nothing to any of it)
    order = sorted((i for i, m in enumerate(masks) if m & pool), key=lambda i: -weights[i])
    ws = [weights[i] for i in order]
    bits = [masks[i] for i in order]
    last = len(order)
    rest = [0.0] * (last + 1)                 # rest[k]: the weight of the words from the k-th
    for k in range(last - 1, -1, -1):
        rest[k] = rest[k + 1] + ws[k]
    # branches: (-the most an entry of it can be worth, tie-breaker, words decided, the
    # weight they give, its entries, the words it holds)
    branches = [(-rest[0], 0, 0, 0.0, pool, ())]
    push, pop = heapq.heappush, heapq.heappop
    made = 1
    found: list[tuple[float, int]] = []       # (-worth, entry): the n best so far, best first
    floor = None                              # the n-th best worth found so far
    while branches:
        bound, _, k, got, mask, held = pop(branches)
        if floor is not None and -bound < floor - SLACK:
            break                             # no entry left can reach the n best
        # the branch is followed down through the entries holding each next word (they keep
        # its bound, the best of all), the others left for later; where none holds the word
        # its bound falls, and it goes back among the branches once another's is higher
        while k < last:
            inside = mask & bits[k]
            if inside:
                if inside != mask:
                    push(branches, (-(got + rest[k + 1]), made, k + 1, got, mask ^ inside, held))
                    made += 1
                got += ws[k]
                held += (k,)
                mask = inside
                k += 1
                continue
            k += 1
            top = got + rest[k]
            if floor is not None and top < floor - SLACK:
                break                         # cut
            if branches and top < -branches[0][0]:
                push(branches, (-top, made, k, got, mask, held))
                made += 1
                break
        else:
            worth = 0.0
            for i in sorted(order[j] for j in held):   # the question's order
                worth += weights[i]
            # at most n of one worth are ever kept: the n lowest numbers of each branch
            found = sorted(found + [(-worth, d) for d in lowest(mask, n)])[:n]
            if len(found) == n:
                floor = -found[-1][0]
    return [d for _, d in found]
