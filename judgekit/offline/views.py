"""Web side of offline use: manifest, service worker, offline search index, status.

- `GET /manifest.webmanifest` — makes the app installable (home screen, standalone).
- `GET /sw.js` — the service worker (`static/sw.js`) served from the root so that its scope
  is the whole site, preceded by its configuration: cache version, precache list, rules.
- `GET /offline/search-index.json` — the compact index `static/offline-search.js` searches;
  `GET /offline/search-text/<part>-<n>.json` — its entries' text, a chunk a file (snippets).
- `GET /offline/ping` — a tiny never-cached answer the status badge uses to tell whether
  the server can be reached (the browser's `navigator.onLine` says nothing about that).
- `GET /offline` — what is saved for offline use; also the page shown offline for an
  address that was never saved.
"""
from __future__ import annotations

import gzip
import json
import os
import threading
import time
from pathlib import Path

from flask import Blueprint, Response, current_app, render_template, request

from judgekit.offline import precache
from judgekit.offline.manifest import manifest_body
from judgekit.offline.search_index import index_version, offline_index_json, text_files, text_paths
from judgekit.views import ApiError, rules
from judgekit.offline.cards_data import data_version
from judgekit.cards.catalog import load_catalog
from judgekit.offline.cards_data import cards_json
from judgekit.i18n import Message

bp = Blueprint("offline", __name__)

SW_SOURCE = "sw.js"   # in the static folder; excluded from the precache list


class _State:
    """Per-app memo of the precache plan and the offline index (rebuilt when files change)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.plan_key = None
        self.plan: precache.Plan | None = None
        self.checked_at = 0.0
        self.cards_version: str | None = None


def _state() -> _State:
    return current_app.extensions.setdefault("offline", _State())


def _template_dir() -> Path:
    return Path(current_app.root_path) / (current_app.template_folder or "templates")


def _stat_key(paths) -> tuple:
    out = []
    for p in paths:
        try:
            st = os.stat(p)
            out.append((str(p), st.st_mtime_ns, st.st_size))
        except OSError:
            out.append((str(p), None, None))
    return tuple(out)


RECHECK_S = 2.0   # in debug/testing, how often the files are looked at again


def plan() -> precache.Plan:
    """The current precache plan (recomputed when a template or static file changes)."""
    svc = rules()
    state = _state()
    now = time.monotonic()
    if state.plan is not None and state.plan.content_hash == svc.corpus.content_hash \
            and (now - state.checked_at < RECHECK_S or not (current_app.debug or current_app.testing)):
        return state.plan  # files only change under a developer (debug) or a test
    static_dir = Path(current_app.static_folder)
    files = precache.static_files(static_dir) + precache.template_files(_template_dir())
    key = (svc.corpus.content_hash, _stat_key(files), cards_data_url())
    with state.lock:
        state.checked_at = now
        if state.plan_key != key:
            p = precache.build_plan(svc.corpus, static_dir, _template_dir(),
                                    index_version(svc.search),
                                    extra_urls=text_urls(svc.search) + [cards_data_url()])
            sw_url = f"{current_app.static_url_path}/{SW_SOURCE}"
            p.urls = [u for u in p.urls if u != sw_url]
            state.plan, state.plan_key = p, key
        return state.plan


def _index_bytes() -> tuple[bytes | None, bytes, str]:
    """The offline index gzipped (kept: built once) and, for a client that takes no gzip, None:
    the view decompresses it for that rare client rather than keeping 3 MB more in memory."""
    svc = rules()
    version = index_version(svc.search)
    return None, _built(("index", version), lambda: offline_index_json(svc.search).encode()), version


def text_urls(search) -> list[str]:
    """The offline index's text files, each with the index's version in its address."""
    version = index_version(search)
    return [f"{path}?v={version}" for path in text_paths(search)]


_TEXTS: dict[str, dict[str, bytes]] = {}


def _text_bytes(name: str) -> tuple[bytes | None, bytes, str] | None:
    """One text file of the offline index gzipped (all of them made once per version)."""
    svc = rules()
    version = index_version(svc.search)
    files = _TEXTS.get(version)
    if files is None:
        with _BUILT_LOCK:
            files = _TEXTS.get(version)
            if files is None:
                files = {n: gzip.compress(b, 6) for n, b in text_files(svc.search).items()}
                _TEXTS.clear()
                _TEXTS[version] = files
    packed = files.get(name)
    return None if packed is None else (None, packed, version)


def cards_data_url() -> str:
    """The address of the cards' offline data, versioned by the card files."""
    return f"/offline/cards.json?v={_cards_version()}"


@bp.get("/cards/offline")
def shell():
    """The card page drawn on the device from /offline/cards.json (the service worker's
    answer for a card page that was not saved)."""
    return render_template("cards/shell.html", cards_url=cards_data_url())


def _cards_version() -> str:
    state = _state()
    if state.cards_version is None or current_app.debug or current_app.testing:
        state.cards_version = data_version(current_app.config["CONTENT_DIR"])
    return state.cards_version


def _cards_bytes() -> tuple[bytes | None, bytes, str]:
    version = _cards_version()
    folder = Path(current_app.config["CONTENT_DIR"])
    return None, _built(("cards", version), lambda: cards_json(load_catalog(folder)).encode()), version


_BUILT: dict[tuple[str, str], bytes] = {}
_BUILT_LOCK = threading.Lock()


def _built(key: tuple[str, str], make) -> bytes:
    """A generated file gzipped, made once per process for its version (apps of one process
    share it: the test suite, a server's threads) and dropped when a new version comes."""
    packed = _BUILT.get(key)
    if packed is None:
        with _BUILT_LOCK:
            packed = _BUILT.get(key)
            if packed is None:
                packed = gzip.compress(make(), 6)
                for old in [k for k in _BUILT if k[0] == key[0]]:
                    del _BUILT[old]
                _BUILT[key] = packed
    return packed


def _versioned(raw: bytes, packed: bytes, version: str) -> Response:
    """A JSON file whose address carries its version: immutable under that address."""
    immutable = request.args.get("v") == version
    cache = "public, max-age=31536000, immutable" if immutable else "no-cache"
    if request.if_none_match.contains(version):
        resp = Response(status=304)
    elif "gzip" in request.accept_encodings:
        resp = Response(packed, mimetype="application/json")
        resp.headers["Content-Encoding"] = "gzip"
    else:
        resp = Response(raw if raw is not None else gzip.decompress(packed), mimetype="application/json")
    resp.headers["ETag"] = f'"{version}"'
    resp.headers["Vary"] = "Accept-Encoding"
    resp.headers["Cache-Control"] = cache
    return resp


@bp.get("/offline/cards.json")
def cards_data():
    return _versioned(*_cards_bytes())


@bp.app_context_processor
def _offline_context():
    """`offline_status` in every template: what the status badge shows."""
    try:
        p = plan()
    except Exception:  # the badge must never break a page (e.g. an error page mid-start)
        current_app.logger.exception("offline status unavailable")
        return {}
    index_url = next((u for u in p.urls if u.startswith("/offline/search-index.json")), "")
    return {"offline_status": {"version": p.version, "edition": p.edition,
                        "content_hash": p.content_hash, "index_url": index_url}}


@bp.get("/manifest.webmanifest")
def manifest():
    resp = Response(json.dumps(manifest_body("/"), ensure_ascii=False, indent=1),
                    mimetype="application/manifest+json")
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/sw.js")
def service_worker():
    p = plan()
    source = (Path(current_app.static_folder) / SW_SOURCE).read_text(encoding="utf-8")
    config = json.dumps(p.config(), ensure_ascii=False, separators=(",", ":"))
    body = f"self.JUDGEKIT_OFFLINE = {config};\n{source}"
    resp = Response(body, mimetype="text/javascript")
    # the browser compares the script's bytes to find a new version: never serve a stale one
    resp.headers["Cache-Control"] = "no-cache, max-age=0"
    return resp


@bp.get("/offline/search-index.json")
def search_index():
    return _versioned(*_index_bytes())


@bp.get("/offline/search-text/<name>")
def search_text(name: str):
    found = _text_bytes(name)
    if found is None:
        raise ApiError(404, Message("offline.no-such-text-file", "no such text file"), field="name")
    return _versioned(*found)


@bp.get("/offline/ping")
def ping():
    resp = Response(status=204)
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/offline")
def offline_page():
    p = plan()
    svc = rules()
    documents = [(d, len(d.sections)) for d in list(svc.corpus.current) + list(svc.corpus.history)]
    return render_template("offline/offline.html", plan=p, documents=documents,
                           page_count=sum(1 for u in p.urls if not u.startswith("/static/")))
