"""What the server tells the organizer's terminal: one format, with the time.

`configure()` (called once by the `judgekit` command) sends every logger's records to
stderr as `2025-05-17 14:03:07.412 ERROR judgekit: …`: judgekit's own, uvicorn's, and
a crash's traceback under the request that caused it. `RequestLog` writes one line per
request (`GET /rules/tournament-rules/3.7.2 200 4.1 ms 192.168.1.20`) at INFO on the
`judgekit.requests` logger, which `judgekit serve --verbose` turns on. No Flask here: the
app factory wraps its WSGI app with `RequestLog`, so every request is counted, also the
searches answered in front of Flask.
"""
from __future__ import annotations

import logging
import sys
import time
from typing import Any, Callable, Iterable

FORMAT = "%(asctime)s.%(msecs)03d %(levelname)s %(name)s: %(message)s"
DATE_FORMAT = "%Y-%m-%d %H:%M:%S"
REQUESTS = "judgekit.requests"

requests_log = logging.getLogger(REQUESTS)


class StderrHandler(logging.StreamHandler):
    """A handler writing to whatever `sys.stderr` is when a record comes (a test runner may
    swap it after the handler was made)."""

    def __init__(self) -> None:
        super().__init__(sys.stderr)

    @property
    def stream(self):  # type: ignore[override]
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:
        pass


def configure(verbose: bool = False) -> logging.Handler:
    """Send all records at WARNING and above (judgekit's at INFO; with `verbose`, the
    request lines too) to stderr with their time. Called again, it replaces its handler
    instead of adding a second one."""
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "judgekit", False)]:
        root.removeHandler(old)
    handler = StderrHandler()
    handler.judgekit = True  # type: ignore[attr-defined]
    handler.setFormatter(logging.Formatter(FORMAT, DATE_FORMAT))
    root.addHandler(handler)
    if root.level == logging.NOTSET or root.level > logging.WARNING:
        root.setLevel(logging.WARNING)
    logging.getLogger("judgekit").setLevel(logging.INFO)
    requests_log.setLevel(logging.INFO if verbose else logging.WARNING)
    return handler


class RequestLog:
    """WSGI middleware: one INFO line per request on `judgekit.requests` (method, path,
    status, time to answer, client address) when that level is on; nothing otherwise
    beyond one level check. The query string is left out (it may carry a code)."""

    def __init__(self, app: Callable[..., Iterable[bytes]]):
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable) -> Iterable[bytes]:
        if not requests_log.isEnabledFor(logging.INFO):
            return self.app(environ, start_response)
        started = time.perf_counter()
        status: list[str] = []

        def start(code: str, headers, exc_info=None):
            status[:] = [code.split(" ", 1)[0]]
            return start_response(code, headers, exc_info) if exc_info else start_response(code, headers)

        try:
            return self.app(environ, start)
        finally:
            requests_log.info("%s %s %s %.1f ms %s", environ.get("REQUEST_METHOD", "?"),
                              environ.get("PATH_INFO", "") or "/", status[0] if status else "-",
                              (time.perf_counter() - started) * 1000, environ.get("REMOTE_ADDR", "-"))
