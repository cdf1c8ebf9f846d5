"""Requests that ask the same question at the same moment share one answer.

A message in the hall makes every open page of the head judge ask for the notifications at
once (live.js: `loadNotes` on `penalty.*`, `table.result`, `round.*`); thirty pages asking
mean thirty computations of the same answer within a few milliseconds, while the tables'
entries wait behind them. `Coalesced.answer(key, compute)` computes once for the calls that
overlap: the first caller computes, the callers that arrive before it finishes wait for its
answer. The key must say everything the answer depends on (the database, the tournament,
the hall's last message id): a caller never receives an answer computed from an older hall
than the one it saw.
"""
from __future__ import annotations

import threading
from typing import Any, Callable, Hashable


class _Pending:
    __slots__ = ("done", "value", "error")

    def __init__(self) -> None:
        self.done = threading.Event()
        self.value: Any = None
        self.error: BaseException | None = None


class Coalesced:
    """One computation per key at a time; callers of a key being computed get its answer.
    The answer is shared: callers must not change it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[Hashable, _Pending] = {}
        self._waiting: dict[Hashable, int] = {}

    def waiting(self, key: Hashable) -> int:
        """How many callers wait for the answer being computed for `key`."""
        with self._lock:
            return self._waiting.get(key, 0)

    def answer(self, key: Hashable, compute: Callable[[], Any]) -> Any:
        with self._lock:
            pending = self._pending.get(key)
            first = pending is None
            if first:
                pending = self._pending[key] = _Pending()
            else:
                self._waiting[key] = self._waiting.get(key, 0) + 1
        if not first:
            pending.done.wait()
            with self._lock:
                self._waiting[key] -= 1
                if not self._waiting[key]:
                    del self._waiting[key]
            if pending.error is not None:
                raise pending.error
            return pending.value
        try:
            pending.value = compute()
        except BaseException as exc:
            pending.error = exc
            raise
        finally:
            with self._lock:
                del self._pending[key]
            pending.done.set()
        return pending.value
