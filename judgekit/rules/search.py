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
import math
import os
import pickle
import re
import shutil
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from whoosh import index as windex
from whoosh import query as Q
from whoosh.analysis import (CharsetFilter, LowercaseFilter, RegexTokenizer,
                             StemFilter, StopFilter)
from whoosh.fields import ID, STORED, TEXT, Schema
from whoosh.lang.porter2 import stem as porter2
from whoosh.support.charset import accent_map

from judgekit.rules.corpus import Block, Corpus, Document, Section
from judgekit.rules.synonyms import CASE_SENSITIVE, SYNONYMS

MAX_QUERY = 500
# Bump when the schema, the analyzer or the entries change: the index is then rebuilt.
INDEX_VERSION = "5"
WORD = r"\w+(?:[.'’]\w+)*"

SECTION_QUERY = re.compile(
    r"^\s*(?:(?:section|sect|sec|rule|rules|§|appendix)\s*)?"
    r"((?:\d+|[A-Ba-b])(?:\.\d+)*)\.?\s*$", re.I)

HEAD_FIELDS = ("title",)


def make_analyzer():
    return (RegexTokenizer(WORD) | LowercaseFilter() | CharsetFilter(accent_map)
            | StopFilter(minsize=1) | StemFilter(stemfn=porter2, cachesize=-1))


ANALYZER = make_analyzer()


def analyze(text: str) -> list[tuple[str, int, int]]:
    """(stem, start char, end char) of each indexed word of `text`."""
    return [(t.text, t.startchar, t.endchar)
            for t in ANALYZER(text, positions=False, chars=True)]


@lru_cache(maxsize=65536)
def stem_word(word: str) -> tuple[str, ...]:
    """The indexed stem(s) of one query word (usually one; none for a stop word)."""
    return tuple(s for s, _, _ in analyze(word))


def query_stems(text: str) -> list[str]:
    return [s for w in re.findall(WORD, text) for s in stem_word(w)]


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
    with open(tmp / ANALYSIS_FILE, "wb") as fh:
        pickle.dump({"stamp": index_stamp(corpus), "entries": analyse_entries(entries)}, fh,
                    protocol=pickle.HIGHEST_PROTOCOL)
    (tmp / "content_hash").write_text(index_stamp(corpus))
    old = index_dir.with_name(f"{index_dir.name}.old-{os.getpid()}-{threading.get_ident()}")
    if index_dir.exists():
        index_dir.rename(old)
    tmp.rename(index_dir)
    shutil.rmtree(old, ignore_errors=True)
    if progress:
        progress(f"search index built: {len(entries)} entries in {time.perf_counter() - started:.2f}s")


ANALYSIS_FILE = "analysis.pickle"


def analyse_entries(entries: Iterable[Entry]) -> dict[str, dict[str, list[tuple[str, int, int]]]]:
    """Each entry's analysed words with their offsets (for snippets, phrases and coverage)."""
    return {e.key: {"body": analyze(e.body), "title": analyze(e.title), "context": analyze(e.context)}
            for e in entries}


def load_analysis(corpus: Corpus, index_dir: str | Path) -> dict | None:
    """The analysis saved next to the index at build time, if it is for this content."""
    try:
        with open(Path(index_dir) / ANALYSIS_FILE, "rb") as fh:
            saved = pickle.load(fh)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError):
        return None
    if not isinstance(saved, dict) or saved.get("stamp") != index_stamp(corpus):
        return None
    return saved["entries"]


def index_stamp(corpus: Corpus) -> str:
    return f"{corpus.content_hash}:{INDEX_VERSION}"


def index_is_current(corpus: Corpus, index_dir: str | Path) -> bool:
    marker = Path(index_dir) / "content_hash"
    return marker.exists() and marker.read_text().strip() == index_stamp(corpus) \
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


FIELD_BOOSTS = {"title": 3.0, "body": 1.0, "context": 0.6}
K1, B = 1.2, 0.75   # BM25 parameters (whoosh's defaults)


@dataclass
class Postings:
    """The whoosh index's postings, read once into memory for fast scoring.

    whoosh builds and stores the index (analyzer, fields, boosts); its matcher machinery
    is general and costs milliseconds per query in Python, so queries are scored here
    with the same BM25F formula over the postings whoosh wrote.
    """

    keys: list[str]                                   # docnum -> entry key
    terms: dict[str, dict[str, list[tuple[int, float]]]]  # field -> term -> [(docnum, freq)]
    lengths: dict[str, list[int]]                     # field -> docnum -> length
    avg: dict[str, float]
    n: int
    docnum: dict[str, int]                            # entry key -> docnum

    @classmethod
    def load(cls, ix) -> "Postings":
        with ix.reader() as r:
            n = r.doc_count_all()
            keys = [""] * n
            for docnum, stored in r.iter_docs():
                keys[docnum] = stored["key"]
            terms: dict[str, dict[str, list[tuple[int, float]]]] = {}
            lengths: dict[str, list[int]] = {}
            avg: dict[str, float] = {}
            terms = {field: {} for field in FIELD_BOOSTS}
            for field, term, docnum, weight, _ in r.iter_postings():  # one pass over all postings
                table = terms.get(field)
                if table is not None:
                    word = term.decode("utf-8") if isinstance(term, bytes) else term
                    table.setdefault(word, []).append((docnum, weight))
            for field in FIELD_BOOSTS:
                lengths[field] = [r.doc_field_length(d, field, 0) for d in range(n)]
                avg[field] = (r.field_length(field) / n) if n else 1.0
        return cls(keys, terms, lengths, avg, n, {k: i for i, k in enumerate(keys)})

    def idf(self, field: str, term: str) -> float:
        df = len(self.terms[field].get(term, ()))
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def add_term(self, scores: dict[int, float], term: str, boost: float) -> None:
        for field, fboost in FIELD_BOOSTS.items():
            plist = self.terms[field].get(term)
            if not plist:
                continue
            idf = self.idf(field, term)
            lens, avg = self.lengths[field], self.avg[field]
            for doc, tf in plist:
                norm = tf + K1 * (1 - B + B * lens[doc] / avg)
                scores[doc] = scores.get(doc, 0.0) + boost * fboost * idf * tf * (K1 + 1) / norm


def _positions(tokens: list[tuple[str, int, int]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i, (stem, _, _) in enumerate(tokens):
        out.setdefault(stem, []).append(i)
    return out


def has_phrase(positions: dict[str, list[int]], stems: tuple[str, ...]) -> bool:
    first = positions.get(stems[0])
    if not first:
        return False
    rest = [set(positions.get(s, ())) for s in stems[1:]]
    return any(all(p + i + 1 in r for i, r in enumerate(rest)) for p in first)


class Or(Q.Or):
    """whoosh's Or with its lazy binary tree of union matchers.

    On a small index whoosh would otherwise preload every clause into arrays sized by the
    document count, which costs more than the search itself.
    """

    matcher_type = Q.Or.DEFAULT_MATCHER


@dataclass
class Group:
    """What one word (or synonym phrase) of the query may match."""

    words: str                       # as typed
    alts: dict[tuple[str, ...], float]  # stem sequence -> boost (original 1.0, synonym, typo)
    weight: float = 1.0              # rarity of the word in the corpus (for coverage)

    def stems(self) -> set[str]:
        return {s for alt in self.alts for s in alt}

    def matches(self, stems: frozenset[str]) -> bool:
        return any(all(s in stems for s in alt) for alt in self.alts)


def within_one_edit(a: str, b: str) -> bool:
    """True when `a` and `b` differ by one insertion, deletion, substitution or swap."""
    if a == b:
        return True
    la, lb = len(a), len(b)
    if abs(la - lb) > 1:
        return False
    if la > lb:
        a, b, la, lb = b, a, lb, la
    i = 0
    while i < la and a[i] == b[i]:
        i += 1
    if la == lb:
        if a[i + 1:] == b[i + 1:]:
            return True
        return i + 1 < la and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:]
    return a[i:] == b[i + 1:]


class SearchIndex:
    """An open index plus the in-memory entries used for snippets, ranking and lookups."""

    CANDIDATES = 60     # best-scored entries re-ranked by coverage
    PER_SECTION = 3     # entries of one section (the section and its examples) before the other sections

    def __init__(self, corpus: Corpus, index_dir: str | Path):
        self.corpus = corpus
        self.ix = windex.open_dir(str(index_dir))
        self.entries = {e.key: e for e in entries_of(corpus)}
        analysed = load_analysis(corpus, index_dir) or analyse_entries(self.entries.values())
        self._tokens = {key: a["body"] for key, a in analysed.items()}
        self._stems: dict[str, frozenset[str]] = {}
        df: dict[str, int] = {}
        for key, e in self.entries.items():
            stems = frozenset([s for s, _, _ in self._tokens[key]]
                              + [s for s, _, _ in analysed[key]["title"]]
                              + [s for s, _, _ in analysed[key]["context"]])
            self._stems[key] = stems
            for st in stems:
                df[st] = df.get(st, 0) + 1
        self.df = df
        self.postings = Postings.load(self.ix)
        self.field_vocab = {f: set(terms) for f, terms in self.postings.terms.items()}
        self._positions = {key: _positions(tokens) for key, tokens in self._tokens.items()}
        self._title_positions = {key: _positions(a["title"]) for key, a in analysed.items()}
        term_docs: dict[str, set[int]] = {}
        for table in self.postings.terms.values():
            for term, plist in table.items():
                term_docs.setdefault(term, set()).update(d for d, _ in plist)
        self._term_docs = {t: frozenset(d) for t, d in term_docs.items()}
        self.n_entries = max(1, len(self.entries))
        self._by_first: dict[str, list[str]] = {}
        for word in df:
            self._by_first.setdefault(word[:1], []).append(word)
        self._synonyms = self._stem_synonyms()
        self._max_phrase = max((len(k) for k in self._synonyms), default=1)
        self._local = threading.local()
        self._by_number: dict[str, list[Entry]] = {}
        for e in self.entries.values():
            if e.kind == "section":
                self._by_number.setdefault(e.section.lower(), []).append(e)

    @staticmethod
    def _stem_synonyms() -> dict[tuple[str, ...], list[tuple[str, ...]]]:
        out: dict[tuple[str, ...], list[tuple[str, ...]]] = {}
        for key, alts in SYNONYMS.items():
            if key in CASE_SENSITIVE:
                continue  # matched on the typed form, see _groups
            stems = tuple(s for s, _, _ in analyze(key))
            if not stems:
                continue
            bucket = out.setdefault(stems, [])
            for alt in alts:
                alt_stems = tuple(s for s, _, _ in analyze(alt))
                if alt_stems and alt_stems != stems and alt_stems not in bucket:
                    bucket.append(alt_stems)
        return out

    def doc_count(self) -> int:
        return self.ix.doc_count()

    def _searcher(self):
        s = getattr(self._local, "searcher", None)
        if s is None:
            s = self._local.searcher = self.ix.searcher()
        return s

    # query construction -------------------------------------------------------------
    @lru_cache(maxsize=4096)
    def _typos(self, stem: str) -> list[str]:
        if len(stem) < 4 or stem in self.df or not stem.isalpha():
            return []
        return [w for w in self._by_first.get(stem[:1], ())
                if abs(len(w) - len(stem)) <= 1 and within_one_edit(stem, w)]

    @lru_cache(maxsize=4096)
    def _extensions(self, stem: str) -> list[str]:
        """Indexed words that extend a short stem by up to three letters ("play" -> "player")."""
        if len(stem) < 4 or not stem.isalpha():
            return []
        return [w for w in self._by_first.get(stem[:1], ())
                if len(stem) < len(w) <= len(stem) + 3 and w.startswith(stem)]

    def _groups(self, text: str) -> list[Group]:
        """One group per word of the query, or per synonym phrase when several words form one."""
        words = [(w, stem_word(w)) for w in re.findall(WORD, text)]
        groups: list[Group] = []
        # words typed in capitals that are otherwise common ("TO")
        for w, _ in words:
            key = w.lower()
            if key in CASE_SENSITIVE and w == CASE_SENSITIVE[key]:
                alts = {tuple(s for s, _, _ in analyze(a)): 0.9 for a in SYNONYMS[key]}
                groups.append(Group(w, alts))
        seq = [(w, st[0]) for w, st in words if st]
        i = 0
        while i < len(seq):
            n = 1
            for k in range(min(self._max_phrase, len(seq) - i), 1, -1):
                if tuple(st for _, st in seq[i:i + k]) in self._synonyms:
                    n = k
                    break
            key = tuple(st for _, st in seq[i:i + n])
            alts: dict[tuple[str, ...], float] = {key: 1.0}
            for alt in self._synonyms.get(key, ()):
                alts.setdefault(alt, 0.8)
            if n == 1:
                for longer in self._extensions(key[0]):
                    alts.setdefault((longer,), 0.4)
                for typo in self._typos(key[0]):
                    alts.setdefault((typo,), 0.6)
                    for alt in self._synonyms.get((typo,), ()):
                        alts.setdefault(alt, 0.5)
            rarest = max((min((self.df.get(s, 0) for s in alt), default=0)
                          for alt in alts if all(s in self.df for s in alt)), default=0)
            weight = math.log(1 + self.n_entries / (1 + rarest)) if rarest else 0.3
            groups.append(Group(" ".join(w for w, _ in seq[i:i + n]), alts, weight))
            i += n
        return groups

    def _query(self, groups: list[Group], text: str) -> Q.Query:
        subs: list[Q.Query] = []
        for g in groups:
            alts: list[Q.Query] = []
            for alt, boost in g.alts.items():
                if len(alt) == 1:
                    alts.extend(Q.Term(f, alt[0], boost=boost) for f in ("title", "body", "context")
                                if alt[0] in self.field_vocab[f])
                elif all(a in self.field_vocab["body"] for a in alt):
                    alts.append(Q.Phrase("body", list(alt), boost=boost))
                    if all(a in self.field_vocab["title"] for a in alt):
                        alts.append(Q.Phrase("title", list(alt), boost=boost))
            if alts:
                subs.append(alts[0] if len(alts) == 1 else Or(alts))
        # adjacent words of the query found together earn a bonus ("end of turn")
        stems = query_stems(text)
        for a, b in zip(stems, stems[1:]):
            if a in self.field_vocab["body"] and b in self.field_vocab["body"] and a != b:
                subs.append(Q.Phrase("body", [a, b], boost=0.6))
        return Or(subs) if subs else Q.NullQuery

    def _group_docs(self, g: Group) -> frozenset[int] | set[int]:
        """The entries (docnums) holding any alternative of the group (phrases: all its words)."""
        docs: set[int] = set()
        empty: frozenset[int] = frozenset()
        for alt in g.alts:
            found = self._term_docs.get(alt[0], empty)
            for a in alt[1:]:
                found = found & self._term_docs.get(a, empty)
            docs |= found
        return docs

    def _candidates(self, groups: list[Group], text: str, engine: str) -> list[tuple[str, float]]:
        """The best-scored entries (key, BM25F score) before coverage re-ranking."""
        if engine == "whoosh":   # whoosh's own matchers, kept for comparison (bench/search.py)
            query = self._query(groups, text)
            if query is Q.NullQuery:
                return []
            return [(r["key"], r.score) for r in self._searcher().search(query, limit=self.CANDIDATES)]
        p = self.postings
        scores: dict[int, float] = {}
        for g in groups:
            for alt, boost in g.alts.items():
                if len(alt) == 1:
                    p.add_term(scores, alt[0], boost)
        keys = p.keys
        # phrases: synonym phrases and adjacent query words found together
        phrases = [(alt, boost) for g in groups for alt, boost in g.alts.items() if len(alt) > 1]
        stems = query_stems(text)
        phrases += [((a, b), 0.6) for a, b in zip(stems, stems[1:]) if a != b]
        for alt, boost in phrases:
            if not all(a in self.df for a in alt):
                continue
            rarest = min(alt, key=lambda a: self.df[a])
            idf = sum(p.idf("body", a) for a in alt)
            for doc, _ in p.terms["body"].get(rarest, ()):
                if has_phrase(self._positions[keys[doc]], alt):
                    scores[doc] = scores.get(doc, 0.0) + boost * idf
            for doc, _ in p.terms["title"].get(rarest, ()):
                if has_phrase(self._title_positions[keys[doc]], alt):
                    scores[doc] = scores.get(doc, 0.0) + boost * idf * FIELD_BOOSTS["title"]
        best = sorted(scores.items(), key=lambda x: -x[1])[:self.CANDIDATES]
        return [(keys[d], sc) for d, sc in best]

    # search -------------------------------------------------------------------------------
    def search(self, text: str, limit: int = 10, engine: str = "memory") -> tuple[list[Hit], list[str]]:
        """Best entries for `text`, and the stems that were looked for (for highlighting)."""
        text = (text or "").strip()
        if not text:
            raise QueryError("type something to search for")
        if len(text) > MAX_QUERY:
            raise QueryError(f"the query is too long ({len(text)} characters; at most {MAX_QUERY})")
        direct = self._direct(text)
        groups = self._groups(text)
        stems = sorted({s for g in groups for s in g.stems()})
        hits: list[Hit] = []
        seen: set[str] = set()
        for e in direct:
            hits.append(Hit(e, 1000.0, self._snippet(e, stems), e.url))
            seen.add(e.key)
        if not groups or len(hits) >= limit:
            return hits[:limit], stems
        total = sum(g.weight for g in groups) or 1.0
        group_docs = [(g.weight, self._group_docs(g)) for g in groups]
        docnum = self.postings.docnum
        ranked = []
        for key, score in self._candidates(groups, text, engine):
            if key in seen:
                continue
            d = docnum[key]
            coverage = sum(w for w, docs in group_docs if d in docs) / total
            ranked.append((score * coverage * coverage, key))
        ranked.sort(key=lambda x: (-x[0], x[1]))
        # at most PER_SECTION entries of one section before every other section has had its
        # turn; the entries past that come after them, when the limit leaves room (a third
        # example of a section is still found, just not above other sections)
        per_section: dict[tuple[str, str], int] = {}
        first, later = [], []
        for score, key in ranked:
            e = self.entries[key]
            sec = (e.doc, e.section)
            per_section[sec] = per_section.get(sec, 0) + 1
            (first if per_section[sec] <= self.PER_SECTION else later).append((score, e))
        for score, e in first + later:
            if len(hits) >= limit:
                break
            snippet, url = self._snippet_and_url(e, stems)
            hits.append(Hit(e, round(float(score), 4), snippet, url))
        return hits, stems

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
        positions = self._positions[e.key]
        hits = sorted(i for st in wanted for i in positions.get(st, ()))
        if hits:
            # the window of `width` words covering the most distinct matched stems (two pointers)
            best, best_score, j, counts = hits[0], -1, 0, {}
            for k, start in enumerate(hits):
                while j < len(hits) and hits[j] < start + width:
                    st = tokens[hits[j]][0]
                    counts[st] = counts.get(st, 0) + 1
                    j += 1
                score = len(counts) * 10 + (j - k)
                if score > best_score:
                    best, best_score = start, score
                st = tokens[start][0]
                counts[st] -= 1
                if not counts[st]:
                    del counts[st]
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
