"""The search index on disk and in memory: the entries, their analysis and their postings.

`build_index(entries, stamp, index_dir)` analyses every entry once (the analyzer of
`analysis.py`: words, stems, offsets) and writes one file, `index.pickle`, into the
instance's index folder (built aside, then swapped in). `load_index(index_dir, stamp)` reads
it back when it is for the same content (`stamp`), else None: the caller rebuilds.

The postings are counted here from the analysis: for each field (title, body, context),
term -> [(docnum, weight)], where a weight is the term's count times the field's
`POSTING_BOOSTS` in a float32 (what whoosh stored, so the ranking and the browser's
offline search keep their numbers), and each entry's field lengths. whoosh wrote them
until the cards came in: its writer took over ten seconds for the 6,600 entries of the
rules, the cards and their rulings, this takes about one.

Pure Python, no Flask.
"""
from __future__ import annotations

import gc
from array import array
import math
import os
import pickle
import shutil
import struct
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from judgekit.cards.search_entries import NO_DISCIPLINE
from judgekit.rules.analysis import analyze, stated_numbers
from judgekit.rules.entries import Entry

INDEX_FILE = "index.pickle"
# Bump when the stored shape changes (the stamp then differs and the index is rebuilt).
STORE_FORMAT = "8"

#: BM25F field weights. `questions`: the questions an entry answers in people's words
#: (`judgekit.rules.questions`), weighed as much as its own text.
FIELD_BOOSTS = {"title": 3.0, "body": 1.0, "context": 0.6, "questions": 1.0}
POSTING_BOOSTS = {"title": 3.0, "body": 1.0, "context": 0.6, "questions": 1.0}  # counted into each posting's weight
#: Fields only some entries have (the questions: the rules' and the card groups' rulings):
#: their average length is over the entries that have them, so a part where few entries
#: have questions (the cards) does not count theirs as many times longer than usual.
SPARSE_FIELDS = ("questions",)
K1, B = 1.2, 0.75   # BM25 parameters (whoosh's defaults)
#: The words an entry holds as a fact about it, not as its text (a card's context saying it
#: requires no discipline, `NO_DISCIPLINE`): they count in no field's length, so that the
#: entries holding one rank as they did on their other words
FACT_WORDS = frozenset(s for s, _, _ in analyze(NO_DISCIPLINE))


def float32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


@dataclass
class Postings:
    """Every entry's postings and field lengths, in memory for fast scoring."""

    keys: list[str]                                   # docnum -> entry key
    terms: dict[str, dict[str, list[tuple[int, float]]]]  # field -> term -> [(docnum, weight)]
    lengths: dict[str, list[int]]                     # field -> docnum -> length
    avg: dict[str, float]
    n: int
    docnum: dict[str, int]                            # entry key -> docnum

    @classmethod
    def count(cls, keys: list[str], analysis: dict[str, dict[str, list]]) -> "Postings":
        terms: dict[str, dict[str, list[tuple[int, float]]]] = {f: {} for f in FIELD_BOOSTS}
        lengths: dict[str, list[int]] = {f: [] for f in FIELD_BOOSTS}
        weights = {f: {} for f in FIELD_BOOSTS}   # (count) -> float32 weight, made once
        for docnum, key in enumerate(keys):
            fields = analysis[key]
            for fname, table in terms.items():
                tokens = fields[fname]
                counts: dict[str, int] = {}
                for stem, _, _ in tokens:
                    counts[stem] = counts.get(stem, 0) + 1
                lengths[fname].append(len(tokens) - sum(counts.get(w, 0) for w in FACT_WORDS))
                cache = weights[fname]
                for stem, c in counts.items():
                    w = cache.get(c)
                    if w is None:
                        w = cache[c] = float32(c * POSTING_BOOSTS[fname])
                    plist = table.get(stem)
                    if plist is None:
                        table[stem] = [(docnum, w)]
                    else:
                        plist.append((docnum, w))
        n = len(keys)
        return cls(keys, terms, lengths, field_averages(lengths), n, {k: i for i, k in enumerate(keys)})

    def tokens(self, fname: str) -> int:
        """How many words the entries hold in a field, the fact words included (the lengths
        leave them out: `FACT_WORDS`)."""
        return sum(self.lengths[fname]) + sum(round(w / POSTING_BOOSTS[fname])
                                              for fact in FACT_WORDS for _, w in self.terms[fname].get(fact, ()))

    def idf(self, fname: str, term: str) -> float:
        df = len(self.terms[fname].get(term, ()))
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def entry_idf(self, df: int) -> float:
        """The idf of a term held by `df` entries (in any field)."""
        return math.log(1 + (self.n - df + 0.5) / (df + 0.5))

    def term_weights(self) -> dict[str, tuple[array, array]]:
        """Each term's BM25F weight in each entry holding it, its fields summed (title, body,
        context): the part of a term's score that does not depend on the query. Per term,
        the entries (docnums) and their weights as two arrays (`weight_pairs` reads them):
        some 12 bytes an entry where a list of (docnum, weight) tuples took about 80."""
        acc: dict[str, dict[int, float]] = {}
        held: dict[str, set[int]] = {}     # term -> the entries holding it in any field
        for table in self.terms.values():
            for term, plist in table.items():
                held.setdefault(term, set()).update(d for d, _ in plist)
        for fname, fboost in FIELD_BOOSTS.items():
            lens, avg = self.lengths[fname], self.avg[fname]
            for term, plist in self.terms[fname].items():
                # a sparse field's rarity is the term's among all the entries: among the few
                # that have the field, a word of every question would count as rare
                idf = self.entry_idf(len(held[term])) if fname in SPARSE_FIELDS else self.idf(fname, term)
                docs = acc.setdefault(term, {})
                for doc, tf in plist:
                    norm = tf + K1 * (1 - B + B * lens[doc] / avg)
                    docs[doc] = docs.get(doc, 0.0) + fboost * idf * tf * (K1 + 1) / norm
        return {term: (array("i", docs.keys()), array("d", docs.values())) for term, docs in acc.items()}


def field_averages(lengths: dict[str, list[int]]) -> dict[str, float]:
    """Each field's average length: over every entry, or for `SPARSE_FIELDS` over the entries
    that have the field (1.0 when none has)."""
    out = {}
    for f, v in lengths.items():
        counted = [x for x in v if x] if f in SPARSE_FIELDS else v
        out[f] = (sum(counted) / len(counted) if counted else 1.0) or 1.0
    return out


def analyse_entries(entries: Iterable[Entry]) -> dict[str, dict[str, list[tuple[str, int, int]]]]:
    """Each entry's analysed words with their offsets (for snippets, phrases and coverage)."""
    return {e.key: {"body": analyze(e.body), "title": analyze(e.title), "context": analyze(e.context),
                    "questions": analyze(e.questions)}
            for e in entries}


#: The kinds of entries whose questions (`Entry.questions`) state no number of theirs: a
#: card group's questions are shared by the group's rulings and its cards, whose texts state
#: their own numbers (with the groups' numbers, three card questions of the development sets
#: lost their place in the first three).
QUESTIONS_STATE_NO_NUMBER = frozenset(("card", "ruling"))


def entry_numbers(e: Entry, body: list[tuple[str, int, int]],
                  questions: list[tuple[str, int, int]] = ()) -> list[tuple[float, frozenset[str]]]:
    """The numbers an entry states (its body's analysed words `body`: `stated_numbers`),
    then those its questions state (their analysed words `questions`: "pack has 10 cards
    instead of 11", "results sent three weeks late"; none for `QUESTIONS_STATE_NO_NUMBER`),
    and after them those it states beside its text (`Entry.stated`: a vampire's capacity, a
    library card's cost)."""
    asked = stated_numbers(e.questions, questions) if questions and e.kind not in QUESTIONS_STATE_NO_NUMBER else []
    return stated_numbers(e.body, body) + asked + [(value, frozenset((unit,))) for value, unit in e.stated]


@dataclass
class StoredPart:
    """One part of the index (the rules, the cards): its entries, analysis and postings.
    Each part keeps its own statistics, so the thousands of cards change no rule's rank."""
    entries: list[Entry]
    analysis: dict[str, dict[str, list[tuple[str, int, int]]]]   # loaded: the bodies' only
    postings: Postings
    stored: dict | None = None     # what `derived` computed when the index was built

    @classmethod
    def of(cls, entries: list[Entry]) -> "StoredPart":
        analysis = analyse_entries(entries)
        return cls(entries, analysis, Postings.count([e.key for e in entries], analysis))

    def derived(self) -> dict:
        """What the search computes from the analysis, once, at build time (opening the
        index stays fast): each stem's entry count over all fields (`df`), each term's BM25F
        weights (`weights`), the numbers each entry states (`stated`, by docnum)."""
        if self.stored is None:
            df: dict[str, int] = {}
            for a in self.analysis.values():
                for st in {s for field in FIELD_BOOSTS for s, _, _ in a[field]}:
                    df[st] = df.get(st, 0) + 1
            by_key = {e.key: e for e in self.entries}
            self.stored = {
                "df": df, "weights": self.postings.term_weights(),
                "stated": [entry_numbers(by_key[k], self.analysis[k]["body"], self.analysis[k]["questions"])
                           for k in self.postings.keys],
            }
        return self.stored


@dataclass
class StoredIndex:
    stamp: str
    parts: dict[str, StoredPart]     # "rules", "cards"
    extra: dict          # what other sources store beside their entries (the card names)


def _entry_rows(entries: list[Entry]) -> list[tuple]:
    return [(e.key, e.doc, e.section, e.number, e.title, e.context, e.body, e.url, e.kind,
             [tuple(a) for a in e.anchors], e.questions, e.stated) for e in entries]


def build_index(parts: dict[str, list[Entry]], stamp: str, index_dir: str | Path,
                extra: dict | None = None, progress: Callable[[str], None] | None = None) -> None:
    """Write a fresh index of each part's entries into `index_dir` (built aside, then
    swapped in)."""
    index_dir = Path(index_dir)
    index_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = index_dir.with_name(f"{index_dir.name}.building-{os.getpid()}-{threading.get_ident()}")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    started = time.perf_counter()
    total = sum(len(v) for v in parts.values())
    if progress:
        progress(f"indexing {total} entries…")
    stored = {}
    for name, entries in parts.items():
        with no_gc():
            part = StoredPart.of(entries)
            # the search needs each entry's body tokens; titles and contexts live in the postings
            bodies = {k: {"body": a["body"]} for k, a in part.analysis.items()}
            stored[name] = (_entry_rows(entries), bodies, part.postings.terms,
                            part.postings.lengths, part.derived())
    data = {"format": STORE_FORMAT, "stamp": stamp, "parts": stored, "extra": extra or {}}
    with open(tmp / INDEX_FILE, "wb") as fh:
        pickle.dump(data, fh, protocol=pickle.HIGHEST_PROTOCOL)
    (tmp / "content_hash").write_text(f"{stamp}|{STORE_FORMAT}")
    old = index_dir.with_name(f"{index_dir.name}.old-{os.getpid()}-{threading.get_ident()}")
    if index_dir.exists():
        index_dir.rename(old)
    tmp.rename(index_dir)
    shutil.rmtree(old, ignore_errors=True)
    if progress:
        progress(f"search index built: {total} entries in {time.perf_counter() - started:.2f}s")


def index_is_current(stamp: str, index_dir: str | Path) -> bool:
    marker = Path(index_dir) / "content_hash"
    try:
        return marker.read_text().strip() == f"{stamp}|{STORE_FORMAT}" and \
            (Path(index_dir) / INDEX_FILE).is_file()
    except OSError:
        return False


def load_index(index_dir: str | Path, stamp: str) -> StoredIndex | None:
    """The stored index if it is for `stamp`, else None (missing, older, unreadable)."""
    with no_gc():
        return _load(index_dir, stamp)


@contextmanager
def no_gc():
    """Python's cycle collector paused while a large graph of new objects is read: it would
    walk every object read so far again and again (seconds instead of a fraction)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _load(index_dir: str | Path, stamp: str) -> StoredIndex | None:
    try:
        with open(Path(index_dir) / INDEX_FILE, "rb") as fh:
            data = pickle.load(fh)
    except (OSError, EOFError, pickle.UnpicklingError, AttributeError, ValueError, ImportError):
        return None
    if not isinstance(data, dict) or data.get("stamp") != stamp or data.get("format") != STORE_FORMAT:
        return None
    try:
        return _parts(data, stamp)
    except (KeyError, TypeError, ValueError):   # written by another version: rebuild
        return None


def _parts(data: dict, stamp: str) -> StoredIndex:
    parts = {}
    for name, (rows, analysis, terms, lengths, derived) in data["parts"].items():
        entries = [Entry(*row[:9], list(row[9]), *row[10:12]) for row in rows]
        keys = [e.key for e in entries]
        n = len(keys)
        parts[name] = StoredPart(entries, analysis,
                                 Postings(keys, terms, lengths, field_averages(lengths), n,
                                          {k: i for i, k in enumerate(keys)}),
                                 derived)
    return StoredIndex(stamp, parts, data.get("extra") or {})
