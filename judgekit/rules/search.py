"""Search the rules: a whoosh index with one entry per section and one per example.

- A stemming, accent-folding analyzer; titles boosted over body text.
- Query words are expanded with the judges' synonym table (`synonyms.py`).
- One typo is tolerated in words of five letters or more that the index does not know.
- A query that is a section number ("3.7.2", "A.2.1", "section 4.1.1") goes straight to it.
- Snippets are cut from the entry's text around the matched words, with `<mark>`.

The query is never handed to a query parser: it is split into words by the analyzer, so
quotes, stars, brackets, AND/OR and colons are just characters and cannot fail.
"""
from __future__ import annotations

import html
import os
import re
import shutil
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from whoosh import index as windex
from whoosh import query as Q
from whoosh.analysis import (CharsetFilter, LowercaseFilter, RegexTokenizer,
                             StemFilter, StopFilter)
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.support.charset import accent_map

from judgekit.rules.corpus import Block, Corpus, Document, Section
from judgekit.rules.synonyms import MAX_PHRASE, expansions

MAX_QUERY = 500
WORD = r"\w+(?:[.'’]\w+)*"

SECTION_QUERY = re.compile(
    r"^\s*(?:(?:section|sect|sec|rule|rules|§|appendix)\s*)?"
    r"((?:\d+|[A-Ba-b])(?:\.\d+)*)\.?\s*$", re.I)

HEAD_FIELDS = ("title",)


def make_analyzer():
    return (RegexTokenizer(WORD) | LowercaseFilter() | CharsetFilter(accent_map)
            | StopFilter(minsize=1) | StemFilter(cachesize=-1))


ANALYZER = make_analyzer()


def analyze(text: str) -> list[tuple[str, int, int]]:
    """(stem, start char, end char) of each indexed word of `text`."""
    return [(t.text, t.startchar, t.endchar)
            for t in ANALYZER(text, positions=False, chars=True)]


def make_schema() -> Schema:
    return Schema(
        key=ID(stored=True, unique=True),
        doc=ID(stored=True),
        section=ID(stored=True),
        number=ID(stored=True),
        title=TEXT(analyzer=ANALYZER, field_boost=3.0, phrase=True),
        context=TEXT(analyzer=ANALYZER, field_boost=0.6, phrase=False),
        body=TEXT(analyzer=ANALYZER, phrase=True),
        kind=STORED,
    )


@dataclass
class Entry:
    """One searchable unit: a section's own text, or one example."""

    key: str          # "tournament-rules/3.7.2" or "announcements/shortcuts#shortcuts-ex3"
    doc: str
    section: str
    number: str       # section number ("3.7.2") or "" for unnumbered sections
    title: str        # what a result shows as its title
    context: str      # titles of the enclosing sections
    body: str         # plain text
    url: str
    kind: str         # "section" | "example" | "intro"
    anchors: list[tuple[int, str]]  # (char offset in body, block anchor) to link to a paragraph


def section_url(doc: str, section: str, anchor: str | None = None) -> str:
    url = f"/rules/{doc}" if section in ("", "intro") else f"/rules/{doc}/{section}"
    return f"{url}#{anchor}" if anchor else url


def _join_blocks(blocks: Iterable[Block]) -> tuple[str, list[tuple[int, str]]]:
    parts, anchors, offset = [], [], 0
    for b in blocks:
        text = b.plain()
        if not text:
            continue
        anchors.append((offset, b.anchor))
        parts.append(text)
        offset += len(text) + 1
    return "\n".join(parts), anchors


def entries_of(corpus: Corpus) -> list[Entry]:
    """The search entries of the current documents (history editions are not searched)."""
    out: list[Entry] = []
    for doc in corpus.current:
        if doc.preamble:
            body, anchors = _join_blocks(doc.preamble)
            out.append(Entry(f"{doc.id}/intro", doc.id, "intro", "", f"{doc.title} — introduction",
                             doc.title, body, section_url(doc.id, "intro"), "intro", anchors))
        for sec in doc.sections.values():
            context = " ".join(a.title for a in doc.ancestors(sec.id))
            own = [b for b in sec.blocks if b.kind != "example"]
            body, anchors = _join_blocks(own)
            out.append(Entry(f"{doc.id}/{sec.id}", doc.id, sec.id, sec.number or "", sec.label,
                             context, body, section_url(doc.id, sec.id), "section", anchors))
            for ex in sec.examples:
                body, _ = _join_blocks(ex.blocks)
                out.append(Entry(f"{doc.id}/{sec.id}#{ex.anchor}", doc.id, sec.id, sec.number or "",
                                 f"{sec.label} — {ex.label}", f"{context} {sec.title}", body,
                                 section_url(doc.id, sec.id, ex.anchor), "example",
                                 [(0, ex.anchor)]))
    return out


def build_index(corpus: Corpus, index_dir: str | Path,
                progress: Callable[[str], None] | None = None) -> None:
    """Write a fresh index for `corpus` into `index_dir` (built aside, then swapped in)."""
    index_dir = Path(index_dir)
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = index_dir.with_name(f"{index_dir.name}.building-{os.getpid()}-{threading.get_ident()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    started = time.perf_counter()
    entries = entries_of(corpus)
    ix = windex.create_in(str(tmp), make_schema())
    writer = ix.writer(limitmb=64)
    for i, e in enumerate(entries, 1):
        writer.add_document(key=e.key, doc=e.doc, section=e.section, number=e.number,
                            title=e.title, context=e.context, body=e.body, kind=e.kind)
        if progress and i % 200 == 0:
            progress(f"indexing the rules… {i}/{len(entries)} entries")
    writer.commit()
    ix.close()
    (tmp / "content_hash").write_text(corpus.content_hash)
    old = index_dir.with_name(f"{index_dir.name}.old-{os.getpid()}-{threading.get_ident()}")
    if index_dir.exists():
        index_dir.rename(old)
    tmp.rename(index_dir)
    shutil.rmtree(old, ignore_errors=True)
    if progress:
        progress(f"search index built: {len(entries)} entries in {time.perf_counter() - started:.2f}s")


def index_is_current(corpus: Corpus, index_dir: str | Path) -> bool:
    marker = Path(index_dir) / "content_hash"
    return marker.exists() and marker.read_text().strip() == corpus.content_hash \
        and windex.exists_in(str(index_dir))


# --- querying ------------------------------------------------------------------------------

@dataclass
class Hit:
    entry: Entry
    score: float
    snippet: str      # HTML: escaped text with <mark> around matched words
    url: str          # entry URL, or the anchor of the paragraph the snippet comes from


class QueryError(ValueError):
    """A query the search cannot take (empty, too long)."""


class SearchIndex:
    """An open index plus the in-memory entries used for snippets and direct lookups."""

    def __init__(self, corpus: Corpus, index_dir: str | Path):
        self.corpus = corpus
        self.ix = windex.open_dir(str(index_dir))
        self.entries = {e.key: e for e in entries_of(corpus)}
        self._tokens = {key: analyze(e.body) for key, e in self.entries.items()}
        self._local = threading.local()
        with self.ix.reader() as reader:
            self.vocab = {f: set(reader.field_terms(f)) for f in ("title", "body", "context")}
        self._by_number: dict[str, list[Entry]] = {}
        for e in self.entries.values():
            if e.kind == "section":
                self._by_number.setdefault(e.section.lower(), []).append(e)

    def doc_count(self) -> int:
        return self.ix.doc_count()

    def _searcher(self):
        s = getattr(self._local, "searcher", None)
        if s is None:
            s = self._local.searcher = self.ix.searcher()
        return s

    # query construction -------------------------------------------------------------
    def _groups(self, text: str) -> list[tuple[list[str], Q.Query]]:
        """One query group per judge word (or phrase from the synonym table)."""
        words = re.findall(WORD, text)
        groups: list[tuple[list[str], Q.Query]] = []
        i = 0
        while i < len(words):
            # the longest synonym phrase starting here
            for n in range(min(MAX_PHRASE, len(words) - i), 0, -1):
                phrase_words = words[i:i + n]
                phrase = " ".join(phrase_words)
                syn = expansions(phrase, phrase)
                if syn or n == 1:
                    break
            stems = [s for s, _, _ in analyze(phrase)]
            alts: list[Q.Query] = []
            highlight: list[str] = list(stems)
            for stem in stems if n == 1 or not syn else []:
                alts.extend(self._term_queries(stem))
            if n > 1 and syn:
                alts.extend(self._phrase_queries(stems, boost=1.0))
            for alt in syn:
                alt_stems = [s for s, _, _ in analyze(alt)]
                highlight.extend(alt_stems)
                if len(alt_stems) == 1:
                    alts.extend(self._term_queries(alt_stems[0], boost=0.8, fuzzy=False))
                elif alt_stems:
                    alts.extend(self._phrase_queries(alt_stems, boost=0.8))
            if alts:
                groups.append((highlight, Q.Or(alts)))
            i += n
        return groups

    def _term_queries(self, stem: str, boost: float = 1.0, fuzzy: bool = True) -> list[Q.Query]:
        out: list[Q.Query] = []
        known = False
        for field in ("title", "body", "context"):
            if stem in self.vocab[field]:
                known = True
                out.append(Q.Term(field, stem, boost=boost))
        if not known and fuzzy and len(stem) >= 4:
            for field in ("title", "body"):
                out.append(Q.FuzzyTerm(field, stem, boost=boost * 0.7, maxdist=1, prefixlength=1))
        if not out:
            # keep the word in the query so that it still counts as unmatched
            out.append(Q.Term("body", stem, boost=boost))
        return out

    def _phrase_queries(self, stems: list[str], boost: float) -> list[Q.Query]:
        return [Q.Phrase("title", stems, boost=boost), Q.Phrase("body", stems, boost=boost)]

    # search -------------------------------------------------------------------------------
    def search(self, text: str, limit: int = 10) -> tuple[list[Hit], list[str]]:
        """Best entries for `text`, and the stems that were looked for (for highlighting)."""
        text = (text or "").strip()
        if not text:
            raise QueryError("type something to search for")
        if len(text) > MAX_QUERY:
            raise QueryError(f"the query is too long ({len(text)} characters; at most {MAX_QUERY})")
        direct = self._direct(text)
        groups = self._groups(text)
        stems = sorted({s for h, _ in groups for s in h})
        hits: list[Hit] = []
        seen: set[str] = set()
        for e in direct:
            hits.append(Hit(e, 1000.0, self._snippet(e, stems), e.url))
            seen.add(e.key)
        if groups and len(hits) < limit:
            q = Q.Or([g for _, g in groups], scale=0.9) if len(groups) > 1 else groups[0][1]
            results = self._searcher().search(q, limit=limit + len(seen))
            for r in results:
                e = self.entries.get(r["key"])
                if e is None or e.key in seen:
                    continue
                snippet, url = self._snippet_and_url(e, stems)
                hits.append(Hit(e, round(float(r.score), 4), snippet, url))
                if len(hits) >= limit:
                    break
        return hits[:limit], stems

    def _direct(self, text: str) -> list[Entry]:
        m = SECTION_QUERY.match(text)
        if m:
            number = m.group(1).upper() if m.group(1)[0].isalpha() else m.group(1)
            return list(self._by_number.get(number.lower(), []))
        slug = text.strip().lower()
        if re.fullmatch(r"[a-z]+(?:-[a-z]+)+", slug):
            return list(self._by_number.get(slug, []))
        return []

    # snippets --------------------------------------------------------------------------------
    def _snippet(self, e: Entry, stems: list[str]) -> str:
        return self._snippet_and_url(e, stems)[0]

    def _snippet_and_url(self, e: Entry, stems: list[str], width: int = 28) -> tuple[str, str]:
        tokens = self._tokens[e.key]
        wanted = set(stems)
        if not tokens:
            return html.escape(e.body[:200]), e.url
        hits = [i for i, (s, _, _) in enumerate(tokens) if s in wanted]
        if hits:
            # the window of `width` words covering the most distinct matched stems
            best, best_score = hits[0], -1
            for k, start in enumerate(hits):
                window = {tokens[h][0] for h in hits[k:] if h < start + width}
                score = len(window) * 10 + sum(1 for h in hits[k:] if h < start + width)
                if score > best_score:
                    best, best_score = start, score
            first = max(0, best - 4)
        else:
            first = 0
        last = min(len(tokens) - 1, first + width)
        start_char = tokens[first][1]
        # begin at the start of the sentence/paragraph if it is close
        back = e.body.rfind("\n", 0, start_char)
        if 0 <= start_char - back <= 40:
            start_char = back + 1
        elif first == 0:
            start_char = 0
        end_char = tokens[last][2]
        out, pos = [], start_char
        for s, a, b in tokens[first:last + 1]:
            if a < start_char:
                continue
            if s in wanted:
                out.append(html.escape(e.body[pos:a]))
                out.append(f"<mark>{html.escape(e.body[a:b])}</mark>")
                pos = b
        out.append(html.escape(e.body[pos:end_char]))
        snippet = "".join(out).replace("\n", " ")
        if start_char > 0:
            snippet = "… " + snippet
        if end_char < len(e.body.rstrip()):
            snippet += " …"
        url = e.url
        if e.kind in ("section", "intro") and hits:
            anchor = None
            for offset, a in e.anchors:
                if offset <= tokens[best][1]:
                    anchor = a
            if anchor and len(e.anchors) > 1:
                url = f"{e.url}#{anchor}"
        return snippet, url
