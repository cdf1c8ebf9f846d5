"""GET /api/search answered without Flask (`judgekit.rules.search_api.SearchFastPath`):
the same answers as the Flask view, byte for byte but the time taken, and every request it
cannot answer plainly goes on to Flask."""
from __future__ import annotations

import json

import pytest

from judgekit import create_app
from judgekit.rules.query import MAX_QUERY
from judgekit.rules.search_api import SearchFastPath
from tests.conftest import copy_template, stored_rows


def front(app):
    """What the app puts in front of Flask, inside its request log (`judgekit.logs.RequestLog`)."""
    return app.wsgi_app.app


@pytest.fixture(scope="module")
def both_apps(tmp_path_factory, shared_index, template_db):
    instance = tmp_path_factory.mktemp("fast-path") / "instance"
    instance.mkdir(mode=0o700)
    copy_template(template_db, instance / "judgekit.db")
    config = {"INSTANCE": instance, "INDEX_DIR": str(shared_index), "TESTING": True}
    fast = create_app(config)
    slow = create_app({**config, "SEARCH_FAST_PATH": False})
    assert isinstance(front(fast), SearchFastPath) and not isinstance(front(slow), SearchFastPath)
    return fast, slow


@pytest.fixture
def both(both_apps):
    """(fast, flask): the same instance served with the fast path and without it; the
    module's tests share the two apps (they only read), each gets the fast path as built."""
    fast, slow = both_apps
    flask_behind = front(fast).app
    yield fast, slow
    front(fast).app = flask_behind            # undo `flask_calls`
    assert stored_rows(fast.config["DATABASE"]) == 0, "a test wrote: give it apps of its own"


def flask_calls(app) -> list:
    """Count the requests the fast path passes on to Flask."""
    calls = []
    inner = front(app).app

    def counting(environ, start_response):
        calls.append(environ["PATH_INFO"])
        return inner(environ, start_response)

    front(app).app = counting
    return calls


def without_time(body: bytes) -> dict:
    data = json.loads(body)
    data.pop("took_ms", None)
    return data


def same_headers(a, b) -> None:
    skip = {"Content-Length"}          # the time taken is in the body: its length may differ
    assert [(k, v) for k, v in a.headers if k not in skip] == [(k, v) for k, v in b.headers if k not in skip]


PLAIN = ["vp withdraw", "3.7.2", "what counts as a game win", "deflection", "DI", "withdrawl",
         "is a deck with 91 library cards legal", "Théo Bell", "forbidden-shortcuts", "1", "the"]


@pytest.mark.parametrize("query", PLAIN)
def test_a_plain_search_is_answered_without_flask_as_flask_answers_it(both, query):
    fast, slow = both
    calls = flask_calls(fast)
    for limit in (None, "12", "1", "50"):
        args = {"q": query} if limit is None else {"q": query, "limit": limit}
        a = fast.test_client().get("/api/search", query_string=args)
        b = slow.test_client().get("/api/search", query_string=args)
        assert a.status_code == b.status_code == 200
        same_headers(a, b)
        assert without_time(a.data) == without_time(b.data)
        assert json.loads(a.data)["query"] == query
    assert calls == []


BAD = [
    "/api/search",                                  # no query
    "/api/search?q=",                               # empty
    "/api/search?q=%20%20",                         # blank
    "/api/search?q=" + "a" * (MAX_QUERY + 1),       # too long
    "/api/search?q=vp&limit=0",                     # limit out of range
    "/api/search?q=vp&limit=51",
    "/api/search?q=vp&limit=abc",
    "/api/search?q=vp&limit=1_0",
    "/api/search?q=v%00p",                          # NUL in the query
    "/api/search?q=vp&x%00=1",                      # NUL in another argument's name
    "/api/search?q=%ED%A0%80",                      # a lone surrogate, UTF-8-encoded
    "/api/search?q=%FF%FE",                         # not UTF-8
]


@pytest.mark.parametrize("path", BAD)
def test_a_request_the_fast_path_cannot_answer_gets_flasks_answer(both, path):
    fast, slow = both
    calls = flask_calls(fast)
    a = fast.test_client().get(path)
    b = slow.test_client().get(path)
    assert calls == ["/api/search"]
    assert a.status_code == b.status_code
    if a.status_code == 200:     # not UTF-8: werkzeug keeps the bytes percent-encoded
        assert without_time(a.data) == without_time(b.data)
    else:
        assert a.status_code == 400 and a.data == b.data and a.get_json()["field"]
    same_headers(a, b)


def test_other_methods_and_addresses_go_to_flask(both):
    fast, _ = both
    calls = flask_calls(fast)
    client = fast.test_client()
    assert client.post("/api/search?q=vp").status_code in (403, 405)   # CSRF first
    assert client.head("/api/search?q=vp").status_code == 200
    assert client.get("/api/search/?q=vp").status_code in (308, 404)
    assert client.get("/search?q=vp+withdraw").status_code == 200
    assert len(calls) == 4


def test_a_signed_in_judge_gets_the_same_answer_no_cookie_work(both):
    """The search uses no session: with a session cookie the answer is the same, and it
    sets no cookie (as Flask's, which reads no session on this view)."""
    fast, slow = both
    for app in (fast, slow):
        client = app.test_client()
        client.get("/tournaments")                    # a form: the session gets a CSRF token
        assert client.get_cookie("session") is not None
        r = client.get("/api/search?q=vp+withdraw")
        assert r.status_code == 200 and "Set-Cookie" not in r.headers
        assert "Cookie" not in r.headers.get("Vary", "")


def test_a_search_that_fails_is_answered_by_flask(both, monkeypatch):
    """A failure inside the search is left to Flask, whose handler logs it and says so."""
    fast, _ = both
    calls = flask_calls(fast)
    service = fast.extensions["rules"]

    def broken(query, limit):
        raise RuntimeError("index gone")

    monkeypatch.setattr(service, "_json", broken)
    r = fast.test_client().get("/api/search?q=vp")
    assert r.status_code == 500 and r.is_json and "nothing was changed" in r.get_json()["error"]
    assert calls == ["/api/search"]
