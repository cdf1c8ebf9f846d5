"""The compact index the browser searches offline (`static/offline-search.js`).

It is generated from the server's `Search`, so the browser scores the same entries with
the same numbers and never has to stem:

- `parts`: the rules and the cards, each ranked by its own statistics as on the server:
  every search entry in the server's document order (key, doc, section, number, kind: what
  ranking reads), its field lengths, the stems of its body and title as ids into `stems`
  (phrases are checked on them), the numbers it states, the part's postings (per field,
  stem -> `[doc delta, count, …]`; the weight is count x the field's posting boost in a
  float32), its entry count, average lengths and `max_postings` (the cards: a common term
  scores only its best entries), and the rules' phrasings of the questions each entry
  answers (`phrasings`, `phrasing_stems`, `phrasing_idf`: `judgekit.rules.phrasings`, for
  the nearest phrasing; static/offline-phrasings.js). Numbers (postings, lengths, stem ids) are packed a
  character each in strings (`encode_ids`): a phone's JSON.parse reads a string far faster
  than the same numbers in arrays, and the browser decodes a term or an entry when needed;
- the entries' text (title, body, context, link, anchors) is not in the index but in
  `text_files`, CHUNK entries a file: the browser reads the files of the results it shows;
- the cards' part's `types`: each entry's card types as a bit mask, for a question that
  describes a card by its type ("the reaction that…": `CardNames.described_type`);
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
  the numbers its text states, with the stems of the words after each (`[[90, ["card"]]]`),
  and those it states beside its text, with their own units (a capacity "#cap", a cost
  "#pool" or "#blood": `search_entries.BESIDE_UNITS`).

A query word missing from `words` is lower-cased, accent-folded and suffix-stripped in the
browser, then expanded by the same one-typo and prefix rules as on the server.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from typing import Any

from whoosh.analysis import STOP_WORDS
from whoosh.support.charset import accent_map

from judgekit.game.cards import CARD_TYPES
from judgekit.rules.analysis import NUMBER_WORDS, TENS, WORD, analyze
from judgekit.rules.answer import (EVERYDAY_WORDS, MAX_PARTS, MAX_SUGGESTIONS, PART_RESULTS,
                                   WEAK_COVERAGE, everyday_tables)
from judgekit.cards.search_entries import BESIDE_UNITS, CAPACITY_UNIT, COST_UNITS
from judgekit.rules.card_ranking import (ABOUT_CARDS_DOC_FACTORS, ABOUT_CARDS_FACTOR, ABOUT_CARDS_MESSAGE_FACTOR,
                                         CARD_FACTOR, DESCRIBED_CARD_FACTOR, DISTINCT_FIRST, NAMED_AMONG, NAMED_HELD,
                                         OWN_RULINGS,
                                         TYPED_CANDIDATES, Search)
from judgekit.rules.group_rulings import (ASKED_SHARE, GROUP_RULING_AFTER_CARD, GROUP_RULING_CARDS,
                                          GROUP_RULING_CARDS_ASKED, GROUP_RULING_LEAD, GROUP_RULING_NEAR,
                                          GROUP_RULING_NEAR_LATER, LAST_SENTENCE_SHARE, NAMED_RULING_SHARE,
                                          NAMED_RULING_THIRD, RESTATED_SHARE, RULING_INHERITS, RULING_NAMING_ANOTHER,
                                          SECOND_GROUP_SHARE, name_stems)
from judgekit.rules.merge import CARD_QUESTION_LEAD, COVERAGE_LEAD, LEAD_BELOW, LEAD_PLACES, NEAR_TIE, YIELD_SHARE
from judgekit.rules.index_store import B, FIELD_BOOSTS, K1, POSTING_BOOSTS, SPARSE_FIELDS
from judgekit.rules.build import INDEX_VERSION, index_stamp
from judgekit.rules.entries import SOURCE_TITLES
from judgekit.rules.numbers import CAPACITY_WORDS, COMPARATIVES, NUMBER_EXACT, NUMBER_NEAR, UNIT_MISS
from judgekit.rules.query import (ASK_SEPARATORS, JUST_NOW, MAX_QUERY, NAME_ASKED, NUMBER_GLUED, ONE_BLOOD, PLAIN_ASKED,
                                  QUESTION_AFTER_COLON, RULED_OUT, WHAT_IF, question_stems, synonym_stems)
from judgekit.rules.questions import MAX_PHRASINGS
from judgekit.rules.scoring import NUMBER_BOOST
from judgekit.rules.query_groups import (DISCIPLINE_MIN, DISCIPLINE_NAMES, ENDINGS, INFORMATIVE, MAX_GROUPS, MAX_INFORMATIVE,
                                         MISENDINGS, MISTYPED_MIN, POSSESSIVES, QUESTION_FACTOR)
from judgekit.rules.search import SearchIndex
from judgekit.rules.synonyms import (CARD_QUESTION_WORDS, CASE_SENSITIVE, DISCIPLINE_SPELLINGS, QUESTION_WORDS, SYNONYMS,
                                     TYPED_AS_IS)

# Bump when the shape of the JSON or the browser's reading of it changes.
FORMAT = 39

FIELDS = ("title", "body", "context", "questions")   # order of `lengths` in each entry
# what ranking reads (in the index); what only snippets, links and the tests read (the text files)
COLUMNS = ("key", "doc", "section", "number", "kind")
TEXT_COLUMNS = ("title", "body", "context", "url", "anchors")
#: entries per text file: a page of results reads a few small files, not the whole text
CHUNK = 128


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
TABLES = hashlib.sha256(json.dumps([SYNONYMS, CASE_SENSITIVE, sorted(QUESTION_WORDS), NUMBER_WORDS,
                                    DISCIPLINE_SPELLINGS, sorted(CARD_QUESTION_WORDS), sorted(TYPED_AS_IS)],
                                   sort_keys=True).encode()).hexdigest()[:12]


def fold_table() -> dict[str, str]:
    """How the analyzer folds accents (whoosh's `accent_map`, character -> replacement): the
    browser folds a word it does not know with the same table."""
    out = {}
    for cp, rep in accent_map.items():
        if isinstance(rep, int):
            rep = chr(rep)
        out[chr(cp)] = rep or ""
    return out


def ranking_params(group_ruling_after_card: bool = GROUP_RULING_AFTER_CARD,
                   one_blood: re.Pattern[str] = ONE_BLOOD) -> dict[str, Any]:
    """The ranking's constants the browser ranks with (the offline index's "params"): a
    change to one is a new offline index (`index_version`). `one_blood`: the search's
    reading of "a blood" (`Search.one_blood`, made of its cards' names)."""
    return {"k1": K1, "b": B, "field_boosts": dict(FIELD_BOOSTS), "fields": list(FIELDS),
            "candidates": SearchIndex.CANDIDATES, "per_section": SearchIndex.PER_SECTION,
            "rare_groups": SearchIndex.RARE_GROUPS, "rare_docs": SearchIndex.RARE_DOCS,
            "rare_min_docs": SearchIndex.RARE_MIN_DOCS,
            "covering": SearchIndex.COVERING, "facet_covering": SearchIndex.FACET_COVERING, "sparse_fields": list(SPARSE_FIELDS),
            "first_covering": SearchIndex.FIRST_COVERING, "each_facet_covering": SearchIndex.EACH_FACET_COVERING,
            "lead_below": LEAD_BELOW, "lead_places": LEAD_PLACES, "max_groups": MAX_GROUPS,
            "informative": INFORMATIVE, "max_informative": MAX_INFORMATIVE,
            "card_question_lead": list(CARD_QUESTION_LEAD),
            "weak_coverage": WEAK_COVERAGE, "max_suggestions": MAX_SUGGESTIONS,
            "everyday_words": EVERYDAY_WORDS, "max_parts": MAX_PARTS,
            "part_results": PART_RESULTS,
            "max_query": MAX_QUERY, "question_factor": QUESTION_FACTOR, "mistyped_min": MISTYPED_MIN,
            "possessives": sorted(POSSESSIVES),
            "endings": sorted(ENDINGS), "misendings": list(MISENDINGS),
            "number_boost": NUMBER_BOOST, "number_near": NUMBER_NEAR,
            "number_exact": NUMBER_EXACT, "unit_miss": UNIT_MISS,
            "capacity": CAPACITY_UNIT, "capacity_words": sorted(CAPACITY_WORDS), "comparatives": sorted(COMPARATIVES),
            "discipline_names": list(DISCIPLINE_NAMES), "discipline_min": DISCIPLINE_MIN,
            "cost_units": COST_UNITS, "beside_units": sorted(BESIDE_UNITS),
            "card_factor": CARD_FACTOR, "yield_share": YIELD_SHARE,
            "near_tie": NEAR_TIE, "coverage_lead": COVERAGE_LEAD,
            "own_rulings": OWN_RULINGS, "named_held": NAMED_HELD, "named_among": NAMED_AMONG, "typed_candidates": TYPED_CANDIDATES,
            "described_card_factor": DESCRIBED_CARD_FACTOR, "about_cards_factor": ABOUT_CARDS_FACTOR,
            "about_cards_message_factor": ABOUT_CARDS_MESSAGE_FACTOR,
            "about_cards_doc_factors": ABOUT_CARDS_DOC_FACTORS,
            "group_ruling_after_card": group_ruling_after_card, "ruling_inherits": RULING_INHERITS,
            "group_ruling_cards": GROUP_RULING_CARDS, "group_ruling_cards_asked": GROUP_RULING_CARDS_ASKED,
            "asked_share": ASKED_SHARE,
            "group_ruling_lead": GROUP_RULING_LEAD, "group_ruling_near": GROUP_RULING_NEAR,
            "group_ruling_near_later": GROUP_RULING_NEAR_LATER,
            "second_group_share": SECOND_GROUP_SHARE, "last_sentence_share": LAST_SENTENCE_SHARE,
            "named_ruling_share": NAMED_RULING_SHARE, "named_ruling_third": NAMED_RULING_THIRD,
            "restated_share": RESTATED_SHARE,
            "ruling_naming_another": RULING_NAMING_ANOTHER,
            "question_after_colon": list(QUESTION_AFTER_COLON), "distinct_first": DISTINCT_FIRST,
            "name_asked": NAME_ASKED.pattern, "ask_separators": ASK_SEPARATORS,
            "ruled_out": RULED_OUT.pattern, "one_blood": one_blood.pattern,
            "plain_asked": PLAIN_ASKED.pattern, "just_now": JUST_NOW.pattern,
            "number_glued": NUMBER_GLUED.pattern, "what_if": WHAT_IF.pattern}


def index_version(search: Search) -> str:
    """Changes with the content (rules and cards), the server index's version, the synonym
    and question word tables, the ranking's constants (`ranking_params`) and each part's own
    (`part_settings`), and this format."""
    if isinstance(search, Search):
        stamp, params = search.stamp, ranking_params(search.group_ruling_after_card, search.one_blood)
        parts = [search.rules] + ([search.cards] if search.cards is not None else [])
    else:   # a part
        stamp, params, parts = index_stamp(search.corpus), ranking_params(), [search]
    constants = json.dumps([params, *map(part_settings, parts)], sort_keys=True)
    return hashlib.sha256(f"{stamp}:{TABLES}:{constants}:{FORMAT}".encode()).hexdigest()[:12]


def _text_rows(index: SearchIndex) -> list[list]:
    """Each entry's text columns (`TEXT_COLUMNS`), in the server's document order."""
    rows = []
    for key in index.postings.keys:
        e = index.entries[key]
        rows.append([e.title, e.body, e.context, e.url, [[offset, anchor] for offset, anchor in e.anchors]])
    return rows


def stem_ids(search: Search) -> list[str]:
    """Every stem of the entries' bodies and titles, the most frequent first (its id is its
    place: the frequent ones take one byte in `encode_ids`)."""
    counts: Counter = Counter()
    for index in _indexes(search):
        for key in index.postings.keys:
            counts.update(st for st, _, _ in index._tokens[key])
            counts.update(_stems(index.entries[key].title))
    return [st for st, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


#: the largest number `encode_ids` packs in one character
MAX_CODE = 0xFFFF - 0x800 - 36


def encode_ids(ids) -> str:
    """Small numbers (stem ids, postings, lengths) as one JSON-safe string, a character each
    (offline-words.js `decodeIds`): n + 35, skipping the backslash and the UTF-16 surrogates.
    A phone's JSON.parse reads one string far faster than the same numbers as arrays."""
    out = []
    for i in ids:
        if not 0 <= i <= MAX_CODE:
            raise ValueError(f"{i} does not fit in one character")
        cp = i + 35
        if cp >= 92:
            cp += 1
        if cp >= 0xD800:
            cp += 0x800
        out.append(chr(cp))
    return "".join(out)


def decode_ids(text: str) -> list[int]:
    """The numbers `encode_ids` packed."""
    out = []
    for ch in text:
        cp = ord(ch)
        if cp >= 0xE000:
            cp -= 0x800
        if cp > 92:
            cp -= 1
        out.append(cp - 35)
    return out


def encode_numbers(stated) -> str:
    """Each entry's stated numbers and the stems after them, as text parsed when a query
    first has a number: entries split by `|`, numbers by `;`, `value:stem,stem`."""
    return "|".join(";".join(f"{json.dumps(value)}:{','.join(sorted(units))}" for value, units in entry)
                    for entry in stated)


def decode_numbers(text: str) -> list[list]:
    """What `encode_numbers` wrote: per entry `[[value, [stem, …]], …]`."""
    out = []
    for entry in text.split("|"):
        items = []
        for item in filter(None, entry.split(";")):
            value, units = item.split(":")
            items.append([json.loads(value), units.split(",") if units else []])
        out.append(items)
    return out


def _tokens(index: SearchIndex, ids: dict[str, int]) -> dict[str, str]:
    """The stems of every entry's body and title as the server's analyzer gives them, as ids,
    entry after entry (each entry's count is its length in that field): the browser checks
    phrases on them without the text."""
    body, title = [], []
    for docnum, key in enumerate(index.postings.keys):
        b = [ids[st] for st, _, _ in index._tokens[key]]
        t = [ids[st] for st in _stems(index.entries[key].title)]
        if len(b) != index.postings.lengths["body"][docnum] or len(t) != index.postings.lengths["title"][docnum]:
            raise ValueError(f"{key}: its tokens and its field lengths differ")
        body += b
        title += t
    return {"body": encode_ids(body), "title": encode_ids(title)}


def _phrasings(index: SearchIndex) -> dict[str, Any]:
    """The part's phrasings (`judgekit.rules.phrasings`), when it ranks by them: their stems
    (`phrasing_stems`), each stem's idf as the server sums it (the same floats in JSON), and
    `phrasings`: encode_ids of [docnum - the previous one's, how many phrasings, then each
    phrasing's length and its stems' places in `phrasing_stems`, …], entries in docnum order."""
    if index.phrasings is None:
        return {}
    stems: dict[str, int] = {}
    packed, last = [], 0
    for docnum, key in enumerate(index.postings.keys):
        phrasings = index.phrasings.of(key)
        if not phrasings:
            continue
        if len(phrasings) > MAX_PHRASINGS:      # (`parse_questions` refuses more)
            raise ValueError(f"{key}: {len(phrasings)} phrasings, more than {MAX_PHRASINGS}")
        packed += [docnum - last, len(phrasings)]
        last = docnum
        for p in phrasings:
            packed += [len(p), *(stems.setdefault(st, len(stems)) for st in p)]
    return {"phrasing_stems": list(stems), "phrasing_idf": [index.phrasings.idf(st) for st in stems],
            "phrasings": encode_ids(packed)}


def _indexes(search: Search) -> list[SearchIndex]:
    return [search.rules] + ([search.cards] if search.cards is not None else [])


def _key_rest(key: str, doc: str, section: str) -> str:
    """What an entry's key adds to `doc/section` ("#r2"), or "=" and the key."""
    head = f"{doc}/{section}"
    return key[len(head):] if key.startswith(head) and not key[len(head):].startswith("=") else "=" + key


def part_settings(index: SearchIndex) -> dict[str, Any]:
    """How one part ranks, beside the shared constants (`ranking_params`): its limits, powers
    and factors (the cards' `SearchIndex(...)` arguments and `CardFactors`). A change to one is
    a new offline index (`index_version`)."""
    factors = index.factors
    return {
        "max_postings": index.max_postings,
        "first_sentence": index.first_sentence,
        "per_section": index.per_section,
        "coverage_power": index.coverage_power,
        "coverage_cap": index.coverage_cap,
        "order_power": index.order_power,
        "group_factor": factors.group_factor if factors else 1.0,
        "group_weight": factors.group_weight if factors else 1.0,
        "facet_stems": sorted(factors.facets) if factors else [],
        "facet_factor": factors.facet_factor if factors else 1.0,
        # the stems of the card types' words a question may name (stem -> types) and how much
        # higher the cards of a type it names rank (`CardFactors.named_types`)
        "type_stems": factors.type_stems if factors else {},
        "type_factor": factors.type_factor if factors else 1.0,
        "text_factor": factors.text_factor if factors else 1.0,
        # a card's factor by its text's length when the question asks for a plain card
        # (`CardFactors.plain_factor`; 0: off)
        "plain_power": factors.plain_power if factors else 0.0,
        "plain_length": factors.plain_length if factors else 0.0,
        "plain_cap": factors.plain_cap if factors else 1.0,
        "inherit_share": index.inherit_share,
        # how much an entry's nearest phrasing re-orders the first of the order (0: not at all)
        "phrasing_factor": index.phrasing_factor,
        "nearest_among": index.NEAREST_AMONG,
        # its own question words besides the shared ones (the cards': "makes", "lets", and
        # the talk read off the content, `query.talk_stems`)
        "question_extra": sorted(index.question_stems - question_stems()),
    }


def _part(index: SearchIndex, ids: dict[str, int]) -> dict[str, Any]:
    """One part's entries (in the server's document order), statistics and limits."""
    p = index.postings
    rows, docs, kinds = [], {}, {}
    for docnum, key in enumerate(p.keys):
        e = index.entries[key]
        rows.append([_key_rest(e.key, e.doc, e.section), docs.setdefault(e.doc, len(docs)), e.section,
                     e.number, kinds.setdefault(e.kind, len(kinds))])
    for stated in index.stated:
        for _, units in stated:
            if any(ch in u for u in units for ch in "|;:,"):
                raise ValueError(f"a stem holds a separator: {sorted(units)}")
    postings = {}
    for f in FIELDS:
        boost = POSTING_BOOSTS[f]
        table = {}
        for term, plist in p.terms[f].items():
            packed, last = [], 0
            for doc, weight in plist:   # [doc - previous doc, count, …]: the weight is count x boost
                packed += [doc - last, round(weight / boost)]
                last = doc
            table[term] = encode_ids(packed)
        postings[f] = table
    return {
        "n": p.n,
        "avg": {f: p.avg[f] for f in FIELDS},
        **part_settings(index),
        # the entries whose share of a question counts their parent's words (the cards: a
        # ruling's card; the parent counts its children's), as [docnum, parent docnum, …],
        # and at what share of their weight
        "inherit": encode_ids([d for child, parent in sorted(index.parent_of.items()) for d in (child, parent)]),
        # the server's postings (per field, stem -> encode_ids([doc delta, count, …])): the
        # browser scores without tokenizing every entry first
        "postings": postings,
        # each entry's field lengths (FIELDS order, encode_ids) and stated numbers (encode_numbers)
        "lengths": encode_ids([p.lengths[f][docnum] for docnum in range(len(rows)) for f in FIELDS]),
        "numbers": encode_numbers(index.stated),
        # exact token counts per field: the browser checks its tokenizer against them
        # (of the fields whose text the browser reads: the questions are searched, never shown)
        "token_totals": {f: p.tokens(f) for f in FIELDS if f in TEXT_COLUMNS},
        # one array per entry, in the order of `columns` (JSON objects for 6,600 entries
        # would cost the phone more to read than the search itself); the text is elsewhere
        # (the key as what follows `doc/section`, or `=` and the whole key; doc and kind as
        # their place in `docs` and `kinds`: entry_dicts)
        "columns": list(COLUMNS),
        "entries": rows,
        "docs": list(docs),
        "kinds": list(kinds),
        # the body's and the title's stems (ids into `stems`) for the phrase checks
        "tokens": _tokens(index, ids),
        # each entry's phrasings of the questions it answers (`_phrasings`)
        **_phrasings(index),
        # the text columns, CHUNK entries a file (`text_files`)
        "text_columns": list(TEXT_COLUMNS),
        "chunk": CHUNK,
        "chunks": (len(rows) + CHUNK - 1) // CHUNK,
    }


def _type_masks(search: Search) -> dict[str, Any]:
    """The cards' entries' card types, for a question that describes a card by its type
    (`Search._of_type_first`): `names` (`CARD_TYPES`) and each entry's `masks` (bit i: it
    is of type names[i]; a group's ruling has every bit), encode_ids in document order."""
    every = (1 << len(CARD_TYPES)) - 1
    masks = []
    for key in search.cards.postings.keys:
        types = search.entry_types[key]
        masks.append(every if types is None else sum(1 << i for i, t in enumerate(CARD_TYPES) if t in types))
    return {"names": list(CARD_TYPES), "masks": encode_ids(masks)}


def _name_lengths(search: Search) -> str:
    """The cards whose name, as their rulings write it (`group_rulings.name_stems`: no group
    or version), is fewer stems than their title: [docnum, how many of the title's stems,
    …] (encode_ids). The browser reads a card's name off its title's stems, which it has
    before any text file (`OfflineIndex.nameStems`)."""
    out = []
    for doc, key in enumerate(search.cards.postings.keys):
        e = search.cards.entries[key]
        if e.kind == "card" and len(stems := name_stems(e)) != len(analyze(e.title)):
            out += [doc, len(stems)]
    return encode_ids(out)


def entry_dicts(part: dict, texts: list[dict] | None = None) -> list[dict[str, Any]]:
    """A shipped part's entries as dicts (as the browser reads them), with their text
    columns when `texts` (that part's text files, in order) are given."""
    out = [dict(zip(part["columns"], row)) for row in part["entries"]]
    for e in out:
        e["doc"], e["kind"] = part["docs"][e["doc"]], part["kinds"][e["kind"]]
        rest = e["key"]
        e["key"] = rest[1:] if rest.startswith("=") else f"{e['doc']}/{e['section']}{rest}"
    lengths, numbers = decode_ids(part["lengths"]), decode_numbers(part["numbers"])
    for i, e in enumerate(out):
        e["lengths"] = lengths[i * len(FIELDS):(i + 1) * len(FIELDS)]
        e["numbers"] = numbers[i]
    for i, chunk in enumerate(texts or []):
        for j, row in enumerate(chunk["entries"]):
            out[i * part["chunk"] + j].update(zip(chunk["columns"], row))
    return out


def text_name(part: str, number: int) -> str:
    """A text file's name: `offline/search-text/<name>` (its version in its address, `?v=`)."""
    return f"{part}-{number}.json"


def text_files(search: Search) -> dict[str, bytes]:
    """The entries' text (title, body, context, link, anchors), CHUNK entries a file, by file name:
    the browser reads only the files of the entries it shows."""
    if isinstance(search, SearchIndex):
        search = Search(search)
    out = {}
    for name, index in zip(("rules", "cards"), _indexes(search)):
        rows = _text_rows(index)
        for i in range(0, len(rows), CHUNK):
            body = {"part": name, "first": i, "columns": list(TEXT_COLUMNS), "entries": rows[i:i + CHUNK]}
            out[text_name(name, i // CHUNK)] = json.dumps(body, ensure_ascii=False,
                                                           separators=(",", ":")).encode()
    return out


def text_paths(search: Search) -> list[str]:
    """The text files' addresses, without their version."""
    if isinstance(search, SearchIndex):
        search = Search(search)
    return [f"/offline/search-text/{text_name(name, i)}"
            for name, index in zip(("rules", "cards"), _indexes(search))
            for i in range((len(index.postings.keys) + CHUNK - 1) // CHUNK)]


def build_offline_index(search: Search) -> dict[str, Any]:
    """The JSON-ready offline index of the search: its parts (the rules, the cards), the
    words and tables they share, and the card names."""
    if isinstance(search, SearchIndex):
        search = Search(search)
    stems = stem_ids(search)
    ids = {st: i for i, st in enumerate(stems)}
    parts = {"rules": _part(search.rules, ids)}
    if search.cards is not None:
        parts["cards"] = _part(search.cards, ids)
        parts["cards"]["types"] = _type_masks(search)
        parts["cards"]["name_lengths"] = _name_lengths(search)
    texts: list[str] = []
    for index in _indexes(search):
        for key in index.postings.keys:
            e = index.entries[key]
            texts += [e.title, e.context, e.body, e.questions]
    # the synonym table's own words, so a judge's word absent from the rules still stems alike
    texts += list(SYNONYMS) + [alt for alts in SYNONYMS.values() for alt in alts]
    synonyms = [[list(key), [list(alt) for alt in alts]]
                for key, alts in synonym_stems().items()]
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
        "params": ranking_params(search.group_ruling_after_card, search.one_blood),
        # a posting's weight is count x field boost in a float32; BM25F then multiplies by
        # FIELD_BOOSTS again, so the browser needs both to score alike
        "posting_boosts": dict(POSTING_BOOSTS),
        "parts": parts,
        "stems": stems,
        "card_names": search.names.to_table() if search.names is not None else None,
        "card_groups": search.card_groups if search.names is not None else None,
        "source_titles": SOURCE_TITLES,
        "words": surface_words(texts),
        "stop": sorted(STOP_WORDS),
        "fold": fold_table(),
        "question": sorted(question_stems()),
        "number_words": NUMBER_WORDS,
        "number_tens": sorted(TENS),
        "synonyms": synonyms,
        # what a weak answer offers: the rules' words for the everyday words typed
        "everyday": everyday_tables(search.rules, search.cards),
        "case_sensitive": case_sensitive,
        "typed_as_is": sorted(TYPED_AS_IS),           # codes expanded only as typed ("ani", not "any")
        "discipline_spellings": DISCIPLINE_SPELLINGS,     # "for/pre" spelt out
    }


def offline_index_json(search: Search) -> str:
    """The offline index as compact JSON text."""
    return json.dumps(build_offline_index(search), ensure_ascii=False, separators=(",", ":"))
