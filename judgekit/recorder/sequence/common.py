"""What every part of the game-sequence engine shares: the windows and their order,
the standard stealth, the `Action` and `Combat` records, and `TableMixin` (names, seats
in play, prey and predator, card facts, `flag`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judgekit.i18n import N_, Message, english
from judgekit.recorder import findings as F
from judgekit.recorder import words
from judgekit.recorder.events import COMBAT_STEPS

# Turn windows in order; `after-action` and `minion-end` sit inside/at the end of the
# minion phase (rank 2) and matter only as windows an interrupt can name.
LINEAR = ("unlock", "master", "minion", "after-action", "minion-end", "influence", "discard")
RANK = {"unlock": 0, "master": 1, "minion": 2, "after-action": 2, "minion-end": 2,
        "influence": 3, "discard": 4}
STEP_RANK = {s: i for i, s in enumerate(COMBAT_STEPS)}

# Default stealth by action type (announcement guidelines, action declaration).
STANDARD_STEALTH = {"bleed": 0, "hunt": 1, "equip": 1, "recruit": 1, "employ": 1,
                    "political": 1, "leave-torpor": 1, "anarch": 1, "card": 0, "other": 0}
# Actions on a torpid vampire: their standard stealth depends on who controls it (the
# rulebook's action list): +1 when the acting vampire and the torpid one have the same
# controller (undirected), 0 when another Methuselah controls it (directed). The
# guidelines' "1 stealth for leave and rescue from torpor" is the first case.
TORPOR_ACTIONS = ("rescue", "diablerie")
TORPOR_STEALTH_SAME = 1
TORPOR_STEALTH_OTHER = 0
UNDIRECTED = {"hunt", "equip", "recruit", "employ", "political", "leave-torpor", "anarch"}

# Events that are plays ("the next card or effect") for the shortcut and cancel windows.
PLAYS = {"card.play", "reaction", "action.declare", "effect", "transfer", "discard",
         "strike", "cancel", "interrupt", "action.redirect"}
# Events after which the table has moved on (used for the time call).
PROGRESS = {"action.declare", "phase", "turn.start", "transfer", "discard"}
# What only the player whose turn it is does: declare an action, move through the phases,
# transfer, the discard phase action, end the turn.
TURN_BOUND = {"action.declare", "phase", "transfer", "discard", "turn.end"}
OUTCOME_TYPES = {"oust": "oust", "withdraw": "withdraw", "concede": "concede",
                 "draw.intentional": "draw"}

# The phases and the action kinds by their names, as a message's part ("at the end of the
# minion phase", "declares an action (hunt)").
PHASE_NAMES = {"unlock": Message("recorder.phase-unlock", "unlock"),
               "master": Message("recorder.phase-master", "master"),
               "minion": Message("recorder.phase-minion", "minion"),
               "influence": Message("recorder.phase-influence", "influence"),
               "discard": Message("recorder.phase-discard", "discard")}
ACTION_KIND_NAMES = {"bleed": Message("recorder.action-kind-bleed", "bleed"),
                     "hunt": Message("recorder.action-kind-hunt", "hunt"),
                     "equip": Message("recorder.action-kind-equip", "equip"),
                     "recruit": Message("recorder.action-kind-recruit", "recruit"),
                     "employ": Message("recorder.action-kind-employ", "employ"),
                     "political": Message("recorder.action-kind-political", "political"),
                     "leave-torpor": Message("recorder.action-kind-leave-torpor", "leave-torpor"),
                     "rescue": Message("recorder.action-kind-rescue", "rescue"),
                     "diablerie": Message("recorder.action-kind-diablerie", "diablerie"),
                     "anarch": Message("recorder.action-kind-anarch", "anarch"),
                     "card": Message("recorder.action-kind-card", "card"),
                     "other": Message("recorder.action-kind-other", "other")}


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
    terms_given: bool = False                           # terms said, at declaration or later
    terms_card: str | None = None                       # a political card whose terms are a choice
    polling: bool = False                               # the action succeeded: the referendum
    ballot: bool = False                                # polling has begun (a vote or the result)
    referendum: str | None = None                       # "passed" | "failed"
    flagged: set[str] = field(default_factory=set)
    card: str | None = None
    blocker: int | None = None                          # the seat whose block succeeded
    blocker_minion: str | None = None
    attempt_minion: str | None = None
    failed_blocks: list[int] = field(default_factory=list)
    redirects: list[dict[str, Any]] = field(default_factory=list)
    votes: dict[int, list[tuple[int | None, str | None, str | None]]] = field(default_factory=dict)

    def vote_totals(self) -> tuple[int, int]:
        """Votes for and against recorded so far (numbers not said count 0)."""
        yes = sum(v or 0 for ballots in self.votes.values() for v, side, _ in ballots if side == "for")
        no = sum(v or 0 for ballots in self.votes.values() for v, side, _ in ballots if side == "against")
        return yes, no

    def answers(self) -> dict[int, str]:
        """Each seat's answer to the block opportunity, in words: "no block", "blocking",
        "blocked" (the block succeeded), "block failed"; a seat yet to answer is absent."""
        out: dict[int, str] = {}
        for s in self.passed:
            out[s] = N_("no block")
        for s in self.failed_blocks:
            out[s] = N_("block failed")
        if self.attempting is not None:
            out[self.attempting] = N_("blocking")
        if self.blocker is not None:
            out[self.blocker] = N_("blocked")
        return out

    def to_dict(self, names, _: words.Translate = english) -> dict[str, Any]:
        yes, no = self.vote_totals()
        target = words.seat_name(self.target_seat, names) if self.target_seat else None
        return {"seq": self.seq, "seat": self.seat, "kind": self.kind, "minion": self.minion,
                "card": self.card, "directed": self.directed, "target_seat": self.target_seat,
                "target": target,
                "amount": self.amount, "eligible": list(self.eligible),
                "actor_passed": self.actor_passed, "passed": sorted(self.passed),
                "done": sorted(self.done), "attempting": self.attempting,
                "blocked": self.blocked, "resolved": self.resolved, "outcome": self.outcome,
                "terms_required": self.terms_required, "terms_confirmed": self.terms_confirmed,
                "polling": self.polling, "referendum": self.referendum,
                "blocker": self.blocker, "blocker_minion": self.blocker_minion,
                "answers": {str(s): _(w) for s, w in sorted(self.answers().items())},
                "redirects": [dict(r) for r in self.redirects],
                "votes": {"for": yes, "against": no, "seats": sorted(self.votes),
                          "ballots": {str(s): [{"votes": v, "side": side, "vampire": vampire}
                                               for v, side, vampire in ballots]
                                      for s, ballots in sorted(self.votes.items())}},
                "words": self.words(names, _)}

    def words(self, names, _: words.Translate = english) -> str:
        """The action in a judge's words: "Modius bleeds Cid for 2 (redirected by Ben)"
        (by the translator `_`)."""
        who = words.seat_name(self.seat, names, _)
        target = words.seat_name(self.target_seat, names, _) if self.target_seat and (
            self.directed or self.kind == "bleed") else None
        line = words.action_words(self.kind, self.minion, who, target,
                                  self.amount if self.kind == "bleed" else None, _)
        if self.card:
            line = _("%(action)s with %(card)s", action=line, card=self.card)
        if self.redirects:
            line = _("%(action)s (redirected by %(who)s)", action=line,
                     who=words.seat_name(self.redirects[-1]["seat"], names, _))
        return line


@dataclass
class Combat:
    pos: int = 0
    round: int = 1
    passed: dict[int, set[str]] = field(default_factory=dict)
    over: bool = False
    struck: list[int] = field(default_factory=list)     # seats that struck this round
    pressed: list[int] = field(default_factory=list)    # seats that declined to press this round
    # seat -> (rank, seq, "strike" | "card" | "play") of the latest combat step it played
    # in this round: the steps before it are gone for that seat (its own play came after)
    played: dict[int, tuple[int, int, str]] = field(default_factory=dict)
    # the seat whose press to continue opened this round, while nothing happened in it yet:
    # its opponent may still answer with a press to end (which cancels it)
    continued_by: int | None = None


def minion_level(vampire, disc: str) -> int:
    """0 (lacks it), 1 (inferior) or 2 (superior) for a crypt card (or a look-alike)."""
    level = getattr(vampire, "level", None)
    if callable(level):
        return int(level(disc.lower()) or 0)
    return int((getattr(vampire, "disciplines", {}) or {}).get(disc.lower(), 0))


def said_list(items: list, last: str = "and", commas: bool = False) -> Message | str:
    """Items (messages or text) joined for a message: "a and b", "a or b"; `commas`: "a, b
    and c" (else "a and b and c")."""
    out = items[0]
    for i, item in enumerate(items[1:], 2):
        if commas and i < len(items):
            out = Message("recorder.list-comma", "%(head)s, %(item)s", head=out, item=item)
        elif last == "or":
            out = Message("recorder.list-or", "%(head)s or %(item)s", head=out, item=item)
        else:
            out = Message("recorder.list-and", "%(head)s and %(item)s", head=out, item=item)
    return out


class TableMixin:
    """Seats, names and card facts: the helpers every part uses."""

    # --- helpers -------------------------------------------------------------------

    def who(self, seat: int | None) -> str:
        return self.who_said(seat).render()

    def who_said(self, seat: int | None) -> Message:
        """The player of `seat` as a message's parameter: "Ann (seat 2)", "seat 3", "someone"."""
        if seat is None:
            return Message("recorder.who-someone", "someone")
        if 1 <= seat <= self.n and self.names[seat - 1]:
            return Message("recorder.who-name-seat", "%(name)s (seat %(seat)s)", name=self.names[seat - 1], seat=seat)
        return Message("recorder.who-seat", "seat %(seat)s", seat=seat)

    def flag(self, code: str, seq: int, message: str | Message | None = None, **kw) -> None:
        """A finding `code` at event `seq`: its message, written for the case, is a
        `Message` (`recorder.finding.*`); None gives the code's default message."""
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
        return minion_level(vampire, disc)
