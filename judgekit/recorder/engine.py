"""The game-sequence engine: replay a game's events into its state and its findings.

Pure and deterministic: `replay(events, seats, cards=...)` gives the same state and the
same findings for the same events. The engine never refuses an event (validation in
`events.py` already refused what is malformed); when the sequence looks wrong it reports a
finding (`findings.py`) and carries on.

What it follows: the turn (seat, phase), the minion action (acting minion, directed or
not, who may block and who has passed, block attempts, combat steps, resolution), card
play and replacement, the cancellation window, shortcuts (the windows a play or a pass
skipped, who may still interrupt them), referendum terms and votes, table talk after the
acting player asked to stop, the round clock and the time call, ousts and the like, and
loops (`loops.py`). Retracted events are left out of the replay; amended events are
replayed with their amendment.

The engine's parts live in `judgekit/recorder/sequence/`, one module per concern (turn,
windows and shortcuts, combat, action and blocks, card plays, politics, the board, table
talk and time, the state); `Engine` puts them together and is the one interface callers use.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judgekit.i18n import Message
from judgekit.recorder import clock as clockmod
from judgekit.recorder import findings as F
from judgekit.recorder.events import OFF_BOARD
from judgekit.recorder.loops import LoopTracker, after_name
from judgekit.recorder.sequence.action import ActionMixin
from judgekit.recorder.sequence.board import BoardMixin
from judgekit.recorder.sequence.combat import CombatMixin
from judgekit.recorder.sequence.common import (
    LINEAR, OUTCOME_TYPES, PLAYS, PROGRESS, RANK, STANDARD_STEALTH, STEP_RANK, TORPOR_ACTIONS,
    TORPOR_STEALTH_OTHER, TORPOR_STEALTH_SAME, TURN_BOUND, UNDIRECTED, Action, Combat, TableMixin)
from judgekit.recorder.sequence.plays import CHOICE_WORDS, PlaysMixin, missing_choices
from judgekit.recorder.sequence.politics import PoliticsMixin
from judgekit.recorder.sequence.state import StateMixin, next_steps
from judgekit.recorder.sequence.table import TableTalkMixin
from judgekit.recorder.sequence.turn import TurnMixin
from judgekit.recorder.sequence.windows import WindowsMixin

# The engine's public names (callers: store, transcript, trainer, rules quickref, tests).
__all__ = ["Engine", "Replay", "replay", "check", "effective_events", "corrections",
           "missing_choices", "next_steps", "CHOICE_WORDS", "Action", "Combat", "OFF_BOARD",
           "LINEAR", "RANK", "STEP_RANK", "STANDARD_STEALTH", "TORPOR_ACTIONS",
           "TORPOR_STEALTH_SAME", "TORPOR_STEALTH_OTHER", "UNDIRECTED", "PLAYS", "PROGRESS",
           "TURN_BOUND", "OUTCOME_TYPES"]

_HANDLERS: dict[str, Any] = {}


class Engine(TableMixin, TurnMixin, WindowsMixin, CombatMixin, ActionMixin, PlaysMixin,
             PoliticsMixin, BoardMixin, TableTalkMixin, StateMixin):
    """Feed events one by one (`feed`), read `state()` and `findings` at any point."""

    def __init__(self, seats: list[str], cards=None, time_limit_min: int | None = None):
        self.names = list(seats)
        self.n = len(seats)
        self.cards = cards
        self.findings: list[F.Finding] = []
        self.out: dict[int, str] = {}          # seat -> why it left (oust/withdraw/concede)
        self.turn_seat: int | None = None
        self.turn_no = 0
        self.turn_ended = False
        self.from_start = False                # game.start before any turn: recorded from the start
        self.pos = 0                           # turn phase rank
        self.after_action = False
        self.passed_turn: set[str] = set()     # windows the acting player passed this turn
        self.closed: set[str] = set()          # windows passed this turn (turn and combat)
        self.open: list[tuple[str, int]] = []  # (window, seat who skipped it) since last play
        self.last_play: dict[str, Any] | None = None
        self.waits: dict[int, int] = {}        # seat -> seq of its "wait" holding the window
        self.action: Action | None = None
        self.prev_action: Action | None = None
        self.combat: Combat | None = None
        self.lock: dict[str, Any] | None = None  # a minion locked with no action named (yet)
        self.pending: dict[int, tuple[int, str]] = {}   # seat -> (seq, card) awaiting replacement
        self.plays: list[tuple[int, int, str | None]] = []  # (seq, seat, card) in order
        self.board: dict[int, list[str]] = {}          # seat -> minions stated in play (board.py)
        self.board_known: set[int] = set()               # seats whose whole board a sync gave
        self.seen: dict[int, dict[str, None]] = {}       # seat -> minions seen acting there
        self.seen_cards: dict[int, dict[str, None]] = {}  # seat -> library cards played there
        self.context: dict[str, Any] | None = None       # what `describe` may use of the last event
        self.edge: int | None = None
        self.talk_stop: dict[str, Any] | None = None
        self.time_mode: str | None = None      # "action" | "now" | "phase"
        self.time_phase: int | None = None
        self.time_action_seq: int | None = None
        self.time_over = False
        self.time_over_seq: int | None = None  # the first play beyond the time call's end point
        self.outcomes: list[dict[str, Any]] = []
        self.finished = False
        self.game_end_seq: int | None = None
        self.time_call_seq: int | None = None
        self.clock = clockmod.RoundClock(limit_min=time_limit_min or clockmod.DEFAULT_LIMIT_MIN)
        self.loops = LoopTracker()
        self.last_seq = 0
        self.event_count = 0
        self._card_cache: dict[tuple[str, str], Any] = {}
        if time_limit_min is not None and time_limit_min < clockmod.MIN_ROUND_MIN:
            self.flag("time-limit-short", 0,
                      Message("recorder.finding.time-limit-short", "The time limit is %(limit)s minutes; rounds "
                              "last at least %(min)s minutes.", limit=time_limit_min, min=clockmod.MIN_ROUND_MIN))

    # --- the replay loop -------------------------------------------------------------

    def feed(self, event: dict[str, Any]) -> list[F.Finding]:
        """Apply one (valid) event; return the findings it produced."""
        before = len(self.findings)
        seq = event.get("seq")
        if not seq:
            seq = self.last_seq + 1
            event = dict(event, seq=seq)
        self.last_seq = seq
        self.event_count += 1
        self.context = None
        t = event["type"]
        clockmod.apply(self.clock, event)
        self._time_check(event)
        if t in TURN_BOUND:
            self._turn_check(event)
            if event.get("seat") in self.out:
                return self.findings[before:]   # a seat out of the game: flagged, void
        elif t in PLAYS:
            self._turn_from_play(event)
        if t not in OFF_BOARD:
            self._see(event)
            self._talk_decision(event)
            self._lock_check(event)
            a = self.action
            if a is not None and a.restate_pending is not None and not a.resolved \
                    and t not in ("bleed.total", "card.replace") and event.get("bleed_total") is None:
                self._restate_check(seq)
        handler = _HANDLERS.get(t)
        if handler is None and t not in _HANDLERS:
            handler = _HANDLERS[t] = getattr(Engine, "_on_" + t.replace(".", "_"), None)
        if handler is not None:
            handler(self, event)
        for code, message in self.loops.feed(event):
            seat = event.get("seat")
            self.flag(code, seq, Message("recorder.finding.by-seat", "%(who)s: %(message)s",
                                         who=self.who_said(seat), message=after_name(message)) if seat
                      else message, seat=seat)
        return self.findings[before:]

@dataclass
class Replay:
    state: dict[str, Any]
    findings: list[dict[str, Any]]
    events: list[dict[str, Any]]   # every stored event, with "retracted" and its findings
    # the engine's context of each replayed event that has one (`Engine.context`): what
    # `describe(event, names, context)` may use ({"for": 7, "against": 3}, ...)
    contexts: dict[int, dict[str, Any]] = field(default_factory=dict)


def effective_events(events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], set[int]]:
    """Apply retracts and amends: the events to replay, and the seqs retracted.

    A retract removes its target from the replay; retracting a retract restores the
    target. An amend replaces fields of its target (a correction of what was recorded).
    """
    playable, retracted, _ = corrections(events)
    return playable, retracted


def corrections(events: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], set[int], dict[int, list[int]]]:
    """`effective_events`, and which amends took effect on which event: {target seq: [amend
    seqs, in order]} (an amend that is retracted, or aims at a retract or an amend, does not)."""
    by_seq = {e["seq"]: e for e in events}
    retracted: set[int] = set()
    for e in reversed(events):
        if e["seq"] in retracted:
            continue
        if e["type"] == "retract" and e.get("target") in by_seq:
            retracted.add(e["target"])
    amended: dict[int, dict[str, Any]] = {}
    amended_by: dict[int, list[int]] = {}
    for e in events:
        if e["type"] == "amend" and e["seq"] not in retracted and e.get("target") in by_seq:
            target = by_seq[e["target"]]
            if target["type"] in ("retract", "amend"):
                continue
            fields = {k: v for k, v in (e.get("fields") or {}).items()
                      if k not in ("type", "seq", "time", "client_id")}
            amended.setdefault(e["target"], {}).update(fields)
            amended_by.setdefault(e["target"], []).append(e["seq"])
    out = []
    for e in events:
        if e["seq"] in retracted or e["type"] in ("retract", "amend"):
            continue
        out.append(dict(e, **amended[e["seq"]]) if e["seq"] in amended else e)
    return out, retracted, amended_by


def replay(events: list[dict[str, Any]], seats: list[str], cards=None,
           time_limit_min: int | None = None, now: float | None = None) -> Replay:
    """Replay stored events (ordered by seq) into the state and the findings."""
    engine = Engine(seats, cards=cards, time_limit_min=time_limit_min)
    playable, retracted = effective_events(events)
    contexts: dict[int, dict[str, Any]] = {}
    for event in playable:
        engine.feed(event)
        if engine.context:
            contexts[event["seq"]] = engine.context
    by_seq: dict[int, list[dict[str, Any]]] = {}
    findings = [f.to_dict() for f in engine.findings]
    for f in findings:
        by_seq.setdefault(f["seq"], []).append(f)
    annotated = [dict(e, retracted=e["seq"] in retracted, findings=by_seq.get(e["seq"], []))
                 for e in events]
    return Replay(state=engine.state(now), findings=findings, events=annotated, contexts=contexts)


def check(events: list[dict[str, Any]], seats: list[str], cards=None,
          time_limit_min: int | None = None) -> list[dict[str, Any]]:
    """The findings of a transcript (events numbered in order when they have no seq)."""
    numbered = [dict(e, seq=e.get("seq") or i) for i, e in enumerate(events, 1)]
    return replay(numbered, seats, cards=cards, time_limit_min=time_limit_min).findings

