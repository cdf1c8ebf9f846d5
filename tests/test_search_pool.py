"""The search workers (`judgekit.rules.search_pool`): the same answers as the search in
process, a worker that dies is replaced while its search is answered anyway, and workers
end with the server, even one killed outright."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from judgekit.rules.search_pool import SearchPool, decode_request, default_workers, encode_request
from judgekit.rules.service import RulesService

QUERIES = ["vp withdraw", "3.7.2", "what counts as a game win", "deflection", "is it too late for direct intervention",
           "withdrawl", "theo bell adv", "91 library cards", "wh", "what co", "éclair", "\u00a0vp"]


@pytest.fixture
def pool_app(app):
    """The test app's rules answered by a pool of one worker."""
    pool = SearchPool(app.config["CONTENT_DIR"], app.config["INDEX_DIR"], 1).start()
    assert pool.wait_ready(60), "the worker did not open the index"
    yield app, pool
    pool.close()


def test_requests_cross_the_pipe_intact():
    for query in ["vp", "é\u2013x", "\ud800 lone", "a\nb"]:
        assert decode_request(encode_request(query, 12)) == (query, 12)


def test_workers_for_a_machine():
    n = default_workers()
    assert 1 <= n <= 4
    assert n >= 2 or (os.cpu_count() or 1) < 2


def test_a_worker_answers_as_the_search_in_process(pool_app):
    app, pool = pool_app
    service: RulesService = app.extensions["rules"]
    for query in QUERIES:
        kind, text = pool.search_json(query, 12)
        assert kind == "o"
        assert json.loads(text) == json.loads(service.search_json(query, 12))["results"]
    assert pool.served == len(QUERIES) and pool.fallbacks == 0


def test_the_service_uses_the_pool_and_a_refused_query_is_refused_alike(pool_app):
    app, pool = pool_app
    service = RulesService(app.extensions["rules"].corpus, app.extensions["rules"].search, cache_size=0)
    alone = service.search_json("vp withdraw", 12)
    service.use_pool(pool)
    assert json.loads(service.search_json("vp withdraw", 12))["results"] == json.loads(alone)["results"]
    assert pool.served == 1
    kind, text = pool.search_json("   ", 12)       # the search's own refusal, in words
    assert kind == "q" and "type something" in text
    with pytest.raises(ValueError, match="type something"):
        service.search_json("   ", 12)


def test_a_dead_worker_is_replaced_and_its_search_answered_in_process(pool_app):
    app, pool = pool_app
    service = RulesService(app.extensions["rules"].corpus, app.extensions["rules"].search, cache_size=0)
    service.use_pool(pool)
    expected = json.loads(service.search_json("vp withdraw", 12))["results"]
    (pid,) = pool.pids()
    os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:           # wait for the process to be gone
        try:
            os.kill(pid, 0)
            if open(f"/proc/{pid}/stat").read().split(")")[1].split()[0] == "Z":
                break
        except (ProcessLookupError, FileNotFoundError):
            break
        time.sleep(0.02)
    assert json.loads(service.search_json("vp withdraw", 12))["results"] == expected
    assert pool.fallbacks == 1 and pool.replaced == 1
    assert pool.wait_ready(60)                    # a new worker took its place
    assert pool.pids() != [pid]
    assert json.loads(service.search_json("vp withdraw", 12))["results"] == expected
    assert pool.served >= 2


def test_without_a_ready_worker_the_search_is_in_process(app):
    pool = SearchPool(app.config["CONTENT_DIR"], app.config["INDEX_DIR"], 1)   # not started
    assert pool.search_json("vp", 12) is None
    service = RulesService(app.extensions["rules"].corpus, app.extensions["rules"].search, cache_size=0)
    service.use_pool(pool)
    assert json.loads(service.search_json("vp withdraw", 12))["results"][0]["section"] == "3.7.2"


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


def test_a_worker_that_does_not_answer_is_replaced_and_its_search_answered(pool_app, monkeypatch):
    """A worker stuck over a search (here: stopped) is given `TIMEOUT` seconds, then
    killed and replaced; the search is answered in process meanwhile."""
    from judgekit.rules import search_pool
    app, pool = pool_app
    service = RulesService(app.extensions["rules"].corpus, app.extensions["rules"].search, cache_size=0)
    service.use_pool(pool)
    expected = json.loads(service.search_json("vp withdraw", 12))["results"]
    monkeypatch.setattr(search_pool, "TIMEOUT", 0.5)
    (pid,) = pool.pids()
    os.kill(pid, signal.SIGSTOP)
    try:
        assert json.loads(service.search_json("vp withdraw", 12))["results"] == expected
        assert pool.fallbacks == 1 and pool.replaced == 1
        assert not alive(pid)                       # killed, not left stopped
    finally:
        if alive(pid):
            os.kill(pid, signal.SIGKILL)
    assert pool.wait_ready(60) and pool.pids() != [pid]


def test_a_worker_refuses_other_content_than_the_servers(app):
    """Workers open the index the server opened: one started after the content changed
    (here: another stamp) refuses, and the server searches itself."""
    pool = SearchPool(app.config["CONTENT_DIR"], app.config["INDEX_DIR"], 1, stamp="another stamp")
    pool._start_one()                               # at once, not in the background
    assert pool.ready == 0 and pool.search_json("vp", 12) is None
    pool.close()
    same = SearchPool(app.config["CONTENT_DIR"], app.config["INDEX_DIR"], 1,
                      stamp=app.extensions["rules"].search.stamp)
    same._start_one()
    try:
        assert same.ready == 1 and same.search_json("vp withdraw", 12)[0] == "o"
    finally:
        same.close()
