"""Helpers shared by the browser tests (imported as `from helpers import ...`)."""
from __future__ import annotations

import re
from urllib.parse import urljoin

from playwright.sync_api import expect

from judgekit.db import open_db
from judgekit.recorder import store as recorder_store


def recorder_game(app, seats, events=(), label="Test", **kw) -> int:
    """A new recorder game in `app`'s database (keywords as `store.create_game`), with
    `events` stored through the recorder's store as a table judge's page would."""
    gid = recorder_write(app, lambda db: recorder_store.create_game(db, list(seats), label=label, **kw))
    if events:
        append_events(app, gid, events)
    return gid


def append_events(app, gid, events):
    """Store `events` (one event or several) in game `gid`; fail on the store's refusal."""
    batch = events if isinstance(events, dict) else list(events)
    result = recorder_write(app, lambda db: recorder_store.append_events(db, gid, batch))
    assert not isinstance(result, recorder_store.StoreError), result
    return result


def stored_events(app, gid) -> list[dict]:
    """The events stored for game `gid`, as the store reads them."""
    return recorder_write(app, lambda db: recorder_store.load_events(db, gid))


def recorder_write(app, work):
    db = open_db(app.config["DATABASE"])
    try:
        return work(db)
    finally:
        db.close()


def line(page, text):
    """Type `text` into the recorder page's quick-entry line and send it; fail with the
    page's message unless the line was taken (the input empties)."""
    page.fill("#rec-input", text)
    page.click(".rec-send")
    try:
        expect(page.locator("#rec-input")).to_have_value("")
    except AssertionError:
        raise AssertionError(f"{text!r} not taken: {page.locator('#rec-msg').inner_text()}")


# --- waiting for layout: never read a box, a width or a count once (CI is a busy machine) ---
#
# Every predicate given to wait_for_function is a function ("() => …", "x => …"): the app's
# Content-Security-Policy forbids eval, and Playwright evals a bare expression ("a > b")
# when it has to poll for it, which fails with an EvalError (a function form does not).

def wait_no_sideways_scroll(page, width: int = 360):
    """The page is no wider than the phone: waits until layout settles there."""
    page.wait_for_function("w => document.scrollingElement.scrollWidth <= w", arg=width)


def wait_all_at_least(page, selector: str, *, height: float = 0, width: float = 0, count: int | None = None):
    """Every element matching `selector` (and there are some, or exactly `count`) is at
    least `height` x `width` CSS pixels once laid out."""
    page.wait_for_function(
        """([sel, h, w, n]) => { const els = [...document.querySelectorAll(sel)];
             if (!els.length || (n !== null && els.length !== n)) return false;
             return els.every(e => { const r = e.getBoundingClientRect(); return r.height >= h && r.width >= w; }); }""",
        arg=[selector, height, width, count])


def stored_json(page, key: str, ready: str = "s => true"):
    """localStorage[key] parsed, once `ready` (a JS function of the parsed value) holds: a
    page writes its storage after the answer is shown, not before."""
    page.wait_for_function(
        "k => { const raw = localStorage.getItem(k); if (!raw) return false;"
        f" return ({ready})(JSON.parse(raw)); }}", arg=key)
    return page.evaluate("k => JSON.parse(localStorage.getItem(k))", key)


def wait_inside(page, selector: str, left: float = 0, right: float = 360):
    """Every element matching `selector` (there are some) lies between `left` and `right`."""
    page.wait_for_function(
        """([sel, l, r]) => { const els = [...document.querySelectorAll(sel)]; if (!els.length) return false;
             return els.every(e => { const b = e.getBoundingClientRect(); return b.left >= l && b.right <= r; }); }""",
        arg=[selector, left, right])


def wait_texts(page, selector: str, expected) -> None:
    """The texts of the elements matching `selector` are `expected` in any order."""
    page.wait_for_function(
        """([sel, want]) => { const got = [...document.querySelectorAll(sel)].map(e => e.innerText.trim()).sort();
             return JSON.stringify(got) === JSON.stringify([...want].sort()); }""",
        arg=[selector, sorted(expected)])


def eventually(check, timeout: float = 15.0, interval: float = 0.05, page=None):
    """Run `check` (a function that asserts) until it passes, for at most `timeout` seconds;
    returns its result. For what the page does not show: the database a page's request
    writes to, the requests a page sends (pass `page` then: Playwright delivers its events,
    such as requests seen by a listener, only while it is waiting). Polls for the
    condition; never a fixed sleep."""
    import time
    deadline = time.monotonic() + timeout
    while True:
        try:
            return check()
        except AssertionError:
            if time.monotonic() > deadline:
                raise
        if page is not None:
            page.wait_for_timeout(interval * 1000)
        else:
            time.sleep(interval)


def wait_until(page, predicate: str, arg=None, explain=None, timeout: float = 15_000):
    """Wait until the JS `predicate(arg)` holds; when it never does, fail with `explain()`
    (what the page shows then) rather than with a bare timeout."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    try:
        page.wait_for_function(predicate, arg=arg, timeout=timeout)
    except PlaywrightTimeout:
        raise AssertionError(f"never true: {predicate[:120]}… — {explain() if explain else ''}") from None


# --- a page's steps as HTTP (the long scenarios' repeats; docs/development.md) ---------------

def text_of(html: str, pattern: str) -> str:
    """The text (tags and runs of spaces aside) of the first element whose opening tag matches
    `pattern` (a regular expression; the element a `p`, `h2` or `section`)."""
    m = re.search(rf"<(p|h2|section)\b[^>]*{pattern}[^>]*>(.*?)</\1>", html, re.S)
    assert m, pattern
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", m.group(2))).strip()


def post_form(request, url, html, marker, fields):
    """Post the form of `html` whose opening tag holds `marker` (its id, class or action) as a
    browser posts it: its hidden fields (the CSRF token, the client id) and `fields`, the
    redirect followed. Returns the HTML of the page it lands on."""
    form = re.search(rf'<form method="post" action="([^"]+)"[^>]*{marker}[^>]*>(.*?)</form>|'
                     rf'<form method="post" action="([^"]*{marker}[^"]*)"[^>]*>(.*?)</form>', html, re.S)
    action, body = (form.group(1), form.group(2)) if form.group(1) else (form.group(3), form.group(4))
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', body))
    sent = request.post(urljoin(url, action), form={**hidden, **fields})
    assert sent.ok, (sent.status, sent.url)
    return sent.text()


def flashes(html: str) -> str:
    """The page's flash messages (`.flash`), one string."""
    return " ".join(re.sub(r"<[^>]+>", "", m) for m in re.findall(r'<p class="flash[^"]*"[^>]*>(.*?)</p>', html, re.S))
