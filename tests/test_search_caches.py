"""The search's caches under the server's threads: waitress answers requests on several
threads, and they share one index and its caches (`LazyLRU`: a term's entries, a phrase's,
an entry's escaped text)."""
from __future__ import annotations

import sys
import threading

from judgekit.rules.lazy import LazyLRU


def test_a_full_cache_read_by_many_threads_never_fails():
    """A value read by one thread may be dropped by another before the first marks it as
    used: the read still answers (no KeyError, no 500), and the cache keeps its size."""
    cache = LazyLRU(lambda key: key * 2, 3)
    errors: list[BaseException] = []
    stop = threading.Event()

    def read(seed: int):
        n = seed
        try:
            while not stop.is_set():
                n = (n * 7 + 3) % 11
                assert cache[n] == n * 2
        except BaseException as e:    # noqa: BLE001 - the failure the test looks for
            errors.append(e)

    before = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)      # threads switch as often as they can
    try:
        threads = [threading.Thread(target=read, args=(i,)) for i in range(6)]
        for t in threads:
            t.start()
        stop.wait(1.0)
        stop.set()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(before)
    assert not errors, errors[:3]
    assert len(cache) <= 3


def test_the_least_recently_used_value_is_dropped_first():
    made = []
    cache = LazyLRU(lambda key: made.append(key) or key.upper(), 2)
    assert cache["a"] == "A" and cache["b"] == "B"
    assert cache["a"] == "A"          # "a" used again: "b" is now the oldest
    assert cache["c"] == "C"
    assert list(cache) == ["a", "c"] and made == ["a", "b", "c"]
