"""The turn: whose turn it is, its start and end, the phases, and `sync`."""
from __future__ import annotations

from judgekit.i18n import Message
from judgekit.recorder.events import PHASES
from judgekit.recorder.sequence.common import ACTION_KIND_NAMES, LINEAR, RANK
from judgekit.recorder.words import LEFT_WORDS, window_words


class TurnMixin:
    """Turn start and end, phases, `sync`, and who may make turn-bound statements."""

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
        self.waits = {}
        self.lock = None

    def _on_game_start(self, e) -> None:
        if self.turn_seat is None:
            self.from_start = True  # the game is recorded from its start: seat 1 starts it

    def _turn_check(self, e) -> None:
        """Turn-bound statements (TURN_BOUND) belong to the seat whose turn it is.

        A recording begun mid-game without a `sync` has no turn yet: its first such
        statement says whose turn it is (nothing before it is known). The next seat in turn
        order (the prey of the seat whose turn it is) making one starts its own turn: after
        an end of turn that is the game going on (saying "I start my turn" is not required);
        before it, the previous player did not declare the end of their turn:
        `end-of-turn-missing`, on that player. Anyone else's, or one with no turn started in
        a game recorded from its start (other than the first seat's), is `not-your-turn`;
        with no turn going on the seat's turn is taken as begun, so that what follows is
        checked as that turn."""
        seat, seq, t = e["seat"], e["seq"], e["type"]
        if self._out_of_game(e):
            return
        if self.turn_seat is None and not self.from_start:
            self._new_turn(seat)
            return
        what = _turn_words(e)
        who = self.who_said(seat)
        if self.turn_seat is None:
            live = self.active()
            if live and seat == live[0]:
                self._new_turn(seat)  # the first player begins the game
                return
            self.flag("not-your-turn", seq,
                      Message("recorder.finding.no-turn-started", "%(who)s %(what)s, but no turn has started: "
                              "the recording began with the game and no turn start was recorded.",
                              who=who, what=what), seat=seat)
            self._new_turn(seat)
        elif seat == self.turn_seat and self.turn_ended:
            if t == "turn.end":
                return  # the end of the turn said again
            self.flag("not-your-turn", seq,
                      Message("recorder.finding.after-own-turn-end", "%(who)s %(what)s after declaring the "
                              "end of their turn.", who=who, what=what), seat=seat)
        elif seat == self.turn_seat:
            return
        elif seat == self.prey(self.turn_seat):
            if not self.turn_ended:
                self.flag("end-of-turn-missing", seq,
                          Message("recorder.finding.starts-turn-no-end", "%(who)s %(what)s, starting their "
                                  "turn, but %(previous)s did not declare the end of their turn.",
                                  who=who, what=what, previous=self.who_said(self.turn_seat)),
                          seat=self.turn_seat)
                self._resolve(seq, implicit=True)
            self._new_turn(seat)
        elif self.turn_ended:
            self.flag("not-your-turn", seq,
                      Message("recorder.finding.not-their-turn", "%(who)s %(what)s, but it is not their turn: "
                              "the turn of %(previous)s ended and the next turn is %(next)s's.",
                              who=who, what=what, previous=self.who_said(self.turn_seat),
                              next=self.who_said(self.prey(self.turn_seat))), seat=seat)
            self._new_turn(seat)
        else:
            self.flag("not-your-turn", seq,
                      Message("recorder.finding.during-other-turn", "%(who)s %(what)s during the turn of "
                              "%(acting)s: only the acting player does that.",
                              who=who, what=what, acting=self.who_said(self.turn_seat)), seat=seat)

    def _turn_from_play(self, e) -> None:
        """After an end of turn, a play by the next seat that names one of the turn's phases
        (an unlock effect, a master card "in my master phase") belongs to that seat's own
        turn: the turn begins (no finding). During a turn, a play naming a window is an
        opponent acting in the acting player's window (shortcuts), not a new turn."""
        window = e.get("window") or e.get("phase")
        seat = e.get("seat")
        if window in PHASES and self.turn_seat is not None and self.turn_ended \
                and seat is not None and seat == self.prey(self.turn_seat):
            self._new_turn(seat)

    def _on_sync(self, e) -> None:
        self._new_turn(e["seat"], e.get("turn", self.turn_no or 1))
        self.pos = RANK[e["phase"]]
        self.pending = {}
        self.out = {s: "oust" for s in e.get("ousted", [])} or self.out
        if e.get("edge"):
            self.edge = e["edge"]
        self._sync_board(e.get("board") or {})

    def _out_of_game(self, e) -> bool:
        """A turn statement by a seat out of the game (a tap on the wrong seat, most often):
        `not-your-turn`; the turn does not move to them."""
        seat = e["seat"]
        if seat not in self.out:
            return False
        why = Message(LEFT_WORDS[self.out[seat]]) if self.out[seat] in LEFT_WORDS \
            else Message("recorder.finding.is-out", "is out")
        what = _turn_words(e, out=True)
        self.flag("not-your-turn", e["seq"],
                  Message("recorder.finding.out-takes-no-turn", "%(who)s %(what)s, but %(why)s: a player "
                          "out of the game takes no turn.", who=self.who_said(seat), what=what, why=why),
                  seat=seat)
        return True

    def _on_turn_start(self, e) -> None:
        seq, seat = e["seq"], e["seat"]
        if self._out_of_game(e):
            return
        self.context = {"turn": self.turn_no + 1 if not (
            self.turn_seat == seat and not self.turn_ended) else self.turn_no}
        if self.turn_seat is not None and not self.turn_ended and seat != self.turn_seat:
            self.flag("end-of-turn-missing", seq,
                      Message("recorder.finding.turn-start-no-end", "%(who)s starts a turn but %(previous)s did "
                              "not declare the end of their turn.", who=self.who_said(seat),
                              previous=self.who_said(self.turn_seat)), seat=self.turn_seat)
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
                      Message("recorder.finding.phase-back", "%(who)s goes back to %(window)s, already passed.",
                              who=self.who_said(seat), window=window_words(e["phase"], Message)),
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


def _turn_words(e, out: bool = False) -> Message:
    """What a turn statement does, for a finding ("declares a bleed", "moves to the
    minion phase"); `out`: said of a seat out of the game (an action, whatever its kind)."""
    t = e["type"]
    if t == "action.declare":
        if out:
            return Message("recorder.finding.does-declare-action", "declares an action")
        if e.get("action") == "bleed":
            return Message("recorder.finding.does-declare-bleed", "declares a bleed")
        return Message("recorder.finding.does-declare-kind", "declares an action (%(action)s)",
                       action=ACTION_KIND_NAMES.get(e.get("action"), e.get("action")))
    if t == "phase":
        return Message("recorder.finding.does-move-to", "moves to %(window)s",
                       window=window_words(e.get("phase"), Message))
    if t == "transfer":
        return Message("recorder.finding.does-transfer", "transfers pool")
    if t == "discard":
        return Message("recorder.finding.does-discard", "discards (discard phase action)")
    if t == "turn.end":
        return Message("recorder.finding.does-end-turn", "declares the end of a turn")
    if t == "turn.start" and out:
        return Message("recorder.finding.does-start-turn", "starts a turn")
    return Message("recorder.finding.does-act", "acts")
