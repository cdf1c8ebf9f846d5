"""The round clock of a game, and the time-extension guidance.

The extension guidance (Tournament Conduct & Infraction Guide v2, §1.2.4; see
`content/penalties`; the cap and the time limit themselves are `judgekit.game.clock`): extensions compensate only for time lost to
judge activity — under about a minute none, 1–3 minutes +2, 3–5 minutes +3 to +5, over 5
minutes +5 to +10 — and judges may cap a table's extensions at 10 minutes a round (a
permission, not a rule: past it, only for a major disruption or with the head judge's
approval; the tournament rules set no cap). `CAP_SENTENCE` is that statement in the one
wording every page and message uses. Tournament rules 3.1.1: a round lasts at least two
hours.

Pure functions over event dicts; times are seconds since the epoch (floats) or the ISO
strings the store writes. An event's time at the table is `event_time`: the device's time
of the tap when the page sent one (and it is plausible), else the server's.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Iterable

# the time limit and the cap are facts of the game layer (`judgekit.game.clock`); callers
# that read them here (clock.CAP_SENTENCE, clock.MIN_ROUND_MIN) get the same objects
from judgekit.game.clock import (CAP_SENTENCE, CAP_SOURCE, DEFAULT_LIMIT_MIN,  # noqa: F401
                                 EXTENSION_CAP_MIN, MAX_EXTENSION_MIN, MIN_ROUND_MIN)
from judgekit.timetext import to_epoch


def suggest_extension(judge_minutes: float) -> tuple[int, int]:
    """The (low, high) extension in minutes for `judge_minutes` of judge time at a table."""
    if judge_minutes < 1:
        return (0, 0)
    if judge_minutes <= 3:
        return (2, 2)
    if judge_minutes <= 5:
        return (3, 5)
    return (5, 10)


def over_cap(total_minutes: float) -> bool:
    """Whether a table's stacked extensions exceed the per-round cap."""
    return total_minutes > EXTENSION_CAP_MIN


def now_iso() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


# An event's `device_time` (when the judge tapped, by the device's clock set to the server's)
# counts for the clock when it is at most DEVICE_AHEAD_S after the server's `time` (the
# arrival: a tap cannot come after it, give or take the clocks' drift) and at most
# DEVICE_BEHIND_S before it (an entry kept on a device through an outage arrives late;
# longer than a round and its extensions, the device's clock is wrong). Outside those
# bounds the server's time counts; both stay stored.
DEVICE_AHEAD_S = 10
DEVICE_BEHIND_S = 3 * 3600


def event_time(event: dict[str, Any]) -> float | None:
    """When `event` happened at the table, in epoch seconds: its `device_time` if within
    the bounds of its server `time`, else its `time` (None without one)."""
    at = to_epoch(event.get("time"))
    tapped = to_epoch(event.get("device_time"))
    if at is not None and tapped is not None and at - DEVICE_BEHIND_S <= tapped <= at + DEVICE_AHEAD_S:
        return tapped
    return at


@dataclass
class RoundClock:
    limit_min: int = DEFAULT_LIMIT_MIN
    started_at: float | None = None
    paused_at: float | None = None
    paused_total: float = 0.0
    extensions: list[dict[str, Any]] = field(default_factory=list)
    called_at: float | None = None

    @property
    def extended_min(self) -> int:
        return sum(e["minutes"] for e in self.extensions)

    def remaining(self, now: float) -> float | None:
        """Seconds left on the clock at `now` (negative once over), None before the start."""
        if self.started_at is None:
            return None
        at = self.paused_at if self.paused_at is not None else now
        if self.called_at is not None:
            at = min(at, self.called_at)
        elapsed = at - self.started_at - self.paused_total
        return (self.limit_min + self.extended_min) * 60 - elapsed

    def ends_at(self) -> float | None:
        """When the round ends (epoch seconds) if the clock keeps running, None if paused."""
        if self.started_at is None or self.paused_at is not None:
            return None
        return self.started_at + self.paused_total + (self.limit_min + self.extended_min) * 60

    def to_dict(self, now: float | None = None) -> dict[str, Any]:
        out = {"limit_min": self.limit_min, "started_at": self.started_at,
               "paused": self.paused_at is not None, "paused_total_s": round(self.paused_total, 3),
               "extended_min": self.extended_min, "extensions": list(self.extensions),
               "cap_min": EXTENSION_CAP_MIN, "over_cap": over_cap(self.extended_min),
               "called": self.called_at is not None, "called_at": self.called_at,
               "paused_at": self.paused_at, "ends_at": self.ends_at()}
        if now is not None:
            out["remaining_s"] = self.remaining(now)
        return out


CLOCK_TYPES = {"game.start", "sync", "time.pause", "time.resume", "time.extend", "time.call"}


def apply(clock: RoundClock, event: dict[str, Any]) -> None:
    """Update the clock for one event (unknown types are ignored)."""
    t = event["type"]
    if t not in CLOCK_TYPES:
        return
    at = event_time(event)
    if t == "game.start":
        if event.get("limit_min"):
            clock.limit_min = event["limit_min"]
        if clock.started_at is None and at is not None:
            clock.started_at = at
    elif t == "sync" and event.get("time_left_min") is not None and at is not None:
        clock.started_at = at - (clock.limit_min + clock.extended_min - event["time_left_min"]) * 60
        clock.paused_total = 0.0
    elif t == "time.pause" and clock.paused_at is None and at is not None:
        clock.paused_at = at
    elif t == "time.resume" and clock.paused_at is not None and at is not None:
        clock.paused_total += max(0.0, at - clock.paused_at)
        clock.paused_at = None
    elif t == "time.extend":
        clock.extensions.append({"seq": event.get("seq"), "minutes": event["minutes"],
                                 "reason": event.get("reason", ""),
                                 "judge": event.get("judge", "anonymous"),
                                 "judge_minutes": event.get("judge_minutes")})
    elif t == "time.call" and clock.called_at is None:
        clock.called_at = at if at is not None else 0.0


def clock_from_events(events: Iterable[dict[str, Any]], limit_min: int | None = None) -> RoundClock:
    clock = RoundClock(limit_min=limit_min or DEFAULT_LIMIT_MIN)
    for event in events:
        apply(clock, event)
    return clock
