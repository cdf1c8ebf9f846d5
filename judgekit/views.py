"""Web plumbing shared by every area: the per-request database, JSON errors, CSRF.

Every area's blueprint (`judgekit/<area>/views.py`) imports from here; this module imports
no blueprint (`judgekit.blueprints` registers them), so there is no import circle. Views
stay thin: parse the request, call the domain function, render or jsonify the result.
"""
from __future__ import annotations

import hmac
import json
import logging
import secrets
import threading
import time
from typing import Any, Callable

from flask import (Flask, Response, current_app, g, get_flashed_messages, jsonify, render_template,
                   request, session, url_for)
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature
from markupsafe import Markup
from werkzeug.exceptions import BadHost, HTTPException
from werkzeug.routing import BaseConverter, ValidationError

from judgekit import inputs, netinfo
from judgekit.headers import SECURITY_HEADERS
from judgekit.db import open_db
from judgekit.errors import AppError, parse_int
from judgekit.i18n import SOURCE, Catalog, Message, Said, catalogs, negotiate

log = logging.getLogger("judgekit")


# --- database -----------------------------------------------------------------------

def get_db():
    """The request's database connection.

    Each server thread keeps its own connection for the life of the app instead of
    opening one per request: SQLite checkpoints and deletes the WAL file whenever the last
    connection to a database closes, which would cost an fsync on almost every request.
    """
    if "db" not in g:
        pool = current_app.extensions["db_pool"]
        db = getattr(pool, "db", None)
        if db is None:
            db = pool.db = open_db(current_app.config["DATABASE"])
        g.db = db
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    """End of request: the connection stays open for the thread, but never mid-transaction."""
    db = g.pop("db", None)
    if db is not None and db.conn.in_transaction:
        db.conn.execute("ROLLBACK")


def rules():
    """The loaded rules corpus and search index (`judgekit.rules.service.RulesService`)."""
    return current_app.extensions["rules"]


# --- translations ---------------------------------------------------------------------

def catalog() -> Catalog:
    """The reader's catalog: the first language of the request's Accept-Language that has
    one (`judgekit/translations/`, or the folder in the app's `TRANSLATIONS` setting), else
    English."""
    found = g.get("catalog") if request else None
    if found is None:
        available = catalogs(current_app.config.get("TRANSLATIONS"))
        if not request:   # a page made outside a request (the published copy): English
            return available[SOURCE]
        found = g.catalog = available[negotiate(request.accept_languages, available)]
    return found


def _(msgid: str | Message, **params: Any) -> str:
    """A message for people in the reader's language: a catalog id (the English text, with
    `%(name)s` placeholders filled from `params`) or a `Message` (or `Said`) the domain returned."""
    if isinstance(msgid, (Message, Said)):
        return msgid.render(catalog())
    return catalog().render(msgid, **params)


def say(exc: AppError | Message | Said | str) -> str:
    """An error's message in the reader's language (a page shows it, a flash carries it);
    also a problem the domain returned (a `Message`, a `Said`, or a value with
    `text(catalog)`), or plain English text (looked up as its catalog id)."""
    if isinstance(exc, (Message, Said)):
        return exc.render(catalog())
    if isinstance(exc, str):
        return catalog().gettext(exc)
    return exc.text(catalog())


def _as_text(text: str) -> Markup:
    """A translation as the template shows it: its text escaped (`&`, `<`, `>`, and `"` for
    the attributes, which the templates quote with "), apostrophes left as typed."""
    return Markup(text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&#34;"))


_shown: dict[tuple[int, str], Markup] = {}   # (catalog, id) -> its text as templates show it


def _template_gettext(msgid: str) -> Markup:
    """`_()` in templates: the reader's text for `msgid`, escaped; made once per language."""
    found = catalog()
    key = (id(found), msgid)   # catalogs live as long as the process (`i18n.catalogs`)
    shown = _shown.get(key)
    if shown is None:
        shown = _shown[key] = _as_text(found.gettext(msgid))
    return shown


def _vary_language(response):
    """A page depends on Accept-Language once there is more than one language."""
    if len(catalogs(current_app.config.get("TRANSLATIONS"))) > 1:
        response.vary.add("Accept-Language")
    return response


# --- errors ---------------------------------------------------------------------------

class ApiError(AppError):
    """Raise in a view to answer with a 4xx JSON error (or an error page for HTML).

    Same fields as every `judgekit.errors.AppError` (the tournament store's
    `TournamentError` too): one handler in `init_app` answers them all."""


def wants_json() -> bool:
    if request.path.startswith("/api/") or request.path.endswith((".json",)):
        return True
    best = request.accept_mimetypes.best_match(["application/json", "text/html"])
    return best == "application/json" and request.accept_mimetypes[best] > request.accept_mimetypes["text/html"]


def error_response(status: int, message: str, body: dict[str, Any] | None = None):
    if wants_json():
        return jsonify(body or {"error": message, "status": status}), status
    if isinstance(request.routing_exception, BadHost):
        # a Host header no address can be built on ("a..b"): the page's links cannot be
        # made, so the message alone, as plain text
        return Response(f"{status}: {message}\n", status, mimetype="text/plain")
    return render_template("error.html", status=status, message=message), status


def json_body(required: bool = True) -> Any:
    """The request's JSON body, or an ApiError saying what is wrong with it."""
    if not request.data and not required:
        return None
    if not request.is_json:
        raise ApiError(415, Message("web.send-json-with-content-type", "send JSON with Content-Type: application/json"))
    data, problem = inputs.decode_json(request.get_data(cache=True))  # depth, numbers, text
    if problem is not None:
        raise ApiError(problem.status, problem.message, field=problem.field)
    if data is None:
        raise ApiError(400, Message("web.body-not-valid-json", "the body is not valid JSON"))
    return data


def string_field(body: dict, name: str, refusal: Message) -> str:
    """A JSON body's field that must be a string, or a 400 saying `refusal` (naming `name`)."""
    value = body.get(name)
    if not isinstance(value, str):
        raise ApiError(400, refusal, name)
    return value


def json_object(shape: str, required: bool = True) -> dict:
    """The request's JSON body when it is an object ({} when optional and absent), or a 400
    that says what to send: `shape`, e.g. '{"a": player id, "b": player id}'."""
    body = json_body(required=required)
    if body is None:
        return {}
    if not isinstance(body, dict):
        raise ApiError(400, Message("web.send", "send %(shape)s", shape=shape))
    return body


def csv_or_json(fmt: str, name: str, csv: Callable[[], str], obj: Callable[[], dict], *,
                json_download: bool = False, no_store: bool = False) -> Response:
    """The answer of an export `<name>.<fmt>`: `csv` a download `<name>.csv` (text/csv, UTF-8),
    `json` the object `obj()` (`json_download`: a download `<name>.json`, indented, non-ASCII
    kept); any other `fmt` a 404. Only the asked format is built. `no_store`: no cache keeps it."""
    extra = {"Cache-Control": "no-store"} if no_store else {}
    if fmt == "csv":
        return Response(csv(), mimetype="text/csv",
                        headers={"Content-Disposition": f'attachment; filename="{name}.csv"', **extra})
    if fmt == "json" and json_download:
        return Response(json.dumps(obj(), ensure_ascii=False, indent=1), mimetype="application/json",
                        headers={"Content-Disposition": f'attachment; filename="{name}.json"', **extra})
    if fmt == "json":
        answer = jsonify(obj())
        answer.headers.update(extra)
        return answer
    raise ApiError(404, Message("web.export-as-csv-or-json", "export as .csv or .json"))


# --- flashed messages -----------------------------------------------------------------

def shown_to_a_person() -> bool:
    """Whether this request is a page the browser will show (a navigation, a frame), as
    opposed to a fetch in the background: the service worker saving the rules pages for
    offline use, a prefetch. Browsers say so in Sec-Fetch-Mode / Sec-Fetch-Dest / Sec-Purpose
    (a navigation the service worker passes on keeps mode "navigate" but has dest "empty");
    a client that sends none of them (curl, the test client) is taken to show what it gets."""
    mode, dest = request.headers.get("Sec-Fetch-Mode"), request.headers.get("Sec-Fetch-Dest")
    if mode != "navigate" and dest is not None and dest not in ("document", "iframe", "frame"):
        return False
    purpose = request.headers.get("Sec-Purpose", "") + request.headers.get("Purpose", "")
    return "prefetch" not in purpose.lower()


def page_flashes() -> list[tuple[str, str]]:
    """The flashed messages for base.html, taken only by a page a person sees: a page fetched
    in the background would take "Filip registered" away from the page after the redirect
    (and keep it in its saved copy)."""
    return get_flashed_messages(with_categories=True) if shown_to_a_person() else []


# --- CSRF -------------------------------------------------------------------------------

UNSAFE = {"POST", "PUT", "PATCH", "DELETE"}


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def check_csrf() -> None:
    """Forms must carry the session's CSRF token; JSON with a signed-in cookie, the header.

    Requests authenticated by a bearer token carry no ambient authority and are exempt.
    A body sent to the API that is neither JSON nor a form is refused first (415).
    Cross-site pages cannot send `application/json` without a CORS preflight, so JSON from
    an anonymous client needs no token.
    """
    if request.method not in UNSAFE:
        return
    is_form = request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data")
    if request.path.startswith("/api/") and request.content_length and not (request.is_json or is_form):
        raise ApiError(415, Message("web.send-json-with-content-type", "send JSON with Content-Type: application/json"))
    if request.headers.get("Authorization", "").startswith("Bearer "):
        return
    expected = session.get("csrf")
    sent = request.form.get("csrf_token") if request.form else None
    sent = sent or request.headers.get("X-CSRF-Token")
    signed_in = bool(session.get("auth"))
    if is_form or signed_in or not request.is_json:
        if not expected or not sent or not same_token(sent, expected):
            if request.is_json or request.path.startswith("/api/"):
                raise ApiError(403, Message("web.missing-or-wrong-csrf-token", "missing or wrong CSRF token: reload the page and try again"))
            raise ApiError(400, Message("web.this-form-has-expired-missing", "This form has expired (missing or wrong CSRF token). Go back, reload the page and send it again."))


# --- text at the edge ------------------------------------------------------------------

def check_text_input() -> None:
    """Every query argument and form field is proper text (`inputs.text_problem`: no lone
    surrogate, no NUL), checked once before any view: a 400 naming the field. JSON bodies
    are checked as they are decoded (`json_body`). The headers read as text need no check:
    HTTP headers arrive as Latin-1 (no surrogate can be in them), a bearer token that is not
    one is unknown (401) and a CSRF token is compared as bytes (`same_token`)."""
    sources = [request.args]
    if request.method in UNSAFE and request.mimetype in (
            "application/x-www-form-urlencoded", "multipart/form-data"):
        sources.append(request.form)
    for source in sources:
        for key, values in source.lists():
            for text in [key, *values]:
                problem = inputs.text_problem(text)
                if problem:
                    raise ApiError(400, Message("web.text", "%(value)s: text %(problem)s", value=repr(key[:40]), problem=problem), field=key[:40])


def same_token(sent: Any, expected: Any) -> bool:
    """Constant-time comparison of two tokens as UTF-8 bytes: any text can be sent (a
    non-ASCII token is simply wrong; `hmac.compare_digest` refuses non-ASCII str)."""
    def raw(value: Any) -> bytes:
        return str(value).encode("utf-8", "surrogatepass")
    return hmac.compare_digest(raw(sent), raw(expected))


# --- response headers, the session cookie -------------------------------------------------

def security_headers(response):
    """Every response: the CSP, no framing, no MIME sniffing, no referrer to other sites.
    Set, not `setdefault` (which costs a KeyError per header in werkzeug: 5x slower)."""
    headers = response.headers
    for name, value in SECURITY_HEADERS:
        headers[name] = value
    return response


def came_over_https() -> bool:
    """Whether the browser reached us over https: directly, or through a proxy that says so
    (`X-Forwarded-Proto: https`, or `Forwarded: proto=https`, first hop).

    The proxy's word is trusted for this one purpose, marking the session cookie Secure,
    and for nothing else: a client that lies gets a cookie its browser will not send back
    over plain http, which harms nobody but itself."""
    if request.is_secure:
        return True
    proto = request.headers.get("X-Forwarded-Proto", "").split(",")[0].strip().lower()
    if proto == "https":
        return True
    forwarded = request.headers.get("Forwarded", "").split(",")[0].lower()
    return any(part.strip() == "proto=https" for part in forwarded.split(";"))


class SessionInterface(SecureCookieSessionInterface):
    """Flask's signed cookie session, marked `Secure` when the request came over https.

    Unchanged on the wire, without Flask's per-request cost: Flask builds the signing
    serializer on every request, before it even looks for the cookie. Here a request
    without a session cookie (an API read such as /api/search, a poll, a first visit) gets
    its empty session directly, the serializer is made once per secret key, and a cookie
    already verified is not verified again (its age still is)."""

    _serializer: tuple | None = None

    def get_cookie_secure(self, app: Flask) -> bool:
        return bool(app.config["SESSION_COOKIE_SECURE"]) or came_over_https()

    def get_signing_serializer(self, app: Flask):
        keys = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        cached = self._serializer
        if cached is None or cached[0] != keys:
            cached = self._serializer = (keys, super().get_signing_serializer(app))
        return cached[1]

    def open_session(self, app: Flask, request):
        value = request.cookies.get(self.get_cookie_name(app))
        if app.secret_key and not value:
            return self.session_class()
        serializer = self.get_signing_serializer(app)
        if serializer is None or not value:
            return super().open_session(app, request)
        max_age = int(app.permanent_session_lifetime.total_seconds())
        # A phone sends the same cookie with every entry and poll: its signature is checked
        # once, then the cookie's data is read back from `_verified` (as JSON text, so each
        # request gets its own copy to change), while its age is still checked every time.
        seen = _verified.get(value)
        if seen is not None and seen[2] is serializer:
            age = int(time.time()) - seen[0]
            if 0 <= age <= max_age:        # itsdangerous' rule: expired, or from the future
                return self.session_class(json.loads(seen[1]))
        try:
            data, signed = serializer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        if _plain(data):                   # JSON round-trips it exactly (no tagged values)
            if len(_verified) >= _VERIFIED_MAX:
                _verified.clear()
            _verified[value] = (int(signed.timestamp()), json.dumps(data), serializer)
        return self.session_class(data)

    def save_session(self, app: Flask, session, response) -> None:
        # a session nobody read or changed (no cookie came, none goes): Flask would work out
        # the cookie's attributes first and then set nothing
        if not session and not session.modified and not session.accessed:
            return
        super().save_session(app, session, response)


_VERIFIED_MAX = 1024
_verified: dict[str, tuple[int, str, Any]] = {}   # cookie -> (signed at, its data, serializer)


def _plain(value: Any) -> bool:
    """Whether `value` is made only of what JSON gives back unchanged: dicts with str keys,
    lists, str, int, float, bool, None (a tuple, bytes or Markup needs Flask's tags)."""
    kind = type(value)
    if kind is dict:
        return all(type(k) is str and _plain(v) for k, v in value.items())
    if kind is list:
        return all(_plain(v) for v in value)
    return value is None or kind in (str, int, float, bool)


# --- links for the venue ------------------------------------------------------------------

def venue_url(endpoint: str, **values) -> dict:
    """The address of a page to give people at the venue (players, judges): `{"url"}`, or
    `{"url": None, "why"}` when phones could not open it. A page opened on this machine
    (127.0.0.1, localhost) would share 127.0.0.1: the venue-network address
    (`netinfo.lan_addresses`) is used instead; a server listening on this machine only
    (`judgekit serve --host 127.0.0.1`: config LISTEN_HOST) cannot be reached at all."""
    path = url_for(endpoint, **values)
    listen = current_app.config.get("LISTEN_HOST")
    if listen and netinfo.is_local_host(listen):
        return {"url": None, "why": "judgekit listens on this machine only (--host 127.0.0.1): restart "
                                    "it with judgekit serve --host 0.0.0.0 (the default) so that phones on the venue "
                                    "network can open it."}
    local = netinfo.is_local_host(request.host)
    base = netinfo.venue_base_url(request.host, request.scheme, netinfo.lan_addresses() if local else [])
    if base is None:
        return {"url": None, "why": "No venue-network address is known for this machine (phones cannot open "
                                    f"{request.host}): connect it to the venue's Wi-Fi, start judgekit with "
                                    "judgekit serve --host 0.0.0.0 and reload this page."}
    return {"url": base + path}



# --- routes ----------------------------------------------------------------------------

class IdConverter(BaseConverter):
    """`<id:name>` in a route: a whole number from 1 to 2**63 - 1 (`errors.parse_int`), so
    a view gets an int that fits SQLite; anything else (`abc`, `0`, 30 digits) is a 404."""
    regex = r"\d{1,19}"
    weight = 50

    def to_python(self, value: str) -> int:
        n = parse_int(value)
        if n is None:
            raise ValidationError()
        return n

    def to_url(self, value: Any) -> str:
        return str(int(value))


# --- registration ----------------------------------------------------------------------

def init_app(app: Flask) -> None:
    """The plumbing every area relies on: the `<id:>` converter (set before any blueprint's
    routes are added), the per-thread database, CSRF, template globals, error handlers."""
    app.url_map.converters["id"] = IdConverter
    app.extensions["db_pool"] = threading.local()
    app.teardown_appcontext(close_db)
    app.before_request(check_csrf)
    app.before_request(check_text_input)  # after CSRF: a forged form gets the CSRF refusal
    app.after_request(security_headers)
    app.session_interface = SessionInterface()
    app.jinja_env.globals["csrf_token"] = csrf_token
    app.jinja_env.globals["page_flashes"] = page_flashes
    app.jinja_env.add_extension("jinja2.ext.i18n")   # _("..."), {% trans %}: the reader's catalog
    # a translation is text, not markup (markup goes in as a parameter): escaped
    app.jinja_env.install_gettext_callables(_template_gettext,  # type: ignore[attr-defined]
                                            lambda s, p, n: _as_text(catalog().ngettext(s, p, n)), newstyle=True)
    app.jinja_env.globals["page_lang"] = lambda: catalog().lang
    app.jinja_env.globals["say"] = say   # an AppError a page shows: {{ say(error) }}, in the reader's language
    # markup inside a translated sentence goes in as a parameter: _("… the %(link)s …", link=link(url, _("rules")))
    app.jinja_env.globals["link"] = lambda url, text: Markup('<a href="%s">%s</a>') % (url, text)
    app.jinja_env.globals["bold"] = lambda text: Markup("<b>%s</b>") % text
    app.jinja_env.globals["literal"] = lambda text: Markup("<code>%s</code>") % text   # typed as shown
    app.after_request(_vary_language)

    @app.errorhandler(AppError)  # ApiError, TournamentError: JSON under /api/, else a page
    def _app_error(exc: AppError):
        response = error_response(exc.status, say(exc), exc.body(catalog()))
        if exc.extra.get("retry_after"):  # a 429: when to try again
            return response[0], response[1], {"Retry-After": str(exc.extra["retry_after"])}
        return response

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        messages = {
            400: _("The request could not be understood."),
            404: _("There is nothing at this address."),
            405: _("This address does not accept that method."),
            413: _("The request is too large."),
            415: _("Unsupported content type."),
        }
        message = messages.get(exc.code or 500, exc.description or exc.name)
        return error_response(exc.code or 500, message)

    @app.errorhandler(Exception)
    def _crash(exc: Exception):  # pragma: no cover - the last line of defence
        log.exception("%s %s 500: unhandled %s", request.method, request.path, type(exc).__name__)
        return error_response(500, _("Something went wrong on our side; nothing was changed."))
