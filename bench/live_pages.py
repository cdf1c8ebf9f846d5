"""The live pages of bench/live.py, as their scripts behave (static/live.js, hall.js, call.js).

Each kind of page is what a device really has open at an event late in a round; `MIX` says
how many of each make up `--pages`. What a page does, read from its script:

- every page first GETs its HTML (the badge's `data-after`, the call page's `data-after`);
- a page with the judges' header badge (every judge page but the room display and the call
  page: base.html + live/_badge.html) GETs the open calls (`loadCalls`) and, for the head
  judge, the notifications (`loadNotes`), then opens the stream of its audience after
  `data-after`; the head judge's badge GETs the notifications again on every
  `penalty.*`, `table.result`, `round.*` message;
- the room display and the floor view (hall.js) GET the hall's state (`…/hall`, the room
  as the public); the room, having no badge, opens the public stream after its `last_id`;
- a page with `data-live-kinds` (the dashboard, the clocks page, the penalty list, the
  calls list) GETs its own HTML again 400 ms after a message of those kinds (one fetch per
  400 ms, as live.js's timer);
- a player's call page (call.js) holds the public stream while it shows the table's call.

A stream is one socket read by `Pages` (one thread, `selectors`); a page that loses its
connection comes back as EventSource does, with `Last-Event-ID`. The fetches the pages make
while open run on a small pool, as the browsers' own connections would.
"""
from __future__ import annotations

import http.client
import json
import re
import selectors
import socket
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from recorder import Phone

REFRESH_MS = 400   # live.js: later(400)
NOTE_KINDS = re.compile(r"^penalty\.|^table\.result$|^round\.")   # live.js: loadNotes()

# (kind, share of the pages); "call" takes what the others leave
MIX = [("room", 0.03), ("floor", 0.12), ("dashboard", 0.02), ("clocks", 0.02),
       ("penalties", 0.01), ("calls", 0.02), ("call", None)]
LIVE_KINDS = {  # the page's data-live-kinds (templates)
    "dashboard": ("table.result", "table.finished", "extension.recorded", "clock.changed"),
    "clocks": ("extension.recorded", "clock.changed", "table.result", "table.finished"),
    "penalties": ("penalty.pending", "penalty.approved", "penalty.recorded"),
    "calls": ("call.opened", "call.claimed", "call.reassigned", "call.closed"),
}


def mix(n: int) -> list[str]:
    out: list[str] = []
    for kind, share in MIX:
        out += [kind] * (max(1, round(n * share)) if share else max(0, n - len(out)))
    return out[:n]


class Page:
    """One open page: its stream over a raw socket (the chunked body decoded, each message
    with the time it arrived) and what the page fetches on a message."""

    def __init__(self, port: int, kind: str, audience: str, stream_url: str, after: int,
                 fetcher: Phone, html_url: str | None = None, notes_url: str | None = None):
        self.port, self.kind, self.audience = port, kind, audience
        self.url = stream_url + ("&" if "?" in stream_url else "?") + f"after={after}"
        self.after = after                 # where the page asked to start
        self.fetcher = fetcher             # its cookie and its own keep-alive connections
        self.refetch_kinds = LIVE_KINDS.get(kind, ())
        self.html_url = html_url
        self.notes_url = notes_url
        self.refresh_due: float | None = None
        self.events: list[tuple[int | None, str, dict, float, int]] = []   # (id, kind, data, arrived, conn)
        self.conns = 0
        self.opened: list[float] = []      # when each connection was opened
        self.last_id: int | None = None
        self.hello_at: float | None = None
        self.closed = False
        self.sock: socket.socket | None = None

    def connect(self) -> None:
        """Open (or reopen, as EventSource: the same URL and Last-Event-ID) the stream."""
        # from its phone's address: each page is a device of its own to the server
        self.sock = socket.create_connection(("127.0.0.1", self.port), timeout=30,
                                             source_address=(self.fetcher.device, 0))
        self.sock.setblocking(False)
        head = f"GET {self.url} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if self.fetcher.cookie:
            head += f"Cookie: {self.fetcher.cookie}\r\n"
        if self.last_id is not None:
            head += f"Last-Event-ID: {self.last_id}\r\n"
        self.conns += 1
        self.sent_at = time.time()
        self.opened.append(self.sent_at)
        self.raw = b""
        self.headers_done = False
        self.body = b""
        self.closed = False
        self.sock.sendall((head + "\r\n").encode())

    def feed(self, data: bytes, now: float) -> list[str]:
        """Take what arrived; the kinds of the messages it completed."""
        self.raw += data
        if not self.headers_done:
            if b"\r\n\r\n" not in self.raw:
                return []
            head, self.raw = self.raw.split(b"\r\n\r\n", 1)
            if not head.startswith(b"HTTP/1.1 200"):
                raise RuntimeError(f"{self.kind} page's stream refused: {head[:200]!r}")
            self.headers_done = True
        while True:   # chunks
            line, sep, rest = self.raw.partition(b"\r\n")
            if not sep:
                break
            size = int(line, 16)
            if len(rest) < size + 2:
                break
            self.body += rest[:size]
            self.raw = rest[size + 2:]
        kinds = []
        while b"\n\n" in self.body:
            block, self.body = self.body.split(b"\n\n", 1)
            fields = dict(ln.split(": ", 1) for ln in block.decode().split("\n") if ": " in ln and not ln.startswith(":"))
            if "event" not in fields:
                continue
            mid = int(fields["id"]) if "id" in fields else None
            if mid is not None:
                self.last_id = mid
            self.events.append((mid, fields["event"], json.loads(fields["data"]), now, self.conns))
            kinds.append(fields["event"])
            if fields["event"] == "hello" and self.hello_at is None:
                self.hello_at = now
        return kinds


class Pages(threading.Thread):
    """Every page's socket, read by one thread (selectors); the fetches the pages make on a
    message go to a pool of 8 (browsers' connections); `drop(page, at, back)` cuts a page's
    connection at `at` and reconnects it `back` s later (a phone sleeping, the Wi-Fi)."""

    def __init__(self):
        super().__init__(daemon=True)
        self.sel = selectors.DefaultSelector()
        self.pages: list[Page] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.pool = ThreadPoolExecutor(max_workers=8)
        self.fetch_ms: dict[str, list[float]] = {}
        self.fetch_errors: list[str] = []
        self.drops: list[tuple[float, float, Page]] = []
        self.reconnected = 0

    def add(self, page: Page) -> None:
        page.connect()
        with self.lock:
            self.pages.append(page)
            self.sel.register(page.sock, selectors.EVENT_READ, page)

    def drop(self, page: Page, at: float, back: float) -> None:
        with self.lock:
            self.drops.append((at, back, page))

    def fetch(self, page: Page, what: str, url: str) -> None:
        def run():
            t = time.perf_counter()
            try:
                status, _, _ = page.fetcher.request("GET", url, extra={"Accept": "text/html"} if what == "page" else None)
            except (OSError, http.client.HTTPException) as exc:
                self.fetch_errors.append(f"{what} {type(exc).__name__}")
                return
            ms = (time.perf_counter() - t) * 1000
            with self.lock:
                self.fetch_ms.setdefault(what, []).append(ms)
                if status != 200:
                    self.fetch_errors.append(f"{what} {status}")
        self.pool.submit(run)

    def _cut(self, page: Page) -> None:
        with self.lock:
            try:
                self.sel.unregister(page.sock)
            except (KeyError, ValueError):
                pass
        page.sock.close()
        page.closed = True

    def run(self) -> None:
        while not self.stop.is_set():
            now = time.time()
            with self.lock:
                due = [d for d in self.drops if d[0] <= now]
                self.drops = [d for d in self.drops if d[0] > now]
            for at, back, page in due:
                if back:   # cut now, back later
                    self._cut(page)
                    with self.lock:
                        self.drops.append((now + back, 0, page))
                else:
                    page.connect()
                    self.reconnected += 1
                    with self.lock:
                        self.sel.register(page.sock, selectors.EVENT_READ, page)
            with self.lock:
                ready = self.sel.select(timeout=0.02) if self.pages else []
                pages = list(self.pages)
            now = time.time()
            for key, _ in ready:
                page = key.data
                try:
                    data = page.sock.recv(1 << 16)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if not data:
                    self._cut(page)
                    continue
                for kind in page.feed(data, now):
                    if kind in page.refetch_kinds and page.refresh_due is None:
                        page.refresh_due = now + REFRESH_MS / 1000
                    if page.notes_url and NOTE_KINDS.search(kind):
                        self.fetch(page, "notifications", page.notes_url)
            for page in pages:
                if page.refresh_due is not None and page.refresh_due <= now:
                    page.refresh_due = None
                    self.fetch(page, "page", page.html_url)
            if not ready:
                time.sleep(0.01)
        self.pool.shutdown(wait=True)


def _after(html: bytes, attr: str) -> int:
    m = re.search(rb"<[^>]*" + attr.encode() + rb"[^>]*>", html)
    assert m, f"no {attr} in the page"
    return int(re.search(rb'data-after="(\d+)"', m.group(0)).group(1))


def open_page(port: int, tid: int, kind: str, cookie: str, *, table: int = 0, call: int = 0,
              gid: int = 0) -> Page:
    """GET the page and what its scripts fetch as it opens; the Page, not yet connected."""
    phone = Phone(port, gid, False)
    phone.cookie = cookie
    api = f"/api/tournaments/{tid}"

    def get(url, html=False):
        status, data, _ = phone.request("GET", url, extra={"Accept": "text/html"} if html else None)
        assert status == 200, (kind, url, status, data[:200])
        return data
    html_url = {"room": f"/tournaments/{tid}/room", "floor": f"/tournaments/{tid}/floor",
                "dashboard": f"/tournaments/{tid}", "clocks": f"/tournaments/{tid}/time",
                "penalties": f"/tournaments/{tid}/penalties", "calls": f"/tournaments/{tid}/calls",
                "call": f"/tournaments/{tid}/call/{table}?call={call}", "recorder": f"/games/{gid}"}[kind]
    html = get(html_url, True)
    if kind == "room":   # no badge: hall.js opens the public stream after the hall's last_id
        after = json.loads(get(f"{api}/hall?audience=public"))["last_id"]
        return Page(port, kind, "public", f"{api}/live?audience=public", after, phone)
    if kind == "call":
        return Page(port, kind, "public", f"{api}/live?audience=public", _after(html, "data-call-page"), phone)
    # a judge page: the badge (live.js runs first: its stream is the page's)
    after = _after(html, "data-live-badge")
    get(f"{api}/calls?status=open")
    head = b"data-notifications=" in html
    notes = f"{api}/notifications" if head else None
    if notes:
        get(notes)
    if kind == "floor":
        get(f"{api}/hall")
    return Page(port, kind, "head" if head else "judge", f"{api}/live", after, phone,
                html_url=html_url, notes_url=notes)
