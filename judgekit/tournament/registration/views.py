"""Web views of the players after registration (thin: parse, call the store, render):
bulk registration (paste or CSV, previewed, all or nothing), editing a player (the change
kept), check in all, check-in by phone (the organizer opens it; the dashboard shows the
code and its QR code; players check in on `/tournaments/<id>/check-in`), and their JSON API.
The dashboard's own form (one player at a time) is `tournament.add_player_form`."""
from __future__ import annotations

import time

from flask import Blueprint, Response, current_app, flash, jsonify, redirect, render_template, request, url_for

from judgekit import qr
from judgekit.auth.throttle import Throttle, Ticket
from judgekit.auth.views import current_name, identity, requires
from judgekit.tournament import checkin as checkin_mod
from judgekit.tournament import levels as levels_mod
from judgekit.tournament import players as players_mod
from judgekit.tournament import roster as roster_mod
from judgekit.tournament import store
from judgekit.tournament.store import TournamentError, player_links
from judgekit.tournament.store import checkin as checkin_store
from judgekit.views import ApiError, error_response, get_db, json_object, venue_url
from judgekit.views import _, catalog, say
from judgekit.i18n import Message
from judgekit.errors import worded

bp = Blueprint("players", __name__)

UPLOAD_MAX = 5 * 1024 * 1024   # a pasted or uploaded list of players (the app's default is 512 KB)
UPLOADS = {"players.import_page", "players.api_bulk"}


@bp.url_value_preprocessor
def _upload_limit(endpoint, values):
    """The upload routes take files up to UPLOAD_MAX (set before the CSRF check reads the form)."""
    if endpoint in UPLOADS:
        request.max_content_length = UPLOAD_MAX


@bp.errorhandler(413)
def too_large(exc):
    """A body over the limit, with a message that says what to do (this blueprint's routes;
    the report's blueprint registers it too)."""
    limit = request.max_content_length or current_app.config.get("MAX_CONTENT_LENGTH") or 0
    message = (f"The file or text sent is too large: at most {limit / 2**20:.1f} MB here. A list of players or an "
               "Archon workbook is far smaller: check that you chose the right file.")
    return error_response(413, message, {"error": message, "status": 413, "field": "file"})


@bp.app_template_filter("fold")
def _fold_filter(text) -> str:
    """Text as the players' filter box compares it (no accents, no case)."""
    return players_mod.fold(str(text or ""))


@bp.app_context_processor
def _level_helpers():
    return {"event_levels": levels_mod.LEVELS, "level_name": _level_name}


def _level_name(key) -> str:
    found = levels_mod.BY_KEY.get(key)
    return found.name if found else str(key)


def _dashboard(tid, **kw):
    return redirect(url_for("tournament.dashboard", tid=tid, **kw) + "#players")


# --- bulk registration ----------------------------------------------------------------------

@bp.route("/tournaments/<id:tid>/players/import", methods=["GET", "POST"])
@requires("players.manage")
def import_page(tid):
    """Paste or upload a list, see every row and its problems, then register them all (or
    none). The text stays in the box, so a row at fault is fixed there and previewed again."""
    db = get_db()
    t = store.get_tournament(db, tid)
    text, roster, status = "", None, 200
    checked_in = request.form.get("checked_in") == "1"
    if request.method == "POST":
        upload = request.files.get("file")
        if upload is not None and upload.filename:
            data = upload.read(UPLOAD_MAX + 1)
            roster = store.preview_roster(db, t["id"], data)
            text = roster.text
        else:
            text = request.form.get("text", "")
            roster = store.preview_roster(db, t["id"], text)
        if request.form.get("action") == "register" and roster.ok:
            added = store.register_roster(db, t["id"], text, checked_in=checked_in, by=current_name())
            flash(_("%(n)s players registered and checked in", n=len(added)) if checked_in else
                  _("%(n)s players registered (not checked in yet)", n=len(added)), "ok")
            return _dashboard(t["id"])
        if request.form.get("action") == "register" and not roster.ok:
            status = 400  # asked to register, refused (a preview with problems is a plain answer)
    return render_template("tournament/players_import.html", t=t, text=text, roster=roster,
                           checked_in=checked_in, labels=roster_mod.COLUMN_LABELS), status


@bp.post("/api/tournaments/<id:tid>/players/bulk")
@requires("players.manage")
def api_bulk(tid):
    """`{"text": "…", "checked_in": bool, "dry_run": bool}` → the rows read (and registered
    unless `dry_run`); 400 with `problems` (per line) and nothing stored when any row is at
    fault."""
    body = json_object('{"text": "one player per line", "checked_in": false, "dry_run": false}')
    text = body.get("text")
    if not isinstance(text, str):
        raise ApiError(400, Message("tournament.text-must-list-players-as", "text must be the list of players as text"), "text")
    db = get_db()
    t = store.get_tournament(db, tid)
    if body.get("dry_run") is True:
        roster = store.preview_roster(db, t["id"], text)
        return jsonify({"ok": roster.ok, "summary": _(roster.summary()), "problems": worded(roster.problems, catalog()),
                        "rows": [worded(vars(r), catalog()) for r in roster.rows]})
    added = store.register_roster(db, t["id"], text, checked_in=body.get("checked_in", False), by=current_name())
    return jsonify({"players": added}), 201


# --- one player -------------------------------------------------------------------------------

@bp.route("/tournaments/<id:tid>/players/<id:pid>/edit", methods=["GET", "POST"])
@requires("players.manage")
def edit_page(tid, pid):
    """A player's record and its history; a refused change comes back with what was typed."""
    db = get_db()
    t = store.get_tournament(db, tid)
    p = store.get_player(db, t["id"], pid)
    typed, error, status = None, None, 200
    if request.method == "POST":
        typed = {k: request.form.get(k, "") for k in ("first_name", "last_name", "vekn", "city", "country")}
        try:
            after = store.edit_player(db, t["id"], p["id"], typed, by=current_name())
            flash(_("%(name)s: changes saved", name=after["name"]), "ok")
            return redirect(url_for("players.edit_page", tid=t["id"], pid=p["id"]))
        except TournamentError as exc:
            if exc.status == 404:
                raise
            error, status = {"field": exc.field or "form", "message": exc.message}, exc.status
    return render_template("tournament/player_edit.html", t=t, p=p, typed=typed, error=error,
                           history=store.player_history(db, t["id"], p["id"])), status


@bp.get("/api/tournaments/<id:tid>/players/<id:pid>/history")
@requires("tournament.view")
def api_history(tid, pid):
    db = get_db()
    t = store.get_tournament(db, tid)
    return jsonify({"player": store.get_player(db, t["id"], pid), "history": store.player_history(db, t["id"], pid)})


@bp.post("/tournaments/<id:tid>/players/check-in-all")
@requires("players.manage")
def check_in_all_form(tid):
    try:
        done = store.check_in_all(get_db(), tid, by=current_name())
    except TournamentError as exc:
        if exc.status == 404:
            raise
        flash(say(exc), "error")
        return _dashboard(tid)
    flash(_("%(n)s players checked in", n=len(done)) if done else _("Everyone registered was checked in already"),
          "ok")
    return _dashboard(tid)


@bp.post("/api/tournaments/<id:tid>/players/check-in-all")
@requires("players.manage")
def api_check_in_all(tid):
    return jsonify({"checked_in": store.check_in_all(get_db(), tid, by=current_name())})


# --- check-in by phone --------------------------------------------------------------------------

def checkin_panel_state(tid) -> dict:
    """Check-in by phone as the dashboard shows it: the code now, the link phones open (the
    venue-network address) or why there is none."""
    db = get_db()
    state = store.checkin_state(db, tid)
    state["by_phone"] = store.phone_check_ins(db, tid)   # who checked in from where
    if state["open"]:
        link = venue_url("players.self_check_in", tid=tid, code=state["code"], w=state["window"])
        state["url"], state["why"] = link.get("url"), link.get("why")
    return state


@bp.post("/tournaments/<id:tid>/check-in/open")
@requires("players.manage")
def checkin_open(tid):
    try:
        store.open_checkin(get_db(), tid)
    except TournamentError as exc:
        if exc.status == 404:
            raise
        flash(say(exc), "error")   # the final has begun
        return redirect(url_for("tournament.dashboard", tid=tid) + "#checkin")
    flash(_("Check-in by phone is open: show the code or the QR code at the venue"), "ok")
    return redirect(url_for("tournament.dashboard", tid=tid) + "#checkin")


@bp.post("/tournaments/<id:tid>/check-in/close")
@requires("players.manage")
def checkin_close(tid):
    store.close_checkin(get_db(), tid)
    flash(_("Check-in by phone is closed: every code shown so far stops working"), "ok")
    return redirect(url_for("tournament.dashboard", tid=tid) + "#checkin")


@bp.get("/api/tournaments/<id:tid>/check-in")
@requires("tournament.view")
def api_checkin_state(tid):
    """The code to show now, its window and link (the dashboard refreshes them)."""
    return jsonify(checkin_panel_state(tid))


@bp.get("/tournaments/<id:tid>/check-in/qr.svg")
@requires("tournament.view")
def checkin_qr(tid):
    """The QR code of the check-in link shown now (a grey square saying so while check-in
    by phone is closed, or phones could not reach the link)."""
    state = checkin_panel_state(tid)
    if not state["open"] or not state.get("url"):
        body = qr.placeholder("Check-in closed" if not state["open"] else "No venue address")
    else:
        body = qr.svg(state["url"], title="Check in")
    return Response(body, mimetype="image/svg+xml", headers={"Cache-Control": "private, no-cache"})


@bp.get("/tournaments/<id:tid>/check-in/show")
@requires("tournament.view")
def checkin_show(tid):
    """The code and its QR code, big, for a screen at the venue (refreshes itself)."""
    db = get_db()
    return render_template("tournament/checkin_show.html", t=store.get_tournament(db, tid), c=checkin_panel_state(tid))


def _throttle() -> Throttle:
    found = current_app.extensions.get("checkin_throttle")
    if found is None:
        found = current_app.extensions.setdefault("checkin_throttle", Throttle())
    return found


@bp.route("/tournaments/<id:tid>/check-in", methods=["GET", "POST"])
def self_check_in(tid):
    """A player checks in from their phone: the venue's code (from the QR code's link, or
    typed) and their VEKN number or name. Wrong or expired codes and players already
    checked in get a clear answer; wrong codes are slowed down per device."""
    db = get_db()
    t = store.get_tournament(db, tid)
    code = request.values.get("code", "")[:40]
    w = request.values.get("w", "")[:20]
    out, error, error_field, status = None, None, None, 200
    if request.method == "POST":
        ticket = _throttle().begin(request.remote_addr or "?", t["id"], "check-in", time.monotonic())
        if not isinstance(ticket, Ticket):
            seconds = max(1, int(ticket + 0.999))
            error, error_field, status = (f"Too many wrong codes from this phone: wait {seconds} seconds and try "
                                          "again.", "code", 429)
        else:
            try:
                # a judge's phone checks in anyone; any other device one player (its address)
                judge = identity(t["id"])
                out = store.self_check_in(db, t["id"], code, w=w or None, who=request.form.get("who"),
                                          player_id=request.form.get("player_id"),
                                          device=request.remote_addr or "?", judge=judge.name if judge else None)
                _throttle().succeeded(ticket)
            except TournamentError as exc:
                if exc.extra.get("reason") != "wrong":
                    _throttle().succeeded(ticket)  # only wrong codes count against the phone
                if exc.status == 404 and exc.field is None:
                    raise
                error, error_field, status = exc.message, exc.field, exc.status
    link = _own_link(db, t["id"], out) if out else None
    state = store.checkin_state(db, t["id"])
    return render_template("tournament/checkin.html", t=t, code=code, w=w, out=out, error=error, link=link,
                           error_field=error_field,
                           is_open=state["open"], who=request.form.get("who", ""),
                           minutes=checkin_mod.WINDOW_S // 60), status


def _own_link(db, tid: int, out: dict) -> dict | None:
    """The player's own link (`player_links`: to report their table's result), given to the
    phone that checked them in: at check-in, or again on that phone (its older link then
    stops working). Not on a judge's phone, nor for a player another phone checked in."""
    if out["status"] not in ("checked-in", "already") or identity(tid) is not None:
        return None
    first = checkin_store.device_checked_in(db, tid, request.remote_addr or "?")
    if first is None or first["player_id"] != out["player"]["id"]:
        return None
    given = player_links.issue(db, tid, out["player"]["id"], how="check-in", by=out["player"]["name"])
    return dict(given, url=request.host_url.rstrip("/") + given["path"])
