"""The search workers (`judgekit.rules.search_pool`) and the event loop that hands them the
search box's requests (`judgekit.live.search_loop`), driven through a real waitress server:
the same answers as the search in process, in each connection's order; bad requests and
everything else answered by the server's threads; a worker that dies or hangs replaced
while its search is answered anyway; workers that end with the server, even one killed."""
from __future__ import annotations

import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from judgekit import create_app
from judgekit.live import search_loop, serving
from judgekit.rules.search_pool import (SearchPool, decode_answer, decode_request, default_workers,
                                        encode_request)

QUERIES = ["vp withdraw", "3.7.2", "what counts as a game win", "deflection", "is it too late for direct intervention",
           "withdrawl", "theo bell adv", "91 library cards", "wh", "what co", "éclair", "\u00a0vp"]


def wait_for(condition, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return bool(condition())


@pytest.fixture
def served(app):
    """The test app served by waitress with one search worker, once the event loop has it."""
    server, base = serving.run_in_thread(app, threads=2)
    pool = serving.search_pool(app, 1)
    loop = serving.route_searches(server, pool)
    try:
        assert wait_for(lambda: loop.ready == 1), "the worker did not open the index"
        yield base, pool, loop
    finally:
        serving.stop(server)
        pool.close()


def get(base: str, query: str, limit: int = 12) -> tuple[int, dict]:
    url = f"{base}/api/search?" + urllib.parse.urlencode({"q": query, "limit": limit})
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def in_process(app, query: str, limit: int = 12) -> list[dict]:
    return app.extensions["rules"].search_payload(query, limit)["results"]


def test_requests_and_answers_cross_the_pipe_intact():
    for query in ["vp", "é\u2013x", "\ud800 lone", "a\nb"]:
        assert decode_request(encode_request(query, 12)) == (query, 12)
    assert decode_answer(b'o[{"a":"\xc3\xa9"}]') == ("o", '[{"a":"é"}]')
    assert decode_answer(b"qtype something") == ("q", "type something")


def test_workers_for_a_machine():
    n = default_workers()
    assert 1 <= n <= 4
    assert n >= 2 or (os.cpu_count() or 1) < 2


def test_a_worker_answers_as_the_search_in_process(app, served):
    base, pool, loop = served
    for query in QUERIES:
        status, body = get(base, query)
        assert status == 200 and body["query"] == query
        assert body["results"] == in_process(app, query), query
        assert isinstance(body["took_ms"], float)
    assert loop.served == len(QUERIES) and loop.fallbacks == 0


def test_a_search_asked_again_is_answered_without_a_worker(app, served, monkeypatch):
    """The loop keeps the workers' answers (the server's cache size): the same query and
    limit asked again is written by a thread from what the worker said; another limit or
    query goes to the worker. With the cache off (JUDGEKIT_SEARCH_CACHE=0) nothing is kept."""
    base, pool, loop = served
    first = get(base, "vp withdraw")[1]
    again = get(base, "vp withdraw")[1]
    assert again["results"] == first["results"] == in_process(app, "vp withdraw")
    assert (loop.served, loop.cached) == (1, 1)
    assert get(base, "vp withdraw", limit=3)[1]["results"] == in_process(app, "vp withdraw", 3)
    assert (loop.served, loop.cached) == (2, 1)
    monkeypatch.setattr(loop, "_cache_size", 0)
    loop._answers.clear()
    for _ in range(2):
        assert get(base, "oust")[1]["results"] == in_process(app, "oust")
    assert (loop.served, loop.cached) == (4, 1)


def test_bad_arguments_are_answered_by_the_app_as_before(served):
    base, pool, loop = served
    status, body = get(base, "   ")
    assert status == 400 and "query is empty" in body["error"]
    status, body = get(base, "vp", limit=0)
    assert status == 400 and body.get("field") == "limit"
    assert loop.served == 0


def test_pipelined_searches_and_pages_are_answered_in_each_connections_order(app, served):
    """Eight connections, each sending four requests at once (searches beyond what one
    worker holds: they wait in line; a page among them, answered by a thread): every
    answer right, each connection's in the order asked."""
    base, pool, loop = served
    port = int(base.rsplit(":", 1)[1])
    asked = {k: [f"/api/search?q=vp+withdraw+{k}", f"/api/search?q=oust+{k}", "/reference",
                 f"/api/search?q=game+win+{k}"] for k in range(8)}
    socks = {k: socket.create_connection(("127.0.0.1", port), timeout=30) for k in asked}
    try:
        for k, sock in socks.items():
            sock.sendall(b"".join(f"GET {p} HTTP/1.1\r\nHost: x\r\n\r\n".encode() for p in asked[k]))
        for k, sock in socks.items():
            answers = read_responses(sock, 4)
            assert [status for status, _ in answers] == [200] * 4
            bodies = [body for _, body in answers]
            assert [json.loads(bodies[i])["query"] for i in (0, 1, 3)] == \
                [f"vp withdraw {k}", f"oust {k}", f"game win {k}"]
            assert b"<html" in bodies[2]
            assert json.loads(bodies[3])["results"] == in_process(app, f"game win {k}", 10)
    finally:
        for sock in socks.values():
            sock.close()
    assert loop.served == 24 and not loop._queue


def test_a_client_that_leaves_before_its_answer_does_not_stop_the_others(app, served):
    base, pool, loop = served
    port = int(base.rsplit(":", 1)[1])
    for i in range(5):
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(f"GET /api/search?q=what+happens+if+{i} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
    assert get(base, "vp withdraw")[1]["results"] == in_process(app, "vp withdraw")


def test_an_answer_for_a_connection_with_a_backlog_is_written_by_a_thread(app, served, monkeypatch):
    """Where the client has not read what it was sent, the event loop must not wait for
    room: a thread writes the answer (here every answer, the backlog limit set below 0)."""
    base, pool, loop = served
    monkeypatch.setattr(search_loop, "BACKLOG", -1)
    threaded = []
    original = loop.others.add_task
    monkeypatch.setattr(loop.others, "add_task", lambda channel: threaded.append(1) or original(channel))
    assert get(base, "vp withdraw")[1]["results"] == in_process(app, "vp withdraw")
    assert threaded == [1] and loop.served == 1


def read_responses(sock, n: int) -> list[tuple[int, bytes]]:
    """(status, body) of the next `n` responses on a keep-alive connection."""
    data, out = b"", []
    while len(out) < n:
        while b"\r\n\r\n" not in data:
            chunk = sock.recv(1 << 16)
            assert chunk, "the connection closed before the last answer"
            data += chunk
        head, _, data = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"(?i)content-length: (\d+)", head).group(1))
        while len(data) < length:
            chunk = sock.recv(1 << 16)
            assert chunk, "the connection closed inside an answer"
            data += chunk
        out.append((int(head.split()[1]), data[:length]))
        data = data[length:]
    return out


def worker_gone(pid: int) -> bool:
    return not alive(pid)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_dead_worker_is_replaced_and_its_search_answered_anyway(app, served):
    base, pool, loop = served
    expected = in_process(app, "vp withdraw")
    (pid,) = pool.pids()
    os.kill(pid, signal.SIGKILL)
    assert wait_for(lambda: worker_gone(pid), 10)
    assert get(base, "vp withdraw")[1]["results"] == expected     # in process meanwhile, or the new worker
    assert wait_for(lambda: pool.replaced == 1 and loop.ready == 1 and pool.pids() not in ([], [pid]))
    served_before = loop.served
    assert get(base, "vp withdraw")[1]["results"] == expected
    assert loop.served == served_before + 1                       # the new worker answers


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_worker_that_does_not_answer_is_replaced_and_its_search_answered(app, served, monkeypatch):
    """A worker stuck over a search (here: stopped) is given `TIMEOUT` seconds, then
    killed and replaced; the search is answered in process."""
    base, pool, loop = served
    expected = in_process(app, "vp withdraw")
    monkeypatch.setattr(search_loop, "TIMEOUT", 0.5)
    (pid,) = pool.pids()
    os.kill(pid, signal.SIGSTOP)
    try:
        status, body = get(base, "vp withdraw")
        assert status == 200 and body["results"] == expected
        assert loop.fallbacks == 1 and loop.served == 0
        assert wait_for(lambda: pool.replaced == 1 and worker_gone(pid), 15)   # killed, not left stopped
    finally:
        if not worker_gone(pid):
            os.kill(pid, signal.SIGKILL)
    assert wait_for(lambda: loop.ready == 1 and pool.pids() not in ([], [pid]))


class _Channel:
    def __init__(self, request):
        self.requests = [request]


class _Request:
    error = None
    command = "GET"
    path = "/api/search"
    query = "q=vp"


def test_without_a_ready_worker_searches_go_to_the_servers_threads():
    """Until a worker has its index (the first second after start), and for what a worker
    does not take (a request waitress could not parse, another address), the threads answer."""
    class Dispatcher:
        def __init__(self):
            self.tasks = []

        def add_task(self, channel):
            self.tasks.append(channel)

    class Listener:
        _map: dict = {}
        trigger = None

    pool = SearchPool("content", "index", 1)       # never started
    others = Dispatcher()
    loop = search_loop.SearchLoop(Listener(), pool, others)
    search = _Channel(_Request())
    loop.add_task(search)
    broken = _Channel(type("Broken", (), {"error": ValueError("bad"), "query": ""})())
    loop.add_task(broken)
    assert others.tasks == [search, broken] and loop.ready == 0 and not loop._queue
    assert pool.on_ready == loop.adopt


def test_a_worker_refuses_other_content_than_the_servers(app):
    """Workers open the index the server opened: one started after the content changed
    (here: another stamp) refuses, and the server searches itself."""
    got = []
    pool = SearchPool(app.config["CONTENT_DIR"], app.config["INDEX_DIR"], 1, stamp="another stamp",
                      on_ready=got.append)
    pool._start_one()                               # at once, not in the background
    assert pool.ready == 0 and got == []
    pool.close()
    same = SearchPool(app.config["CONTENT_DIR"], app.config["INDEX_DIR"], 1,
                      stamp=app.extensions["rules"].search.stamp, on_ready=got.append)
    same._start_one()
    try:
        assert same.ready == 1 and len(got) == 1
        got[0].conn.send_bytes(encode_request("vp withdraw", 12))
        kind, text = decode_answer(got[0].conn.recv_bytes())
        assert kind == "o" and json.loads(text) == in_process(app, "vp withdraw")
    finally:
        same.close()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if int(open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry))
            except OSError:
                pass
    return out


def alive(pid: int) -> bool:
    try:
        state = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_serve_searches_in_workers_that_end_when_the_server_is_killed(app, tmp_path):
    """`judgekit serve --search-workers 1`: the search box is answered (by the worker once
    it is ready), and a server killed with SIGKILL leaves no worker behind."""
    port = free_port()
    env = dict(os.environ, JUDGEKIT_INSTANCE=str(tmp_path / "served"))
    env.pop("JUDGEKIT_SEARCH_WORKERS", None)
    # the same index folder as the test app: built already, so the server only opens it
    cmd = [sys.executable, "-c",
           "import sys; from judgekit.cli import main; sys.argv[0] = 'judgekit'; main()",
           "serve", "--port", str(port), "--search-workers", "1", "--threads", "2"]
    instance = tmp_path / "served"
    instance.mkdir()
    (instance / "index").symlink_to(app.config["INDEX_DIR"], target_is_directory=True)
    server = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}/api/search?q=vp+withdraw"
        deadline = time.monotonic() + 60
        body = None
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url, timeout=5) as r:
                    body = json.loads(r.read())
                break
            except OSError:
                time.sleep(0.1)
        assert body is not None and body["results"][0]["section"] == "3.7.2"
        workers: list[int] = []
        while time.monotonic() < deadline and not workers:
            workers = children(server.pid)
            time.sleep(0.05)
        assert workers, "no worker process was started"
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        end = time.monotonic() + 15
        while time.monotonic() < end and any(alive(w) for w in workers):
            time.sleep(0.1)
        assert not any(alive(w) for w in workers), "a search worker outlived its server"
    finally:
        if server.poll() is None:
            server.kill()


def test_no_workers_where_the_event_loop_cannot_watch_their_pipes(app, monkeypatch):
    """waitress's loop without poll() (Windows' select()) takes sockets only: there the
    server searches itself, as with --search-workers 0."""
    monkeypatch.setattr(serving, "select", type("NoPoll", (), {})())
    assert serving.search_pool(app, None) is None and serving.search_pool(app, 2) is None
    monkeypatch.undo()
    # nor where a worker's answer could not reach the fast path (the event loop would search)
    monkeypatch.setattr(serving, "supported", lambda: False)
    assert serving.search_pool(app, 2) is None
    monkeypatch.undo()
    plain = create_app({"INSTANCE": app.instance_path + "-plain", "INDEX_DIR": app.config["INDEX_DIR"],
                        "TESTING": True, "SEARCH_FAST_PATH": False})
    assert serving.search_pool(plain, 2) is None
    pool = serving.search_pool(app, 2)
    assert pool is not None and pool.size == 2 and pool.ready == 0     # made, not started
    assert serving.search_pool(app, 0) is None
