"""What the service worker saves for offline use, and the version that names the cache.

The precache list is generated from the corpus: the home page, the quick reference, the
history page, every document page and every section page (current and older editions),
every static file, the offline search index and the offline fallback page. Its version is
a hash of the rules' content hash, the offline search index's version and the bytes of the
templates and static files, so any change to the rules or to the pages that show them
gives the service worker a new version: it then fetches the new list into a new cache and
drops the old one.

Pages that are not generated from the corpus are cached at run time by URL prefix
(`RUNTIME_PREFIXES`): network first, the saved copy when the network fails.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from judgekit.rules.corpus import Corpus
from judgekit.rules.entries import section_url

# Bump when the service worker's caching rules change in a way the file hashes miss.
FORMAT = "1"

# Always precached besides the rules: pages whose content comes from the corpus, and the
# card shell (a card page drawn on the device from /offline/cards.json).
FIXED_PAGES = ("/", "/reference", "/history", "/offline", "/cards/offline")

# Network first, saved copy when offline (pages built by other areas, any number of them).
# A card page that was never opened is drawn by the card shell.
RUNTIME_PREFIXES = ("/trainer", "/games/", "/api/games/", "/cards")
CARD_SHELL = "/cards/offline"

# Never cached: answers that must be fresh or that the page falls back from by itself.
NEVER_CACHE = ("/api/search", "/offline/ping", "/sw.js")


@dataclass
class Plan:
    version: str                      # names the cache: judgekit-<version>
    content_hash: str                 # the rules content the pages were made from
    edition: str                      # "Rules 2025" — what the status badge says
    urls: list[str]                   # precached, same-origin paths
    runtime_prefixes: list[str] = field(default_factory=lambda: list(RUNTIME_PREFIXES))
    never_cache: list[str] = field(default_factory=lambda: list(NEVER_CACHE))

    def config(self) -> dict:
        """What the service worker script is given (JSON)."""
        return {"version": self.version, "content_hash": self.content_hash,
                "edition": self.edition, "precache": self.urls,
                "runtime_prefixes": self.runtime_prefixes, "never_cache": self.never_cache,
                "card_prefix": "/cards/", "card_shell": CARD_SHELL}


def rules_urls(corpus: Corpus) -> list[str]:
    """Every document and section page of the corpus, current documents first."""
    urls: list[str] = []
    for doc in list(corpus.current) + list(corpus.history):
        urls.append(section_url(quote(doc.id), ""))
        for sid in doc.sections:
            urls.append(section_url(quote(doc.id), quote(sid, safe=".-_")))
    return urls


def static_files(static_dir: str | Path) -> list[Path]:
    """Files under `static_dir` worth saving (no dotfiles, no source maps), sorted."""
    root = Path(static_dir)
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__")))
        for name in sorted(filenames):
            if name.startswith(".") or name.endswith((".map", ".pyc")):
                continue
            out.append(Path(dirpath) / name)
    return sorted(out)


def static_urls(static_dir: str | Path, url_path: str = "/static") -> list[str]:
    root = Path(static_dir)
    return [f"{url_path}/{quote(p.relative_to(root).as_posix())}" for p in static_files(root)]


def fingerprint(paths) -> str:
    """A hash of the names and bytes of `paths` (files; missing ones count as absent)."""
    digest = hashlib.sha256()
    for p in sorted(Path(x) for x in paths):
        digest.update(str(p).encode() + b"\0")
        try:
            digest.update(p.read_bytes())
        except OSError:
            digest.update(b"<missing>")
        digest.update(b"\0")
    return digest.hexdigest()


def template_files(template_dir: str | Path) -> list[Path]:
    return sorted(p for p in Path(template_dir).rglob("*") if p.is_file() and not p.name.startswith("."))


def edition_label(corpus: Corpus) -> str:
    """"Rules 2025": the dated editions of the current documents (else the content hash)."""
    editions = []
    for doc in corpus.current:
        ed = (doc.edition or "").strip()
        if ed and ed.lower() != "current" and ed not in editions:
            editions.append(ed)
    return "Rules " + " / ".join(editions) if editions else f"Rules {corpus.content_hash[:7]}"


def build_plan(corpus: Corpus, static_dir: str | Path, template_dir: str | Path,
               index_version: str, extra_files=(), extra_urls=()) -> Plan:
    """The precache list and its version for this corpus and these pages.

    `extra_files` are hashed into the version too (the service worker's own source);
    `extra_urls` are saved too (the cards' data, its version in its address).
    """
    index_url = f"/offline/search-index.json?v={index_version}"
    urls = list(FIXED_PAGES) + rules_urls(corpus) + static_urls(static_dir) + [index_url] + list(extra_urls)
    seen: set[str] = set()
    urls = [u for u in urls if not (u in seen or seen.add(u))]
    files = static_files(static_dir) + template_files(template_dir) + [Path(f) for f in extra_files]
    digest = hashlib.sha256("\n".join([FORMAT, corpus.content_hash, index_version,
                                       fingerprint(files)] + urls).encode())
    return Plan(version=digest.hexdigest()[:12], content_hash=corpus.content_hash,
                edition=edition_label(corpus), urls=urls)
