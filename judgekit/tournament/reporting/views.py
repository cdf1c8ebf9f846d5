"""Web views of reporting an event and moving it to and from Archon (thin): the report page
(the event's details for the VEKN, the results string with copy and download, the players
at fault), the downloads (VEKN string, Archon workbook, results per round) and the import
of an Archon workbook as a new event, with their JSON API."""
from __future__ import annotations

import base64
import binascii
import time
from contextlib import contextmanager
from datetime import date, timedelta

from flask import (Blueprint, Response, current_app, flash, jsonify, redirect, render_template, request,
                   url_for)

from judgekit.auth.views import create_event, current_name, requires
from judgekit.tournament import levels as levels_mod
from judgekit.tournament import store
from judgekit.tournament.archon_file import MAX_BYTES
from judgekit.tournament.import_limit import ImportLimit
from judgekit.tournament.penalties import store as pstore
from judgekit.tournament.penalties.export import csv_text
from judgekit.tournament.registration.views import too_large
from judgekit.tournament.store import TournamentError
from judgekit.views import ApiError, csv_or_json, get_db, json_object
from judgekit.views import _, catalog, say
from judgekit.i18n import Message
from judgekit.errors import worded

bp = Blueprint("report", __name__)
bp.register_error_handler(413, too_large)

UPLOADS = {"report.import_form", "report.api_import"}
REPORT_DAYS = 8  # results are due at the VEKN within 8 days of the event


@bp.url_value_preprocessor
def _upload_limit(endpoint, values):
    if endpoint in UPLOADS:
        # the workbook and the form around it (base64 in JSON: a third more)
        request.max_content_length = MAX_BYTES * 4 // 3 + 64 * 1024


def _report_context(db, t: dict) -> dict:
    rep = store.vekn_report(db, t["id"])
    missing = [p for p in store.players(db, t["id"]) if not p["dropped"] and (not p["vekn"] or p["vekn_temporary"])]
    # the form offers the head judge's name once they have signed in and approved or issued
    # a penalty (saved only when the organizer saves the details)
    seen = None if t.get("head_judge") else pstore.head_judge_seen(db, t["id"])
    shown = dict(t, head_judge=seen) if seen else t
    return {"t": t, "shown": shown, "head_judge_seen": seen, "rep": rep, "missing": missing, "levels": levels_mod.LEVELS, "formats": levels_mod.FORMATS,
            "level": levels_mod.BY_KEY.get(t["level"]), "due": _due(t.get("date")),
            "fields": ("level", "date", *store.EVENT_FIELDS)}


def _due(day) -> str | None:
    """The report's due date: 8 days after the event (tournament rules section 9)."""
    try:
        when = date.fromisoformat(str(day or "")[:10]) + timedelta(days=REPORT_DAYS)
    except ValueError:
        return None
    return when.strftime("%a %d %b %Y")


@bp.get("/tournaments/<id:tid>/vekn")
@requires("tournament.view")
def report_page(tid):
    """The VEKN report: the event's details (the organizer edits them), the results string
    (copy, download) or the reason there is none yet, the exports."""
    db = get_db()
    t = store.get_tournament(db, tid)
    return render_template("tournament/report.html", typed=None, error=None, **_report_context(db, t))


@bp.post("/tournaments/<id:tid>/vekn")
@requires("event.edit")
def event_form(tid):
    """Save the event's details; a refused value comes back with what was typed."""
    db = get_db()
    t = store.get_tournament(db, tid)
    typed = {k: request.form.get(k, "") for k in ("level", "date", *store.EVENT_FIELDS)}
    try:
        t = store.update_event(db, t["id"], typed, by=current_name())
    except TournamentError as exc:
        if exc.status == 404:
            raise
        error = {"field": exc.field or "form", "message": say(exc)}
        return render_template("tournament/report.html", typed=typed, error=error,
                               **_report_context(db, t)), exc.status
    flash(_("Event details saved"), "ok")
    return redirect(url_for("report.report_page", tid=t["id"]))


@bp.patch("/api/tournaments/<id:tid>")
@requires("event.edit")
def api_event(tid):
    """`{level, date, location, vekn_event_id, city, format, head_judge, assistant_judges,
    organizer}` (only those given) → the tournament."""
    body = json_object('{"level": "...", "vekn_event_id": 1234, "head_judge": "..."}')
    return jsonify(store.without_secrets(store.update_event(get_db(), tid, body, by=current_name())))


def _refusal(rep) -> str:
    if rep.refusal:
        return rep.refusal
    listing = "; ".join(f"{p['name']} ({p['problem']})" for p in rep.problems)
    return f"The VEKN refuses a report unless every player has a VEKN number: {listing}"


@bp.get("/tournaments/<id:tid>/export/vekn.txt")
@requires("export")
def export_vekn(tid):
    db = get_db()
    t = store.get_tournament(db, tid)
    rep = store.vekn_report(db, t["id"])
    if not rep.ok:
        raise ApiError(409, _refusal(rep), players=rep.problems)
    return Response(rep.text, mimetype="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="vekn-{t["id"]}.txt"'})


@bp.get("/api/tournaments/<id:tid>/vekn")
@requires("export")
def api_vekn(tid):
    """`{"ok", "archondata", "rounds", "problems": [{player_id, name, problem}], "refusal"}`."""
    db = get_db()
    t = store.get_tournament(db, tid)
    rep = store.vekn_report(db, t["id"])
    return jsonify({"ok": rep.ok, "archondata": rep.text, "rounds": rep.rounds, "problems": rep.problems,
                    "refusal": None if rep.ok else _refusal(rep)})


@bp.get("/tournaments/<id:tid>/export/archon.xlsx")
@requires("export")
def export_archon(tid):
    db = get_db()
    t = store.get_tournament(db, tid)
    return Response(store.archon_workbook(db, t["id"]),
                    mimetype="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
                    headers={"Content-Disposition": f'attachment; filename="archon-{t["id"]}.xlsx"'})


@bp.get("/tournaments/<id:tid>/export/results.<fmt>")
@requires("export")
def export_results(tid, fmt):
    """Per round: round, table, seat, player, VEKN, VP (that count), GW, TP, VP as played,
    the table's state (`?round=n`: one round)."""
    db = get_db()
    t = store.get_tournament(db, tid)
    rows = store.results_rows(db, t["id"], request.args.get("round") or None)
    return csv_or_json(fmt, f"results-{t['id']}", lambda: csv_text(store.RESULTS_COLUMNS, rows),
                       lambda: {"tournament": t["id"], "name": t["name"], "results": rows})


# --- import ------------------------------------------------------------------------------------

def import_limit() -> ImportLimit:
    """The app's count of imports per device (`tournament.import_limit`)."""
    found = current_app.extensions.get("import_limit")
    if found is None:
        found = current_app.extensions.setdefault("import_limit", ImportLimit())
    return found


@contextmanager
def _one_import():
    """Count this request against its device's imports (issue 28.1: the import needs no
    sign-in and reading a workbook is costly): over the limit, a 429 with Retry-After
    before anything is read."""
    device = request.remote_addr or "?"
    limit = import_limit()
    refused = limit.begin(device, time.monotonic())
    if refused is not None:
        wait, message = refused
        raise ApiError(429, message, retry_after=wait)
    try:
        yield
    finally:
        limit.end(device)


def _upload() -> bytes:
    f = request.files.get("file")
    if f is None or not f.filename:
        raise TournamentError(400, Message("tournament.choose-archon-workbook-xlsx-import", "Choose the Archon workbook (.xlsx) to import."), "file")
    return f.read(MAX_BYTES + 1)


@bp.post("/tournaments/import-archon")
def import_form():
    """A new event from an Archon workbook; whoever imports it is its organizer (as when
    creating one). A workbook that cannot be imported comes back with every problem."""
    db = get_db()
    try:
        with _one_import():
            organizer = request.form.get("organizer") or None
            notes: list[str] = []
            made = create_event(lambda cid: _imported(db, _upload(), organizer, cid, notes),
                                client_id=request.form.get("client_id") or None, creator=organizer)
    except (TournamentError, ApiError) as exc:
        headers = {"Retry-After": str(exc.extra["retry_after"])} if exc.extra.get("retry_after") else {}
        return render_template("tournament/import_archon.html", error=say(exc), limited=exc.status == 429,
                               problems=worded(exc.extra.get("problems"), catalog()) or [say(exc)]), exc.status, headers
    if made.duplicate:
        flash(_("This workbook was imported already (the form was sent twice): here is the event, with new "
                "sign-in codes."), "warn")
    else:
        flash(_("Imported from the Archon workbook"), "ok")
    for note in notes[:20]:
        flash(_(note), "warn")
    return redirect(url_for("tournament.dashboard", tid=made.tid))


def _imported(db, data: bytes, organizer: str | None, client_id: str | None, notes: list[str]) -> int:
    """Import the workbook inside `create_event`'s transaction (its codes are issued in the
    same one); its notes go to `notes`. The new event's id."""
    out = store.import_workbook(db, data, organizer=organizer, client_id=client_id)
    notes.extend(out["notes"])
    return out["tournament"]


@bp.post("/api/tournaments/import-archon")
def api_import():
    """`{"workbook": the .xlsx file in base64, "organizer": name?}` → 201, the tournament (as
    `POST /api/tournaments` answers: `codes`, `token`, `role`, `organizer`) and the import's
    `notes`; 400 with
    `problems` (one per cell at fault) when the workbook cannot be imported."""
    with _one_import():
        return _api_import()


def _api_import():
    body = json_object('{"workbook": "the .xlsx file, base64", "organizer": "your name"}')
    encoded = body.get("workbook")
    if not isinstance(encoded, str) or not encoded:
        raise ApiError(400, Message("tournament.workbook-must-xlsx-file-in", "workbook must be the .xlsx file in base64"), "workbook")
    try:
        data = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError):
        raise ApiError(400, Message("tournament.workbook-not-valid-base64", "workbook is not valid base64"), "workbook")
    organizer = body.get("organizer") if isinstance(body.get("organizer"), str) else None
    db = get_db()
    notes: list[str] = []
    made = create_event(lambda cid: _imported(db, data, organizer, cid, notes),
                        client_id=body.get("client_id"), creator=organizer)
    access = made.access
    creator = access.pop("name")  # as POST /api/tournaments: "name" is the tournament's
    return jsonify({**store.without_secrets(store.get_tournament(db, made.tid)), **access, "organizer": creator,
                    "notes": worded(notes, catalog()), "duplicate": made.duplicate}), 200 if made.duplicate else 201
