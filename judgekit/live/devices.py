"""How many requests and live streams one device may hold open (pure: no server, no Flask).

A live page's stream needs no sign-in and stays open for hours, and a request whose body is
sent slowly stays open too: without a cap, one device could take everything the server
serves at once (a probe opened 995 streams from one address, and another device's request
then timed out). `Devices` counts, per device (the peer's address), the open requests and
the open streams, and says whether one more may be opened:

- a device holds at most `per_device` requests open, whatever they do (a body being sent,
  an answer being made, a stream: `connect` when the request arrives, `disconnect` when it
  ends);
- of those, at most `streams` are live streams (a browser keeps about six connections per
  server; a phone has a page or two open);
- the last `reserve` of the server's limit go only to devices holding fewer than `fair`:
  a device at its cap cannot take the room others need.

Over a cap the server answers 429 (a stream's page then asks for the state every few
seconds instead: static/live.js). Thread-safe: the server's event loop, its worker threads
and the hub all call it.
"""
from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field

PER_DEVICE = 32
STREAMS = 8
RESERVE = 100
FAIR = 4


@dataclass
class Devices:
    limit: int                       # the requests the server takes open at once
    per_device: int = PER_DEVICE
    streams: int = STREAMS
    reserve: int = RESERVE
    fair: int = FAIR
    refused: int = 0                 # connections and streams refused so far (benches, tests)
    _open: Counter = field(default_factory=Counter)
    _streams: Counter = field(default_factory=Counter)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def connect(self, device: str) -> bool:
        """A new request from `device`: True (counted) or False (over a cap: not counted)."""
        with self._lock:
            held = self._open[device]
            total = sum(self._open.values())
            room = max(self.fair, self.limit - self.reserve)
            if held >= self.per_device or (total >= room and held >= self.fair):
                self.refused += 1
                return False
            self._open[device] = held + 1
            return True

    def disconnect(self, device: str) -> None:
        with self._lock:
            self._drop(self._open, device)

    def open_stream(self, device: str) -> bool:
        """A request of `device` turns into a stream: True (counted) or False (at its cap)."""
        with self._lock:
            if self._streams[device] >= self.streams:
                self.refused += 1
                return False
            self._streams[device] += 1
            return True

    def close_stream(self, device: str) -> None:
        with self._lock:
            self._drop(self._streams, device)

    def held(self, device: str) -> tuple[int, int]:
        """(requests, streams) `device` holds open now."""
        with self._lock:
            return self._open[device], self._streams[device]

    @staticmethod
    def _drop(counter: Counter, device: str) -> None:
        if counter[device] <= 1:
            counter.pop(device, None)
        else:
            counter[device] -= 1
