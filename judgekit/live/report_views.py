"""Web views of tables that report their own result (thin: parse, call
`tournament.store.self_report` / `live.table_reports`, answer). docs/tournament.md.

The player's own link (no sign-in: the link is the key; `player_links`; the one link a
player gets, for their decklist and their table's result):
- `GET /tournaments/<id>/me/<token>` — the player's page: their decklist's state (and, before
  round 1 and until one is received, the form to paste it), their table, the proposal and who
  confirmed, the forms to propose, confirm or disagree (`POST …/me/<token>/propose`,
  `…/reports/<report>/confirm`, `…/reports/<report>/dispute`).
- `GET|POST /tournaments/<id>/me/<token>/deck` — their decklist: check it, send it (then it is
  locked: `judgekit.decks.store`), or see it as received.
- JSON: `GET /api/tournaments/<id>/me/<token>`, `POST /api/tournaments/<id>/me/<token>/report`
  `{"vps", "withdrawn", "client_id"}`, `POST …/reports/<report>/confirm`,
  `POST …/reports/<report>/dispute` `{"note"}`, `GET|POST /api/tournaments/<id>/me/<token>/deck`
  `{"text", "client_id"?, "check_only"?}`.
Judges: `POST /tournaments/<id>/rounds/<n>/tables/<t>/reports/<report>/accept` (the table
page's button) and its `/api/…` twin; the desk gives a player a new link:
`POST /api/tournaments/<id>/players/<pid>/link` and the page `/tournaments/<id>/player-links`.
"""
from __future__ import annotations

import functools
import time

from flask import Blueprint, current_app, flash, g, jsonify, make_response, redirect, render_template, request, url_for

from judgekit import qr
from judgekit.auth.throttle import Throttle, Ticket
from judgekit.auth.views import current_name, requires
from judgekit.decks import store as decks_store
from judgekit.decks.store import DeckError
from judgekit.errors import AppError, parse_int, worded
from judgekit.live import table_reports
from judgekit.tournament.store import base, player_links, self_report
from judgekit.tournament.store.base import TournamentError
from judgekit.i18n import Message
from judgekit.views import ApiError, _, catalog, get_db, json_object, say, string_field

bp = Blueprint("reports", __name__)


# --- unknown links are slowed down per device ------------------------------------------------------

def _throttle() -> Throttle:
    found = current_app.extensions.get("player_link_throttle")
    if found is None:
        found = current_app.extensions.setdefault("player_link_throttle", Throttle())
    return found


def player_link(view):
    """For the views a player's own link opens: a device whose links keep being unknown
    (404) waits before its next try (`auth.throttle`, as wrong check-in codes do): 429 with
    `retry_after`. Any other answer (a refused decklist included) gives the try back."""
    @functools.wraps(view)
    def run(tid, token, **kw):
        ticket = _throttle().begin(request.remote_addr or "?", int(tid), "player-link", time.monotonic())
        if not isinstance(ticket, Ticket):
            seconds = max(1, int(ticket + 0.999))
            raise ApiError(429, Message("links.too-many-unknown", "Too many unknown player links from this device: wait "
                                        "%(seconds)s seconds and try again, or ask at the desk for your link.",
                                        seconds=seconds), "token", retry_after=seconds)
        try:
            resp = make_response(view(tid, token, **kw))
        except AppError as exc:
            if exc.status != 404:
                _throttle().succeeded(ticket)
            raise
        if resp.status_code != 404:
            _throttle().succeeded(ticket)
        return resp
    return run


# --- the player's page --------------------------------------------------------------------------

def _page(tid: int, token: str, *, error: TournamentError | None = None, typed: dict | None = None,
          status: int = 200):
    db = get_db()
    t = base.get_tournament(db, tid)
    try:
        state = self_report.player_state(db, t["id"], token)
    except TournamentError as exc:   # an unknown, replaced or stopped link: say so, plainly
        return render_template("reports/me.html", t=t, token=token, state=None, error=say(exc),
                               messages={}, typed=None, offer=[]), exc.status
    messages = _messages(error) if error else {}
    offer = [s for s in (error.extra.get("suggest_withdrawn") or []) if s not in (typed or {}).get("withdrawn", [])] \
        if error else []
    return _private(render_template("reports/me.html", t=t, token=token, state=state,
                                    error=say(error) if error else None, messages=messages, typed=typed,
                                    offer=offer, deck=_deck(db, t["id"], state["player"]["id"])), status)


def _deck(db, tid: int, player_id: int) -> dict:
    """The decklist part of a player's page: their list in force (`list`, None before one is
    received) and whether their link still takes one (`open`: round 1 has not begun)."""
    return {"list": decks_store.current(db, tid, player_id), "open": not base.rounds(db, tid)}


def _private(body, status: int = 200):
    """A player's own answer: no browser or proxy keeps a copy (decklists are private)."""
    resp = make_response(body, status)
    resp.headers["Cache-Control"] = "private, no-store"
    return resp


def _messages(exc: TournamentError) -> dict:
    """The refusal's messages by place: "seat:N" next to seat N, "vps" under the numbers."""
    out: dict[str, list[str]] = {}
    for p in exc.extra.get("problems") or ():
        out.setdefault(f"seat:{p['seat']}" if p.get("seat") else "vps", []).append(p["message"])
    return out


def _back(tid: int, token: str, anchor: str = ""):
    return redirect(url_for("reports.me_page", tid=tid, token=token) + anchor)


@bp.get("/tournaments/<id:tid>/me/<token>")
@player_link
def me_page(tid, token):
    return _page(tid, token)


@bp.post("/tournaments/<id:tid>/me/<token>/propose")
@player_link
def propose_form(tid, token):
    db = get_db()
    size = len([k for k in request.form if k.startswith("vp") and k[2:].isdigit()])
    size = size if 4 <= size <= 5 else 5
    ticked = [k for k in (parse_int(x, 1, size) for x in request.form.get("tick_wd", "").split(",")) if k]
    typed = {"vps": [request.form.get(f"vp{k}", "") for k in range(1, size + 1)],
             "withdrawn": sorted({k for k in range(1, size + 1) if request.form.get(f"wd{k}")} | set(ticked))}
    try:
        self_report.propose(db, tid, token, typed["vps"], withdrawn=typed["withdrawn"],
                            client_id=request.form.get("client_id") or None)
    except TournamentError as exc:
        return _page(tid, token, error=exc, typed=typed, status=exc.status)
    flash(_("Your proposal is sent: the other players confirm it on their phones."), "ok")
    return _back(tid, token)


@bp.post("/tournaments/<id:tid>/me/<token>/reports/<id:rid>/confirm")
@player_link
def confirm_form(tid, token, rid):
    try:
        after = self_report.confirm(get_db(), tid, token, rid)
    except TournamentError as exc:
        return _page(tid, token, error=exc, status=exc.status)
    flash(_("The result counts: every player confirmed it.") if after["report"]["status"] == "counted"
          else _("Confirmed."), "ok")
    return _back(tid, token)


@bp.post("/tournaments/<id:tid>/me/<token>/reports/<id:rid>/dispute")
@player_link
def dispute_form(tid, token, rid):
    try:
        after = table_reports.dispute(get_db(), tid, token, rid, note=request.form.get("note") or None)
    except TournamentError as exc:
        return _page(tid, token, error=exc, status=exc.status)
    flash(_("A judge is called to your table to settle the result.") if after["call"] else
          _("Your disagreement is recorded, but the judge call failed: %(problem)s Find a judge.",
            problem=say(after["call_problem"])), "ok" if after["call"] else "error")
    return _back(tid, token)


# --- the player's decklist ------------------------------------------------------------------------

@bp.route("/tournaments/<id:tid>/me/<token>/deck", methods=["GET", "POST"])
@player_link
def deck_page(tid, token):
    """The player's decklist: paste, check, send (before round 1; once received it is locked);
    then their list as received."""
    db = get_db()
    t = base.get_tournament(db, tid)
    try:
        p = player_links.resolve(db, t["id"], token)
    except TournamentError as exc:   # an unknown, replaced or stopped link: say so, plainly
        return _private(render_template("decks/mine.html", t=t, p=None, token=token, bad_link=say(exc)),
                        exc.status)
    text = request.form.get("text", "") if request.method == "POST" else ""
    checked, error, status = None, None, 200
    if request.method == "POST":
        if request.form.get("action") == "submit":
            try:
                decks_store.submit(db, t["id"], p["id"], text, by=p["name"], how="player-link",
                                   client_id=request.form.get("client_id") or None)
                flash(_("Your decklist was received. It is now locked."), "ok")
                return _back(tid, token, "#me-deck")
            except DeckError as exc:
                error, status = exc, exc.status
                checked = decks_store.check_text(db, t["id"], text) if exc.status == 422 else None
        else:
            checked = decks_store.check_text(db, t["id"], text)
    deck = _deck(db, t["id"], p["id"])
    return _private(render_template("decks/mine.html", t=t, p=p, token=token, lst=deck["list"], text=text,
                                    checked=checked, error=error, started=not deck["open"], bad_link=None),
                    status)


def _deck_text(body: dict) -> str:
    return string_field(body, "text", Message("reports.send-deck-text", "send {\"text\": your decklist as pasted}"))


@bp.get("/api/tournaments/<id:tid>/me/<token>/deck")
@player_link
def api_deck(tid, token):
    db = get_db()
    p = player_links.resolve(db, tid, token)
    deck = _deck(db, p["tournament_id"], p["id"])
    return _private(jsonify({"player": {"id": p["id"], "name": p["name"]}, "decklist": deck["list"],
                             "open": deck["open"]}))


@bp.post("/api/tournaments/<id:tid>/me/<token>/deck")
@player_link
def api_deck_send(tid, token):
    db = get_db()
    p = player_links.resolve(db, tid, token)
    body = json_object('{"text": your decklist, "client_id"?, "check_only"?}')
    if body.get("check_only"):
        return _private(jsonify(decks_store.check_text(db, p["tournament_id"], _deck_text(body))))
    row, duplicate = decks_store.submit(db, p["tournament_id"], p["id"], _deck_text(body), by=p["name"],
                                        how="player-link", client_id=body.get("client_id"))
    return _private(jsonify({"decklist": row, "duplicate": duplicate}), 200 if duplicate else 201)


# --- the player's JSON API ------------------------------------------------------------------------

@bp.get("/api/tournaments/<id:tid>/me/<token>")
@player_link
def api_me(tid, token):
    return jsonify(self_report.player_state(get_db(), tid, token))


@bp.post("/api/tournaments/<id:tid>/me/<token>/report")
@player_link
def api_propose(tid, token):
    body = json_object('{"vps": [VP per seat], "withdrawn": [seat numbers], "client_id": "..."}')
    out = self_report.propose(get_db(), tid, token, body.get("vps"), withdrawn=body.get("withdrawn"),
                              client_id=body.get("client_id"))
    return jsonify(out), 200 if out["duplicate"] else 201


@bp.post("/api/tournaments/<id:tid>/me/<token>/reports/<id:rid>/confirm")
@player_link
def api_confirm(tid, token, rid):
    out = self_report.confirm(get_db(), tid, token, rid)
    return jsonify(out), 200 if out["duplicate"] else 201


@bp.post("/api/tournaments/<id:tid>/me/<token>/reports/<id:rid>/dispute")
@player_link
def api_dispute(tid, token, rid):
    body = json_object('{"note": "what is wrong (optional)"}', required=False)
    out = table_reports.dispute(get_db(), tid, token, rid, note=body.get("note"))
    return jsonify(worded(out, catalog())), 200 if out["duplicate"] else 201


# --- judges -----------------------------------------------------------------------------------------

@bp.post("/tournaments/<id:tid>/rounds/<id:n>/tables/<id:table>/reports/<id:rid>/accept")
@requires("results.enter")
def accept_form(tid, n, table, rid):
    try:
        table_reports.accept(get_db(), tid, n, table, rid, judge=current_name() or "a judge",
                             may_replace_override=g.identity.may("results.override"))
        flash(_("Table %(table)s: the players' result is accepted and the table locked", table=table), "ok")
    except TournamentError as exc:
        flash(_("Table %(table)s: not accepted — %(reason)s", table=table, reason=say(exc)), "error")
    return redirect(url_for("tournament.table_page", tid=tid, n=n, table=table))


@bp.post("/api/tournaments/<id:tid>/rounds/<id:n>/tables/<id:table>/reports/<id:rid>/accept")
@requires("results.enter")
def api_accept(tid, n, table, rid):
    out = table_reports.accept(get_db(), tid, n, table, rid, judge=current_name() or "a judge",
                               may_replace_override=g.identity.may("results.override"))
    return jsonify(out), 200 if out["duplicate"] else 201


# --- the desk gives links --------------------------------------------------------------------------

@bp.post("/api/tournaments/<id:tid>/players/<id:pid>/link")
@requires("results.enter")
def api_new_link(tid, pid):
    out = player_links.issue(get_db(), tid, pid, how="desk", by=current_name())
    return jsonify(dict(out, url=request.host_url.rstrip("/") + out["path"])), 201


@bp.route("/tournaments/<id:tid>/player-links", methods=["GET", "POST"])
@requires("results.enter")
def links_page(tid):
    """The desk: who has a player link, and a new one for a player (shown once, with its
    QR code to scan)."""
    db = get_db()
    t = base.get_tournament(db, tid)
    given = None
    if request.method == "POST":
        given = player_links.issue(db, t["id"], request.form.get("player_id"), how="desk", by=current_name())
        given["url"] = request.host_url.rstrip("/") + given["path"]
        given["qr"] = qr.svg(given["url"], title=_("Player link of %(player)s", player=given["name"]))
    return render_template("reports/links.html", t=t, players=base.players(db, t["id"]),
                           given=given, links=player_links.links_given(db, t["id"]))
