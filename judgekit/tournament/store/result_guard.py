"""No result silently undoes another: the checks a table's result write makes inside its
transaction, before its row is inserted.

- **Client id**: a result may carry a `client_id` (like the recorder's events). The same
  id again is a retry after a lost reply: nothing new is stored and the answer is the
  table as it is (`duplicate`); the same id with other numbers is refused (409).
- **Based on**: the id of the result row the client last saw for the table (`result_id`
  in every table answer; None when it saw none). When another row has been stored since,
  the write is refused with 409 and the stored row (`stored`), unless the numbers are the
  same (then nothing new is stored). To replace the stored row, send again based on it.
- **Overrides stand**: a judge's result never replaces the head judge's override; only
  someone who may override (head judge, organizer) replaces it, based on it.

Store callers that pass no `based_on` (`NOT_GIVEN`: the demo, scripts) are not checked for
staleness; the web and API always say what they saw. Pure domain code: no Flask.
"""
from __future__ import annotations

from typing import Any, Callable

from judgekit import timetext
from judgekit.errors import parse_int
from judgekit.tournament.store.base import T_RESULTS, TournamentError
from judgekit.i18n import Message

NOT_GIVEN: Any = type("NotGiven", (), {"__repr__": lambda self: "NOT_GIVEN"})()
MAX_CLIENT_ID = 100


def clean_client_id(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > MAX_CLIENT_ID or not value.isprintable():
        raise TournamentError(400, Message("tournament.client-id-must-short-text", "client_id must be a short text (at most %(MAX_CLIENT_ID)s characters)", MAX_CLIENT_ID=MAX_CLIENT_ID),
                              "client_id")
    return value


def clean_based_on(value: Any) -> Any:
    """NOT_GIVEN stays so; None, "" and 0 mean "no result"; else a result id, or a 400."""
    if value is NOT_GIVEN:
        return NOT_GIVEN
    if value is None or value == "" or value == 0 or value == "0":
        return None
    n = parse_int(value)
    if n is None:
        raise TournamentError(400, Message("tournament.based-on-must-id-table", "based_on must be the id of the table's result the form showed (result_id), or null when it showed none"), "based_on")
    return n


def public(row: dict | None) -> dict | None:
    """A result row as an answer shows it."""
    if row is None:
        return None
    return {"id": row["id"], "kind": row["kind"], "vps": row["vps"], "withdrawn": row["withdrawn"],
            "by": row.get("by"), "created_at": row.get("created_at"), "reason": row.get("reason"),
            "note": row.get("note")}


Reader = Callable[[dict], dict]  # a stored row with `vps`, `withdrawn` read back (tables.result_row)


def latest_row(db, table_id: int, read: Reader) -> dict | None:
    rows = list(db[T_RESULTS].rows_where("table_id = ?", [table_id], order_by="id desc", limit=1))
    return read(rows[0]) if rows else None


def check(db, table_id: int, *, kind: str, vps: list[float], withdrawn: list[int],
          client_id: str | None, based_on: Any, may_replace_override: bool, read: Reader) -> dict | None:
    """Inside the write's transaction. None: store the new row. A row: this request is
    already stored (a retry, or the same numbers as the stored result): store nothing,
    answer with the table. Otherwise a 409 saying what is stored now. `read` reads a
    stored row back (a damaged row reads with `vps` None)."""
    if client_id is not None:
        rows = list(db[T_RESULTS].rows_where("table_id = ? and client_id = ?", [table_id, client_id], limit=1))
        if rows:
            earlier = read(rows[0])
            if (earlier["kind"], earlier["vps"], earlier["withdrawn"]) == (kind, vps, withdrawn):
                return earlier
            raise TournamentError(409, Message("tournament.client-id-was-already-used", "client_id %(client_id)s was already used for another result of this table", client_id=repr(client_id)), "client_id", stored=public(earlier))
    latest = latest_row(db, table_id, read)
    if latest is not None and latest["kind"] == "override" and kind == "entered" and not may_replace_override:
        raise TournamentError(
            409, Message("tournament.head-judge-overrode-this-table", "The head judge overrode this table (%(value)s: %(value2)s). The override stands until the head judge replaces it.", value=_who_when(latest), value2=latest.get('reason')),
            "based_on", stored=public(latest), result_id=latest["id"], overridden=True)
    if based_on is NOT_GIVEN:
        return None
    current = latest["id"] if latest is not None else None
    if based_on == current:
        return None
    if latest is not None and latest["kind"] == kind and latest["vps"] == vps and latest["withdrawn"] == withdrawn:
        return latest  # the same numbers, entered twice: one row is enough
    if latest is None:  # based on a row that is not this table's
        raise TournamentError(409, Message("tournament.this-table-has-no-result", "this table has no result yet: reload it and enter the numbers again"),
                              "based_on", stored=None, result_id=None)
    seen = "while this form was open" if based_on is None else "since the result this form showed"
    raise TournamentError(
        409, Message("tournament.another-result-was-stored-for", "Another result was stored for this table %(seen)s (%(value)s: %(value2)s). Nothing was changed: check it, and send yours again to replace it.", seen=seen, value=_who_when(latest), value2=' · '.join(_vp(v) for v in latest['vps']) if latest['vps'] else 'unreadable numbers'),
        "based_on", stored=public(latest), result_id=latest["id"])


def _who_when(row: dict) -> str:
    who = row.get("by") or "someone"
    return f"{_KINDS.get(row['kind'], row['kind'])} by {who}, {timetext.short(row.get('created_at')) or '?'}"


_KINDS = {"entered": "entered", "override": "overridden", "correction": "corrected", "reported": "reported",
          "recorded": "recorded"}


def _vp(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else f"{v:g}"
