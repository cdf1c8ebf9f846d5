"""Windows and shortcuts: where a play belongs, the windows it skips, who may still
interrupt them, and voiding a shortcut (announcement guidelines, shortcuts)."""
from __future__ import annotations

from judgekit.i18n import Message
from judgekit.recorder.events import COMBAT_STEPS
from judgekit.recorder.sequence.common import LINEAR, PLAYS, RANK, STEP_RANK
from judgekit.recorder.words import window_at


class WindowsMixin:
    """The turn windows a play belongs to or skips; shortcuts, interrupts, voiding."""

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
                      Message("recorder.finding.acts-in-passed-window", "%(who)s acts %(window)s, which they "
                              "already passed: too late.", who=self.who_said(seat), window=window_at(window, Message)),
                      seat=seat)
            return False
        opener = next((who for w, who in self.open if w == window and who != seat), None)
        if opener is not None:
            self.flag("shortcut-voided", seq,
                      Message("recorder.finding.shortcut-voided", "%(who)s acts %(window)s, which %(opener)s cut "
                              "short: the shortcut does not bind; the sequence resumes there.",
                              who=self.who_said(seat), window=window_at(window, Message),
                              opener=self.who_said(opener)), seat=seat)
            self._void_turn(window)
            self._new_play(e, [])
            return True
        if window in self.closed and not is_actor:
            self.flag("interrupt-too-late", seq,
                      Message("recorder.finding.window-closed", "%(who)s wants to act %(window)s, but the next "
                              "card or effect was already played after it.",
                              who=self.who_said(seat), window=window_at(window, Message)), seat=seat)
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
        if e["type"] != "cancel":
            self.waits.pop(e.get("seat"), None)
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

    def _on_interrupt(self, e) -> None:
        """"Wait!": an opponent acts in a window. With `window`, a window a shortcut cut
        short (the shortcut is voided if it is still open, too late once the next card or
        effect was played). Without it, "wait" holds the current window — the card or
        action just announced, before the next card or replacement: nothing is voided, no
        earlier phase is reopened, and what is expected afterwards (block passes, a
        replacement) still is. A card played with it is played there and then."""
        window = e.get("window") or e.get("phase")
        if window is None:
            if e.get("card"):
                self._new_play(e, [])
                self._card_play(e, role="card")
            else:
                self.waits[e["seat"]] = e["seq"]   # held until this seat's next play
            return
        if self._sequence(e) and e.get("card"):
            self._card_play(e, role="card")
