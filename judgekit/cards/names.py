"""Card names inside a judge's query (pure Python, no Flask).

"is it too late for direct intervention", "can I Deflection a bleed…", "deflektion",
"Pentex", "WWEF", "the barrens", "rotschreck": `CardNames.find(query)` gives the cards a
query names, so that the search puts them first. A name is found

- as the card list writes it, ignoring case, accents, punctuation, ™/®, a leading "The" (or
  one the query adds), and a vampire's version ("Theo Bell advanced");
- by its short form: a name's part before a comma ("Heidelberg Castle" for "Heidelberg
  Castle, Germany", "Smiling Jack"), or one of the abbreviations players use
  (`SHORT_NAMES`);
- with one typo, when the name is at least seven letters long.

Single words the rules themselves use ("block", "vote", "master") are not taken for card
names unless the query is only that word: a rules question must not turn into a card.
The table (`to_table`) is stored with the search index and shipped to the browser, whose
offline search finds the same cards the same way.
"""
from __future__ import annotations

import bisect
import re
from functools import lru_cache
from dataclasses import dataclass

from judgekit.cards.descriptions import (DESCRIBE_REACH, closing_ask_type, describes_card, described_type,
                                         description_table)
from judgekit.cards.name_words import (card_only_words_of, first_names, inflections, initials, key_words,
                                       surnames, text_words_of, written_words)
from judgekit.game.cards import name_key

SPLIT = re.compile(r"[\s,;:!?/()\[\]{}\"“”«»]+")

#: Abbreviations and short names players use for cards (lower case, as typed) -> the
#: card's name. Keep to names every judge knows; a word the rules use is not a short name.
SHORT_NAMES: dict[str, str] = {
    "di": "Direct Intervention",
    "wwef": "Wake with Evening's Freshness",
    "krc": "Kine Resources Contested",
    "pto": "Protect Thine Own",
    "gtu": "Govern the Unaligned",
    "pentex": "Pentex Subversion",
    "dreams": "Dreams of the Sphinx",
    "con boon": "Consanguineous Boon",
    "heidelberg": "Heidelberg Castle, Germany",
    "sudden": "Sudden Reversal",
    "parity": "Parity Shift",
    "freak": "Freak Drive",
    "qui vive": "On the Qui Vive",
    "tupdog": "Tupdogs",
    "nrc": "Nosferatu Royalty",
    "obedience": "Obedience",
    "con ag": "Conservative Agitation",
    "conag": "Conservative Agitation",
    "lic": "Lost in Crowds",
    "molotov": "Molotov Cocktail",
    "laptop": "Laptop Computer",
    "legal manip": "Legal Manipulations",
    "voter cap": "Voter Captivation",
    "archon inv": "Archon Investigation",
    "malk dementia": "Malkavian Dementia",
    "foreshadowing": "Foreshadowing Destruction",
    "zho": "Thadius Zho",
    "decap": "Decapitate",
    "ig": "Immortal Grapple",
    "ih": "Information Highway",
}

#: The words of card names that players shorten (name keys, as they run together in a key)
#: -> the short form: "zoo hg", "pb madrid", "ventrue hq", "info highway", "crusade dc",
#: "pb la". A name holding one or several is found by its short forms too ("pb dc").
NAME_ABBREVIATIONS = (("huntingground", "hg"), ("powerbase", "pb"), ("headquarters", "hq"),
                      ("information", "info"), ("washingtondc", "dc"), ("newyork", "ny"),
                      ("newyork", "nyc"), ("losangeles", "la"))
#: The letters of card names that players write as they say them (in name keys): "fobia"
#: for Phobia, "josef" for a Joseph, "filippo". A name is found so too, unless another
#: card's name is already written that way ("Rafael").
SAID_SPELLINGS = (("ph", "f"),)
#: … and the endings of a name's words written as said: "mask of judas" for Masque of
#: Judas, "dominik", "grotesk" (a word's end only: "masquerade" is not said "maskrade")
SAID_ENDINGS = (("que", "k"),)
#: What ends a name's head: "Golconda: Inner Peace", "Bang Nakh — Tiger's Claws"; a head
#: that begins one card's name only is found alone ("golconda", "first tradition")
HEAD_END = re.compile(r"\s*(?::|—|–)\s*")


#: Card names that are also ordinary phrases of a question: found only as the whole query.
PHRASES = frozenset(("nottobe", "makeanexample", "elderkindrednetwork", "informationnetwork",
                     "usingtheadvantage", "targethead", "targethand"))

#: Words that, beside a card's name, still ask for the card itself ("deflection rulings",
#: "the barrens card"): such a query gets the card's own rulings right after it.
FILLER = frozenset(("the", "card", "cards", "ruling", "rulings", "rule", "rules"))

#: A misspelt long name typed alone is found with two typos: a name of `FAR_MIN` letters or
#: more is typed as it sounds ("crisanthemum" Chrysanthemum, "plasmatic form" Plasmic
#: Form), two letters away. Only a query of one to four words naming nothing else, with
#: no other word than `FILLER` and `ASKING_WORDS`, at least one of them no word of the
#: rules, and only when one card's name is that near (`CardNames._far`).
FAR_MIN = 10
ASKING_WORDS = frozenset(("what", "does", "do", "how", "work", "works"))

MAX_WORDS = 8          # longest card name looked for, in words
TYPO_MIN = 7           # a name this long (letters) may be found with one typo
#: … and in a name of two words found with a typo, a word shorter than this is spelt as in
#: the name: "sup version" (the superior version) is no misspelt Subversion; a typo in a
#: short word makes another word.
TYPO_WORD_MIN = 4
#: A name of three or four words is found with one typo too ("govern the unalined", "bowl
#: of convergance"), when the words typed are this long (letters): a long key one typo from
#: a name is that name, whatever its words (two-word names keep the checks below)
TYPO_LONG_MIN = 12
LONG_ANCHOR = TYPO_LONG_MIN // 2    # letters at each end of such a key, one end as typed


@dataclass(frozen=True)
class NameHit:
    card_id: int
    start: int           # word span of the query that names it
    end: int
    exact: bool          # False: found with a typo


def _edits2(a: str, b: str) -> bool:
    """At most two insertions, deletions, substitutions or swaps of adjacent letters between
    a and b (optimal string alignment), given their common start and end."""
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        i += 1
    j = 0
    while j < len(a) - i and j < len(b) - i and a[-1 - j] == b[-1 - j]:
        j += 1
    a, b = a[i:len(a) - j], b[i:len(b) - j]
    if abs(len(a) - len(b)) > 2:
        return False
    before, row = None, list(range(len(b) + 1))
    for x in range(1, len(a) + 1):
        now = [x] + [0] * len(b)
        for y in range(1, len(b) + 1):
            cost = 0 if a[x - 1] == b[y - 1] else 1
            d = min(row[y] + 1, now[y - 1] + 1, row[y - 1] + cost)
            if before is not None and x > 1 and y > 1 and a[x - 1] == b[y - 2] and a[x - 2] == b[y - 1]:
                d = min(d, before[y - 2] + 1)
            now[y] = d
        if min(now) > 2:
            return False
        before, row = row, now
    return row[-1] <= 2


def _edits1(a: str, b: str) -> bool:
    """One insertion, deletion, substitution or swap between a and b (a != b)."""
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) == len(b):
        return a[i + 1:] == b[i + 1:] or (
            i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:])
    return a[i:] == b[i + 1:]


class CardNames:
    """The names of every card, and how to find them in a query.

    `keys`: name key (`name_key` of a name, a short name, a name with its version) -> card
    id; `common`: the words (name keys) that alone do not name a card (the rules' words:
    `judgekit.rules.service.common_words`); `initials`: the keys that are a card's initials
    (`initials`), a short form typed as one word ("tttm"), never two ("at a" is not "ata",
    Ashes to Ashes); `not_typos`: words of the cards and the rules, and their inflected
    forms (`inflections`: "removes", Remover), one typo away from a card's name ("hunting",
    The Haunting), which are words, not misspelt names;
    `text_words`: names that many cards' texts use as words (`name_words.text_words_of`), joined."""

    def __init__(self, keys: dict[str, int], common: frozenset[str] | set[str] = frozenset(),
                 card_words: frozenset[str] | set[str] = frozenset(),
                 initials: frozenset[str] | set[str] = frozenset(),
                 not_typos: frozenset[str] | set[str] = frozenset(),
                 text_words: frozenset[str] | set[str] = frozenset(),
                 card_only_words: frozenset[str] | set[str] = frozenset()):
        self.keys = dict(keys)
        self._sorted_keys = sorted(self.keys)      # `_name_lengths`
        self.text_words = frozenset(text_words)
        self.common = frozenset(common)
        self.initials = frozenset(initials)
        self.not_typos = frozenset(not_typos)
        # disciplines' and clans' names the rules do not use ("obfuscate", "tremere"): a
        # question holding one asks about cards (`mentions_card_words`)
        self.card_words = frozenset(card_words)
        # the words of the cards' names and texts that the rules and their questions never
        # say, in any form ("hound", "gun", "condemnation", "afterwards"): a question holding
        # one asks about cards too (`mentions_card_words`, `card_only_words_of`)
        self.card_only_words = frozenset(card_only_words)
        # the names a typo may stand for (`TYPO_MIN` letters or more), by their first three
        # letters and length, and by their first letter, last three letters and length; each
        # with its place among the names of its first letter and length, so that the first of
        # those places that matches is the one found (`_typo_name`)
        self._typo_heads: dict[tuple[str, int], list[tuple[int, str]]] = {}
        self._typo_tails: dict[tuple[str, str, int], list[tuple[int, str]]] = {}
        places: dict[tuple[str, int], int] = {}
        # the first and last six letters of the long names with their lengths: a span of
        # three or four words is looked up for a typo only when one of them is a name's
        # (in a key of twelve letters or more, one typo leaves one of the two as it was)
        self._long_heads: dict[str, set[int]] = {}    # first letters -> the lengths of such names
        self._long_tails: dict[str, set[int]] = {}    # last letters -> the same
        # the names `_far` may find, by their first three letters and by their last three
        self._far_ends: dict[str, list[str]] = {}
        for key in self.keys:
            if len(key) >= TYPO_MIN:
                place = places[key[0], len(key)] = places.get((key[0], len(key)), -1) + 1
                self._typo_heads.setdefault((key[:3], len(key)), []).append((place, key))
                self._typo_tails.setdefault((key[0], key[-3:], len(key)), []).append((place, key))
            if len(key) >= FAR_MIN - 2:
                self._far_ends.setdefault("^" + key[:3], []).append(key)
                self._far_ends.setdefault(key[-3:] + "$", []).append(key)
            if len(key) >= TYPO_LONG_MIN - 1:
                self._long_heads.setdefault(key[:LONG_ANCHOR], set()).add(len(key))
                self._long_tails.setdefault(key[-LONG_ANCHOR:], set()).add(len(key))

    @classmethod
    def from_catalog(cls, catalog, common=frozenset(), card_words=frozenset(),
                     vocabulary=frozenset(), asked=frozenset()) -> "CardNames":
        """`vocabulary`: the words of the rules' own text, `asked`: of the questions they
        answer (name keys); neither is a card's initials, and a word of `vocabulary` one
        typo from a card's name is no misspelt name (`not_typos`)."""
        keys: dict[str, int] = {}
        index = catalog.index

        def add(key: str, name: str) -> None:
            if not key or key in keys:
                return
            found = index.find(name)     # the version a plain name means (latest, not advanced)
            if found is not None:
                keys[key] = found.id
                if key.startswith("the") and len(key) >= 9:   # "barrens" for "The Barrens"
                    keys.setdefault(key[3:], found.id)

        for card in sorted(catalog, key=lambda c: c.id):
            for name in (card.name, *getattr(card.facts, "aka", ())):
                add(name_key(name), name)
            if "," in card.name:
                head, epithet = (part.strip() for part in card.name.split(",", 1))
                add(name_key(head), card.name)
                # the epithet typed without its "the": "amelia blood red tears"
                if epithet.lower().startswith("the "):
                    add(name_key(f"{head} {epithet[4:]}"), card.name)
        # a vampire's version written after its name: "theo bell advanced", "theo bell g2 adv"
        for card in sorted(catalog, key=lambda c: (c.facts.advanced if c.kind == "crypt" else 0, c.id)):
            if card.kind != "crypt" or len(catalog.versions(card)) == 0:
                continue
            base, group = name_key(card.name), card.facts.group.lower()
            if card.facts.advanced:
                forms = ["adv", "advanced", f"g{group}adv", f"g{group}advanced", f"group{group}adv"]
            else:
                forms = [f"g{group}", f"group{group}"]
            for form in forms:
                keys.setdefault(base + form, card.id)
        for short, name in SHORT_NAMES.items():
            found = catalog.find(name)
            if found is not None:
                keys.setdefault(name_key(short), found.id)
        # a name's head before a colon or a dash, when it begins no other card's name, and
        # the names' words players shorten (`NAME_ABBREVIATIONS`)
        heads: dict[str, set[str]] = {}
        for card in catalog:
            parts = HEAD_END.split(card.name, maxsplit=1)
            if len(parts) == 2 and "," not in parts[0]:
                heads.setdefault(name_key(parts[0]), set()).add(card.name)
        for head, names_of in sorted(heads.items()):
            if len(names_of) == 1:
                add(head, next(iter(names_of)))
        for key, card_id in sorted(keys.items()):
            forms = {key}
            for word, short in NAME_ABBREVIATIONS:
                forms |= {form.replace(word, short) for form in forms if word in form}
            for form in sorted(forms - {key}):
                keys.setdefault(form, card_id)
        for key, card_id in sorted(keys.items()):
            for written, said in SAID_SPELLINGS:
                if written in key:
                    keys.setdefault(key.replace(written, said), card_id)
        name_words = {name: key_words(name) for name in {card.name for card in catalog}}   # each name once
        for card in sorted(catalog, key=lambda c: c.id):
            words = name_words[card.name]
            for written, said in SAID_ENDINGS:
                spoken = [w[:-len(written)] + said if len(w) > len(written) and w.endswith(written) else w
                          for w in words]
                if spoken != words:
                    add("".join(spoken), card.name)
        # the words of the cards' names and texts and of the rules; those of the rulings and
        # the questions too for the initials (their misspellings, "defelction", are left to
        # be found as typos)
        texts = [key_words(card.text or "") for card in catalog]
        said = set().union(*texts, vocabulary)          # the words of the texts and the rules
        named = set().union(*name_words.values())
        words = named | said
        shorts = set()
        for short, card_id in initials(catalog, words | set(asked) | written_words(catalog.ruling_texts())).items():
            if short not in common and short not in keys:
                keys[short] = card_id
                shorts.add(short)
        for word, card_id in surnames(catalog, said | set(asked) | set(common), name_words).items():
            keys.setdefault(word, card_id)
        for word, card_id in first_names(catalog, texts, set(vocabulary) | set(asked) | set(common),
                                         name_words).items():
            keys.setdefault(word, card_id)
        names = cls(keys, common, card_words, shorts, text_words=text_words_of(catalog, texts, keys),
                    card_only_words=card_only_words_of(named.union(*texts), set(vocabulary) | set(asked)))
        # and the inflected forms of the words of the texts and the rules ("removes" is no
        # misspelt Remover, "matters" no Matteus), but for a name's plural ("two
        # deflections"); a name's own word inflected may stand for its card ("decapitated")
        forms = {f for w in said for f in inflections(w)} - words
        names.not_typos = frozenset(w for w in words | forms if w not in keys and len(w) >= TYPO_MIN
                                    and (name := names._typo_name(w)) is not None
                                    and not (w in forms and w in (name + "s", name + "es")))
        return names

    @classmethod
    def from_table(cls, table: dict) -> "CardNames":
        return cls({k: int(v) for k, v in table["keys"].items()}, frozenset(table["common"]),
                   frozenset(table.get("card_words", ())), frozenset(table.get("initials", ())),
                   frozenset(table.get("not_typos", ())), frozenset(table.get("text_words", ())),
                   frozenset(table.get("card_only_words", ())))

    def to_table(self) -> dict:
        """The table the index stores and the browser's offline search reads."""
        return {"keys": self.keys, "common": sorted(self.common), "max_words": MAX_WORDS,
                "typo_min": TYPO_MIN, "typo_word_min": TYPO_WORD_MIN, "far_min": FAR_MIN,
                "asking_words": sorted(ASKING_WORDS), "typo_long_min": TYPO_LONG_MIN, "long_anchor": LONG_ANCHOR, "phrases": sorted(PHRASES), "filler": sorted(FILLER),
                "card_words": sorted(self.card_words), **description_table(),
                "initials": sorted(self.initials),
                "not_typos": sorted(self.not_typos), "text_words": sorted(self.text_words),
                "card_only_words": sorted(self.card_only_words)}

    def mentions_card_words(self, query: str) -> bool:
        """Whether the query names a discipline or a clan ("that obfuscate reaction…", "the
        true brujah who…"), one to three words long, or says a word of the cards' names or
        texts that the rules never say (`card_only_words`; "guns" for "gun"): it asks about
        cards."""
        words = self._words(query) if isinstance(query, str) else []
        only = self.card_only_words
        return any(w in only or (w[-1:] == "s" and w[:-1] in only) for w in words) or \
            any("".join(words[i:i + n]) in self.card_words for n in (1, 2, 3) for i in range(len(words) - n + 1))

    def described_type(self, query: str) -> str | None:
        """The card type (or kind of card, `descriptions.card_types`) a question opening
        with a described card describes it by (`descriptions.described_type`), or None."""
        return described_type(self._words(query[:300]) if isinstance(query, str) else (), self.card_words)

    def closing_ask_type(self, sentence: str) -> str | None:
        """The card type (or kind) a question's last sentence asks for the card by
        (`descriptions.closing_ask_type`: "Which modifier was that?"), or None."""
        return closing_ask_type(self._words(sentence[:300]) if isinstance(sentence, str) else (), self.card_words)

    def describes_card(self, query: str) -> bool:
        """Whether a question describes a card further on, or asks for one
        (`descriptions.describes_card`)."""
        return describes_card(self._words(query[:DESCRIBE_REACH]) if isinstance(query, str) else (), self.card_words)

    def _exact(self, words: list[str]) -> int | None:
        hit = self._key(words)
        if hit is None and len(words) > 1 and words[0] == "the":
            hit = self._key(words[1:])
        return hit

    def _name_lengths(self, words: tuple[str, ...], i: int) -> list[int]:
        """The lengths n (in words, at most `MAX_WORDS`, longest first) for which the words
        from `i` spell a name (`_exact(words[i:i + n])` is not None): words are added one at
        a time while they still begin a name (a look-up in the sorted names), so a word that
        begins none costs one look-up instead of one per length."""
        keys, initials, names = self.keys, self.initials, self._sorted_keys
        end = min(MAX_WORDS, len(words) - i) + i
        found = set()
        for start in ((i, i + 1) if words[i] == "the" and end > i + 1 else (i,)):
            key = ""
            for j in range(start, end):
                key += words[j]
                at = bisect.bisect_left(names, key)
                if at == len(names) or not names[at].startswith(key):
                    break
                if key in keys and not (j > start and key in initials):
                    found.add(j - i + 1)
        return sorted(found, reverse=True)

    def _key(self, words: list[str]) -> int | None:
        """The card these words spell, a card's initials only as one word."""
        key = "".join(words)
        return None if len(words) > 1 and key in self.initials else self.keys.get(key)

    def _typo(self, words: list[str], spelt: frozenset[str] = frozenset()) -> int | None:
        """The card these words name with one typo, when the name is long enough: a leading
        "the" does not count ("the hall" is no misspelt The Call). In a name of several words,
        the short words and those in `spelt` are spelt as in the name."""
        key = "".join(words)
        if len(key) - (3 if len(words) > 1 and words[0] == "the" else 0) < TYPO_MIN:
            return None
        name = self._typo_of(key)
        first, last = words[0], words[-1]
        if name is None or len(words) > 1 and (
                (len(first) < TYPO_WORD_MIN or first in spelt) and not name.startswith(first)
                or (len(last) < TYPO_WORD_MIN or last in spelt) and not name.endswith(last)):
            return None     # the typo is in a short word (`TYPO_WORD_MIN`) or one of `spelt`
        return self.keys[name]

    def _long_typo_may(self, words: list[str]) -> bool:
        """Whether words of a span of three or four may spell a long name with one typo
        (`TYPO_LONG_MIN`, `_long_heads`, `_long_tails`)."""
        key = "".join(words)
        n = len(key)
        if n < TYPO_LONG_MIN:
            return False
        for lengths in (self._long_heads.get(key[:LONG_ANCHOR]), self._long_tails.get(key[-LONG_ANCHOR:])):
            if lengths is not None and (n in lengths or n - 1 in lengths or n + 1 in lengths):
                return True
        return False

    @lru_cache(maxsize=8192)
    def _typo_of(self, key: str) -> str | None:
        """The name key one typo away from `key` (kept: the same words come in query after
        query, and the look-up goes through every name of the key's length)."""
        return self._typo_name(key)

    def _typo_name(self, key: str) -> str | None:
        """The name key one typo away from `key`, without the cache (the build looks up every
        word of the cards once): not a name many cards' texts use as a word (`text_words`:
        "corrupton" is a misspelt word, not the card Corruption)."""
        # (a word one typo from a name of `TYPO_MIN` letters or more has its first three
        # letters or its last three: only the names sharing them, and the word's first
        # letter, are compared letter by letter; of those, the first in the names' order)
        head, tail, first = key[:3], key[-3:], key[0]
        for size in (len(key) - 1, len(key), len(key) + 1):
            found = None
            for group in (self._typo_heads.get((head, size), ()), self._typo_tails.get((first, tail, size), ())):
                for place, cand in group:
                    if found is not None and place >= found[0]:
                        break       # (each group in the names' order)
                    if cand != key and cand not in self.text_words and _edits1(key, cand):
                        found = (place, cand)
                        break
            if found is not None:
                return found[1]
        return None

    def _names_a_card(self, words: list[str], whole_query: bool) -> bool:
        """Whether these words, found as a name, stand for the card in this query: a name of
        several words does (unless it is also an ordinary phrase), one word only when the
        rules and the questions do not use it; neither when many cards' texts use those
        words (`text_words`: "dodge", "blood hunt")."""
        if whole_query:
            return True
        content = [w for w in words if w != "the"]
        if len(content) == 1:
            return content[0] not in self.common and content[0] not in self.text_words
        return bool(content) and "".join(words) not in PHRASES and "".join(content) not in self.text_words

    @staticmethod
    @lru_cache(maxsize=64)
    def _words(query: str) -> tuple[str, ...]:
        """The query's words as name keys (kept: a search reads them four times)."""
        return tuple(w for w in (name_key(w) for w in SPLIT.split(query[:1000])) if w)

    def name_words(self, query: str, hits: list[NameHit]) -> frozenset[str]:
        """The query's words (name keys) that name the cards `hits` found there."""
        words = self._words(query) if isinstance(query, str) else ()
        return frozenset(words[i] for h in hits for i in range(h.start, min(h.end, len(words))))

    def only_names(self, query: str, hits: list[NameHit]) -> bool:
        """Whether the query is nothing but the names `find` found there (and `FILLER`
        words): it asks for those cards themselves, not a question about them."""
        if not hits or not isinstance(query, str):
            return False
        covered = {i for h in hits for i in range(h.start, h.end)}
        return all(i in covered or w in FILLER for i, w in enumerate(self._words(query)))

    def find(self, query: str) -> list[NameHit]:
        """The cards the query names, in the order of the query, longest names first; names
        with a typo only where no exact name starts."""
        if not isinstance(query, str):
            return []
        words = self._words(query)
        hits: list[NameHit] = []
        i = 0
        while i < len(words):
            found = None
            for n in self._name_lengths(words, i):
                span = words[i:i + n]
                if self._names_a_card(span, n == len(words)):
                    found = NameHit(self._exact(span), i, i + n, True)
                    break
            # one typo in a long name of three or four words, also where a name of one word
            # starts: "mark of the dammed" is Mark of the Damned, not the vampire Mark
            if found is None or found.end - found.start == 1:
                for n in (4, 3):
                    span = words[i:i + n]
                    if len(span) == n and self._long_typo_may(span):
                        cid = self._typo(span)
                        if cid is not None:
                            found = NameHit(cid, i, i + n, False)
                            break
            if found is None:
                for n in (2, 1):   # one typo: in a name of one or two words
                    span = words[i:i + n]
                    content = [w for w in span if w != "the"]
                    # a name of two words, one of them a word of the rules spelt right and
                    # the other no word ("direct intervension"), is misspelt too: not a short
                    # word beside a word's typo ("targets and": Target Hand), nor beside a
                    # word too short for `not_typos` to tell ("a gargoyle slaved"), but as the
                    # whole query ("blood fued")
                    common = frozenset(w for w in content if w in self.common)
                    short = 0 if n == len(words) else TYPO_MIN
                    if len(span) < n or (len(content) == 1 and content[0] in self.not_typos) or common and (
                            all(w in common for w in content) or any(len(w) < TYPO_WORD_MIN for w in common)
                            or any(w in self.not_typos or len(w) < short for w in content if w not in common)):
                        continue
                    cid = self._typo(span, common)
                    if cid is not None:
                        found = NameHit(cid, i, i + n, False)
                        break
            if found:
                if all(h.card_id != found.card_id for h in hits):
                    hits.append(found)
                i = found.end
            else:
                i += 1
        return hits or self._far(words)

    def _far(self, words: tuple[str, ...]) -> list[NameHit]:
        """The card a query naming nothing else names with two typos (`FAR_MIN`): its words
        but `FILLER` and `ASKING_WORDS`, one to four and one after the other, spell a name
        of that many letters or more two typos away, keeping its first three letters or its
        last three, and no other card's; one of them is no word of the rules."""
        at = [k for k, w in enumerate(words) if w not in FILLER and w not in ASKING_WORDS]
        if not at or len(at) > 4 or at[-1] - at[0] + 1 != len(at) or all(words[k] in self.common for k in at):
            return []
        key = "".join(words[k] for k in at)
        if len(key) < FAR_MIN:
            return []
        ends = self._far_ends
        found = {self.keys[cand] for cand in (*ends.get("^" + key[:3], ()), *ends.get(key[-3:] + "$", ()))
                 if cand[0] == key[0] and abs(len(cand) - len(key)) <= 2 and cand != key
                 and cand not in self.text_words and _edits2(key, cand)}
        return [NameHit(found.pop(), at[0], at[-1] + 1, False)] if len(found) == 1 else []
