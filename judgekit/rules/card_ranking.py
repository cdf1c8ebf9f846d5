"""Rules and cards in one search box: how the cards' entries rank against the rules'.

The rules and the cards are two parts of the index (`judgekit.rules.search.SearchIndex`
each), each ranked by its own statistics. This module holds what is particular to the cards
and to putting both in one list (docs/search.md, "Cards"):

- the cards' part's own parameters (its coverage powers and cap, what a ruling and its
  card count of each other's words), and its factors (`judgekit.rules.card_factors`);
- `Search`: both parts searched, the cards' scores scaled by `CARD_FACTOR`, merged by
  score (`judgekit.rules.merge`); a card the query names comes first, followed by its rulings when the
  query is only its name (`OWN_RULINGS`); where a card's groups' rulings go among the
  answers is `judgekit.rules.group_rulings`'s.
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from judgekit.cards.descriptions import card_types
from judgekit.cards.names import CardNames, NameHit
from judgekit.rules.corpus import Corpus
from judgekit.rules.entries import Entry
from judgekit.rules.index_store import StoredPart, load_index, no_gc
from judgekit.rules.build import index_stamp
from judgekit.rules.card_factors import CardFactors
from judgekit.rules.group_rulings import (GROUP_RULING_AFTER_CARD, RULING_INHERITS, asked_group_ruling,
                                          group_ruling_after, named_card_ruling, other_words,
                                          ruling_naming_another)
from judgekit.rules.hits import Hit
from judgekit.rules.merge import merge
from judgekit.rules.query import (ONE_BLOOD, SECTION_QUERY, Group, asks_plain, check_query, one_blood_pattern,
                                  question_stems, sentences, spell_out_disciplines,
                                  talk_stems, with_numbers_apart, with_what_if, without_address,
                                  without_name_asked, with_one_blood, without_ruled_out)
from judgekit.rules.search import SearchIndex

#: Card results' scores against the rules': the cards and rulings rank among themselves by
#: their own statistics (thousands of entries sharing the rules' words, "torn", "combat",
#: "replace"); scaled by this they answer card questions without burying rules answers.
CARD_FACTOR = 0.25
CARD_MAX_POSTINGS = 200   # see SearchIndex(max_postings=…)
#: A card's coverage counts more than a rule's (score x coverage ** this): a described
#: effect is answered by the card whose text holds all of it, among thousands sharing a word.
CARD_COVERAGE_POWER = 5
#: In the cards' share of a question, no word weighs more than this (a word found in about
#: a hundred of the 6,400 card entries weighs 4): a player describing a card uses everyday
#: words that its text lacks ("till", "eats", "appears"), rare in the cards, that would
#: otherwise sink the card holding every other word (`SearchIndex(coverage_cap=…)`).
CARD_COVERAGE_CAP = 4.0
#: The cards are ordered among themselves by score x share ** this (a described card holds
#: nearly all of the question); their scores, which the merge compares with the rules',
#: keep `CARD_COVERAGE_POWER`.
CARD_ORDER_POWER = 9
#: A card and its rulings are one answer (the card's page shows them all): the cards' part
#: gives every other card its turn before a second entry of one card (`SearchIndex(per_section=…)`;
#: 3, the rules', let a card's own ruling take the second place from another card). Chosen on
#: the development sets (30 Nov 2026, night): `search_card_behaviour33` one question more,
#: MRR up on nine card sets (at most +0.004) and down on one (`20`, −0.002); 2 moved three
#: sets' MRR by less than 0.005.
CARD_PER_SECTION = 1
#: Cards printed from one template (the four Kholo titles, the Fee Stakes, the Praxis
#: Seizures) tie exactly, the same score and the same share of a question, and are one answer
#: as far as the question tells: the first this many places go to different answers, a card
#: tied with one before it moving below them (`siblings_later`), where the next answers can
#: take its place ("the no discipline reaction that gives any ready vamp +2 votes during a
#: referendum": three Kholo titles, then the card described). Chosen on the development sets
#: (3 Dec 2026): four questions more in the first three (sets 26, 33 and `search_card_effects5`),
#: none lost, the held-out sets unchanged; with the first place alone, about twenty
#: questions whose answer was the second or third of tied cards lost it from the first three,
#: and with two, six. A section's second entry (its example, its next paragraph group) is
#: not a different answer either: it too goes below the first places (7 Dec 2026: over the
#: 9,490 questions of every set, 9,186 -> 9,194 in the first three, ten sets up, none down in
#: hit@3 or MRR; "4th at a five-seat game": 3.1.2, 3.7.4 and its example, now 3.1.2, 3.7.4,
#: 3.7.3).
DISTINCT_FIRST = 3


def siblings_later(hits: list[Hit], first: int = DISTINCT_FIRST) -> list[Hit]:
    """`hits` with their first `first` places for different answers: a card (not one the
    query names) tied exactly with a card before it, the same score and share of the query,
    or an entry (not a named one) of a section already among them (a section's example after
    its text), goes below them, the rest keeping their order (`DISTINCT_FIRST`)."""
    top: list[Hit] = []
    ties: set[tuple[float, float]] = set()
    sections: set[tuple[str, str]] = set()
    for h in hits:
        if len(top) == first:
            break
        if not h.direct:
            tie, section = (h.score, h.coverage), (h.entry.doc, h.entry.section)
            if section in sections or (h.entry.kind == "card" and tie in ties):
                continue
            sections.add(section)
            if h.entry.kind == "card":
                ties.add(tie)
        top.append(h)
    return top + [h for h in hits if not any(h is t for t in top)]


def ruling_cards(entries: list[Entry]) -> dict[str, str]:
    """Each card ruling's key -> its card's key (a group's rulings belong to no one card)."""
    cards = {e.section: e.key for e in entries if e.kind == "card"}
    return {e.key: cards[e.section] for e in entries if e.kind == "ruling" and e.section in cards}


def body_lengths(part: StoredPart) -> dict[str, int]:
    """Each entry's key -> its body's length, in the words its BM25 weights count (the
    part's field lengths, which the offline index ships too)."""
    return dict(zip(part.postings.keys, part.postings.lengths["body"]))


#: A question that describes a card by its type ("the reaction that ends combat…",
#: `CardNames.described_type`) looks through this many of the cards' best entries and puts
#: those of that type (and the groups' rulings, of every type) before the others.
TYPED_CANDIDATES = 30
#: … and is about cards: the cards' scores are scaled by this instead of `CARD_FACTOR` when
#: merged with the rules' (the everyday words of such a description, "my guy", "keeps",
#: "open hand", are also in the questions the rules' entries answer). No question of the
#: rules' sets opens that way; a long table question that does ("political that hands a
#: location over to whichever player i name. if i pick the guy who already controls it…")
#: shares its everyday words with the announcement examples. Chosen on the development sets
#: (29 Nov 2026): 2.0 -> 3.0 took `tests/search_card_behaviour11` from 0.917 to 0.950; 3.0
#: to 12.0 moved no other set's hit@3, and MRR rose up to 8.0 (b11 0.837 -> 0.853,
#: `search_card_effects` 0.911 -> 0.925), the same at 12.0. On 30 Nov 2026 a ruling set
#: whose questions describe the card in a clause, then ask about timing in the words of the
#: announcements' examples ("…whats the latest i can play it, is after strikes are picked
#: ok?", `search_card_behaviour19`), lost three cards to those examples: 24.0 (with no rule
#: leading a card by its coverage in such a question, `merge(described=…)`) took it from
#: 0.880 to 0.940 and `search_card_behaviour6` from 0.933 to 0.950, no development question
#: lost; the same from 24.0 to 40.0, two questions lost at 100.0, six with the rules always
#: below the cards.
DESCRIBED_CARD_FACTOR = 24.0
#: … and a question that names a discipline or a clan (a word of no rule, `mentions_card_words`)
#: without describing a card by its type: its cards' scores by this. Chosen on the
#: development sets (30 Nov 2026, evening): 2.0 to 3.0 found one question more in each of
#: the fresh sets 29 and 30 ("After today's game: … I played the Chimerstry reaction costing
#: 2 blood that drops the acting minion's stealth to 0…": an announcements' example was first)
#: and raised the MRR of eleven card sets, no question lost, no rules set moved; 5.0 one more
#: of set 30, but a rules set's MRR fell (a card above the rule in "…my brujah prey…").
ABOUT_CARDS_FACTOR = 3.0
#: … and by this when the question is a message of several sentences: a player telling the
#: game ("Question from the final. The Lasombra cardinal who can throw away X master cards
#: during an action to get +X intercept tried to block my bleed. 1) …") writes the everyday
#: words of the announcements' examples, themselves told as games ("tried", "threw",
#: "actually", "ahead"), and an example came first. Chosen on the development sets (30 Nov
#: 2026, night): 8.0 found one question more in `search_card_behaviour30` and two in the
#: fresh `35`, raised four sets' MRR (the held-out `13`'s too), no question lost, no rules
#: set moved; 5.0 one fewer; 12.0 the same as 8.0; 24.0 lost one of set 21.
ABOUT_CARDS_MESSAGE_FACTOR = 8.0
#: … and such a question (`mentions_card_words`) ranks the announcement guidelines' entries
#: by their scores times this: they tell how to announce an action, a vote, a shortcut, and
#: their examples tell games ("I bleed for one and lock Catalina Vega", "No press - no
#: press"), so a judge call telling its game ("my vampire in torpor is taking the basic
#: Necromancy action to leave torpor…") shares its everyday words with them, and an
#: announcement came before the card or ruling asked about. Of the questions the
#: development and held-out sets answer with an announcement, 8 of 201 name a discipline,
#: a clan or a word only the cards say; all eight are still answered in the first three.
#: Chosen on the development sets (1 Dec 2026): 0.5 found five questions more, 0.25 eight
#: (sets 6, 22, 30, 34, 35, 39 twice, and the held-out set 3), no question lost; 0.1 lost
#: one of `search_phone7`. The fresh sets of that day did not move: `search_phone9`,
#: `search_card_behaviour43`, and two written after the change, `search_phone10` (rules
#: questions naming a clan or a discipline in passing: its risk) and
#: `search_card_behaviour44` (no question lost or found; MRR 0.904 -> 0.901 and 0.803 -> 0.800).
ABOUT_CARDS_DOC_FACTORS = {"announcements": 0.25}

#: A query that is only a card's name ("deflection") asks for the card: its first rulings
#: (its own, then its groups') follow it, at most this many.
OWN_RULINGS = 3
#: A card the question names in passing ("can i write down what my grandprey plays, like how
#: many deflections hes burned", "…in the middle of my kine resources contested vote"): when
#: the card's text and its rulings (its own, its groups') hold less than this share of the
#: question's other words (question words and numbers left out), the card comes second,
#: after the best other answer, not first (`Search._named_second`). It stays among the first
#: three: no set's hit@3 moved. Chosen on 30 Nov 2026 (the next session), on the sets'
#: MRR: `search_phone6` (rules questions naming a card in passing, the day's) 0.715 ->
#: 0.878, and higher on 24 other sets (`search_card_behaviour10` 0.858 -> 0.892, `17` 0.847
#: -> 0.887), lower on none. At 0.2, six sets gained less; at 0.4 (before `NAMED_AMONG`),
#: `search_cards` (the card asked about, named among other words) lost more.
NAMED_HELD = 0.3
#: … when the question has at least this many other words ("is it too late for direct
#: intervention", "Pentex(TM) Subversion": the card first)
NAMED_AMONG = 2


class Search:
    """The one search box: the rules' index and the cards' index, each ranked by its own
    statistics, merged by score (the cards' scaled by `CARD_FACTOR`). A query that names a
    section goes to it; cards the query names come first (`judgekit.cards.names`), and a
    query that is only a card's name has the card's first rulings after it (`OWN_RULINGS`)."""

    def __init__(self, rules: SearchIndex, cards: SearchIndex | None = None,
                 names: CardNames | None = None, stamp: str | None = None,
                 card_groups: dict[str, list[str]] | None = None):
        self.rules, self.cards, self.names = rules, cards, names
        if cards is not None:
            cards.known_words = rules.df
            cards.other_words, rules.other_words = rules.df, cards.df
            cards.other_part, rules.other_part = rules, cards
        self.card_groups = card_groups or {}     # card id -> its groups' ids (page order)
        # "a blood" read as "1 blood", not where "blood" opens a card's name ("a Blood Doll")
        self.one_blood = one_blood_pattern(e.title for e in cards.entries.values() if e.kind == "card") \
            if cards is not None else ONE_BLOOD
        self.corpus = rules.corpus
        self.stamp = stamp or index_stamp(rules.corpus)   # what the index was built from
        self._rulings: dict[str, list[str]] | None = None
        self.group_ruling_after_card = GROUP_RULING_AFTER_CARD

    @classmethod
    def open(cls, corpus: Corpus, index_dir: str | Path, stamp: str) -> "Search":
        stored = load_index(index_dir, stamp)
        if stored is None:
            return cls(SearchIndex(corpus))
        with no_gc():
            rules = SearchIndex(corpus, part=stored.parts["rules"])
            cards = SearchIndex(corpus, part=stored.parts["cards"], max_postings=CARD_MAX_POSTINGS,
                                factors=CardFactors(stored.parts["cards"].entries,
                                                    facets=stored.extra.get("card_facets", ()),
                                                    body_lengths=body_lengths(stored.parts["cards"])),
                                coverage_power=CARD_COVERAGE_POWER, coverage_cap=CARD_COVERAGE_CAP,
                                order_power=CARD_ORDER_POWER,
                                inherit=ruling_cards(stored.parts["cards"].entries),
                                inherit_share=RULING_INHERITS,
                                question=question_stems(cards=True) | talk_stems(
                                    stored.parts["rules"].postings.terms["questions"], stored.parts["cards"].postings.terms),
                                first_sentence=True, per_section=CARD_PER_SECTION, phrasing_factor=0.0) \
                if "cards" in stored.parts else None
        table = stored.extra.get("card_names")
        return cls(rules, cards, CardNames.from_table(table) if table and cards else None, stamp,
                   stored.extra.get("card_groups"))

    @property
    def entries(self) -> dict[str, Entry]:
        if self.cards is None:
            return self.rules.entries
        return {**self.rules.entries, **self.cards.entries}

    def doc_count(self) -> int:
        return self.rules.doc_count() + (self.cards.doc_count() if self.cards else 0)

    def named_cards(self, text: str) -> list[Entry]:
        """The card entries a query names, in its order."""
        if self.names is None or self.cards is None:
            return []
        found = (self.cards.entries.get(f"cards/{h.card_id}") for h in self.names.find(text))
        return [e for e in found if e is not None]

    @property
    def rulings_by_section(self) -> dict[str, list[str]]:
        """Each section (a card's or a group's id) -> its ruling keys, in order; made once."""
        if self._rulings is None:
            by_section: dict[str, list[str]] = {}
            for key, e in self.cards.entries.items():
                if e.kind == "ruling":
                    by_section.setdefault(e.section, []).append(key)
            for keys in by_section.values():
                keys.sort(key=lambda k: int(k.rsplit("#r", 1)[1]))
            self._rulings = by_section
        return self._rulings

    def own_rulings(self, card: Entry) -> list[Entry]:
        """The card's first `OWN_RULINGS` ruling entries: its own, then its groups'."""
        rulings = self.rulings_by_section
        keys = list(rulings.get(card.section, ()))
        for gid in self.card_groups.get(card.section, ()):
            if len(keys) >= OWN_RULINGS:
                break
            keys += rulings.get(gid, ())
        return [self.cards.entries[k] for k in keys[:OWN_RULINGS]]

    def _names_found(self, text: str) -> list[NameHit]:
        """The cards the query names (none for a section number)."""
        if self.names is None or SECTION_QUERY.match(text):
            return []
        return self.names.find(text)

    def _named_with_rulings(self, found: list[NameHit], only: bool) -> list[Entry]:
        """The cards the query names (`found`); a query that is only names (`only`) has each
        card's rulings after it."""
        named = [e for e in (self.cards.entries.get(f"cards/{h.card_id}") for h in found) if e is not None]
        if not only:
            return named
        return [x for e in named for x in [e, *self.own_rulings(e)]]

    def _of_type_first(self, hits: list[Hit], kind: str) -> list[Hit]:
        """The cards' hits with the entries of a card type of `kind` (`card_types`; and the
        groups' rulings) before the others, each keeping its order; a card the query names
        stays first."""
        named = [h for h in hits if h.direct]
        fits, others = [], []
        kinds = card_types(kind)
        for h in hits:
            if not h.direct:
                types = self.entry_types.get(h.entry.key)
                (fits if types is None or not types.isdisjoint(kinds) else others).append(h)
        return named + fits + others

    @property
    def entry_types(self) -> dict[str, frozenset[str] | None]:
        """Each card entry's card types (None: a group's ruling, of every type)."""
        return self.cards.factors.types_of      # the cards' part's `CardFactors` (`open`)

    def read(self, text: str) -> tuple[str, str, bool]:
        """How the parts read a question: the rules' text (no judge addressed, no closing ask
        for a card's name, numbers apart from their words, a "what-if" one word, disciplines
        spelt out, "1 blood" read), the cards' text (the same without what it rules out: "not
        the grenade"), and whether it closes by asking for a card's name (a card told of)."""
        addressed = without_address(check_query(text))
        bare = without_name_asked(addressed)
        text = with_one_blood(spell_out_disciplines(with_numbers_apart(with_what_if(bare))), self.one_blood)
        return text, without_ruled_out(text), bare != addressed

    def part_of(self, hit: Hit) -> SearchIndex:
        """The part of the index a hit is from."""
        return self.cards if self.cards is not None and hit.entry.key in self.cards.entries else self.rules

    def search(self, text: str, limit: int = 10) -> tuple[list[Hit], list[str]]:
        text, card_text, asks_name = self.read(text)
        if self.cards is None:
            return self.rules.search(text, limit)
        found = self._names_found(card_text)
        only = bool(found) and self.names.only_names(card_text, found)
        named = self._named_with_rulings(found, only)
        # room for the other answers beside the cards a question names (they may go after
        # the best of those, `_named_second`), cut to `limit` at the end
        shown_limit, limit = limit, limit + (len(found) if found and not only else 0)
        parts = sentences(text)
        kind = self._described_type(text, parts)
        about_cards = self.names is not None and self.names.mentions_card_words(text)
        rules_hits, stems = self.rules.search(text, limit, snippets=False,
                                              doc_factors=ABOUT_CARDS_DOC_FACTORS if about_cards else None)
        card_groups = self.cards.groups_of(card_text)
        card_hits, card_stems = self.cards.search(card_text, max(limit, TYPED_CANDIDATES) if kind else limit,
                                                  named, snippets=False, groups=card_groups,
                                                  plain=asks_plain(card_text))
        if kind:
            card_hits = self._of_type_first(card_hits, kind)
        direct = [h for h in rules_hits if h.direct] + [h for h in card_hits if h.direct]
        rest_r = [h for h in rules_hits if not h.direct]
        # a card described by its type, at the start or further on (a judge call: "…has the
        # 2-pool master that…"), or asked for by its type or its name in a closing ask ("…
        # Which modifier was that?", "…, what's it called?"): the cards' scores weigh more,
        # and no rule leads a card
        told = bool(kind) or asks_name or (self.names is not None and self.names.describes_card(text))
        factor = DESCRIBED_CARD_FACTOR if told else (ABOUT_CARDS_MESSAGE_FACTOR if len(parts) > 1 else
                                                     ABOUT_CARDS_FACTOR) if about_cards else CARD_FACTOR
        rest_c = [Hit(h.entry, round(h.score * factor, 4), h.snippet, h.url, h.coverage)
                  for h in card_hits if not h.direct]
        rules_wanted, cards_wanted = frozenset(stems), frozenset(card_stems)   # once, not per hit
        merged = merge(direct, rest_r, rest_c, limit, about_cards, told)
        if self.group_ruling_after_card:
            # a sentence's groups, made once here when a step needs them (both read the last)
            groups_of = lru_cache(maxsize=None)(self.cards.groups_of)
            merged = group_ruling_after(self, merged, card_groups, limit, len(parts) > 1, parts[-1] if parts else "",
                                        groups_of)
            merged = asked_group_ruling(self, merged, parts, limit, groups_of)
        if not only:
            merged = named_card_ruling(self, merged, text, found, card_groups, limit)
            merged = ruling_naming_another(self, merged, found, card_groups, limit)
            merged = self._named_second(merged, text, found, card_groups)
        merged = siblings_later(merged)[:shown_limit]
        shown = [self.rules.with_snippet(h, rules_wanted) if h.entry.key in self.rules.entries
                 else self.cards.with_snippet(h, cards_wanted)
                 for h in merged]
        return shown, sorted(set(stems) | set(card_stems))

    def _described_type(self, text: str, parts: tuple[str, ...]) -> str | None:
        """The card type (or kind) the question describes its card by, opening with it
        (`CardNames.described_type`), or asks for it by in a last sentence of its own
        (`CardNames.closing_ask_type`: "… Which modifier was that?"); None otherwise. Either
        makes the question one that tells of a card (`told` in `search`)."""
        if self.names is None:
            return None
        kind = self.names.described_type(text)
        if kind is None and len(parts) > 1:
            kind = self.names.closing_ask_type(parts[-1])
        return kind

    def _named_in_passing(self, text: str, found: list[NameHit], groups: list[Group]) -> frozenset[str]:
        """The keys of the cards the query names (`found`, among other words) whose text and
        rulings (their own, their groups') hold less than `NAMED_HELD` of the question's other
        words (`groups`: the cards' part's; question words, numbers and the names' own words
        left out)."""
        rest = other_words(groups, self.names.name_words(text, found))
        if len(rest) < NAMED_AMONG:
            return frozenset()      # a name and a word or so ("is it too late for DI"): the card
        passing = set()
        for h in found:
            card = self.cards.entries.get(f"cards/{h.card_id}")
            if card is not None and self.cards.held_by(rest, [card.key, *self.rulings_by_section.get(card.section, ()),
                                                                *self.group_rulings(card)]) < NAMED_HELD:
                passing.add(card.key)
        return frozenset(passing)

    def _named_second(self, hits: list[Hit], text: str, found: list[NameHit], groups: list[Group]) -> list[Hit]:
        """`hits` with the cards the query names in passing (`_named_in_passing`), first as
        named cards are, after the best other answer (weighed only when a named card is first),
        when that answer holds more of the question's other words than the first named card's
        own entry does: an answer holding the name's words only ("pentex subversion on a
        vampire in torpor": the card "Pentex™ Loves You!") does not pass the card. The named
        cards not in passing come first ("…played Govern the Unaligned, drew, then announced
        a Seduction. I wanted to Direct Intervention the Govern — is it too late?": Direct
        Intervention, the cancellation window, then the two cards told)."""
        if not hits or not hits[0].direct or hits[0].entry.key not in self.cards.entries:
            return hits
        passing = self._named_in_passing(text, found, groups)
        named = [h for h in hits if h.direct and h.entry.key in passing]
        rest = [h for h in hits if not (h.direct and h.entry.key in passing)]
        # the best other answer's place among the rest: after the named cards not in passing
        lead = next((i for i, h in enumerate(rest) if not h.direct), len(rest))
        if not named or lead >= len(rest):
            return hits
        names = self.names.name_words(text, found)
        best = rest[lead].entry.key
        part = self.cards if best in self.cards.entries else self.rules
        held = part.held_by(other_words(groups if part is self.cards else part.groups_of(text), names), [best])
        if held <= self.cards.held_by(other_words(groups, names), [named[0].entry.key]):
            return hits
        return [*rest[:lead + 1], *named, *rest[lead + 1:]]

    def group_rulings(self, card: Entry) -> list[str]:
        """The keys of the rulings of the card's groups, in the card page's order."""
        rulings = self.rulings_by_section
        return [k for gid in self.card_groups.get(card.section, ()) for k in rulings.get(gid, ())]
