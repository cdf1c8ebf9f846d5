"""Web views of the recorder area (thin: parse the request, call the domain, render).

Writes go through one function per kind of write (`write_new_game`, `write_events`), each
with its sign-in check: a game that belongs to a tournament takes writes from that
tournament's signed-in judges only (their name is recorded on each event); practice games
stay open and record the `judge` the client sends (default "anonymous").

Reads likewise: every view that shows a game goes through `readable_game`, so a
tournament's game (its seating, events, findings, outcome) is shown to that tournament's
signed-in judges only (`tournament.view`); lists without a tournament hold practice games.
"""
from __future__ import annotations

import os
import time
from typing import Any, Callable

from flask import (Blueprint, current_app, jsonify, redirect, render_template, request,
                   url_for)

from judgekit.auth.views import current_name, require_role
from judgekit.recorder import clock, facts, findings, notation, practice, store
from judgekit.game.cards import load_cards
from judgekit.errors import MAX_INT, parse_int
from judgekit.recorder.events import VOCABULARY, describe
from judgekit.game.outcome import derive_vp
from judgekit.views import ApiError, get_db, json_body
from judgekit.recorder.events import validate_batch
from judgekit.views import _, catalog
from judgekit.i18n import Message

bp = Blueprint("recorder", __name__)


def query_id(name: str) -> int | None:
    """An id from the query string (None if absent); 400 unless it is one SQLite can hold."""
    raw = request.args.get(name)
    if raw is None or raw == "":
        return None
    value = parse_int(raw)
    if value is None:
        raise ApiError(400, Message("recorder.must-whole-number", "%(name)s must be a whole number", name=name), field=name)
    return value


def cards():
    """The card index of the app's content folder (`load_cards` loads it once, thread-safe)."""
    content = current_app.config.get("CONTENT_DIR")
    return load_cards(content or None)   # as configured (str or Path): a dict look-up once loaded


def durable() -> bool:
    """Commit appends with synchronous=FULL (survives power loss; the default). Setting
    RECORDER_DURABLE False (or JUDGEKIT_RECORDER_DURABLE=0) keeps WAL's NORMAL level:
    safe against crashes of the app, faster, may lose the last entries on power loss."""
    value = current_app.config.get("RECORDER_DURABLE")
    if value is None:
        value = os.environ.get("JUDGEKIT_RECORDER_DURABLE", "1") not in ("0", "false", "no")
    return bool(value)


def current_judge() -> str | None:
    """The signed-in judge's name on a tournament's game; None on a practice game (the
    client's value counts)."""
    return current_name()


def _fail(err: store.StoreError):
    exc = ApiError(err.status, err.why, field=err.field)
    # index, suggestions, and "message" (words for the judge; a keyword ApiError takes itself)
    exc.extra.update({k: v for k, v in err.to_dict(catalog()).items() if k not in ("error", "status", "field")})
    raise exc


def _json(parts: list[tuple[str, object]], status: int = 200, etag: str | None = None):
    """A JSON object answer from (key, value) pairs in order; a value that is a `Raw` is
    already JSON text (the stored log lines: passed through, not parsed and dumped again)."""
    dumps = current_app.json.dumps
    body = "{" + ",".join(f"{dumps(k)}:{v.text if isinstance(v, Raw) else dumps(v)}" for k, v in parts) + "}"
    response = current_app.response_class(body, status=status, mimetype="application/json")
    if etag:
        response.set_etag(etag, weak=True)
    response.headers["Cache-Control"] = "no-cache"   # a copy may be kept, but asked about each time
    return response


class Raw:
    """JSON text to put in an answer as it is."""
    def __init__(self, text: str):
        self.text = text


def _array(texts: list[str]) -> Raw:
    return Raw("[" + ",".join(texts) + "]")


# --- writes (one function per kind) -----------------------------------------------------

def write_new_game(data) -> int:
    if not isinstance(data, dict):
        raise ApiError(400, Message("recorder.send-json-object-with-seats", "send a JSON object with the seats"), field="seats")
    unknown = set(data) - {"seats", "label", "time_limit_min", "tournament_id", "round_no", "table_no"}
    if unknown:
        raise ApiError(400, Message("recorder.unknown-field", "unknown field %(value)s", value=repr(sorted(unknown)[0])), field=sorted(unknown)[0])
    try:
        if store.check_whole("tournament_id", data.get("tournament_id")) is not None:
            require_role(data["tournament_id"], "events.record")  # a tournament's games: its judges'
        else:
            _practice_refusal(practice_limits().admit_game(request.remote_addr or "?", time.monotonic()))
        return store.create_game(get_db(), data.get("seats"), label=data.get("label"),
                                 time_limit_min=data.get("time_limit_min"),
                                 tournament_id=data.get("tournament_id"),
                                 round_no=data.get("round_no"), table_no=data.get("table_no"),
                                 distinct_names=True)
    except store.GameError as exc:
        raise ApiError(400, exc.why, field=exc.field)


def practice_limits() -> practice.PracticeLimits:
    return current_app.extensions.setdefault("practice_limits", practice.PracticeLimits())


def _practice_refusal(refusal: practice.Refusal | None) -> None:
    if refusal is not None:
        extra = {"retry_after": refusal.retry_after} if refusal.retry_after else {}
        raise ApiError(refusal.status, refusal.message, field="events", **extra)


def readable_game(game_id: int, action: str = "tournament.view") -> dict:
    """The game, if the visitor may see it (a tournament's game: `action` in its tournament;
    a practice game: anyone); 404 if there is no such game. A page (GET) is redirected to
    the sign-in page instead of a 401/403."""
    game = store.get_game(get_db(), game_id)
    if game is None:
        raise ApiError(404, Message("recorder.there-no-game", "there is no game %(game_id)s", game_id=game_id))
    if game["tournament_id"] is not None:
        require_role(game["tournament_id"], action)
    return game


def write_events(game_id: int, payload) -> store.Appended:
    game = store.get_game(get_db(), game_id)
    if game is not None and game["tournament_id"] is not None:  # practice games: anyone
        require_role(game["tournament_id"], "events.record")
    elif game is not None:  # ... within limits (judgekit.recorder.practice)
        stored = get_db().execute("SELECT COALESCE(MAX(seq), 0) FROM events WHERE game_id = ?",
                                  [game_id]).fetchone()[0]
        _practice_refusal(practice_limits().admit_events(game_id, stored, payload, time.monotonic()))
    result = store.append_events(get_db(), game_id, payload, cards=cards(),
                                 judge=current_judge(), now=time.time(), durable=durable(), words=catalog().render)
    if isinstance(result, store.StoreError):
        _fail(result)
    return result


def scored(state: dict, seats: list[str]) -> dict:
    """The state with the table's result once the game is over: `game_over.score`, one
    entry per seat — `vp` as the tournament scores the outcome (`judgekit.game.outcome.derive_vp`: an
    oust gives the predator 1, the last player standing 1 more, a time-out ½ to each one
    left) and `out` in words ("ousted", or null for a seat still in) — which the page's
    "Game over" step shows. The state is not changed in place (an engine may keep it)."""
    over = state.get("game_over")
    if not over:
        return state
    vp = derive_vp(len(seats), state.get("outcome") or [])
    score = [{"seat": k, "name": name, "vp": vp.vps[k - 1],
              "out": (state["seats"][k - 1].get("out_words") or state["seats"][k - 1].get("out"))
              if k <= len(state.get("seats") or []) else None}
             for k, name in enumerate(seats, 1)]
    return dict(state, game_over=dict(over, score=score))


# --- JSON API ----------------------------------------------------------------------------

@bp.post("/api/games")
def api_create_game():
    game_id = write_new_game(json_body())
    return jsonify({"id": game_id, "url": url_for("recorder.game_page", game_id=game_id),
                    "api": url_for("recorder.api_game", game_id=game_id)}), 201


@bp.get("/api/games")
def api_list_games():
    """`?tournament_id=`: that tournament's games (its judges only); else practice games."""
    tid = query_id("tournament_id")
    if tid is not None:
        require_role(tid, "tournament.view")
    return jsonify({"games": store.list_games(get_db(), tournament_id=tid)})


@bp.get("/api/games/<id:game_id>")
def api_game(game_id: int):
    """The whole game (first load), or with `?after=<seq>` what changed since that event
    (the page's polls). Both carry the game's ETag: a request whose If-None-Match has it
    is answered 304, nothing changed."""
    game = readable_game(game_id)
    after = None
    if "after" in request.args:
        after = parse_int(request.args["after"], lo=0)
        if after is None:
            raise ApiError(400, Message("recorder.after-must-event-number-whole", "after must be an event number (a whole number, 0 or more)"), field="after")
    db = get_db()
    tag = store.etag(game, store.last_seq(db, game_id), cards())
    if request.if_none_match and request.if_none_match.contains_weak(tag):
        response = current_app.response_class(status=304)
        response.set_etag(tag, weak=True)
        response.headers["Cache-Control"] = "no-cache"
        return response
    read = store.read_game(db, game_id, cards=cards(), now=time.time(), after=after, words=catalog().render)
    if read is None:
        raise ApiError(404, Message("recorder.there-no-game", "there is no game %(game_id)s", game_id=game_id))
    if isinstance(read, store.StoreError):
        _fail(read)
    tag = read.etag
    if after is None:   # the documented full shape, then what a delta also has
        for f in read.findings:
            f["url"] = findings.cite_url(f["cite"])
        return _json([("game", read.game), ("state", scored(read.state, game["seats"])), ("events", _array(read.lines)),
                      ("findings", read.findings), ("last_entry", read.last_entry),
                      ("last_seq", read.last_seq), ("etag", f'W/"{tag}"'), ("server_now", time.time())], etag=tag)
    return _json([("after", after), ("last_seq", read.last_seq), ("events", _array(read.lines)),
                  ("changed", _array(read.changed)), ("state", scored(read.state, game["seats"])), ("findings", read.findings),
                  ("last_entry", read.last_entry), ("etag", f'W/"{tag}"'), ("server_now", time.time())], etag=tag)


@bp.post("/api/games/<id:game_id>/events")
def api_append(game_id: int):
    """Store one event or a list (one entry). The answer is what the page needs to redraw:
    the lines of the events, the earlier lines the entry changed, the state (with the next
    steps), the findings of the new events, the last seq, Undo's entry and the ETag."""
    payload = json_body()
    if isinstance(payload, dict) and "events" in payload and "type" not in payload:
        payload = payload["events"]
    result = write_events(game_id, payload)
    seats = store.get_game(get_db(), game_id)["seats"]
    body = {"events": result.events, "new": result.new, "findings": result.findings,
            "state": scored(result.state, seats), "server_now": time.time(), "changed": result.changed,
            "last_seq": result.last_seq, "last_entry": result.last_entry, "etag": f'W/"{result.etag}"'}
    response = jsonify(body)
    response.status_code = 201 if result.new else 200
    response.set_etag(result.etag, weak=True)
    return response


@bp.post("/api/games/<id:game_id>/parse")
def api_parse(game_id: int):
    """Quick-entry line -> events (validated, not stored): the page then posts them."""
    game = readable_game(game_id, "events.record")  # part of recording (stores nothing)
    data = json_body()
    if not isinstance(data, dict) or not isinstance(data.get("line"), str):
        raise ApiError(400, Message("recorder.send-line", 'send {"line": "..."}'), field="line")
    last = data.get("last_seq")
    parsed = notation.parse_line(data["line"], len(game["seats"]),
                                 last if isinstance(last, int) else None)
    if isinstance(parsed, notation.ParseError):
        raise ApiError(400, parsed.why, field="line", statement=parsed.statement)
    parsed = notation.split_card_words(parsed, cards().library)   # "+Card free words"
    checked = validate_batch(parsed, len(game["seats"]), cards())
    if not isinstance(checked, list):
        _fail(store.StoreError.from_event_error(checked))
    return jsonify({"events": checked, "summaries": [describe(e, game["seats"], None, _) for e in checked]})


@bp.get("/api/games/<id:game_id>/clock")
def api_table_clock(game_id: int):
    """The clock a tournament's table runs on (the round's start + time limit + the table's
    extensions, or the game's own clock once a judge started it); `{"clock": null}` for a
    practice game. The recorder page asks for it while the round has not started."""
    game = readable_game(game_id)
    return jsonify({"clock": table_clock(game)})


#: How the tournament works out a game's table clock (`game_table_clock(db, game)`): the
#: tournament, above the recorder, sets it when its blueprint is registered
#: (`judgekit.tournament.penalties.views`).
_table_clock: list[Callable[[Any, dict], "dict | None"]] = []


def set_table_clock(clock: Callable[[Any, dict], "dict | None"]) -> None:
    _table_clock[:] = [clock]


def table_clock(game: dict) -> dict | None:
    """The tournament's clock of the game's table (None for a practice game)."""
    if not _table_clock:
        raise RuntimeError("no table clock: the tournament's penalties blueprint is not registered")
    return _table_clock[0](get_db(), game)


@bp.get("/api/games/<id:game_id>/outcome")
def api_outcome(game_id: int):
    readable_game(game_id)
    try:
        return jsonify(store.game_outcome(get_db(), game_id))
    except LookupError:   # removed meanwhile
        raise ApiError(404, Message("recorder.there-no-game", "there is no game %(game_id)s", game_id=game_id))


@bp.get("/api/cards/complete")
def api_complete():
    """Names starting with `q`. `kind`: crypt, library, or minion (vampires, imbued and
    allies: what a minion field offers). `facts=1` adds each name's facts (`facts.facts`),
    so the page can pre-fill a form from the suggestion it was given."""
    q = request.args.get("q", "")[:80]
    kind = request.args.get("kind")
    if kind not in (None, "", "crypt", "library", "minion"):
        raise ApiError(400, Message("recorder.kind-crypt-library-or-minion", "kind is crypt, library or minion"), field="kind")
    limit = min(parse_int(request.args.get("limit"), 0) or 8, 30)  # not int(): "1_0"
    names = cards().complete(q, limit, kind or None) if q.strip() else []
    body = {"q": q, "names": names}
    if request.args.get("facts") not in (None, "", "0"):
        body["facts"] = {n: facts.facts(cards(), n, "library" if kind == "library" else
                                        "minion" if kind in ("crypt", "minion") else None)
                         for n in names}
    return jsonify(body)


MAX_FACTS = 40


@bp.get("/api/cards/facts")
def api_facts():
    """`?name=…&name=…` (up to MAX_FACTS; `kind` as for completion) -> `{"facts": {name:
    facts or null}}`: what the page pre-fills from (a vampire's bleed and votes, what a card
    asks its player to declare)."""
    names = request.args.getlist("name")
    kind = request.args.get("kind")
    if kind not in (None, "", "library", "minion"):
        raise ApiError(400, Message("recorder.kind-library-or-minion", "kind is library or minion"), field="kind")
    if not names or len(names) > MAX_FACTS or any(len(n) > 120 for n in names):
        raise ApiError(400, Message("recorder.send-1-names-name-each", "send 1 to %(MAX_FACTS)s names (name=…), each at most 120 characters", MAX_FACTS=MAX_FACTS),
                       field="name")
    return jsonify({"facts": {n: facts.facts(cards(), n, kind or None) for n in names}})


@bp.get("/api/recorder/vocabulary")
def api_vocabulary():
    return jsonify({t: {"seat": rule, "fields": {k: (list(v) if isinstance(v, tuple) else v)
                                                  for k, v in fields.items()},
                        "required": list(req)}
                    for t, (rule, fields, req) in VOCABULARY.items()})


# --- pages ----------------------------------------------------------------------------------

@bp.get("/games")
def games_page():
    return render_template("recorder/games.html", games=store.list_games(get_db()),
                           min_round=clock.MIN_ROUND_MIN)


@bp.post("/games")
def games_create():
    seats = [request.form.get(f"seat{i}", "").strip() for i in range(1, 6)]
    seats = [s for s in seats if s]
    limit = parse_int(request.form.get("time_limit_min"), -MAX_INT)  # not int(): "1_20"
    _practice_refusal(practice_limits().admit_game(request.remote_addr or "?", time.monotonic()))
    try:
        game_id = store.create_game(get_db(), seats, label=request.form.get("label") or "Practice game",
                                    time_limit_min=limit, distinct_names=True)
    except store.GameError as exc:
        names = [" ".join(request.form.get(f"seat{i}", "").split()).casefold() for i in range(1, 6)]
        bad = {i for i, n in enumerate(names, 1) if n and names.count(n) > 1} \
            if exc.field == "seats" else set()
        return render_template("recorder/games.html", games=store.list_games(get_db()),
                               error=_(exc.why), error_field=exc.field, bad_seats=bad,
                               form=request.form, min_round=clock.MIN_ROUND_MIN), 400
    return redirect(url_for("recorder.game_page", game_id=game_id), 303)


@bp.get("/games/<id:game_id>")
def game_page(game_id: int):
    game = readable_game(game_id)
    guidance = [{"judge_minutes": m, "range": clock.suggest_extension(m)} for m in (0.5, 2, 4, 6)]
    # a tournament's game: its signed-in judge records (the name the server puts on each
    # entry, shown, never asked); a practice game: the name the page keeps on the device
    signed_in = current_judge() if game["tournament_id"] is not None else None
    # (with each type's required fields: the page's forms say an empty one before sending)
    vocabulary = {t: {"seat": rule, "fields": {k: (list(v) if isinstance(v, tuple) else v)
                                              for k, v in fields.items()}, "required": list(req)}
                  for t, (rule, fields, req) in VOCABULARY.items()}
    return render_template("recorder/game.html", game=game, guidance=guidance,
                           cap=clock.EXTENSION_CAP_MIN, verbs=notation.VERBS, signed_in=signed_in,
                           table_clock=table_clock(game), vocabulary=vocabulary)
