"""Sign-in pages, the token API, and the permission helpers other views call.

- Pages: `/tournaments/<tid>/sign-in` (name + code -> a signed-cookie session holding the
  tournament id, role, name and the code's generation), `/tournaments/<tid>/sign-out`,
  `/tournaments/<tid>/codes` (the organizer issues new codes; they are shown once).
- API: `POST /api/tournaments/<tid>/tokens` ({"name", "code"} -> a bearer token, stored
  hashed), `DELETE /api/tokens/current`, `GET /api/tournaments/<tid>/me`.
- Helpers: `require_role(tid, "judge")` or `require_role(tid, "penalties.approve")` (a role
  or an action of `roles.ACTIONS`) returns the `Identity` or stops the request: 401 when
  nobody is signed in for this tournament, 403 when the role is too low (JSON for the API,
  a page with a sign-in link for forms); a page (GET) redirects to the sign-in page with a
  message instead. `@requires(action)` does the same for a view with a `tid` argument.

A bearer token (`Authorization: Bearer jk_…`) is accepted on every route; cookie sessions
are CSRF-checked by `judgekit.views.check_csrf` before any view runs.
"""
from __future__ import annotations

import math
import secrets
import threading
import time
from dataclasses import dataclass
from functools import wraps
from typing import Any, Callable
from urllib.parse import urlsplit

from flask import (Blueprint, current_app, flash, g, jsonify, redirect, render_template, request, session,
                   url_for)

from judgekit.auth import roles
from judgekit.auth import store as auth_store
from judgekit.auth.codes import MAX_NAME, clean_name
from judgekit.auth.throttle import Throttle, Ticket
from judgekit.db import transaction
from judgekit.timetext import to_epoch
from judgekit.views import ApiError, get_db, json_body, json_object, wants_json
from judgekit.views import _, say
from judgekit.i18n import Message

bp = Blueprint("auth", __name__)


@dataclass(frozen=True)
class Events:
    """What signing in asks of the tournament area, which sits above this one (its pages
    and its penalties use the roles and `requires`) and sets these when its blueprint is
    registered (`judgekit.tournament.views`): the event by id (a 404 when there is none),
    the event a retried create made, and a create's `client_id` cleaned (a 400 when bad)."""
    get: Callable[[Any, Any], dict]
    by_client_id: Callable[[Any, "str | None"], "dict | None"]
    clean_client_id: Callable[[Any], "str | None"]


_events: list[Events] = []


def set_events(found: Events) -> None:
    _events[:] = [found]


def events() -> Events:
    if not _events:
        raise RuntimeError("no tournament area: the tournament's blueprint is not registered")
    return _events[0]

SESSION_KEY = "auth"
FRESH_CODES_KEY = "fresh_codes"


@dataclass(frozen=True)
class Identity:
    tournament: int
    role: str
    name: str
    via: str  # "session" or "token"

    def may(self, action: str) -> bool:
        return roles.allows(self.role, action)

    @property
    def label(self) -> str:
        return roles.label(self.role)

    def to_dict(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "role": self.role, "role_label": self.label,
                "name": self.name, "via": self.via}


class AuthError(ApiError):
    """401/403 with what is needed and where to sign in."""

    def __init__(self, status: int, message: str, tid: int, needed: str):
        super().__init__(status, message, needed_role=needed,
                         sign_in=url_for("auth.sign_in", tid=tid))
        self.tid = tid
        self.needed = needed


class SignInRedirect(Exception):
    def __init__(self, tid: int, message: str):
        super().__init__(message)
        self.tid = tid
        self.message = message


# --- who is asking ----------------------------------------------------------------------------

def _bearer() -> str | None:
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[7:].strip() or None
    return None


def identity(tid) -> Identity | None:
    """Who is signed in for tournament `tid` (bearer token first, then the session)."""
    try:
        tid = int(tid)
    except (TypeError, ValueError):
        return None
    cache = g.setdefault("_auth_identities", {})
    if tid in cache:
        return cache[tid]
    who = None
    token = _bearer()
    if token:
        found = auth_store.identify_token(get_db(), token)
        if found and found["tournament"] == tid:
            who = Identity(tid, found["role"], found["name"], "token")
    else:
        entry = (session.get(SESSION_KEY) or {}).get(str(tid))
        if isinstance(entry, dict) and entry.get("role") in roles.ROLES:
            if auth_store.session_valid(get_db(), tid, entry["role"], entry.get("gen")):
                who = Identity(tid, entry["role"], str(entry.get("name") or "?"), "session")
    cache[tid] = who
    return who


def _is_page_request() -> bool:
    return request.method in ("GET", "HEAD") and not wants_json()


def require_role(tid, action: str) -> Identity:
    """The signed-in identity if it may take `action` (a role or an action name) in
    tournament `tid`; otherwise stop the request (404 for an unknown tournament first)."""
    t = events().get(get_db(), tid)
    needed = roles.minimum(action)
    if needed == roles.ANYONE:
        who = identity(t["id"])
        g.identity = who
        return who  # type: ignore[return-value]
    who = identity(t["id"])
    if who is not None and who.may(action):
        g.identity = who
        return who
    what = _(roles.ACTIONS[action].description) if action in roles.ACTIONS else _("do this")
    needed_label = {roles.JUDGE: _("judge"), roles.HEAD_JUDGE: _("head judge or the organizer"),
                    roles.ORGANIZER: _("organizer")}.get(needed, roles.label(needed))
    someone = {roles.JUDGE: _("a judge"), roles.HEAD_JUDGE: _("a head judge or the organizer"),
               roles.ORGANIZER: _("an organizer")}.get(needed, _article(needed_label))
    if who is None:
        message = _("Sign in to %(event)s as %(someone)s to %(what)s.", event=t["name"], someone=someone, what=what)
        if _bearer():
            message = _("This token is not valid for %(event)s (unknown, revoked, or made with a code that was "
                        "replaced): sign in again as %(someone)s.", event=t["name"], someone=someone)
        if _is_page_request():
            raise SignInRedirect(t["id"], message)
        raise AuthError(401, message, t["id"], needed)
    message = _("Only the %(role)s may %(what)s; you are signed in to %(event)s as %(label)s %(name)s.",
                role=needed_label, what=what, event=t["name"], label=_(who.label), name=who.name)
    if _is_page_request():
        raise SignInRedirect(t["id"], message + " " + _("Sign in with another code to go on."))
    raise AuthError(403, message, t["id"], needed)


def _article(text: str) -> str:
    return ("an " if text[:1] in "aeiou" else "a ") + text


def requires(action: str):
    """Decorator for a view with a `tid` argument: `require_role(tid, action)` first."""
    def deco(fn):
        @wraps(fn)
        def wrapper(*args, **kwargs):
            require_role(kwargs["tid"], action)
            return fn(*args, **kwargs)
        wrapper.required_action = action  # read by the role-boundary tests
        return wrapper
    return deco


def current_name() -> str | None:
    """The name of whoever passed the last `require_role` of this request."""
    who = g.get("identity")
    return who.name if who else None


# --- signing in and out --------------------------------------------------------------------------

clock = time.monotonic  # the throttle's time (tests move it forward)


def _throttle() -> Throttle:
    """Wrong codes per address, tournament and name (`judgekit.auth.throttle`), per app."""
    found = current_app.extensions.get("auth_throttle")
    if found is None:
        found = current_app.extensions.setdefault("auth_throttle", Throttle())
    return found


def _check_sign_in(tid: int, name: Any, code: Any) -> tuple[str, str, int]:
    """(clean name, role, generation) or an ApiError (400/401/429) saying what is wrong.
    The try is counted before the slow hash (`Throttle.begin`): a burst of guesses gets a
    few checks, and a right code is let through after a short wait, never a long lockout."""
    clean = clean_name(name if isinstance(name, str) else None)
    if clean is None:
        raise ApiError(400, Message("auth.give-your-name-at-most", "Give your name (at most 60 characters): it goes on every record you make."),
                       field="name")
    if not isinstance(code, str) or not code.strip():
        raise ApiError(400, Message("auth.give-code-organizer-handed-you", "Give the code the organizer handed you."), field="code")
    ticket = _throttle().begin(request.remote_addr or "?", tid, clean, clock())
    if not isinstance(ticket, Ticket):
        seconds = max(1, math.ceil(ticket))
        raise ApiError(429, (Message("auth.too-many-wrong-codes-1", "Too many wrong codes from this device: wait 1 second and try again.")
                            if seconds == 1 else Message("auth.too-many-wrong-codes", "Too many wrong codes from this device: wait %(seconds)s seconds and try again.", seconds=seconds)), field="code",
                       retry_after=seconds)
    found = auth_store.check_code(get_db(), tid, code)
    if found is None:
        raise ApiError(401, Message("auth.that-code-not-valid-for", "That code is not valid for this tournament. Check it with the organizer (codes look like J-7KQ3-M9XP-4TRW; case and dashes do not matter)."),
                       field="code")
    _throttle().succeeded(ticket)
    return clean, found[0], found[1]


def sign_in_session(tid: int, role: str, name: str, gen: int | None = None) -> None:
    """Put `role`/`name` for tournament `tid` in the signed session cookie."""
    if gen is None:
        gen = auth_store.generation(get_db(), tid, role)
    entries = dict(session.get(SESSION_KEY) or {})
    entries[str(tid)] = {"role": role, "name": name, "gen": gen}
    session[SESSION_KEY] = entries
    session["csrf"] = secrets.token_urlsafe(24)  # a new token with every sign-in
    g.pop("_auth_identities", None)


def safe_next(target: str | None) -> str | None:
    """`target` if it is a path on this site, to redirect to after a form; else None.

    Parsed the way browsers read a Location (`urlsplit` drops tabs and newlines, so
    "/\\t/evil.example" is "//evil.example"): no scheme, no host, no backslash, no control
    character or space; every area's `next` goes through here."""
    if not target or not isinstance(target, str):
        return None
    if any(ch.isspace() or not ch.isprintable() for ch in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//") \
            or "\\" in target:
        return None
    return target


@bp.route("/tournaments/<id:tid>/sign-in", methods=["GET", "POST"])
def sign_in(tid):
    t = events().get(get_db(), tid)
    nxt = safe_next(request.values.get("next"))
    error, field, status = None, None, 200
    if request.method == "POST":
        try:
            name, role, gen = _check_sign_in(t["id"], request.form.get("name"), request.form.get("code"))
        except ApiError as exc:
            error, field, status = say(exc), exc.field, exc.status
        else:
            sign_in_session(t["id"], role, name, gen)
            flash(_("Signed in to %(event)s as %(role)s %(name)s.", event=t["name"], role=_(roles.label(role)), name=name),
                  "ok")
            return redirect(nxt or url_for("tournament.dashboard", tid=t["id"]))
    return render_template("auth/sign_in.html", t=t, who=identity(t["id"]), next=nxt or "",
                           error=error, field=field, name=request.form.get("name", "")), status


@bp.post("/tournaments/<id:tid>/sign-out")
def sign_out(tid):
    t = events().get(get_db(), tid)
    entries = dict(session.get(SESSION_KEY) or {})
    entries.pop(str(t["id"]), None)
    session[SESSION_KEY] = entries
    flash(_("Signed out of %(event)s.", event=t["name"]), "ok")
    return redirect(url_for("tournament.public_standings", tid=t["id"]))


@bp.post("/api/tournaments/<id:tid>/tokens")
def api_token(tid):
    t = events().get(get_db(), tid)
    body = json_object("{\"name\": \"your name\", \"code\": \"J-…\"}")
    name, role, gen = _check_sign_in(t["id"], body.get("name"), body.get("code"))
    token = auth_store.issue_token(get_db(), t["id"], role, name, gen)
    return jsonify({"token": token, "tournament": t["id"], "role": role, "name": name,
                    "use": "send it as the header  Authorization: Bearer <token>"}), 201


@bp.delete("/api/tokens/current")
def api_revoke():
    token = _bearer()
    if not token or not auth_store.revoke_token(get_db(), token):
        raise ApiError(401, Message("auth.send-token-revoke-as-authorization", "send the token to revoke as  Authorization: Bearer <token>"))
    return jsonify({"revoked": True})


@bp.get("/api/tournaments/<id:tid>/me")
def api_me(tid):
    t = events().get(get_db(), tid)
    who = identity(t["id"])
    return jsonify({"signed_in": who is not None, **(who.to_dict() if who else {}),
                    "may": [a.name for a in roles.actions_of(who.role if who else None)]})


# --- codes (organizer) ------------------------------------------------------------------------------

def on_tournament_created(tid: int, creator: str | None = None) -> dict:
    """Issue the three codes of a new tournament and sign its creator in as organizer:
    a session for a form, a bearer token (returned) for the JSON API."""
    db = get_db()
    codes = auth_store.issue_codes(db, tid)
    name = clean_name(creator) or "Organizer"
    if request.is_json or request.path.startswith("/api/"):
        token = auth_store.issue_token(db, tid, roles.ORGANIZER, name)
        return {"codes": codes, "token": token, "role": roles.ORGANIZER, "name": name}
    sign_in_session(tid, roles.ORGANIZER, name)
    _remember_fresh_codes(tid, codes)
    return {"codes": codes, "role": roles.ORGANIZER, "name": name}


RETRY_WINDOW_S = 60 * 60  # a create retried with its client id within this answers with the first event


@dataclass
class Created:
    tid: int
    access: dict          # `on_tournament_created`'s: codes, the creator's token or session
    duplicate: bool       # a retry: the event the first request made


def create_event(create, *, client_id: Any, creator: str | None) -> Created:
    """Store a new event (`create(client_id)` -> its id, e.g. `store.create_tournament`)
    and its sign-in codes in ONE transaction: a crash leaves both or neither, never an
    event nobody can sign in to. A retry with the same `client_id` (the client had no
    answer) makes no second event: it answers with the first one, with new codes (the
    first ones never reached anyone) and the creator signed in, within `RETRY_WINDOW_S`;
    later a 409 names the event."""
    db = get_db()
    cid = events().clean_client_id(client_id)
    with transaction(db):
        earlier = events().by_client_id(db, cid)
        if earlier is None:
            tid = create(cid)
            return Created(tid, on_tournament_created(tid, creator), False)
        made = to_epoch(earlier["created_at"])
        if made is not None and time.time() - made > RETRY_WINDOW_S:
            raise ApiError(409, Message("auth.client-id-already-made-event", "client_id %(cid)s already made the event %(name)s (number %(id)s): sign in there with its codes, or send a new client_id.", cid=repr(cid), name=repr(earlier['name']), id=earlier['id']),
                           field="client_id", tournament=earlier["id"])
        return Created(earlier["id"], on_tournament_created(earlier["id"], creator), True)


FRESH_CODES_TTL_S = 15 * 60  # codes issued but not yet shown are forgotten after this
_fresh_lock = threading.Lock()


def _fresh_store() -> dict[str, tuple[int, dict[str, str], float]]:
    """Codes issued a moment ago and not yet shown, kept in the server's memory (never in
    the session cookie, which is signed but readable): {ticket: (tid, codes, expiry)}."""
    return current_app.extensions.setdefault("auth_fresh_codes", {})


def _remember_fresh_codes(tid: int, codes: dict[str, str]) -> None:
    """Keep the new codes on the server for one showing; the cookie carries a random ticket."""
    ticket = secrets.token_urlsafe(18)
    now = time.monotonic()
    with _fresh_lock:
        store = _fresh_store()
        for key in [k for k, (_, _, expiry) in store.items() if expiry < now]:
            del store[key]
        store[ticket] = (int(tid), dict(codes), now + FRESH_CODES_TTL_S)
    tickets = dict(session.get(FRESH_CODES_KEY) or {})
    tickets[str(tid)] = ticket
    session[FRESH_CODES_KEY] = tickets


def take_fresh_codes(tid) -> dict[str, str] | None:
    """Codes issued a moment ago in this browser (shown once, then forgotten)."""
    tickets = session.get(FRESH_CODES_KEY)
    if not isinstance(tickets, dict) or str(tid) not in tickets:
        return None
    tickets = dict(tickets)
    ticket = tickets.pop(str(tid))
    session[FRESH_CODES_KEY] = tickets
    with _fresh_lock:
        found = _fresh_store().pop(str(ticket), None)
    if found is None or found[0] != int(tid) or found[2] < time.monotonic():
        return None
    return found[1]


@bp.get("/tournaments/<id:tid>/codes")
@requires("codes.manage")
def codes_page(tid):
    t = events().get(get_db(), tid)
    return render_template("auth/codes.html", t=t, codes=take_fresh_codes(t["id"]),
                           table=roles.table_rows(), roles=roles.ROLES, label=roles.label)


@bp.post("/tournaments/<id:tid>/codes")
@requires("codes.manage")
def codes_issue(tid):
    t = events().get(get_db(), tid)
    which = request.form.get("role", "all")
    chosen = roles.ROLES if which == "all" else (which,) if which in roles.ROLES else None
    if chosen is None:
        raise ApiError(400, Message("auth.unknown-role", "unknown role %(which)s", which=repr(which)), field="role")
    codes = auth_store.issue_codes(get_db(), t["id"], chosen)
    who = g.identity
    if who.via == "session" and who.role in chosen:
        sign_in_session(t["id"], who.role, who.name)  # keep the organizer signed in
    _remember_fresh_codes(t["id"], codes)
    flash(_("New codes issued: the old ones no longer work, and whoever signed in with them "
            "must sign in again."), "ok")
    return redirect(url_for("auth.codes_page", tid=t["id"]))


@bp.post("/api/tournaments/<id:tid>/codes")
@requires("codes.manage")
def api_codes_issue(tid):
    t = events().get(get_db(), tid)
    body = json_body(required=False) or {}
    wanted = body.get("roles", list(roles.ROLES)) if isinstance(body, dict) else None
    if not isinstance(wanted, list) or not wanted or any(r not in roles.ROLES for r in wanted):
        raise ApiError(400, Message("auth.roles-must-list", "roles must be a list of %(value)s", value=', '.join(roles.ROLES)), field="roles")
    return jsonify({"codes": auth_store.issue_codes(get_db(), t["id"], wanted)}), 201


# --- errors, template helpers ------------------------------------------------------------------------

@bp.app_errorhandler(SignInRedirect)
def _to_sign_in(exc: SignInRedirect):
    flash(exc.message, "warn")
    return redirect(url_for("auth.sign_in", tid=exc.tid, next=request.full_path.rstrip("?")))


@bp.app_errorhandler(AuthError)
def _denied(exc: AuthError):
    headers = {}
    if exc.status == 401:
        headers["WWW-Authenticate"] = 'Bearer realm="judgekit"'
    if wants_json() or request.is_json:
        return jsonify(exc.body()), exc.status, headers
    return render_template("auth/denied.html", status=exc.status, message=exc.message,
                           tid=exc.tid), exc.status, headers


@bp.app_context_processor
def _template_helpers():
    def may(tid, action):
        who = identity(tid)
        return bool(who and who.may(action))
    return {"auth_identity": identity, "auth_may": may, "auth_fresh_codes": take_fresh_codes,
            "role_label": roles.label, "judge_name_max": MAX_NAME}
