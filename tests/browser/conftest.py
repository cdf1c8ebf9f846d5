"""Browser tests: a real server on a temp instance, driven by Playwright in Debian's Chromium.

Never `playwright install`: the browser is /usr/bin/chromium (apt-get install chromium).
Fixtures:
- `live_server`: base URL ("http://127.0.0.1:PORT") of a server with its own instance
  folder (fresh database, shared search index), running for the whole session;
  `live_app` is its Flask app (for seeding data through the domain functions). The test
  servers (`live_app`, `own_app`) send /static/ with a max-age (`_static_files_kept`).
- `browser`: one headless Chromium per session; `page`: a new page per test (phone-sized by
  default: 360 x 740), `phone` (390 x 844), `desktop_page` (1280 x 900), each in the
  worker's kept context of that size (`KeptContext`: it holds an empty page open, so the
  context and its set-up outlive the test; the test's pages are closed and what they stored is
  removed after it; a test that changes the context itself, its clock included, gets it
  closed after it). A test marked `service_worker` gets a context of its own.
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

import http.server
import os
import shutil
import threading
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("JUDGEKIT_CHROMIUM", "/usr/bin/chromium")
# CI is a busy 2-core machine: every wait for a condition gets room (expect's default is 5 s)
EXPECT_TIMEOUT_MS = 15_000
SCREENSHOTS = Path(__file__).resolve().parents[2] / "screenshots"
# screenshots (and the seat list's printed PDF) are written on demand: JUDGEKIT_SCREENSHOTS=1
SCREENSHOTS_ON = os.environ.get("JUDGEKIT_SCREENSHOTS", "") not in ("", "0")


# How long the browser may keep a file of /static/ from a test server without asking again.
STATIC_MAX_AGE_S = 3600


def _static_files_kept(app):
    """The app, its /static/ files sent with `Cache-Control: max-age` instead of the app's
    `no-cache`: in a test, a page's stylesheets and scripts (a dozen files) are then read once
    instead of asked for again (and answered 304) at each page it loads. The pages, their
    answers and every other route (the service worker's script, the offline index) keep the
    app's own headers (those two are checked without a browser in tests/test_offline_app.py).
    A kept context keeps them from one test to the next too (`KeptContext`)."""
    serve = app.view_functions["static"]

    def static(**kwargs):
        response = serve(**kwargs)
        response.cache_control.no_cache = None
        response.cache_control.max_age = STATIC_MAX_AGE_S
        return response

    app.view_functions["static"] = static
    return app


@pytest.fixture(scope="session")
def live_app(tmp_path_factory, shared_index):
    from judgekit import create_app
    instance = tmp_path_factory.mktemp("live-instance")
    return _static_files_kept(create_app({"INSTANCE": instance, "INDEX_DIR": str(shared_index)}))


@pytest.fixture(scope="session")
def _ports_used() -> set[int]:
    """The ports the worker's test servers have taken."""
    return set()


def _serve(app, free_port, used: set[int]):
    """A server of `app` on a port no other test server of the worker has had: an origin
    (http://127.0.0.1:PORT) is then one server's for the whole session, so what the kept
    contexts' HTTP cache holds for it (they keep it from one test to the next) is that
    server's own answers. Returns the server and its base URL."""
    from werkzeug.serving import make_server
    for _ in range(50):
        port = free_port()
        if port in used:
            continue
        try:
            server = make_server("127.0.0.1", port, app, threaded=True)
        except OSError:   # taken meanwhile
            continue
        used.add(port)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server, f"http://127.0.0.1:{port}"
    raise RuntimeError("no port for a test server")


@pytest.fixture(scope="session")
def live_server(live_app, free_port, _ports_used):
    server, url = _serve(live_app, free_port, _ports_used)
    yield url
    server.shutdown()


@pytest.fixture(scope="module")
def own_app(request, tmp_path_factory, shared_index):
    """A server instance of the test module's own: the session's live server is shared with
    tests that expect no tournament to exist yet, so modules that create tournaments use this."""
    from judgekit import create_app
    name = request.module.__name__.rsplit(".", 1)[-1]
    return _static_files_kept(create_app({"INSTANCE": tmp_path_factory.mktemp(name),
                                          "INDEX_DIR": str(shared_index)}))


@pytest.fixture(scope="module")
def own_server(own_app, free_port, _ports_used):
    """Base URL of a server running `own_app` for the module (on a port of its own: `_serve`)."""
    server, url = _serve(own_app, free_port, _ports_used)
    yield url
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
    _watch(page)
    return context, page


def _watch(page):
    page.set_default_timeout(20_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.js_errors = errors


def _checked_page(browser, width, height, **kw):
    """A page in its own context, closed after the test, which then fails on any JavaScript error."""
    context, page = _page(browser, width, height, **kw)
    yield page
    context.close()
    assert not page.js_errors, f"JavaScript errors on the page: {page.js_errors}"


class _KeeperPage(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = b"<!doctype html><title>keeper</title>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def keeper_url():
    """An empty page on 127.0.0.1 (Python's http.server, no judgekit code) that each kept
    context holds open (see `KeptContext`)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _KeeperPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}/"
    server.shutdown()


# what a test may change in a context that the next test's page would inherit: a context
# whose test called one of these is closed after it, not kept
_CONTEXT_CHANGES = ("add_init_script", "expose_binding", "expose_function", "grant_permissions",
                    "set_extra_http_headers", "set_geolocation", "set_offline", "route", "route_from_har",
                    "route_web_socket", "unroute", "unroute_all", "on", "once", "set_default_timeout",
                    "set_default_navigation_timeout", "close")
_CLOCK_CHANGES = ("install", "fast_forward", "pause_at", "resume", "run_for", "set_fixed_time", "set_system_time")


class KeptContext:
    """A browser context kept for the worker's tests of one page size, holding an empty page
    open (`keeper_url`, 127.0.0.1 like the test servers: the same site). A page opened,
    loaded and closed costs about 0.22 s of CPU in a kept context against 0.45 s in a new one
    (docs/development.md): the context's set-up is spared (the test's page still starts a
    renderer of its own, measured). After each test its pages are
    closed and what it stored is removed: cookies, the storage of every origin its pages
    opened (local storage, IndexedDB, caches). The HTTP cache is kept, as a phone keeps it
    from one page to the next: the next test's pages read the static files (sent with a
    max-age by the test servers: `_static_files_kept`) without asking, and revalidate the
    rest as any browser does. Emptying it after each test cost about 4 % of the browser
    tests' CPU (the files fetched and the scripts compiled again, measured). Every test
    server has a port of its own for the session (`_serve`), so what the cache holds for
    an origin is the answers of the one server at that address. A test that changed the
    context itself (`_CONTEXT_CHANGES`, the clock: `page.clock` is the context's) gets it
    closed after it, and the next test a new one."""

    def __init__(self, browser, keeper_url, width, height, kw):
        self.context = browser.new_context(viewport={"width": width, "height": height}, **kw)
        self.changed = False
        self.origins: set[str] = set()
        # every page of the context, the test's own new pages and pop-ups too
        self.context.on("page", lambda p: p.on("framenavigated", self._seen))
        for name in _CONTEXT_CHANGES:
            setattr(self.context, name, self._changes(getattr(self.context, name)))
        clock = self.context.clock
        for name in _CLOCK_CHANGES:
            setattr(clock, name, self._changes(getattr(clock, name)))
        self.keeper = self.context.new_page()
        self.keeper.goto(keeper_url)
        self.cdp = self.context.new_cdp_session(self.keeper)

    def _changes(self, method):
        def call(*args, **kwargs):
            self.changed = True
            return method(*args, **kwargs)
        return call

    def new_page(self):
        return self.context.new_page()

    def _seen(self, frame):
        url = frame.url
        if url.startswith(("http://", "https://")):
            self.origins.add(url.split("/", 3)[0] + "//" + url.split("/", 3)[2])

    def clean(self) -> bool:
        """Close the test's pages and remove what it left; False if the context is not kept."""
        for p in self.context.pages:
            if p is not self.keeper:
                p.close()
        if self.changed or self.keeper.is_closed():
            return False
        self.context.clear_cookies()
        for origin in sorted(self.origins):
            self.cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
        self.origins.clear()
        return True


@pytest.fixture(scope="session")
def _kept_contexts():
    kept: dict = {}
    yield kept
    for entry in kept.values():
        entry.context.close()


def _kept_page(browser, keeper_url, kept, request, width, height, **kw):
    """A page of the worker's kept context of this size (`KeptContext`), or of a context of
    its own in a test marked `service_worker`; the test then fails on any JavaScript error."""
    if request.node.get_closest_marker("service_worker"):
        yield from _checked_page(browser, width, height, service_workers="allow", **kw)
        return
    kw.setdefault("bypass_csp", True)
    key = (width, height, tuple(sorted(kw.items())))
    entry = kept.get(key)
    if entry is None:
        entry = kept[key] = KeptContext(browser, keeper_url, width, height, {**kw, "service_workers": "block"})
    page = entry.new_page()
    _watch(page)
    yield page
    if not entry.clean():
        del kept[key]
        entry.context.close()
    assert not page.js_errors, f"JavaScript errors on the page: {page.js_errors}"


@pytest.fixture
def page(browser, keeper_url, _kept_contexts, request):
    yield from _kept_page(browser, keeper_url, _kept_contexts, request, 360, 740, is_mobile=True,
                          has_touch=True, device_scale_factor=2)


@pytest.fixture
def phone(browser, keeper_url, _kept_contexts, request):
    """A 390×844 phone: the recorder's and the seat pages' reference size."""
    yield from _kept_page(browser, keeper_url, _kept_contexts, request, 390, 844, is_mobile=True,
                          has_touch=True, device_scale_factor=2)


@pytest.fixture
def desktop_page(browser, keeper_url, _kept_contexts, request):
    yield from _kept_page(browser, keeper_url, _kept_contexts, request, 1280, 900)


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
