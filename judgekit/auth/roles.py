"""Who may do what: the roles of a tournament and the actions each may take, as a table.

Roles are ordered: a head judge may do everything a judge may, an organizer everything a
head judge may. The public (nobody signed in) may only do the actions whose minimum role
is `ANYONE`. Pure data and functions: the web part (`judgekit.auth.views`) asks
`allows(role, action)` before a view runs.
"""
from __future__ import annotations

from dataclasses import dataclass

from judgekit.i18n import N_

ANYONE = "anyone"
JUDGE = "judge"
HEAD_JUDGE = "head_judge"
ORGANIZER = "organizer"

# Signed-in roles, lowest first (the order is the hierarchy).
ROLES = (JUDGE, HEAD_JUDGE, ORGANIZER)
LABELS = {ANYONE: N_("anyone"), JUDGE: N_("judge"), HEAD_JUDGE: N_("head judge"), ORGANIZER: N_("organizer")}


@dataclass(frozen=True)
class Action:
    name: str
    role: str           # the lowest role allowed (ANYONE, JUDGE, HEAD_JUDGE, ORGANIZER)
    description: str


_TABLE = [
    # anyone
    ("rules.read", ANYONE, N_("read the rules, search them, use the announcement trainer")),
    ("standings.public", ANYONE, N_("see the published (public) standings of a tournament")),
    ("tournament.list", ANYONE, N_("see the list of tournaments and sign in to one")),
    ("tournament.create", ANYONE, N_("create a tournament (the creator becomes its organizer)")),
    ("practice.record", ANYONE, N_("record a stand-alone practice game")),
    # judge
    ("tournament.view", JUDGE, N_("see the dashboard, rounds, tables, standings, the final")),
    ("events.record", JUDGE, N_("record events on the tournament's games")),
    ("results.enter", JUDGE, N_("enter the VP reported at a table")),
    ("penalties.issue", JUDGE, N_("issue a penalty (SA/DQ wait for the head judge)")),
    ("penalties.player", JUDGE, N_("see one player's penalty record in this event")),
    ("time.extend", JUDGE, N_("record a time extension at a table")),
    ("calls.handle", JUDGE, N_("see the judge calls and the floor view, claim and close calls")),
    # head judge
    ("penalties.list", HEAD_JUDGE, N_("see all penalties, repeat offenders, pending approvals")),
    ("penalties.approve", HEAD_JUDGE, N_("approve a Standings Adjustment, Disqualification or deviation")),
    ("penalties.amend", HEAD_JUDGE, N_("amend, lift or move (an SA to another game) a penalty record")),
    ("results.override", HEAD_JUDGE, N_("override a table's score with a written reason")),
    ("results.correct", HEAD_JUDGE, N_("correct a table's result after its round is closed, with a reason")),
    ("rounds.swap", HEAD_JUDGE, N_("swap two players' seats in an open round")),
    ("calls.assign", HEAD_JUDGE, N_("reassign judge calls, close another judge's call, see the notifications")),
    ("rounds.close", HEAD_JUDGE, N_("close a round")),
    ("final.run", HEAD_JUDGE, N_("draw tosses, start and seat the final")),
    ("export", HEAD_JUDGE, N_("export penalties, standings and seating; print the penalty report")),
    # organizer
    ("players.manage", ORGANIZER, N_("register, check in, drop and reinstate players")),
    ("rounds.start", ORGANIZER, N_("seat the next preliminary round")),
    ("codes.manage", ORGANIZER, N_("issue new sign-in codes (the old ones stop working)")),
    ("event.edit", ORGANIZER, N_("change the event's details (level, VEKN event id, judges) for the report")),
    # decklists (judgekit/decks)
    ("decks.view", JUDGE, N_("see the registered decklists, who has not registered, and their problems")),
    ("decks.correct", JUDGE, N_("correct a received decklist, with a reason")),
    ("decks.check", HEAD_JUDGE, N_("run the deck checks of a round and link a finding to a penalty")),
    ("decks.enter", ORGANIZER, N_("enter a player's decklist, set the decklist rules, publish the top lists")),
]

ACTIONS: dict[str, Action] = {name: Action(name, role, text) for name, role, text in _TABLE}


def rank(role: str | None) -> int:
    """0 for the public, then 1 (judge), 2 (head judge), 3 (organizer); -1 if unknown."""
    if role in (None, ANYONE):
        return 0
    return ROLES.index(role) + 1 if role in ROLES else -1


def minimum(action_or_role: str) -> str:
    """The lowest role for an action name, or the role itself when given a role."""
    if action_or_role in ACTIONS:
        return ACTIONS[action_or_role].role
    if action_or_role in ROLES or action_or_role == ANYONE:
        return action_or_role
    raise KeyError(f"unknown action or role {action_or_role!r}")


def allows(role: str | None, action_or_role: str) -> bool:
    """Whether someone with `role` (None: not signed in) may take the action."""
    r = rank(role)
    return r >= 0 and r >= rank(minimum(action_or_role))


def actions_of(role: str | None) -> list[Action]:
    """Every action `role` may take, in table order."""
    return [a for a in ACTIONS.values() if allows(role, a.name)]


def label(role: str | None) -> str:
    return LABELS.get(role or ANYONE, str(role))


def parse_role(text: str | None) -> str | None:
    """"Head judge", "head-judge", "HJ", "head_judge" -> "head_judge"; None if unknown."""
    key = "".join(ch for ch in (text or "").lower() if ch.isalnum())
    return {"judge": JUDGE, "j": JUDGE, "headjudge": HEAD_JUDGE, "hj": HEAD_JUDGE, "h": HEAD_JUDGE,
            "organizer": ORGANIZER, "organiser": ORGANIZER, "to": ORGANIZER, "o": ORGANIZER}.get(key)


def table_rows() -> list[dict]:
    """The table for documentation: action, lowest role, what it is."""
    return [{"action": a.name, "role": label(a.role), "description": a.description}
            for a in ACTIONS.values()]
