"""Web views of penalties and time extensions (thin: parse, check the role, call the store).

Pages (phone first): the penalty form (`/tournaments/<tid>/penalties/new`, pre-filled from a
recorder finding through `/games/<id>/penalty?event=&code=`), the head judge's list
(`/tournaments/<tid>/penalties`), a player's record, the printable report, the table
clocks with the extension form (`/tournaments/<tid>/time`). JSON API under
`/api/tournaments/<tid>/penalties…`, `/api/tournaments/<tid>/clocks`,
`/api/time/suggest`. Exports: `/tournaments/<tid>/export/penalties.csv|.json`.

Every route names the action it needs (`judgekit.auth.roles`); penalty records are never
shown to someone who is not signed in to the tournament.
"""
from __future__ import annotations

import secrets
import time
from typing import Any, Callable

from flask import (Blueprint, flash, g, jsonify, redirect, render_template, request,
                   url_for)

from judgekit import timetext
from judgekit.auth.views import require_role, requires, safe_next
from judgekit.tournament import store as tstore
from judgekit.tournament.penalties import extensions
from judgekit.tournament.penalties import store as pstore
from judgekit.tournament.penalties.deviation import (description_required, head_judge_reasons,
                                                    needs_head_judge)
from judgekit.tournament.penalties.export import CSV_COLUMNS
from judgekit.errors import parse_int, worded
from judgekit.views import ApiError, csv_or_json, get_db, json_body
from judgekit.recorder import store as rstore
from judgekit.recorder.findings import cite_rule
from judgekit.recorder import views as recorder_views
from judgekit.views import _, catalog, say
from judgekit.i18n import Message

bp = Blueprint("penalties", __name__)

#: Other areas' sections of the printed penalty report: `section(db, tournament_id) -> dict`
#: of template values. The hall adds its judge calls (`judgekit.live.views`, when its
#: blueprint is registered), so this area does not import the hall.
REPORT_SECTIONS: list[Callable[[Any, int], dict]] = []


def add_report_section(section: Callable[[Any, int], dict]) -> None:
    if section not in REPORT_SECTIONS:
        REPORT_SECTIONS.append(section)

FORM_FIELDS = ("player", "player_name", "vekn", "infraction", "variant", "penalty", "description",
               "rule", "reason", "approval_reason", "round", "table", "game", "event", "client_id",
               "proposed_seen", "finding", "next")


@bp.record_once
def _load_catalogs(state) -> None:
    pstore.catalogs()  # bad catalog content stops the app at start-up, not at the first penalty


# the recorder's pages show a tournament table's clock: the tournament works it out
bp.record_once(lambda state: recorder_views.set_table_clock(extensions.game_table_clock))


def _fail(refused: pstore.Refused):
    body = refused.to_dict(catalog())
    extra = {k: v for k, v in body.items() if k not in ("error", "status", "field")}
    raise ApiError(refused.status, refused.said if len(refused.problems) == 1 else body["error"],
                   field=refused.field, **extra)


# --- the form -------------------------------------------------------------------------------------

def _form_context(db, t: dict, values: dict, errors: dict | None = None) -> dict:
    """Everything the form shows for `values` (the query or the posted form)."""
    who = g.identity
    cat = pstore.catalog_of(db, t)
    everyone = tstore.players(db, t["id"])
    pid = parse_int(values.get("player"))
    player = next((p for p in everyone if p["id"] == pid), None)
    seats = []
    rnd, table = parse_int(values.get("round")), parse_int(values.get("table"))
    if rnd and table:
        try:
            seats = tstore.table_detail(db, t["id"], rnd, table)["seats"]
        except tstore.TournamentError:
            seats = []
    found = cat.lookup(values.get("infraction")) if values.get("infraction") else None
    inf = found.infraction if found and found.ok else None
    proposal = None
    if inf is not None and (player is not None or values.get("player_name")):
        proposal = pstore.propose_for(db, t["id"], player["id"] if player else None, inf.id,
                                      values.get("variant") or None)
    penalty = values.get("penalty") or (proposal.penalty if proposal and proposal.ok else None)
    record = pstore.player_record(db, t["id"], player["id"]) if player else None
    hj_reasons = head_judge_reasons(cat, penalty, proposal) if proposal and proposal.ok else []
    finding = already = None
    if values.get("finding") and values.get("game") and values.get("event"):
        finding = _finding(db, parse_int(values.get("game")), parse_int(values.get("event")),
                           values.get("finding"), tournament_id=t["id"])
        already = pstore.penalty_for_finding(db, t["id"], values.get("game"), values.get("event"),
                                             values.get("finding"))
    return {
        "t": t, "who": who, "cat": cat, "categories": cat.categories(), "players": everyone,
        "seats": seats, "player": player, "inf": inf, "lookup": found, "proposal": proposal,
        "penalty": penalty, "record": record, "values": values, "errors": errors or {},
        "needs_hj": bool(proposal and proposal.ok and needs_head_judge(cat, penalty, proposal)),
        "hj_reasons": hj_reasons,
        "description_required": bool(inf and description_required(cat, inf, penalty)),
        "finding": finding, "already": already,
        "client_id": values.get("client_id") or secrets.token_urlsafe(12),
        "may_approve": who.may("penalties.approve"),
    }


def _finding(db, game_id: int | None, seq: int | None, code: str | None, *,
             tournament_id: int | None = None) -> dict | None:
    """The finding `code` of event `seq` in a game, with its seat. With `tournament_id` (the
    form of that tournament), only a game of that tournament counts: the same check as a
    read of the game, so no other event's game, names or findings show through the form."""
    if game_id is None or seq is None:
        return None
    if tournament_id is not None:
        game = rstore.get_game(db, game_id)
        if game is None or game.get("tournament_id") != tournament_id:
            return None
    view = rstore.game_view(db, game_id)
    if view is None:
        return None
    for f in view["findings"]:
        if f["seq"] == seq and (code is None or f["code"] == code):
            seat = f.get("seat")
            if seat is None:
                event = next((e for e in view["events"] if e["seq"] == seq), {})
                seat = event.get("seat")
            return dict(f, seat=seat, game=view["game"])
    return None


@bp.get("/games/<id:game_id>/penalty")
def from_finding(game_id: int):
    """One tap from a recorder finding: the penalty form of the game's tournament, pre-filled
    (player of the seat, game, event, suggested infraction, citation)."""
    db = get_db()
    game = rstore.get_game(db, game_id)
    if game is None:
        raise ApiError(404, Message("penalties.there-no-game", "there is no game %(game_id)s", game_id=game_id))
    if not game.get("tournament_id"):
        raise ApiError(404, Message("penalties.this-practice-game-penalties-are", "This is a practice game: penalties are recorded in a tournament only."))
    tid = game["tournament_id"]
    require_role(tid, "penalties.issue")
    seq = parse_int(request.args.get("event"))
    f = _finding(db, game_id, seq, request.args.get("code"))
    args = {"game": game_id, "round": game.get("round_no"), "table": game.get("table_no"),
            "next": url_for("recorder.game_page", game_id=game_id)}
    if seq:
        args["event"] = seq
    if f is not None:
        args["finding"] = f["code"]
        if f.get("infraction"):
            args["infraction"] = f["infraction"]
        if f.get("cite") and cite_rule(f["cite"]):   # a rules page (not the infraction guide)
            args["rule"] = cite_rule(f["cite"])
        args["description"] = f"Event #{f['seq']}: {f['message']}"
        if f.get("seat") and game.get("round_no") and game.get("table_no"):
            try:
                seats = tstore.table_detail(db, tid, game["round_no"], game["table_no"])["seats"]
                if 1 <= f["seat"] <= len(seats):
                    args["player"] = seats[f["seat"] - 1]["player_id"]
            except tstore.TournamentError:
                pass
    return redirect(url_for("penalties.new_form", tid=tid, **{k: v for k, v in args.items() if v is not None}))


@bp.get("/tournaments/<id:tid>/penalties/new")
@requires("penalties.issue")
def new_form(tid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    values = {k: request.args.get(k, "") for k in FORM_FIELDS}
    return render_template("penalties/form.html", **_form_context(db, t, values))


@bp.post("/tournaments/<id:tid>/penalties/new")
@requires("penalties.issue")
def issue_form(tid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    values = {k: request.form.get(k, "") for k in FORM_FIELDS}
    if request.form.get("player") == "other":
        values["player"] = ""
    if request.form.get("action") == "refresh":
        values["penalty"] = ""
        return render_template("penalties/form.html", **_form_context(db, t, values))
    data = {k: v for k, v in values.items() if k != "next"}
    data["approve"] = request.form.get("approve") == "1"
    who = g.identity
    res = pstore.issue(db, t["id"], data, judge=who.name, role=who.role)
    if isinstance(res, pstore.Refused):
        errors: dict[str, list] = {}
        for p in res.problems:
            errors.setdefault(p.field or "form", []).append(p)
        ctx = _form_context(db, t, values, errors)
        return render_template("penalties/form.html", **ctx), res.status
    rec = res.record
    what = _("%(penalty)s for %(player)s (%(infraction)s)", penalty=rec["penalty"] or _("Remedy"),
             player=rec["player_name"], infraction=_inf_name(db, t, rec))
    if res.duplicate:
        flash(_("Already recorded: %(what)s (record %(id)s).", what=what, id=rec["id"]), "ok")
    else:
        flash(_("Recorded: %(what)s.", what=what) + (" " + _(
            "%(name)s was added to the event, not checked in: the organizer decides whether they play.",
            name=rec["player_name"]) if res.added_player else ""), "ok")
        if res.needs_head_judge:
            flash(_("Waiting for the head judge's approval: %(reasons)s", reasons=" ".join(say(r) for r in res.head_judge_reasons)),
                  "warn")
        for note in res.notes:
            flash(_(note), "warn" if res.applies and res.applies["round"] is None else "ok")
    nxt = safe_next(values.get("next"))
    if nxt:
        return redirect(nxt)
    if rec.get("player") is not None:
        return redirect(url_for("penalties.player_page", tid=t["id"], pid=rec["player"]))
    return redirect(url_for("penalties.new_form", tid=t["id"]))


def _inf_name(db, t, rec) -> str:
    inf = pstore.catalog_of(db, t).get(rec.get("infraction") or "")
    return inf.name if inf else str(rec.get("infraction"))


# --- head judge's list, player record, report ---------------------------------------------------------

def _decorate(db, t, recs):
    cat = pstore.catalog_of(db, t)
    applies = pstore.applies_to(db, t["id"], recs)
    out = []
    for r in recs:
        inf = cat.get(r.get("infraction") or "")
        target = applies.get(r.get("id"))
        out.append(dict(r, infraction_name=inf.name if inf else r.get("infraction"),
                        applies=target.to_dict() if target else None,
                        category=inf.category if inf else None,
                        abbr=cat.abbr(r["penalty"]) if r.get("penalty") else "—",
                        needs_hj=needs_head_judge(cat, r.get("penalty"), r.get("proposed")),
                        reasons=head_judge_reasons(cat, r.get("penalty"), r.get("proposed"))))
    return out


@bp.get("/tournaments/<id:tid>/penalties")
@requires("penalties.list")
def list_page(tid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    rep = pstore.report(db, t["id"])
    current = _decorate(db, t, pstore.current(db, t["id"]))
    current.sort(key=lambda r: r["id"], reverse=True)
    offenders = [p for p in rep.players if len(p.records) > 1 or p.repeats]
    return render_template("penalties/list.html", t=t, rep=rep, records=current,
                           pending=_decorate(db, t, rep.pending), offenders=offenders,
                           cat=pstore.catalog_of(db, t), log_count=len(pstore.records(db, t["id"])))


@bp.get("/tournaments/<id:tid>/penalties/players/<id:pid>")
@requires("penalties.player")
def player_page(tid, pid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    player = tstore.get_player(db, t["id"], pid)
    rep = pstore.player_record(db, t["id"], player["id"])
    cat = pstore.catalog_of(db, t)
    games = sorted(tstore.player_games(db, t["id"], [player["id"]]).get(player["id"], {}).items())
    names = {r["number"]: ("the final" if r["kind"] == "final" else f"round {r['number']}")
             for r in tstore.rounds(db, t["id"])}
    return render_template("penalties/player.html", t=t, player=player, rep=rep, cat=cat,
                           records=_decorate(db, t, rep.records) if rep else [],
                           lifted=_decorate(db, t, rep.lifted) if rep else [],
                           levels=cat.level_names(),
                           games=[{"round": r, "table": tb, "label": f"{names.get(r, f'round {r}')}, table {tb}"}
                                  for r, tb in games])


@bp.get("/tournaments/<id:tid>/penalties/report")
@requires("export")
def report_page(tid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    rep = pstore.report(db, t["id"])
    players = [(p, _decorate(db, t, p.records), _decorate(db, t, p.lifted)) for p in rep.players]
    sections: dict[str, Any] = {}
    for section in REPORT_SECTIONS:   # the hall's judge calls go in the same report
        sections.update(section(db, t["id"]))
    return render_template("penalties/report.html", t=t, rep=rep, players=players,
                           cat=pstore.catalog_of(db, t), generated=extensions.iso(time.time()),
                           **sections)


def _follow_up_form(tid, rid, fn, done: str):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    who = g.identity
    data = {k: v for k, v in request.form.items() if k not in ("csrf_token", "next")}
    res = fn(db, t["id"], rid, data, judge=who.name, role=who.role)
    if isinstance(res, pstore.Refused):
        if res.status == 404:
            raise ApiError(404, res.said)
        flash(res.text(catalog()), "error")
    else:
        flash(done % {"id": rid}, "ok")
    nxt = safe_next(request.form.get("next"))
    return redirect(nxt or url_for("penalties.list_page", tid=t["id"]))


@bp.post("/tournaments/<id:tid>/penalties/<id:rid>/approve")
@requires("penalties.approve")
def approve_form(tid, rid):
    return _follow_up_form(tid, rid, pstore.approve, _("Record %(id)s approved."))


@bp.post("/tournaments/<id:tid>/penalties/<id:rid>/lift")
@requires("penalties.amend")
def lift_form(tid, rid):
    return _follow_up_form(tid, rid, pstore.lift, _("Record %(id)s lifted."))


@bp.post("/tournaments/<id:tid>/penalties/<id:rid>/amend")
@requires("penalties.amend")
def amend_form(tid, rid):
    return _follow_up_form(tid, rid, pstore.amend, _("Record %(id)s amended."))


@bp.post("/tournaments/<id:tid>/penalties/<id:rid>/move")
@requires("penalties.amend")
def move_form(tid, rid):
    """The head judge moves a Standings Adjustment to another of the player's games: the
    form's `game` is "round:table"."""
    db = get_db()
    t = tstore.get_tournament(db, tid)
    who = g.identity
    rnd, _colon, tbl = (request.form.get("game") or "").partition(":")
    data = {"round": rnd, "table": tbl, "reason": request.form.get("reason"),
            "client_id": request.form.get("client_id")}
    res = pstore.move(db, t["id"], rid, data, judge=who.name, role=who.role)
    if isinstance(res, pstore.Refused):
        if res.status == 404:
            raise ApiError(404, res.said)
        flash(res.text(catalog()), "error")
    else:
        flash(_("Record %(id)s now applies to %(where)s: the standings follow.", id=rid, where=say(res.applies["where"])),
              "ok")
    nxt = safe_next(request.form.get("next"))
    return redirect(nxt or url_for("penalties.list_page", tid=t["id"]))


# --- exports ---------------------------------------------------------------------------------------------

@bp.get("/tournaments/<id:tid>/export/penalties.<fmt>")
@requires("export")
def export_penalties(tid, fmt):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    return csv_or_json(fmt, f"penalties-{t['id']}",
                       lambda: pstore.export_csv(db, t["id"], bom=request.args.get("excel") == "1"),
                       lambda: {"tournament": t["id"], "name": t["name"], "catalog": pstore.catalog_of(db, t).id,
                                "columns": list(CSV_COLUMNS), "penalties": pstore.export_json(db, t["id"])},
                       json_download=True, no_store=True)


# --- time extensions ------------------------------------------------------------------------------------------

@bp.get("/tournaments/<id:tid>/time")
@requires("time.extend")
def time_page(tid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    clocks = extensions.round_clocks(db, t["id"], request.args.get("round") or None)
    # ?judge_minutes=: the judge's time at the table of a closed judge call (judgekit.live)
    offered = extensions.suggestion(request.args.get("judge_minutes")) if request.args.get("judge_minutes") else None
    return render_template("penalties/time.html", t=t, clocks=clocks, values={}, errors={},
                           guidance=_guidance(), focus=parse_int(request.args.get("table")),
                           judge_minutes=offered["judge_minutes"] if isinstance(offered, dict) else None)


def _guidance() -> list[dict]:
    return [dict(s, text=_(s["text"])) for s in (extensions.suggestion(m) for m in (0.5, 2, 4, 6))]


@bp.post("/tournaments/<id:tid>/rounds/<id:n>/tables/<id:table>/extend")
@requires("time.extend")
def extend_form(tid, n, table):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    data = {k: v for k, v in request.form.items() if k != "csrf_token"}
    res = extensions.extend(db, t["id"], n, table, data, judge=g.identity.name)
    if isinstance(res, pstore.Refused):
        if res.status == 404:
            raise ApiError(404, res.said)
        clocks = extensions.round_clocks(db, t["id"], n)
        return render_template("penalties/time.html", t=t, clocks=clocks, values=data,
                               errors={"table": table, "message": res.text(catalog()),
                                       "field": res.field, "over_cap": res.extra.get("over_cap")},
                               guidance=_guidance(), focus=table), res.status
    ends = res.clock["ends_at_iso"]
    flash(_("Table %(table)s: +%(minutes)s min recorded; the table now ends at %(clock)s.", table=table,
            minutes=res.event["minutes"], clock=timetext.clock(ends)) if ends else
          _("Table %(table)s: +%(minutes)s min recorded.", table=table, minutes=res.event["minutes"]), "ok")
    if res.warning:
        flash(_(res.warning), "warn")
    return redirect(url_for("penalties.time_page", tid=t["id"], round=n) + f"#table-{table}")


# --- JSON API -------------------------------------------------------------------------------------------------

def _record_json(res: pstore.Stored) -> dict:
    out = {"record": res.record, "duplicate": res.duplicate,
           "needs_head_judge": res.needs_head_judge, "head_judge_reasons": worded(res.head_judge_reasons, catalog())}
    if res.added_player:
        out["added_player"] = res.added_player
    if res.proposal is not None:
        out["proposal"] = worded(res.proposal.to_dict(), catalog())
    if res.applies is not None:
        out["applies_to"] = worded(res.applies, catalog())
    if res.notes:
        out["notes"] = [_(n) for n in res.notes]
    return out


@bp.get("/api/tournaments/<id:tid>/penalties")
@requires("penalties.list")
def api_list(tid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    rep = pstore.report(db, t["id"])
    penalties = pstore.current(db, t["id"])
    applies = pstore.applies_to(db, t["id"], penalties)  # a Standings Adjustment: its game
    for p in penalties:
        if p["id"] in applies:
            p["applies_to"] = worded(applies[p["id"]].to_dict(), catalog())
    return jsonify({"tournament": t["id"], "catalog": pstore.catalog_of(db, t).id,
                    "penalties": penalties, "log": pstore.records(db, t["id"]),
                    "pending": [r["id"] for r in rep.pending], "totals": rep.totals})


@bp.post("/api/tournaments/<id:tid>/penalties")
@requires("penalties.issue")
def api_issue(tid):
    body = json_body()
    who = g.identity
    res = pstore.issue(get_db(), tid, body, judge=who.name, role=who.role)
    if isinstance(res, pstore.Refused):
        _fail(res)
    return jsonify(_record_json(res)), 200 if res.duplicate else 201


@bp.get("/api/tournaments/<id:tid>/penalties/propose")
@requires("penalties.issue")
def api_propose(tid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    cat = pstore.catalog_of(db, t)
    pid = None
    if request.args.get("player"):
        try:
            pid = tstore.get_player(db, t["id"], request.args["player"])["id"]
        except tstore.TournamentError as exc:
            raise ApiError(404, exc.msg, field="player")
    found = cat.lookup(request.args.get("infraction", ""))
    if not found.ok:
        raise ApiError(422 if found.suggestions else 400, found.said, field="infraction",
                       suggestions=list(found.suggestions))
    p = pstore.propose_for(db, t["id"], pid, found.infraction.id, request.args.get("variant") or None)
    if not p.ok:
        raise ApiError(400, p.error, field="variant")
    penalty = request.args.get("penalty") or p.penalty
    record = pstore.player_record(db, t["id"], pid) if pid is not None else None
    return jsonify({"proposal": worded(p.to_dict(), catalog()), "infraction": found.infraction.to_dict(),
                    "options": found.infraction.options(),
                    "needs_head_judge": needs_head_judge(cat, penalty, p),
                    "head_judge_reasons": worded(head_judge_reasons(cat, penalty, p), catalog()),
                    "description_required": description_required(cat, found.infraction, penalty),
                    "player_record": record.to_dict() if record else None})


def _api_follow_up(tid, rid, fn):
    body = json_body(required=False) or {}
    who = g.identity
    res = fn(get_db(), tid, rid, body, judge=who.name, role=who.role)
    if isinstance(res, pstore.Refused):
        _fail(res)
    return jsonify(_record_json(res)), 200 if res.duplicate else 201


@bp.post("/api/tournaments/<id:tid>/penalties/<id:rid>/approve")
@requires("penalties.approve")
def api_approve(tid, rid):
    return _api_follow_up(tid, rid, pstore.approve)


@bp.post("/api/tournaments/<id:tid>/penalties/<id:rid>/lift")
@requires("penalties.amend")
def api_lift(tid, rid):
    return _api_follow_up(tid, rid, pstore.lift)


@bp.post("/api/tournaments/<id:tid>/penalties/<id:rid>/amend")
@requires("penalties.amend")
def api_amend(tid, rid):
    return _api_follow_up(tid, rid, pstore.amend)


@bp.post("/api/tournaments/<id:tid>/penalties/<id:rid>/move")
@requires("penalties.amend")
def api_move(tid, rid):
    """`{"round", "table", "reason"}`: the Standings Adjustment now applies to that game."""
    return _api_follow_up(tid, rid, pstore.move)


@bp.get("/api/tournaments/<id:tid>/players/<id:pid>/penalties")
@requires("penalties.player")
def api_player(tid, pid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    player = tstore.get_player(db, t["id"], pid)
    rep = pstore.player_record(db, t["id"], player["id"])
    levels = pstore.catalog_of(db, t).level_names()
    return jsonify(rep.to_dict() if rep else {"player": player["id"], "player_name": player["name"],
                                              "vekn": player["vekn"], "records": [], "lifted": [],
                                              "totals": {lv: 0 for lv in levels}, "repeats": {}})


@bp.get("/api/tournaments/<id:tid>/penalties/report")
@requires("export")
def api_report(tid):
    return jsonify(pstore.report(get_db(), tid).to_dict())


@bp.get("/api/tournaments/<id:tid>/catalog")
@requires("penalties.issue")
def api_catalog(tid):
    cat = pstore.catalog_of(get_db(), tid)
    return jsonify({"id": cat.id, "name": cat.name, "levels": cat.level_names(),
                    "ladder": list(cat.ladder), "head_judge_levels": list(cat.head_judge_levels),
                    "infractions": [i.to_dict() for i in cat.infractions]})


@bp.get("/api/tournaments/<id:tid>/clocks")
@requires("tournament.view")
def api_clocks(tid):
    db = get_db()
    t = tstore.get_tournament(db, tid)
    return jsonify({"clocks": extensions.round_clocks(db, t["id"], request.args.get("round") or None),
                    "server_now": time.time()})


@bp.post("/api/tournaments/<id:tid>/rounds/<id:n>/tables/<id:table>/extend")
@requires("time.extend")
def api_extend(tid, n, table):
    body = json_body()
    res = extensions.extend(get_db(), tid, n, table, body, judge=g.identity.name)
    if isinstance(res, pstore.Refused):
        _fail(res)
    return jsonify({"clock": res.clock, "event": res.event, "duplicate": res.duplicate,
                    "warning": _(res.warning) if res.warning else None}), 200 if res.duplicate else 201


@bp.get("/api/time/suggest")
def api_suggest():
    res = extensions.suggestion(request.args.get("judge_minutes"))
    if isinstance(res, pstore.Refused):
        _fail(res)
    return jsonify(dict(res, text=_(res["text"])))


# --- template helpers ------------------------------------------------------------------------------------------

@bp.app_context_processor
def _helpers():
    def dashboard_clocks(tid):
        """The open round's table clocks for the dashboard (None without an open round)."""
        try:
            clocks = extensions.round_clocks(get_db(), tid)
        except tstore.TournamentError:
            return None
        # once the final's result is in, the event is over: no end times to watch
        if clocks and clocks["kind"] == "final" and all(tb["state"] in ("finished", "overridden")
                                                        for tb in clocks["tables"]):
            return None
        return clocks
    return {"new_client_id": lambda: secrets.token_urlsafe(10), "dashboard_clocks": dashboard_clocks,
            "penalty_catalogs": pstore.catalog_choices,
            # the stores' text limits, so the pages' maxlength attributes are not copies
            "penalty_max": pstore.MAX_TEXT, "extension_reason_max": extensions.MAX_REASON}


@bp.app_template_filter("hhmm")
def _hhmm(value) -> str:
    """An ISO time as HH:MM in the venue's local time, as every other time on the pages (the
    page's script then shows the device's own)."""
    return timetext.clock(value)
