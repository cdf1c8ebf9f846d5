"""The turn: whose turn it is, its start and end, the phases, and `sync`."""
from __future__ import annotations

from judgekit.recorder.sequence.common import LINEAR, RANK


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
