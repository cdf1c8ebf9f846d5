"""Search snippets: the window of an entry's text that holds the most matched words, with
`<mark>` around them, and the anchor of the paragraph it comes from.

`static/offline-search.js` cuts snippets the same way (its `snippet` function).
"""
from __future__ import annotations

import html
from typing import Protocol


class Snippable(Protocol):
    body: str
    url: str
    kind: str
    anchors: list[tuple[int, str]]


def snippet_and_url(e: Snippable, tokens: list[tuple[str, int, int]],
                    positions: dict[str, list[int]], stems: list[str],
                    width: int = 28) -> tuple[str, str]:
    """(snippet HTML, URL) of entry `e` for the matched `stems`.

    `tokens` are the entry body's analysed words and `positions` their indexes by stem."""
    wanted = set(stems)
    if not tokens:
        return html.escape(e.body[:200]), e.url
    hits = sorted(i for st in wanted for i in positions.get(st, ()))
    best = 0
    if hits:
        # the window of `width` words covering the most distinct matched stems (two pointers)
        best, best_score, j, counts = hits[0], -1, 0, {}
        for k, start in enumerate(hits):
            while j < len(hits) and hits[j] < start + width:
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
    else:
        first = 0
    last = min(len(tokens) - 1, first + width)
    start_char = tokens[first][1]
    # begin at the start of the sentence/paragraph if it is close
    back = e.body.rfind("\n", 0, start_char)
    if 0 <= start_char - back <= 40:
        start_char = back + 1
    elif first == 0:
        start_char = 0
    end_char = tokens[last][2]
    out, pos = [], start_char
    for s, a, b in tokens[first:last + 1]:
        if a < start_char:
            continue
        if s in wanted:
            out.append(html.escape(e.body[pos:a]))
            out.append(f"<mark>{html.escape(e.body[a:b])}</mark>")
            pos = b
    out.append(html.escape(e.body[pos:end_char]))
    snippet = "".join(out).replace("\n", " ")
    if start_char > 0:
        snippet = "… " + snippet
    if end_char < len(e.body.rstrip()):
        snippet += " …"
    url = e.url
    if e.kind in ("section", "intro") and hits:
        anchor = None
        for offset, a in e.anchors:
            if offset <= tokens[best][1]:
                anchor = a
        if anchor and len(e.anchors) > 1:
            url = f"{e.url}#{anchor}"
    return snippet, url
