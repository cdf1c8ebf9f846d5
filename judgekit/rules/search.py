"""Search the rules and the cards: one entry per section, example and defined term of the
rules, per card, per ruling (`entries.py`), stored with their analysis and postings
(`index_store.py`), ranked here (docs/search.md).

- A stemming, accent-folding analyzer; titles boosted over body text.
- Query words are expanded with the judges' synonym table (`synonyms.py`).
- One typo is tolerated in words of five letters or more that the index does not know.
- A query that is a section number ("3.7.2", "A.2.1", "section 4.1.1") goes straight to it;
  a card a query names ("deflection", "is it too late for direct intervention") comes first
  (`card_ranking.py`: the cards' part, and the rules and cards merged in one list).
- Snippets are cut from the entry's text around the matched words, with `<mark>`.

The query is never handed to a query parser: it is split into words by the analyzer, so
quotes, stars, brackets, AND/OR and colons are just characters and cannot fail.
"""
from __future__ import annotations

from array import array
import re
from pathlib import Path

from judgekit.rules.build import index_stamp
from judgekit.rules.analysis import WORD_RE, analyze, query_tokens
from judgekit.rules.corpus import Corpus
from judgekit.rules.covering import alternatives_mask, docs_mask, most_held
from judgekit.rules.entries import Entry, entries_of, plain_title
from judgekit.rules.index_store import StoredPart, load_index
from judgekit.rules.lazy import Lazy, LazyLRU
from judgekit.rules.numbers import StatedNumbers
from judgekit.rules.phrases import PhraseFinder, has_phrase, word_positions
from judgekit.rules.phrasings import PHRASING_FACTOR, Asked, Phrasings
from judgekit.rules.query_groups import QUESTION_FACTOR, QueryGroups
from judgekit.rules.hits import DIRECT_SCORE, EntryFactors, Hit
from judgekit.rules.scoring import NUMBER_BOOST, best_scored, number_score, score_entries
from judgekit.rules.query import (SECTION_QUERY, Group, check_query, question_stems, sentences)
from judgekit.rules.snippets import escaped_offsets, snippet_and_url


#: Entries whose escaped text (for snippets) each part keeps (LazyLRU): a page of results
#: fits many times over.
ENTRY_CACHE = 8192
#: Terms whose entries each part keeps (LazyLRU): the words of a day's questions, ~1,000 a
#: part for the 1,333 questions of the sets.
TERM_CACHE = 4096
#: Phrases (two adjacent query words, synonym phrases) whose entries each part keeps: the
#: sets' 1,333 questions use ~9,500 a part; a phrase's entries are a few numbers, often none.
PHRASE_CACHE = 16384


class SearchIndex(QueryGroups):
    """An open index plus the in-memory entries used for snippets, ranking and lookups."""

    CANDIDATES = 60     # best-scored entries re-ranked by coverage
    #: the query's rarest words whose entries `_covering` looks through: a message describing
    #: a card tells a story, and its five rarest words were often the story's ("knock",
    #: "never", "depending", "aimed"), none of the card's. 5 until 1 Dec 2026; at 8
    #: `search_card_behaviour28`, `32` one question more each and `37` two, none fewer, the
    #: held-out sets unchanged (6: none; 9 and 12 as 8), in the same time (the pools are
    #: capped by `RARE_DOCS`: CPU p95 4.04 ms at 5, 4.05 ms at 8, the same questions)
    RARE_GROUPS = 8
    RARE_DOCS = 1500    # … when a word is in at most this many entries
    #: … and in at least this many: a word in fewer is an everyday word hardly any entry uses
    #: ("harder", "feeding": four cards each), an entry holding it scores high anyway, and a
    #: pool of such words holds none of the described card's words (3 until 30 Nov 2026: a
    #: message describing a Sabbat bishop "who hits harder… when she goes feeding" had a pool
    #: of four-card words, and the bishop was no candidate; 5 and 8 gain the same two
    #: questions and lose none, 12 and 20 move more)
    RARE_MIN_DOCS = 8
    COVERING = 30       # entries holding the most of the question added to the candidates
    FIRST_COVERING = 10  # … and of those holding the first sentence's own rarest words (`first_sentence`)
    FACET_COVERING = 10  # … and of those holding every discipline and clan it names (the cards)
    EACH_FACET_COVERING = 5  # … and, when it names several, of those holding each one
    COVERAGE_POWER = 3  # score x coverage ** this: an entry holding all the question beats one repeating a word
    #: the entries of the order that their nearest phrasing re-orders (`_nearest_first`):
    #: the first 10 gave the same answers as all of them on every set, the first 5 one fewer
    NEAREST_AMONG = 10
    PER_SECTION = 3     # entries of one section (the section and its examples) before the other sections

    def __init__(self, corpus: Corpus, index_dir: str | Path | None = None, stamp: str | None = None,
                 part: StoredPart | None = None, max_postings: int | None = None,
                 factors: EntryFactors | None = None, coverage_power: float | None = None,
                 coverage_cap: float | None = None, order_power: float | None = None,
                 inherit: dict[str, str] | None = None, inherit_share: float = 0.0,
                 question: frozenset[str] | None = None, first_sentence: bool = False,
                 per_section: int | None = None, phrasing_factor: float = PHRASING_FACTOR):
        """One part of the index: `part` as loaded, else the rules' part stored in
        `index_dir` for `stamp` (default: the rules alone), else the rules analysed now.

        `max_postings`: for a large part (the cards), a term found in more entries scores
        only the `max_postings` entries where it weighs most (and only those are checked
        for phrases): "vampire" is in 3,900 cards, and a query must not add up all of them.
        `factors`: the part's own factor for a candidate entry's score (the cards':
        `judgekit.rules.card_factors.CardFactors`); none for the rules.
        `coverage_cap`: in the share of the question an entry holds, no word weighs more
        than this (the cards': a rare everyday word, "till", "eats", absent from the card
        the question describes, must not sink it); the hit's `coverage` stays uncapped.
        `order_power`: the entries are ordered by score x that share ** this, while the
        hit's score (which the merge with the other part compares) keeps `coverage_power`.
        `inherit`: entry key -> the key of the entry it belongs to (the cards': a card's
        ruling -> the card); a word of the question that such an entry lacks and its parent
        holds counts toward the entry's share of the question at `inherit_share` of its
        weight ("the ranged strike that steals blood, both play it at once": the ruling
        says what happens, the card's text what it is), and so does a word that the parent
        lacks and one of its children holds, toward the parent's share.
        `question`: the stems of the words that count little here (default: `question_stems()`;
        the cards': `question_stems(cards=True)`).
        `first_sentence`: for a question of several sentences, `_covering` looks through the
        entries holding the first sentence's rarest words too (the cards': a table question
        describes the card first and asks last).
        `per_section`: how many entries of one section come before every other section has
        had its turn (default `PER_SECTION`; the cards': a card and its rulings are one page).
        `phrasing_factor`: how much an entry's nearest phrasing re-orders it
        (`judgekit.rules.phrasings`; the cards': 0, not at all)."""
        self.corpus = corpus
        if part is None:
            stored = load_index(index_dir, stamp or index_stamp(corpus)) if index_dir else None
            part = stored.parts["rules"] if stored else StoredPart.of(entries_of(corpus))
        self.entries = {e.key: e for e in part.entries}
        self._tokens = {key: a["body"] for key, a in part.analysis.items()}
        derived = part.derived()          # stored with the index: df, weights, stated numbers
        self.df = df = derived["df"]
        self.postings = part.postings
        self._weights = dict(derived["weights"])    # term -> (docnums, weights): two arrays
        self.max_postings = max_postings
        self.per_section = per_section if per_section is not None else self.PER_SECTION
        self.factors = factors
        self.coverage_power = coverage_power if coverage_power is not None else self.COVERAGE_POWER
        self.coverage_cap = coverage_cap
        self.order_power = order_power if order_power is not None else self.coverage_power
        docnum = self.postings.docnum
        self.inherit_share = inherit_share if inherit else 0.0
        self.first_sentence = first_sentence
        # docnum -> its parent's docnum (`inherit`), and each entry's kin: a child's parent,
        # a parent's children (the entries whose words it counts)
        self.parent_of: dict[int, int] = {docnum[k]: docnum[p] for k, p in (inherit or {}).items()
                                          if k in docnum and p in docnum} if self.inherit_share else {}
        kin: dict[int, list[int]] = {}
        for child, parent in sorted(self.parent_of.items()):
            kin.setdefault(child, []).append(parent)
            kin.setdefault(parent, []).append(child)
        self.kin_of: dict[int, tuple[int, ...]] = {d: tuple(ds) for d, ds in kin.items()}
        # words another part of the index knows (the cards': the rules' words): not typos
        # ("seating" is the rules' word, not a typo of the card "Seattle Committee")
        self.known_words: frozenset[str] | dict = frozenset()
        # words the other part of the index holds (`_rarity`), and that part (its numbers)
        self.other_words: frozenset[str] | dict = frozenset()
        self.other_part: SearchIndex | None = None
        # field -> truncated term -> the entries kept for it that hold it in that field
        self._phrase_docs: dict[str, dict[str, list[int]]] = {"body": {}, "title": {}}
        if max_postings:
            for term, (docs, ws) in self._weights.items():
                if len(docs) > max_postings:
                    top = sorted(zip(docs, ws), key=lambda x: (-x[1], x[0]))[:max_postings]
                    top.sort()
                    self._weights[term] = (array("i", (d for d, _ in top)), array("d", (w for _, w in top)))
                    kept = {d for d, _ in top}
                    for fname, table in self._phrase_docs.items():
                        table[term] = [d for d, _ in self.postings.terms[fname].get(term, ()) if d in kept]
        # made when first needed: an entry's word positions (body, title), a term's entries
        # (the word positions: every entry's at most, checked for phrases by every query; the
        # escaped text only for the entries shown, bounded as they would grow with the queries)
        self._positions = Lazy(lambda key: word_positions(self._tokens[key]))
        self._title_positions = Lazy(lambda key: word_positions(analyze(self.entries[key].title)))
        # entry key -> escaped_offsets, made when first shown
        self._escaped = LazyLRU(lambda key: escaped_offsets(self.entries[key].body, self._tokens[key]),
                                ENTRY_CACHE)
        # a term's entries (any field; the title's, the body's), for the terms queries use
        self._term_docs = LazyLRU(lambda term: frozenset(
            d for table in self.postings.terms.values() for d, _ in table.get(term, ())), TERM_CACHE)
        self._term_masks = LazyLRU(lambda term: docs_mask(self._term_docs[term]), TERM_CACHE)   # the same, as bit sets
        self._title_docs = LazyLRU(lambda term: frozenset(
            d for d, _ in self.postings.terms["title"].get(term, ())), TERM_CACHE)
        self._body_docs = LazyLRU(lambda term: frozenset(
            d for d, _ in self.postings.terms["body"].get(term, ())), TERM_CACHE)
        # a group's entries (any field; the body's; the title's) by its alternatives: the
        # union of theirs, made once for the words queries use (a common word with its
        # synonyms and longer forms holds thousands of cards, and a long question has twenty)
        self._alts_docs = LazyLRU(lambda alts: self._alt_docs(alts, self._term_docs), TERM_CACHE)
        self._alts_body = LazyLRU(lambda alts: self._alt_docs(alts, self._body_docs), TERM_CACHE)
        self._alts_title = LazyLRU(lambda alts: self._alt_docs(alts, self._title_docs), TERM_CACHE)
        # a phrase's stems -> its words' idf and the entries holding it (body, title): the
        # same for every query that looks for it ("+1 bleed", a word and the next one typed)
        self._phrases = LazyLRU(PhraseFinder(df, self.postings, self._positions, self._title_positions,
                                             self._body_docs, self._title_docs, self._phrase_docs), PHRASE_CACHE)
        self.n_entries = max(1, len(self.entries))
        # the numbers each entry's text states (by docnum), and by value: value -> [(docnum, units)]
        self.stated = derived["stated"]
        self._numbers = StatedNumbers(self.stated)
        # the vocabulary, for typos (by first letter and length) and extensions (sorted)
        self._by_start: dict[tuple[str, int], list[str]] = {}
        for word in df:
            self._by_start.setdefault((word[:1], len(word)), []).append(word)
        self._sorted_words = sorted(df)
        self.phrasing_factor = phrasing_factor
        self.phrasings: Phrasings | None = None
        self.use_tables(question if question is not None else question_stems())
        self._by_number: dict[str, list[Entry]] = {}
        for e in self.entries.values():
            if e.kind == "section":
                self._by_number.setdefault(e.section.lower(), []).append(e)

    def use_tables(self, question: frozenset[str] | None = None) -> None:
        """`QueryGroups.use_tables`, and the phrasings read again with the question words
        (`judgekit.rules.phrasings`: they leave them out) when this part ranks by them."""
        super().use_tables(question)
        if self.phrasing_factor:
            self.phrasings = Phrasings({k: e.questions for k, e in self.entries.items() if e.questions},
                                       self.df, self.n_entries, self.question_stems)

    def doc_count(self) -> int:
        return len(self.entries)

    # query construction -------------------------------------------------------------
    def held_by(self, groups: list[Group], keys: list[str]) -> float:
        """The share of the groups' weight (the query's here: `groups_of`) that at least one
        of the entries `keys` holds (1.0 when the groups weigh nothing)."""
        total = sum(g.weight for g in groups)
        if not total:
            return 1.0
        docnum = self.postings.docnum
        docs = {docnum[k] for k in keys}
        return sum(g.weight for g in groups if not docs.isdisjoint(self._group_docs(g))) / total

    def holds(self, g: Group, key: str) -> bool:
        """Whether the entry `key` holds the group (any of its alternatives, or its number)."""
        return self.postings.docnum[key] in self._group_docs(g)

    def shares(self, groups: list[Group], keys: list[str], parent: str, inherit: float) -> list[float]:
        """Each entry's share of the question's weight (`keys`; its groups here: `groups_of`),
        as a hit's `coverage` counts it, a word it lacks counting at `inherit` of its weight
        when the entry `parent` holds it."""
        total = sum(g.weight for g in groups) or 1.0
        docnum = self.postings.docnum
        p = docnum[parent]
        held = []
        for g in groups:
            docs = self._group_docs(g)
            held.append((g.weight, docs, g.number is not None))
        out = []
        for key in keys:
            d, got = docnum[key], 0.0
            for weight, docs, number in held:
                if d in docs:
                    got += weight * docs[d] if number else weight
                elif p in docs:
                    got += inherit * (weight * docs[p] if number else weight)
            out.append(got / total)
        return out

    def says(self, key: str, stems: tuple[str, ...]) -> bool:
        """Whether the entry's text (its body) says these stems in a row ("possess": "…eg.
        Possession cannot target it")."""
        return bool(stems) and has_phrase(self._positions[key], stems)

    def in_own_text(self, stem: str) -> bool:
        """Whether an entry's own text (title, body, context: not the questions it answers)
        holds the stem: the rules' word, not only an everyday one."""
        terms = self.postings.terms
        return stem in terms["body"] or stem in terms["title"] or stem in terms["context"]

    def in_own_text_phrase(self, phrase: str) -> bool:
        stems = [s for s, _, _ in analyze(phrase)]
        return bool(stems) and all(self.in_own_text(s) for s in stems)

    def titles_asked_with(self, stem: str, n: int) -> list[str]:
        """The titles (without number or example) of the entries whose questions hold the
        stem, when at most `n` + 1 do, the `n` first by weight: the rules' words for an
        everyday word (as a search finds them again)."""
        plist = self.postings.terms.get("questions", {}).get(stem, ())
        if len(plist) > n + 1:
            return []     # a word of many questions ("keep", "card") names no rule
        out: list[str] = []
        for doc, _ in sorted(plist, key=lambda dw: (-dw[1], dw[0])):
            title = plain_title(self.entries[self.postings.keys[doc]].title)
            if title and title not in out:
                out.append(title)
            if len(out) >= n:
                break
        return out

    def _group_docs(self, g: Group) -> dict[int, float] | frozenset[int]:
        """The entries (docnums) holding any alternative of the group (phrases: all its words);
        for a number, docnum -> how close the number they state is."""
        if g.number is not None:
            return g.near
        return self._alts_docs[tuple(g.alts)]

    def holding(self, g: Group) -> int:
        """How many entries hold the group (`_group_docs`): a word in fewer than
        `RARE_MIN_DOCS` is in no covering pool."""
        return len(self._group_docs(g))

    def _alt_docs(self, alts: tuple[tuple[str, ...], ...], table) -> frozenset[int]:
        """The entries holding any of a group's alternatives (`table`: term -> entries)."""
        empty: frozenset[int] = frozenset()
        df = self.df
        found = []
        for alt in alts:
            docs = table[alt[0]] if alt[0] in df else empty
            for a in alt[1:]:
                docs = docs & (table[a] if a in df else empty)
            found.append(docs)
        return found[0] if len(found) == 1 else empty.union(*found)

    def _candidates(self, groups: list[Group], text: str,
                    group_docs: list) -> list[tuple[str, float]]:
        """The best-scored entries (key, score) before coverage re-ranking."""
        question = {alt[0] for g in groups if g.number is None and g.factor != 1.0
                    for alt in g.alts if len(alt) == 1}
        phrases = self._query_phrases(groups, text, question)
        # a number stated by more entries than a word's postings keep (`max_postings`: "1"
        # in thousands of cards) is added only to the entries something else scores: an
        # entry holding nothing but such numbers scores at most `bound`, and when the
        # CANDIDATES-th best scores more, it is not among them (else all are scored)
        big = [i for i, (g, docs) in enumerate(zip(groups, group_docs))
               if g.number is not None and self.max_postings and len(docs) > self.max_postings]
        found = [(alt, boost, self._phrases[alt]) for alt, boost in phrases]
        scores = score_entries(groups, group_docs, self._weights, found, big)
        best = best_scored(scores, self.CANDIDATES)
        if big:
            bound = sum(NUMBER_BOOST * groups[i].weight * max(group_docs[i].values()) for i in big)
            if len(best) < self.CANDIDATES or best[-1][1] <= bound:
                big = []
                scores = score_entries(groups, group_docs, self._weights, found, big)
                best = best_scored(scores, self.CANDIDATES)
        chosen = {d for d, _ in best}
        only_numbers = [(NUMBER_BOOST * groups[i].weight, group_docs[i]) for i in big]
        best += [(d, scores[d] if d in scores else number_score(d, only_numbers))
                 for d in self._covering(groups, group_docs, self._first_sentence_groups(groups, text))
                 if d not in chosen]
        keys = self.postings.keys
        return [(keys[d], sc) for d, sc in best]

    def _query_phrases(self, groups: list[Group], text: str, question: set[str]) -> list:
        """The phrases scored (stems, boost): synonym phrases and adjacent query words."""
        phrases = [(alt, boost) for g in groups for alt, boost in g.alts.items() if len(alt) > 1]
        stems = [st for st, _, _ in query_tokens(text)]
        kept = {s for g in groups for alt in g.alts for s in alt}   # a long question's chosen words
        phrases += [((a, b), 0.6 * (QUESTION_FACTOR if a in question or b in question else 1.0))
                    for a, b in zip(stems, stems[1:]) if a != b and a in kept and b in kept]
        return phrases

    def _first_sentence_groups(self, groups: list[Group], text: str) -> list[int]:
        """The query's groups (their places) made of the words of its first sentence, when it
        has several and this part looks through them (`first_sentence`); else none."""
        if not self.first_sentence:
            return []
        parts = sentences(text)
        if len(parts) < 2:
            return []
        words = {w.lower() for w in WORD_RE.findall(parts[0])}
        return [i for i, g in enumerate(groups) if all(w in words for w in g.words.lower().split())]

    def _covering(self, groups: list[Group], group_docs: list, first: list[int] = ()) -> list[int]:
        """The entries that hold the most of the question's weight among those holding one
        of its rarest words (`RARE_GROUPS`, of those in at least `RARE_MIN_DOCS` entries: a
        player's everyday word, "till", "eats", is in no card or one, and the entries holding
        such a word are among the best scored anyway), the best `COVERING` of them: a card whose long
        text holds every word of a described effect ("steals a retainer, and an ally at
        superior") may score less than a short ruling repeating two of them, and must still
        be re-ranked by its coverage.
        `first`: the groups of the question's first sentence (`_first_sentence_groups`): the
        `FIRST_COVERING` entries holding the most of the question among those holding one of
        its own rarest words that are not the question's are added ("armor where
        once each combat u prevent 2 vs guns. guy shot my vamp twice, can my 2 prevent cover
        both shots": the asked part's rare words, in no card of the described effect, would
        take every place)."""
        plain = [i for i, g in enumerate(groups) if g.number is None]
        # bit sets (`most_held`)
        masks = {i: alternatives_mask(groups[i].alts, self.df, self._term_masks) for i in plain}
        weights, held = [groups[i].weight for i in plain], [masks[i] for i in plain]

        def rarest(among) -> list[int]:
            return sorted((i for i in among if groups[i].number is None and groups[i].factor == 1.0
                           and len(group_docs[i]) >= self.RARE_MIN_DOCS),
                          key=lambda i: -groups[i].weight)[:self.RARE_GROUPS]

        def pool_of(words: list[int]) -> int:
            pool = 0
            for i in words:
                if len(group_docs[i]) <= self.RARE_DOCS:
                    pool |= masks[i]
            return pool
        # the most held first, ties by entry order (the browser's offline search takes the
        # same ones)
        words = rarest(range(len(groups)))
        found = most_held(pool_of(words), weights, held, self.COVERING)
        # the first sentence's rarest words that are not the question's (those are looked
        # through above)
        more = [i for i in rarest(first) if i not in words]
        if more:
            found += [d for d in most_held(pool_of(more), weights, held, self.FIRST_COVERING) if d not in found]
        # and the entries holding every discipline and clan the question names (the cards'
        # `facet_groups`: "the aus reaction that…"): words in hundreds of cards, in no pool
        # above, that the described card holds
        facets = self.factors.facet_groups(groups) if self.factors is not None else []
        if facets:
            among = masks[facets[0]]
            for i in facets[1:]:
                among &= masks[i]
            found += [d for d in most_held(among, weights, held, self.FACET_COVERING) if d not in found]
        if len(facets) > 1 and self.EACH_FACET_COVERING:
            # and those holding each one: the card a player tells of may not hold them all
            # ("my Giovanni went all ghostly with a necromancy card": a Necromancy card that
            # names no clan)
            for i in facets:
                found += [d for d in most_held(masks[i], weights, held, self.EACH_FACET_COVERING) if d not in found]
        return found

    # search -------------------------------------------------------------------------------
    def search(self, text: str, limit: int = 10, named: list[Entry] = (),
               snippets: bool = True, groups: list[Group] | None = None,
               doc_factors: dict[str, float] | None = None,
               plain: bool = False) -> tuple[list[Hit], list[str]]:
        """Best entries for `text`, and the stems that were looked for (for highlighting).
        `named`: entries the query names (cards), first after a section it names.
        `snippets=False`: hits without snippets (`with_snippet` makes one when shown).
        `groups`: the query's groups here when already made (`groups_of`).
        `doc_factors`: a document's name -> the factor its entries' scores are ranked by.
        `plain`: the query asks for a plain card (`query.asks_plain`; the part's factors)."""
        text = check_query(text)
        direct = self._direct(text) + [e for e in named if e.key in self.entries]
        groups = self._groups(text) if groups is None else groups
        wanted = frozenset(s for g in groups for s in g.stems())
        stems = sorted(wanted)
        hits: list[Hit] = []
        seen: set[str] = set()
        for e in direct:
            hits.append(Hit(e, DIRECT_SCORE, self._snippet(e, wanted) if snippets else "", e.url, direct=True))
            seen.add(e.key)
        if not groups or len(hits) >= limit:
            return hits[:limit], stems
        total = sum(g.weight for g in groups) or 1.0
        # each word's weight in the share that ranks (capped: `coverage_cap`)
        cap = self.coverage_cap
        capped = [g.weight if cap is None else min(g.weight, cap) for g in groups]
        capped_total = sum(capped) or 1.0
        group_docs = [self._group_docs(g) for g in groups]
        docnum = self.postings.docnum
        # per group, the entries holding it in their body / title (the cards' factors), made
        # once per query when a candidate first needs them
        body_of = Lazy(lambda i: self._alts_body[tuple(groups[i].alts)])
        title_of = Lazy(lambda i: self._alts_title[tuple(groups[i].alts)])
        factors = self.factors
        ranked = []
        candidates = [(key, score) for key, score in self._candidates(groups, text, group_docs)
                      if key not in seen]
        # the query weight each candidate holds, group by group (in the groups' order, as the
        # sums were always made): the candidates holding a group found by a set intersection
        # that goes over the candidates (`frozenset.intersection(dict)`; `keys() & frozenset`
        # would go over every entry holding the group: thousands for a common word's cards)
        covered_of = dict.fromkeys((docnum[key] for key, _ in candidates), 0.0)
        held_of = dict.fromkeys(covered_of, 0.0)      # the same, in capped weights
        # the candidates that have kin (`inherit`)
        kin_of, share = self.kin_of, self.inherit_share
        kin_to: dict[int, list[int]] = {}     # an entry -> the candidates it is kin to
        if kin_of:
            for d in covered_of:
                for x in kin_of.get(d, ()):
                    kin_to.setdefault(x, []).append(d)
        for g, docs, w in zip(groups, group_docs, capped):
            if g.number is not None:
                for d in covered_of.keys() & docs.keys():
                    covered_of[d] += g.weight * docs[d]
                    held_of[d] += w * docs[d]
            else:
                for d in docs.intersection(covered_of):
                    covered_of[d] += g.weight
                    held_of[d] += w
                if not kin_to:
                    continue
                # the candidates lacking the word whose kin hold it (`inherit`), each counting
                # it once, at `inherit_share` (found from the kin holding it: a few entries)
                for d in {d for x in docs.intersection(kin_to) for d in kin_to[x] if d not in docs}:
                    covered_of[d] += share * g.weight
                    held_of[d] += share * w
        factor_of = {} if factors is None else factors(groups, covered_of, self.postings.keys, body_of, title_of,
                                                         group_docs, plain)
        power, order_power = self.coverage_power, self.order_power
        for key, score in candidates:
            d = docnum[key]
            held = held_of[d] / capped_total
            score *= factor_of.get(d, 1.0)
            if doc_factors:
                score *= doc_factors.get(self.entries[key].doc, 1.0)
            # (score, key, coverage, the order's key)
            ranked.append((score * held ** power, key, covered_of[d] / total, score * held ** order_power))
        ranked.sort(key=lambda x: (-x[3], x[1]))
        if self.phrasings is not None:
            ranked = self._nearest_first(ranked, groups)
        # at most `per_section` entries of one section before every other section has had its
        # turn; the entries past that come after them, when the limit leaves room (a third
        # example of a section is still found, just not above other sections)
        per_section: dict[tuple[str, str], int] = {}
        first, later = [], []
        room = limit - len(hits)
        for score, key, coverage, _ in ranked:
            e = self.entries[key]
            sec = (e.doc, e.section)
            per_section[sec] = per_section.get(sec, 0) + 1
            if per_section[sec] <= self.per_section:
                first.append((score, e, coverage))
                if len(first) >= room:   # the rest would not be shown
                    break
            else:
                later.append((score, e, coverage))
        for score, e, coverage in first + later:
            if len(hits) >= limit:
                break
            snippet, url = self._snippet_and_url(e, wanted) if snippets else ("", e.url)
            hits.append(Hit(e, round(float(score), 4), snippet, url, coverage))
        return hits, stems

    def _nearest_first(self, ranked: list[tuple], groups: list[Group]) -> list[tuple]:
        """`ranked` (score, key, coverage, the order's key), best first, its first
        `NEAREST_AMONG` re-ordered by their nearest phrasing (`judgekit.rules.phrasings`): the
        order's key times 1 + `phrasing_factor` x its nearness (the key kept so, the rest's
        as it was). The scores keep their places: the merge with the other part compares the
        same scores, in the new order."""
        asked = Asked(groups)
        if not asked.total:
            return ranked
        near, factor = self.phrasings.nearness, self.phrasing_factor
        among = self.NEAREST_AMONG
        order = sorted([(x[0], x[1], x[2], x[3] * (1.0 + factor * near(x[1], asked))) for x in ranked[:among]],
                       key=lambda x: (-x[3], x[1])) + ranked[among:]
        return [(score, *x[1:]) for score, x in zip([x[0] for x in ranked], order)]

    def with_snippet(self, hit: Hit, stems) -> Hit:
        """The hit with its snippet (and the paragraph it links to)."""
        snippet, url = self._snippet_and_url(hit.entry, frozenset(stems))
        return Hit(hit.entry, hit.score, snippet, url, hit.coverage, hit.direct)

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
        return snippet_and_url(e, self._tokens[e.key], self._positions[e.key], stems, width,
                               self._escaped[e.key])
