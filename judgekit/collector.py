"""The server process's long-lived objects kept out of Python's cycle collector's walks.

Why: once started, the process holds the rules, every card, their rulings and the search
index: about 150,000 containers the collector tracks (dicts, lists, tuples, entries), alive
until it stops. A search allocates by the thousand, so it runs the collector, and each of
the collector's full collections walked all of them: about 0.1 s, in the middle of a
search that otherwise takes two or three milliseconds. Replaying the search benchmark's
questions on a busy machine (29 Nov 2026) read p95 7.7 and 6.3 ms, p99 25.5 and 26.2 ms
without freezing them; 4.4 and 4.4 ms, 7.0 and 7.2 ms frozen.

`settle()` moves every object alive into the collector's permanent generation
(`gc.freeze()`, the standard library's documented interface for this): those objects are
never walked again; they are still freed as usual when nothing refers to them any more.
Objects made later (requests, games opened, caches filled) are collected as before. No
collection runs first: the start leaves no garbage in cycles (`gc.collect()` found none
after `create_app`), and a full collection would add about 0.1 s to the start.
`judgekit serve` calls it once the app is built, before it answers anything.
"""
from __future__ import annotations

import gc


def settle() -> None:
    """Freeze every object alive."""
    gc.freeze()
