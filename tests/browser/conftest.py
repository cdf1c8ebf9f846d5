"""Browser tests: a real server on a temp instance, driven by Playwright in Debian's Chromium.

Never `playwright install`: the browser is /usr/bin/chromium (apt-get install chromium).
Fixtures:
- `live_server`: base URL ("http://127.0.0.1:PORT") of a server with its own instance
  folder (fresh database, shared search index), running for the whole session;
  `live_app` is its Flask app (for seeding data through the domain functions).
- `browser`: one headless Chromium per session; `page`: a fresh context and page per test
  (phone-sized by default: 360 x 740); `desktop_page`: 1280 x 900.
- The service worker is blocked in every context (`browser.new_context` too) unless asked
  for: a test of the offline copy passes `service_workers="allow"` to `new_context`, or is
  marked `@pytest.mark.service_worker` when it uses `page`, `phone` or `desktop_page`. Each
  new context otherwise installs the worker, which fetches the whole offline copy (about 400
  pages rendered by the test server, 8 MB) behind the test: about 40 % of the browser tests'
  CPU time, for tests that are not about it.
- `shot(page, name)`: save a screenshot under screenshots/ (for looking at the pages) when
  the environment says JUDGEKIT_SCREENSHOTS=1; otherwise it does nothing (the suite's 130
  screenshots cost 0.1-0.3 s each and assert nothing).
"""
from __future__ import annotations

import os
import shutil
import socket
import threading
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("JUDGEKIT_CHROMIUM", "/usr/bin/chromium")
# CI is a busy 2-core machine: every wait for a condition gets room (expect's default is 5 s)
EXPECT_TIMEOUT_MS = 15_000
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
# screenshots (and the seat list's printed PDF) are written on demand: JUDGEKIT_SCREENSHOTS=1
SCREENSHOTS_ON = os.environ.get("JUDGEKIT_SCREENSHOTS", "") not in ("", "0")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def live_app(tmp_path_factory, shared_index):
    from judgekit import create_app
    instance = tmp_path_factory.mktemp("live-instance")
    return create_app({"INSTANCE": instance, "INDEX_DIR": str(shared_index)})


@pytest.fixture(scope="session")
def live_server(live_app):
    from werkzeug.serving import make_server
    port = _free_port()
    server = make_server("127.0.0.1", port, live_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()


@pytest.fixture(scope="module")
def own_app(request, tmp_path_factory, shared_index):
    """A server instance of the test module's own: the session's live server is shared with
    tests that expect no tournament to exist yet, so modules that create tournaments use this."""
    from judgekit import create_app
    name = request.module.__name__.rsplit(".", 1)[-1]
    return create_app({"INSTANCE": tmp_path_factory.mktemp(name), "INDEX_DIR": str(shared_index)})


@pytest.fixture(scope="module")
def own_server(own_app):
    """Base URL of a server running `own_app` for the module."""
    from werkzeug.serving import make_server
    server = make_server("127.0.0.1", 0, own_app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()


@pytest.fixture(scope="session", autouse=True)
def _patient_expect():
    from playwright.sync_api import expect
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)


class _Chromium:
    """The session's browser, whose new contexts block the service worker unless told
    `service_workers="allow"` (see the module's docstring)."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **kw):
        kw.setdefault("service_workers", "block")
        return self._browser.new_context(**kw)

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists() and not shutil.which(CHROMIUM):
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True,
                               args=["--no-sandbox", "--disable-background-networking",
                                     "--disable-component-update", "--disable-sync",
                                     "--no-first-run", "--disable-gpu"])
        yield _Chromium(b)
        b.close()


def _page(browser, width, height, **kw):
    # Playwright's wait_for_function evaluates its predicate with eval(), which the pages'
    # Content-Security-Policy forbids: test pages bypass it. tests/browser/test_security_headers.py
    # loads the pages with the policy in force (bypass_csp=False) and fails on any violation.
    kw.setdefault("bypass_csp", True)
    context = browser.new_context(viewport={"width": width, "height": height}, **kw)
    page = context.new_page()
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors
    return context, page


def _checked_page(browser, width, height, **kw):
    """A page in its own context, closed after the test, which then fails on any JavaScript error."""
    context, page = _page(browser, width, height, **kw)
    yield page
    context.close()
    assert not page.js_errors, f"JavaScript errors on the page: {page.js_errors}"


def _workers(request) -> dict:
    """The service worker runs in a test marked `service_worker` (the offline copy's tests)."""
    return {"service_workers": "allow" if request.node.get_closest_marker("service_worker") else "block"}


@pytest.fixture
def page(browser, request):
    yield from _checked_page(browser, 360, 740, is_mobile=True, has_touch=True, device_scale_factor=2,
                             **_workers(request))


@pytest.fixture
def phone(browser, request):
    """A 390×844 phone: the recorder's and the seat pages' reference size."""
    yield from _checked_page(browser, 390, 844, is_mobile=True, has_touch=True, device_scale_factor=2,
                             **_workers(request))


@pytest.fixture
def desktop_page(browser, request):
    yield from _checked_page(browser, 1280, 900, **_workers(request))


@pytest.fixture
def shot():
    """`shot(page, name)`: the page as screenshots/NAME.png when JUDGEKIT_SCREENSHOTS=1
    (returns its path), else nothing (returns None)."""
    def take(page, name: str, full_page: bool = True) -> Path | None:
        if not SCREENSHOTS_ON:
            return None
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return take
