"""Logging an organizer can read: the time on every line, one line per request with
`judgekit serve --verbose`, a crash under the request that caused it, a quiet stop."""
from __future__ import annotations

import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from judgekit import logs

STAMP = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}"


def test_one_line_per_request_at_info(app, client, caplog):
    caplog.set_level(logging.INFO, logger=logs.REQUESTS)
    client.get("/rules/tournament-rules/3.7.2")
    client.get("/api/search?q=vp+withdraw&code=secret")   # answered in front of Flask
    client.post("/api/games", json={"seats": "nobody"})
    client.get("/no-such-page")
    lines = [r.getMessage() for r in caplog.records if r.name == logs.REQUESTS]
    assert len(lines) == 4
    assert re.fullmatch(r"GET /rules/tournament-rules/3\.7\.2 200 \d+\.\d ms 127\.0\.0\.1", lines[0])
    assert re.fullmatch(r"GET /api/search 200 \d+\.\d ms \S+", lines[1])   # no query string
    assert re.fullmatch(r"POST /api/games 400 \d+\.\d ms \S+", lines[2])
    assert re.fullmatch(r"GET /no-such-page 404 \d+\.\d ms \S+", lines[3])


def test_no_request_lines_unless_asked(app, client, caplog):
    caplog.set_level(logging.WARNING, logger=logs.REQUESTS)
    client.get("/rules/tournament-rules/3.7.2")
    assert [r for r in caplog.records if r.name == logs.REQUESTS] == []


def test_a_crash_is_logged_with_its_request_and_traceback(app, client, caplog):
    @app.get("/boom-for-the-log")
    def boom():
        raise RuntimeError("the disk is on fire")

    caplog.set_level(logging.ERROR, logger="judgekit")
    r = client.get("/boom-for-the-log")
    assert r.status_code == 500 and "the disk is on fire" not in r.get_data(as_text=True)
    [record] = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert record.getMessage() == "GET /boom-for-the-log 500: unhandled RuntimeError"
    assert record.exc_info and "the disk is on fire" in str(record.exc_info[1])


@pytest.fixture
def configured():
    """`logs.configure` on the root logger, undone after the test."""
    root, levels = logging.getLogger(), {n: logging.getLogger(n).level for n in ("", "judgekit", logs.REQUESTS)}
    before = list(root.handlers)
    yield
    for h in [h for h in root.handlers if h not in before]:
        root.removeHandler(h)
    for name, level in levels.items():
        logging.getLogger(name).setLevel(level)


def test_configure_puts_the_time_on_every_line_once(configured, capsys):
    logs.configure()
    logs.configure(verbose=True)   # again: replaces its handler, no line printed twice
    logging.getLogger("judgekit.store").warning("a warning")
    logging.getLogger("uvicorn.error").error("a server error")
    logging.getLogger(logs.REQUESTS).info("GET / 200")
    logging.getLogger("someone.else").info("not shown: below WARNING")
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 3
    assert re.fullmatch(STAMP + r" WARNING judgekit\.store: a warning", err[0])
    assert re.fullmatch(STAMP + r" ERROR uvicorn\.error: a server error", err[1])
    assert re.fullmatch(STAMP + r" INFO judgekit\.requests: GET / 200", err[2])
    logs.configure()               # without --verbose: no request lines
    logging.getLogger(logs.REQUESTS).info("GET / 200")
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(sys.platform.startswith("win"), reason="POSIX signals")
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_serve_verbose_logs_requests_and_stops_without_a_traceback(tmp_path, shared_app, shared_index, stop,
                                                                   free_port):
    instance = tmp_path / "instance"
    instance.mkdir(mode=0o700)
    shutil.copytree(shared_index, instance / "index")   # built already: the server starts fast
    port = free_port()
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    server = subprocess.Popen(
        [sys.executable, "-c", "from judgekit.cli import run; run()", "serve", "--instance", str(instance),
         "--port", str(port), "--verbose"], env=env, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/rules/tournament-rules/3.7.2", timeout=10).read()
                break
            except OSError:   # not listening yet, reset, or slow to answer on a busy machine (a timeout)
                assert server.poll() is None and time.monotonic() < deadline, "the server did not start"
                time.sleep(0.05)
        server.send_signal(stop)
        assert server.wait(timeout=30) == 0
        err = server.stderr.read()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert "Traceback" not in err
    assert re.search(STAMP + r" INFO judgekit\.requests: GET /rules/tournament-rules/3\.7\.2 200 ", err)
    assert err.rstrip().endswith("judgekit: stopped")
