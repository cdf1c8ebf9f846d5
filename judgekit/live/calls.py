"""Judge calls: a player at a table calls a judge from the table's link; judges claim and
close calls; the head judge reassigns them.

Append-only like every record here: a call is one row of `judge_calls` (the table, the
round, the reason, when), and what happens to it is rows of `judge_call_steps` (`claim`,
`reassign`, `close`, each with the judge, the time and, for a close, the note). A call's
state is a replay of its steps. Each write checks the call's state and appends its step in
one write transaction (BEGIN IMMEDIATE), so two judges claiming at once cannot both win:
the second reads the first one's claim and is told who has it.

Bad input and refused requests return a `Refusal` (status, message, field) — nothing is
written then; nothing raises for bad input. Every stored change is published to the hall
(`judgekit.live.journal`) in the same transaction.

Pure domain code: no Flask.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from dataclasses import field as dc_field
from datetime import datetime, timezone
from typing import Any


from judgekit.db import transaction
from judgekit.errors import parse_int
from judgekit.inputs import visible_text
from judgekit import outbox
from judgekit.timetext import to_epoch
from judgekit.tournament import store as tstore
from judgekit.i18n import N_, Message, Said, as_message

T_CALLS = "judge_calls"
T_STEPS = "judge_call_steps"

# What a player may say the call is about (optional); the labels are the pages'.
REASONS = {"ruling": N_("Rules question"), "time": N_("Time"), "deck": N_("Deck problem"),
           "result": N_("Result disagreement"), "other": N_("Other")}   # catalog ids: worded where shown
MAX_NOTE = 500
MAX_NAME = 80
# Flood limits, per device (its address), within WINDOW_S: calls from one device to one
# table, and from one device in all. Counted per device, so one phone's bogus calls never
# lock the other phones of its table out; a signed-in judge's call is never limited.
WINDOW_S = 15 * 60
PER_TABLE = 4
PER_ORIGIN = 8


@dataclass
class Refusal:
    """Why a call or a step was not stored: an HTTP-like status, a message (given as a
    `Message`, kept in `msg` for the web layer to word for the reader; `message` is its
    English text), the field."""
    status: int
    message: str | Message
    field: str | None = None
    extra: dict = dc_field(default_factory=dict)

    def __post_init__(self):
        self.msg = as_message(self.message)
        self.message = str(self.msg)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"error": self.message, "status": self.status}
        if self.field:
            out["field"] = self.field
        out.update(self.extra)
        return out


@dataclass
class Done:
    call: dict           # the call's state after the write
    duplicate: bool = False  # nothing new was stored (a retried request, a table already waiting)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _ago(iso: str, seconds: float) -> str:
    at = to_epoch(iso) or time.time()
    return datetime.fromtimestamp(at - seconds, timezone.utc).isoformat(timespec="milliseconds")


# --- reading ---------------------------------------------------------------------------------

def _replay(row: dict, steps: list[dict]) -> dict:
    """A call's state from its row and its steps, oldest first."""
    call: dict[str, Any] = {
        "id": row["id"], "tournament": row["tournament_id"], "round": row["round"], "table": row["table_no"],
        "reason": row["reason"], "reason_label": Said(Message(REASONS.get(row["reason"] or "", N_("No reason given")))),
        "opened_at": row["opened_at"], "opened": to_epoch(row["opened_at"]),
        "origin": row.get("origin"), "bogus": False,
        "status": "open", "claimed_by": None, "claimed_at": None, "claimed": None,
        "closed_by": None, "closed_at": None, "closed": None, "note": None, "minutes": None,
        "steps": [],
    }
    for s in steps:
        call["steps"].append({"kind": s["kind"], "judge": s["judge"], "by": s["by"], "time": s["time"]})
        if s["kind"] in ("claim", "reassign"):
            call["status"] = "claimed"
            call["claimed_by"] = s["judge"]
            if s["kind"] == "claim" or call["claimed_at"] is None:
                call["claimed_at"] = s["time"]
        elif s["kind"] == "close":
            call["status"] = "closed"
            call["closed_by"] = s["judge"]
            call["closed_at"] = s["time"]
            call["note"] = s["note"]
            call["bogus"] = bool(s.get("bogus"))
    call["claimed"] = to_epoch(call["claimed_at"])
    call["closed"] = to_epoch(call["closed_at"])
    if call["claimed"] is not None and call["closed"] is not None:
        # the time a judge spent at the table: what the extension form's "judge time" takes
        call["minutes"] = round(max(0.0, call["closed"] - call["claimed"]) / 60, 1)
    return call


def _steps_of(db, ids: list[int]) -> dict[int, list[dict]]:
    out: dict[int, list[dict]] = {i: [] for i in ids}
    if not ids:
        return out
    for chunk in range(0, len(ids), 500):
        part = ids[chunk:chunk + 500]
        marks = ",".join("?" * len(part))
        for s in db.query(f"select * from {T_STEPS} where call_id in ({marks}) order by id", part):
            out[s["call_id"]].append(s)
    return out


def calls(db, tournament_id: int, *, status: str | None = None) -> list[dict]:
    """The event's calls, oldest first (`status`: "open" for the calls not closed yet)."""
    rows = list(db[T_CALLS].rows_where("tournament_id = ?", [tournament_id], order_by="id"))
    steps = _steps_of(db, [r["id"] for r in rows])
    out = [_replay(r, steps[r["id"]]) for r in rows]
    if status == "open":
        out = [c for c in out if c["status"] != "closed"]
    return out


def open_calls(db, tournament_id: int) -> list[dict]:
    """The calls not closed yet, oldest first: the judges' queue."""
    rows = list(db.query(
        f"select c.* from {T_CALLS} c where c.tournament_id = ? and not exists "
        f"(select 1 from {T_STEPS} s where s.call_id = c.id and s.kind = 'close') order by c.id",
        [tournament_id]))
    steps = _steps_of(db, [r["id"] for r in rows])
    return [_replay(r, steps[r["id"]]) for r in rows]


def get_call(db, tournament_id: int, call_id: Any) -> dict | None:
    cid = parse_int(call_id)
    if cid is None:
        return None
    rows = list(db[T_CALLS].rows_where("id = ? and tournament_id = ?", [cid, tournament_id], limit=1))
    if not rows:
        return None
    return _replay(rows[0], _steps_of(db, [cid])[cid])


# --- the current round's tables ----------------------------------------------------------------

def current_round(db, tournament_id: int) -> dict | None:
    """The round being played (open), prelim or final; None between rounds."""
    found = [r for r in tstore.rounds(db, tournament_id) if r["status"] == "open"]
    return found[-1] if found else None


def table_in_play(db, tournament_id: int, table_no: Any) -> tuple[dict, dict] | Refusal:
    """(round, table state) of table `table_no` in the round being played, or why a call
    cannot be made for it."""
    n = parse_int(table_no, 1, 10_000)
    if n is None:
        return Refusal(404, Message("live.there-no-table", "There is no table %(value)s.", value=repr(str(table_no)[:20])), "table")
    r = current_round(db, tournament_id)
    if r is None:
        return Refusal(409, Message("live.no-round-being-played-right", "No round is being played right now: find a judge at the front."), "table")
    try:
        detail = tstore.table_detail(db, tournament_id, r["number"], n)
    except tstore.TournamentError:
        what = "the final" if r["kind"] == "final" else f"round {r['number']}"
        return Refusal(404, Message("live.there-no-table-in-check", "There is no table %(n)s in %(what)s: check the number on your table.", n=n, what=what), "table")
    return r, detail


# --- writing ------------------------------------------------------------------------------------

def _clean_text(value: Any, name: str, limit: int) -> str | None | Refusal:
    if value is None:
        return None
    if not isinstance(value, str):
        return Refusal(400, Message("live.must-text", "%(name)s must be text.", name=name), name)
    text = visible_text(value)
    if len(text) > limit:
        return Refusal(400, Message("live.too-long-at-most-characters", "%(name)s is too long (at most %(limit)s characters).", name=name, limit=limit), name)
    return text or None


def _publish(db, kind: str, call: dict, **extra: Any) -> None:
    outbox.publish(db, call["tournament"], kind, {
        "call": call["id"], "round": call["round"], "table": call["table"], **extra},
        subject=f"call:{call['id']}")


def open_call(db, tournament_id: Any, table_no: Any, *, reason: Any = None, client_id: Any = None,
              origin: str | None = None, now: float | None = None) -> Done | Refusal:
    """A player calls a judge to table `table_no` of the round being played.

    Refused: an unknown tournament (404), no round being played (409), a table that is
    not in the round (404) or has finished (409), an unknown reason (400), too many calls
    from the table or from the device (`PER_TABLE`, `PER_ORIGIN` within `WINDOW_S`: 429
    with `retry_after`). Not doubled: a call already waiting at the table is returned
    (`duplicate`), as is the call a retried request (same `client_id`) made."""
    try:
        t = tstore.get_tournament(db, tournament_id)
    except tstore.TournamentError as exc:
        return Refusal(exc.status, exc.msg)
    if reason in ("", None):
        reason = None
    elif not isinstance(reason, str) or reason not in REASONS:
        return Refusal(400, Message("live.reason-must-one-or-nothing", "reason must be one of %(value)s (or nothing).", value=', '.join(REASONS)), "reason")
    cid = _clean_text(client_id, "client_id", 100)
    if isinstance(cid, Refusal):
        return cid
    where = table_in_play(db, t["id"], table_no)
    if isinstance(where, Refusal):
        return where
    r, table = where
    at = _now() if now is None else datetime.fromtimestamp(now, timezone.utc).isoformat(timespec="milliseconds")
    with transaction(db):
        if cid:
            earlier = list(db[T_CALLS].rows_where("tournament_id = ? and client_id = ?", [t["id"], cid], limit=1))
            if earlier:
                return Done(get_call(db, t["id"], earlier[0]["id"]), duplicate=True)
        waiting = [c for c in open_calls(db, t["id"]) if c["table"] == table["number"] and c["round"] == r["number"]]
        if waiting:
            return Done(waiting[0], duplicate=True)
        if table["state"] in ("finished", "overridden"):
            return Refusal(409, Message("live.table-has-finished-its-result", "Table %(number)s has finished (its result is in): find a judge at the front if something is wrong.", number=table['number']), "table")
        if origin:   # a signed-in judge (no origin) is never refused
            refused = _over_limit(db, t["id"], table["number"], origin, at)
            if refused is not None:
                return refused
        call_id = db[T_CALLS].insert({"tournament_id": t["id"], "round": r["number"], "table_no": table["number"],
                                      "reason": reason, "opened_at": at, "client_id": cid,
                                      "origin": origin}).last_pk
        call = get_call(db, t["id"], call_id)
        _publish(db, "call.opened", call, opened_at=call["opened"], reason=reason)
    return Done(call)


def _over_limit(db, tournament_id: int, table_no: int, origin: str, at: str) -> Refusal | None:
    """Why a device may not call now (429 with `retry_after`), or None: counted for that
    device alone, at this table and in all, over the last `WINDOW_S`."""
    since = _ago(at, WINDOW_S)
    bogus = (f"(select count(*) from {T_STEPS} s where s.call_id = c.id and s.kind = 'close' "
             "and s.bogus = 1)")
    here = db.execute(f"select count(*), min(opened_at), sum({bogus}) from {T_CALLS} c where tournament_id = ? "
                      "and table_no = ? and origin = ? and opened_at > ?",
                      [tournament_id, table_no, origin, since]).fetchone()
    if here[0] >= PER_TABLE:
        wait = _wait(here[1], at)
        why = (f" {here[2]} of them {'was' if here[2] == 1 else 'were'} closed by a judge as not needed."
               if here[2] else "")
        return Refusal(429, Message("live.this-device-called-judge-table", "This device called a judge to table %(table_no)s %(value)s times in the last %(value2)s minutes: the judges know.%(why)s Wait for one, ask another player to call, or call again in %(value3)s.", table_no=table_no, value=here[0], value2=WINDOW_S // 60, why=why, value3=_minutes(wait)), "table", {"retry_after": wait})
    mine = db.execute(f"select count(*), min(opened_at) from {T_CALLS} where tournament_id = ? "
                      "and origin = ? and opened_at > ?", [tournament_id, origin, since]).fetchone()
    if mine[0] >= PER_ORIGIN:
        wait = _wait(mine[1], at)
        return Refusal(429, Message("live.this-device-made-calls-in", "This device made %(value)s calls in the last %(value2)s minutes: try again in %(value3)s, or find a judge.", value=mine[0], value2=WINDOW_S // 60, value3=_minutes(wait)), None, {"retry_after": wait})
    return None


def _wait(oldest: str | None, at: str) -> int:
    """Seconds until the oldest call of a window leaves it."""
    start, now = to_epoch(oldest), to_epoch(at)
    if start is None or now is None:
        return 60
    return max(1, int(start + WINDOW_S - now) + 1)


def _minutes(seconds: int) -> str:
    m = max(1, round(seconds / 60))
    return f"{m} minute{'s' if m != 1 else ''}"


def _judge_name(value: Any, name: str = "judge") -> str | Refusal:
    text = _clean_text(value, name, MAX_NAME)
    if isinstance(text, Refusal):
        return text
    if not text:
        return Refusal(400, Message("live.give-s-name", "Give the %(name)s's name.", name=name), name)
    return text


def _step(db, tournament_id: Any, call_id: Any, decide) -> Done | Refusal:
    """Read the call and decide its step inside one write transaction: `decide(call)`
    returns a Refusal, None (nothing to store: the call as it is), or (kind, judge, note,
    message kind, message fields)."""
    try:
        t = tstore.get_tournament(db, tournament_id)
    except tstore.TournamentError as exc:
        return Refusal(exc.status, exc.msg)
    with transaction(db):
        call = get_call(db, t["id"], call_id)
        if call is None:
            return Refusal(404, Message("live.there-no-call-in-this", "There is no call %(value)s in this event.", value=str(call_id)[:20]), "call")
        decided = decide(call)
        if isinstance(decided, Refusal):
            return decided
        if decided is None:
            return Done(call, duplicate=True)
        kind, judge, note, by, message, fields, *rest = decided
        at = _now()
        db[T_STEPS].insert({"call_id": call["id"], "kind": kind, "judge": judge, "note": note,
                            "time": at, "by": by, "bogus": int(bool(rest and rest[0]))})
        after = get_call(db, t["id"], call["id"])
        _publish(db, message, after, **fields(after))
    return Done(after)


def _closed(call: dict) -> Refusal:
    return Refusal(409, Message("live.this-call-table-was-closed", "This call (table %(table)s) was closed by %(closed_by)s.", table=call['table'], closed_by=call['closed_by']), "call",
                   {"call": call})


def claim(db, tournament_id: Any, call_id: Any, *, judge: Any) -> Done | Refusal:
    """A judge takes a call. Claiming a call someone else has is refused (409, naming who
    has it); claiming one's own again changes nothing."""
    name = _judge_name(judge)
    if isinstance(name, Refusal):
        return name

    def decide(call):
        if call["status"] == "closed":
            return _closed(call)
        if call["status"] == "claimed":
            if call["claimed_by"] == name:
                return None
            return Refusal(409, Message("live.has-already-taken-this-call", "%(claimed_by)s has already taken this call (table %(table)s).", claimed_by=call['claimed_by'], table=call['table']),
                           "call", {"call": call, "claimed_by": call["claimed_by"]})
        return ("claim", name, None, name, "call.claimed",
                lambda c: {"by": c["claimed_by"], "claimed_at": c["claimed"]})
    return _step(db, tournament_id, call_id, decide)


def close(db, tournament_id: Any, call_id: Any, *, judge: Any, note: Any = None,
          may_close_others: bool = False, bogus: Any = False) -> Done | Refusal:
    """The judge who has the call closes it, with an optional note (the head judge may
    close anyone's: `may_close_others`). A call nobody claimed is claimed and closed by
    the same judge at once. Closing a closed call is refused (409). `bogus`: nobody at the
    table needed a judge; the device that called is told so (`call_for`)."""
    if bogus not in (True, False, None):
        return Refusal(400, Message("live.bogus-must-true-or-false", "bogus must be true or false."), "bogus")
    name = _judge_name(judge)
    if isinstance(name, Refusal):
        return name
    text = _clean_text(note, "note", MAX_NOTE)
    if isinstance(text, Refusal):
        return text

    def decide(call):
        if call["status"] == "closed":
            return _closed(call)
        if call["status"] == "claimed" and call["claimed_by"] != name and not may_close_others:
            return Refusal(409, Message("live.has-this-call-they-close", "%(claimed_by)s has this call: they close it (or the head judge).", claimed_by=call['claimed_by']),
                           "call", {"call": call, "claimed_by": call["claimed_by"]})
        return ("close", name, text, name, "call.closed",
                lambda c: {"by": c["closed_by"], "closed_at": c["closed"], "minutes": c["minutes"],
                           "note": c["note"], "bogus": c["bogus"]}, bool(bogus))
    return _step(db, tournament_id, call_id, decide)


def reassign(db, tournament_id: Any, call_id: Any, *, to: Any, by: str) -> Done | Refusal:
    """The head judge gives a call to another judge (`to`, a judge's name). A closed call
    cannot be reassigned (409); giving it to whoever has it changes nothing."""
    name = _judge_name(to, "judge")
    if isinstance(name, Refusal):
        return name

    def decide(call):
        if call["status"] == "closed":
            return _closed(call)
        if call["claimed_by"] == name:
            return None
        was = call["claimed_by"]
        message = "call.reassigned" if was else "call.claimed"
        return ("reassign", name, None, by, message,
                lambda c: {"by": c["claimed_by"], "from": was, "claimed_at": c["claimed"]})
    return _step(db, tournament_id, call_id, decide)


def judge_names(db, tournament_id: int) -> list[str]:
    """Names of the judges seen at this event (calls, penalties, extensions), for the head
    judge's reassign list."""
    names = set()
    for row in db.execute(f"select distinct s.judge from {T_STEPS} s join {T_CALLS} c on c.id = s.call_id "
                          "where c.tournament_id = ? and s.judge is not null", [tournament_id]).fetchall():
        names.add(row[0])
    if db["penalty_records"].exists():
        for row in db.execute("select distinct judge from penalty_records where tournament_id = ?",
                              [tournament_id]).fetchall():
            names.add(row[0])
    return sorted(n for n in names if n)
