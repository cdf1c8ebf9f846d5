"""The tournament's JSON API (`/api/tournaments…`): players, rounds, results, standings, the
toss, the final. Thin views over `judgekit.tournament.store`, one blueprint
(`tournament_api`); the pages are in `judgekit.tournament.views`. The format:
docs/tournament.md, "JSON API"."""
from __future__ import annotations

import json

from flask import Blueprint, g, jsonify

from judgekit.auth.views import create_event, requires
from judgekit.db import transaction
from judgekit.tournament import store
from judgekit.tournament.views import who
from judgekit.errors import worded
from judgekit.views import ApiError, catalog, get_db, json_body, json_object
from judgekit.i18n import Message

bp = Blueprint("tournament_api", __name__)


def _standings_json(db, tid) -> dict:
    s = store.standings(db, tid)
    return {"standings": [r.to_dict() for r in s.rows], "needs_toss": s.needs_toss,
            "finalists": s.finalists, "discarded_tosses": s.discarded_tosses}


@bp.get("/api/tournaments")
def api_list():
    return jsonify({"tournaments": store.list_tournaments(get_db())})


@bp.post("/api/tournaments")
def api_create():
    db = get_db()
    body = json_body()
    if not isinstance(body, dict):
        raise ApiError(400, Message("tournament.send-object-with-tournament-s", "send an object with the tournament's fields"))
    # the event and its codes in one transaction; a retry with the same client_id: the first event
    made = create_event(lambda cid: store.create_tournament(db, body, client_id=cid),
                        client_id=body.get("client_id"), creator=body.get("organizer"))
    access = made.access
    organizer = access.pop("name")  # "name" is the tournament's; the creator's is "organizer"
    return jsonify({**store.without_secrets(store.get_tournament(db, made.tid)), **access, "organizer": organizer,
                    "duplicate": made.duplicate}), 200 if made.duplicate else 201


@bp.get("/api/tournaments/<id:tid>")
@requires("tournament.view")
def api_get(tid):
    db = get_db()
    d = store.dashboard(db, tid)
    return jsonify({**store.without_secrets(d["tournament"]), "players": d["players"],
                    "rounds": [{k: r[k] for k in ("number", "kind", "status", "seed", "sit_outs", "open_tables")}
                               for r in d["rounds"]],
                    "final": d["final"]})


@bp.get("/api/tournaments/<id:tid>/players")
@requires("tournament.view")
def api_players(tid):
    db = get_db()
    t = store.get_tournament(db, tid)
    return jsonify({"players": store.players(db, t["id"])})


@bp.post("/api/tournaments/<id:tid>/players")
@requires("players.manage")
def api_add_player(tid):
    body = json_body()
    db = get_db()
    if isinstance(body, list):
        # several at once: all or nothing
        out = []
        with transaction(db):
            for item in body:
                out.append(store.add_player(db, tid, item))
        return jsonify({"players": out}), 201
    return jsonify(store.add_player(db, tid, body)), 201


@bp.patch("/api/tournaments/<id:tid>/players/<id:pid>")
@requires("players.manage")
def api_update_player(tid, pid):
    body = json_object("an object: {\"checked_in\": bool}, {\"dropped\": bool} or the record's fields "
                       "(first_name, last_name, name, vekn, city, country)")
    db = get_db()
    p = store.get_player(db, store.get_tournament(db, tid)["id"], pid)
    edits = {k: v for k, v in body.items() if k not in ("checked_in", "dropped")}
    with transaction(db):  # all or nothing (each refuses a value that is not true/false)
        if edits:
            p = store.edit_player(db, tid, pid, edits, by=who())
        if "checked_in" in body:
            p = store.set_checked_in(db, tid, pid, body["checked_in"], by=who())
        if "dropped" in body:
            p = store.drop_player(db, tid, pid, body["dropped"])
    return jsonify(p)


@bp.post("/api/tournaments/<id:tid>/rounds")
@requires("rounds.start")
def api_start_round(tid):
    body = json_object("an object (optionally with seed or tables)", required=False)
    r = store.start_round(get_db(), tid, seed=body.get("seed"), tables=body.get("tables"))
    return jsonify(worded(r, catalog())), 201


@bp.get("/api/tournaments/<id:tid>/rounds/<id:n>")
@requires("tournament.view")
def api_round(tid, n):
    db = get_db()
    t = store.get_tournament(db, tid)
    return jsonify(worded(store.round_detail(db, t["id"], n), catalog()))   # an SA's note, worded


@bp.post("/api/tournaments/<id:tid>/rounds/<id:n>/swap")
@requires("rounds.swap")
def api_swap(tid, n):
    body = json_object("{\"a\": player id, \"b\": player id}")
    return jsonify(worded(store.swap_seats(get_db(), tid, n, body.get("a"), body.get("b"), by=who()), catalog()))


@bp.post("/api/tournaments/<id:tid>/rounds/<id:n>/close")
@requires("rounds.close")
def api_close(tid, n):
    return jsonify(worded(store.close_round(get_db(), tid, n), catalog()))


@bp.get("/api/tournaments/<id:tid>/rounds/<id:n>/tables/<id:table>")
@requires("tournament.view")
def api_table(tid, n, table):
    return jsonify(worded(store.table_detail(get_db(), tid, n, table), catalog()))


@bp.post("/api/tournaments/<id:tid>/rounds/<id:n>/tables/<id:table>/result")
@requires("results.enter")
def api_result(tid, n, table):
    body = json_object("{\"vps\": [...], \"withdrawn\": [seats], \"note\": \"...\", "
                       "\"based_on\": result_id or null, \"client_id\": \"...\"}")
    out = store.enter_result(get_db(), tid, n, table, body.get("vps"), withdrawn=body.get("withdrawn"),
                             note=body.get("note"), by=who(), client_id=body.get("client_id"),
                             based_on=body.get("based_on"),  # absent: based on no result
                             may_replace_override=g.identity.may("results.override"))
    return jsonify(worded(out, catalog())), 200 if out["duplicate"] else 201


def _guard(body: dict) -> dict:
    """A head judge's write checks `based_on` only when it is sent (`store.result_guard`)."""
    return {"client_id": body.get("client_id"),
            "based_on": body["based_on"] if "based_on" in body else store.NOT_GIVEN}


@bp.post("/api/tournaments/<id:tid>/rounds/<id:n>/tables/<id:table>/override")
@requires("results.override")
def api_override(tid, n, table):
    body = json_object("{\"vps\": [...], \"reason\": \"...\"}")
    out = store.override_result(get_db(), tid, n, table, body.get("vps"), body.get("reason"), by=who(),
                                **_guard(body))
    return jsonify(worded(out, catalog())), 200 if out["duplicate"] else 201


@bp.post("/api/tournaments/<id:tid>/rounds/<id:n>/tables/<id:table>/correct")
@requires("results.correct")
def api_correct(tid, n, table):
    body = json_object("{\"vps\": [...], \"withdrawn\": [seats], \"reason\": \"...\"}")
    out = store.correct_result(get_db(), tid, n, table, body.get("vps"), body.get("reason"),
                               withdrawn=body.get("withdrawn"), by=who(), **_guard(body))
    return jsonify(worded(out, catalog())), 200 if out["duplicate"] else 201


@bp.get("/api/tournaments/<id:tid>/standings")
@requires("tournament.view")
def api_standings(tid):
    db = get_db()
    t = store.get_tournament(db, tid)
    return jsonify(_standings_json(db, t["id"]))


@bp.post("/api/tournaments/<id:tid>/toss")
@requires("final.run")
def api_toss(tid):
    body = json_object("{} or {\"players\": [ids], \"seed\": n}", required=False)
    res = store.record_toss(get_db(), tid, body.get("players"), seed=body.get("seed"), by=who())
    return jsonify({**res, "places": {str(k): v for k, v in res["places"].items()}}), 201


@bp.get("/api/tournaments/<id:tid>/final")
@requires("tournament.view")
def api_final(tid):
    return jsonify(_jsonable(store.final_state(get_db(), tid)))


@bp.post("/api/tournaments/<id:tid>/final")
@requires("final.run")
def api_final_start(tid):
    return jsonify(_jsonable(store.start_final(get_db(), tid))), 201


@bp.delete("/api/tournaments/<id:tid>/final")
@requires("final.run")
def api_final_undo(tid):
    return jsonify(_jsonable(store.undo_final(get_db(), tid, by=who())))


@bp.post("/api/tournaments/<id:tid>/final/place")
@requires("final.run")
def api_final_place(tid):
    body = json_object("{\"player_id\": id, \"position\": gap}")
    return jsonify(_jsonable(store.place_final_card(get_db(), tid, body.get("player_id"), body.get("position"),
                                                    by=who())))


@bp.post("/api/tournaments/<id:tid>/final/seat")
@requires("final.run")
def api_final_seat(tid):
    body = json_object("{} or {\"seed\": n}", required=False)
    return jsonify(_jsonable(store.seat_final(get_db(), tid, seed=body.get("seed")))), 201


@bp.get("/api/tournaments/<id:tid>/results")
@requires("tournament.view")
def api_results(tid):
    return jsonify(_jsonable(store.results(get_db(), tid)))


def _jsonable(obj):
    """dict keys as strings (player ids are ints in the domain); what the code words, in the
    reader's language."""
    return json.loads(json.dumps(worded(obj, catalog()), default=str))
