"""What can come next in the sequence: the page's big buttons (`next_steps`).

Each step is a partial event with a label in a judge's words. `seat` is the seat the step
is for, where there is one: the acting player for their pass, the next seat to answer the
block opportunity (the target; the prey, then the predator), the combatant whose strike or
press comes next (the acting minion strikes first; they alternate), the next seat to vote
(round the table from the acting seat). The page opens a form for that seat and keeps it
for the next entry where that is what a table does.
"""
from __future__ import annotations

from typing import Any

from judgekit.recorder.events import PHASES
from judgekit.recorder.sequence.common import RANK
from judgekit.recorder.words import window_words

GAME_OVER_LABEL = "Game over — score this table"


def next_steps(eng) -> list[dict[str, Any]]:
    """What can come next in the sequence: the page's big buttons, as partial events.

    A step whose event carries (or whose form asks) a seat also has `for_seat`, its label
    for any seat, with `{who}` ("Ann (seat 1)") and `{name}` ("Ann") to fill in: when the
    judge has tapped another seat, the page makes the step that seat's (seat 3, then "no
    block": seat 3 passes). Whether that seat may do it is for the checks to say once it
    is recorded. `seat` is the seat the step is for (None when it is for no one seat).
    When the game is over (`state()["game_over"]`) and its end is not recorded yet, the
    first step is "Game over — score this table" (a `game.end`)."""
    steps: list[dict[str, Any]] = []

    def add(label, event, ask=None, kind="primary", for_seat=None, seat=None):
        step = {"label": label, "event": event, "ask": ask or [], "kind": kind,
                "seat": event.get("seat", seat)}
        if "seat" in event or "seat" in step["ask"]:
            step["for_seat"] = for_seat or label + " ({name})"
        steps.append(step)
        return step

    over = eng.game_over()
    if over is not None and not over["stored"]:
        add(GAME_OVER_LABEL, {"type": "game.end", "reason": over["reason"]})
        return steps
    if eng.finished:
        return steps
    if eng.time_mode == "phase" and not eng.turn_ended and eng.time_phase is not None:
        add(f"End of {window_words(PHASES[eng.time_phase])}: game over — score this table",
            {"type": "game.end", "reason": "time"}, kind="secondary")
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
        _action_steps(eng, a, add)
        return steps
    lock = eng.lock
    if lock is not None and lock["seat"] == actor:
        # locked, no action named: what the action is comes next; "any blocks?" said now is
        # recorded as it was said (and reported: action-not-announced)
        add(f"{eng.who(actor)}: “any blocks?” with no action named", {"type": "action.pass", "seat": actor},
            kind="secondary")
    if eng.pos <= RANK["minion"]:
        add(f"{eng.names[actor - 1]} declares an action…", {"type": "action.declare", "seat": actor},
            ask=["action", "minion", "amount", "target_seat"], for_seat="{name} declares an action…")
    if RANK["minion"] <= eng.pos <= RANK["influence"]:   # the transfers move to the influence phase
        add(f"{eng.names[actor - 1]} transfers…", {"type": "transfer", "seat": actor}, ask=["amount"],
            kind="primary" if eng.pos == RANK["influence"] else "secondary", for_seat="{name} transfers…")
    if eng.pos >= RANK["influence"]:                      # the discard phase action
        add(f"{eng.names[actor - 1]} discards a card", {"type": "discard", "seat": actor},
            kind="secondary", for_seat="{name} discards a card")
    if eng.pos < len(PHASES) - 1:
        nxt = PHASES[eng.pos + 1]
        add(f"Next phase: {nxt}", {"type": "phase", "seat": actor, "phase": nxt}, kind="secondary",
            for_seat="{name}: next phase, " + nxt)
    add(f"{eng.names[actor - 1]}: end of turn", {"type": "turn.end", "seat": actor},
        kind="primary" if eng.pos >= RANK["influence"] else "secondary", for_seat="{name}: end of turn")
    return steps


def _action_steps(eng, a, add) -> None:
    if not a.actor_passed and not a.polling:
        add(f"{eng.who(a.seat)}: pass (“any blocks?”)", {"type": "action.pass", "seat": a.seat},
            for_seat="{who}: pass (“any blocks?”)")
        return
    if eng.combat is not None:
        _combat_steps(eng, a, add)
        return
    if a.attempting is not None:
        add("Blocked → combat", {"type": "block.result", "blocked": True})
        add("Block fails", {"type": "block.result", "blocked": False}, kind="secondary")
        return
    waiting = [s for s in a.eligible if s not in a.done] if not a.polling else []
    if waiting:
        b = waiting[0]
        add(f"{eng.who(b)}: no block", {"type": "block.pass", "seat": b}, for_seat="{who}: no block")
        add(f"{eng.names[b - 1]} blocks with…", {"type": "block.declare", "seat": b},
            ask=["minion"], kind="secondary", for_seat="{name} blocks with…")
        return
    if a.kind == "political":
        if a.terms_required and not a.terms_confirmed and not a.ballot:
            add("Terms confirmed", {"type": "referendum.terms", "seat": a.seat}, ask=["terms"],
                for_seat="{name}: terms confirmed")
        voter = eng.next_voter()
        if voter is not None:
            add(f"Vote: {eng.who(voter)}…", {"type": "vote", "seat": voter},
                ask=["votes", "side", "vampire"], for_seat="Vote: {who}…")
        yes, no = a.vote_totals()
        tally = f" ({yes} for, {no} against)" if a.votes else ""
        counted = {"votes_for": yes, "votes_against": no} if a.votes else {}
        add("Referendum passes" + tally, {"type": "referendum.result", "passed": True, **counted},
            kind="primary" if voter is None else "secondary")
        add("Referendum fails" + tally, {"type": "referendum.result", "passed": False, **counted},
            kind="secondary")
        return
    add("Action succeeds", {"type": "action.result", "outcome": "success"})
    add("Action fails", {"type": "action.result", "outcome": "failed"}, kind="secondary")


def _combat_steps(eng, a, add) -> None:
    """Strikes alternate: the acting minion first, then the blocker; then presses, the
    acting player first."""
    c = eng.combat
    acting, blocker = eng.combatants()
    order = [s for s in (acting, blocker) if s is not None]
    striker = next((s for s in order if s not in c.struck), None)
    if striker is not None:
        add(f"Strike: {eng.who(striker)}…", {"type": "strike", "seat": striker},
            ask=["strike", "damage"], for_seat="Strike: {who}…")
        answer = next((s for s in order if s != c.continued_by), None) if c.continued_by else None
        if answer is not None:   # the opponent's answer to a press to continue
            add(f"{eng.who(answer)}: press to end (cancels the press)",
                {"type": "press", "seat": answer, "press": "end"}, kind="secondary",
                for_seat="{who}: press to end (cancels the press)")
    else:
        presser = next((s for s in order if s not in c.pressed), None)
        if presser is not None:
            add(f"{eng.who(presser)}: press to continue", {"type": "press", "seat": presser,
                                                        "press": "continue"},
                kind="secondary", for_seat="{who}: press to continue")
            add(f"{eng.who(presser)}: no press", {"type": "press", "seat": presser, "press": "none"},
                kind="secondary", for_seat="{who}: no press")
    add("End of combat", {"type": "combat.step", "step": "end"},
        kind="primary" if striker is None else "secondary")
