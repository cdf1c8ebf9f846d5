"""Limits on practice games (games of no tournament, open to anyone without signing in).

Without them one client could pour tens of thousands of events into a practice game in
seconds, and every later read of that game would replay them all. Real play is far below
both limits:
- size: at most `MAX_EVENTS` events per practice game (a long, closely recorded game is a
  few hundred; a tournament's games, written by signed-in judges only, have no cap);
- rate: events come out of a bucket of `BURST` per game that refills at `PER_SECOND`
  (a judge taps a few a second at most; an offline outbox catching up sends a burst);
- new practice games: a bucket of `GAMES_BURST` per client address, refilled at
  `GAMES_PER_MINUTE` a minute.

`admit_events` / `admit_game` return None (go ahead) or a `Refusal` with a message for
the judge and, when waiting helps, `retry_after` seconds. In memory, per process. Pure:
no Flask; the caller passes the time.
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass

from judgekit.i18n import Message

MAX_EVENTS = 2_000
BURST, PER_SECOND = 300, 10.0
GAMES_BURST, GAMES_PER_MINUTE = 30, 10.0
MAX_BUCKETS = 10_000


@dataclass(frozen=True)
class Refusal:
    status: int          # 413: the game is full; 429: too fast, try again later
    message: Message     # for the judge, in the reader's language where it is shown
    retry_after: int | None = None


class _Buckets:
    """Token buckets by key: `take(key, n, now)` -> 0 when taken, else seconds to wait."""

    def __init__(self, capacity: float, per_second: float):
        self.capacity, self.rate = capacity, per_second
        self.state: dict = {}
        self.lock = threading.Lock()

    def take(self, key, n: int, now: float) -> float:
        with self.lock:
            level, at = self.state.get(key, (self.capacity, now))
            level = min(self.capacity, level + (now - at) * self.rate)
            if n > level:
                self.state[key] = (level, now)
                return (min(n, self.capacity) - level) / self.rate
            if len(self.state) >= MAX_BUCKETS and key not in self.state:
                self._forget_full(now)
            self.state[key] = (level - n, now)
            return 0.0

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled (they hold nothing worth remembering)."""
        full = [k for k, (level, at) in self.state.items()
                if level + (now - at) * self.rate >= self.capacity]
        for k in full:
            del self.state[k]
        if len(self.state) >= MAX_BUCKETS:  # still full of busy keys: start afresh
            self.state.clear()


def count_events(payload) -> int:
    """How many events a request carries (one object or a list); 0 when malformed (the
    store refuses it with its own message)."""
    if isinstance(payload, list):
        return len(payload)
    return 1 if isinstance(payload, dict) else 0


class PracticeLimits:
    """The limits' memory (one per app)."""

    def __init__(self):
        self.events = _Buckets(BURST, PER_SECOND)
        self.games = _Buckets(GAMES_BURST, GAMES_PER_MINUTE / 60.0)

    def admit_events(self, game_id: int, stored: int, payload, now: float) -> Refusal | None:
        """Whether `payload` may be appended to practice game `game_id`, which holds
        `stored` events."""
        n = count_events(payload)
        if stored + n > MAX_EVENTS:
            return Refusal(413, Message("recorder.practice-full",
                                        "This practice game is full (%(max)s events): start a new "
                                        "practice game to go on recording.", max=f"{MAX_EVENTS:,}"))
        if n > BURST:
            return Refusal(413, Message("recorder.practice-burst",
                                        "Send at most %(n)s events at once to a practice game.", n=BURST))
        wait = self.events.take(game_id, n, now)
        if wait:
            seconds = max(1, math.ceil(wait))
            return Refusal(429, Message("recorder.practice-too-fast",
                                        "Events are coming in faster than anyone records a game: wait "
                                        "%(seconds)s s and send again.", seconds=seconds), seconds)
        return None

    def admit_game(self, address: str, now: float) -> Refusal | None:
        """Whether a client at `address` may start another practice game now."""
        wait = self.games.take(address, 1, now)
        if wait:
            seconds = max(1, math.ceil(wait))
            return Refusal(429, Message("recorder.practice-too-many-games",
                                        "Too many practice games started from this device: wait "
                                        "%(seconds)s s and try again.", seconds=seconds), seconds)
        return None
