"""Web views of the tournament area (thin: parse, call the store, render or jsonify).

Pages (phone first): the list of tournaments, a tournament's dashboard, a round's seating
(printable), a table's result entry, the standings (printable, and a public view), the
final's seat choice, CSV/JSON exports. The JSON API under /api/tournaments is
`judgekit.tournament.api.views`.

Every write goes through one store function; the penalties/sign-in area puts its
permission checks in front of the `POST` handlers here.
"""
from __future__ import annotations

import secrets
from functools import wraps

from flask import (Blueprint, flash, g, redirect, render_template,
                   request, url_for)
from markupsafe import Markup

from judgekit import timetext
from judgekit.auth.views import Events, create_event, current_name, require_role, requires, set_events
from judgekit.errors import parse_int
from judgekit.tournament import store
from judgekit.tournament.penalties.export import csv_text
from judgekit.tournament.players import split_name, told_apart
from judgekit.tournament.registration.views import checkin_panel_state
from judgekit.tournament.scoring import format_vp
from judgekit.tournament.store import TournamentError, result_guard, self_report
from judgekit.views import csv_or_json, get_db, venue_url
from judgekit.views import _, say
from judgekit.i18n import Said

bp = Blueprint("tournament", __name__)
# signing in asks this area for its events (`auth.views.Events`): auth sits below it
bp.record_once(lambda state: set_events(Events(get=store.get_tournament, by_client_id=store.event_by_client_id,
                                               clean_client_id=result_guard.clean_client_id)))


@bp.app_template_filter("vp")
def _vp_filter(value):
    return format_vp(value)


@bp.app_template_filter("when")
def _when_filter(value, date: bool = False):
    """A stored ISO time as people read it, in the venue's (this machine's) time: "Sat 14:05"
    (`date=True`: "Sat 21 Nov 2026 14:05")."""
    return Markup('<time datetime="{}">{}</time>').format(value or "", timetext.short(value, date=date))


@bp.app_context_processor
def _page_helpers():
    # max_len: the store's text limits, so the pages' maxlength attributes are not copies
    return {"venue_url": venue_url, "max_len": store.MAX_LEN, "name_marks": name_marks,
            "told_apart": told_apart}


def name_marks(tid: int) -> dict:
    """Player id -> what tells them from a player of the same name ("Porto";
    `players.told_apart`), for the pages that list names (the `who` macro shows it)."""
    try:
        return told_apart(store.players(get_db(), tid))
    except TournamentError:
        return {}


def form_action(endpoint_of_failure):
    """HTML form POST: on a TournamentError, flash the message and go back to the page."""
    def deco(fn):
        @wraps(fn)
        def wrapper(*args, **kwargs):
            try:
                return fn(*args, **kwargs)
            except TournamentError as exc:
                if exc.status == 404:
                    raise  # nothing to go back to: the error page
                flash(say(exc), "error")
                return redirect(endpoint_of_failure(**kwargs))
        return wrapper
    return deco


def who() -> str | None:
    """Who is making the change: the signed-in name (`judgekit.auth.views.require_role`)."""
    return current_name()


def _dashboard_url(tid, **_):
    return url_for("tournament.dashboard", tid=tid)


# --- pages ---------------------------------------------------------------------------------

@bp.get("/tournaments")
def index():
    return render_template("tournament/index.html", tournaments=store.list_tournaments(get_db()))


@bp.post("/tournaments")
def create_form():
    db = get_db()
    data = _form_dict()
    try:
        # the event and its codes in one transaction; the creator is the organizer. The
        # form's client_id: a form sent twice (a double tap, a retry) makes one event.
        made = create_event(lambda cid: store.create_tournament(db, data, client_id=cid),
                            client_id=data.pop("client_id", None) or None, creator=request.form.get("organizer"))
    except TournamentError as exc:
        flash(say(exc), "error")
        return render_template("tournament/index.html", tournaments=store.list_tournaments(db),
                               form=request.form), exc.status
    if made.duplicate:
        flash(_("This event was created already (the form was sent twice): here it is, with new sign-in codes."),
              "warn")
    return redirect(url_for("tournament.dashboard", tid=made.tid))


def _form_dict() -> dict:
    data = {k: v for k, v in request.form.items() if k != "csrf_token"}
    if "has_final_present" in data or "has_final" in data:  # a checkbox: present or not
        data["has_final"] = request.form.get("has_final", "") not in ("", "0")
    return data


@bp.get("/tournaments/<id:tid>")
@requires("tournament.view")
def dashboard(tid):
    return _render_dashboard(tid)


def _render_dashboard(tid, typed: dict | None = None, error: dict | None = None, status: int = 200):
    """The dashboard; `typed`/`error`: the registration form refused, with what was typed."""
    db = get_db()
    d = store.dashboard(db, tid)
    return render_template("tournament/dashboard.html", d=d, typed=typed, reg_error=error,
                           checkin=checkin_panel_state(d["tournament"]["id"]),
                           show_all=request.args.get("all") == "1",
                           focus=request.args.get("focus") == "register" or typed is not None), status


REGISTER_FIELDS = ("first_name", "last_name", "vekn", "city", "country")


@bp.post("/tournaments/<id:tid>/players")
@requires("players.manage")
def add_player_form(tid):
    """Register one player from the dashboard's form. A refused entry (a VEKN number taken,
    no name) comes back with everything that was typed and the message by its field; the
    name field has the focus again after each entry."""
    typed = {k: request.form.get(k, "") for k in REGISTER_FIELDS}
    data = {k: v for k, v in typed.items() if k in ("vekn", "city", "country")}
    if typed["first_name"].strip() or typed["last_name"].strip() or "name" not in request.form:
        data.update(first_name=typed["first_name"], last_name=typed["last_name"])
    else:  # one field for the whole name (split on its first space)
        data["name"] = request.form.get("name")
        typed["first_name"], typed["last_name"] = split_name(data["name"] or "")
    # the form's box: here now (checked in) or registered only; a form without it checks in
    data["checked_in"] = request.form.get("checked_in") == "1" if "checked_in_present" in request.form else True
    try:
        p = store.add_player(get_db(), tid, data, by=who())
    except TournamentError as exc:
        if exc.status == 404:
            raise
        field = exc.field if exc.field in REGISTER_FIELDS or exc.field == "name" else "form"
        typed["checked_in"] = data["checked_in"]
        return _render_dashboard(tid, typed, {"field": "first_name" if field == "name" else field,
                                              "message": say(exc)}, exc.status)
    notes = []
    if not p["checked_in"]:
        notes.append(_("not checked in yet"))
    if not p["rated"]:
        notes.append(_("no VEKN number: not rated"))
    elif p["vekn_temporary"]:
        notes.append(_("temporary number %(vekn)s", vekn=p["vekn"]))
    flash(_("%(name)s registered (%(notes)s)", name=p["name"], notes="; ".join(notes)) if notes else
          _("%(name)s registered", name=p["name"]), "ok")
    # no #fragment: a fragment makes browsers skip autofocus (the focused field is scrolled to anyway)
    return redirect(url_for("tournament.dashboard", tid=tid, focus="register"))


@bp.post("/tournaments/<id:tid>/players/<id:pid>/checkin")
@requires("players.manage")
@form_action(_dashboard_url)
def checkin_form(tid, pid):
    p = store.set_checked_in(get_db(), tid, pid, request.form.get("checked_in") == "1", by=who())
    flash(_("%(name)s checked in", name=p["name"]) if p["checked_in"] else _("%(name)s marked absent", name=p["name"]),
          "ok")
    return redirect(url_for("tournament.dashboard", tid=tid) + "#players")


@bp.post("/tournaments/<id:tid>/players/<id:pid>/drop")
@requires("players.manage")
@form_action(_dashboard_url)
def drop_form(tid, pid):
    dropping = request.form.get("dropped", "1") == "1"
    if dropping and request.form.get("confirm") != "1":
        # the dashboard asks first (Drop… then "Drop <name>"): a drop is never one stray click
        p = store.get_player(get_db(), store.get_tournament(get_db(), tid)["id"], pid)
        flash(_("%(name)s was not dropped: confirm the drop with \"Drop %(name)s\".", name=p["name"]), "error")
        return redirect(url_for("tournament.dashboard", tid=tid) + f"#player-{p['id']}")
    p = store.drop_player(get_db(), tid, pid, dropping)
    flash(_("%(name)s dropped out", name=p["name"]) if p["dropped"] else _("%(name)s reinstated", name=p["name"]), "ok")
    return redirect(url_for("tournament.dashboard", tid=tid) + "#players")


@bp.post("/tournaments/<id:tid>/rounds")
@requires("rounds.start")
@form_action(_dashboard_url)
def start_round_form(tid):
    r = store.start_round(get_db(), tid, seed=request.form.get("seed"))
    for w in r.get("warnings", []):
        flash(w, "warn")
    return redirect(url_for("tournament.round_page", tid=tid, n=r["number"]))


def _round_url(tid, n, **_):
    return url_for("tournament.round_page", tid=tid, n=n)


@bp.get("/tournaments/<id:tid>/rounds/<id:n>")
@requires("tournament.view")
def round_page(tid, n):
    db = get_db()
    t = store.get_tournament(db, tid)
    r = store.round_detail(db, t["id"], n)
    return render_template("tournament/round.html", t=t, r=r, criteria=store.criteria_page(db, t["id"], r["number"]),
                           players=[p for p in store.players(db, t["id"]) if not p["dropped"]],
                           reports=self_report.round_reports(db, t["id"], r["number"]) if r["status"] == "open" else {})


@bp.post("/tournaments/<id:tid>/rounds/<id:n>/swap")
@requires("rounds.swap")
@form_action(_round_url)
def swap_form(tid, n):
    r = store.swap_seats(get_db(), tid, n, request.form.get("a"), request.form.get("b"), by=who())
    flash(_("Seats swapped"), "ok")
    for w in r["warnings"]:
        flash(w, "warn")
    return redirect(url_for("tournament.round_page", tid=tid, n=n))


@bp.post("/tournaments/<id:tid>/rounds/<id:n>/close")
@requires("rounds.close")
@form_action(_round_url)
def close_form(tid, n):
    store.close_round(get_db(), tid, n)
    flash(_("Round %(n)s closed", n=n), "ok")
    return redirect(url_for("tournament.dashboard", tid=tid))


RESULT_ACTIONS = {"enter": "results.enter", "override": "results.override", "correct": "results.correct"}


@bp.route("/tournaments/<id:tid>/rounds/<id:n>/tables/<id:table>", methods=["GET", "POST"])
@requires("tournament.view")
def table_page(tid, n, table):
    """A table's result: entered while the round is open, overridden by the head judge, and
    corrected by the head judge (with a reason) once the round is closed. A refused form
    comes back with what was typed and each message next to its field."""
    db = get_db()
    t = store.get_tournament(db, tid)
    detail = store.table_detail(db, t["id"], n, table)
    closed = detail["round_status"] == "closed"
    typed, status = None, 200
    if request.method == "POST":
        action = request.form.get("action", "enter")
        if action not in RESULT_ACTIONS or (closed and action == "enter"):
            action = "correct" if closed else "enter"
        require_role(t["id"], RESULT_ACTIONS[action])
        size = detail["size"]
        # "Tick W for seat 2 and save": the one-tap answer to a refusal that a withdrawal explains
        ticked = [k for k in (parse_int(x, 1, size) for x in request.form.get("tick_wd", "").split(",")) if k]
        typed = {"vps": [request.form.get(f"vp{k}", "") for k in range(1, size + 1)],
                 "withdrawn": sorted({k for k in range(1, size + 1) if request.form.get(f"wd{k}")} | set(ticked)),
                 "note": request.form.get("note", ""), "reason": request.form.get("reason", ""),
                 "action": action, "based_on": request.form.get("based_on", "")}
        # what the form showed (`based_on`) and this submission's id: a stale form is refused
        # with what is stored now, a resent one is stored once (store.result_guard)
        guard = {"based_on": typed["based_on"], "client_id": request.form.get("client_id") or None}
        try:
            if action == "override":
                after = store.override_result(db, t["id"], n, table, typed["vps"], typed["reason"], by=who(),
                                              **guard)
                flash(_("Table %(table)s: override recorded", table=table), "ok")
            elif action == "correct":
                after = store.correct_result(db, t["id"], n, table, typed["vps"], typed["reason"],
                                             withdrawn=typed["withdrawn"], by=who(), **guard)
                flash(_("Table %(table)s: correction recorded; the standings use it", table=table), "ok")
            else:
                after = store.enter_result(db, t["id"], n, table, typed["vps"], withdrawn=typed["withdrawn"],
                                           note=typed["note"], by=who(),
                                           may_replace_override=g.identity.may("results.override"), **guard)
                if after["duplicate"]:
                    flash(_("Table %(table)s: this result was already stored", table=table), "ok")
                elif after["state"] == "invalid":
                    flash(_("Table %(table)s: stored, but the numbers are not possible — see below", table=table),
                          "error")
                else:
                    flash(_("Table %(table)s: result stored", table=table), "ok")
            return redirect(url_for("tournament.table_page", tid=t["id"], n=n, table=table))
        except TournamentError as exc:
            status = exc.status
            typed["messages"] = field_messages(exc.field, Said(exc.msg), exc.extra.get("problems"))
            typed["suggest_withdrawn"] = withdrawal_offer(exc.extra.get("problems"), typed["withdrawn"])
            if exc.status == 409 and "stored" in exc.extra:
                # shown what is stored now: sent again, the form replaces it (if allowed)
                detail = store.table_detail(db, t["id"], n, table)
                typed["conflict"] = exc.extra["stored"]
                typed["overridden"] = bool(exc.extra.get("overridden"))
                typed["based_on"] = detail["result_id"] or ""
    messages = typed["messages"] if typed else field_messages(None, None, detail["errors"])
    refused_vps = bool(typed) and any(k == "vps" or k.startswith("seat:") for k in messages)
    offer = typed["suggest_withdrawn"] if typed else withdrawal_offer(detail["errors"], detail["withdrawn"])
    based_on = typed["based_on"] if typed else (detail["result_id"] or "")
    return render_template("tournament/table.html", t=t, tb=detail, typed=typed, messages=messages,
                           refused_vps=refused_vps, closed=closed, offer=offer, based_on=based_on,
                           client_id=secrets.token_urlsafe(12),
                           report=self_report.table_report(db, t["id"], n, table)), status


def withdrawal_offer(problems, withdrawn) -> list[int]:
    """Seats whose withdrawal would make refused VP possible (`scoring.withdrawals_explaining`,
    carried by the table check's problems as `suggest_withdrawn`): the page offers to tick
    them in one tap."""
    for p in problems or ():
        seats = [s for s in (p.get("suggest_withdrawn") or ()) if s not in (withdrawn or ())]
        if seats:
            return seats
    return []


def field_messages(field, message, problems) -> dict:
    """Messages by where the form shows them: `"seat:N"` next to seat N's VP, `"vps"` under
    the VP (the numbers together), `"reason"`, `"note"`, else `"form"` at the top. Each is
    `{"message", "rule"}`."""
    out: dict[str, list[dict]] = {}
    if problems:
        for p in problems:
            key = f"seat:{p['seat']}" if p.get("seat") else "vps"
            out.setdefault(key, []).append({"message": p["message"], "rule": p.get("rule")})
    elif message:
        key = field if field in ("vps", "reason", "note") else "form"
        out.setdefault(key, []).append({"message": message, "rule": None})
    return out


@bp.get("/tournaments/<id:tid>/standings")
@requires("tournament.view")
def standings_page(tid):
    return _render_standings(tid, public=False)


@bp.get("/tournaments/<id:tid>/public")
def public_standings(tid):
    return _render_standings(tid, public=True)


def _render_standings(tid, public: bool):
    """The standings page for the judges, or the public view (`public_rows`)."""
    db = get_db()
    t = store.get_tournament(db, tid)
    targets = store.sa_targets(db, t["id"])
    s = store.standings(db, t["id"], targets)
    res = store.results(db, t["id"], s)
    names = {p["id"]: p["name"] for p in store.players(db, t["id"])}
    unplaced = []
    if public:
        res = dict(res, rows=public_rows(res["rows"]))
    else:
        # adjustments that count nowhere yet (a next game not seated, a dropped player...)
        unplaced = [dict(x, name=names.get(x["player_id"])) for x in targets if x["round"] is None]
    discarded = [dict(d, names=[names.get(p, f"#{p}") for p in d["players"]]) for d in s.discarded_tosses]
    prelims = len([r for r in store.rounds(db, t["id"]) if r["kind"] == "prelim" and r["status"] == "closed"])
    return render_template("tournament/standings.html", t=t, s=s, res=res, public=public, prelims=prelims,
                           unplaced=unplaced, discarded=discarded)


def public_rows(rows: list[dict]) -> list[dict]:
    """Standings rows fit for the public: penalty outcomes are never public, so a player who
    dropped and one who was disqualified are alike "unranked", ordered by their scores and
    name only; no penalty adjustment or toss detail is shown (the VP include adjustments,
    as standings must)."""
    ranked = [dict(r) for r in rows if r["status"] == "active"]
    unranked = sorted((dict(r) for r in rows if r["status"] != "active"),
                      key=lambda r: (-r["gw"], -r["vp"], -r["tp"], str(r["name"])))
    for r in unranked:
        r.update(status="unranked", dropped=False, disqualified=False)
    for r in ranked + unranked:
        r.update(adjustment=0, toss=None)
    return ranked + unranked


@bp.post("/tournaments/<id:tid>/toss")
@requires("final.run")
@form_action(lambda tid, **_: url_for("tournament.standings_page", tid=tid))
def toss_form(tid):
    # the tie the page showed: a second head judge's click on the same tie is refused
    # (409, the order drawn) instead of drawing the next tie
    shown = [x for x in request.form.get("players", "").split(",") if x.strip()]
    res = store.record_toss(get_db(), tid, shown or None, by=who())
    flash(_("Toss drawn (seed %(seed)s)", seed=res["seed"]), "ok")
    return redirect(url_for("tournament.standings_page", tid=tid))


def _final_url(tid, **_):
    return url_for("tournament.final_page", tid=tid)


@bp.get("/tournaments/<id:tid>/final")
@requires("tournament.view")
def final_page(tid):
    db = get_db()
    t = store.get_tournament(db, tid)
    return render_template("tournament/final.html", t=t, f=store.final_state(db, t["id"]))


@bp.post("/tournaments/<id:tid>/final/start")
@requires("final.run")
@form_action(_final_url)
def final_start_form(tid):
    store.start_final(get_db(), tid)
    return redirect(url_for("tournament.final_page", tid=tid))


@bp.post("/tournaments/<id:tid>/final/undo")
@requires("final.run")
@form_action(_final_url)
def final_undo_form(tid):
    store.undo_final(get_db(), tid, by=who())
    flash(_("The final's set-up was undone: the standings decide the qualifiers again"), "ok")
    return redirect(url_for("tournament.final_page", tid=tid))


@bp.post("/tournaments/<id:tid>/final/place")
@requires("final.run")
@form_action(_final_url)
def final_place_form(tid):
    store.place_final_card(get_db(), tid, request.form.get("player_id"), request.form.get("position"), by=who())
    return redirect(url_for("tournament.final_page", tid=tid))


@bp.post("/tournaments/<id:tid>/final/reset")
@requires("final.run")
@form_action(_final_url)
def final_reset_form(tid):
    store.reset_final_choices(get_db(), tid, by=who())
    return redirect(url_for("tournament.final_page", tid=tid))


@bp.post("/tournaments/<id:tid>/final/seat")
@requires("final.run")
@form_action(_final_url)
def final_seat_form(tid):
    store.seat_final(get_db(), tid)
    return redirect(url_for("tournament.final_page", tid=tid))


# --- exports -----------------------------------------------------------------------------------

@bp.get("/tournaments/<id:tid>/export/standings.<fmt>")
@requires("export")
def export_standings(tid, fmt):
    db = get_db()
    t = store.get_tournament(db, tid)
    rows = store.standings_rows(db, t["id"])
    return csv_or_json(fmt, f"standings-{t['id']}", lambda: csv_text(store.STANDINGS_COLUMNS, rows),
                       lambda: {"tournament": t["id"], "name": t["name"], "standings": rows})


@bp.get("/tournaments/<id:tid>/export/seating.<fmt>")
@requires("export")
def export_seating(tid, fmt):
    db = get_db()
    t = store.get_tournament(db, tid)
    rounds = store.rounds(db, t["id"])
    which = request.args.get("round")
    if which:
        rows = store.seating_rows(db, t["id"], which)
    else:
        rows = [row for r in rounds for row in store.seating_rows(db, t["id"], r["number"])]
    return csv_or_json(fmt, f"seating-{t['id']}", lambda: csv_text(store.SEATING_COLUMNS, rows),
                       lambda: {"tournament": t["id"], "name": t["name"], "seating": rows,
                                **store.export_criteria(db, t["id"], rows)})
