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
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judgekit.recorder import clock as clockmod
from judgekit.recorder import findings as F
from judgekit.recorder.events import COMBAT_STEPS, OFF_BOARD, PHASES
from judgekit.recorder.loops import LoopTracker

# Turn windows in order; `after-action` and `minion-end` sit inside/at the end of the
# minion phase (rank 2) and matter only as windows an interrupt can name.
LINEAR = ("unlock", "master", "minion", "after-action", "minion-end", "influence", "discard")
RANK = {"unlock": 0, "master": 1, "minion": 2, "after-action": 2, "minion-end": 2,
        "influence": 3, "discard": 4}
STEP_RANK = {s: i for i, s in enumerate(COMBAT_STEPS)}

# Default stealth by action type (announcement guidelines, action declaration).
STANDARD_STEALTH = {"bleed": 0, "hunt": 1, "equip": 1, "recruit": 1, "employ": 1,
                    "political": 1, "leave-torpor": 1, "rescue": 1, "diablerie": 0,
                    "anarch": 1, "card": 0, "other": 0}
UNDIRECTED = {"hunt", "equip", "recruit", "employ", "political", "leave-torpor", "anarch"}

# Events that are plays ("the next card or effect") for the shortcut and cancel windows.
PLAYS = {"card.play", "reaction", "action.declare", "effect", "transfer", "discard",
         "strike", "cancel", "interrupt"}
# Events after which the table has moved on (used for the time call).
PROGRESS = {"action.declare", "phase", "turn.start", "transfer", "discard"}
# What only the player whose turn it is does: declare an action, move through the phases,
# transfer, the discard phase action, end the turn.
TURN_BOUND = {"action.declare", "phase", "transfer", "discard", "turn.end"}
OUTCOME_TYPES = {"oust": "oust", "withdraw": "withdraw", "concede": "concede",
                 "draw.intentional": "draw"}


@dataclass
class Action:
    seq: int
    seat: int
    kind: str
    minion: str | None
    directed: bool
    target_seat: int | None
    eligible: list[int]
    amount: int | None = None
    locked: bool = True
    actor_passed: bool = False
    done: set[int] = field(default_factory=set)        # blockers who passed or attempted
    passed: set[int] = field(default_factory=set)
    attempting: int | None = None
    blocked: bool = False
    resolved: bool = False
    outcome: str | None = None
    restate_pending: int | None = None                  # seq of the unrestated change
    terms_required: bool = False
    terms_confirmed: bool = False
    polling: bool = False
    flagged: set[str] = field(default_factory=set)
    card: str | None = None

    def to_dict(self, names) -> dict[str, Any]:
        return {"seq": self.seq, "seat": self.seat, "kind": self.kind, "minion": self.minion,
                "card": self.card, "directed": self.directed, "target_seat": self.target_seat,
                "amount": self.amount, "eligible": list(self.eligible),
                "actor_passed": self.actor_passed, "passed": sorted(self.passed),
                "done": sorted(self.done), "attempting": self.attempting,
                "blocked": self.blocked, "resolved": self.resolved, "outcome": self.outcome,
                "terms_required": self.terms_required, "terms_confirmed": self.terms_confirmed,
                "polling": self.polling}


@dataclass
class Combat:
    pos: int = 0
    round: int = 1
    passed: dict[int, set[str]] = field(default_factory=dict)
    over: bool = False


_HANDLERS: dict[str, Any] = {}


class Engine:
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
        self.action: Action | None = None
        self.prev_action: Action | None = None
        self.combat: Combat | None = None
        self.pending: dict[int, tuple[int, str]] = {}   # seat -> (seq, card) awaiting replacement
        self.plays: list[tuple[int, int, str | None]] = []  # (seq, seat, card) in order
        self.board: dict[int, list[str]] = {}
        self.edge: int | None = None
        self.talk_stop: dict[str, Any] | None = None
        self.time_mode: str | None = None      # "action" | "now" | "phase"
        self.time_phase: int | None = None
        self.time_action_seq: int | None = None
        self.time_over = False
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
                      f"The time limit is {time_limit_min} minutes; rounds last at least "
                      f"{clockmod.MIN_ROUND_MIN} minutes.")

    # --- helpers -------------------------------------------------------------------

    def who(self, seat: int | None) -> str:
        if seat is None:
            return "someone"
        if 1 <= seat <= self.n and self.names[seat - 1]:
            return f"{self.names[seat - 1]} (seat {seat})"
        return f"seat {seat}"

    def flag(self, code: str, seq: int, message: str | None = None, **kw) -> None:
        self.findings.append(F.make(code, seq, message, **kw))

    def active(self) -> list[int]:
        return [s for s in range(1, self.n + 1) if s not in self.out]

    def prey(self, seat: int) -> int | None:
        live = self.active()
        if seat not in live:
            live = sorted(set(live) | {seat})
        if len(live) < 2:
            return None
        return live[(live.index(seat) + 1) % len(live)]

    def predator(self, seat: int) -> int | None:
        live = self.active()
        if seat not in live:
            live = sorted(set(live) | {seat})
        if len(live) < 2:
            return None
        return live[(live.index(seat) - 1) % len(live)]

    def library(self, name: str | None):
        if not name or self.cards is None:
            return None
        key = ("lib", name)
        if key not in self._card_cache:
            try:
                self._card_cache[key] = self.cards.library(name)
            except Exception:
                self._card_cache[key] = None
        return self._card_cache[key]

    def crypt(self, name: str | None):
        if not name or self.cards is None:
            return None
        key = ("crypt", name)
        if key not in self._card_cache:
            try:
                self._card_cache[key] = self.cards.crypt(name)
            except Exception:
                self._card_cache[key] = None
        return self._card_cache[key]

    @staticmethod
    def minion_level(vampire, disc: str) -> int:
        level = getattr(vampire, "level", None)
        if callable(level):
            return int(level(disc.lower()) or 0)
        return int((getattr(vampire, "disciplines", {}) or {}).get(disc.lower(), 0))

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
        t = event["type"]
        clockmod.apply(self.clock, event)
        self._time_check(event)
        if t in TURN_BOUND:
            self._turn_check(event)
        if t not in OFF_BOARD:
            self._talk_decision(event)
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
            self.flag(code, seq, message, seat=event.get("seat"))
        return self.findings[before:]

    # --- turn and phases ---------------------------------------------------------------

    def _new_turn(self, seat: int, number: int | None = None) -> None:
        self.turn_seat = seat
        self.turn_no = number if number is not None else self.turn_no + 1
        self.turn_ended = False
        self.pos = 0
        self.after_action = False
        self.passed_turn = set()
        self.closed = set()
        self.open = []
        self.last_play = None
        self.action = None
        self.prev_action = None
        self.combat = None
        self.talk_stop = None

    def _on_game_start(self, e) -> None:
        if self.turn_seat is None:
            self.from_start = True  # the game is recorded from its start: seat 1 starts it

    def _turn_check(self, e) -> None:
        """Turn-bound statements (TURN_BOUND) belong to the seat whose turn it is.

        A recording begun mid-game without a `sync` has no turn yet: its first such
        statement says whose turn it is (nothing before it is known). Otherwise a statement
        by another seat, or with no turn started, is `not-your-turn`; with no turn going on
        the seat's turn is taken as begun (the start was not said), so that what follows is
        checked as that turn."""
        seat, seq, t = e["seat"], e["seq"], e["type"]
        if self.turn_seat is None and not self.from_start:
            self._new_turn(seat)
            return
        what = {"action.declare": "declares " + ("a bleed" if e.get("action") == "bleed"
                                                 else f"an action ({e.get('action')})"),
                "phase": f"moves to the {e.get('phase')} phase", "transfer": "transfers pool",
                "discard": "discards (discard phase action)",
                "turn.end": "declares the end of a turn"}[t]
        if self.turn_seat is None:
            self.flag("not-your-turn", seq,
                      f"{self.who(seat)} {what}, but no turn has started: the recording began "
                      f"with the game and no turn start was recorded.", seat=seat)
            self._new_turn(seat)
        elif seat == self.turn_seat and self.turn_ended:
            if t == "turn.end":
                return  # the end of the turn said again
            self.flag("not-your-turn", seq,
                      f"{self.who(seat)} {what} after declaring the end of their turn.", seat=seat)
        elif self.turn_ended:
            self.flag("not-your-turn", seq,
                      f"{self.who(seat)} {what}, but no turn has started for them: the turn of "
                      f"{self.who(self.turn_seat)} ended and no start of {self.who(seat)}'s "
                      "turn was recorded.", seat=seat)
            self._new_turn(seat)
        elif seat != self.turn_seat:
            self.flag("not-your-turn", seq,
                      f"{self.who(seat)} {what} during the turn of {self.who(self.turn_seat)}: "
                      "only the acting player does that.", seat=seat)

    def _on_sync(self, e) -> None:
        self._new_turn(e["seat"], e.get("turn", self.turn_no or 1))
        self.pos = RANK[e["phase"]]
        self.pending = {}
        self.out = {s: "oust" for s in e.get("ousted", [])} or self.out
        if e.get("edge"):
            self.edge = e["edge"]
        board = e.get("board") or {}
        for key, minions in board.items():
            try:
                seat = int(key)
            except (TypeError, ValueError):
                continue
            if isinstance(minions, list):
                self.board[seat] = [str(m) for m in minions]

    def _on_turn_start(self, e) -> None:
        seq, seat = e["seq"], e["seat"]
        if self.turn_seat is not None and not self.turn_ended and seat != self.turn_seat:
            self.flag("end-of-turn-missing", seq,
                      f"{self.who(seat)} starts a turn but {self.who(self.turn_seat)} did not "
                      "declare the end of their turn.", seat=self.turn_seat)
        if self.turn_seat is not None and not self.turn_ended and seat == self.turn_seat:
            return  # a repeated start of the same turn: nothing new
        self._resolve(seq, implicit=True)
        self._new_turn(seat)

    def _on_turn_end(self, e) -> None:
        seq, seat = e["seq"], e["seat"]
        if seat != self.turn_seat or self.turn_ended:
            return
        self._resolve(seq, implicit=True)
        self.turn_ended = True
        self.open = []
        self.closed |= set(LINEAR)

    def _on_phase(self, e) -> None:
        seq, seat = e["seq"], e["seat"]
        if seat != self.turn_seat:
            return
        target = RANK[e["phase"]]
        if target < self.pos:
            self.flag("phase-passed", seq,
                      f"{self.who(seat)} goes back to the {e['phase']} phase, already passed.",
                      seat=seat)
            return
        if target > RANK["minion"]:
            self._resolve(seq, implicit=True)
        self.open += [(w, seat) for w in self._advance_turn(target, seat)]

    def _advance_turn(self, target: int, seat: int, new_action: bool = False) -> list[str]:
        """Move the turn to phase rank `target`; return the windows skipped."""
        skipped: list[str] = []
        if self.after_action and (target > RANK["minion"] or new_action):
            skipped.append("after-action")
            self.after_action = False
        if target > self.pos:
            for w in LINEAR:
                if w in ("after-action",):
                    continue
                if self.pos <= RANK[w] < target and not (w == "minion-end" and target <= RANK["minion"]):
                    if w == "minion-end" and self.pos > RANK["minion"]:
                        continue
                    skipped.append(w)
            self.pos = target
        self.passed_turn |= set(skipped)
        self.closed |= set(skipped)
        return skipped

    def _play_position(self, e) -> str | None:
        """The turn window a play belongs to, if it says or its type implies one."""
        t = e["type"]
        explicit = e.get("window") or e.get("phase")
        if explicit:
            return explicit
        if e.get("seat") != self.turn_seat:
            return None
        if t == "action.declare":
            return "minion"
        if t == "transfer":
            return "influence"
        if t == "discard":
            return "discard"
        if t == "card.play":
            lib = self.library(e.get("card"))
            types = [str(x).lower() for x in (getattr(lib, "types", None) or [])]
            if "master" in types and (self.action is None or self.action.resolved):
                return "master"
            if any(x in ("action", "political action") for x in types) and self.action is None:
                return "minion"
        return None

    def _sequence(self, e) -> bool:
        """Shortcut/window logic for a play. Returns False if the play is void (too late)."""
        seq, seat = e["seq"], e.get("seat")
        window = self._play_position(e)
        t = e["type"]
        if window in STEP_RANK:
            return self._combat_window(e, window)
        if window is None:
            if t in PLAYS:
                self._new_play(e, [])
            return True
        is_actor = seat == self.turn_seat
        if is_actor and window in self.passed_turn:
            self.flag("phase-passed", seq,
                      f"{self.who(seat)} acts in the {window} window, already passed: too late.",
                      seat=seat)
            return False
        opener = next((who for w, who in self.open if w == window and who != seat), None)
        if opener is not None:
            self.flag("shortcut-voided", seq,
                      f"{self.who(seat)} acts in the {window} window that {self.who(opener)} cut "
                      "short: the shortcut does not bind; the sequence resumes there.", seat=seat)
            self._void_turn(window)
            self._new_play(e, [])
            return True
        if window in self.closed and not is_actor:
            self.flag("interrupt-too-late", seq,
                      f"{self.who(seat)} wants to act in the {window} window, but the next card "
                      "or effect was already played after it.", seat=seat)
            return False
        if is_actor:
            if e["type"] == "action.declare":
                skipped = self._advance_turn(RANK["minion"], seat, new_action=True)
            else:
                skipped = self._advance_turn(RANK[window], seat)
            self._new_play(e, [(w, seat) for w in skipped])
        else:
            self._new_play(e, [])
        return True

    def _new_play(self, e, skipped: list[tuple[str, int]]) -> None:
        if e["type"] not in PLAYS:
            self.open += skipped
            return
        self.open = list(skipped)
        self.last_play = {"seq": e["seq"], "seat": e.get("seat"), "type": e["type"],
                          "card": e.get("card")}

    def _void_turn(self, window: str) -> None:
        gone = {w for w in LINEAR if RANK[w] >= RANK[window]}
        self.passed_turn -= gone
        self.closed -= gone
        self.pos = RANK[window]
        self.open = []
        last = self.last_play
        if last and last["type"] == "action.declare" and self.action is not None \
                and self.action.seq == last["seq"]:
            self.action = self.prev_action
            self.combat = None
        if window == "after-action":
            self.after_action = True
        if last and last.get("card") and last.get("seat") in self.pending \
                and self.pending[last["seat"]][0] == last["seq"]:
            del self.pending[last["seat"]]   # the card goes back to the hand
        self.last_play = None

    # --- combat steps ------------------------------------------------------------------

    def _combat_window(self, e, window: str) -> bool:
        seq, seat = e["seq"], e.get("seat")
        if self.combat is None:
            self._start_combat()
        c = self.combat
        rank = STEP_RANK[window]
        mine = c.passed.setdefault(seat, set())
        if window in mine:
            self.flag("phase-passed", seq,
                      f"{self.who(seat)} plays in the {window} step, already passed.", seat=seat)
            return False
        opener = next((who for w, who in self.open if w == window and who != seat), None)
        if opener is not None and self.last_play and self.last_play.get("seat") == opener:
            self.flag("shortcut-voided", seq,
                      f"{self.who(seat)} acts in the {window} step that {self.who(opener)} cut "
                      "short: the shortcut does not bind; the sequence resumes there.", seat=seat)
            self._restart_combat(rank)
            self._new_play(e, [])
            return True
        if rank < c.pos:
            self._restart_combat(rank)   # an earlier step not passed by this player: restart
            self._new_play(e, [])
            return True
        skipped = [s for s in COMBAT_STEPS[c.pos:rank]]
        mine |= set(skipped)
        self.closed |= set(skipped)
        c.pos = rank
        self._new_play(e, [(w, seat) for w in skipped])
        return True

    def _start_combat(self) -> None:
        self.combat = Combat()
        if self.action is not None:
            self.action.blocked = True
            self.action.attempting = None

    def _restart_combat(self, rank: int) -> None:
        c = self.combat
        c.pos = rank
        gone = set(COMBAT_STEPS[rank:])
        for passed in c.passed.values():
            passed -= gone
        self.closed -= gone
        self.open = []

    def _on_combat_step(self, e) -> None:
        step = e["step"]
        if step == "end":
            if self.combat is None and self.action is not None:
                self._start_combat()
            if self.action is not None:
                self.action.outcome = self.action.outcome or "blocked"
                self._resolve(e["seq"], implicit=False)
            self.combat = None
            return
        if self.combat is None:
            self._start_combat()
        rank = STEP_RANK[step]
        c = self.combat
        if rank > c.pos:
            skipped = COMBAT_STEPS[c.pos:rank]
            if e.get("seat"):
                c.passed.setdefault(e["seat"], set()).update(skipped)
            self.open += [(w, e.get("seat") or 0) for w in skipped]
            c.pos = rank

    def _on_shortcut(self, e) -> None:
        seat, to = e["seat"], e["to"]
        if to in STEP_RANK:
            if self.combat is None:
                self._start_combat()
            c = self.combat
            rank = STEP_RANK[to]
            skipped = COMBAT_STEPS[c.pos:rank] if rank > c.pos else ()
            c.passed.setdefault(seat, set()).update(skipped)
            self.open += [(w, seat) for w in skipped]
            c.pos = max(c.pos, rank)
            return
        if seat == self.turn_seat and to in RANK:
            if RANK[to] > RANK["minion"]:
                self._resolve(e["seq"], implicit=True)
            self.open += [(w, seat) for w in self._advance_turn(RANK[to], seat)]

    def _on_strike(self, e) -> None:
        self._card_play(e, role="strike") if e.get("card") else None
        self._combat_window(e, "strike")

    def _on_press(self, e) -> None:
        if self.combat is None:
            self._start_combat()
        c = self.combat
        c.pos = STEP_RANK["press"]
        if e.get("press", "continue") == "continue":
            c.round += 1
            c.pos = 0
            c.passed = {}

    # --- actions -------------------------------------------------------------------------

    def _on_action_declare(self, e) -> None:
        seq, seat = e["seq"], e["seat"]
        a = self.action
        if a is not None and not a.resolved:
            if a.seat == seat and not a.locked:
                self.action = self.prev_action  # the lock never took effect: a free change
            elif a.seat == seat and not a.actor_passed:
                self.flag("declaration-binding", seq,
                          f"{self.who(seat)} declared an action at event {a.seq}: it is binding, "
                          "too late to change it.", seat=seat, section="hypotheticals")
                return
            else:
                self._resolve(seq, implicit=True)
        if not self._sequence(e):
            return
        kind = e["action"]
        target = e.get("target_seat")
        if kind == "bleed":
            directed = True
            target = target or self.prey(seat)
        elif "directed" in e:
            directed = e["directed"]
        elif kind in UNDIRECTED:
            directed = False
        else:
            directed = target is not None and target != seat
        if directed:
            eligible = [target] if target and target != seat else []
        else:
            eligible = [s for s in (self.prey(seat), self.predator(seat)) if s and s != seat]
            eligible = list(dict.fromkeys(eligible))
        if self.action is not None and self.action.resolved:
            self.prev_action = self.action
        self.action = Action(seq=seq, seat=seat, kind=kind, minion=e.get("minion"),
                             directed=directed, target_seat=target, eligible=eligible,
                             amount=e.get("amount") if e.get("bleed_total") is None else e["bleed_total"],
                             locked=e.get("locked", True), card=e.get("card"))
        self.combat = None
        a = self.action
        a.terms_required = bool(e.get("terms_choice") or e.get("terms"))
        if not a.locked:
            return  # not a declaration yet: the player's hand has not left the card
        if kind == "bleed":
            self._check_bleed(e, a)
        self._check_stealth(e, kind)
        if e.get("card"):
            before = len(self.findings)
            self._card_play(e, role="action")
            if any(f.code == "discipline-unavailable" for f in self.findings[before:]):
                # An invalid declaration is void: nothing binds, the turn goes on as before.
                self.action = self.prev_action
                if self.pending.get(seat, (None,))[0] == seq:
                    del self.pending[seat]

    def _check_bleed(self, e, a: Action) -> None:
        seq, seat = e["seq"], e["seat"]
        if a.amount is None:
            self.flag("bleed-amount-missing", seq,
                      f"{self.who(seat)} bleeds without stating the amount.", seat=seat)
            return
        vampire = self.crypt(a.minion)
        expected = None
        if vampire is not None:
            expected = 1 + int(getattr(vampire, "bleed_bonus", 0) or 0)
        actual = e.get("actual_amount")
        if actual is not None and actual != a.amount:
            self.flag("misrepresented", seq,
                      f"{self.who(seat)} declares a bleed for {a.amount}; it is a bleed for "
                      f"{actual}. The declaration binds; it is a misrepresentation.", seat=seat)
        elif expected is not None and a.amount < expected:
            self.flag("misrepresented", seq,
                      f"{self.who(seat)} declares a bleed for {a.amount} with {a.minion}, who "
                      f"bleeds for {expected}. The declaration binds; it is a misrepresentation.",
                      seat=seat)

    def _check_stealth(self, e, kind: str) -> None:
        seq, seat = e["seq"], e["seat"]
        standard = STANDARD_STEALTH.get(kind, 0)
        declared = e.get("stealth")
        actual = e.get("actual_stealth")
        if actual is None:
            vampire = self.crypt(e.get("minion"))
            bonus = int(getattr(vampire, "stealth_bonus", 0) or 0) if vampire is not None else 0
            if bonus:
                actual = standard + bonus
        if actual is None or actual == standard:
            if declared is not None and actual is not None and declared != actual:
                self.flag("misrepresented", seq,
                          f"{self.who(seat)} declares {declared} stealth; the action has {actual}.",
                          seat=seat)
            return
        if declared is None:
            self.flag("stealth-undeclared", seq,
                      f"This {kind} action has {actual} stealth (standard: {standard}) and "
                      "its stealth was not declared.", seat=seat)
        elif declared != actual:
            self.flag("misrepresented", seq,
                      f"{self.who(seat)} declares {declared} stealth; the action has {actual}.",
                      seat=seat)

    def _on_action_pass(self, e) -> None:
        a = self.action
        if a is not None and not a.resolved and e["seat"] == a.seat:
            a.actor_passed = True

    def _before_blocks(self, e, what: str) -> Action | None:
        """Common checks when a non-acting player acts on the current action."""
        a = self.action
        if a is None or a.resolved:
            return None
        seat = e["seat"]
        if seat == a.seat:
            return a
        if not a.actor_passed and "action-pass-missing" not in a.flagged:
            a.flagged.add("action-pass-missing")
            self.flag("action-pass-missing", e["seq"],
                      f"{self.who(seat)} {what} before {self.who(a.seat)} passed on the action.",
                      seat=a.seat)
        return a

    def _order_check(self, e, a: Action, what: str) -> bool:
        """Undirected action: the predator may not act before the prey has passed."""
        seat = e["seat"]
        if a.directed or len(a.eligible) < 2:
            return True
        prey, predator = a.eligible[0], a.eligible[1]
        if seat == predator and prey not in a.done:
            self.flag("block-out-of-order", e["seq"],
                      f"{self.who(seat)} (the predator) {what} before {self.who(prey)} "
                      "(the prey) passed on blocking.", seat=seat)
            return False
        return True

    def _on_block_pass(self, e) -> None:
        a = self._before_blocks(e, "passes on blocking")
        if a is None or e["seat"] == a.seat:
            return
        seat = e["seat"]
        if a.attempting is not None and a.attempting == seat:
            self.flag("declaration-binding", e["seq"],
                      f"{self.who(seat)} declared a block: the declaration binds, it cannot be "
                      "turned into a pass.", seat=seat, section="hypotheticals")
            return
        if a.attempting is not None:
            a.attempting = None  # the previous attempt failed
        if seat in a.eligible:
            self._order_check(e, a, "passes on blocking")
            a.done.add(seat)
            a.passed.add(seat)

    def _on_block_declare(self, e) -> None:
        a = self._before_blocks(e, "declares a block")
        if a is None or e["seat"] == a.seat:
            return
        seat = e["seat"]
        if seat not in a.eligible:
            why = (f"only the target, {self.who(a.target_seat)}, may block this directed action"
                   if a.directed else "only the prey and the predator may block this undirected action")
            self.flag("block-not-eligible", e["seq"],
                      f"{self.who(seat)} tries to block: {why}.", seat=seat)
            return
        if seat in a.passed:
            self.flag("declaration-binding", e["seq"],
                      f"{self.who(seat)} already passed on blocking: the pass binds.", seat=seat,
                      section="hypotheticals")
            return
        self._order_check(e, a, "declares a block")
        a.done.add(seat)
        a.attempting = seat

    def _on_block_result(self, e) -> None:
        a = self.action
        if a is None or a.resolved:
            return
        if e["blocked"]:
            self._start_combat()
        else:
            a.attempting = None

    def _on_action_result(self, e) -> None:
        a = self.action
        if a is None or a.resolved:
            return
        a.outcome = e["outcome"]
        if e.get("amount") is not None and a.kind == "bleed":
            a.amount = e["amount"]
        if e["outcome"] == "blocked" and not a.blocked:
            a.blocked = True
        self._resolve(e["seq"], implicit=False)

    def _resolve(self, seq: int, implicit: bool) -> None:
        """The current action is over: check what had to happen before it resolved."""
        a = self.action
        if a is None or a.resolved:
            return
        if not a.blocked and a.outcome not in ("cancelled",):
            if not a.actor_passed and "action-pass-missing" not in a.flagged:
                a.flagged.add("action-pass-missing")
                self.flag("action-pass-missing", seq,
                          f"The action of {self.who(a.seat)} (event {a.seq}) went on without "
                          "the acting player passing.", seat=a.seat)
            missing = [s for s in a.eligible if s not in a.done]
            if missing and "block-pass-missing" not in a.flagged:
                a.flagged.add("block-pass-missing")
                self.flag("block-pass-missing", seq,
                          "The action resolved without "
                          + " and ".join(self.who(s) for s in missing)
                          + " passing on the block opportunity.", seat=missing[0])
        self._restate_check(seq, force=True)
        a.resolved = True
        if a.outcome is None:
            a.outcome = "blocked" if a.blocked else "success"
        self.combat = None
        self.after_action = True
        self.prev_action = a

    def _restate_check(self, seq: int, force: bool = False) -> None:
        a = self.action
        if a is None or a.restate_pending is None:
            return
        self.flag("bleed-total-not-restated", seq,
                  f"The bleed amount changed at event {a.restate_pending}; the new total "
                  "was not stated.", seat=a.seat)
        a.restate_pending = None

    def _on_bleed_total(self, e) -> None:
        a = self.action
        if a is not None and not a.resolved:
            a.amount = e["amount"]
            a.restate_pending = None

    # --- cards ---------------------------------------------------------------------------

    def _on_card_play(self, e) -> None:
        if not self._interrupt_like(e):
            return
        self._card_play(e, role="card")

    def _on_reaction(self, e) -> None:
        if not self._interrupt_like(e):
            return
        if e.get("card"):
            self._card_play(e, role="reaction")
        else:
            self._on_action_effect(e, "plays a reaction")

    def _on_effect(self, e) -> None:
        self._interrupt_like(e)
        a = self.action
        if a is not None and not a.resolved and e["seat"] != a.seat and not e.get("window") \
                and not e.get("phase"):
            self._on_action_effect(e, f"uses {e['name']}")

    def _on_transfer(self, e) -> None:
        # Consecutive transfers are one effect: only the first moves the sequence.
        if self.last_play and self.last_play["type"] == "transfer" \
                and self.last_play["seat"] == e["seat"] and self.pos == RANK["influence"]:
            return
        if e["seat"] == self.turn_seat:
            self._resolve(e["seq"], implicit=True)
        self._sequence(e)

    def _on_discard(self, e) -> None:
        if e["seat"] == self.turn_seat:
            self._resolve(e["seq"], implicit=True)
        self._sequence(e)

    def _interrupt_like(self, e) -> bool:
        """Run the window logic for a play; False when the play came too late."""
        seat = e["seat"]
        if self.combat is not None and not e.get("window") and not e.get("phase"):
            self._new_play(e, [])
            return True
        if seat == self.turn_seat and e.get("window") is None and e.get("phase") is None:
            position = self._play_position(e)
            if position is not None and RANK.get(position, 9) > RANK["minion"]:
                self._resolve(e["seq"], implicit=True)
        return self._sequence(e)

    def _on_action_effect(self, e, what: str) -> None:
        """A non-acting player plays something during the action (reaction, effect)."""
        a = self._before_blocks(e, what)
        if a is None or e["seat"] == a.seat:
            return
        seat = e["seat"]
        if e.get("wake"):
            return  # a wake is played in order to block: no pass expected before it
        if seat in a.eligible and seat not in a.done and a.attempting != seat and not a.blocked:
            if self._order_check(e, a, what):
                if "block-pass-missing" not in a.flagged:
                    a.flagged.add("block-pass-missing")
                    self.flag("block-pass-missing", e["seq"],
                              f"{self.who(seat)} {what} before passing on the block opportunity.",
                              seat=seat)

    def _card_play(self, e, role: str) -> None:
        seq, seat = e["seq"], e["seat"]
        name = e.get("card")
        # Replacement: the previous card of this player must have been replaced.
        if name:
            prior = self.pending.get(seat)
            if prior is not None:
                self.flag("replace-missing", seq,
                          f"{self.who(seat)} plays {name} before replacing {prior[1]} "
                          f"(event {prior[0]}).", seat=seat)
            lib = self.library(name)
            delays = e.get("delays_replacement")
            if delays is None:
                delays = bool(getattr(lib, "delays_replacement", False)) if lib is not None else False
            if not delays:
                self.pending[seat] = (seq, name)
            self.plays.append((seq, seat, name))
            self._card_checks(e, lib, role)
        a = self.action
        if a is None or a.resolved:
            return
        if role in ("card", "reaction") and seat != a.seat:
            self._on_action_effect(e, f"plays {name}" if name else "plays a card")
        if e.get("bleed_change") and a.kind == "bleed":
            if e.get("bleed_total") is not None:
                a.amount = e["bleed_total"]
            else:
                a.amount = (a.amount or 0) + e["bleed_change"] if a.amount is not None else None
                a.restate_pending = seq
        elif e.get("bleed_total") is not None and a.kind == "bleed":
            a.amount = e["bleed_total"]
            a.restate_pending = None

    def _card_checks(self, e, lib, role: str) -> None:
        """Required choices (card declaration) and disciplines the minion must have."""
        if lib is None:
            return
        seq, seat = e["seq"], e["seat"]
        name = lib.name
        needs = set(getattr(lib, "needs", ()) or ())
        requirement = getattr(lib, "requirement", "none") or "none"
        card_discs = [d.lower() for d in (getattr(lib, "disciplines", ()) or ())]
        declared = e.get("discipline")
        declared = declared if isinstance(declared, list) else ([declared] if declared else [])
        level_word = e.get("level")
        vampire = self.crypt(e.get("minion"))
        missing = [CHOICE_WORDS[k] for k in missing_choices(lib, e, vampire)]
        if missing:
            before = " before replacing" if "amount" in needs else ""
            self.flag("card-choice-missing", seq,
                      f"{self.who(seat)} plays {name} without announcing {', '.join(missing)}"
                      f"{before}: the player is not bound to any choice (misplay).", seat=seat)
        if vampire is None:
            return
        # Which disciplines at which level does the declaration use?
        if declared:
            used = [(d.lower(), 2 if (d.isupper() or level_word == "superior") else 1) for d in declared]
        elif requirement in ("single", "combo"):
            lv = 2 if level_word == "superior" else 1
            used = [(d, lv) for d in card_discs]
        else:
            used = []
        lacking = [(d, lv) for d, lv in used if self.minion_level(vampire, d) < lv]
        if lacking:
            what = ", ".join(("superior " if lv == 2 else "") + d.upper() if lv == 2 else d
                             for d, lv in lacking)
            section = "action-declaration" if role == "action" else "card-declaration"
            self.flag("discipline-unavailable", seq,
                      f"{vampire.name} does not have {what}: playing {name} this way is "
                      "impossible, the declaration is void and not binding (misplay).",
                      seat=seat, section=section)

    def _on_card_replace(self, e) -> None:
        self.pending.pop(e["seat"], None)

    def _on_cancel(self, e) -> None:
        seq, seat = e["seq"], e["seat"]
        target = None
        if e.get("target_seq"):
            target = next((p for p in self.plays if p[0] == e["target_seq"]), None)
        elif e.get("target_card"):
            target = next((p for p in reversed(self.plays) if p[2] == e["target_card"]), None)
        if target is not None:
            later = [p for p in self.plays if p[0] > target[0] and p[1] != seat]
            if later:
                verb = "wake against" if e.get("wake") else "cancel"
                self.flag("cancel-too-late", seq,
                          f"{self.who(seat)} wants to {verb} {target[2]} (event {target[0]}), but "
                          f"{later[0][2]} was already announced after it.", seat=seat)
                return
        if e.get("card"):
            self._card_play(e, role="cancel")

    def _on_interrupt(self, e) -> None:
        seat = e["seat"]
        window = e.get("window") or e.get("phase")
        if window is None:
            candidates = [w for w, who in self.open if who != seat]
            if not candidates:
                if e.get("card"):
                    self._card_play(e, role="card")
                return
            window = candidates[-1]
            e = dict(e, window=window)
        if self._sequence(e) and e.get("card"):
            self._card_play(e, role="card")

    # --- referendum --------------------------------------------------------------------

    def _political(self) -> Action | None:
        a = self.action
        if a is not None and a.kind == "political":
            return a
        return None

    def _succeed_if_open(self, seq: int) -> None:
        a = self.action
        if a is not None and not a.resolved and not a.polling:
            # Terms and votes come once the action succeeded: every pass must be in.
            a.polling = True
            self._resolve_checks_only(seq)

    def _resolve_checks_only(self, seq: int) -> None:
        a = self.action
        if not a.actor_passed and "action-pass-missing" not in a.flagged:
            a.flagged.add("action-pass-missing")
            self.flag("action-pass-missing", seq,
                      f"The action of {self.who(a.seat)} went on without the acting player passing.",
                      seat=a.seat)
        missing = [s for s in a.eligible if s not in a.done]
        if missing and "block-pass-missing" not in a.flagged:
            a.flagged.add("block-pass-missing")
            self.flag("block-pass-missing", seq,
                      "The action succeeded without " + " and ".join(self.who(s) for s in missing)
                      + " passing on the block opportunity.", seat=missing[0])

    def _on_referendum_terms(self, e) -> None:
        a = self._political()
        if a is None or a.resolved:
            return
        if a.polling or (a.actor_passed and all(s in a.done for s in a.eligible)):
            self._succeed_if_open(e["seq"])
            a.terms_confirmed = True
        else:
            a.terms_required = True  # terms negotiated before success: must be confirmed later

    def _on_vote(self, e) -> None:
        seq, seat = e["seq"], e["seat"]
        a = self._political()
        if a is not None and not a.resolved:
            first = not a.polling
            self._succeed_if_open(seq)
            if first and a.terms_required and not a.terms_confirmed \
                    and "terms-unconfirmed" not in a.flagged:
                a.flagged.add("terms-unconfirmed")
                self.flag("terms-unconfirmed", seq,
                          "Polling started without the terms of the political action being "
                          "confirmed (\"terms are as announced\" suffices).", seat=a.seat)
        votes, side = e.get("votes"), e.get("side")
        if votes is None or side is None:
            lack = " and ".join(x for x, v in (("the number of votes", votes), ("the side", side))
                                if v is None)
            self.flag("vote-incomplete", seq,
                      f"{self.who(seat)} announces votes without {lack}.", seat=seat)
        available = e.get("available")
        if available is None:
            available = self._available_votes(seat)
        if votes is not None and available is not None and votes < available \
                and not e.get("vampire"):
            self.flag("vote-vampire-missing", seq,
                      f"{self.who(seat)} commits {votes} of {available} available votes without "
                      "naming the vampire who votes.", seat=seat)

    def _available_votes(self, seat: int) -> int | None:
        minions = self.board.get(seat)
        if not minions or self.cards is None:
            return None
        try:
            from judgekit.recorder.cards import VOTES_BY_TITLE
        except ImportError:
            VOTES_BY_TITLE = getattr(self.cards, "VOTES_BY_TITLE", None)
        total = 0
        for name in minions:
            vampire = self.crypt(name)
            if vampire is None:
                continue
            votes = getattr(vampire, "votes", None)
            if votes is None and VOTES_BY_TITLE:
                votes = VOTES_BY_TITLE.get(getattr(vampire, "title", None) or "", 0)
            total += int(votes or 0)
        return total

    def _on_referendum_result(self, e) -> None:
        a = self._political()
        if a is not None and not a.resolved:
            a.outcome = "success"
            self._resolve(e["seq"], implicit=False)

    def _on_minion_in(self, e) -> None:
        self.board.setdefault(e["seat"], [])
        if e["minion"] not in self.board[e["seat"]]:
            self.board[e["seat"]].append(e["minion"])

    def _on_minion_out(self, e) -> None:
        minions = self.board.get(e["seat"], [])
        if e["minion"] in minions:
            minions.remove(e["minion"])

    # --- talk ----------------------------------------------------------------------------

    def _on_talk(self, e) -> None:
        seq, seat, kind = e["seq"], e["seat"], e["kind"]
        if kind in ("raised-voice", "slur", "physical-threat"):
            what = {"raised-voice": "raises their voice", "slur": "uses a slur against a player, their deck or their play",
                    "physical-threat": "makes a physical threat (even in jest)"}[kind]
            # v2: a threat of violence, even as a joke, is Major (Aggressive Behaviour is
            # acting in a threatening way: the judge's call, from the same category)
            infraction = ("Unsportsmanlike Conduct — Major" if kind == "physical-threat"
                          else "Unsportsmanlike Conduct — Minor")
            self.flag("unsportsmanlike", seq, f"{self.who(seat)} {what}.", seat=seat,
                      infraction=infraction)
            return
        stop = self.talk_stop
        if stop is None:
            return
        if kind == "question" and not stop["q"]:
            stop["q"] = True
            return
        if kind == "answer" and stop["q"] and not stop["a"]:
            stop["a"] = True
            return
        if kind in ("negotiate", "hypothetical") and not (stop["q"] and stop["a"]):
            return
        self.flag("discussion-after-stop", seq,
                  f"{self.who(seat)} keeps discussing after {self.who(stop['seat'])} required "
                  "a decision and the last question and answer were given.", seat=seat)

    def _on_talk_stop(self, e) -> None:
        self.talk_stop = {"seat": e["seat"], "seq": e["seq"], "q": False, "a": False}

    def _talk_decision(self, e) -> None:
        if self.talk_stop is not None and e["type"] not in ("card.replace",):
            self.talk_stop = None

    # --- end of game, time ---------------------------------------------------------------

    def _outcome(self, e, kind: str) -> None:
        self.outcomes.append({"type": kind, "seat": e["seat"], "seq": e["seq"]})
        self.out[e["seat"]] = kind
        self.board.pop(e["seat"], None)
        if self.action is not None and not self.action.resolved and e["seat"] == self.action.seat:
            self.action.resolved = True
        if self.action is not None and not self.action.resolved:
            self.action.eligible = [s for s in self.action.eligible if s != e["seat"]]
        if len(self.active()) <= 1:
            self.finished = True

    def _on_oust(self, e) -> None:
        self._outcome(e, "oust")

    def _on_withdraw(self, e) -> None:
        self._outcome(e, "withdraw")

    def _on_concede(self, e) -> None:
        self._outcome(e, "concede")

    def _on_draw_intentional(self, e) -> None:
        self.outcomes.append({"type": "draw", "seq": e["seq"]})
        self.finished = True

    def _on_game_end(self, e) -> None:
        self.finished = True
        self.game_end_seq = e["seq"]

    def _on_time_call(self, e) -> None:
        if self.time_mode is not None:
            return
        self.time_call_seq = e["seq"]
        a = self.action
        if a is not None and not a.resolved:
            self.time_mode, self.time_action_seq = "action", a.seq
        elif self.pos == RANK["minion"] and self.turn_seat is not None and not self.turn_ended:
            self.time_mode = "now"
        else:
            self.time_mode, self.time_phase = "phase", self.pos

    def _on_time_extend(self, e) -> None:
        if clockmod.over_cap(self.clock.extended_min) and \
                not clockmod.over_cap(self.clock.extended_min - e["minutes"]):
            self.flag("extension-over-cap", e["seq"],
                      f"Extensions at this table now total {self.clock.extended_min} minutes, "
                      f"over the {clockmod.EXTENSION_CAP_MIN}-minute cap per round (major "
                      "disruption or head judge's approval only).")

    def _time_check(self, e) -> None:
        if self.time_mode is None or self.finished or e["type"] not in PROGRESS | {"card.play", "effect"}:
            return
        t = e["type"]
        beyond = False
        if t in PROGRESS:
            if self.time_mode in ("action", "now"):
                beyond = True
            else:
                if t == "turn.start":
                    beyond = True
                elif t == "phase":
                    beyond = RANK[e["phase"]] > self.time_phase
                elif t == "transfer":
                    beyond = RANK["influence"] > self.time_phase
                elif t == "discard":
                    beyond = RANK["discard"] > self.time_phase
                elif t == "action.declare":
                    beyond = RANK["minion"] > self.time_phase
        elif e.get("seat") == self.turn_seat:
            position = self._play_position(e)
            if position in RANK:
                if self.time_mode == "phase":
                    beyond = RANK[position] > self.time_phase
                else:
                    beyond = RANK[position] > RANK["minion"] or (
                        self.time_mode == "now" or (self.action is None or self.action.resolved))
        if beyond:
            self.time_over = True
            self.flag("time-over", e["seq"],
                      f"Time was called at event {self.time_call_seq}: the game ended "
                      f"{self._end_point()}; this comes after.", seat=e.get("seat"))

    def _end_point(self) -> str:
        if self.time_mode == "action":
            return f"with the minion action in progress (event {self.time_action_seq})"
        if self.time_mode == "now":
            return "at once (minion phase, no action in progress)"
        if self.time_phase is not None:
            return f"at the end of the {PHASES[self.time_phase]} phase"
        return "at the time call"

    # --- the state ------------------------------------------------------------------------

    def outcome_events(self) -> list[dict[str, Any]]:
        out = list(self.outcomes)
        if self.time_call_seq is not None:
            at = self.game_end_seq if (self.game_end_seq or 0) > self.time_call_seq else self.time_call_seq
            out.append({"type": "time-out", "seq": at})
            out.sort(key=lambda x: x["seq"])
        return out

    def state(self, now: float | None = None) -> dict[str, Any]:
        a = self.action
        seats = []
        for s in range(1, self.n + 1):
            seats.append({"seat": s, "name": self.names[s - 1], "out": self.out.get(s),
                          "prey": self.prey(s) if s not in self.out else None,
                          "predator": self.predator(s) if s not in self.out else None,
                          "acting": s == self.turn_seat and not self.turn_ended,
                          "board": list(self.board.get(s, [])),
                          "pending_replace": self.pending[s][1] if s in self.pending else None})
        time = {"called": self.time_mode is not None, "call_seq": self.time_call_seq,
                "ends": self._end_point() if self.time_mode else None, "over": self.time_over}
        if self.time_mode == "action" and a is not None and a.resolved and a.seq == self.time_action_seq:
            time["over"] = True
        return {
            "seats": seats,
            "turn": {"seat": self.turn_seat, "number": self.turn_no,
                     "phase": PHASES[self.pos] if self.turn_seat else None,
                     "ended": self.turn_ended, "after_action": self.after_action},
            "action": a.to_dict(self.names) if a is not None and not a.resolved else None,
            "last_action": a.to_dict(self.names) if a is not None and a.resolved else None,
            "combat": ({"step": COMBAT_STEPS[self.combat.pos], "round": self.combat.round}
                       if self.combat is not None else None),
            "open_windows": [w for w, _ in self.open],
            "talk_stop": bool(self.talk_stop),
            "edge": self.edge,
            "time": time,
            "clock": self.clock.to_dict(now),
            "finished": self.finished,
            "outcome": self.outcome_events(),
            "events": self.event_count,
            "last_seq": self.last_seq,
            "next": next_steps(self),
        }


CHOICE_WORDS = {"discipline": "the discipline used", "level": "the discipline level",
                "x": "the X cost", "target": "the target", "amount": "the amount"}


def missing_choices(lib, event: dict[str, Any], vampire=None) -> list[str]:
    """The required choices a card play leaves unannounced (card declaration).

    `lib` is the played library card, `event` the play (card.play, reaction,
    action.declare, ...), `vampire` the crypt card of its minion (None if unknown). Returns
    keys among "discipline", "level", "x", "target", "amount" (`CHOICE_WORDS` says them in
    words). The level counts only when the minion could use more than one level.
    """
    needs = set(getattr(lib, "needs", ()) or ())
    requirement = getattr(lib, "requirement", "none") or "none"
    card_discs = [d.lower() for d in (getattr(lib, "disciplines", ()) or ())]
    declared = event.get("discipline")
    declared = declared if isinstance(declared, list) else ([declared] if declared else [])
    missing = []
    if "discipline" in needs and requirement == "choice" and not declared:
        missing.append("discipline")
    if "level" in needs and not declared and not event.get("level") and vampire is not None:
        used = card_discs if requirement != "choice" else []
        levels = getattr(lib, "levels", {}) or {}
        if any(len(levels.get(d, ())) > 1 and Engine.minion_level(vampire, d) >= 2 for d in used):
            missing.append("level")
    if "x" in needs and event.get("x") is None:
        missing.append("x")
    terms = bool(event.get("terms")) and event.get("type") == "action.declare"
    if "target" in needs and not event.get("target") and not event.get("target_seat") and not terms:
        missing.append("target")
    if "amount" in needs and event.get("amount") is None and not terms:
        missing.append("amount")
    return missing


def next_steps(eng: Engine) -> list[dict[str, Any]]:
    """What can come next in the sequence: the page's big buttons, as partial events.

    A step whose event carries (or whose form asks) a seat also has `for_seat`, its label
    for any seat, with `{who}` ("Ann (seat 1)") and `{name}` ("Ann") to fill in: when the
    judge has tapped another seat, the page makes the step that seat's (seat 3, then "no
    block": seat 3 passes). Whether that seat may do it is for the checks to say once it
    is recorded."""
    steps: list[dict[str, Any]] = []

    def add(label, event, ask=None, kind="primary", for_seat=None):
        step = {"label": label, "event": event, "ask": ask or [], "kind": kind}
        if "seat" in event or "seat" in step["ask"]:
            step["for_seat"] = for_seat or label + " ({name})"
        steps.append(step)

    if eng.finished:
        return steps
    live = eng.active()
    if eng.turn_seat is None or eng.turn_ended:
        nxt = live[0] if eng.turn_seat is None else eng.prey(eng.turn_seat)
        if nxt:
            add(f"Start turn: {eng.who(nxt)}", {"type": "turn.start", "seat": nxt},
                for_seat="Start turn: {who}")
        return steps
    actor = eng.turn_seat
    a = eng.action
    if actor in eng.pending:
        card = eng.pending[actor][1]
        add(f"{eng.names[actor - 1]}: replace {card}",
            {"type": "card.replace", "seat": actor}, kind="secondary", for_seat="{name}: replace a card")
    if a is not None and not a.resolved:
        if not a.actor_passed:
            add(f"{eng.who(a.seat)}: pass (“any blocks?”)", {"type": "action.pass", "seat": a.seat},
                for_seat="{who}: pass (“any blocks?”)")
        elif eng.combat is not None:
            add("Strike…", {"type": "strike", "seat": a.seat}, ask=["seat", "strike", "damage"],
                for_seat="{name}: strike…")
            add("Press to continue", {"type": "press", "seat": a.seat, "press": "continue"}, ask=["seat"],
                kind="secondary", for_seat="{name}: press to continue")
            add("End of combat", {"type": "combat.step", "step": "end"})
        elif a.attempting is not None:
            add("Blocked → combat", {"type": "block.result", "blocked": True})
            add("Block fails", {"type": "block.result", "blocked": False}, kind="secondary")
        else:
            waiting = [s for s in a.eligible if s not in a.done]
            if waiting:
                b = waiting[0]
                add(f"{eng.who(b)}: no block", {"type": "block.pass", "seat": b}, for_seat="{who}: no block")
                add(f"{eng.names[b - 1]} blocks with…", {"type": "block.declare", "seat": b},
                    ask=["minion"], kind="secondary", for_seat="{name} blocks with…")
            elif a.kind == "political":
                if a.terms_required and not a.terms_confirmed:
                    add("Terms confirmed", {"type": "referendum.terms", "seat": a.seat}, ask=["terms"],
                        for_seat="{name}: terms confirmed")
                add("Vote…", {"type": "vote"}, ask=["seat", "votes", "side", "vampire"])
                add("Referendum passes", {"type": "referendum.result", "passed": True}, kind="secondary")
                add("Referendum fails", {"type": "referendum.result", "passed": False}, kind="secondary")
            else:
                add("Action succeeds", {"type": "action.result", "outcome": "success"})
                add("Action fails", {"type": "action.result", "outcome": "failed"}, kind="secondary")
        return steps
    if eng.pos <= RANK["minion"]:
        add(f"{eng.names[actor - 1]} declares an action…", {"type": "action.declare", "seat": actor},
            ask=["action", "minion", "amount", "target_seat"], for_seat="{name} declares an action…")
    if eng.pos < len(PHASES) - 1:
        nxt = PHASES[eng.pos + 1]
        add(f"Next phase: {nxt}", {"type": "phase", "seat": actor, "phase": nxt}, kind="secondary",
            for_seat="{name}: next phase, " + nxt)
    add(f"{eng.names[actor - 1]}: end of turn", {"type": "turn.end", "seat": actor},
        kind="primary" if eng.pos >= RANK["influence"] else "secondary", for_seat="{name}: end of turn")
    return steps


@dataclass
class Replay:
    state: dict[str, Any]
    findings: list[dict[str, Any]]
    events: list[dict[str, Any]]   # every stored event, with "retracted" and its findings


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
    for event in playable:
        engine.feed(event)
    by_seq: dict[int, list[dict[str, Any]]] = {}
    findings = [f.to_dict() for f in engine.findings]
    for f in findings:
        by_seq.setdefault(f["seq"], []).append(f)
    annotated = [dict(e, retracted=e["seq"] in retracted, findings=by_seq.get(e["seq"], []))
                 for e in events]
    return Replay(state=engine.state(now), findings=findings, events=annotated)


def check(events: list[dict[str, Any]], seats: list[str], cards=None,
          time_limit_min: int | None = None) -> list[dict[str, Any]]:
    """The findings of a transcript (events numbered in order when they have no seq)."""
    numbered = [dict(e, seq=e.get("seq") or i) for i, e in enumerate(events, 1)]
    return replay(numbered, seats, cards=cards, time_limit_min=time_limit_min).findings

