"""Loop detection (tournament rules 4.9).

Two ways to see a loop:

* **Marks.** The judge records `loop.mark` events carrying the public state the players
  agree on (pools, cards in play and their lock state, blood, hand/library/ash heap
  sizes, maneuvers and presses available, out-of-turn master plays). When a mark's state
  is identical to an earlier mark's, the activity recorded between the two is a loop.
* **Repetition.** Without marks: the same block of events (at least two, including an
  action, a strike or a press) recorded twice in a row with no event that changes the
  game state among them.

Once a loop is detected the activity is "armed": beginning it again (its first event
recurs: same minion, same action or combat sequence) before the state changes is
`loop-repeated`. Any state-changing event, or a mark with a different state, disarms it.
Pure and deterministic: `LoopTracker.feed` returns the codes to report for one event.

Memory is bounded whatever the game's length: events are kept as 8-byte digests of their
signature (stable across processes, so a pickled tracker resumes anywhere), only the last
`HISTORY_KEPT` of them, and the last `MARKS_KEPT` marks (their state as a digest too). Two
identical marks further apart than `HISTORY_KEPT` game events still report the loop; the
activity between them is too long to watch for a repeat (no `loop-repeated` then).
"""
from __future__ import annotations

import hashlib
import json
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from judgekit.i18n import Message

from judgekit.recorder.events import OFF_BOARD  # not part of the game sequence: ignored here

# Event types that never change the game state by themselves.
NEUTRAL = {"action.declare", "action.pass", "block.pass", "block.declare", "block.result",
           "combat.step", "press", "shortcut", "interrupt"}
# The events that can begin an activity.
ACTIVITY = {"action.declare", "strike", "press", "effect", "block.declare"}
SIGNATURE_KEYS = ("type", "seat", "minion", "action", "card", "strike", "damage", "press",
                  "window", "to", "step", "target_seat", "target", "name", "outcome",
                  "blocked", "amount", "discipline", "level")
MAX_PERIOD = 20
ACTIVITY_TYPES = set(ACTIVITY)
HISTORY_KEPT = 256      # game events remembered for the activity between two marks
MARKS_KEPT = 32         # marks remembered


def _hashable(value: Any) -> Any:
    if isinstance(value, (str, int, float, bool)):
        return value
    return json.dumps(value, sort_keys=True)


_SIG_KEYS = frozenset(SIGNATURE_KEYS) - {"type"}
_SIMPLE = (str, int, float, bool)


def signature(event: dict[str, Any]) -> tuple:
    """What identifies an event for repetition: its kind, who, what (not when, not who recorded)."""
    rest = [(k, v if isinstance(v, _SIMPLE) else _hashable(v)) for k, v in event.items()
            if k in _SIG_KEYS and v is not None]
    rest.sort()
    return (event["type"], tuple(rest))


def changes_state(event: dict[str, Any]) -> bool:
    t = event["type"]
    if "changes" in event and isinstance(event["changes"], bool):
        return event["changes"]
    if t in NEUTRAL:
        return False
    if t == "strike":
        return not (event.get("damage") == 0 or "dodge" in str(event.get("strike", "")).lower())
    if t == "effect":
        return False
    if t == "action.result":
        return event.get("outcome") == "success" and event.get("amount", 1) != 0
    return True


def canonical_state(state: dict[str, Any]) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def digest(value: Any) -> int:
    """A stable 64-bit digest (the same in every process, unlike `hash`)."""
    return int.from_bytes(hashlib.blake2b(repr(value).encode(), digest_size=8).digest(), "big")


def _activity(sig: tuple) -> bool:
    return sig[0] in ACTIVITY_TYPES


@dataclass
class LoopTracker:
    # (seq, state digest, index of the next game event then), the last MARKS_KEPT
    marks: deque = field(default_factory=lambda: deque(maxlen=MARKS_KEPT))
    # digests of the last HISTORY_KEPT game events; `fed` counts all of them
    history: deque = field(default_factory=lambda: deque(maxlen=HISTORY_KEPT))
    fed: int = 0
    run: list[tuple[int, bool]] = field(default_factory=list)   # since the last state change
    armed: tuple[int, ...] | None = None                 # the looping activity (digests)
    armed_seq: int | None = None

    def feed(self, event: dict[str, Any]) -> list[tuple[str, Message]]:
        """Codes (with a message) to report for this event."""
        t = event["type"]
        if t == "loop.mark":
            return self._mark(event)
        if t in OFF_BOARD:
            return []
        full = signature(event)
        sig = digest(full)
        out: list[tuple[str, Message]] = []
        if self.armed is not None:
            if sig == self.armed[0]:
                out.append(("loop-repeated",
                            Message("recorder.finding.loop-again", "The loop detected at event %(seq)s is begun "
                                    "again without a change of game state.", seq=self.armed_seq)))
            elif sig not in self.armed:
                self.armed = None
        self.history.append(sig)
        self.fed += 1
        if changes_state(event) and (self.armed is None or sig not in self.armed):
            self.run = []
            self.armed = None
            return out
        self.run.append((sig, _activity(full)))
        if len(self.run) > 2 * MAX_PERIOD:
            del self.run[0]
        if self.armed is None:
            period = self._repetition()
            if period:
                block = tuple(s for s, _ in self.run[-period:])
                self.armed, self.armed_seq = block, event.get("seq")
                self.run = []
                out.append(("loop-detected",
                            Message("recorder.finding.loop-twice", "The same %(n)s events were recorded twice "
                                    "in a row with no change of game state: a loop.", n=period)))
        return out

    def _repetition(self) -> int | None:
        n = len(self.run)
        for k in range(2, min(MAX_PERIOD, n // 2) + 1):
            block = self.run[-k:]
            if block == self.run[-2 * k:-k] and any(act for _, act in block):
                return k
        return None

    def _mark(self, event: dict[str, Any]) -> list[tuple[str, Message]]:
        state = digest(canonical_state(event.get("state") or {}))
        seq = event.get("seq") or 0
        here = self.fed
        out: list[tuple[str, Message]] = []
        earlier = next((m for m in reversed(self.marks) if m[1] == state), None)
        if earlier is not None and here > earlier[2]:
            start = earlier[2] - (self.fed - len(self.history))   # its place in the window
            activity = tuple(list(self.history)[start:]) if start >= 0 else None
            if activity is None or self.armed is None or self.armed != activity:
                self.armed, self.armed_seq = activity, seq   # None: too long to watch
                out.append(("loop-detected",
                            Message("recorder.finding.loop-mark", "The state marked here is identical to the "
                                    "mark at event %(seq)s: the activity in between is a loop.", seq=earlier[0])))
            self.run = []
        elif self.armed is not None:
            self.armed = None  # a mark with a different state: the state changed
        self.marks.append((seq, state, here))
        return out


def after_name(message: Message) -> Message:
    """A loop's message as it reads after a player's name ("Ann (seat 1): the same 2
    events were recorded …")."""
    p = message.params
    if message.code == "recorder.finding.loop-again":
        return Message("recorder.finding.loop-again-after-name", "the loop detected at event %(seq)s is begun "
                       "again without a change of game state.", **p)
    if message.code == "recorder.finding.loop-twice":
        return Message("recorder.finding.loop-twice-after-name", "the same %(n)s events were recorded twice in "
                       "a row with no change of game state: a loop.", **p)
    if message.code == "recorder.finding.loop-mark":
        return Message("recorder.finding.loop-mark-after-name", "the state marked here is identical to the mark "
                       "at event %(seq)s: the activity in between is a loop.", **p)
    return message
