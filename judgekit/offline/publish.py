"""`judgekit publish DIR`: a static, installable copy of the public pages for any static host.

The copy holds the rules (current and older editions), the search (run in the browser on
the offline index, the same ranking as the server's), the quick reference, the history,
every card and card group with its rulings, and the trainer's questions and sessions; the
web app manifest and the service worker make it installable and usable offline. A page
(`/offline`, and every footer) states the edition and the date it was built.

How: the app is created with `STATIC_SITE` in its config (templates then leave out what
needs the server: sign-in, recorder, tournaments, free practice) and each page is fetched
through Flask's test client, so the copy is exactly what the server shows. Addresses are
rewritten for a static host, which has no routing:

- a page `/rules/tournament-rules/3.7.2` becomes the folder `rules/tournament-rules/3.7.2/`
  (its `index.html`), a file (`/static/app.css`, `/manifest.webmanifest`) keeps its name;
- every address is put under `--base` (`/` for a site of its own; `/judgekit/` for a GitHub
  project page at https://user.github.io/judgekit/);
- `/search?q=` is the home page (its search runs on `?q=`); a trainer answer
  `/trainer/q/<id>?answer=<choice>` is the page `trainer/q/<id>/<choice>/`.

`static/site.js` applies the same rule in the browser (search results, the service worker,
the status ping). Nothing here imports Flask: the caller passes the app.
"""
from __future__ import annotations

import datetime
import hashlib
import html
import json
import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable
from urllib.parse import quote

from judgekit.offline import precache
from judgekit.offline.manifest import manifest_body
from judgekit.cards.catalog import load_catalog
from judgekit.game.cards import load_cards
from judgekit.trainer.session import load_content
from judgekit.version import VERSION
from judgekit.offline.search_index import index_version, offline_index_json, text_files, text_paths
from judgekit.offline.cards_data import cards_json
from judgekit.offline.cards_data import data_url

FILE_NAME = re.compile(r"\.(?:css|js|mjs|json|png|svg|ico|webmanifest|txt|xml|woff2?|map)$")
ATTRIBUTE = re.compile(r'(\s(?:href|src|action|data-[a-z-]+)=")(/(?!/)[^"]*)"')


class PublishError(Exception):
    """Why a copy cannot be written (one line for the CLI)."""


@dataclass
class Published:
    target: Path
    base: str
    pages: int = 0
    files: int = 0
    bytes: int = 0
    precached: int = 0
    dead_links: list[tuple[str, str]] = field(default_factory=list)   # (page, link)
    built: str = ""
    edition: str = ""


# --- addresses ----------------------------------------------------------------------------

def normal_base(base: str) -> str:
    """"/", "/judgekit/" … from what a user typed ("judgekit", "/judgekit")."""
    base = "/" + (base or "").strip().strip("/")
    if not re.fullmatch(r"/[A-Za-z0-9._~/-]*", base) or "//" in base or "/../" in base + "/":
        raise PublishError(f"--base {base!r}: give a path such as / or /judgekit/")
    return base if base == "/" else base + "/"


def is_file(path: str) -> bool:
    return bool(FILE_NAME.search(path.rsplit("/", 1)[-1]))


def published_path(path: str, base: str) -> str:
    """The published address of a server path (no query, no fragment)."""
    if path in ("", "/"):
        return base
    if is_file(path):
        return base + path.lstrip("/")
    return base + path.strip("/") + "/"


def published_url(url: str, base: str, aliases: dict[str, str] | None = None) -> str:
    """A server URL as the published copy addresses it (external and relative URLs kept)."""
    if not url.startswith("/") or url.startswith("//"):
        return url
    rest, hash_, fragment = url.partition("#")
    path, q, query = rest.partition("?")
    aliases = aliases or {}
    if rest in aliases:
        path, q, query = aliases[rest], "", ""
    elif path in aliases:
        path = aliases[path]
    return published_path(path, base) + (f"?{query}" if q and query else "") + \
        (f"#{fragment}" if hash_ else "")


def file_for(path: str, target: Path) -> Path:
    """Where a published page or file lives in the target folder."""
    if is_file(path):
        return target / path.lstrip("/")
    return target / path.strip("/") / "index.html" if path.strip("/") else target / "index.html"


def rewrite_html(text: str, base: str, aliases: dict[str, str]) -> tuple[str, list[str]]:
    """The page with every site-absolute address rewritten; and the page links it holds."""
    links: list[str] = []

    def sub(m: re.Match) -> str:
        raw = html.unescape(m.group(2))
        new = published_url(raw, base, aliases)
        if m.group(1).strip().startswith("href") and not is_file(raw.split("?")[0].split("#")[0]):
            links.append(new)
        return f'{m.group(1)}{html.escape(new, quote=True)}"'
    return ATTRIBUTE.sub(sub, text), links


# --- the target folder --------------------------------------------------------------------

def shown(path: str | os.PathLike, limit: int = 80) -> str:
    """A path as a one-line message shows it: a very long one is cut in its middle."""
    text = str(path)
    return text if len(text) <= limit else f"{text[:limit // 2]}…{text[-(limit // 2 - 1):]}"


def check_target(target: str | os.PathLike) -> Path:
    """The folder to write into: new, or existing and empty, and writable. Anything else is
    refused with one line (never writes over existing files): a file, a folder with
    entries, a name the system refuses (too long, ...), no permission."""
    path = Path(target).expanduser()
    try:
        if path.exists() and not path.is_dir():
            raise PublishError(f"{shown(path)} is a file: give a new or empty folder")
        if path.is_dir():
            try:
                entries = list(path.iterdir())
            except PermissionError:
                raise PublishError(f"{shown(path)}: cannot read this folder (permission denied)") from None
            if entries:
                raise PublishError(f"{shown(path)} is not empty ({len(entries)} entries): publish into a new or "
                                   f"empty folder, nothing was written")
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".judgekit-write-test"
        probe.write_bytes(b"")
        probe.unlink()
        return path.resolve()
    except OSError as exc:
        raise PublishError(f"{shown(path)}: cannot write here ({exc.strerror or exc})") from None


# --- what is published ----------------------------------------------------------------------

def page_urls(app, cards: list[int] | None = None) -> tuple[list[str], dict[str, str], list[str]]:
    """(every page to fetch, the aliases, the pages the service worker saves up front).
    `cards`: only these card pages (the tests' short copies); default every card."""
    svc = app.extensions["rules"]
    fixed = ["/", "/reference", "/history", "/offline", "/cards", "/cards/offline", "/trainer"]
    rules = precache.rules_urls(svc.corpus)
    catalog = load_catalog(Path(app.config["CONTENT_DIR"]))
    groups = [f"/cards/groups/{gid}" for gid in catalog.groups]
    wanted = None if cards is None else set(cards)
    cards = [f"/cards/{c.id}" for c in sorted(catalog, key=lambda c: c.id)
             if wanted is None or c.id in wanted]
    aliases = {"/search": "/"}
    trainer: list[str] = []
    content = load_content(Path(app.config["CONTENT_DIR"]), load_cards(Path(app.config["CONTENT_DIR"])))
    for s in content.catalog.scenarios:
        trainer.append(f"/trainer/q/{quote(s.id)}")
        for choice in s.choices:
            answer = f"/trainer/q/{quote(s.id)}?answer={quote(choice)}"
            aliases[answer] = f"/trainer/q/{quote(s.id)}/{quote(choice)}"
            trainer.append(answer)
    pages = fixed + rules + trainer + groups + cards
    # saved on install: everything but the cards and groups (kept as they are opened)
    upfront = fixed + rules + trainer + list(SYNTHETIC)
    return pages, aliases, upfront


#: Pages of the copy that the server has no address for: (template, what site.js fills in).
SYNTHETIC = {"/trainer/session": "offline/site_session.html"}


def render_page(app, url: str, template: str) -> str:
    """A template rendered as the page at `url` would be (context processors included)."""
    with app.test_request_context(url):
        context: dict = {}
        app.update_template_context(context)
        return app.jinja_env.get_template(template).render(context)


def trainer_catalog(app) -> list[dict]:
    """The questions a session of the copy is picked from (static/site.js)."""
    folder = Path(app.config["CONTENT_DIR"])
    content = load_content(folder, load_cards(folder))
    return [{"id": s.id, "section": s.section, "section_title": s.section_title, "title": s.title}
            for s in content.catalog.scenarios]


def publish(app, target: str | os.PathLike, base: str = "/",
            progress: Callable[[str], None] | None = None,
            cards: list[int] | None = None) -> Published:
    """Write the static copy of `app` into `target` (new or empty). `app` must have been
    created with `STATIC_SITE` in its config (see `site_config`). `cards` limits the card
    pages to these ids (for tests; links to the others are then reported as dead)."""
    say = progress or (lambda message: None)
    base = normal_base(base)
    site = app.config.get("STATIC_SITE")
    if not site or site.get("base") != base:
        raise PublishError("the app was not created for publishing (STATIC_SITE)")
    out = check_target(target)
    try:
        return _write(app, out, base, site, say, cards)
    except BaseException:
        # leave the folder as it was found (empty), never half a site
        for child in out.iterdir():
            shutil.rmtree(child) if child.is_dir() else child.unlink()
        raise


def site_config(base: str, edition: str = "", cards: str = "") -> dict:
    """What the templates and `static/site.js` are told about the published copy."""
    return {"base": normal_base(base), "built": datetime.date.today().isoformat(),
            "edition": edition, "cards": cards, "judgekit": VERSION}


def _write(app, out: Path, base: str, site: dict, say, cards) -> Published:
    result = Published(out, base, built=site["built"])
    pages, aliases, upfront = page_urls(app, cards)
    client = app.test_client()
    links: dict[str, list[str]] = {}
    say(f"publishing {len(pages)} pages into {out} (base {base})…")
    for i, url in enumerate(pages, 1):
        resp = client.get(url)
        if resp.status_code != 200:
            raise PublishError(f"{url} answered {resp.status_code}; nothing was published")
        text, found = rewrite_html(resp.get_data(as_text=True), base, aliases)
        dest = file_for(published_url(url, "/", aliases), out)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
        result.pages += 1
        result.bytes += len(text.encode("utf-8"))
        links[published_url(url, base, aliases)] = found
        if i % 1000 == 0:
            say(f"{i}/{len(pages)} pages")
    for url, template in SYNTHETIC.items():
        text, found = rewrite_html(render_page(app, url, template), base, aliases)
        dest = file_for(url, out)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(text, encoding="utf-8")
        result.pages += 1
        links[published_url(url, base, aliases)] = found
    catalog_file = out / "trainer" / "catalog.json"
    catalog_file.write_text(json.dumps(trainer_catalog(app), ensure_ascii=False), encoding="utf-8")
    # the static files, the search index, the manifest, the service worker, the ping
    static_dir = Path(app.static_folder)
    for f in precache.static_files(static_dir):
        if f.name == "sw.js":
            continue
        dest = out / "static" / f.relative_to(static_dir)
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(f, dest)
        result.files += 1
        result.bytes += dest.stat().st_size
    index = app.extensions["rules"].search
    index_file = out / "offline" / "search-index.json"
    index_file.parent.mkdir(parents=True, exist_ok=True)
    raw = offline_index_json(index).encode()
    index_file.write_bytes(raw)
    text_dir = out / "offline" / "search-text"
    text_dir.mkdir(parents=True, exist_ok=True)
    for name, body in text_files(index).items():
        (text_dir / name).write_bytes(body)
        result.files += 1
    cards_file = out / "offline" / "cards.json"
    cards_file.write_text(cards_json(load_catalog(Path(app.config["CONTENT_DIR"]))), encoding="utf-8")
    cards_url = data_url(app.config["CONTENT_DIR"])
    (out / "offline" / "ping").mkdir(parents=True, exist_ok=True)
    (out / "offline" / "ping" / "index.html").write_text("ok\n", encoding="utf-8")
    (out / "manifest.webmanifest").write_text(
        json.dumps(manifest_body(base), ensure_ascii=False, indent=1), encoding="utf-8")
    (out / ".nojekyll").write_text("", encoding="utf-8")     # GitHub Pages: serve every file as is
    result.files += 4
    # the service worker: its configuration first, then static/sw.js
    svc = app.extensions["rules"]
    version = index_version(index)
    index_url = f"/offline/search-index.json?v={version}"
    urls = upfront + precache.static_urls(static_dir) + [index_url, cards_url, "/manifest.webmanifest",
                                                         "/trainer/catalog.json"]
    urls += [f"{path}?v={version}" for path in text_paths(index)]
    urls = [u for u in urls if not u.endswith("/static/sw.js")]
    seen: set[str] = set()
    precached = [published_url(u, base, aliases) for u in urls]
    precached = [u for u in precached if not (u in seen or seen.add(u))]
    digest = precache.fingerprint([out / "manifest.webmanifest", index_file, cards_file]
                                  + precache.static_files(static_dir))
    version = hashlib.sha256("\n".join([precache.FORMAT, svc.corpus.content_hash, digest,
                                        site["built"]] + precached).encode()).hexdigest()[:12]
    config = {"version": version, "content_hash": svc.corpus.content_hash,
              "edition": site.get("edition", ""), "precache": precached,
              "runtime_prefixes": [published_path(p, base) for p in ("/cards", "/trainer")],
              "never_cache": [published_path("/offline/ping", base)],
              "base": base, "home": base, "offline_page": published_path("/offline", base),
              "saved_marker": published_path("/offline/__saved", base).rstrip("/"),
              "card_prefix": published_path("/cards", base), "card_shell": published_path("/cards/offline", base)}
    source = (static_dir / "sw.js").read_text(encoding="utf-8")
    (out / "sw.js").write_text(f"self.JUDGEKIT_OFFLINE = {json.dumps(config, separators=(',', ':'))};\n"
                               f"{source}", encoding="utf-8")
    result.files += 1
    result.precached = len(precached)
    result.edition = site.get("edition", "")
    # every link between pages must reach a published page
    for page, found in links.items():
        for link in found:
            path = link.split("#")[0].split("?")[0]
            if not path.startswith(base):
                continue
            if not file_for("/" + path[len(base):], out).exists():
                result.dead_links.append((page, link))
    return result
