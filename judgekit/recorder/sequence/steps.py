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

from judgekit.i18n import N_, english
from judgekit.recorder.events import PHASES
from judgekit.recorder.sequence.common import PHASE_NAMES, RANK
from judgekit.recorder.words import Translate, say, window_words

GAME_OVER_LABEL = N_("Game over — score this table")
# the places the page fills in a step's label for any seat (`for_seat`)
WHO, NAME = "{who}", "{name}"


def next_steps(eng, _: Translate = english) -> list[dict[str, Any]]:
    """What can come next in the sequence: the page's big buttons, as partial events.

    A step whose event carries (or whose form asks) a seat also has `for_seat`, its label
    for any seat, with `{who}` ("Ann (seat 1)") and `{name}` ("Ann") to fill in: when the
    judge has tapped another seat, the page makes the step that seat's (seat 3, then "no
    block": seat 3 passes). Whether that seat may do it is for the checks to say once it
    is recorded. `seat` is the seat the step is for (None when it is for no one seat).
    When the game is over (`state()["game_over"]`) and its end is not recorded yet, the
    first step is "Game over — score this table" (a `game.end`). The labels are worded by
    the translator `_` (English by default; the store gives the reader's)."""
    steps: list[dict[str, Any]] = []

    def add(label, event, ask=None, kind="primary", for_seat=None, seat=None):
        step = {"label": label, "event": event, "ask": ask or [], "kind": kind,
                "seat": event.get("seat", seat)}
        if "seat" in event or "seat" in step["ask"]:
            step["for_seat"] = for_seat or _("%(label)s (%(name)s)", label=label, name=NAME)
        steps.append(step)
        return step

    def who(seat):
        return say(eng.who_said(seat), _)

    over = eng.game_over()
    if over is not None and not over["stored"]:
        add(_(GAME_OVER_LABEL), {"type": "game.end", "reason": over["reason"]})
        return steps
    if eng.finished:
        return steps
    if eng.time_mode == "phase" and not eng.turn_ended and eng.time_phase is not None:
        add(_("End of %(window)s: game over — score this table", window=window_words(PHASES[eng.time_phase], _)),
            {"type": "game.end", "reason": "time"}, kind="secondary")
    live = eng.active()
    if eng.turn_seat is None or eng.turn_ended:
        nxt = live[0] if eng.turn_seat is None else eng.prey(eng.turn_seat)
        if nxt:
            add(_("Start turn: %(who)s", who=who(nxt)), {"type": "turn.start", "seat": nxt},
                for_seat=_("Start turn: %(who)s", who=WHO))
        return steps
    actor = eng.turn_seat
    name = eng.names[actor - 1]
    a = eng.action
    if actor in eng.pending:
        card = eng.pending[actor][1]
        add(_("%(name)s: replace %(card)s", name=name, card=card),
            {"type": "card.replace", "seat": actor}, kind="secondary",
            for_seat=_("%(name)s: replace a card", name=NAME))
    if a is not None and not a.resolved:
        _action_steps(eng, a, add, who, _)
        return steps
    lock = eng.lock
    if lock is not None and lock["seat"] == actor:
        # locked, no action named: what the action is comes next; "any blocks?" said now is
        # recorded as it was said (and reported: action-not-announced)
        add(_("%(who)s: “any blocks?” with no action named", who=who(actor)), {"type": "action.pass", "seat": actor},
            kind="secondary")
    if eng.pos <= RANK["minion"]:
        add(_("%(name)s declares an action…", name=name), {"type": "action.declare", "seat": actor},
            ask=["action", "minion", "amount", "target_seat"], for_seat=_("%(name)s declares an action…", name=NAME))
    if RANK["minion"] <= eng.pos <= RANK["influence"]:   # the transfers move to the influence phase
        add(_("%(name)s transfers…", name=name), {"type": "transfer", "seat": actor}, ask=["amount"],
            kind="primary" if eng.pos == RANK["influence"] else "secondary",
            for_seat=_("%(name)s transfers…", name=NAME))
    if eng.pos >= RANK["influence"]:                      # the discard phase action
        add(_("%(name)s discards a card", name=name), {"type": "discard", "seat": actor},
            kind="secondary", for_seat=_("%(name)s discards a card", name=NAME))
    if eng.pos < len(PHASES) - 1:
        nxt = PHASES[eng.pos + 1]
        phase = say(PHASE_NAMES[nxt], _)
        add(_("Next phase: %(phase)s", phase=phase), {"type": "phase", "seat": actor, "phase": nxt}, kind="secondary",
            for_seat=_("%(name)s: next phase, %(phase)s", name=NAME, phase=phase))
    add(_("%(name)s: end of turn", name=name), {"type": "turn.end", "seat": actor},
        kind="primary" if eng.pos >= RANK["influence"] else "secondary",
        for_seat=_("%(name)s: end of turn", name=NAME))
    return steps


def _action_steps(eng, a, add, who, _: Translate) -> None:
    if not a.actor_passed and not a.polling:
        add(_("%(who)s: pass (“any blocks?”)", who=who(a.seat)), {"type": "action.pass", "seat": a.seat},
            for_seat=_("%(who)s: pass (“any blocks?”)", who=WHO))
        return
    if eng.combat is not None:
        _combat_steps(eng, a, add, who, _)
        return
    if a.attempting is not None:
        add(_("Blocked → combat"), {"type": "block.result", "blocked": True})
        add(_("Block fails"), {"type": "block.result", "blocked": False}, kind="secondary")
        return
    waiting = [s for s in a.eligible if s not in a.done] if not a.polling else []
    if waiting:
        b = waiting[0]
        add(_("%(who)s: no block", who=who(b)), {"type": "block.pass", "seat": b},
            for_seat=_("%(who)s: no block", who=WHO))
        add(_("%(name)s blocks with…", name=eng.names[b - 1]), {"type": "block.declare", "seat": b},
            ask=["minion"], kind="secondary", for_seat=_("%(name)s blocks with…", name=NAME))
        return
    if a.kind == "political":
        if a.terms_required and not a.terms_confirmed and not a.ballot:
            add(_("Terms confirmed"), {"type": "referendum.terms", "seat": a.seat}, ask=["terms"],
                for_seat=_("%(name)s: terms confirmed", name=NAME))
        voter = eng.next_voter()
        if voter is not None:
            add(_("Vote: %(who)s…", who=who(voter)), {"type": "vote", "seat": voter},
                ask=["votes", "side", "vampire"], for_seat=_("Vote: %(who)s…", who=WHO))
        yes, no = a.vote_totals()
        counted = {"votes_for": yes, "votes_against": no} if a.votes else {}
        passes = _("Referendum passes (%(yes)s for, %(no)s against)", yes=yes, no=no) if a.votes \
            else _("Referendum passes")
        fails = _("Referendum fails (%(yes)s for, %(no)s against)", yes=yes, no=no) if a.votes \
            else _("Referendum fails")
        add(passes, {"type": "referendum.result", "passed": True, **counted},
            kind="primary" if voter is None else "secondary")
        add(fails, {"type": "referendum.result", "passed": False, **counted},
            kind="secondary")
        return
    add(_("Action succeeds"), {"type": "action.result", "outcome": "success"})
    add(_("Action fails"), {"type": "action.result", "outcome": "failed"}, kind="secondary")


def _combat_steps(eng, a, add, who, _: Translate) -> None:
    """Strikes alternate: the acting minion first, then the blocker; then presses, the
    acting player first."""
    c = eng.combat
    acting, blocker = eng.combatants()
    order = [s for s in (acting, blocker) if s is not None]
    striker = next((s for s in order if s not in c.struck), None)
    if striker is not None:
        add(_("Strike: %(who)s…", who=who(striker)), {"type": "strike", "seat": striker},
            ask=["strike", "damage"], for_seat=_("Strike: %(who)s…", who=WHO))
        answer = next((s for s in order if s != c.continued_by), None) if c.continued_by else None
        if answer is not None:   # the opponent's answer to a press to continue
            add(_("%(who)s: press to end (cancels the press)", who=who(answer)),
                {"type": "press", "seat": answer, "press": "end"}, kind="secondary",
                for_seat=_("%(who)s: press to end (cancels the press)", who=WHO))
    else:
        presser = next((s for s in order if s not in c.pressed), None)
        if presser is not None:
            add(_("%(who)s: press to continue", who=who(presser)), {"type": "press", "seat": presser,
                                                                  "press": "continue"},
                kind="secondary", for_seat=_("%(who)s: press to continue", who=WHO))
            add(_("%(who)s: no press", who=who(presser)), {"type": "press", "seat": presser, "press": "none"},
                kind="secondary", for_seat=_("%(who)s: no press", who=WHO))
    add(_("End of combat"), {"type": "combat.step", "step": "end"},
        kind="primary" if striker is None else "secondary")
