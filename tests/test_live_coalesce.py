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


def _callers(shared, key, compute, n):
    got, errors = [], []

    def call():
        try:
            got.append(shared.answer(key, compute))
        except Exception as exc:   # what the caller would see
            errors.append(exc)
    threads = [threading.Thread(target=call) for _ in range(n)]
    return threads, got, errors


def test_callers_that_overlap_get_the_first_callers_answer():
    shared, release, computed = Coalesced(), threading.Event(), []

    def compute():
        computed.append(1)
        release.wait(10)
        return {"items": [len(computed)]}
    first, got, _ = _callers(shared, "k", compute, 1)
    first[0].start()
    _until(lambda: computed)
    others, got_others, _ = _callers(shared, "k", compute, 5)
    for t in others:
        t.start()
    _until(lambda: shared.waiting("k") == 5)
    release.set()
    for t in first + others:
        t.join(10)
    assert len(computed) == 1
    assert len(got) == 1 and len(got_others) == 5
    assert all(answer is got[0] for answer in got_others)
    assert shared.waiting("k") == 0
    # once answered, the next caller computes anew: nothing is kept
    assert shared.answer("k", lambda: "fresh") == "fresh"


def test_other_keys_do_not_wait():
    shared, release = Coalesced(), threading.Event()
    first, got, _ = _callers(shared, ("db", 1, 7), lambda: release.wait(10) and "old", 1)
    first[0].start()
    _until(lambda: shared.waiting(("db", 1, 7)) == 0 and first[0].is_alive())
    # a newer hall (another last message id) is computed on its own, at once
    assert shared.answer(("db", 1, 8), lambda: "new") == "new"
    release.set()
    first[0].join(10)
    assert got == ["old"]


def test_an_error_reaches_every_caller_and_is_not_kept():
    shared, release, computed = Coalesced(), threading.Event(), []

    def compute():
        computed.append(1)
        release.wait(10)
        raise LookupError("no such tournament")
    first, _, errors = _callers(shared, "k", compute, 1)
    first[0].start()
    _until(lambda: computed)
    others, _, other_errors = _callers(shared, "k", compute, 3)
    for t in others:
        t.start()
    _until(lambda: shared.waiting("k") == 3)
    release.set()
    for t in first + others:
        t.join(10)
    assert len(computed) == 1
    assert [type(e) for e in errors + other_errors] == [LookupError] * 4
    with pytest.raises(KeyError):
        shared.answer("k", lambda: {}["missing"])
    assert shared.answer("k", lambda: 3) == 3
