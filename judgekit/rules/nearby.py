"""Suggestions for an address that names no section: the nearest sections instead."""
from __future__ import annotations

import difflib
import re

from judgekit.rules.corpus import Corpus
from judgekit.rules.entries import section_url
from judgekit.rules.query import QueryError
from judgekit.rules.search import SearchIndex


def suggest(corpus: Corpus, index: SearchIndex, doc_id: str, section_id: str | None,
            limit: int = 6) -> list[dict]:
    out: list[dict] = []
    seen: set[str] = set()

    def add(doc, sec) -> None:
        key = f"{doc.id}/{sec.id}"
        if key in seen or len(out) >= limit:
            return
        seen.add(key)
        out.append({"number": sec.number or "", "title": sec.title if sec.number else sec.title,
                    "doc": doc.title, "url": section_url(doc.id, sec.id)})

    doc = corpus.get(doc_id)
    if doc is None:
        names = difflib.get_close_matches(doc_id, list(corpus.documents), n=3, cutoff=0.4)
        docs = [corpus.get(n) for n in names] or corpus.current
        for d in docs:
            out.append({"number": "", "title": d.title, "doc": d.edition, "url": f"/rules/{d.id}"})
        if section_id:
            for d in docs:
                sec = d.section(section_id)
                if sec:
                    add(d, sec)
        return out[:limit]

    sid = (section_id or "").strip()
    # the closest existing parent ("3.7.9" -> "3.7") and its subsections
    parts = sid.split(".")
    while len(parts) > 1:
        parts.pop()
        parent = doc.section(".".join(parts))
        if parent:
            add(doc, parent)
            for child in parent.children:
                add(doc, doc.sections[child])
            break
    for match in difflib.get_close_matches(sid, list(doc.sections), n=4, cutoff=0.5):
        add(doc, doc.sections[match])
    words = re.sub(r"[-_/.]+", " ", sid)
    if re.search(r"[A-Za-z]{3}", words):
        try:
            hits, _ = index.search(words, limit=limit)
        except QueryError:
            hits = []
        for h in hits:
            d = corpus.get(h.entry.doc)
            s = d.section(h.entry.section) if d else None
            if s:
                add(d, s)
    return out
