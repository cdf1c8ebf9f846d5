"""The state the page draws: `state()` (seats, turn, action, combat, clock, ...) and
`next_steps` (the buttons: what can come next)."""
from __future__ import annotations

from typing import Any

from judgekit.recorder.events import COMBAT_STEPS, PHASES
from judgekit.recorder.sequence.common import RANK


class StateMixin:
    """The state the page draws (`state()`)."""

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


def next_steps(eng) -> list[dict[str, Any]]:
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
