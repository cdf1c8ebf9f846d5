"""Requests asking the same question at once share one answer (judgekit.live.coalesce)."""
from __future__ import annotations

import threading
import time

import pytest

from judgekit.live.coalesce import Coalesced


def _until(condition, timeout=10.0):
    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.005)


def _overlapping(shared, key, n, result):
    """A first caller of `key` whose computation waits until `n` more callers of `key` wait
    for it, then gives `result()` (or raises what it raises): (what each of the n + 1
    callers got, what each raised, how many times it was computed)."""
    release, computed, got, errors = threading.Event(), [], [], []

    def compute():
        computed.append(1)
        release.wait(10)
        return result()

    def call():
        try:
            got.append(shared.answer(key, compute))
        except Exception as exc:   # what the caller would see
            errors.append(exc)
    first = threading.Thread(target=call)
    first.start()
    _until(lambda: computed)
    others = [threading.Thread(target=call) for _ in range(n)]
    for t in others:
        t.start()
    _until(lambda: shared.waiting(key) == n)
    release.set()
    for t in [first] + others:
        t.join(10)
    return got, errors, len(computed)


def test_callers_that_overlap_get_the_first_callers_answer():
    shared = Coalesced()
    got, errors, computed = _overlapping(shared, "k", 5, lambda: {"items": [1]})
    assert computed == 1 and not errors
    assert len(got) == 6 and all(answer is got[0] for answer in got)
    assert shared.waiting("k") == 0
    # once answered, the next caller computes anew: nothing is kept
    assert shared.answer("k", lambda: "fresh") == "fresh"


def test_other_keys_do_not_wait():
    shared, started, release, got = Coalesced(), threading.Event(), threading.Event(), []

    def old():
        started.set()
        release.wait(10)
        return "old"
    first = threading.Thread(target=lambda: got.append(shared.answer(("db", 1, 7), old)))
    first.start()
    assert started.wait(10)
    # a newer hall (another last message id) is computed on its own, at once
    assert shared.answer(("db", 1, 8), lambda: "new") == "new"
    release.set()
    first.join(10)
    assert got == ["old"]


def test_an_error_reaches_every_caller_and_is_not_kept():
    shared = Coalesced()

    def fails():
        raise LookupError("no such tournament")
    got, errors, computed = _overlapping(shared, "k", 3, fails)
    assert computed == 1 and not got
    assert [type(e) for e in errors] == [LookupError] * 4
    with pytest.raises(KeyError):
        shared.answer("k", lambda: {}["missing"])
    assert shared.answer("k", lambda: 3) == 3
