"""Table talk after a stop, the game's outcome (ousts, withdrawals, concessions, draws),
and the round clock's time call and extensions."""
from __future__ import annotations

from typing import Any

from judgekit.i18n import Message
from judgekit.recorder import clock as clockmod
from judgekit.recorder.events import PHASES
from judgekit.recorder.sequence.common import LINEAR, PHASE_NAMES, PROGRESS, RANK


class TableTalkMixin:
    """Table talk, outcomes and the time call."""

    def _on_talk(self, e) -> None:
        seq, seat, kind = e["seq"], e["seat"], e["kind"]
        if kind in ("raised-voice", "slur", "physical-threat"):
            what = {"raised-voice": Message("recorder.finding.talk-raised-voice", "raises their voice"),
                    "slur": Message("recorder.finding.talk-slur", "uses a slur against a player, their deck or their play"),
                    "physical-threat": Message("recorder.finding.talk-threat", "makes a physical threat (even in jest)")}[kind]
            # v2: threats or attempts of physical violence, even as a joke, must be treated
            # as Aggressive Behaviour (../shared/reference/penalties.md)
            # v2: a racial or discriminatory slur is Unsportsmanlike Conduct — Major
            # (content/penalties/v2.toml); other slurs and a raised voice are Minor
            if kind == "physical-threat":
                infraction, more = "Aggressive Behaviour", ""
            elif kind == "slur" and e.get("discriminatory"):
                infraction = "Unsportsmanlike Conduct — Major"
                more = Message("recorder.finding.slur-discriminatory",
                               " The slur is discriminatory: Unsportsmanlike Conduct — Major.")
            else:
                infraction = "Unsportsmanlike Conduct — Minor"
                more = Message("recorder.finding.slur-if-discriminatory", " If the slur is discriminatory (racial "
                               "or the like), it is Unsportsmanlike Conduct — Major.") if kind == "slur" else ""
            self.flag("unsportsmanlike", seq,
                      Message("recorder.finding.unsportsmanlike", "%(who)s %(what)s.%(more)s",
                              who=self.who_said(seat), what=what, more=more), seat=seat,
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
                  Message("recorder.finding.discussion-after-stop", "%(who)s keeps discussing after %(actor)s "
                          "required a decision and the last question and answer were given.",
                          who=self.who_said(seat), actor=self.who_said(stop["seat"])), seat=seat)

    def _on_talk_stop(self, e) -> None:
        self.talk_stop = {"seat": e["seat"], "seq": e["seq"], "q": False, "a": False}

    def _talk_decision(self, e) -> None:
        if self.talk_stop is not None and e["type"] not in ("card.replace",):
            self.talk_stop = None

    # --- end of game, time ---------------------------------------------------------------

    def _outcome(self, e, kind: str) -> None:
        self.outcomes.append({"type": kind, "seat": e["seat"], "seq": e["seq"]})
        self.out[e["seat"]] = kind
        self._clear_seat(e["seat"])
        if self.action is not None and not self.action.resolved and e["seat"] == self.action.seat:
            self.action.resolved = True
        if e["seat"] == self.turn_seat and not self.turn_ended:
            # the player whose turn it is leaves the game (ousted during their own turn,
            # withdrawing in their unlock phase): their turn is over with them, and no end of
            # turn is owed; the next seat starts its turn.
            self.combat = None
            self.turn_ended = True
            self.open = []
            self.closed |= set(LINEAR)
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
                      Message("recorder.finding.extensions-over-cap", "Extensions at this table now total "
                              "%(minutes)s minutes this round. %(cap)s",
                              minutes=self.clock.extended_min, cap=clockmod.CAP_SENTENCE))

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
            if self.time_over_seq is None:
                self.time_over_seq = e["seq"]
            seat = e.get("seat")
            said = Message("recorder.finding.plays-after-time", "%(who)s plays on after the end of the game: "
                           "time was called at event %(seq)s and the game ended %(end)s.",
                           who=self.who_said(seat), seq=self.time_call_seq, end=self._end_said()) if seat else \
                Message("recorder.finding.after-time", "time was called at event %(seq)s and the game ended "
                        "%(end)s.", seq=self.time_call_seq, end=self._end_said())
            self.flag("time-over", e["seq"], said, seat=seat)

    def _end_point(self) -> str:
        return self._end_said().render()

    def _end_said(self) -> Message:
        """Where the game ends after the time call, as a message's part."""
        if self.time_mode == "action":
            return Message("recorder.end-in-action", "with the minion action in progress (event %(seq)s)",
                           seq=self.time_action_seq)
        if self.time_mode == "now":
            return Message("recorder.end-at-once", "at once (minion phase, no action in progress)")
        if self.time_phase is not None:
            return Message("recorder.end-of-phase", "at the end of the %(phase)s phase", phase=PHASE_NAMES[PHASES[self.time_phase]])
        return Message("recorder.end-at-call", "at the time call")

    def outcome_events(self) -> list[dict[str, Any]]:
        out = list(self.outcomes)
        if self.time_call_seq is not None:
            # the time-out stands where the game ended: at the stored end (`game.end`) or at
            # the first play beyond the end point, whichever came first; until then, after
            # everything recorded — an oust recorded after the time call belongs to the game
            # when it comes from the last action (time called during the bleed that ousts)
            ends = [x for x in (self.time_over_seq, self.game_end_seq)
                    if x is not None and x > self.time_call_seq]
            at = min(ends) if ends else self.last_seq
            out = [o for o in out if o["seq"] <= at] + \
                [{"type": "time-out", "seq": at}] + [o for o in out if o["seq"] > at]
            out.sort(key=lambda x: x["seq"])
        return out
