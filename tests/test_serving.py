"""What each request costs the server: sessions without per-request setup, a quiet queue.

The figures are in bench/serve.py; these tests hold the behaviour the savings rely on."""
from __future__ import annotations

import logging
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


def test_serve_does_not_log_a_line_per_queued_request(monkeypatch, tmp_path):
    """waitress warns "Task queue depth is N" for every request that waits for a thread."""
    from judgekit.cli import main as cli
    from judgekit.live import serving
    served = {}
    monkeypatch.setattr(serving, "serve", lambda app, **kw: served.update(kw))
    queue = logging.getLogger("waitress.queue")
    monkeypatch.setattr(queue, "level", logging.NOTSET)
    res = CliRunner().invoke(cli, ["--instance", str(tmp_path / "instance"), "serve", "--port", "5399"])
    assert res.exit_code == 0, res.output
    assert served["port"] == 5399
    assert not queue.isEnabledFor(logging.WARNING) and queue.isEnabledFor(logging.ERROR)


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


def raw_get(port: int, path: str, reads: int = 1) -> bytes:
    import socket
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
        out = b""
        while chunk := sock.recv(65536):
            out += chunk
        return out


def test_a_response_head_and_body_are_sent_in_one_write(app, monkeypatch):
    """waitress writes the header and the body with a send each; served by judgekit, an
    answer in one piece leaves in one write, intact, and a large one still arrives whole."""
    from judgekit.live import serving
    writes = []
    original = serving.LiveChannel.write_soon

    def recording(self, data):
        writes.append(bytes(data))
        return original(self, data)

    monkeypatch.setattr(serving.LiveChannel, "write_soon", recording)
    server, base = serving.run_in_thread(app, threads=2)
    try:
        port = server.effective_port
        answer = raw_get(port, "/api/search?q=vp+withdraw")
        assert len(writes) == 1 and writes[0] == answer
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200") and b"X-Frame-Options: DENY" in head
        assert int(re.search(rb"Content-Length: (\d+)", head).group(1)) == len(body)
        assert body.startswith(b'{"query":"vp withdraw"')
        monkeypatch.setattr(serving, "GATHER_BYTES", 100)     # a body larger than that: two writes
        writes.clear()
        answer = raw_get(port, "/api/search?q=vp+withdraw")
        assert len(writes) == 2 and writes[0] + writes[1] == answer
        assert answer.partition(b"\r\n\r\n")[2].startswith(b'{"query":"vp withdraw"')
    finally:
        serving.stop(server)



def test_the_event_loop_leaves_a_connection_to_the_task_answering_on_it():
    """waitress's event loop asks to write a connection whose task has put bytes in its
    buffer, though it will not write them while the task runs: poll() then answers at once,
    again and again, and the loop spins. judgekit's channel asks only when the loop would
    write: no task running, the connection closing, or a buffer past the high-water mark
    (the task waits for the loop to drain it)."""
    from types import SimpleNamespace

    from waitress.channel import HTTPChannel

    from judgekit.live import serving

    def channel(requests, outbuf, will_close=False, close_when_flushed=False):
        ch = serving.LiveChannel.__new__(serving.LiveChannel)      # the state, no socket
        ch.__dict__.update(requests=requests, total_outbufs_len=outbuf, will_close=will_close,
                           close_when_flushed=close_when_flushed,
                           adj=SimpleNamespace(outbuf_high_watermark=1000))
        return ch

    busy = channel(["a request"], 200)
    assert HTTPChannel.writable(busy)                          # waitress: "writable"
    assert busy.writable() is False                            # judgekit: the task writes
    assert channel(["r"], 0).writable() is False
    for ready in (channel([], 200), channel(["r"], 200, will_close=True),
                  channel(["r"], 200, close_when_flushed=True), channel(["r"], 1000), channel(["r"], 1001)):
        assert ready.writable()
    assert not channel([], 0).writable()


def test_answers_flow_without_the_event_loop_spinning(app, monkeypatch):
    """Four keep-alive clients, 50 searches each, one worker thread: every answer arrives
    whole, and the event loop goes round a few times per request (a spin on a connection
    being answered is thousands)."""
    import socket

    from waitress import wasyncore

    from judgekit.live import serving
    rounds = []
    original = wasyncore.poll2

    def counting(*args, **kw):
        rounds.append(1)
        return original(*args, **kw)

    monkeypatch.setattr(wasyncore, "poll2", counting)
    server, _ = serving.run_in_thread(app, threads=1)
    try:
        port = server.effective_port
        socks = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(4)]
        rounds.clear()
        for i in range(50):
            for k, sock in enumerate(socks):
                sock.sendall(f"GET /api/search?q=vp+withdraw+{i}+{k} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            for sock in socks:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += sock.recv(65536)
                head, _, body = data.partition(b"\r\n\r\n")
                length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
                while len(body) < length:
                    body += sock.recv(65536)
                assert head.startswith(b"HTTP/1.1 200") and len(body) == length
        for sock in socks:
            sock.close()
        assert len(rounds) <= 10 * 200, f"{len(rounds)} event-loop rounds for 200 requests"
    finally:
        serving.stop(server)
