"""The state the page draws: `state()` — the seats and what is on the table, the turn, the
action in progress, combat, the clock, whether the game is over — and, in `steps.py`, the
next steps (the page's buttons). docs/recorder.md lists every field."""
from __future__ import annotations

from typing import Any

from judgekit.i18n import N_, english
from judgekit.recorder import words
from judgekit.recorder.events import COMBAT_STEPS, PHASES
from judgekit.recorder.sequence.steps import next_steps


class StateMixin:
    """The state the page draws (`state()`)."""

    def state(self, now: float | None = None, _: words.Translate = english) -> dict[str, Any]:
        """The state; its words for people (the status line, the game's end, the action and
        the answers to it, the seats out, the combat step, the next steps' buttons) by the
        translator `_` (the store passes the reader's)."""
        a = self.action
        seats = []
        for s in range(1, self.n + 1):
            minions = self.seat_minions(s) if s not in self.out else []
            seats.append({"seat": s, "name": self.names[s - 1], "out": self.out.get(s),
                          "out_words": _(words.OUT_WORDS[self.out[s]]) if self.out.get(s) in words.OUT_WORDS
                          else None,
                          "prey": self.prey(s) if s not in self.out else None,
                          "predator": self.predator(s) if s not in self.out else None,
                          "acting": s == self.turn_seat and not self.turn_ended,
                          "board": list(self.board.get(s, [])),
                          "board_known": s in self.board_known,
                          "minions": minions,
                          "votes": sum(m["votes"] for m in minions) if minions else None,
                          "cards": self.seat_cards(s),
                          "pending_replace": self.pending[s][1] if s in self.pending else None})
        time = {"called": self.time_mode is not None, "call_seq": self.time_call_seq,
                "ends": words.say(self._end_said(), _) if self.time_mode else None, "over": self.time_over}
        if self.time_mode == "action" and a is not None and a.resolved and a.seq == self.time_action_seq:
            time["over"] = True
        combat = None
        if self.combat is not None:
            acting, blocker = self.combatants()
            combat = {"step": COMBAT_STEPS[self.combat.pos], "round": self.combat.round,
                      "step_words": words.window_words(COMBAT_STEPS[self.combat.pos], _),
                      "acting": acting, "blocker": blocker,
                      "struck": list(self.combat.struck), "pressed": list(self.combat.pressed),
                      "continued_by": self.combat.continued_by}
        return {
            "seats": seats,
            "turn": {"seat": self.turn_seat, "number": self.turn_no,
                     "phase": PHASES[self.pos] if self.turn_seat else None,
                     "ended": self.turn_ended, "after_action": self.after_action},
            "action": dict(a.to_dict(self.names, _), redirect_by=self.redirect_seat())
            if a is not None and not a.resolved else None,
            "last_action": a.to_dict(self.names, _) if a is not None and a.resolved else None,
            "combat": combat,
            # a minion locked with no action named yet (`minion.lock`): {"seq", "seat", "minion"}
            "lock": dict(self.lock) if self.lock is not None else None,
            "open_windows": [w for w, _seat in self.open],
            "talk_stop": bool(self.talk_stop),
            "edge": self.edge,
            "time": time,
            "clock": self.clock.to_dict(now),
            "finished": self.finished,
            "game_over": self.game_over(_),
            "outcome": self.outcome_events(),
            "events": self.event_count,
            "last_seq": self.last_seq,
            "status": self.status(_),
            "next": next_steps(self, _),
        }

    def game_over(self, _: words.Translate = english) -> dict[str, Any] | None:
        """Whether the game has ended, and why: None while it goes on; else `reason` —
        "draw" (intentional draw), "last-player" (one player left after ousts or
        withdrawals), "concession" (the others conceded), "time" (the time call's end
        point was reached: tournament rules 3.1.1), "ended" (a `game.end` recorded for
        another reason) —, `words` for the page, and `stored` (a `game.end` is recorded, or
        the outcome already finishes the game)."""
        stored = self.game_end_seq is not None
        live = self.active()
        if any(o["type"] == "draw" for o in self.outcomes):
            return {"reason": "draw", "words": _("Game over — intentional draw"), "stored": True}
        if len(live) <= 1 and self.outcomes:
            last = [o for o in self.outcomes if o.get("seat") is not None]
            left = words.say(self.who_said(live[0]), _) if live else _("no one")
            if last and last[-1]["type"] == "concede":
                return {"reason": "concession", "stored": True,
                        "words": _("Game over — the other players conceded: %(who)s is left", who=left)}
            return {"reason": "last-player", "stored": True,
                    "words": _("Game over — one player left: %(who)s", who=left)}
        if self.time_mode is not None:
            a = self.action
            reached = self.time_over or self.time_mode == "now" or (
                self.time_mode == "action" and (a is None or a.resolved)) or (
                self.time_mode == "phase" and self.turn_ended)
            if reached or stored:
                return {"reason": "time", "stored": stored,
                        "words": _("Game over — time: the game ended %(end)s", end=words.say(self._end_said(), _))}
        if stored:
            return {"reason": "ended", "stored": True, "words": _("Game over")}
        return None

    def status(self, _: words.Translate = english) -> str:
        """Where the game stands, in one line for the page: whose turn, the phase, the
        action in progress and who is to answer (by the translator `_`: the store words it
        in the reader's language)."""
        over = self.game_over(_)
        if over is not None:
            return over["words"]
        line = self._status_line(_)
        if self.time_mode is not None:
            line = _("%(status)s · time called: the game ends %(end)s", status=line, end=words.say(self._end_said(), _))
        return line

    def _status_line(self, _: words.Translate) -> str:
        if self.turn_seat is None:
            return _("Not started")
        who = words.seat_name(self.turn_seat, self.names, _)
        if self.turn_ended:
            nxt = self.prey(self.turn_seat)
            gone = _(words.LEFT_WORDS.get(self.out.get(self.turn_seat) or "", N_("ended their turn")))
            if nxt:
                return _("%(who)s %(gone)s; next: %(next)s", who=who, gone=gone,
                         next=words.seat_name(nxt, self.names, _))
            return _("%(who)s %(gone)s", who=who, gone=gone)
        line = _("Turn %(n)s, %(who)s: %(window)s", n=self.turn_no, who=who,
                 window=words.window_words(PHASES[self.pos], _))
        a = self.action
        if a is None or a.resolved:
            if self.lock is not None and self.lock["seat"] == self.turn_seat:
                if self.lock["minion"]:
                    return _("%(status)s — %(minion)s locked, no action named yet", status=line,
                             minion=self.lock["minion"])
                return _("%(status)s — a minion locked, no action named yet", status=line)
            return line
        line = _("%(status)s — %(action)s", status=line, action=a.words(self.names, _))
        if not a.actor_passed and not a.polling:
            return _("%(status)s; %(who)s to pass (“any blocks?”)", status=line, who=who)
        if self.combat is not None:
            return _("%(status)s; combat, %(step)s", status=line,
                     step=words.window_words(COMBAT_STEPS[self.combat.pos], _))
        if a.attempting is not None:
            return _("%(status)s; %(who)s tries to block", status=line,
                     who=words.seat_name(a.attempting, self.names, _))
        waiting = [s for s in a.eligible if s not in a.done] if not a.polling else []
        if waiting:
            return _("%(status)s; %(who)s to block or pass", status=line,
                     who=words.seat_name(waiting[0], self.names, _))
        if a.kind == "political":
            yes, no = a.vote_totals()
            voter = self.next_voter()
            if a.votes and voter:
                return _("%(status)s; referendum (%(yes)s for, %(no)s against), %(who)s to vote", status=line,
                         yes=yes, no=no, who=words.seat_name(voter, self.names, _))
            if a.votes:
                return _("%(status)s; referendum (%(yes)s for, %(no)s against)", status=line, yes=yes, no=no)
            if voter:
                return _("%(status)s; referendum, %(who)s to vote", status=line,
                         who=words.seat_name(voter, self.names, _))
            return _("%(status)s; referendum", status=line)
        return _("%(status)s; no block: the action succeeds unless an effect stops it", status=line)
