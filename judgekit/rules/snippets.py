"""Search snippets: the window of an entry's text that holds the most matched words, with
`<mark>` around them, and the anchor of the paragraph it comes from.

`static/offline-snippets.js` cuts snippets the same way (its `snippet` function).
"""
from __future__ import annotations

import html
from array import array
from bisect import bisect_left, bisect_right
from typing import Protocol


class Snippable(Protocol):
    body: str
    url: str
    kind: str
    anchors: list[tuple[int, str]]


def escaped_offsets(body: str, tokens: list[tuple[str, int, int]]) -> tuple[str, array, array]:
    """The body HTML-escaped once, and where each token starts and ends in it, so a snippet
    is cut from slices instead of escaping its pieces for every query."""
    starts, ends = array("l"), array("l")
    out, pos, at = [], 0, 0
    for _, a, b in tokens:
        gap = html.escape(body[pos:a])
        word = html.escape(body[a:b])
        at += len(gap)
        starts.append(at)
        at += len(word)
        ends.append(at)
        out += (gap, word)
        pos = b
    out.append(html.escape(body[pos:]))
    return "".join(out), starts, ends


def snippet_and_url(e: Snippable, tokens: list[tuple[str, int, int]],
                    positions: dict[str, list[int]], stems, width: int = 28,
                    escaped: tuple[str, array, array] | None = None) -> tuple[str, str]:
    """(snippet HTML, URL) of entry `e` for the matched `stems`.

    `tokens` are the entry body's analysed words, `positions` their indexes by stem and
    `escaped` the body's `escaped_offsets` (computed here when not given)."""
    if not tokens:
        return html.escape(e.body[:200]), e.url
    wanted = stems if isinstance(stems, (set, frozenset)) else set(stems)
    hits: list[int] = []
    for st in positions.keys() & wanted:    # the entry's matched stems, found in C
        hits += positions[st]
    best = first = 0
    if hits:
        hits.sort()
        if hits[-1] < hits[0] + width:
            best = hits[0]       # every match in the first window: it is the best one
        else:
            # the window of `width` words covering the most distinct matched stems (two pointers)
            best, best_score, j, counts = hits[0], -1, 0, {}
            n = len(hits)
            for k, start in enumerate(hits):
                while j < n and hits[j] < start + width:
                    st = tokens[hits[j]][0]
                    counts[st] = counts.get(st, 0) + 1
                    j += 1
                score = len(counts) * 10 + (j - k)
                if score > best_score:
                    best, best_score = start, score
                st = tokens[start][0]
                counts[st] -= 1
                if not counts[st]:
                    del counts[st]
        first = max(0, best - 4)
    last = min(len(tokens) - 1, first + width)
    body = e.body
    start_char = tokens[first][1]
    # begin at the start of the sentence/paragraph if it is close
    back = body.rfind("\n", 0, start_char)
    if 0 <= start_char - back <= 40:
        start_char = back + 1
    elif first == 0:
        start_char = 0
    end_char = tokens[last][2]
    text, starts, ends = escaped or escaped_offsets(body, tokens)
    # where start_char falls in the escaped text: its token's start, less the escaped gap
    pos = starts[first] - len(html.escape(body[start_char:tokens[first][1]])) \
        if start_char < tokens[first][1] else starts[first]
    out = []
    for i in hits[bisect_left(hits, first):bisect_right(hits, last)]:   # the matched words shown
        a = starts[i]
        out += (text[pos:a], "<mark>", text[a:ends[i]], "</mark>")
        pos = ends[i]
    out.append(text[pos:ends[last]])
    snippet = "".join(out).replace("\n", " ")
    if start_char > 0:
        snippet = "… " + snippet
    if end_char < len(body.rstrip()):
        snippet += " …"
    url = e.url
    if e.kind in ("section", "intro") and hits and len(e.anchors) > 1:
        # the paragraph the window starts in: the last anchor at or before its first match
        at = tokens[best][1]
        k = bisect_right(e.anchors, at, key=lambda pair: pair[0])
        if k:
            url = f"{e.url}#{e.anchors[k - 1][1]}"
    return snippet, url
