"""The compact rules index the browser searches offline (`static/offline-search.js`).

It is generated from the server's `SearchIndex`, so the browser scores the same entries
with the same numbers and never has to stem:

- `entries`: every search entry in whoosh's document order with its text (for tokens and
  snippets) and the field lengths whoosh stored (whoosh keeps lengths in a lossy byte, so
  they are shipped rather than recounted);
- `words`: every surface word of the corpus and of the synonym table (lower case) mapped
  to the analyzer's stem, or 0 for a stop word; the browser tokenizes with the same word
  pattern and looks each word up here;
- `synonyms`: the synonym table already stemmed, keyed by stem sequences, exactly as the
  server expands it; `case_sensitive`: the keys that expand only in capitals ("TO");
- `stop`: the analyzer's stop words (for query words the corpus does not contain);
- `question`: the stems of the question words ("what", "my", "whole") that count for little;
- `number_words`: number words and their values ("ninety": 90; `number_tens` are the ones
  that take a unit after them, "twenty-eight"), and each entry's `numbers`:
  the numbers its text states, with the stems of the words after each (`[[90, ["card"]]]`).

A query word missing from `words` is lower-cased, accent-folded and suffix-stripped in the
browser, then expanded by the same one-typo and prefix rules as on the server.
"""
from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from whoosh.analysis import STOP_WORDS

from judgekit.rules.analysis import NUMBER_WORDS, TENS
from judgekit.rules.search import (B, FIELD_BOOSTS, INDEX_VERSION, K1, MAX_QUERY, NUMBER_BOOST,
                                   NUMBER_EXACT, NUMBER_NEAR, QUESTION_FACTOR, UNIT_MISS, WORD,
                                   SearchIndex, analyze, index_stamp, question_stems)
from judgekit.rules.synonyms import CASE_SENSITIVE, QUESTION_WORDS, SYNONYMS

# Bump when the shape of the JSON or the browser's reading of it changes.
FORMAT = 2

FIELDS = ("title", "body", "context")   # order of `lengths` in each entry


def _stems(text: str) -> list[str]:
    return [s for s, _, _ in analyze(text)]


def surface_words(texts) -> dict[str, str | int]:
    """Each distinct word of `texts` (lower case, as the browser will see it) -> stem, or 0."""
    out: dict[str, str | int] = {}
    for text in texts:
        for word in re.findall(WORD, text):
            low = word.lower()
            if low in out:
                continue
            stems = _stems(word)
            out[low] = stems[0] if stems else 0
    return out


# the tables the offline index carries besides the content: a change to them is a new index
TABLES = hashlib.sha256(json.dumps([SYNONYMS, CASE_SENSITIVE, sorted(QUESTION_WORDS), NUMBER_WORDS],
                                   sort_keys=True).encode()).hexdigest()[:12]


def index_version(index: SearchIndex) -> str:
    """Changes with the rules content, the server index's version, the synonym and question
    word tables, and this format."""
    return hashlib.sha256(f"{index_stamp(index.corpus)}:{TABLES}:{FORMAT}".encode()).hexdigest()[:12]


def build_offline_index(index: SearchIndex) -> dict[str, Any]:
    """The JSON-ready offline index of `index` (entries in whoosh's document order)."""
    p = index.postings
    entries = []
    texts: list[str] = []
    for docnum, key in enumerate(p.keys):
        e = index.entries[key]
        entries.append({
            "key": e.key, "doc": e.doc, "section": e.section, "number": e.number,
            "title": e.title, "context": e.context, "body": e.body, "url": e.url,
            "kind": e.kind, "anchors": [[offset, anchor] for offset, anchor in e.anchors],
            "lengths": [p.lengths[f][docnum] for f in FIELDS],
            "numbers": [[value, sorted(units)] for value, units in index.stated[docnum]],
        })
        texts += [e.title, e.context, e.body]
    # the synonym table's own words, so a judge's word absent from the rules still stems alike
    texts += list(SYNONYMS) + [alt for alts in SYNONYMS.values() for alt in alts]
    synonyms = [[list(key), [list(alt) for alt in alts]]
                for key, alts in SearchIndex._stem_synonyms().items()]
    case_sensitive = [
        {"word": lower, "typed": typed, "boost": 0.9,
         "alts": [_stems(alt) for alt in SYNONYMS[lower] if _stems(alt)]}
        for lower, typed in CASE_SENSITIVE.items()
    ]
    return {
        "format": FORMAT,
        "version": index_version(index),
        "content_hash": index.corpus.content_hash,
        "server_index": INDEX_VERSION,
        "params": {"k1": K1, "b": B, "field_boosts": dict(FIELD_BOOSTS), "fields": list(FIELDS),
                   "candidates": SearchIndex.CANDIDATES, "per_section": SearchIndex.PER_SECTION,
                   "max_query": MAX_QUERY, "question_factor": QUESTION_FACTOR,
                   "number_boost": NUMBER_BOOST, "number_near": NUMBER_NEAR,
                   "number_exact": NUMBER_EXACT, "unit_miss": UNIT_MISS},
        # whoosh stores a posting's weight as count x field boost in a float32; BM25F then
        # multiplies by FIELD_BOOSTS again, so the browser needs both to score alike
        "posting_boosts": {f: index.ix.schema[f].format.field_boost for f in FIELDS},
        "n": p.n,
        "avg": {f: p.avg[f] for f in FIELDS},
        # exact token counts per field: the browser checks its tokenizer against them
        "token_totals": {f: sum(len(_stems(getattr(index.entries[k], f))) for k in p.keys)
                         for f in FIELDS},
        "entries": entries,
        "words": surface_words(texts),
        "stop": sorted(STOP_WORDS),
        "question": sorted(question_stems()),
        "number_words": NUMBER_WORDS,
        "number_tens": sorted(TENS),
        "synonyms": synonyms,
        "case_sensitive": case_sensitive,
    }


def offline_index_json(index: SearchIndex) -> str:
    """The offline index as compact JSON text."""
    return json.dumps(build_offline_index(index), ensure_ascii=False, separators=(",", ":"))
