"""How many Archon workbook imports one device may send (issue 28, item 1; pure: no Flask).

The import needs no sign-in (whoever imports a workbook becomes the new event's organizer,
as whoever creates one), and reading a workbook is the costliest request the server has:
up to 2.5 s of reading and tens of MB while it runs. One device must not be able to keep
the server busy with uploads. `ImportLimit` counts, per device (the peer's address, as
`judgekit.live.devices` counts connections):

- at most `AT_ONCE` import being read at a time;
- at most `PER_WINDOW` imports started in the last `WINDOW_S` seconds (refused ones count:
  a bad workbook costs as much to read as a good one).

A device over either is refused before anything is read, with the seconds to wait (the
answer is a 429 with Retry-After). An organizer imports one workbook, maybe a few after
fixing it: ten in ten minutes is far more than that. Everyone behind one address (a
venue's NAT) shares the count; the organizer's laptop imports through its own address.

In memory, per process (one process serves the event); a restart forgets. Thread-safe;
time comes from the caller (`time.monotonic()`).
"""
from __future__ import annotations

import math
import threading
from collections import Counter
from dataclasses import dataclass, field

AT_ONCE = 1
PER_WINDOW = 10
WINDOW_S = 600.0
MAX_DEVICES = 20_000   # bound on the memory kept (the oldest devices are forgotten first)


@dataclass
class ImportLimit:
    at_once: int = AT_ONCE
    per_window: int = PER_WINDOW
    window_s: float = WINDOW_S
    _started: dict[str, list[float]] = field(default_factory=dict)
    _running: Counter = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def begin(self, device: str, now: float) -> tuple[int, str] | None:
        """None: the import may go ahead (counted; call `end` when it is done), else (the
        seconds to wait before the next one, what the device is told)."""
        with self._lock:
            starts = [t for t in self._started.get(device, ()) if now - t < self.window_s]
            if self._running[device] >= self.at_once:
                return 5, ("This device is already importing a workbook: wait for that import to "
                           "finish, then try again.")
            if len(starts) >= self.per_window:
                wait = max(1, math.ceil(self.window_s - (now - starts[0])))
                minutes = max(1, math.ceil(wait / 60))
                return wait, (f"Too many workbook imports from this device: at most {self.per_window} in "
                              f"{int(self.window_s // 60)} minutes. Try again in {minutes} "
                              f"minute{'s' if minutes != 1 else ''}.")
            starts.append(now)
            self._started.pop(device, None)
            self._started[device] = starts   # most recent last: the oldest are dropped first
            while len(self._started) > MAX_DEVICES:
                self._started.pop(next(iter(self._started)))
            self._running[device] += 1
            return None

    def end(self, device: str) -> None:
        with self._lock:
            if self._running[device] > 1:
                self._running[device] -= 1
            else:
                self._running.pop(device, None)

