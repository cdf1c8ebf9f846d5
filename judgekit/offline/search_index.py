"""The compact index the browser searches offline (`static/offline-search.js`).

It is generated from the server's `Search`, so the browser scores the same entries with
the same numbers and never has to stem:

- `parts`: the rules and the cards, each ranked by its own statistics as on the server:
  every search entry in the server's document order with its text (for phrases and
  snippets, tokenized in the browser when first needed) and field lengths, the part's
  postings (per field, stem -> `[doc delta, count, …]`; the weight is count x the field's
  posting boost in a float32), its entry count, average lengths and `max_postings` (the
  cards: a common term scores only its best entries);
- `card_names`: the table of card names a query may name (`judgekit.cards.names`), so the
  browser puts the same cards first; `card_groups`: each card's groups (card id -> group
  ids), whose rulings follow a query that is only the card's name; `params` carries how the
  parts' results are merged;
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
from judgekit.rules.card_ranking import (CARD_FACTOR, COVERAGE_LEAD, NEAR_TIE, OWN_RULINGS,
                                         YIELD_SHARE, Search)
from judgekit.rules.search import (B, FIELD_BOOSTS, INDEX_VERSION, K1, MAX_QUERY,
                                   NUMBER_BOOST, NUMBER_EXACT, NUMBER_NEAR, POSTING_BOOSTS,
                                   QUESTION_FACTOR, SOURCE_TITLES, UNIT_MISS, WORD,
                                   SearchIndex, analyze, index_stamp, question_stems)
from judgekit.rules.synonyms import CASE_SENSITIVE, QUESTION_WORDS, SYNONYMS

# Bump when the shape of the JSON or the browser's reading of it changes.
FORMAT = 8

FIELDS = ("title", "body", "context")   # order of `lengths` in each entry
COLUMNS = ("key", "doc", "section", "number", "title", "context", "body", "url", "kind", "anchors",
           "lengths", "numbers")


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


def index_version(search: Search) -> str:
    """Changes with the content (rules and cards), the server index's version, the synonym
    and question word tables, and this format."""
    stamp = search.stamp if isinstance(search, Search) else index_stamp(search.corpus)  # a part
    return hashlib.sha256(f"{stamp}:{TABLES}:{FORMAT}".encode()).hexdigest()[:12]


def _part(index: SearchIndex) -> dict[str, Any]:
    """One part's entries (in the server's document order), statistics and limits."""
    p = index.postings
    rows = []
    for docnum, key in enumerate(p.keys):
        e = index.entries[key]
        rows.append([e.key, e.doc, e.section, e.number, e.title, e.context, e.body, e.url, e.kind,
                     [[offset, anchor] for offset, anchor in e.anchors],
                     [p.lengths[f][docnum] for f in FIELDS],
                     [[value, sorted(units)] for value, units in index.stated[docnum]]])
    postings = {}
    for f in FIELDS:
        boost = POSTING_BOOSTS[f]
        table = {}
        for term, plist in p.terms[f].items():
            packed, last = [], 0
            for doc, weight in plist:   # [doc - previous doc, count, …]: the weight is count x boost
                packed += [doc - last, round(weight / boost)]
                last = doc
            table[term] = packed
        postings[f] = table
    return {
        "n": p.n,
        "avg": {f: p.avg[f] for f in FIELDS},
        "max_postings": index.max_postings,
        "group_factor": index.factors.group_factor if index.factors else 1.0,
        "text_factor": index.factors.text_factor if index.factors else 1.0,
        # the server's postings: the browser scores without tokenizing every entry first
        "postings": postings,
        # exact token counts per field: the browser checks its tokenizer against them
        "token_totals": {f: sum(p.lengths[f]) for f in FIELDS},
        # one array per entry, in the order of `columns` (JSON objects for 6,600 entries
        # would cost the phone more to read than the search itself)
        "columns": list(COLUMNS),
        "entries": rows,
    }


def entry_dicts(part: dict) -> list[dict[str, Any]]:
    """A shipped part's entries as dicts (as the browser reads them)."""
    return [dict(zip(part["columns"], row)) for row in part["entries"]]


def build_offline_index(search: Search) -> dict[str, Any]:
    """The JSON-ready offline index of the search: its parts (the rules, the cards), the
    words and tables they share, and the card names."""
    if isinstance(search, SearchIndex):
        search = Search(search)
    parts = {"rules": _part(search.rules)}
    if search.cards is not None:
        parts["cards"] = _part(search.cards)
    texts: list[str] = []
    for part in parts.values():
        for row in part["entries"]:
            texts += [row[COLUMNS.index("title")], row[COLUMNS.index("context")], row[COLUMNS.index("body")]]
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
        "version": index_version(search),
        "content_hash": search.corpus.content_hash,
        "server_index": INDEX_VERSION,
        "params": {"k1": K1, "b": B, "field_boosts": dict(FIELD_BOOSTS), "fields": list(FIELDS),
                   "candidates": SearchIndex.CANDIDATES, "per_section": SearchIndex.PER_SECTION,
                   "max_query": MAX_QUERY, "question_factor": QUESTION_FACTOR,
                   "number_boost": NUMBER_BOOST, "number_near": NUMBER_NEAR,
                   "number_exact": NUMBER_EXACT, "unit_miss": UNIT_MISS,
                   "card_factor": CARD_FACTOR, "yield_share": YIELD_SHARE,
                   "near_tie": NEAR_TIE, "coverage_lead": COVERAGE_LEAD,
                   "own_rulings": OWN_RULINGS},
        # a posting's weight is count x field boost in a float32; BM25F then multiplies by
        # FIELD_BOOSTS again, so the browser needs both to score alike
        "posting_boosts": dict(POSTING_BOOSTS),
        "parts": parts,
        "card_names": search.names.to_table() if search.names is not None else None,
        "card_groups": search.card_groups if search.names is not None else None,
        "source_titles": SOURCE_TITLES,
        "words": surface_words(texts),
        "stop": sorted(STOP_WORDS),
        "question": sorted(question_stems()),
        "number_words": NUMBER_WORDS,
        "number_tens": sorted(TENS),
        "synonyms": synonyms,
        "case_sensitive": case_sensitive,
    }


def offline_index_json(search: Search) -> str:
    """The offline index as compact JSON text."""
    return json.dumps(build_offline_index(search), ensure_ascii=False, separators=(",", ":"))
