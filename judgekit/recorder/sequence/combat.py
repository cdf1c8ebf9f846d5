"""Combat: its steps, strikes and presses, and an opponent's use of a step cut short."""
from __future__ import annotations

from judgekit.i18n import Message
from judgekit.recorder.events import COMBAT_STEPS
from judgekit.recorder.sequence.common import STEP_RANK, Combat
from judgekit.recorder.words import window_at


class CombatMixin:
    """Combat steps, strikes and presses."""

    def _combat_window(self, e, window: str) -> bool:
        seq, seat = e["seq"], e.get("seat")
        if self.combat is None:
            self._start_combat()
        c = self.combat
        c.continued_by = None   # the new round has begun: a press to continue is answered
        rank = STEP_RANK[window]
        mine = c.passed.setdefault(seat, set())
        if window in mine:
            self.flag("phase-passed", seq,
                      Message("recorder.finding.plays-in-passed-step", "%(who)s plays %(window)s, which they "
                              "already passed.", who=self.who_said(seat), window=window_at(window, Message)),
                      seat=seat)
            return False
        opener = next((who for w, who in self.open if w == window and who != seat), None)
        if opener is not None and self.last_play and self.last_play.get("seat") == opener:
            self.flag("shortcut-voided", seq,
                      Message("recorder.finding.shortcut-voided", "%(who)s acts %(window)s, which %(opener)s cut "
                              "short: the shortcut does not bind; the sequence resumes there.",
                              who=self.who_said(seat), window=window_at(window, Message),
                              opener=self.who_said(opener)), seat=seat)
            self._restart_combat(rank)
            self._new_play(e, [])
            return True
        own = c.played.get(seat)
        if rank < c.pos and (window in self.closed or (own is not None and own[0] > rank)):
            # The step is over for this seat: its own play at a later step (declaring its
            # strike lets the range step go), or the next card or effect after a play cut
            # the step short, came after it. Too late (shortcuts: an opponent may act in a
            # skipped step only before the next card or effect is played).
            if own is not None and own[0] > rank:
                what = Message("recorder.finding.their-own-play", "their own %(play)s (event %(seq)s)",
                               play=_PLAY_WORDS.get(own[2], own[2]), seq=own[1])
            else:
                last = self.last_play or {}
                what = Message("recorder.finding.next-play-at", "the next card or effect (event %(seq)s)",
                               seq=last["seq"]) if last.get("seq") else \
                    Message("recorder.finding.next-play", "the next card or effect")
            self.flag("interrupt-too-late", seq,
                      Message("recorder.finding.step-closed", "%(who)s wants to act %(window)s, but %(what)s was "
                              "already played after it: too late.",
                              who=self.who_said(seat), window=window_at(window, Message), what=what), seat=seat)
            return False
        if rank < c.pos:
            self._restart_combat(rank)   # an earlier step not passed by this player: restart
            self._new_play(e, [])
            return True
        skipped = [s for s in COMBAT_STEPS[c.pos:rank]]
        mine |= set(skipped)
        self.closed |= set(skipped)
        c.pos = rank
        if seat is not None and (own is None or own[0] <= rank):
            c.played[seat] = (rank, seq, "strike" if e["type"] == "strike"
                              else "card" if e.get("card") else "play")
        self._new_play(e, [(w, seat) for w in skipped])
        return True

    def _start_combat(self) -> None:
        self.combat = Combat()
        self.closed -= set(COMBAT_STEPS)   # a new combat: none of its steps is passed yet
        a = self.action
        if a is not None:
            a.blocked = True
            if a.attempting is not None:   # the block attempt succeeded
                a.blocker, a.blocker_minion = a.attempting, a.attempt_minion
            a.attempting = None

    def combatants(self) -> tuple[int | None, int | None]:
        """(the acting seat, the blocking seat) of the combat in progress."""
        a = self.action
        if a is None:
            return None, None
        return a.seat, a.blocker

    def _restart_combat(self, rank: int) -> None:
        c = self.combat
        c.pos = rank
        gone = set(COMBAT_STEPS[rank:])
        for passed in c.passed.values():
            passed -= gone
        # the plays at the steps the sequence goes back over no longer bind
        c.played = {s: p for s, p in c.played.items() if p[0] <= rank}
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
        c.continued_by = None
        if rank > c.pos:
            skipped = COMBAT_STEPS[c.pos:rank]
            if e.get("seat"):
                c.passed.setdefault(e["seat"], set()).update(skipped)
            self.open += [(w, e.get("seat") or 0) for w in skipped]
            c.pos = rank

    def _on_strike(self, e) -> None:
        self._card_play(e, role="strike") if e.get("card") else None
        self._combat_window(e, "strike")
        if self.combat is not None and e["seat"] not in self.combat.struck:
            self.combat.struck.append(e["seat"])

    def _on_press(self, e) -> None:
        if self.combat is None:
            self._start_combat()
        c = self.combat
        press = e.get("press", "continue")
        if press == "end" and c.continued_by is not None and e["seat"] != c.continued_by:
            # the opponent answers a press to continue with a press to end: it cancels the
            # press; the round it opened never began, and combat ends after the press step
            c.round -= 1
            c.pos = STEP_RANK["press"]
            c.struck = [s for s in self.combatants() if s is not None]
            c.pressed = [c.continued_by, e["seat"]]
            c.continued_by = None
            return
        c.continued_by = None
        c.pos = STEP_RANK["press"]
        if press == "continue":
            c.round += 1
            c.pos = 0
            c.passed = {}
            c.played = {}
            self.closed -= set(COMBAT_STEPS)   # a new round: its steps are open again
            c.struck, c.pressed = [], []
            c.continued_by = e["seat"]
        elif e["seat"] not in c.pressed:
            c.pressed.append(e["seat"])


# A seat's own play in a combat step, as a finding words it ("their own strike").
_PLAY_WORDS = {"strike": Message("recorder.finding.play-strike", "strike"),
               "card": Message("recorder.finding.play-card", "card"),
               "play": Message("recorder.finding.play-play", "play")}
