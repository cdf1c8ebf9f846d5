"""Tables that report their own result, where the hall comes in: a player who disagrees
with their table's proposal calls a judge (a call of reason "result" in the judges' queue,
`calls.open_call`), and a judge who accepts a proposal closes that call
(`calls.close`). The reports themselves are the tournament's
(`judgekit.tournament.store.self_report`).

The disagreement and the call are stored in one transaction; the call's client id is made
from the proposal (`report:<id>`), so a retried disagreement, or a second player's, finds
the same call instead of making another; a table that already waits for a judge keeps its
call. A call the hall refuses (`call_problem`) does not undo the disagreement.
Pure domain code: no Flask.
"""
from __future__ import annotations

from typing import Any

from judgekit.db import transaction
from judgekit.i18n import Said
from judgekit.live import calls
from judgekit.tournament.store import self_report


def dispute(db, tournament_id: Any, token: Any, report_id: Any, *, note: Any = None) -> dict:
    """A player disagrees with their table's proposal: stored, and a judge called. Returns
    the player's state with `duplicate` and `call` (the call's id, or None when the call
    could not be opened: `call_problem` then says why, and the disagreement stands)."""
    with transaction(db):   # the disagreement and its call are stored together
        out = self_report.dispute(db, tournament_id, token, report_id, note=note)
        where = out.pop("call_for")
        opened = calls.open_call(db, tournament_id, where["table"], reason="result",
                                 client_id=f"report:{where['report']}", origin=None)
    if isinstance(opened, calls.Refusal):
        return dict(out, call=None, call_problem=Said(opened.msg))   # worded where shown
    return dict(out, call=opened.call["id"], call_problem=None)


def accept(db, tournament_id: Any, number: Any, table_no: Any, report_id: Any, *, judge: str,
           may_replace_override: bool = False) -> dict:
    """A judge accepts the players' proposal (`self_report.accept`) and closes the table's
    open result call, if any (a call someone else has stays theirs to close)."""
    after = self_report.accept(db, tournament_id, number, table_no, report_id, by=judge,
                               may_replace_override=may_replace_override)
    closed = None
    for call in calls.open_calls(db, int(tournament_id)):
        if call["reason"] == "result" and call["table"] == after["number"] and \
                call["round"] == int(number) and call["claimed_by"] in (None, judge):
            done = calls.close(db, tournament_id, call["id"], judge=judge,
                               note=f"the players' proposal #{report_id} accepted")
            if isinstance(done, calls.Done):
                closed = call["id"]
    return dict(after, closed_call=closed)
