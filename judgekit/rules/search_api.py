"""`GET /api/search`: what a request asks for, and the fast path that answers it (no Flask).

- `search_args(get)`: the query and the limit of a request, or the `AppError` (400) that
  says what is wrong with them. The Flask view (`judgekit.rules.views.api_search`) and the
  fast path both use it, so they accept and refuse the same requests.
- `SearchFastPath`: a WSGI layer in front of the Flask app. The search box sends a request
  per keystroke, and Flask's own work on one (the request context, the session, the hooks,
  the response object) cost as much CPU as finding the answer. This layer answers a plain
  `GET /api/search` itself, with the same body and the same headers as the view (the
  security headers of `judgekit.headers`; the search uses no session, so a signed-in
  judge's request gets the same answer as anyone's), and hands everything else to Flask:
  other addresses and methods, a query string that is not UTF-8 or holds text the app
  refuses (`inputs.text_problem`), bad arguments, a query the search refuses, any failure.
  Flask then answers as it always does: an error is worded and logged in one place.
  tests/test_search_fast_path.py checks that both answer alike.
"""
from __future__ import annotations

import urllib.parse
from typing import Callable

from judgekit import inputs
from judgekit.errors import AppError, parse_int
from judgekit.headers import SECURITY_HEADERS
from judgekit.rules.query import MAX_QUERY

MAX_LIMIT = 50
DEFAULT_LIMIT = 10
PATH = "/api/search"


def search_args(get: Callable[[str], str | None]) -> tuple[str, int] | AppError:
    """(query, limit) from a request's arguments (`get(name)`: its first value or None), or
    the error to answer."""
    raw = get("limit")
    if raw is None or raw == "":
        limit = DEFAULT_LIMIT
    else:
        limit = parse_int(raw, 1, MAX_LIMIT)  # not int(): it takes "1_0" and other digits
        if limit is None:
            return AppError(400, f"limit must be a whole number between 1 and {MAX_LIMIT}", field="limit")
    q = get("q") or ""
    if not q.strip():
        return AppError(400, "the query is empty: pass ?q=words", field="q")
    if len(q) > MAX_QUERY:
        return AppError(400, f"the query is too long ({len(q)} characters; at most {MAX_QUERY})", field="q")
    return q, limit


def plain_args(query_string: str) -> tuple[str, int] | None:
    """(query, limit) of a plain search's query string (WSGI's: Latin-1), or None when Flask
    must answer it: not UTF-8, text the app refuses (`inputs.text_problem`), bad arguments."""
    try:
        # WSGI gives the query string as Latin-1; werkzeug reads it as UTF-8 (and keeps
        # bytes that are not UTF-8 percent-encoded: those requests go to Flask)
        pairs = urllib.parse.parse_qsl(query_string.encode("latin-1").decode("utf-8"),
                                       keep_blank_values=True, errors="strict")
    except (UnicodeError, ValueError):
        return None
    first: dict[str, str] = {}
    for key, value in pairs:
        if inputs.text_problem(key) or inputs.text_problem(value):
            return None
        first.setdefault(key, value)
    args = search_args(first.get)
    return None if isinstance(args, AppError) else args


class SearchFastPath:
    """WSGI: answers plain searches without Flask (see the module); `app` does the rest."""

    def __init__(self, app, service):
        self.app = app
        self.service = service

    def __call__(self, environ, start_response):
        if environ.get("PATH_INFO") == PATH and environ.get("REQUEST_METHOD") == "GET":
            body = self._answer(environ.get("QUERY_STRING", ""))
            if body is not None:
                start_response("200 OK", [("Content-Type", "application/json"),
                                          ("Content-Length", str(len(body))), *SECURITY_HEADERS])
                return [body]
        return self.app(environ, start_response)

    def _answer(self, query_string: str) -> bytes | None:
        """The answer's body, or None: Flask answers this request."""
        args = plain_args(query_string)
        if args is None:
            return None
        try:
            return self.service.search_json(*args).encode("utf-8")
        except Exception:  # a refused query (ValueError) or a failure: Flask says which
            return None
