"""The rules as the app serves them: the loaded corpus, its search index, its renderer.

`RulesService.open()` loads the corpus, (re)builds the search index only when the content
hash changed, and opens it. One service per app; it is read-only and thread-safe.
"""
from __future__ import annotations

import json
import os
import time
from functools import lru_cache
from pathlib import Path
from typing import Callable

from judgekit.rules.analysis import stem_word
from judgekit.rules.corpus import Corpus, load_corpus
from judgekit.rules.answer import answer
from judgekit.rules.card_ranking import Search
from judgekit.rules.questions import CARDS, questions_text
from judgekit.rules.build import build_index, index_stamp
from judgekit.rules.entries import Entry, entries_of
from judgekit.rules.index_store import index_is_current
from judgekit.rules.query import QueryError
from judgekit.rules.synonyms import CLAN_SHORT_NAMES, DISCIPLINE_SHORT_NAMES, QUESTION_WORDS, SYNONYMS, TYPED_AS_IS
from judgekit.game.cards import name_key
from judgekit.rules.corpus import content_files
from judgekit.cards.search_entries import CARD_FILES, cards_stamp
from judgekit.cards.catalog import load_catalog
from judgekit.cards.name_words import discipline_and_clan_words, facet_names, game_words
from judgekit.cards.names import SPLIT, CardNames
from judgekit.cards.search_entries import card_entries
from judgekit.rules.render import Renderer

_CORPUS_CACHE: dict[tuple, Corpus] = {}
_SERVICES: dict[tuple[str, str], "RulesService"] = {}


def cached_corpus(content_dir: str | Path) -> Corpus:
    """Parse the content once per process (keyed by the files' names, sizes and mtimes)."""

    files = content_files(Path(content_dir))
    key = (str(content_dir),) + tuple((str(f), f.stat().st_size, f.stat().st_mtime_ns) for f in files)
    corpus = _CORPUS_CACHE.get(key)
    if corpus is None:
        corpus = load_corpus(content_dir)
        _CORPUS_CACHE.clear()
        _CORPUS_CACHE[key] = corpus
    return corpus


def _cards_stamp(content_dir: str | Path) -> str:
    """The card files' stamp, or "" when there are none (a content folder of rules only)."""
    folder = Path(content_dir) / "cards"
    if not all((folder / name).is_file() for name in CARD_FILES):
        return ""
    return cards_stamp(content_dir)


def content_stamps(content_dir: str | Path, corpus: Corpus) -> tuple[str, str]:
    """(the search index's stamp, the card files' stamp) for this content: an index is
    current when it was built with that stamp."""
    cards_stamp = _cards_stamp(content_dir)
    return index_stamp(corpus, cards_stamp), cards_stamp


COMMON_DF = 3          # a word of at least this many rules entries is a rules word


def _word_counts(entries: list[Entry]) -> tuple[dict[str, int], set[str]]:
    """Each word (name key) of the current rules' entries, their text or the questions they
    answer -> the number of entries holding it; and the words of their own text alone."""
    df: dict[str, int] = {}
    own: set[str] = set()
    for e in entries:
        text = {name_key(w) for w in SPLIT.split(f"{e.title} {e.context} {e.body}")}
        own |= text
        for w in text | {name_key(w) for w in SPLIT.split(e.questions)}:
            df[w] = df.get(w, 0) + 1
    df.pop("", None)
    own.discard("")
    return df, own


def common_words(corpus, df: dict[str, int] | None = None) -> frozenset[str]:
    """Words that alone do not name a card in a query: the words of at least `COMMON_DF`
    entries of the current rules, their text or the questions they answer ("block",
    "master", "direct"), the analyzer's stop words and the judges' question words (name
    keys: lower case, no accents). A card the rules name in one or two examples
    ("Deflection") stays a name. `df`: `_word_counts` of the corpus' entries, when made."""
    from whoosh.analysis import STOP_WORDS

    df = _word_counts(entries_of(corpus))[0] if df is None else df
    words = {w for w, n in df.items() if n >= COMMON_DF}
    words.update(name_key(w) for w in STOP_WORDS)
    for phrase in QUESTION_WORDS:
        words.update(name_key(w) for w in SPLIT.split(phrase))
    words.discard("")
    return frozenset(words)


def _short_facets() -> frozenset[str]:
    """The short names players give disciplines and clans ("fort", "thaum", "malk", "tzi";
    `DISCIPLINE_SHORT_NAMES`, `CLAN_SHORT_NAMES`) as name keys: words of the cards as their
    full names are ("which fort card lets u prevent 1…" asks about cards,
    `CardNames.mentions_card_words`); not the codes whose stem is an everyday word's
    (`TYPED_AS_IS`: "ani", "spi")."""
    return frozenset(name_key(k) for k in (*DISCIPLINE_SHORT_NAMES, *CLAN_SHORT_NAMES) if k not in TYPED_AS_IS)


def _card_entries(content_dir: str | Path, corpus: Corpus) -> tuple[list[Entry], dict]:
    """The cards' search entries, and what is stored beside them: the card names table,
    each card's groups (card id -> group ids, in the card page's order) and the stems of the
    disciplines' and clans' names (`CardFactors.facets`)."""
    catalog = load_catalog(Path(content_dir))
    df, own = _word_counts(entries_of(corpus))
    common = common_words(corpus, df)
    # no word of the rules or their questions is a card's initials ("won"), common or not;
    # nor a player's word for a game term, a one-word key of the synonym table ("soak" for
    # prevent, "pts" for points: not the card Soak nor Pass Through Shadow's initials),
    # which names a card only as the whole query
    slang = frozenset(name_key(key) for key in SYNONYMS if len(SPLIT.split(key)) == 1)
    names = CardNames.from_catalog(catalog, common | game_words(catalog) | slang,
                                   (discipline_and_clan_words(catalog) | _short_facets()) - common,
                                   frozenset(own), frozenset(df) | common)
    groups = {str(c.id): [g.id for g, _ in c.groups] for c in catalog if c.groups}
    asked = {gid: questions_text(p) for gid, p in corpus.questions.get(CARDS, {}).items()}
    # the stems of the disciplines' and clans' names of one word ("auspex", "lasombra")
    facets = sorted({stems[0] for name in facet_names(catalog) if len(stems := stem_word(name)) == 1})
    return card_entries(catalog, Entry, asked), {"card_names": names.to_table(), "card_groups": groups,
                                                 "card_facets": facets}


def search_cache_size() -> int:
    """How many answers to keep: the content cannot change while the app runs, so answers
    to repeated queries (the same question at several tables, search-as-you-type going back
    and forth) are kept by the server (`RulesService`). JUDGEKIT_SEARCH_CACHE=0 turns
    this off (bench/serve.py measures both)."""
    return int(os.environ.get("JUDGEKIT_SEARCH_CACHE", "2048"))


def result_dicts(hits) -> tuple[dict, ...]:
    """The API's result objects of some hits."""
    return tuple({"doc": h.entry.doc, "section": h.entry.section, "title": h.entry.title,
                  "url": h.url, "snippet": h.snippet, "score": h.score} for h in hits)


def search_results(search: Search, query: str, limit: int) -> tuple[dict, ...]:
    """The API's result objects for a query (raises QueryError for an unusable one)."""
    return answer_fields(search, query, limit)["results"]


def answer_fields(search: Search, query: str, limit: int) -> dict:
    """What GET /api/search says of a query besides the query and the time taken: its
    `results`, how well the first one `match`es ("good", "weak", "none"), the rules'
    words to try (`suggestions`) and each numbered sub-question's best answer (`parts`)
    (`judgekit.rules.answer`; raises QueryError for an unusable query)."""
    found = answer(search, query, limit)
    return {"results": result_dicts(found.hits), "match": found.match,
            "suggestions": tuple(found.suggestions),
            "parts": tuple({"question": q, "results": result_dicts(hits)} for q, hits in found.parts)}


def answer_json(search: Search, query: str, limit: int) -> str:
    """`answer_fields` as the members of a JSON object (no braces), compact."""
    return json.dumps(answer_fields(search, query, limit), separators=(",", ":"))[1:-1]


def _hits(cached) -> int:
    """How many answers a kept-answers cache (`functools.lru_cache`) has given so far; 0 for
    a service that keeps none."""
    return cached.cache_info().hits if hasattr(cached, "cache_info") else 0


def _took_ms(started: float, hits_before: int, cached) -> float:
    """The search's time in ms since `started`, or 0.0 when the cache gave the answer (it
    was kept from an earlier asking: the pages show no time for it, rather than the time of
    a look-up, which a busy machine stretched past the pages' own cut). Another request's
    kept answer given meanwhile may make a fresh one read 0: a time not shown, nothing else."""
    if _hits(cached) > hits_before:
        return 0.0
    return round((time.perf_counter() - started) * 1000, 2)


class RulesService:
    """The rules and the search. `search` answers the search box (rules and cards);
    `index` is the rules' part alone (nearest sections, the offline index's rules)."""

    def __init__(self, corpus: Corpus, search: Search, cache_size: int | None = None):
        self.corpus = corpus
        self.search = search
        self.index = search.rules
        self.renderer = Renderer(corpus)
        if cache_size is None:
            cache_size = search_cache_size()
        self._fields = lru_cache(maxsize=cache_size)(self._fields_uncached) if cache_size \
            else self._fields_uncached
        self._json = lru_cache(maxsize=cache_size)(self._json_uncached) if cache_size \
            else self._json_uncached

    @classmethod
    def open(cls, content_dir: str | Path, index_dir: str | Path, force: bool = False,
             progress: Callable[[str], None] | None = None) -> "RulesService":
        corpus = cached_corpus(content_dir)
        stamp, cards_stamp = content_stamps(content_dir, corpus)
        key = (str(Path(index_dir).resolve()), stamp)
        if force or not index_is_current(stamp, index_dir):
            if progress:
                progress("building the search index (first start or changed content)…")
            entries, extra = _card_entries(content_dir, corpus) if cards_stamp else ([], {})
            build_index(corpus, index_dir, progress=progress, cards=entries,
                        cards_stamp=cards_stamp, extra=extra)
            _SERVICES.pop(key, None)
        service = _SERVICES.get(key)
        if service is None:
            # Read-only and thread-safe: apps of one process that share an index folder
            # (the test suite, a CLI command after `build`) share one opened service.
            service = cls(corpus, Search.open(corpus, index_dir, stamp))
            if len(_SERVICES) >= 4:
                _SERVICES.pop(next(iter(_SERVICES)))
            _SERVICES[key] = service
        return service

    def _fields_uncached(self, query: str, limit: int) -> dict:
        """The answer to a query (the search page)."""
        return answer_fields(self.search, query, limit)

    def _json_uncached(self, query: str, limit: int) -> str:
        """The answer to a query as the members of the API's JSON."""
        return answer_json(self.search, query, limit)

    def search_payload(self, query: str, limit: int = 10) -> dict:
        """The JSON of GET /api/search (raises ValueError for an unusable query); `took_ms`
        is 0 for an answer kept from an earlier asking (`_took_ms`)."""
        started, kept = time.perf_counter(), _hits(self._fields)
        try:
            fields = self._fields(query, limit)
        except QueryError as exc:
            raise ValueError(str(exc)) from None
        return {
            "query": query,
            "took_ms": _took_ms(started, kept, self._fields),
            "results": [dict(r) for r in fields["results"]],
            "match": fields["match"],
            "suggestions": list(fields["suggestions"]),
            "parts": [{"question": p["question"], "results": [dict(r) for r in p["results"]]}
                      for p in fields["parts"]],
        }

    def search_json(self, query: str, limit: int = 10) -> str:
        """`search_payload` already serialised (the API's hot path: the answer's JSON is kept
        with the answer)."""
        started, kept = time.perf_counter(), _hits(self._json)
        try:
            found = self._json(query, limit)
        except QueryError as exc:
            raise ValueError(str(exc)) from None
        took = _took_ms(started, kept, self._json)
        return f'{{"query":{json.dumps(query)},"took_ms":{took!r},{found}}}'
