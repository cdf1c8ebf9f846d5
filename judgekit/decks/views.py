"""Web views of the decklists (thin: parse the request, call `judgekit.decks.store`, render).

Pages: the judges' overview (who has not registered, each list's problems), one player's
list (history, the organizer's entry, a judge's correction), the head judge's deck checks of
a round, the published lists. The JSON API mirrors them under /api/. A player registers
their own list from their own link (`player_links`): those pages are the player's page's
(`judgekit.live.report_views`, `/tournaments/<id>/me/<token>/deck`). Refusals are
`DeckError`s: JSON under /api/, a message on pages."""
from __future__ import annotations

from flask import Blueprint, Response, flash, jsonify, redirect, render_template, request, url_for

from judgekit.auth.views import current_name, identity, requires
from judgekit.decks import store
from judgekit.decks.store import DeckError
from judgekit.errors import worded
from judgekit.tournament.penalties import store as penalties_store
from judgekit.tournament.store import base
from judgekit.i18n import N_, Message
from judgekit.views import _, catalog, get_db, json_object, say, string_field

bp = Blueprint("decks", __name__)

OUTCOMES = {"matches": N_("matches"), "differs": N_("differs")}   # a check's outcome, as said


@bp.after_request
def _not_kept(resp):
    """Lists are private until published: no browser or proxy keeps a copy of these answers."""
    if request.endpoint not in ("decks.published_page", "decks.published_text", "decks.api_published"):
        resp.headers["Cache-Control"] = "private, no-store"
    return resp


# ------------------------------------------------------------------------------- pages

@bp.get("/tournaments/<id:tid>/decks")
@requires("decks.view")
def overview_page(tid):
    db = get_db()
    t = base.get_tournament(db, tid)
    ov = store.overview(db, t["id"])
    rounds = base.rounds(db, t["id"])
    over = store.event_over(db, t["id"])["finished"]
    return render_template("decks/overview.html", t=t, ov=ov, rounds=rounds, over=over,
                           published=store.published(db, t["id"]) if over else [])


@bp.get("/tournaments/<id:tid>/decks/<id:pid>")
@requires("decks.view")
def player_list_page(tid, pid):
    return _player_page(tid, pid)


def _player_page(tid, pid, error: DeckError | None = None, text: str = ""):
    """A player's list and its history; after a refused form, with the refusal and the text sent."""
    db = get_db()
    t = base.get_tournament(db, tid)
    p = base.get_player(db, t["id"], pid)
    return render_template("decks/player.html", t=t, p=p, lst=store.current(db, t["id"], p["id"]),
                           hist=store.history(db, t["id"], p["id"]), error=error, text=text), \
        error.status if error else 200


@bp.post("/tournaments/<id:tid>/decks/<id:pid>/enter")
@requires("decks.enter")
def enter_form(tid, pid):
    text = request.form.get("text", "")
    try:
        store.submit(get_db(), tid, pid, text, by=current_name() or "organizer", how="organizer",
                     client_id=request.form.get("client_id"))
    except DeckError as exc:
        return _player_page(tid, pid, exc, text)
    flash(_("Decklist received and locked"), "ok")
    return redirect(url_for("decks.player_list_page", tid=tid, pid=pid))


@bp.post("/tournaments/<id:tid>/decks/<id:pid>/correct")
@requires("decks.correct")
def correct_form(tid, pid):
    text = request.form.get("text", "")
    try:
        store.correct(get_db(), tid, pid, text, request.form.get("reason"), judge=current_name() or "judge",
                      client_id=request.form.get("client_id"))
    except DeckError as exc:
        return _player_page(tid, pid, exc, text)
    flash(_("Correction stored; the earlier list stays in the history"), "ok")
    return redirect(url_for("decks.player_list_page", tid=tid, pid=pid))


@bp.post("/tournaments/<id:tid>/decks/mode")
@requires("decks.enter")
def mode_form(tid):
    store.set_mode(get_db(), tid, request.form.get("mode"))
    flash(_("Decklist rules saved"), "ok")
    return redirect(url_for("decks.overview_page", tid=tid))


@bp.get("/tournaments/<id:tid>/decks/checks/<id:n>")
@requires("decks.check")
def checks_page(tid, n):
    db = get_db()
    t = base.get_tournament(db, tid)
    prop = store.proposals(db, t["id"], n)
    done = store.checks(db, t["id"], prop["round"])
    names = {p["player_id"]: p["name"] for p in prop["players"]}
    return render_template("decks/checks.html", t=t, n=prop["round"], prop=prop, done=done, names=names,
                           penalties=store.PENALTIES, catalog=penalties_store.catalog_of(db, t))


@bp.post("/tournaments/<id:tid>/decks/checks/<id:n>")
@requires("decks.check")
def check_form(tid, n):
    f = request.form
    try:
        proposed = {str(p["player_id"]) for p in store.proposals(get_db(), tid, n)["proposed"]}
        out = store.record_check(get_db(), tid, n, f.get("player"), f.get("outcome"), judge=current_name() or "judge",
                                 differences=f.get("differences"), minutes=f.get("minutes"),
                                 chosen=f.get("player") not in proposed, client_id=f.get("client_id"),
                                 counted=f.get("counted"))
    except DeckError as exc:
        flash(say(exc), "error")
        return redirect(url_for("decks.checks_page", tid=tid, n=n))
    c = out["check"]
    said = _("Deck check of %(player)s: %(outcome)s", player=c.get("name", ""), outcome=_(OUTCOMES[c["outcome"]]))
    if out.get("extension"):
        said += _("; table %(table)s extended by %(minutes)s min", table=c["table_no"], minutes=c["minutes"])
    if out.get("extension_refused"):
        said += _("; no extension: %(reason)s", reason=say(out["extension_refused"]))
    flash(said, "ok")
    return redirect(url_for("decks.checks_page", tid=tid, n=n) + f"#check-{c['id']}")


@bp.post("/tournaments/<id:tid>/decks/checks/<id:n>/<id:cid>/penalty")
@requires("decks.check")
def penalty_form(tid, n, cid):
    who = identity(tid)
    res = store.penalize(get_db(), tid, cid, request.form.get("infraction"), judge=who.name, role=who.role)
    if isinstance(res, penalties_store.Refused):
        flash(res.text(catalog()), "error")
    else:
        r = res.record
        found = penalties_store.catalog_of(get_db(), base.get_tournament(get_db(), tid)).lookup(r["infraction"])
        said = _("Penalty recorded: %(penalty)s for %(player)s (%(infraction)s)", penalty=r["penalty"],
                 player=r["player_name"], infraction=found.infraction.name if found.ok else r["infraction"])
        if res.needs_head_judge and not r.get("approved_by"):
            said += _(" — waits for approval")
        flash(said, "ok")
    return redirect(url_for("decks.checks_page", tid=tid, n=n) + f"#check-{cid}")


@bp.post("/tournaments/<id:tid>/decks/publish")
@requires("decks.enter")
def publish_form(tid):
    try:
        out = store.publish(get_db(), tid, by=current_name() or "organizer")
        flash(_("%(n)s decklists published", n=len(out)), "ok")
    except DeckError as exc:
        flash(say(exc), "error")
    return redirect(url_for("decks.overview_page", tid=tid))


@bp.get("/tournaments/<id:tid>/decks/published")
def published_page(tid):
    db = get_db()
    t = base.get_tournament(db, tid)
    return render_template("decks/published.html", t=t, lists=store.published(db, t["id"]))


@bp.get("/tournaments/<id:tid>/decks/published.txt")
def published_text(tid):
    db = get_db()
    t = base.get_tournament(db, tid)
    lists = store.published(db, t["id"])
    if not lists:
        raise DeckError(404, Message("decks.none-published", "No decklist of this event is published."))
    return Response("\n\n\n".join(x["twda"] for x in lists) + "\n", mimetype="text/plain",
                    headers={"Content-Disposition": f'attachment; filename="decklists-{t["id"]}.txt"'})


# ------------------------------------------------------------------------------- API

def _stored(row: dict, duplicate: bool):
    return jsonify({"decklist": row, "duplicate": duplicate}), 200 if duplicate else 201


def _text_of(body: dict) -> str:
    return string_field(body, "text", Message("decks.send-text", "send {\"text\": the decklist as pasted}"))


@bp.get("/api/tournaments/<id:tid>/decks")
@requires("decks.view")
def api_overview(tid):
    return jsonify(store.overview(get_db(), tid))


@bp.get("/api/tournaments/<id:tid>/decks/<id:pid>")
@requires("decks.view")
def api_player(tid, pid):
    db = get_db()
    p = base.get_player(db, tid, pid)
    return jsonify({"player": p, "decklist": store.current(db, tid, p["id"]), "history": store.history(db, tid, p["id"])})


@bp.post("/api/tournaments/<id:tid>/decks/validate")
@requires("decks.view")
def api_validate(tid):
    body = json_object('{"text": the decklist}')
    return jsonify(store.check_text(get_db(), tid, _text_of(body)))


@bp.post("/api/tournaments/<id:tid>/decks/<id:pid>")
@requires("decks.enter")
def api_enter(tid, pid):
    body = json_object('{"text": the decklist, "client_id"?}')
    return _stored(*store.submit(get_db(), tid, pid, _text_of(body), by=current_name() or "organizer",
                                 how="organizer", client_id=body.get("client_id")))


@bp.post("/api/tournaments/<id:tid>/decks/<id:pid>/correct")
@requires("decks.correct")
def api_correct(tid, pid):
    body = json_object('{"text": the corrected list, "reason": why, "client_id"?}')
    return _stored(*store.correct(get_db(), tid, pid, _text_of(body), body.get("reason"),
                                  judge=current_name() or "judge", client_id=body.get("client_id")))


@bp.get("/api/tournaments/<id:tid>/decks/checks/<id:n>")
@requires("decks.check")
def api_checks(tid, n):
    db = get_db()
    prop = store.proposals(db, tid, n)
    return jsonify({**prop, "checks": store.checks(db, tid, prop["round"])})


@bp.post("/api/tournaments/<id:tid>/decks/checks/<id:n>")
@requires("decks.check")
def api_record_check(tid, n):
    b = json_object('{"player": id, "outcome": "matches"|"differs", "differences"?, "counted"?, "minutes"?}')
    out = store.record_check(get_db(), tid, n, b.get("player"), b.get("outcome"), judge=current_name() or "judge",
                             differences=b.get("differences"), minutes=b.get("minutes"),
                             chosen=bool(b.get("chosen")), client_id=b.get("client_id"), counted=b.get("counted"))
    return jsonify(worded(out, catalog())), 200 if out["duplicate"] else 201


@bp.post("/api/tournaments/<id:tid>/decks/checks/<id:n>/<id:cid>/penalty")
@requires("decks.check")
def api_penalty(tid, n, cid):
    b = json_object('{"infraction": "illegal-main-deck-legal-decklist" | "illegal-decklist"}')
    who = identity(tid)
    res = store.penalize(get_db(), tid, cid, b.get("infraction"), judge=who.name, role=who.role)
    if isinstance(res, penalties_store.Refused):
        return jsonify(res.to_dict(catalog())), res.status
    return jsonify({"penalty": res.record, "duplicate": res.duplicate}), 200 if res.duplicate else 201


@bp.post("/api/tournaments/<id:tid>/decks/publish")
@requires("decks.enter")
def api_publish(tid):
    return jsonify({"published": store.publish(get_db(), tid, by=current_name() or "organizer")})


@bp.get("/api/tournaments/<id:tid>/decks/published")
def api_published(tid):
    return jsonify({"published": store.published(get_db(), tid)})
