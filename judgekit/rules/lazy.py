"""Dicts that make their values when first asked: the search's per-entry and per-term
tables (`judgekit.rules.search`), made for the entries and words that queries use."""
from __future__ import annotations

from collections import OrderedDict


class Lazy(dict):
    """A dict whose missing values are made (and kept) by `make(key)` when first asked."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    def __missing__(self, key):
        value = self[key] = self._make(key)
        return value


class LazyLRU(OrderedDict):
    """`Lazy` holding at most `size` values, the least recently used dropped first: the
    snippets' escaped text and the query terms' entry sets would otherwise grow with every
    distinct query a long-running server answers.

    The server's threads share it without a lock: each step is one operation of the C
    OrderedDict, and a step that finds its key gone (another thread dropped it between two
    steps) only skips marking it as used; the value read is still the right one."""

    def __init__(self, make, size: int):
        super().__init__()
        self._make, self._size = make, size

    def __getitem__(self, key):
        try:
            value = super().__getitem__(key)
        except KeyError:
            value = self._make(key)
            super().__setitem__(key, value)
            while len(self) > self._size:
                try:
                    self.popitem(last=False)
                except KeyError:      # emptied by the other threads meanwhile
                    break
            return value
        try:
            self.move_to_end(key)
        except KeyError:              # dropped by another thread since it was read
            pass
        return value
