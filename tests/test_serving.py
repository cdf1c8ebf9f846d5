"""What each request costs the server: sessions without per-request setup, a quiet queue.

The figures are in bench/serve.py; these tests hold the behaviour the savings rely on."""
from __future__ import annotations

import json
import re

from click.testing import CliRunner
from flask.sessions import SecureCookieSessionInterface


def count_serializers(monkeypatch) -> list:
    made = []
    original = SecureCookieSessionInterface.get_signing_serializer

    def counting(self, app):
        made.append(1)
        return original(self, app)

    monkeypatch.setattr(SecureCookieSessionInterface, "get_signing_serializer", counting)
    return made


def test_an_api_read_without_a_cookie_builds_no_session_machinery(client, monkeypatch):
    made = count_serializers(monkeypatch)
    for q in ("proxy", "vp withdraw", "what counts as a game win"):
        assert client.get("/api/search", query_string={"q": q}).status_code == 200
    assert made == []
    assert "Set-Cookie" not in client.get("/api/search?q=proxy").headers


def test_a_session_is_signed_as_before_and_its_serializer_made_once(client, monkeypatch):
    made = count_serializers(monkeypatch)
    html = client.get("/tournaments").get_data(as_text=True)      # a form: the session gets a CSRF token
    token = re.search(r'name="csrf-token" content="([^"]+)"', html).group(1)
    cookie = client.get_cookie("session")
    assert cookie is not None and cookie.value.count(".") == 2     # itsdangerous' signed form
    for _ in range(3):                                             # the cookie read back, same token
        page = client.get("/tournaments").get_data(as_text=True)
        assert f'name="csrf-token" content="{token}"' in page
    r = client.post("/tournaments", data={"csrf_token": token, "name": "Cup", "organizer": "Olga"})
    assert r.status_code in (302, 303)
    assert len(made) == 1


def _open(app, cookie: str):
    with app.test_request_context("/", headers={"Cookie": f"session={cookie}"}) as ctx:
        return app.session_interface.open_session(app, ctx.request)


def test_a_session_cookie_is_verified_once_its_age_every_time_and_each_request_gets_a_copy(app, monkeypatch):
    import time

    from itsdangerous import URLSafeTimedSerializer
    serializer = app.session_interface.get_signing_serializer(app)
    cookie = serializer.dumps({"auth": {"7": {"role": "judge", "name": "Ana", "gen": 1}}, "csrf": "tok"})
    checked = []
    original = URLSafeTimedSerializer.loads
    monkeypatch.setattr(URLSafeTimedSerializer, "loads", lambda self, *a, **kw: checked.append(1) or original(self, *a, **kw))
    first = _open(app, cookie)
    first["auth"]["7"]["role"] = "organizer"                       # a view changing its session
    first.setdefault("_flashes", []).append(("ok", "hi"))
    second = _open(app, cookie)
    assert dict(second) == {"auth": {"7": {"role": "judge", "name": "Ana", "gen": 1}}, "csrf": "tok"}
    assert len(checked) == 1                                        # the signature was checked once
    assert dict(_open(app, cookie[:-2] + ("AA" if not cookie.endswith("AA") else "BB"))) == {}   # forged: empty
    lifetime = app.permanent_session_lifetime.total_seconds()
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + lifetime + 5)
    assert dict(_open(app, cookie)) == {}                           # expired, even though it was seen


def test_a_forged_session_cookie_is_an_empty_session(app, client):
    """A cookie that does not carry the server's signature grants nothing: the CSRF token
    it claims is not the session's."""
    client.set_cookie("session", "eyJjc3JmIjoiZm9yZ2VkIn0.ZZZZZZ.forgedsignatureforgedsignature")
    r = client.post("/tournaments", data={"csrf_token": "forged", "name": "Cup", "organizer": "Olga"})
    assert r.status_code == 400 and "CSRF" in r.get_data(as_text=True)


def test_serve_passes_its_flags_to_the_server(monkeypatch, indexed_instance):
    from judgekit.cli import main as cli
    from judgekit.live import serving
    served = {}
    monkeypatch.setattr(serving, "serve", lambda app, **kw: served.update(kw))
    res = CliRunner().invoke(cli, ["--instance", str(indexed_instance), "serve", "--port", "5399",
                                   "--host", "127.0.0.1", "--threads", "3", "--connections", "200"])
    assert res.exit_code == 0, res.output
    assert (served["port"], served["host"], served["threads"], served["connections"]) == (5399, "127.0.0.1", 3, 200)


def test_serve_freezes_what_it_started_with_before_it_answers(monkeypatch, indexed_instance):
    """The rules, the cards and their index live as long as the server: `serve` moves them
    out of the cycle collector's walks (judgekit/collector.py) before the server runs."""
    import gc

    from judgekit.cli import main as cli
    from judgekit.live import serving
    seen = {}

    def served(app, **kw):
        service = app.extensions["rules"]
        seen["frozen"] = gc.get_freeze_count()
        seen["walked"] = any(o is service for o in gc.get_objects())   # frozen: not listed

    monkeypatch.setattr(serving, "serve", served)
    try:
        res = CliRunner().invoke(cli, ["--instance", str(indexed_instance), "serve", "--port", "5399"])
    finally:
        gc.unfreeze()      # this test process goes on with other tests
    assert res.exit_code == 0, res.output
    assert seen["frozen"] > 100_000 and seen["walked"] is False


def test_an_api_read_works_out_no_cookie_attributes(client, monkeypatch):
    """A request that had no session and made none skips Flask's cookie work (the proxy
    headers `came_over_https` reads); one that made a session still gets its cookie."""
    from judgekit import views
    asked = []
    original = views.SessionInterface.get_cookie_secure
    monkeypatch.setattr(views.SessionInterface, "get_cookie_secure",
                        lambda self, app: asked.append(1) or original(self, app))
    r = client.get("/api/search?q=proxy")
    assert r.status_code == 200 and asked == [] and "Set-Cookie" not in r.headers
    assert "Cookie" not in r.headers.get("Vary", "")
    page = client.get("/tournaments")                 # a form: the session gets a CSRF token
    assert asked and "session=" in page.headers["Set-Cookie"] and "Cookie" in page.headers["Vary"]


def test_answers_flow_over_keep_alive_connections_on_one_worker_thread(app):
    """Four keep-alive clients, 50 searches each, one worker thread: every answer arrives
    whole, on the connection that asked."""
    import socket

    from judgekit.live import serving
    server, _ = serving.run_in_thread(app, threads=1)
    try:
        socks = [socket.create_connection(("127.0.0.1", server.port), timeout=10) for _ in range(4)]
        for i in range(50):
            for k, sock in enumerate(socks):
                sock.sendall(f"GET /api/search?q=vp+withdraw+{i}+{k} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            for k, sock in enumerate(socks):
                data = b""
                while b"\r\n\r\n" not in data:
                    data += sock.recv(65536)
                head, _, body = data.partition(b"\r\n\r\n")
                length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
                while len(body) < length:
                    body += sock.recv(65536)
                assert head.startswith(b"HTTP/1.1 200") and len(body) == length
                assert json.loads(body)["query"] == f"vp withdraw {i} {k}"
        for sock in socks:
            sock.close()
    finally:
        serving.stop(server)
