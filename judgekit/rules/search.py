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

import bisect
import math
import os
import pickle
import re
import shutil
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable

from whoosh import index as windex
from whoosh import query as Q
from whoosh.fields import ID, STORED, TEXT, Schema

from judgekit.rules.analysis import (ANALYZER, WORD, analyze, closeness, make_analyzer,  # noqa: F401
                                     number_value, numbers_in, phrase_item, query_stems, query_tokens,
                                     stem_word,
                                     within_one_edit)
from judgekit.rules.corpus import Block, Corpus
from judgekit.rules.snippets import escaped_offsets, snippet_and_url
from judgekit.rules.synonyms import CASE_SENSITIVE, QUESTION_WORDS, SYNONYMS

MAX_QUERY = 500
# Bump when the schema, the analyzer or the entries change: the index is then rebuilt.
INDEX_VERSION = "6"

SECTION_QUERY = re.compile(
    r"^\s*(?:(?:section|sect|sec|rule|rules|§|appendix)\s*)?"
    r"((?:\d+|[A-Ba-b])(?:\.\d+)*)\.?\s*$", re.I)

HEAD_FIELDS = ("title",)


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
    """One searchable unit: a section's own text, one example, or one defined term."""

    key: str          # "tournament-rules/3.7.2", "announcements/shortcuts#shortcuts-ex3",
                      # "tournament-rules/B#term-proxy-card"
    doc: str
    section: str
    number: str       # section number ("3.7.2") or "" for unnumbered sections
    title: str        # what a result shows as its title
    context: str      # titles of the enclosing sections
    body: str         # plain text
    url: str
    kind: str         # "section" | "example" | "definition" | "intro"
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
    """The search entries of the current documents (history editions are not searched).

    A section's examples and its defined terms (Appendix B) are entries of their own, so a
    question about one term or one situation finds that paragraph, titled by it."""
    out: list[Entry] = []
    for doc in corpus.current:
        if doc.preamble:
            body, anchors = _join_blocks(doc.preamble)
            out.append(Entry(f"{doc.id}/intro", doc.id, "intro", "", f"{doc.title} — introduction",
                             doc.title, body, section_url(doc.id, "intro"), "intro", anchors))
        for sec in doc.sections.values():
            context = " ".join(a.title for a in doc.ancestors(sec.id))
            terms = [b for b in sec.blocks if b.kind == "term" and b.term]
            own = [b for b in sec.blocks if b.kind != "example" and b not in terms]
            body, anchors = _join_blocks(own)
            out.append(Entry(f"{doc.id}/{sec.id}", doc.id, sec.id, sec.number or "", sec.label,
                             context, body, section_url(doc.id, sec.id), "section", anchors))
            for ex in sec.examples:
                body, _ = _join_blocks(ex.blocks)
                out.append(Entry(f"{doc.id}/{sec.id}#{ex.anchor}", doc.id, sec.id, sec.number or "",
                                 f"{sec.label} — {ex.label}", f"{context} {sec.title}", body,
                                 section_url(doc.id, sec.id, ex.anchor), "example",
                                 [(0, ex.anchor)]))
            for term in terms:
                out.append(Entry(f"{doc.id}/{sec.id}#{term.anchor}", doc.id, sec.id, sec.number or "",
                                 f"{term.term} — {sec.label}", f"{context} {sec.title}", term.plain(),
                                 section_url(doc.id, sec.id, term.anchor), "definition",
                                 [(0, term.anchor)]))
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
QUESTION_FACTOR = 0.2   # share of its weight a question word ("what", "my", "whole") keeps
NUMBER_BOOST = 2.0      # a number stated by the entry, per unit of the number's weight
NUMBER_NEAR = 0.5       # least closeness for a stated number to count (91 ~ ninety: 0.98)
NUMBER_EXACT = 0.75     # closeness of the stated numbers that make a number common
UNIT_MISS = 0.5         # share kept when the stated number counts something else


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
            lengths: dict[str, list[int]] = {}
            avg: dict[str, float] = {}
            terms: dict[str, dict[str, list[tuple[int, float]]]] = {f: {} for f in FIELD_BOOSTS}
            for fname, term, docnum, weight, _ in r.iter_postings():  # one pass over all postings
                table = terms.get(fname)
                if table is not None:
                    word = term.decode("utf-8") if isinstance(term, bytes) else term
                    table.setdefault(word, []).append((docnum, weight))
            for fname in FIELD_BOOSTS:
                lengths[fname] = [r.doc_field_length(d, fname, 0) for d in range(n)]
                avg[fname] = (r.field_length(fname) / n) if n else 1.0
        return cls(keys, terms, lengths, avg, n, {k: i for i, k in enumerate(keys)})

    def idf(self, fname: str, term: str) -> float:
        df = len(self.terms[fname].get(term, ()))
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def term_weights(self) -> dict[str, list[tuple[int, float]]]:
        """Each term's BM25F weight in each entry holding it, its fields summed (title, body,
        context): the part of a term's score that does not depend on the query."""
        acc: dict[str, dict[int, float]] = {}
        for fname, fboost in FIELD_BOOSTS.items():
            lens, avg = self.lengths[fname], self.avg[fname]
            for term, plist in self.terms[fname].items():
                idf = self.idf(fname, term)
                docs = acc.setdefault(term, {})
                for doc, tf in plist:
                    norm = tf + K1 * (1 - B + B * lens[doc] / avg)
                    docs[doc] = docs.get(doc, 0.0) + fboost * idf * tf * (K1 + 1) / norm
        return {term: list(docs.items()) for term, docs in acc.items()}


def _positions(tokens: list[tuple[str, int, int]]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for i, (stem, _, _) in enumerate(tokens):
        out.setdefault(stem, []).append(i)
    return out


def has_phrase(positions: dict[str, list[int]], stems: tuple[str, ...]) -> bool:
    first = positions.get(stems[0])
    if not first:
        return False
    if len(stems) == 2:   # the common case (adjacent query words), without a Python loop
        second = positions.get(stems[1])
        return bool(second) and not set(second).isdisjoint(map((1).__add__, first))
    rest = [set(positions.get(s, ())) for s in stems[1:]]
    return any(all(p + i + 1 in r for i, r in enumerate(rest)) for p in first)


def stated_numbers(text: str, tokens: list[tuple[str, int, int]]) -> list[tuple[float, frozenset[str]]]:
    """The numbers a text states, each with the stems of the (up to) two words after it
    that are not numbers themselves: "ninety cards" -> (90, {card}); "15 minutes of" ->
    (15, {minut})."""
    out = []
    for i, width, value in numbers_in(text, tokens):
        after = range(i + width, min(len(tokens), i + width + 3))
        units = [tokens[j][0] for j in after if number_value(text[tokens[j][1]:tokens[j][2]]) is None][:2]
        out.append((value, frozenset(units)))
    return out


class Or(Q.Or):
    """whoosh's Or with its lazy binary tree of union matchers.

    On a small index whoosh would otherwise preload every clause into arrays sized by the
    document count, which costs more than the search itself.
    """

    matcher_type = Q.Or.DEFAULT_MATCHER


@dataclass
class Group:
    """What one word (or synonym phrase, or number) of the query may match."""

    words: str                       # as typed
    alts: dict[tuple[str, ...], float]  # stem sequence -> boost (original 1.0, synonym, typo)
    weight: float = 1.0              # rarity of the word in the corpus, times `factor`
    factor: float = 1.0              # QUESTION_FACTOR for a question word, else 1
    number: float | None = None      # a number group: the value asked about
    units: frozenset[str] = field(default_factory=frozenset)  # stems of the words after it
    near: dict[int, float] = field(default_factory=dict)     # docnum -> closeness x unit

    def stems(self) -> set[str]:
        return {s for alt in self.alts for s in alt}


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
        df: dict[str, int] = {}
        for key, e in self.entries.items():
            stems = frozenset([s for s, _, _ in self._tokens[key]]
                              + [s for s, _, _ in analysed[key]["title"]]
                              + [s for s, _, _ in analysed[key]["context"]])
            for st in stems:
                df[st] = df.get(st, 0) + 1
        self.df = df
        self.postings = Postings.load(self.ix)
        self._weights = self.postings.term_weights()
        self.field_vocab = {f: set(terms) for f, terms in self.postings.terms.items()}
        self._positions = {key: _positions(tokens) for key, tokens in self._tokens.items()}
        self._title_positions = {key: _positions(a["title"]) for key, a in analysed.items()}
        self._escaped: dict[str, tuple] = {}   # entry key -> escaped_offsets, made when first shown
        term_docs: dict[str, set[int]] = {}
        for table in self.postings.terms.values():
            for term, plist in table.items():
                term_docs.setdefault(term, set()).update(d for d, _ in plist)
        self._term_docs = {t: frozenset(d) for t, d in term_docs.items()}
        self.n_entries = max(1, len(self.entries))
        # the numbers each entry's text states (by docnum), and by value: value -> [(docnum, units)]
        self.stated = [stated_numbers(self.entries[key].body, self._tokens[key])
                       for key in self.postings.keys]
        self._numbers: dict[float, list[tuple[int, frozenset[str]]]] = {}
        for doc, stated in enumerate(self.stated):
            for value, units in stated:
                self._numbers.setdefault(value, []).append((doc, units))
        self._number_values = sorted(self._numbers)
        # the vocabulary, for typos (by first letter and length) and extensions (sorted)
        self._by_start: dict[tuple[str, int], list[str]] = {}
        for word in df:
            self._by_start.setdefault((word[:1], len(word)), []).append(word)
        self._sorted_words = sorted(df)
        self._synonyms = self._stem_synonyms()
        self._max_phrase = max((len(k) for k in self._synonyms), default=1)
        self._question = question_stems()
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
            stems = tuple(phrase_item(key[a:b], s) for s, a, b in analyze(key))
            if not stems or len(stems) < len(re.findall(WORD, key)):
                continue  # a stop word in the key: it would stand for its other words alone
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
        """Indexed words one typo away from a stem the index does not know (sorted)."""
        if len(stem) < 4 or stem in self.df or not stem.isalpha():
            return []
        first, n = stem[:1], len(stem)
        return sorted(w for size in (n - 1, n, n + 1) for w in self._by_start.get((first, size), ())
                      if within_one_edit(stem, w))

    @lru_cache(maxsize=4096)
    def _extensions(self, stem: str) -> list[str]:
        """Indexed words that extend a stem by up to three letters ("play" -> "player"), or
        that it extends ("finalist" -> "final"), at least four letters long (sorted)."""
        if len(stem) < 4 or not stem.isalpha():
            return []
        out = [stem[:k] for k in range(max(4, len(stem) - 3), len(stem)) if stem[:k] in self.df]
        words = self._sorted_words
        i = bisect.bisect_right(words, stem)
        while i < len(words) and words[i].startswith(stem):
            if len(words[i]) <= len(stem) + 3:
                out.append(words[i])
            i += 1
        return sorted(out)

    def _rarity(self, alts) -> float:
        rarest = max((min((self.df.get(s, 0) for s in alt), default=0)
                      for alt in alts if all(s in self.df for s in alt)), default=0)
        return math.log(1 + self.n_entries / (1 + rarest)) if rarest else 0.3

    def _number_docs(self, value: float, units: frozenset[str]) -> tuple[dict[int, float], float]:
        """Entries stating `value` or a number near it, docnum -> closeness (x UNIT_MISS when
        the number there counts something else than the query's), and the number's weight:
        its rarity among the entries stating it or one close to it, whatever they count."""
        out: dict[int, float] = {}
        close: set[int] = set()
        # closeness >= NUMBER_NEAR (0.5) only between 3/4 and 4/3 of the value: look there,
        # in ascending order
        values = self._number_values
        for stated in values[bisect.bisect_left(values, value * 0.74):bisect.bisect_right(values, value * 1.35)]:
            places = self._numbers[stated]
            near = closeness(value, stated)
            if near < NUMBER_NEAR:
                continue
            for doc, stated_units in places:
                if near >= NUMBER_EXACT:
                    close.add(doc)
                same = not units or not stated_units or units & stated_units  # a table cell has none
                score = near if same else near * UNIT_MISS
                if score > out.get(doc, 0.0):
                    out[doc] = score
        return out, (math.log(1 + self.n_entries / (1 + len(close))) if out else 0.3)

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
        tokens = query_tokens(text)
        seq = [(text[a:b], st) for st, a, b in tokens]
        items = [phrase_item(w, st) for w, st in seq]
        numbers = {i: (width, value) for i, width, value in numbers_in(text, tokens)}
        i = 0
        while i < len(seq):
            n = 1
            for k in range(min(self._max_phrase, len(seq) - i), 1, -1):
                if tuple(items[i:i + k]) in self._synonyms:
                    n = k
                    break
            if n == 1 and i in numbers:
                # a number ("91", "twenty-eight"): matched against the numbers entries state,
                # near ones included, counting what the next words name ("91 library cards")
                n, value = numbers[i]
                units = frozenset(st for w, st in seq[i + n:i + n + 2] if number_value(w) is None)
                near, weight = self._number_docs(value, units)
                groups.append(Group(" ".join(w for w, _ in seq[i:i + n]),
                                    {tuple(st for _, st in seq[i:i + n]): 1.0}, weight,
                                    number=value, units=units, near=near))
                i += n
                continue
            key = tuple(st for _, st in seq[i:i + n])
            typed = " ".join(w for w, _ in seq[i:i + n])
            alts: dict[tuple[str, ...], float] = {key: 1.0}
            for alt in self._synonyms.get(tuple(items[i:i + n]), ()):
                alts.setdefault(alt, 0.8)
            if n == 1:
                for longer in self._extensions(key[0]):
                    alts.setdefault((longer,), 0.4)
                for typo in self._typos(key[0]):
                    alts.setdefault((typo,), 0.6)
                    for alt in self._synonyms.get((typo,), ()):
                        alts.setdefault(alt, 0.5)
            factor = QUESTION_FACTOR if n == 1 and key[0] in self._question else 1.0
            groups.append(Group(typed, alts, self._rarity(alts) * factor, factor))
            i += n
        return groups

    def _query(self, groups: list[Group], text: str) -> Q.Query:
        subs: list[Q.Query] = []
        for g in groups:
            alts: list[Q.Query] = []
            for alt, boost in g.alts.items():
                if len(alt) == 1:
                    alts.extend(Q.Term(f, alt[0], boost=boost * g.factor) for f in ("title", "body", "context")
                                if alt[0] in self.field_vocab[f])
                elif all(a in self.field_vocab["body"] for a in alt):
                    alts.append(Q.Phrase("body", list(alt), boost=boost))
                    if all(a in self.field_vocab["title"] for a in alt):
                        alts.append(Q.Phrase("title", list(alt), boost=boost))
            if alts:
                subs.append(alts[0] if len(alts) == 1 else Or(alts))
        return Or(subs) if subs else Q.NullQuery

    def _group_docs(self, g: Group) -> dict[int, float] | set[int] | frozenset[int]:
        """The entries (docnums) holding any alternative of the group (phrases: all its words);
        for a number, docnum -> how close the number they state is."""
        if g.number is not None:
            return g.near
        empty: frozenset[int] = frozenset()
        found = []
        for alt in g.alts:
            docs = self._term_docs.get(alt[0], empty)
            for a in alt[1:]:
                docs = docs & self._term_docs.get(a, empty)
            found.append(docs)
        return found[0] if len(found) == 1 else empty.union(*found)

    def _candidates(self, groups: list[Group], text: str, engine: str,
                    group_docs: list) -> list[tuple[str, float]]:
        """The best-scored entries (key, score) before coverage re-ranking."""
        if engine == "whoosh":   # whoosh's own matchers, kept for comparison (bench/search.py)
            query = self._query(groups, text)
            if query is Q.NullQuery:
                return []
            return [(r["key"], r.score) for r in self._searcher().search(query, limit=self.CANDIDATES)]
        p = self.postings
        scores: dict[int, float] = {}
        question: set[str] = set()
        for g, docs in zip(groups, group_docs):
            if g.number is not None:
                for doc, near in docs.items():
                    scores[doc] = scores.get(doc, 0.0) + NUMBER_BOOST * g.weight * near
                continue
            if g.factor != 1.0:
                question.update(alt[0] for alt in g.alts if len(alt) == 1)
            for alt, boost in g.alts.items():
                if len(alt) == 1:
                    boost = boost * g.factor
                    for doc, w in self._weights.get(alt[0], ()):
                        scores[doc] = scores.get(doc, 0.0) + boost * w
        keys = p.keys
        # phrases: synonym phrases and adjacent query words found together
        phrases = [(alt, boost) for g in groups for alt, boost in g.alts.items() if len(alt) > 1]
        stems = [st for st, _, _ in query_tokens(text)]
        phrases += [((a, b), 0.6 * (QUESTION_FACTOR if a in question or b in question else 1.0))
                    for a, b in zip(stems, stems[1:]) if a != b]
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
        wanted = frozenset(s for g in groups for s in g.stems())
        stems = sorted(wanted)
        hits: list[Hit] = []
        seen: set[str] = set()
        for e in direct:
            hits.append(Hit(e, 1000.0, self._snippet(e, wanted), e.url))
            seen.add(e.key)
        if not groups or len(hits) >= limit:
            return hits[:limit], stems
        total = sum(g.weight for g in groups) or 1.0
        group_docs = [self._group_docs(g) for g in groups]
        docnum = self.postings.docnum
        ranked = []
        for key, score in self._candidates(groups, text, engine, group_docs):
            if key in seen:
                continue
            d = docnum[key]
            covered = 0.0
            for g, docs in zip(groups, group_docs):
                if g.number is not None:
                    covered += g.weight * docs.get(d, 0.0)
                elif d in docs:
                    covered += g.weight
            coverage = covered / total
            ranked.append((score * coverage * coverage * coverage, key))
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
            snippet, url = self._snippet_and_url(e, wanted)
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
    def _snippet(self, e: Entry, stems) -> str:
        return self._snippet_and_url(e, stems)[0]

    def _snippet_and_url(self, e: Entry, stems, width: int = 28) -> tuple[str, str]:
        escaped = self._escaped.get(e.key)
        if escaped is None:
            escaped = self._escaped[e.key] = escaped_offsets(e.body, self._tokens[e.key])
        return snippet_and_url(e, self._tokens[e.key], self._positions[e.key], stems, width, escaped)


@lru_cache(maxsize=1)
def question_stems() -> frozenset[str]:
    """The stems of `QUESTION_WORDS` (words the analyzer drops as stop words have none)."""
    return frozenset(s for w in QUESTION_WORDS for s in stem_word(w))
