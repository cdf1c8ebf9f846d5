"""Slowing down wrong sign-in codes without locking anyone out.

A wrong code costs its sender time, never a ten-minute wall:
- per (address, tournament, name): the first `NAME_FREE` wrong codes in `WINDOW_S` are
  free; after that each try must wait `NAME_BASE_S`, doubling with every further wrong
  code up to `NAME_MAX_S`. A judge who mistyped gets in with the right code after that
  short wait; a guesser gets one try per half minute.
- per (address, tournament), across names (a guesser who changes the name each time):
  the first `ADDRESS_FREE` wrong codes are free, then one try per `ADDRESS_GAP_S` from
  that address. Everyone behind a shared address (a venue's NAT, a proxy) still gets in,
  after a wait of a few seconds at most.

A try is counted *before* the slow hash is computed (`begin` reserves it as a failure
under a lock; `succeeded` gives the reservation back), so requests sent at once cannot
all be checked: 60 guesses sent together get `NAME_FREE` hashes, not 60.

In memory, per app (one process serves the event); a restart forgets. Pure: no Flask;
time comes from the caller (`time.monotonic()`).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

WINDOW_S = 600.0      # wrong codes older than this are forgotten
NAME_FREE = 5         # wrong codes per address, tournament and name before waiting
NAME_BASE_S = 2.0     # the first wait; doubles with each further wrong code
NAME_MAX_S = 30.0     # the longest wait
ADDRESS_FREE = 20     # wrong codes per address and tournament (all names) before waiting
ADDRESS_GAP_S = 2.0   # then one try per this many seconds from that address
MAX_KEYS = 20_000     # bound on the memory kept (oldest keys are dropped first)


@dataclass
class Ticket:
    """A try that may go ahead: pass it to `succeeded` when the code was right."""
    keys: tuple
    at: float


@dataclass
class Throttle:
    lock: threading.Lock = field(default_factory=threading.Lock)
    failures: dict[tuple, list[float]] = field(default_factory=dict)

    def begin(self, address: str, tournament: int, name: str, now: float) -> Ticket | float:
        """A `Ticket` when a code may be checked now (the try is counted as a failure until
        `succeeded`), else the seconds to wait before the next try."""
        name_key = ("name", address, tournament, name.casefold())
        addr_key = ("address", address, tournament)
        with self.lock:
            named = self._recent(name_key, now)
            anyone = self._recent(addr_key, now)
            wait = max(_wait(named, NAME_FREE, lambda k: min(NAME_BASE_S * 2 ** k, NAME_MAX_S), now),
                       _wait(anyone, ADDRESS_FREE, lambda k: ADDRESS_GAP_S, now))
            if wait > 0:
                return wait
            if len(self.failures) >= MAX_KEYS:
                self._forget_oldest(now)
            for key, times in ((name_key, named), (addr_key, anyone)):
                times.append(now)
                self.failures[key] = times
            return Ticket((name_key, addr_key), now)

    def succeeded(self, ticket: Ticket) -> None:
        """The code was right: its try is not a failure, and the name starts afresh."""
        name_key, addr_key = ticket.keys
        with self.lock:
            self.failures.pop(name_key, None)
            times = self.failures.get(addr_key)
            if times and ticket.at in times:
                times.remove(ticket.at)

    def _recent(self, key: tuple, now: float) -> list[float]:
        return [t for t in self.failures.get(key, ()) if t > now - WINDOW_S]

    def _forget_oldest(self, now: float) -> None:
        for key in [k for k, v in self.failures.items() if not v or v[-1] <= now - WINDOW_S]:
            del self.failures[key]
        while len(self.failures) >= MAX_KEYS:
            del self.failures[min(self.failures, key=lambda k: self.failures[k][-1])]


def _wait(times: list[float], free: int, delay, now: float) -> float:
    """Seconds before the next try, given the recent failures `times` (oldest first)."""
    extra = len(times) - free
    if extra < 0:
        return 0.0
    return max(0.0, times[-1] + delay(extra) - now)
