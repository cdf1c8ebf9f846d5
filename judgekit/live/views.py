"""Web views of the live hall (thin: parse, call `calls`/`hall`/`journal`, answer).

- `GET /api/tournaments/<id>/live` — the event's server-sent events stream (docs/live.md).
- `GET /api/tournaments/<id>/hall` — the room's state; `…/notifications` — the head judge's.
- Judge calls: the table's call page `/tournaments/<id>/call/<table>` (anyone, no sign-in)
  and its QR code, `POST /api/tournaments/<id>/calls`; judges claim, close, reassign
  (`/api/tournaments/<id>/calls/<call>/claim|close|reassign`, and the same as forms).
- Pages: the room display `/tournaments/<id>/room` (public), the judges' floor view
  `/tournaments/<id>/floor`, the event's calls `/tournaments/<id>/calls`, the printable
  table cards `/tournaments/<id>/rounds/<n>/cards`.
"""
from __future__ import annotations

import functools
import re
import secrets
import time

from flask import (Blueprint, Response, flash, g, jsonify, redirect, render_template, request,
                   url_for)

from judgekit.auth.views import identity, requires, safe_next
from judgekit.errors import MAX_INT, parse_int, worded
from judgekit.live import calls as calls_mod
from judgekit.live import feed, hall, hub, journal, messages
from judgekit.live.coalesce import Coalesced
from judgekit.live.serving import ADOPT_KEY
from judgekit.recorder import store as recorder_store
from judgekit.recorder.checked import db_key
from judgekit.tournament import store as tstore
from judgekit.tournament.penalties import views as penalties_views
from judgekit.views import ApiError, get_db, json_object, venue_url
from judgekit.views import _, catalog
from judgekit.i18n import Message
from judgekit import qr

bp = Blueprint("live", __name__)
bp.record_once(lambda state: feed.install())  # the recorder's appends tell the hall
# the judge calls are a section of the printed penalty report
bp.record_once(lambda state: penalties_views.add_report_section(_calls_section))

RETRY_MS = {"push": 2000, "poll": 5000}  # a dropped stream reconnects / a polling page asks again
MAX_BACKLOG = 500   # more missed than this: the page reloads its state instead (a `reset`)
RETRY_CLOSED_S = 30  # a refused stream: static/live.js polls and asks for the stream again after this
BOOT = secrets.token_hex(6)  # this process: a page that sees another reloads its state


# --- the stream ---------------------------------------------------------------------------------

def _calls_section(db, tournament_id: int) -> dict:
    """The event's judge calls, for the printed penalty report."""
    return {"judge_calls": calls_mod.calls(db, tournament_id)}


def _message_id(value: str | None, field: str) -> int | None:
    if value is None or not value.strip():
        return None
    text = value.strip()
    n = int(text) if re.fullmatch(r"[0-9]{1,19}", text) else None
    if n is None or n > MAX_INT:
        raise ApiError(400, Message("live.must-id-message-this-stream", "%(field)s must be the id of a message of this stream (a whole number), not %(value)s", field=field, value=repr(text[:30])), field=field)
    return n


def _audience(tid: int) -> str:
    cap = request.args.get("audience")
    if cap is not None and cap not in messages.AUDIENCES:
        raise ApiError(400, Message("live.audience-must-one", "audience must be one of %(value)s", value=', '.join(messages.AUDIENCES)), field="audience")
    who = identity(tid)
    return messages.lower(messages.audience_of(who.role if who else None), cap)


@bp.get("/api/tournaments/<id:tid>/live")
def stream(tid):
    """The event's messages as server-sent events (docs/live.md). The first answer holds
    what the page missed (after its Last-Event-ID, else `?after=`, else nothing); under
    `judgekit serve` the answer then goes on (the hub writes the rest, no worker thread
    waits), elsewhere it ends and the browser asks again `retry` ms later."""
    db = get_db()
    t = tstore.get_tournament(db, tid)
    audience = _audience(t["id"])
    after = _message_id(request.headers.get("Last-Event-ID"), "Last-Event-ID")
    if after is None:
        after = _message_id(request.args.get("after"), "after")
    adopt = request.environ.get(ADOPT_KEY) if request.method == "GET" else None   # HEAD: headers only
    mode = "push" if adopt else "poll"
    last = journal.last_id(db)
    reset = None
    if after is None:
        after = last
    elif after > last:
        reset = "this server's messages start again (another database?): the page reloads its state"
    elif journal.count_since(db, t["id"], after) > MAX_BACKLOG:
        reset = f"more than {MAX_BACKLOG} messages were missed: the page reloads its state"
    backlog = [] if reset else journal.since(db, t["id"], after, MAX_BACKLOG)
    upto = backlog[-1].id if backlog else (last if reset else after)
    parts = [f"retry: {RETRY_MS[mode]}\n\n".encode(),
             hub.control("hello", {"mode": mode, "audience": audience, "last_id": upto, "boot": BOOT,
                                   "now": time.time()})]
    if reset:
        parts.append(f"id: {last}\n".encode() + hub.control("reset", {"reason": reset, "last_id": last}))
    for m in backlog:
        data = hub.frame(m, audience)
        if data is not None:
            parts.append(data)
    body = b"".join(parts)
    if adopt and not adopt(hub.Subscription(t["id"], audience, upto)):
        raise ApiError(429, Message("live.this-device-has-as-many", "This device has as many live pages open as it may: this page asks for news every few seconds instead. Close a page to get live updates again."), field=None,
                       retry_after=RETRY_CLOSED_S)
    # a stream that goes on must not carry a length: the hub's messages follow this body
    resp = Response(iter([body]) if adopt else body, mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache, no-store"
    resp.headers["X-Accel-Buffering"] = "no"   # a proxy in front must not hold it back
    return resp


# --- state ------------------------------------------------------------------------------------------

@bp.get("/api/tournaments/<id:tid>/hall")
def api_hall(tid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    return jsonify(worded(hall.state(db, t["id"], _audience(t["id"])), catalog()))


# a message makes every open page of the head judge ask at once: one answer for them all
_notifications = Coalesced()


@bp.get("/api/tournaments/<id:tid>/notifications")
@requires("calls.assign")
def api_notifications(tid):
    db = get_db()
    key = (db_key(db), tid, journal.last_id(db))
    return jsonify(worded(_notifications.answer(key, lambda: hall.notifications(db, tid)), catalog()))


# --- judge calls: the players' side ---------------------------------------------------------------

def _refused(res: calls_mod.Refusal):
    raise ApiError(res.status, res.msg, field=res.field, **res.extra)


def _public_call(call: dict, audience: str, device: str | None = None) -> dict:
    """A call as `audience` reads it; the device that made it (`device`, its address) also
    reads whether a judge closed it as not needed (`bogus`), and nobody else below judges."""
    out = {"call": call["id"], "round": call["round"], "table": call["table"], "status": call["status"],
           "opened_at": call["opened"]}
    if messages.rank(audience) >= messages.rank(messages.JUDGE):
        out.update(reason=call["reason"], reason_label=_(call["reason_label"]), claimed_by=call["claimed_by"],
                   claimed_at=call["claimed"], closed_by=call["closed_by"], closed_at=call["closed"],
                   note=call["note"], minutes=call["minutes"], bogus=call["bogus"])
    elif device is not None and call.get("origin") == device:
        out["bogus"] = call["bogus"]
    return out


def _device() -> str:
    return request.remote_addr or "?"


def _origin(tid: int) -> str | None:
    """Who a call counts against for the per-device limit: the device's address, unless a
    judge of the event calls (for a table, from the floor): judges are not limited."""
    return None if identity(tid) is not None else _device()


@bp.post("/api/tournaments/<id:tid>/calls")
def api_call(tid):
    body = json_object('{"table": table number, "reason": "ruling" | "time" | "deck" | "other"}')
    res = calls_mod.open_call(get_db(), tid, body.get("table"), reason=body.get("reason"),
                              client_id=body.get("client_id"), origin=_origin(tid))
    if isinstance(res, calls_mod.Refusal):
        _refused(res)
    return jsonify({"call": _public_call(res.call, messages.PUBLIC, _device()), "duplicate": res.duplicate}), \
        200 if res.duplicate else 201


@bp.get("/api/tournaments/<id:tid>/calls/<id:cid>")
def api_call_state(tid, cid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    call = calls_mod.get_call(db, t["id"], cid)
    if call is None:
        raise ApiError(404, Message("live.there-no-call-in-this", "There is no call %(value)s in this event.", value=cid), field="call")
    return jsonify({"call": _public_call(call, _audience(t["id"]), _device())})


def _call_page(t: dict, table: int, *, call: dict | None = None, error: str | None = None, status: int = 200):
    db = get_db()
    where = calls_mod.table_in_play(db, t["id"], table)
    problem = _(where.msg) if isinstance(where, calls_mod.Refusal) else None
    bogus = bool(call and call["bogus"] and call.get("origin") == _device())
    return render_template("live/call.html", t=t, table=table, problem=problem, call=call, error=error, bogus=bogus,
                           reasons=calls_mod.REASONS, after=journal.last_id(db)), status


@bp.get("/tournaments/<id:tid>/call/<id:table>")
def call_page(tid, table):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    call = None
    wanted = parse_int(request.args.get("call"))
    if wanted is not None:
        found = calls_mod.get_call(db, t["id"], wanted)
        call = found if found is not None and found["table"] == table else None
    if call is None:  # someone at the table called already: that call, not a second one
        r = calls_mod.current_round(db, t["id"])
        call = next((c for c in calls_mod.open_calls(db, t["id"])
                     if r is not None and c["round"] == r["number"] and c["table"] == table), None)
    return _call_page(t, table, call=call)


@bp.post("/tournaments/<id:tid>/call/<id:table>")
def call_form(tid, table):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    res = calls_mod.open_call(db, t["id"], table, reason=request.form.get("reason") or None,
                              client_id=request.form.get("client_id"), origin=_origin(t["id"]))
    if isinstance(res, calls_mod.Refusal):
        return _call_page(t, table, error=_(res.msg), status=res.status)
    return redirect(url_for("live.call_page", tid=t["id"], table=table, call=res.call["id"]))


@functools.lru_cache(maxsize=2048)
def _call_qr_svg(link: str, table: int) -> str:
    """A table's call QR code (about 10 ms to draw): drawn once per link and process."""
    return qr.svg(link, title=f"Call a judge to table {table}")


@bp.get("/tournaments/<id:tid>/call/<id:table>/qr.svg")
def call_qr(tid, table):
    t = tstore.get_tournament(get_db(), tid)
    link = venue_url("live.call_page", tid=t["id"], table=table)
    if link["url"] is None:
        svg = qr.placeholder("no venue address")
    else:
        svg = _call_qr_svg(link["url"], table)
    # the link changes only with the address phones use: a seating page printed again reuses it
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": "private, max-age=3600"})


# --- judge calls: the judges' side --------------------------------------------------------------------

def _step_api(tid, cid, run):
    db = get_db()
    res = run(db, g.identity)
    if isinstance(res, calls_mod.Refusal):
        if "call" in res.extra:
            res.extra["call"] = _public_call(res.extra["call"], messages.JUDGE)
        _refused(res)
    return jsonify({"call": _public_call(res.call, messages.JUDGE), "duplicate": res.duplicate})


@bp.get("/api/tournaments/<id:tid>/calls")
@requires("calls.handle")
def api_calls(tid):
    status = request.args.get("status")
    if status not in (None, "", "open", "all"):
        raise ApiError(400, Message("live.status-must-open-or-all", "status must be open or all"), field="status")
    rows = calls_mod.calls(get_db(), tid, status="open" if status == "open" else None)
    return jsonify({"calls": [_public_call(c, messages.JUDGE) for c in rows]})


@bp.post("/api/tournaments/<id:tid>/calls/<id:cid>/claim")
@requires("calls.handle")
def api_claim(tid, cid):
    return _step_api(tid, cid, lambda db, who: calls_mod.claim(db, tid, cid, judge=who.name))


@bp.post("/api/tournaments/<id:tid>/calls/<id:cid>/close")
@requires("calls.handle")
def api_close(tid, cid):
    body = json_object('{"note": "what was decided", "bogus": true if nobody needed a judge}', required=False)
    return _step_api(tid, cid, lambda db, who: calls_mod.close(
        db, tid, cid, judge=who.name, note=body.get("note"), may_close_others=who.may("calls.assign"),
        bogus=body.get("bogus", False)))


@bp.post("/api/tournaments/<id:tid>/calls/<id:cid>/reassign")
@requires("calls.assign")
def api_reassign(tid, cid):
    body = json_object('{"judge": "the judge\'s name"}')
    return _step_api(tid, cid, lambda db, who: calls_mod.reassign(db, tid, cid, to=body.get("judge"), by=who.name))


def _form_step(tid, cid, run, done: str):
    res = run(get_db(), g.identity)
    if isinstance(res, calls_mod.Refusal):
        if res.status == 404:
            raise ApiError(404, res.msg)
        flash(_(res.msg), "error")
    else:
        flash(done % {"table": res.call["table"]}, "ok")
    return redirect(safe_next(request.form.get("next")) or url_for("live.floor", tid=tid))


@bp.post("/tournaments/<id:tid>/calls/<id:cid>/claim")
@requires("calls.handle")
def claim_form(tid, cid):
    return _form_step(tid, cid, lambda db, who: calls_mod.claim(db, tid, cid, judge=who.name),
                      _("You have the call of table %(table)s."))


@bp.post("/tournaments/<id:tid>/calls/<id:cid>/close")
@requires("calls.handle")
def close_form(tid, cid):
    bogus = request.form.get("bogus", "") not in ("", "0")
    return _form_step(tid, cid, lambda db, who: calls_mod.close(
        db, tid, cid, judge=who.name, note=request.form.get("note"), may_close_others=who.may("calls.assign"),
        bogus=bogus), _("The call of table %(table)s is closed."))


@bp.post("/tournaments/<id:tid>/calls/<id:cid>/reassign")
@requires("calls.assign")
def reassign_form(tid, cid):
    return _form_step(tid, cid, lambda db, who: calls_mod.reassign(
        db, tid, cid, to=request.form.get("judge"), by=who.name), _("The call of table %(table)s is reassigned."))


# --- pages -------------------------------------------------------------------------------------------------

@bp.get("/tournaments/<id:tid>/room")
def room(tid):
    """The room display: public whoever is signed in on the laptop (no penalty, no note)."""
    db = get_db()
    t = tstore.get_tournament(db, tid)
    theme = request.args.get("theme")
    return render_template("live/room.html", t=t, theme=theme if theme in ("light", "dark") else None)


@bp.get("/tournaments/<id:tid>/floor")
@requires("calls.handle")
def floor(tid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    return render_template("live/floor.html", t=t, who=g.identity, judges=calls_mod.judge_names(db, t["id"]))


@bp.get("/tournaments/<id:tid>/calls")
@requires("calls.handle")
def calls_page(tid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    rows = calls_mod.calls(db, t["id"])
    rows.reverse()
    return render_template("live/calls.html", t=t, calls=rows, who=g.identity,
                           judges=calls_mod.judge_names(db, t["id"]), after=journal.last_id(db))


@bp.get("/tournaments/<id:tid>/rounds/<id:n>/cards")
@requires("tournament.view")
def table_cards(tid, n):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    r = tstore.round_detail(db, t["id"], n, games=False)
    links = {tb["number"]: venue_url("live.call_page", tid=t["id"], table=tb["number"]) for tb in r["tables"]}
    return render_template("live/cards.html", t=t, r=r, links=links)


# --- the header badge on judge pages --------------------------------------------------------------------

def _page_tournament() -> int | None:
    args = request.view_args or {}
    if isinstance(args.get("tid"), int):
        return args["tid"]
    if isinstance(args.get("game_id"), int):
        game = recorder_store.get_game(get_db(), args["game_id"])
        if game is not None and game.get("tournament_id") is not None:
            return int(game["tournament_id"])
    return None


@bp.app_context_processor
def _badge():
    def live_badge():
        """The judge's header badge (open calls, the head judge's notifications), or None."""
        if request.blueprint == "live" and request.endpoint in ("live.room", "live.call_page", "live.call_form"):
            return None
        try:
            tid = _page_tournament()
            if tid is None:
                return None
            who = identity(tid)
        except Exception:  # a page must render whatever the badge's trouble
            return None
        if who is None or not who.may("calls.handle"):
            return None
        db = get_db()
        return {"tid": tid, "floor": url_for("live.floor", tid=tid), "open": len(calls_mod.open_calls(db, tid)),
                "stream": url_for("live.stream", tid=tid), "after": journal.last_id(db),
                "notifications": url_for("live.api_notifications", tid=tid) if who.may("calls.assign") else None,
                "calls": url_for("live.api_calls", tid=tid, status="open")}
    return {"live_badge": live_badge}
