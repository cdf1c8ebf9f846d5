"""The cards' part's factor for a candidate entry (`CardFactors`, which
`judgekit.rules.card_ranking.Search.open` gives the cards' `SearchIndex`): a card group's
ruling ranks lower than a card's own text and rulings, an entry holding every discipline
and clan the question names and a card of a type it names rank higher, and a card with a
short text higher when the question asks for a plain one (docs/search.md, "Cards and
rulings")."""
from __future__ import annotations

from statistics import median

from judgekit.cards.descriptions import TYPE_NOUNS, card_types
from judgekit.cards.search_entries import context_types
from judgekit.rules.analysis import stem_word
from judgekit.rules.entries import Entry
from judgekit.rules.query import Group

#: A card group's name is a generic phrase ("Equip or employ another card from hand") that
#: matches generic questions on every word: a group's ruling matched only through its name
#: ranks this much lower again (below `GROUP_WEIGHT`); as far as the ruling's own text holds
#: the question's words, it ranks `GROUP_WEIGHT` below the cards' own (`CardFactors.group_ruling_factor`).
GROUP_FACTOR = 0.15
#: … and every group's ruling ranks this much lower than a card's own text and rulings: a
#: group's ruling answers what many cards share, and a question that a card's own text or
#: ruling answers as well ("the knife you can put a second copy of on", "the 4R gun with a
#: maneuver each combat") asks about that card. Chosen on the development sets (29 Nov
#: 2026): 1.0 -> 0.3 took `tests/search_card_behaviour4` from 0.892 to 0.973 and
#: `search_card_behaviour6` from 0.850 to 0.867, and lost no question of another set.
GROUP_WEIGHT = 0.3
#: A card's own text, matched by a question that does not name it, ranked this much lower
#: than the rulings (a behaviour question is answered by a ruling); since the questions that
#: describe a card's effect came in, the card's text must rank as its rulings do: 1.0 (off).
CARD_TEXT_FACTOR = 1.0
#: A question that names a discipline or a clan ("the aus reaction that gets stuck on the
#: bleeder", "lasombra priscus with an extra ballot", "the cel/tha card you put on the
#: opponent") describes a card that holds those names (its requirements, its text, its
#: clan): an entry of the cards holding every discipline and clan the question names ranks
#: this much higher. Such a word is in hundreds of cards and weighs little by its rarity,
#: yet it rules out most of them. Chosen on the development sets (29 Nov 2026): 1.5 changed
#: nothing, 2.0 one question, 3.0 to 6.0 the same three of `tests/search_card_behaviour6`
#: (0.867 -> 0.917); no other development set moved.
FACET_FACTOR = 3.0
#: A question that names a card type anywhere ("can I play a reaction to…", "the sabbat
#: political that steals a pool…", "the ally that takes equipment off…") asks about cards
#: of that type: the cards' entries of a type it names rank this much higher (a group's
#: ruling, of cards of every type, does not). "action" and "vampire" are not among the
#: nouns (`TYPE_WORDS`): rules questions use them for what is not a card type. Chosen on the
#: development sets (29 Nov 2026): 1.5 took `tests/search_card_effects` from 0.952 to 0.976
#: and moved no other set's hit@3; 2.0 lost a question of `search_card_behaviour` and one of
#: `search_card_effects2`.
TYPE_FACTOR = 1.5
#: A question asking for a plain card ("the master that just destroys a location", "the
#: plain 2R pistol", `query.asks_plain`) ranks a card by its text's length: its factor is
#: (the median card text's length / its own) ** PLAIN_POWER, between 1 / PLAIN_CAP and
#: PLAIN_CAP (lengths in indexed words, the body's BM25 length). Chosen on the development
#: sets (7 Dec 2026): 5 questions into the first three, 1 out (a group's ruling asked with
#: "it just prevents all of it"), 26 higher, 3 lower; 0.4, 0.7 and a cap of 1.6 the same
#: five and one. It took the blind set written that day (`tests/search_card_effects26`)
#: from 38/40 to 39/40 before its misses were read. Always on (0.3, on the words' count)
#: it gained 13 and lost 7: the question's asking for it is the sign.
PLAIN_POWER = 0.5
PLAIN_CAP = 2.0
#: The words for a card type that a question may name anywhere (`TYPE_FACTOR`) -> the type or
#: the kind of card, as the card names' table of type nouns has it (`TYPE_NOUNS`: one place
#: for the word's type; a kind's types: `card_types`). The stems of these words are looked
#: for among the query's words: "reactions" too.
TYPE_WORDS: dict[str, str] = {word: TYPE_NOUNS[word] for word in (
    "reaction", "ally", "retainer", "equipment", "gun", "master", "location", "event", "political", "modifier")}


def type_stems(words: dict[str, str] = TYPE_WORDS) -> dict[str, tuple[str, ...]]:
    """The stems of the card types' words (`TYPE_WORDS`) -> their card types ("alli": Ally;
    "locat": Master, Equipment, `card_types`)."""
    return {stems[0]: card_types(kind) for word, kind in words.items() if len(stems := stem_word(word)) == 1}


class CardFactors:
    """The cards' part's factor for a candidate entry (`SearchIndex(factors=…)`): a card
    group's ruling ranks `group_weight` lower, and up to `group_factor` lower again, a
    card's own text `text_factor` lower, an entry holding every discipline and clan the
    query names `facet_factor` higher, a card of a type it names `type_factor` higher (1.0
    turns each off), and, when the query asks for a plain card, a card by its text's length
    (`plain_factor`; `body_lengths`: each entry's key -> its body's length, none: off)."""

    def __init__(self, entries: list[Entry], group_factor: float = GROUP_FACTOR,
                 text_factor: float = CARD_TEXT_FACTOR, group_weight: float = GROUP_WEIGHT,
                 facets: frozenset[str] | list[str] = frozenset(), facet_factor: float = FACET_FACTOR,
                 types: dict[str, tuple[str, ...]] | None = None, type_factor: float = TYPE_FACTOR,
                 body_lengths: dict[str, int] | None = None, plain_power: float = PLAIN_POWER,
                 plain_cap: float = PLAIN_CAP):
        self.facets = frozenset(facets)      # the stems of the disciplines' and clans' names
        self.facet_factor = facet_factor
        self.type_stems = type_stems() if types is None else dict(types)   # stem -> card types
        self.type_factor = type_factor
        self._entries = entries
        self._types: dict[str, frozenset[str] | None] | None = None
        self.group_factor = group_factor
        self.group_weight = group_weight
        self.text_factor = text_factor
        self.group_rulings = frozenset(e.key for e in entries
                                       if e.doc == "cards" and e.section.startswith("G")) \
            if group_factor != 1.0 or group_weight != 1.0 else frozenset()
        self.card_texts = frozenset(e.key for e in entries if e.kind == "card") \
            if text_factor != 1.0 else frozenset()
        # the cards' own texts' lengths (not their rulings'), and the median one's
        self.card_lengths = {e.key: body_lengths[e.key] for e in entries
                             if e.kind == "card" and e.key in body_lengths} if body_lengths and plain_power else {}
        self.plain_length = float(median(self.card_lengths.values())) if self.card_lengths else 0.0
        self.plain_power = plain_power if self.card_lengths else 0.0
        self.plain_cap = plain_cap

    def __call__(self, groups: list[Group], covered_of: dict[int, float], keys: list[str],
                 body_of, title_of, group_docs, plain: bool = False) -> dict[int, float]:
        """The factors of the candidates that are group rulings or card texts, or that hold
        every discipline and clan the query names, or that are cards when the query asks
        for a plain one (`plain`) (docnum -> factor), each found for all candidates at once,
        group by group."""
        out: dict[int, float] = {}
        facets = self.facet_groups(groups)
        if facets and self.facet_factor != 1.0:
            for d in covered_of:
                if all(d in group_docs[i] for i in facets):
                    out[d] = self.facet_factor
        rulings = [d for d in covered_of if keys[d] in self.group_rulings]
        if rulings:
            in_body = self._held(groups, rulings, body_of)
            for d in rulings:
                out[d] = out.get(d, 1.0) * self.group_ruling_factor(covered_of[d], in_body[d])
        texts = [d for d in covered_of if keys[d] in self.card_texts]
        if texts:
            in_title = self._held(groups, texts, title_of)
            for d in texts:
                out[d] = out.get(d, 1.0) * self.card_text_factor(covered_of[d], in_title[d])
        kinds = self.named_types(groups) if self.type_factor != 1.0 else frozenset()
        if kinds:
            types_of = self.types_of
            for d in covered_of:
                types = types_of[keys[d]]
                if types is not None and not kinds.isdisjoint(types):
                    out[d] = out.get(d, 1.0) * self.type_factor
        if plain and self.plain_power:
            lengths = self.card_lengths
            for d in covered_of:
                length = lengths.get(keys[d])
                if length is not None:
                    out[d] = out.get(d, 1.0) * self.plain_factor(length)
        return out

    def plain_factor(self, length: int) -> float:
        """How much higher a card whose text is `length` words long ranks when the query asks
        for a plain card: (the median text's length / its own) ** `plain_power`, between 1 /
        `plain_cap` and `plain_cap` (a text of no indexed word counts as one word)."""
        factor = (self.plain_length / max(length, 1)) ** self.plain_power
        return min(self.plain_cap, max(1.0 / self.plain_cap, factor))

    @property
    def types_of(self) -> dict[str, frozenset[str] | None]:
        """Each card entry's card types (None: a group's ruling, of cards of every type)."""
        if self._types is None:
            self._types = {e.key: context_types(e.context) for e in self._entries}
        return self._types

    def named_types(self, groups: list[Group]) -> frozenset[str]:
        """The card types the query's words name (`type_stems`: "reactions" -> Reaction)."""
        return frozenset(kind for g in groups if g.number is None
                         for alt in g.alts if len(alt) == 1 and alt[0] in self.type_stems
                         for kind in self.type_stems[alt[0]])

    def facet_groups(self, groups: list[Group]) -> list[int]:
        """The query's groups that name a discipline or a clan (one of their alternatives is
        one of `facets`: "aus" -> auspex, "lasombra")."""
        return [i for i, g in enumerate(groups) if g.number is None
                and any(len(alt) == 1 and alt[0] in self.facets for alt in g.alts)]

    @staticmethod
    def _held(groups: list[Group], docs: list[int], field_of) -> dict[int, float]:
        """The query weight each of `docs` holds in one field (`field_of[i]`: the entries
        holding group i there), summed in the groups' order."""
        held = dict.fromkeys(docs, 0.0)
        for i, g in enumerate(groups):
            if g.number is None:
                for d in field_of[i].intersection(held):
                    held[d] += g.weight
        return held

    def group_ruling_factor(self, covered: float, in_body: float) -> float:
        """How much lower a card group's ruling ranks: `group_weight`, and by `group_factor`
        again as far as its match is only in its title (the group's name, a generic phrase),
        not at all as far as the ruling's own text holds the query's words: `covered` is the
        query weight it holds, `in_body` the part of it in its text; the factor goes from
        `group_weight` x `group_factor` (none of it in the text) to `group_weight` (all)."""
        if not covered:
            return self.group_weight * self.group_factor
        return self.group_weight * (self.group_factor + (1.0 - self.group_factor) * in_body / covered)

    def card_text_factor(self, covered: float, in_title: float) -> float:
        """A card's own entry matched by a question: `text_factor`, unless its name holds
        every word it matches (a misspelt name the name table missed, "direct intervension")."""
        return 1.0 if covered and in_title >= covered else self.text_factor
