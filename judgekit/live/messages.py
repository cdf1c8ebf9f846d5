"""The messages of the live stream and who may read what of them (pure: no Flask, no db).

Each stored message has a `kind` and a `data` object. Readers come in three audiences,
lowest first: `public` (nobody signed in, and the room display), `judge`, `head` (the head
judge and the organizer). `VISIBLE[kind][audience]` lists the fields an audience reads on
top of the lower audiences' fields; a kind with no entry for an audience (or any below)
is not sent to it at all. So a penalty never goes down a public or a judge's stream, and
a judge call's note and reason never go down the public one. `project` is the one place
that decides; the stream and the state endpoints both go through it.
"""
from __future__ import annotations

from typing import Any

from judgekit import outbox

PUBLIC, JUDGE, HEAD = "public", "judge", "head"
AUDIENCES = (PUBLIC, JUDGE, HEAD)

_TABLE = ("round", "table")
_CLOCK = ("round", "table", "ends_at", "extended_min", "paused", "called")

VISIBLE: dict[str, dict[str, tuple[str, ...]]] = {
    # a round is seated and its clock starts / every table is done and it is closed
    "round.started": {PUBLIC: ("round", "kind", "started_at", "limit_min", "ends_at", "tables")},
    "round.closed": {PUBLIC: ("round", "kind")},
    # a result was entered, overridden or corrected: the table's state after it
    "table.result": {PUBLIC: _TABLE + ("state",), JUDGE: ("source", "by", "result")},
    # the recorder says the table's game is over (or, after an undo, no longer over)
    "table.finished": {PUBLIC: _TABLE + ("finished",), JUDGE: ("game",)},
    # a table's clock changed: started, paused, resumed, time called, an extension undone
    "clock.changed": {PUBLIC: _CLOCK, JUDGE: ("game",)},
    "extension.recorded": {PUBLIC: _CLOCK + ("minutes",),
                           JUDGE: ("game", "reason", "judge", "judge_minutes")},
    # judge calls: the public sees that a table waits for a judge, not why nor who
    "call.opened": {PUBLIC: ("call",) + _TABLE + ("opened_at",), JUDGE: ("reason",)},
    "call.claimed": {PUBLIC: ("call",) + _TABLE, JUDGE: ("by", "claimed_at")},
    "call.reassigned": {JUDGE: ("call",) + _TABLE + ("by", "from", "claimed_at")},
    "call.closed": {PUBLIC: ("call",) + _TABLE, JUDGE: ("by", "closed_at", "minutes", "note", "bogus")},
    # penalties: the head judge's only
    "penalty.pending": {HEAD: ("record", "player", "player_name", "penalty", "infraction",
                               "judge", "round", "table")},
    "penalty.approved": {HEAD: ("record", "refers_to", "player", "player_name", "penalty",
                                "judge")},
    "penalty.recorded": {HEAD: ("record", "kind", "refers_to", "player", "player_name",
                                "penalty", "judge")},
}
KINDS = outbox.KINDS   # what can change; VISIBLE has an entry for each (tests/test_live_domain.py)

# Not stored: said by the stream itself (docs/live.md).
CONTROL = ("hello", "ping", "reset")


def rank(audience: str) -> int:
    return AUDIENCES.index(audience)


def audience_of(role: str | None) -> str:
    """The audience of a signed-in role (None: the public)."""
    if role in ("head_judge", "organizer"):
        return HEAD
    if role == "judge":
        return JUDGE
    return PUBLIC


def lower(audience: str, cap: str | None) -> str:
    """`audience`, or `cap` when that is lower: a page may ask for less, never for more
    (the room display of a signed-in head judge's laptop reads as the public)."""
    if cap in AUDIENCES and rank(cap) < rank(audience):
        return cap
    return audience


def fields(kind: str, audience: str) -> tuple[str, ...] | None:
    """The fields of `kind` that `audience` reads, None when it does not read the kind."""
    table = VISIBLE.get(kind)
    if table is None:
        return None
    out: list[str] = []
    seen = False
    for level in AUDIENCES[:rank(audience) + 1]:
        if level in table:
            seen = True
            out.extend(table[level])
    return tuple(out) if seen else None


def project(kind: str, data: dict[str, Any], audience: str) -> dict[str, Any] | None:
    """What `audience` reads of one message (None: nothing, it is not sent)."""
    names = fields(kind, audience)
    if names is None:
        return None
    return {k: data[k] for k in names if k in data}
